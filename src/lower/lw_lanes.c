/* lw_lanes.c -- lane code: network, node and connection subroutines that
 * run for RT_LANES replicates at once.
 *
 * While a network is replicated its data lives in lane records (every
 * element an array over RT_LANES replicates, cupit_rt.h).  Each object
 * subroutine of a network, node or connection type gets a lane version
 * that takes a lane mask; every statement becomes an IRFOR_LANES loop,
 * which the C compiler vectorizes.  Control flow that differs between
 * replicates is turned into masks (lane arrays of int32_t): IF narrows the
 * mask, loops run while any lane is active, BREAK and RETURN clear lanes.
 * Object function calls are hoisted out of expressions into lane-array
 * temporaries, since a lane function computes all lanes in one call.
 * Topology is frozen while replicated, so connection loops need no
 * deletion checks. */
#include <string.h>

#include "cupitc/ast_walk.h"
#include "cupitc/lower_ir.h"
#include "lw_internal.h"

static IrModule *M(Lw *lw)
{
    return lw->m;
}

static IrFunc *cur_fn(Lw *lw)
{
    return lw->fn ? lw->fn->f : NULL;
}

static IrVar *fresh(Lw *lw, const char *stem, const IrType *t)
{
    return ir_fresh(M(lw), cur_fn(lw), stem, t);
}

static const IrType *mask_t(Lw *lw)
{
    return ir_t_lanes(M(lw), ir_t(M(lw), IRT_I32));
}

/* ---- lane loops --------------------------------------------------------------- */

typedef struct LaneLoop {
    IrStmt *loop, *saved_blk;
    IrVar *saved_lane;
} LaneLoop;

/* Appends `for (l ...)` and makes its body the current block, with lw->lane
 * its index. */
static LaneLoop lanes_begin(Lw *lw, bool simd, Loc loc)
{
    IrModule *m = M(lw);
    LaneLoop ll = {.saved_blk = lw->blk, .saved_lane = lw->lane};
    ll.loop = lw_add(lw, IRS_FOR, loc);
    ll.loop->for_kind = IRFOR_LANES;
    ll.loop->simd = simd;
    ll.loop->var = ir_var(m, "l", ir_t(m, IRT_INT), IRV_LOCAL);
    ll.loop->then = ir_block(m, loc);
    lw->blk = ll.loop->then;
    lw->lane = ll.loop->var;
    return ll;
}

IrStmt *lw_lanes_loop(Lw *lw, Loc loc)
{
    IrModule *m = M(lw);
    IrStmt *fl = lw_add(lw, IRS_FOR, loc);
    fl->for_kind = IRFOR_LANES;
    fl->var = ir_var(m, "l", ir_t(m, IRT_INT), IRV_LOCAL);
    fl->then = ir_block(m, loc);
    return fl;
}

IrVar *lw_fill_lanes(Lw *lw, const char *stem, const IrType *et, IrExpr *v, Loc loc)
{
    IrModule *m = M(lw);
    IrVar *la = lw_decl_uninit(lw, stem, ir_t_lanes(m, et), loc);
    IrStmt *fl = lw_lanes_loop(lw, loc);
    IrStmt *as = ir_s(m, IRS_ASSIGN, loc);
    as->a = ir_index(m, ir_ref(m, la), ir_ref(m, fl->var));
    as->b = v;
    ir_append(m, fl->then, as);
    return la;
}

static void lanes_end(Lw *lw, LaneLoop *ll)
{
    lw->blk = ll->saved_blk;
    lw->lane = ll->saved_lane;
}

static IrExpr *lane(Lw *lw)
{
    return lw_lane_idx(lw);
}

/* m[l] for a mask variable m. */
static IrExpr *at(Lw *lw, IrVar *v)
{
    return ir_index(M(lw), ir_ref(M(lw), v), lane(lw));
}

/* if (cond) { ... } inside the current block; returns the saved block. */
static IrStmt *open_if(Lw *lw, IrExpr *cond, Loc loc)
{
    IrStmt *s = lw_add(lw, IRS_IF, loc);
    s->a = cond;
    s->then = ir_block(M(lw), loc);
    return lw_push(lw, s->then);
}

/* ---- masks ------------------------------------------------------------------------ */

static IrVar *cur_mask(Lw *lw)
{
    return lw->masks[lw->nmasks - 1];
}

static void push_mask(Lw *lw, IrVar *mk)
{
    if (lw->nmasks == lw->cap_masks) {
        int cap = lw->cap_masks ? 2 * lw->cap_masks : 64;
        IrVar **v = arena_alloc(lw->arena, (size_t)cap * sizeof *v);
        if (lw->nmasks)
            memcpy(v, lw->masks, (size_t)lw->nmasks * sizeof *v);
        lw->masks = v;
        lw->cap_masks = cap;
    }
    lw->masks[lw->nmasks++] = mk;
}

static void pop_mask(Lw *lw)
{
    lw->nmasks--;
}

/* A fresh mask = `from` (declared in the current block). */
static IrVar *copy_mask(Lw *lw, IrVar *from, Loc loc)
{
    IrModule *m = M(lw);
    IrVar *mk = lw_decl_uninit(lw, "M", mask_t(lw), loc);
    lw_eval(lw, ir_helper(m, IRH_MEMCPY, ir_t(m, IRT_VOID),
                          IR_ARGS(ir_ref(m, mk), ir_ref(m, from),
                                  ir_binary(m, IROP_MUL, ir_t(m, IRT_SIZE),
                                            ir_sizeof(m, ir_t(m, IRT_I32)),
                                            ir_named(m, "RT_LANES", ir_t(m, IRT_SIZE))))),
            loc);
    return mk;
}

static IrExpr *any(Lw *lw, IrVar *mk)
{
    return ir_helper(M(lw), IRH_ANY, ir_t(M(lw), IRT_BOOL), IR_ARGS(ir_ref(M(lw), mk)));
}

/* Clears the active lanes of the current mask in the masks down to base,
 * after `extra` (statements built in the lane loop by fill, may be NULL). */
typedef void (*FillFn)(Lw *lw, void *data);

static void clear_lanes(Lw *lw, int base, FillFn fill, void *data, Loc loc)
{
    IrModule *m = M(lw);
    IrVar *cur = cur_mask(lw);
    LaneLoop ll = lanes_begin(lw, false, loc);
    IrStmt *saved = open_if(lw, at(lw, cur), loc);
    if (fill)
        fill(lw, data);
    for (int i = lw->nmasks - 1; i >= base; i--)
        lw_assign(lw, ir_index(m, ir_ref(m, lw->masks[i]), lane(lw)), ir_i32(m, 0), loc);
    lw_close(lw, saved);
    lanes_end(lw, &ll);
}

/* ---- purity ------------------------------------------------------------------------- */

/* Whether integer arithmetic `op` on type t can raise a run-time error:
 * + - * and negation only with --check-overflow. */
static bool overflow_checked(const Lw *lw, Op op, const Type *t)
{
    return lw->opts.check_overflow && t && type_is_integral(t) &&
           (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_NEG);
}

/* Whether evaluating e in a lane that is not active is harmless: no calls,
 * no checks that could raise a run-time error, no random numbers, no VAR
 * parameter (its pointer is set in the active lanes only).  Such
 * statements run in every lane and keep the inactive lanes' old values by
 * a select, which vectorizes; the others run under `if (M[l])`. */
static bool lane_pure(Lw *lw, const Expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EXPR_NAME:
        return !(e->sym && e->sym->kind == SYM_PARAM && e->sym->access == ACCESS_VAR);
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING:
    case EXPR_ME: case EXPR_YOU: case EXPR_INDEX:
        return true;
    case EXPR_SELECT:
        return lane_pure(lw, e->u.select.obj);
    case EXPR_UNARY:
        return e->u.unary.op != OP_RANDOM && !overflow_checked(lw, e->u.unary.op, e->type) &&
               lane_pure(lw, e->u.unary.operand);
    case EXPR_BINARY: {
        Op op = e->u.binary.op;
        bool integral = e->type && type_is_integral(e->type);
        if (op == OP_POW || op == OP_LSHIFT || op == OP_RSHIFT ||
            ((op == OP_DIV || op == OP_MOD) && integral) || overflow_checked(lw, op, e->type))
            return false;
        return lane_pure(lw, e->u.binary.lhs) && lane_pure(lw, e->u.binary.rhs);
    }
    case EXPR_TERNARY:
        return lane_pure(lw, e->u.ternary.cond) && lane_pure(lw, e->u.ternary.then_e) &&
               lane_pure(lw, e->u.ternary.else_e);
    case EXPR_CALL: /* the inline standard arithmetic is pure */
        if (!e->sym || !lw_is_builtin(lw, e->sym, NULL))
            return false;
        for (int i = 0; i < e->u.call.args.len; i++)
            if (!lane_pure(lw, VEC_AT(e->u.call.args, i, Expr)))
                return false;
        return true;
    case EXPR_CONVERT:
        if (sema_convert_kind(e) == CONV_NUMERIC && e->type->kind != TY_REAL)
            return false; /* Real -> integer checks the range */
        if (sema_convert_kind(e) == CONV_INTERVAL && lw->opts.check_overflow)
            return false; /* Interval1 (iv) checks both narrowed bounds */
        for (int i = 0; i < e->u.convert.args.len; i++)
            if (!lane_pure(lw, VEC_AT(e->u.convert.args, i, Expr)))
                return false;
        return true;
    default:
        return false;
    }
}

/* Whether the REDUCTION or WTA function f can run on the values of a lane
 * that is not active: a single RETURN of a lane-pure expression. */
static bool combine_pure(Lw *lw, const Symbol *f)
{
    if (!f || !f->decl || !f->decl->u.subr.body)
        return false;
    const Block *b = f->decl->u.subr.body;
    if (b->defs.len != 0 || b->stmts.len != 1)
        return false;
    const Stmt *st = VEC_AT(b->stmts, 0, Stmt);
    return st->kind == STMT_RETURN && st->u.ret.value && lane_pure(lw, st->u.ret.value);
}

/* ---- hoisting object function calls ------------------------------------------------ */

static bool lane_function_call(const Expr *e)
{
    return e->kind == EXPR_OBJCALL && e->sym && e->sym->kind == SYM_OBJFUNC &&
           lw_has_lanes(e->sym->owner);
}

IrExpr *lw_lane_hoisted(Lw *lw, const Expr *e)
{
    for (int i = 0; i < lw->hoist_exprs.len; i++)
        if (lw->hoist_exprs.items[i] == e)
            return ir_index(M(lw), ir_ref(M(lw), VEC_AT(lw->hoist_vars, i, IrVar)), lane(lw));
    return NULL;
}

