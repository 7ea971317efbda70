/* rt_lanes.c -- lane-blocked replicates (desc->lanes, cupit_rt.h).
 *
 * In state R(k) the data lives in ceil(k / RT_LANES) blocks of lane
 * records instead of k plain replicates.  This file enters and leaves that
 * state and merges in it, in parallel over records when there is enough
 * work: with the types' lane-wise MERGE and no padding lanes, blocks are
 * merged pairwise and then the lanes of block 0 (inside the lane record
 * with the type's fold, else in plain temporaries); otherwise every record is
 * gathered lane by lane into plain temporaries and merged there in the
 * tree order of the plain implementation (docs/replication.md).
 */
#include "rt_internal.h"

#include <string.h>

/* Elements one thread should handle per parallel region to pay for it. */
enum { RT_LANE_GRAIN = 32768 };

/* The record sets of a network: 0 is the network record, 1 .. ngroups the
 * node groups, then the connection bundles. */
typedef struct rset {
    size_t size;              /* plain record */
    const rt_lane_desc *lane; /* lane record (and shared record) */
    rt_merge_fn merge;
    int32_t n;                /* records */
    const rt_lane_plan *plan; /* inline lane moves, or NULL */
    bool lane_tree;           /* merge blocks with lane->merge first */
} rset;

static int32_t nsets(const rt_net *net)
{
    return 1 + net->desc->ngroups + net->desc->nbundles;
}

static rset set_of(const rt_net *net, int32_t s)
{
    const rt_net_desc *d = net->desc;
    if (s == 0)
        return (rset){ d->net_size, &d->lane, d->merge, 1, NULL, false };
    if (s <= d->ngroups) {
        const rt_group_desc *g = &d->groups[s - 1];
        return (rset){ g->node_size, &g->lane, g->merge, net->count[s - 1], NULL, false };
    }
    const rt_bundle_desc *b = &d->bundles[s - 1 - d->ngroups];
    return (rset){ b->conn_size, &b->lane, b->merge,
                   net->bundles[s - 1 - d->ngroups].nconn, NULL, false };
}

/* The lane records of set s in block j. */
static char *lanes_of(const rt_net *net, int32_t j, int32_t s)
{
    const rt_block *bl = &net->blocks[j];
    int32_t ng = net->desc->ngroups;
    if (s == 0)
        return bl->net;
    return s <= ng ? bl->nodes[s - 1] : bl->conns[s - 1 - ng];
}

/* The shared records of set s in block j, or NULL. */
static char *shared_of(const rt_net *net, int32_t j, int32_t s)
{
    const rt_block *bl = &net->blocks[j];
    int32_t ng = net->desc->ngroups;
    if (s == 0)
        return bl->net_shared;
    return s <= ng ? bl->nodes_shared[s - 1] : bl->conns_shared[s - 1 - ng];
}

/* Record i's shared record in set s of block j, or NULL. */
static char *shared_rec(const rt_net *net, int32_t j, int32_t s, const rset *st, int32_t i)
{
    char *base = shared_of(net, j, s);
    return base ? base + (size_t)i * st->lane->shared_size : NULL;
}

/* The plain records of set s in replicate 0. */
static char *plain_of(const rt_net *net, int32_t s)
{
    const rt_rep *rep = &net->reps[0];
    int32_t ng = net->desc->ngroups;
    if (s == 0)
        return rep->net_data;
    return s <= ng ? rep->nodes[s - 1] : rep->conns[s - 1 - ng];
}

static size_t max_record(const rt_net *net)
{
    size_t m = 1;
    for (int32_t s = 0; s < nsets(net); s++)
        if (set_of(net, s).size > m)
            m = set_of(net, s).size;
    return m;
}

/* One element (run) of n consecutive lanes between plain records spaced
 * sz apart and the lane array at `lanes`; constant widths inline. */
