/* ast_walk.c -- every child of every statement and expression
 * (cupitc/ast_walk.h).  A new kind or child is added here once. */
#include "cupitc/ast_walk.h"

static void each(PtrVec *v, AstChildFn f, void *cx)
{
    for (int i = 0; i < v->len; i++)
        f(cx, VEC_AT(*v, i, Expr));
}

void ast_expr_children(Expr *e, AstChildFn f, void *cx)
{
    switch (e->kind) {
    case EXPR_SELECT: f(cx, e->u.select.obj); break;
    case EXPR_SUBSCRIPT:
        f(cx, e->u.subscript.obj);
        f(cx, e->u.subscript.index);
        break;
    case EXPR_ALLSLICE: f(cx, e->u.allslice.obj); break;
    case EXPR_CONNADDR:
        f(cx, e->u.connaddr.from);
        f(cx, e->u.connaddr.to);
        break;
    case EXPR_UNARY: f(cx, e->u.unary.operand); break;
    case EXPR_BINARY:
        f(cx, e->u.binary.lhs);
        f(cx, e->u.binary.rhs);
        break;
    case EXPR_TERNARY:
        f(cx, e->u.ternary.cond);
        f(cx, e->u.ternary.then_e);
        f(cx, e->u.ternary.else_e);
        break;
    case EXPR_CALL: each(&e->u.call.args, f, cx); break;
    case EXPR_OBJCALL:
        f(cx, e->u.objcall.obj);
        each(&e->u.objcall.args, f, cx);
        break;
    case EXPR_CONVERT: each(&e->u.convert.args, f, cx); break;
    case EXPR_MAXINDEX: f(cx, e->u.maxindex.obj); break;
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING: case EXPR_NAME:
    case EXPR_ME: case EXPR_YOU: case EXPR_INDEX: case EXPR__COUNT:
        break;
    }
}

static void walk_child(void *w, Expr *e)
{
    ast_walk_expr(w, e);
}

static void walk_exprs(AstWalk *w, PtrVec *v)
{
    each(v, walk_child, w);
}

void ast_walk_expr(AstWalk *w, Expr *e)
{
    if (!e)
        return;
    if (w->expr)
        w->expr(w, e);
    ast_expr_children(e, walk_child, w);
}

void ast_walk_stmt(AstWalk *w, Stmt *s)
{
    if (w->stmt)
        w->stmt(w, s);
    switch (s->kind) {
    case STMT_ASSIGN:
        ast_walk_expr(w, s->u.assign.target);
        ast_walk_expr(w, s->u.assign.value);
        break;
    case STMT_INPUT: case STMT_OUTPUT:
        ast_walk_expr(w, s->u.io.node_side);
        ast_walk_expr(w, s->u.io.io);
        break;
    case STMT_CALL: case STMT_OBJCALL: ast_walk_expr(w, s->u.call.call); break;
    case STMT_MULTICALL: walk_exprs(w, &s->u.multi.calls); break;
    case STMT_REDUCTION:
        ast_walk_expr(w, s->u.reduction.pvs);
        ast_walk_expr(w, s->u.reduction.into);
        break;
    case STMT_WTA:
        ast_walk_expr(w, s->u.wta.pv);
        walk_exprs(w, &s->u.wta.args);
        break;
    case STMT_RETURN: ast_walk_expr(w, s->u.ret.value); break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            ast_walk_expr(w, arm->cond);
            ast_walk_block(w, arm->body);
        }
        ast_walk_block(w, s->u.if_.else_body);
        break;
    case STMT_LOOP:
        ast_walk_expr(w, s->u.loop.while_cond);
        ast_walk_block(w, s->u.loop.body);
        ast_walk_expr(w, s->u.loop.until_cond);
        break;
    case STMT_FOR:
        ast_walk_expr(w, s->u.for_.var);
        ast_walk_expr(w, s->u.for_.from);
        ast_walk_expr(w, s->u.for_.to);
        ast_walk_block(w, s->u.for_.body);
        ast_walk_expr(w, s->u.for_.until_cond);
        break;
    case STMT_REPLICATE: case STMT_EXTEND:
        ast_walk_expr(w, s->u.replicate.obj);
        ast_walk_expr(w, s->u.replicate.count);
        break;
    case STMT_CONNECT: case STMT_DISCONNECT:
        ast_walk_expr(w, s->u.connect.from);
        ast_walk_expr(w, s->u.connect.to);
        break;
    case STMT_MERGE: ast_walk_expr(w, s->u.merge.obj); break;
    case STMT_BREAK: case STMT__COUNT: break;
    }
}

void ast_walk_block(AstWalk *w, Block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        if (d->kind != DECL_DATA)
            continue;
        for (int j = 0; j < d->u.data.ids.len; j++)
            ast_walk_expr(w, VEC_AT(d->u.data.ids, j, InitId)->init);
    }
    for (int i = 0; i < b->stmts.len; i++)
        ast_walk_stmt(w, VEC_AT(b->stmts, i, Stmt));
}
