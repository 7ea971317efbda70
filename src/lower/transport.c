/* transport.c -- where the values of connection elements live in lane code.
 *
 * A CuPit program moves values between nodes through connection elements:
 * a node procedure calls `ME.out[].send (x)`, the connection procedure
 * stores `ME.signal := x * ME.weight`, and a node procedure of the next
 * group call sums `REDUCTION ME.in[].signal:sum`.  Stored literally, every
 * such value is written to and read back from memory once per connection
 * and replicate, which makes the memory bus the bottleneck of a trainer.
 *
 * This analysis finds, for every read of a connection element in lane code,
 * which assignments can have written the value it reads ("reaching
 * writers"), by walking each network subroutine that the central agent
 * calls (an *entry*) in program order:
 *
 *   - the state maps each (bundle, element) to a set of writers; ENTRY
 *     stands for "a value from before this network call";
 *   - an assignment `ME.e := v` in a connection procedure that runs on all
 *     connections of a bundle (a group call on a whole group, an interface
 *     call no node can skip, an assignment no connection can skip) replaces
 *     the set; any other assignment adds to it;
 *   - IF joins its branches, loops iterate to a fixed point, RETURN and
 *     BREAK carry their state to where execution continues.
 *
 * Connections of one node are touched only by that node within a group
 * call (a bundle between two groups is seen from one side in a call), so
 * one abstract state per bundle is exact enough; a bundle that connects a
 * group with itself is left in memory.
 *
 * A read whose only writer is an unconditional top-level assignment
 * `ME.e := expr` of the procedure called at an interface call site, where
 * `expr` uses only the procedure's CONST parameters, constants, pure
 * standard functions, functions of the program that only return such an
 * expression, and elements of the connection that no part of the same
 * entry changes, becomes a *lazy read*: it evaluates `expr` again,
 * taking the parameters from slots that the call site fills per node.  The
 * slot of a node and the elements of its connections are always updated
 * together, by the same execution of the call, so the value is the same.
 * A writer is stored to memory only if a read that is not lazy can see it,
 * or if its value can survive the entry and some read sees values from
 * before an entry (ENTRY).  The fuse pass (src/passes/pass_fuse.c) makes
 * these rewrites on the IR; which elements the lane records then keep
 * follows from what code still names (pass_drop_fields.c). */
#include <stdlib.h>
#include <string.h>

#include "cupitc/ast_walk.h"
#include "lower_internal.h"

enum { ENTRY = 0 };

/* ---- writer sets ----------------------------------------------------------- */

/* A sorted set of writer ids (ENTRY = 0). */
typedef struct WSet {
    int n, cap;
    int *v;
} WSet;

static _Noreturn void out_of_memory(void)
{
    fputs("cupitc: fatal error: out of memory\n", stderr);
    exit(3);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory();
    return q;
}

static void *xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size);
    if (!q)
        out_of_memory();
    return q;
}

static void ws_add(WSet *s, int x)
{
    int i = 0;
    while (i < s->n && s->v[i] < x)
        i++;
    if (i < s->n && s->v[i] == x)
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4;
        s->v = xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
    }
    memmove(s->v + i + 1, s->v + i, (size_t)(s->n - i) * sizeof *s->v);
    s->v[i] = x;
    s->n++;
}

static void ws_set1(WSet *s, int x)
{
    s->n = 0;
    ws_add(s, x);
}

static void ws_union(WSet *d, const WSet *s)
{
    for (int i = 0; i < s->n; i++)
        ws_add(d, s->v[i]);
}

static bool ws_equal(const WSet *a, const WSet *b)
{
    return a->n == b->n && (a->n == 0 || !memcmp(a->v, b->v, (size_t)a->n * sizeof *a->v));
}

/* ---- states: one writer set per (bundle, element) -------------------------- */

typedef struct State {
    int n;
    WSet *w;
} State;

static State *st_new(int n)
{
    State *s = xrealloc(NULL, sizeof *s);
    s->n = n;
    s->w = xcalloc((size_t)n, sizeof *s->w);
    return s;
}

static void st_free(State *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        free(s->w[i].v);
    free(s->w);
    free(s);
}

static State *st_copy(const State *s)
{
    State *c = st_new(s->n);
    for (int i = 0; i < s->n; i++)
        ws_union(&c->w[i], &s->w[i]);
    return c;
}

static void st_assign(State *d, const State *s)
{
    for (int i = 0; i < s->n; i++) {
        d->w[i].n = 0;
        ws_union(&d->w[i], &s->w[i]);
    }
}

static void st_union(State *d, const State *s)
{
    for (int i = 0; i < s->n; i++)
        ws_union(&d->w[i], &s->w[i]);
}

static bool st_equal(const State *a, const State *b)
{
    for (int i = 0; i < a->n; i++)
        if (!ws_equal(&a->w[i], &b->w[i]))
            return false;
    return true;
}

/* ---- per network type ---------------------------------------------------------- */

typedef struct TWriter {
    LazyWriter pub;
    int id;
    int bundle, elem;
    const Type *node_type;  /* the type whose node procedure makes the call */
    bool lazy_capable;
    bool pure;              /* leaving it out changes nothing but the element */
    bool alive_at_end;      /* its value can outlive an entry */
    bool must_store;
    PtrVec me_elems;        /* Symbol*: connection elements its expression reads */
} TWriter;

typedef struct TRead {
    const void *site;
    int bundle, elem;
    WSet reach;
    bool never_lazy;        /* read through an lvalue (compound assignment, VAR) */
    uint8_t *written;       /* [T]: written in an entry where this read occurs */
    unsigned stamp;
    int line;
} TRead;

typedef struct TNet {
    LowerNet *net;
    int T;                  /* number of (bundle, element) pairs */
    int *off;               /* [nbundles]: index of (b, element 0) */
    bool *forced;           /* [T]: kept in memory whatever the analysis says */
    PtrVec writers;         /* TWriter*, index = id; [0] = NULL (ENTRY) */
    PtrMap writer_ids;      /* (site, assign, bundle) -> TWriter* */
    PtrVec reads;           /* TRead* */
    PtrMap read_map;        /* (site, NULL, bundle) -> TRead* */
} TNet;

/* The walk's context. */
typedef struct TCtx {
    LowerPlan *p;
    TNet *tn;
    uint8_t *entry_written; /* [T] */
    PtrVec touched;         /* TRead* read in the current entry */
    unsigned stamp;
    PtrVec stack;           /* Symbol*: subroutines being walked */
    bool gave_up;           /* recursion: keep everything of this net in memory */
    long entered;           /* subroutine walks so far (T_MAX_ENTERED) */
    PtrMap conn_free;       /* (node subroutine, NULL, 0) -> (void *)1 connection-free /
                               (void *)2 not / (void *)3 being checked */
    PtrMap walked;          /* (connection-free node subroutine, NULL, group) -> PtrVec *
                               of the KnownArgs it was walked with */
    int scan_depth;         /* nesting of conn_free, read_only, net_inert (T_MAX_DEPTH) */
    PtrMap inert;           /* (network subroutine, NULL, 0) -> (void *)1 its walk does
                               nothing / (void *)2 / (void *)3 being checked */
    PtrMap read_only;       /* (connection subroutine, NULL, 0) -> (void *)1 writes
                               nothing / (void *)2 may write / (void *)3 being checked */
    PtrMap read_walks;      /* (read-only connection subroutine, NULL, bundle) -> ReadWalks * */
    PtrVec all_read_walks;  /* ReadWalks*, to free */
} TCtx;

/* The walk follows every call into its callee, so a chain of subroutines
 * each calling the next twice takes exponential time: past this many
 * subroutine walks for one network it gives up (as for recursion).  It
 * recurses in C once per call nesting: past T_MAX_DEPTH nested calls it
 * gives up too, before the C stack runs out (a chain of 4000 node
 * functions, each calling the next, crashed cupitc). */
enum { T_MAX_ENTERED = 200000, T_MAX_DEPTH = 500 };

static int idx(const TNet *tn, int b, int e)
{
    return tn->off[b] + e;
}

static void force_bundle(TCtx *c, int b)
{
    const TNet *tn = c->tn;
    int ne = tn->net->bundles[b].conn->elems.len;
    for (int e = 0; e < ne; e++)
        tn->forced[idx(tn, b, e)] = true;
}

/* Bundles of interface `ifc` of group g; *from_src: g is the source side. */
static int bundles_of(const LowerNet *net, int g, const Symbol *ifc, int *out, bool *from_src)
{
    int n = 0;
    for (int b = 0; b < net->nbundles; b++) {
        const LowerBundle *bu = &net->bundles[b];
        bool src = bu->src_group == g && bu->src_iface == ifc;
        bool dst = bu->dst_group == g && bu->dst_iface == ifc;
        if (src || dst) {
            out[n] = b;
            from_src[n] = src;
            n++;
        }
    }
    return n;
}

