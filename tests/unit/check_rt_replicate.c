/* check_rt_replicate.c -- Check suite for network replication and MERGE:
 * the U / R(k) state machine, the replicate count rule for intervals, the
 * tree merge against a serial sum, independence of the thread count, and
 * the run-time errors of semantics.md section 10.3 items 14 and 15.
 */
#include "check_rt_support.h"

#include <omp.h>

enum { IN, HID, ARR };
enum { IN_HID, HID_HID, ARR_HID };

static rt_net net;

static void setup(void)
{
    node_counter = conn_counter = 0;
    rt_seed(3);
    rt_net_create(&net, &test_desc, HERE);
    rt_extend(&net, IN, 3, HERE);
    rt_extend(&net, HID, 5, HERE);
    rt_connect(&net, IN_HID, 0, 2, 0, 4, HERE);
    rt_connect(&net, ARR_HID, 0, 2, 0, 4, HERE);
}

static void teardown(void)
{
    rt_net_destroy(&net);
}

/* Gives every mergeable element of replicate r the value f(r). */
static void fill(cp_real (*f)(int32_t))
{
    for (int32_t r = 0; r < net.nreps; r++) {
        ((tnet *)net.reps[r].net_data)->total = f(r);
        for (int g = 0; g < 3; g++)
            for (int32_t i = 0; i < net.count[g]; i++)
                node_at(&net, r, g, i)->sum = f(r) * (cp_real)(i + 1);
        for (int b = 0; b < 3; b++)
            for (int32_t k = 0; k < net.bundles[b].nconn; k++)
                conn_at(&net, r, b, k)->delta = f(r) + (cp_real)k;
    }
}

static cp_real plus_one(int32_t r) { return (cp_real)(r + 1); }

/* Every replicate holds the merged sums of plus_one over k replicates. */
static void check_merged(int32_t reps, int32_t k)
{
    cp_real total = (cp_real)(k * (k + 1) / 2);
    for (int32_t r = 0; r < reps; r++) {
        ck_assert_float_eq(((tnet *)net.reps[r].net_data)->total, total);
        for (int g = 0; g < 3; g++)
            for (int32_t i = 0; i < net.count[g]; i++)
                ck_assert_float_eq(node_at(&net, r, g, i)->sum, total * (cp_real)(i + 1));
        for (int b = 0; b < 3; b++)
            for (int32_t c = 0; c < net.bundles[b].nconn; c++)
                ck_assert_float_eq(conn_at(&net, r, b, c)->delta,
                                   total + (cp_real)(k * c));
    }
}

START_TEST(test_replicate_copies)
{
    node_at(&net, 0, HID, 2)->act = 7;
    rt_replicate(&net, 4, 4, false, 0, HERE);
    ck_assert(net.replicated);
    ck_assert_int_eq(net.nreps, 4);
    for (int32_t r = 1; r < 4; r++) {
        ck_assert_float_eq(node_at(&net, r, HID, 2)->act, 7);
        for (int32_t k = 0; k < net.bundles[IN_HID].nconn; k++)
            ck_assert_float_eq(conn_at(&net, r, IN_HID, k)->w, conn_at(&net, 0, IN_HID, k)->w);
        ck_assert_int_eq(((tnet *)net.reps[r].net_data)->created, 1);
    }
    ck_assert_ptr_eq(rt_rep_at(&net, 3, HERE), &net.reps[3]);
}
END_TEST

START_TEST(test_replicate_into_one_states)
{
    rt_replicate(&net, 1, 1, false, 0, HERE); /* INTO 1 in U: nothing */
    ck_assert(!net.replicated);
    rt_replicate(&net, 1, 1, true, 0, HERE);  /* INTO 1...1: R(1) */
    ck_assert(net.replicated);
    ck_assert_int_eq(net.nreps, 1);
    rt_replicate(&net, 1, 1, false, 0, HERE); /* INTO 1 in R(1): back to U */
    ck_assert(!net.replicated);
    rt_extend(&net, HID, 1, HERE);            /* topology thawed */
    ck_assert_int_eq(net.count[HID], 6);
}
END_TEST

START_TEST(test_replicate_into_one_merges)
{
    size_t before = rt_bytes_in_use();
    rt_replicate(&net, 6, 6, false, 0, HERE);
    fill(plus_one);
    rt_replicate(&net, 1, 1, false, 0, HERE);
    ck_assert(!net.replicated);
    ck_assert_int_eq(net.nreps, 1);
    check_merged(1, 6);
    ck_assert_uint_eq(rt_bytes_in_use(), before);
}
END_TEST

