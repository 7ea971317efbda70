/* rt_error.c -- run-time errors of generated programs.
 *
 * Every detected run-time error prints one line
 *   file.nn:line: run-time error: message
 * on stderr and ends the program with exit status 3.  The first error wins:
 * other threads that fail at the same time, or reach --max-epochs, wait
 * until the process is gone (rt_claim_exit).
 */
#include "rt_internal.h"

#include <inttypes.h>
#include <omp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The Real marker of this build (see cupit_rt.h). */
#ifdef CUPIT_REAL_DOUBLE
const char rt_abi_real_double = 'd';
#else
const char rt_abi_real_float = 'f';
#endif

static atomic_flag exit_claimed = ATOMIC_FLAG_INIT;
static _Thread_local bool exit_claimed_here;

void rt_claim_exit(void)
{
    if (exit_claimed_here)
        return;
    if (atomic_flag_test_and_set(&exit_claimed)) {
        /* Another thread is ending the process (with an error, or at
           --max-epochs); its message and status are the ones that count. */
        for (;;)
            pause();
    }
    exit_claimed_here = true;
}

_Noreturn void rt_error(rt_srcpos where, const char *fmt, ...)
{
    rt_claim_exit();
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    /* In pieces with fputs: fprintf on the unbuffered stderr takes a
     * buffer of 8 KB on the stack, more than the room a thread with a small
     * stack has left when the recursion check (rt_stack.c) reports. */
    char line[24] = "";
    if (where.file)
        snprintf(line, sizeof line, ":%" PRId32, where.line);
    fputs(where.file ? where.file : rt_opt.program ? rt_opt.program : "cupit", stderr);
    fputs(line, stderr);
    fputs(": run-time error: ", stderr);
    fputs(msg, stderr);
    fputs("\n", stderr);
    fflush(stderr);
    /* exit() from inside a team would run atexit handlers while other
     * threads still use the data they release. */
    if (omp_in_parallel())
        _exit(RT_EXIT_RUNTIME);
    exit(RT_EXIT_RUNTIME);
}

static _Thread_local rt_srcpos lib_pos;

rt_srcpos rt_lib_at(rt_srcpos where)
{
    rt_srcpos old = lib_pos;
    lib_pos = where;
    return old;
}

void rt_lib_done(rt_srcpos saved)
{
    lib_pos = saved;
}

rt_srcpos rt_lib_where(void)
{
    return lib_pos;
}

_Noreturn void rt_out_of_memory(rt_srcpos where, size_t bytes)
{
    rt_error(where, "out of memory (allocating %zu bytes, %zu in use)", bytes,
             rt_bytes_in_use());
}

_Noreturn void rt_div_by_zero(rt_srcpos where)
{
    rt_error(where, "division by zero");
}

_Noreturn void rt_index_error(rt_srcpos where, const char *what, int64_t index,
                              int64_t size)
{
    if (size <= 0)
        rt_error(where, "%s index %" PRId64 " out of range (it is empty)",
                 what, index);
    /* `net[2]` of a network that was never replicated: say how to get
       more replicates */
    size_t n = strlen(what);
    if (size == 1 && n >= 9 && strcmp(what + n - 9, "replicate") == 0) {
        /* replicated with one replicate (INTO 1...1, or an interval the
           run time chose 1 from): REPLICATE INTO n would be an error */
        const rt_net *net = n > 10 ? rt_net_named(what, n - 10) : NULL;
        if (net && net->replicated)
            rt_error(where, "%s index %" PRId64 " out of range 0...0 (%.*s is replicated "
                     "with one replicate)", what, index, (int)(n - 10), what);
        if (n > 10)
            rt_error(where, "%s index %" PRId64 " out of range 0...0 (%.*s has one "
                     "replicate; REPLICATE %.*s INTO n makes n)", what, index,
                     (int)(n - 10), what, (int)(n - 10), what);
        rt_error(where, "%s index %" PRId64 " out of range 0...0 (the network has one "
                 "replicate; REPLICATE it INTO n makes n)", what, index);
    }
    rt_error(where, "%s index %" PRId64 " out of range 0...%" PRId64, what,
             index, size - 1);
}