static void hoist_in(Lw *lw, Expr *e);
static bool has_lane_call(const Expr *e);
static void hoist_branches(Lw *lw, Expr *e);
static void hoist_short_circuit(Lw *lw, Expr *e);

static void hoist_args(Lw *lw, PtrVec *args)
{
    for (int i = 0; i < args->len; i++)
        hoist_in(lw, VEC_AT(*args, i, Expr));
}

/* Lane-array temporaries for the arguments of a lane call, evaluated in
 * the active lanes of mask mk; out gets their references, vars (may be
 * NULL) the temporaries per parameter. */
static void lane_args(Lw *lw, const Symbol *subr, PtrVec *args, IrVar *mk, PtrVec *out,
                      IrVar **vars, Loc loc)
{
    IrModule *m = M(lw);
    for (int i = 0; i < args->len && i < subr->sub->params.len; i++) {
        Symbol *p = VEC_AT(subr->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        const IrType *T = lw_vt(lw, p->type);
        IrVar *t;
        if (p->access == ACCESS_IO) {
            t = lw_decl(lw, "la", ir_t_ptr(m, ir_t(m, IRT_IO), false), ir_addr(m, lw_lvalue(lw, a)), loc);
        } else if (p->access == ACCESS_VAR) {
            t = lw_decl(lw, "la", ir_t_lanes(m, ir_t_ptr(m, T, false)), NULL, loc);
            LaneLoop ll = lanes_begin(lw, false, loc);
            IrStmt *saved = open_if(lw, at(lw, mk), loc);
            lw_assign(lw, at(lw, t), ir_addr(m, lw_lvalue(lw, a)), loc);
            lw_close(lw, saved);
            lanes_end(lw, &ll);
        } else if (lane_pure(lw, a)) {
            t = lw_decl_uninit(lw, "la", ir_t_lanes(m, T), loc);
            LaneLoop ll = lanes_begin(lw, true, loc);
            lw_assign(lw, at(lw, t), lw_expr_as(lw, a, p->type), loc);
            lanes_end(lw, &ll);
        } else {
            t = lw_decl(lw, "la", ir_t_lanes(m, T), NULL, loc);
            LaneLoop ll = lanes_begin(lw, false, loc);
            IrStmt *saved = open_if(lw, at(lw, mk), loc);
            lw_assign(lw, at(lw, t), lw_expr_as(lw, a, p->type), loc);
            lw_close(lw, saved);
            lanes_end(lw, &ll);
        }
        if (vars)
            vars[i] = t;
        vec_push(m->arena, out, ir_ref(m, t));
    }
}

/* The receiver arguments of a lane call on ME (same object). */
static void me_receiver(Lw *lw, const Symbol *callee, PtrVec *out)
{
    IrModule *m = M(lw);
    LwFn *fn = lw->fn;
    vec_push(m->arena, out, ir_ref(m, fn->net_v));
    vec_push(m->arena, out, ir_ref(m, fn->rep_v));
    switch (callee->owner->kind) {
    case TY_NETWORK:
        return;
    case TY_NODE:
        vec_push(m->arena, out, ir_ref(m, fn->idx_v));
        return;
    default:
        vec_push(m->arena, out, ir_ref(m, fn->k_v));
        vec_push(m->arena, out, ir_ref(m, fn->me_v));
        vec_push(m->arena, out, ir_ref(m, fn->ms_v));
        return;
    }
}

/* The lane instance of callee called on ME from the current lane code. */
static IrFunc *callee_on_me(Lw *lw, const Symbol *callee)
{
    switch (callee->owner->kind) {
    case TY_NODE: return lw_lane_fn(lw, callee, lw->fn->net, lw->fn->group);
    case TY_CONNECTION: return lw_lane_fn(lw, callee, lw->fn->net, lw->fn->bundle);
    default: return lw_lane_fn(lw, callee, NULL, -1);
    }
}

/* callee (args) on ME from the current lane code, in the lanes of mask mk:
 * the lane version gets ME, the mask, the lane array of its results (a
 * function: res) and the arguments' lane arrays, all in a block of its own. */
static void call_on_me(Lw *lw, const Symbol *callee, PtrVec *args, IrVar *mk, IrVar *res, Loc loc)
{
    IrModule *m = M(lw);
    IrStmt *saved = lw_open(lw, loc);
    PtrVec a = {0};
    lane_args(lw, callee, args, mk, &a, NULL, loc);
    PtrVec all = {0};
    me_receiver(lw, callee, &all);
    vec_push(m->arena, &all, ir_ref(m, mk));
    if (res)
        vec_push(m->arena, &all, ir_ref(m, res));
    for (int i = 0; i < a.len; i++)
        vec_push(m->arena, &all, a.items[i]);
    IrExpr *c = ir_call(m, callee_on_me(lw, callee), 0, NULL);
    c->args = all;
    lw_eval(lw, c, loc);
    lw_close(lw, saved);
}

static void hoist_call(Lw *lw, Expr *e)
{
    IrModule *m = M(lw);
    const Symbol *f = e->sym;
    if (e->u.objcall.obj->kind != EXPR_ME || !lw->fn || (!lw->fn->net && f->owner->kind == TY_NODE)) {
        lw_unsupported(lw, e->loc, "this object function call in network code");
        return;
    }
    IrVar *mk = cur_mask(lw);
    IrVar *t = lw_decl(lw, "fr", ir_t_lanes(m, lw_vt(lw, f->sub->result)), NULL, e->loc);
    call_on_me(lw, f, &e->u.objcall.args, mk, t, e->loc);
    vec_push(lw->arena, &lw->hoist_exprs, e);
    vec_push(lw->arena, &lw->hoist_vars, t);
}

static void hoist_child(void *lw, Expr *e)
{
    hoist_in(lw, e);
}

/* Lowers the lane calls of every object function call inside e, innermost
 * first, so that lw_expr can read their results from temporaries.  Only
 * the operands that run conditionally are handled here; every other one is
 * reached through ast_expr_children (MAXINDEX (ME.g[ME.f ()].in), ...). */
static void hoist_in(Lw *lw, Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EXPR_BINARY:
        if ((e->u.binary.op == OP_AND || e->u.binary.op == OP_OR) && has_lane_call(e->u.binary.rhs)) {
            hoist_short_circuit(lw, e);
            return;
        }
        break;
    case EXPR_TERNARY:
        if (has_lane_call(e->u.ternary.then_e) || has_lane_call(e->u.ternary.else_e)) {
            hoist_in(lw, e->u.ternary.cond);
            hoist_branches(lw, e);
            return;
        }
        break;
    default:
        break;
    }
    ast_expr_children(e, hoist_child, lw);
    if (e->kind == EXPR_OBJCALL && lane_function_call(e) && !lw_lane_hoisted_name(lw, e))
        hoist_call(lw, e);
}

typedef struct LaneCallScan {
    bool found;
} LaneCallScan;

static void lane_call_child(void *cx, Expr *e)
{
    LaneCallScan *sc = cx;
    if (!sc->found && has_lane_call(e))
        sc->found = true;
}

/* Whether e contains a call hoist_in lowers as a lane call. */
static bool has_lane_call(const Expr *e)
{
    if (!e)
        return false;
    if (e->kind == EXPR_OBJCALL && lane_function_call(e))
        return true;
    LaneCallScan sc = {false};
    ast_expr_children((Expr *)e, lane_call_child, &sc);
    return sc.found;
}

/* c ? a : b whose a or b makes lane calls: each branch's calls run only in
 * the lanes that take it (semantics.md §9: "then only B or only C"), under
 * the masks c and NOT c; the condition is evaluated once per lane, into a
 * lane array that lw_expr then reads (lw_lane_hoisted). */
static void hoist_branches(Lw *lw, Expr *e)
{
    IrModule *m = M(lw);
    Loc loc = e->loc;
    const IrType *bt = ir_t(m, IRT_BOOL);
    IrVar *mk = cur_mask(lw);
    IrVar *cv = lw_decl(lw, "tc", ir_t_lanes(m, bt), NULL, loc);
    IrVar *tm = lw_decl(lw, "Mt", mask_t(lw), NULL, loc);
    IrVar *em = lw_decl(lw, "Me", mask_t(lw), NULL, loc);
    LaneLoop ll = lanes_begin(lw, false, loc);
    IrStmt *saved = open_if(lw, at(lw, mk), loc);
    lw_assign(lw, at(lw, cv), lw_expr_as(lw, e->u.ternary.cond, lw->si->builtin[TY_BOOL]), loc);
    lw_assign(lw, at(lw, tm), ir_cast(m, ir_t(m, IRT_I32), at(lw, cv)), loc);
    lw_assign(lw, at(lw, em), ir_cast(m, ir_t(m, IRT_I32), ir_unary(m, IROP_NOT, bt, at(lw, cv))), loc);
    lw_close(lw, saved);
    lanes_end(lw, &ll);
    vec_push(lw->arena, &lw->hoist_exprs, e->u.ternary.cond);
    vec_push(lw->arena, &lw->hoist_vars, cv);
    push_mask(lw, tm);
    hoist_in(lw, e->u.ternary.then_e);
    pop_mask(lw);
    push_mask(lw, em);
    hoist_in(lw, e->u.ternary.else_e);
    pop_mask(lw);
}

/* a AND b / a OR b whose b makes lane calls: AND and OR short-circuit
 * (docs/compiler-dependent.md), so b's calls run only in the lanes where a
 * leaves the result open, under the mask a (AND) or NOT a (OR); a is
 * evaluated once per lane, into a lane array that lw_expr then reads
 * (lw_lane_hoisted). */
static void hoist_short_circuit(Lw *lw, Expr *e)
{
    IrModule *m = M(lw);
    Loc loc = e->loc;
    const IrType *bt = ir_t(m, IRT_BOOL);
    Expr *l = e->u.binary.lhs;
    hoist_in(lw, l);
    IrVar *mk = cur_mask(lw);
    IrVar *cv = lw_decl(lw, "sc", ir_t_lanes(m, bt), NULL, loc);
    IrVar *rm = lw_decl(lw, "Mr", mask_t(lw), NULL, loc);
    LaneLoop ll = lanes_begin(lw, false, loc);
    IrStmt *saved = open_if(lw, at(lw, mk), loc);
    lw_assign(lw, at(lw, cv), lw_expr_as(lw, l, lw->si->builtin[TY_BOOL]), loc);
    IrExpr *open = e->u.binary.op == OP_AND ? at(lw, cv) : ir_unary(m, IROP_NOT, bt, at(lw, cv));
    lw_assign(lw, at(lw, rm), ir_cast(m, ir_t(m, IRT_I32), open), loc);
    lw_close(lw, saved);
    lanes_end(lw, &ll);
    vec_push(lw->arena, &lw->hoist_exprs, l);
    vec_push(lw->arena, &lw->hoist_vars, cv);
    push_mask(lw, rm);
    hoist_in(lw, e->u.binary.rhs);
    pop_mask(lw);
}