static void t_read(TCtx *c, const void *site, int line, int b, int e, const State *S,
                   bool never_lazy)
{
    TNet *tn = c->tn;
    TRead *r = ptrmap_get(&tn->read_map, site, NULL, b);
    if (!r) {
        r = xcalloc(1, sizeof *r);
        r->written = xcalloc((size_t)tn->T + 1, 1);
        r->site = site;
        r->bundle = b;
        r->elem = e;
        r->line = line;
        ptrmap_put(c->p->arena, &tn->read_map, site, NULL, b, r);
        vec_push(c->p->arena, &tn->reads, r);
    }
    ws_union(&r->reach, &S->w[idx(tn, b, e)]);
    r->never_lazy |= never_lazy;
    if (r->stamp != c->stamp) {
        r->stamp = c->stamp;
        vec_push(c->p->arena, &c->touched, r);
    }
}

/* ---- lazy expressions ---------------------------------------------------------------- */

static bool lazy_expr_ok_at(LowerPlan *p, const Symbol *proc, const Expr *e, PtrVec *elems,
                            int depth);
static bool effect_free_at(LowerPlan *p, const Expr *e, int depth);

/* The expression a global function of the program returns when that is
 * all it does: its body is one `RETURN expr`, no locals, every parameter
 * CONST (`Real FUNCTION times (Real CONST a, b) IS RETURN a * b; END`);
 * the nesting of such calls is bounded (recursion).  Else NULL. */
static const Expr *returned_expr(const Symbol *f, int depth)
{
    if (!f || f->kind != SYM_FUNC || !f->sub || f->sub->external || !f->decl || f->owner ||
        depth >= 8)
        return NULL;
    for (int i = 0; i < f->sub->params.len; i++)
        if (VEC_AT(f->sub->params, i, Symbol)->access != ACCESS_CONST)
            return NULL;
    const Block *b = f->decl->u.subr.body;
    if (!b || b->defs.len || b->stmts.len != 1)
        return NULL;
    const Stmt *r = VEC_AT(b->stmts, 0, Stmt);
    return r->kind == STMT_RETURN ? r->u.ret.value : NULL;
}

/* Such a function whose expression lazy_expr_ok (effect false) or
 * effect_free (effect true) accepts over its own parameters: as good as
 * an operator.  The verdict depends on the function and the nesting only
 * and is kept (p->pure_fns): a function that calls another many times,
 * which calls another many times, ... is judged once per nesting, not
 * once per path through the calls (exponentially often). */
static bool pure_user_function(LowerPlan *p, const Symbol *f, int depth, bool effect)
{
    int key = 2 * depth + effect;
    void *known = ptrmap_get(&p->pure_fns, f, NULL, key);
    if (known)
        return known == (void *)1;
    const Expr *v = returned_expr(f, depth);
    bool ok;
    if (effect) {
        ok = v && effect_free_at(p, v, depth + 1);
    } else {
        PtrVec none = {0};
        ok = v && lazy_expr_ok_at(p, f, v, &none, depth + 1) && none.len == 0;
    }
    ptrmap_put(p->arena, &p->pure_fns, f, NULL, key, ok ? (void *)1 : (void *)2);
    return ok;
}

/* Whether `e`, in connection procedure `proc`, can be evaluated again
 * later and anywhere: CONST parameters, constants, elements of ME (noted in
 * *elems), operators that cannot fail, pure library functions and
 * functions of the program that only return such an expression of their
 * parameters (pure_user_function). */
static bool lazy_expr_ok_at(LowerPlan *p, const Symbol *proc, const Expr *e, PtrVec *elems,
                            int depth)
{
    switch (e->kind) {
    case EXPR_INT: case EXPR_REAL:
        return true;
    case EXPR_NAME: {
        const Symbol *s = e->sym;
        if (!s)
            return false;
        if (s->kind == SYM_PARAM)
            return s->subr == proc && s->access == ACCESS_CONST && type_is_plain_data(s->type) &&
                   s->type->kind != TY_RECORD && s->type->kind != TY_ARRAY;
        if (s->kind == SYM_ENUM)
            return true;
        return s->kind == SYM_CONST && (s->is_global || s->has_value);
    }
    case EXPR_SELECT:
        if (e->u.select.obj->kind == EXPR_ME && e->sym && e->sym->kind == SYM_ELEM) {
            vec_push(p->arena, elems, e->sym);
            return true;
        }
        return false;
    case EXPR_UNARY:
        return e->u.unary.op != OP_RANDOM &&
               lazy_expr_ok_at(p, proc, e->u.unary.operand, elems, depth);
    case EXPR_BINARY: {
        Op op = e->u.binary.op;
        bool integral = e->type && type_is_integral(e->type);
        if (op == OP_POW || op == OP_LSHIFT || op == OP_RSHIFT || op == OP_INTERVAL ||
            op == OP_IN || ((op == OP_DIV || op == OP_MOD) && integral))
            return false;
        return lazy_expr_ok_at(p, proc, e->u.binary.lhs, elems, depth) &&
               lazy_expr_ok_at(p, proc, e->u.binary.rhs, elems, depth);
    }
    case EXPR_TERNARY:
        return lazy_expr_ok_at(p, proc, e->u.ternary.cond, elems, depth) &&
               lazy_expr_ok_at(p, proc, e->u.ternary.then_e, elems, depth) &&
               lazy_expr_ok_at(p, proc, e->u.ternary.else_e, elems, depth);
    case EXPR_CALL:
        if (!lower_pure_library_function(p, e->sym) && !pure_user_function(p, e->sym, depth, false))
            return false;
        for (int i = 0; i < e->u.call.args.len; i++)
            if (!lazy_expr_ok_at(p, proc, VEC_AT(e->u.call.args, i, Expr), elems, depth))
                return false;
        return true;
    case EXPR_CONVERT:
        if (sema_convert_kind(e) != CONV_NUMERIC || !e->type || e->type->kind != TY_REAL)
            return false;
        for (int i = 0; i < e->u.convert.args.len; i++)
            if (!lazy_expr_ok_at(p, proc, VEC_AT(e->u.convert.args, i, Expr), elems, depth))
                return false;
        return true;
    default:
        return false;
    }
}

/* Whether evaluating e can have no effect but its value: no calls except
 * pure library functions and functions of the program that only return
 * such an expression (returned_expr), nothing that can raise a run-time
 * error (checked subscripts, integer arithmetic with overflow checks,
 * division), no random numbers.  Only such writes may be left out. */
static bool effect_free_at(LowerPlan *p, const Expr *e, int depth)
{
    switch (e->kind) {
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING: case EXPR_NAME: case EXPR_ME:
    case EXPR_YOU:
        return true;
    case EXPR_SELECT:
        return effect_free_at(p, e->u.select.obj, depth);
    case EXPR_UNARY:
        if (e->u.unary.op == OP_RANDOM ||
            (e->u.unary.op == OP_NEG && e->type && type_is_integral(e->type)))
            return false;
        return effect_free_at(p, e->u.unary.operand, depth);
    case EXPR_BINARY: {
        Op op = e->u.binary.op;
        if (op == OP_POW || op == OP_LSHIFT || op == OP_RSHIFT || op == OP_DIV || op == OP_MOD)
            return false;
        if ((op == OP_ADD || op == OP_SUB || op == OP_MUL) && e->type &&
            type_is_integral(e->type))
            return false;
        return effect_free_at(p, e->u.binary.lhs, depth) &&
               effect_free_at(p, e->u.binary.rhs, depth);
    }
    case EXPR_TERNARY:
        return effect_free_at(p, e->u.ternary.cond, depth) &&
               effect_free_at(p, e->u.ternary.then_e, depth) &&
               effect_free_at(p, e->u.ternary.else_e, depth);
    case EXPR_CALL:
        if (!lower_pure_library_function(p, e->sym) && !pure_user_function(p, e->sym, depth, true))
            return false;
        for (int i = 0; i < e->u.call.args.len; i++)
            if (!effect_free_at(p, VEC_AT(e->u.call.args, i, Expr), depth))
                return false;
        return true;
    case EXPR_CONVERT:
        if (sema_convert_kind(e) != CONV_NUMERIC || !e->type || e->type->kind != TY_REAL)
            return false;
        for (int i = 0; i < e->u.convert.args.len; i++)
            if (!effect_free_at(p, VEC_AT(e->u.convert.args, i, Expr), depth))
                return false;
        return true;
    default:
        return false;
    }
}

static bool effect_free(LowerPlan *p, const Expr *e)
{
    return effect_free_at(p, e, 0);
}

static bool lazy_expr_ok(LowerPlan *p, const Symbol *proc, const Expr *e, PtrVec *elems)
{
    return lazy_expr_ok_at(p, proc, e, elems, 0);
}

/* ---- the walk --------------------------------------------------------------------- */

/* Where a subroutine's RETURNs leave to: their states join the caller's. */
typedef struct Exits {
    State *ret;             /* union of the states at RETURN (NULL: none) */
    State *brk;             /* union of the states at BREAK of the innermost loop */
} Exits;

static void exit_join(State **acc, const State *S)
{
    if (!*acc)
        *acc = st_copy(S);
    else
        st_union(*acc, S);
}

typedef struct ConnCx {
    const Symbol *proc;     /* the procedure whose body is walked */
    int bundle;
    const void *site;       /* the interface call (or WTA statement) */
    const Expr *site_expr;  /* the interface call, NULL for a WTA winner */
    bool from_src;
    int group;
    bool cover;             /* the call runs on every connection of the bundle */
    bool nested;            /* reached through another connection subroutine */
    int depth;              /* nesting of IF and loops in proc's body */
    bool returned;          /* a connection may have left proc already */
    bool broke;             /* a BREAK may have left the current loop iteration */
    Exits ex;
} ConnCx;

