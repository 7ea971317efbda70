/* lib-calls.c -- the host of lib-calls.nn: argv[1] names the order in
 * which it calls the entry points of cupit_embed.h.  Each wrong order is
 * a run-time error that names it (exit status 3), not a crash; cupit_io
 * returns NULL for a NULL or unknown name. */
#include <stdio.h>
#include <string.h>

#include "cupit_embed.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    char *args[] = { argv[0], NULL };
    if (strcmp(mode, "call-first") == 0)
        return cupit_call("step");
    if (strcmp(mode, "finish-first") == 0 && cupit_finish() != 0)
        return 1;
    cupit_init(1, args);
    if (strcmp(mode, "init-twice") == 0)
        cupit_init(1, args);
    cupit_call("step");
    if (strcmp(mode, "io-names") == 0 &&
        (cupit_io(NULL) != NULL || cupit_io("nothing") != NULL || cupit_io("xs") == NULL))
        return 1;
    int st = cupit_finish();
    if (strcmp(mode, "finish-twice") == 0)
        st |= cupit_finish();
    if (strcmp(mode, "call-after") == 0)
        cupit_call("step");
    if (strcmp(mode, "init-after") == 0)
        cupit_init(1, args);
    return st;
}
