/* mutate.c -- writes mutated copies of CuPit sources for the robustness run.
 *
 *   mutate SEED COUNT OUTDIR FILE...
 *
 * Case i is a copy of FILE[i % nfiles] with 1 to 4 random edits: bytes
 * flipped or replaced (NUL and 0xFF included), word-sized spans deleted or
 * duplicated, random bytes or CuPit fragments inserted, lines swapped, or
 * the text truncated.  The same SEED always gives the same cases. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Buf {
    unsigned char *data;
    size_t len, cap;
} Buf;

static uint64_t rng_state;

static uint64_t rng(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static size_t below(size_t n)
{
    return n ? (size_t)(rng() % n) : 0;
}

static void reserve(Buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    b->cap = (b->len + extra) * 2;
    b->data = realloc(b->data, b->cap);
    if (!b->data) {
        perror("mutate");
        exit(2);
    }
}

static void insert(Buf *b, size_t at, const void *bytes, size_t n)
{
    reserve(b, n);
    memmove(b->data + at + n, b->data + at, b->len - at);
    memcpy(b->data + at, bytes, n);
    b->len += n;
}

static void erase(Buf *b, size_t at, size_t n)
{
    if (at + n > b->len)
        n = b->len - at;
    memmove(b->data + at, b->data + at + n, b->len - at - n);
    b->len -= n;
}

/* End of the word or space run starting at `at`: a rough token. */
static size_t span_end(const Buf *b, size_t at)
{
    size_t e = at;
    int space = e < b->len && (b->data[e] == ' ' || b->data[e] == '\n');
    while (e < b->len && e - at < 64
           && ((b->data[e] == ' ' || b->data[e] == '\n') == space))
        e++;
    return e > at ? e : at + (at < b->len);
}

static const char *const fragments[] = {
    "END", "END IF", "IF", "THEN", "REPEAT", "(*", "*)", "\"", ";", "...", "(", ")",
    "[", "]", ".", ":=", "<--", "-->", "TYPE", "PROCEDURE", "IS", "RECORD", "NODE",
    "ME", "YOU", "WTA", "REDUCTION", "MERGE", "0x", "1.", ".5", "09", "99999999999",
    "\\", "FOOBAR", "_", "\t", "\r\n", "\xc3\xbc", "\xff", "?", ":", "**", "=",
};

static void mutate_once(Buf *b)
{
    size_t at = below(b->len + 1);
    unsigned char bytes[8];
    switch (below(9)) {
    case 0: /* flip bits */
        if (at < b->len)
            b->data[at] ^= (unsigned char)(1u << below(8));
        break;
    case 1: /* replace a byte, often by a special one */
        if (at < b->len) {
            static const unsigned char special[] = {0x00, 0xff, 0x80, 0x0a, 0x22, 0x2a, 0x28};
            b->data[at] = below(2) ? special[below(sizeof special)] : (unsigned char)rng();
        }
        break;
    case 2: /* delete a token */
        erase(b, at, span_end(b, at) - at);
        break;
    case 3: { /* duplicate a span somewhere else */
        size_t n = 1 + below(40);
        if (at + n > b->len)
            n = b->len - at;
        unsigned char *copy = malloc(n + 1);
        memcpy(copy, b->data + at, n);
        insert(b, below(b->len + 1), copy, n);
        free(copy);
        break;
    }
    case 4: /* truncate */
        b->len = at;
        break;
    case 5: { /* random bytes */
        size_t n = 1 + below(sizeof bytes);
        for (size_t i = 0; i < n; i++)
            bytes[i] = (unsigned char)rng();
        insert(b, at, bytes, n);
        break;
    }
    case 6:
    case 7: { /* a CuPit fragment */
        const char *f = fragments[below(sizeof fragments / sizeof fragments[0])];
        insert(b, at, f, strlen(f));
        break;
    }
    case 8: { /* swap a line with the next one by duplicating and deleting */
        size_t s = at;
        while (s > 0 && b->data[s - 1] != '\n')
            s--;
        size_t e = s;
        while (e < b->len && b->data[e] != '\n')
            e++;
        if (e < b->len) {
            size_t n = e + 1 - s;
            unsigned char *line = malloc(n);
            memcpy(line, b->data + s, n);
            erase(b, s, n);
            size_t next = s;
            while (next < b->len && b->data[next] != '\n')
                next++;
            insert(b, next < b->len ? next + 1 : b->len, line, n);
            free(line);
        }
        break;
    }
    }
}

static Buf read_file(const char *path)
{
    Buf b = {0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    unsigned char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        insert(&b, b.len, chunk, n);
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: mutate SEED COUNT OUTDIR FILE...\n");
        return 2;
    }
    rng_state = strtoull(argv[1], NULL, 10) | 1;
    long count = strtol(argv[2], NULL, 10);
    const char *outdir = argv[3];
    int nfiles = argc - 4;
    Buf *seeds = calloc((size_t)nfiles, sizeof *seeds);
    for (int i = 0; i < nfiles; i++)
        seeds[i] = read_file(argv[4 + i]);
    for (long i = 0; i < count; i++) {
        const Buf *src = &seeds[i % nfiles];
        Buf b = {0};
        insert(&b, 0, src->data, src->len);
        for (size_t k = 1 + below(4); k > 0; k--)
            mutate_once(&b);
        char path[4096];
        snprintf(path, sizeof path, "%s/case-%05ld.nn", outdir, i);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0) {
            perror(path);
            return 2;
        }
        free(b.data);
    }
    for (int i = 0; i < nfiles; i++)
        free(seeds[i].data);
    free(seeds);
    return 0;
}
