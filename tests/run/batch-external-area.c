/* batch-external-area.c -- EXTERNAL code of batch-external-area.nn:
 * fillArea keeps the area, clearArea clears it (every replicate's call
 * does, possibly in several threads at once: atomic stores). */
#include <stdint.h>

#include "cupit_rt.h"

void fillArea(cp_io *x);
void clearArea(void);

static cp_io *kept;

void fillArea(cp_io *x)
{
    kept = x;
    for (int i = 0; i < x->count; i++)
        ((cp_real *)x->data)[i] = (cp_real)(i + 1);
}

void clearArea(void)
{
    for (int i = 0; i < kept->count; i++)
        __atomic_store_n(&((uint32_t *)kept->data)[i], 0u, __ATOMIC_RELAXED); /* 0.0f */
}
