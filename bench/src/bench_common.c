/* bench_common.c -- command line, FANN-format reader, deterministic weights,
 * the iRPROP- update, timing and the RESULT line shared by the C benchmark
 * programs.  See bench_common.h for the conventions. */
#include "bench_common.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static void usage(const char *system)
{
    fprintf(stderr,
            "usage: %s --train FILE [--test FILE] [--label NAME] --hidden N\n"
            "       [--epochs N] [--warmup N] [--threads N] [--prune F] [--seed N]\n",
            system);
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

int bench_parse_opts(int argc, char **argv, BenchOpts *o, const char *system)
{
    memset(o, 0, sizeof *o);
    o->system = system;
    o->label = "data";
    o->hidden = 16;
    o->epochs = 20;
    o->warmup = 2;
    o->threads = 1;
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (v == NULL) {
            usage(system);
            return 0;
        }
        i++;
        if (strcmp(a, "--train") == 0) o->train = v;
        else if (strcmp(a, "--test") == 0) o->test = v;
        else if (strcmp(a, "--label") == 0) o->label = v;
        else if (strcmp(a, "--system") == 0) o->system = v;
        else if (strcmp(a, "--hidden") == 0 && parse_long(v, 1, 100000, &n)) o->hidden = (int)n;
        else if (strcmp(a, "--epochs") == 0 && parse_long(v, 1, 1000000, &n)) o->epochs = (int)n;
        else if (strcmp(a, "--warmup") == 0 && parse_long(v, 0, 1000000, &n)) o->warmup = (int)n;
        else if (strcmp(a, "--threads") == 0 && parse_long(v, 1, 1024, &n)) o->threads = (int)n;
        else if (strcmp(a, "--seed") == 0 && parse_long(v, 0, 1L << 40, &n)) o->seed = (uint64_t)n;
        else if (strcmp(a, "--prune") == 0) {
            char *end;
            o->prune = strtod(v, &end);
            if (*end != '\0' || !(o->prune >= 0.0 && o->prune < 1.0)) {
                usage(system);
                return 0;
            }
        } else {
            usage(system);
            return 0;
        }
    }
    if (o->train == NULL) {
        usage(system);
        return 0;
    }
    if (o->warmup >= o->epochs)
        o->warmup = o->epochs - 1;   /* keep at least one measured epoch */
    return 1;
}

int bench_start(int argc, char **argv, const char *system, BenchOpts *o,
                BenchData *train, BenchData *test)
{
    memset(test, 0, sizeof *test);
    if (!bench_parse_opts(argc, argv, o, system) || !bench_read_data(o->train, train))
        return 0;
    if (o->test != NULL && !bench_read_data(o->test, test))
        return 0;
    omp_set_num_threads(o->threads);
    return 1;
}

/* ---- data ----------------------------------------------------------------- */

int bench_read_data(const char *path, BenchData *d)
{
    memset(d, 0, sizeof *d);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        return 0;
    }
    int ok = fscanf(f, "%d %d %d", &d->n, &d->n_in, &d->n_out) == 3 &&
             d->n > 0 && d->n_in > 0 && d->n_out > 0;
    if (ok) {
        d->x = malloc(sizeof(float) * (size_t)d->n * (size_t)d->n_in);
        d->t = malloc(sizeof(float) * (size_t)d->n * (size_t)d->n_out);
        ok = d->x != NULL && d->t != NULL;
    }
    for (int p = 0; ok && p < d->n; p++) {
        for (int i = 0; ok && i < d->n_in; i++)
            ok = fscanf(f, "%f", &d->x[(size_t)p * d->n_in + i]) == 1;
        for (int k = 0; ok && k < d->n_out; k++)
            ok = fscanf(f, "%f", &d->t[(size_t)p * d->n_out + k]) == 1;
    }
    fclose(f);
    if (!ok) {
        fprintf(stderr, "bench: %s is not a valid FANN data file\n", path);
        bench_free_data(d);
    }
    return ok;
}

void bench_free_data(BenchData *d)
{
    free(d->x);
    free(d->t);
    memset(d, 0, sizeof *d);
}

int bench_is_classification(const BenchData *d)
{
    for (int p = 0; p < d->n; p++) {
        int ones = 0;
        for (int k = 0; k < d->n_out; k++) {
            float v = d->t[(size_t)p * d->n_out + k];
            if (v == 1.0f) ones++;
            else if (v != 0.0f) return 0;
        }
        if (ones != 1) return 0;
    }
    return 1;
}

void bench_eval_add(BenchEval *e, const float *y, const float *t, int n_out)
{
    int best_y = 0, best_t = 0;
    for (int k = 0; k < n_out; k++) {
        double diff = (double)t[k] - (double)y[k];
        e->sse += diff * diff;
        if (y[k] > y[best_y]) best_y = k;
        if (t[k] > t[best_t]) best_t = k;
    }
    e->correct += best_y == best_t;
    e->seen++;
}

