/* external-names.c -- EXTERNAL code of external-names.nn: functions named
 * like locals of the generated C. */
#include "cupit_rt.h"

cp_int k(cp_int x);
cp_int l(cp_int x);
cp_int rep(cp_int x);
cp_int blk(cp_int x);
void me(cp_int *x);

cp_int k(cp_int x) { return x; }
cp_int l(cp_int x) { return 10 * x; }
cp_int rep(cp_int x) { return 100 * x; }
cp_int blk(cp_int x) { return 1000 * x; }
void me(cp_int *x) { *x += 1; }
