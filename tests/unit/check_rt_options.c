/* check_rt_options.c -- Check suite for the options of generated programs
 * (rt_init): values on the command line and in the environment, their
 * precedence, --help, and the usage errors (exit status 2).
 */
#include "check_rt_support.h"

#include <errno.h>
#include <math.h>
#include <omp.h>

/* Runs rt_init on a NULL-terminated argument list in this process. */
#define INIT(...)                                                            \
    do {                                                                     \
        char *argv_[] = { "prog", __VA_ARGS__, NULL };                       \
        rt_init((int)(sizeof argv_ / sizeof argv_[0]) - 1, argv_, "prog");   \
    } while (0)

START_TEST(test_options_defaults)
{
    char *argv[] = { "prog", NULL };
    unsetenv("CUPIT_SEED");
    unsetenv("CUPIT_PROTOCOL");
    rt_init(1, argv, "trainer");
    ck_assert_str_eq(rt_opt.program, "trainer");
    ck_assert_uint_eq(rt_opt.seed, 1);
    ck_assert(!rt_opt.bias);
    ck_assert_int_eq(rt_opt.max_epochs, 0);
    ck_assert_ptr_null(rt_opt.protocol); /* the default file PROGRAM.protocol.tsv */
    ck_assert_str_eq(rt_data_file("Data"), "Data");
    ck_assert_int_ge(rt_threads(), 1);
    ck_assert_int_eq(rt_par_work(), 0); /* the program's own thresholds */
    ck_assert_int_eq(rt_finish(), 0);
}
END_TEST

START_TEST(test_options_values)
{
    INIT("--seed", "77", "--threads=3", "--data", "train.dat", "--data",
         "Test=test.dat", "--bias=0.5", "--max-epochs", "12", "--protocol",
         "p.tsv", "--param", "hidden=8", "--memory-limit", "2M", "--par-work=7");
    ck_assert_uint_eq(rt_opt.seed, 77);
    ck_assert_int_eq(rt_threads(), 3);
    ck_assert_int_eq(omp_get_max_threads(), 3);
    ck_assert_str_eq(rt_data_file("Data"), "train.dat");
    ck_assert_str_eq(rt_data_file("Test"), "test.dat");
    ck_assert_str_eq(rt_data_file("other.data"), "other.data");
    ck_assert(rt_opt.bias);
    ck_assert_double_eq(rt_opt.bias_value, 0.5);
    ck_assert_int_eq(rt_opt.max_epochs, 12);
    ck_assert_str_eq(rt_opt.protocol, "p.tsv");
    ck_assert_str_eq(rt_param_value("hidden"), "8");
    ck_assert_ptr_null(rt_param_value("nothing"));
    ck_assert_uint_eq(rt_opt.memory_limit, 2u << 20);
    ck_assert_int_eq(rt_par_work(), 7);
    /* blanks around a number, as a shell substitution may leave them */
    INIT("--seed", " 8 ", "--max-epochs=3\n", "--memory-limit", "1M ");
    ck_assert_uint_eq(rt_opt.seed, 8);
    ck_assert_int_eq(rt_opt.max_epochs, 3);
    ck_assert_uint_eq(rt_opt.memory_limit, 1u << 20);
}
END_TEST

START_TEST(test_options_bias_default_constant)
{
    INIT("--bias");
    ck_assert(rt_opt.bias);
    ck_assert_double_eq(rt_opt.bias_value, 1.0);
}
END_TEST

START_TEST(test_options_environment_and_precedence)
{
    setenv("CUPIT_SEED", "5", 1);
    setenv("CUPIT_DATA", "env.data", 1);
    setenv("CUPIT_MAX_EPOCHS", "3", 1);
    setenv("CUPIT_PROTOCOL", "env.tsv", 1);
    setenv("CUPIT_PAR_WORK", "1", 1);
    INIT("--seed", "6");
    unsetenv("CUPIT_PAR_WORK");
    ck_assert_int_eq(rt_par_work(), 1);
    ck_assert_uint_eq(rt_opt.seed, 6); /* the command line wins */
    ck_assert_str_eq(rt_data_file("Data"), "env.data");
    ck_assert_int_eq(rt_opt.max_epochs, 3);
    ck_assert_str_eq(rt_opt.protocol, "env.tsv");
}
END_TEST

