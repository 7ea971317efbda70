/* check_rt_core.c -- Check suite for run-time errors, memory accounting and
 * the checked arithmetic helpers of libcupitrt.
 *
 * Errors end the process, so every error test runs the failing call in a
 * forked child and checks exit status 3 and the message.
 */
#include "check_rt_support.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>

/* ---- rt_error --------------------------------------------------------------- */

static void fail_plain(void *arg)
{
    (void)arg;
    printf("before");
    rt_error((rt_srcpos){ "prog.nn", 42 }, "something %s %d", "broke", 7);
}

START_TEST(test_core_error_format)
{
    child_result r;
    run_child(fail_plain, NULL, &r);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "prog.nn:42: run-time error: something broke 7\n");
    ck_assert_str_eq(r.out, "before"); /* stdout flushed first */
}
END_TEST

static void fail_nowhere(void *arg)
{
    (void)arg;
    rt_opt.program = "trainer";
    rt_error(RT_NOWHERE, "no position");
}

START_TEST(test_core_error_without_position)
{
    child_result r;
    run_child(fail_nowhere, NULL, &r);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "trainer: run-time error: no position\n");
}
END_TEST

static void fail_in_parallel(void *arg)
{
    (void)arg;
    omp_set_num_threads(4);
#pragma omp parallel
    rt_error((rt_srcpos){ "par.nn", 3 }, "thread failure");
}

START_TEST(test_core_error_in_parallel_region_prints_once)
{
    child_result r;
    run_child(fail_in_parallel, NULL, &r);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "par.nn:3: run-time error: thread failure\n");
}
END_TEST

static void fail_index(void *arg)
{
    (void)arg;
    rt_index_error((rt_srcpos){ "a.nn", 5 }, "array", 7, 4);
}

static void fail_index_empty(void *arg)
{
    (void)arg;
    rt_index_error((rt_srcpos){ "a.nn", 6 }, "group hid", 0, 0);
}

static void fail_div(void *arg)
{
    (void)arg;
    rt_div_by_zero((rt_srcpos){ "a.nn", 9 });
}

/* net[1] of a network with one replicate: the hint to REPLICATE it fits
 * only while it is not replicated (INTO 1...1 replicates it with one) */
static void fail_rep_index(void *arg)
{
    static rt_net net;
    static rt_net *nets[] = {&net};
    static const char *const names[] = {"mlp"};
    net.replicated = arg != NULL;
    net.nreps = 1;
    rt_register_networks(nets, names, 1);
    rt_index_error((rt_srcpos){ "a.nn", 8 }, "mlp replicate", 1, 1);
}

START_TEST(test_core_replicate_index_hint)
{
    ck_assert_rt_error(fail_rep_index, NULL, "a.nn:8: run-time error: mlp replicate index 1 out "
                       "of range 0...0 (mlp has one replicate; REPLICATE mlp INTO n makes n)\n");
    ck_assert_rt_error(fail_rep_index, "", "a.nn:8: run-time error: mlp replicate index 1 out "
                       "of range 0...0 (mlp is replicated with one replicate)\n");
}
END_TEST

START_TEST(test_core_error_helpers)
{
    ck_assert_rt_error(fail_index, NULL, "a.nn:5: run-time error: array index 7 out of range 0...3");
    ck_assert_rt_error(fail_index_empty, NULL, "group hid index 0 out of range (it is empty)");
    ck_assert_rt_error(fail_div, NULL, "a.nn:9: run-time error: division by zero");
}
END_TEST

START_TEST(test_core_error_exit_status)
{
    freopen("/dev/null", "w", stderr); /* the message is checked above */
    rt_div_by_zero((rt_srcpos){ "x.nn", 1 });
}
END_TEST

START_TEST(test_core_out_of_memory_exit_status)
{
    freopen("/dev/null", "w", stderr);
    rt_set_memory_limit(1000);
    (void)rt_alloc((rt_srcpos){ "x.nn", 2 }, 2000);
}
END_TEST

