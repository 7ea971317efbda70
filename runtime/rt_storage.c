/* rt_storage.c -- network storage: creation, groups, bundle CSR arrays.
 *
 * Groups are growable arrays of node records (capacity doubles).  Every
 * topology change builds the complete new connection list of a bundle in
 * destination order (rt_conn_list) and installs it here, which moves the
 * connection records and rebuilds the by-source index in O(connections).
 */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

/* Bytes of n elements of `size`, or a run-time error if that overflows. */
static size_t bytes_of(int64_t n, size_t size, rt_srcpos where)
{
    if (n < 0 || (size && (uint64_t)n > SIZE_MAX / size))
        rt_out_of_memory(where, SIZE_MAX);
    return (size_t)n * size;
}

void rt_require_unreplicated(const rt_net *net, const char *what,
                             rt_srcpos where)
{
    if (net->replicated)
        rt_error(where, "%s while the network %s is replicated", what,
                 rt_net_name(net));
}

/* ---- groups --------------------------------------------------------------- */

void rt_group_reserve(rt_net *net, int32_t g, int64_t need, rt_srcpos where)
{
    const rt_net_desc *d = net->desc;
    int32_t old = net->cap[g];
    if (need <= old)
        return;
    if (need > INT32_MAX - 1)
        rt_error(where, "group %s would have %lld nodes (the limit is 2147483646, "
                 "MAXINT - 1)",
                 d->groups[g].name, (long long)need);
    int64_t grown = (int64_t)old * 2; /* doubling: amortised O(1) per node */
    if (grown > INT32_MAX - 1)
        grown = INT32_MAX - 1;
    int32_t cap = (int32_t)(need > grown ? need : grown);
    if (cap < 4)
        cap = 4;
    size_t ns = d->groups[g].node_size;
    for (int32_t r = 0; r < net->nreps; r++)
        net->reps[r].nodes[g] = rt_realloc(where, net->reps[r].nodes[g],
                                           bytes_of(old, ns, where),
                                           bytes_of(cap, ns, where));
    if (net->repl_req[g]) {
        net->repl_req[g] = rt_realloc(where, net->repl_req[g],
                                      (size_t)old * sizeof(int32_t),
                                      (size_t)cap * sizeof(int32_t));
        for (int32_t i = old; i < cap; i++)
            net->repl_req[g][i] = 1;
    }
    for (int32_t b = 0; b < d->nbundles; b++) {
        rt_bundle *bd = &net->bundles[b];
        size_t o = ((size_t)old + 1) * sizeof(int32_t);
        size_t n = ((size_t)cap + 1) * sizeof(int32_t);
        if (d->bundles[b].dst_group == g)
            bd->dst_start = rt_realloc(where, bd->dst_start, o, n);
        if (d->bundles[b].src_group == g)
            bd->src_start = rt_realloc(where, bd->src_start, o, n);
    }
    net->cap[g] = cap;
}

/* Zero-fills and initializes nodes [lo, hi) of group g in replicate 0. */
static void init_nodes(rt_net *net, int32_t g, int32_t lo, int32_t hi)
{
    const rt_group_desc *gd = &net->desc->groups[g];
    char *base = net->reps[0].nodes[g];
    memset(base + (size_t)lo * gd->node_size, 0,
           (size_t)(hi - lo) * gd->node_size);
    if (gd->init)
        for (int32_t i = lo; i < hi; i++)
            gd->init(net, base + (size_t)i * gd->node_size);
}

