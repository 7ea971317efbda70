/* bounds.c -- lower bounds on the epoch time that the programs' own
 * semantics set, measured on this machine.
 *
 * Usage: bounds N_IN H N_OUT EXAMPLES [ROUNDS]
 *
 * A three-layer net N_IN-H-N_OUT with a bias unit feeding the hidden and
 * output layers (the bench trainers' shape) trained on EXAMPLES examples
 * per epoch.  Two kernels, each timed as the best of ROUNDS (default 5):
 *
 *  accumulate  A trainer that keeps a gradient per replicate
 *              (`ME.grad += err * ME.input` in every replicate, summed by
 *              MERGE) reads and writes each connection's 16-lane gradient
 *              once per lane block of 16 examples: per destination node,
 *              per incoming connection, g[k][0..15] += err[dst][0..15] *
 *              x[src(k)][0..15], over ceil(EXAMPLES / 16) blocks.  This is
 *              the loop of the generated code without anything else of
 *              the backward pass.  Summing over a batch's examples in
 *              registers instead (as a matrix product does) adds the
 *              examples' products in another order, which gives other
 *              float results than the program's own order.
 *  per-example With one replicate per example (`REPLICATE net INTO
 *              nrOfExamples`, the report's trainer), the example pass
 *              stores one gradient per connection and example, and MERGE
 *              reads each of them: EXAMPLES x connections floats, written
 *              once and read once in vector loops.  Buffers above 512 MB
 *              are timed at 512 MB and scaled.
 *
 * Prints one line: connections, blocks, the times per epoch.  The
 * harness (bench/bounds/run.sh) puts them beside the trainers' epoch
 * times. */
#define _POSIX_C_SOURCE 200112L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LANES 16

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *alloc(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) {
        fprintf(stderr, "bounds: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

static int arg(const char *s, int lo)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > 100000000) {
        fprintf(stderr, "bounds: bad number '%s'\n", s);
        exit(2);
    }
    return (int)v;
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 6) {
        fprintf(stderr, "usage: bounds N_IN H N_OUT EXAMPLES [ROUNDS]\n");
        return 2;
    }
    int nin = arg(argv[1], 1), h = arg(argv[2], 1), nout = arg(argv[3], 1);
    int examples = arg(argv[4], 1), rounds = argc > 5 ? arg(argv[5], 1) : 5;
    /* units: inputs 0..nin-1, bias nin, hidden nin+1.., outputs after */
    int units = nin + 1 + h + nout;
    int64_t nc = (int64_t)(nin + 1) * h + (int64_t)(h + 1) * nout;
    int blocks = (examples + LANES - 1) / LANES;

    float *g = alloc((size_t)nc * LANES * sizeof(float));
    float *x = alloc((size_t)units * LANES * sizeof(float));
    float *err = alloc((size_t)units * LANES * sizeof(float));
    int32_t *src = alloc((size_t)nc * sizeof(int32_t));
    int32_t *start = alloc((size_t)(units + 1) * sizeof(int32_t));
    int64_t k = 0;
    for (int u = 0; u < units; u++) {
        start[u] = (int32_t)k;
        if (u > nin && u <= nin + h) {              /* hidden: inputs and bias */
            for (int s = 0; s <= nin; s++) src[k++] = s;
        } else if (u > nin + h) {                   /* output: bias and hidden */
            src[k++] = nin;
            for (int s = nin + 1; s <= nin + h; s++) src[k++] = s;
        }
    }
    start[units] = (int32_t)k;
    for (size_t i = 0; i < (size_t)units * LANES; i++) {
        x[i] = 1e-3f * (float)(i % 977);
        err[i] = 1e-4f * (float)(i % 613);
    }
    memset(g, 0, (size_t)nc * LANES * sizeof(float));

    double acc_best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t = now();
        for (int b = 0; b < blocks; b++)
            for (int u = nin + 1; u < units; u++) {
                const float *e = err + (size_t)u * LANES;
                for (int32_t c = start[u]; c < start[u + 1]; c++) {
                    float *gc = g + (size_t)c * LANES;
                    const float *xs = x + (size_t)src[c] * LANES;
                    for (int l = 0; l < LANES; l++) gc[l] += e[l] * xs[l];
                }
            }
        t = now() - t;
        if (t < acc_best) acc_best = t;
    }

    /* per-example gradients: examples x connections floats */
    double want = (double)examples * (double)nc * sizeof(float);
    size_t cap = (size_t)512 << 20;
    size_t bytes = want < (double)cap ? (size_t)want : cap;
    bytes = bytes / (LANES * sizeof(float)) * (LANES * sizeof(float));
    if (bytes == 0) bytes = LANES * sizeof(float);
    float *m = alloc(bytes);
    for (size_t i = 0; i < bytes / sizeof(float); i++) m[i] = (float)(i & 7);
    double read_best = 1e30, write_best = 1e30;
    float sum = 0.0f;
    for (int r = 0; r < rounds; r++) {
        float acc[LANES] = {0};
        float v = (float)(r + 1);
        double t = now();
        for (size_t i = 0; i < bytes / sizeof(float); i += LANES)
            for (int l = 0; l < LANES; l++) m[i + l] = v * (float)l;
        t = now() - t;
        if (t < write_best) write_best = t;
        t = now();
        for (size_t i = 0; i < bytes / sizeof(float); i += LANES)
            for (int l = 0; l < LANES; l++) acc[l] += m[i + l];
        t = now() - t;
        for (int l = 0; l < LANES; l++) sum += acc[l];
        if (t < read_best) read_best = t;
    }
    read_best *= want / (double)bytes;
    write_best *= want / (double)bytes;

    float check = 0.0f;
    for (int64_t i = 0; i < nc * LANES; i += 4097) check += g[i];
    printf("connections %lld blocks %d accumulate_ms %.3f ns_per_conn_block %.3f "
           "example_write_ms %.3f merge_read_ms %.3f gradients_mb %.0f (check %g %g)\n",
           (long long)nc, blocks, acc_best * 1e3, acc_best * 1e9 / ((double)nc * blocks),
           write_best * 1e3, read_best * 1e3, want / 1e6, (double)check, (double)sum);
    return 0;
}