#define RT_COPY_LANES(W, TO_PLAIN)                                           \
    for (int l = 0; l < n; l++) {                                            \
        char *pl = plain + (size_t)l * sz, *ln = lanes + (size_t)l * (W);    \
        if (TO_PLAIN)                                                        \
            memcpy(pl, ln, (W));                                             \
        else                                                                 \
            memcpy(ln, pl, (W));                                             \
    }

static inline void copy_run(char *plain, size_t sz, char *lanes, int n,
                            uint32_t width, bool to_plain)
{
    switch (width) {
    case 1: RT_COPY_LANES(1, to_plain) break;
    case 2: RT_COPY_LANES(2, to_plain) break;
    case 4: RT_COPY_LANES(4, to_plain) break;
    case 8: RT_COPY_LANES(8, to_plain) break;
    default: RT_COPY_LANES(width, to_plain) break;
    }
}

/* The value all lanes share into n plain records spaced sz apart (word
 * copies: the runs of shared elements are whole Reals and Ints). */
static inline void copy_shared(char *plain, size_t sz, const char *val, int n, uint32_t width)
{
    if (width % 4 == 0 && width <= 64) {
        uint32_t w[16];
        for (uint32_t i = 0; i < width / 4; i++) /* fixed-size copies: no calls */
            memcpy(&w[i], val + 4 * i, 4);
        for (int l = 0; l < n; l++)
            for (uint32_t i = 0; i < width / 4; i++)
                memcpy(plain + (size_t)l * sz + 4 * i, &w[i], 4);
        return;
    }
    for (int l = 0; l < n; l++)
        memcpy(plain + (size_t)l * sz, val, width);
}

/* tmp[l] := lane l of (`lanes`, `shared`) for l < n (or the other way). */
static void move_lanes(const rset *st, char *tmp, char *lanes, char *shared, int n,
                       bool to_plain)
{
    const rt_lane_plan *p = st->plan;
    if (p) {
        for (int32_t i = 0; i < p->nruns; i++) {
            const rt_lane_run *r = &p->run[i];
            char *at = (r->shared ? shared : lanes) + r->lane_off;
            if (r->stride == 0) { /* an element all lanes share */
                if (to_plain)
                    copy_shared(tmp + r->plain_off, st->size, at, n, r->width);
                else if (n > 0)
                    memcpy(at, tmp + r->plain_off, r->width);
                continue;
            }
            copy_run(tmp + r->plain_off, st->size, at, n, r->width, to_plain);
        }
        return;
    }
    for (int l = 0; l < n; l++) {
        if (to_plain)
            st->lane->get(tmp + (size_t)l * st->size, lanes, shared, l);
        else
            st->lane->put(lanes, shared, l, tmp + (size_t)l * st->size);
    }
}

/* Every lane of one element (width bytes, lanes contiguous) := *val. */
#define RT_FILL_LANES(W)                                                     \
    for (int l = 0; l < RT_LANES; l++)                                       \
        memcpy(lanes + (size_t)l * (W), val, (W));

static inline void fill_run(char *lanes, const char *val, uint32_t width)
{
    switch (width) {
    case 1: RT_FILL_LANES(1) break;
    case 2: RT_FILL_LANES(2) break;
    case 4: RT_FILL_LANES(4) break;
    case 8: RT_FILL_LANES(8) break;
    default: RT_FILL_LANES(width) break;
    }
}

/* Writes rec into every lane of record i of set s in block 0 (the other
 * blocks receive copies of whole chunks, see chunk_op). */
static void broadcast(const rt_net *net, int32_t s, const rset *st, int32_t i,
                      const void *rec)
{
    char *first = lanes_of(net, 0, s) + (size_t)i * st->lane->size;
    char *shared = shared_rec(net, 0, s, st, i);
    const rt_lane_plan *p = st->plan;
    if (p) { /* runs are whole elements: width == stride, or shared (stride 0) */
        for (int32_t x = 0; x < p->nruns; x++) {
            const rt_lane_run *r = &p->run[x];
            char *at = (r->shared ? shared : first) + r->lane_off;
            if (r->stride == 0)
                memcpy(at, (const char *)rec + r->plain_off, r->width);
            else
                fill_run(at, (const char *)rec + r->plain_off, r->width);
        }
    } else {
        for (int l = 0; l < RT_LANES; l++)
            st->lane->put(first, shared, l, rec);
    }
}