START_TEST(test_options_seed_full_range)
{
    INIT("--seed", "18446744073709551615");
    ck_assert_uint_eq(rt_opt.seed, UINT64_MAX);
    INIT("--seed", "9223372036854775808");
    ck_assert_uint_eq(rt_opt.seed, 9223372036854775808u);
}
END_TEST

START_TEST(test_options_seed_reproducible)
{
    INIT("--seed", "123");
    cp_int a = rt_random_int(HERE, 0, 1 << 30);
    rt_seed(123);
    ck_assert_int_eq(rt_random_int(HERE, 0, 1 << 30), a);
}
END_TEST

static void run_help(void *a) { (void)a; INIT("--help"); }

static void run_help_full(void *a)
{
    (void)a;
    ck_assert_ptr_nonnull(freopen("/dev/full", "w", stdout));
    INIT("--help");
}

START_TEST(test_options_help)
{
    child_result r;
    run_child(run_help, NULL, &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: prog [options]"));
    ck_assert_ptr_nonnull(strstr(r.out, "--max-epochs N"));
    /* the text lost: status 1 and a message, as at the end of a run */
    run_child(run_help_full, NULL, &r);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "prog: error writing standard output: No space left on device\n");
}
END_TEST

static void run_help_globals(void *a)
{
    (void)a;
    static cp_int hidden;
    static cp_real rate;
    static const rt_global_var vars[] = {{"hidden", RT_GLOBAL_INT, &hidden},
                                         {"rate", RT_GLOBAL_REAL, &rate}};
    rt_set_global_docs(vars, 2);
    INIT("--help");
}

START_TEST(test_options_help_lists_set_variables)
{
    child_result r;
    run_child(run_help_globals, NULL, &r);
    ck_assert_int_eq(r.status, 0);
    const char *v = strstr(r.out, "variables of this program (--set NAME=VALUE):\n");
    ck_assert_ptr_nonnull(v);
    ck_assert_ptr_nonnull(strstr(v, "\n  hidden               Int\n  rate                 Real\n"));
    run_child(run_help, NULL, &r); /* none registered: no such section */
    ck_assert_ptr_null(strstr(r.out, "variables of this program"));
}
END_TEST

static void run_args(void *a)
{
    char **argv = a;
    int argc = 0;
    while (argv[argc])
        argc++;
    rt_init(argc, argv, "prog");
    printf("started");
}

/* The arguments must be rejected with exit status 2 and `needle`. */
static void expect_usage_error(char **argv, const char *needle)
{
    child_result r;
    run_child(run_args, argv, &r);
    ck_assert_msg(r.status == 2, "status %d for %s", r.status, argv[1]);
    ck_assert_msg(strstr(r.err, needle) != NULL, "expected '%s' in: %s", needle, r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "--help"));
    ck_assert_str_eq(r.out, "");
}

