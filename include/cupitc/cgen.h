/* cgen.h -- lowering of an analysed CuPit program to C with OpenMP.
 *
 * The input is the tree annotated by sema_analyze(); the output is one C
 * translation unit that includes cupit_rt.h and links against libcupitrt.
 * The same input always gives byte-identical C. */
#ifndef CUPITC_CGEN_H
#define CUPITC_CGEN_H

#include <stdbool.h>

#include "cupitc/ast.h"
#include "cupitc/emit.h"
#include "cupitc/lower.h"

typedef struct CgOptions {
    bool line_directives; /* #line "file.nn" per statement (--no-line: off) */
    bool check_index;     /* subscripts checked against their range */
    bool check_overflow;  /* integer overflow is a run-time error (else wraps) */
    const char *source_name; /* file name used in #line and error messages */
    bool lanes;           /* replicated networks run in lane blocks (SIMD) */
    bool builtins;        /* call the standard library's arithmetic inline */
    bool library;         /* --library: the API of cupit_embed.h instead of main */
} CgOptions;

/* Emits the program into `out`, with the shapes and lane plan of the
 * lowering pass.  Returns false after reporting a diagnostic for a
 * construct the generator cannot translate. */
bool cg_generate(Program *prog, LowerPlan *plan, const CgOptions *opts, Emitter *out);

#endif