const char *lw_lane_hoisted_name(Lw *lw, const Expr *e)
{
    for (int i = 0; i < lw->hoist_exprs.len; i++)
        if (lw->hoist_exprs.items[i] == e)
            return VEC_AT(lw->hoist_vars, i, IrVar)->name;
    return NULL;
}

/* ---- statements ------------------------------------------------------------------------ */

static void lane_block(Lw *lw, Block *b);

/* Node index range of a slice: a loop over lo..hi (the whole group, or the
 * lanes' union) and, for a slice, per-lane bounds rlo/rhi. */
typedef struct NodeRange {
    IrVar *lo, *hi;
    IrVar *rlo, *rhi; /* per-lane bounds, NULL for an all-slice */
} NodeRange;

static NodeRange node_range(Lw *lw, Expr *range, int g, IrVar *mk, Loc loc)
{
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32), *bt = ir_t(m, IRT_BOOL);
    NodeRange r = {0};
    IrExpr *count = ir_netinfo(m, IRN_COUNT, ir_ref(m, lw->fn->net_v), ir_i32(m, g), NULL);
    r.lo = lw_decl(lw, "lo", i32, ir_i32(m, 0), loc);
    r.hi = lw_decl(lw, "hi", i32, ir_binary(m, IROP_SUB, i32, count, ir_i32(m, 1)), loc);
    if (!range)
        return r;
    r.rlo = lw_decl_uninit(lw, "rlo", ir_t_lanes(m, i32), loc);
    r.rhi = lw_decl_uninit(lw, "rhi", ir_t_lanes(m, i32), loc);
    IrVar *ulo = lw_decl(lw, "ulo", i32, ir_named(m, "INT32_MAX", i32), loc);
    IrVar *uhi = lw_decl(lw, "uhi", i32, ir_named(m, "INT32_MIN", i32), loc);
    LaneLoop ll = lanes_begin(lw, false, loc);
    lw_assign(lw, at(lw, r.rlo), ir_i32(m, 0), loc);
    lw_assign(lw, at(lw, r.rhi), ir_i32(m, -1), loc);
    IrStmt *saved = open_if(lw, at(lw, mk), loc);
    const IrType *ivt = lw_vt(lw, lw->si->builtin[TY_INTERVAL]);
    IrVar *s = lw_decl(lw, "s", ivt, lw_expr_as(lw, range, lw->si->builtin[TY_INTERVAL]), loc);
    s->is_const = true;
    IrExpr *mn = ir_member(m, ir_ref(m, s), "min", i32), *mx = ir_member(m, ir_ref(m, s), "max", i32);
    lw_assign(lw, at(lw, r.rlo), ir_cond(m, i32, ir_binary(m, IROP_GT, bt, mn, ir_ref(m, r.lo)), mn,
                                         ir_ref(m, r.lo)), loc);
    lw_assign(lw, at(lw, r.rhi), ir_cond(m, i32, ir_binary(m, IROP_LT, bt, mx, ir_ref(m, r.hi)), mx,
                                         ir_ref(m, r.hi)), loc);
    IrStmt *s2 = open_if(lw, ir_binary(m, IROP_LE, bt, at(lw, r.rlo), at(lw, r.rhi)), loc);
    IrStmt *s3 = open_if(lw, ir_binary(m, IROP_LT, bt, at(lw, r.rlo), ir_ref(m, ulo)), loc);
    lw_assign(lw, ir_ref(m, ulo), at(lw, r.rlo), loc);
    lw_close(lw, s3);
    s3 = open_if(lw, ir_binary(m, IROP_GT, bt, at(lw, r.rhi), ir_ref(m, uhi)), loc);
    lw_assign(lw, ir_ref(m, uhi), at(lw, r.rhi), loc);
    lw_close(lw, s3);
    lw_close(lw, s2);
    lw_close(lw, saved);
    lanes_end(lw, &ll);
    lw_assign(lw, ir_ref(m, r.lo), ir_ref(m, ulo), loc);
    lw_assign(lw, ir_ref(m, r.hi), ir_ref(m, uhi), loc);
    return r;
}

/* Inside a node loop over i: the mask of the lanes that select node i
 * (and `continue` when there is none). */
static IrVar *node_mask(Lw *lw, const NodeRange *r, IrVar *mk, IrVar *i, Loc loc)
{
    IrModule *m = M(lw);
    const IrType *bt = ir_t(m, IRT_BOOL);
    if (!r->rlo)
        return mk;
    IrVar *mi = lw_decl_uninit(lw, "Mi", mask_t(lw), loc);
    LaneLoop ll = lanes_begin(lw, false, loc);
    lw_assign(lw, at(lw, mi),
              ir_binary(m, IROP_LAND, bt, at(lw, mk),
                        ir_binary(m, IROP_LAND, bt, ir_binary(m, IROP_GE, bt, ir_ref(m, i), at(lw, r->rlo)),
                                  ir_binary(m, IROP_LE, bt, ir_ref(m, i), at(lw, r->rhi)))),
              loc);
    lanes_end(lw, &ll);
    IrStmt *saved = open_if(lw, ir_unary(m, IROP_NOT, bt, any(lw, mi)), loc);
    lw_add(lw, IRS_CONTINUE, loc);
    lw_close(lw, saved);
    return mi;
}

static IrStmt *nodes_loop(Lw *lw, int g, IrVar *i, IrVar *lo, IrVar *hi, Loc loc)
{
    IrModule *m = M(lw);
    IrStmt *s = lw_add(lw, IRS_FOR, loc);
    s->for_kind = IRFOR_NODES;
    s->g = g;
    s->var = i;
    s->lo = ir_ref(m, lo);
    s->hi = ir_ref(m, hi);
    s->then = ir_block(m, loc);
    return s;
}

static void lane_node_group_call(Lw *lw, Expr *call, Expr *range, int g)
{
    IrModule *m = M(lw);
    const Symbol *proc = call->sym;
    IrVar *mk = cur_mask(lw);
    IrStmt *saved = lw_open(lw, call->loc);
    lw->blk->origin = call;
    PtrVec a = {0};
    lane_args(lw, proc, &call->u.objcall.args, mk, &a, NULL, call->loc);
    NodeRange r = node_range(lw, range, g, mk, call->loc);
    IrVar *i = fresh(lw, "i", ir_t(m, IRT_I32));
    IrStmt *loop = nodes_loop(lw, g, i, r.lo, r.hi, call->loc);
    lw_push(lw, loop->then);
    IrVar *mi = node_mask(lw, &r, mk, i, call->loc);
    IrExpr *c = ir_call(m, lw_lane_fn(lw, proc, lw->fn->net, g),
                        IR_ARGS(ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->rep_v), ir_ref(m, i),
                                ir_ref(m, mi)));
    for (int k = 0; k < a.len; k++)
        vec_push(m->arena, &c->args, a.items[k]);
    lw_eval(lw, c, call->loc);
    lw_close(lw, saved);
}

/* The slot holding parameter `param` of the interface call with slot
 * number `slot` in the lane record of node type `node`: z<slot>_<param>,
 * added on first use. */
IrField *lw_slot_field(Lw *lw, const Type *node, int slot, const Symbol *proc, const Symbol *param)
{
    IrLayout *ll = lw_lanes_layout(lw, node);
    for (int i = 0; i < ll->fields.len; i++) {
        IrField *f = VEC_AT(ll->fields, i, IrField);
        if (f->slot == slot && f->slot_param == param)
            return f;
    }
    const char *name = arena_printf(lw->arena, "z%d_%s", slot, lw_local_name(lw, param));
    IrField *f = ir_layout_add(lw->m, ll, name, NULL, param->type, true);
    f->slot = slot;
    f->slot_param = param;
    f->slot_proc = proc;
    return f;
}

/* The lane and shared connection records of bundle b in the current block:
 * C (lane records) and CS (shared records). */
static void conn_records(Lw *lw, int b, IrVar **C, IrVar **CS, Loc loc)
{
    IrModule *m = M(lw);
    const Type *ct = lw->fn->net->bundles[b].conn;
    IrLayout *ll = lw_lanes_layout(lw, ct), *sl = lw_shared_layout(lw, ct);
    IrExpr *net = ir_ref(m, lw->fn->net_v), *blk = ir_ref(m, lw->fn->rep_v);
    *C = lw_decl(lw, "C", ir_t_ptr(m, ir_t_record(m, ll), false), ir_conns(m, net, blk, b, ll), loc);
    *CS = lw_decl(lw, "CS", ir_t_ptr(m, ir_t_record(m, sl), false), ir_conns(m, net, blk, b, sl), loc);
    (*C)->twin = *CS;
}

static bool touches(Lw *lw, int b, const Symbol *ifc)
{
    LowerBundle *bu = &lw->fn->net->bundles[b];
    return (bu->dst_group == lw->fn->group && bu->dst_iface == ifc) ||
           (bu->src_group == lw->fn->group && bu->src_iface == ifc);
}

/* ME.i[].p (args): p runs on every connection of the interface's bundles.
 * The argument temporaries are recorded for the fuse pass, which keeps
 * them per node where connection values are recomputed from them. */
static void lane_iface_call(Lw *lw, Expr *call, const Symbol *ifc)
{
    IrModule *m = M(lw);
    const Symbol *proc = call->sym;
    IrVar *mk = cur_mask(lw);
    IrStmt *saved = lw_open(lw, call->loc);
    lw->blk->origin = call;
    lw->blk->tag = IRTAG_IFACE_CALL;
    lw->blk->aux[0] = mk;
    PtrVec a = {0};
    IrVar **vars = arena_alloc(lw->arena, (size_t)(proc->sub->params.len + 1) * sizeof *vars);
    lane_args(lw, proc, &call->u.objcall.args, mk, &a, vars, call->loc);
    ptrmap_put(lw->arena, &lw->site_args, call, lw->fn->f, 0, vars);
    for (int b = 0; b < lw->fn->net->nbundles; b++) {
        if (!touches(lw, b, ifc))
            continue;
        IrStmt *outer = lw_open(lw, call->loc);
        IrStmt *bb = lw->blk;
        bb->tag = IRTAG_IFACE_BUNDLE;
        bb->g = b;
        bb->origin = call;
        IrVar *C, *CS, *k;
        conn_records(lw, b, &C, &CS, call->loc);
        bb->aux[0] = C;
        bb->aux[1] = CS;
        IrStmt *loop = lw_conn_loop(lw, b, lw->fn->group, ifc, ir_ref(m, lw->fn->net_v),
                                    ir_ref(m, lw->fn->idx_v), &k, call->loc);
        IrExpr *c = ir_call(m, lw_lane_fn(lw, proc, lw->fn->net, b),
                            IR_ARGS(ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->rep_v), ir_ref(m, k),
                                    ir_addr(m, ir_index(m, ir_ref(m, C), ir_ref(m, k))),
                                    ir_addr(m, ir_index(m, ir_ref(m, CS), ir_ref(m, k))), ir_ref(m, mk)));
        for (int i = 0; i < a.len; i++)
            vec_push(m->arena, &c->args, a.items[i]);
        IrStmt *e = ir_s(m, IRS_EVAL, call->loc);
        e->a = c;
        ir_append(m, loop->then, e);
        lw_close(lw, outer);
    }
    lw_close(lw, saved);
}