/* Merges the k plain records at tmp into tmp[0]: in round w, record a + w
 * into a for a a multiple of 2w. */
static void tree_merge_tmp(const rset *st, char *tmp, int32_t k)
{
    size_t sz = st->size;
    /* 64-bit: with k above 2^30, w and a + 2w pass INT32_MAX */
    for (int64_t w = 1; w < k; w *= 2)
        for (int64_t a = 0; a + w < k; a += 2 * w)
            st->merge(tmp + (size_t)a * sz, tmp + (size_t)(a + w) * sz);
}

/* The blocks whose RT_LANES lanes are all replicates: the lane-wise block
 * tree runs over these; the replicates of a last, partial block (the
 * tail, nreps % RT_LANES of them) are merged record by record. */
static int32_t full_blocks(const rt_net *net) { return net->nreps / RT_LANES; }

/* Merges record i of set s over all replicates into tmp (k records of
 * st->size); the result is in tmp[0].  With st->lane_tree the full blocks
 * are merged into block 0 already (merge_blocks) and only its lanes and
 * the tail's remain. */
static void merge_record(const rt_net *net, int32_t s, const rset *st,
                         int32_t i, char *tmp)
{
    size_t off = (size_t)i * st->lane->size, sz = st->size;
    int32_t k = net->nreps, f = full_blocks(net), tail = k % RT_LANES;
    if (!st->merge) { /* one arbitrary exemplar: replicate 0 */
        move_lanes(st, tmp, lanes_of(net, 0, s) + off, shared_rec(net, 0, s, st, i), 1, true);
        return;
    }
    if (st->lane_tree) {
        char *me = lanes_of(net, 0, s) + off, *sh = shared_rec(net, 0, s, st, i);
        int n = RT_LANES;
        if (st->lane->fold) { /* block 0's lanes inside the lane record */
            st->lane->fold(me, sh);
            n = 1;
        }
        move_lanes(st, tmp, me, sh, n, true);
        tree_merge_tmp(st, tmp, n);
        if (tail) { /* the tail's own tree, then into the result: as one tree
                       over n + tail records (n is 1 or RT_LANES) */
            char *t = tmp + (size_t)n * sz;
            move_lanes(st, t, lanes_of(net, f, s) + off, shared_rec(net, f, s, st, i), tail,
                       true);
            tree_merge_tmp(st, t, tail);
            st->merge(tmp, t);
        }
        return;
    }
    for (int32_t j = 0; (int64_t)j * RT_LANES < k; j++) { /* no lane-wise tree: record by record */
        int n = k - j * RT_LANES < RT_LANES ? (int)(k - j * RT_LANES) : RT_LANES;
        move_lanes(st, tmp + (size_t)j * RT_LANES * sz, lanes_of(net, j, s) + off,
                   shared_rec(net, j, s, st, i), n, true);
    }
    tree_merge_tmp(st, tmp, k);
}

/* Records lo .. hi-1 of set s: full block a + w merges into block a, lane
 * by lane, for a a multiple of 2w, in rounds w = 1, 2, 4, ...; block 0 then
 * holds in lane l the merge of lane l of all full blocks.  The other
 * blocks are overwritten or freed afterwards. */
static void merge_blocks(const rt_net *net, int32_t s, const rset *st,
                         int32_t lo, int32_t hi)
{
    size_t ls = st->lane->size;
    rt_lane_merge_fn fn = st->lane->merge;
    int32_t f = full_blocks(net);
    for (int32_t w = 1; w < f; w *= 2)
        for (int32_t a = 0; a + w < f; a += 2 * w) {
            char *me = lanes_of(net, a, s) + (size_t)lo * ls;
            const char *you = lanes_of(net, a + w, s) + (size_t)lo * ls;
            fn(me, you, shared_rec(net, a, s, st, lo), hi - lo);
        }
}

