/* pipeline.h -- from the analysed program to the loop IR, passes included.
 *
 * The driver, the fuzzing harness and the unit tests build the IR the same
 * way: the network shapes and the analyses (lower.h), the lowering
 * (lower_ir.h), the passes (passes.h), the functions and tables that
 * follow from the final layouts, and the verifier where asked. */
#ifndef CUPITC_PIPELINE_H
#define CUPITC_PIPELINE_H

#include "cupitc/emit.h"
#include "cupitc/ir.h"
#include "cupitc/passes.h"

typedef struct PipelineOptions {
    IrOptions ir;
    PassOptions passes;
} PipelineOptions;

/* The program on its way to C: the module after the whole-program passes,
 * and what builds the streamed functions' bodies when they are printed
 * (lowered, run through the passes that work within a function, verified,
 * printed, freed), so that the compiler's memory does not grow with them. */
typedef struct Pipeline Pipeline;

/* The pipeline of prog (analysed without errors), or NULL after reporting
 * why (a construct cupitc cannot translate, or a verifier fault). */
Pipeline *pipeline_build(Program *prog, Arena *arena, const PipelineOptions *o);
IrModule *pipeline_module(Pipeline *p);
/* The C of the program into out / the IR dump into f; false after a
 * reported failure. */
bool pipeline_print(Pipeline *p, Emitter *out);
bool pipeline_dump(Pipeline *p, FILE *f);
/* Builds (and frees again) the bodies that are built only when printed,
 * running their passes, for --dump-passes: their lines come after the
 * whole-module passes'.  Returns false if the verifier found a fault. */
bool pipeline_run_streamed(Pipeline *p);
void pipeline_free(Pipeline *p);

/* Options as the driver's defaults give them: every pass on, lane blocks
 * on, checks on, no #line. */
PipelineOptions pipeline_defaults(const char *source_name);

#endif
