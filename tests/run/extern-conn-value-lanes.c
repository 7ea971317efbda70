/* the connection record: its data elements as a C struct in order */
#include "cupit_rt.h"
typedef struct { cp_int w, v; } Cx;
cp_int cval(const void *c);
cp_int cval(const void *c) { const Cx *x = c; return x->w * 100 + x->v; }
