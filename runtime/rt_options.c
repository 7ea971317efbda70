/* rt_options.c -- start-up and end of a generated program.
 *
 * rt_init parses the options every generated program understands (see
 * docs/running.md) and the matching environment variables, sets the
 * thread count and seeds the random streams; rt_finish flushes and
 * releases.  Command-line options override the environment.
 */
#include "rt_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { RT_DEFAULT_SEED = 1 };

rt_options rt_opt = { .program = "cupit", .seed = RT_DEFAULT_SEED,
                      .bias_value = 1.0 };

static struct timespec start_time; /* rt_init: the run's start, for rt_seconds */

static const rt_param_doc *param_docs;
static int nparam_docs;
static const rt_global_var *global_docs;
static int nglobal_docs;
static bool global_docs_known; /* rt_set_global_docs called */

void rt_set_param_docs(const rt_param_doc *docs, int n)
{
    param_docs = docs;
    nparam_docs = n;
}

void rt_set_global_docs(const rt_global_var *vars, int n)
{
    global_docs = vars;
    nglobal_docs = n;
    global_docs_known = true;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [options]\n"
            "  --seed N             seed of RANDOM (default %d; env CUPIT_SEED)\n"
            "  --threads N          OpenMP threads (env OMP_NUM_THREADS)\n"
            "  --data FILE          file for the data set named \"Data\"\n"
            "  --data NAME=FILE     file for the data set NAME (env CUPIT_DATA)\n"
            "  --bias[=C]           prepend a constant input column C (default 1.0)\n"
            "  --csv-outputs N      a data file NAME.csv: its last N columns are the\n"
            "                       targets (default 1); a first row of names is skipped\n"
            "  --symmetric          read target values t (0/1 class coding) as 2t-1,\n"
            "                       the range (-1, 1) of the tanh sigmoid\n"
            "  --max-epochs N       stop cleanly after epoch N of protocolError\n"
            "                       (env CUPIT_MAX_EPOCHS)\n"
            "  --protocol FILE      write epoch, error, errors as tab-separated\n"
            "                       lines to FILE (default PROGRAM.protocol.tsv;\n"
            "                       env CUPIT_PROTOCOL, empty: none)\n"
            "  --no-protocol        write no protocol file\n"
            "  --report N           print the epoch line of the first and every Nth\n"
            "                       epoch only, and of the one --max-epochs ends at\n"
            "                       (env CUPIT_REPORT; the protocol file gets every\n"
            "                       epoch)\n"
            "  --summary            end with a summary line on stderr (epochs, final\n"
            "                       error, time; the default when stderr is a terminal)\n"
            "  --param NAME=VALUE   value for intParam/realParam (repeatable)\n"
            "  --set NAME=VALUE     start value of a global Int (Int1, Int2), Real or Bool\n"
            "                       variable, set after its initializer (repeatable)\n"
            "  --deterministic      the same output for every thread count: replicate\n"
            "                       counts as for %d threads, RANDOM in parallel code\n"
            "                       drawn serially (env CUPIT_DETERMINISTIC=1)\n"
            "  --memory-limit N     fail with \"out of memory\" beyond N bytes\n"
            "                       (suffix k, M or G)\n"
            "  --par-work N         run a loop of the program in parallel only with\n"
            "                       N elements of work or more (default 20000; lane\n"
            "                       blocks 80000 per thread; 1: every loop that can;\n"
            "                       env CUPIT_PAR_WORK)\n"
            "  --help               print this text\n",
            rt_opt.program, RT_DEFAULT_SEED, RT_DETERMINISTIC_THREADS);
    if (nparam_docs > 0)
        fprintf(f, "parameters of this program (--param NAME=VALUE):\n");
    for (int i = 0; i < nparam_docs; i++)
        fprintf(f, "  %-20s %s, default %s%s%s\n", param_docs[i].name, param_docs[i].type,
                param_docs[i].dflt, *param_docs[i].range ? ", range " : "",
                param_docs[i].range);
    if (nglobal_docs > 0)
        fprintf(f, "variables of this program (--set NAME=VALUE):\n");
    for (int i = 0; i < nglobal_docs; i++)
        fprintf(f, "  %-20s %s\n", global_docs[i].name, rt_global_kind_name(global_docs[i].kind));
}

/* The edit distance of a[0..na) and b (insertions, deletions,
 * substitutions, transpositions), or a large number for long words. */
