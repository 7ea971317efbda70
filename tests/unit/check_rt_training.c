/* check_rt_training.c -- Check suite running the report's backprop.nn
 * algorithm by hand against the runtime ABI, the way generated code does:
 * CSR loops over the storage, replicates fed by the standard library's
 * example procedures, MERGE per epoch, pruning by connection and node
 * self-deletion in between.  Learning must succeed and the result must be
 * bitwise the same for 1 and 4 threads.
 */
#include "check_rt_support.h"
#include "../../runtime/cupit_stdlib.h"

#include <omp.h>
#include <stddef.h>

/* ---- the report's types --------------------------------------------------- */

typedef struct weight {
    cp_real in, out, weight, olddelta, eta, delta;
} weight;

typedef struct sigmoid_node {
    cp_real inData, outData, cumErr;
    cp_int errN, consN;
} sigmoid_node;

typedef struct mlp {
    cp_real totError;
    cp_int errorsN, consN;
} mlp;

enum { IN, HID, OUT };                  /* groups */
enum { IN_HID, HID_OUT, BIAS_OUT };     /* bundles */

static void weight_init(rt_net *net, void *rec)
{
    (void)net;
    weight *w = rec;
    w->weight = rt_random_real(HERE, -0.5f, 0.5f);
    w->eta = 0.05f;
}

static void weight_merge(void *me, const void *you)
{
    ((weight *)me)->delta += ((const weight *)you)->delta;
}

static void node_merge(void *me, const void *you)
{
    ((sigmoid_node *)me)->cumErr += ((const sigmoid_node *)you)->cumErr;
    ((sigmoid_node *)me)->errN += ((const sigmoid_node *)you)->errN;
}

static const rt_group_desc mlp_groups[] = {
    { "in", sizeof(sigmoid_node), NULL, node_merge, false, 0, {0}, NULL, 0 },
    { "hid", sizeof(sigmoid_node), NULL, node_merge, false, 0, {0}, NULL, 0 },
    { "out", sizeof(sigmoid_node), NULL, node_merge, false, 0, {0}, NULL, 0 },
};
static const rt_bundle_desc mlp_bundles[] = {
    { IN, 1, HID, 0, sizeof(weight), weight_init, weight_merge, {0}, NULL, 0 },
    { HID, 1, OUT, 0, sizeof(weight), weight_init, weight_merge, {0}, NULL, 0 },
    { IN, 1, OUT, 0, sizeof(weight), weight_init, weight_merge, {0}, NULL, 0 },
};
static const rt_net_desc mlp_desc = { "net", sizeof(mlp), NULL, NULL, 3,
                                      mlp_groups, 3, mlp_bundles, false, {0}, NULL, 0 };

static rt_net net;

/* ---- the procedures, as CSR loops --------------------------------------------- */

static sigmoid_node *nodes(int32_t r, int32_t g)
{
    return net.reps[r].nodes[g];
}

static weight *conns(int32_t r, int32_t b)
{
    return net.reps[r].conns[b];
}

/* The bundles leaving / entering group g (its only OUT / IN interface). */
static bool leaves(int32_t b, int32_t g) { return mlp_bundles[b].src_group == g; }
static bool enters(int32_t b, int32_t g) { return mlp_bundles[b].dst_group == g; }

/* ME.out[].transport (ME.outData) for node s of group g. */
static void transport_out(int32_t r, int32_t g, int32_t s, cp_real val)
{
    for (int32_t b = 0; b < 3; b++)
        if (leaves(b, g)) {
            const rt_bundle *bd = &net.bundles[b];
            for (int32_t j = bd->src_start[s]; j < bd->src_start[s + 1]; j++) {
                weight *w = &conns(r, b)[bd->by_src[j]];
                w->in = val;
                w->out = val * w->weight;
            }
        }
}

/* REDUCTION ME.in[].out:sum INTO x for node d of group g (x unchanged if
 * there are no connections). */
static void reduce_in(int32_t r, int32_t g, int32_t d, cp_real *x)
{
    bool any = false;
    cp_real acc = 0;
    for (int32_t b = 0; b < 3; b++)
        if (enters(b, g)) {
            const rt_bundle *bd = &net.bundles[b];
            for (int32_t k = bd->dst_start[d]; k < bd->dst_start[d + 1]; k++) {
                acc += conns(r, b)[k].out;
                any = true;
            }
        }
    if (any)
        *x = acc;
}

