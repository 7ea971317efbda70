/* layout.c -- the lane record layout of connection types, derived from the
 * same answers the C emitter gets.
 *
 * transport.c decides which writes are elided and which reads are lazy
 * for the code the central agent's network calls reach.  The emitter asks
 * lower_write_stored and lower_lazy_read for every store and load it
 * emits, also for code the analysis never saw (which then stores and
 * loads as written).  An element may leave the lane record only if none of
 * those answers needs it in memory; this pass asks every one of them, for
 * every assignment and read in the program and every bundle of the
 * element's type, and keeps the element otherwise.  So a record can never
 * lack a field that emitted code names: the layout follows from the
 * accesses, not from a second opinion about them. */
#include "lower_internal.h"

typedef struct LCtx {
    LowerPlan *p;
    const Symbol *subr; /* the subroutine walked */
} LCtx;

/* Whether lane code of the subroutine walked exists for bundle b of net
 * (an instance no network call reaches is a stub that touches nothing,
 * cg_emit_lane_body). */
static bool emitted(LCtx *c, LowerNet *net, int b)
{
    const Symbol *s = c->subr;
    if (s->kind == SYM_MERGE) /* the lane MERGE exists whenever the type has lanes */
        return true;
    if (!s->owner || s->owner->kind == TY_CONNECTION)
        return !s->owner || lower_lane_reached(c->p, s, net, b);
    if (s->owner->kind != TY_NODE)
        return true;
    for (int g = 0; g < net->groups.len; g++)
        if (lower_lane_reached(c->p, s, net, g))
            return true;
    return false;
}

/* Keeps element e of connection type ct in the lane record. */
static void keep(LCtx *c, const Type *ct, const Symbol *e)
{
    if (ptrmap_get(&c->p->dropped, ct, e, 0) == (void *)1)
        ptrmap_put(c->p->arena, &c->p->dropped, ct, e, 0, (void *)2);
}

/* Whether a load at `site` of an element of ct needs memory on some bundle. */
static bool load_needed(LCtx *c, const Type *ct, const void *site)
{
    for (int n = 0; n < c->p->nets.len; n++) {
        LowerNet *net = VEC_AT(c->p->nets, n, LowerNet);
        for (int b = 0; b < net->nbundles; b++)
            if (net->bundles[b].conn == ct && emitted(c, net, b) &&
                !lower_lazy_read(c->p, net, b, site))
                return true;
    }
    return false;
}

static bool store_needed(LCtx *c, const Type *ct, const Stmt *assign)
{
    for (int n = 0; n < c->p->nets.len; n++) {
        LowerNet *net = VEC_AT(c->p->nets, n, LowerNet);
        for (int b = 0; b < net->nbundles; b++)
            if (net->bundles[b].conn == ct && emitted(c, net, b) &&
                lower_write_stored(c->p, net, b, assign))
                return true;
    }
    return false;
}

static bool is_conn_elem(const Symbol *s)
{
    return s && s->kind == SYM_ELEM && s->owner && s->owner->kind == TY_CONNECTION;
}

/* The connection element an lvalue rooted at ME denotes, or NULL. */
static const Symbol *me_root(const Expr *t)
{
    while (t->kind == EXPR_SUBSCRIPT || (t->kind == EXPR_SELECT && t->u.select.obj->kind != EXPR_ME))
        t = t->kind == EXPR_SUBSCRIPT ? t->u.subscript.obj : t->u.select.obj;
    return t->kind == EXPR_SELECT && is_conn_elem(t->sym) ? t->sym : NULL;
}

static void l_expr(LCtx *c, const Expr *e);

static void l_exprs(LCtx *c, const PtrVec *v)
{
    for (int i = 0; i < v->len; i++)
        l_expr(c, VEC_AT(*v, i, Expr));
}

/* Every element a read names: a lazy read of ME.e leaves it out of memory
 * only where the plan says so; any other mention (another object's
 * connection, connection addressing) keeps it. */
