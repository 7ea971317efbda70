/* extnodearray.c -- EXTERNAL code of extnodearray.nn: a node array is the
 * address of its node records in order (docs/runtime-abi.md). */
#include <stdint.h>
#include <stdio.h>

typedef struct unit {
    float v;
    int32_t k;
} unit;

void showRow(const void *r)
{
    const unit *u = r;
    for (int i = 0; i < 3; i++)
        printf("%s%d:%g", i ? " " : "", (int)u[i].k, (double)u[i].v);
    printf("\n");
}