static void forward(int32_t r, int32_t g, bool doIn, bool doOut)
{
    for (int32_t i = 0; i < net.count[g]; i++) {
        sigmoid_node *n = &nodes(r, g)[i];
        if (doIn)
            reduce_in(r, g, i, &n->inData);
        if (doOut) {
            n->outData = sigmoid(n->inData);
            transport_out(r, g, i, n->outData);
        }
    }
}

static void backward(int32_t r, int32_t g, bool doIn, bool doOut)
{
    for (int32_t i = 0; i < net.count[g]; i++) {
        sigmoid_node *n = &nodes(r, g)[i];
        if (doIn) { /* REDUCTION ME.out[].in:sum INTO ME.outData */
            cp_real acc = 0;
            bool any = false;
            for (int32_t b = 0; b < 3; b++)
                if (leaves(b, g)) {
                    const rt_bundle *bd = &net.bundles[b];
                    for (int32_t j = bd->src_start[i]; j < bd->src_start[i + 1]; j++) {
                        acc += conns(r, b)[bd->by_src[j]].in;
                        any = true;
                    }
                }
            if (any)
                n->outData = acc;
            n->inData = n->outData * sigmoidPrime(n->inData);
        } else {
            cp_real sout = sigmoid(n->inData), diff = n->outData - sout;
            n->inData = diff * sigmoidPrime(n->inData);
            n->outData = sout;
            n->cumErr += 0.5f * diff * diff;
            if (absReal(diff) > 0.3f)
                n->errN += 1;
        }
        if (doOut) /* ME.in[].btransport (ME.inData) */
            for (int32_t b = 0; b < 3; b++)
                if (enters(b, g)) {
                    const rt_bundle *bd = &net.bundles[b];
                    for (int32_t k = bd->dst_start[i]; k < bd->dst_start[i + 1]; k++) {
                        weight *w = &conns(r, b)[k];
                        w->out = n->inData;
                        w->delta += n->inData * w->in;
                        w->in = n->inData * w->weight;
                    }
                }
    }
}

static void adapt(int32_t r)
{
    for (int32_t b = 0; b < 3; b++)
        for (int32_t k = 0; k < net.bundles[b].nconn; k++) {
            weight *w = &conns(r, b)[k];
            cp_real product = w->olddelta * w->delta;
            if (product > 0)
                w->eta = minReal(w->eta * 1.1f, 50);
            else if (product < 0)
                w->eta = maxReal(w->eta * 0.5f, 1e-6f);
            w->weight += signReal(w->delta) * w->eta;
            w->olddelta = w->delta;
            w->delta = 0;
        }
}

static cp_real compute_total_error(int32_t r)
{
    cp_real tot = 0;
    for (int32_t i = 0; i < net.count[OUT]; i++) {
        tot += nodes(r, OUT)[i].cumErr;
        nodes(r, OUT)[i].cumErr = 0;
        nodes(r, OUT)[i].errN = 0;
    }
    return tot;
}

/* Connection elimination and node self-deletion (the report's modify). */
static void prune(cp_real p)
{
    for (int32_t b = 0; b < 3; b++)
        for (int32_t k = 0; k < net.bundles[b].nconn; k++)
            if (absReal(conns(0, b)[k].weight) < p)
                rt_request_conn_replicate(&net, b, k, 0, HERE);
    rt_commit_topology(&net, HERE);
    for (int32_t g = HID; g <= OUT; g++)
        for (int32_t i = 0; i < net.count[g]; i++) {
            int32_t ins = 0;
            for (int32_t b = 0; b < 3; b++)
                if (enters(b, g))
                    ins += net.bundles[b].dst_start[i + 1] - net.bundles[b].dst_start[i];
            if (ins == 0)
                rt_request_node_replicate(&net, g, i, 0, HERE);
        }
    rt_commit_topology(&net, HERE);
}

static cp_io x1, x2;
static int32_t pruned_to; /* connections left after pruning */

/* Trains XOR for `epochs` epochs with `threads` threads; returns the final
 * error and copies the weights of bundle IN_HID. */
