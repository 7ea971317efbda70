/* check_rt_dense.c -- Check suite for rt_dense_sum (cupit_rt.h), the
 * kernel the dense pass calls for sums over fully connected bundles: its
 * results must be the bits of the loop over the connections it replaces
 * (one chain of additions per output and lane, from -0.0, terms in order,
 * sources ascending), for every output count (whole tiles and the rest),
 * weights per lane or shared, incoming (wj = nsrc, ws = 1) and outgoing
 * (wj = 1, ws = nsrc) layouts, record strides, and masks; lanes off in the
 * mask and every output when no term has a source keep their values.
 */
#include "check_rt_support.h"

#include <math.h>
#include <string.h>

enum { MAXN = 40, MAXT = 3, XSTRIDE = 3, YSTRIDE = 2, WSTRIDE = 2 };

/* Node records: XSTRIDE lane arrays, x in the second. */
typedef struct xrec { cp_real pad[RT_LANES], x[RT_LANES], pad2[RT_LANES]; } xrec;
/* Output records: y in the first of two lane arrays. */
typedef struct yrec { cp_real y[RT_LANES], other[RT_LANES]; } yrec;
/* Connection records, lane weights or one shared weight. */
typedef struct wlrec { cp_real w[RT_LANES], g[RT_LANES]; } wlrec;
typedef struct wsrec { cp_real step, w; } wsrec;

static uint64_t rs;
static uint32_t rnd32(void)
{
    rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rs >> 33);
}

/* Values of every magnitude and sign, so that the order of additions
 * shows in the bits. */
static cp_real rval(void)
{
    double m = (double)(rnd32() % 2000000) / 1000000.0 - 1.0;
    int e = (int)(rnd32() % 24) - 12;
    return (cp_real)(m * (double)(1 << (e < 0 ? 0 : e)) / (double)(1 << (e < 0 ? -e : 0)));
}

typedef struct Case {
    int32_t ndst;
    int nterms;
    int32_t n[MAXT];
    bool w_lanes[MAXT];
    bool out[MAXT];
    xrec xs[MAXT][MAXN];
    wlrec wl[MAXT][MAXN * MAXN];
    wsrec ws[MAXT][MAXN * MAXN];
    yrec y[MAXN];
    int32_t mask[RT_LANES];
} Case;

static Case cs, ref;

/* The loop over the connections, output by output, lane by lane. */
static void reference(Case *c)
{
    bool any = false;
    for (int t = 0; t < c->nterms; t++)
        any |= c->n[t] > 0;
    if (!any)
        return;
    for (int32_t j = 0; j < c->ndst; j++)
        for (int l = 0; l < RT_LANES; l++) {
            if (!c->mask[l])
                continue;
            cp_real acc = (cp_real)-0.0;
            for (int t = 0; t < c->nterms; t++)
                for (int32_t s = 0; s < c->n[t]; s++) {
                    /* connection (s, j) of an incoming bundle is j * n + s;
                       of an outgoing one (this node the source j, the other
                       end s of ndst) s * ndst + j */
                    int32_t k = c->out[t] ? s * c->ndst + j : j * c->n[t] + s;
                    cp_real w = c->w_lanes[t] ? c->wl[t][k].w[l] : c->ws[t][k].w;
                    cp_real p = c->xs[t][s].x[l] * w;
                    acc = acc + p;
                }
            c->y[j].y[l] = acc;
        }
}

static void kernel(Case *c)
{
    rt_dense_term terms[MAXT];
    for (int t = 0; t < c->nterms; t++) {
        terms[t] = (rt_dense_term){
            .x = &c->xs[t][0].x, .x_stride = sizeof(xrec),
            .w = c->w_lanes[t] ? (const void *)&c->wl[t][0].w : (const void *)&c->ws[t][0].w,
            .w_stride = c->w_lanes[t] ? sizeof(wlrec) : sizeof(wsrec),
            .wj = c->out[t] ? 1 : c->n[t],
            .ws = c->out[t] ? c->ndst : 1,
            .w_lanes = c->w_lanes[t],
            .n = c->n[t],
        };
    }
    rt_dense_sum(&c->y[0].y, sizeof(yrec), c->ndst, c->mask, terms, c->nterms);
}

