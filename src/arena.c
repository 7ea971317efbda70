/* arena.c -- bump allocator, string interning and pointer vectors. */
#include "cupitc/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_SIZE = 64 * 1024, INTERN_INITIAL = 1024 };

typedef struct Chunk {
    struct Chunk *next;
    size_t used, size;
    max_align_t data[];
} Chunk;

typedef struct InternEntry {
    const char *str;
    size_t len;
    uint32_t hash;
} InternEntry;

struct Arena {
    Chunk *chunks;
    InternEntry *table; /* open addressing, malloc'd */
    size_t table_cap, table_len;
};

static void out_of_memory(void)
{
    fputs("cupitc: fatal error: out of memory\n", stderr);
    exit(3);
}

Arena *arena_new(void)
{
    Arena *a = calloc(1, sizeof *a);
    if (!a)
        out_of_memory();
    return a;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a->table);
    free(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    /* 8 bytes suit every object the compiler allocates (pointers, int64_t,
       double); max_align_t's 16 would pad most nodes */
    size_t align = 8;
    size = (size + align - 1) & ~(align - 1);
    Chunk *c = a->chunks;
    if (!c || c->size - c->used < size) {
        size_t cap = size > CHUNK_SIZE ? size : CHUNK_SIZE;
        c = malloc(sizeof *c + cap);
        if (!c)
            out_of_memory();
        c->size = cap;
        c->used = 0;
        c->next = a->chunks;
        a->chunks = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void intern_grow(Arena *a)
{
    size_t cap = a->table_cap ? a->table_cap * 2 : INTERN_INITIAL;
    InternEntry *t = calloc(cap, sizeof *t);
    if (!t)
        out_of_memory();
    for (size_t i = 0; i < a->table_cap; i++) {
        InternEntry e = a->table[i];
        if (!e.str)
            continue;
        size_t j = e.hash & (cap - 1);
        while (t[j].str)
            j = (j + 1) & (cap - 1);
        t[j] = e;
    }
    free(a->table);
    a->table = t;
    a->table_cap = cap;
}

const char *intern(Arena *a, const char *s, size_t n)
{
    if (2 * (a->table_len + 1) > a->table_cap)
        intern_grow(a);
    uint32_t h = hash_bytes(s, n);
    size_t j = h & (a->table_cap - 1);
    for (; a->table[j].str; j = (j + 1) & (a->table_cap - 1)) {
        InternEntry *e = &a->table[j];
        if (e->hash == h && e->len == n && memcmp(e->str, s, n) == 0)
            return e->str;
    }
    const char *copy = arena_strndup(a, s, n);
    a->table[j] = (InternEntry){copy, n, h};
    a->table_len++;
    return copy;
}

const char *intern_cstr(Arena *a, const char *s)
{
    return intern(a, s, strlen(s));
}

void vec_push(Arena *a, PtrVec *v, void *item)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 4;
        void **items = arena_alloc(a, (size_t)cap * sizeof *items);
        if (v->len)
            memcpy(items, v->items, (size_t)v->len * sizeof *items);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = item;
}