float *bench_floats(size_t n, float value)
{
    float *p = malloc(sizeof(float) * (n ? n : 1));
    if (p == NULL) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) p[i] = value;
    return p;
}

float *bench_augment(const BenchData *d)
{
    float *xa = bench_floats((size_t)d->n * (d->n_in + 1), 1.0f);
    for (int p = 0; p < d->n; p++)
        memcpy(xa + (size_t)p * (d->n_in + 1), d->x + (size_t)p * d->n_in,
               sizeof(float) * (size_t)d->n_in);
    return xa;
}

/* ---- weights -------------------------------------------------------------- */

/* splitmix64: small, fast and identical in every program that needs it. */
uint64_t bench_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float uniform_half(uint64_t *s)
{
    return (float)((double)(bench_rng_next(s) >> 11) / 9007199254740992.0) - 0.5f;
}

void bench_init_weights(uint64_t seed, int n_in, int hidden, int n_out,
                        float *w1, float *w2)
{
    uint64_t s = seed;
    for (size_t i = 0; i < (size_t)hidden * (size_t)(n_in + 1); i++)
        w1[i] = uniform_half(&s);
    for (size_t i = 0; i < (size_t)n_out * (size_t)(hidden + 1); i++)
        w2[i] = uniform_half(&s);
}

/* ---- RPROP ---------------------------------------------------------------- */

void bench_sum_partials(float *dst, float *const *parts, int nparts, size_t n)
{
    #pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float v = 0.0f;
        for (int t = 0; t < nparts; t++) v += parts[t][i];
        dst[i] = v;
    }
}

/* iRPROP- exactly as torch.optim.Rprop: the step grows on equal signs,
 * shrinks on a sign change (and that gradient is then treated as 0: no move,
 * no sign memory), stays on a zero product; the move is -sign(g) * step. */
void bench_rprop_update(float *w, float *g, float *prev, float *step, size_t n)
{
    #pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float gi = g[i];
        float prod = gi * prev[i];
        if (prod > 0.0f) {
            step[i] = fminf(step[i] * RP_ETA_PLUS, RP_ETA_MAX);
        } else if (prod < 0.0f) {
            step[i] = fmaxf(step[i] * RP_ETA_MINUS, RP_ETA_MIN);
            gi = 0.0f;
        }
        if (gi > 0.0f) w[i] -= step[i];
        else if (gi < 0.0f) w[i] += step[i];
        prev[i] = gi;
        g[i] = 0.0f;
    }
}

void bench_mlp_init(BenchMlp *m, uint64_t seed, int n_in, int hid, int n_out)
{
    m->n_in = n_in;
    m->hid = hid;
    m->n_out = n_out;
    m->n1 = (size_t)hid * (n_in + 1);
    m->n2 = (size_t)n_out * (hid + 1);
    m->w1 = bench_floats(m->n1, 0.0f);       m->w2 = bench_floats(m->n2, 0.0f);
    m->g1 = bench_floats(m->n1, 0.0f);       m->g2 = bench_floats(m->n2, 0.0f);
    m->prev1 = bench_floats(m->n1, 0.0f);    m->prev2 = bench_floats(m->n2, 0.0f);
    m->step1 = bench_floats(m->n1, RP_ETA0); m->step2 = bench_floats(m->n2, RP_ETA0);
    bench_init_weights(seed, n_in, hid, n_out, m->w1, m->w2);
}

void bench_mlp_rprop(BenchMlp *m)
{
    bench_rprop_update(m->w1, m->g1, m->prev1, m->step1, m->n1);
    bench_rprop_update(m->w2, m->g2, m->prev2, m->step2, m->n2);
}

/* ---- timing and the report ------------------------------------------------ */

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

long bench_peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;   /* kilobytes on Linux */
}

void bench_report(const BenchOpts *o, long conns, const BenchData *train,
                  double *times, int epochs, double train_mse,
                  const BenchEval *test, int classification, const char *note)
{
    int skip = o->warmup < epochs ? o->warmup : epochs - 1;
    double sec = bench_median(times + skip, epochs - skip);
    double mcups = (double)conns * (double)train->n / sec / 1e6;
    char acc[32] = "n/a", tmse[32] = "n/a";
    if (test != NULL && test->seen > 0) {
        snprintf(tmse, sizeof tmse, "%.6g", test->sse / (double)test->seen / (double)train->n_out);
        if (classification)
            snprintf(acc, sizeof acc, "%.4f", (double)test->correct / (double)test->seen);
    }
    printf("RESULT system=%s data=%s hidden=%d threads=%d conns=%ld examples=%d "
           "epochs=%d sec_epoch=%.6g mcups=%.2f train_mse=%.6g test_acc=%s "
           "test_mse=%s peak_rss_kb=%ld note=%s\n",
           o->system, o->label, o->hidden, o->threads, conns, train->n, epochs,
           sec, mcups, train_mse, acc, tmse, bench_peak_rss_kb(),
           note != NULL ? note : "");
    fflush(stdout);
}