/* Appends n >= 0 nodes without connections to group g. */
static void group_grow(rt_net *net, int32_t g, int32_t n, rt_srcpos where)
{
    int32_t old = net->count[g];
    int64_t want = (int64_t)old + n;
    rt_group_reserve(net, g, want, where);
    const rt_net_desc *d = net->desc;
    for (int32_t b = 0; b < d->nbundles; b++) {
        rt_bundle *bd = &net->bundles[b];
        if (d->bundles[b].dst_group == g)
            for (int64_t i = old + 1; i <= want; i++)
                bd->dst_start[i] = bd->nconn;
        if (d->bundles[b].src_group == g)
            for (int64_t i = old + 1; i <= want; i++)
                bd->src_start[i] = bd->nconn;
    }
    net->count[g] = (int32_t)want;
    for (int32_t b = 0; b < d->nbundles; b++) /* new nodes have no connections */
        net->bundles[b].dense = (int64_t)net->bundles[b].nconn ==
            (int64_t)net->count[d->bundles[b].src_group] * net->count[d->bundles[b].dst_group];
    init_nodes(net, g, old, (int32_t)want);
}

void rt_net_create(rt_net *net, const rt_net_desc *d, rt_srcpos where)
{
    memset(net, 0, sizeof *net);
    net->desc = d;
    net->nreps = 1;
    int32_t ng = d->ngroups, nb = d->nbundles;
    net->reps = rt_alloc(where, sizeof(rt_rep));
    rt_rep *rep = &net->reps[0];
    rep->net_data = rt_alloc(where, d->net_size);
    rep->nodes = rt_alloc(where, (size_t)ng * sizeof(void *));
    rep->conns = rt_alloc(where, (size_t)nb * sizeof(void *));
    net->count = rt_alloc(where, (size_t)ng * sizeof(int32_t));
    net->cap = rt_alloc(where, (size_t)ng * sizeof(int32_t));
    net->repl_req = rt_alloc(where, (size_t)ng * sizeof(int32_t *));
    net->any_repl = rt_alloc(where, (size_t)ng * sizeof(bool));
    net->bundles = rt_alloc(where, (size_t)nb * sizeof(rt_bundle));
    for (int32_t g = 0; g < ng; g++) {
        rep->nodes[g] = rt_alloc(where, 0);
        if (!d->groups[g].is_array)
            net->repl_req[g] = rt_alloc(where, 0);
    }
    for (int32_t b = 0; b < nb; b++) {
        rt_bundle *bd = &net->bundles[b];
        bd->dst_start = rt_alloc(where, sizeof(int32_t));
        bd->src_start = rt_alloc(where, sizeof(int32_t));
        bd->src_node = rt_alloc(where, 0);
        bd->by_src = rt_alloc(where, 0);
        bd->dead = rt_alloc(where, 0);
        rep->conns[b] = rt_alloc(where, 0);
        bd->dense = true; /* the empty cross product */
    }
    if (d->init)
        d->init(net, rep->net_data);
    for (int32_t g = 0; g < ng; g++)
        if (d->groups[g].is_array)
            group_grow(net, g, d->groups[g].array_size, where);
}

void rt_rep_alloc(rt_net *net, rt_rep *rep, rt_srcpos where)
{
    const rt_net_desc *d = net->desc;
    rep->net_data = rt_alloc(where, d->net_size);
    rep->nodes = rt_alloc(where, (size_t)d->ngroups * sizeof(void *));
    rep->conns = rt_alloc(where, (size_t)d->nbundles * sizeof(void *));
    for (int32_t g = 0; g < d->ngroups; g++)
        rep->nodes[g] = rt_alloc(where, bytes_of(net->cap[g], d->groups[g].node_size, where));
    for (int32_t b = 0; b < d->nbundles; b++)
        rep->conns[b] = rt_alloc(where, bytes_of(net->bundles[b].cap,
                                                 d->bundles[b].conn_size, where));
}

void rt_rep_free(rt_net *net, int32_t r)
{
    const rt_net_desc *d = net->desc;
    rt_rep *rep = &net->reps[r];
    rt_free(rep->net_data, d->net_size);
    for (int32_t g = 0; g < d->ngroups; g++)
        rt_free(rep->nodes[g], (size_t)net->cap[g] * d->groups[g].node_size);
    for (int32_t b = 0; b < d->nbundles; b++)
        rt_free(rep->conns[b],
                (size_t)net->bundles[b].cap * d->bundles[b].conn_size);
    rt_free(rep->nodes, (size_t)d->ngroups * sizeof(void *));
    rt_free(rep->conns, (size_t)d->nbundles * sizeof(void *));
}