typedef struct NodeCx {
    const Symbol *proc;     /* the node subroutine walked */
    KnownArgs args;         /* its Bool and integral CONST parameters that
                               the call fixes */
    int group;
    bool full;              /* the group call runs on every node of the group */
    bool returned;          /* a node may have left the procedure already */
    bool broke;             /* a BREAK may have left the current loop iteration */
    Exits ex;
} NodeCx;

typedef struct NetCx {
    Exits ex;
} NetCx;

typedef void (*ExprFn)(TCtx *c, void *cx, Expr *e, State *S);

static void for_children(TCtx *c, void *cx, Expr *e, State *S, ExprFn fn)
{
#define VISIT(x) do { if (x) fn(c, cx, (x), S); } while (0)
    switch (e->kind) {
    case EXPR_SELECT: VISIT(e->u.select.obj); break;
    case EXPR_SUBSCRIPT: VISIT(e->u.subscript.obj); VISIT(e->u.subscript.index); break;
    case EXPR_ALLSLICE: VISIT(e->u.allslice.obj); break;
    case EXPR_CONNADDR: VISIT(e->u.connaddr.from); VISIT(e->u.connaddr.to); break;
    case EXPR_UNARY: VISIT(e->u.unary.operand); break;
    case EXPR_BINARY: VISIT(e->u.binary.lhs); VISIT(e->u.binary.rhs); break;
    case EXPR_TERNARY:
        VISIT(e->u.ternary.cond);
        VISIT(e->u.ternary.then_e);
        VISIT(e->u.ternary.else_e);
        break;
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.len; i++)
            VISIT(VEC_AT(e->u.call.args, i, Expr));
        break;
    case EXPR_OBJCALL:
        VISIT(e->u.objcall.obj);
        for (int i = 0; i < e->u.objcall.args.len; i++)
            VISIT(VEC_AT(e->u.objcall.args, i, Expr));
        break;
    case EXPR_CONVERT:
        for (int i = 0; i < e->u.convert.args.len; i++)
            VISIT(VEC_AT(e->u.convert.args, i, Expr));
        break;
    case EXPR_MAXINDEX: VISIT(e->u.maxindex.obj); break;
    default: break;
    }
#undef VISIT
}

static bool enter(TCtx *c, const Symbol *s)
{
    if (c->gave_up || ++c->entered > T_MAX_ENTERED || c->stack.len >= T_MAX_DEPTH) {
        c->gave_up = true;
        return false;
    }
    for (int i = 0; i < c->stack.len; i++)
        if (c->stack.items[i] == s) {
            c->gave_up = true; /* recursion */
            return false;
        }
    vec_push(c->p->arena, &c->stack, (void *)s);
    return true;
}

static void leave(TCtx *c)
{
    c->stack.len--;
}

/* A loop: body walked until the state at its head no longer grows.
 * walk(c, cx, body, S, brk) walks the body; BREAKs join into *brk. */
typedef void (*BlockFn)(TCtx *c, void *cx, Block *b, State *S);

static void t_loop(TCtx *c, void *cx, Exits *ex, Block *body, State *S, BlockFn walk,
                   Expr *while_c, Expr *until_c, ExprFn expr)
{
    State *head = st_copy(S), *in = st_copy(S), *end = st_copy(S);
    State *saved_brk = ex->brk, *brk = NULL;
    for (;;) {
        if (while_c)
            expr(c, cx, while_c, head);
        st_assign(end, head);
        ex->brk = NULL;
        walk(c, cx, body, end);
        if (until_c)
            expr(c, cx, until_c, end);
        if (ex->brk) {
            exit_join(&brk, ex->brk);
            st_free(ex->brk);
        }
        State *next = st_copy(in);
        st_union(next, end);
        bool same = st_equal(next, head);
        st_free(head);
        head = next;
        if (same)
            break;
    }
    st_assign(S, head);
    st_union(S, end);
    if (brk)
        st_union(S, brk);
    st_free(brk);
    st_free(head);
    st_free(in);
    st_free(end);
    ex->brk = saved_brk;
}

/* A WHILE/REPEAT or FOR statement. */
static void t_loop_stmt(TCtx *c, void *cx, Exits *ex, Stmt *s, State *S, BlockFn walk,
                        ExprFn expr)
{
    if (s->kind == STMT_FOR) {
        expr(c, cx, s->u.for_.var, S);
        expr(c, cx, s->u.for_.from, S);
        expr(c, cx, s->u.for_.to, S);
        t_loop(c, cx, ex, s->u.for_.body, S, walk, NULL, s->u.for_.until_cond, expr);
    } else {
        t_loop(c, cx, ex, s->u.loop.body, S, walk, s->u.loop.while_cond, s->u.loop.until_cond,
               expr);
    }
}

/* What a condition is known to be in this call: 1 true, 0 false, -1 not
 * known.  NULL: nothing is known at this level. */
typedef int (*KnownFn)(void *cx, const Expr *cond);

/* IF: each arm from the state before it; the results joined.  An arm whose
 * condition the call fixes is taken (and ends the IF) or skipped. */
static void t_if(TCtx *c, void *cx, Stmt *s, State *S, BlockFn walk, ExprFn expr,
                 int *depth, KnownFn known)
{
    State *rest = st_copy(S), *out = NULL;
    if (depth)
        ++*depth;
    bool taken = false;
    for (int i = 0; i < s->u.if_.arms.len && !taken; i++) {
        IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
        expr(c, cx, arm->cond, rest);
        int k = known ? known(cx, arm->cond) : -1;
        if (k == 0)
            continue;
        State *a = st_copy(rest);
        walk(c, cx, arm->body, a);
        if (k == 1) { /* always this arm: neither the later arms nor ELSE */
            st_assign(rest, a);
            taken = true;
        } else {
            exit_join(&out, a);
        }
        st_free(a);
    }
    if (s->u.if_.else_body && !taken)
        walk(c, cx, s->u.if_.else_body, rest);
    exit_join(&out, rest);
    if (depth)
        --*depth;
    st_assign(S, out);
    st_free(out);
    st_free(rest);
}

/* Local definitions: their initializers are expressions of the level. */
static void t_defs(TCtx *c, void *cx, Block *b, State *S, ExprFn expr)
{
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            InitId *id = VEC_AT(d->u.data.ids, j, InitId);
            if (id->init)
                expr(c, cx, id->init, S);
        }
    }
}

/* ---- connection level ------------------------------------------------------------------ */

static void t_conn_block(TCtx *c, void *vcx, Block *b, State *S);
static void t_conn_subr(TCtx *c, ConnCx *outer, const Symbol *proc, State *S, bool nested);

/* The connection element an lvalue rooted at ME changes, or NULL. */
static Expr *me_elem_root(Expr *e)
{
    for (;;) {
        if (e->kind == EXPR_SELECT && e->u.select.obj->kind == EXPR_ME)
            return e->sym && e->sym->kind == SYM_ELEM ? e : NULL;
        if (e->kind == EXPR_SELECT)
            e = e->u.select.obj;
        else if (e->kind == EXPR_SUBSCRIPT)
            e = e->u.subscript.obj;
        else
            return NULL;
    }
}

static void t_conn_expr(TCtx *c, void *vcx, Expr *e, State *S)
{
    ConnCx *cx = vcx;
    if (e->kind == EXPR_SELECT && e->u.select.obj->kind == EXPR_ME && e->sym &&
        e->sym->kind == SYM_ELEM) {
        t_read(c, e, e->loc.line, cx->bundle, e->sym->index, S, false);
        return;
    }
    if (e->kind == EXPR_ME) { /* the whole connection as a value */
        force_bundle(c, cx->bundle);
        return;
    }
    for_children(c, vcx, e, S, t_conn_expr);
    if (e->kind == EXPR_OBJCALL && e->sym && e->u.objcall.obj->kind == EXPR_ME &&
        e->sym->owner && e->sym->owner->kind == TY_CONNECTION)
        t_conn_subr(c, cx, e->sym, S, true); /* a connection function: reads only */
}

/* An lvalue rooted at ME that is changed in place: read, then weak write. */
static void t_conn_touch(TCtx *c, ConnCx *cx, Expr *root, const Stmt *st, State *S);

static int writer_id(TCtx *c, ConnCx *cx, const Stmt *assign, int e, bool lazy_capable,
                     bool pure, const Expr *value)
{
    TNet *tn = c->tn;
    TWriter *w = ptrmap_get(&tn->writer_ids, cx->site, assign, cx->bundle);
    if (!w) {
        w = arena_alloc(c->p->arena, sizeof *w);
        w->pub.site = cx->site_expr;
        w->pub.proc = cx->proc;
        w->pub.assign = assign;
        w->pub.from_src = cx->from_src;
        w->pub.slot = -1;
        w->bundle = cx->bundle;
        w->elem = e;
        w->node_type = type_node_of(VEC_AT(tn->net->groups, cx->group, Symbol)->type);
        w->lazy_capable = lazy_capable;
        w->pure = pure;
        if (lazy_capable && !lazy_expr_ok(c->p, cx->proc, value, &w->me_elems))
            w->lazy_capable = false;
        w->id = tn->writers.len;
        ptrmap_put(c->p->arena, &tn->writer_ids, cx->site, assign, cx->bundle, w);
        vec_push(c->p->arena, &tn->writers, w);
    } else {
        w->lazy_capable &= lazy_capable;
        w->pure &= pure;
    }
    return w->id;
}

