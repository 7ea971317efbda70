/* pass_util.c -- reachability, block editing and tracing for the passes. */
#include <stdarg.h>
#include <string.h>

#include "passes_internal.h"

/* Where reachability starts: the program's start, what the runtime's
 * tables name, the functions whose bodies are built only when printed
 * (streamed: their calls are not known here), and what those can call --
 * network subroutines (from the central agent), record subroutines and
 * the subroutines MERGE procedures call.  What is left to find are the
 * instances of node and connection subroutines. */
static bool root(const IrFunc *f)
{
    switch (f->role) {
    case IRFN_STARTUP: case IRFN_EXTERNAL: case IRFN_MERGE: case IRFN_LANE_MERGE:
    case IRFN_LANE_FOLD: case IRFN_INIT: case IRFN_LANE_GET: case IRFN_LANE_REC:
    case IRFN_LANE_PUT: case IRFN_GATHER: case IRFN_MERGE_CALLEE:
        return true;
    case IRFN_OBJECT: case IRFN_LANE:
        return f->streamed || (f->subr && f->subr->owner &&
                               (f->subr->owner->kind == TY_NETWORK ||
                                f->subr->owner->kind == TY_RECORD));
    default:
        return f->streamed;
    }
}

typedef struct Reach {
    PtrVec work;
    Arena *arena;
} Reach;

static void reach(Reach *r, IrFunc *f)
{
    if (!f || f->reached)
        return;
    f->reached = true;
    vec_push(r->arena, &r->work, f);
}

static bool reach_expr(IrVisitor *v, IrExpr *e)
{
    if ((e->kind == IRE_CALL || e->kind == IRE_FUNCREF) && e->fn)
        reach(v->data, e->fn);
    return true;
}

static bool reach_stmt(IrVisitor *v, IrStmt *s)
{
    if (s->kind == IRS_REDUCE && s->red)
        reach(v->data, s->red->combine);
    return true;
}

void pu_mark_reached(IrModule *m)
{
    Reach r = {.arena = m->arena};
    for (int i = 0; i < m->funcs.len; i++)
        VEC_AT(m->funcs, i, IrFunc)->reached = false;
    for (int i = 0; i < m->funcs.len; i++) {
        IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        if (root(f))
            reach(&r, f);
    }
    IrVisitor v = {.stmt = reach_stmt, .expr = reach_expr, .data = &r};
    for (int i = 0; i < m->statics.len; i++) { /* --library's entry table */
        IrStatic *st = VEC_AT(m->statics, i, IrStatic);
        ir_walk_expr(&v, st->init);
        for (int j = 0; j < st->rows.len; j++)
            ir_walk_expr(&v, VEC_AT(st->rows, j, IrExpr));
    }
    while (r.work.len) {
        IrFunc *f = r.work.items[--r.work.len];
        ir_walk_stmt(&v, f->body);
    }
}

typedef struct EachBlock {
    PuBlockFn fn;
    void *data;
} EachBlock;

static void after(IrVisitor *v, IrStmt *s)
{
    EachBlock *eb = v->data;
    if (s->kind == IRS_BLOCK)
        eb->fn(s, eb->data);
}

void pu_each_block(IrStmt *s, PuBlockFn fn, void *data)
{
    EachBlock eb = {fn, data};
    IrVisitor v = {.stmt_after = after, .data = &eb};
    ir_walk_stmt(&v, s);
}

void pu_insert(IrModule *m, IrStmt *blk, int i, IrStmt *s)
{
    vec_push(m->arena, &blk->list, NULL);
    memmove(&blk->list.items[i + 1], &blk->list.items[i],
            (size_t)(blk->list.len - 1 - i) * sizeof blk->list.items[0]);
    blk->list.items[i] = s;
}

void pu_remove(IrStmt *blk, int i)
{
    memmove(&blk->list.items[i], &blk->list.items[i + 1],
            (size_t)(blk->list.len - 1 - i) * sizeof blk->list.items[0]);
    blk->list.len--;
}

void pu_trace(PassCtx *c, const char *pass, const char *fmt, ...)
{
    if (!c->trace)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(c->trace, "%s: ", pass);
    vfprintf(c->trace, fmt, ap);
    fputc('\n', c->trace);
    va_end(ap);
}

IrVar *pu_lane_of(const IrExpr *e)
{
    if (e && e->kind == IRE_INDEX && e->b && e->b->kind == IRE_VAR)
        return e->b->u.var;
    return NULL;
}

static bool count_expr(IrVisitor *v, IrExpr *e)
{
    (void)v;
    if (e->kind == IRE_FIELD)
        ((IrField *)e->u.field)->uses++;
    return true;
}

static bool count_stmt(IrVisitor *v, IrStmt *s)
{
    (void)v;
    if (s->kind == IRS_SHUFFLE && s->field)
        ((IrField *)s->field)->uses++;
    return true;
}

void pu_count_uses(IrModule *m)
{
    for (int i = 0; i < m->layouts.len; i++) {
        IrLayout *l = VEC_AT(m->layouts, i, IrLayout);
        for (int j = 0; j < l->fields.len; j++)
            VEC_AT(l->fields, j, IrField)->uses = 0;
    }
    IrVisitor v = {.stmt = count_stmt, .expr = count_expr};
    ir_walk_module(&v, m);
}

IrVar *pu_lane_temp(IrModule *m, IrFunc *f, IrStmt *blk, int at, const IrType *vt, Loc loc,
                    IrStmt **fill, IrVar **lane)
{
    IrVar *t = ir_fresh(m, f, "lt", ir_t_lanes(m, vt));
    IrStmt *d = ir_s(m, IRS_DECL, loc);
    d->var = t;
    d->uninit = true;
    IrStmt *loop = ir_s(m, IRS_FOR, loc);
    loop->for_kind = IRFOR_LANES;
    loop->simd = true;
    loop->var = ir_var(m, "l", ir_t(m, IRT_INT), IRV_LOCAL);
    loop->then = ir_block(m, loc);
    IrStmt *as = ir_s(m, IRS_ASSIGN, loc);
    as->a = ir_index(m, ir_ref(m, t), ir_ref(m, loop->var));
    ir_append(m, loop->then, as);
    pu_insert(m, blk, at, d);
    pu_insert(m, blk, at + 1, loop);
    *fill = as;
    *lane = loop->var;
    return t;
}

typedef struct CaWalk {
    PassCtx *c;
    IrFunc *f;
    void (*fn)(IrStmt *blk, PassCtx *c, IrFunc *f, int *n);
    int n;
} CaWalk;

static void ca_block(IrStmt *blk, void *data)
{
    CaWalk *w = data;
    w->fn(blk, w->c, w->f, &w->n);
}

void pu_ca_blocks(PassCtx *c, IrFunc *f, const char *pass, const char *what,
                  void (*fn)(IrStmt *blk, PassCtx *c, IrFunc *f, int *n))
{
    if (!c->m->opts.lanes || f->role != IRFN_GLOBAL || !f->body || !f->subr ||
        f->subr->sub->context != CTX_CA)
        return;
    CaWalk w = {.c = c, .f = f, .fn = fn};
    pu_each_block(f->body, ca_block, &w);
    if (w.n)
        pu_trace(c, pass, "%s: %d %s", f->name, w.n, what);
}
