/* ir_walk.c -- visiting every statement and expression of the IR.
 *
 * One place knows which members of a node are its children; the verifier,
 * the dump and the passes all walk through here. */
#include "cupitc/ir.h"

static void walk_exprs(IrVisitor *v, PtrVec *list)
{
    for (int i = 0; i < list->len; i++)
        ir_walk_expr(v, VEC_AT(*list, i, IrExpr));
}

void ir_walk_expr(IrVisitor *v, IrExpr *e)
{
    if (!e)
        return;
    if (v->expr && !v->expr(v, e))
        return;
    ir_walk_expr(v, e->a);
    ir_walk_expr(v, e->b);
    ir_walk_expr(v, e->c);
    walk_exprs(v, &e->args);
    if (e->kind == IRE_STMTS)
        ir_walk_stmt(v, e->u.body);
}

void ir_walk_stmt(IrVisitor *v, IrStmt *s)
{
    if (!s)
        return;
    if (v->stmt && !v->stmt(v, s))
        return;
    ir_walk_expr(v, s->a);
    ir_walk_expr(v, s->b);
    ir_walk_expr(v, s->c);
    ir_walk_expr(v, s->lane_sel);
    ir_walk_expr(v, s->lo);
    ir_walk_expr(v, s->hi);
    ir_walk_expr(v, s->par);
    if (s->red) {
        ir_walk_expr(v, s->red->into);
        ir_walk_expr(v, s->red->mask);
    }
    ir_walk_stmt(v, s->then);
    for (int i = 0; i < s->list.len; i++)
        ir_walk_stmt(v, VEC_AT(s->list, i, IrStmt));
    if (s->red)
        ir_walk_stmt(v, s->red->after);
    ir_walk_stmt(v, s->els);
    if (v->stmt_after)
        v->stmt_after(v, s);
}

void ir_walk_module(IrVisitor *v, IrModule *m)
{
    for (int i = 0; i < m->funcs.len; i++)
        ir_walk_stmt(v, VEC_AT(m->funcs, i, IrFunc)->body);
    for (int i = 0; i < m->statics.len; i++) {
        IrStatic *st = VEC_AT(m->statics, i, IrStatic);
        ir_walk_expr(v, st->init);
        walk_exprs(v, &st->rows);
    }
}

/* ---- rewriting: every expression slot ------------------------------------- */

static void slots_expr(IrExpr **slot, IrSlotFn fn, void *data);

static void slots_list(PtrVec *list, IrSlotFn fn, void *data)
{
    for (int i = 0; i < list->len; i++)
        slots_expr((IrExpr **)&list->items[i], fn, data);
}

/* Children first, then the slot itself: fn sees operands already
 * rewritten. */
static void slots_expr(IrExpr **slot, IrSlotFn fn, void *data)
{
    IrExpr *e = *slot;
    if (!e)
        return;
    slots_expr(&e->a, fn, data);
    slots_expr(&e->b, fn, data);
    slots_expr(&e->c, fn, data);
    slots_list(&e->args, fn, data);
    if (e->kind == IRE_STMTS)
        ir_rewrite_exprs(e->u.body, fn, data);
    fn(slot, data);
}

void ir_rewrite_exprs(IrStmt *s, IrSlotFn fn, void *data)
{
    if (!s)
        return;
    slots_expr(&s->a, fn, data);
    slots_expr(&s->b, fn, data);
    slots_expr(&s->c, fn, data);
    slots_expr(&s->lane_sel, fn, data);
    slots_expr(&s->lo, fn, data);
    slots_expr(&s->hi, fn, data);
    slots_expr(&s->par, fn, data);
    if (s->red) {
        slots_expr(&s->red->into, fn, data);
        slots_expr(&s->red->mask, fn, data);
        ir_rewrite_exprs(s->red->after, fn, data);
    }
    ir_rewrite_exprs(s->then, fn, data);
    for (int i = 0; i < s->list.len; i++)
        ir_rewrite_exprs(VEC_AT(s->list, i, IrStmt), fn, data);
    ir_rewrite_exprs(s->els, fn, data);
}