static size_t edit_distance(const char *a, size_t na, const char *b)
{
    enum { MAXW = 40 };
    size_t nb = strlen(b);
    if (na > MAXW || nb > MAXW)
        return (size_t)-1;
    size_t d[MAXW + 1][MAXW + 1];
    for (size_t i = 0; i <= na; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= na; i++) {
        for (size_t j = 1; j <= nb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[na][nb];
}

/* Whether `word` (na bytes) is a likely misspelling of `name`: at most one
 * edit for short names, two from 6 characters on. */
static bool near_miss(const char *word, size_t na, const char *name)
{
    size_t dist = edit_distance(word, na, name);
    return dist > 0 && dist <= (strlen(name) >= 6 ? 2u : 1u);
}

/* Reports a usage error; returns the exit status for it. */
__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", rt_opt.program);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(run '%s --help' for the options)\n", rt_opt.program);
    va_end(ap);
    return RT_EXIT_USAGE;
}

bool rt_number_end(const char *end)
{
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
        end++;
    return *end == 0;
}

double rt_strtoreal(const char *s, char **end)
{
    double d = strtod(s, end);
#ifndef CUPIT_REAL_DOUBLE
    /* rounding the nearest double to float again would go to the even
       float from a double in the middle: take its neighbour on the side
       of the float strtof finds (errno stays strtod's) */
    if (*end != s && !isnan(d)) {
        int saved = errno;
        float f = strtof(s, NULL);
        errno = saved;
        if ((float)d != f)
            d = nextafter(d, (double)f);
    }
#endif
    return d;
}

const char *rt_real_str(rt_real_text *buf, cp_real v)
{
    if (isnan(v)) {
        snprintf(buf->s, sizeof buf->s, "nan");
        return buf->s;
    }
    for (int digits = 6; digits < 9; digits++) {
        snprintf(buf->s, sizeof buf->s, "%.*g", digits, (double)v);
        char *end;
        if ((cp_real)rt_strtoreal(buf->s, &end) == v)
            return buf->s;
    }
    snprintf(buf->s, sizeof buf->s, "%.9g", (double)v);
    return buf->s;
}

static bool parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || !rt_number_end(end) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || strchr(s, '-'))
        return false;
    unsigned long long scale = 1;
    if (*end == 'k' || *end == 'K')
        scale = 1ull << 10, end++;
    else if (*end == 'M')
        scale = 1ull << 20, end++;
    else if (*end == 'G')
        scale = 1ull << 30, end++;
    if (!rt_number_end(end) || v == 0 || v > SIZE_MAX / scale) /* 0 bytes: no program could run */
        return false;
    *out = (size_t)(v * scale);
    return true;
}

/* --data ARG: "FILE" is the file for "Data", "NAME=FILE" for NAME. */
/* origin: NULL for the command line, else the environment variable */
static int add_alias(const char *arg, const char *origin)
{
    const char *eq = strchr(arg, '=');
    const char *file = eq ? eq + 1 : arg;
    size_t n = eq ? (size_t)(eq - arg) : 4;
    if (n == 0 || !*file)
        return origin ? bad("%s=%s: expected FILE or NAME=FILE", origin, arg)
                      : bad("--data %s: expected FILE or NAME=FILE", arg);
    for (int i = 0; i < rt_opt.naliases; i++)
        if (strlen(rt_opt.aliases[i].name) == n &&
            strncmp(rt_opt.aliases[i].name, eq ? arg : "Data", n) == 0) {
            rt_opt.aliases[i].file = file; /* later ones win */
            return 0;
        }
    if (rt_opt.naliases == RT_MAX_ALIASES)
        return bad("more than the limit of %d --data options (RT_MAX_ALIASES)", RT_MAX_ALIASES);
    const char *name = "Data";
    if (eq) {
        char *copy = malloc(n + 1); /* lives for the whole run */
        if (!copy)
            return bad("out of memory");
        memcpy(copy, arg, n);
        copy[n] = 0;
        name = copy;
    }
    rt_opt.aliases[rt_opt.naliases++] = (rt_data_alias){ name, file, false };
    return 0;
}

/* --param or --set NAME=VALUE into list (count n, at most max); a later
   value for the same name replaces the earlier one. */
