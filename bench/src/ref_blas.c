/* ref_blas.c -- batched C reference of the same full-batch RPROP training,
 * the upper bound for large hidden layers: examples are processed in blocks
 * of BLOCK rows and every layer is one OpenBLAS sgemm (forward, error
 * back-propagation and gradient).  The bias is folded into the matrices as a
 * constant-1 column.  Threads: OpenBLAS for the sgemm calls, OpenMP for the
 * element-wise loops. */
#include <cblas.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

void openblas_set_num_threads(int num_threads);   /* OpenBLAS extension */

enum { BLOCK = 256 };   /* examples per sgemm block */

typedef struct Net {
    BenchMlp m;
    float *hpre, *ha, *y, *d2, *dh;   /* block buffers */
} Net;

/* Forward pass of rows [p0, p0 + b): fills n->ha (with bias column) and n->y. */
static void forward_block(Net *n, const float *xa, int b)
{
    int h = n->m.hid, in1 = n->m.n_in + 1, h1 = h + 1;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, b, h, in1,
                1.0f, xa, in1, n->m.w1, in1, 0.0f, n->hpre, h);
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < b; r++) {
        for (int j = 0; j < h; j++)
            n->ha[(size_t)r * h1 + j] = 1.0f / (1.0f + expf(-n->hpre[(size_t)r * h + j]));
        n->ha[(size_t)r * h1 + h] = 1.0f;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, b, n->m.n_out, h1,
                1.0f, n->ha, h1, n->m.w2, h1, 0.0f, n->y, n->m.n_out);
    for (int i = 0; i < b * n->m.n_out; i++)
        n->y[i] = 1.0f / (1.0f + expf(-n->y[i]));
}

static double epoch(Net *n, const float *xa, const BenchData *d)
{
    int h = n->m.hid, in1 = n->m.n_in + 1, h1 = h + 1, no = n->m.n_out;
    double sse = 0.0;
    memset(n->m.g1, 0, sizeof(float) * n->m.n1);
    memset(n->m.g2, 0, sizeof(float) * n->m.n2);
    for (int p0 = 0; p0 < d->n; p0 += BLOCK) {
        int b = d->n - p0 < BLOCK ? d->n - p0 : BLOCK;
        const float *xb = xa + (size_t)p0 * in1;
        const float *tb = d->t + (size_t)p0 * no;
        forward_block(n, xb, b);
        for (int i = 0; i < b * no; i++) {
            float e = n->y[i] - tb[i];
            sse += (double)e * e;
            n->d2[i] = e * n->y[i] * (1.0f - n->y[i]);
        }
        /* G2 += D2^T Ha;  dH = D2 W2[:, :h];  G1 += (dH * h(1-h))^T Xa */
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, no, h1, b,
                    1.0f, n->d2, no, n->ha, h1, 1.0f, n->m.g2, h1);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, b, h, no,
                    1.0f, n->d2, no, n->m.w2, h1, 0.0f, n->dh, h);
        #pragma omp parallel for schedule(static)
        for (int r = 0; r < b; r++)
            for (int j = 0; j < h; j++) {
                float a = n->ha[(size_t)r * h1 + j];
                n->dh[(size_t)r * h + j] *= a * (1.0f - a);
            }
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, h, in1, b,
                    1.0f, n->dh, h, xb, in1, 1.0f, n->m.g1, in1);
    }
    bench_mlp_rprop(&n->m);
    return sse;
}

int main(int argc, char **argv)
{
    BenchOpts o;
    BenchData tr, te;
    if (!bench_start(argc, argv, "c-blas", &o, &tr, &te))
        return 2;
    openblas_set_num_threads(o.threads);

    Net n;
    bench_mlp_init(&n.m, o.seed, tr.n_in, o.hidden, tr.n_out);
    n.hpre = bench_floats((size_t)BLOCK * n.m.hid, 0.0f);
    n.ha = bench_floats((size_t)BLOCK * (n.m.hid + 1), 0.0f);
    n.dh = bench_floats((size_t)BLOCK * n.m.hid, 0.0f);
    n.y = bench_floats((size_t)BLOCK * n.m.n_out, 0.0f);
    n.d2 = bench_floats((size_t)BLOCK * n.m.n_out, 0.0f);

    float *xa = bench_augment(&tr);
    double *times = malloc(sizeof(double) * (size_t)o.epochs), sse = 0.0;
    for (int e = 0; e < o.epochs; e++) {
        double t0 = bench_now();
        sse = epoch(&n, xa, &tr);
        times[e] = bench_now() - t0;
    }

    BenchEval ev = {0};
    if (te.n > 0) {
        float *xt = bench_augment(&te);
        for (int p0 = 0; p0 < te.n; p0 += BLOCK) {
            int b = te.n - p0 < BLOCK ? te.n - p0 : BLOCK;
            forward_block(&n, xt + (size_t)p0 * (te.n_in + 1), b);
            for (int r = 0; r < b; r++)
                bench_eval_add(&ev, n.y + (size_t)r * te.n_out,
                               te.t + (size_t)(p0 + r) * te.n_out, te.n_out);
        }
        free(xt);
    }
    bench_report(&o, (long)(n.m.n1 + n.m.n2), &tr, times, o.epochs,
                 sse / ((double)tr.n * tr.n_out), &ev,
                 te.n > 0 && bench_is_classification(&te), "");
    return 0;
}