/* ---- memory ------------------------------------------------------------------ */

START_TEST(test_core_memory_accounting)
{
    size_t base = rt_bytes_in_use();
    char *p = rt_alloc(HERE, 1000);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(p[i], 0);
    ck_assert_uint_eq(rt_bytes_in_use(), base + 1000);
    p = rt_realloc(HERE, p, 1000, 3000);
    for (int i = 1000; i < 3000; i++)
        ck_assert_int_eq(p[i], 0); /* growth is zero-filled */
    ck_assert_uint_eq(rt_bytes_in_use(), base + 3000);
    ck_assert_uint_ge(rt_peak_bytes(), base + 3000);
    p = rt_realloc(HERE, p, 3000, 10);
    ck_assert_uint_eq(rt_bytes_in_use(), base + 10);
    rt_free(p, 10);
    ck_assert_uint_eq(rt_bytes_in_use(), base);
    ck_assert_uint_ge(rt_peak_bytes(), base + 3000);
}
END_TEST

/* The storage of a large local (rt_local_alloc): zero-filled, 64-byte
 * aligned, counted, and freed through the address of its pointer as
 * __attribute__((cleanup)) passes it. */
START_TEST(test_core_local_storage)
{
    size_t base = rt_bytes_in_use();
    {
        char *p __attribute__((cleanup(rt_local_free))) = rt_local_alloc(HERE, 100000);
        ck_assert_uint_eq((uintptr_t)p % 64, 0);
        for (int i = 0; i < 100000; i++)
            ck_assert_int_eq(p[i], 0);
        ck_assert_uint_ge(rt_bytes_in_use(), base + 100000);
    }
    ck_assert_uint_eq(rt_bytes_in_use(), base);
    char *none = NULL;
    rt_local_free(&none); /* nothing to free */
    ck_assert_uint_eq(rt_bytes_in_use(), base);
}
END_TEST

static void local_too_much(void *arg)
{
    (void)arg;
    rt_local_alloc((rt_srcpos){ "m.nn", 5 }, SIZE_MAX - 8);
}

static void alloc_too_much(void *arg)
{
    (void)arg;
    rt_alloc((rt_srcpos){ "m.nn", 2 }, SIZE_MAX / 2);
}

static void alloc_over_limit(void *arg)
{
    (void)arg;
    rt_set_memory_limit(1 << 20);
    void *p = rt_alloc((rt_srcpos){ "m.nn", 3 }, 1 << 19);
    p = rt_realloc((rt_srcpos){ "m.nn", 4 }, p, 1 << 19, 1 << 21);
}

START_TEST(test_core_out_of_memory)
{
    ck_assert_rt_error(alloc_too_much, NULL, "m.nn:2: run-time error: out of memory");
    ck_assert_rt_error(alloc_over_limit, NULL, "m.nn:4: run-time error: out of memory");
    ck_assert_rt_error(local_too_much, NULL, "m.nn:5: run-time error: out of memory");
}
END_TEST

/* ---- the recursion check ---------------------------------------------------------- */

static volatile int recurse_limit = INT32_MAX; /* never reached */

static int recurse(int n)
{
    volatile char frame[256];
    rt_stack_check((rt_srcpos){ "s.nn", 7 });
    frame[n % 256] = (char)n;
    if (n >= recurse_limit)
        return 0;
    return recurse(n + 1) + frame[n % 256];
}

static void *recurse_thread(void *arg)
{
    (void)arg;
    return (void *)(intptr_t)recurse(0);
}

/* A thread with a small stack (OMP_STACKSIZE=32k) still has the room to
 * report the recursion as a run-time error. */
static void recurse_on_small_stack(void *arg)
{
    pthread_attr_t a;
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, (size_t)(intptr_t)arg);
    pthread_create(&t, &a, recurse_thread, NULL);
    pthread_join(t, NULL);
}

