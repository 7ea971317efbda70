/* pipeline.h -- from the analysed program to the loop IR, passes included.
 *
 * The driver, the fuzzing harness and the unit tests build the IR the same
 * way: the network shapes and the analyses (lower.h), the lowering
 * (lower_ir.h), the passes (passes.h), the functions and tables that
 * follow from the final layouts, and the verifier where asked. */
#ifndef CUPITC_PIPELINE_H
#define CUPITC_PIPELINE_H

#include "cupitc/ir.h"
#include "cupitc/passes.h"

typedef struct PipelineOptions {
    IrOptions ir;
    PassOptions passes;
} PipelineOptions;

/* The IR of prog (analysed without errors), or NULL after reporting why
 * (a construct cupitc cannot translate, or a verifier fault). */
IrModule *pipeline_build(Program *prog, Arena *arena, const PipelineOptions *o);

/* Options as the driver's defaults give them: every pass on, lane blocks
 * on, checks on, no #line. */
PipelineOptions pipeline_defaults(const char *source_name);

#endif