static void t_write(TCtx *c, ConnCx *cx, const Stmt *assign, int e, State *S,
                    bool lazy_capable, bool pure, const Expr *value)
{
    int id = writer_id(c, cx, assign, e, lazy_capable && cx->site_expr, pure, value);
    int i = idx(c->tn, cx->bundle, e);
    c->entry_written[i] = 1;
    if (cx->cover && !cx->returned && !cx->broke)
        ws_set1(&S->w[i], id);
    else
        ws_add(&S->w[i], id);
}

static void t_conn_touch(TCtx *c, ConnCx *cx, Expr *root, const Stmt *st, State *S)
{
    int e = root->sym->index;
    t_read(c, root, root->loc.line, cx->bundle, e, S, true);
    t_write(c, cx, st, e, S, false, false, NULL);
}

/* The arguments of a call: an object rooted at ME passed to a VAR
 * parameter may be changed by the callee. */
static void t_conn_args(TCtx *c, ConnCx *cx, const Symbol *callee, PtrVec *args,
                        const Stmt *st, State *S)
{
    for (int i = 0; i < args->len; i++) {
        Expr *a = VEC_AT(*args, i, Expr);
        const Symbol *p = callee && i < callee->sub->params.len ? VEC_AT(callee->sub->params, i, Symbol)
                                                           : NULL;
        Expr *root = me_elem_root(a);
        if (root && p && p->access == ACCESS_VAR) {
            for_children(c, cx, a, S, t_conn_expr);
            t_conn_touch(c, cx, root, st, S);
        } else {
            t_conn_expr(c, cx, a, S);
        }
    }
}

/* X.p (args) in connection code, the statement s or one call of it. */
static void t_conn_objcall(TCtx *c, ConnCx *cx, Expr *call, const Stmt *s, State *S)
{
    Expr *obj = call->u.objcall.obj;
    Expr *root = me_elem_root(obj);
    t_conn_args(c, cx, call->sym, &call->u.objcall.args, s, S);
    if (obj->kind == EXPR_ME && call->sym && call->sym->owner &&
        call->sym->owner->kind == TY_CONNECTION) {
        t_conn_subr(c, cx, call->sym, S, true);
    } else if (root) { /* a record procedure on an element of ME */
        for_children(c, cx, obj, S, t_conn_expr);
        t_conn_touch(c, cx, root, s, S);
    } else {
        t_conn_expr(c, cx, obj, S);
    }
}

static void t_conn_stmt(TCtx *c, ConnCx *cx, Stmt *s, State *S)
{
    switch (s->kind) {
    case STMT_ASSIGN: {
        Expr *t = s->u.assign.target, *v = s->u.assign.value;
        t_conn_expr(c, cx, v, S);
        if (t->kind == EXPR_SELECT && t->u.select.obj->kind == EXPR_ME && t->sym &&
            t->sym->kind == SYM_ELEM) {
            if (s->u.assign.op != ASSIGN_SET)
                t_read(c, t, t->loc.line, cx->bundle, t->sym->index, S, true);
            bool top = s->u.assign.op == ASSIGN_SET && !cx->nested && cx->depth == 0 &&
                       !cx->returned;
            bool pure = effect_free(c->p, v) && (s->u.assign.op == ASSIGN_SET ||
                                           !type_is_integral(t->type));
            t_write(c, cx, s, t->sym->index, S, top, pure, v);
            break;
        }
        Expr *root = me_elem_root(t);
        for_children(c, cx, t, S, t_conn_expr);
        if (root)
            t_conn_touch(c, cx, root, s, S);
        break;
    }
    case STMT_CALL: {
        Expr *call = s->u.call.call;
        t_conn_args(c, cx, call->sym, &call->u.call.args, s, S);
        break;
    }
    case STMT_OBJCALL:
        t_conn_objcall(c, cx, s->u.call.call, s, S);
        break;
    case STMT_MULTICALL: /* ME.p () AND ME.q (): each call in turn */
        for (int i = 0; i < s->u.multi.calls.len; i++)
            t_conn_objcall(c, cx, VEC_AT(s->u.multi.calls, i, Expr), s, S);
        break;
    case STMT_RETURN:
        if (s->u.ret.value)
            t_conn_expr(c, cx, s->u.ret.value, S);
        exit_join(&cx->ex.ret, S);
        cx->returned = true;
        break;
    case STMT_REPLICATE: /* REPLICATE ME INTO n: implies RETURN */
        t_conn_expr(c, cx, s->u.replicate.count, S);
        exit_join(&cx->ex.ret, S);
        cx->returned = true;
        break;
    case STMT_BREAK:
        exit_join(&cx->ex.brk, S);
        cx->broke = true; /* the rest of this iteration is conditional */
        break;
    case STMT_IF:
        t_if(c, cx, s, S, t_conn_block, t_conn_expr, &cx->depth, NULL);
        break;
    case STMT_LOOP:
    case STMT_FOR: {
        bool broke = cx->broke;
        cx->broke = false;
        cx->depth++;
        t_loop_stmt(c, cx, &cx->ex, s, S, t_conn_block, t_conn_expr);
        cx->depth--;
        cx->broke = broke;
        break;
    }
    default:
        /* nothing else is legal in connection code */
        break;
    }
}

static void t_conn_block(TCtx *c, void *vcx, Block *b, State *S)
{
    ConnCx *cx = vcx;
    if (!b)
        return;
    t_defs(c, vcx, b, S, t_conn_expr);
    for (int i = 0; i < b->stmts.len; i++)
        t_conn_stmt(c, cx, VEC_AT(b->stmts, i, Stmt), S);
}

/* A property of a subroutine's body, found by one walk that clears
 * `holds` at what breaks it (read_only, conn_free, net_inert), kept in
 * memo per subroutine: (void *)1 holds, 2 does not, 3 being scanned -- a
 * recursion reaches a 3 and so breaks the property.  An EXTERNAL
 * subroutine, and one past T_MAX_DEPTH nested scans, has none. */
typedef struct BodyScan {
    AstWalk w;
    TCtx *c;
    bool holds;
} BodyScan;

static bool body_holds(TCtx *c, PtrMap *memo, const Symbol *s,
                       void (*expr)(AstWalk *, Expr *), void (*stmt)(AstWalk *, Stmt *))
{
    void *v = ptrmap_get(memo, s, NULL, 0);
    if (v)
        return v == (void *)1;
    if (!s->decl || s->sub->external)
        return false;
    if (c->scan_depth >= T_MAX_DEPTH)
        return false; /* a call chain that deep: walked as written (and given up) */
    ptrmap_put(c->p->arena, memo, s, NULL, 0, (void *)3);
    BodyScan sc = {.w = {.expr = expr, .stmt = stmt}, .c = c, .holds = true};
    c->scan_depth++;
    ast_walk_block(&sc.w, s->decl->u.subr.body);
    c->scan_depth--;
    ptrmap_put(c->p->arena, memo, s, NULL, 0, sc.holds ? (void *)1 : (void *)2);
    return sc.holds;
}

/* Whether connection subroutine proc -- with the connection subroutines
 * it calls on ME -- writes nothing: no assignment to an element of ME, no
 * procedure call (a VAR argument, a record procedure, a procedure on ME),
 * no REPLICATE, no recursion.  Its walk then leaves the state as it is,
 * and reads each element it reads with the state of the call: a walk with
 * an equal state in the same entry records nothing new. */
static bool read_only(TCtx *c, const Symbol *proc);

static void ro_expr(AstWalk *w, Expr *e)
{
    BodyScan *sc = (BodyScan *)w;
    if (e->kind == EXPR_OBJCALL &&
        (e->u.objcall.obj->kind != EXPR_ME || !e->sym || !e->sym->owner ||
         e->sym->owner->kind != TY_CONNECTION || !read_only(sc->c, e->sym)))
        sc->holds = false;
}

static void ro_stmt(AstWalk *w, Stmt *s)
{
    BodyScan *sc = (BodyScan *)w;
    if (s->kind == STMT_CALL || s->kind == STMT_OBJCALL || s->kind == STMT_MULTICALL ||
        s->kind == STMT_REPLICATE ||
        (s->kind == STMT_ASSIGN && me_elem_root(s->u.assign.target)))
        sc->holds = false;
}

static bool read_only(TCtx *c, const Symbol *proc)
{
    return body_holds(c, &c->read_only, proc, ro_expr, ro_stmt);
}

/* The states a read-only subroutine was walked with for one bundle, in
 * the entry c->stamp. */
typedef struct ReadWalks {
    unsigned stamp;
    int n, cap;
    State **states;
} ReadWalks;

/* Whether read-only proc was walked for bundle b in this entry with a
 * state equal to S already; records S otherwise. */
