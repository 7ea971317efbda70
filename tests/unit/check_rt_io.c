/* check_rt_io.c -- Check suite for I/O assignments: the replicate-major,
 * node-minor layout, slices, element offsets inside node records, and the
 * run-time errors for unallocated, too small or mis-shaped I/O areas and
 * for areas whose elements have another size than the node element.
 */
#include "check_rt_support.h"

#include <stddef.h>

enum { IN, HID, ARR };

static rt_net net;
static cp_real buf[64];

static void setup(void)
{
    node_counter = 0;
    rt_net_create(&net, &test_desc, HERE);
    rt_extend(&net, IN, 4, HERE);
    rt_replicate(&net, 3, 3, false, 0, HERE);
    for (int i = 0; i < 64; i++)
        buf[i] = (cp_real)i;
}

static void teardown(void)
{
    rt_net_destroy(&net);
}

static cp_io area(int32_t count, int32_t per_rep)
{
    return (cp_io){ buf, count, sizeof(cp_real), per_rep };
}

START_TEST(test_io_input_layout)
{
    cp_io io = area(12, 4);
    rt_io_input(&net, IN, 0, 3, offsetof(tnode, act), 0, sizeof(cp_real), &io, HERE);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++) {
            ck_assert_float_eq(node_at(&net, r, IN, k)->act, (cp_real)(r * 4 + k));
            ck_assert_int_eq(node_at(&net, r, IN, k)->id, 3 + k); /* untouched */
        }
}
END_TEST

START_TEST(test_io_output_layout)
{
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++)
            node_at(&net, r, IN, k)->sum = (cp_real)(100 * r + k);
    cp_io io = area(12, 0);
    rt_io_output(&net, IN, 0, 3, offsetof(tnode, sum), 0, sizeof(cp_real), &io, HERE);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++)
            ck_assert_float_eq(buf[r * 4 + k], (cp_real)(100 * r + k));
}
END_TEST

START_TEST(test_io_slice_and_clipping)
{
    cp_io io = area(6, 0); /* 3 replicates x nodes 2..3 */
    rt_io_input(&net, IN, 2, 99, offsetof(tnode, act), 0, sizeof(cp_real), &io, HERE);
    for (int r = 0; r < 3; r++) {
        ck_assert_float_eq(node_at(&net, r, IN, 1)->act, 0);
        ck_assert_float_eq(node_at(&net, r, IN, 2)->act, (cp_real)(2 * r));
        ck_assert_float_eq(node_at(&net, r, IN, 3)->act, (cp_real)(2 * r + 1));
    }
    cp_io none = { NULL, 0, sizeof(cp_real), 0 };
    rt_io_input(&net, HID, 0, 10, 0, 0, sizeof(cp_real), &none, HERE); /* empty group: nothing */
    rt_io_input(&net, IN, 5, 9, 0, 0, sizeof(cp_real), &none, HERE);   /* clipped away */
}
END_TEST

START_TEST(test_io_larger_area_is_fine)
{
    cp_io io = area(64, 0);
    rt_io_input(&net, IN, 0, 3, offsetof(tnode, act), 0, sizeof(cp_real), &io, HERE);
    ck_assert_float_eq(node_at(&net, 2, IN, 3)->act, 11);
}
END_TEST

static void err_small(void *a) { (void)a; cp_io io = area(11, 0); rt_io_input(&net, IN, 0, 3, 0, 0, sizeof(cp_real), &io, (rt_srcpos){ "io.nn", 1 }); }
static void err_small1(void *a) { (void)a; cp_io io = area(1, 0); rt_io_input(&net, IN, 0, 3, 0, 0, sizeof(cp_real), &io, (rt_srcpos){ "io.nn", 7 }); }
static void err_shape(void *a) { (void)a; cp_io io = area(64, 5); rt_io_output(&net, IN, 0, 3, 0, 0, sizeof(cp_real), &io, (rt_srcpos){ "io.nn", 2 }); }
static void err_shape1(void *a) { (void)a; cp_io io = area(64, 2); rt_io_output(&net, IN, 0, 0, 0, 0, sizeof(cp_real), &io, (rt_srcpos){ "io.nn", 6 }); }
static void err_null(void *a) { (void)a; cp_io io = { NULL, 0, 4, 0 }; rt_io_input(&net, IN, 0, 3, 0, 0, sizeof(cp_real), &io, (rt_srcpos){ "io.nn", 3 }); }
/* an area EXTERNAL code made for another type: elements of another size */
static void err_size(void *a) { (void)a; cp_io io = area(64, 0); io.elem_size = 2 * sizeof(cp_real); rt_io_input(&net, IN, 0, 3, 0, 0, sizeof(cp_real), &io, (rt_srcpos){ "io.nn", 4 }); }
static void err_size_out(void *a) { (void)a; cp_io io = area(64, 0); io.elem_size = 1; rt_io_output(&net, IN, 0, 3, 0, 0, sizeof(cp_real), &io, (rt_srcpos){ "io.nn", 5 }); }

START_TEST(test_io_errors)
{
    ck_assert_rt_error(err_small, NULL, "io.nn:1: run-time error: input assignment: the I/O area has 11 elements, 12 needed (3 replicates x 4 nodes of in)");
    ck_assert_rt_error(err_small1, NULL, "io.nn:7: run-time error: input assignment: the I/O area has 1 element, 12 needed (3 replicates x 4 nodes of in)");
    ck_assert_rt_error(err_shape, NULL, "io.nn:2: run-time error: output assignment: the I/O area holds 5 values per replicate but in selects 4 nodes");
    ck_assert_rt_error(err_shape1, NULL, "io.nn:6: run-time error: output assignment: the I/O area holds 2 values per replicate but in selects 1 node\n");
    ck_assert_rt_error(err_null, NULL, "io.nn:3: run-time error: input assignment with an I/O area that was never allocated");
    char want[128];
    snprintf(want, sizeof want, "io.nn:4: run-time error: input assignment: the I/O area holds "
             "elements of %zu bytes but the node element has %zu", 2 * sizeof(cp_real), sizeof(cp_real));
    ck_assert_rt_error(err_size, NULL, want);
    snprintf(want, sizeof want, "io.nn:5: run-time error: output assignment: the I/O area holds "
             "elements of 1 byte but the node element has %zu", sizeof(cp_real));
    ck_assert_rt_error(err_size_out, NULL, want);
}
END_TEST

static Suite *io_suite(void)
{
    Suite *s = suite_create("rt_io");
    TCase *tc = tcase_create("io");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_io_input_layout);
    tcase_add_test(tc, test_io_output_layout);
    tcase_add_test(tc, test_io_slice_and_clipping);
    tcase_add_test(tc, test_io_larger_area_is_fine);
    tcase_add_test(tc, test_io_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(io_suite());
}