static int add_named_value(const char *opt, const char *arg, rt_param *list, int *n, int max,
                           const char *limit)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return bad("--%s %s: expected NAME=VALUE", opt, arg);
    size_t len = (size_t)(eq - arg);
    for (int i = 0; i < *n; i++)
        if (strncmp(list[i].name, arg, len) == 0 && list[i].name[len] == 0) {
            list[i].value = eq + 1;
            return 0;
        }
    if (*n == max)
        return bad("more than the limit of %d --%s options (%s)", max, opt, limit);
    char *name = malloc(len + 1);
    if (!name)
        return bad("out of memory");
    memcpy(name, arg, len);
    name[len] = 0;
    list[(*n)++] = (rt_param){ name, eq + 1, false };
    return 0;
}

/* Applies one option with its value (NULL when none was given). */
static int apply(const char *opt, const char *val, const char *origin)
{
    int64_t v;
    if (strcmp(opt, "seed") == 0) {
        char *end;
        errno = 0;
        unsigned long long u = strtoull(val, &end, 10);
        if (errno || end == val || !rt_number_end(end) || strchr(val, '-'))
            return bad("%s: seed must be an integer 0...%" PRIu64 ", not '%s'", origin,
                       UINT64_MAX, val);
        rt_opt.seed = (uint64_t)u;
    } else if (strcmp(opt, "threads") == 0) {
        if (!parse_i64(val, 1, 4096, &v))
            return bad("%s: thread count must be an integer 1...4096, not '%s'", origin, val);
        rt_opt.threads = (int)v;
    } else if (strcmp(opt, "data") == 0) {
        return add_alias(val, strncmp(origin, "--", 2) == 0 ? NULL : origin);
    } else if (strcmp(opt, "bias") == 0) {
        rt_opt.bias = true;
        if (val) {
            char *end;
            rt_opt.bias_value = rt_strtoreal(val, &end);
            if (end == val || !rt_number_end(end) || !isfinite(rt_opt.bias_value) ||
                !isfinite((double)(cp_real)rt_opt.bias_value))
                return bad("%s: bias must be a finite number, not '%s'", origin, val);
        }
    } else if (strcmp(opt, "symmetric") == 0) {
        rt_opt.symmetric = true;
    } else if (strcmp(opt, "deterministic") == 0) {
        if (val && strcmp(val, "1") != 0 && strcmp(val, "0") != 0)
            return bad("%s: expected 0 or 1, not '%s'", origin, val);
        rt_opt.deterministic = !val || strcmp(val, "1") == 0;
    } else if (strcmp(opt, "report") == 0) {
        if (!parse_i64(val, 1, INT32_MAX, &v))
            return bad("%s: report interval must be an integer 1...%d, not '%s'", origin,
                       INT32_MAX, val);
        rt_opt.report_every = v;
    } else if (strcmp(opt, "csv-outputs") == 0) {
        if (!parse_i64(val, 1, 100000000, &v)) /* RT_DATA_MAX_VALUES */
            return bad("%s: the number of output columns must be an integer 1...100000000, "
                       "not '%s'", origin, val);
        rt_opt.csv_outputs = v;
    } else if (strcmp(opt, "summary") == 0) {
        rt_opt.summary = true;
    } else if (strcmp(opt, "max-epochs") == 0) {
        if (!parse_i64(val, 1, INT32_MAX, &v))
            return bad("%s: epoch count must be an integer 1...%d, not '%s'", origin,
                       INT32_MAX, val);
        rt_opt.max_epochs = v;
    } else if (strcmp(opt, "protocol") == 0) {
        rt_opt.protocol = val;
    } else if (strcmp(opt, "no-protocol") == 0) {
        rt_opt.protocol = "";
    } else if (strcmp(opt, "param") == 0) {
        return add_named_value("param", val, rt_opt.params, &rt_opt.nparams, RT_MAX_PARAMS,
                               "RT_MAX_PARAMS");
    } else if (strcmp(opt, "set") == 0) {
        return add_named_value("set", val, rt_opt.sets, &rt_opt.nsets, RT_MAX_SETS,
                               "RT_MAX_SETS");
    } else if (strcmp(opt, "memory-limit") == 0) {
        if (!parse_size(val, &rt_opt.memory_limit))
            return bad("%s: expected a positive byte count such as 512M, not '%s'", origin, val);
    } else if (strcmp(opt, "par-work") == 0) {
        if (!parse_i64(val, 1, INT32_MAX, &v))
            return bad("%s: the work of a parallel loop must be an integer 1...%d, not '%s'",
                       origin, INT32_MAX, val);
        rt_opt.par_work = v;
    }
    return 0;
}