void rt_net_destroy(rt_net *net)
{
    const rt_net_desc *d = net->desc;
    if (!d)
        return;
    if (net->blocks) {
        rt_lanes_free(net); /* lane state: no plain replicates */
    } else {
        for (int32_t r = 0; r < net->nreps; r++)
            rt_rep_free(net, r);
        rt_free(net->reps, (size_t)net->nreps * sizeof(rt_rep));
    }
    for (int32_t b = 0; b < d->nbundles; b++) {
        rt_bundle *bd = &net->bundles[b];
        rt_free(bd->dst_start, ((size_t)net->cap[d->bundles[b].dst_group] + 1) * sizeof(int32_t));
        rt_free(bd->src_start, ((size_t)net->cap[d->bundles[b].src_group] + 1) * sizeof(int32_t));
        rt_free(bd->src_node, (size_t)bd->cap * sizeof(int32_t));
        rt_free(bd->by_src, (size_t)bd->cap * sizeof(int32_t));
        rt_free(bd->dead, (size_t)bd->cap);
    }
    for (int32_t g = 0; g < d->ngroups; g++)
        rt_free(net->repl_req[g], (size_t)net->cap[g] * sizeof(int32_t));
    rt_free(net->bundles, (size_t)d->nbundles * sizeof(rt_bundle));
    rt_free(net->repl_req, (size_t)d->ngroups * sizeof(int32_t *));
    rt_free(net->any_repl, (size_t)d->ngroups * sizeof(bool));
    rt_free(net->count, (size_t)d->ngroups * sizeof(int32_t));
    rt_free(net->cap, (size_t)d->ngroups * sizeof(int32_t));
    memset(net, 0, sizeof *net);
}

/* ---- connection lists ----------------------------------------------------- */

void rt_conn_list_init(rt_conn_list *list, int32_t ndst, int64_t n,
                       rt_srcpos where, const char *what)
{
    if (n > INT32_MAX)
        rt_error(where, "%s would create %lld connections in one bundle "
                 "(the limit is 2147483647, MAXINT)", what, (long long)n);
    list->ndst = ndst;
    list->n = (int32_t)n;
    list->dst_start = rt_alloc(where, ((size_t)ndst + 1) * sizeof(int32_t));
    list->src = rt_alloc(where, bytes_of(n, sizeof(int32_t), where));
    list->from = rt_alloc(where, bytes_of(n, sizeof(int32_t), where));
}

void rt_conn_list_release(rt_conn_list *list)
{
    rt_free(list->dst_start, ((size_t)list->ndst + 1) * sizeof(int32_t));
    rt_free(list->src, (size_t)list->n * sizeof(int32_t));
    rt_free(list->from, (size_t)list->n * sizeof(int32_t));
    list->dst_start = list->src = list->from = NULL;
}

/* Counting sort of the connections by source: src_start and by_src, with
 * the connections of one source in destination order. */
static void build_src_index(rt_bundle *bd, int32_t nsrc)
{
    memset(bd->src_start, 0, ((size_t)nsrc + 1) * sizeof(int32_t));
    for (int32_t k = 0; k < bd->nconn; k++)
        bd->src_start[bd->src_node[k] + 1]++;
    for (int32_t s = 0; s < nsrc; s++)
        bd->src_start[s + 1] += bd->src_start[s];
    for (int32_t k = 0; k < bd->nconn; k++)
        bd->by_src[bd->src_start[bd->src_node[k]]++] = k;
    for (int32_t s = nsrc; s > 0; s--) /* undo the advance */
        bd->src_start[s] = bd->src_start[s - 1];
    bd->src_start[0] = 0;
}

