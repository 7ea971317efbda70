/* rt_io.c -- I/O assignments between I/O areas and node elements.
 *
 * `net.g[lo...hi].e <-- area` copies, for every replicate r and every
 * selected node k, element r * per_rep + (k - lo) of the area into the
 * node's element (replicate-major, node-minor; docs/runtime-abi.md).
 * With lane blocks the element of replicate r is in lane r % RT_LANES of
 * block r / RT_LANES; padding lanes take no part.
 */
#include "rt_internal.h"

#include <string.h>

/* Checks the area against the selection and the node element's size;
 * returns the replicate stride, or 0 if nothing is selected.  *lo and *hi
 * are clipped to the group. */
static int32_t check_area(const rt_net *net, int32_t g, int32_t *lo,
                          int32_t *hi, size_t size, const cp_io *io, const char *dir,
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
    /* an area EXTERNAL code (a C host) made with the size of another type
       would move parts of elements, or past the node's */
    if (io->elem_size != size)
        rt_error(where, "%s assignment: the I/O area holds elements of %zu "
                 "byte%s but the node element has %zu", dir, io->elem_size,
                 io->elem_size == 1 ? "" : "s", size);
    if (io->per_rep > 0 && io->per_rep != n)
        rt_error(where, "%s assignment: the I/O area holds %d values per "
                 "replicate but %s selects %d node%s", dir, (int)io->per_rep,
                 gname, (int)n, n == 1 ? "" : "s");
    int32_t stride = io->per_rep > 0 ? io->per_rep : n;
    int64_t need = (int64_t)(net->nreps - 1) * stride + n;
    if (io->count < need)
        rt_error(where, "%s assignment: the I/O area has %d element%s, %lld "
                 "needed (%d replicate%s x %d node%s of %s)", dir,
                 (int)io->count, io->count == 1 ? "" : "s", (long long)need, (int)net->nreps,
                 net->nreps == 1 ? "" : "s", (int)n, n == 1 ? "" : "s", gname);
    return stride;
}

/* Elements moved per parallel region worth starting (an OpenMP region
 * costs a futex call even when it runs on one thread). */
enum { RT_IO_GRAIN = 65536 };

/* One element of es bytes; the common sizes as single moves, not calls. */
static inline void move_elem(char *dst, const char *src, size_t es)
{
    switch (es) {
    case 1: memcpy(dst, src, 1); break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, es); break;
    }
}

/* Moves the elements of replicate r between the area and its plain node
 * records (stride rec_stride, element at `offset`). */
static void move_rep(rt_net *net, int32_t g, int32_t r, int32_t lo, int32_t hi,
                     size_t offset, const cp_io *io, int32_t stride, bool input)
{
    size_t es = io->elem_size, rs = net->desc->groups[g].node_size;
    char *area = (char *)io->data + (size_t)r * stride * es;
    char *nodes = (char *)net->reps[r].nodes[g] + offset;
    for (int32_t k = lo; k <= hi; k++) {
        char *node_elem = nodes + (size_t)k * rs;
        char *area_elem = area + (size_t)(k - lo) * es;
        if (input)
            move_elem(node_elem, area_elem, es);
        else
            move_elem(area_elem, node_elem, es);
    }
}

/* Moves the elements of the replicates of lane block j: node by node, the
 * lanes of a node element are adjacent (at lane_offset + lane * es).
 * Aligned so that the speed of its gather loop does not depend on where
 * the linker happens to place it (measured: 0.112 s against 0.125 s for a
 * trainer's 200 epochs, with no change to this code). */
