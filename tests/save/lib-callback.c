/* lib-callback.c -- the host of lib-callback.nn: EXTERNAL procedures that
 * call the program's entry points back through cupit_call. */
#include "cupit_embed.h"

void hook(const char *entry);
cp_int hookf(const char *entry);

void hook(const char *entry) { cupit_call(entry); }
cp_int hookf(const char *entry) { return cupit_call(entry); }

int main(int argc, char **argv)
{
    (void)argc;
    cupit_init(1, argv);
    cupit_call("program");
    return cupit_finish();
}
