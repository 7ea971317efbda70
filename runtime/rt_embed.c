/* rt_embed.c -- the state of a program compiled with --library
 * (cupit_embed.h).  The generated cupit_init, cupit_call and cupit_finish
 * ask here, so that a host that calls them in another order gets a
 * run-time error that says so instead of running the program's code on
 * networks that do not exist (before cupit_init, after cupit_finish) or
 * creating the networks a second time over the first ones. */
#include "rt_internal.h"

static enum { EMBED_NEW, EMBED_RUNNING, EMBED_FINISHED } embed_state;

void rt_embed_start(void)
{
    if (embed_state == EMBED_RUNNING)
        rt_error(RT_NOWHERE, "cupit_init: the program is already initialized "
                 "(cupit_finish ends it)");
    if (embed_state == EMBED_FINISHED)
        rt_error(RT_NOWHERE, "cupit_init: the program cannot be started again after "
                 "cupit_finish");
    embed_state = EMBED_RUNNING;
}

void rt_embed_check_call(const char *name)
{
    if (!name)
        rt_error(RT_NOWHERE, "cupit_call: the procedure name is NULL");
    if (embed_state != EMBED_RUNNING)
        rt_error(RT_NOWHERE, "cupit_call (\"%s\"): %s", name,
                 embed_state == EMBED_NEW ? "called before cupit_init"
                                          : "called after cupit_finish");
}

bool rt_embed_stop(void)
{
    if (embed_state != EMBED_RUNNING)
        return false;
    embed_state = EMBED_FINISHED;
    return true;
}
