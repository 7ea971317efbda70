/* extnode.c -- EXTERNAL code of extnode.nn: a Unit record is its data
 * elements in definition order (docs/runtime-abi.md). */
#include <stdint.h>
#include <stdio.h>

typedef struct unit {
    float v;
    int32_t k;
    float w;
} unit;

void showUnit(const void *u)
{
    const unit *n = u;
    printf("unit k=%d v=%g w=%g\n", (int)n->k, (double)n->v, (double)n->w);
}

float weigh(const void *u)
{
    const unit *n = u;
    return n->v * 2.0f + (float)n->k;
}

void bumpUnit(void *u)
{
    unit *n = u;
    n->k += 1000;
}
