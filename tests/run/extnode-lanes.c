/* extnode-lanes.c -- EXTERNAL code of extnode-lanes.nn: a Unit record is
 * its data elements in definition order (docs/runtime-abi.md). */
#include <stdint.h>
#include <stdio.h>

typedef struct unit {
    float v;
    int32_t k;
} unit;

void showUnit(const void *u)
{
    const unit *n = u;
    printf("unit k=%d v=%g\n", (int)n->k, (double)n->v);
}

void bumpUnit(void *u)
{
    unit *n = u;
    n->k += 1000;
}
