/* rt_io.c -- I/O assignments between I/O areas and node elements.
 *
 * `net.g[lo...hi].e <-- area` copies, for every replicate r and every
 * selected node k, element r * per_rep + (k - lo) of the area into the
 * node's element (replicate-major, node-minor; docs/runtime-abi.md).
 */
#include "rt_internal.h"

#include <string.h>

/* Checks the area against the selection; returns the replicate stride, or
 * 0 if nothing is selected.  *lo and *hi are clipped to the group. */
static int32_t check_area(const rt_net *net, int32_t g, int32_t *lo,
                          int32_t *hi, const cp_io *io, const char *dir,
                          rt_srcpos where)
{
    const char *gname = net->desc->groups[g].name;
    if (*lo < 0)
        *lo = 0;
    if (*hi > net->count[g] - 1)
        *hi = net->count[g] - 1;
    int32_t n = *hi - *lo + 1;
    if (n <= 0)
        return 0;
    if (!io->data)
        rt_error(where, "%s assignment with an I/O area that was never "
                 "allocated", dir);
    if (io->per_rep > 0 && io->per_rep != n)
        rt_error(where, "%s assignment: the I/O area holds %d values per "
                 "replicate but %s selects %d nodes", dir, (int)io->per_rep,
                 gname, (int)n);
    int32_t stride = io->per_rep > 0 ? io->per_rep : n;
    int64_t need = (int64_t)(net->nreps - 1) * stride + n;
    if (io->count < need)
        rt_error(where, "%s assignment: the I/O area has %d elements, %lld "
                 "needed (%d replicates x %d nodes of %s)", dir,
                 (int)io->count, (long long)need, (int)net->nreps, (int)n, gname);
    return stride;
}

/* Copies between the area and the nodes in the direction given. */
static void transfer(rt_net *net, int32_t g, int32_t lo, int32_t hi,
                     size_t offset, size_t lane_offset, const cp_io *io,
                     bool input, rt_srcpos where)
{
    (void)lane_offset;
    int32_t stride = check_area(net, g, &lo, &hi, io, input ? "input" : "output",
                                where);
    if (!stride)
        return;
    size_t ns = net->desc->groups[g].node_size, es = io->elem_size;
    int32_t nreps = net->nreps;
#pragma omp parallel for schedule(static) if (nreps > 1)
    for (int32_t r = 0; r < nreps; r++) {
        char *nodes = net->reps[r].nodes[g];
        char *area = (char *)io->data + (size_t)r * stride * es;
        for (int32_t k = lo; k <= hi; k++) {
            char *node_elem = nodes + (size_t)k * ns + offset;
            char *area_elem = area + (size_t)(k - lo) * es;
            if (input)
                memcpy(node_elem, area_elem, es);
            else
                memcpy(area_elem, node_elem, es);
        }
    }
}

void rt_io_input(rt_net *net, int32_t g, int32_t lo, int32_t hi, size_t offset,
                 size_t lane_offset, const cp_io *io, rt_srcpos where)
{
    transfer(net, g, lo, hi, offset, lane_offset, io, true, where);
}

void rt_io_output(rt_net *net, int32_t g, int32_t lo, int32_t hi, size_t offset,
                  size_t lane_offset, cp_io *io, rt_srcpos where)
{
    transfer(net, g, lo, hi, offset, lane_offset, io, false, where);
}