/* OMP_NUM_THREADS, which libgomp reads too: a count 1...4096, or a list
 * of such counts for nested levels (OpenMP), of which the first counts
 * here.  libgomp only warns about a bad value and goes on; a program
 * refuses it like its other settings. */
static int omp_num_threads_env(void)
{
    const char *val = getenv("OMP_NUM_THREADS");
    if (!val || !*val)
        return 0;
    int64_t v = 0;
    for (const char *p = val;;) {
        size_t n = strcspn(p, ",");
        char item[32];
        int64_t x;
        if (n == 0 || n >= sizeof item)
            return bad("OMP_NUM_THREADS: thread count must be an integer 1...4096 (or a "
                       "comma-separated list of them), not '%s'", val);
        memcpy(item, p, n);
        item[n] = 0;
        if (!parse_i64(item, 1, 4096, &x))
            return bad("OMP_NUM_THREADS: thread count must be an integer 1...4096 (or a "
                       "comma-separated list of them), not '%s'", val);
        if (p == val)
            v = x;
        if (!p[n])
            break;
        p += n + 1;
    }
    if (!strchr(val, ','))
        rt_opt.threads = (int)v;
    return 0;
}

static int from_environment(void)
{
    if (omp_num_threads_env())
        return RT_EXIT_USAGE;
    static const struct { const char *var, *opt; } env[] = {
        { "CUPIT_SEED", "seed" },           { "CUPIT_DATA", "data" },
        { "CUPIT_MAX_EPOCHS", "max-epochs" }, { "CUPIT_PROTOCOL", "protocol" },
        { "CUPIT_DETERMINISTIC", "deterministic" }, { "CUPIT_REPORT", "report" },
        { "CUPIT_PAR_WORK", "par-work" },
    };
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
        const char *val = getenv(env[i].var);
        if (val && !*val && strcmp(env[i].opt, "protocol") == 0) {
            rt_opt.protocol = ""; /* CUPIT_PROTOCOL= : no protocol file */
            continue;
        }
        if (val && *val) {
            int st = apply(env[i].opt, val, env[i].var);
            if (st)
                return st;
        }
    }
    return 0;
}

int rt_parse_options(int argc, char **argv, bool *done)
{
    static const struct { const char *name; bool takes_value, optional; } known[] = {
        { "seed", true, false },       { "threads", true, false },
        { "data", true, false },       { "bias", false, true },
        { "max-epochs", true, false }, { "protocol", true, false },
        { "report", true, false },     { "summary", false, false },
        { "csv-outputs", true, false },
        { "no-protocol", false, false },
        { "param", true, false },      { "memory-limit", true, false },
        { "set", true, false },
        { "symmetric", false, false }, { "deterministic", false, false },
        { "par-work", true, false },
    };
    *done = true;
    int st = from_environment();
    if (st)
        return st;
    const char *bare = NULL; /* the option before, if its value is optional and not given */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return RT_EXIT_OK;
        }
        if (strncmp(arg, "--", 2) != 0 && bare)
            return bad("unexpected argument '%s' (%s takes its value only after '=': %s=%s)",
                       arg, bare, bare, arg);
        if (strncmp(arg, "--", 2) != 0)
            return bad("unexpected argument '%s'", arg);
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        size_t k = 0, n = sizeof known / sizeof known[0];
        while (k < n && !(strlen(known[k].name) == len &&
                          strncmp(known[k].name, name, len) == 0))
            k++;
        if (k == n) {
            for (size_t m = 0; m < n; m++)
                if (near_miss(name, len, known[m].name))
                    return bad("unknown option '%s' (did you mean '--%s'?)", arg,
                               known[m].name);
            return bad("unknown option '%s'", arg);
        }
        const char *val = eq ? eq + 1 : NULL;
        bare = known[k].optional && !val ? arg : NULL;
        if (known[k].takes_value && !val) {
            if (i + 1 == argc)
                return bad("option '%s' needs a value", arg);
            val = argv[++i];
        } else if (!known[k].takes_value && !known[k].optional && val) {
            return bad("option '--%s' takes no value", known[k].name);
        }
        st = apply(known[k].name, val, arg);
        if (st)
            return st;
    }
    *done = false;
    return 0;
}

const char *rt_data_file(const char *name)
{
    for (int i = 0; i < rt_opt.naliases; i++)
        if (strcmp(rt_opt.aliases[i].name, name) == 0) {
            __atomic_store_n(&rt_opt.aliases[i].used, true, __ATOMIC_RELAXED);
            return rt_opt.aliases[i].file;
        }
    return name;
}

