/* pass_dense.c -- dense bundles as matrix kernels.
 *
 * A bundle that is the full cross product of its two groups, as `CONNECT
 * a[].out TO b[].in` makes it, stores connection k = d * nsrc + s.  A
 * node's sum over such a bundle, `REDUCTION ME.in[].signal:sum INTO
 * ME.net` recomputed by the fuse pass as the sender's value times the
 * weight, is for the whole group and the 16 replicates of a lane block one
 * matrix product.  Computed node by node, each node's sum is one chain of
 * dependent additions; rt_dense_sum (cupit_rt.h) computes a tile of nodes
 * at a time with one chain per node in flight, in registers, adding in
 * exactly the same order per node and lane (the same bits).
 *
 * The pass looks at a group call in lane code, `for each node i of group g:
 * F (i)` with the caller's mask, whose procedure F starts with such a sum:
 *
 *     reduce.vsum sum mask M0 into (*me).f[l]
 *         for each bundle b:  for.conns b at idx:  yield x(node at the
 *             other end of k).z[l] * w(k)              (w shared or per lane)
 *
 * and rewrites the call to
 *
 *     if (every bundle b is dense at run time)
 *         { rt_dense_sum (f of all nodes of g, mask, one term per bundle);
 *           for each node i: F' (i) }           (F' = F without the sum)
 *     else
 *         the call as it was                    (pruned: the connection lists)
 *
 * Preconditions, else the call stays as it is: the sum is F's first
 * statement, or comes after statements that may as well run after it
 * (prefix_ok), and sums into an element of ME; each term is the product of
 * an element of the node at the other end and an element of the
 * connection; nothing F' does -- itself or through what it calls --
 * writes an element the sums read, and no sum reads the element it writes
 * (so that computing every node's sum first changes nothing); the call
 * covers the whole group. */
#include <string.h>

#include "passes_internal.h"

enum { MAX_TERMS = 16 };

typedef struct Term {
    int b;                 /* bundle */
    bool out;              /* over the node's outgoing connections */
    int gx;                /* the group of the other end */
    const IrField *xf;     /* its element (a lane array) */
    const IrLayout *wl;    /* the weight's layout (lane or shared) */
    const IrField *wf;
} Term;

typedef struct Match {
    IrStmt *proc;          /* F's procedure block */
    int pos;               /* the sum's block in it */
    const IrField *into;
    Term terms[MAX_TERMS];
    int n;
} Match;

/* ---- the shape of the sum ------------------------------------------------ */

static bool is_var(const IrExpr *e, const IrVar *v)
{
    return e && e->kind == IRE_VAR && (!v || e->u.var == v);
}

/* x(k).z[l]: a lane element of the node at the other end of connection k. */
static bool match_x(const IrExpr *e, const IrStmt *loop, IrVar *lane, Term *t)
{
    if (!e || e->kind != IRE_INDEX || !is_var(e->b, lane))
        return false;
    const IrExpr *f = e->a;
    if (f->kind != IRE_FIELD || !f->u.field->lanes)
        return false;
    const IrExpr *rec = f->a;
    if (rec->kind != IRE_INDEX || rec->a->kind != IRE_NODES || rec->a->form != IRF_LANE ||
        rec->a->c)
        return false;
    const IrExpr *at = rec->b;
    if (at->kind != IRE_NETINFO || at->info != (loop->out ? IRN_DST_NODE : IRN_SRC_NODE) ||
        !at->b || at->b->kind != IRE_INT || at->b->u.i != loop->g || !is_var(at->c, loop->var))
        return false;
    t->gx = rec->a->g;
    t->xf = f->u.field;
    return true;
}

/* w(k): an element of connection k, one value (shared record) or this
 * lane's (lane record). */
static bool match_w(const IrExpr *e, const IrStmt *loop, IrVar *lane, Term *t)
{
    const IrExpr *f = e;
    if (e && e->kind == IRE_INDEX && is_var(e->b, lane))
        f = e->a;
    if (!f || f->kind != IRE_FIELD)
        return false;
    const IrField *wf = f->u.field;
    if (wf->lanes != (f != e) || wf->layout->type->kind != TY_CONNECTION)
        return false;
    const IrExpr *rec = f->a;
    if (rec->kind != IRE_INDEX || !is_var(rec->b, loop->var) || rec->a->kind != IRE_VAR)
        return false;
    t->wl = wf->layout;
    t->wf = wf;
    return true;
}

