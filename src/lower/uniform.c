/* uniform.c -- connection elements that every replicate holds equal.
 *
 * REPLICATE makes copies and MERGE gives every replicate the merged
 * values, so right after either statement all replicates agree on every
 * element.  They diverge only through a write whose value or control
 * depends on something that differs between replicates: I/O into the
 * replicates, INDEX of a network subroutine, RANDOM, EXTERNAL code, a call
 * on some replicates only (net[i], net[a...b]), or data that has diverged
 * already.  A weight that RPROP changes only right after MERGE, from
 * merged gradients, never diverges; the lane record can then hold it once
 * per block instead of once per lane ("shared"), which cuts its memory
 * traffic sixteen-fold.
 *
 * The analysis is an abstract interpretation of the central agent: for
 * each network variable a set of diverged elements (by type and element),
 * emptied by REPLICATE and MERGE and grown by every network call, which is
 * walked with its arguments and control flow (a condition that differs
 * between replicates makes everything it controls diverge; so does
 * anything after a RETURN or BREAK under such a condition).  The central
 * agent's own stores into one replicate (net[i].e := x, a VAR argument, a
 * FOR variable, a REDUCTION target, a record procedure or a record function
 * that changes its ME, net[i].r.inc ()) make the elements they name diverge;
 * the initializers of globals are walked first, as the program runs them.
 * Locals and
 * parameters get one flag each for the whole program; the walk is
 * repeated until those flags no longer change.  A connection element
 * that never diverges and that its type's MERGE procedure does not write
 * is shared. */
#include <stdlib.h>
#include <string.h>

#include "cupitc/ast_walk.h"
#include "lower_internal.h"

typedef struct UCtx {
    LowerPlan *p;
    PtrMap loc_ids;        /* (type, NULL, elem index) -> loc + 1 */
    int nloc;
    uint8_t *ever;         /* [nloc]: diverged at some point */
    PtrMap div;            /* Symbol* (local, parameter) -> (void *)1: diverged */
    bool changed;          /* a symbol was marked in this round */
    unsigned marks;        /* symbols marked so far */
    PtrVec stack;          /* subroutines being walked */
    bool gave_up;
    long entered;          /* subroutine walks so far (U_MAX_ENTERED) */
    bool effects;          /* a procedure call with effects of its own, RANDOM or a
                              call of a function that may vary was walked */
    PtrMap calls;          /* CA call (Expr *) -> (void *)1 uniform / (void *)2 not */
    PtrMap fx;             /* global subroutine -> (void *)1: stores into a global */
    PtrMap memo;           /* subroutine -> PtrVec of UMemo*: walks that changed nothing */
} UCtx;

/* A walk of a subroutine that changed nothing -- no element diverged, no
 * symbol marked, c->effects as before -- and the state it started from:
 * a walk from the same state with the same arguments changes nothing
 * either and has the same result.  A chain of subroutines that each call
 * the next twice is then walked once per link, not 2^n times. */
typedef struct UMemo {
    unsigned marks;
    bool effects, ctl, result;
    uint8_t pdiv[64];
    uint8_t *D;            /* [nloc] */
} UMemo;

/* One network call being walked: the diverged set of its variable and the
 * control state of the subroutine. */
typedef struct UWalk {
    uint8_t *D;            /* [nloc] */
    bool ctl;              /* control differs between replicates here */
    bool exit_div;         /* a RETURN/BREAK under such control happened */
    bool ret;              /* function result diverges */
    bool net_level;        /* INDEX is the replicate index */
    const Symbol *subr;    /* the subroutine walked, and which of its */
    uint8_t pdiv[64];      /* (first 64) parameters diverge in this call */
} UWalk;

static int loc_of(UCtx *c, const Type *t, int elem)
{
    intptr_t v = (intptr_t)ptrmap_get(&c->loc_ids, t, NULL, elem);
    return (int)v - 1;
}

static void diverge(UCtx *c, UWalk *w, int loc)
{
    if (loc < 0)
        return;
    w->D[loc] = 1;
    c->ever[loc] = 1;
}

static bool sym_div(UCtx *c, const Symbol *s)
{
    return ptrmap_get(&c->div, s, NULL, 0) != NULL;
}

static void mark_sym(UCtx *c, const Symbol *s)
{
    if (!s || sym_div(c, s))
        return;
    ptrmap_put(c->p->arena, &c->div, s, NULL, 0, (void *)1);
    c->changed = true;
    c->marks++;
}

/* The walk follows every call into its callee, so a chain of subroutines
 * each calling the next twice takes exponential time: past this many
 * subroutine walks it gives up (as for recursion).  It recurses in C once
 * per call nesting: past U_MAX_DEPTH nested calls it gives up too, before
 * the C stack runs out. */
enum { U_MAX_ENTERED = 200000, U_MAX_DEPTH = 500 };

static bool enter(UCtx *c, const Symbol *s)
{
    if (c->gave_up || ++c->entered > U_MAX_ENTERED || c->stack.len >= U_MAX_DEPTH) {
        c->gave_up = true;
        return false;
    }
    for (int i = 0; i < c->stack.len; i++)
        if (c->stack.items[i] == s) {
            c->gave_up = true;
            return false;
        }
    vec_push(c->p->arena, &c->stack, (void *)s);
    return true;
}

static void leave(UCtx *c)
{
    c->stack.len--;
}

/* The element an object rooted at ME (or at a node ME.g[i] of network
 * code) denotes: its location, and whether a subscript on the way
 * diverges. */
static bool u_expr(UCtx *c, UWalk *w, Expr *e);

