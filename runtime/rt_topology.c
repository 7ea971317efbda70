/* rt_topology.c -- REPLICATE ME requests of nodes and connections.
 *
 * Requests made inside a parallel call only mark the object; the generated
 * code calls rt_commit_topology when the call has completed, which deletes
 * the marked connections and then renumbers each group whose nodes asked
 * to be deleted or copied (semantics.md section 8.7).  No tombstones stay.
 */
#include "rt_internal.h"

#include <string.h>

void rt_request_node_replicate(rt_net *net, int32_t g, int32_t i, int32_t n,
                               rt_srcpos where)
{
    const rt_group_desc *gd = &net->desc->groups[g];
    rt_require_unreplicated(net, "node REPLICATE", where);
    if (gd->is_array)
        rt_error(where, "node REPLICATE of a node of the node array %s "
                 "(only nodes of a GROUP can replicate)", gd->name);
    if (n < 0)
        rt_error(where, "node REPLICATE INTO %d (the count must not be negative)",
                 (int)n);
    if (i < 0 || i >= net->count[g])
        rt_index_error(where, gd->name, i, net->count[g]);
    net->repl_req[g][i] = n;
    if (n != 1)
        __atomic_store_n(&net->any_repl[g], true, __ATOMIC_RELAXED);
}

void rt_request_conn_replicate(rt_net *net, int32_t b, int32_t k, int32_t n,
                               rt_srcpos where)
{
    rt_require_unreplicated(net, "connection REPLICATE", where);
    if (n < 0 || n > 1)
        rt_error(where, "connection REPLICATE INTO %d (the count must be 0 or 1)",
                 (int)n);
    rt_bundle *bd = &net->bundles[b];
    if (k < 0 || k >= bd->nconn)
        rt_index_error(where, "connection", k, bd->nconn);
    /* the last request of the call counts, as for nodes: INTO 0 and then
       INTO 1 (through two procedures) leaves the connection */
    bd->dead[k] = n == 0;
    if (n == 0)
        __atomic_store_n(&bd->any_dead, true, __ATOMIC_RELAXED);
}

/* Removes the connections of bundle b marked dead. */
static void delete_dead(rt_net *net, int32_t b, rt_srcpos where)
{
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    rt_bundle *bd = &net->bundles[b];
    int32_t ndst = net->count[bdesc->dst_group];
    int64_t alive = 0;
    for (int32_t k = 0; k < bd->nconn; k++)
        alive += !bd->dead[k];
    rt_conn_list list;
    rt_conn_list_init(&list, ndst, alive, where, "connection REPLICATE");
    int32_t pos = 0;
    for (int32_t d = 0; d < ndst; d++) {
        list.dst_start[d] = pos;
        for (int32_t k = bd->dst_start[d]; k < bd->dst_start[d + 1]; k++)
            if (!bd->dead[k]) {
                list.src[pos] = bd->src_node[k];
                list.from[pos++] = k;
            }
    }
    list.dst_start[ndst] = pos;
    rt_bundle_install(net, b, &list, net->count[bdesc->src_group], where);
    rt_conn_list_release(&list);
}

/* Applies the node requests of group g: copies placed right after their
 * original, relative order kept, indices dense from 0. */
static void replicate_nodes(rt_net *net, int32_t g, rt_srcpos where)
{
    int32_t old = net->count[g];
    const int32_t *req = net->repl_req[g];
    int64_t total = 0;
    for (int32_t i = 0; i < old; i++)
        total += req[i];
    if (total > INT32_MAX - 1)
        rt_error(where, "node REPLICATE would make group %s hold %lld nodes "
                 "(the limit is 2147483646, MAXINT - 1)", net->desc->groups[g].name,
                 (long long)total);
    rt_group_map map = { old, (int32_t)total, NULL, NULL, NULL };
    map.first = rt_alloc(where, (size_t)old * sizeof(int32_t));
    map.ncopy = rt_alloc(where, (size_t)old * sizeof(int32_t));
    map.origin = rt_alloc(where, (size_t)total * sizeof(int32_t));
    int32_t j = 0;
    for (int32_t i = 0; i < old; i++) {
        map.first[i] = j;
        map.ncopy[i] = req[i];
        for (int32_t c = 0; c < req[i]; c++)
            map.origin[j++] = i;
    }
    rt_group_renumber(net, g, &map, where);
    int32_t *r = net->repl_req[g]; /* the capacity may have moved it */
    for (int32_t i = 0; i < net->cap[g]; i++)
        r[i] = 1;
    net->any_repl[g] = false;
}

void rt_commit_topology(rt_net *net, rt_srcpos where)
{
    const rt_net_desc *d = net->desc;
    for (int32_t b = 0; b < d->nbundles; b++)
        if (net->bundles[b].any_dead)
            delete_dead(net, b, where);
    for (int32_t g = 0; g < d->ngroups; g++)
        if (net->any_repl[g])
            replicate_nodes(net, g, where);
}
