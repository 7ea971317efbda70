/* rt_stack.c -- the stack check of recursive subroutines (rt_stack_check in
 * cupit_rt.h).
 *
 * The first check in a thread asks the C library where the thread's stack
 * ends and keeps that end plus a margin (room for the deepest frame of
 * generated code and for reporting the error); from then on a frame below
 * it is a recursion too deep for this thread's stack. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "cupit_rt.h"

static _Thread_local const char *rt_stack_floor;

/* What is kept free below the floor: a quarter of the stack, but 256 KB
 * at most, and on a small stack (OMP_STACKSIZE=32k) half of it up to
 * 16 KB, the room rt_error needs to report. */
static size_t margin(size_t size)
{
    size_t m = (size_t)256 << 10, low = (size_t)16 << 10;
    size_t q = size / 4 < m ? size / 4 : m;
    size_t h = size / 2 < low ? size / 2 : low;
    return q > h ? q : h;
}

/* Out of line, so this frame is one below the caller's: the margin covers it. */
__attribute__((noinline)) void rt_stack_check(rt_srcpos where)
{
    const char *frame = (const char *)__builtin_frame_address(0);
    if (__builtin_expect(frame >= rt_stack_floor && rt_stack_floor != NULL, 1))
        return;
    if (!rt_stack_floor) {
        const char *floor = (const char *)(uintptr_t)1; /* unknown: no check */
#ifdef __GLIBC__
        pthread_attr_t a;
        void *addr = NULL;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &a) == 0) {
            if (pthread_attr_getstack(&a, &addr, &size) == 0 && addr && size)
                floor = (const char *)addr + margin(size);
            pthread_attr_destroy(&a);
        }
#endif
        rt_stack_floor = floor;
        if (frame >= floor)
            return;
    }
    rt_error(where, "recursion too deep: the stack of this thread is exhausted");
}
