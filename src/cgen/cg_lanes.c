/* cg_lanes.c -- lane code: network, node and connection subroutines that
 * run for RT_LANES replicates at once.
 *
 * While a network is replicated its data lives in lane records (every
 * element an array over RT_LANES replicates, cupit_rt.h).  Each object
 * subroutine of a network, node or connection type gets a lane version
 * that takes a lane mask; every statement becomes a loop over the lanes
 * (`for l ... if (M[l])`), which the C compiler vectorizes.  Control flow
 * that differs between replicates is turned into masks: IF narrows the
 * mask, loops run while any lane is active, BREAK and RETURN clear lanes.
 * Object function calls are hoisted out of expressions into lane-array
 * temporaries, since a lane function computes all lanes in one call.
 * Topology is frozen while replicated, so connection loops need no
 * deletion checks. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cg_internal.h"


/* The lanes loop header: `CP_SIMD for (int l = 0; l < RT_LANES; l++)`. */
#define LANES "for (int l = 0; l < RT_LANES; l++)"

/* ---- names and signatures ------------------------------------------------ */

bool cg_has_lane_version(const Symbol *s)
{
    return (s->kind == SYM_OBJPROC || s->kind == SYM_OBJFUNC) && s->owner &&
           cg_has_lanes(s->owner);
}

/* Node subroutines have one lane instance per (network type, group),
 * connection subroutines one per (network type, bundle): the lane plan
 * differs between bundles. */
const char *cg_lane_fn_name(Cg *cg, const Symbol *s, CgNet *net, int group)
{
    if (s->owner->kind == TY_NODE) {
        const Symbol *g = VEC_AT(net->groups, group, Symbol);
        return cg_fmt(cg, "cpNL_%s_%s_%s", net->type->name, g->name, s->name);
    }
    if (s->owner->kind == TY_CONNECTION)
        return cg_fmt(cg, "cpML_%s_b%d_%s_%s", net->type->name, group, s->owner->name, s->name);
    return cg_fmt(cg, "cpML_%s_%s", s->owner->name, s->name);
}

/* The lane instance of `callee` called on ME from the current lane code. */
static const char *callee_on_me(Cg *cg, const Symbol *callee)
{
    switch (callee->owner->kind) {
    case TY_NODE: return cg_lane_fn_name(cg, callee, cg->fn->net, cg->fn->group);
    case TY_CONNECTION: return cg_lane_fn_name(cg, callee, cg->fn->net, cg->fn->bundle);
    default: return cg_lane_fn_name(cg, callee, NULL, -1);
    }
}

static const char *lane_params(Cg *cg, const Symbol *s, const char *prefix)
{
    CgStr l = {0};
    cg_str_add(cg, &l, "%s", prefix);
    for (int i = 0; i < s->sub->params.len; i++) {
        Symbol *p = VEC_AT(s->sub->params, i, Symbol);
        const char *T = cg_ctype(cg, p->type), *n = cg_local(cg, p);
        const char *d = p->access == ACCESS_IO    ? cg_fmt(cg, "cp_io *%s", n)
                        : p->access == ACCESS_VAR ? cg_fmt(cg, "%s *const *%s", T, n)
                                                  : cg_fmt(cg, "const %s *%s", T, n);
        cg_str_add(cg, &l, ", %s", d);
    }
    return cg_str_get(&l);
}