/* What to do with every record: fill the lanes from replicate 0's plain
 * records, merge and broadcast (MERGE), or merge into replicate 0's plain
 * records (INTO 1). */
typedef enum { OP_FILL, OP_MERGE, OP_MERGE_FIRST, OP_LEAVE } lane_op;

static void record_op(const rt_net *net, lane_op op, int32_t s,
                      const rset *st, int32_t i, char *tmp)
{
    if (op == OP_FILL) {
        broadcast(net, s, st, i, plain_of(net, s) + (size_t)i * st->size);
        return;
    }
    merge_record(net, s, st, i, tmp);
    if (op == OP_MERGE || op == OP_MERGE_FIRST)
        broadcast(net, s, st, i, tmp);
    else
        memcpy(plain_of(net, s) + (size_t)i * st->size, tmp, st->size);
}

/* Records per unit of work: block 0 of a chunk is written record by record,
 * then copied to the other blocks in one memcpy each. */
enum { RT_LANE_CHUNK = 64 };

static int32_t chunks(const rset *st)
{
    return (int32_t)(((int64_t)st->n + RT_LANE_CHUNK - 1) / RT_LANE_CHUNK);
}

static void chunk_op(const rt_net *net, lane_op op, int32_t s, const rset *st,
                     int32_t c, char *tmp, bool blocks_merged)
{
    int32_t lo = c * RT_LANE_CHUNK;
    int32_t hi = st->n - lo < RT_LANE_CHUNK ? st->n : lo + RT_LANE_CHUNK;
    if (st->lane_tree && !blocks_merged)
        merge_blocks(net, s, st, lo, hi);
    for (int32_t i = lo; i < hi; i++)
        record_op(net, op, s, st, i, tmp);
    if (op == OP_LEAVE || op == OP_MERGE_FIRST)
        return;
    size_t ls = st->lane->size, ss = st->lane->shared_size;
    const char *first = lanes_of(net, 0, s) + (size_t)lo * ls;
    const char *sfirst = shared_rec(net, 0, s, st, lo);
    for (int32_t j = 1; j < net->nblocks; j++) {
        memcpy(lanes_of(net, j, s) + (size_t)lo * ls, first, (size_t)(hi - lo) * ls);
        if (sfirst)
            memcpy(shared_rec(net, j, s, st, lo), sfirst, (size_t)(hi - lo) * ss);
    }
}

/* Block j of every set := block 0. */
static void copy_block(const rt_net *net, const rset *sets, int32_t j)
{
    for (int32_t s = 0; s < nsets(net); s++) {
        const rset *st = &sets[s];
        memcpy(lanes_of(net, j, s), lanes_of(net, 0, s), (size_t)st->n * st->lane->size);
        if (shared_of(net, 0, s))
            memcpy(shared_of(net, j, s), shared_of(net, 0, s),
                   (size_t)st->n * st->lane->shared_size);
    }
}

/* Lane moves per record of set st: the measure of work that decides
 * whether a parallel region pays.  A lane-wise merge or copy of a whole
 * block takes a few vector instructions; measured, it costs about as much
 * as a quarter of its RT_LANES single moves. */
static int64_t record_work(const rt_net *net, lane_op op, const rset *st)
{
    int64_t nb = net->nblocks, lanes = nb * RT_LANES;
    if (op == OP_FILL)
        return lanes;
    if (st->lane_tree) /* block merges; the fold of block 0's lanes (gather,
                          merge, write back: three moves a lane; with the
                          type's fold in vector registers: the write back
                          and four lane-wise merges); copies */
        return (st->lane->fold ? 2 : 3) * RT_LANES + 3 * (net->nreps % RT_LANES) +
               (nb - 1 + (op == OP_MERGE ? nb : 0)) * (RT_LANES / 4);
    return (st->merge ? net->nreps : 1) +
           (op == OP_MERGE ? lanes : op == OP_MERGE_FIRST ? RT_LANES : 1);
}