__attribute__((aligned(64)))
static void move_block(rt_net *net, int32_t g, int32_t j, int32_t lo, int32_t hi,
                       size_t lane_offset, const cp_io *io, int32_t stride, bool input)
{
    size_t es = io->elem_size, rs = net->desc->groups[g].lane.size;
    int32_t r0 = j * RT_LANES, n = net->nreps - r0 < RT_LANES ? net->nreps - r0 : RT_LANES;
    char *area = (char *)io->data + (size_t)r0 * stride * es;
    char *nodes = (char *)net->blocks[j].nodes[g] + lane_offset;
    if (es == 4) { /* Real, Int: a strided gather (scatter) per node */
        for (int32_t k = lo; k <= hi; k++) {
            uint32_t *lanes = (uint32_t *)(void *)(nodes + (size_t)k * rs);
            uint32_t *col = (uint32_t *)(void *)area + (k - lo);
            if (input)
                for (int32_t l = 0; l < n; l++)
                    lanes[l] = col[(size_t)l * stride];
            else
                for (int32_t l = 0; l < n; l++)
                    col[(size_t)l * stride] = lanes[l];
        }
        return;
    }
    for (int32_t k = lo; k <= hi; k++) {
        char *lanes = nodes + (size_t)k * rs;
        for (int32_t l = 0; l < n; l++) {
            char *area_elem = area + ((size_t)l * stride + (size_t)(k - lo)) * es;
            if (input)
                move_elem(lanes + (size_t)l * es, area_elem, es);
            else
                move_elem(area_elem, lanes + (size_t)l * es, es);
        }
    }
}

/* Block u (lane blocks) or replicate u (plain replicates). */
static void move_unit(rt_net *net, int32_t g, int32_t u, int32_t lo, int32_t hi, size_t offset,
                      size_t lane_offset, const cp_io *io, int32_t stride, bool input)
{
    if (net->blocks)
        move_block(net, g, u, lo, hi, lane_offset, io, stride, input);
    else
        move_rep(net, g, u, lo, hi, offset, io, stride, input);
}

/* Copies between the area and the nodes in the direction given. */
static void transfer(rt_net *net, int32_t g, int32_t lo, int32_t hi,
                     size_t offset, size_t lane_offset, size_t size, const cp_io *io,
                     bool input, rt_srcpos where)
{
    int32_t stride = check_area(net, g, &lo, &hi, size, io, input ? "input" : "output",
                                where);
    if (!stride)
        return;
    int32_t units = net->blocks ? net->nblocks : net->nreps;
    int64_t elems = (int64_t)net->nreps * (hi - lo + 1);
    /* no OpenMP region at all for small moves: even an idle one costs a
       futex call */
    if (units > 1 && elems >= RT_IO_GRAIN && rt_threads() > 1) {
#pragma omp parallel for schedule(static)
        for (int32_t u = 0; u < units; u++)
            move_unit(net, g, u, lo, hi, offset, lane_offset, io, stride, input);
    } else {
        for (int32_t u = 0; u < units; u++)
            move_unit(net, g, u, lo, hi, offset, lane_offset, io, stride, input);
    }
}

void rt_io_check(rt_net *net, int32_t g, int32_t lo, int32_t hi, size_t size,
                 const cp_io *io, bool input, rt_srcpos where)
{
    check_area(net, g, &lo, &hi, size, io, input ? "input" : "output", where);
}

void rt_io_block(rt_net *net, int32_t g, int32_t lo, int32_t hi, size_t lane_offset,
                 const cp_io *io, int32_t j, bool input)
{
    /* checked by rt_io_check already: no error can come from here */
    int32_t stride = check_area(net, g, &lo, &hi, io->elem_size, io, "", RT_NOWHERE);
    if (stride && j < net->nblocks)
        move_block(net, g, j, lo, hi, lane_offset, io, stride, input);
}

void rt_io_input(rt_net *net, int32_t g, int32_t lo, int32_t hi, size_t offset,
                 size_t lane_offset, size_t size, const cp_io *io, rt_srcpos where)
{
    transfer(net, g, lo, hi, offset, lane_offset, size, io, true, where);
}

void rt_io_output(rt_net *net, int32_t g, int32_t lo, int32_t hi, size_t offset,
                  size_t lane_offset, size_t size, cp_io *io, rt_srcpos where)
{
    transfer(net, g, lo, hi, offset, lane_offset, size, io, false, where);
}