const char *rt_lib_str(const char *s)
{
    return s ? s : "";
}

const char *rt_param_value(const char *name)
{
    for (int i = 0; i < rt_opt.nparams; i++)
        if (strcmp(rt_opt.params[i].name, name) == 0) {
            /* intParam and realParam may run in parallel code: the
               threads of a group call all store here */
            __atomic_store_n(&rt_opt.params[i].used, true, __ATOMIC_RELAXED);
            return rt_opt.params[i].value;
        }
    return NULL;
}

/* ---- input files are never overwritten ------------------------------------ */

enum { RT_MAX_INPUTS = 64 }; /* files remembered; later ones are not checked */
static struct {
    dev_t dev;
    ino_t ino;
    char path[256], what[64];
    bool data;
} inputs[RT_MAX_INPUTS];
static int ninputs;

/* The table is written when a data set is opened and read when an output
 * file is opened; both may happen in parallel code (openDatafile and
 * protocolError in node procedures, under different locks of their own),
 * so its own lock guards it. */
static void note_input(const struct stat *st, const char *path, const char *what, bool data)
{
    if (ninputs == RT_MAX_INPUTS)
        return;
    for (int i = 0; i < ninputs; i++)
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
            return;
    inputs[ninputs].dev = st->st_dev;
    inputs[ninputs].ino = st->st_ino;
    snprintf(inputs[ninputs].path, sizeof inputs[ninputs].path, "%s", path);
    snprintf(inputs[ninputs].what, sizeof inputs[ninputs].what, "%s", what);
    inputs[ninputs].data = data;
    ninputs++;
}

void rt_note_input(const char *path, const char *what, bool data)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
#pragma omp critical(rt_inputs)
    note_input(&st, path, what, data);
}

_Noreturn static void refuse_output(const char *path, const char *what, const char *input,
                                    const char *input_what)
{
    rt_claim_exit();
    fflush(stdout);
    fprintf(stderr, "%s: the %s '%s' is the input file '%s' (%s); refusing to "
            "overwrite it\n", rt_opt.program, what, path, input, input_what);
    /* protocolError may run in parallel code: as in rt_error */
    if (omp_in_parallel())
        _exit(RT_EXIT_USAGE);
    exit(RT_EXIT_USAGE);
}

void rt_check_output(const char *path, const char *what, bool aliases, bool data_only)
{
    struct stat out, st;
    if (stat(path, &out) != 0)
        return; /* not there yet: no input either */
    int hit = -1;
#pragma omp critical(rt_inputs)
    for (int i = 0; i < ninputs && hit < 0; i++)
        if ((inputs[i].data || !data_only) && inputs[i].dev == out.st_dev &&
            inputs[i].ino == out.st_ino)
            hit = i;
    if (hit >= 0) /* entries are never changed once written */
        refuse_output(path, what, inputs[hit].path, inputs[hit].what);
    if (rt_protocol_is(&out)) { /* written into since the first protocolError */
        rt_claim_exit();
        fflush(stdout);
        fprintf(stderr, "%s: the %s '%s' is the protocol file; refusing to overwrite it\n",
                rt_opt.program, what, path);
        if (omp_in_parallel())
            _exit(RT_EXIT_USAGE);
        exit(RT_EXIT_USAGE);
    }
    for (int i = 0; aliases && i < rt_opt.naliases; i++)
        if (stat(rt_opt.aliases[i].file, &st) == 0 && st.st_dev == out.st_dev &&
            st.st_ino == out.st_ino) {
            char desc[64];
            snprintf(desc, sizeof desc, "--data %s", rt_opt.aliases[i].name);
            refuse_output(path, what, rt_opt.aliases[i].file, desc);
        }
}

/* Flushes stdout; false, after a message, if some output was lost.  The
 * reason is known only when this flush fails (an earlier failed write of
 * a line-buffered stdout leaves only the error flag). */
static bool stdout_written(void)
{
    errno = 0;
    int failed = fflush(stdout) != 0, err = errno;
    if (!failed && !ferror(stdout))
        return true;
    if (failed && err)
        fprintf(stderr, "%s: error writing standard output: %s\n", rt_opt.program,
                strerror(err));
    else
        fprintf(stderr, "%s: error writing standard output\n", rt_opt.program);
    return false;
}