/* One bundle's part of the sum: { decl C; decl CS; for.conns b at idx {
 * decl lz; for.lanes: lz[l] := x * w; yield lz } }. */
static bool match_term(const IrStmt *blk, const IrFunc *f, Term *t)
{
    if (blk->kind != IRS_BLOCK || !blk->list.len)
        return false;
    const IrStmt *loop = VEC_AT(blk->list, blk->list.len - 1, IrStmt);
    for (int i = 0; i + 1 < blk->list.len; i++)
        if (VEC_AT(blk->list, i, IrStmt)->kind != IRS_DECL)
            return false;
    if (loop->kind != IRS_FOR || loop->for_kind != IRFOR_CONNS || loop->skip_dead ||
        !is_var(loop->b, ir_param_named(f, "idx")) || loop->then->list.len != 3)
        return false;
    const IrStmt *d = VEC_AT(loop->then->list, 0, IrStmt);
    const IrStmt *fill = VEC_AT(loop->then->list, 1, IrStmt);
    const IrStmt *y = VEC_AT(loop->then->list, 2, IrStmt);
    if (d->kind != IRS_DECL || fill->kind != IRS_FOR || fill->for_kind != IRFOR_LANES ||
        y->kind != IRS_YIELD || !is_var(y->a, d->var) || fill->then->list.len != 1)
        return false;
    const IrStmt *as = VEC_AT(fill->then->list, 0, IrStmt);
    if (as->kind != IRS_ASSIGN || as->a->kind != IRE_INDEX || !is_var(as->a->a, d->var))
        return false;
    const IrExpr *v = as->b;
    if (v->kind != IRE_BINARY || v->op != IROP_MUL || v->type->kind != IRT_VALUE ||
        v->type->cupit->kind != TY_REAL)
        return false;
    t->b = loop->g;
    t->out = loop->out;
    IrVar *lane = fill->var;
    return (match_x(v->a, loop, lane, t) && match_w(v->b, loop, lane, t)) ||
           (match_x(v->b, loop, lane, t) && match_w(v->a, loop, lane, t));
}

/* ---- what may come before the sum ------------------------------------------------------ */

typedef struct Prefix {
    const IrField *into;   /* the sum's element: the prefix must not name it */
    const IrVar *self;     /* ME */
    const IrStmt *proc;    /* F's procedure block ... */
    int upto;              /* ... and the statement checked: the variables
                              declared in proc's statements up to it are the
                              prefix's own */
    int lanes;             /* inside a lane loop: an IF there is a masked store */
    bool ok;
} Prefix;

/* Whether s declares v, itself or in a statement it holds. */
static bool declares(const IrStmt *s, const IrVar *v)
{
    if (!s)
        return false;
    if (s->kind == IRS_DECL)
        return s->var == v;
    for (int i = 0; i < s->list.len; i++)
        if (declares(VEC_AT(s->list, i, IrStmt), v))
            return true;
    return declares(s->then, v) || declares(s->els, v);
}

/* Whether an assignment to lv changes nothing but an element of ME or a
 * variable the prefix declares.  Anything else -- the procedure's mask
 * above all, which lane code clears for the lanes a RETURN leaves (`IF m
 * = 1 THEN RETURN` decided by const-branch is a lane loop of such
 * assignments) and which the sum then reads -- would change what the sum
 * does if it ran first. */
static bool own_target(const Prefix *p, const IrExpr *lv)
{
    while (lv && (lv->kind == IRE_INDEX || lv->kind == IRE_MEMBER))
        lv = lv->a;
    if (!lv)
        return false;
    if (lv->kind == IRE_FIELD)
        return lv->a && lv->a->kind == IRE_DEREF && is_var(lv->a->a, p->self);
    if (lv->kind != IRE_VAR)
        return false;
    for (int i = 0; i <= p->upto; i++)
        if (declares(VEC_AT(p->proc->list, i, IrStmt), lv->u.var))
            return true;
    return false;
}

