/* selftest-overflow.c -- EXTERNAL code for selftest-overflow.nn: reads the
   element just past the end of a heap array (a heap-buffer-overflow). */
#include <stdlib.h>

#include "cupit_rt.h"

cp_int readPastEnd(cp_int n)
{
    cp_int *a = calloc((size_t)n, sizeof *a);
    if (!a)
        return -1;
    volatile cp_int i = n;
    cp_int v = a[i];
    free(a);
    return v;
}
