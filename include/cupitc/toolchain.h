/* toolchain.h -- running the system C compiler on generated C.
 *
 * cupitc finds its runtime (libcupitrt.a and cupit_rt.h) relative to its own
 * executable: <bindir>/../lib/cupit and <bindir>/../include/cupit, which holds
 * both in the build tree and after `make install`. */
#ifndef CUPITC_TOOLCHAIN_H
#define CUPITC_TOOLCHAIN_H

#include <stdbool.h>

typedef enum ToolStage {
    STAGE_LINK,   /* produce an executable */
    STAGE_OBJECT, /* -c: stop at the object file */
} ToolStage;

typedef struct ToolOptions {
    const char *c_file;     /* the generated C file */
    const char *output;     /* executable or object file */
    ToolStage stage;
    const char *opt_level;  /* "-O2" etc. */
    bool debug;             /* -g */
    bool openmp;            /* -fopenmp (default on) */
    bool verbose;           /* print the command */
    const char **extra;     /* user .c/.o files, -l, -L, -Xcc flags */
    int nextra;
    bool user_files;        /* extra holds user C or object files */
} ToolOptions;

/* Locates the runtime; returns false with a message printed if missing. */
bool tool_find_runtime(const char *argv0, char **lib_dir, char **inc_dir);

/* Runs $CC (default "cc").  A failure prints an internal error that shows
 * the command, and returns false. */
bool tool_compile(const ToolOptions *opts, const char *lib_dir, const char *inc_dir);

#endif