static bool prefix_expr(IrVisitor *v, IrExpr *e)
{
    Prefix *p = v->data;
    if (e->kind == IRE_FIELD && e->u.field == p->into)
        p->ok = false;
    if (e->kind == IRE_CALL) {
        switch (e->helper) { /* computations that change nothing but their result */
        case IRH_CHK_I32: case IRH_CHK_I16: case IRH_CHK_I8: case IRH_IDX:
        case IRH_DIV: case IRH_MOD: case IRH_SHL: case IRH_SHR: case IRH_REAL_TO_INT:
        case IRH_FMOD_REAL: case IRH_IN_IV: case IRH_IN_IV1: case IRH_IN_IV2: case IRH_IN_RV:
        case IRH_IPOW: case IRH_RPOW_INT: case IRH_RPOW:
        case IRH_SIGMOID: case IRH_SIGMOID_PRIME: case IRH_ABS_REAL: case IRH_SIGN_REAL:
        case IRH_MIN_REAL: case IRH_MAX_REAL:
            break;
        default:
            p->ok = false;
        }
    }
    return p->ok;
}

static bool prefix_stmt(IrVisitor *v, IrStmt *s)
{
    Prefix *p = v->data;
    bool lanes = s->kind == IRS_FOR && s->for_kind == IRFOR_LANES;
    if (s->kind != IRS_DECL && s->kind != IRS_ASSIGN && s->kind != IRS_COMMENT &&
        s->kind != IRS_BLOCK && !lanes && !(s->kind == IRS_IF && p->lanes > 0))
        p->ok = false;
    if (s->kind == IRS_ASSIGN && !own_target(p, s->a))
        p->ok = false;
    p->lanes += lanes;
    return p->ok;
}

static void prefix_after(IrVisitor *v, IrStmt *s)
{
    Prefix *p = v->data;
    p->lanes -= s->kind == IRS_FOR && s->for_kind == IRFOR_LANES;
}

/* Whether statement s of F, before the sum, may as well run after every
 * node's sum: local declarations and lane loops of declarations and
 * assignments (`ME.act := 0.0`, `Real VAR t := 2.0 * ME.x`) that call
 * nothing but arithmetic helpers -- no IF, RETURN or loop that could skip
 * the sum for some lanes; an IF inside a lane loop only masks a store --
 * assign only elements of ME and their own locals (own_target), and never
 * name the element the sum writes (what they write is checked against
 * what the sum reads with the rest of F).  s is statement i of F's
 * procedure block proc; into NULL: only the shape. */
static bool prefix_ok(const IrFunc *f, const IrStmt *proc, int i, const IrField *into)
{
    IrStmt *s = VEC_AT(proc->list, i, IrStmt);
    Prefix p = {.into = into, .self = f->self, .proc = proc, .upto = i,
                .ok = s->kind == IRS_DECL || s->kind == IRS_COMMENT ||
                                     s->kind == IRS_BLOCK ||
                                     (s->kind == IRS_FOR && s->for_kind == IRFOR_LANES)};
    IrVisitor v = {.stmt = prefix_stmt, .expr = prefix_expr, .stmt_after = prefix_after,
                   .data = &p};
    if (p.ok)
        ir_walk_stmt(&v, s);
    return p.ok;
}

/* F starts with a vector sum over dense-able bundles into an element of ME,
 * after statements that may as well run after it (prefix_ok). */
static bool match_fn(const IrFunc *f, Match *mt)
{
    if (f->role != IRFN_LANE || !f->net || !f->subr || f->subr->owner->kind != TY_NODE ||
        !f->body || !f->self || !f->body->list.len)
        return false;
    IrStmt *proc = VEC_AT(f->body->list, f->body->list.len - 1, IrStmt);
    if (proc->kind != IRS_BLOCK || !proc->list.len)
        return false;
    int pos = 0;
    while (pos < proc->list.len && prefix_ok(f, proc, pos, NULL))
        pos++;
    if (pos == proc->list.len)
        return false;
    IrStmt *holder = VEC_AT(proc->list, pos, IrStmt);
    if (holder->kind != IRS_BLOCK || holder->list.len != 1)
        return false;
    IrStmt *rs = VEC_AT(holder->list, 0, IrStmt);
    if (rs->kind != IRS_REDUCE || rs->red->kind != IRR_VSUM || rs->red->wta)
        return false;
    const IrExpr *into = rs->red->into;
    if (into->kind != IRE_INDEX || !is_var(into->b, rs->red->lane) || into->a->kind != IRE_FIELD ||
        into->a->a->kind != IRE_DEREF || !is_var(into->a->a->a, f->self))
        return false;
    mt->proc = proc;
    mt->pos = pos;
    mt->into = into->a->u.field;
    for (int i = 0; i < pos; i++)
        if (!prefix_ok(f, proc, i, mt->into))
            return false;
    mt->n = 0;
    for (int i = 0; i < rs->then->list.len; i++) {
        if (mt->n == MAX_TERMS || !match_term(VEC_AT(rs->then->list, i, IrStmt), f, &mt->terms[mt->n]))
            return false;
        mt->n++;
    }
    return mt->n > 0;
}