static int root_loc(UCtx *c, UWalk *w, Expr *e, bool *idx_div)
{
    for (;;) {
        if (e->kind == EXPR_SELECT) {
            Expr *o = e->u.select.obj;
            if (o->kind == EXPR_ME && e->sym && e->sym->kind == SYM_ELEM)
                return loc_of(c, e->sym->owner, e->sym->index);
            if (o->kind == EXPR_SUBSCRIPT && e->sym && e->sym->kind == SYM_ELEM &&
                o->u.subscript.obj->kind == EXPR_SELECT && o->u.subscript.obj->sym &&
                type_is_node_collection(o->u.subscript.obj->sym->type)) {
                *idx_div |= u_expr(c, w, o->u.subscript.index); /* ME.g[i].e */
                return loc_of(c, e->sym->owner, e->sym->index);
            }
            e = o;
        } else if (e->kind == EXPR_SUBSCRIPT) {
            *idx_div |= u_expr(c, w, e->u.subscript.index);
            e = e->u.subscript.obj;
        } else {
            return -1;
        }
    }
}

/* The local or parameter an lvalue is rooted at, or NULL. */
static const Symbol *root_sym(Expr *e)
{
    for (;;) {
        if (e->kind == EXPR_NAME)
            return e->sym && (e->sym->kind == SYM_VAR || e->sym->kind == SYM_PARAM ||
                              e->sym->kind == SYM_CONST) && !e->sym->is_global
                       ? e->sym
                       : NULL;
        if (e->kind == EXPR_SELECT)
            e = e->u.select.obj;
        else if (e->kind == EXPR_SUBSCRIPT)
            e = e->u.subscript.obj;
        else
            return NULL;
    }
}

static bool u_subr(UCtx *c, UWalk *w, const Symbol *s, PtrVec *args, bool ctl);
static bool stores_global(UCtx *c, const Symbol *s);

/* Whether the value of e differs between replicates. */
static bool u_expr(UCtx *c, UWalk *w, Expr *e)
{
    if (!e)
        return false;
    bool d = false;
    switch (e->kind) {
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING:
        return false;
    case EXPR_INDEX:
        return w->net_level; /* the replicate index; a node's index is the same everywhere */
    case EXPR_NAME:
        if (e->sym && e->sym->kind == SYM_PARAM && e->sym->subr == w->subr &&
            e->sym->index < 64 && w->pdiv[e->sym->index])
            return true; /* diverged in this call */
        return e->sym && sym_div(c, e->sym);
    case EXPR_ME: case EXPR_YOU:
        return false; /* as a whole: only EXTERNAL code sees it */
    case EXPR_SELECT:
    case EXPR_SUBSCRIPT: {
        bool idx = false;
        int loc = root_loc(c, w, e, &idx);
        if (loc >= 0)
            return idx || w->D[loc];
        if (e->kind == EXPR_SELECT)
            return u_expr(c, w, e->u.select.obj);
        return u_expr(c, w, e->u.subscript.obj) | u_expr(c, w, e->u.subscript.index);
    }
    case EXPR_ALLSLICE:
        return u_expr(c, w, e->u.allslice.obj);
    case EXPR_CONNADDR:
        return true;
    case EXPR_UNARY:
        if (e->u.unary.op == OP_RANDOM) {
            c->effects = true; /* a draw in every replicate */
            u_expr(c, w, e->u.unary.operand);
            return true;
        }
        return u_expr(c, w, e->u.unary.operand);
    case EXPR_BINARY:
        d = u_expr(c, w, e->u.binary.lhs);
        return u_expr(c, w, e->u.binary.rhs) || d;
    case EXPR_TERNARY:
        d = u_expr(c, w, e->u.ternary.cond);
        d |= u_expr(c, w, e->u.ternary.then_e);
        return u_expr(c, w, e->u.ternary.else_e) || d;
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.len; i++)
            d |= u_expr(c, w, VEC_AT(e->u.call.args, i, Expr));
        /* EXTERNAL code may answer each replicate differently, and so may
           a global function that draws RANDOM numbers or calls such code,
           or that stores into a global variable (it may count its calls);
           each replicate's call is an effect of its own (it may print) */
        if (e->sym && (lower_varies(c->p, e->sym) || stores_global(c, e->sym))) {
            c->effects = true;
            return true;
        }
        return d;
    case EXPR_CONVERT:
        for (int i = 0; i < e->u.convert.args.len; i++)
            d |= u_expr(c, w, VEC_AT(e->u.convert.args, i, Expr));
        return d;
    case EXPR_MAXINDEX:
        return u_expr(c, w, e->u.maxindex.obj);
    case EXPR_OBJCALL: {
        Expr *o = e->u.objcall.obj;
        if (e->sym && e->sym->owner && type_is_structure(e->sym->owner) &&
            e->sym->owner->kind != TY_RECORD && o->kind == EXPR_ME)
            return u_subr(c, w, e->sym, &e->u.objcall.args, w->ctl); /* object function */
        d = u_expr(c, w, o);
        for (int i = 0; i < e->u.objcall.args.len; i++)
            d |= u_expr(c, w, VEC_AT(e->u.objcall.args, i, Expr));
        return true; /* a record function, a node function on another node: unknown */
    }
    default:
        return true;
    }
}

/* An assignment to `t` of a value that diverges (or not). */
/* Whether the lvalue t is (part of) a global variable: a store into it is
 * an effect of its own, which runs once per replicate. */
static bool global_root(Expr *e)
{
    while (e->kind == EXPR_SELECT || e->kind == EXPR_SUBSCRIPT)
        e = e->kind == EXPR_SELECT ? e->u.select.obj : e->u.subscript.obj;
    return e->kind == EXPR_NAME && e->sym && e->sym->is_global &&
           (e->sym->kind == SYM_VAR || e->sym->kind == SYM_IO);
}

/* Which global subroutines store into a global variable, themselves or
 * through the global subroutines they call: an assignment, a FOR
 * variable, a VAR argument, a REDUCTION target or an object procedure (or
 * a function that changes its ME) called on it.  Such a store runs once
 * per call, so a call from network code is an effect of every replicate
 * (like a procedure call there, u_stmt).  EXTERNAL code counts as
 * `varies`.  Each body is scanned once for its own stores and its
 * callees; then the callers of one that stores store, until nothing
 * changes (a recursion needs no special case). */
