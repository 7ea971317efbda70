/* pass_rep_state.c -- calls on a network that cannot be in lane blocks
 * keep only their plain path.
 *
 * The central agent chooses the form of a network at run time: a call on
 * its replicates is `if (net->blocks != NULL ...) { lane code } else {
 * plain code }`, and merge-first and batch add such tests.  At the
 * program's start every network is unreplicated, and after `REPLICATE
 * net INTO 1` it is so again, whatever it was (rt_replicate); until the
 * next REPLICATE of it, or a call of a central-agent subroutine (which may
 * replicate it), it is not in lane blocks.  There the test is false and
 * the pass leaves only the else branch, so that the C compiler never
 * compiles the lane versions only such calls use -- building the network
 * before the first REPLICATE, pruning after INTO 1.
 *
 * A forward walk over the structured statements of each central-agent
 * function with the set U of networks known to be unreplicated:
 * REPLICATE INTO the constant 1 adds its network; any other REPLICATE
 * removes its network (every network when it names one through something
 * other than its global), a call of a central-agent subroutine empties U;
 * a loop starts (and ends) with U less every network its body or bounds
 * may replicate; IF and SWITCH meet their branches.  Only `program`
 * starts with every network in U.  Where the walk cannot tell, the test
 * stays. */
#include <stdint.h>
#include <string.h>

#include "passes_internal.h"

enum { MAX_NETS = 64 };
typedef uint64_t Set;
#define ALL ((Set)-1)

typedef struct Rs {
    PassCtx *c;
    const IrVar *nets[MAX_NETS]; /* the network globals; bit i of a Set */
    int nnets;
    PtrVec decls;                /* IrStmt*: DECLs of const locals seen */
    int pruned;
} Rs;

static int net_index(const Rs *r, const IrVar *v)
{
    for (int i = 0; i < r->nnets; i++)
        if (r->nets[i] == v)
            return i;
    return -1;
}

/* The initializer of const local v, or NULL. */
static const IrExpr *const_init(const Rs *r, const IrVar *v)
{
    if (!v->is_const)
        return NULL;
    for (int i = r->decls.len - 1; i >= 0; i--) {
        const IrStmt *d = VEC_AT(r->decls, i, IrStmt);
        if (d->var == v)
            return d->a;
    }
    return NULL;
}

/* The network e points at (&global, or a const local holding it), or -1. */
static int which_net(const Rs *r, const IrExpr *e)
{
    for (int depth = 0; e && depth < 8; depth++) {
        if (e->kind == IRE_ADDR && e->a && e->a->kind == IRE_VAR)
            return net_index(r, e->a->u.var);
        if (e->kind == IRE_CAST)
            e = e->a;
        else if (e->kind == IRE_VAR)
            e = const_init(r, e->u.var);
        else
            return -1;
    }
    return -1;
}

static bool is_one(const Rs *r, const IrExpr *e)
{
    for (int depth = 0; e && depth < 8; depth++) {
        if (e->kind == IRE_INT)
            return e->u.i == 1;
        if (e->kind == IRE_CAST)
            e = e->a;
        else if (e->kind == IRE_VAR)
            e = const_init(r, e->u.var);
        else
            return false;
    }
    return false;
}

static bool is_replicate(const IrExpr *e)
{
    return e && e->kind == IRE_CALL && !e->fn && e->helper == IRH_REPLICATE && e->args.len >= 4;
}

static bool is_ca_call(const IrExpr *e)
{
    if (!e || e->kind != IRE_CALL || !e->fn || e->fn->role != IRFN_GLOBAL)
        return false;
    const Symbol *s = e->fn->subr;
    return !s || !s->sub || s->sub->context == CTX_CA;
}

/* ---- what a statement may replicate ------------------------------------- */

typedef struct Kills {
    Rs *r;
    Set set;
} Kills;

static bool kill_expr(IrVisitor *v, IrExpr *e)
{
    Kills *k = v->data;
    if (is_replicate(e)) {
        int n = which_net(k->r, VEC_AT(e->args, 0, IrExpr));
        k->set |= n < 0 ? ALL : (Set)1 << n;
    } else if (is_ca_call(e))
        k->set = ALL;
    return true;
}

static bool note_decl(IrVisitor *v, IrStmt *s)
{
    Kills *k = v->data;
    if (s->kind == IRS_DECL && s->var && s->var->is_const && s->a)
        vec_push(k->r->c->m->arena, &k->r->decls, s);
    return true;
}

