/* pass_rep_state.c -- calls on a network whose form is known keep only
 * the code for that form.
 *
 * The central agent chooses the form of a network at run time: a call on
 * its replicates is `if (net->blocks != NULL && lo <= hi) { lane code }
 * else { plain loop over lo..hi }`, and merge-first and batch add such
 * tests.  The form follows from the REPLICATE statements (rt_replicate):
 * at the program's start every network is unreplicated, and after
 * `REPLICATE net INTO 1` it is so again, whatever it was; after `INTO k`
 * with a constant k >= 2 it is in lane blocks (had it been replicated
 * already, the statement would have stopped the program).  Either holds
 * until the next REPLICATE of the network or a call of a global
 * subroutine that may replicate it (SubrInfo.replicates; in a --library
 * object also any EXTERNAL code and what calls it, SubrInfo.calls_external,
 * as C may call back through cupit_call).
 *
 * Unreplicated (set U), the test is false and only the else branch is
 * kept.  In lane blocks (set B), a test `blocked(n)` alone is true and only
 * the then branch is kept; the dispatch `blocked(n) && lo <= hi` becomes
 * `lo <= hi` without its else branch when that branch is the plain loop
 * over lo..hi, which does nothing when lo > hi.  The C compiler then never
 * compiles the versions only the dropped branches call: the lane versions
 * of building and pruning before the first REPLICATE and after INTO 1,
 * the plain versions of training after INTO 32.
 *
 * A forward walk over the structured statements of each central-agent
 * function: a loop starts (and ends) with U and B less every network its
 * body or bounds may replicate; IF and SWITCH meet their branches.  Only
 * `program` starts with every network in U, and not in a --library object
 * (C may call it after other procedures), nor when it calls itself or an
 * initializer of a global object may replicate.  Where the walk cannot
 * tell, the test stays. */
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
    /* what each loop seen by kills_of may replicate (open addressing) */
    struct LoopKills *loops;
    int nloops, used;
    Set *stack;                  /* kills_of: the sets of the enclosing loops */
    int depth, cap;
} Rs;

struct LoopKills {
    const IrStmt *loop;
    Set set;
};

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

/* e without casts, through the initializers of const locals (or NULL). */
static const IrExpr *resolve(const Rs *r, const IrExpr *e)
{
    for (int depth = 0; e && depth < 8; depth++) {
        if (e->kind == IRE_CAST)
            e = e->a;
        else if (e->kind == IRE_VAR && e->u.var->is_const)
            e = const_init(r, e->u.var);
        else
            return e;
    }
    return NULL;
}

/* The network e points at (&global, or a const local holding it), or -1. */
static int which_net(const Rs *r, const IrExpr *e)
{
    e = resolve(r, e);
    return e && e->kind == IRE_ADDR && e->a && e->a->kind == IRE_VAR ? net_index(r, e->a->u.var)
                                                                     : -1;
}

/* The constant value of e in *v. */
static bool const_int(const Rs *r, const IrExpr *e, int64_t *v)
{
    e = resolve(r, e);
    if (!e || e->kind != IRE_INT)
        return false;
    *v = e->u.i;
    return true;
}

static bool is_replicate(const IrExpr *e)
{
    return e && e->kind == IRE_CALL && !e->fn && e->helper == IRH_REPLICATE && e->args.len >= 4;
}

/* A call of a global subroutine that may replicate a network.  In a
 * --library object that is also EXTERNAL code and every global subroutine
 * that calls it: C may call back through cupit_call into a procedure that
 * replicates. */
static bool may_replicate(const IrExpr *e, bool library)
{
    if (!e || e->kind != IRE_CALL || !e->fn)
        return false;
    const Symbol *s = e->fn->subr;
    if (e->fn->role == IRFN_EXTERNAL)
        return library;
    if (e->fn->role != IRFN_GLOBAL)
        return false;
    return !s || !s->sub || s->sub->replicates || (library && s->sub->calls_external);
}

/* ---- what a statement may replicate ------------------------------------- */

/* The walk asks what a loop may replicate at every enclosing loop too:
 * each loop's set is found once, on the first walk that reaches it, and
 * kept (its statements are not changed before the walk reaches them). */
static bool is_loop(const IrStmt *s)
{
    return s->kind == IRS_LOOP || s->kind == IRS_FOR;
}

