/* pass_vsum.c -- sum reductions in vector registers.
 *
 * A REDUCTION whose function is `RETURN ME + YOU` (or YOU + ME) on Real or
 * Int, in lane code where every lane sees the same candidates, combines
 * lane arrays element by element: the same sums, in the same order, as a
 * vector held in registers (IRR_VSUM) instead of an accumulator array that
 * the loop stores and reloads.  The vector starts at -0.0 for Real (the
 * identity of IEEE addition, so that candidates that are all -0.0 sum to
 * -0.0 as the serial code does).  A WTA, or a REDUCTION over a slice whose
 * lanes select different nodes, stays as it is. */
#include "passes_internal.h"

static bool is_me_you(const Expr *l, const Expr *r)
{
    return (l->kind == EXPR_ME && r->kind == EXPR_YOU) || (l->kind == EXPR_YOU && r->kind == EXPR_ME);
}

/* Whether f is `RETURN ME + YOU` on Real, or on Int where an overflow
 * wraps (with --check-overflow the combine function's check stays). */
static bool is_sum_reduction(const Symbol *f, bool check_overflow)
{
    if (!f || f->kind != SYM_REDUCTION || !f->decl || !f->decl->u.subr.body || !f->type ||
        (f->type->kind != TY_REAL && (f->type->kind != TY_INT || check_overflow)))
        return false;
    Block *b = f->decl->u.subr.body;
    if (b->defs.len != 0 || b->stmts.len != 1)
        return false;
    Stmt *st = VEC_AT(b->stmts, 0, Stmt);
    if (st->kind != STMT_RETURN || !st->u.ret.value)
        return false;
    Expr *e = st->u.ret.value;
    return e->kind == EXPR_BINARY && e->u.binary.op == OP_ADD &&
           is_me_you(e->u.binary.lhs, e->u.binary.rhs);
}

typedef struct Vs {
    PassCtx *c;
    IrFunc *f;
    int n;
} Vs;

static bool visit(IrVisitor *v, IrStmt *s)
{
    Vs *vs = v->data;
    if (s->kind != IRS_REDUCE || !s->red)
        return true;
    IrReduce *r = s->red;
    if (r->kind != IRR_LANES || r->wta || !is_sum_reduction(r->combine->subr, vs->c->m->opts.check_overflow))
        return true;
    IrModule *m = vs->c->m;
    r->kind = IRR_VSUM;
    r->vacc = ir_fresh(m, vs->f, "vacc", ir_t_vec(m, r->vtype));
    vs->n++;
    return true;
}

void pass_vsum(PassCtx *c)
{
    for (int i = 0; i < c->m->funcs.len; i++) {
        IrFunc *f = VEC_AT(c->m->funcs, i, IrFunc);
        if (!f->lane || !f->body)
            continue;
        Vs vs = {.c = c, .f = f};
        IrVisitor v = {.stmt = visit, .data = &vs};
        ir_walk_stmt(&v, f->body);
        if (vs.n)
            pu_trace(c, "vsum", "%s: %d sums in vector registers", f->name, vs.n);
    }
}