/* ---- what the rest of F writes --------------------------------------------------------- */

typedef struct Writes {
    PtrVec fields;         /* IrField* written */
    PtrVec groups;         /* for each: the group whose node it is in (as
                              intptr_t), -1 for any */
    PtrVec seen;           /* IrFunc* walked */
    bool unknown;          /* something writes what cannot be told */
    const IrFunc *fn;      /* the function being walked */
    Arena *arena;
} Writes;

static void walk_writes(Writes *w, const IrFunc *fn, IrStmt *s);

/* A write of field f: through ME of a node function, only its group's
 * nodes; anything else, any. */
static void add_write(Writes *w, const IrField *f, const IrExpr *lv)
{
    while (lv && (lv->kind == IRE_INDEX || lv->kind == IRE_MEMBER))
        lv = lv->a;
    int g = -1;
    if (lv && lv->kind == IRE_FIELD && lv->a && lv->a->kind == IRE_DEREF && w->fn->self &&
        is_var(lv->a->a, w->fn->self) && w->fn->subr && w->fn->subr->owner->kind == TY_NODE)
        g = w->fn->group;
    vec_push(w->arena, &w->fields, (void *)f);
    vec_push(w->arena, &w->groups, (void *)(intptr_t)g);
}

static const IrField *root_field(const IrExpr *lv)
{
    while (lv && (lv->kind == IRE_INDEX || lv->kind == IRE_MEMBER))
        lv = lv->a;
    return lv && lv->kind == IRE_FIELD ? lv->u.field : NULL;
}

static bool contains(const PtrVec *v, const void *p)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == p)
            return true;
    return false;
}

static bool writes_expr(IrVisitor *v, IrExpr *e)
{
    Writes *w = v->data;
    if (e->kind != IRE_CALL)
        return true;
    if (e->fn && e->fn->role == IRFN_LANE) {
        if (!contains(&w->seen, e->fn)) {
            vec_push(w->arena, &w->seen, e->fn);
            walk_writes(w, e->fn, e->fn->body);
        }
        return true;
    }
    if (e->fn && (e->fn->role == IRFN_REDUCTION || e->fn->role == IRFN_WTA))
        return true;
    if (e->helper != IRH_NONE && e->helper != IRH_MEMCPY && e->helper != IRH_MEMSET)
        return true; /* the prelude's and runtime's helpers write no element */
    /* anything else may write through its pointer arguments */
    for (int i = 0; i < e->args.len; i++) {
        const IrExpr *a = VEC_AT(e->args, i, IrExpr);
        if (a->kind == IRE_ADDR) {
            const IrField *f = root_field(a->a);
            if (f)
                add_write(w, f, a->a);
            else if (a->a->kind != IRE_VAR && !(a->a->kind == IRE_INDEX && a->a->a->kind == IRE_VAR))
                w->unknown = true;
        } else if (a->type && a->type->kind == IRT_PTR && a->kind != IRE_VAR && a->kind != IRE_STRING) {
            w->unknown = true;
        }
    }
    if (e->fn && e->fn->role != IRFN_GLOBAL && e->fn->role != IRFN_EXTERNAL)
        w->unknown = true; /* lane record functions and the like */
    return true;
}

static bool writes_stmt(IrVisitor *v, IrStmt *s)
{
    Writes *w = v->data;
    const IrExpr *lv = s->kind == IRS_ASSIGN ? s->a
                       : s->kind == IRS_REDUCE && s->red->into ? s->red->into : NULL;
    const IrField *f = lv ? root_field(lv) : NULL;
    if (f)
        add_write(w, f, lv);
    return true;
}

