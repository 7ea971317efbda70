/* rterr-io-area-size.c -- EXTERNAL code of rterr-io-area-size.nn: an I/O
 * area of doubles, whatever Real is. */
#include <stdlib.h>

#include "cupit_rt.h"

void doubleArea(cp_io *a, cp_int count);

void doubleArea(cp_io *a, cp_int count)
{
    double *d = calloc((size_t)count, sizeof *d);
    if (!d)
        abort();
    a->data = d;
    a->count = count;
    a->elem_size = sizeof *d;
    a->per_rep = 0;
}