static void lane_objcall(Lw *lw, Expr *call)
{
    IrModule *m = M(lw);
    const Symbol *proc = call->sym;
    Expr *obj = call->u.objcall.obj;
    IrVar *mk = cur_mask(lw);
    hoist_in(lw, obj);
    hoist_args(lw, &call->u.objcall.args);
    if (proc->owner->kind == TY_RECORD) {
        LaneLoop ll = lanes_begin(lw, false, call->loc);
        IrStmt *saved = open_if(lw, at(lw, mk), call->loc);
        PtrVec a = {0};
        vec_push(m->arena, &a, ir_addr(m, lw_lvalue(lw, obj)));
        lw_args(lw, proc, &call->u.objcall.args, &a);
        IrExpr *c = ir_call(m, lw_conn_fn(lw, proc), 0, NULL);
        c->args = a;
        lw_eval(lw, c, call->loc);
        lw_close(lw, saved);
        lanes_end(lw, &ll);
        return;
    }
    if (call->call_kind == CALL_GROUP) {
        Expr *base, *range;
        lw_split_multi(obj, &base, &range);
        if (proc->owner->kind == TY_NODE)
            lane_node_group_call(lw, call, range, lower_group_index(lw->fn->net, base->sym));
        else
            lane_iface_call(lw, call, base->sym);
        return;
    }
    if (obj->kind == EXPR_ME) {
        call_on_me(lw, proc, &call->u.objcall.args, mk, NULL, call->loc);
        return;
    }
    if (proc->owner->kind == TY_NODE && obj->kind == EXPR_SUBSCRIPT &&
        obj->u.subscript.obj->kind == EXPR_SELECT) {
        /* ME.g[i].p (): each lane may pick another node */
        Symbol *gs = obj->u.subscript.obj->sym;
        int g = lower_group_index(lw->fn->net, gs);
        IrStmt *saved = lw_open(lw, call->loc);
        PtrVec a = {0};
        lane_args(lw, proc, &call->u.objcall.args, mk, &a, NULL, call->loc);
        LaneLoop ll = lanes_begin(lw, false, call->loc);
        IrStmt *s2 = open_if(lw, at(lw, mk), call->loc);
        IrVar *m1 = lw_decl(lw, "m1", mask_t(lw), NULL, call->loc);
        lw_assign(lw, at(lw, m1), ir_i32(m, 1), call->loc);
        IrExpr *c = ir_call(m, lw_lane_fn(lw, proc, lw->fn->net, g),
                            IR_ARGS(ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->rep_v),
                                    lw_idx(lw, obj->loc, lw_expr(lw, obj->u.subscript.index),
                                           ir_netinfo(m, IRN_COUNT, ir_ref(m, lw->fn->net_v), ir_i32(m, g), NULL),
                                           gs->name),
                                    ir_ref(m, m1)));
        for (int i = 0; i < a.len; i++)
            vec_push(m->arena, &c->args, a.items[i]);
        lw_eval(lw, c, call->loc);
        lw_close(lw, s2);
        lanes_end(lw, &ll);
        lw_close(lw, saved);
        return;
    }
    lw_unsupported(lw, call->loc, "this object procedure call in network code");
}

/* REDUCTION and WTA over a node group (network code) or an interface (node
 * code), lane by lane. */
static void lane_combine(Lw *lw, Stmt *s, bool wta)
{
    IrModule *m = M(lw);
    IrVar *mk = cur_mask(lw);
    Expr *pvs = wta ? s->u.wta.pv : s->u.reduction.pvs;
    Expr *pv = wta ? pvs : pvs->u.select.obj;
    Symbol *elem = wta ? s->target : pvs->sym;
    int level = s->sem_flags & SEMF_LEVEL_MASK;
    Expr *base, *range;
    lw_split_multi(pv, &base, &range);
    const IrType *i32 = ir_t(m, IRT_I32), *bt = ir_t(m, IRT_BOOL);
    IrStmt *saved = lw_open(lw, s->loc);
    PtrVec a = {0};

    IrReduce *r = arena_alloc(m->arena, sizeof *r);
    r->wta = wta;
    r->combine = lw_subr_fn(lw, s->callee);
    r->vtype = lw_vt(lw, elem->type);
    r->acc = fresh(lw, "acc", ir_t_lanes(m, r->vtype));
    r->have = fresh(lw, "first", bt);
    r->win = fresh(lw, "wi", ir_t_lanes(m, i32));
    r->winb = fresh(lw, "wb", ir_t_lanes(m, i32));
    r->lane = ir_var(m, "l", ir_t(m, IRT_INT), IRV_LOCAL);
    r->mask = ir_ref(m, mk);
    /* every lane sees the same connections (and, for an all-slice, the same
       nodes): one scalar first-element flag, the combining in every lane;
       a function that could fail (an integer division, a checked overflow,
       a call) combines only in the active lanes */
    r->kind = IRR_LANES;
    if ((level == SEMF_LEVEL_NODE && range) || !combine_pure(lw, s->callee))
        r->kind = IRR_LANES_MASKED;
    IrExpr *active = ir_index(m, ir_ref(m, mk), ir_ref(m, r->lane));
    IrStmt *rs = lw_add(lw, IRS_REDUCE, s->loc);
    rs->red = r;
    rs->origin = s;
    rs->then = ir_block(m, s->loc);
    lw_push(lw, rs->then);
    if (level == SEMF_LEVEL_NODE) {
        int g = lower_group_index(lw->fn->net, base->sym);
        Type *node = type_node_of(base->sym->type);
        NodeRange nr = node_range(lw, range, g, mk, s->loc);
        IrLayout *ll = lw_lanes_layout(lw, node);
        IrVar *N = lw_decl(lw, "N", ir_t_ptr(m, ir_t_record(m, ll), true),
                           ir_nodes(m, ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->rep_v), g, ll), s->loc);
        N->is_const = true;
        IrVar *i = fresh(lw, "i", i32);
        IrStmt *loop = nodes_loop(lw, g, i, nr.lo, nr.hi, s->loc);
        lw_push(lw, loop->then);
        IrExpr *val = ir_field(m, ir_index(m, ir_ref(m, N), ir_ref(m, i)), lw_field(lw, ll, elem));
        IrStmt *y = lw_add(lw, IRS_YIELD, s->loc);
        y->a = val;
        y->b = ir_ref(m, i);
        y->c = ir_i32(m, 0);
        y->origin = s;
        if (nr.rlo) {
            IrExpr *l = ir_ref(m, r->lane);
            y->lane_sel = ir_binary(m, IROP_LAND, bt, ir_index(m, ir_ref(m, mk), l),
                                    ir_binary(m, IROP_LAND, bt,
                                              ir_binary(m, IROP_GE, bt, ir_ref(m, i), ir_index(m, ir_ref(m, nr.rlo), l)),
                                              ir_binary(m, IROP_LE, bt, ir_ref(m, i), ir_index(m, ir_ref(m, nr.rhi), l))));
        } else if (r->kind == IRR_LANES_MASKED) {
            y->lane_sel = active;
        }
    } else {
        Symbol *ifc = base->sym;
        for (int b = 0; b < lw->fn->net->nbundles; b++) {
            lw_push(lw, rs->then);
            if (!touches(lw, b, ifc))
                continue;
            lw_open(lw, s->loc);
            IrVar *C, *CS, *k;
            conn_records(lw, b, &C, &CS, s->loc);
            IrStmt *loop = lw_conn_loop(lw, b, lw->fn->group, ifc, ir_ref(m, lw->fn->net_v),
                                        ir_ref(m, lw->fn->idx_v), &k, s->loc);
            lw_push(lw, loop->then);
            IrLayout *ll = lw_lanes_layout(lw, lw->fn->net->bundles[b].conn);
            IrExpr *val = ir_field(m, ir_index(m, ir_ref(m, C), ir_ref(m, k)), lw_field(lw, ll, elem));
            IrStmt *y = lw_add(lw, IRS_YIELD, s->loc);
            y->a = val;
            y->b = ir_ref(m, k);
            y->c = ir_i32(m, b);
            y->origin = s;
            y->aux[0] = C;
            y->aux[1] = CS;
            if (r->kind == IRR_LANES_MASKED)
                y->lane_sel = ir_clone(m, active);
        }
    }
    lw_push(lw, rs->then);
    if (!wta) {
        if (has_lane_call(s->u.reduction.into)) {
            /* the object functions in the target (ME.a[ME.f ()]) run after
               the combining, in the lanes that have a result, as in serial
               code: over an empty set the target is left alone (semantics
               8.4) and nothing of it is evaluated */
            r->wmask = ir_var(m, "mw_", mask_t(lw), IRV_LOCAL);
            r->after = ir_block(m, s->loc);
            lw_push(lw, r->after);
            push_mask(lw, r->wmask);
            hoist_in(lw, s->u.reduction.into);
            pop_mask(lw);
            lw_push(lw, rs->then);
        }
        IrVar *saved_lane = lw->lane;
        lw->lane = r->lane;
        r->into = lw_lvalue(lw, s->u.reduction.into);
        lw->lane = saved_lane;
    } else {
        /* the winner's procedure, once per distinct winner; its arguments
           first, in the lanes that have this winner: as in serial code, a
           lane without a winner (no candidates) evaluates none, and no
           function in them runs there */
        r->wpos = ir_var(m, "wiw_", i32, IRV_LOCAL);
        r->wbundle = ir_var(m, "wbw_", i32, IRV_LOCAL);
        r->wmask = ir_var(m, "mw_", mask_t(lw), IRV_LOCAL);
        r->after = ir_block(m, s->loc);
        lw_push(lw, r->after);
        push_mask(lw, r->wmask);
        hoist_args(lw, &s->u.wta.args); /* object functions in the arguments: lane calls */
        lane_args(lw, s->proc, &s->u.wta.args, r->wmask, &a, NULL, s->loc);
        pop_mask(lw);
        if (level == SEMF_LEVEL_NODE) {
            int g = lower_group_index(lw->fn->net, base->sym);
            IrExpr *c = ir_call(m, lw_lane_fn(lw, s->proc, lw->fn->net, g),
                                IR_ARGS(ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->rep_v),
                                        ir_ref(m, r->wpos), ir_ref(m, r->wmask)));
            for (int i = 0; i < a.len; i++)
                vec_push(m->arena, &c->args, a.items[i]);
            lw_eval(lw, c, s->loc);
        } else {
            IrStmt *sw = lw_add(lw, IRS_SWITCH, s->loc);
            sw->a = ir_ref(m, r->wbundle);
            int n = 0;
            sw->ints = arena_alloc(m->arena, (size_t)(lw->fn->net->nbundles + 1) * sizeof *sw->ints);
            for (int b = 0; b < lw->fn->net->nbundles; b++) {
                LowerBundle *bu = &lw->fn->net->bundles[b];
                if (!((bu->dst_group == lw->fn->group && bu->dst_iface == base->sym) ||
                      (bu->src_group == lw->fn->group && bu->src_iface == base->sym)))
                    continue;
                IrStmt *cs = ir_block(m, s->loc);
                IrLayout *ll = lw_lanes_layout(lw, s->proc->owner), *sl = lw_shared_layout(lw, s->proc->owner);
                IrExpr *net = ir_ref(m, lw->fn->net_v), *blk = ir_ref(m, lw->fn->rep_v);
                IrExpr *c = ir_call(m, lw_lane_fn(lw, s->proc, lw->fn->net, b),
                                    IR_ARGS(net, blk, ir_ref(m, r->wpos),
                                            ir_addr(m, ir_index(m, ir_conns(m, net, blk, b, ll), ir_ref(m, r->wpos))),
                                            ir_addr(m, ir_index(m, ir_conns(m, net, blk, b, sl), ir_ref(m, r->wpos))),
                                            ir_ref(m, r->wmask)));
                for (int i = 0; i < a.len; i++)
                    vec_push(m->arena, &c->args, a.items[i]);
                IrStmt *e = ir_s(m, IRS_EVAL, s->loc);
                e->a = c;
                ir_append(m, cs, e);
                sw->ints[n++] = b;
                vec_push(m->arena, &sw->list, cs);
            }
        }
    }
    lw_close(lw, saved);
}

