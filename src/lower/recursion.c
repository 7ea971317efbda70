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

#include "cupitc/ast_walk.h"
#include "lw_internal.h"

typedef struct Calls {
    AstWalk walk; /* first: the callbacks get &walk */
    Arena *arena;
    PtrVec *out; /* Symbol*: the subroutines called */
} Calls;

static void callee(Calls *c, Symbol *s)
{
    if (!s || !s->sub || !s->decl)
        return;
    for (int i = 0; i < c->out->len; i++)
        if (c->out->items[i] == s)
            return;
    vec_push(c->arena, c->out, s);
}

static void calls_in_expr(AstWalk *w, Expr *e)
{
    if (e->kind == EXPR_CALL || e->kind == EXPR_OBJCALL)
        callee((Calls *)w, e->sym);
}

static void calls_in_stmt(AstWalk *w, Stmt *s)
{
    if (s->kind == STMT_REDUCTION || s->kind == STMT_WTA)
        callee((Calls *)w, s->callee);
    if (s->kind == STMT_WTA)
        callee((Calls *)w, s->proc);
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
        Calls c = {.walk = {.expr = calls_in_expr, .stmt = calls_in_stmt},
                   .arena = lw->arena, .out = &calls[i]};
        if (s->decl && !s->sub->external)
            ast_walk_block(&c.walk, s->decl->u.subr.body);
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
