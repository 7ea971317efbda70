/* replicate.c -- EXTERNAL helpers for batch.nn: I/O areas. */
#include <stdlib.h>

#include "cupit_rt.h"

/* Allocates reps * per values: element r * per + k is 10 * r + k. */
void fillArea(cp_io *a, cp_int reps, cp_int per)
{
    cp_real *v = malloc(sizeof(cp_real) * (size_t)(reps * per));
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < per; k++)
            v[r * per + k] = (cp_real)(10 * r + k);
    a->data = v;
    a->count = reps * per;
    a->elem_size = sizeof(cp_real);
    a->per_rep = per;
}

void makeArea(cp_io *a, cp_int n)
{
    a->data = calloc((size_t)n, sizeof(cp_real));
    a->count = n;
    a->elem_size = sizeof(cp_real);
    a->per_rep = 0;
}

cp_real areaAt(cp_io *a, cp_int i)
{
    return ((cp_real *)a->data)[i];
}

void freeArea(cp_io *a)
{
    free(a->data);
    a->data = NULL;
    a->count = 0;
}