typedef struct FxScan {
    AstWalk walk; /* first: the callbacks get &walk */
    UCtx *c;
    const Symbol *subr; /* the subroutine scanned */
    bool found;
    PtrVec callees;     /* Symbol*: global subroutines it calls */
} FxScan;

static void fx_var_args(FxScan *sc, const Symbol *callee, PtrVec *args)
{
    for (int i = 0; callee && callee->sub && i < args->len && i < callee->sub->params.len; i++)
        if (VEC_AT(callee->sub->params, i, Symbol)->access == ACCESS_VAR &&
            global_root(VEC_AT(*args, i, Expr)))
            sc->found = true;
}

static void fx_expr(AstWalk *w, Expr *e)
{
    FxScan *sc = (FxScan *)w;
    if (e->kind == EXPR_CALL && e->sym) {
        fx_var_args(sc, e->sym, &e->u.call.args);
        vec_push(sc->c->p->arena, &sc->callees, e->sym);
    } else if (e->kind == EXPR_OBJCALL && e->sym && e->sym->sub) {
        fx_var_args(sc, e->sym, &e->u.objcall.args);
        if ((e->sym->kind == SYM_OBJPROC || e->sym->sub->changes_me) &&
            global_root(e->u.objcall.obj))
            sc->found = true;
    }
}

static void fx_stmt(AstWalk *w, Stmt *s)
{
    FxScan *sc = (FxScan *)w;
    if ((s->kind == STMT_ASSIGN && global_root(s->u.assign.target)) ||
        (s->kind == STMT_FOR && global_root(s->u.for_.var)) ||
        (s->kind == STMT_REDUCTION && global_root(s->u.reduction.into)))
        sc->found = true;
}

static bool stores_global(UCtx *c, const Symbol *s)
{
    return ptrmap_get(&c->fx, s, NULL, 0) != NULL;
}

static void find_global_stores(UCtx *c)
{
    const SemaInfo *si = c->p->si;
    PtrVec scans = {0}; /* FxScan* of the subroutines that do not store */
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if ((s->kind != SYM_PROC && s->kind != SYM_FUNC) || !s->sub || s->sub->external ||
            !s->decl)
            continue;
        FxScan *sc = arena_alloc(c->p->arena, sizeof *sc);
        *sc = (FxScan){.walk = {.expr = fx_expr, .stmt = fx_stmt}, .c = c, .subr = s};
        ast_walk_block(&sc->walk, s->decl->u.subr.body);
        if (sc->found)
            ptrmap_put(c->p->arena, &c->fx, s, NULL, 0, (void *)1);
        else
            vec_push(c->p->arena, &scans, sc);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < scans.len; i++) {
            FxScan *sc = VEC_AT(scans, i, FxScan);
            const Symbol *s = sc->subr;
            if (stores_global(c, s))
                continue;
            for (int j = 0; j < sc->callees.len; j++)
                if (stores_global(c, VEC_AT(sc->callees, j, Symbol))) {
                    ptrmap_put(c->p->arena, &c->fx, s, NULL, 0, (void *)1);
                    changed = true;
                    break;
                }
        }
    }
}

static void u_store(UCtx *c, UWalk *w, Expr *t, bool d)
{
    if (global_root(t))
        c->effects = true;
    bool idx = false;
    int loc = root_loc(c, w, t, &idx);
    d |= idx || w->ctl;
    if (loc >= 0) {
        if (d)
            diverge(c, w, loc);
        return;
    }
    const Symbol *s = root_sym(t);
    if (s && d)
        mark_sym(c, s);
}

/* Every element of the nodes, connections or networks an object of type t
 * holds (a node, a node group or array, a network): code we do not follow
 * may change any of them. */
static void diverge_all(UCtx *c, uint8_t *D, const Type *t, int depth)
{
    if (!t || depth > 16)
        return;
    if (t->kind == TY_ARRAY || t->kind == TY_GROUP) {
        diverge_all(c, D, t->elem, depth + 1);
        return;
    }
    if (t->kind != TY_NODE && t->kind != TY_CONNECTION && t->kind != TY_NETWORK)
        return;
    for (int e = 0; e < t->elems.len; e++) {
        int loc = loc_of(c, t, e);
        if (loc >= 0) {
            D[loc] = 1;
            c->ever[loc] = 1;
        }
        diverge_all(c, D, VEC_AT(t->elems, e, Symbol)->type, depth + 1);
    }
}

/* An object changed in place by code we do not follow (a record procedure,
 * a VAR argument): it diverges, and so does every element of a node (or
 * node group, network) it is, since EXTERNAL code gets it whole. */
static void u_clobber(UCtx *c, UWalk *w, Expr *t)
{
    if (global_root(t))
        c->effects = true;
    bool idx = false;
    int loc = root_loc(c, w, t, &idx);
    if (loc >= 0)
        diverge(c, w, loc);
    else if (root_sym(t))
        mark_sym(c, root_sym(t));
    diverge_all(c, w->D, t->type, 0);
}

static void u_block(UCtx *c, UWalk *w, Block *b);

/* The arguments of a call: pdiv[i] tells whether argument i diverges
 * (parameters beyond 64 are marked for good instead); a VAR argument may be
 * changed by the callee. */
static void u_args(UCtx *c, UWalk *w, const Symbol *callee, PtrVec *args, uint8_t *pdiv)
{
    for (int i = 0; i < args->len; i++) {
        Expr *a = VEC_AT(*args, i, Expr);
        const Symbol *p = callee && i < callee->sub->params.len ? VEC_AT(callee->sub->params, i, Symbol)
                                                           : NULL;
        bool d = u_expr(c, w, a);
        if (p && p->access == ACCESS_VAR)
            u_clobber(c, w, a);
        else if (p && d && pdiv && i < 64)
            pdiv[i] = 1;
        else if (p && d)
            mark_sym(c, p);
    }
}

