/* pass_shared.c -- connection elements every replicate holds equal, kept
 * once per lane block instead of once per lane.
 *
 * REPLICATE and MERGE make all replicates equal; they diverge only through
 * writes whose value or control differs between replicates.  The
 * uniformity analysis (src/lower/uniform.c) finds the connection elements
 * that never diverge whenever lane code runs, such as RPROP's weights,
 * which change only right after MERGE from merged gradients.  This pass
 * moves each such element from the lane record (an array over the lanes)
 * to the shared record (one value), in the layouts and in every access:
 *
 *   - a lane element X.e[l], where X is a lane record reached through a
 *     pointer that has a shared twin (ir.h, IrVar.twin), becomes S.e;
 *   - an assignment to it, or to a record field or array element of it,
 *     runs in the first active lane only (every active lane computes the
 *     same value, and a compound assignment must not apply once per lane);
 *   - a REDUCTION or WTA candidate that is such an element is broadcast to
 *     a lane array first.
 *
 * Precondition, per element: every access has that shape; its address is
 * not taken (a VAR argument stores once per lane) and every store to it is
 * a lane assignment (not a FOR variable, ...).  An element
 * with another access stays in the lane record; one that no code names
 * any more stays there too, for drop-fields to leave out. */
#include <string.h>

#include "passes_internal.h"

/* ---- which accesses can move ------------------------------------------------------ */

/* The lane record pointer and index of X in an access X.e: X = *p or p[k]. */
static bool record_base(const IrExpr *x, IrVar **p, const IrExpr **k)
{
    if (x->kind == IRE_DEREF && x->a->kind == IRE_VAR) {
        *p = x->a->u.var;
        *k = NULL;
        return true;
    }
    if (x->kind == IRE_INDEX && x->a->kind == IRE_VAR) {
        *p = x->a->u.var;
        *k = x->b;
        return true;
    }
    return false;
}

typedef struct Scan {
    PtrVec *cands;     /* IrField* lane fields that may move */
    bool *bad;         /* [i]: some access of cands[i] cannot move */
    int *uses;         /* [i]: accesses of cands[i] */
    IrVisitor *v;      /* for the bodies of statement expressions */
    const IrStmt *first_lane; /* the store of the lane-assignment loop being walked,
                                 which first_lane_stores makes once per block */
} Scan;

static int cand_index(const Scan *sc, const IrField *f)
{
    for (int i = 0; i < sc->cands->len; i++)
        if (sc->cands->items[i] == f)
            return i;
    return -1;
}

/* The candidate that the lvalue t stores into (X.e[l], X.e[l].f,
 * X.e[l][i]), or -1. */
static int cand_root(const Scan *sc, const IrExpr *t)
{
    for (; t; t = t->a) {
        if (t->kind == IRE_FIELD && cand_index(sc, t->u.field) >= 0)
            return cand_index(sc, t->u.field);
        if (t->kind != IRE_FIELD && t->kind != IRE_MEMBER && t->kind != IRE_INDEX)
            return -1;
    }
    return -1;
}

/* The store of a lane-assignment loop (lw_lanes.c lane_assign) and the
 * value it stores, in either of its two shapes: `n = v; o = t; t = M ? n :
 * o` (every lane) or `if (M) t = v`. */
static IrStmt *lane_assign_store(IrStmt *loop, IrExpr **value)
{
    if (loop->kind != IRS_FOR || loop->tag != IRTAG_LANE_ASSIGN || !loop->aux[0])
        return NULL;
    IrStmt *body = loop->then;
    if (body->list.len == 3 && VEC_AT(body->list, 2, IrStmt)->kind == IRS_ASSIGN &&
        VEC_AT(body->list, 0, IrStmt)->kind == IRS_DECL) {
        *value = VEC_AT(body->list, 0, IrStmt)->a;
        return VEC_AT(body->list, 2, IrStmt);
    }
    if (body->list.len == 1 && VEC_AT(body->list, 0, IrStmt)->kind == IRS_IF) {
        IrStmt *ifs = VEC_AT(body->list, 0, IrStmt);
        if (ifs->then->list.len == 1 && VEC_AT(ifs->then->list, 0, IrStmt)->kind == IRS_ASSIGN) {
            IrStmt *as = VEC_AT(ifs->then->list, 0, IrStmt);
            *value = as->b;
            return as;
        }
    }
    return NULL;
}

/* Checks one field access: the base must have a shared twin, and the value
 * must be taken per lane (X.e[l]) or be a reduction candidate. */
