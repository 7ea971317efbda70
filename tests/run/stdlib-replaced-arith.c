/* stdlib-replaced-arith.c -- a sigmoid of the program's own that counts
   its calls (stdlib.md: "Replacing a function"). */
#include <stdatomic.h>

#include "cupit_rt.h"

static atomic_int calls;

cp_real sigmoid(cp_real x)
{
    atomic_fetch_add(&calls, 1);
    return x * 0.5f;
}

cp_int sigmoidCalls(void)
{
    return atomic_load(&calls);
}