const char *cg_lane_signature(Cg *cg, const Symbol *s, CgNet *net, int group)
{
    const char *ret = s->sub->result ? cg_fmt(cg, ", %s *ret", cg_ctype(cg, s->sub->result)) : "";
    const char *head;
    switch (s->owner->kind) {
    case TY_NETWORK:
        head = cg_fmt(cg, "rt_net *net, int32_t blk, const int32_t *M0%s", ret);
        break;
    case TY_NODE:
        head = cg_fmt(cg, "rt_net *net, int32_t blk, int32_t idx, const int32_t *M0%s", ret);
        break;
    default: {
        const char *c = s->kind == SYM_OBJFUNC ? "const " : "";
        const char *ms = cg_has_shared(cg, s->owner)
                             ? cg_fmt(cg, ", %s%s *ms", c, cg_shared_type(cg, s->owner)) : "";
        head = cg_fmt(cg, "rt_net *net, int32_t blk, int32_t k, %s%s *me%s, const int32_t *M0%s",
                   c, cg_lane_type(cg, s->owner), ms, ret);
        break;
    }
    }
    /* connection subroutines run once per connection: worth inlining */
    return cg_fmt(cg, "static CP_UNUSED %svoid %s(%s)",
               s->owner->kind != TY_NETWORK ? "inline " : "",
               cg_lane_fn_name(cg, s, net, group), lane_params(cg, s, head));
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

/* ---- masks -------------------------------------------------------------- */

/* The enclosing masks, innermost last; loop_base marks where the innermost
 * loop's mask sits (BREAK clears down to it). */
typedef struct MaskStack {
    const char *m[64];
    int n;
    int loop_base;
} MaskStack;

static MaskStack *masks(Cg *cg)
{
    return (MaskStack *)cg->lane_masks;
}

static const char *cur_mask(Cg *cg)
{
    return masks(cg)->m[masks(cg)->n - 1];
}

static void push_mask(Cg *cg, const char *m)
{
    MaskStack *ms = masks(cg);
    if (ms->n == 64) {
        cg_unsupported(cg, (Loc){0}, "control flow nested this deeply in network code");
        return;
    }
    ms->m[ms->n++] = m;
}

static void pop_mask(Cg *cg)
{
    masks(cg)->n--;
}

/* A fresh mask = the current one (declared in the current C block). */
static const char *copy_mask(Cg *cg, const char *from)
{
    const char *m = cg_fresh(cg, "M");
    emit(cg->out, "int32_t %s[RT_LANES];", m);
    emit(cg->out, "__builtin_memcpy(%s, %s, sizeof(int32_t) * RT_LANES);", m, from);
    return m;
}

/* Clears the lanes of the current mask in masks down to `base`. */
static void clear_lanes(Cg *cg, int base, const char *extra)
{
    MaskStack *ms = masks(cg);
    const char *cur = cur_mask(cg);
    const char *body = extra ? extra : "";
    for (int i = ms->n - 1; i >= base; i--)
        body = cg_fmt(cg, "%s %s[l] = 0;", body, ms->m[i]);
    emit(cg->out, LANES " if (%s[l]) {%s }", cur, body);
}

static bool lane_pure(Cg *cg, const Expr *e);

/* ---- hoisting object function calls ------------------------------------- */

static bool lane_function_call(const Expr *e)
{
    return e->kind == EXPR_OBJCALL && e->sym && e->sym->kind == SYM_OBJFUNC &&
           cg_has_lanes(e->sym->owner);
}

const char *cg_lane_hoisted(Cg *cg, const Expr *e)
{
    for (int i = 0; i < cg->hoist_exprs.len; i++)
        if (cg->hoist_exprs.items[i] == e)
            return cg_fmt(cg, "%s[l]", VEC_AT(cg->hoist_names, i, const char));
    return NULL;
}

static void hoist_in(Cg *cg, Expr *e);

static void hoist_args(Cg *cg, PtrVec *args)
{
    for (int i = 0; i < args->len; i++)
        hoist_in(cg, VEC_AT(*args, i, Expr));
}

/* Lane-array temporaries for the arguments of a lane call, evaluated in
 * the active lanes; returns ", a1, a2" for the call. */
static const char *lane_args(Cg *cg, Symbol *subr, PtrVec *args, const char *M)
{
    CgStr list = {0};
    for (int i = 0; i < args->len && i < subr->sub->params.len; i++) {
        Symbol *p = VEC_AT(subr->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        const char *t = cg_fresh(cg, "la");
        if (p->access == ACCESS_IO) {
            emit(cg->out, "cp_io *%s = &%s;", t, cg_lvalue(cg, a));
        } else if (p->access == ACCESS_VAR) {
            emit(cg->out, "%s *%s[RT_LANES] = {0};", cg_ctype(cg, p->type), t);
            emit(cg->out, LANES " if (%s[l]) %s[l] = &%s;", M, t, cg_lvalue(cg, a));
        } else if (lane_pure(cg, a)) {
            emit(cg->out, "%s %s[RT_LANES];", cg_ctype(cg, p->type), t);
            emit(cg->out, "CP_SIMD " LANES " %s[l] = %s;", t, cg_expr_as(cg, a, p->type));
        } else {
            emit(cg->out, "%s %s[RT_LANES] = {0};", cg_ctype(cg, p->type), t);
            emit(cg->out, LANES " if (%s[l]) %s[l] = %s;", M, t, cg_expr_as(cg, a, p->type));
        }
        emit(cg->out, "(void)%s;", t);
        cg_str_add(cg, &list, ", %s", t);
    }
    return cg_str_get(&list);
}

/* The receiver arguments of a lane call on ME (same object). */
static const char *me_receiver(Cg *cg, const Symbol *callee)
{
    switch (callee->owner->kind) {
    case TY_NETWORK: return "net, blk";
    case TY_NODE: return "net, blk, idx";
    default: return cg_has_shared(cg, callee->owner) ? "net, blk, k, me, ms" : "net, blk, k, me";
    }
}

static void hoist_call(Cg *cg, Expr *e)
{
    Symbol *f = e->sym;
    if (e->u.objcall.obj->kind != EXPR_ME || !cg->fn || (!cg->fn->net && f->owner->kind == TY_NODE)) {
        cg_unsupported(cg, e->loc, "this object function call in network code");
        return;
    }
    const char *t = cg_fresh(cg, "fr");
    const char *M = cur_mask(cg);
    emit(cg->out, "%s %s[RT_LANES] = {0};", cg_ctype(cg, f->sub->result), t);
    emit_open(cg->out, "%s", "");
    const char *a = lane_args(cg, f, &e->u.objcall.args, M);
    emit(cg->out, "%s(%s, %s, %s%s);", callee_on_me(cg, f), me_receiver(cg, f), M, t, a);
    emit_close(cg->out, "%s", "");
    vec_push(cg->arena, &cg->hoist_exprs, e);
    vec_push(cg->arena, &cg->hoist_names, (void *)t);
}

/* Emits the lane calls of every object function call inside e, innermost
 * first, so that cg_expr can read their results from temporaries. */
static void hoist_in(Cg *cg, Expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case EXPR_SELECT: hoist_in(cg, e->u.select.obj); break;
    case EXPR_SUBSCRIPT:
        hoist_in(cg, e->u.subscript.obj);
        hoist_in(cg, e->u.subscript.index);
        break;
    case EXPR_ALLSLICE: hoist_in(cg, e->u.allslice.obj); break;
    case EXPR_UNARY: hoist_in(cg, e->u.unary.operand); break;
    case EXPR_BINARY:
        hoist_in(cg, e->u.binary.lhs);
        hoist_in(cg, e->u.binary.rhs);
        break;
    case EXPR_TERNARY:
        hoist_in(cg, e->u.ternary.cond);
        hoist_in(cg, e->u.ternary.then_e);
        hoist_in(cg, e->u.ternary.else_e);
        break;
    case EXPR_CALL: hoist_args(cg, &e->u.call.args); break;
    case EXPR_CONVERT: hoist_args(cg, &e->u.convert.args); break;
    case EXPR_OBJCALL:
        hoist_in(cg, e->u.objcall.obj);
        hoist_args(cg, &e->u.objcall.args);
        if (lane_function_call(e) && !cg_lane_hoisted(cg, e))
            hoist_call(cg, e);
        break;
    default:
        break;
    }
}

/* Whether evaluating e in a lane that is not active is harmless: no calls,
 * no checks that could raise a run-time error, no random numbers.  Such
 * statements run in every lane and keep the inactive lanes' old values by
 * a select, which vectorizes; the others run under `if (M[l])`. */
static bool lane_pure(Cg *cg, const Expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING: case EXPR_NAME:
    case EXPR_ME: case EXPR_YOU: case EXPR_INDEX:
        return true;
    case EXPR_SELECT:
        return lane_pure(cg, e->u.select.obj);
    case EXPR_UNARY:
        return e->u.unary.op != OP_RANDOM && lane_pure(cg, e->u.unary.operand);
    case EXPR_BINARY: {
        Op op = e->u.binary.op;
        bool integral = e->type && type_is_integral(e->type);
        if (op == OP_POW || op == OP_LSHIFT || op == OP_RSHIFT ||
            ((op == OP_DIV || op == OP_MOD) && integral))
            return false;
        return lane_pure(cg, e->u.binary.lhs) && lane_pure(cg, e->u.binary.rhs);
    }
    case EXPR_TERNARY:
        return lane_pure(cg, e->u.ternary.cond) && lane_pure(cg, e->u.ternary.then_e) &&
               lane_pure(cg, e->u.ternary.else_e);
    case EXPR_CALL: /* the inline standard arithmetic is pure */
        if (!e->sym || !cg_is_builtin(cg, e->sym))
            return false;
        for (int i = 0; i < e->u.call.args.len; i++)
            if (!lane_pure(cg, VEC_AT(e->u.call.args, i, Expr)))
                return false;
        return true;
    case EXPR_CONVERT:
        if (sema_convert_kind(e) == CONV_NUMERIC && e->type->kind != TY_REAL)
            return false; /* Real -> integer checks the range */
        for (int i = 0; i < e->u.convert.args.len; i++)
            if (!lane_pure(cg, VEC_AT(e->u.convert.args, i, Expr)))
                return false;
        return true;
    default:
        return false;
    }
}

/* ---- statements ------------------------------------------------------------ */

static void lane_block(Cg *cg, Block *b);

/* Node index range of a slice: a loop over lo..hi (uniform: the whole
 * group, or the lanes' union) and, for a slice, per-lane bounds rlo/rhi.
 * Returns the per-node mask expression name to use inside the loop. */
typedef struct NodeRange {
    const char *lo, *hi;   /* C names of the loop bounds */
    const char *rlo, *rhi; /* per-lane bounds, NULL for an all-slice */
} NodeRange;

