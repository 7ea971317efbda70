/* stdlib_math.c -- the arithmetic EXTERNAL functions of the standard library.
 *
 * The activation function is tanh, onto (-1, 1): the report's examples and
 * xor.data use -1/+1 values, which a logistic function could never reach.
 * sigmoidPrime is the derivative at the net input x: 1 - tanh(x)^2.  The
 * bodies are the inline functions of cupit_rt.h, which compiled programs
 * call directly (builtins), so both give the same results.
 */
#include "cupit_stdlib.h"


#define RT_WEAK __attribute__((weak))

RT_WEAK cp_real sigmoid(cp_real x) { return rt_sigmoid(x); }
RT_WEAK cp_real sigmoidPrime(cp_real x) { return rt_sigmoid_prime(x); }
RT_WEAK cp_real absReal(cp_real x) { return rt_abs_real(x); }
RT_WEAK cp_real signReal(cp_real x) { return rt_sign_real(x); }
RT_WEAK cp_real minReal(cp_real x, cp_real y) { return rt_min_real(x, y); }
RT_WEAK cp_real maxReal(cp_real x, cp_real y) { return rt_max_real(x, y); }