/* Inside a parallel region: the block tree of every set with lane_tree, the
 * pairs of a round in parallel (many blocks of few records, as with one
 * replicate per example, have no other parallelism).  Each record meets
 * the same pairs in the same rounds as in merge_blocks. */
static void merge_pairs(const rt_net *net, const rset *sets)
{
    int32_t f = full_blocks(net);
    for (int32_t w = 1; w < f; w *= 2) {
        int32_t npairs = (f - w + 2 * w - 1) / (2 * w);
#pragma omp for schedule(static)
        for (int32_t p = 0; p < npairs; p++) {
            int32_t a = p * 2 * w;
            for (int32_t s = 0; s < nsets(net); s++) {
                const rset *st = &sets[s];
                if (!st->lane_tree)
                    continue;
                if (st->n > 0)
                    st->lane->merge(lanes_of(net, a, s), lanes_of(net, a + w, s),
                                    shared_of(net, a, s), st->n);
            }
        }
    }
}

/* Applies op to every record of every set; one parallel region over the
 * records when there is enough work, a plain loop otherwise (an OpenMP
 * region costs a futex call even when it runs on one thread).  Each
 * record's result depends only on k, never on the thread count. */
static void for_all_records(const rt_net *net, lane_op op, rt_srcpos where)
{
    int32_t k = net->nreps, ns = nsets(net);
    size_t tmp_bytes = (size_t)k * max_record(net);
    size_t sets_bytes = (size_t)ns * sizeof(rset);
    rset *sets = rt_alloc(where, sets_bytes);
    int64_t work = 0;
    for (int32_t s = 0; s < ns; s++) {
        rset *st = &sets[s];
        *st = set_of(net, s);
        st->plan = rt_lane_plan_of(st->lane, st->size, where);
        /* the lane-wise tree needs one full block; the tail's lanes (and
           no padding lane) are merged one by one after it */
        st->lane_tree = op != OP_FILL && st->merge && st->lane->merge && k >= RT_LANES;
        work += (int64_t)st->n * record_work(net, op, st);
    }
    /* serial also where the MERGE procedures draw RANDOM under
       --deterministic: one stream, one order, for every thread count */
    if (work < 2 * RT_LANE_GRAIN || rt_threads() < 2 || rt_random_serial()) {
        char *tmp = rt_alloc(where, tmp_bytes);
        for (int32_t s = 0; s < ns; s++)
            for (int32_t c = 0; c < chunks(&sets[s]); c++)
                chunk_op(net, op, s, &sets[s], c, tmp, false);
        rt_free(tmp, tmp_bytes);
    } else {
#pragma omp parallel
        {
            merge_pairs(net, sets); /* ends with a barrier */
            char *tmp = rt_alloc(where, tmp_bytes);
            for (int32_t s = 0; s < ns; s++) {
                int32_t nc = chunks(&sets[s]);
#pragma omp for schedule(static) nowait
                for (int32_t c = 0; c < nc; c++)
                    chunk_op(net, op, s, &sets[s], c, tmp, true);
            }
            rt_free(tmp, tmp_bytes);
        }
    }
    rt_free(sets, sets_bytes);
}

/* a + b and a * b, SIZE_MAX when they would not fit */
static size_t sat_add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }
static size_t sat_mul(size_t a, size_t b) { return b && a > SIZE_MAX / b ? SIZE_MAX : a * b; }

/* The bytes alloc_blocks allocates for nb blocks (at least: rt_alloc of 0
 * bytes books 0). */
static size_t blocks_bytes(const rt_net *net, int32_t nb)
{
    const rt_net_desc *d = net->desc;
    size_t per = sizeof(rt_block) + d->lane.size + d->lane.shared_size;
    per = sat_add(per, 2 * ((size_t)d->ngroups + (size_t)d->nbundles) * sizeof(void *));
    for (int32_t g = 0; g < d->ngroups; g++)
        per = sat_add(per, sat_mul((size_t)net->count[g],
                                   d->groups[g].lane.size + d->groups[g].lane.shared_size));
    for (int32_t b = 0; b < d->nbundles; b++)
        per = sat_add(per, sat_mul((size_t)net->bundles[b].nconn,
                                   d->bundles[b].lane.size + d->bundles[b].lane.shared_size));
    return sat_mul((size_t)nb, per);
}