static bool read_before(TCtx *c, const Symbol *proc, int b, const State *S)
{
    ReadWalks *rw = ptrmap_get(&c->read_walks, proc, NULL, b);
    if (!rw) {
        rw = xcalloc(1, sizeof *rw);
        ptrmap_put(c->p->arena, &c->read_walks, proc, NULL, b, rw);
        vec_push(c->p->arena, &c->all_read_walks, rw);
    }
    if (rw->stamp != c->stamp) {
        for (int i = 0; i < rw->n; i++)
            st_free(rw->states[i]);
        rw->n = 0;
        rw->stamp = c->stamp;
    }
    for (int i = 0; i < rw->n; i++)
        if (st_equal(rw->states[i], S))
            return true;
    if (rw->n == rw->cap) {
        rw->cap = rw->cap ? 2 * rw->cap : 4;
        rw->states = xrealloc(rw->states, (size_t)rw->cap * sizeof *rw->states);
    }
    rw->states[rw->n++] = st_copy(S);
    return false;
}

static void free_read_walks(TCtx *c)
{
    for (int i = 0; i < c->all_read_walks.len; i++) {
        ReadWalks *rw = c->all_read_walks.items[i];
        for (int j = 0; j < rw->n; j++)
            st_free(rw->states[j]);
        free(rw->states);
        free(rw);
    }
    c->all_read_walks.len = 0;
    ptrmap_free(c->p->arena, &c->read_walks);
    ptrmap_free(c->p->arena, &c->read_only);
}

/* Walks connection subroutine `proc` for one bundle. */
static void t_conn_subr(TCtx *c, ConnCx *outer, const Symbol *proc, State *S, bool nested)
{
    if (!proc->decl || proc->sub->external)
        return;
    /* a read-only subroutine walked with an equal state in this entry
       would record the same reads again: a chain of connection functions,
       each calling the next twice, is walked once per link, not 2^n times */
    if (!c->gave_up && read_only(c, proc) && read_before(c, proc, outer->bundle, S))
        return;
    if (!enter(c, proc))
        return;
    ptrmap_put(c->p->arena, &c->p->reached, proc, c->tn->net, outer->bundle, (void *)1);
    ConnCx cx = *outer;
    cx.proc = proc;
    cx.nested = outer->nested || nested;
    cx.depth = nested ? outer->depth + 1 : 0;
    cx.returned = nested && (outer->returned || outer->broke);
    cx.broke = false;
    cx.ex = (Exits){0};
    t_conn_block(c, &cx, proc->decl->u.subr.body, S);
    if (cx.ex.ret) {
        st_union(S, cx.ex.ret);
        st_free(cx.ex.ret);
    }
    st_free(cx.ex.brk);
    leave(c);
}

/* ---- node level ------------------------------------------------------------------------- */

static void t_node_block(TCtx *c, void *vcx, Block *b, State *S);
static void t_node_subr(TCtx *c, const Symbol *proc, int g, bool full, bool returned,
                        State *S, const PtrVec *args);

/* The value of CONST parameter p in this call, where the call passes a
 * constant. */
static bool node_param_value(const void *vcx, const Symbol *p, int64_t *v)
{
    const NodeCx *cx = vcx;
    if (p->subr != cx->proc || p->index < 0 || p->index >= 64 || !cx->args.known[p->index])
        return false;
    *v = cx->args.value[p->index];
    return true;
}

/* A condition the call fixes, as the lane code decides it (const-branch):
 * the report's forward (doIn, doOut), or `mode = 2` of an Int CONST mode.
 * 1 true, 0 false, -1 not known. */
static int node_known(void *vcx, const Expr *cond)
{
    return lower_decide_cond(cond, node_param_value, vcx);
}

static void t_node_expr(TCtx *c, void *vcx, Expr *e, State *S)
{
    NodeCx *cx = vcx;
    for_children(c, vcx, e, S, t_node_expr);
    if (e->kind == EXPR_OBJCALL && e->sym && e->u.objcall.obj->kind == EXPR_ME &&
        e->sym->owner && e->sym->owner->kind == TY_NODE)
        t_node_subr(c, e->sym, cx->group, cx->full, cx->returned || cx->broke, S,
                    &e->u.objcall.args); /* function */
}

/* ME.i[].p (args) from a node of group cx->group. */
static void t_iface_call(TCtx *c, NodeCx *cx, Expr *call, const Symbol *ifc, State *S)
{
    int bs[64];
    bool from_src[64];
    const LowerNet *net = c->tn->net;
    if (net->nbundles > 64) {
        c->gave_up = true;
        return;
    }
    int n = bundles_of(net, cx->group, ifc, bs, from_src);
    for (int i = 0; i < n; i++) {
        const LowerBundle *bu = &net->bundles[bs[i]];
        if (bu->src_group == bu->dst_group) /* kept in memory, but still walked: */
            force_bundle(c, bs[i]);         /* its lane code must be reached */
        ConnCx k = {.proc = call->sym, .bundle = bs[i], .site = call, .site_expr = call,
                    .from_src = from_src[i], .group = cx->group,
                    .cover = cx->full && !cx->returned && !cx->broke};
        t_conn_subr(c, &k, call->sym, S, false);
    }
}

static void t_node_stmt(TCtx *c, NodeCx *cx, Stmt *s, State *S)
{
    switch (s->kind) {
    case STMT_OBJCALL:
    case STMT_MULTICALL: {
        int n = s->kind == STMT_OBJCALL ? 1 : s->u.multi.calls.len;
        for (int i = 0; i < n; i++) {
            Expr *call = s->kind == STMT_OBJCALL ? s->u.call.call
                                                 : VEC_AT(s->u.multi.calls, i, Expr);
            for (int j = 0; j < call->u.objcall.args.len; j++)
                t_node_expr(c, cx, VEC_AT(call->u.objcall.args, j, Expr), S);
            Symbol *p = call->sym;
            if (!p || !p->owner)
                continue;
            Expr *base, *range;
            lower_split_multi(call->u.objcall.obj, &base, &range);
            if (p->owner->kind == TY_CONNECTION && call->call_kind == CALL_GROUP &&
                base->sym && base->sym->kind == SYM_IFACE) {
                t_iface_call(c, cx, call, base->sym, S);
            } else if (p->owner->kind == TY_NODE && call->u.objcall.obj->kind == EXPR_ME) {
                t_node_subr(c, p, cx->group, cx->full, cx->returned || cx->broke, S,
                            &call->u.objcall.args);
            } else {
                t_node_expr(c, cx, call->u.objcall.obj, S);
            }
        }
        break;
    }
    case STMT_REDUCTION:
    case STMT_WTA: {
        bool wta = s->kind == STMT_WTA;
        if (wta)
            for (int j = 0; j < s->u.wta.args.len; j++)
                t_node_expr(c, cx, VEC_AT(s->u.wta.args, j, Expr), S);
        else
            t_node_expr(c, cx, s->u.reduction.into, S);
        if ((s->sem_flags & SEMF_LEVEL_MASK) != SEMF_LEVEL_CONN)
            break;
        Expr *pv = wta ? s->u.wta.pv : s->u.reduction.pvs->u.select.obj;
        Symbol *elem = wta ? s->target : s->u.reduction.pvs->sym;
        Expr *base, *range;
        lower_split_multi(pv, &base, &range);
        int bs[64];
        bool from_src[64];
        if (c->tn->net->nbundles > 64 || !base->sym) {
            c->gave_up = true;
            break;
        }
        int n = bundles_of(c->tn->net, cx->group, base->sym, bs, from_src);
        for (int i = 0; i < n; i++) {
            const LowerBundle *bu = &c->tn->net->bundles[bs[i]];
            if (bu->src_group == bu->dst_group) /* in memory; the winner is still walked */
                force_bundle(c, bs[i]);
            t_read(c, s, s->loc.line, bs[i], elem->index, S, false);
            if (wta && s->proc) { /* the winner's procedure, on one connection */
                ConnCx k = {.proc = s->proc, .bundle = bs[i], .site = s, .site_expr = NULL,
                            .from_src = from_src[i], .group = cx->group, .cover = false};
                t_conn_subr(c, &k, s->proc, S, true);
            }
        }
        break;
    }
    case STMT_ASSIGN:
        t_node_expr(c, cx, s->u.assign.target, S);
        t_node_expr(c, cx, s->u.assign.value, S);
        break;
    case STMT_CALL:
        t_node_expr(c, cx, s->u.call.call, S);
        break;
    case STMT_RETURN:
        if (s->u.ret.value)
            t_node_expr(c, cx, s->u.ret.value, S);
        exit_join(&cx->ex.ret, S);
        cx->returned = true;
        break;
    case STMT_REPLICATE:
        t_node_expr(c, cx, s->u.replicate.count, S);
        exit_join(&cx->ex.ret, S);
        cx->returned = true;
        break;
    case STMT_BREAK:
        exit_join(&cx->ex.brk, S);
        cx->broke = true;
        break;
    case STMT_IF:
        t_if(c, cx, s, S, t_node_block, t_node_expr, NULL, node_known);
        break;
    case STMT_LOOP:
    case STMT_FOR: {
        bool broke = cx->broke;
        cx->broke = false;
        t_loop_stmt(c, cx, &cx->ex, s, S, t_node_block, t_node_expr);
        cx->broke = broke;
        break;
    }
    default:
        break;
    }
}

static void t_node_block(TCtx *c, void *vcx, Block *b, State *S)
{
    NodeCx *cx = vcx;
    if (!b)
        return;
    t_defs(c, vcx, b, S, t_node_expr);
    for (int i = 0; i < b->stmts.len; i++)
        t_node_stmt(c, cx, VEC_AT(b->stmts, i, Stmt), S);
}

