/* rt_replicate.c -- network replication (REPLICATE net INTO) and MERGE.
 *
 * Replicates share the topology and own copies of all records.  Merging
 * combines exemplars pairwise in a binary tree (log2 k rounds, the pairs of
 * a round in parallel when there are enough) with the MERGE procedures of
 * the network, node and connection types; docs/replication.md gives the
 * count rule and the order.  Lane-blocked networks go to rt_lanes.c.
 */
#include "rt_internal.h"

#include <string.h>

/* Work one thread should get per parallel region so that the region pays
 * for its fork and join (a few microseconds). */
enum { RT_GRAIN = 32768 };

/* Nodes plus connections: the default work estimate of one replicate. */
static int64_t net_size(const rt_net *net)
{
    int64_t w = 0;
    for (int32_t g = 0; g < net->desc->ngroups; g++)
        w += net->count[g];
    for (int32_t b = 0; b < net->desc->nbundles; b++)
        w += net->bundles[b].nconn;
    return w;
}

/* Whether `times` passes over the network are worth a parallel region. */
static bool big(const rt_net *net, int64_t times)
{
    return rt_threads() > 1 && times > 1 && times * net_size(net) >= 2 * RT_GRAIN;
}

int32_t rt_choose_replicates(int32_t lo, int32_t hi, int64_t work, int threads)
{
    if (work < 1)
        work = 1;
    /* Replicates per thread so that each thread's share is one grain. */
    int64_t per_thread = work >= RT_GRAIN ? 1 : (RT_GRAIN + work - 1) / work;
    int64_t k = (int64_t)threads * per_thread;
    if (k > hi)
        k = hi;
    if (k < lo)
        k = lo;
    /* Prefer a multiple of the thread count (balanced teams). */
    if (k > threads && k % threads && k - k % threads >= lo)
        k -= k % threads;
    return (int32_t)k;
}

/* The count for INTO lo...hi with lane blocks (docs/replication.md).  A
 * block runs RT_LANES replicates for about the price of one, so the rule
 * counts blocks.  One thread: enough blocks that a call has RT_GRAIN of
 * work (each call costs the central agent a few steps), no more, since
 * every block adds MERGE and update work.  Several threads: a parallel
 * region costs microseconds of fork and join on every call (about 3 us
 * measured on two cores), so every thread needs RT_LANE_GRAIN of work per
 * call, the same bound as the generated code's parallel test
 * (CP_PAR_LANE_WORK).  If that takes so many blocks that they hold more
 * than a tenth of the interval's top (a training set's size, in the
 * common INTO 1...examples), their per-epoch MERGE and update work would
 * eat the gain: the network is too small to run in parallel and keeps the
 * one-thread count. */
enum { RT_LANE_GRAIN = 80000 };

static int32_t lane_replicates(int32_t lo, int32_t hi, int64_t work, int threads)
{
    int64_t per_block = work * RT_LANES;
    int64_t blocks = per_block >= RT_GRAIN ? 1 : (RT_GRAIN + per_block - 1) / per_block;
    if (threads > 1) {
        int64_t per_thread = (RT_LANE_GRAIN + per_block - 1) / per_block;
        if (per_thread * threads * RT_LANES * 10 <= hi)
            blocks = per_thread * threads;
    }
    int64_t k = blocks * RT_LANES;
    if (k > hi)
        k = hi;
    if (k < lo)
        k = lo;
    return rt_lane_count((int32_t)k, lo, hi);
}

/* Copies replicate `from` into the existing replicate `to`. */
static void copy_rep(rt_net *net, int32_t to, int32_t from)
{
    const rt_net_desc *d = net->desc;
    rt_rep *a = &net->reps[to], *b = &net->reps[from];
    memcpy(a->net_data, b->net_data, d->net_size);
    for (int32_t g = 0; g < d->ngroups; g++)
        memcpy(a->nodes[g], b->nodes[g], (size_t)net->count[g] * d->groups[g].node_size);
    for (int32_t k = 0; k < d->nbundles; k++)
        memcpy(a->conns[k], b->conns[k],
               (size_t)net->bundles[k].nconn * d->bundles[k].conn_size);
}

/* Copies replicate 0 into replicates 1 .. nreps-1, in parallel only when
 * that pays (an OpenMP region costs a futex call even with one thread). */
static void copy_to_all(rt_net *net)
{
    int32_t k = net->nreps;
    if (big(net, k - 1)) {
#pragma omp parallel for schedule(static)
        for (int32_t r = 1; r < k; r++)
            copy_rep(net, r, 0);
    } else {
        for (int32_t r = 1; r < k; r++)
            copy_rep(net, r, 0);
    }
}

/* Allocates replicates 1 .. k-1 as copies of replicate 0. */
static void expand(rt_net *net, int32_t k, rt_srcpos where)
{
    net->reps = rt_realloc(where, net->reps, sizeof(rt_rep), (size_t)k * sizeof(rt_rep));
    for (int32_t r = 1; r < k; r++)
        rt_rep_alloc(net, &net->reps[r], where);
    net->nreps = k;
    copy_to_all(net);
}

/* Whether pairs x n merge calls are worth a parallel region (and may run
 * in one: not MERGE procedures that draw RANDOM under --deterministic). */
static bool par(int32_t pairs, int32_t n)
{
    return rt_threads() > 1 && (int64_t)pairs * n >= 2 * RT_GRAIN && !rt_random_serial();
}