static void check_access(Scan *sc, const IrExpr *e, bool lane_indexed, bool yield_value)
{
    int i = cand_index(sc, e->u.field);
    if (i < 0)
        return;
    sc->uses[i]++;
    IrVar *p = NULL;
    const IrExpr *k = NULL;
    if (!record_base(e->a, &p, &k) || !p->twin || (!lane_indexed && !yield_value))
        sc->bad[i] = true;
}

static void scan_expr(Scan *sc, const IrExpr *e, bool yield_value)
{
    if (!e)
        return;
    if (e->kind == IRE_ADDR && cand_root(sc, e->a) >= 0) /* a VAR argument: a store per lane */
        sc->bad[cand_root(sc, e->a)] = true;
    if (e->kind == IRE_INDEX && e->a && e->a->kind == IRE_FIELD) {
        check_access(sc, e->a, true, false);
        scan_expr(sc, e->a->a, false);
        scan_expr(sc, e->b, false);
        return;
    }
    if (e->kind == IRE_FIELD) {
        check_access(sc, e, false, yield_value);
        scan_expr(sc, e->a, false);
        return;
    }
    scan_expr(sc, e->a, false);
    scan_expr(sc, e->b, false);
    scan_expr(sc, e->c, false);
    for (int i = 0; i < e->args.len; i++)
        scan_expr(sc, VEC_AT(e->args, i, IrExpr), false);
    if (e->kind == IRE_STMTS)
        ir_walk_stmt(sc->v, e->u.body);
}

static bool scan_stmt_cb(IrVisitor *v, IrStmt *s)
{
    Scan *sc = v->data;
    IrExpr *value;
    IrStmt *as = lane_assign_store(s, &value);
    if (as)
        sc->first_lane = as; /* the walk reaches it next, inside the loop */
    /* a store that first_lane_stores does not make once per block (a FOR
       variable, ...) would run in every active lane */
    if (s->kind == IRS_ASSIGN && cand_root(sc, s->a) >= 0 && s != sc->first_lane)
        sc->bad[cand_root(sc, s->a)] = true;
    /* every expression slot of this statement (not its children, which the
       visitor reaches itself) */
    scan_expr(sc, s->a, s->kind == IRS_YIELD);
    scan_expr(sc, s->b, false);
    scan_expr(sc, s->c, false);
    scan_expr(sc, s->lane_sel, false);
    scan_expr(sc, s->lo, false);
    scan_expr(sc, s->hi, false);
    scan_expr(sc, s->par, false);
    if (s->red) {
        scan_expr(sc, s->red->into, false);
        scan_expr(sc, s->red->mask, false);
    }
    return true;
}

static bool scan_expr_cb(IrVisitor *v, IrExpr *e)
{
    (void)v;
    (void)e;
    return false; /* expressions were scanned with their statement */
}

/* ---- rewriting ---------------------------------------------------------------------------- */

typedef struct Rw {
    PassCtx *c;
    const IrField **from, **to; /* lane field -> shared field */
    int n;
} Rw;

static const IrField *moved(const Rw *rw, const IrField *f)
{
    for (int i = 0; i < rw->n; i++)
        if (rw->from[i] == f)
            return rw->to[i];
    return NULL;
}

/* X.e (a record access of a moved field) -> S.e on the twin */
static IrExpr *shared_access(Rw *rw, const IrExpr *fe, const IrField *to)
{
    IrModule *m = rw->c->m;
    IrVar *p = NULL;
    const IrExpr *k = NULL;
    record_base(fe->a, &p, &k); /* the scan made sure it has this shape */
    IrExpr *rec = k ? ir_index(m, ir_ref(m, p->twin), ir_clone(m, k)) : ir_deref(m, ir_ref(m, p->twin));
    return ir_field(m, rec, to);
}

static void rewrite_slot(IrExpr **slot, void *data)
{
    Rw *rw = data;
    IrExpr *e = *slot;
    if (e->kind == IRE_INDEX && e->a && e->a->kind == IRE_FIELD) {
        const IrField *to = moved(rw, e->a->u.field);
        if (to)
            *slot = shared_access(rw, e->a, to);
    }
}

/* Whether the store target t is (a part of) a shared field: S.e, S.e.f,
 * S.e[i] -- a record or array element stores into the one value too. */
static bool shared_target(const IrExpr *t)
{
    for (; t; t = t->a) {
        if (t->kind == IRE_FIELD && t->u.field->layout->form == IRF_SHARED)
            return true;
        if (t->kind != IRE_FIELD && t->kind != IRE_MEMBER && t->kind != IRE_INDEX)
            return false;
    }
    return false;
}

/* A lane-assignment loop whose target moved: `l = cp_first_lane (M); if
 * (l >= 0) target = value`. */