/* Whether node subroutine proc -- with the node subroutines it calls on
 * ME -- reaches no connection: no call of a connection procedure, no
 * REDUCTION or WTA, no call on anything but ME.  Walking it then leaves
 * the state as it is, and what the walk records (the instances reached,
 * the CONST arguments met) depends only on the subroutine, the group and
 * the CONST arguments the call fixes.  A recursion counts as reaching. */
static bool conn_free(TCtx *c, const Symbol *proc);

static void free_expr(AstWalk *w, Expr *e)
{
    BodyScan *sc = (BodyScan *)w;
    if (e->kind == EXPR_OBJCALL &&
        (e->u.objcall.obj->kind != EXPR_ME || !e->sym || !e->sym->owner ||
         e->sym->owner->kind != TY_NODE || !conn_free(sc->c, e->sym)))
        sc->holds = false;
}

static void free_stmt(AstWalk *w, Stmt *s)
{
    BodyScan *sc = (BodyScan *)w;
    if (s->kind == STMT_REDUCTION || s->kind == STMT_WTA || s->kind == STMT_MULTICALL)
        sc->holds = false;
}

static bool conn_free(TCtx *c, const Symbol *proc)
{
    return body_holds(c, &c->conn_free, proc, free_expr, free_stmt);
}

/* Whether connection-free proc was walked for group g with these
 * arguments already; records them otherwise. */
static bool walked_before(TCtx *c, const Symbol *proc, int g, const KnownArgs *args)
{
    PtrVec *seen = ptrmap_get(&c->walked, proc, NULL, g);
    if (!seen) {
        seen = arena_alloc(c->p->arena, sizeof *seen);
        *seen = (PtrVec){0};
        ptrmap_put(c->p->arena, &c->walked, proc, NULL, g, seen);
    }
    for (int i = 0; i < seen->len; i++)
        if (memcmp(seen->items[i], args, sizeof *args) == 0)
            return true;
    KnownArgs *k = arena_alloc(c->p->arena, sizeof *k);
    *k = *args;
    vec_push(c->p->arena, seen, k);
    return false;
}

static void t_node_subr(TCtx *c, const Symbol *proc, int g, bool full, bool returned,
                        State *S, const PtrVec *args)
{
    if (!proc->decl || proc->sub->external)
        return;
    /* the Bool and integral CONST arguments this call fixes; the walk
       prunes by them (node_known) */
    NodeCx cx = {.proc = proc, .group = g, .full = full, .returned = returned};
    KnownArgs here = {0};
    for (int i = 0; args && i < args->len && i < proc->sub->params.len && i < 64; i++) {
        const Expr *a = VEC_AT(*args, i, Expr);
        const Symbol *prm = VEC_AT(proc->sub->params, i, Symbol);
        bool is_bool = prm->type && prm->type->kind == TY_BOOL;
        if (prm->access == ACCESS_CONST && prm->type && (is_bool || type_is_integral(prm->type)) &&
            a->is_const) {
            here.known[i] = true;
            here.value[i] = is_bool ? a->const_int != 0 : a->const_int;
        }
    }
    cx.args = here;
    /* what every call of this instance passes (lower_known_arg), met over
       all calls -- also a recursive one, which is not walked again */
    KnownArgs *kn = ptrmap_get(&c->p->known_args, proc, c->tn->net, g);
    if (!kn) {
        kn = arena_alloc(c->p->arena, sizeof *kn);
        *kn = here;
        ptrmap_put(c->p->arena, &c->p->known_args, proc, c->tn->net, g, kn);
    } else {
        for (int i = 0; i < 64; i++)
            if (!here.known[i] || kn->value[i] != here.value[i])
                kn->known[i] = false;
    }
    /* a connection-free subroutine walked with the same arguments before
       would record the same again and leave S as it is: a chain of them,
       each calling the next twice, is walked once per link, not 2^n times */
    if (!c->gave_up && conn_free(c, proc) && walked_before(c, proc, g, &here))
        return;
    if (!enter(c, proc))
        return;
    ptrmap_put(c->p->arena, &c->p->reached, proc, c->tn->net, g, (void *)1);
    t_node_block(c, &cx, proc->decl->u.subr.body, S);
    if (cx.ex.ret) {
        st_union(S, cx.ex.ret);
        st_free(cx.ex.ret);
    }
    st_free(cx.ex.brk);
    leave(c);
}

/* ---- network level ---------------------------------------------------------------------- */

static void t_net_block(TCtx *c, void *vcx, Block *b, State *S);
static void t_net_subr(TCtx *c, const Symbol *s, State *S);

static void t_net_expr(TCtx *c, void *vcx, Expr *e, State *S)
{
    for_children(c, vcx, e, S, t_net_expr);
    if (e->kind == EXPR_OBJCALL && e->sym && e->u.objcall.obj->kind == EXPR_ME &&
        e->sym->owner && e->sym->owner->kind == TY_NETWORK)
        t_net_subr(c, e->sym, S);
}

/* The bundles a CONNECT creates connections in get values from before. */
static void t_connect(TCtx *c, Stmt *s, State *S)
{
    Expr *from = s->u.connect.from, *to = s->u.connect.to;
    Expr *fo = from->u.select.obj, *tob = to->u.select.obj;
    Expr *fb, *tb, *r;
    if (fo->kind == EXPR_SUBSCRIPT && type_is_integral(fo->u.subscript.index->type))
        fb = fo->u.subscript.obj;
    else
        lower_split_multi(fo, &fb, &r);
    if (tob->kind == EXPR_SUBSCRIPT && type_is_integral(tob->u.subscript.index->type))
        tb = tob->u.subscript.obj;
    else
        lower_split_multi(tob, &tb, &r);
    const LowerNet *net = c->tn->net;
    int b = lower_bundle_index(net, lower_group_index(net, fb->sym), from->sym,
                               lower_group_index(net, tb->sym), to->sym);
    if (b < 0) {
        c->gave_up = true;
        return;
    }
    for (int e = 0; e < net->bundles[b].conn->elems.len; e++)
        ws_add(&S->w[idx(c->tn, b, e)], ENTRY);
}

static void t_net_call(TCtx *c, NetCx *cx, Expr *call, State *S)
{
    for (int j = 0; j < call->u.objcall.args.len; j++)
        t_net_expr(c, cx, VEC_AT(call->u.objcall.args, j, Expr), S);
    Symbol *p = call->sym;
    if (!p || !p->owner)
        return;
    Expr *obj = call->u.objcall.obj;
    if (p->owner->kind == TY_NETWORK && obj->kind == EXPR_ME) {
        t_net_subr(c, p, S);
        return;
    }
    if (p->owner->kind != TY_NODE) {
        t_net_expr(c, cx, obj, S);
        return;
    }
    Expr *base, *range;
    bool full = false;
    if (obj->kind == EXPR_SUBSCRIPT && type_is_integral(obj->u.subscript.index->type)) {
        t_net_expr(c, cx, obj->u.subscript.index, S);
        base = obj->u.subscript.obj;
    } else {
        lower_split_multi(obj, &base, &range);
        full = range == NULL;
        if (range)
            t_net_expr(c, cx, range, S);
    }
    int g = base->sym ? lower_group_index(c->tn->net, base->sym) : -1;
    if (g < 0) {
        c->gave_up = true;
        return;
    }
    t_node_subr(c, p, g, full, false, S, &call->u.objcall.args);
}

static void t_net_stmt(TCtx *c, NetCx *cx, Stmt *s, State *S)
{
    switch (s->kind) {
    case STMT_OBJCALL:
        t_net_call(c, cx, s->u.call.call, S);
        break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            t_net_call(c, cx, VEC_AT(s->u.multi.calls, i, Expr), S);
        break;
    case STMT_WTA: {
        Expr *base, *range; /* a slice's bounds first: WTA ME.g[ME.f ()...b].e */
        lower_split_multi(s->u.wta.pv, &base, &range);
        if (range)
            t_net_expr(c, cx, range, S);
        for (int j = 0; j < s->u.wta.args.len; j++)
            t_net_expr(c, cx, VEC_AT(s->u.wta.args, j, Expr), S);
        if ((s->sem_flags & SEMF_LEVEL_MASK) == SEMF_LEVEL_NODE && s->proc) {
            int g = base->sym ? lower_group_index(c->tn->net, base->sym) : -1;
            if (g < 0)
                c->gave_up = true;
            else
                t_node_subr(c, s->proc, g, false, false, S, &s->u.wta.args);
        }
        break;
    }
    case STMT_REDUCTION: {
        Expr *base, *range; /* REDUCTION ME.g[ME.f ()...b].e */
        lower_split_multi(s->u.reduction.pvs->u.select.obj, &base, &range);
        if (range)
            t_net_expr(c, cx, range, S);
        t_net_expr(c, cx, s->u.reduction.into, S);
        break;
    }
    case STMT_CONNECT:
        t_connect(c, s, S);
        break;
    case STMT_ASSIGN:
        t_net_expr(c, cx, s->u.assign.target, S);
        t_net_expr(c, cx, s->u.assign.value, S);
        break;
    case STMT_CALL:
        t_net_expr(c, cx, s->u.call.call, S);
        break;
    case STMT_RETURN:
        if (s->u.ret.value)
            t_net_expr(c, cx, s->u.ret.value, S);
        exit_join(&cx->ex.ret, S);
        break;
    case STMT_BREAK:
        exit_join(&cx->ex.brk, S);
        break;
    case STMT_IF:
        t_if(c, cx, s, S, t_net_block, t_net_expr, NULL, NULL);
        break;
    case STMT_LOOP:
    case STMT_FOR:
        t_loop_stmt(c, cx, &cx->ex, s, S, t_net_block, t_net_expr);
        break;
    case STMT_EXTEND:
    case STMT_REPLICATE:
        t_net_expr(c, cx, s->u.replicate.count, S);
        break;
    default:
        break;
    }
}