/* Allocates the blocks for k replicates (lane records zero-filled). */
static void alloc_blocks(rt_net *net, int32_t k, rt_srcpos where)
{
    const rt_net_desc *d = net->desc;
    /* ceil (k / RT_LANES) in 64 bits: k + RT_LANES - 1 passes INT32_MAX
       for k near it (at most 2^27 blocks, an int32_t again) */
    int32_t nb = (int32_t)(((int64_t)k + RT_LANES - 1) / RT_LANES);
    /* the blocks are many allocations: a count whose blocks cannot fit
       fails here with their total, as the one array of plain replicates
       does (and not after filling the memory block by block) */
    rt_check_room(where, blocks_bytes(net, nb));
    net->nblocks = nb;
    net->blocks = rt_alloc(where, (size_t)net->nblocks * sizeof(rt_block));
    for (int32_t j = 0; j < net->nblocks; j++) {
        rt_block *bl = &net->blocks[j];
        bl->net = rt_alloc_lines(where, d->lane.size);
        bl->nodes = rt_alloc(where, (size_t)d->ngroups * sizeof(void *));
        bl->conns = rt_alloc(where, (size_t)d->nbundles * sizeof(void *));
        bl->nodes_shared = rt_alloc(where, (size_t)d->ngroups * sizeof(void *));
        bl->conns_shared = rt_alloc(where, (size_t)d->nbundles * sizeof(void *));
        if (d->lane.shared_size)
            bl->net_shared = rt_alloc(where, d->lane.shared_size);
        for (int32_t g = 0; g < d->ngroups; g++) {
            bl->nodes[g] = rt_alloc_lines(where, (size_t)net->count[g] * d->groups[g].lane.size);
            if (d->groups[g].lane.shared_size)
                bl->nodes_shared[g] = rt_alloc(where, (size_t)net->count[g] *
                                                          d->groups[g].lane.shared_size);
        }
        for (int32_t b = 0; b < d->nbundles; b++) {
            bl->conns[b] = rt_alloc_lines(where, (size_t)net->bundles[b].nconn *
                                                     d->bundles[b].lane.size);
            if (d->bundles[b].lane.shared_size)
                bl->conns_shared[b] = rt_alloc(where, (size_t)net->bundles[b].nconn *
                                                          d->bundles[b].lane.shared_size);
        }
    }
    /* the topology is frozen while replicated: destinations by connection,
       for lane code that walks connections by source */
    for (int32_t b = 0; b < d->nbundles; b++) {
        rt_bundle *bd = &net->bundles[b];
        bd->dst_node = rt_alloc(where, (size_t)bd->nconn * sizeof(int32_t) + 1);
        for (int32_t i = 0; i < net->count[d->bundles[b].dst_group]; i++)
            for (int32_t c = bd->dst_start[i]; c < bd->dst_start[i + 1]; c++)
                bd->dst_node[c] = i;
    }
}

