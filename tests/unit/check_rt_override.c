/* check_rt_override.c -- Check suite proving that standard library
 * functions are replaceable: this file defines its own sigmoid and pInt,
 * links against libcupitrt (which pulls in the library's versions of the
 * neighbouring functions) and must get its own definitions.
 */
#include "check_rt_support.h"
#include "../../runtime/cupit_stdlib.h"

#include <math.h>

/* A user's activation function: the logistic one. */
cp_real sigmoid(cp_real x)
{
    return 1.0f / (1.0f + expf(-x));
}

static int printed;

void pInt(cp_int me)
{
    printed = me;
}

START_TEST(test_override_user_definitions_win)
{
    ck_assert_float_eq(sigmoid(0), 0.5f);
    pInt(17);
    ck_assert_int_eq(printed, 17);
    /* The library's neighbours are still there. */
    ck_assert_float_eq(sigmoidPrime(0), 1);
    ck_assert_float_eq(absReal(-1), 1);
}
END_TEST

static Suite *override_suite(void)
{
    Suite *s = suite_create("rt_override");
    TCase *tc = tcase_create("weak");
    tcase_add_test(tc, test_override_user_definitions_win);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(override_suite());
}