START_TEST(test_merge_equals_serial_sum)
{
    static const int32_t counts[] = { 2, 3, 5, 7, 8, 13, 16 };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int32_t k = counts[i];
        rt_replicate(&net, k, k, false, 0, HERE);
        fill(plus_one);
        rt_merge(&net, HERE);
        ck_assert_int_eq(net.nreps, k);
        ck_assert(net.replicated);
        check_merged(k, k);
        rt_replicate(&net, 1, 1, false, 0, HERE);
    }
}
END_TEST

static cp_real irregular(int32_t r) { return 1.0f / (cp_real)(3 * r + 1); }

/* Merged connection deltas for k replicates with `threads` threads. */
static void merged_bits(int threads, int32_t k, cp_real *out, int32_t n)
{
    omp_set_num_threads(threads);
    rt_replicate(&net, k, k, false, 0, HERE);
    fill(irregular);
    rt_merge(&net, HERE);
    for (int32_t c = 0; c < n; c++)
        out[c] = conn_at(&net, k - 1, IN_HID, c)->delta;
    rt_replicate(&net, 1, 1, false, 0, HERE);
}

START_TEST(test_merge_independent_of_threads)
{
    cp_real one[15], four[15];
    merged_bits(1, 11, one, 15);
    merged_bits(4, 11, four, 15);
    ck_assert_mem_eq(one, four, sizeof one);
}
END_TEST

/* A group whose MERGE notes whether it ran inside a parallel region. */
static int merged_in_parallel;

static void tnode_merge_noting(void *me, const void *you)
{
    if (omp_in_parallel())
        __atomic_store_n(&merged_in_parallel, 1, __ATOMIC_RELAXED);
    tnode_merge(me, you);
}

static const rt_group_desc noting_groups[] = {
    { "hid", sizeof(tnode), tnode_init, tnode_merge_noting, false, 0, {0}, NULL, 0 },
};
static const rt_net_desc noting_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 1, noting_groups, 0, NULL, false, {0}, NULL, 0,
};

/* Whether MERGE of 2 replicates of 70000 nodes (above the grain) on 4
 * threads ran a MERGE procedure in a parallel region. */
static bool merges_in_parallel(bool deterministic)
{
    rt_net big;
    rt_net_create(&big, &noting_desc, HERE);
    rt_extend(&big, 0, 70000, HERE);
    omp_set_num_threads(4);
    rt_opt.deterministic = deterministic;
    merged_in_parallel = 0;
    rt_replicate(&big, 2, 2, false, 0, HERE);
    rt_merge(&big, HERE);
    rt_opt.deterministic = false;
    rt_net_destroy(&big);
    return merged_in_parallel != 0;
}

/* --deterministic keeps MERGE procedures serial only in a program whose
 * parallel code may draw RANDOM: each thread has its own stream. */
START_TEST(test_merge_serial_for_random_deterministic)
{
    ck_assert(merges_in_parallel(false));
    ck_assert(merges_in_parallel(true));
    rt_set_random_in_parallel();
    ck_assert(merges_in_parallel(false));
    ck_assert(!merges_in_parallel(true));
}
END_TEST

START_TEST(test_merge_in_state_u_is_noop)
{
    fill(plus_one);
    rt_merge(&net, HERE);
    check_merged(1, 1);
}
END_TEST

START_TEST(test_choose_replicates)
{
    /* Small nets: enough replicates per thread to fill a grain. */
    ck_assert_int_eq(rt_choose_replicates(1, 4, 25, 2), 4);
    ck_assert_int_eq(rt_choose_replicates(1, 1000, 1000, 4), 132);
    /* Large nets: one replicate per thread. */
    ck_assert_int_eq(rt_choose_replicates(1, 1000, 1000000, 8), 8);
    ck_assert_int_eq(rt_choose_replicates(1, 3, 1000000, 8), 3);
    ck_assert_int_eq(rt_choose_replicates(5, 100, 1000000, 2), 5);
    ck_assert_int_eq(rt_choose_replicates(1, 1, 10, 16), 1);
    /* Always inside the interval. */
    for (int32_t lo = 1; lo < 40; lo += 3)
        for (int32_t hi = lo; hi < 90; hi += 7)
            for (int64_t w = 1; w < 200000; w *= 5)
                for (int t = 1; t <= 8; t++) {
                    int32_t k = rt_choose_replicates(lo, hi, w, t);
                    ck_assert_int_ge(k, lo);
                    ck_assert_int_le(k, hi);
                }
}
END_TEST