static NodeRange node_range(Cg *cg, Expr *range, int g, const char *M)
{
    NodeRange r = {cg_fresh(cg, "lo"), cg_fresh(cg, "hi"), NULL, NULL};
    emit(cg->out, "int32_t %s = 0, %s = net->count[%d] - 1;", r.lo, r.hi, g);
    if (range) {
        r.rlo = cg_fresh(cg, "rlo");
        r.rhi = cg_fresh(cg, "rhi");
        emit(cg->out, "int32_t %s[RT_LANES], %s[RT_LANES];", r.rlo, r.rhi);
        emit(cg->out, "int32_t ulo_ = INT32_MAX, uhi_ = INT32_MIN;");
        emit_open(cg->out, LANES);
        emit(cg->out, "%s[l] = 0; %s[l] = -1;", r.rlo, r.rhi);
        emit_open(cg->out, "if (%s[l])", M);
        emit(cg->out, "const cp_interval s_ = %s;",
             cg_expr_as(cg, range, cg->si->builtin[TY_INTERVAL]));
        emit(cg->out, "%s[l] = s_.min > %s ? s_.min : %s;", r.rlo, r.lo, r.lo);
        emit(cg->out, "%s[l] = s_.max < %s ? s_.max : %s;", r.rhi, r.hi, r.hi);
        emit(cg->out, "if (%s[l] <= %s[l]) { if (%s[l] < ulo_) ulo_ = %s[l]; if (%s[l] > uhi_) uhi_ = %s[l]; }",
             r.rlo, r.rhi, r.rlo, r.rlo, r.rhi, r.rhi);
        emit_close(cg->out, "%s", "");
        emit_close(cg->out, "%s", "");
        emit(cg->out, "%s = ulo_; %s = uhi_;", r.lo, r.hi);
    }
    return r;
}

/* Inside a node loop over i: the mask of lanes that select node i. */
static const char *node_mask(Cg *cg, const NodeRange *r, const char *M, const char *i)
{
    if (!r->rlo)
        return M;
    const char *m = cg_fresh(cg, "Mi");
    emit(cg->out, "int32_t %s[RT_LANES];", m);
    emit(cg->out, LANES " %s[l] = %s[l] && %s >= %s[l] && %s <= %s[l];", m, M, i, r->rlo, i,
         r->rhi);
    emit(cg->out, "if (!cp_any(%s)) continue;", m);
    return m;
}

static void lane_node_group_call(Cg *cg, Expr *call, Expr *range, int g)
{
    Symbol *proc = call->sym;
    const char *M = cur_mask(cg);
    emit_open(cg->out, "%s", "");
    const char *a = lane_args(cg, proc, &call->u.objcall.args, M);
    NodeRange r = node_range(cg, range, g, M);
    const char *i = cg_fresh(cg, "i");
    emit_open(cg->out, "for (int32_t %s = %s; %s <= %s; %s++)", i, r.lo, i, r.hi, i);
    const char *m = node_mask(cg, &r, M, i);
    emit(cg->out, "%s(net, blk, %s, %s%s);", cg_lane_fn_name(cg, proc, cg->fn->net, g), i, m, a);
    emit_close(cg->out, "%s", "");
    emit_close(cg->out, "%s", "");
}


bool cg_slot_param(const Symbol *p)
{
    return p->access == ACCESS_CONST && type_is_plain_data(p->type) &&
           p->type->kind != TY_RECORD && p->type->kind != TY_ARRAY;
}

const char *cg_slot_field(Cg *cg, int slot, const Symbol *param)
{
    return cg_fmt(cg, "z%d_%s", slot, cg_local(cg, param));
}

const char *cg_lazy_value(Cg *cg, const LazyWriter *w, int b, const char *k, const char *conn,
                          const char *conn_shared)
{
    const CgBundle *bu = &cg->fn->net->bundles[b];
    int g = w->from_src ? bu->src_group : bu->dst_group;
    const Type *node = type_node_of(VEC_AT(cg->fn->net->groups, g, Symbol)->type);
    const Symbol *saved_proc = cg->lazy_proc;
    const char *saved_node = cg->lazy_node, *saved_me = cg->lazy_me, *saved_ms = cg->lazy_ms;
    int saved_slot = cg->lazy_slot;
    cg->lazy_proc = w->proc;
    cg->lazy_node = cg_fmt(cg, "((%s *)net->blocks[blk].nodes[%d])[net->bundles[%d].%s[%s]]",
                           cg_lane_type(cg, node), g, b, w->from_src ? "src_node" : "dst_node", k);
    cg->lazy_slot = w->slot;
    cg->lazy_me = conn;
    cg->lazy_ms = conn_shared;
    const Stmt *a = w->assign;
    const char *v = cg_expr_as(cg, a->u.assign.value, a->u.assign.target->type);
    cg->lazy_proc = saved_proc;
    cg->lazy_node = saved_node;
    cg->lazy_slot = saved_slot;
    cg->lazy_me = saved_me;
    cg->lazy_ms = saved_ms;
    return cg_fmt(cg, "(%s)", v);
}

/* Whether procedure `proc` on bundle b does nothing in lane code: all it
 * does is assignments to elements of ME that the lane plan leaves out. */
static bool conn_call_vanishes(Cg *cg, const Symbol *proc, int b)
{
    if (proc->sub->external || !proc->decl)
        return false;
    Block *body = proc->decl->u.subr.body;
    if (!body || body->defs.len)
        return false;
    for (int i = 0; i < body->stmts.len; i++) {
        Stmt *st = VEC_AT(body->stmts, i, Stmt);
        Expr *t = st->kind == STMT_ASSIGN ? st->u.assign.target : NULL;
        if (!t || t->kind != EXPR_SELECT || t->u.select.obj->kind != EXPR_ME ||
            lower_write_stored(cg->plan, cg->fn->net, b, st))
            return false;
    }
    return true;
}

/* ME.i[].p (args): the arguments go to the call's slots when a lazy read
 * needs them, then p runs on every connection of the interface's bundles
 * (unless the lane plan leaves nothing of it). */
static void lane_iface_call(Cg *cg, Expr *call, const Symbol *ifc)
{
    Symbol *proc = call->sym;
    const char *M = cur_mask(cg);
    emit_open(cg->out, "%s", "");
    const char *a = lane_args(cg, proc, &call->u.objcall.args, M);
    int slot = lower_site_slot(cg->plan, call);
    if (slot >= 0) {
        const char *rest = a; /* ", la1, la2, ..." */
        for (int i = 0; i < proc->sub->params.len && *rest; i++) {
            const Symbol *p = VEC_AT(proc->sub->params, i, Symbol);
            rest += 2;
            const char *end = strstr(rest, ", ");
            size_t n = end ? (size_t)(end - rest) : strlen(rest);
            const char *t = arena_strndup(cg->arena, rest, n);
            rest += n;
            if (!cg_slot_param(p))
                continue;
            const char *z = cg_slot_field(cg, slot, p);
            emit(cg->out, "CP_SIMD " LANES " { const %s n_ = %s[l], o_ = me->%s[l]; me->%s[l] = %s[l] ? n_ : o_; }",
                 cg_ctype(cg, p->type), t, z, z, M);
        }
    }
    for (int b = 0; b < cg->fn->net->nbundles; b++) {
        if (conn_call_vanishes(cg, proc, b))
            continue;
        const char *k = cg_fresh(cg, "k");
        if (!cg_open_conn_loop(cg, b, ifc, k))
            continue;
        emit(cg->out, "%s(net, blk, %s, &C_[%s]%s, %s%s);", cg_lane_fn_name(cg, proc, cg->fn->net, b),
             k, k, cg_has_shared(cg, proc->owner) ? cg_fmt(cg, ", &CS_[%s]", k) : "", M, a);
        cg_close_conn_loop(cg);
    }
    emit_close(cg->out, "%s", "");
}