/* Walks object subroutine s on the current network variable's data with
 * the given arguments; ctl: whether running it at all differs between
 * replicates.  Returns whether its result (functions) diverges. */
static bool u_subr(UCtx *c, UWalk *w, const Symbol *s, PtrVec *args, bool ctl)
{
    UWalk inner = {.D = w->D, .ctl = ctl || w->ctl,
                   .net_level = s->owner && s->owner->kind == TY_NETWORK, .subr = s};
    if (args)
        u_args(c, w, s, args, inner.pdiv);
    if (!s->decl || s->sub->external) {
        if (args) /* EXTERNAL: its VAR arguments are unknown */
            for (int i = 0; i < args->len; i++)
                u_clobber(c, w, VEC_AT(*args, i, Expr));
        return true;
    }
    PtrVec *memo = ptrmap_get(&c->memo, s, NULL, 0);
    if (memo && memo->len && ((UMemo *)memo->items[0])->marks != c->marks)
        memo->len = 0; /* marks only grow: walks from before a mark never match again */
    for (int i = 0; memo && i < memo->len; i++) {
        const UMemo *m = memo->items[i];
        if (m->effects == c->effects && m->ctl == inner.ctl &&
            !memcmp(m->pdiv, inner.pdiv, sizeof m->pdiv) && !memcmp(m->D, w->D, (size_t)c->nloc))
            return m->result;
    }
    UMemo key = {.marks = c->marks, .effects = c->effects, .ctl = inner.ctl};
    memcpy(key.pdiv, inner.pdiv, sizeof key.pdiv);
    unsigned marks = c->marks;
    bool effects = c->effects;
    if (!enter(c, s))
        return true;
    uint8_t *before = malloc((size_t)c->nloc + 1);
    if (!before) {
        c->gave_up = true;
        leave(c);
        return true;
    }
    memcpy(before, w->D, (size_t)c->nloc);
    u_block(c, &inner, s->decl->u.subr.body);
    leave(c);
    bool result = inner.ret || inner.ctl;
    if (!c->gave_up && marks == c->marks && effects == c->effects &&
        !memcmp(before, w->D, (size_t)c->nloc)) {
        UMemo *m = arena_alloc(c->p->arena, sizeof *m);
        *m = key;
        m->result = result;
        m->D = arena_alloc(c->p->arena, (size_t)c->nloc + 1);
        memcpy(m->D, before, (size_t)c->nloc);
        if (!memo) {
            memo = arena_alloc(c->p->arena, sizeof *memo);
            *memo = (PtrVec){0};
            ptrmap_put(c->p->arena, &c->memo, s, NULL, 0, memo);
        }
        vec_push(c->p->arena, memo, m);
    }
    free(before);
    return result;
}

/* X.p (args) in object code: a group, a node, an interface, ME. */
static void u_objcall(UCtx *c, UWalk *w, Expr *call)
{
    Symbol *p = call->sym;
    Expr *obj = call->u.objcall.obj;
    if (!p || !p->owner) {
        u_expr(c, w, call);
        return;
    }
    if (p->owner->kind == TY_RECORD) { /* a record procedure changes its object */
        u_args(c, w, p, &call->u.objcall.args, NULL);
        u_clobber(c, w, obj);
        return;
    }
    bool ctl = false;
    Expr *base, *range;
    if (obj->kind == EXPR_SUBSCRIPT && type_is_integral(obj->u.subscript.index->type)) {
        ctl = u_expr(c, w, obj->u.subscript.index);
    } else if (obj->kind != EXPR_ME) {
        lower_split_multi(obj, &base, &range);
        if (range)
            ctl = u_expr(c, w, range);
    }
    u_subr(c, w, p, &call->u.objcall.args, ctl);
}

/* Whether the REDUCTION or WTA function of s may answer each replicate
 * differently (it draws RANDOM numbers or calls EXTERNAL code): then the
 * result, or the winner, differs, and each replicate's calls are effects
 * of their own. */
static bool u_combine_varies(UCtx *c, const Stmt *s)
{
    if (!s->callee || !s->callee->sub || !lower_varies(c->p, s->callee))
        return false;
    c->effects = true;
    return true;
}

