/* arena.c -- bump allocator, string interning and pointer vectors. */
#include "cupitc/arena.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cupitc/format.h"

/* Chunks come straight from mmap: fresh anonymous pages are already zero,
   so arena_alloc never clears memory.  An arena's chunks grow from 64 KB to
   2 MB (a small scratch arena stays small).  Once the arenas together hold
   HUGE_AFTER bytes, 2 MB chunks are aligned to 2 MB so that transparent huge
   pages back them, one page fault per chunk instead of 512 (first-touch
   faults were a fifth of the compile time of large programs); before that,
   ordinary pages cost only what is touched (a huge page is all there as soon
   as one byte of it is used), which matters for a small program.  Ordinary
   pages are faulted in ahead of use POPULATE_STEP bytes at a time
   (MADV_POPULATE_WRITE, one system call instead of 32 faults): a fault is
   expensive in a virtual machine, and they were a fifth of -S for a 1 MB
   program. */
enum {
    CHUNK_SIZE = 2 * 1024 * 1024,
    FIRST_CHUNK = 64 * 1024,
    HUGE_AFTER = 32 * 1024 * 1024,
    BIG_PAGE = 65536,  /* blocks of their own: a multiple of every page size in use */
    BIG_BLOCK = 64 * 1024, /* from this size a block of its own (arena_release) */
    INTERN_INITIAL = 1024,
    POPULATE_STEP = 128 * 1024,
};

/* Under AddressSanitizer the free part of a chunk is poisoned and every
   allocation is followed by a poisoned gap, so that reading past the end of
   a node (e.g. a union member its kind does not have, ast.c) is reported. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
enum { REDZONE = 64 };
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
enum { REDZONE = 0 };
#endif

typedef struct Chunk {
    struct Chunk *next;
    size_t used, size; /* size: bytes of data[] */
    size_t map_size;   /* bytes mapped, header included */
    size_t ready;      /* bytes of data[] known to be backed by memory */
    bool big;          /* one block of its own, not bump-allocated from */
    max_align_t data[];
} Chunk;

typedef struct InternEntry {
    const char *str;
    uint32_t len, hash;
} InternEntry;

struct Arena {
    Chunk *chunks;     /* the chunk allocations come from first */
    Arena *parent;     /* arena_new_child: freed with it */
    Arena *children, *next_child;
    size_t next_size;  /* bytes mapped for the next ordinary chunk */
    InternEntry *table; /* open addressing, malloc'd */
    size_t table_cap, table_len;
    bool interning_ended; /* arena_end_interning */
};

static void out_of_memory(void)
{
    fputs("cupitc: fatal error: out of memory\n", stderr);
    exit(3);
}

/* Maps `size` zeroed bytes (a multiple of the page size); with `huge`,
   aligned to CHUNK_SIZE for huge pages. */