static void lane_objcall(Cg *cg, Expr *call)
{
    Symbol *proc = call->sym;
    Expr *obj = call->u.objcall.obj;
    const char *M = cur_mask(cg);
    hoist_in(cg, obj);
    hoist_args(cg, &call->u.objcall.args);
    if (proc->owner->kind == TY_RECORD) {
        emit(cg->out, LANES " if (%s[l]) %s(%s);", M, cg_subr_name(cg, proc),
             cg_args(cg, proc, &call->u.objcall.args, cg_fmt(cg, "&%s", cg_lvalue(cg, obj))));
        return;
    }
    if (call->call_kind == CALL_GROUP) {
        Expr *base, *range;
        cg_split_multi(obj, &base, &range);
        if (proc->owner->kind == TY_NODE)
            lane_node_group_call(cg, call, range, cg_group_index(cg->fn->net, base->sym));
        else
            lane_iface_call(cg, call, base->sym);
        return;
    }
    if (obj->kind == EXPR_ME) {
        emit_open(cg->out, "%s", "");
        const char *a = lane_args(cg, proc, &call->u.objcall.args, M);
        emit(cg->out, "%s(%s, %s%s);", callee_on_me(cg, proc), me_receiver(cg, proc), M, a);
        emit_close(cg->out, "%s", "");
        return;
    }
    if (proc->owner->kind == TY_NODE && obj->kind == EXPR_SUBSCRIPT &&
        obj->u.subscript.obj->kind == EXPR_SELECT) {
        /* ME.g[i].p (): each lane may pick another node */
        int g = cg_group_index(cg->fn->net, obj->u.subscript.obj->sym);
        emit_open(cg->out, "%s", "");
        const char *a = lane_args(cg, proc, &call->u.objcall.args, M);
        emit_open(cg->out, LANES);
        emit_open(cg->out, "if (%s[l])", M);
        emit(cg->out, "int32_t m1_[RT_LANES] = {0};");
        emit(cg->out, "m1_[l] = 1;");
        emit(cg->out, "%s(net, blk, cp_idx(%s, %s, net->count[%d], \"%s\"), m1_%s);",
             cg_lane_fn_name(cg, proc, cg->fn->net, g), cg_pos(cg, obj->loc),
             cg_expr(cg, obj->u.subscript.index), g, obj->u.subscript.obj->sym->name, a);
        emit_close(cg->out, "%s", "");
        emit_close(cg->out, "%s", "");
        emit_close(cg->out, "%s", "");
        return;
    }
    cg_unsupported(cg, call->loc, "this object procedure call in network code");
}

/* REDUCTION and WTA over a node group (NetP/F) or an interface (NodeP/F). */
/* A reduction function whose body is `RETURN ME + YOU` (or YOU + ME) on
 * Real or Int: summed in a vector register (0 is its identity). */
static bool is_sum_reduction(const Symbol *f)
{
    if (f->kind != SYM_REDUCTION || !f->decl || !f->decl->u.subr.body || !f->type ||
        (f->type->kind != TY_REAL && f->type->kind != TY_INT))
        return false;
    Block *b = f->decl->u.subr.body;
    if (b->defs.len != 0 || b->stmts.len != 1)
        return false;
    Stmt *st = VEC_AT(b->stmts, 0, Stmt);
    if (st->kind != STMT_RETURN || !st->u.ret.value)
        return false;
    Expr *e = st->u.ret.value;
    if (e->kind != EXPR_BINARY || e->u.binary.op != OP_ADD)
        return false;
    ExprKind l = e->u.binary.lhs->kind, r = e->u.binary.rhs->kind;
    return (l == EXPR_ME && r == EXPR_YOU) || (l == EXPR_YOU && r == EXPR_ME);
}