static void t_net_block(TCtx *c, void *vcx, Block *b, State *S)
{
    if (!b)
        return;
    t_defs(c, vcx, b, S, t_net_expr);
    for (int i = 0; i < b->stmts.len; i++)
        t_net_stmt(c, vcx, VEC_AT(b->stmts, i, Stmt), S);
}

/* Whether the walk of network subroutine s -- with the network
 * subroutines it calls on ME -- does nothing: no call on a group or a
 * node, no WTA that calls a procedure, no CONNECT, no recursion.  It
 * neither changes the state nor records anything then, and is left out:
 * network functions that each call the next twice (with a REDUCTION over
 * a group, which lower_net_local does not allow) are not walked 2^n
 * times. */
static bool net_inert(TCtx *c, const Symbol *s);

static bool inert_call(BodyScan *sc, const Expr *call)
{
    return call->u.objcall.obj->kind == EXPR_ME && call->sym && call->sym->owner &&
           call->sym->owner->kind == TY_NETWORK && net_inert(sc->c, call->sym);
}

static void inert_expr(AstWalk *w, Expr *e)
{
    BodyScan *sc = (BodyScan *)w;
    if (e->kind == EXPR_OBJCALL && e->u.objcall.obj->kind == EXPR_ME && !inert_call(sc, e))
        sc->holds = false;
}

static void inert_stmt(AstWalk *w, Stmt *s)
{
    BodyScan *sc = (BodyScan *)w;
    switch (s->kind) {
    case STMT_OBJCALL:
        if (!inert_call(sc, s->u.call.call))
            sc->holds = false;
        break;
    case STMT_MULTICALL: case STMT_WTA: case STMT_CONNECT:
        sc->holds = false;
        break;
    default:
        break;
    }
}

static bool net_inert(TCtx *c, const Symbol *s)
{
    return body_holds(c, &c->inert, s, inert_expr, inert_stmt);
}

static void t_net_subr(TCtx *c, const Symbol *s, State *S)
{
    /* nothing in it to follow (and its recursion is no reason to give up) */
    if (!s->decl || s->sub->external || lower_net_local(c->p, s) || net_inert(c, s) ||
        !enter(c, s))
        return;
    NetCx cx = {{0}};
    t_net_block(c, &cx, s->decl->u.subr.body, S);
    if (cx.ex.ret) {
        st_union(S, cx.ex.ret);
        st_free(cx.ex.ret);
    }
    st_free(cx.ex.brk);
    leave(c);
}

/* ---- entries and decisions ------------------------------------------------------------- */

/* Network subroutines the central agent calls, per network type. */
static void add_entry(PtrVec *out, Arena *a, Symbol *s)
{
    for (int i = 0; i < out->len; i++)
        if (out->items[i] == s)
            return;
    vec_push(a, out, s);
}

typedef struct EntryScan {
    const Type *nt;
    PtrVec *out;
    Arena *a;
} EntryScan;

/* The network calls of a central-agent body or a global initializer:
 * every statement and expression (ast_walk), so that no operand that can
 * hold one is missed (MAXINDEX (net[net[0].f ()].g), the objects of
 * REDUCTION, WTA and I/O assignments, connection addresses). */
typedef struct EntryWalk {
    AstWalk walk;
    EntryScan sc;
} EntryWalk;

static void entry_walk_expr(AstWalk *w, Expr *e)
{
    EntryScan *sc = &((EntryWalk *)w)->sc;
    if (e->kind == EXPR_OBJCALL && e->sym && e->sym->owner == sc->nt)
        add_entry(sc->out, sc->a, e->sym);
}

static void entry_walk_stmt(AstWalk *w, Stmt *s)
{
    EntryScan *sc = &((EntryWalk *)w)->sc;
    if (s->kind == STMT_WTA && s->proc && s->proc->owner == sc->nt)
        add_entry(sc->out, sc->a, s->proc); /* WTA net[].e:f.p (): p runs on the winner */
}

static void entries_in_block(Block *b, const Type *nt, PtrVec *out, Arena *a)
{
    EntryWalk w = {{entry_walk_expr, entry_walk_stmt}, {nt, out, a}};
    ast_walk_block(&w.walk, b);
}

static void entries_in_expr(Expr *e, const Type *nt, PtrVec *out, Arena *a)
{
    EntryWalk w = {{entry_walk_expr, entry_walk_stmt}, {nt, out, a}};
    ast_walk_expr(&w.walk, e);
}

/* Elements a MERGE procedure of the connection type mentions stay in memory. */
static void mentioned_elems(Expr *e, const Type *t, bool *mark);

static void mentioned_in_block(Block *b, const Type *t, bool *mark)
{
    if (!b)
        return;
    for (int i = 0; i < b->stmts.len; i++) {
        Stmt *s = VEC_AT(b->stmts, i, Stmt);
        switch (s->kind) {
        case STMT_ASSIGN:
            mentioned_elems(s->u.assign.target, t, mark);
            mentioned_elems(s->u.assign.value, t, mark);
            break;
        case STMT_CALL: case STMT_OBJCALL:
            mentioned_elems(s->u.call.call, t, mark);
            break;
        case STMT_IF:
            for (int j = 0; j < s->u.if_.arms.len; j++) {
                IfArm *arm = VEC_AT(s->u.if_.arms, j, IfArm);
                mentioned_elems(arm->cond, t, mark);
                mentioned_in_block(arm->body, t, mark);
            }
            mentioned_in_block(s->u.if_.else_body, t, mark);
            break;
        case STMT_LOOP:
            mentioned_elems(s->u.loop.while_cond, t, mark);
            mentioned_in_block(s->u.loop.body, t, mark);
            mentioned_elems(s->u.loop.until_cond, t, mark);
            break;
        case STMT_FOR:
            mentioned_elems(s->u.for_.var, t, mark);
            mentioned_elems(s->u.for_.from, t, mark);
            mentioned_elems(s->u.for_.to, t, mark);
            mentioned_in_block(s->u.for_.body, t, mark);
            break;
        default:
            /* anything else in a MERGE body: keep every element */
            for (int e = 0; e < t->elems.len; e++)
                mark[e] = true;
            break;
        }
    }
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++)
            mentioned_elems(VEC_AT(d->u.data.ids, j, InitId)->init, t, mark);
    }
}

static void mentioned_elems(Expr *e, const Type *t, bool *mark)
{
    if (!e)
        return;
    if (e->kind == EXPR_ME || e->kind == EXPR_YOU) {
        for (int i = 0; i < t->elems.len; i++) /* the whole record */
            mark[i] = true;
        return;
    }
    if (e->kind == EXPR_SELECT &&
        (e->u.select.obj->kind == EXPR_ME || e->u.select.obj->kind == EXPR_YOU) && e->sym &&
        e->sym->kind == SYM_ELEM && e->sym->owner == t) {
        mark[e->sym->index] = true;
        return;
    }
    switch (e->kind) {
    case EXPR_SELECT: mentioned_elems(e->u.select.obj, t, mark); break;
    case EXPR_SUBSCRIPT:
        mentioned_elems(e->u.subscript.obj, t, mark);
        mentioned_elems(e->u.subscript.index, t, mark);
        break;
    case EXPR_UNARY: mentioned_elems(e->u.unary.operand, t, mark); break;
    case EXPR_BINARY:
        mentioned_elems(e->u.binary.lhs, t, mark);
        mentioned_elems(e->u.binary.rhs, t, mark);
        break;
    case EXPR_TERNARY:
        mentioned_elems(e->u.ternary.cond, t, mark);
        mentioned_elems(e->u.ternary.then_e, t, mark);
        mentioned_elems(e->u.ternary.else_e, t, mark);
        break;
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.len; i++)
            mentioned_elems(VEC_AT(e->u.call.args, i, Expr), t, mark);
        break;
    case EXPR_OBJCALL:
        mentioned_elems(e->u.objcall.obj, t, mark);
        for (int i = 0; i < e->u.objcall.args.len; i++)
            mentioned_elems(VEC_AT(e->u.objcall.args, i, Expr), t, mark);
        break;
    case EXPR_CONVERT:
        for (int i = 0; i < e->u.convert.args.len; i++)
            mentioned_elems(VEC_AT(e->u.convert.args, i, Expr), t, mark);
        break;
    default: break;
    }
}

static const char *bundle_name(const LowerNet *net, int b)
{
    const LowerBundle *bu = &net->bundles[b];
    static char buf[512];
    snprintf(buf, sizeof buf, "%s.%s -> %s.%s", VEC_AT(net->groups, bu->src_group, Symbol)->name,
             bu->src_iface->name, VEC_AT(net->groups, bu->dst_group, Symbol)->name,
             bu->dst_iface->name);
    return buf;
}

