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
    const char *c_file;     /* the generated C file; NULL: only link `extra` */
    const char *obj_file;   /* STAGE_LINK: where its object file goes */
    const char *output;     /* executable or object file (a temporary name) */
    const char *final_output; /* the name the user gave, for messages */
    const char *source_name;  /* the .nn file, for messages */
    ToolStage stage;
    const char *opt_level;  /* "-O2" etc. */
    bool debug;             /* -g */
    bool openmp;            /* -fopenmp (default on) */
    bool portable;          /* --portable: no -march=native */
    bool verbose;           /* print the command */
    const char **extra;     /* user .c/.o files, -l, -L, -Xcc flags */
    int nextra;
    bool user_files;        /* extra holds user C or object files */
} ToolOptions;

/* Locates the runtime; returns false with a message printed if missing. */
bool tool_find_runtime(const char *argv0, char **lib_dir, char **inc_dir);

enum { TOOL_MAX_UNDEFINED = 64 };

typedef struct ToolResult {
    bool ok;
    enum {
        TOOL_FAILED_NONE,
        TOOL_FAILED_COMPILE, /* the generated C did not compile */
        TOOL_FAILED_LINK,    /* linking the program failed */
        TOOL_FAILED_USER,    /* compiling the user's C files or linking failed */
    } failed;
    char *undefined[TOOL_MAX_UNDEFINED]; /* symbols the linker did not find */
    int nundefined;
} ToolResult;

/* Runs $CC (default "cc"; split at blanks into a command and its arguments,
 * as make does) twice: on the generated C alone (-c), then, for an
 * executable, to link it with the user's files and the runtime.  A failure
 * prints what failed with the command: an internal error for generated C
 * the C compiler reports errors in (unless -Xcc options were given), an
 * error for a link that fails, and plain errors for a C compiler that
 * cannot be run, is ended by a signal, reports an internal compiler error
 * or runs out of resources, or fails without a message. */
ToolResult tool_compile(const ToolOptions *opts, const char *lib_dir, const char *inc_dir);
void tool_result_free(ToolResult *r);

#endif