static void lane_combine(Cg *cg, Stmt *s, bool wta)
{
    Emitter *o = cg->out;
    const char *M = cur_mask(cg);
    Expr *pvs = wta ? s->u.wta.pv : s->u.reduction.pvs;
    Expr *pv = wta ? pvs : pvs->u.select.obj;
    Symbol *elem = wta ? s->target : pvs->sym;
    const char *T = cg_ctype(cg, elem->type), *field = cg_field(cg, elem);
    const char *fname = cg_subr_name(cg, s->callee);
    int level = s->sem_flags & SEMF_LEVEL_MASK;
    Expr *base, *range;
    cg_split_multi(pv, &base, &range);
    emit_open(o, "%s", "");
    const char *a = wta ? lane_args(cg, s->proc, &s->u.wta.args, M) : "";
    emit(o, "%s acc_[RT_LANES] = {0};", T);
    emit(o, "int32_t wi_[RT_LANES], wb_[RT_LANES];");
    emit(o, LANES " { wi_[l] = -1; wb_[l] = -1; }");
    emit(o, "(void)wb_; (void)acc_;");
    /* per element: V = value record pointer, W = its position.  Every lane
       sees the same connections (and, for an all-slice, the same nodes), so
       the first-element test is one scalar flag and the combining runs in
       every lane without a mask; only the final store is masked. */
    emit(o, "bool first_ = true;");
    emit(o, "(void)first_;");
    /* val_: the element's value in each lane (from the record, or
       recomputed by a lazy read) */
    const char *update_all = wta
        ? cg_fmt(cg, "if (first_) { CP_SIMD " LANES " { acc_[l] = val_[l]; wi_[l] = W_; wb_[l] = WB_; } first_ = false; } "
                  "else { CP_SIMD " LANES " if (%s(val_[l], acc_[l])) { acc_[l] = val_[l]; wi_[l] = W_; wb_[l] = WB_; } }",
              fname)
        : cg_fmt(cg, "if (first_) { CP_SIMD " LANES " acc_[l] = val_[l]; first_ = false; } "
                  "else { CP_SIMD " LANES " acc_[l] = %s(acc_[l], val_[l]); }",
              fname);
    bool vsum = !wta && is_sum_reduction(s->callee) && !range;
    if (vsum) {
        /* the sum in a vector register: no loop-carried store to memory */
        const char *VT = elem->type->kind == TY_REAL ? "cp_vreal" : "cp_vint";
        emit(o, "%s vacc_ = {0};", VT);
        if (elem->type->kind == TY_REAL) /* -0.0, the identity of IEEE addition:
                                            one element -0.0 sums to -0.0 */
            emit(o, "vacc_ = -vacc_;");
        update_all = cg_fmt(cg, "{ %s v_; __builtin_memcpy(&v_, val_, sizeof v_); vacc_ += v_; first_ = false; }",
                         VT);
    }
    const char *update = wta ? cg_fmt(cg, "if (wi_[l] < 0 || %s(val_[l], acc_[l])) { acc_[l] = val_[l]; wi_[l] = W_; wb_[l] = WB_; }",
                                   fname)
                             : cg_fmt(cg, "if (wi_[l] < 0) { acc_[l] = val_[l]; wi_[l] = 0; } else acc_[l] = %s(acc_[l], val_[l]);",
                                   fname);
    if (level == SEMF_LEVEL_NODE) {
        int g = cg_group_index(cg->fn->net, base->sym);
        Type *node = type_node_of(base->sym->type);
        NodeRange r = node_range(cg, range, g, M);
        emit(o, "const %s *N_ = net->blocks[blk].nodes[%d];", cg_lane_type(cg, node), g);
        const char *i = cg_fresh(cg, "i");
        emit_open(o, "for (int32_t %s = %s; %s <= %s; %s++)", i, r.lo, i, r.hi, i);
        emit(o, "const %s *V_ = &N_[%s];", cg_lane_type(cg, node), i);
        emit(o, "const %s *val_ = V_->%s;", T, field);
        emit(o, "const int32_t W_ = %s, WB_ = 0;", i);
        emit(o, "(void)W_; (void)WB_;");
        if (r.rlo)
            emit(o, "CP_SIMD " LANES " if (%s[l] && %s >= %s[l] && %s <= %s[l]) { %s }", M, i, r.rlo,
                 i, r.rhi, update);
        else
            emit(o, "%s", update_all);
        emit_close(o, "%s", "");
    } else {
        Symbol *ifc = base->sym;
        for (int b = 0; b < cg->fn->net->nbundles; b++) {
            const char *k = cg_fresh(cg, "k");
            if (!cg_open_conn_loop(cg, b, ifc, k))
                continue;
            Type *ct = cg->fn->net->bundles[b].conn;
            emit(o, "const %s *V_ = &C_[%s];", cg_lane_type(cg, ct), k);
            if (cg_has_shared(cg, ct))
                emit(o, "const %s *VS_ = &CS_[%s]; (void)VS_;", cg_shared_type(cg, ct), k);
            const LazyWriter *lw = lower_lazy_read(cg->plan, cg->fn->net, b, s);
            if (lw) {
                emit(o, "%s lz_[RT_LANES];", T);
                emit(o, "CP_SIMD " LANES " lz_[l] = %s;",
                     cg_lazy_value(cg, lw, b, k, "(*V_)", "(*VS_)"));
                emit(o, "const %s *val_ = lz_;", T);
                emit(o, "(void)V_;");
            } else if (lower_elem_shared(cg->plan, elem->owner, elem)) {
                emit(o, "%s sh_[RT_LANES];", T);
                emit(o, "CP_SIMD " LANES " sh_[l] = VS_->%s;", field);
                emit(o, "const %s *val_ = sh_;", T);
                emit(o, "(void)V_;");
            } else {
                emit(o, "const %s *val_ = V_->%s;", T, field);
            }
            emit(o, "const int32_t W_ = %s, WB_ = %d;", k, b);
            emit(o, "(void)W_; (void)WB_;");
            emit(o, "%s", update_all);
            cg_close_conn_loop(cg);
        }
    }
    if (vsum)
        emit(o, "__builtin_memcpy(acc_, &vacc_, sizeof acc_);");
    if (!wta) {
        emit(o, LANES " if (%s[l] && (!first_ || wi_[l] >= 0)) %s = acc_[l];", M,
             cg_lvalue(cg, s->u.reduction.into));
    } else {
        /* lanes that were not active take no part */
        emit(o, LANES " if (!%s[l]) wi_[l] = -1;", M);
        /* call the winner's procedure once per distinct winner */
        emit_open(o, "for (int w = 0; w < RT_LANES; w++)");
        emit(o, "if (wi_[w] < 0) continue;");
        emit(o, "int32_t mw_[RT_LANES];");
        emit(o, "const int32_t wiw_ = wi_[w], wbw_ = wb_[w];");
        emit(o, LANES " { mw_[l] = wi_[l] == wiw_ && wb_[l] == wbw_; if (mw_[l]) wi_[l] = -1; }");
        if (level == SEMF_LEVEL_NODE) {
            int g = cg_group_index(cg->fn->net, base->sym);
            emit(o, "%s(net, blk, wiw_, mw_%s);", cg_lane_fn_name(cg, s->proc, cg->fn->net, g), a);
        } else {
            emit(o, "void *const *cs_ = net->blocks[blk].conns;");
            emit(o, "(void)cs_;");
            emit_open(o, "switch (wbw_)");
            for (int b = 0; b < cg->fn->net->nbundles; b++) {
                CgBundle *bu = &cg->fn->net->bundles[b];
                if (!((bu->dst_group == cg->fn->group && bu->dst_iface == base->sym) ||
                      (bu->src_group == cg->fn->group && bu->src_iface == base->sym)))
                    continue;
                const char *sh = cg_has_shared(cg, s->proc->owner)
                    ? cg_fmt(cg, ", (%s *)net->blocks[blk].conns_shared[%d] + wiw_",
                             cg_shared_type(cg, s->proc->owner), b)
                    : "";
                emit(o, "case %d: %s(net, blk, wiw_, (%s *)cs_[%d] + wiw_%s, mw_%s); break;", b,
                     cg_lane_fn_name(cg, s->proc, cg->fn->net, b), cg_lane_type(cg, s->proc->owner),
                     b, sh, a);
            }
            emit(o, "default: break;");
            emit_close(o, "%s", "");
        }
        emit_close(o, "%s", "");
    }
    emit_close(o, "%s", "");
}

static void lane_stmt(Cg *cg, Stmt *s);

static void lane_if(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    const char *M = cur_mask(cg);
    const char *rest = copy_mask(cg, M); /* lanes no arm has taken yet */
    for (int i = 0; i < s->u.if_.arms.len; i++) {
        IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
        const char *mt = cg_fresh(cg, "Mt");
        push_mask(cg, rest);
        hoist_in(cg, arm->cond);
        pop_mask(cg);
        emit(o, "int32_t %s[RT_LANES];", mt);
        if (lane_pure(cg, arm->cond)) /* evaluated in every lane: vectorizes */
            emit(o, "CP_SIMD " LANES " { const int32_t c_ = (%s) != 0; %s[l] = %s[l] & c_; %s[l] ^= %s[l]; }",
                 cg_expr(cg, arm->cond), mt, rest, rest, mt);
        else
            emit(o, LANES " { %s[l] = %s[l] && (%s); if (%s[l]) %s[l] = 0; }", mt, rest,
                 cg_expr(cg, arm->cond), mt, rest);
        emit_open(o, "if (cp_any(%s))", mt);
        push_mask(cg, mt);
        lane_block(cg, arm->body);
        pop_mask(cg);
        emit_close(o, "%s", "");
    }
    if (s->u.if_.else_body) {
        emit_open(o, "if (cp_any(%s))", rest);
        push_mask(cg, rest);
        lane_block(cg, s->u.if_.else_body);
        pop_mask(cg);
        emit_close(o, "%s", "");
    }
}

/* Lanes of the loop mask that fail `cond` (or pass it, for UNTIL) leave. */
static void loop_test(Cg *cg, Expr *cond, const char *ml, bool leave_if_true)
{
    hoist_in(cg, cond);
    if (lane_pure(cg, cond))
        emit(cg->out, "CP_SIMD " LANES " { const int32_t c_ = %s(%s); %s[l] &= c_; }",
             leave_if_true ? "!" : "!!", cg_expr(cg, cond), ml);
    else
        emit(cg->out, LANES " if (%s[l] && %s(%s)) %s[l] = 0;", ml, leave_if_true ? "" : "!",
             cg_expr(cg, cond), ml);
}