static struct LoopKills *loop_slot(struct LoopKills *slots, int n, const IrStmt *loop)
{
    uintptr_t h = (uintptr_t)loop;
    h ^= h >> 17;
    h *= (uintptr_t)0x9e3779b97f4a7c15u;
    for (size_t i = (size_t)(h >> 7) & (size_t)(n - 1);; i = (i + 1) & (size_t)(n - 1))
        if (!slots[i].loop || slots[i].loop == loop)
            return &slots[i];
}

static const Set *loop_kills(const Rs *r, const IrStmt *loop)
{
    if (!r->nloops)
        return NULL;
    const struct LoopKills *k = loop_slot(r->loops, r->nloops, loop);
    return k->loop ? &k->set : NULL;
}

static void keep_loop_kills(Rs *r, const IrStmt *loop, Set set)
{
    Arena *a = r->c->m->arena;
    if (4 * (r->used + 1) > 3 * r->nloops) {
        int n = r->nloops ? 2 * r->nloops : 64;
        struct LoopKills *slots = arena_alloc(a, (size_t)n * sizeof *slots);
        memset(slots, 0, (size_t)n * sizeof *slots);
        for (int i = 0; i < r->nloops; i++)
            if (r->loops[i].loop)
                *loop_slot(slots, n, r->loops[i].loop) = r->loops[i];
        r->loops = slots;
        r->nloops = n;
    }
    struct LoopKills *k = loop_slot(r->loops, r->nloops, loop);
    if (!k->loop)
        r->used++;
    *k = (struct LoopKills){loop, set};
}

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
    } else if (may_replicate(e, k->r->c->m->opts.library))
        k->set = ALL;
    else if (e->kind == IRE_CALL && e->ext && k->r->c->m->opts.library)
        k->set = ALL; /* C code that may call back through cupit_call */
    return true;
}

static bool note_decl(IrVisitor *v, IrStmt *s)
{
    Kills *k = v->data;
    Rs *r = k->r;
    if (is_loop(s)) {
        const Set *known = loop_kills(r, s);
        if (known) {
            k->set |= *known;
            return false;
        }
        if (r->depth == r->cap) {
            int n = r->cap ? 2 * r->cap : 16;
            Set *st = arena_alloc(r->c->m->arena, (size_t)n * sizeof *st);
            if (r->depth)
                memcpy(st, r->stack, (size_t)r->depth * sizeof *st);
            r->stack = st;
            r->cap = n;
        }
        r->stack[r->depth++] = k->set; /* the loop's own set starts empty */
        k->set = 0;
    }
    if (s->kind == IRS_DECL && s->var && s->var->is_const && s->a)
        vec_push(r->c->m->arena, &r->decls, s);
    return true;
}

static void loop_done(IrVisitor *v, IrStmt *s)
{
    Kills *k = v->data;
    Rs *r = k->r;
    if (!is_loop(s))
        return;
    keep_loop_kills(r, s, k->set);
    k->set |= r->stack[--r->depth];
}

/* The networks statement s or expression e (either may be NULL) may
 * replicate, as a set. */
