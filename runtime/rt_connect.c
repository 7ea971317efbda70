/* rt_connect.c -- CONNECT, DISCONNECT and connection addressing.
 *
 * Each builds the bundle's new connection list by merging the existing,
 * sorted list with the requested cross product, so that existing pairs are
 * kept (not duplicated, not re-initialized) and the result stays sorted.
 */
#include "rt_internal.h"

#include <string.h>

/* Clips [*lo, *hi] to the nodes 0 .. n-1; false if nothing remains. */
static bool clip(int32_t *lo, int32_t *hi, int32_t n)
{
    if (*lo < 0)
        *lo = 0;
    if (*hi > n - 1)
        *hi = n - 1;
    return *lo <= *hi;
}

typedef struct cross {
    int32_t s_lo, s_hi, d_lo, d_hi;
} cross;

static bool in_cross(const cross *c, int32_t s, int32_t d)
{
    return s >= c->s_lo && s <= c->s_hi && d >= c->d_lo && d <= c->d_hi;
}

/* Number of existing connections of bundle bd inside the cross product. */
static int64_t count_in_cross(const rt_bundle *bd, const cross *c)
{
    int64_t n = 0;
    for (int32_t d = c->d_lo; d <= c->d_hi; d++)
        for (int32_t k = bd->dst_start[d]; k < bd->dst_start[d + 1]; k++)
            n += in_cross(c, bd->src_node[k], d);
    return n;
}

/* Checks the state and clips the slices; false if the cross product is
 * empty. */
static bool prepare(rt_net *net, int32_t b, cross *c, const char *what,
                    rt_srcpos where)
{
    rt_require_unreplicated(net, what, where);
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    return clip(&c->s_lo, &c->s_hi, net->count[bdesc->src_group]) &
           clip(&c->d_lo, &c->d_hi, net->count[bdesc->dst_group]);
}

void rt_connect(rt_net *net, int32_t b, int32_t s_lo, int32_t s_hi,
                int32_t d_lo, int32_t d_hi, rt_srcpos where)
{
    cross c = { s_lo, s_hi, d_lo, d_hi };
    if (!prepare(net, b, &c, "CONNECT", where))
        return;
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    rt_bundle *bd = &net->bundles[b];
    int32_t nsrc = net->count[bdesc->src_group];
    int32_t ndst = net->count[bdesc->dst_group];
    int64_t existing = count_in_cross(bd, &c);
    int64_t wanted = (int64_t)(c.s_hi - c.s_lo + 1) * (c.d_hi - c.d_lo + 1);
    if (existing == wanted)
        return; /* everything is connected already */
    rt_conn_list list;
    rt_conn_list_init(&list, ndst, bd->nconn + wanted - existing, where,
                      "CONNECT");
    int32_t pos = 0;
    for (int32_t d = 0; d < ndst; d++) {
        list.dst_start[d] = pos;
        int32_t k = bd->dst_start[d], end = bd->dst_start[d + 1];
        if (d >= c.d_lo && d <= c.d_hi) {
            /* Merge the existing sources with c.s_lo .. c.s_hi. */
            int32_t s = c.s_lo;
            while (k < end || s <= c.s_hi) {
                int32_t old = k < end ? bd->src_node[k] : INT32_MAX;
                if (s <= c.s_hi && s < old) {
                    list.src[pos] = s++;
                    list.from[pos++] = -1;
                } else {
                    if (old == s)
                        s++;
                    list.src[pos] = old;
                    list.from[pos++] = k++;
                }
            }
        } else {
            for (; k < end; k++) {
                list.src[pos] = bd->src_node[k];
                list.from[pos++] = k;
            }
        }
    }
    list.dst_start[ndst] = pos;
    rt_bundle_install(net, b, &list, nsrc, where);
    rt_init_new_conns(net, b, &list);
    rt_conn_list_release(&list);
}

void rt_disconnect(rt_net *net, int32_t b, int32_t s_lo, int32_t s_hi,
                   int32_t d_lo, int32_t d_hi, rt_srcpos where)
{
    cross c = { s_lo, s_hi, d_lo, d_hi };
    if (!prepare(net, b, &c, "DISCONNECT", where))
        return;
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    rt_bundle *bd = &net->bundles[b];
    int32_t nsrc = net->count[bdesc->src_group];
    int32_t ndst = net->count[bdesc->dst_group];
    int64_t doomed = count_in_cross(bd, &c);
    if (doomed == 0)
        return;
    rt_conn_list list;
    rt_conn_list_init(&list, ndst, bd->nconn - doomed, where, "DISCONNECT");
    int32_t pos = 0;
    for (int32_t d = 0; d < ndst; d++) {
        list.dst_start[d] = pos;
        for (int32_t k = bd->dst_start[d]; k < bd->dst_start[d + 1]; k++)
            if (!in_cross(&c, bd->src_node[k], d)) {
                list.src[pos] = bd->src_node[k];
                list.from[pos++] = k;
            }
    }
    list.dst_start[ndst] = pos;
    rt_bundle_install(net, b, &list, nsrc, where);
    rt_conn_list_release(&list);
}