static void fill(int32_t ndst, int nterms, int variant)
{
    memset(&cs, 0, sizeof cs);
    cs.ndst = ndst;
    cs.nterms = nterms;
    for (int t = 0; t < nterms; t++) {
        cs.n[t] = (int32_t)(rnd32() % MAXN);
        if (variant % 5 == 1 && t == 0)
            cs.n[t] = 0;
        cs.w_lanes[t] = (rnd32() & 1) != 0;
        cs.out[t] = (rnd32() & 1) != 0;
        for (int s = 0; s < MAXN; s++)
            for (int l = 0; l < RT_LANES; l++) {
                cs.xs[t][s].x[l] = rval();
                cs.xs[t][s].pad[l] = cs.xs[t][s].pad2[l] = (cp_real)1e30;
            }
        for (int k = 0; k < MAXN * MAXN; k++) {
            cs.ws[t][k].w = rval();
            cs.ws[t][k].step = (cp_real)1e30;
            for (int l = 0; l < RT_LANES; l++) {
                cs.wl[t][k].w[l] = rval();
                cs.wl[t][k].g[l] = (cp_real)1e30;
            }
        }
    }
    for (int j = 0; j < MAXN; j++)
        for (int l = 0; l < RT_LANES; l++) {
            cs.y[j].y[l] = (cp_real)(1000 + j * RT_LANES + l);
            cs.y[j].other[l] = (cp_real)7;
        }
    for (int l = 0; l < RT_LANES; l++)
        cs.mask[l] = variant % 3 == 0 ? 1 : (int32_t)(rnd32() & 1);
}

/* Random cases: every output count up to 2.5 tiles of the widest kernel,
 * one to three terms. */
START_TEST(test_dense_sum_same_bits)
{
    rs = 0x5eed0000ULL + (uint64_t)_i;
    for (int32_t ndst = 0; ndst <= 20; ndst++) {
        fill(ndst, 1 + _i % MAXT, _i + ndst);
        memcpy(&ref, &cs, sizeof cs);
        reference(&ref);
        kernel(&cs);
        ck_assert_msg(memcmp(cs.y, ref.y, sizeof cs.y) == 0,
                      "case %d, %d outputs: not the bits of the connection loop", _i, ndst);
    }
}
END_TEST

/* No term with a source: nothing is stored (an empty REDUCTION leaves its
 * target alone). */
START_TEST(test_dense_sum_empty_stores_nothing)
{
    rs = 42;
    fill(9, 2, 0);
    cs.n[0] = cs.n[1] = 0;
    memcpy(&ref, &cs, sizeof cs);
    kernel(&cs);
    ck_assert(memcmp(cs.y, ref.y, sizeof cs.y) == 0);
}
END_TEST

/* Products that are all -0.0 sum to -0.0, as the loop's does. */
START_TEST(test_dense_sum_negative_zero)
{
    rs = 7;
    fill(5, 1, 0);
    cs.n[0] = 3;
    cs.w_lanes[0] = false;
    for (int s = 0; s < 3; s++)
        for (int l = 0; l < RT_LANES; l++)
            cs.xs[0][s].x[l] = (cp_real)-1.0;
    for (int k = 0; k < MAXN * MAXN; k++)
        cs.ws[0][k].w = (cp_real)0.0;
    kernel(&cs);
    for (int j = 0; j < 5; j++)
        for (int l = 0; l < RT_LANES; l++)
            ck_assert(cs.y[j].y[l] == 0 && signbit(cs.y[j].y[l]));
    ck_assert(cs.y[5].y[0] == (cp_real)(1000 + 5 * RT_LANES)); /* past ndst: untouched */
}
END_TEST

static Suite *dense_suite(void)
{
    Suite *s = suite_create("rt_dense");
    TCase *tc = tcase_create("dense");
    tcase_add_loop_test(tc, test_dense_sum_same_bits, 0, 24);
    tcase_add_test(tc, test_dense_sum_empty_stores_nothing);
    tcase_add_test(tc, test_dense_sum_negative_zero);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(dense_suite());
}