static Set kills_of(Rs *r, IrStmt *s, IrExpr *e)
{
    Kills k = {r, 0};
    IrVisitor v = {.stmt = note_decl, .expr = kill_expr, .stmt_after = loop_done, .data = &k};
    ir_walk_stmt(&v, s);
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

/* What is known at a point: unreplicated (u), in lane blocks (b). */
typedef struct St {
    Set u, b;
} St;

static St meet(St x, St y)
{
    return (St){x.u & y.u, x.b & y.b};
}

static St less(St x, Set k)
{
    return (St){x.u & ~k, x.b & ~k};
}

static St walk(Rs *r, IrStmt *s, St st);

/* The IF becomes a block of one of its branches. */
static void keep_branch(Rs *r, IrStmt *s, bool then)
{
    IrModule *m = r->c->m;
    IrStmt *keep = then ? s->then : s->els;
    s->kind = IRS_BLOCK;
    s->a = NULL;
    s->then = NULL;
    s->els = NULL;
    s->list = (PtrVec){0};
    if (keep)
        vec_push(m->arena, &s->list, keep);
    r->pruned++;
}

static bool is_var_ref(const IrExpr *e, const IrVar **v)
{
    if (!e || e->kind != IRE_VAR)
        return false;
    *v = e->u.var;
    return true;
}

/* cond is `blocked(n) && lo <= hi` and els nothing but the plain loop over
 * the replicates lo..hi (lw_call_replicates): in lane blocks the IF can
 * be `if (lo <= hi) then`. */
static bool plain_loop_else(const IrStmt *s)
{
    const IrExpr *cond = s->a, *le = cond->kind == IRE_BINARY ? cond->b : NULL;
    const IrVar *lo, *hi;
    if (cond->kind != IRE_BINARY || cond->op != IROP_LAND || cond->a->kind != IRE_NETINFO ||
        !le || le->kind != IRE_BINARY || le->op != IROP_LE || !is_var_ref(le->a, &lo) ||
        !is_var_ref(le->b, &hi))
        return false;
    const IrStmt *e = s->els;
    while (e && e->kind == IRS_BLOCK && e->list.len == 1)
        e = VEC_AT(e->list, 0, IrStmt);
    const IrVar *flo, *fhi;
    return e && e->kind == IRS_FOR && e->for_kind == IRFOR_REPS && is_var_ref(e->lo, &flo) &&
           is_var_ref(e->hi, &fhi) && flo == lo && fhi == hi;
}

static St walk(Rs *r, IrStmt *s, St st)
{
    if (!s)
        return st;
    switch (s->kind) {
    case IRS_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            st = walk(r, VEC_AT(s->list, i, IrStmt), st);
        return st;
    case IRS_EVAL:
        if (is_replicate(s->a)) {
            const IrExpr *e = s->a;
            int n = which_net(r, VEC_AT(e->args, 0, IrExpr));
            const IrExpr *iv = VEC_AT(e->args, 3, IrExpr);
            int64_t lo, hi;
            if (n >= 0 && iv->kind == IRE_BOOL && !iv->u.i &&
                const_int(r, VEC_AT(e->args, 1, IrExpr), &lo) &&
                const_int(r, VEC_AT(e->args, 2, IrExpr), &hi) && lo == hi && lo >= 1) {
                Set bit = (Set)1 << n;
                st = less(st, bit);
                if (lo == 1)
                    st.u |= bit;
                else
                    st.b |= bit;
                return st;
            }
        }
        return less(st, kills_of(r, s, NULL));
    case IRS_IF: {
        int n = tested_net(r, s->a);
        if (n >= 0 && (st.u >> n & 1)) {
            keep_branch(r, s, false);
            return walk(r, s, st);
        }
        if (n >= 0 && (st.b >> n & 1)) {
            if (s->a->kind == IRE_NETINFO) { /* blocked(n) alone */
                keep_branch(r, s, true);
                return walk(r, s, st);
            }
            if (plain_loop_else(s)) {
                s->a = s->a->b;
                s->els = NULL;
                r->pruned++;
            }
        }
        st = less(st, kills_of(r, NULL, s->a));
        St t = walk(r, s->then, st);
        return meet(t, walk(r, s->els, st));
    }
    case IRS_LOOP: case IRS_FOR: {
        St in = less(st, kills_of(r, s, NULL));
        walk(r, s->then, in);
        return in;
    }
    case IRS_SWITCH: {
        st = less(st, kills_of(r, NULL, s->a));
        St out = st; /* no case taken */
        for (int i = 0; i < s->list.len; i++)
            out = meet(out, walk(r, VEC_AT(s->list, i, IrStmt), st));
        return out;
    }
    default: /* DECL, ASSIGN, RETURN, REDUCE, ...: what they may replicate */
        return less(st, kills_of(r, s, NULL));
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
    /* a program with more networks than bits: the others are never in U.
       In a --library object C may call any global procedure, `program`
       too, in any order, a `program` that calls itself runs again in
       whatever state it left, and the initializers of global objects run
       before it: then nothing is known at its entry */
    bool fresh = strcmp(f->subr->name, "program") == 0 && !c->m->opts.library &&
                 !f->subr->sub->called && c->m->si && !c->m->si->init_replicates;
    Set start = fresh ? (r.nnets == MAX_NETS ? ALL : ((Set)1 << r.nnets) - 1) : 0;
    walk(&r, f->body, (St){start, 0});
    if (r.pruned)
        pu_trace(c, "rep-state", "%s: %d run-time test(s) of the network's form decided", f->name,
                 r.pruned);
}