static void lane_if(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32);
    IrVar *mk = cur_mask(lw);
    IrVar *rest = copy_mask(lw, mk, s->loc); /* lanes no arm has taken yet */
    for (int i = 0; i < s->u.if_.arms.len; i++) {
        IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
        push_mask(lw, rest);
        hoist_in(lw, arm->cond);
        pop_mask(lw);
        IrVar *mt = lw_decl_uninit(lw, "Mt", mask_t(lw), arm->loc);
        if (lane_pure(lw, arm->cond)) { /* evaluated in every lane: vectorizes */
            LaneLoop ll = lanes_begin(lw, true, arm->loc);
            IrVar *c = lw_decl(lw, "c", i32,
                               ir_binary(m, IROP_NE, i32, lw_expr(lw, arm->cond), ir_i32(m, 0)), arm->loc);
            c->is_const = true;
            lw_assign(lw, at(lw, mt), ir_binary(m, IROP_BITAND, i32, at(lw, rest), ir_ref(m, c)), arm->loc);
            lw_assign(lw, at(lw, rest), ir_binary(m, IROP_BITXOR, i32, at(lw, rest), at(lw, mt)), arm->loc);
            lanes_end(lw, &ll);
        } else {
            LaneLoop ll = lanes_begin(lw, false, arm->loc);
            lw_assign(lw, at(lw, mt), ir_binary(m, IROP_LAND, i32, at(lw, rest), lw_expr(lw, arm->cond)),
                      arm->loc);
            IrStmt *saved = open_if(lw, at(lw, mt), arm->loc);
            lw_assign(lw, at(lw, rest), ir_i32(m, 0), arm->loc);
            lw_close(lw, saved);
            lanes_end(lw, &ll);
        }
        IrStmt *saved = open_if(lw, any(lw, mt), arm->loc);
        push_mask(lw, mt);
        lane_block(lw, arm->body);
        pop_mask(lw);
        lw_close(lw, saved);
    }
    if (s->u.if_.else_body) {
        IrStmt *saved = open_if(lw, any(lw, rest), s->loc);
        push_mask(lw, rest);
        lane_block(lw, s->u.if_.else_body);
        pop_mask(lw);
        lw_close(lw, saved);
    }
}

/* Lanes of the loop mask ml that fail cond (or pass it, for UNTIL) leave. */
static void loop_test(Lw *lw, Expr *cond, IrVar *ml, bool leave_if_true, Loc loc)
{
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32);
    hoist_in(lw, cond);
    if (lane_pure(lw, cond)) {
        LaneLoop ll = lanes_begin(lw, true, loc);
        IrExpr *c = lw_expr(lw, cond);
        IrExpr *v = leave_if_true ? ir_unary(m, IROP_NOT, i32, c)
                                  : ir_unary(m, IROP_NOT, i32, ir_unary(m, IROP_NOT, i32, c));
        IrVar *cv = lw_decl(lw, "c", i32, v, loc);
        cv->is_const = true;
        lw_assign(lw, at(lw, ml), ir_binary(m, IROP_BITAND, i32, at(lw, ml), ir_ref(m, cv)), loc);
        lanes_end(lw, &ll);
    } else {
        LaneLoop ll = lanes_begin(lw, false, loc);
        IrExpr *c = lw_expr(lw, cond);
        IrExpr *leave = leave_if_true ? c : ir_unary(m, IROP_NOT, ir_t(m, IRT_BOOL), c);
        IrStmt *saved = open_if(lw, ir_binary(m, IROP_LAND, ir_t(m, IRT_BOOL), at(lw, ml), leave), loc);
        lw_assign(lw, at(lw, ml), ir_i32(m, 0), loc);
        lw_close(lw, saved);
        lanes_end(lw, &ll);
    }
}

static void break_if_none(Lw *lw, IrVar *ml, Loc loc)
{
    IrStmt *saved = open_if(lw, ir_unary(M(lw), IROP_NOT, ir_t(M(lw), IRT_BOOL), any(lw, ml)), loc);
    lw_add(lw, IRS_BREAK, loc);
    lw_close(lw, saved);
}

static void lane_loop(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    IrStmt *saved = lw_open(lw, s->loc);
    IrVar *ml = copy_mask(lw, cur_mask(lw), s->loc);
    int saved_base = lw->loop_base;
    IrStmt *loop = lw_add(lw, IRS_LOOP, s->loc);
    loop->then = ir_block(m, s->loc);
    lw_push(lw, loop->then);
    push_mask(lw, ml);
    lw->loop_base = lw->nmasks - 1;
    if (s->u.loop.while_cond)
        loop_test(lw, s->u.loop.while_cond, ml, false, s->loc);
    break_if_none(lw, ml, s->loc);
    lane_block(lw, s->u.loop.body);
    if (s->u.loop.until_cond)
        loop_test(lw, s->u.loop.until_cond, ml, true, s->loc);
    break_if_none(lw, ml, s->loc);
    lw->loop_base = saved_base;
    pop_mask(lw);
    lw_close(lw, saved);
}

static void lane_for(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *var = s->u.for_.var;
    bool down = s->u.for_.dir == FOR_DOWNTO;
    const IrType *bt = ir_t(m, IRT_BOOL), *i64 = ir_t(m, IRT_I64);
    IrVar *mk = cur_mask(lw);
    IrStmt *saved = lw_open(lw, s->loc);
    /* i := f; t2 := t (semantics 8.6): a lane call in t runs after the
     * store of f, so a function that changes the variable sees f there */
    bool split = has_lane_call(s->u.for_.to);
    /* the variable's address once, before the loop (as for_stmt does):
       its subscripts into temporaries per lane */
    LwBare once;
    memset(&once, 0, sizeof once);
    for (Expr *e = var; e;) {
        if (e->kind == EXPR_SELECT) {
            e = e->u.select.obj;
        } else if (e->kind == EXPR_SUBSCRIPT) {
            if (e->u.subscript.index->kind != EXPR_INT)
                lw_bare_add(lw, &once, e->u.subscript.index);
            e = e->u.subscript.obj;
        } else {
            break;
        }
    }
    if (once.n) {
        for (int i = once.n - 1; i >= 0; i--)
            hoist_in(lw, once.idx[i]);
        for (int i = 0; i < once.n; i++)
            once.tmp[i] = lw_decl(lw, "fx", ir_t_lanes(m, lw_vt(lw, once.idx[i]->type)), NULL, s->loc);
        LaneLoop ll = lanes_begin(lw, false, s->loc);
        IrStmt *s2 = open_if(lw, at(lw, mk), s->loc);
        for (int i = once.n - 1; i >= 0; i--)
            lw_assign(lw, at(lw, once.tmp[i]), lw_expr(lw, once.idx[i]), s->loc);
        lw_close(lw, s2);
        lanes_end(lw, &ll);
        once.up = lw->bare;
        lw->bare = &once;
    }
    hoist_in(lw, s->u.for_.from);
    if (!split)
        hoist_in(lw, s->u.for_.to);
    IrVar *to = lw_decl(lw, "to", ir_t_lanes(m, i64), NULL, s->loc);
    for (int part = 0; part < (split ? 2 : 1); part++) {
        if (part == 1)
            hoist_in(lw, s->u.for_.to);
        LaneLoop ll = lanes_begin(lw, false, s->loc);
        IrStmt *s2 = open_if(lw, at(lw, mk), s->loc);
        if (part == 0)
            lw_assign(lw, lw_lvalue(lw, var), lw_expr_as(lw, s->u.for_.from, var->type), s->loc);
        if (part == 1 || !split)
            lw_assign(lw, at(lw, to), lw_expr(lw, s->u.for_.to), s->loc);
        lw_close(lw, s2);
        lanes_end(lw, &ll);
    }
    IrVar *ml = copy_mask(lw, mk, s->loc);
    int saved_base = lw->loop_base;
    IrStmt *loop = lw_add(lw, IRS_LOOP, s->loc);
    loop->then = ir_block(m, s->loc);
    lw_push(lw, loop->then);
    push_mask(lw, ml);
    lw->loop_base = lw->nmasks - 1;
    {
        LaneLoop ll = lanes_begin(lw, false, s->loc);
        IrStmt *s2 = open_if(lw, ir_binary(m, IROP_LAND, bt, at(lw, ml),
                                           ir_unary(m, IROP_NOT, bt,
                                                    ir_binary(m, down ? IROP_GE : IROP_LE, bt,
                                                              lw_lvalue(lw, var), at(lw, to)))),
                             s->loc);
        lw_assign(lw, at(lw, ml), ir_i32(m, 0), s->loc);
        lw_close(lw, s2);
        lanes_end(lw, &ll);
    }
    break_if_none(lw, ml, s->loc);
    lane_block(lw, s->u.for_.body);
    if (s->u.for_.until_cond)
        loop_test(lw, s->u.for_.until_cond, ml, true, s->loc);
    {   /* one past the bound after the last round (semantics 8.6) */
        LaneLoop ll = lanes_begin(lw, false, s->loc);
        IrStmt *s2 = open_if(lw, at(lw, ml), s->loc);
        IrVar *stop = lw_decl(lw, "stop", bt, ir_binary(m, IROP_EQ, bt, lw_lvalue(lw, var), at(lw, to)),
                              s->loc);
        stop->is_const = true;
        lw_assign(lw, lw_lvalue(lw, var), lw_for_step(lw, var, down, stop, s->loc), s->loc);
        IrStmt *s3 = open_if(lw, ir_ref(m, stop), s->loc);
        lw_assign(lw, at(lw, ml), ir_i32(m, 0), s->loc);
        lw_close(lw, s3);
        lw_close(lw, s2);
        lanes_end(lw, &ll);
    }
    lw->loop_base = saved_base;
    pop_mask(lw);
    lw_indices_end(lw, &once);
    lw_close(lw, saved);
}