START_TEST(test_options_errors)
{
    char *a1[] = { "prog", "--frobnicate", NULL };
    expect_usage_error(a1, "prog: unknown option '--frobnicate'");
    char *a2[] = { "prog", "--seed", NULL };
    expect_usage_error(a2, "option '--seed' needs a value");
    char *a3[] = { "prog", "--seed", "-4", NULL };
    expect_usage_error(a3, "seed must be an integer 0...18446744073709551615, not '-4'");
    char *a4[] = { "prog", "--threads", "0", NULL };
    expect_usage_error(a4, "thread count must be an integer 1...4096, not '0'");
    char *a5[] = { "prog", "data.txt", NULL };
    expect_usage_error(a5, "unexpected argument 'data.txt'");
    char *a5b[] = { "prog", "--bias", "2", NULL };
    expect_usage_error(a5b, "unexpected argument '2' (--bias takes its value only after '=': "
                       "--bias=2)");
    char *a6[] = { "prog", "--max-epochs=0", NULL };
    expect_usage_error(a6, "epoch count must be an integer 1...2147483647, not '0'");
    char *a11[] = { "prog", "--max-epochs", "2147483648", NULL };
    expect_usage_error(a11, "epoch count must be an integer 1...2147483647, not '2147483648'");
    char *a12[] = { "prog", "--seed", "18446744073709551616", NULL };
    expect_usage_error(a12, "seed must be an integer 0...18446744073709551615, not "
                       "'18446744073709551616'");
    char *a13[] = { "prog", "--report", "99999999999", NULL };
    expect_usage_error(a13, "report interval must be an integer 1...2147483647, not "
                       "'99999999999'");
    char *a14[] = { "prog", "--csv-outputs", "0", NULL };
    expect_usage_error(a14, "the number of output columns must be an integer 1...100000000, "
                       "not '0'");
    char *a7[] = { "prog", "--bias=high", NULL };
    expect_usage_error(a7, "bias must be a finite number, not 'high'");
    char *a8[] = { "prog", "--param", "hidden", NULL };
    expect_usage_error(a8, "--param hidden: expected NAME=VALUE");
    char *a9[] = { "prog", "--data", "=x", NULL };
    expect_usage_error(a9, "--data =x: expected FILE or NAME=FILE");
    char *a10[] = { "prog", "--memory-limit", "lots", NULL };
    expect_usage_error(a10, "expected a positive byte count such as 512M, not 'lots'");
    char *a15[] = { "prog", "--memory-limit", "0k", NULL };
    expect_usage_error(a15, "expected a positive byte count such as 512M, not '0k'");
    char *a17[] = { "prog", "--memory-limit", " -5M", NULL };
    expect_usage_error(a17, "expected a positive byte count such as 512M, not ' -5M'");
    char *a18[] = { "prog", "--seed", "5 x", NULL };
    expect_usage_error(a18, "seed must be an integer 0...18446744073709551615, not '5 x'");
    char *a16[] = { "prog", "--par-work", "0", NULL };
    expect_usage_error(a16, "the work of a parallel loop must be an integer 1...2147483647, "
                       "not '0'");
}
END_TEST

/* A program started with VAR=VALUE in its environment (a[0], a[1]). */
static void bad_env(void *a)
{
    char **kv = a;
    setenv(kv[0], kv[1], 1);
    INIT("--threads", "1");
}

/* VAR=VALUE must be refused with exit status 2 and `needle`. */
static void expect_env_error(const char *var, const char *value, const char *needle,
                             child_result *r)
{
    const char *kv[] = { var, value };
    run_child(bad_env, (void *)kv, r);
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, needle) != NULL, "expected '%s' in: %s", needle, r->err);
}

START_TEST(test_options_bad_environment)
{
    child_result r;
    expect_env_error("CUPIT_SEED", "many",
                     "CUPIT_SEED: seed must be an integer 0...18446744073709551615, not 'many'", &r);
}
END_TEST

/* a bad CUPIT_DATA is named as such, not as a --data option never given */
START_TEST(test_options_bad_environment_data)
{
    child_result r;
    expect_env_error("CUPIT_DATA", "Data=", "CUPIT_DATA=Data=: expected FILE or NAME=FILE", &r);
    ck_assert_ptr_null(strstr(r.err, "--data"));
}
END_TEST

/* OMP_NUM_THREADS is checked like the program's own settings: 1...4096,
 * or a list of such counts (nested levels, OpenMP) */
static void omp_env(void *a)
{
    setenv("OMP_NUM_THREADS", a, 1);
    INIT("--seed", "1");
    printf("threads %d", rt_threads());
}

START_TEST(test_options_omp_num_threads)
{
    static const char *bad_values[] = { "abc", "0", "100000", "4,x", "2,", "-1" };
    child_result r;
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        run_child(omp_env, (void *)bad_values[i], &r);
        ck_assert_msg(r.status == 2, "status %d for '%s'", r.status, bad_values[i]);
        char expect[200];
        snprintf(expect, sizeof expect, "prog: OMP_NUM_THREADS: thread count must be an integer "
                 "1...4096 (or a comma-separated list of them), not '%s'", bad_values[i]);
        ck_assert_msg(strstr(r.err, expect) != NULL, "stderr: %s", r.err);
        ck_assert_str_eq(r.out, "");
    }
    run_child(omp_env, "3", &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "threads 3");
    run_child(omp_env, "4096", &r);
    ck_assert_int_eq(r.status, 0);
    run_child(omp_env, "2,1", &r);
    ck_assert_int_eq(r.status, 0);
}
END_TEST