/* Grows the connection capacity of bundle b (state U: one replicate) to at
 * least `need`, doubling so that repeated insertions are amortised. */
static void bundle_reserve(rt_net *net, int32_t b, int64_t need, rt_srcpos where)
{
    rt_bundle *bd = &net->bundles[b];
    if (need <= bd->cap)
        return;
    if (need > INT32_MAX)
        rt_error(where, "connection addressing would create more than %d "
                 "connections in one bundle", INT32_MAX);
    int64_t cap = (int64_t)bd->cap * 2;
    if (cap < need)
        cap = need < 16 ? 16 : need;
    if (cap > INT32_MAX)
        cap = INT32_MAX;
    size_t cs = net->desc->bundles[b].conn_size, old = (size_t)bd->cap;
    net->reps[0].conns[b] = rt_realloc(where, net->reps[0].conns[b], old * cs,
                                       (size_t)cap * cs);
    bd->src_node = rt_realloc(where, bd->src_node, old * sizeof(int32_t),
                              (size_t)cap * sizeof(int32_t));
    bd->by_src = rt_realloc(where, bd->by_src, old * sizeof(int32_t),
                            (size_t)cap * sizeof(int32_t));
    bd->dead = rt_realloc(where, bd->dead, old, (size_t)cap);
    bd->cap = (int32_t)cap;
}

/* Inserts the zero-filled connection src -> dst at position lo of bundle
 * b in place, keeping both indexes sorted. */
static void insert_conn(rt_net *net, int32_t b, int32_t lo, int32_t src,
                        int32_t dst, rt_srcpos where)
{
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    rt_bundle *bd = &net->bundles[b];
    bundle_reserve(net, b, (int64_t)bd->nconn + 1, where);
    int32_t n = bd->nconn, nsrc = net->count[bdesc->src_group];
    int32_t ndst = net->count[bdesc->dst_group];
    size_t cs = bdesc->conn_size;
    char *recs = net->reps[0].conns[b];
    memmove(recs + (size_t)(lo + 1) * cs, recs + (size_t)lo * cs, (size_t)(n - lo) * cs);
    memset(recs + (size_t)lo * cs, 0, cs);
    memmove(bd->src_node + lo + 1, bd->src_node + lo, (size_t)(n - lo) * sizeof(int32_t));
    bd->src_node[lo] = src;
    for (int32_t d = dst + 1; d <= ndst; d++)
        bd->dst_start[d]++;
    /* By-source index: shift the indices behind lo, then place lo among
     * the connections of src, which are in destination order. */
    for (int32_t j = 0; j < n; j++)
        bd->by_src[j] += bd->by_src[j] >= lo;
    int32_t p = bd->src_start[src];
    while (p < bd->src_start[src + 1] && bd->by_src[p] < lo)
        p++;
    memmove(bd->by_src + p + 1, bd->by_src + p, (size_t)(n - p) * sizeof(int32_t));
    bd->by_src[p] = lo;
    for (int32_t s = src + 1; s <= nsrc; s++)
        bd->src_start[s]++;
    bd->dead[n] = 0;
    bd->nconn = n + 1;
    bd->dense = (int64_t)bd->nconn == (int64_t)nsrc * ndst;
}

void *rt_conn_address(rt_net *net, int32_t b, int32_t src, int32_t dst,
                      rt_srcpos where)
{
    rt_require_unreplicated(net, "connection addressing", where);
    const rt_bundle_desc *bdesc = &net->desc->bundles[b];
    rt_bundle *bd = &net->bundles[b];
    int32_t nsrc = net->count[bdesc->src_group];
    int32_t ndst = net->count[bdesc->dst_group];
    if (src < 0 || src >= nsrc)
        rt_index_error(where, net->desc->groups[bdesc->src_group].name, src, nsrc);
    if (dst < 0 || dst >= ndst)
        rt_index_error(where, net->desc->groups[bdesc->dst_group].name, dst, ndst);
    /* Binary search among the sources of dst. */
    int32_t lo = bd->dst_start[dst], hi = bd->dst_start[dst + 1];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (bd->src_node[mid] < src)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t cs = bdesc->conn_size;
    if (lo < bd->dst_start[dst + 1] && bd->src_node[lo] == src)
        return (char *)net->reps[0].conns[b] + (size_t)lo * cs;
    insert_conn(net, b, lo, src, dst, where);
    char *rec = (char *)net->reps[0].conns[b] + (size_t)lo * cs;
    if (bdesc->init)
        bdesc->init(net, rec);
    return rec;
}
