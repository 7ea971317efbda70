#include <stdint.h>
#include "cupit_rt.h"
/* an Opaque is a pointer: encode small integers */
void *mkp(cp_int k); cp_int getp(void *p); void setp(void **p, cp_int k);
void *mkp(cp_int k) { return (void *)(intptr_t)(k + 1); }
cp_int getp(void *p) { return (cp_int)((intptr_t)p - 1); }
void setp(void **p, cp_int k) { *p = mkp(k); }