void rt_bundle_install(rt_net *net, int32_t b, rt_conn_list *list,
                       int32_t nsrc, rt_srcpos where)
{
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    rt_bundle *bd = &net->bundles[b];
    size_t cs = bdesc->conn_size;
    int32_t n = list->n;
    /* Topology changes happen only in state U: one replicate. */
    char *old = net->reps[0].conns[b];
    char *recs = rt_alloc(where, bytes_of(n, cs, where));
    for (int32_t k = 0; k < n; k++)
        if (list->from[k] >= 0)
            memcpy(recs + (size_t)k * cs, old + (size_t)list->from[k] * cs, cs);
    rt_free(old, (size_t)bd->cap * cs);
    net->reps[0].conns[b] = recs;

    rt_free(bd->src_node, (size_t)bd->cap * sizeof(int32_t));
    rt_free(bd->by_src, (size_t)bd->cap * sizeof(int32_t));
    rt_free(bd->dead, (size_t)bd->cap);
    bd->src_node = list->src; /* moves into the bundle */
    list->src = NULL;
    bd->by_src = rt_alloc(where, (size_t)n * sizeof(int32_t));
    bd->dead = rt_alloc(where, (size_t)n);
    bd->any_dead = false;
    bd->nconn = bd->cap = n;
    memcpy(bd->dst_start, list->dst_start,
           ((size_t)list->ndst + 1) * sizeof(int32_t));
    build_src_index(bd, nsrc);
    bd->dense = (int64_t)n == (int64_t)nsrc * list->ndst;
}

void rt_init_new_conns(rt_net *net, int32_t b, const rt_conn_list *list)
{
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    rt_bundle *bd = &net->bundles[b];
    if (!bdesc->init)
        return;
    /* by_src lists the connections by source, then destination: exactly
     * the initialization order that makes RANDOM initializers reproducible
     * independently of how the connections were requested. */
    char *recs = net->reps[0].conns[b];
    for (int32_t j = 0; j < bd->nconn; j++) {
        int32_t k = bd->by_src[j];
        if (list->from[k] < 0)
            bdesc->init(net, recs + (size_t)k * bdesc->conn_size);
    }
}

/* ---- renumbering ------------------------------------------------------------ */

/* Source or destination side of a bundle during a renumbering: the group's
 * map, or the identity when the side belongs to another group. */
typedef struct side {
    const rt_group_map *map; /* NULL: identity over n nodes */
    int32_t n;
} side;

static int32_t side_new_n(side s) { return s.map ? s.map->new_n : s.n; }
static int32_t side_first(side s, int32_t i) { return s.map ? s.map->first[i] : i; }
static int32_t side_copies(side s, int32_t i) { return s.map ? s.map->ncopy[i] : 1; }
static int32_t side_origin(side s, int32_t j) { return s.map ? s.map->origin[j] : j; }

/* Rebuilds bundle b for renumbered sides: every connection s -> d becomes
 * the connections from every copy of s to every copy of d. */
static void bundle_renumber(rt_net *net, int32_t b, side src, side dst,
                            rt_srcpos where)
{
    rt_bundle *bd = &net->bundles[b];
    int32_t ndst = side_new_n(dst);
    int64_t total = 0;
    for (int32_t j = 0; j < ndst; j++) {
        int32_t d = side_origin(dst, j);
        for (int32_t k = bd->dst_start[d]; k < bd->dst_start[d + 1]; k++)
            total += side_copies(src, bd->src_node[k]);
    }
    rt_conn_list list;
    rt_conn_list_init(&list, ndst, total, where, "node REPLICATE");
    int32_t pos = 0;
    for (int32_t j = 0; j < ndst; j++) {
        int32_t d = side_origin(dst, j);
        list.dst_start[j] = pos;
        for (int32_t k = bd->dst_start[d]; k < bd->dst_start[d + 1]; k++) {
            int32_t s = bd->src_node[k];
            for (int32_t c = 0; c < side_copies(src, s); c++) {
                list.src[pos] = side_first(src, s) + c;
                list.from[pos++] = k;
            }
        }
    }
    list.dst_start[ndst] = pos;
    rt_bundle_install(net, b, &list, side_new_n(src), where);
    rt_conn_list_release(&list);
}