static void u_stmt(UCtx *c, UWalk *w, Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN: {
        Expr *t = s->u.assign.target;
        bool d = u_expr(c, w, s->u.assign.value);
        if (s->u.assign.op != ASSIGN_SET)
            d |= u_expr(c, w, t);
        u_store(c, w, t, d);
        break;
    }
    case STMT_CALL: {
        Expr *call = s->u.call.call;
        c->effects = true; /* it runs once per replicate: it may print, count */
        u_args(c, w, call->sym, &call->u.call.args, NULL);
        if (call->sym && call->sym->sub->external)
            for (int i = 0; i < call->u.call.args.len; i++)
                if (i >= call->sym->sub->params.len ||
                    VEC_AT(call->sym->sub->params, i, Symbol)->access != ACCESS_CONST)
                    u_clobber(c, w, VEC_AT(call->u.call.args, i, Expr));
        break;
    }
    case STMT_OBJCALL:
        u_objcall(c, w, s->u.call.call);
        break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            u_objcall(c, w, VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_REDUCTION: {
        Expr *pvs = s->u.reduction.pvs;
        bool idx = false, d = false;
        Symbol *e = pvs->sym;
        int loc = e && e->owner ? loc_of(c, e->owner, e->index) : -1;
        Expr *base, *range;
        lower_split_multi(pvs->u.select.obj, &base, &range);
        if (range)
            d |= u_expr(c, w, range);
        d |= loc < 0 || w->D[loc] || idx || u_combine_varies(c, s);
        u_store(c, w, s->u.reduction.into, d);
        break;
    }
    case STMT_WTA: {
        Symbol *e = s->target;
        int loc = e && e->owner ? loc_of(c, e->owner, e->index) : -1;
        Expr *base, *range;
        lower_split_multi(s->u.wta.pv, &base, &range);
        bool d = loc < 0 || w->D[loc] || (range && u_expr(c, w, range));
        d |= u_combine_varies(c, s);
        if (s->proc)
            u_subr(c, w, s->proc, &s->u.wta.args, d); /* the winner may differ */
        break;
    }
    case STMT_RETURN:
        if (s->u.ret.value && u_expr(c, w, s->u.ret.value))
            w->ret = true;
        if (w->ctl)
            w->exit_div = true;
        break;
    case STMT_BREAK:
    case STMT_REPLICATE:
        if (s->kind == STMT_REPLICATE)
            u_expr(c, w, s->u.replicate.count);
        if (w->ctl)
            w->exit_div = true;
        break;
    case STMT_IF: {
        bool saved = w->ctl;
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            if (u_expr(c, w, arm->cond))
                w->ctl = true; /* this arm and all later ones */
            bool ctl = w->ctl;
            u_block(c, w, arm->body);
            w->ctl = ctl;
        }
        u_block(c, w, s->u.if_.else_body);
        w->ctl = saved || w->exit_div;
        break;
    }
    case STMT_LOOP:
    case STMT_FOR: {
        bool saved = w->ctl;
        /* until a round changes nothing: a value can take several rounds to
           reach the element that is read first */
        uint8_t *before = malloc((size_t)c->nloc + 1);
        if (!before) {
            c->gave_up = true;
            break;
        }
        for (int round = 0; round < 10000; round++) {
            memcpy(before, w->D, (size_t)c->nloc);
            unsigned marks = c->marks;
            bool ctl_before = w->ctl;
            if (s->kind == STMT_FOR) {
                bool d = u_expr(c, w, s->u.for_.from) | u_expr(c, w, s->u.for_.to);
                u_store(c, w, s->u.for_.var, d);
                w->ctl |= d || u_expr(c, w, s->u.for_.until_cond);
                u_block(c, w, s->u.for_.body);
            } else {
                w->ctl |= u_expr(c, w, s->u.loop.while_cond);
                u_block(c, w, s->u.loop.body);
                w->ctl |= u_expr(c, w, s->u.loop.until_cond);
            }
            if (!memcmp(before, w->D, (size_t)c->nloc) && marks == c->marks &&
                ctl_before == w->ctl)
                break;
        }
        free(before);
        w->ctl = saved || w->exit_div;
        break;
    }
    default:
        /* EXTEND, CONNECT, DISCONNECT: topology is shared and frozen while
           replicated (changing it there is a run-time error) */
        break;
    }
    if (w->exit_div)
        w->ctl = true;
}

static void u_block(UCtx *c, UWalk *w, Block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            InitId *id = VEC_AT(d->u.data.ids, j, InitId);
            if (id->sym && ((id->init && u_expr(c, w, id->init)) || w->ctl))
                mark_sym(c, id->sym);
        }
    }
    for (int i = 0; i < b->stmts.len; i++)
        u_stmt(c, w, VEC_AT(b->stmts, i, Stmt));
}

/* ---- the central agent --------------------------------------------------------- */

/* Diverged sets of all network variables, in si->networks order. */
typedef struct CaState {
    int nnets;
    uint8_t **D;
} CaState;

static int net_var_index(const SemaInfo *si, const Symbol *v)
{
    for (int i = 0; i < si->networks.len; i++)
        if (si->networks.items[i] == v)
            return i;
    return -1;
}

/* The network variable an object like net, net[i], net[].g[].e names. */
static const Symbol *net_var_of(Expr *e)
{
    for (;;) {
        switch (e->kind) {
        case EXPR_NAME: return e->sym && e->sym->type && e->sym->type->kind == TY_NETWORK
                                   ? e->sym : NULL;
        case EXPR_SELECT: e = e->u.select.obj; break;
        case EXPR_SUBSCRIPT: e = e->u.subscript.obj; break;
        case EXPR_ALLSLICE: e = e->u.allslice.obj; break;
        default: return NULL;
        }
    }
}

static void ca_block(UCtx *c, CaState *st, Block *b);

/* Whether the network object path t starts at the bare variable (net.e,
 * net.g[k].e), not at a replicate (net[i].e). */
static bool bare_net_path(Expr *t)
{
    for (Expr *e = t; e;) {
        Expr *o = e->kind == EXPR_SELECT      ? e->u.select.obj
                  : e->kind == EXPR_SUBSCRIPT ? e->u.subscript.obj
                  : e->kind == EXPR_ALLSLICE  ? e->u.allslice.obj
                                              : NULL;
        if (o && o->kind == EXPR_NAME)
            return e->kind == EXPR_SELECT;
        e = o;
    }
    return false;
}

/* A store of the central agent into the object t.  Into a network's data
 * it makes the elements on its path diverge -- net[i].e, net[i].g[k].e,
 * a record field or array element of one -- except a store (`whole`: an
 * assignment, a REDUCTION target, a FOR variable) through the bare
 * variable, which reaches every replicate at once (lw_stmt.c).  A VAR
 * argument through it reaches the others only after the call. */
static void ca_store(UCtx *c, CaState *st, Expr *t, bool whole)
{
    const Symbol *v = net_var_of(t);
    int n = v ? net_var_index(c->p->si, v) : -1;
    if (n < 0)
        return;
    if (whole && bare_net_path(t))
        return; /* every replicate alike */
    for (Expr *e = t; e;) {
        if (e->kind == EXPR_SELECT) {
            if (e->sym && e->sym->kind == SYM_ELEM && e->sym->owner) {
                int loc = loc_of(c, e->sym->owner, e->sym->index);
                if (loc >= 0) {
                    st->D[n][loc] = 1;
                    c->ever[loc] = 1;
                }
            }
            e = e->u.select.obj;
        } else if (e->kind == EXPR_SUBSCRIPT) {
            e = e->u.subscript.obj;
        } else if (e->kind == EXPR_ALLSLICE) {
            e = e->u.allslice.obj;
        } else {
            break;
        }
    }
    diverge_all(c, st->D[n], t->type, 0); /* a node given whole to EXTERNAL code */
}

