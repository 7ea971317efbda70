/* passes.c -- the pipeline of IR passes, in the order of PassId. */
#include <string.h>

#include "passes_internal.h"

/* ORDER PASS.  A pass works on the whole module (run), or within one
 * function at a time (run_fn: also on the functions whose bodies are built
 * only when printed). */
static const struct {
    const char *name;
    void (*run)(PassCtx *c);
    void (*run_fn)(PassCtx *c, IrFunc *f);
} pass_table[PASS__COUNT] = {
    [PASS_DCE] = {"dce", pass_dce, NULL},
    [PASS_FUSE] = {"fuse", pass_fuse, NULL},
    [PASS_SHARED] = {"shared", pass_shared, NULL},
    [PASS_MERGE_FIRST] = {"merge-first", NULL, pass_merge_first},
    [PASS_BATCH] = {"batch", NULL, pass_batch},
    [PASS_REP_STATE] = {"rep-state", NULL, pass_rep_state},
    [PASS_VSUM] = {"vsum", pass_vsum, NULL},
    [PASS_DENSE] = {"dense", pass_dense, NULL},
    [PASS_DROP_FIELDS] = {"drop-fields", pass_drop_fields, NULL},
    /* lowering builds only the arm taken; the pass reports it */
    [PASS_CONST_BRANCH] = {"const-branch", NULL, pass_const_branch},
};

const char *pass_name(PassId id)
{
    return pass_table[id].name;
}

int pass_by_name(const char *name)
{
    for (int i = 0; i < PASS__COUNT; i++)
        if (strcmp(pass_table[i].name, name) == 0)
            return i;
    return -1;
}

static bool verify(const PassCtx *c, const PassOptions *o, const char *after)
{
    return !o->verify || ir_verify(c->m, after, stderr) == 0;
}

bool passes_run(IrModule *m, Lw *lw, LowerPlan *plan, const PassOptions *o)
{
    PassCtx c = {.m = m, .lw = lw, .plan = plan, .trace = o->trace};
    if (!verify(&c, o, "lowering"))
        return false;
    for (int i = 0; i < PASS__COUNT; i++) {
        if (!o->on[i])
            continue;
        if (pass_table[i].run)
            pass_table[i].run(&c);
        if (pass_table[i].run_fn)
            for (int k = 0; k < m->funcs.len; k++) {
                IrFunc *f = VEC_AT(m->funcs, k, IrFunc);
                if (f->body)
                    pass_table[i].run_fn(&c, f);
            }
        if (!verify(&c, o, pass_table[i].name))
            return false;
    }
    pass_drop_empty_shared(&c);
    return verify(&c, o, "the shared-record clean-up");
}

bool passes_run_streamed(IrModule *m, Lw *lw, LowerPlan *plan, const PassOptions *o, IrFunc *f,
                         IrVerifier *v)
{
    PassCtx c = {.m = m, .lw = lw, .plan = plan, .trace = o->trace};
    if (v && ir_verify_func(v, f, "lowering") != 0)
        return false;
    for (int i = 0; i < PASS__COUNT; i++) {
        if (!o->on[i] || !pass_table[i].run_fn)
            continue;
        pass_table[i].run_fn(&c, f);
        if (v && ir_verify_func(v, f, pass_table[i].name) != 0)
            return false;
    }
    return true;
}