void rt_lanes_free(rt_net *net)
{
    const rt_net_desc *d = net->desc;
    for (int32_t j = 0; j < net->nblocks; j++) {
        rt_block *bl = &net->blocks[j];
        rt_free(bl->net, d->lane.size);
        rt_free(bl->net_shared, d->lane.shared_size);
        for (int32_t g = 0; g < d->ngroups; g++) {
            rt_free(bl->nodes[g], (size_t)net->count[g] * d->groups[g].lane.size);
            rt_free(bl->nodes_shared[g], (size_t)net->count[g] * d->groups[g].lane.shared_size);
        }
        for (int32_t b = 0; b < d->nbundles; b++) {
            rt_free(bl->conns[b], (size_t)net->bundles[b].nconn * d->bundles[b].lane.size);
            rt_free(bl->conns_shared[b],
                    (size_t)net->bundles[b].nconn * d->bundles[b].lane.shared_size);
        }
        rt_free(bl->nodes, (size_t)d->ngroups * sizeof(void *));
        rt_free(bl->conns, (size_t)d->nbundles * sizeof(void *));
        rt_free(bl->nodes_shared, (size_t)d->ngroups * sizeof(void *));
        rt_free(bl->conns_shared, (size_t)d->nbundles * sizeof(void *));
    }
    rt_free(net->blocks, (size_t)net->nblocks * sizeof(rt_block));
    net->blocks = NULL;
    net->nblocks = 0;
    for (int32_t b = 0; b < d->nbundles; b++) {
        rt_free(net->bundles[b].dst_node, (size_t)net->bundles[b].nconn * sizeof(int32_t) + 1);
        net->bundles[b].dst_node = NULL;
    }
}

/* Replicate 0's plain storage (capacities as in state U). */
static void alloc_rep0(rt_net *net, rt_srcpos where)
{
    net->reps = rt_alloc(where, sizeof(rt_rep));
    rt_rep_alloc(net, &net->reps[0], where);
}

static void free_rep0(rt_net *net)
{
    rt_rep_free(net, 0);
    rt_free(net->reps, sizeof(rt_rep));
    net->reps = NULL;
}

void rt_lanes_enter(rt_net *net, int32_t k, rt_srcpos where)
{
    alloc_blocks(net, k, where);
    net->nreps = k;
    for_all_records(net, OP_FILL, where);
    free_rep0(net); /* the lanes hold everything; reps is NULL in R(k) */
    net->replicated = true;
}

void rt_lanes_merge(rt_net *net, rt_srcpos where)
{
    if (net->nreps < 2)
        return; /* R(1): nothing to merge */
    for_all_records(net, OP_MERGE, where);
}

void rt_lanes_merge_first(rt_net *net, rt_srcpos where)
{
    if (net->nreps < 2)
        return;
    for_all_records(net, OP_MERGE_FIRST, where);
}

void rt_lanes_spread(rt_net *net, rt_srcpos where)
{
    if (net->nblocks < 2)
        return;
    int32_t ns = nsets(net);
    size_t sets_bytes = (size_t)ns * sizeof(rset);
    rset *sets = rt_alloc(where, sets_bytes);
    int64_t bytes = 0;
    for (int32_t s = 0; s < ns; s++) {
        sets[s] = set_of(net, s);
        bytes += (int64_t)sets[s].n * (int64_t)(sets[s].lane->size + sets[s].lane->shared_size);
    }
    /* each block by the thread that the generated code's static schedule
       gives it, when every thread copies 256 KB or more: a region wakes
       the other threads, which then spin for a while, and in a program
       that otherwise runs serially that slowed whole epochs by 13 %
       (building, H = 16: 277 KB in all on two threads) */
    int threads = rt_threads();
    if (threads > 1 && bytes * (net->nblocks - 1) >= (int64_t)threads * 8 * RT_LANE_GRAIN) {
#pragma omp parallel for schedule(static)
        for (int32_t j = 0; j < net->nblocks; j++)
            if (j > 0)
                copy_block(net, sets, j);
    } else {
        for (int32_t j = 1; j < net->nblocks; j++)
            copy_block(net, sets, j);
    }
    rt_free(sets, sets_bytes);
}

void rt_lanes_leave(rt_net *net, rt_srcpos where)
{
    alloc_rep0(net, where);
    for_all_records(net, OP_LEAVE, where);
    rt_lanes_free(net);
    net->nreps = 1;
    net->replicated = false;
}

int32_t rt_lane_count(int32_t k, int32_t lo, int32_t hi)
{
    int64_t up = ((int64_t)k + RT_LANES - 1) / RT_LANES * RT_LANES;
    int64_t down = (int64_t)k / RT_LANES * RT_LANES;
    if (up <= hi)
        return (int32_t)up;
    if (down >= lo && down > 0)
        return (int32_t)down;
    return k;
}
