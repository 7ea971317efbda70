/* shared-varying-reduction.c -- EXTERNAL code of shared-varying-reduction.nn:
 * a counter, 0, 1, 2, ... (atomic: replicates may call it in parallel). */
#include <stdint.h>

int32_t tick(void);

int32_t tick(void)
{
    static int32_t n;
    return __atomic_fetch_add(&n, 1, __ATOMIC_RELAXED);
}
