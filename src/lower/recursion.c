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

/* The strongly connected components of the call graph (Tarjan's
 * algorithm, without recursion: call chains can be long).  A subroutine
 * can call itself when its component has another member or it calls
 * itself directly.  Linear in the size of the graph: a walk from every
 * subroutine took time quadratic in their number (16000 functions in a
 * chain, 2.4 s). */
typedef struct Scc {
    int **adj, *deg;      /* [i]: the indexes of i's callees */
    int *num, *low;       /* discovery number + 1 (0: not yet), lowest reachable */
    int *stack, top;      /* the component stack */
    unsigned char *on;    /* on the component stack */
    int *frame, *edge;    /* the walk: node and next edge per level */
    int counter;
} Scc;

static void scc_from(Scc *g, int root, unsigned char *rec)
{
    int depth = 0;
    g->frame[0] = root;
    g->edge[0] = 0;
    g->num[root] = g->low[root] = ++g->counter;
    g->stack[g->top++] = root;
    g->on[root] = 1;
    while (depth >= 0) {
        int v = g->frame[depth];
        if (g->edge[depth] < g->deg[v]) {
            int w = g->adj[v][g->edge[depth]++];
            if (w == v) {
                rec[v] = 1; /* calls itself */
            } else if (!g->num[w]) {
                g->num[w] = g->low[w] = ++g->counter;
                g->stack[g->top++] = w;
                g->on[w] = 1;
                depth++;
                g->frame[depth] = w;
                g->edge[depth] = 0;
            } else if (g->on[w] && g->num[w] < g->low[v]) {
                g->low[v] = g->num[w];
            }
            continue;
        }
        if (g->low[v] == g->num[v]) { /* v roots a component: pop it */
            int first = g->top;
            do
                first--;
            while (g->stack[first] != v);
            for (int k = first; k < g->top; k++) {
                g->on[g->stack[k]] = 0;
                if (g->top - first > 1)
                    rec[g->stack[k]] = 1;
            }
            g->top = first;
        }
        depth--;
        if (depth >= 0 && g->low[v] < g->low[g->frame[depth]])
            g->low[g->frame[depth]] = g->low[v];
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
    size_t ints = (size_t)(n + 1) * sizeof(int);
    Scc g = {.adj = arena_alloc(lw->arena, (size_t)(n + 1) * sizeof *g.adj),
             .deg = arena_alloc(lw->arena, ints), .num = arena_alloc(lw->arena, ints),
             .low = arena_alloc(lw->arena, ints), .stack = arena_alloc(lw->arena, ints),
             .on = arena_alloc(lw->arena, (size_t)n + 1),
             .frame = arena_alloc(lw->arena, ints), .edge = arena_alloc(lw->arena, ints)};
    for (int i = 0; i < n; i++) {
        g.adj[i] = arena_alloc(lw->arena, (size_t)(calls[i].len + 1) * sizeof(int));
        for (int k = 0; k < calls[i].len; k++) {
            intptr_t j = (intptr_t)ptrmap_get(&index, calls[i].items[k], NULL, 0) - 1;
            if (j >= 0)
                g.adj[i][g.deg[i]++] = (int)j;
        }
    }
    unsigned char *rec = arena_alloc(lw->arena, (size_t)n + 1); /* zero-filled, as g */
    for (int i = 0; i < n; i++)
        if (!g.num[i])
            scc_from(&g, i, rec);
    for (int i = 0; i < n; i++)
        if (rec[i])
            ptrmap_put(lw->arena, &lw->recursive, VEC_AT(*subrs, i, Symbol), NULL, 0, (void *)1);
    ptrmap_free(lw->arena, &index);
}

void lw_stack_check(Lw *lw, const Symbol *s)
{
    if (!ptrmap_get(&lw->recursive, s, NULL, 0))
        return;
    IrModule *m = lw->m;
    lw_eval(lw, ir_helper(m, IRH_STACK_CHECK, ir_t(m, IRT_VOID), IR_ARGS(lw_pos(lw, s->loc))), s->loc);
}
