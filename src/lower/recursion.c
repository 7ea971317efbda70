/* recursion.c -- the subroutines that can call themselves, directly or
 * through others.
 *
 * CuPit allows recursion at every level, and how deep it goes depends on
 * the data: a recursion deeper than the C stack allows must stop the
 * program with a run-time error at the subroutine's line, not with
 * SIGSEGV.  The C functions of these subroutines (plain and lane versions)
 * check the stack on entry (IRH_STACK_CHECK, rt_stack_check); the others,
 * the whole hot path of a trainer, stay as they are. */
#include <string.h>

#include "lw_internal.h"

typedef struct Calls {
    Arena *arena;
    PtrVec *out; /* Symbol*: the subroutines called */
} Calls;

static void c_expr(Calls *c, Expr *e);
static void c_block(Calls *c, Block *b);

static void callee(Calls *c, Symbol *s)
{
    if (!s || !s->sub || !s->decl)
        return;
    for (int i = 0; i < c->out->len; i++)
        if (c->out->items[i] == s)
            return;
    vec_push(c->arena, c->out, s);
}

static void c_exprs(Calls *c, PtrVec *v)
{
    for (int i = 0; i < v->len; i++)
        c_expr(c, VEC_AT(*v, i, Expr));
}

static void c_expr(Calls *c, Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EXPR_SELECT: c_expr(c, e->u.select.obj); break;
    case EXPR_SUBSCRIPT:
        c_expr(c, e->u.subscript.obj);
        c_expr(c, e->u.subscript.index);
        break;
    case EXPR_ALLSLICE: c_expr(c, e->u.allslice.obj); break;
    case EXPR_CONNADDR:
        c_expr(c, e->u.connaddr.from);
        c_expr(c, e->u.connaddr.to);
        break;
    case EXPR_UNARY: c_expr(c, e->u.unary.operand); break;
    case EXPR_BINARY:
        c_expr(c, e->u.binary.lhs);
        c_expr(c, e->u.binary.rhs);
        break;
    case EXPR_TERNARY:
        c_expr(c, e->u.ternary.cond);
        c_expr(c, e->u.ternary.then_e);
        c_expr(c, e->u.ternary.else_e);
        break;
    case EXPR_CALL:
        callee(c, e->sym);
        c_exprs(c, &e->u.call.args);
        break;
    case EXPR_OBJCALL:
        callee(c, e->sym);
        c_expr(c, e->u.objcall.obj);
        c_exprs(c, &e->u.objcall.args);
        break;
    case EXPR_CONVERT: c_exprs(c, &e->u.convert.args); break;
    case EXPR_MAXINDEX: c_expr(c, e->u.maxindex.obj); break;
    default: break;
    }
}

static void c_stmt(Calls *c, Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN:
        c_expr(c, s->u.assign.target);
        c_expr(c, s->u.assign.value);
        break;
    case STMT_INPUT: case STMT_OUTPUT:
        c_expr(c, s->u.io.node_side);
        c_expr(c, s->u.io.io);
        break;
    case STMT_CALL: case STMT_OBJCALL: c_expr(c, s->u.call.call); break;
    case STMT_MULTICALL: c_exprs(c, &s->u.multi.calls); break;
    case STMT_REDUCTION:
        callee(c, s->callee);
        c_expr(c, s->u.reduction.pvs);
        c_expr(c, s->u.reduction.into);
        break;
    case STMT_WTA:
        callee(c, s->callee);
        callee(c, s->proc);
        c_expr(c, s->u.wta.pv);
        c_exprs(c, &s->u.wta.args);
        break;
    case STMT_RETURN: c_expr(c, s->u.ret.value); break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            c_expr(c, arm->cond);
            c_block(c, arm->body);
        }
        c_block(c, s->u.if_.else_body);
        break;
    case STMT_LOOP:
        c_expr(c, s->u.loop.while_cond);
        c_block(c, s->u.loop.body);
        c_expr(c, s->u.loop.until_cond);
        break;
    case STMT_FOR:
        c_expr(c, s->u.for_.var);
        c_expr(c, s->u.for_.from);
        c_expr(c, s->u.for_.to);
        c_block(c, s->u.for_.body);
        c_expr(c, s->u.for_.until_cond);
        break;
    case STMT_REPLICATE: case STMT_EXTEND:
        c_expr(c, s->u.replicate.obj);
        c_expr(c, s->u.replicate.count);
        break;
    case STMT_CONNECT: case STMT_DISCONNECT:
        c_expr(c, s->u.connect.from);
        c_expr(c, s->u.connect.to);
        break;
    case STMT_MERGE: c_expr(c, s->u.merge.obj); break;
    default: break;
    }
}

static void c_block(Calls *c, Block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        if (d->kind != DECL_DATA)
            continue;
        for (int j = 0; j < d->u.data.ids.len; j++)
            c_expr(c, VEC_AT(d->u.data.ids, j, InitId)->init);
    }
    for (int i = 0; i < b->stmts.len; i++)
        c_stmt(c, VEC_AT(b->stmts, i, Stmt));
}

/* A depth-first walk over the call graph (subroutine indexes). */
typedef struct Walk {
    PtrMap *index;       /* (Symbol*, NULL, 0) -> index + 1 */
    PtrVec *calls;       /* [index]: its callees */
    int *stack, top;
    unsigned char *seen;
} Walk;

static void push_callees(Walk *w, int i)
{
    for (int k = 0; k < w->calls[i].len; k++) {
        intptr_t j = (intptr_t)ptrmap_get(w->index, w->calls[i].items[k], NULL, 0) - 1;
        if (j >= 0 && !w->seen[j]) {
            w->seen[j] = 1;
            w->stack[w->top++] = (int)j;
        }
    }
}

void lw_find_recursion(Lw *lw)
{
    PtrVec *subrs = &lw->si->subrs;
    int n = subrs->len;
    PtrVec *calls = arena_alloc(lw->arena, (size_t)(n + 1) * sizeof *calls);
    PtrMap index = {0}; /* (Symbol*, NULL, 0) -> index + 1 */
    for (int i = 0; i < n; i++) {
        Symbol *s = VEC_AT(*subrs, i, Symbol);
        ptrmap_put(lw->arena, &index, s, NULL, 0, (void *)(intptr_t)(i + 1));
        Calls c = {.arena = lw->arena, .out = &calls[i]};
        if (s->decl && !s->sub->external)
            c_block(&c, s->decl->u.subr.body);
    }
    /* s is recursive when a walk from its callees comes back to it */
    Walk w = {.index = &index, .calls = calls,
              .stack = arena_alloc(lw->arena, (size_t)(n + 1) * sizeof *w.stack),
              .seen = arena_alloc(lw->arena, (size_t)n + 1)};
    for (int i = 0; i < n; i++) {
        memset(w.seen, 0, (size_t)n + 1);
        w.top = 0;
        push_callees(&w, i);
        bool found = false;
        while (w.top > 0 && !found) {
            int j = w.stack[--w.top];
            found = j == i;
            push_callees(&w, j);
        }
        if (found)
            ptrmap_put(lw->arena, &lw->recursive, VEC_AT(*subrs, i, Symbol), NULL, 0, (void *)1);
    }
    ptrmap_free(lw->arena, &index);
}

void lw_stack_check(Lw *lw, const Symbol *s)
{
    if (!ptrmap_get(&lw->recursive, s, NULL, 0))
        return;
    IrModule *m = lw->m;
    lw_eval(lw, ir_helper(m, IRH_STACK_CHECK, ir_t(m, IRT_VOID), IR_ARGS(lw_pos(lw, s->loc))), s->loc);
}
