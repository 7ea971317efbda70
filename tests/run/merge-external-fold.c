/* merge-external-fold.c -- EXTERNAL code of merge-external-fold.nn: counts
 * the runs of the MERGE procedures of each level. */
#include <stdio.h>

#include "cupit_rt.h"

void count(cp_int level);
void counts(void);

static int runs[3];

void count(cp_int level)
{
__atomic_fetch_add(&runs[level], 1, __ATOMIC_RELAXED);
}

void counts(void)
{
    printf("merges: network %d, node %d, connection %d\n", runs[0], runs[1], runs[2]);
    runs[0] = runs[1] = runs[2] = 0;
}