/* The VAR arguments of a call of the central agent are stores. */
static void ca_var_args(UCtx *c, CaState *st, const Symbol *callee, PtrVec *args)
{
    if (!callee || !callee->sub)
        return;
    for (int i = 0; i < args->len && i < callee->sub->params.len; i++)
        if (VEC_AT(callee->sub->params, i, Symbol)->access == ACCESS_VAR)
            ca_store(c, st, VEC_AT(*args, i, Expr), false);
}

/* A network subroutine called from the central agent. */
static void ca_net_call(UCtx *c, CaState *st, Expr *call)
{
    Expr *obj = call->u.objcall.obj;
    const Symbol *v = net_var_of(obj);
    int n = v ? net_var_index(c->p->si, v) : -1;
    if (n < 0 || !call->sym)
        return;
    /* all replicates (net, net[]) run it alike; net[i], net[a...b] and a
       function on replicate 0 make whatever they write diverge */
    bool all = call->sym->kind == SYM_OBJPROC &&
               (obj->kind == EXPR_NAME || obj->kind == EXPR_ALLSLICE);
    bool equal_before = true, equal_after = true;
    for (int k = 0; k < c->nloc; k++)
        equal_before &= !st->D[n][k];
    UWalk w = {.D = st->D[n], .net_level = true};
    c->effects = false;
    u_subr(c, &w, call->sym, NULL, !all);
    for (int k = 0; k < c->nloc; k++)
        equal_after &= !st->D[n][k];
    /* all replicates equal before and after, nothing else done: every
       replicate computes the same */
    bool uniform = all && equal_before && equal_after && !c->effects && !w.ret;
    void *was = ptrmap_get(&c->calls, call, NULL, 0);
    ptrmap_put(c->p->arena, &c->calls, call, NULL, 0,
               uniform && was != (void *)2 ? (void *)1 : (void *)2);
}

static void ca_expr(UCtx *c, CaState *st, Expr *e);

typedef struct CaArgs {
    UCtx *c;
    CaState *st;
} CaArgs;

static void ca_child(void *cx, Expr *e)
{
    CaArgs *a = cx;
    ca_expr(a->c, a->st, e);
}

/* The operands first, in evaluation order, every one of them
 * (ast_expr_children: MAXINDEX (net[f ()].g), subscripts, connection
 * addresses), then what the node itself does. */
static void ca_expr(UCtx *c, CaState *st, Expr *e)
{
    if (!e)
        return;
    ast_expr_children(e, ca_child, &(CaArgs){c, st});
    switch (e->kind) {
    case EXPR_CALL:
        ca_var_args(c, st, e->sym, &e->u.call.args);
        if (e->sym && e->sym->sub->is_central_agent && e->sym->decl && !e->sym->sub->external &&
            enter(c, e->sym)) { /* a CA function: walked in place */
            ca_block(c, st, e->sym->decl->u.subr.body);
            leave(c);
        }
        break;
    case EXPR_OBJCALL:
        ca_var_args(c, st, e->sym, &e->u.objcall.args);
        if (e->sym && e->sym->owner && e->sym->owner->kind == TY_NETWORK)
            ca_net_call(c, st, e);
        else if (e->sym && e->sym->owner && e->sym->owner->kind == TY_RECORD && e->sym->sub &&
                 (e->sym->kind == SYM_OBJPROC || e->sym->sub->changes_me))
            /* a record subroutine that changes its object: a store into
               it (net[i].r.inc (); through the bare net every replicate
               gets the result, lw_stmt.c) */
            ca_store(c, st, e->u.objcall.obj, true);
        break;
    default:
        break;
    }
}

static void st_copy_into(CaState *d, const CaState *s, int nloc)
{
    for (int i = 0; i < s->nnets; i++)
        memcpy(d->D[i], s->D[i], (size_t)nloc);
}

static CaState *st_new(UCtx *c)
{
    CaState *s = arena_alloc(c->p->arena, sizeof *s);
    s->nnets = c->p->si->networks.len;
    s->D = arena_alloc(c->p->arena, (size_t)(s->nnets + 1) * sizeof *s->D);
    for (int i = 0; i < s->nnets; i++)
        s->D[i] = calloc((size_t)c->nloc + 1, 1);
    return s;
}

static void st_free(CaState *s)
{
    for (int i = 0; i < s->nnets; i++)
        free(s->D[i]);
}

/* d |= s; returns whether d grew */
static bool st_join(CaState *d, const CaState *s, int nloc)
{
    bool grew = false;
    for (int i = 0; i < s->nnets; i++)
        for (int k = 0; k < nloc; k++)
            if (s->D[i][k] && !d->D[i][k]) {
                d->D[i][k] = 1;
                grew = true;
            }
    return grew;
}

