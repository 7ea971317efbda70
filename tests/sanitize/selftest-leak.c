/* selftest-leak.c -- EXTERNAL code for selftest-leak.nn: a heap block whose
   last pointer is dropped, the smallest definite leak. */
#include <stdlib.h>
#include <string.h>

#include "cupit_rt.h"

void loseMemory(cp_int bytes)
{
    char *volatile p = malloc((size_t)bytes);
    if (p)
        memset(p, 1, (size_t)bytes);
    p = NULL;
}