/* A node as a value in lane code: ME, YOU (a node's MERGE) or ME.g[i]
 * name a lane record. */
static bool node_lane_record(const Expr *e)
{
    return e->kind == EXPR_ME || e->kind == EXPR_YOU ||
           (e->kind == EXPR_SUBSCRIPT && e->u.subscript.obj->kind == EXPR_SELECT &&
            e->u.subscript.obj->sym && type_is_node_collection(e->u.subscript.obj->sym->type));
}

/* ME.g[i] := node value: lane by lane through a plain record, since the
 * target is a lane record and the value a plain one (a constructor) or
 * another lane record. */
static void lane_node_assign(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *t = s->u.assign.target, *v = s->u.assign.value;
    const Type *nt = t->type;
    hoist_in(lw, t);
    hoist_in(lw, v);
    LaneLoop ll = lanes_begin(lw, false, s->loc);
    IrStmt *saved = open_if(lw, at(lw, cur_mask(lw)), s->loc);
    IrVar *r = lw_decl_uninit(lw, "r", lw_vt(lw, nt), s->loc);
    if (node_lane_record(v))
        lw_eval(lw, ir_call(m, lw_type_fn(lw, nt, IRFN_LANE_GET),
                            IR_ARGS(ir_addr(m, ir_ref(m, r)), ir_addr(m, lw_lvalue(lw, v)), ir_null(m), lane(lw))),
                s->loc);
    else
        lw_assign(lw, ir_ref(m, r), lw_expr_as(lw, v, nt), s->loc);
    lw_eval(lw, ir_call(m, lw_type_fn(lw, nt, IRFN_LANE_PUT),
                        IR_ARGS(ir_addr(m, lw_lvalue(lw, t)), ir_null(m), lane(lw), ir_addr(m, ir_ref(m, r)))),
            s->loc);
    lw_close(lw, saved);
    lanes_end(lw, &ll);
}

static void lane_assign(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *t = s->u.assign.target, *v = s->u.assign.value;
    IrVar *mk = cur_mask(lw);
    if (t->type && t->type->kind == TY_NODE && s->u.assign.op == ASSIGN_SET) {
        lane_node_assign(lw, s);
        return;
    }
    hoist_in(lw, t);
    hoist_in(lw, v);
    bool pure = lane_pure(lw, t) && lane_pure(lw, v) && !lw_lane_hoisted_name(lw, v);
    bool integral = type_is_integral(t->type);
    if (s->u.assign.op != ASSIGN_SET && integral &&
        (s->u.assign.op == ASSIGN_DIV || s->u.assign.op == ASSIGN_MOD || lw->opts.check_overflow))
        pure = false;
    const IrType *T = lw_vt(lw, t->type);
    if (pure) { /* both values loaded unconditionally: a select, which vectorizes */
        LaneLoop ll = lanes_begin(lw, true, s->loc);
        ll.loop->origin = s;
        ll.loop->tag = IRTAG_LANE_ASSIGN;
        ll.loop->aux[0] = mk;
        IrExpr *lv = lw_lvalue(lw, t);
        IrExpr *nv = s->u.assign.op == ASSIGN_SET ? lw_expr_as(lw, v, t->type)
                                                  : lw_compound_rhs(lw, s, lw_lvalue(lw, t));
        IrVar *n = lw_decl(lw, "n", T, nv, s->loc);
        n->is_const = true;
        IrVar *o = lw_decl(lw, "o", T, lw_lvalue(lw, t), s->loc);
        o->is_const = true;
        IrStmt *as = lw_add(lw, IRS_ASSIGN, s->loc);
        as->a = lv;
        as->b = ir_cond(m, T, at(lw, mk), ir_ref(m, n), ir_ref(m, o));
        as->origin = s;
        lanes_end(lw, &ll);
        return;
    }
    LaneLoop ll = lanes_begin(lw, true, s->loc);
    ll.loop->origin = s;
    ll.loop->tag = IRTAG_LANE_ASSIGN;
    ll.loop->aux[0] = mk;
    IrStmt *saved = open_if(lw, at(lw, mk), s->loc);
    IrExpr *lv = lw_lvalue(lw, t), *nv;
    if (s->u.assign.op == ASSIGN_SET) {
        nv = lw_expr_as(lw, v, t->type);
    } else { /* the address once: its subscripts may call or fail */
        IrVar *p = lw_decl(lw, "p", ir_t_ptr(m, T, false), ir_addr(m, lv), s->loc);
        lv = ir_deref(m, ir_ref(m, p));
        nv = lw_compound_rhs(lw, s, ir_deref(m, ir_ref(m, p)));
    }
    IrStmt *as = lw_add(lw, IRS_ASSIGN, s->loc);
    as->a = lv;
    as->b = nv;
    as->origin = s;
    lw_close(lw, saved);
    lanes_end(lw, &ll);
}

static void frozen_error(Lw *lw, Stmt *s, const char *what)
{
    IrModule *m = M(lw);
    IrStmt *saved = open_if(lw, any(lw, cur_mask(lw)), s->loc);
    lw_eval(lw, ir_helper(m, IRH_ERROR, ir_t(m, IRT_VOID),
                          IR_ARGS(lw_pos(lw, s->loc),
                                  lw_cstr(lw, arena_printf(lw->arena, "%s while the network %%s is replicated", what)),
                                  ir_netinfo(m, IRN_NAME, ir_ref(m, lw->fn->net_v), NULL, NULL))),
            s->loc);
    lw_close(lw, saved);
}

typedef struct RetFill {
    Expr *value;
} RetFill;

static void fill_return(Lw *lw, void *data)
{
    RetFill *rf = data;
    IrModule *m = M(lw);
    lw_assign(lw, ir_index(m, ir_ref(m, lw->fn->ret_v), lane(lw)),
              lw_expr_as(lw, rf->value, lw->fn->subr->sub->result), rf->value->loc);
}

/* RETURN v of a lane function with a lane-pure v: ret[l] := M[l] ? v : ret[l]
 * in every lane, as lane_assign does for a pure assignment. */
static void lane_pure_return(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    IrVar *mk = cur_mask(lw);
    const Type *R = lw->fn->subr->sub->result;
    const IrType *T = lw_vt(lw, R);
    LaneLoop ll = lanes_begin(lw, true, s->loc);
    IrExpr *slot = ir_index(m, ir_ref(m, lw->fn->ret_v), lane(lw));
    IrVar *n = lw_decl(lw, "n", T, lw_expr_as(lw, s->u.ret.value, R), s->loc);
    n->is_const = true;
    IrVar *o = lw_decl(lw, "o", T, slot, s->loc);
    o->is_const = true;
    IrStmt *as = lw_add(lw, IRS_ASSIGN, s->loc);
    as->a = ir_index(m, ir_ref(m, lw->fn->ret_v), lane(lw));
    as->b = ir_cond(m, T, at(lw, mk), ir_ref(m, n), ir_ref(m, o));
    lanes_end(lw, &ll);
}

static void lane_global_call(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *call = s->u.call.call;
    hoist_args(lw, &call->u.call.args);
    LaneLoop ll = lanes_begin(lw, false, s->loc);
    IrStmt *saved = open_if(lw, at(lw, cur_mask(lw)), s->loc);
    lw_global_call_stmt(lw, call->sym, &call->u.call.args, s->loc);
    lw_close(lw, saved);
    lanes_end(lw, &ll);
    (void)m;
}

/* The value of CONST parameter p that all calls of this lane version pass
 * as the same constant (lower_known_arg). */
static bool lane_param_value(const void *vlw, const Symbol *p, int64_t *v)
{
    const Lw *lw = vlw;
    return p->subr == lw->fn->subr && p->access == ACCESS_CONST &&
           lower_known_arg(lw->plan, lw->fn->subr, lw->fn->net, lw->fn->group, p->index, v);
}

/* A condition every call of this lane version decides (lower_decide_cond,
 * which the transport analysis uses too).  1 true, 0 false, -1 not known. */
static int known_cond(Lw *lw, const Expr *cond)
{
    return lower_decide_cond(cond, lane_param_value, lw);
}

/* The arm of IF s that runs in every call of this node procedure's lane
 * version (NULL: none, no ELSE); *known false where that cannot be told
 * (also for every IF with -fno-const-branch and without the analysis). */
static Block *known_arm(Lw *lw, Stmt *s, bool *known)
{
    const LwFn *fn = lw->fn;
    *known = false;
    if (!lw->plan->planned || !lw->plan->opts.const_branch)
        return NULL;
    if (!fn->lane || fn->merge_inst || !fn->net || fn->group < 0 || !fn->subr ||
        !fn->subr->owner || fn->subr->owner->kind != TY_NODE)
        return NULL;
    for (int i = 0; i < s->u.if_.arms.len; i++) {
        IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
        int k = known_cond(lw, arm->cond);
        if (k < 0)
            return NULL;
        if (k == 1) {
            *known = true;
            return arm->body;
        }
    }
    *known = true;
    return s->u.if_.else_body;
}

