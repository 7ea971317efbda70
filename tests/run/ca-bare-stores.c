/* ca-bare-stores.c -- EXTERNAL subroutines of ca-bare-stores.nn (C ABI of
 * docs/runtime-abi.md section 6). */
#include "cupit_rt.h"

typedef struct U { cp_int a; cp_int q[3]; } U; /* TYPE U IS NODE Int a; Ar q; */

void setn(U *n) { n->a = 40; n->q[2] = 41; }
void bump(cp_int *x) { *x += 100; }
