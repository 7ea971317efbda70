/* stdlib_math.c -- the arithmetic EXTERNAL functions of the standard library.
 *
 * The activation function is tanh, onto (-1, 1): the report's examples and
 * xor.data use -1/+1 values, which a logistic function could never reach.
 * sigmoidPrime is the derivative at the net input x: 1 - tanh(x)^2.
 */
#include "cupit_stdlib.h"

#include <math.h>

#define RT_WEAK __attribute__((weak))

RT_WEAK cp_real sigmoid(cp_real x)
{
    return (cp_real)tanh(x);
}

RT_WEAK cp_real sigmoidPrime(cp_real x)
{
    double t = tanh(x);
    return (cp_real)(1.0 - t * t);
}

RT_WEAK cp_real absReal(cp_real x)
{
    return x < 0 ? -x : x;
}

/* signReal(0) is 0: RPROP must make no step for a zero gradient. */
RT_WEAK cp_real signReal(cp_real x)
{
    return x > 0 ? 1 : x < 0 ? -1 : 0;
}

RT_WEAK cp_real minReal(cp_real x, cp_real y)
{
    return x < y ? x : y;
}

RT_WEAK cp_real maxReal(cp_real x, cp_real y)
{
    return x > y ? x : y;
}