/* For --dump-passes: which arm of IF s this lane version keeps. */
static void note_const_branch(Lw *lw, const Stmt *s, const Block *taken)
{
    IrFunc *f = lw->fn->f;
    int arm = -1;
    for (int i = 0; i < s->u.if_.arms.len; i++)
        if (VEC_AT(s->u.if_.arms, i, IfArm)->body == taken)
            arm = i;
    const char *what = arm == 0 ? "keeps only its THEN" : arm > 0 ? "keeps only its ELSIF"
                     : taken ? "keeps only its ELSE" : "runs none of its arms";
    PtrVec *v = ptrmap_get(&lw->const_branches, f, NULL, 0);
    if (!v) {
        v = arena_alloc(lw->m->perm, sizeof *v);
        *v = (PtrVec){0};
        ptrmap_put(lw->m->perm, &lw->const_branches, f, NULL, 0, v);
    }
    vec_push(lw->m->perm, v, arena_printf(lw->m->perm, "%s: the IF of line %d %s", f->name,
                                           s->loc.line, what));
}

const char *const *lower_const_branches(Lw *lw, const IrFunc *f)
{
    PtrVec *v = ptrmap_get(&lw->const_branches, f, NULL, 0);
    if (!v || !v->len)
        return NULL;
    vec_push(lw->m->perm, v, NULL);
    v->len--; /* NULL-terminated, not counted */
    return (const char *const *)v->items;
}

static void lane_stmt(Lw *lw, Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN:
        lane_assign(lw, s);
        break;
    case STMT_CALL:
        lane_global_call(lw, s);
        break;
    case STMT_OBJCALL:
        lane_objcall(lw, s->u.call.call);
        break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            lane_objcall(lw, VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_REDUCTION:
        hoist_in(lw, s->u.reduction.pvs); /* object functions in a slice's bounds: lane calls */
        lane_combine(lw, s, false); /* hoists the target's calls for the lanes with a result */
        break;
    case STMT_WTA:
        hoist_in(lw, s->u.wta.pv);
        lane_combine(lw, s, true); /* hoists the arguments' calls for the winners */
        break;
    case STMT_RETURN:
        if (s->u.ret.value && lw->fn->subr->sub->result) {
            hoist_in(lw, s->u.ret.value);
            if (lane_pure(lw, s->u.ret.value) && !lw_lane_hoisted_name(lw, s->u.ret.value) &&
                lw->fn->subr->owner && lw->fn->subr->owner->kind != TY_NETWORK) {
                /* the value in every lane, kept by a select (vectorizes),
                   then the lanes leave; a node or connection function's
                   result array is its caller's zero-filled temporary
                   (hoist_call), a network function's may be uninitialized */
                lane_pure_return(lw, s);
                clear_lanes(lw, 0, NULL, NULL, s->loc);
                break;
            }
            RetFill rf = {s->u.ret.value};
            clear_lanes(lw, 0, fill_return, &rf, s->loc);
        } else {
            clear_lanes(lw, 0, NULL, NULL, s->loc);
        }
        break;
    case STMT_BREAK:
        clear_lanes(lw, lw->loop_base, NULL, NULL, s->loc);
        break;
    case STMT_IF: {
        bool known;
        Block *taken = known_arm(lw, s, &known);
        if (known) {
            note_const_branch(lw, s, taken);
            /* every active lane takes the same arm: its statements, without
               masks; in place when it has no locals (so that a sum it starts
               with is the procedure's first statement, pass_dense.c) */
            if (taken && !taken->defs.len)
                for (int i = 0; i < taken->stmts.len && !lw->failed; i++)
                    lane_stmt(lw, VEC_AT(taken->stmts, i, Stmt));
            else if (taken)
                lane_block(lw, taken);
            break;
        }
        IrStmt *saved = lw_open(lw, s->loc);
        lane_if(lw, s);
        lw_close(lw, saved);
        break;
    }
    case STMT_LOOP:
        lane_loop(lw, s);
        break;
    case STMT_FOR:
        lane_for(lw, s);
        break;
    case STMT_REPLICATE: {
        int lvl = s->sem_flags & SEMF_LEVEL_MASK;
        frozen_error(lw, s, lvl == SEMF_LEVEL_NODE ? "node REPLICATE" : "connection REPLICATE");
        clear_lanes(lw, 0, NULL, NULL, s->loc); /* REPLICATE ME implies RETURN */
        break;
    }
    case STMT_EXTEND:
        frozen_error(lw, s, "EXTEND");
        break;
    case STMT_CONNECT:
        frozen_error(lw, s, "CONNECT");
        break;
    case STMT_DISCONNECT:
        frozen_error(lw, s, "DISCONNECT");
        break;
    default:
        lw_unsupported(lw, s->loc, "this statement in network code");
    }
}

static void lane_locals(Lw *lw, Block *b)
{
    IrModule *m = M(lw);
    IrVar *mk = cur_mask(lw);
    lw_declare_locals(lw, b);
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            InitId *id = VEC_AT(d->u.data.ids, j, InitId);
            Symbol *sym = id->sym;
            if (sym->access == ACCESS_IO)
                continue;
            IrVar *v = ptrmap_get(&lw->vars, sym, cur_fn(lw), 0);
            if (lw_type_has_init(lw, sym->type)) {
                LaneLoop ll = lanes_begin(lw, false, id->id.loc);
                IrStmt *saved = open_if(lw, at(lw, mk), id->id.loc);
                lw_default_init(lw, sym->type, at(lw, v), id->id.loc);
                lw_close(lw, saved);
                lanes_end(lw, &ll);
            }
            if (id->init) {
                hoist_in(lw, id->init);
                LaneLoop ll = lanes_begin(lw, true, id->id.loc);
                IrStmt *saved = open_if(lw, at(lw, mk), id->id.loc);
                lw_assign(lw, at(lw, v), lw_expr_as(lw, id->init, sym->type), id->id.loc);
                lw_close(lw, saved);
                lanes_end(lw, &ll);
            }
        }
    }
    (void)m;
}

static void lane_block(Lw *lw, Block *b)
{
    if (!b)
        return;
    IrStmt *saved = lw_open(lw, b->loc);
    lane_locals(lw, b);
    for (int i = 0; i < b->stmts.len && !lw->failed; i++)
        lane_stmt(lw, VEC_AT(b->stmts, i, Stmt));
    lw_close(lw, saved);
}

/* Whether a body can clear lanes of its own mask (RETURN, REPLICATE ME):
 * only then does it need a writable copy of the caller's mask. */
static bool block_clears_mask(const Block *b);

static bool stmt_clears_mask(const Stmt *s)
{
    switch (s->kind) {
    case STMT_RETURN:
    case STMT_REPLICATE:
        return true;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++)
            if (block_clears_mask(VEC_AT(s->u.if_.arms, i, IfArm)->body))
                return true;
        return s->u.if_.else_body && block_clears_mask(s->u.if_.else_body);
    case STMT_LOOP:
        return block_clears_mask(s->u.loop.body);
    case STMT_FOR:
        return block_clears_mask(s->u.for_.body);
    default:
        return false;
    }
}

static bool block_clears_mask(const Block *b)
{
    if (!b)
        return false;
    for (int i = 0; i < b->stmts.len; i++)
        if (stmt_clears_mask(VEC_AT(b->stmts, i, Stmt)))
            return true;
    return false;
}

void lw_lane_body(Lw *lw, IrFunc *f)
{
    IrModule *m = M(lw);
    const Symbol *s = f->subr;
    LwFn fn = {.subr = s, .ctx = s->sub->context, .net = (LowerNet *)f->net, .group = f->group,
               .bundle = -1, .me_type = s->owner, .lane = true, .f = f};
    if (s->owner->kind == TY_NETWORK)
        fn.net = lower_net_of(lw->plan, s->owner);
    if (s->owner->kind == TY_CONNECTION) { /* one instance per bundle */
        fn.bundle = f->group;
        fn.group = -1;
    }
    fn.net_v = ir_param_named(f, "net");
    fn.rep_v = ir_param_named(f, "blk");
    fn.idx_v = ir_param_named(f, "idx");
    fn.k_v = ir_param_named(f, "k");
    fn.ret_v = ir_param_named(f, "ret");
    fn.m0_v = ir_param_named(f, "M0");
    lw->fn = &fn;
    lw->nmasks = 0;
    lw->loop_base = 0;
    lw->lane = NULL;
    lw->hoist_exprs.len = 0;
    lw->hoist_vars.len = 0;
    f->body = ir_block(m, s->loc);
    lw->blk = f->body;
    IrLayout *ll = lw_lanes_layout(lw, s->owner);
    if (s->owner->kind == TY_NETWORK) {
        fn.me_v = lw_decl(lw, "me", ir_t_ptr(m, ir_t_record(m, ll), false),
                          ir_netrec(m, ir_ref(m, fn.net_v), ir_ref(m, fn.rep_v), ll), s->loc);
        fn.me_v->name = "me";
    } else if (s->owner->kind == TY_NODE) {
        fn.me_v = lw_decl(lw, "me", ir_t_ptr(m, ir_t_record(m, ll), false),
                          ir_addr(m, ir_index(m, ir_nodes(m, ir_ref(m, fn.net_v), ir_ref(m, fn.rep_v),
                                                          f->group, ll),
                                              ir_ref(m, fn.idx_v))),
                          s->loc);
        fn.me_v->name = "me";
    } else {
        fn.me_v = ir_param_named(f, "me");
        fn.ms_v = ir_param_named(f, "ms");
        fn.me_v->twin = fn.ms_v;
    }
    /* no active lane: nothing to do (this also ends a recursion whose
       lanes have all returned) */
    IrStmt *none = lw_add(lw, IRS_IF, s->loc);
    none->a = ir_unary(m, IROP_NOT, ir_t(m, IRT_BOOL),
                       ir_helper(m, IRH_ANY, ir_t(m, IRT_BOOL), IR_ARGS(ir_ref(m, fn.m0_v))));
    none->then = ir_block(m, s->loc);
    ir_append(m, none->then, ir_s(m, IRS_RETURN, s->loc));
    f->self = fn.me_v;
    IrVar *mf;
    if (block_clears_mask(s->decl->u.subr.body)) {
        mf = copy_mask(lw, fn.m0_v, s->loc);
    } else {
        mf = lw_decl(lw, "Mf", ir_t_ptr(m, ir_t(m, IRT_I32), true), ir_ref(m, fn.m0_v), s->loc);
        mf->is_const = true;
    }
    push_mask(lw, mf);
    lw_stack_check(lw, s);
    lane_block(lw, s->decl->u.subr.body);
    lw->fn = NULL;
}