static void lane_loop(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    emit_open(o, "%s", "");
    const char *ml = copy_mask(cg, cur_mask(cg));
    MaskStack *ms = masks(cg);
    int saved_base = ms->loop_base;
    emit_open(o, "for (;;)");
    push_mask(cg, ml);
    ms->loop_base = ms->n - 1;
    if (s->u.loop.while_cond)
        loop_test(cg, s->u.loop.while_cond, ml, false);
    emit(o, "if (!cp_any(%s)) break;", ml);
    lane_block(cg, s->u.loop.body);
    if (s->u.loop.until_cond)
        loop_test(cg, s->u.loop.until_cond, ml, true);
    emit(o, "if (!cp_any(%s)) break;", ml);
    ms->loop_base = saved_base;
    pop_mask(cg);
    emit_close(o, "%s", "");
    emit_close(o, "%s", "");
}

static void lane_for(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    Expr *var = s->u.for_.var;
    bool down = s->u.for_.dir == FOR_DOWNTO;
    const char *M = cur_mask(cg);
    emit_open(o, "%s", "");
    hoist_in(cg, s->u.for_.from);
    hoist_in(cg, s->u.for_.to);
    emit(o, "int64_t to_[RT_LANES] = {0};");
    emit(o, LANES " if (%s[l]) { %s = %s; to_[l] = %s; }", M, cg_lvalue(cg, var),
         cg_expr_as(cg, s->u.for_.from, var->type), cg_expr(cg, s->u.for_.to));
    const char *ml = copy_mask(cg, M);
    MaskStack *ms = masks(cg);
    int saved_base = ms->loop_base;
    emit_open(o, "for (;;)");
    push_mask(cg, ml);
    ms->loop_base = ms->n - 1;
    emit(o, LANES " if (%s[l] && !(%s %s to_[l])) %s[l] = 0;", ml, cg_lvalue(cg, var),
         down ? ">=" : "<=", ml);
    emit(o, "if (!cp_any(%s)) break;", ml);
    lane_block(cg, s->u.for_.body);
    if (s->u.for_.until_cond)
        loop_test(cg, s->u.for_.until_cond, ml, true);
    {   /* one past the bound after the last round (semantics 8.6) */
        const char *v = cg_lvalue(cg, var);
        emit(o, LANES " if (%s[l]) { const int stop_ = %s == to_[l]; %s = (__typeof__(%s))((uint64_t)(int64_t)%s %s 1u); if (stop_) %s[l] = 0; }",
             ml, v, v, v, v, down ? "-" : "+", ml);
    }
    ms->loop_base = saved_base;
    pop_mask(cg);
    emit_close(o, "%s", "");
    emit_close(o, "%s", "");
}

/* The element an lvalue rooted at ME changes, or NULL. */
static const Symbol *me_root_elem(const Expr *t)
{
    while (t->kind == EXPR_SUBSCRIPT || (t->kind == EXPR_SELECT && t->u.select.obj->kind != EXPR_ME))
        t = t->kind == EXPR_SUBSCRIPT ? t->u.subscript.obj : t->u.select.obj;
    return t->kind == EXPR_SELECT && t->sym && t->sym->kind == SYM_ELEM ? t->sym : NULL;
}

/* A node as a value in lane code: ME or ME.g[i] name a lane record. */
static bool node_lane_record(const Expr *e)
{
    return e->kind == EXPR_ME ||
           (e->kind == EXPR_SUBSCRIPT && e->u.subscript.obj->kind == EXPR_SELECT &&
            e->u.subscript.obj->sym && type_is_node_collection(e->u.subscript.obj->sym->type));
}

/* ME.g[i] := node value: lane by lane through a plain record, since the
 * target is a lane record and the value a plain one (a constructor) or
 * another lane record. */
static void lane_node_assign(Cg *cg, Stmt *s)
{
    Expr *t = s->u.assign.target, *v = s->u.assign.value;
    Type *nt = t->type;
    hoist_in(cg, t);
    hoist_in(cg, v);
    const char *T = cg_ctype(cg, nt);
    emit_open(cg->out, LANES " if (%s[l])", cur_mask(cg));
    emit(cg->out, "%s r_;", T);
    if (node_lane_record(v))
        emit(cg->out, "cpLaneGet_%s(&r_, &%s, NULL, l);", nt->name, cg_expr(cg, v));
    else
        emit(cg->out, "r_ = %s;", cg_expr_as(cg, v, nt));
    emit(cg->out, "cpLanePut_%s(&%s, NULL, l, &r_);", nt->name, cg_lvalue(cg, t));
    emit_close(cg->out, "%s", "");
}

static void lane_assign(Cg *cg, Stmt *s)
{
    Expr *t = s->u.assign.target, *v = s->u.assign.value;
    const char *M = cur_mask(cg);
    const Symbol *root = me_root_elem(t);
    if (t->type && t->type->kind == TY_NODE && s->u.assign.op == ASSIGN_SET) {
        lane_node_assign(cg, s);
        return;
    }
    if (root && root->owner && lower_elem_shared(cg->plan, root->owner, root)) {
        /* one value for all lanes: every active lane computes the same
           (lower/uniform.c), so the first one stores it */
        hoist_in(cg, t);
        hoist_in(cg, v);
        const char *lv = cg_lvalue(cg, t);
        const char *rhs = s->u.assign.op == ASSIGN_SET ? cg_expr_as(cg, v, t->type)
                                                       : cg_compound_rhs(cg, s, lv);
        emit(cg->out, "{ const int l = cp_first_lane(%s); if (l >= 0) %s = %s; }", M, lv, rhs);
        return;
    }
    if (cg->fn->bundle >= 0 && t->kind == EXPR_SELECT && t->u.select.obj->kind == EXPR_ME &&
        !lower_write_stored(cg->plan, cg->fn->net, cg->fn->bundle, s)) {
        emit(cg->out, "/* ME.%s: not stored, every read recomputes or ignores it */",
             t->sym->name);
        return;
    }
    hoist_in(cg, t);
    hoist_in(cg, v);
    bool pure = lane_pure(cg, t) && lane_pure(cg, v) && !(cg_lane_hoisted(cg, v));
    if (s->u.assign.op == ASSIGN_SET) {
        const char *lv = cg_lvalue(cg, t);
        if (pure) /* both values loaded unconditionally: a select, which vectorizes */
            emit(cg->out, "CP_SIMD " LANES " { const %s n_ = %s, o_ = %s; %s = %s[l] ? n_ : o_; }",
                 cg_ctype(cg, t->type), cg_expr_as(cg, v, t->type), lv, lv, M);
        else
            emit(cg->out, "CP_SIMD " LANES " if (%s[l]) %s = %s;", M, lv,
                 cg_expr_as(cg, v, t->type));
        return;
    }
    const char *lv = cg_lvalue(cg, t);
    bool integral = type_is_integral(t->type);
    const char *rhs = cg_compound_rhs(cg, s, lv);
    /* the target's address is plain indexing here: evaluating it twice is safe */
    if (pure && !(integral && (s->u.assign.op == ASSIGN_DIV || s->u.assign.op == ASSIGN_MOD)))
        emit(cg->out, "CP_SIMD " LANES " { const %s n_ = %s, o_ = %s; %s = %s[l] ? n_ : o_; }",
             cg_ctype(cg, t->type), rhs, lv, lv, M);
    else
        emit(cg->out, "CP_SIMD " LANES " if (%s[l]) %s = %s;", M, lv, rhs);
}