/* OMP_DYNAMIC=true would let libgomp size each team by the load, and
   RANDOM in parallel code draw per thread of a team the load chose: rt_init
   keeps the team size fixed. */
START_TEST(test_options_no_dynamic_teams)
{
    omp_set_dynamic(1);
    INIT("--threads", "3");
    ck_assert_int_eq(omp_get_dynamic(), 0);
    ck_assert_int_eq(rt_threads(), 3);
    ck_assert_int_eq(rt_finish(), 0);
}
END_TEST

static void unused_param(void *a)
{
    (void)a;
    INIT("--param", "hiden=3", "--param", "rate=0.1");
    (void)rt_param_value("rate");
    exit(rt_finish());
}

START_TEST(test_options_unused_param_warning)
{
    child_result r;
    run_child(unused_param, NULL, &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "prog: warning: --param hiden was not used by the program\n");
}
END_TEST

/* --set: every kind of global, the last value of a name winning */
START_TEST(test_options_set_globals)
{
    cp_int i = 4;
    cp_int2 i2 = 0;
    cp_int1 i1 = 0;
    cp_real r = 0.0f;
    cp_bool b = false;
    const rt_global_var vars[] = {
        {"hidden", RT_GLOBAL_INT, &i}, {"w", RT_GLOBAL_INT2, &i2}, {"c", RT_GLOBAL_INT1, &i1},
        {"rate", RT_GLOBAL_REAL, &r}, {"on", RT_GLOBAL_BOOL, &b},
    };
    INIT("--set", "hidden=8", "--set=w=-300", "--set", "c=127", "--set", "rate=0.25",
         "--set", "on=true", "--set", "hidden=64");
    rt_set_globals(vars, 5);
    ck_assert_int_eq(i, 64);
    ck_assert_int_eq(i2, -300);
    ck_assert_int_eq(i1, 127);
    ck_assert_float_eq(r, 0.25f);
    ck_assert(b);
}
END_TEST

/* A number that becomes a Real rounds once, to the float nearest to its
 * text, also where the double nearest to it lies halfway between two
 * floats and the text does not (--set, --bias, data files, realParam). */
START_TEST(test_options_real_rounds_once)
{
    static const struct {
        const char *text;
        float want;
    } cases[] = {
        {"1.000000059604644775390625001", 1.00000011920928955078125f},
        {"1.000000059604644775390624999", 1.0f},
        {"1.000000059604644775390625", 1.0f},
        {"1.000000178813934326171874999 ", 1.00000011920928955078125f},
        {"-1.000000059604644775390625001", -1.00000011920928955078125f},
        {"0.1", 0.1f},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *end;
        errno = 0;
        double d = rt_strtoreal(cases[k].text, &end);
        ck_assert_int_eq(errno, 0);
        ck_assert(rt_number_end(end));
        ck_assert_msg((cp_real)d == cases[k].want, "%s: got %.9g", cases[k].text,
                      (double)(cp_real)d);
    }
    cp_real r = 0.0f;
    const rt_global_var vars[] = {{"rate", RT_GLOBAL_REAL, &r}};
    INIT("--set", "rate=1.000000059604644775390625001",
         "--bias=1.000000059604644775390625001");
    rt_set_globals(vars, 1);
    ck_assert_float_eq(r, 1.00000011920928955078125f);
    ck_assert_float_eq((cp_real)rt_opt.bias_value, 1.00000011920928955078125f);
}
END_TEST

