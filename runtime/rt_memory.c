/* rt_memory.c -- allocation with accounting for generated programs.
 *
 * Every runtime allocation goes through here, so that the bytes in use and
 * the peak can be reported, an optional limit (--memory-limit) can be
 * enforced, and failure is always the run-time error "out of memory".
 */
#include "rt_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_size_t bytes_in_use;
static atomic_size_t peak_bytes;
static size_t memory_limit;

void rt_set_memory_limit(size_t bytes)
{
    memory_limit = bytes;
}

/* Books `bytes` more; false if that would pass the limit. */
static bool account(size_t bytes)
{
    size_t now = atomic_fetch_add(&bytes_in_use, bytes) + bytes;
    if (memory_limit && now > memory_limit) {
        atomic_fetch_sub(&bytes_in_use, bytes);
        return false;
    }
    size_t peak = atomic_load(&peak_bytes);
    while (now > peak && !atomic_compare_exchange_weak(&peak_bytes, &peak, now))
        ;
    return true;
}

void *rt_alloc(rt_srcpos where, size_t bytes)
{
    if (!account(bytes))
        rt_out_of_memory(where, bytes);
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        atomic_fetch_sub(&bytes_in_use, bytes);
        rt_out_of_memory(where, bytes);
    }
    return p;
}

void *rt_alloc_lines(rt_srcpos where, size_t bytes)
{
    if (!account(bytes))
        rt_out_of_memory(where, bytes);
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 1) != 0) {
        atomic_fetch_sub(&bytes_in_use, bytes);
        rt_out_of_memory(where, bytes);
    }
    memset(p, 0, bytes);
    return p;
}

void rt_check_room(rt_srcpos where, size_t bytes)
{
    size_t now = atomic_load(&bytes_in_use);
    if (memory_limit && (bytes > memory_limit || now > memory_limit - bytes))
        rt_out_of_memory(where, bytes);
    if (bytes >= ((size_t)1 << 28)) {
        void *p = malloc(bytes); /* untouched pages: only address space */
        if (!p)
            rt_out_of_memory(where, bytes);
        free(p);
    }
}

void *rt_realloc(rt_srcpos where, void *p, size_t old_bytes, size_t new_bytes)
{
    if (new_bytes > old_bytes && !account(new_bytes - old_bytes))
        rt_out_of_memory(where, new_bytes);
    void *q = realloc(p, new_bytes ? new_bytes : 1);
    if (!q) {
        if (new_bytes > old_bytes)
            atomic_fetch_sub(&bytes_in_use, new_bytes - old_bytes);
        rt_out_of_memory(where, new_bytes);
    }
    if (new_bytes > old_bytes)
        memset((char *)q + old_bytes, 0, new_bytes - old_bytes); /* like rt_alloc */
    else
        atomic_fetch_sub(&bytes_in_use, old_bytes - new_bytes);
    return q;
}

void rt_free(void *p, size_t bytes)
{
    if (!p)
        return;
    free(p);
    atomic_fetch_sub(&bytes_in_use, bytes);
}

/* A local variable too large for a thread's stack: its storage, 64-byte
 * aligned like the vectors of lane records, after a header of 64 bytes
 * that keeps its size for rt_local_free. */
#define LOCAL_HEADER 64

void *rt_local_alloc(rt_srcpos where, size_t bytes)
{
    if (bytes > SIZE_MAX - LOCAL_HEADER)
        rt_out_of_memory(where, bytes);
    char *p = rt_alloc_lines(where, bytes + LOCAL_HEADER);
    memcpy(p, &bytes, sizeof bytes);
    return p + LOCAL_HEADER;
}

void rt_local_free(void *var)
{
    char *q = *(char **)var;
    if (!q)
        return;
    size_t bytes;
    memcpy(&bytes, q - LOCAL_HEADER, sizeof bytes);
    rt_free(q - LOCAL_HEADER, bytes + LOCAL_HEADER);
}

size_t rt_bytes_in_use(void)
{
    return atomic_load(&bytes_in_use);
}

size_t rt_peak_bytes(void)
{
    return atomic_load(&peak_bytes);
}