static void ca_stmt(UCtx *c, CaState *st, Stmt *s)
{
    switch (s->kind) {
    case STMT_MERGE:
    case STMT_REPLICATE: {
        /* all replicates equal again (REPLICATE: copies, or back to one) */
        const Symbol *v = net_var_of(s->kind == STMT_MERGE ? s->u.merge.obj : s->u.replicate.obj);
        int n = v ? net_var_index(c->p->si, v) : -1;
        if (s->kind == STMT_REPLICATE)
            ca_expr(c, st, s->u.replicate.count);
        if (n >= 0)
            memset(st->D[n], 0, (size_t)c->nloc);
        break;
    }
    case STMT_OUTPUT:
        ca_expr(c, st, s->u.io.node_side); /* calls in its subscripts */
        break;
    case STMT_INPUT: {
        Expr *pvs = s->u.io.node_side;
        ca_expr(c, st, pvs); /* calls in its subscripts run before the move */
        const Symbol *v = net_var_of(pvs);
        int n = v ? net_var_index(c->p->si, v) : -1;
        if (n >= 0 && pvs->sym) {
            int loc = loc_of(c, pvs->sym->owner, pvs->sym->index);
            if (loc >= 0) {
                st->D[n][loc] = 1;
                c->ever[loc] = 1;
            }
        }
        break;
    }
    case STMT_ASSIGN:
        ca_expr(c, st, s->u.assign.target);
        ca_expr(c, st, s->u.assign.value);
        ca_store(c, st, s->u.assign.target, true);
        break;
    case STMT_CALL:
    case STMT_OBJCALL:
        ca_expr(c, st, s->u.call.call);
        break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            ca_expr(c, st, VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_REDUCTION:
        ca_expr(c, st, s->u.reduction.pvs); /* REDUCTION net[f ()...b].e */
        ca_expr(c, st, s->u.reduction.into);
        ca_store(c, st, s->u.reduction.into, true);
        break;
    case STMT_WTA: {
        /* WTA net[].e:f.p (args): p runs on the winning replicate only, so
           whatever it writes diverges */
        ca_expr(c, st, s->u.wta.pv); /* WTA net[f ()...b].e */
        for (int i = 0; i < s->u.wta.args.len; i++)
            ca_expr(c, st, VEC_AT(s->u.wta.args, i, Expr));
        const Symbol *v = net_var_of(s->u.wta.pv);
        int n = v ? net_var_index(c->p->si, v) : -1;
        if (n >= 0 && s->proc) {
            UWalk w = {.D = st->D[n], .net_level = true};
            u_subr(c, &w, s->proc, NULL, true);
        }
        break;
    }
    case STMT_RETURN:
        ca_expr(c, st, s->u.ret.value);
        break;
    case STMT_IF: {
        CaState *in = st_new(c), *out = st_new(c);
        st_copy_into(in, st, c->nloc);
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            ca_expr(c, st, arm->cond);
            st_copy_into(in, st, c->nloc);
            ca_block(c, st, arm->body);
            st_join(out, st, c->nloc);
            st_copy_into(st, in, c->nloc);
        }
        ca_block(c, st, s->u.if_.else_body);
        st_join(st, out, c->nloc);
        st_free(in);
        st_free(out);
        break;
    }
    case STMT_LOOP:
    case STMT_FOR: {
        /* the state at the head: what enters plus what one more round adds */
        CaState *head = st_new(c);
        st_copy_into(head, st, c->nloc);
        for (int guard = 0; guard < 10000; guard++) {
            if (s->kind == STMT_FOR) {
                ca_store(c, st, s->u.for_.var, true);
                ca_expr(c, st, s->u.for_.from);
                ca_expr(c, st, s->u.for_.to);
                ca_block(c, st, s->u.for_.body);
                ca_expr(c, st, s->u.for_.until_cond);
            } else {
                ca_expr(c, st, s->u.loop.while_cond);
                ca_block(c, st, s->u.loop.body);
                ca_expr(c, st, s->u.loop.until_cond);
            }
            if (!st_join(head, st, c->nloc))
                break;
            st_copy_into(st, head, c->nloc);
        }
        st_join(st, head, c->nloc);
        st_free(head);
        break;
    }
    default:
        break;
    }
}

static void ca_block(UCtx *c, CaState *st, Block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++)
            ca_expr(c, st, VEC_AT(d->u.data.ids, j, InitId)->init);
    }
    for (int i = 0; i < b->stmts.len; i++)
        ca_stmt(c, st, VEC_AT(b->stmts, i, Stmt));
}

/* Elements a MERGE procedure assigns to (ME.e := ..., ME.e += ...). */
static void mark_root(Expr *t, PtrMap *out, Arena *a)
{
    while (t->kind == EXPR_SUBSCRIPT ||
           (t->kind == EXPR_SELECT && t->u.select.obj->kind != EXPR_ME))
        t = t->kind == EXPR_SUBSCRIPT ? t->u.subscript.obj : t->u.select.obj;
    if (t->kind == EXPR_SELECT && t->sym)
        ptrmap_put(a, out, t->sym, NULL, 0, (void *)1);
}

/* The walk over a MERGE procedure and the object subroutines it calls on
 * ME, each walked once (a recursive one that calls itself twice would
 * otherwise take 2^depth walks).  An AstWalk, so that a call inside an
 * expression counts too: an object function may call a procedure on its
 * ME (`ME.d := ME.d + ME.f (YOU.w)` with f calling ME.add (x)). */
typedef struct MergeWrites {
    AstWalk walk; /* first: the callbacks get &walk */
    PtrMap *out;
    Arena *arena;
    PtrVec seen; /* callees walked */
} MergeWrites;

/* An object call in a MERGE procedure: a record procedure on an element
 * writes it, ME.p () writes what p writes, VAR arguments are written. */
