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
#include "cupitc/ast_walk.h"
#include "cupitc/stdlib_sigs.h"
#include "lw_internal.h"

static bool known(Lw *lw, const Symbol *s)
{
    for (int i = 0; i < lw->merge_callees.len; i++)
        if (lw->merge_callees.items[i] == s)
            return true;
    return false;
}

typedef struct MergeWalk {
    AstWalk walk; /* first: the callback gets &walk */
    Lw *lw;
} MergeWalk;

static void walk_callee(MergeWalk *mw, Symbol *s)
{
    Lw *lw = mw->lw;
    if (!s || known(lw, s) || !s->decl || s->sub->external || !s->owner ||
        s->owner->kind == TY_RECORD)
        return;
    vec_push(lw->arena, &lw->merge_callees, s);
    ast_walk_block(&mw->walk, s->decl->u.subr.body);
}

static void walk_expr(AstWalk *w, Expr *e)
{
    if (e->kind == EXPR_OBJCALL &&
        (e->u.objcall.obj->kind == EXPR_ME || e->u.objcall.obj->kind == EXPR_YOU))
        walk_callee((MergeWalk *)w, e->sym);
}

void lw_merge_calls_collect(Lw *lw)
{
    MergeWalk mw = {.walk = {.expr = walk_expr}, .lw = lw};
    for (int i = 0; i < lw->si->subrs.len; i++) {
        Symbol *s = VEC_AT(lw->si->subrs, i, Symbol);
        if (s->kind == SYM_MERGE && s->decl && s->owner && s->owner->kind != TY_RECORD)
            ast_walk_block(&mw.walk, s->decl->u.subr.body);
    }
}

bool lw_merge_has_calls(Lw *lw, const Type *t)
{
    for (int i = 0; i < lw->merge_callees.len; i++)
        if (VEC_AT(lw->merge_callees, i, Symbol)->owner == t)
            return true;
    return false;
}

/* Whether a MERGE procedure (with the object and global subroutines it
 * calls) does something besides computing its result: EXTERNAL code other
 * than the standard arithmetic functions, or any with -fno-builtin, where
 * a C file may replace them (SubrInfo.varies: it may print, count,
 * keep state), RANDOM, or a store into a global variable (an assignment,
 * a FOR variable, a REDUCTION target, a VAR argument, an object procedure
 * or a function that changes its ME called on it: it may count the
 * merges too).  The fold of a lane record (lw_lane_fold_body)
 * runs the lane MERGE on all 16 lanes in each of its four rounds, 64 runs
 * where the tree merges 15 pairs; that is right only for a MERGE that
 * does nothing else. */
typedef struct VaryWalk {
    AstWalk walk; /* first: the callback gets &walk */
    Lw *lw;
    PtrVec seen;  /* object subroutines walked */
    bool varies;
} VaryWalk;

static void vary_subr(VaryWalk *vw, const Symbol *s);

/* Whether the object e is (part of) a global variable: g, g.e, g[i]. */
static bool global_root(const Expr *e)
{
    while (e->kind == EXPR_SELECT || e->kind == EXPR_SUBSCRIPT)
        e = e->kind == EXPR_SELECT ? e->u.select.obj : e->u.subscript.obj;
    return e->kind == EXPR_NAME && e->sym && e->sym->is_global &&
           (e->sym->kind == SYM_VAR || e->sym->kind == SYM_IO);
}

static bool global_var_arg(const Symbol *callee, const PtrVec *args)
{
    for (int i = 0; i < args->len && i < callee->sub->params.len; i++)
        if (VEC_AT(callee->sub->params, i, Symbol)->access == ACCESS_VAR &&
            global_root(VEC_AT(*args, i, Expr)))
            return true;
    return false;
}

static void vary_expr(AstWalk *w, Expr *e)
{
    VaryWalk *vw = (VaryWalk *)w;
    if (e->kind == EXPR_UNARY && e->u.unary.op == OP_RANDOM)
        vw->varies = true;
    else if ((e->kind == EXPR_CALL || e->kind == EXPR_OBJCALL) && e->sym && e->sym->sub) {
        bool lib = vw->lw->opts.builtins; /* else a C file may replace sigmoid etc. */
        bool obj = e->kind == EXPR_OBJCALL;
        if ((lib ? e->sym->sub->varies : e->sym->sub->varies_replaced) ||
            (e->sym->sub->external && !(lib && stdlib_is_arithmetic(e->sym))) ||
            global_var_arg(e->sym, obj ? &e->u.objcall.args : &e->u.call.args) ||
            (obj && (e->sym->kind == SYM_OBJPROC || e->sym->sub->changes_me) &&
             global_root(e->u.objcall.obj)))
            vw->varies = true;
        else
            vary_subr(vw, e->sym);
    }
}

static void vary_stmt(AstWalk *w, Stmt *s)
{
    if ((s->kind == STMT_ASSIGN && global_root(s->u.assign.target)) ||
        (s->kind == STMT_FOR && global_root(s->u.for_.var)) ||
        (s->kind == STMT_REDUCTION && global_root(s->u.reduction.into)))
        ((VaryWalk *)w)->varies = true;
}

static void vary_subr(VaryWalk *vw, const Symbol *s)
{
    if (vw->varies || !s->decl || s->sub->external)
        return;
    for (int i = 0; i < vw->seen.len; i++)
        if (vw->seen.items[i] == s)
            return;
    vec_push(vw->lw->arena, &vw->seen, (void *)s);
    if (s->sub->uses_random)
        vw->varies = true;
    else
        ast_walk_block(&vw->walk, s->decl->u.subr.body);
}

bool lw_merge_varies(Lw *lw, const Symbol *merge)
{
    VaryWalk vw = {.walk = {.expr = vary_expr, .stmt = vary_stmt}, .lw = lw};
    vary_subr(&vw, merge);
    return vw.varies;
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
    /* a callee that can call itself checks the stack, as its other
       versions do (recursion.c) */
    lw_stack_check(lw, s);
    lw_block(lw, s->decl->u.subr.body);
    lw->fn = NULL;
}
