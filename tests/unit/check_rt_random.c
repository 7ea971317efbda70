/* check_rt_random.c -- Check suite for RANDOM: reproducibility per seed and
 * per thread, bounds of integer and Real intervals, a coarse uniformity
 * check, and the run-time errors of empty and unbounded intervals.
 */
#include "check_rt_support.h"

#include <math.h>
#include <omp.h>

START_TEST(test_random_same_seed_same_sequence)
{
    cp_int a[100], b[100];
    rt_seed(42);
    for (int i = 0; i < 100; i++)
        a[i] = rt_random_int(HERE, 0, 1000000);
    rt_seed(42);
    for (int i = 0; i < 100; i++)
        b[i] = rt_random_int(HERE, 0, 1000000);
    ck_assert_mem_eq(a, b, sizeof a);
    rt_seed(43);
    int same = 0;
    for (int i = 0; i < 100; i++)
        same += rt_random_int(HERE, 0, 1000000) == a[i];
    ck_assert_int_lt(same, 5);
}
END_TEST

START_TEST(test_random_int_bounds_and_uniformity)
{
    rt_seed(1);
    int hist[10] = { 0 };
    for (int i = 0; i < 100000; i++) {
        cp_int x = rt_random_int(HERE, -3, 6);
        ck_assert(x >= -3 && x <= 6);
        hist[x + 3]++;
    }
    for (int i = 0; i < 10; i++) /* expected 10000 each */
        ck_assert_msg(hist[i] > 9400 && hist[i] < 10600, "bucket %d: %d", i, hist[i]);
    ck_assert_int_eq(rt_random_int(HERE, 5, 5), 5);
    bool neg = false, pos = false;
    for (int i = 0; i < 100; i++) {
        cp_int x = rt_random_int(HERE, INT32_MIN, INT32_MAX);
        neg |= x < 0;
        pos |= x > 0;
    }
    ck_assert(neg && pos);
}
END_TEST

START_TEST(test_random_real_bounds)
{
    rt_seed(2);
    double sum = 0;
    for (int i = 0; i < 100000; i++) {
        cp_real x = rt_random_real(HERE, -0.5f, 0.5f);
        ck_assert(x >= -0.5f && x < 0.5f);
        sum += x;
    }
    ck_assert(sum / 100000 > -0.01 && sum / 100000 < 0.01);
    ck_assert_float_eq(rt_random_real(HERE, 2.5f, 2.5f), 2.5f);
    /* An interval one ulp wide never yields its upper bound. */
#ifdef CUPIT_REAL_DOUBLE
    cp_real lo = 1.0, hi = nextafter(1.0, 2.0);
#else
    cp_real lo = 1.0f, hi = nextafterf(1.0f, 2.0f);
#endif
    for (int i = 0; i < 1000; i++)
        ck_assert(rt_random_real(HERE, lo, hi) == lo);
}
END_TEST

/* Per-thread sequences of a parallel region with 4 threads. */
static void thread_draws(cp_int out[4][50])
{
    omp_set_num_threads(4);
    rt_seed(9);
#pragma omp parallel num_threads(4)
    {
        int t = omp_get_thread_num();
        for (int i = 0; i < 50; i++)
            out[t][i] = rt_random_int(HERE, 0, 1 << 30);
    }
}

START_TEST(test_random_per_thread_streams)
{
    static cp_int a[4][50], b[4][50];
    thread_draws(a);
    thread_draws(b);
    ck_assert_mem_eq(a, b, sizeof a);
    ck_assert(memcmp(a[0], a[1], sizeof a[0]) != 0);
    ck_assert(memcmp(a[2], a[3], sizeof a[0]) != 0);
}
END_TEST

static void err_int(void *a) { (void)a; rt_random_int((rt_srcpos){ "x.nn", 4 }, 3, 2); }
static void err_real(void *a) { (void)a; rt_random_real((rt_srcpos){ "x.nn", 5 }, 1.0f, 0.5f); }

static void err_below(void *a) { (void)a; rt_random_real((rt_srcpos){ "x.nn", 6 }, -INFINITY, 0.0f); }
static void err_above(void *a) { (void)a; rt_random_real((rt_srcpos){ "x.nn", 7 }, 1.0f, INFINITY); }

START_TEST(test_random_empty_interval)
{
    ck_assert_rt_error(err_int, NULL, "x.nn:4: run-time error: RANDOM of the empty interval 3...2");
    ck_assert_rt_error(err_real, NULL, "x.nn:5: run-time error: RANDOM of the empty interval 1...0.5");
    /* an infinite bound: no uniform value (it was a NaN or the largest Real) */
    ck_assert_rt_error(err_below, NULL, "x.nn:6: run-time error: RANDOM of the unbounded interval -inf...0");
    ck_assert_rt_error(err_above, NULL, "x.nn:7: run-time error: RANDOM of the unbounded interval 1...inf");
    ck_assert(isinf(rt_random_real(HERE, INFINITY, INFINITY))); /* one value */
}
END_TEST

static Suite *random_suite(void)
{
    Suite *s = suite_create("rt_random");
    TCase *tc = tcase_create("random");
    tcase_add_test(tc, test_random_same_seed_same_sequence);
    tcase_add_test(tc, test_random_int_bounds_and_uniformity);
    tcase_add_test(tc, test_random_real_bounds);
    tcase_add_test(tc, test_random_per_thread_streams);
    tcase_add_test(tc, test_random_empty_interval);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(random_suite());
}