/* ---- MERGE on lane records ------------------------------------------------------------------ */

void lw_lane_merge_body(Lw *lw, IrFunc *f)
{
    IrModule *m = M(lw);
    const Symbol *s = f->subr;
    const Type *t = s->owner;
    f->body = ir_block(m, s->loc);
    lw->blk = f->body;
    IrVar *me_ = ir_param_named(f, "me_"), *you_ = ir_param_named(f, "you_"), *sh_ = ir_param_named(f, "sh_");
    LwFn fn = {.subr = s, .ctx = CTX_MERGE, .bundle = -1, .group = -1, .me_type = t, .lane = true, .f = f};
    lw->fn = &fn;
    /* n consecutive records (rt_lane_merge_fn): one call per run of
       records, so that the loop over them is vectorised code, not a call
       per record */
    IrStmt *loop = lw_add(lw, IRS_FOR, s->loc);
    loop->for_kind = IRFOR_RANGE;
    loop->var = ir_var(m, "i", ir_t(m, IRT_I32), IRV_LOCAL);
    loop->lo = ir_i32(m, 0);
    loop->hi = ir_binary(m, IROP_SUB, ir_t(m, IRT_I32), ir_ref(m, ir_param_named(f, "n")), ir_i32(m, 1));
    loop->then = ir_block(m, s->loc);
    lw->blk = loop->then;
    IrLayout *ll = lw_lanes_layout(lw, t);
    const IrType *V = ir_t_record(m, ll);
    fn.me_v = lw_decl(lw, "me", ir_t_ptr(m, V, false),
                      ir_addr(m, ir_index(m, ir_cast(m, ir_t_ptr(m, V, false), ir_ref(m, me_)),
                                          ir_ref(m, loop->var))),
                      s->loc);
    fn.me_v->name = "me";
    fn.you_v = lw_decl(lw, "you", ir_t_ptr(m, V, true),
                       ir_addr(m, ir_index(m, ir_cast(m, ir_t_ptr(m, V, true), ir_ref(m, you_)),
                                           ir_ref(m, loop->var))),
                       s->loc);
    fn.you_v->name = "you";
    IrExpr *shared = ir_ref(m, sh_); /* only connection types have shared records */
    if (t->kind == TY_CONNECTION) { /* the shared elements, equal in ME and YOU */
        const IrType *S = ir_t_record(m, lw_shared_layout(lw, t));
        IrExpr *at = ir_addr(m, ir_index(m, ir_cast(m, ir_t_ptr(m, S, true), ir_ref(m, sh_)),
                                         ir_ref(m, loop->var)));
        fn.ms_v = lw_decl(lw, "ms", ir_t_ptr(m, S, true),
                          ir_cond(m, ir_t_ptr(m, S, true), ir_ref(m, sh_), at,
                                  ir_cast(m, ir_t_ptr(m, S, true), ir_null(m))),
                          s->loc);
        fn.ms_v->name = "ms";
        shared = ir_ref(m, fn.ms_v);
    }
    if (lw_merge_has_calls(lw, t)) {
        /* it calls object subroutines (lw_merge.c): lane by lane through
           plain records and the plain MERGE */
        const IrType *vp = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false);
        const IrType *cvp = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true);
        LaneLoop lp = lanes_begin(lw, false, s->loc);
        IrVar *a = lw_decl_uninit(lw, "a", lw_vt(lw, t), s->loc);
        IrVar *b = lw_decl_uninit(lw, "b", lw_vt(lw, t), s->loc);
        IrFunc *get = lw_type_fn(lw, t, IRFN_LANE_GET), *put = lw_type_fn(lw, t, IRFN_LANE_PUT);
        lw_eval(lw, ir_call(m, get, IR_ARGS(ir_addr(m, ir_ref(m, a)), ir_cast(m, cvp, ir_ref(m, fn.me_v)),
                                            ir_cast(m, cvp, shared), lane(lw))), s->loc);
        lw_eval(lw, ir_call(m, get, IR_ARGS(ir_addr(m, ir_ref(m, b)), ir_cast(m, cvp, ir_ref(m, fn.you_v)),
                                            ir_cast(m, cvp, ir_clone(m, shared)), lane(lw))), s->loc);
        lw_eval(lw, ir_call(m, lw_subr_fn(lw, s), IR_ARGS(ir_addr(m, ir_ref(m, a)), ir_addr(m, ir_ref(m, b)))), s->loc);
        lw_eval(lw, ir_call(m, put, IR_ARGS(ir_cast(m, vp, ir_ref(m, fn.me_v)), ir_cast(m, vp, ir_clone(m, shared)),
                                            lane(lw), ir_addr(m, ir_ref(m, a)))), s->loc);
        lanes_end(lw, &lp);
        lw->fn = NULL;
        return;
    }
    if (fn.ms_v) {
        fn.me_v->twin = fn.ms_v;
        fn.you_v->twin = fn.ms_v;
    }
    lw->nmasks = 0;
    lw->lane = NULL;
    lw->hoist_exprs.len = 0;
    lw->hoist_vars.len = 0;
    IrVar *mf = lw_decl_uninit(lw, "Mf", mask_t(lw), s->loc);
    mf->name = "Mf";
    LaneLoop l0 = lanes_begin(lw, false, s->loc);
    lw_assign(lw, at(lw, mf), ir_i32(m, 1), s->loc);
    lanes_end(lw, &l0);
    push_mask(lw, mf);
    lane_block(lw, s->decl->u.subr.body);
    lw->fn = NULL;
}

/* The fold of one lane record's lanes into lane 0 (rt_lane_fold_fn): four
 * rounds of the lane-wise MERGE, round w on a copy whose every lane holds
 * the operands of its group of 2w lanes (ME: lane a, YOU: lane a + w), so
 * that each lane computes what lane a does and no lane merges values the
 * plain tree would not.  The order is the plain replicates' tree. */
void lw_lane_fold_body(Lw *lw, IrFunc *f)
{
    IrModule *m = M(lw);
    const Type *t = f->type;
    IrLayout *ll = lw_lanes_layout(lw, t);
    f->body = ir_block(m, f->loc);
    lw->blk = f->body;
    LwFn fn = {.f = f, .group = -1, .bundle = -1};
    lw->fn = &fn;
    IrVar *me_ = ir_param_named(f, "me_"), *sh_ = ir_param_named(f, "sh_");
    const IrType *V = ir_t_record(m, ll);
    IrVar *mv = lw_decl_uninit(lw, "m", V, f->loc);
    mv->name = "m";
    IrVar *yv = lw_decl_uninit(lw, "you", V, f->loc);
    yv->name = "you";
    lw_eval(lw, ir_helper(m, IRH_MEMCPY, ir_t(m, IRT_VOID),
                          IR_ARGS(ir_addr(m, ir_ref(m, mv)), ir_ref(m, me_), ir_sizeof(m, V))), f->loc);
    /* bytes no element covers: defined */
    lw_eval(lw, ir_helper(m, IRH_MEMCPY, ir_t(m, IRT_VOID),
                          IR_ARGS(ir_addr(m, ir_ref(m, yv)), ir_ref(m, me_), ir_sizeof(m, V))), f->loc);
    for (int w = 1; w < 16; w *= 2) {
        IrStmt *saved = lw_open(lw, f->loc);
        for (int i = 0; i < ll->fields.len; i++) {
            IrField *fl = VEC_AT(ll->fields, i, IrField);
            if (!fl->lanes || fl->dropped || fl->slot_proc)
                continue;
            IrStmt *sh = lw_add(lw, IRS_SHUFFLE, f->loc);
            sh->a = ir_ref(m, mv);
            sh->b = ir_ref(m, yv);
            sh->field = fl;
            sh->w = w;
        }
        lw_eval(lw, ir_call(m, lw_type_fn(lw, t, IRFN_LANE_MERGE),
                            IR_ARGS(ir_addr(m, ir_ref(m, mv)), ir_addr(m, ir_ref(m, yv)), ir_ref(m, sh_),
                                    ir_i32(m, 1))),
                f->loc);
        lw_close(lw, saved);
    }
    lw_eval(lw, ir_helper(m, IRH_MEMCPY, ir_t(m, IRT_VOID),
                          IR_ARGS(ir_ref(m, me_), ir_addr(m, ir_ref(m, mv)), ir_sizeof(m, V))), f->loc);
    lw->fn = NULL;
}

/* ---- recomputed connection values (the fuse pass) --------------------------------------- */

IrExpr *lower_lazy_value(Lw *lw, IrFunc *f, const LazyWriter *w, int b, IrExpr *k, IrExpr *conn,
                         IrVar *lane_var)
{
    IrModule *m = M(lw);
    const LowerNet *net = f->net;
    const LowerBundle *bu = &net->bundles[b];
    int g = w->from_src ? bu->src_group : bu->dst_group;
    const Type *node = type_node_of(VEC_AT(net->groups, g, Symbol)->type);
    LwFn fn = {.subr = w->proc, .ctx = w->proc->sub->context, .net = (LowerNet *)net,
               .group = -1, .bundle = b, .me_type = w->proc->owner, .lane = true, .f = f};
    fn.net_v = ir_param_named(f, "net");
    fn.rep_v = ir_param_named(f, "blk");
    LwFn *saved_fn = lw->fn;
    IrVar *saved_lane = lw->lane;
    lw->fn = &fn;
    lw->lane = lane_var;
    IrExpr *net_e = ir_ref(m, fn.net_v), *blk = ir_ref(m, fn.rep_v);
    IrExpr *at_node = ir_netinfo(m, w->from_src ? IRN_SRC_NODE : IRN_DST_NODE, net_e, ir_i32(m, b), k);
    lw->lazy_proc = w->proc;
    lw->lazy_slot = w->slot;
    lw->lazy_node = ir_index(m, ir_nodes(m, net_e, blk, g, lw_lanes_layout(lw, node)), at_node);
    lw->lazy_me = conn;
    const Stmt *a = w->assign;
    IrExpr *v = lw_expr_as(lw, a->u.assign.value, a->u.assign.target->type);
    lw->lazy_proc = NULL;
    lw->lazy_node = NULL;
    lw->lazy_me = NULL;
    lw->fn = saved_fn;
    lw->lane = saved_lane;
    return v;
}

IrField *lower_slot_field(Lw *lw, const Type *node, int slot, const Symbol *proc,
                          const Symbol *param)
{
    return lw_slot_field(lw, node, slot, proc, param);
}

IrVar *const *lower_site_args(Lw *lw, const IrFunc *f, const Expr *call)
{
    return ptrmap_get(&lw->site_args, call, f, 0);
}
