/* pass_drop_fields.c -- what the lane records hold follows from what code
 * names.
 *
 * After the fuse pass a connection element may no longer be stored or
 * loaded by any lane code (its value is recomputed where it is read).
 * This pass leaves every such element out of its type's lane record:
 * the layout is derived from the accesses, so no code can name a field the
 * record lacks.  (The lane record functions and the merge fold are built
 * from the final layouts, after the passes.)
 *
 * The clean-up after it is not an optimisation: the lowering passes a
 * shared record pointer along with every connection lane record; where a
 * connection type's shared layout stayed empty, those parameters,
 * arguments and variables go. */
#include <string.h>

#include "passes_internal.h"

/* The connection types whose lane records code hands whole to get, put
 * or rec (collected in a PtrVec of Type*).  A MERGE procedure that calls
 * object subroutines runs lane by lane on plain records
 * (lw_lane_merge_body): get copies every element of the lane record into
 * a plain one, the plain MERGE and its callees -- functions built only
 * when printed, which no pass sees -- read and write it, put copies it
 * back.  Any element of such a type may be named there (ME.w only
 * through a callee's RETURN ME.w), so all of them stay. */
typedef struct Whole {
    Arena *arena;
    PtrVec types;
} Whole;

static bool whole_record(IrVisitor *v, IrExpr *e)
{
    Whole *w = v->data;
    if (e->kind != IRE_CALL || !e->fn || !e->fn->type || e->fn->type->kind != TY_CONNECTION ||
        (e->fn->role != IRFN_LANE_GET && e->fn->role != IRFN_LANE_PUT &&
         e->fn->role != IRFN_LANE_REC))
        return true;
    for (int i = 0; i < w->types.len; i++)
        if (w->types.items[i] == e->fn->type)
            return true;
    vec_push(w->arena, &w->types, (void *)e->fn->type);
    return true;
}

void pass_drop_fields(PassCtx *c)
{
    IrModule *m = c->m;
    pu_count_uses(m);
    Whole whole = {.arena = m->arena};
    IrVisitor v = {.expr = whole_record, .data = &whole};
    for (int i = 0; i < m->funcs.len; i++)
        ir_walk_stmt(&v, VEC_AT(m->funcs, i, IrFunc)->body);
    for (int i = 0; i < m->layouts.len; i++) {
        IrLayout *l = VEC_AT(m->layouts, i, IrLayout);
        if (l->form != IRF_LANE || l->type->kind != TY_CONNECTION)
            continue;
        bool keep_all = false;
        for (int k = 0; k < whole.types.len; k++)
            keep_all |= whole.types.items[k] == l->type;
        if (keep_all)
            continue;
        for (int j = 0; j < l->fields.len; j++) {
            IrField *f = VEC_AT(l->fields, j, IrField);
            if (f->dropped || f->uses)
                continue;
            f->dropped = true;
            pu_trace(c, "drop-fields", "%s: element %s not in the lane record", l->type->name,
                     f->name);
        }
    }
}

/* ---- the shared records that stayed empty ------------------------------------------------ */

static bool empty_shared_ptr(const IrType *t)
{
    return t && t->kind == IRT_PTR && t->elem->kind == IRT_RECORD &&
           t->elem->layout->form == IRF_SHARED && ir_layout_live_fields(t->elem->layout) == 0;
}

static bool drop_args(IrVisitor *v, IrExpr *e)
{
    (void)v;
    if (e->kind == IRE_CAST && e->a && e->a->kind == IRE_VAR && empty_shared_ptr(e->a->u.var->type)) {
        /* such a pointer passed on untyped (a lane MERGE that calls object
           subroutines hands it to get and put, which then ignore it) */
        e->kind = IRE_NULL;
        e->a = NULL;
        return true;
    }
    if (e->kind != IRE_CALL || !e->fn)
        return true;
    /* the callee's parameters were not removed yet: match by position */
    const IrFunc *f = e->fn;
    int k = 0;
    for (int i = 0; i < e->args.len && i < f->params.len; i++) {
        if (empty_shared_ptr(VEC_AT(f->params, i, IrVar)->type))
            continue;
        e->args.items[k++] = e->args.items[i];
    }
    for (int i = f->params.len; i < e->args.len; i++)
        e->args.items[k++] = e->args.items[i];
    e->args.len = k;
    return true;
}

static void drop_decls(IrStmt *blk, void *data)
{
    (void)data;
    int k = 0;
    for (int i = 0; i < blk->list.len; i++) {
        IrStmt *s = VEC_AT(blk->list, i, IrStmt);
        if (s->kind == IRS_DECL && empty_shared_ptr(s->var->type))
            continue;
        blk->list.items[k++] = s;
    }
    blk->list.len = k;
    for (int i = 0; i < 2; i++)
        if (blk->aux[i] && empty_shared_ptr(blk->aux[i]->type))
            blk->aux[i] = NULL;
}

static bool clear_twins(IrVisitor *v, IrStmt *s)
{
    (void)v;
    if (s->var && s->var->twin && empty_shared_ptr(s->var->twin->type))
        s->var->twin = NULL;
    for (int i = 0; i < 2; i++)
        if (s->aux[i] && empty_shared_ptr(s->aux[i]->type))
            s->aux[i] = NULL;
    return true;
}

void pass_drop_empty_shared(PassCtx *c)
{
    IrModule *m = c->m;
    IrVisitor args = {.expr = drop_args};
    IrVisitor twins = {.stmt = clear_twins};
    for (int i = 0; i < m->funcs.len; i++) {
        IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        ir_walk_stmt(&args, f->body);
        ir_walk_stmt(&twins, f->body);
        if (f->body)
            pu_each_block(f->body, drop_decls, NULL);
    }
    for (int i = 0; i < m->funcs.len; i++) {
        IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        int k = 0;
        for (int j = 0; j < f->params.len; j++) {
            IrVar *p = VEC_AT(f->params, j, IrVar);
            if (p->twin && empty_shared_ptr(p->twin->type))
                p->twin = NULL;
            if (empty_shared_ptr(p->type))
                continue;
            f->params.items[k++] = p;
        }
        f->params.len = k;
    }
}