/* The records of node group (nodes) or bundle (!nodes) x in a replicate. */
static char *records(const rt_rep *rep, bool nodes, int32_t x)
{
    return nodes ? rep->nodes[x] : rep->conns[x];
}

/* Merges record i of group/bundle x of pair p in round s. */
static inline void merge_at(const rt_rep *reps, int64_t s, int32_t p, int32_t i,
                            bool nodes, int32_t x, size_t size, rt_merge_fn fn)
{
    fn(records(&reps[2 * s * p], nodes, x) + (size_t)i * size,
       records(&reps[2 * s * p + s], nodes, x) + (size_t)i * size);
}

/* One level (a group or a bundle) of one round: pairs x n merges. */
static void merge_level(const rt_rep *reps, int64_t s, int32_t pairs, int32_t n,
                        bool nodes, int32_t x, size_t size, rt_merge_fn fn)
{
    if (par(pairs, n)) {
#pragma omp parallel for collapse(2) schedule(static)
        for (int32_t p = 0; p < pairs; p++)
            for (int32_t i = 0; i < n; i++)
                merge_at(reps, s, p, i, nodes, x, size, fn);
    } else {
        for (int32_t p = 0; p < pairs; p++)
            for (int32_t i = 0; i < n; i++)
                merge_at(reps, s, p, i, nodes, x, size, fn);
    }
}

/* One round of the tree: replicate i + s merges into i for every i that
 * is a multiple of 2s.  s is 64-bit: with more than 2^30 replicates, 2s
 * passes INT32_MAX. */
static void merge_round(rt_net *net, int64_t s)
{
    const rt_net_desc *d = net->desc;
    int32_t k = net->nreps, pairs = (int32_t)((k - s + 2 * s - 1) / (2 * s));
    rt_rep *reps = net->reps;
    if (d->merge) /* one record per pair: never worth a region */
        for (int32_t p = 0; p < pairs; p++)
            d->merge(reps[2 * s * p].net_data, reps[2 * s * p + s].net_data);
    for (int32_t g = 0; g < d->ngroups; g++)
        if (d->groups[g].merge)
            merge_level(reps, s, pairs, net->count[g], true, g,
                        d->groups[g].node_size, d->groups[g].merge);
    for (int32_t b = 0; b < d->nbundles; b++)
        if (d->bundles[b].merge)
            merge_level(reps, s, pairs, net->bundles[b].nconn, false, b,
                        d->bundles[b].conn_size, d->bundles[b].merge);
}

/* Merges all replicates into replicate 0. */
static void tree_merge(rt_net *net)
{
    for (int64_t s = 1; s < net->nreps; s *= 2)
        merge_round(net, s);
}

void rt_merge(rt_net *net, rt_srcpos where)
{
    if (net->blocks) {
        rt_lanes_merge(net, where);
        return;
    }
    if (net->nreps < 2)
        return; /* state U or R(1): nothing to merge */
    tree_merge(net);
    copy_to_all(net);
}

void rt_merge_first(rt_net *net, rt_srcpos where)
{
    if (net->blocks)
        rt_lanes_merge_first(net, where);
    else
        rt_merge(net, where);
}

void rt_merge_spread(rt_net *net, rt_srcpos where)
{
    if (net->blocks)
        rt_lanes_spread(net, where);
}

/* REPLICATE net INTO 1 in state R(k): merge and return to U. */
static void reunite(rt_net *net, rt_srcpos where)
{
    tree_merge(net);
    for (int32_t r = 1; r < net->nreps; r++)
        rt_rep_free(net, r);
    net->reps = rt_realloc(where, net->reps, (size_t)net->nreps * sizeof(rt_rep),
                           sizeof(rt_rep));
    net->nreps = 1;
    net->replicated = false;
}

void rt_replicate(rt_net *net, int32_t lo, int32_t hi, bool interval,
                  int64_t work_hint, rt_srcpos where)
{
    if (lo > hi)
        rt_error(where, "REPLICATE %s INTO the empty interval %d...%d",
                 rt_net_name(net), (int)lo, (int)hi);
    if (lo < 1) {
        if (interval)
            rt_error(where, "REPLICATE %s INTO %d...%d (the count must be "
                     "at least 1)", rt_net_name(net), (int)lo, (int)hi);
        rt_error(where, "REPLICATE %s INTO %d (the count must be at least 1)",
                 rt_net_name(net), (int)lo);
    }
    if (net->replicated) {
        if (interval || lo != 1)
            rt_error(where, "REPLICATE %s while it is already replicated "
                     "(only INTO 1 is allowed)", rt_net_name(net));
        if (net->blocks)
            rt_lanes_leave(net, where);
        else
            reunite(net, where);
        return;
    }
    int32_t k = lo;
    /* --deterministic: the count must not follow the thread count */
    const int threads = rt_deterministic() ? RT_DETERMINISTIC_THREADS : rt_threads();
    if (interval)
        k = rt_choose_replicates(lo, hi, work_hint > 0 ? work_hint : net_size(net), threads);
    if (k == 1 && !interval)
        return; /* INTO 1 in state U changes nothing */
    if (net->desc->lanes) {
        if (interval)
            k = lane_replicates(lo, hi, work_hint > 0 ? work_hint : net_size(net), threads);
        rt_lanes_enter(net, k, where);
        return;
    }
    if (k > 1)
        expand(net, k, where);
    net->replicated = true;
}