START_TEST(test_replicate_interval_uses_rule)
{
    omp_set_num_threads(2);
    rt_replicate(&net, 1, 10, true, 0, HERE);
    ck_assert_int_eq(net.nreps, rt_choose_replicates(1, 10, 8 + 30, 2));
    ck_assert_int_eq(net.nreps, 10);
}
END_TEST

static void err_zero(void *a) { (void)a; rt_replicate(&net, 0, 0, false, 0, (rt_srcpos){ "r.nn", 1 }); }
static void err_empty(void *a) { (void)a; rt_replicate(&net, 3, 2, true, 0, (rt_srcpos){ "r.nn", 2 }); }
static void err_min(void *a) { (void)a; rt_replicate(&net, 0, 4, true, 0, (rt_srcpos){ "r.nn", 3 }); }
static void err_twice(void *a) { (void)a; rt_replicate(&net, 2, 2, false, 0, HERE); rt_replicate(&net, 2, 2, false, 0, (rt_srcpos){ "r.nn", 4 }); }
static void err_one_interval(void *a) { (void)a; rt_replicate(&net, 2, 2, false, 0, HERE); rt_replicate(&net, 1, 1, true, 0, (rt_srcpos){ "r.nn", 5 }); }
static void err_rep_index(void *a) { (void)a; rt_replicate(&net, 2, 2, false, 0, HERE); (void)rt_rep_at(&net, 2, (rt_srcpos){ "r.nn", 6 }); }
static void err_named(void *a)
{
    (void)a;
    static rt_net *const nets[] = {&net};
    static const char *const names[] = {"second"};
    rt_register_networks(nets, names, 1); /* the variable's name, not the type's */
    rt_replicate(&net, 2, 2, false, 0, HERE);
    rt_replicate(&net, 3, 3, false, 0, (rt_srcpos){ "r.nn", 8 });
}
static void err_memory(void *a)
{
    (void)a;
    rt_set_memory_limit(rt_bytes_in_use() + 100000);
    rt_replicate(&net, 5000, 5000, false, 0, (rt_srcpos){ "r.nn", 7 });
}

START_TEST(test_replicate_errors)
{
    ck_assert_rt_error(err_zero, NULL, "r.nn:1: run-time error: REPLICATE net INTO 0 (the count must be at least 1)");
    ck_assert_rt_error(err_empty, NULL, "r.nn:2: run-time error: REPLICATE net INTO the empty interval 3...2");
    ck_assert_rt_error(err_min, NULL, "r.nn:3: run-time error: REPLICATE net INTO 0...4 (the count must be at least 1)");
    ck_assert_rt_error(err_twice, NULL, "r.nn:4: run-time error: REPLICATE net while it is already replicated");
    ck_assert_rt_error(err_one_interval, NULL, "r.nn:5: run-time error: REPLICATE net while it is already replicated");
    ck_assert_rt_error(err_rep_index, NULL, "r.nn:6: run-time error: network replicate index 2 out of range 0...1");
    ck_assert_rt_error(err_memory, NULL, "r.nn:7: run-time error: out of memory");
    ck_assert_rt_error(err_named, NULL, "r.nn:8: run-time error: REPLICATE second while it is already replicated");
}
END_TEST

static Suite *replicate_suite(void)
{
    Suite *s = suite_create("rt_replicate");
    TCase *tc = tcase_create("replicate");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_replicate_copies);
    tcase_add_test(tc, test_replicate_into_one_states);
    tcase_add_test(tc, test_replicate_into_one_merges);
    tcase_add_test(tc, test_merge_equals_serial_sum);
    tcase_add_test(tc, test_merge_independent_of_threads);
    tcase_add_test(tc, test_merge_serial_for_random_deterministic);
    tcase_add_test(tc, test_merge_in_state_u_is_noop);
    tcase_add_test(tc, test_choose_replicates);
    tcase_add_test(tc, test_replicate_interval_uses_rule);
    tcase_add_test(tc, test_replicate_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(replicate_suite());
}