static void *map_zeroed(size_t size, bool huge)
{
    size_t extra = huge ? CHUNK_SIZE : 0;
    char *p = mmap(NULL, size + extra, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (extra) {
        uintptr_t addr = (uintptr_t)p;
        size_t head = (CHUNK_SIZE - addr % CHUNK_SIZE) % CHUNK_SIZE;
        if (head)
            munmap(p, head);
        if (extra - head)
            munmap(p + head + size, extra - head);
        p += head;
#ifdef MADV_HUGEPAGE
        madvise(p, size, MADV_HUGEPAGE);
#endif
    }
    return p;
}

Arena *arena_new(void)
{
    Arena *a = calloc(1, sizeof *a);
    if (!a)
        out_of_memory();
    a->next_size = FIRST_CHUNK;
    return a;
}

/* Bytes of the ordinary chunks all arenas hold. */
static size_t arenas_mapped;

static void unmap_chunk(Chunk *c)
{
    if (!c->big)
        arenas_mapped -= c->map_size;
    /* the shadow of unmapped memory would stay poisoned for the next mapping
       at the same address */
    ASAN_UNPOISON_MEMORY_REGION(c, c->map_size);
    munmap(c, c->map_size);
}

/* The full-size chunks of a freed arena wait here for the next arena that
   grows (analysis's data is freed just before lowering allocates more than
   that): memory the process has costs a memset of its used part, while
   fresh pages cost a fault and the kernel's clearing -- many times more
   where the system lends memory lazily (a virtual machine).  They were in
   use a moment before and are taken before any fresh memory, so the peak
   is not raised.  Smaller chunks are given back: they would seldom be asked
   for again. */
static Chunk *spare_chunks;

static void drop_chunk(Chunk *c)
{
    if (c->big || c->map_size != CHUNK_SIZE) {
        unmap_chunk(c);
        return;
    }
    c->next = spare_chunks; /* c->used says how much of it to clear */
    spare_chunks = c;
}

/* A spare full-size chunk, cleared, or NULL. */
static Chunk *spare_chunk(void)
{
    Chunk *c = spare_chunks;
    if (!c)
        return NULL;
    spare_chunks = c->next;
    ASAN_UNPOISON_MEMORY_REGION(c->data, c->used);
    memset(c->data, 0, c->used);
    ASAN_POISON_MEMORY_REGION(c->data, c->size);
    c->used = 0;
    c->ready = c->size; /* whatever the kernel gave back stays mapped */
    return c;
}

Arena *arena_new_child(Arena *parent)
{
    Arena *a = arena_new();
    a->parent = parent;
    a->next_child = parent->children;
    parent->children = a;
    return a;
}

static void free_children(Arena *a)
{
    while (a->children)
        arena_free(a->children); /* unlinks itself */
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    free_children(a);
    if (a->parent) {
        Arena **p = &a->parent->children;
        while (*p != a)
            p = &(*p)->next_child;
        *p = a->next_child;
    }
    for (Chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        drop_chunk(c);
    }
    free(a->table);
    free(a);
}

void arena_reset(Arena *a)
{
    free_children(a);
    /* the largest ordinary chunk stays, cleared (allocations rely on zeroed
       memory); fresh pages would have to be zeroed by the kernel anyway */
    Chunk *keep = NULL;
    for (Chunk *c = a->chunks; c; c = c->next)
        if (!c->big && (!keep || c->size > keep->size))
            keep = c;
    for (Chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        if (c != keep)
            unmap_chunk(c);
    }
    if (keep) {
        ASAN_UNPOISON_MEMORY_REGION(keep->data, keep->used);
        memset(keep->data, 0, keep->used);
        ASAN_POISON_MEMORY_REGION(keep->data, keep->size);
        keep->used = 0;
        keep->next = NULL;
    }
    a->chunks = keep;
    free(a->table);
    a->table = NULL;
    a->table_cap = a->table_len = 0;
    a->interning_ended = false;
}

static size_t round_size(size_t size)
{
    /* 8 bytes suit every object the compiler allocates (pointers, int64_t,
       double); max_align_t's 16 would pad most nodes */
    return (size + 7) & ~(size_t)7;
}

/* A chunk with room for `size` bytes: the next ordinary one, or a block of
   its own for a size that does not fit one or is BIG_BLOCK or more. */
static Chunk *new_chunk(Arena *a, size_t size)
{
    size_t header = offsetof(Chunk, data);
    size_t map = a->next_size;
    bool big = size > map - header || size >= BIG_BLOCK;
    if (big) {
        if (size > SIZE_MAX - header - BIG_PAGE)
            out_of_memory();
        map = (header + size + BIG_PAGE - 1) / BIG_PAGE * BIG_PAGE;
    } else if (a->next_size < CHUNK_SIZE) {
        a->next_size *= 2;
    }
    Chunk *c = !big && map == CHUNK_SIZE ? spare_chunk() : NULL;
    if (!c) {
        /* a large block (a big table) gets huge pages too: fewer TLB misses */
        c = map_zeroed(map, map >= CHUNK_SIZE && arenas_mapped >= HUGE_AFTER);
        if (!c)
            out_of_memory();
        c->size = map - header;
        c->used = 0;
        c->map_size = map;
        c->ready = map >= CHUNK_SIZE && arenas_mapped >= HUGE_AFTER ? c->size : 0;
        c->big = big;
        if (!big)
            arenas_mapped += map;
        ASAN_POISON_MEMORY_REGION(c->data, c->size);
    }
    /* a block of its own goes behind the current chunk, whose free space
       stays in use */
    if (big && a->chunks) {
        c->next = a->chunks->next;
        a->chunks->next = c;
    } else {
        c->next = a->chunks;
        a->chunks = c;
    }
    return c;
}

/* Backs the next POPULATE_STEP bytes of c past c->used with memory in one
   call; where the kernel does not know MADV_POPULATE_WRITE (before Linux
   5.14), pages fault in one by one as before. */
static void populate(Chunk *c)
{
#ifdef MADV_POPULATE_WRITE
    static bool unsupported;
    size_t end = (c->used + POPULATE_STEP - 1) / POPULATE_STEP * POPULATE_STEP;
    if (end > c->size)
        end = c->size;
    if (!unsupported) {
        uintptr_t page = 4096;
        uintptr_t from = ((uintptr_t)c->data + c->ready) & ~(page - 1);
        uintptr_t to = ((uintptr_t)c->data + end + page - 1) & ~(page - 1);
        uintptr_t limit = (uintptr_t)c + c->map_size;
        if (to > limit)
            to = limit;
        if (to > from && madvise((void *)from, to - from, MADV_POPULATE_WRITE) != 0 &&
            errno == EINVAL)
            unsupported = true;
    }
    c->ready = end;
#else
    c->ready = c->size;
#endif
}

void *arena_alloc(Arena *a, size_t size)
{
    size = round_size(size);
    Chunk *c = a->chunks;
    if (!c || c->size - c->used < size + REDZONE || size + REDZONE >= BIG_BLOCK) {
        c = new_chunk(a, size + REDZONE);
        if (c->big) {
            c->used = c->size;
            ASAN_UNPOISON_MEMORY_REGION(c->data, size);
            return c->data;
        }
    }
    void *p = (char *)c->data + c->used;
    c->used += size + REDZONE;
    if (c->used > c->ready)
        populate(c);
    ASAN_UNPOISON_MEMORY_REGION(p, size);
    return p; /* never handed out since the chunk was mapped or cleared: zero */
}

void arena_release(Arena *a, void *p, size_t size)
{
    if (!p || round_size(size) + REDZONE < BIG_BLOCK)
        return;
    for (Chunk **link = &a->chunks; *link; link = &(*link)->next) {
        Chunk *c = *link;
        if (c->big && (void *)c->data == p) {
            *link = c->next;
            unmap_chunk(c);
            return;
        }
    }
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

char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
    /* one formatting pass for the usual short text, a second only for a
       long one */
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = format_vsn(small, sizeof small, fmt, ap);
    if (n < 0)
        n = 0;
    char *p = arena_alloc(a, (size_t)n + 1);
    if ((size_t)n < sizeof small)
        memcpy(p, small, (size_t)n + 1);
    else
        format_vsn(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(a, fmt, ap);
    va_end(ap);
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
    if (a->interning_ended || n > UINT32_MAX) {
        fputs("cupitc: internal error: interning after arena_end_interning\n", stderr);
        abort();
    }
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
    a->table[j] = (InternEntry){copy, (uint32_t)n, h};
    a->table_len++;
    return copy;
}

const char *intern_cstr(Arena *a, const char *s)
{
    return intern(a, s, strlen(s));
}

void arena_end_interning(Arena *a)
{
    free(a->table);
    a->table = NULL;
    a->table_cap = a->table_len = 0;
    a->interning_ended = true;
}

void vec_push(Arena *a, PtrVec *v, void *item)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 2; /* most vectors hold one or two */
        size_t old_bytes = (size_t)v->cap * sizeof *v->items;
        size_t grow = (size_t)(cap - v->cap) * sizeof *v->items;
        Chunk *c = a->chunks;
        /* the items are the newest allocation: grow them in place instead
           of leaving the old array behind (most vectors grow only so) */
        if (v->cap && c && !c->big &&
            (char *)v->items + old_bytes + REDZONE == (char *)c->data + c->used &&
            c->size - c->used >= grow) {
            ASAN_UNPOISON_MEMORY_REGION((char *)v->items + old_bytes, grow);
            c->used += grow;
        } else {
            void **items = arena_alloc(a, (size_t)cap * sizeof *items);
            if (v->len)
                memcpy(items, v->items, (size_t)v->len * sizeof *items);
            v->items = items;
        }
        v->cap = cap;
    }
    v->items[v->len++] = item;
}

void vec_reserve(Arena *a, PtrVec *v, int n)
{
    if (n <= v->cap)
        return;
    void **items = arena_alloc(a, (size_t)n * sizeof *items);
    if (v->len)
        memcpy(items, v->items, (size_t)v->len * sizeof *items);
    v->items = items;
    v->cap = n;
}