static void l_expr(LCtx *c, const Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EXPR_SELECT:
        if (is_conn_elem(e->sym) &&
            (e->u.select.obj->kind != EXPR_ME || load_needed(c, e->sym->owner, e)))
            keep(c, e->sym->owner, e->sym);
        l_expr(c, e->u.select.obj);
        break;
    case EXPR_SUBSCRIPT: l_expr(c, e->u.subscript.obj); l_expr(c, e->u.subscript.index); break;
    case EXPR_ALLSLICE: l_expr(c, e->u.allslice.obj); break;
    case EXPR_CONNADDR: l_expr(c, e->u.connaddr.from); l_expr(c, e->u.connaddr.to); break;
    case EXPR_UNARY: l_expr(c, e->u.unary.operand); break;
    case EXPR_BINARY: l_expr(c, e->u.binary.lhs); l_expr(c, e->u.binary.rhs); break;
    case EXPR_TERNARY:
        l_expr(c, e->u.ternary.cond);
        l_expr(c, e->u.ternary.then_e);
        l_expr(c, e->u.ternary.else_e);
        break;
    case EXPR_CALL: l_exprs(c, &e->u.call.args); break;
    case EXPR_OBJCALL: l_expr(c, e->u.objcall.obj); l_exprs(c, &e->u.objcall.args); break;
    case EXPR_CONVERT: l_exprs(c, &e->u.convert.args); break;
    case EXPR_MAXINDEX: l_expr(c, e->u.maxindex.obj); break;
    default: break;
    }
}

/* The parts of an assignment target other than its root element (indices,
 * deeper objects) are reads. */
static void l_target(LCtx *c, const Expr *t)
{
    while (t->kind == EXPR_SUBSCRIPT || (t->kind == EXPR_SELECT && t->u.select.obj->kind != EXPR_ME)) {
        if (t->kind == EXPR_SUBSCRIPT) {
            l_expr(c, t->u.subscript.index);
            t = t->u.subscript.obj;
        } else {
            t = t->u.select.obj;
        }
    }
    if (t->kind != EXPR_SELECT)
        l_expr(c, t);
}

static void l_block(LCtx *c, const Block *b);

static void l_stmt(LCtx *c, const Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN: {
        const Expr *t = s->u.assign.target;
        const Symbol *root = me_root(t);
        if (root) {
            if (store_needed(c, root->owner, s))
                keep(c, root->owner, root);
            l_target(c, t);
        } else {
            l_expr(c, t);
        }
        l_expr(c, s->u.assign.value);
        break;
    }
    case STMT_INPUT: case STMT_OUTPUT:
        l_expr(c, s->u.io.node_side);
        break;
    case STMT_CALL: case STMT_OBJCALL: l_expr(c, s->u.call.call); break;
    case STMT_MULTICALL: l_exprs(c, &s->u.multi.calls); break;
    case STMT_REDUCTION: {
        const Expr *pvs = s->u.reduction.pvs;
        if (pvs->kind == EXPR_SELECT && is_conn_elem(pvs->sym) &&
            load_needed(c, pvs->sym->owner, s))
            keep(c, pvs->sym->owner, pvs->sym);
        if (pvs->kind == EXPR_SELECT)
            l_expr(c, pvs->u.select.obj);
        l_expr(c, s->u.reduction.into);
        break;
    }
    case STMT_WTA:
        if (is_conn_elem(s->target) && load_needed(c, s->target->owner, s))
            keep(c, s->target->owner, s->target);
        l_expr(c, s->u.wta.pv);
        l_exprs(c, &s->u.wta.args);
        break;
    case STMT_RETURN: l_expr(c, s->u.ret.value); break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            const IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            l_expr(c, arm->cond);
            l_block(c, arm->body);
        }
        l_block(c, s->u.if_.else_body);
        break;
    case STMT_LOOP:
        l_expr(c, s->u.loop.while_cond);
        l_block(c, s->u.loop.body);
        l_expr(c, s->u.loop.until_cond);
        break;
    case STMT_FOR:
        l_expr(c, s->u.for_.var);
        l_expr(c, s->u.for_.from);
        l_expr(c, s->u.for_.to);
        l_block(c, s->u.for_.body);
        l_expr(c, s->u.for_.until_cond);
        break;
    case STMT_REPLICATE: case STMT_EXTEND: l_expr(c, s->u.replicate.count); break;
    default: break;
    }
}

static void l_block(LCtx *c, const Block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->defs.len; i++) {
        const Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++)
            l_expr(c, VEC_AT(d->u.data.ids, j, InitId)->init);
    }
    for (int i = 0; i < b->stmts.len; i++)
        l_stmt(c, VEC_AT(b->stmts, i, Stmt));
}

void lower_layout(LowerPlan *p)
{
    LCtx c = {.p = p};
    for (int i = 0; i < p->si->subrs.len; i++) {
        const Symbol *s = VEC_AT(p->si->subrs, i, Symbol);
        c.subr = s;
        if (s->decl && !s->sub->external)
            l_block(&c, s->decl->u.subr.body);
    }
}