static LowerSlot *slot_of_site(LowerPlan *p, const TWriter *w)
{
    LowerSlot *s = ptrmap_get(&p->site_slot, w->pub.site, NULL, 0);
    if (s)
        return s;
    s = arena_alloc(p->arena, sizeof *s);
    s->id = ++p->nslots;
    s->proc = w->pub.proc;
    ptrmap_put(p->arena, &p->site_slot, w->pub.site, NULL, 0, s);
    PtrVec *v = ptrmap_get(&p->node_slots, w->node_type, NULL, 0);
    if (!v) {
        v = arena_alloc(p->arena, sizeof *v);
        ptrmap_put(p->arena, &p->node_slots, w->node_type, NULL, 0, v);
    }
    vec_push(p->arena, v, s);
    return s;
}

static bool stable(const TNet *tn, const TRead *r, const TWriter *w)
{
    for (int i = 0; i < w->me_elems.len; i++) {
        const Symbol *e = VEC_AT(w->me_elems, i, Symbol);
        if (r->written[idx(tn, r->bundle, e->index)])
            return false;
    }
    return true;
}

/* Whether the networks can be saved: saveNetworks (docs/stdlib.md) writes
 * every element of every connection after the network was reunited
 * (REPLICATE net INTO 1).  A connection type without MERGE procedure is
 * reunited as one exemplar (semantics §8.10), so an element value that
 * outlives an entry is read after it, as by a read that sees ENTRY, and
 * must be in memory.  Without this, an optimised build saved an older
 * value where every replicate held the same new one.  With a MERGE
 * procedure, the elements it does not merge are unspecified after the
 * reunion (§10.4.6) and those it merges are kept in memory anyway.  The C
 * host of a --library object can call saveNetworks too. */
static bool may_save(const LowerPlan *p)
{
    if (p->opts.library)
        return true;
    for (int i = 0; i < p->si->subrs.len; i++) {
        const Symbol *s = VEC_AT(p->si->subrs, i, Symbol);
        if (s->sub->external && !strcmp(s->name, "saveNetworks"))
            return true;
    }
    return false;
}

static void decide(LowerPlan *p, TNet *tn, bool gave_up)
{
    Arena *a = p->arena;
    LowerNet *net = tn->net;
    uint8_t *entry_read = xcalloc((size_t)tn->T + 1, 1);
    if (may_save(p))
        for (int b = 0; b < net->nbundles; b++) {
            const Type *ct = net->bundles[b].conn;
            if (!ct->merge || !ct->merge->decl)
                memset(entry_read + idx(tn, b, 0), 1, (size_t)ct->elems.len);
        }
    for (int i = 0; i < tn->reads.len; i++) {
        TRead *r = VEC_AT(tn->reads, i, TRead);
        int k = idx(tn, r->bundle, r->elem);
        TWriter *w = r->reach.n == 1 && r->reach.v[0] != ENTRY
                         ? VEC_AT(tn->writers, r->reach.v[0], TWriter)
                         : NULL;
        bool lazy = !gave_up && !tn->forced[k] && !r->never_lazy && w && w->lazy_capable &&
                    stable(tn, r, w);
        if (lazy) {
            LowerSlot *s = slot_of_site(p, w);
            w->pub.slot = s->id;
            ptrmap_put(a, &p->lazy, net, r->site, r->bundle, &w->pub);
            vec_push(a, &p->dump, arena_printf(a, "%s: bundle %d (%s): lazy read of %s at line %d "
                                                  "<- line %d through slot %d",
                                                  net->type->name, r->bundle,
                                                  bundle_name(net, r->bundle),
                                                  VEC_AT(net->bundles[r->bundle].conn->elems,
                                                         r->elem, Symbol)->name,
                                                  r->line, w->pub.assign->loc.line, s->id));
            continue;
        }
        for (int j = 0; j < r->reach.n; j++) {
            if (r->reach.v[j] == ENTRY)
                entry_read[k] = 1;
            else
                VEC_AT(tn->writers, r->reach.v[j], TWriter)->must_store = true;
        }
    }
    for (int i = 1; i < tn->writers.len; i++) {
        TWriter *w = VEC_AT(tn->writers, i, TWriter);
        int k = idx(tn, w->bundle, w->elem);
        if (gave_up || tn->forced[k] || !w->pure || (w->alive_at_end && entry_read[k]))
            w->must_store = true;
    }
    for (int i = 1; i < tn->writers.len; i++) {
        TWriter *w = VEC_AT(tn->writers, i, TWriter);
        void *prev = ptrmap_get(&p->stored, net, w->pub.assign, w->bundle);
        if (w->must_store)
            ptrmap_put(a, &p->stored, net, w->pub.assign, w->bundle, (void *)1);
        else if (!prev)
            ptrmap_put(a, &p->stored, net, w->pub.assign, w->bundle, (void *)2);
    }
    for (int i = 1; i < tn->writers.len; i++) {
        TWriter *w = VEC_AT(tn->writers, i, TWriter);
        if (!w->must_store)
            vec_push(a, &p->dump, arena_printf(a, "%s: bundle %d (%s): write of %s at line %d "
                                                  "not stored",
                                                  net->type->name, w->bundle,
                                                  bundle_name(net, w->bundle),
                                                  VEC_AT(net->bundles[w->bundle].conn->elems,
                                                         w->elem, Symbol)->name,
                                                  w->pub.assign->loc.line));
    }
    free(entry_read);
}

static void free_tnet(TNet *tn)
{
    for (int i = 0; i < tn->reads.len; i++) {
        TRead *r = VEC_AT(tn->reads, i, TRead);
        free(r->reach.v);
        free(r->written);
        free(r);
    }
    free(tn->off);
    free(tn->forced);
}

void lower_transport(LowerPlan *p)
{
    SemaInfo *si = p->si;
    p->planned = true;
    Arena *a = p->arena;
    for (int n = 0; n < p->nets.len; n++) {
        LowerNet *net = VEC_AT(p->nets, n, LowerNet);
        TNet tn = {.net = net};
        tn.off = xcalloc((size_t)net->nbundles + 1, sizeof *tn.off);
        for (int b = 0; b < net->nbundles; b++) {
            tn.off[b] = tn.T;
            tn.T += net->bundles[b].conn->elems.len;
        }
        tn.forced = xcalloc((size_t)tn.T + 1, sizeof *tn.forced);
        vec_push(a, &tn.writers, NULL); /* id 0: ENTRY */
        for (int b = 0; b < net->nbundles; b++) {
            Type *ct = net->bundles[b].conn;
            if (ct->merge && ct->merge->decl) {
                bool mark[256] = {0};
                if (ct->elems.len > 256)
                    force_bundle(&(TCtx){.tn = &tn}, b);
                else {
                    mentioned_in_block(ct->merge->decl->u.subr.body, ct, mark);
                    for (int e = 0; e < ct->elems.len; e++)
                        if (mark[e])
                            tn.forced[idx(&tn, b, e)] = true;
                }
            }
        }
        /* the entries: network subroutines the central agent calls, also
           from the initializers of globals */
        PtrVec entries = {0};
        for (int i = 0; i < si->data.len; i++) {
            Symbol *g = VEC_AT(si->data, i, Symbol);
            if (g->init && g->init->init)
                entries_in_expr(g->init->init, net->type, &entries, a);
        }
        for (int i = 0; i < si->subrs.len; i++) {
            Symbol *s = VEC_AT(si->subrs, i, Symbol);
            if (s->sub->context == CTX_CA && s->decl && !s->sub->external)
                entries_in_block(s->decl->u.subr.body, net->type, &entries, a);
        }
        TCtx c = {.p = p, .tn = &tn};
        c.entry_written = xcalloc((size_t)tn.T + 1, 1);
        /* every entry is walked even after the analysis gave up: lane code
           exists for each instance the walk reaches (lower_lane_reached) */
        for (int i = 0; i < entries.len; i++) {
            State *S = st_new(tn.T);
            for (int k = 0; k < tn.T; k++)
                ws_add(&S->w[k], ENTRY);
            memset(c.entry_written, 0, (size_t)tn.T);
            c.touched.len = 0;
            c.stamp++;
            c.stack.len = 0;
            t_net_subr(&c, VEC_AT(entries, i, Symbol), S);
            for (int k = 0; k < tn.T; k++)
                for (int j = 0; j < S->w[k].n; j++)
                    if (S->w[k].v[j] != ENTRY)
                        VEC_AT(tn.writers, S->w[k].v[j], TWriter)->alive_at_end = true;
            for (int j = 0; j < c.touched.len; j++) {
                TRead *r = VEC_AT(c.touched, j, TRead);
                for (int k = 0; k < tn.T; k++)
                    r->written[k] |= c.entry_written[k];
            }
            st_free(S);
        }
        if (c.gave_up) /* its walk may have stopped early: every instance runs as written */
            ptrmap_put(a, &p->gave_up, net, NULL, 0, (void *)1);
        decide(p, &tn, c.gave_up);
        ptrmap_free(a, &c.conn_free);
        ptrmap_free(a, &c.walked);
        ptrmap_free(a, &c.inert);
        free_read_walks(&c);
        free(c.entry_written);
        free_tnet(&tn);
    }
}
