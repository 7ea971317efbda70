/* bench_merge.c -- times MERGE of a lane-blocked replicated network.
 *
 * Usage: bench_merge K N_IN N_HID [REPEATS]: a network with groups in and
 * hid, in -> hid complete (N_IN * N_HID connections), in state R(K);
 * prints the mean time of rt_merge with lanes and the types' lane-wise
 * MERGE, with lanes but scalar MERGE only, and of the plain
 * implementation, with OMP_NUM_THREADS threads (best of 5 batches of
 * REPEATS MERGEs).
 */
#include "cupit_rt.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct bnode { cp_real act, err; } bnode;
typedef struct bconn { cp_real w, dw; } bconn;
typedef struct bnet { cp_real total; } bnet;
typedef struct vnode { cp_real act[RT_LANES], err[RT_LANES]; } vnode;
typedef struct vconn { cp_real w[RT_LANES], dw[RT_LANES]; } vconn;
typedef struct vnet { cp_real total[RT_LANES]; } vnet;

static void node_get(void *r, const void *v, const void *sh, int l)
{ (void)sh; ((bnode *)r)->act = ((const vnode *)v)->act[l]; ((bnode *)r)->err = ((const vnode *)v)->err[l]; }
static void node_put(void *v, void *sh, int l, const void *r)
{ (void)sh; ((vnode *)v)->act[l] = ((const bnode *)r)->act; ((vnode *)v)->err[l] = ((const bnode *)r)->err; }
static void conn_get(void *r, const void *v, const void *sh, int l)
{ (void)sh; ((bconn *)r)->w = ((const vconn *)v)->w[l]; ((bconn *)r)->dw = ((const vconn *)v)->dw[l]; }
static void conn_put(void *v, void *sh, int l, const void *r)
{ (void)sh; ((vconn *)v)->w[l] = ((const bconn *)r)->w; ((vconn *)v)->dw[l] = ((const bconn *)r)->dw; }
static void net_get(void *r, const void *v, const void *sh, int l) { (void)sh; ((bnet *)r)->total = ((const vnet *)v)->total[l]; }
static void net_put(void *v, void *sh, int l, const void *r) { (void)sh; ((vnet *)v)->total[l] = ((const bnet *)r)->total; }
static void node_merge(void *me, const void *you) { ((bnode *)me)->err += ((const bnode *)you)->err; }
static void conn_merge(void *me, const void *you) { ((bconn *)me)->dw += ((const bconn *)you)->dw; }
static void net_merge(void *me, const void *you) { ((bnet *)me)->total += ((const bnet *)you)->total; }
static void node_lmerge(void *me, const void *you, const void *sh)
{ (void)sh; for (int l = 0; l < RT_LANES; l++) ((vnode *)me)->err[l] += ((const vnode *)you)->err[l]; }
static void conn_lmerge(void *me, const void *you, const void *sh)
{ (void)sh; for (int l = 0; l < RT_LANES; l++) ((vconn *)me)->dw[l] += ((const vconn *)you)->dw[l]; }
static void net_lmerge(void *me, const void *you, const void *sh)
{ (void)sh; for (int l = 0; l < RT_LANES; l++) ((vnet *)me)->total[l] += ((const vnet *)you)->total[l]; }

#define NODE_LANES(M) { sizeof(vnode), node_get, node_put, M, 0 }
static const rt_group_desc groups[2][2] = {
    { { "in", sizeof(bnode), NULL, node_merge, false, 0, NODE_LANES(NULL) },
      { "hid", sizeof(bnode), NULL, node_merge, false, 0, NODE_LANES(NULL) } },
    { { "in", sizeof(bnode), NULL, node_merge, false, 0, NODE_LANES(node_lmerge) },
      { "hid", sizeof(bnode), NULL, node_merge, false, 0, NODE_LANES(node_lmerge) } },
};
static const rt_bundle_desc bundles[2][1] = {
    { { 0, 0, 1, 0, sizeof(bconn), NULL, conn_merge, { sizeof(vconn), conn_get, conn_put, NULL, 0 } } },
    { { 0, 0, 1, 0, sizeof(bconn), NULL, conn_merge,
        { sizeof(vconn), conn_get, conn_put, conn_lmerge, 0 } } },
};

/* lanes: 0 plain, 1 lanes with scalar MERGE only, 2 lanes with lane MERGE */
static double time_merge(int lanes, int32_t k, int32_t n_in, int32_t n_hid, int reps)
{
    int lm = lanes == 2;
    rt_net_desc d = { "net", sizeof(bnet), NULL, net_merge, 2, groups[lm], 1, bundles[lm],
                      lanes > 0, { sizeof(vnet), net_get, net_put, lm ? net_lmerge : NULL, 0 } };
    rt_srcpos here = { "bench.nn", 1 };
    rt_net net;
    rt_net_create(&net, &d, here);
    rt_extend(&net, 0, n_in, here);
    rt_extend(&net, 1, n_hid, here);
    rt_connect(&net, 0, 0, n_in - 1, 0, n_hid - 1, here);
    rt_replicate(&net, k, k, false, 0, here);
    rt_merge(&net, here); /* warm up */
    double t = 1e30;
    for (int batch = 0; batch < 5; batch++) { /* best of 5: other load */
        double t0 = omp_get_wtime();
        for (int i = 0; i < reps; i++)
            rt_merge(&net, here);
        double mean = (omp_get_wtime() - t0) / reps;
        t = mean < t ? mean : t;
    }
    rt_net_destroy(&net);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s K N_IN N_HID [REPEATS]\n", argv[0]);
        return 2;
    }
    int32_t k = atoi(argv[1]), n_in = atoi(argv[2]), n_hid = atoi(argv[3]);
    int reps = argc > 4 ? atoi(argv[4]) : 20;
    {
        int t = omp_get_max_threads();
        printf("k=%d connections=%d threads=%d: lane merge %.3f ms, lanes %.3f ms, "
               "plain %.3f ms\n", (int)k, (int)(n_in * n_hid), t,
               1e3 * time_merge(2, k, n_in, n_hid, reps),
               1e3 * time_merge(1, k, n_in, n_hid, reps),
               1e3 * time_merge(0, k, n_in, n_hid, reps));
    }
    return 0;
}
