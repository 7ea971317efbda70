/* ref_loop.c -- hand-written C reference of full-batch RPROP training of an
 * n_in-H-n_out sigmoid perceptron, written the way a careful C programmer
 * writes it: one example at a time, plain loops, no BLAS, no intrinsics.
 * With --threads T the examples are split into T static chunks (OpenMP);
 * each thread sums its own gradient, the partial sums are added in thread
 * order, so a run is deterministic for a fixed T. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

typedef BenchMlp Net;

typedef struct Partials { float **g1, **g2; } Partials;   /* sc[t].g1, sc[t].g2 */

typedef struct Scratch {  /* one per thread */
    float *h, *y, *dh, *g1, *g2;
} Scratch;

static float sigmoid(float s) { return 1.0f / (1.0f + expf(-s)); }

/* out[d] = sigmoid(bias + sum of w * in) for the rows of one weight matrix. */
static void layer(const float *w, int n_src, int n_dst, const float *in, float *out)
{
    for (int d = 0; d < n_dst; d++, w += n_src + 1) {
        float s = w[n_src];
        for (int i = 0; i < n_src; i++)
            s += w[i] * in[i];
        out[d] = sigmoid(s);
    }
}

static void forward(const Net *n, const float *x, float *h, float *y)
{
    layer(n->w1, n->n_in, n->hid, x, h);
    layer(n->w2, n->hid, n->n_out, h, y);
}

/* Forward and backward pass of one example; adds its gradient to s->g*. */
static double example(const Net *n, Scratch *s, const float *x, const float *t)
{
    double sse = 0.0;
    forward(n, x, s->h, s->y);
    memset(s->dh, 0, sizeof(float) * (size_t)n->hid);
    for (int k = 0; k < n->n_out; k++) {
        float e = s->y[k] - t[k];
        float dk = e * s->y[k] * (1.0f - s->y[k]);
        const float *w = n->w2 + (size_t)k * (n->hid + 1);
        float *g = s->g2 + (size_t)k * (n->hid + 1);
        sse += (double)e * e;
        for (int j = 0; j < n->hid; j++) {
            g[j] += dk * s->h[j];
            s->dh[j] += dk * w[j];
        }
        g[n->hid] += dk;
    }
    for (int j = 0; j < n->hid; j++) {
        float dj = s->dh[j] * s->h[j] * (1.0f - s->h[j]);
        float *g = s->g1 + (size_t)j * (n->n_in + 1);
        for (int i = 0; i < n->n_in; i++)
            g[i] += dj * x[i];
        g[n->n_in] += dj;
    }
    return sse;
}

/* One epoch: all examples, then one RPROP step.  Returns the summed squared
 * error measured on the way (before the step). */
static double epoch(Net *n, Scratch *sc, const Partials *tp, int threads, const BenchData *d)
{
    double sse = 0.0;
    #pragma omp parallel num_threads(threads) reduction(+ : sse)
    {
        Scratch *s = &sc[omp_get_thread_num()];
        memset(s->g1, 0, sizeof(float) * n->n1);
        memset(s->g2, 0, sizeof(float) * n->n2);
        #pragma omp for schedule(static)
        for (int p = 0; p < d->n; p++)
            sse += example(n, s, d->x + (size_t)p * d->n_in, d->t + (size_t)p * d->n_out);
    }
    bench_sum_partials(n->g1, tp->g1, threads, n->n1);
    bench_sum_partials(n->g2, tp->g2, threads, n->n2);
    bench_mlp_rprop(n);
    return sse;
}

int main(int argc, char **argv)
{
    BenchOpts o;
    BenchData tr, te;
    if (!bench_start(argc, argv, "c-loop", &o, &tr, &te))
        return 2;

    Net n;
    bench_mlp_init(&n, o.seed, tr.n_in, o.hidden, tr.n_out);

    Scratch *sc = calloc((size_t)o.threads, sizeof *sc);
    Partials tp = {calloc((size_t)o.threads, sizeof(float *)), calloc((size_t)o.threads, sizeof(float *))};
    for (int t = 0; t < o.threads; t++) {
        sc[t].h = bench_floats((size_t)n.hid, 0.0f);
        sc[t].dh = bench_floats((size_t)n.hid, 0.0f);
        sc[t].y = bench_floats((size_t)n.n_out, 0.0f);
        sc[t].g1 = bench_floats(n.n1, 0.0f);
        sc[t].g2 = bench_floats(n.n2, 0.0f);
        tp.g1[t] = sc[t].g1;
        tp.g2[t] = sc[t].g2;
    }

    double *times = malloc(sizeof(double) * (size_t)o.epochs), sse = 0.0;
    for (int e = 0; e < o.epochs; e++) {
        double t0 = bench_now();
        sse = epoch(&n, sc, &tp, o.threads, &tr);
        times[e] = bench_now() - t0;
    }

    BenchEval ev = {0};
    for (int p = 0; p < te.n; p++) {
        forward(&n, te.x + (size_t)p * te.n_in, sc[0].h, sc[0].y);
        bench_eval_add(&ev, sc[0].y, te.t + (size_t)p * te.n_out, te.n_out);
    }
    bench_report(&o, (long)(n.n1 + n.n2), &tr, times, o.epochs,
                 sse / ((double)tr.n * tr.n_out), &ev,
                 te.n > 0 && bench_is_classification(&te), "");
    return 0;
}