static void frozen_error(Cg *cg, Stmt *s, const char *what)
{
    emit(cg->out, "if (cp_any(%s)) rt_error(%s, \"%s while the network %%s is replicated\", net->desc->name);",
         cur_mask(cg), cg_pos(cg, s->loc), what);
}

static void lane_stmt(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    const char *M = cur_mask(cg);
    cg_line(cg, s->loc);
    switch (s->kind) {
    case STMT_ASSIGN:
        lane_assign(cg, s);
        break;
    case STMT_CALL:
        hoist_args(cg, &s->u.call.call->u.call.args);
        emit(o, LANES " if (%s[l]) %s;", M,
             cg_global_call(cg, s->u.call.call->sym, &s->u.call.call->u.call.args));
        break;
    case STMT_OBJCALL:
        lane_objcall(cg, s->u.call.call);
        break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            lane_objcall(cg, VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_REDUCTION:
        hoist_in(cg, s->u.reduction.into);
        lane_combine(cg, s, false);
        break;
    case STMT_WTA:
        hoist_args(cg, &s->u.wta.args); /* object functions in the arguments: lane calls */
        lane_combine(cg, s, true);
        break;
    case STMT_RETURN:
        if (s->u.ret.value && cg->fn->subr->sub->result) {
            hoist_in(cg, s->u.ret.value);
            clear_lanes(cg, 0, cg_fmt(cg, " ret[l] = %s;",
                                   cg_expr_as(cg, s->u.ret.value, cg->fn->subr->sub->result)));
        } else {
            clear_lanes(cg, 0, NULL);
        }
        break;
    case STMT_BREAK:
        clear_lanes(cg, masks(cg)->loop_base, NULL);
        break;
    case STMT_IF:
        emit_open(o, "%s", "");
        lane_if(cg, s);
        emit_close(o, "%s", "");
        break;
    case STMT_LOOP:
        lane_loop(cg, s);
        break;
    case STMT_FOR:
        lane_for(cg, s);
        break;
    case STMT_REPLICATE: {
        int lvl = s->sem_flags & SEMF_LEVEL_MASK;
        frozen_error(cg, s, lvl == SEMF_LEVEL_NODE ? "node REPLICATE" : "connection REPLICATE");
        clear_lanes(cg, 0, NULL); /* REPLICATE ME implies RETURN */
        break;
    }
    case STMT_EXTEND:
        frozen_error(cg, s, "EXTEND");
        break;
    case STMT_CONNECT:
        frozen_error(cg, s, "CONNECT");
        break;
    case STMT_DISCONNECT:
        frozen_error(cg, s, "DISCONNECT");
        break;
    default:
        cg_unsupported(cg, s->loc, "this statement in network code");
    }
}

static void lane_locals(Cg *cg, Block *b)
{
    Emitter *o = cg->out;
    const char *M = cur_mask(cg);
    cg_declare_locals(cg, b);
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            InitId *id = VEC_AT(d->u.data.ids, j, InitId);
            Symbol *sym = id->sym;
            if (sym->access == ACCESS_IO)
                continue;
            cg_line(cg, id->id.loc);
            if (cg_type_has_init(cg, sym->type)) {
                emit_open(o, LANES " if (%s[l])", M);
                cg_emit_default_init(cg, sym->type, cg_fmt(cg, "%s[l]", cg_local(cg, sym)));
                emit_close(o, "%s", "");
            }
            if (id->init) {
                hoist_in(cg, id->init);
                emit(o, "CP_SIMD " LANES " if (%s[l]) %s[l] = %s;", M, cg_local(cg, sym),
                     cg_expr_as(cg, id->init, sym->type));
            }
        }
    }
}

static void lane_block(Cg *cg, Block *b)
{
    if (!b)
        return;
    emit_open(cg->out, "%s", "");
    lane_locals(cg, b);
    for (int i = 0; i < b->stmts.len; i++)
        lane_stmt(cg, VEC_AT(b->stmts, i, Stmt));
    emit_close(cg->out, "%s", "");
}

/* ---- subroutines -------------------------------------------------------- */

/* The MERGE procedure of a node, connection or network type, lane by lane
 * on two lane records (rt_lane_merge_fn): every lane is active. */
const char *cg_lane_merge_name(Cg *cg, const Type *t)
{
    return cg_fmt(cg, "cpMergeL_%s", t->name);
}

const char *cg_lane_fold_name(Cg *cg, const Type *t)
{
    return cg_fmt(cg, "cpFoldL_%s", t->name);
}

/* Starts / ends emitting the lane code of one subroutine. */
static void lane_enter(Cg *cg, CgFn *fn, MaskStack *ms)
{
    *ms = (MaskStack){.n = 0, .loop_base = 0};
    cg->fn = fn;
    cg->lane = true;
    cg->lane_masks = ms;
    cg->hoist_exprs.len = 0;
    cg->hoist_names.len = 0;
    cg_line(cg, fn->subr->loc);
}

static void lane_leave(Cg *cg)
{
    emit_close(cg->out, "%s", "");
    cg_no_line(cg);
    emit(cg->out, "%s", "");
    cg->lane = false;
    cg->lane_masks = NULL;
    cg->fn = NULL;
}

/* The fold of one lane record's lanes into lane 0 (rt_lane_fold_fn): four
 * rounds of the lane-wise MERGE, round w on a copy whose every lane holds
 * the operands of its group of 2w lanes (ME: lane a, YOU: lane a + w), so
 * that each lane computes what lane a does and no lane merges values the
 * plain tree would not (no overflow or division the program does not do).
 * The order is the plain replicates' tree, as in merge_record. */