static void walk_writes(Writes *w, const IrFunc *fn, IrStmt *s)
{
    const IrFunc *saved = w->fn;
    w->fn = fn;
    IrVisitor v = {.stmt = writes_stmt, .expr = writes_expr, .data = w};
    ir_walk_stmt(&v, s);
    w->fn = saved;
}

/* Whether something written may be element f of a node of group g
 * (g -1: of a connection). */
static bool written(const Writes *w, const IrField *f, int g)
{
    for (int i = 0; i < w->fields.len; i++) {
        int wg = (int)(intptr_t)w->groups.items[i];
        if (w->fields.items[i] == f && (wg < 0 || g < 0 || wg == g))
            return true;
    }
    return false;
}

/* Whether F without its sum (proc's statements before and after pos)
 * leaves every element the sum reads as it is. */
static bool rest_is_independent(PassCtx *c, const IrFunc *f, const Match *mt)
{
    Writes w = {.arena = c->m->arena};
    vec_push(w.arena, &w.seen, (void *)f);
    for (int i = 0; i < mt->proc->list.len; i++)
        if (i != mt->pos)
            walk_writes(&w, f, VEC_AT(mt->proc->list, i, IrStmt));
    if (w.unknown)
        return false;
    for (int t = 0; t < mt->n; t++)
        if (written(&w, mt->terms[t].xf, mt->terms[t].gx) || written(&w, mt->terms[t].wf, -1) ||
            (mt->terms[t].xf == mt->into && mt->terms[t].gx == f->group))
            return false; /* the rest, or the sum itself, changes what a sum reads */
    return true;
}

/* ---- the rewrite ------------------------------------------------------------------------------ */

/* F without its sum, once per F. */
static IrFunc *without_sum(PassCtx *c, IrFunc *f, const Match *mt)
{
    IrModule *m = c->m;
    /* a prefix of its own: "<name>_rest" could be a user's procedure */
    const char *name = arena_printf(m->perm, "cpNRest_%s", f->name + (strncmp(f->name, "cpNL_", 5) ? 0 : 5));
    for (int i = 0; i < m->funcs.len; i++) {
        IrFunc *g = VEC_AT(m->funcs, i, IrFunc);
        if (g->name == name || strcmp(g->name, name) == 0)
            return g;
    }
    IrFunc *r = ir_func(m, name, f->role, f->ret);
    IrFunc saved = *r;
    *r = *f;
    r->name = saved.name;
    r->body = ir_clone_stmt(m, f->body);
    IrStmt *proc = VEC_AT(r->body->list, r->body->list.len - 1, IrStmt);
    pu_remove(proc, mt->pos);
    /* after f in the module */
    for (int i = 0; i < m->funcs.len; i++)
        if (VEC_AT(m->funcs, i, IrFunc) == f) {
            vec_push(m->perm, &m->funcs, NULL);
            memmove(&m->funcs.items[i + 2], &m->funcs.items[i + 1],
                    (size_t)(m->funcs.len - i - 2) * sizeof m->funcs.items[0]);
            m->funcs.items[i + 1] = r;
            break;
        }
    return r;
}

static IrExpr *size_of(IrModule *m, const IrLayout *l)
{
    return ir_sizeof(m, ir_t_record(m, l));
}

/* &records[0].field of a locator, as a pointer to const void. */
static IrExpr *base_of(IrModule *m, IrExpr *locator, const IrField *f)
{
    return ir_cast(m, ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true),
                   ir_addr(m, ir_field(m, ir_index(m, locator, ir_i32(m, 0)), f)));
}

