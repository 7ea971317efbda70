/* lanes-node-ternary.c -- EXTERNAL code of lanes-node-ternary.nn: a node
 * as its plain record (docs/runtime-abi.md). */
#include "cupit_rt.h"

typedef struct unit {
    cp_int k;
    cp_int a[2];
} unit;

cp_int code(const unit *u);

cp_int code(const unit *u)
{
    return u->k * 100 + u->a[1];
}
