/* peer_fann.c -- the FANN 2.2 peer: full-batch RPROP training with
 * fann_train_epoch (FANN_TRAIN_RPROP, FANN's iRPROP- variant) of a float
 * n_in-H-n_out network with logistic sigmoid units (FANN_SIGMOID, steepness
 * 0.5), the linear error function, and the RPROP constants of backprop.nn.
 * The initial weights are the harness's (bench_init_weights), mapped onto
 * FANN's connection list; --prune F builds fann_create_sparse (1 - F). */
#include <floatfann.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"

/* FANN numbers neurons layer by layer, each layer followed by its bias.
 * fann_get_connection_array lists the connections in the order of
 * ann->weights, so the weights are written there directly: the public
 * fann_set_weight_array searches all connections per weight (quadratic). */
static int map_weights(struct fann *ann, int n_in, int hid, int n_out,
                       const float *w1, const float *w2)
{
    unsigned int nc = fann_get_total_connections(ann);
    struct fann_connection *c = malloc(sizeof *c * nc);
    unsigned int hid0 = (unsigned)n_in + 1, out0 = hid0 + (unsigned)hid + 1;
    int ok = c != NULL;
    if (ok) fann_get_connection_array(ann, c);
    for (unsigned int i = 0; ok && i < nc; i++) {
        unsigned int from = c[i].from_neuron, to = c[i].to_neuron;
        if (to >= hid0 && to < hid0 + (unsigned)hid && from <= (unsigned)n_in)
            c[i].weight = w1[(size_t)(to - hid0) * (n_in + 1) + from];
        else if (to >= out0 && to < out0 + (unsigned)n_out && from >= hid0 && from <= hid0 + (unsigned)hid)
            c[i].weight = w2[(size_t)(to - out0) * (hid + 1) + (from - hid0)];
        else
            ok = 0;
    }
    for (unsigned int i = 0; ok && i < nc; i++)
        ann->weights[i] = c[i].weight;
    free(c);
    return ok;
}

/* Self-check of the mapping: FANN's output for one example must equal a
 * plain forward pass with the harness's weights (dense nets only). */
static int mapping_matches(struct fann *ann, const BenchData *d, int hid,
                           const float *w1, const float *w2)
{
    float *h = malloc(sizeof(float) * (size_t)hid);
    fann_type *y = fann_run(ann, d->x);
    int ok = h != NULL;
    for (int j = 0; ok && j < hid; j++) {
        float s = w1[(size_t)j * (d->n_in + 1) + d->n_in];
        for (int i = 0; i < d->n_in; i++) s += w1[(size_t)j * (d->n_in + 1) + i] * d->x[i];
        h[j] = 1.0f / (1.0f + expf(-s));
    }
    for (int k = 0; ok && k < d->n_out; k++) {
        float s = w2[(size_t)k * (hid + 1) + hid];
        for (int j = 0; j < hid; j++) s += w2[(size_t)k * (hid + 1) + j] * h[j];
        ok = fabsf(1.0f / (1.0f + expf(-s)) - y[k]) < 1e-4f;
    }
    free(h);
    return ok;
}

int main(int argc, char **argv)
{
    BenchOpts o;
    BenchData tr, te;
    if (!bench_start(argc, argv, "fann", &o, &tr, &te))
        return 2;
    if (o.threads != 1) {
        printf("SKIP FANN 2.2 is single-threaded\n");
        return 3;
    }
    struct fann_train_data *data = fann_read_train_from_file(o.train);
    if (data == NULL)
        return 2;

    struct fann *ann = o.prune > 0.0
        ? fann_create_sparse((float)(1.0 - o.prune), 3, tr.n_in, o.hidden, tr.n_out)
        : fann_create_standard(3, tr.n_in, o.hidden, tr.n_out);
    fann_set_activation_function_hidden(ann, FANN_SIGMOID);
    fann_set_activation_function_output(ann, FANN_SIGMOID);
    fann_set_activation_steepness_hidden(ann, 0.5f);   /* 1/(1+exp(-x)) */
    fann_set_activation_steepness_output(ann, 0.5f);
    fann_set_training_algorithm(ann, FANN_TRAIN_RPROP);
    fann_set_train_error_function(ann, FANN_ERRORFUNC_LINEAR);
    fann_set_rprop_increase_factor(ann, RP_ETA_PLUS);
    fann_set_rprop_decrease_factor(ann, RP_ETA_MINUS);
    fann_set_rprop_delta_min(ann, RP_ETA_MIN);
    fann_set_rprop_delta_max(ann, RP_ETA_MAX);
    fann_set_rprop_delta_zero(ann, RP_ETA0);

    size_t n1 = (size_t)o.hidden * (tr.n_in + 1), n2 = (size_t)tr.n_out * (o.hidden + 1);
    float *w1 = malloc(sizeof(float) * n1), *w2 = malloc(sizeof(float) * n2);
    bench_init_weights(o.seed, tr.n_in, o.hidden, tr.n_out, w1, w2);
    if (!map_weights(ann, tr.n_in, o.hidden, tr.n_out, w1, w2) ||
        (o.prune == 0.0 && !mapping_matches(ann, &tr, o.hidden, w1, w2))) {
        fprintf(stderr, "peer_fann: FANN's connection layout is not the expected one\n");
        return 1;
    }

    double *times = malloc(sizeof(double) * (size_t)o.epochs), mse = 0.0;
    for (int e = 0; e < o.epochs; e++) {
        double t0 = bench_now();
        mse = fann_train_epoch(ann, data);
        times[e] = bench_now() - t0;
    }

    BenchEval ev = {0};
    for (int p = 0; p < te.n; p++)
        bench_eval_add(&ev, fann_run(ann, te.x + (size_t)p * te.n_in),
                       te.t + (size_t)p * te.n_out, te.n_out);
    bench_report(&o, (long)fann_get_total_connections(ann), &tr, times, o.epochs,
                 mse, &ev, te.n > 0 && bench_is_classification(&te), "");
    fann_destroy(ann);
    fann_destroy_train(data);
    return 0;
}