static void merge_writes_call(MergeWrites *mw, Expr *call)
{
    Expr *t = call->u.objcall.obj;
    while (t->kind == EXPR_SUBSCRIPT ||
           (t->kind == EXPR_SELECT && t->u.select.obj->kind != EXPR_ME))
        t = t->kind == EXPR_SUBSCRIPT ? t->u.subscript.obj : t->u.select.obj;
    Symbol *callee = call->sym;
    /* a function changes nothing unless it calls a procedure on its ME
       (SubrInfo.changes_me) and has no VAR parameters */
    if (callee && callee->sub && (callee->kind != SYM_OBJFUNC || callee->sub->changes_me)) {
        if (t->kind == EXPR_SELECT && t->sym)
            ptrmap_put(mw->arena, mw->out, t->sym, NULL, 0, (void *)1);
        if (callee->kind != SYM_OBJFUNC)
            for (int j = 0; j < call->u.objcall.args.len; j++)
                mark_root(VEC_AT(call->u.objcall.args, j, Expr), mw->out, mw->arena);
    }
    if (t->kind != EXPR_ME || !callee || !callee->decl || callee->sub->external)
        return;
    for (int i = 0; i < mw->seen.len; i++)
        if (mw->seen.items[i] == callee)
            return;
    vec_push(mw->arena, &mw->seen, callee);
    ast_walk_block(&mw->walk, callee->decl->u.subr.body); /* ME.p () */
}

static void merge_writes_expr(AstWalk *w, Expr *e)
{
    if (e->kind == EXPR_OBJCALL)
        merge_writes_call((MergeWrites *)w, e);
}

static void merge_writes_stmt(AstWalk *w, Stmt *s)
{
    MergeWrites *mw = (MergeWrites *)w;
    switch (s->kind) {
    case STMT_ASSIGN: mark_root(s->u.assign.target, mw->out, mw->arena); break;
    case STMT_FOR: mark_root(s->u.for_.var, mw->out, mw->arena); break;
    case STMT_CALL: /* VAR arguments of a free or EXTERNAL procedure */
        for (int j = 0; j < s->u.call.call->u.call.args.len; j++)
            mark_root(VEC_AT(s->u.call.call->u.call.args, j, Expr), mw->out, mw->arena);
        break;
    default: break; /* object calls: merge_writes_expr */
    }
}

static void merge_writes(Block *b, PtrMap *out, Arena *a)
{
    MergeWrites mw = {.walk = {.expr = merge_writes_expr, .stmt = merge_writes_stmt},
                      .out = out, .arena = a};
    ast_walk_block(&mw.walk, b);
}

/* A --library object: its host calls the global procedures without
 * parameters (the entry points, `program` among them) in any order and as
 * often as it likes, after any other entry left the replicates as it did.
 * Each entry is walked once more from replicates that may differ in every
 * element, so that what any order of calls makes diverge diverges here too:
 * an entry `program` never calls may write each replicate's INDEX into an
 * element that `program` alone would keep equal.  A call right after MERGE
 * still finds its replicates equal. */
static void library_entries(UCtx *c)
{
    const SemaInfo *si = c->p->si;
    for (int i = 0; i < si->subrs.len && !c->gave_up; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (s->kind != SYM_PROC || !s->sub || s->sub->external || s->sub->params.len != 0 ||
            !s->decl)
            continue;
        CaState *st = st_new(c);
        for (int n = 0; n < st->nnets; n++)
            memset(st->D[n], 1, (size_t)c->nloc);
        c->stack.len = 0;
        if (enter(c, s))
            ca_block(c, st, s->decl->u.subr.body);
        st_free(st);
    }
}

void lower_uniform(LowerPlan *p)
{
    SemaInfo *si = p->si;
    if (!si->program || !si->program->decl)
        return;
    UCtx c = {.p = p};
    for (int i = 0; i < si->types.len; i++) {
        Type *t = VEC_AT(si->types, i, Type);
        if (t->kind != TY_NETWORK && t->kind != TY_NODE && t->kind != TY_CONNECTION)
            continue;
        for (int e = 0; e < t->elems.len; e++)
            ptrmap_put(p->arena, &c.loc_ids, t, NULL, e, (void *)(intptr_t)(++c.nloc));
    }
    c.ever = calloc((size_t)c.nloc + 1, 1);
    find_global_stores(&c);
    /* locals and parameters only ever become diverged: repeat until stable */
    for (int round = 0; round < 100; round++) {
        c.changed = false;
        ptrmap_free(p->arena, &c.calls); /* the last round's verdicts count */
        ptrmap_free(p->arena, &c.memo);
        memset(c.ever, 0, (size_t)c.nloc);
        CaState *st = st_new(&c);
        c.stack.len = 0;
        enter(&c, si->program);
        /* the initializers of globals run first, in order, as central agent
           code (they may call functions that replicate and call the net) */
        for (int i = 0; i < si->data.len; i++) {
            Symbol *g = VEC_AT(si->data, i, Symbol);
            if (g->init && g->init->init)
                ca_expr(&c, st, g->init->init);
        }
        ca_block(&c, st, si->program->decl->u.subr.body);
        st_free(st);
        if (p->opts.library)
            library_entries(&c);
        if (!c.changed || c.gave_up)
            break;
        if (round == 99)
            c.gave_up = true;
    }
    if (!c.gave_up) {
        p->uniform_calls = c.calls;
        for (int i = 0; i < si->types.len; i++) {
            Type *t = VEC_AT(si->types, i, Type);
            if (t->kind != TY_CONNECTION)
                continue;
            PtrMap merged = {0};
            if (t->merge && t->merge->decl)
                merge_writes(t->merge->decl->u.subr.body, &merged, p->arena);
            for (int e = 0; e < t->elems.len; e++) {
                Symbol *el = VEC_AT(t->elems, e, Symbol);
                if (c.ever[loc_of(&c, t, e)] || ptrmap_get(&merged, el, NULL, 0))
                    continue;
                ptrmap_put(p->arena, &p->shared, t, el, 0, (void *)1);
                vec_push(p->arena, &p->dump,
                         arena_printf(p->arena, "%s: element %s shared by the lanes of a block",
                                      t->name, el->name));
            }
        }
    }
    ptrmap_free(p->arena, &c.loc_ids); /* the analysis's own maps */
    ptrmap_free(p->arena, &c.div);
    ptrmap_free(p->arena, &c.fx);
    ptrmap_free(p->arena, &c.memo);
    if (c.gave_up)
        ptrmap_free(p->arena, &c.calls);
    free(c.ever);
}
