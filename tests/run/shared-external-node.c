/* shared-external-node.c -- EXTERNAL code of shared-external-node.nn: an N
 * record is its data elements in definition order. */
#include <stdint.h>

typedef struct n {
    int32_t k;
    int32_t s;
} n;

void bumpN(void *u);

void bumpN(void *u)
{
    ((n *)u)->k += 1000;
}
