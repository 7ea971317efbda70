/* ref_sparse.c -- the hand-written C reference for pruned networks: the same
 * full-batch RPROP training as ref_loop.c, but every layer keeps only its
 * existing connections, as per-destination lists (CSR: row start, source
 * index, weight).  --prune F first deletes the fraction F of all connections
 * (biases included) with the smallest |initial weight| -- the rule of
 * backprop.nn's eliminate -- so the time per epoch follows the connections
 * that are left.  Threads as in ref_loop.c. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

typedef struct Layer {
    int n_dst, n_src;     /* source n_src is the constant-1 bias */
    size_t nc;            /* connections left */
    int *row, *src;       /* row[d] .. row[d+1]-1 are d's connections */
    float *w, *g, *prev, *step;
} Layer;

typedef struct Partials { float **g1, **g2; } Partials;   /* sc[t].g1, sc[t].g2 */

typedef struct Scratch { float *h, *y, *dh, *g1, *g2; } Scratch;

static void *xmalloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (p == NULL) {
        fprintf(stderr, "ref_sparse: out of memory\n");
        exit(1);
    }
    return p;
}

/* Builds the CSR layer from a dense row-major matrix, keeping |w| >= cut. */
static void build_layer(Layer *l, int n_dst, int n_src, const float *dense, float cut)
{
    l->n_dst = n_dst;
    l->n_src = n_src;
    l->row = xmalloc(sizeof(int) * (size_t)(n_dst + 1));
    size_t all = (size_t)n_dst * (n_src + 1), c = 0;
    for (size_t i = 0; i < all; i++) c += fabsf(dense[i]) >= cut;
    l->nc = c;
    l->src = xmalloc(sizeof(int) * c);
    l->w = xmalloc(sizeof(float) * c);
    l->g = xmalloc(sizeof(float) * c);
    l->prev = xmalloc(sizeof(float) * c);
    l->step = xmalloc(sizeof(float) * c);
    c = 0;
    for (int d = 0; d < n_dst; d++) {
        l->row[d] = (int)c;
        for (int s = 0; s <= n_src; s++) {
            float w = dense[(size_t)d * (n_src + 1) + s];
            if (fabsf(w) >= cut) {
                l->src[c] = s;
                l->w[c] = w;
                l->step[c] = RP_ETA0;
                c++;
            }
        }
    }
    l->row[n_dst] = (int)c;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The |w| below which the fraction `prune` of all weights lies. */
static float prune_cut(const float *w1, size_t n1, const float *w2, size_t n2, double prune)
{
    if (prune <= 0.0) return 0.0f;
    float *a = xmalloc(sizeof(float) * (n1 + n2));
    for (size_t i = 0; i < n1; i++) a[i] = fabsf(w1[i]);
    for (size_t i = 0; i < n2; i++) a[n1 + i] = fabsf(w2[i]);
    qsort(a, n1 + n2, sizeof(float), cmp_float);
    size_t k = (size_t)(prune * (double)(n1 + n2));
    float cut = k < n1 + n2 ? a[k] : INFINITY;
    free(a);
    return cut;
}

static float sigmoid(float s) { return 1.0f / (1.0f + expf(-s)); }

static void forward_layer(const Layer *l, const float *in, float *out)
{
    for (int d = 0; d < l->n_dst; d++) {
        float s = 0.0f;
        for (int c = l->row[d]; c < l->row[d + 1]; c++)
            s += l->w[c] * in[l->src[c]];
        out[d] = sigmoid(s);
    }
}

/* xa: one example with the trailing 1; s->h has H + 1 entries (last = 1). */
static double example(const Layer *l1, const Layer *l2, Scratch *s,
                      const float *xa, const float *t)
{
    double sse = 0.0;
    forward_layer(l1, xa, s->h);
    forward_layer(l2, s->h, s->y);
    memset(s->dh, 0, sizeof(float) * (size_t)(l1->n_dst + 1));
    for (int k = 0; k < l2->n_dst; k++) {
        float e = s->y[k] - t[k];
        float dk = e * s->y[k] * (1.0f - s->y[k]);
        sse += (double)e * e;
        for (int c = l2->row[k]; c < l2->row[k + 1]; c++) {
            s->g2[c] += dk * s->h[l2->src[c]];
            s->dh[l2->src[c]] += dk * l2->w[c];
        }
    }
    for (int j = 0; j < l1->n_dst; j++) {
        float dj = s->dh[j] * s->h[j] * (1.0f - s->h[j]);
        for (int c = l1->row[j]; c < l1->row[j + 1]; c++)
            s->g1[c] += dj * xa[l1->src[c]];
    }
    return sse;
}

static double epoch(Layer *l1, Layer *l2, Scratch *sc, const Partials *tp, int threads,
                    const float *xa, const BenchData *d)
{
    double sse = 0.0;
    #pragma omp parallel num_threads(threads) reduction(+ : sse)
    {
        Scratch *s = &sc[omp_get_thread_num()];
        memset(s->g1, 0, sizeof(float) * l1->nc);
        memset(s->g2, 0, sizeof(float) * l2->nc);
        #pragma omp for schedule(static)
        for (int p = 0; p < d->n; p++)
            sse += example(l1, l2, s, xa + (size_t)p * (d->n_in + 1), d->t + (size_t)p * d->n_out);
    }
    bench_sum_partials(l1->g, tp->g1, threads, l1->nc);
    bench_sum_partials(l2->g, tp->g2, threads, l2->nc);
    bench_rprop_update(l1->w, l1->g, l1->prev, l1->step, l1->nc);
    bench_rprop_update(l2->w, l2->g, l2->prev, l2->step, l2->nc);
    return sse;
}

int main(int argc, char **argv)
{
    BenchOpts o;
    BenchData tr, te;
    if (!bench_start(argc, argv, "c-sparse", &o, &tr, &te))
        return 2;

    int hid = o.hidden;
    size_t n1 = (size_t)hid * (tr.n_in + 1), n2 = (size_t)tr.n_out * (hid + 1);
    float *w1 = xmalloc(sizeof(float) * n1), *w2 = xmalloc(sizeof(float) * n2);
    bench_init_weights(o.seed, tr.n_in, hid, tr.n_out, w1, w2);
    float cut = prune_cut(w1, n1, w2, n2, o.prune);
    Layer l1, l2;
    build_layer(&l1, hid, tr.n_in, w1, cut);
    build_layer(&l2, tr.n_out, hid, w2, cut);

    Scratch *sc = xmalloc(sizeof *sc * (size_t)o.threads);
    Partials tp = {xmalloc(sizeof(float *) * (size_t)o.threads), xmalloc(sizeof(float *) * (size_t)o.threads)};
    for (int t = 0; t < o.threads; t++) {
        sc[t].h = xmalloc(sizeof(float) * (size_t)(hid + 1));
        sc[t].h[hid] = 1.0f;
        sc[t].dh = xmalloc(sizeof(float) * (size_t)(hid + 1));
        sc[t].y = xmalloc(sizeof(float) * (size_t)tr.n_out);
        sc[t].g1 = xmalloc(sizeof(float) * l1.nc);
        sc[t].g2 = xmalloc(sizeof(float) * l2.nc);
        tp.g1[t] = sc[t].g1;
        tp.g2[t] = sc[t].g2;
    }
    float *xa = bench_augment(&tr);
    double *times = xmalloc(sizeof(double) * (size_t)o.epochs), sse = 0.0;
    for (int e = 0; e < o.epochs; e++) {
        double t0 = bench_now();
        sse = epoch(&l1, &l2, sc, &tp, o.threads, xa, &tr);
        times[e] = bench_now() - t0;
    }

    BenchEval ev = {0};
    if (te.n > 0) {
        float *xt = bench_augment(&te);
        for (int p = 0; p < te.n; p++) {
            forward_layer(&l1, xt + (size_t)p * (te.n_in + 1), sc[0].h);
            forward_layer(&l2, sc[0].h, sc[0].y);
            bench_eval_add(&ev, sc[0].y, te.t + (size_t)p * te.n_out, te.n_out);
        }
    }
    char note[64];
    snprintf(note, sizeof note, "pruned=%.2f", o.prune);
    bench_report(&o, (long)(l1.nc + l2.nc), &tr, times, o.epochs,
                 sse / ((double)tr.n * tr.n_out), &ev,
                 te.n > 0 && bench_is_classification(&te), note);
    return 0;
}