static void emit_lane_fold(Cg *cg, Type *t)
{
    Emitter *o = cg->out;
    const char *V = cg_lane_type(cg, t);
    emit_open(o, "static CP_UNUSED void %s(void *me_, const void *sh_)", cg_lane_fold_name(cg, t));
    emit(o, "_Static_assert(RT_LANES == 16, \"four rounds fold 16 lanes\");");
    /* on local copies, which the C compiler keeps in vector registers */
    emit(o, "%s m, you;", V);
    emit(o, "__builtin_memcpy(&m, me_, sizeof m);");
    emit(o, "__builtin_memcpy(&you, me_, sizeof you); /* bytes no element covers: defined */");
    for (int w = 1; w < 16; w *= 2) {
        emit_open(o, "%s", "");
        for (int i = 0; i < t->elems.len; i++) {
            Symbol *e = VEC_AT(t->elems, i, Symbol);
            if (!cg_lane_array_elem(cg, t, e))
                continue;
            const char *f = cg_field(cg, e), *T = cg_ctype(cg, e->type);
            const char *VT = e->type->kind == TY_REAL ? "cp_vreal"
                             : e->type->kind == TY_INT ? "cp_vint" : NULL;
            if (VT) { /* constant permutations of a vector (else gathers) */
                char ia[128] = "", iy[128] = "";
                for (int l = 0; l < 16; l++) {
                    size_t na = strlen(ia), ny = strlen(iy);
                    snprintf(ia + na, sizeof ia - na, ", %d", l & -(2 * w));
                    snprintf(iy + ny, sizeof iy - ny, ", %d", (l & -(2 * w)) + w);
                }
                emit_directive(o, "#ifdef CP_SHUFFLE");
                emit_open(o, "%s", "");
                emit(o, "%s v_;", VT);
                emit(o, "__builtin_memcpy(&v_, m.%s, sizeof v_);", f);
                emit(o, "const %s a_ = __builtin_shufflevector(v_, v_%s);", VT, ia);
                emit(o, "const %s y_ = __builtin_shufflevector(v_, v_%s);", VT, iy);
                emit(o, "__builtin_memcpy(m.%s, &a_, sizeof a_);", f);
                emit(o, "__builtin_memcpy(you.%s, &y_, sizeof y_);", f);
                emit_close(o, "%s", "");
                emit_directive(o, "#else");
            }
            emit(o, "%s a_%s[RT_LANES];", T, f);
            emit(o, LANES " { a_%s[l] = m.%s[l & -%d]; you.%s[l] = m.%s[(l & -%d) + %d]; }",
                 f, f, 2 * w, f, f, 2 * w, w);
            emit(o, LANES " m.%s[l] = a_%s[l];", f, f);
            if (VT)
                emit_directive(o, "#endif");
        }
        emit(o, "%s(&m, &you, sh_);", cg_lane_merge_name(cg, t));
        emit_close(o, "%s", "");
    }
    emit(o, "__builtin_memcpy(me_, &m, sizeof m);");
    emit_close(o, "%s", "");
    emit(o, "%s", "");
}

void cg_emit_lane_merge(Cg *cg, Symbol *s)
{
    Emitter *o = cg->out;
    if (cg_merge_has_calls(cg, s->owner)) {
        /* it calls object subroutines (cg_merge_calls.c): lane by lane
           through plain records and the plain MERGE */
        const char *T = cg_ctype(cg, s->owner), *n = s->owner->name;
        emit_open(o, "static CP_UNUSED void %s(void *me_, const void *you_, const void *sh_)",
                  cg_lane_merge_name(cg, s->owner));
        emit_open(o, LANES);
        emit(o, "%s a_, b_;", T);
        emit(o, "cpLaneGet_%s(&a_, me_, sh_, l);", n);
        emit(o, "cpLaneGet_%s(&b_, you_, sh_, l);", n);
        emit(o, "%s(&a_, &b_);", cg_subr_name(cg, s));
        emit(o, "cpLanePut_%s(me_, (void *)sh_, l, &a_);", n);
        emit_close(o, "%s", "");
        emit_close(o, "%s", "");
        emit(o, "%s", "");
        emit_lane_fold(cg, s->owner);
        return;
    }
    CgFn fn = {.subr = s, .ctx = CTX_MERGE, .bundle = -1, .me_type = s->owner};
    MaskStack ms;
    lane_enter(cg, &fn, &ms);
    emit_open(o, "static CP_UNUSED void %s(void *me_, const void *you_, const void *sh_)",
              cg_lane_merge_name(cg, s->owner));
    const char *V = cg_lane_type(cg, s->owner);
    emit(o, "%s *me = me_;", V);
    emit(o, "const %s *you = you_;", V);
    emit(o, "(void)me; (void)you; (void)sh_;");
    if (cg_has_shared(cg, s->owner)) /* equal in ME and YOU */
        emit(o, "const %s *ms = sh_; (void)ms;", cg_shared_type(cg, s->owner));
    emit(o, "int32_t Mf[RT_LANES];");
    emit(o, LANES " Mf[l] = 1;");
    push_mask(cg, "Mf");
    lane_block(cg, s->decl->u.subr.body);
    lane_leave(cg);
    emit_lane_fold(cg, s->owner);
}

void cg_emit_lane_prototype(Cg *cg, Symbol *s, CgNet *net, int group)
{
    emit(cg->out, "%s;", cg_lane_signature(cg, s, net, group));
}

void cg_emit_lane_body(Cg *cg, Symbol *s, CgNet *net, int group)
{
    if (s->sub->external || !s->decl)
        return;
    Emitter *o = cg->out;
    CgFn fn = {.subr = s, .ctx = s->sub->context, .net = net, .group = group, .bundle = -1,
               .me_type = s->owner};
    if (s->owner->kind == TY_NETWORK)
        fn.net = cg_net_of(cg, s->owner);
    if (s->owner->kind == TY_CONNECTION) { /* one instance per bundle */
        fn.bundle = group;
        fn.group = -1;
    }
    if (s->owner->kind != TY_NETWORK && !lower_lane_reached(cg->plan, s, net, group)) {
        /* no network call runs this instance: the lane plan did not look
           at it, so its body could name elements the plan left out */
        emit_open(o, "%s", cg_lane_signature(cg, s, net, group));
        emit(o, "(void)net; (void)blk; (void)M0;%s%s%s",
             s->owner->kind == TY_NODE ? " (void)idx;" : " (void)k; (void)me;",
             cg_has_shared(cg, s->owner) ? " (void)ms;" : "", s->sub->result ? " (void)ret;" : "");
        for (int i = 0; i < s->sub->params.len; i++)
            emit(o, "(void)%s;", cg_local(cg, VEC_AT(s->sub->params, i, Symbol)));
        emit(o, "rt_error(CP_POS(%d), \"internal error: lane code of %s that no network call reaches\");",
             s->loc.line, s->name);
        emit_close(o, "%s", "");
        emit(o, "%s", "");
        return;
    }
    MaskStack ms;
    lane_enter(cg, &fn, &ms);
    emit_open(o, "%s", cg_lane_signature(cg, s, net, group));
    const char *V = cg_lane_type(cg, s->owner);
    if (s->owner->kind == TY_NETWORK)
        emit(o, "%s *me = net->blocks[blk].net;", V);
    else if (s->owner->kind == TY_NODE)
        emit(o, "%s *me = &((%s *)net->blocks[blk].nodes[%d])[idx];", V, V, group);
    emit(o, "(void)me; (void)net;");
    if (s->owner->kind == TY_CONNECTION)
        emit(o, "const int32_t b = %d; (void)b; (void)blk; (void)k;%s", fn.bundle,
             cg_has_shared(cg, s->owner) ? " (void)ms;" : "");
    else
        emit(o, "(void)blk;%s", s->owner->kind == TY_NODE ? " (void)idx;" : "");
    for (int i = 0; i < s->sub->params.len; i++)
        emit(o, "(void)%s;", cg_local(cg, VEC_AT(s->sub->params, i, Symbol)));
    /* no active lane: nothing to do (this also ends a recursion whose
       lanes have all returned) */
    emit(o, "if (!cp_any(M0)) return;");
    if (block_clears_mask(s->decl->u.subr.body)) {
        emit(o, "int32_t Mf[RT_LANES];");
        emit(o, "__builtin_memcpy(Mf, M0, sizeof Mf);");
    } else {
        emit(o, "const int32_t *const Mf = M0;");
        emit(o, "(void)Mf;");
    }
    push_mask(cg, "Mf");
    lane_block(cg, s->decl->u.subr.body);
    lane_leave(cg);
}
