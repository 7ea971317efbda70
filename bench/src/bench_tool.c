/* bench_tool.c -- small helpers for bench/run.sh:
 *   bench_tool weights SEED N_IN HIDDEN N_OUT FILE
 *       writes the harness's initial weights (bench_init_weights) as raw
 *       little-endian float32, layer 1 then layer 2, for torch_run.py;
 *   bench_tool synth EXAMPLES N_IN N_OUT SEED FILE
 *       writes a synthetic FANN-format classification set: inputs uniform in
 *       [0, 1), one-hot target = argmax of a fixed random linear teacher. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"

static int write_weights(char **a)
{
    uint64_t seed = strtoull(a[0], NULL, 10);
    int n_in = atoi(a[1]), hid = atoi(a[2]), n_out = atoi(a[3]);
    if (n_in <= 0 || hid <= 0 || n_out <= 0) return 2;
    size_t n1 = (size_t)hid * (n_in + 1), n2 = (size_t)n_out * (hid + 1);
    float *w1 = malloc(sizeof(float) * n1), *w2 = malloc(sizeof(float) * n2);
    FILE *f = fopen(a[4], "wb");
    if (w1 == NULL || w2 == NULL || f == NULL) return 1;
    bench_init_weights(seed, n_in, hid, n_out, w1, w2);
    int ok = fwrite(w1, sizeof(float), n1, f) == n1 && fwrite(w2, sizeof(float), n2, f) == n2;
    return fclose(f) == 0 && ok ? 0 : 1;
}

static double unit(uint64_t *s) { return (double)(bench_rng_next(s) >> 11) / 9007199254740992.0; }

static int write_synth(char **a)
{
    int n = atoi(a[0]), n_in = atoi(a[1]), n_out = atoi(a[2]);
    uint64_t s = strtoull(a[3], NULL, 10);
    if (n <= 0 || n_in <= 0 || n_out <= 0) return 2;
    double *teacher = malloc(sizeof(double) * (size_t)n_in * n_out);
    double *x = malloc(sizeof(double) * (size_t)n_in);
    FILE *f = fopen(a[4], "w");
    if (teacher == NULL || x == NULL || f == NULL) return 1;
    for (size_t i = 0; i < (size_t)n_in * n_out; i++) teacher[i] = unit(&s) - 0.5;
    fprintf(f, "%d %d %d\n", n, n_in, n_out);
    for (int p = 0; p < n; p++) {
        int best = 0;
        double best_v = -1e300;
        for (int i = 0; i < n_in; i++) {
            x[i] = unit(&s);
            fprintf(f, "%.4f ", x[i]);
        }
        fputc('\n', f);
        for (int k = 0; k < n_out; k++) {
            double v = 0.0;
            for (int i = 0; i < n_in; i++) v += teacher[(size_t)k * n_in + i] * (x[i] - 0.5);
            if (v > best_v) { best_v = v; best = k; }
        }
        for (int k = 0; k < n_out; k++) fprintf(f, "%d ", k == best);
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 7 && argv[1][0] == 'w') return write_weights(argv + 2);
    if (argc == 7 && argv[1][0] == 's') return write_synth(argv + 2);
    fprintf(stderr, "usage: bench_tool weights SEED N_IN HIDDEN N_OUT FILE\n"
                    "       bench_tool synth EXAMPLES N_IN N_OUT SEED FILE\n");
    return 2;
}
