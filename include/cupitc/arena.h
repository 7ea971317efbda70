/* arena.h -- bump allocation for everything the compiler builds.
 *
 * The AST, symbols and types live until the compiler exits, so they are
 * allocated from one arena and freed in one call: nothing leaks, nothing is
 * freed twice.  Out of memory aborts with a message (the compiler has no
 * sensible way to go on). */
#ifndef CUPITC_ARENA_H
#define CUPITC_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct Arena Arena;

Arena *arena_new(void);
/* An arena that is freed with `parent` (by arena_free or arena_reset of
 * parent) unless it is freed before: for data that dies earlier than the
 * rest. */
Arena *arena_new_child(Arena *parent);
void arena_free(Arena *a);
/* Frees everything allocated so far but keeps memory for reuse (cheaper
 * than arena_free and arena_new for a scratch arena used over and over). */
void arena_reset(Arena *a);
/* Zero-filled, aligned for any type. */
void *arena_alloc(Arena *a, size_t size);
/* Gives back p, `size` bytes from arena_alloc(a, size) that nothing uses any
 * more (e.g. a hash table replaced by a larger one).  Only a large block
 * (64 KB or more: one of its own) is returned to the system; a smaller one
 * stays until the arena goes. */
void arena_release(Arena *a, void *p, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* printf into the arena. */
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Interned strings: equal contents give the same pointer, so names can be
 * compared with ==. */
const char *intern(Arena *a, const char *s, size_t n);
const char *intern_cstr(Arena *a, const char *s);
/* Frees a's table of interned strings once nothing more is interned (the
 * strings stay); a later intern() on `a` is an internal error. */
void arena_end_interning(Arena *a);

/* A growable array of pointers whose storage lives in the arena. */
typedef struct PtrVec {
    void **items;
    int len, cap;
} PtrVec;

void vec_push(Arena *a, PtrVec *v, void *item);
/* Makes room for n items in all (no copies while v grows to n). */
void vec_reserve(Arena *a, PtrVec *v, int n);
#define VEC_AT(v, i, T) ((T *)(v).items[(i)])

#endif
