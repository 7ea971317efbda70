/* lw_merge.c -- object subroutines called from MERGE procedures.
 *
 * A MERGE procedure works on two records of its type (ME and YOU), with no
 * network, replicate or node index around it, and may call the object
 * subroutines of its own type on ME (`MERGE IS ME.reset (); END`).  Each
 * such callee (and what it calls on ME in turn) gets one more function,
 * cpMI_<type>_<name> (T *me, parameters...), lowered like the MERGE
 * procedure itself: ME is the record, nothing else is reachable.  The
 * constructs that need a network (group and interface calls, REDUCTION
 * and WTA, INDEX, topology changes) cannot be reached from MERGE
 * (src/sema/merge_rule.c); the checks here only guard that rule.
 *
 * In lane code the MERGE of such a type runs lane by lane on plain
 * records (lw_lane_merge_body), so the callees exist only once. */
#include "lw_internal.h"

static bool known(Lw *lw, const Symbol *s)
{
    for (int i = 0; i < lw->merge_callees.len; i++)
        if (lw->merge_callees.items[i] == s)
            return true;
    return false;
}

static void walk_block(Lw *lw, Block *b);
static void walk_expr(Lw *lw, Expr *e);

static void walk_callee(Lw *lw, Symbol *s)
{
    if (!s || known(lw, s) || !s->decl || s->sub->external || !s->owner ||
        s->owner->kind == TY_RECORD)
        return;
    vec_push(lw->arena, &lw->merge_callees, s);
    walk_block(lw, s->decl->u.subr.body);
}

static void walk_exprs(Lw *lw, PtrVec *v)
{
    for (int i = 0; i < v->len; i++)
        walk_expr(lw, VEC_AT(*v, i, Expr));
}

static void walk_expr(Lw *lw, Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EXPR_SELECT: walk_expr(lw, e->u.select.obj); break;
    case EXPR_SUBSCRIPT:
        walk_expr(lw, e->u.subscript.obj);
        walk_expr(lw, e->u.subscript.index);
        break;
    case EXPR_UNARY: walk_expr(lw, e->u.unary.operand); break;
    case EXPR_BINARY:
        walk_expr(lw, e->u.binary.lhs);
        walk_expr(lw, e->u.binary.rhs);
        break;
    case EXPR_TERNARY:
        walk_expr(lw, e->u.ternary.cond);
        walk_expr(lw, e->u.ternary.then_e);
        walk_expr(lw, e->u.ternary.else_e);
        break;
    case EXPR_CALL: walk_exprs(lw, &e->u.call.args); break;
    case EXPR_CONVERT: walk_exprs(lw, &e->u.convert.args); break;
    case EXPR_OBJCALL:
        walk_expr(lw, e->u.objcall.obj);
        walk_exprs(lw, &e->u.objcall.args);
        if (e->u.objcall.obj->kind == EXPR_ME || e->u.objcall.obj->kind == EXPR_YOU)
            walk_callee(lw, e->sym);
        break;
    default: break;
    }
}

static void walk_stmt(Lw *lw, Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN:
        walk_expr(lw, s->u.assign.target);
        walk_expr(lw, s->u.assign.value);
        break;
    case STMT_CALL: case STMT_OBJCALL: walk_expr(lw, s->u.call.call); break;
    case STMT_MULTICALL: walk_exprs(lw, &s->u.multi.calls); break;
    case STMT_RETURN: walk_expr(lw, s->u.ret.value); break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            walk_expr(lw, arm->cond);
            walk_block(lw, arm->body);
        }
        walk_block(lw, s->u.if_.else_body);
        break;
    case STMT_LOOP:
        walk_expr(lw, s->u.loop.while_cond);
        walk_block(lw, s->u.loop.body);
        walk_expr(lw, s->u.loop.until_cond);
        break;
    case STMT_FOR:
        walk_expr(lw, s->u.for_.from);
        walk_expr(lw, s->u.for_.to);
        walk_block(lw, s->u.for_.body);
        walk_expr(lw, s->u.for_.until_cond);
        break;
    default: break;
    }
}

static void walk_block(Lw *lw, Block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++)
            walk_expr(lw, VEC_AT(d->u.data.ids, j, InitId)->init);
    }
    for (int i = 0; i < b->stmts.len; i++)
        walk_stmt(lw, VEC_AT(b->stmts, i, Stmt));
}

void lw_merge_calls_collect(Lw *lw)
{
    for (int i = 0; i < lw->si->subrs.len; i++) {
        Symbol *s = VEC_AT(lw->si->subrs, i, Symbol);
        if (s->kind == SYM_MERGE && s->decl && s->owner && s->owner->kind != TY_RECORD)
            walk_block(lw, s->decl->u.subr.body);
    }
}

bool lw_merge_has_calls(Lw *lw, const Type *t)
{
    for (int i = 0; i < lw->merge_callees.len; i++)
        if (VEC_AT(lw->merge_callees, i, Symbol)->owner == t)
            return true;
    return false;
}

bool lw_in_merge(const Lw *lw)
{
    return lw->fn && lw->fn->ctx == CTX_MERGE && !lw->fn->lane;
}

/* ME.p (args) or YOU.f (args) inside a MERGE procedure or one of these
 * functions. */
IrExpr *lw_merge_call(Lw *lw, Expr *call)
{
    IrModule *m = lw->m;
    IrVar *recv = call->u.objcall.obj->kind == EXPR_YOU ? lw->fn->you_v : lw->fn->me_v;
    PtrVec a = {0};
    vec_push(m->arena, &a, ir_ref(m, recv));
    lw_args(lw, call->sym, &call->u.objcall.args, &a);
    IrExpr *c = ir_call(m, lw_merge_callee_fn(lw, call->sym), 0, NULL);
    c->args = a;
    return c;
}

void lw_merge_callee_body(Lw *lw, IrFunc *f)
{
    const Symbol *s = f->subr;
    LwFn fn = {.subr = s, .ctx = CTX_MERGE, .group = -1, .bundle = -1, .me_type = s->owner,
               .merge_inst = true, .f = f};
    fn.me_v = VEC_AT(f->params, 0, IrVar);
    lw->fn = &fn;
    f->body = ir_block(lw->m, s->loc);
    lw->blk = f->body;
    lw_block(lw, s->decl->u.subr.body);
    lw->fn = NULL;
}
