/* rt_arith.c -- the checked arithmetic that is too long to inline.
 *
 * `**` for the three operand combinations of semantics.md section 9, with
 * the run-time errors of section 10.3 item 4 (Int overflow, negative
 * integral exponent, negative Real base with a Real exponent).
 */
#include "rt_internal.h"

#include <inttypes.h>
#include <math.h>

cp_int rt_ipow(rt_srcpos where, int64_t a, int64_t b)
{
    if (b < 0)
        rt_error(where, "negative exponent %" PRId64 " in integer **", b);
    if (b == 0)
        return 1;
    if (a == 0 || a == 1)
        return (cp_int)a;
    if (a == -1)
        return (b % 2) ? -1 : 1;
    /* |a| >= 2, so any b > 31 overflows; the loop stops there at the latest. */
    int64_t r = 1;
    for (int64_t i = 0; i < b; i++) {
        r *= a;
        if (r > INT32_MAX || r < INT32_MIN)
            rt_error(where, "integer overflow in %" PRId64 " ** %" PRId64, a, b);
    }
    return (cp_int)r;
}

cp_real rt_rpow_int(cp_real a, int64_t b)
{
    double base = a, r = 1.0;
    uint64_t e = b < 0 ? (uint64_t)(-(b + 1)) + 1 : (uint64_t)b;
    while (e) {
        if (e & 1)
            r *= base;
        base *= base;
        e >>= 1;
    }
    return (cp_real)(b < 0 ? 1.0 / r : r);
}

cp_real rt_rpow(rt_srcpos where, cp_real a, cp_real b)
{
    if (a < 0)
        rt_error(where, "negative base %g with a Real exponent in **",
                 (double)a);
    if (b == 0)
        return 1;
    return (cp_real)pow(a, b);
}
