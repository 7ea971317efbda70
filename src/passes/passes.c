/* passes.c -- the pipeline of IR passes, in the order of PassId. */
#include <string.h>

#include "passes_internal.h"

/* ORDER PASS */
static const struct {
    const char *name;
    void (*run)(PassCtx *c);
} pass_table[PASS__COUNT] = {
    [PASS_DCE] = {"dce", pass_dce},
    [PASS_FUSE] = {"fuse", pass_fuse},
    [PASS_SHARED] = {"shared", pass_shared},
    [PASS_MERGE_FIRST] = {"merge-first", pass_merge_first},
    [PASS_BATCH] = {"batch", pass_batch},
    [PASS_VSUM] = {"vsum", pass_vsum},
    [PASS_DENSE] = {"dense", NULL},
    [PASS_REGIONS] = {"regions", NULL},
    [PASS_DROP_FIELDS] = {"drop-fields", pass_drop_fields},
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
        if (!o->on[i] || !pass_table[i].run)
            continue;
        pass_table[i].run(&c);
        if (!verify(&c, o, pass_table[i].name))
            return false;
    }
    pass_drop_empty_shared(&c);
    return verify(&c, o, "the shared-record clean-up");
}
