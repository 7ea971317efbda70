/* lanes-compound-target-once.c -- EXTERNAL counter of
 * lanes-compound-target-once.nn. */
#include "cupit_rt.h"

cp_int tick(cp_int k);
cp_int count(void);

static cp_int calls;

cp_int tick(cp_int k)
{
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    return k;
}

cp_int count(void)
{
    cp_int c = calls;
    calls = 0;
    return c;
}