static Set kills_of(Rs *r, IrStmt *s)
{
    Kills k = {r, 0};
    IrVisitor v = {.stmt = note_decl, .expr = kill_expr, .data = &k};
    ir_walk_stmt(&v, s);
    return k.set;
}

static Set kills_of_expr(Rs *r, IrExpr *e)
{
    Kills k = {r, 0};
    IrVisitor v = {.stmt = note_decl, .expr = kill_expr, .data = &k};
    ir_walk_expr(&v, e);
    return k.set;
}

/* ---- the walk --------------------------------------------------------------- */

/* The network whose blocks test leads cond (`blocked(n)` or `blocked(n) &&
 * ...`), or -1. */
static int tested_net(const Rs *r, const IrExpr *cond)
{
    while (cond && cond->kind == IRE_BINARY && cond->op == IROP_LAND)
        cond = cond->a;
    if (cond && cond->kind == IRE_NETINFO && cond->info == IRN_BLOCKED)
        return which_net(r, cond->a);
    return -1;
}

static Set walk(Rs *r, IrStmt *s, Set u);

/* The IF becomes a block of its else branch. */
static void keep_else(Rs *r, IrStmt *s)
{
    IrModule *m = r->c->m;
    IrStmt *els = s->els;
    s->kind = IRS_BLOCK;
    s->a = NULL;
    s->then = NULL;
    s->els = NULL;
    s->list = (PtrVec){0};
    if (els)
        vec_push(m->arena, &s->list, els);
    r->pruned++;
}

static Set walk(Rs *r, IrStmt *s, Set u)
{
    if (!s)
        return u;
    switch (s->kind) {
    case IRS_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            u = walk(r, VEC_AT(s->list, i, IrStmt), u);
        return u;
    case IRS_EVAL:
        if (is_replicate(s->a)) {
            const IrExpr *e = s->a;
            int n = which_net(r, VEC_AT(e->args, 0, IrExpr));
            const IrExpr *iv = VEC_AT(e->args, 3, IrExpr);
            if (n >= 0 && iv->kind == IRE_BOOL && !iv->u.i &&
                is_one(r, VEC_AT(e->args, 1, IrExpr)) && is_one(r, VEC_AT(e->args, 2, IrExpr)))
                return u | (Set)1 << n;
        }
        return u & ~kills_of(r, s);
    case IRS_IF: {
        int n = tested_net(r, s->a);
        if (n >= 0 && (u >> n & 1)) {
            keep_else(r, s);
            return walk(r, s, u);
        }
        u &= ~kills_of_expr(r, s->a);
        Set t = walk(r, s->then, u);
        return t & walk(r, s->els, u);
    }
    case IRS_LOOP: case IRS_FOR: {
        Set in = u & ~kills_of(r, s);
        walk(r, s->then, in);
        return in;
    }
    case IRS_SWITCH: {
        u &= ~kills_of_expr(r, s->a);
        Set out = u; /* no case taken */
        for (int i = 0; i < s->list.len; i++)
            out &= walk(r, VEC_AT(s->list, i, IrStmt), u);
        return out;
    }
    default: /* DECL, ASSIGN, RETURN, REDUCE, ...: what they may replicate */
        return u & ~kills_of(r, s);
    }
}

void pass_rep_state(PassCtx *c, IrFunc *f)
{
    if (!c->m->opts.lanes || f->role != IRFN_GLOBAL || !f->body || !f->subr ||
        f->subr->sub->context != CTX_CA)
        return;
    Rs r = {.c = c};
    for (int i = 0; i < c->m->statics.len && r.nnets < MAX_NETS; i++) {
        const IrVar *v = VEC_AT(c->m->statics, i, IrStatic)->var;
        if (v->sym && v->sym->type && v->sym->type->kind == TY_NETWORK)
            r.nets[r.nnets++] = v;
    }
    if (!r.nnets)
        return;
    /* a program with more networks than bits: the others are never in U */
    Set start = strcmp(f->subr->name, "program") == 0
                    ? (r.nnets == MAX_NETS ? ALL : ((Set)1 << r.nnets) - 1)
                    : 0;
    walk(&r, f->body, start);
    if (r.pruned)
        pu_trace(c, "rep-state", "%s: %d lane path(s) left out (network unreplicated there)",
                 f->name, r.pruned);
}
