/* external.c -- EXTERNAL subroutines of external.nn, written against the C
 * ABI of docs/runtime-abi.md section 6. */
#include <stdio.h>
#include <string.h>

#include "cupit_rt.h"

typedef struct Pt { cp_real x, y; } Pt;   /* TYPE Pt IS RECORD Real x, y; */

cp_real dot(const Pt *a, const Pt *b) { return a->x * b->x + a->y * b->y; }
void scale(Pt *p, cp_real f) { p->x *= f; p->y *= f; }
cp_real total(const cp_real *v) { return v[0] + v[1] + v[2]; } /* ARRAY 3 OF Real */
cp_int count(const char *s, cp_bool upper) { return (cp_int)strlen(s) * (upper ? 2 : 1); }
void bump(cp_int *n, cp_int1 by) { *n += by; }
cp_int1 small(cp_int x) { return (cp_int1)(x % 100); }
