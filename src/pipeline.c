/* pipeline.c -- the analysed program to the loop IR (pipeline.h). */
#include <stdlib.h>

#include "cupitc/lower_ir.h"
#include "cupitc/pipeline.h"

IrModule *pipeline_build(Program *prog, Arena *arena, const PipelineOptions *o)
{
    const PassOptions *po = &o->passes;
    LowerOptions lo = {
        .lanes = o->ir.lanes,
        /* the analyses the passes need */
        .fuse = po->on[PASS_FUSE] || po->on[PASS_SHARED] || po->on[PASS_MERGE_FIRST],
    };
    LowerPlan *plan = lower_program(prog, arena, &lo);
    Lw *lw;
    IrModule *m = lower_to_ir(prog, plan, &o->ir, &lw);
    if (lower_failed(lw) || !passes_run(m, lw, plan, po) || !lower_finish_ir(lw))
        return NULL;
    if (po->verify && ir_verify(m, "the lane record functions", stderr) != 0)
        return NULL;
    return m;
}

PipelineOptions pipeline_defaults(const char *source_name)
{
    PipelineOptions o = {
        .ir = {.check_index = true, .lanes = true, .builtins = true, .source_name = source_name},
    };
    for (int p = 0; p < PASS__COUNT; p++)
        o.passes.on[p] = true;
    o.passes.verify = getenv("CUPITC_VERIFY_IR") != NULL;
    return o;
}
