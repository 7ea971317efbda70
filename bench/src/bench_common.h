/* bench_common.h -- what every C benchmark program shares: the command line,
 * FANN-format data, the deterministic initial weights, iRPROP- constants,
 * per-epoch timing and the one RESULT line the harness (bench/run.sh) reads.
 *
 * Weight layout used everywhere (also by torch_run.py through bench_tool):
 * layer 1 is H rows of (n_in + 1) floats, layer 2 is n_out rows of (H + 1)
 * floats; the last float of each row is the bias. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* RPROP constants of examples/backprop.nn (initialEta, etaPlus, ...). */
#define RP_ETA0     0.05f
#define RP_ETA_PLUS 1.1f
#define RP_ETA_MINUS 0.5f
#define RP_ETA_MIN  1.0e-6f
#define RP_ETA_MAX  50.0f

typedef struct BenchData {
    int n, n_in, n_out;   /* examples, inputs, outputs */
    float *x;             /* n * n_in, example-major */
    float *t;             /* n * n_out */
} BenchData;

typedef struct BenchOpts {
    const char *system;   /* name printed in the RESULT line */
    const char *train, *test;
    const char *label;    /* data set name for the RESULT line */
    int hidden, epochs, warmup, threads;
    double prune;         /* fraction of connections deleted (sparse only) */
    uint64_t seed;
} BenchOpts;

/* Parses --train --test --label --hidden --epochs --warmup --threads
 * --prune --seed; prints usage and returns 0 on a bad command line. */
int bench_parse_opts(int argc, char **argv, BenchOpts *o, const char *system);

/* bench_parse_opts, then reads --train and --test and sets the OpenMP thread
 * count; returns 0 (after a message) on failure. */
int bench_start(int argc, char **argv, const char *system, BenchOpts *o,
                BenchData *train, BenchData *test);

/* Reads a FANN-format file; returns 0 (after a message) on failure. */
int bench_read_data(const char *path, BenchData *d);
void bench_free_data(BenchData *d);

/* Deterministic uniform [-0.5, 0.5) weights in the layout above. */
void bench_init_weights(uint64_t seed, int n_in, int hidden, int n_out,
                        float *w1, float *w2);
uint64_t bench_rng_next(uint64_t *s);

double bench_now(void);                     /* monotonic seconds */
double bench_median(double *v, int n);      /* sorts v */
long bench_peak_rss_kb(void);

/* malloc that stops the program on failure; every element set to value. */
float *bench_floats(size_t n, float value);
/* Example-major copy of d's inputs with a trailing constant-1 column. */
float *bench_augment(const BenchData *d);

/* Classification = every target row is one-hot 0/1. */
int bench_is_classification(const BenchData *d);

/* Accumulates test statistics for one example's outputs y. */
typedef struct BenchEval { double sse; long correct, seen; } BenchEval;
void bench_eval_add(BenchEval *e, const float *y, const float *t, int n_out);

/* A dense n_in-H-n_out perceptron with its RPROP state, in the layout above. */
typedef struct BenchMlp {
    int n_in, hid, n_out;
    size_t n1, n2;                /* weights per layer, biases included */
    float *w1, *w2;               /* weights */
    float *g1, *g2;               /* summed gradient dE/dw of the epoch */
    float *prev1, *prev2;         /* last epoch's gradient (0 after a sign change) */
    float *step1, *step2;         /* RPROP step sizes, start at RP_ETA0 */
} BenchMlp;
void bench_mlp_init(BenchMlp *m, uint64_t seed, int n_in, int hid, int n_out);
void bench_mlp_rprop(BenchMlp *m);   /* one iRPROP- step on both layers */

/* dst[i] = parts[0][i] + ... + parts[nparts-1][i], in this order, so a run
 * is deterministic for a fixed thread count. */
void bench_sum_partials(float *dst, float *const *parts, int nparts, size_t n);

/* One iRPROP- step (same rule as torch.optim.Rprop) on n weights; g is
 * dE/dw and is cleared. */
void bench_rprop_update(float *w, float *g, float *prev, float *step, size_t n);

/* Prints the RESULT line.  times: per-epoch seconds (all epochs). */
void bench_report(const BenchOpts *o, long conns, const BenchData *train,
                  double *times, int epochs, double train_mse,
                  const BenchEval *test, int classification, const char *note);

#endif