static IrExpr *terms_of(PassCtx *c, const IrFunc *caller, const Match *mt)
{
    IrModule *m = c->m;
    const LowerNet *net = lower_net_of(c->plan, caller->subr->owner);
    IrVar *nv = ir_param_named(caller, "net"), *bv = ir_param_named(caller, "blk");
    const IrType *tt = ir_t_named(m, "rt_dense_term"), *i64 = ir_t(m, IRT_I64);
    IrExpr *arr = ir_struct(m, ir_t_array(m, tt, mt->n));
    for (int i = 0; i < mt->n; i++) {
        const Term *t = &mt->terms[i];
        const LowerBundle *bu = &net->bundles[t->b];
        const IrLayout *xl = t->xf->layout;
        IrExpr *nsrc = ir_cast(m, i64, ir_netinfo(m, IRN_COUNT, ir_ref(m, nv), ir_i32(m, bu->src_group), NULL));
        IrExpr *ndst = ir_netinfo(m, IRN_COUNT, ir_ref(m, nv), ir_i32(m, bu->dst_group), NULL);
        IrExpr *row = ir_struct(m, tt);
        ir_struct_add(m, row, "x", base_of(m, ir_nodes(m, ir_ref(m, nv), ir_ref(m, bv), t->gx, xl), t->xf));
        ir_struct_add(m, row, "x_stride", size_of(m, xl));
        ir_struct_add(m, row, "w", base_of(m, ir_conns(m, ir_ref(m, nv), ir_ref(m, bv), t->b, t->wl), t->wf));
        ir_struct_add(m, row, "w_stride", size_of(m, t->wl));
        /* connection k = d * nsrc + s: over incoming connections the output
           is d and the sum runs over s, over outgoing ones the other way */
        ir_struct_add(m, row, "wj", t->out ? ir_int(m, i64, 1) : nsrc);
        ir_struct_add(m, row, "ws", t->out ? ir_clone(m, nsrc) : ir_int(m, i64, 1));
        ir_struct_add(m, row, "w_lanes", ir_bool(m, t->wf->lanes));
        ir_struct_add(m, row, "n", t->out ? ndst : ir_netinfo(m, IRN_COUNT, ir_ref(m, nv),
                                                              ir_i32(m, bu->src_group), NULL));
        ir_struct_add(m, arr, NULL, row);
    }
    IrExpr *ta = ir_e(m, IRE_TEMP_ADDR, ir_t_ptr(m, tt, true));
    ta->a = arr;
    return ta;
}

/* The declaration of v among blk's statements, or NULL. */
static const IrStmt *decl_of(const IrStmt *blk, const IrVar *v)
{
    for (int i = 0; i < blk->list.len; i++) {
        const IrStmt *s = VEC_AT(blk->list, i, IrStmt);
        if (s->kind == IRS_DECL && s->var == v)
            return s;
    }
    return NULL;
}

/* Whether loop runs over every node of its group: `lo = 0`, `hi =
 * count(net, g) - 1`, declared in blk and not changed there (a slice's
 * call narrows them with assignments), and blk holds nothing else but
 * declarations and the lane loops that fill arguments. */
static bool whole_group(const IrStmt *blk, const IrStmt *loop)
{
    for (int i = 0; i < blk->list.len; i++) {
        const IrStmt *s = VEC_AT(blk->list, i, IrStmt);
        if (s != loop && s->kind != IRS_DECL && !(s->kind == IRS_FOR && s->for_kind == IRFOR_LANES))
            return false;
    }
    if (!loop->lo || !loop->hi || loop->lo->kind != IRE_VAR || loop->hi->kind != IRE_VAR)
        return false;
    const IrStmt *lo = decl_of(blk, loop->lo->u.var), *hi = decl_of(blk, loop->hi->u.var);
    if (!lo || !hi || !lo->a || !hi->a || lo->a->kind != IRE_INT || lo->a->u.i != 0)
        return false;
    const IrExpr *h = hi->a;
    if (h->kind == IRE_CAST)
        h = h->a;
    if (h->kind != IRE_BINARY || h->op != IROP_SUB || !h->b || h->b->kind != IRE_INT || h->b->u.i != 1)
        return false;
    const IrExpr *n = h->a->kind == IRE_CAST ? h->a->a : h->a;
    return n->kind == IRE_NETINFO && n->info == IRN_COUNT && n->b && n->b->kind == IRE_INT &&
           n->b->u.i == loop->g;
}

/* The group call's node loop: `for.nodes g i { F (net, blk, i, M, ...) }`
 * over the whole group (no per-lane bounds), or NULL. */
