/* cg_merge_calls.c -- object subroutines called from MERGE procedures.
 *
 * A MERGE procedure works on two records of its type (ME and YOU), with no
 * network, replicate or node index around it, and may call the object
 * subroutines of its own type on ME (`MERGE IS ME.reset (); END`).  Each
 * such callee (and what it calls on ME in turn) gets one more C instance,
 * cpMI_<type>_<name> (T *me, parameters...), compiled like the MERGE
 * procedure itself: ME is the record, nothing else is reachable.  The
 * constructs that need a network (group and interface calls, REDUCTION
 * and WTA, INDEX, topology changes) cannot be reached from MERGE
 * (src/sema/merge_rule.c); the checks here only guard that rule.
 *
 * In lane code the MERGE of such a type runs lane by lane on plain
 * records (cpLaneGet, the plain MERGE, cpLanePut), so the callees exist
 * only once. */
#include "cg_internal.h"

static bool known(Cg *cg, const Symbol *s)
{
    for (int i = 0; i < cg->merge_callees.len; i++)
        if (cg->merge_callees.items[i] == s)
            return true;
    return false;
}

static void walk_block(Cg *cg, Block *b);

static void walk_callee(Cg *cg, Symbol *s)
{
    if (!s || known(cg, s) || !s->decl || s->sub->external || !s->owner ||
        s->owner->kind == TY_RECORD)
        return;
    vec_push(cg->arena, &cg->merge_callees, s);
    walk_block(cg, s->decl->u.subr.body);
}

static void walk_expr(Cg *cg, Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EXPR_SELECT: walk_expr(cg, e->u.select.obj); break;
    case EXPR_SUBSCRIPT: walk_expr(cg, e->u.subscript.obj); walk_expr(cg, e->u.subscript.index); break;
    case EXPR_UNARY: walk_expr(cg, e->u.unary.operand); break;
    case EXPR_BINARY: walk_expr(cg, e->u.binary.lhs); walk_expr(cg, e->u.binary.rhs); break;
    case EXPR_TERNARY:
        walk_expr(cg, e->u.ternary.cond);
        walk_expr(cg, e->u.ternary.then_e);
        walk_expr(cg, e->u.ternary.else_e);
        break;
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.len; i++)
            walk_expr(cg, VEC_AT(e->u.call.args, i, Expr));
        break;
    case EXPR_CONVERT:
        for (int i = 0; i < e->u.convert.args.len; i++)
            walk_expr(cg, VEC_AT(e->u.convert.args, i, Expr));
        break;
    case EXPR_OBJCALL:
        walk_expr(cg, e->u.objcall.obj);
        for (int i = 0; i < e->u.objcall.args.len; i++)
            walk_expr(cg, VEC_AT(e->u.objcall.args, i, Expr));
        if (e->u.objcall.obj->kind == EXPR_ME || e->u.objcall.obj->kind == EXPR_YOU)
            walk_callee(cg, e->sym);
        break;
    default: break;
    }
}

static void walk_stmt(Cg *cg, Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN: walk_expr(cg, s->u.assign.target); walk_expr(cg, s->u.assign.value); break;
    case STMT_CALL: case STMT_OBJCALL: walk_expr(cg, s->u.call.call); break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            walk_expr(cg, VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_RETURN: walk_expr(cg, s->u.ret.value); break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            walk_expr(cg, arm->cond);
            walk_block(cg, arm->body);
        }
        walk_block(cg, s->u.if_.else_body);
        break;
    case STMT_LOOP:
        walk_expr(cg, s->u.loop.while_cond);
        walk_block(cg, s->u.loop.body);
        walk_expr(cg, s->u.loop.until_cond);
        break;
    case STMT_FOR:
        walk_expr(cg, s->u.for_.from);
        walk_expr(cg, s->u.for_.to);
        walk_block(cg, s->u.for_.body);
        walk_expr(cg, s->u.for_.until_cond);
        break;
    default: break;
    }
}

static void walk_block(Cg *cg, Block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++)
            walk_expr(cg, VEC_AT(d->u.data.ids, j, InitId)->init);
    }
    for (int i = 0; i < b->stmts.len; i++)
        walk_stmt(cg, VEC_AT(b->stmts, i, Stmt));
}

void cg_merge_calls_collect(Cg *cg)
{
    for (int i = 0; i < cg->si->subrs.len; i++) {
        Symbol *s = VEC_AT(cg->si->subrs, i, Symbol);
        if (s->kind == SYM_MERGE && s->decl && s->owner && s->owner->kind != TY_RECORD)
            walk_block(cg, s->decl->u.subr.body);
    }
}

bool cg_merge_has_calls(Cg *cg, const Type *t)
{
    for (int i = 0; i < cg->merge_callees.len; i++)
        if (VEC_AT(cg->merge_callees, i, Symbol)->owner == t)
            return true;
    return false;
}

bool cg_in_merge(const Cg *cg)
{
    return cg->fn && cg->fn->ctx == CTX_MERGE && !cg->lane;
}

static const char *inst_name(Cg *cg, const Symbol *s)
{
    return cg_fmt(cg, "cpMI_%s_%s", s->owner->name, s->name);
}

/* ME.p (args) or YOU.f (args) inside a MERGE procedure or one of these
 * instances. */
const char *cg_merge_call(Cg *cg, Expr *call)
{
    const char *recv = call->u.objcall.obj->kind == EXPR_YOU ? "you" : "me";
    return cg_fmt(cg, "%s(%s)", inst_name(cg, call->sym),
                  cg_args(cg, call->sym, &call->u.objcall.args, recv));
}

static const char *inst_signature(Cg *cg, Symbol *s)
{
    return cg_fmt(cg, "static CP_UNUSED %s %s(%s)", cg_result(cg, s), inst_name(cg, s),
                  cg_params(cg, s, cg_fmt(cg, "%s%s *me", s->kind == SYM_OBJFUNC ? "const " : "",
                                          cg_ctype(cg, s->owner))));
}

void cg_emit_merge_prototypes(Cg *cg)
{
    for (int i = 0; i < cg->merge_callees.len; i++)
        emit(cg->out, "%s;", inst_signature(cg, VEC_AT(cg->merge_callees, i, Symbol)));
}

void cg_emit_merge_bodies(Cg *cg)
{
    for (int i = 0; i < cg->merge_callees.len; i++) {
        Symbol *s = VEC_AT(cg->merge_callees, i, Symbol);
        CgFn fn = {.subr = s, .ctx = CTX_MERGE, .group = -1, .bundle = -1, .me_type = s->owner,
                   .merge_inst = true};
        cg->fn = &fn;
        cg_line(cg, s->loc);
        emit_open(cg->out, "%s", inst_signature(cg, s));
        emit(cg->out, "(void)me;");
        cg_block(cg, s->decl->u.subr.body);
        emit_close(cg->out, "%s", "");
        cg_no_line(cg);
        emit(cg->out, "%s", "");
        cg->fn = NULL;
    }
}
