/* rt_lane_plan.c -- learns where a lane record keeps each plain byte.
 *
 * The ABI fixes the lane layout only as "every element an array over the
 * lanes, or one value all lanes share"; the offsets are the compiler's.  Putting records with a single
 * byte set into lanes 0 and 1 reveals, for every plain byte, its place in
 * lane 0 and the lane stride.  MERGE then moves elements with inline copies
 * instead of one get/put call per lane; any surprise falls back to calls.
 * Plans are kept in a small table, so each lane type is probed once.
 */
#include "rt_internal.h"

#include <string.h>

/* Place of the single non-zero byte of `lanes`, -1 if none, -2 if more. */
static int64_t only_set_byte(const unsigned char *lanes, size_t size)
{
    int64_t at = -1;
    for (size_t q = 0; q < size; q++)
        if (lanes[q]) {
            if (at >= 0)
                return -2;
            at = (int64_t)q;
        }
    return at;
}

/* Place of plain byte p in lane `lane`, using the scratch records: an
 * offset in the lane record, or (*in_shared) in the shared record. */
static int64_t probe(const rt_lane_desc *lane, unsigned char *rec,
                     size_t plain_size, unsigned char *lanes, unsigned char *shared,
                     size_t p, int l, bool *in_shared)
{
    memset(rec, 0, plain_size);
    memset(lanes, 0, lane->size);
    if (shared)
        memset(shared, 0, lane->shared_size);
    rec[p] = 1; /* 1 is a valid value of every C scalar byte (bool too) */
    lane->put(lanes, shared, l, rec);
    int64_t at = only_set_byte(lanes, lane->size);
    int64_t sat = shared ? only_set_byte(shared, lane->shared_size) : -1;
    *in_shared = at == -1 && sat != -1;
    if (at != -1 && sat != -1)
        return -2;
    return *in_shared ? sat : at;
}

/* Appends byte p (lane 0 at q0, stride) to the plan, extending the last
 * run when it continues it.  Stride 0: an element all lanes share. */
static bool add_byte(rt_lane_plan *plan, size_t p, size_t q0, size_t stride, bool shared)
{
    if (plan->nruns > 0) {
        rt_lane_run *r = &plan->run[plan->nruns - 1];
        if (r->stride == stride && r->shared == shared && r->plain_off + r->width == p &&
            r->lane_off + r->width == q0 && (stride == 0 || r->width < stride)) {
            r->width++;
            return true;
        }
    }
    if (plan->nruns == RT_LANE_MAX_RUNS)
        return false;
    plan->run[plan->nruns++] = (rt_lane_run){ (uint32_t)p, (uint32_t)q0, 1,
                                              (uint32_t)stride, shared };
    return true;
}

bool rt_lane_plan_make(rt_lane_plan *plan, const rt_lane_desc *lane,
                       size_t plain_size, rt_srcpos where)
{
    plan->nruns = 0;
    if (!lane->get || !lane->put || plain_size > RT_LANE_PLAN_MAX_BYTES)
        return plan->ok = false;
    unsigned char rec[RT_LANE_PLAN_MAX_BYTES];
    unsigned char *lanes = rt_alloc(where, lane->size);
    unsigned char *shared = lane->shared_size ? rt_alloc(where, lane->shared_size) : NULL;
    bool ok = true;
    for (size_t p = 0; p < plain_size && ok; p++) {
        bool sh0, sh1;
        int64_t q0 = probe(lane, rec, plain_size, lanes, shared, p, 0, &sh0);
        if (q0 == -1)
            continue; /* padding of the plain record, or an element left out */
        int64_t q1 = probe(lane, rec, plain_size, lanes, shared, p, 1, &sh1);
        size_t limit = sh0 ? lane->shared_size : lane->size;
        ok = q0 >= 0 && q1 >= q0 && sh0 == sh1 && (!sh0 || q1 == q0) &&
             (uint64_t)q0 + (uint64_t)(q1 - q0) * (RT_LANES - 1) < limit &&
             add_byte(plan, p, (size_t)q0, (size_t)(q1 - q0), sh0);
    }
    for (int32_t i = 0; i < plan->nruns && ok; i++) /* whole elements only */
        ok = plan->run[i].width == plan->run[i].stride || plan->run[i].stride == 0;
    rt_free(lanes, lane->size);
    rt_free(shared, lane->shared_size);
    return plan->ok = ok;
}

/* The plans made so far.  The key is the lane type's contents, not the
 * address of its descriptor: a descriptor may live on the stack and its
 * address be reused for another type.  Entries are never changed once
 * published, so callers may keep the pointers. */
typedef struct plan_entry {
    rt_lane_get_fn get;
    rt_lane_put_fn put;
    size_t lane_size, shared_size, plain_size;
    rt_lane_plan plan;
} plan_entry;

enum { RT_LANE_PLAN_CACHE = 64 };

static plan_entry plan_cache[RT_LANE_PLAN_CACHE];
static int32_t plan_cache_used;

static bool same_type(const plan_entry *e, const rt_lane_desc *lane,
                      size_t plain_size)
{
    return e->get == lane->get && e->put == lane->put && e->lane_size == lane->size &&
           e->shared_size == lane->shared_size && e->plain_size == plain_size;
}

const rt_lane_plan *rt_lane_plan_of(const rt_lane_desc *lane, size_t plain_size,
                                    rt_srcpos where)
{
    const rt_lane_plan *found = NULL;
    /* MERGE runs outside parallel regions; the lock only guards against
     * two threads merging different networks at the same time. */
#pragma omp critical(rt_lane_plan_cache)
    {
        for (int32_t i = 0; i < plan_cache_used && !found; i++)
            if (same_type(&plan_cache[i], lane, plain_size))
                found = &plan_cache[i].plan;
        if (!found && plan_cache_used < RT_LANE_PLAN_CACHE) {
            plan_entry *e = &plan_cache[plan_cache_used];
            *e = (plan_entry){ lane->get, lane->put, lane->size, lane->shared_size, plain_size,
                               { 0 } };
            rt_lane_plan_make(&e->plan, lane, plain_size, where);
            plan_cache_used++;
            found = &e->plan;
        }
    }
    return found && found->ok ? found : NULL;
}