static cp_real train(int threads, int epochs, cp_real *weights, cp_real *first)
{
    omp_set_num_threads(threads);
    rt_seed(5);
    node_counter = conn_counter = 0;
    cp_int d1, d2, inputs, outputs, examples, i = 0;
    const char *root = getenv("ROOT") ? getenv("ROOT") : ".";
    char path[600];
    snprintf(path, sizeof path, "%s/examples/data/xor-bias.data", root);
    openDatafile(path, &d1, &inputs, &d2, &outputs, &examples);
    rt_net_create(&net, &mlp_desc, HERE);
    rt_extend(&net, IN, inputs, HERE);
    rt_extend(&net, HID, 4, HERE);
    rt_extend(&net, OUT, outputs, HERE);
    rt_connect(&net, IN_HID, 0, inputs - 1, 0, 3, HERE);
    rt_connect(&net, HID_OUT, 0, 3, 0, outputs - 1, HERE);
    rt_connect(&net, BIAS_OUT, 0, 0, 0, outputs - 1, HERE);
    rt_replicate(&net, 1, examples, true, 0, HERE);
    initIOareasxRxR(&x1, &x2, net.nreps);
    cp_real error = 0;
    for (int epoch = 1; epoch <= epochs; epoch++) {
        for (int done = 0; done < examples; done += net.nreps) {
            getExamplesxRxR(&x1, &x2, net.nreps, &i);
            rt_io_input(&net, IN, 0, INT32_MAX, offsetof(sigmoid_node, inData), 0, sizeof(cp_real), &x1, HERE);
            rt_io_input(&net, OUT, 0, INT32_MAX, offsetof(sigmoid_node, outData), 0, sizeof(cp_real), &x2, HERE);
            int32_t reps = net.nreps;
#pragma omp parallel for schedule(static)
            for (int32_t r = 0; r < reps; r++) {
                forward(r, IN, false, true);
                forward(r, HID, true, true);
                forward(r, OUT, true, false);
                backward(r, OUT, false, true);
                backward(r, HID, true, true);
            }
        }
        rt_merge(&net, HERE);
        for (int32_t r = 0; r < net.nreps; r++)
            adapt(r);
        for (int32_t r = 0; r < net.nreps; r++)
            error = compute_total_error(r);
        if (epoch == 1)
            *first = error;
        if (epoch == epochs / 2) { /* prune once, in state U */
            rt_replicate(&net, 1, 1, false, 0, HERE);
            prune(2.0f);
            check_invariants(&net);
            pruned_to = net.bundles[IN_HID].nconn + net.bundles[HID_OUT].nconn +
                        net.bundles[BIAS_OUT].nconn;
            rt_replicate(&net, 1, examples, true, 0, HERE);
        }
    }
    for (int32_t k = 0; k < net.bundles[IN_HID].nconn && k < 12; k++)
        weights[k] = conns(0, IN_HID)[k].weight;
    rt_net_destroy(&net);
    rt_stdlib_release();
    return error;
}

START_TEST(test_training_learns_xor)
{
    cp_real w[12] = { 0 }, first;
    cp_real error = train(2, 300, w, &first);
    ck_assert_msg(error < 0.005f, "error %g after 300 epochs (first %g)", (double)error, (double)first);
    ck_assert_float_gt(first, 0.2f);
    ck_assert_int_lt(pruned_to, 4 * 3 + 4 + 1); /* pruning removed some */
    ck_assert_int_gt(pruned_to, 0);
}
END_TEST

START_TEST(test_training_same_for_any_thread_count)
{
    cp_real w1[12] = { 0 }, w4[12] = { 0 }, f1, f4;
    cp_real e1 = train(1, 120, w1, &f1);
    cp_real e4 = train(4, 120, w4, &f4);
    ck_assert_mem_eq(&e1, &e4, sizeof e1);
    ck_assert_mem_eq(w1, w4, sizeof w1);
}
END_TEST

static Suite *training_suite(void)
{
    Suite *s = suite_create("rt_training");
    TCase *tc = tcase_create("backprop");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_training_learns_xor);
    tcase_add_test(tc, test_training_same_for_any_thread_count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(training_suite());
}