static IrStmt *group_loop(IrStmt *blk, IrExpr **call)
{
    for (int i = 0; i < blk->list.len; i++) {
        IrStmt *s = VEC_AT(blk->list, i, IrStmt);
        if (s->kind != IRS_FOR || s->for_kind != IRFOR_NODES)
            continue;
        if (!whole_group(blk, s))
            return NULL;
        if (s->then->list.len != 1 || VEC_AT(s->then->list, 0, IrStmt)->kind != IRS_EVAL)
            return NULL;
        IrExpr *e = VEC_AT(s->then->list, 0, IrStmt)->a;
        if (e->kind != IRE_CALL || !e->fn || e->args.len < 4 ||
            !is_var(VEC_AT(e->args, 2, IrExpr), s->var) || !is_var(VEC_AT(e->args, 3, IrExpr), NULL))
            return NULL;
        *call = e;
        return s;
    }
    return NULL;
}

typedef struct Dn {
    PassCtx *c;
    IrFunc *caller;
    int n;
} Dn;

static void dense_block(IrStmt *parent, void *data)
{
    Dn *dn = data;
    PassCtx *c = dn->c;
    IrModule *m = c->m;
    for (int i = 0; i < parent->list.len; i++) {
        IrStmt *blk = VEC_AT(parent->list, i, IrStmt);
        IrExpr *call;
        IrStmt *loop;
        if (blk->kind != IRS_BLOCK || !blk->origin || !(loop = group_loop(blk, &call)))
            continue;
        Match mt;
        if (!match_fn(call->fn, &mt) || !rest_is_independent(c, call->fn, &mt))
            continue;
        IrFunc *rest = without_sum(c, call->fn, &mt);
        const IrFunc *f = call->fn;
        IrVar *nv = ir_param_named(dn->caller, "net"), *bv = ir_param_named(dn->caller, "blk");
        const IrType *bt = ir_t(m, IRT_BOOL);
        /* every bundle of the sum dense at run time */
        IrExpr *cond = NULL;
        for (int t = 0; t < mt.n; t++) {
            IrExpr *d = ir_netinfo(m, IRN_DENSE, ir_ref(m, nv), ir_i32(m, mt.terms[t].b), NULL);
            cond = cond ? ir_binary(m, IROP_LAND, bt, cond, d) : d;
        }
        /* the fast version: every node's sum, then F' node by node */
        IrStmt *fast = ir_clone_stmt(m, blk);
        IrExpr *fcall;
        IrStmt *floop = group_loop(fast, &fcall);
        fcall->fn = rest;
        const IrLayout *yl = mt.into->layout;
        IrStmt *sum = ir_s(m, IRS_EVAL, loop->loc);
        sum->a = ir_helper(m, IRH_DENSE_SUM, ir_t(m, IRT_VOID),
                           IR_ARGS(ir_cast(m, ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false),
                                           ir_addr(m, ir_field(m, ir_index(m, ir_nodes(m, ir_ref(m, nv),
                                                                                   ir_ref(m, bv), loop->g, yl),
                                                                           ir_i32(m, 0)),
                                                               mt.into))),
                                   size_of(m, yl),
                                   ir_netinfo(m, IRN_COUNT, ir_ref(m, nv), ir_i32(m, loop->g), NULL),
                                   ir_clone(m, VEC_AT(call->args, 3, IrExpr)), terms_of(c, dn->caller, &mt),
                                   ir_i32(m, mt.n)));
        for (int k = 0; k < fast->list.len; k++)
            if (VEC_AT(fast->list, k, IrStmt) == floop) {
                pu_insert(m, fast, k, sum);
                break;
            }
        IrStmt *ifs = ir_s(m, IRS_IF, blk->loc);
        ifs->a = cond;
        ifs->then = fast;
        ifs->els = blk;
        parent->list.items[i] = ifs;
        dn->n++;
        pu_trace(c, "dense", "%s: the sums of %s over %d bundle%s as a matrix kernel when dense",
                 dn->caller->name, f->name, mt.n, mt.n == 1 ? "" : "s");
    }
}

void pass_dense(PassCtx *c)
{
    IrModule *m = c->m;
    if (!m->opts.lanes)
        return;
    int n = m->funcs.len; /* not the functions this pass adds */
    for (int i = 0; i < n; i++) {
        IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        if (f->role != IRFN_LANE || !f->body || !f->subr || f->subr->owner->kind != TY_NETWORK)
            continue;
        Dn dn = {.c = c, .caller = f};
        pu_each_block(f->body, dense_block, &dn);
    }
}
