/* output.h -- the driver's output files, written so that nothing of the
 * user's is lost.
 *
 * An output path is checked before any work (not an input, not a
 * directory, in a folder that exists); every output is first written to a
 * temporary file beside it and renamed into place only when complete, and
 * temporary files are removed on an error or a fatal signal. */
#ifndef CUPITC_OUTPUT_H
#define CUPITC_OUTPUT_H

#include <stdbool.h>
#include <sys/types.h>

/* Reports (cupitc: error: ...) and returns false if `output` cannot be
 * written or names one of the n `inputs` (also through links). */
bool out_check_path(const char *output, const char *const *inputs, int n);

/* Creates an empty temporary file for `output` in the same folder (or, for
 * output NULL, in $TMPDIR with `suffix`) and registers it for removal;
 * returns its path (free with out_discard or out_commit) or NULL with a
 * message printed.  An output that exists and is neither a regular file nor
 * a folder (a device such as /dev/null, a pipe) is written in place: the
 * "temporary" path is the output itself, and commit and discard leave it. */
char *out_temp(const char *output, const char *suffix);

/* Whether out_temp gave the output itself (a device or pipe). */
bool out_is_direct(const char *temp);

/* Renames the temporary file onto output; false with a message printed.
 * Either way temp is freed (and, on failure, removed). */
bool out_commit(char *temp, const char *output);

/* Removes the temporary file (if it still exists) and forgets it. */
void out_discard(char *temp);

/* Whether files a and b both exist and have the same contents (an output
 * that would not change is left alone). */
bool out_same_files(const char *a, const char *b);

/* Copies the file at path to standard output (-o -) and flushes it; false
 * with a message printed when it cannot be read or written. */
bool out_copy_to_stdout(const char *path);

/* Installs handlers for the signals that end a process (SIGINT, SIGTERM,
 * SIGHUP, SIGPIPE, ...) that remove the registered temporary files before
 * the signal ends cupitc. */
void out_install_signal_cleanup(void);

/* Registers the running C compiler (pid 0: none): such a signal is passed
 * on to it, and cupitc waits for it to end before removing its files. */
void out_set_child(pid_t pid);

#endif