/* Reals in messages: the fewest digits that read back as the value */
START_TEST(test_options_real_str)
{
    rt_real_text t;
    ck_assert_str_eq(rt_real_str(&t, 1.0f), "1");
    ck_assert_str_eq(rt_real_str(&t, 0.1f), "0.1");
    ck_assert_str_eq(rt_real_str(&t, 1.00000012f), "1.0000001");
    ck_assert_str_eq(rt_real_str(&t, 16777216.0f), "16777216");
    ck_assert_str_eq(rt_real_str(&t, -0.0f), "-0");
    ck_assert_str_eq(rt_real_str(&t, -INFINITY), "-inf");
    ck_assert_str_eq(rt_real_str(&t, -NAN), "nan");
    ck_assert_str_eq(rt_real_str(&t, 3.40282347e38f), "3.4028235e+38");
}
END_TEST

static void set_global(void *arg)
{
    cp_int1 c = 0;
    const rt_global_var vars[] = {{"count", RT_GLOBAL_INT1, &c}};
    char *argv[] = {"prog", "--set", arg, NULL};
    rt_init(3, argv, "prog");
    rt_set_globals(vars, 1);
    exit(c == 5 ? 0 : 1);
}

START_TEST(test_options_set_errors)
{
    static const struct { const char *arg, *msg; } cases[] = {
        {"count=5", NULL},
        {"cnt=5", "prog: --set cnt=5: the program has no global Int, Real or Bool variable of "
                  "this name (it has: count)\n"},
        {"count=128", "prog: --set count=128: not a value of type Int1\n"},
        {"count=5x", "prog: --set count=5x: not a value of type Int1\n"},
        {"count", "--set count: expected NAME=VALUE"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        child_result r;
        run_child(set_global, (void *)cases[k].arg, &r);
        ck_assert_int_eq(r.status, cases[k].msg ? 2 : 0);
        if (cases[k].msg)
            ck_assert_msg(strstr(r.err, cases[k].msg), "%s: %s", cases[k].arg, r.err);
    }
}
END_TEST

/* rt_init checks --set against the table generated code registers, before
 * the global initializers run, but stores nothing: rt_set_globals does,
 * after them. */
static void set_checked_early(void *arg)
{
    static cp_int1 c = 0;
    static const rt_global_var vars[] = {{"count", RT_GLOBAL_INT1, &c}};
    char *argv[] = {"prog", "--set", arg, NULL};
    rt_set_global_docs(vars, 1);
    rt_init(3, argv, "prog");
    printf("init %d", (int)c);
    rt_set_globals(vars, 1);
    printf(" set %d", (int)c);
    exit(0);
}

START_TEST(test_options_set_checked_before_initializers)
{
    child_result r;
    run_child(set_checked_early, "count=5", &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "init 0 set 5");
    run_child(set_checked_early, "cnt=5", &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.out, "");
    ck_assert(strstr(r.err, "--set cnt=5: the program has no global") != NULL);
    run_child(set_checked_early, "count=300", &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.out, "");
    ck_assert(strstr(r.err, "--set count=300: not a value of type Int1") != NULL);
}
END_TEST

static Suite *options_suite(void)
{
    Suite *s = suite_create("rt_options");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, test_options_defaults);
    tcase_add_test(tc, test_options_values);
    tcase_add_test(tc, test_options_bias_default_constant);
    tcase_add_test(tc, test_options_environment_and_precedence);
    tcase_add_test(tc, test_options_seed_reproducible);
    tcase_add_test(tc, test_options_help);
    tcase_add_test(tc, test_options_help_lists_set_variables);
    tcase_add_test(tc, test_options_errors);
    tcase_add_test(tc, test_options_bad_environment);
    tcase_add_test(tc, test_options_bad_environment_data);
    tcase_add_test(tc, test_options_omp_num_threads);
    tcase_add_test(tc, test_options_no_dynamic_teams);
    tcase_add_test(tc, test_options_seed_full_range);
    tcase_add_test(tc, test_options_unused_param_warning);
    tcase_add_test(tc, test_options_set_globals);
    tcase_add_test(tc, test_options_real_rounds_once);
    tcase_add_test(tc, test_options_real_str);
    tcase_add_test(tc, test_options_set_errors);
    tcase_add_test(tc, test_options_set_checked_before_initializers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(options_suite());
}
