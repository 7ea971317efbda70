/* cupit_embed.h -- a compiled CuPit program used from C.
 *
 * `cupitc --library prog.nn -o prog.o` compiles the program without a
 * main function and with these four instead; link prog.o with the C code
 * and the runtime (pkg-config cupit).  The program's global procedures
 * without parameters are its entry points, its global I/O areas the way
 * data goes in and out (docs/runtime-abi.md §5: a Real area holds
 * replicate r's value i at ((cp_real *)area->data)[r * per_rep + i]).
 *
 *   cupit_init (argc, argv);           program options: --data, --seed, ...
 *   cupit_call ("restore");            e.g. loadNetworks ("trained")
 *   cp_io *in = cupit_io ("xIn");      filled by C after the program
 *                                      allocated it (initIOareaxR)
 *   cupit_call ("predict");
 *   return cupit_finish ();
 *
 * A run-time error of the program ends the process, as in a program of
 * its own.  So does a call out of order: cupit_call before cupit_init or
 * after cupit_finish, and a second cupit_init (a program runs once per
 * process).  cupit_finish when the program is not running does nothing
 * and returns 0.  cupit_init with --help prints the usage and ends the
 * process with status 0, with a bad option or environment value with
 * status 2, as the program's own main would; and protocolError, once it
 * has reported the epoch --max-epochs names, ends it inside cupit_call
 * with status 0 (running.md).
 *
 * The program's state is global: one --library object per host (a
 * second defines these four functions again, and the link fails), and
 * one host thread at a time may be inside these functions; which thread
 * does not matter (each gets its own stack check, runtime-abi.md §7).
 * EXTERNAL code that the program's global subroutines call may call
 * cupit_call again (a procedure it runs may replicate the networks);
 * EXTERNAL code called from object subroutines, REDUCTION, WTA or MERGE
 * code runs inside a network call, possibly in several threads at once
 * (runtime-abi.md §6), and must not. */
#ifndef CUPIT_EMBED_H
#define CUPIT_EMBED_H

#include "cupit_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options as a generated program takes them; creates the global objects
 * and networks.  Returns 0. */
int cupit_init(int argc, char **argv);
/* Runs the global procedure `name` (one without parameters); 0, or -1 if
 * the program has no such procedure. */
int cupit_call(const char *name);
/* The global I/O area `name`, or NULL (also for a NULL name). */
cp_io *cupit_io(const char *name);
/* Releases everything; returns the exit status a program would have. */
int cupit_finish(void);

#ifdef __cplusplus
}
#endif
#endif