void rt_group_renumber(rt_net *net, int32_t g, rt_group_map *map,
                       rt_srcpos where)
{
    const rt_net_desc *d = net->desc;
    rt_group_reserve(net, g, map->new_n, where);
    for (int32_t b = 0; b < d->nbundles; b++) {
        const rt_bundle_desc *bdesc = &d->bundles[b];
        if (bdesc->src_group != g && bdesc->dst_group != g)
            continue;
        side src = { bdesc->src_group == g ? map : NULL, net->count[bdesc->src_group] };
        side dst = { bdesc->dst_group == g ? map : NULL, net->count[bdesc->dst_group] };
        bundle_renumber(net, b, src, dst, where);
    }
    /* Node records: copies, not re-initialized. */
    size_t ns = d->groups[g].node_size, bytes = (size_t)net->cap[g] * ns;
    char *old = net->reps[0].nodes[g];
    char *nodes = rt_alloc(where, bytes);
    for (int32_t j = 0; j < map->new_n; j++)
        memcpy(nodes + (size_t)j * ns, old + (size_t)map->origin[j] * ns, ns);
    rt_free(old, bytes);
    net->reps[0].nodes[g] = nodes;
    net->count[g] = map->new_n;
    rt_free(map->first, (size_t)map->old_n * sizeof(int32_t));
    rt_free(map->ncopy, (size_t)map->old_n * sizeof(int32_t));
    rt_free(map->origin, (size_t)map->new_n * sizeof(int32_t));
}

/* ---- EXTEND ------------------------------------------------------------------ */

/* True if group g is the source or destination group of a bundle. */
static bool group_has_bundles(const rt_net_desc *d, int32_t g)
{
    for (int32_t b = 0; b < d->nbundles; b++)
        if (d->bundles[b].src_group == g || d->bundles[b].dst_group == g)
            return true;
    return false;
}

void rt_extend(rt_net *net, int32_t g, int32_t n, rt_srcpos where)
{
    const rt_group_desc *gd = &net->desc->groups[g];
    rt_require_unreplicated(net, "EXTEND", where);
    if (gd->is_array)
        rt_error(where, "EXTEND of the node array %s", gd->name);
    int32_t old = net->count[g];
    int64_t want = (int64_t)old + n;
    if (want < 0)
        rt_error(where, "EXTEND %s BY %d would make its size negative (%lld)",
                 gd->name, (int)n, (long long)want);
    if (n > 0) {
        group_grow(net, g, n, where);
    } else if (n < 0 && !group_has_bundles(net->desc, g)) {
        /* No connection can change and nodes 0 .. want-1 keep their
         * records where they are: only the count drops, so that shrinking
         * one node at a time costs O(1) per step, like growing.  The
         * records behind the count are initialized again when the group
         * grows (group_grow). */
        net->count[g] = (int32_t)want;
    } else if (n < 0) {
        rt_group_map map = { old, (int32_t)want, NULL, NULL, NULL };
        map.first = rt_alloc(where, (size_t)old * sizeof(int32_t));
        map.ncopy = rt_alloc(where, (size_t)old * sizeof(int32_t));
        map.origin = rt_alloc(where, (size_t)want * sizeof(int32_t));
        for (int32_t i = 0; i < old; i++) {
            map.first[i] = i < want ? i : (int32_t)want;
            map.ncopy[i] = i < want;
        }
        for (int32_t j = 0; j < want; j++)
            map.origin[j] = j;
        rt_group_renumber(net, g, &map, where);
    }
}