START_TEST(test_core_recursion_small_stack)
{
    const char *want = "s.nn:7: run-time error: recursion too deep";
    ck_assert_rt_error(recurse_on_small_stack, (void *)(intptr_t)(16 << 10), want);
    ck_assert_rt_error(recurse_on_small_stack, (void *)(intptr_t)(32 << 10), want);
    ck_assert_rt_error(recurse_on_small_stack, (void *)(intptr_t)(1 << 20), want);
}
END_TEST

/* ---- arithmetic ------------------------------------------------------------------ */

START_TEST(test_core_ipow_values)
{
    ck_assert_int_eq(rt_ipow(HERE, 0, 0), 1);
    ck_assert_int_eq(rt_ipow(HERE, 2, 10), 1024);
    ck_assert_int_eq(rt_ipow(HERE, -3, 3), -27);
    ck_assert_int_eq(rt_ipow(HERE, -1, 1000001), -1);
    ck_assert_int_eq(rt_ipow(HERE, 1, 1 << 30), 1);
    ck_assert_int_eq(rt_ipow(HERE, 0, 5), 0);
    ck_assert_int_eq(rt_ipow(HERE, 2, 30), 1 << 30);
    ck_assert_int_eq(rt_ipow(HERE, -2, 31), INT32_MIN);
}
END_TEST

static void ipow_overflow(void *arg)
{
    (void)arg;
    rt_ipow((rt_srcpos){ "p.nn", 8 }, 2, 31);
}

static void ipow_negative(void *arg)
{
    (void)arg;
    rt_ipow((rt_srcpos){ "p.nn", 9 }, 2, -1);
}

static void rpow_negative_base(void *arg)
{
    (void)arg;
    rt_rpow((rt_srcpos){ "p.nn", 10 }, -2.0f, 0.5f);
}

START_TEST(test_core_pow_errors)
{
    ck_assert_rt_error(ipow_overflow, NULL, "p.nn:8: run-time error: integer overflow in 2 ** 31");
    ck_assert_rt_error(ipow_negative, NULL, "p.nn:9: run-time error: negative exponent -1");
    ck_assert_rt_error(rpow_negative_base, NULL, "p.nn:10: run-time error: negative base -2");
}
END_TEST

START_TEST(test_core_rpow_values)
{
    ck_assert_float_eq_tol(rt_rpow_int(2.0f, 10), 1024.0f, 1e-3f);
    ck_assert_float_eq_tol(rt_rpow_int(2.0f, -2), 0.25f, 1e-6f);
    ck_assert_float_eq(rt_rpow_int(5.0f, 0), 1.0f);
    ck_assert_float_eq(rt_rpow_int(-3.0f, 3), -27.0f);
    ck_assert_float_eq(rt_rpow(HERE, 0.0f, 0.0f), 1.0f);
    ck_assert_float_eq_tol(rt_rpow(HERE, 9.0f, 0.5f), 3.0f, 1e-6f);
    ck_assert_float_eq(rt_rpow(HERE, 0.0f, 2.5f), 0.0f);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("rt_core");
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, test_core_error_format);
    tcase_add_test(tc, test_core_error_without_position);
    tcase_add_test(tc, test_core_error_in_parallel_region_prints_once);
    tcase_add_test(tc, test_core_error_helpers);
    tcase_add_test(tc, test_core_replicate_index_hint);
    tcase_add_exit_test(tc, test_core_error_exit_status, 3);
    tcase_add_exit_test(tc, test_core_out_of_memory_exit_status, 3);
    suite_add_tcase(s, tc);
    tc = tcase_create("memory");
    tcase_add_test(tc, test_core_memory_accounting);
    tcase_add_test(tc, test_core_out_of_memory);
    tcase_add_test(tc, test_core_local_storage);
    tcase_add_test(tc, test_core_recursion_small_stack);
    suite_add_tcase(s, tc);
    tc = tcase_create("arithmetic");
    tcase_add_test(tc, test_core_ipow_values);
    tcase_add_test(tc, test_core_pow_errors);
    tcase_add_test(tc, test_core_rpow_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(core_suite());
}
