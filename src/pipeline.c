/* pipeline.c -- the analysed program to the loop IR and on to C
 * (pipeline.h). */
#include <stdlib.h>

#include "cupitc/lower_ir.h"
#include "cupitc/pipeline.h"
#include "cupitc/print_c.h"

struct Pipeline {
    IrModule *m;
    Lw *lw;
    LowerPlan *plan;
    PipelineOptions o;
    Arena *scratch;      /* the streamed function being printed */
    Arena *saved;        /* the module's arena meanwhile */
    IrVerifier *verifier;
};

Pipeline *pipeline_build(Program *prog, Arena *arena, const PipelineOptions *o)
{
    const PassOptions *po = &o->passes;
    LowerOptions lo = {
        .lanes = o->ir.lanes,
        /* the analyses the passes need */
        .fuse = po->on[PASS_FUSE] || po->on[PASS_SHARED] || po->on[PASS_MERGE_FIRST] ||
                po->on[PASS_CONST_BRANCH],
        .const_branch = po->on[PASS_CONST_BRANCH],
        .library = o->ir.library,
        .arithmetic_pure = o->ir.builtins,
    };
    Pipeline *p = calloc(1, sizeof *p);
    if (!p) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    p->o = *o;
    p->plan = lower_program(prog, arena, &lo);
    p->m = lower_to_ir(prog, p->plan, &o->ir, &p->lw);
    if (lower_failed(p->lw) || !passes_run(p->m, p->lw, p->plan, po) || !lower_finish_ir(p->lw) ||
        (po->verify && ir_verify(p->m, "the lane record functions", stderr) != 0)) {
        free(p);
        return NULL;
    }
    p->scratch = arena_new();
    if (po->verify)
        p->verifier = ir_verifier_new(p->m, stderr);
    return p;
}

IrModule *pipeline_module(Pipeline *p)
{
    return p->m;
}

static bool build(IrFunc *f, void *data)
{
    Pipeline *p = data;
    p->saved = p->m->arena;
    p->m->arena = p->scratch;
    return lower_stream_body(p->lw, f) &&
           passes_run_streamed(p->m, p->lw, p->plan, &p->o.passes, f, p->verifier);
}

static void release(IrFunc *f, void *data)
{
    Pipeline *p = data;
    f->body = NULL;
    arena_reset(p->scratch);
    p->m->arena = p->saved;
}

bool pipeline_print(Pipeline *p, Emitter *out)
{
    IrBodyHooks h = {build, release, p};
    return print_c_module(p->m, out, &h);
}

bool pipeline_dump(Pipeline *p, FILE *f)
{
    IrBodyHooks h = {build, release, p};
    return ir_dump(p->m, f, &h);
}

bool pipeline_run_streamed(Pipeline *p)
{
    for (int i = 0; i < p->m->funcs.len; i++) {
        IrFunc *f = VEC_AT(p->m->funcs, i, IrFunc);
        if (f->body || !f->streamed)
            continue;
        bool ok = build(f, p);
        release(f, p);
        if (!ok)
            return false;
    }
    return true;
}

void pipeline_free(Pipeline *p)
{
    if (!p)
        return;
    ir_verifier_free(p->verifier);
    arena_free(p->scratch);
    free(p);
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
