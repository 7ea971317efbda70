/* passes.h -- the optimisations of the loop IR, as IR-to-IR passes.
 *
 * Each pass rewrites the module where it can prove what it needs and
 * leaves the IR as it is where it cannot; each can be turned off on its
 * own (-fno-NAME) and all are off with -O0.  With verification on
 * (--verify-ir, or CUPITC_VERIFY_IR=1 as the test suites set it) the
 * verifier checks the module after lowering and after every pass.
 * docs/ir.md describes each pass. */
#ifndef CUPITC_PASSES_H
#define CUPITC_PASSES_H

#include <stdbool.h>
#include <stdio.h>

#include "cupitc/ir.h"
#include "cupitc/lower.h"
#include "cupitc/lower_ir.h"

/* ORDER PASS: the pipeline's order; keep pass_table[] in passes.c in sync. */
typedef enum PassId {
    PASS_DCE,          /* functions nothing calls are removed */
    PASS_FUSE,         /* transport-then-reduce fusion: connection values
                          recomputed from the sender's arguments, their
                          stores left out */
    PASS_SHARED,       /* elements every replicate holds equal: once per lane block */
    PASS_MERGE_FIRST,  /* calls after MERGE that every replicate computes alike
                          run on one lane block */
    PASS_BATCH,        /* I/O into the replicates moved block by block inside
                          the call that follows */
    PASS_REP_STATE,    /* calls on a network known to be unreplicated keep
                          only their plain path */
    PASS_VSUM,         /* sum reductions in vector registers */
    PASS_DENSE,        /* dense bundles as matrix kernels */
    PASS_DROP_FIELDS,  /* lane-record fields no code names are left out */
    PASS_CONST_BRANCH, /* an IF on Bool or integral CONST parameters that every
                          call of a lane version fixes: only the branch taken
                          (decided while lowering, from the transport analysis) */
    PASS__COUNT
} PassId;

typedef struct PassOptions {
    bool on[PASS__COUNT];
    bool verify;       /* the verifier after lowering and every pass */
    FILE *trace;       /* --dump-passes: what each pass changed, or NULL */
} PassOptions;

const char *pass_name(PassId id);
/* The pass named `name` (as in -fno-NAME), or -1. */
int pass_by_name(const char *name);

/* Runs the enabled passes in order on the functions whose bodies are
 * built.  Returns false if the verifier found a fault (reported on stderr
 * as an internal error). */
bool passes_run(IrModule *m, Lw *lw, LowerPlan *plan, const PassOptions *opts);
/* The passes that work within one function, on a streamed function's body
 * just built; v (may be NULL) verifies it after each. */
bool passes_run_streamed(IrModule *m, Lw *lw, LowerPlan *plan, const PassOptions *opts, IrFunc *f,
                         IrVerifier *v);

#endif