static void first_lane_stores(IrStmt *blk, void *data)
{
    Rw *rw = data;
    IrModule *m = rw->c->m;
    for (int i = 0; i < blk->list.len; i++) {
        IrStmt *loop = VEC_AT(blk->list, i, IrStmt);
        IrExpr *value = NULL;
        IrStmt *as = lane_assign_store(loop, &value);
        if (!as || !shared_target(as->a))
            continue;
        IrStmt *nb = ir_block(m, loop->loc);
        IrStmt *d = ir_s(m, IRS_DECL, loop->loc);
        d->var = loop->var;
        d->var->is_const = true;
        d->a = ir_helper(m, IRH_FIRST_LANE, ir_t(m, IRT_INT), IR_ARGS(ir_ref(m, loop->aux[0])));
        ir_append(m, nb, d);
        IrStmt *ifs = ir_s(m, IRS_IF, loop->loc);
        ifs->a = ir_binary(m, IROP_GE, ir_t(m, IRT_BOOL), ir_ref(m, loop->var), ir_i32(m, 0));
        ifs->then = ir_block(m, loop->loc);
        IrStmt *st = ir_s(m, IRS_ASSIGN, loop->loc);
        st->a = as->a;
        st->b = value;
        st->origin = as->origin;
        ir_append(m, ifs->then, st);
        ir_append(m, nb, ifs);
        blk->list.items[i] = nb;
    }
}

/* A candidate that is one value for all lanes: broadcast into a lane array. */
static void broadcast_yields(IrStmt *blk, void *data)
{
    Rw *rw = data;
    IrModule *m = rw->c->m;
    for (int i = 0; i < blk->list.len; i++) {
        IrStmt *y = VEC_AT(blk->list, i, IrStmt);
        if (y->kind != IRS_YIELD || y->a->kind != IRE_FIELD)
            continue;
        const IrField *to = moved(rw, y->a->u.field);
        if (!to)
            continue;
        IrStmt *fill;
        IrVar *l;
        IrVar *sh = pu_lane_temp(m, NULL, blk, i, to->type, y->loc, &fill, &l);
        fill->b = shared_access(rw, y->a, to);
        i += 2;
        y->a = ir_ref(m, sh);
    }
}

void pass_shared(PassCtx *c)
{
    IrModule *m = c->m;
    PtrVec cands = {0};
    for (int i = 0; i < m->layouts.len; i++) {
        IrLayout *l = VEC_AT(m->layouts, i, IrLayout);
        if (l->form != IRF_LANE || l->type->kind != TY_CONNECTION)
            continue;
        for (int j = 0; j < l->fields.len; j++) {
            IrField *f = VEC_AT(l->fields, j, IrField);
            if (f->elem && !f->dropped && lower_elem_shared(c->plan, l->type, f->elem))
                vec_push(m->arena, &cands, f);
        }
    }
    if (!cands.len)
        return;
    Scan sc = {.cands = &cands, .bad = arena_alloc(m->arena, (size_t)cands.len * sizeof(bool)),
               .uses = arena_alloc(m->arena, (size_t)cands.len * sizeof(int))};
    IrVisitor v = {.stmt = scan_stmt_cb, .expr = scan_expr_cb, .data = &sc};
    sc.v = &v;
    for (int i = 0; i < m->funcs.len; i++)
        ir_walk_stmt(&v, VEC_AT(m->funcs, i, IrFunc)->body);
    Rw rw = {.c = c};
    rw.from = arena_alloc(m->arena, (size_t)cands.len * sizeof *rw.from);
    rw.to = arena_alloc(m->arena, (size_t)cands.len * sizeof *rw.to);
    for (int i = 0; i < cands.len; i++) {
        IrField *f = VEC_AT(cands, i, IrField);
        if (sc.bad[i]) {
            pu_trace(c, "shared", "%s.%s: an access without its shared record: stays per lane",
                     f->layout->type->name, f->name);
            continue;
        }
        if (!sc.uses[i])
            continue; /* no code names it: drop-fields leaves it out */
        IrLayout *sl = ir_layout(m, f->layout->type, IRF_SHARED);
        IrField *to = ir_layout_add(m, sl, f->name, f->elem, f->vtype, false);
        f->dropped = true;
        rw.from[rw.n] = f;
        rw.to[rw.n++] = to;
        pu_trace(c, "shared", "%s.%s: once per lane block", f->layout->type->name, f->name);
    }
    if (!rw.n)
        return;
    for (int i = 0; i < m->funcs.len; i++) {
        IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        if (!f->body)
            continue;
        pu_each_block(f->body, broadcast_yields, &rw);
        ir_rewrite_exprs(f->body, rewrite_slot, &rw);
        pu_each_block(f->body, first_lane_stores, &rw);
    }
}
