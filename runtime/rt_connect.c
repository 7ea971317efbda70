/* rt_connect.c -- CONNECT, DISCONNECT and connection addressing.
 *
 * Each builds the bundle's new connection list by merging the existing,
 * sorted list with the requested cross product, so that existing pairs are
 * kept (not duplicated, not re-initialized) and the result stays sorted.
 */
#include "rt_internal.h"

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
    /* Insert the new connection at position lo. */
    rt_conn_list list;
    rt_conn_list_init(&list, ndst, (int64_t)bd->nconn + 1, where,
                      "connection addressing");
    for (int32_t d = 0; d <= ndst; d++)
        list.dst_start[d] = bd->dst_start[d] + (d > dst);
    for (int32_t k = 0, pos = 0; pos < list.n; pos++) {
        if (pos == lo) {
            list.src[pos] = src;
            list.from[pos] = -1;
        } else {
            list.src[pos] = bd->src_node[k];
            list.from[pos] = k++;
        }
    }
    rt_bundle_install(net, b, &list, nsrc, where);
    rt_init_new_conns(net, b, &list);
    rt_conn_list_release(&list);
    return (char *)net->reps[0].conns[b] + (size_t)lo * cs;
}
