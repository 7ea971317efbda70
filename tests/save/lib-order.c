/* lib-order.c -- calls lib-order.nn's procedures in an order no CuPit
 * program has: setup (which replicates the network), then program. */
#include "cupit_embed.h"

int main(int argc, char **argv)
{
    cupit_init(argc, argv);
    cupit_call("setup");
    cupit_call("program");
    return cupit_finish();
}