const char *rt_protocol_file(char *buf, size_t size)
{
    if (rt_opt.protocol)
        return *rt_opt.protocol ? rt_opt.protocol : NULL;
    const char *base = strrchr(rt_opt.program, '/');
    snprintf(buf, size, "%s.protocol.tsv", base ? base + 1 : rt_opt.program);
    return buf;
}

void rt_init(int argc, char **argv, const char *program_name)
{
    if (program_name)
        rt_opt.program = program_name;
    bool done;
    int st = rt_parse_options(argc, argv, &done);
    if (done) {
        /* --help into a full disk or a closed pipe is no success */
        if (!stdout_written() && st == RT_EXIT_OK)
            st = 1;
        exit(st);
    }
    /* a --set that names no variable or holds no value of its type, at
       once: not only after the global initializers, one of which may stop
       the program with a run-time error first */
    if (global_docs_known)
        rt_check_sets(global_docs, nglobal_docs);
    /* the protocol file against the --data files at once, before the
       program writes anything; against the files read when it is opened */
    char def[512];
    const char *protocol = rt_protocol_file(def, sizeof def);
    if (protocol)
        rt_check_output(protocol, "protocol file", true, false);
    clock_gettime(CLOCK_MONOTONIC, &start_time);
    /* progress lines arrive when printed, also through a pipe */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (rt_opt.threads > 0)
        omp_set_num_threads(rt_opt.threads);
    /* every parallel loop on the whole team, also under OMP_DYNAMIC=true:
       libgomp would size each team by the load average, and RANDOM in
       parallel code would then draw per thread of a team the load chose,
       not reproducible for the seed and thread count (running.md) */
    omp_set_dynamic(0);
    rt_set_memory_limit(rt_opt.memory_limit);
    rt_random_setup(rt_opt.seed);
}

double rt_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start_time.tv_sec) +
           (double)(now.tv_nsec - start_time.tv_nsec) * 1e-9;
}

bool rt_deterministic(void)
{
    return rt_opt.deterministic;
}

/* set before rt_init, so kept apart from rt_opt */
static bool random_in_parallel;

void rt_set_random_in_parallel(void)
{
    random_in_parallel = true;
}

bool rt_random_serial(void)
{
    return random_in_parallel && rt_opt.deterministic;
}

int64_t rt_par_work(void)
{
    return rt_opt.par_work;
}

int rt_threads(void)
{
    int n = omp_get_max_threads();
    return n < 1 ? 1 : n;
}

/* What rt_finish reports: the summary, unused options, whether standard
 * output was written; its exit status.  Also called in parallel code (by
 * protocolError at --max-epochs), while other threads may still mark
 * options used: the marks are read atomically. */
static int finish_reports(void)
{
    rt_protocol_finish();
    for (int i = 0; i < rt_opt.nparams; i++)
        if (!__atomic_load_n(&rt_opt.params[i].used, __ATOMIC_RELAXED)) {
            const char *name = rt_opt.params[i].name, *near = NULL;
            for (int k = 0; k < nparam_docs && !near; k++)
                if (near_miss(name, strlen(name), param_docs[k].name))
                    near = param_docs[k].name;
            if (near)
                fprintf(stderr, "%s: warning: --param %s was not used by the program (did "
                        "you mean '%s'?)\n", rt_opt.program, name, near);
            else
                fprintf(stderr, "%s: warning: --param %s was not used by the program\n",
                        rt_opt.program, name);
        }
    for (int i = 0; i < rt_opt.naliases; i++)
        if (!__atomic_load_n(&rt_opt.aliases[i].used, __ATOMIC_RELAXED))
            fprintf(stderr, "%s: warning: --data %s=%s was not used: the program opened no "
                    "data set named \"%s\"\n", rt_opt.program, rt_opt.aliases[i].name,
                    rt_opt.aliases[i].file, rt_opt.aliases[i].name);
    return stdout_written() ? RT_EXIT_OK : 1;
}

int rt_finish(void)
{
    int st = finish_reports();
    rt_stdlib_release();
    rt_random_release();
    return st;
}

_Noreturn void rt_finish_exit(void)
{
    /* a run-time error of another thread at the same moment: one of the
       two ends the program, not both with two statuses */
    rt_claim_exit();
    /* exit() from inside a team would release what other threads still
       use (as in rt_error) */
    if (omp_in_parallel())
        _exit(finish_reports());
    exit(rt_finish());
}
