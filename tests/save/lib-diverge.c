/* lib-diverge.c -- calls lib-diverge.nn's procedures in an order no CuPit
 * program has: perturb, which `program` never calls, between two shows. */
#include "cupit_embed.h"

int main(int argc, char **argv)
{
    cupit_init(argc, argv);
    cupit_call("setup");
    cupit_call("show");
    cupit_call("perturb");
    cupit_call("show");
    return cupit_finish();
}
