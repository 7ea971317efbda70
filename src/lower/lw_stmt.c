/* lw_stmt.c -- CuPit statements as IR statements, including the parallel
 * ones, for code that runs on one replicate and the central agent.
 *
 * Group procedure calls become IRFOR_NODES loops over the selected nodes,
 * interface calls IRFOR_CONNS loops over the bundles of the interface,
 * calls on replicates IRFOR_REPS loops (IRFOR_BLOCKS over lane blocks while
 * the network is replicated in lanes); the outermost loop with enough work
 * carries a parallel condition (cp_par refuses nested and tiny loops).
 * REDUCTION and WTA are IRS_REDUCE regions that combine in index order, so
 * results do not depend on the thread count.  Topology changes requested
 * inside a parallel call are committed after the call has completed. */
#include <string.h>

#include "lw_internal.h"
#include "cupitc/stdlib_sigs.h"

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

/* The interval of a slice, evaluated once into a constant temporary. */
static IrVar *range_value(Lw *lw, Expr *range, Loc loc)
{
    const IrType *ivt = lw_vt(lw, lw->si->builtin[TY_INTERVAL]);
    IrVar *s = lw_decl(lw, "sl", ivt, lw_expr_as(lw, range, lw->si->builtin[TY_INTERVAL]), loc);
    s->is_const = true;
    return s;
}

/* Declares lo/hi as 0 and count-1. */
static void range_all(Lw *lw, IrExpr *count, IrVar **lo, IrVar **hi, Loc loc)
{
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32);
    *lo = lw_decl(lw, "lo", i32, ir_i32(m, 0), loc);
    *hi = lw_decl(lw, "hi", i32, ir_binary(m, IROP_SUB, i32, ir_cast(m, i32, count), ir_i32(m, 1)), loc);
}

/* Narrows lo/hi to the interval s. */
static void range_clip(Lw *lw, IrVar *s, IrVar *lo, IrVar *hi, Loc loc)
{
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32);
    IrExpr *mn = ir_member(m, ir_ref(m, s), "min", i32), *mx = ir_member(m, ir_ref(m, s), "max", i32);
    IrStmt *a = lw_add(lw, IRS_IF, loc);
    a->a = ir_binary(m, IROP_GT, ir_t(m, IRT_BOOL), mn, ir_ref(m, lo));
    a->then = ir_block(m, loc);
    IrStmt *as = ir_s(m, IRS_ASSIGN, loc);
    as->a = ir_ref(m, lo);
    as->b = ir_member(m, ir_ref(m, s), "min", i32);
    ir_append(m, a->then, as);
    IrStmt *b = lw_add(lw, IRS_IF, loc);
    b->a = ir_binary(m, IROP_LT, ir_t(m, IRT_BOOL), mx, ir_ref(m, hi));
    b->then = ir_block(m, loc);
    IrStmt *bs = ir_s(m, IRS_ASSIGN, loc);
    bs->a = ir_ref(m, hi);
    bs->b = ir_member(m, ir_ref(m, s), "max", i32);
    ir_append(m, b->then, bs);
}

/* Declares lo/hi clipped to [0, count-1] (and to the interval, if any).
 * An interval that may move storage (lw_moves_storage: its bounds call a
 * function that deletes or copies nodes or replicates the network) is
 * evaluated before count is read, so that the range clips to the size
 * there is afterwards. */
void lw_range(Lw *lw, Expr *range, IrExpr *count, IrVar **lo, IrVar **hi, Loc loc)
{
    IrVar *s = NULL;
    if (range && lw_storage_may_move(lw) && lw_moves_storage(range))
        s = range_value(lw, range, loc);
    range_all(lw, count, lo, hi, loc);
    if (!range)
        return;
    if (!s)
        s = range_value(lw, range, loc);
    range_clip(lw, s, *lo, *hi, loc);
}

/* Evaluates call arguments once into temporaries (broadcast to every
 * execution of a group call); out gets their references, the address for
 * a parameter passed by address (lw_const_by_address). */
void lw_args_to_temps(Lw *lw, const Symbol *subr, PtrVec *args, PtrVec *out, Loc loc)
{
    IrModule *m = M(lw);
    for (int i = 0; i < args->len && i < subr->sub->params.len; i++) {
        Symbol *p = VEC_AT(subr->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        IrVar *t;
        if (p->access == ACCESS_CONST) {
            t = lw_decl(lw, "arg", lw_vt(lw, p->type), lw_expr_as(lw, a, p->type), loc);
            t->is_const = true;
            if (lw_const_by_address(p)) {
                vec_push(m->arena, out, ir_addr(m, ir_ref(m, t)));
                continue;
            }
        } else if (p->access == ACCESS_IO) {
            t = lw_decl(lw, "arg", ir_t_ptr(m, ir_t(m, IRT_IO), false), ir_addr(m, lw_lvalue(lw, a)), loc);
        } else {
            t = lw_decl(lw, "arg", ir_t_ptr(m, lw_vt(lw, p->type), false), ir_addr(m, lw_lvalue(lw, a)), loc);
        }
        vec_push(m->arena, out, ir_ref(m, t));
    }
}

static void commit_if_needed(Lw *lw, const Symbol *callee, IrExpr *net, Loc loc)
{
    if (!lw_may_topo(lw, callee))
        return;
    if (lw->defer_commit) {
        if (!lw->deferred_commit)
            lw->deferred_commit = net;
        return;
    }
    lw_eval(lw, ir_helper(M(lw), IRH_COMMIT_TOPOLOGY, ir_t(M(lw), IRT_VOID),
                          IR_ARGS(net, lw_pos(lw, loc))),
            loc);
}

/* The loop over the connections of bundle b at node `node` of interface
 * ifc of group g; NULL if the bundle does not touch the interface. */
bool lw_bundle_at(Lw *lw, int b, int group, const Symbol *ifc)
{
    const LowerBundle *bu = &lw->fn->net->bundles[b];
    return (bu->dst_group == group && bu->dst_iface == ifc) ||
           (bu->src_group == group && bu->src_iface == ifc);
}

IrStmt *lw_conn_loop(Lw *lw, int b, int group, const Symbol *ifc, IrExpr *net, IrExpr *node,
                     IrVar **k, Loc loc)
{
    IrModule *m = M(lw);
    LowerBundle *bu = &lw->fn->net->bundles[b];
    bool in = bu->dst_group == group && bu->dst_iface == ifc;
    bool out = bu->src_group == group && bu->src_iface == ifc;
    if (!in && !out)
        return NULL;
    IrStmt *s = lw_add(lw, IRS_FOR, loc);
    s->for_kind = IRFOR_CONNS;
    s->g = b;
    s->a = net;
    s->b = node;
    s->out = !in;
    s->var = fresh(lw, "k", ir_t(m, IRT_I32));
    if (s->out)
        s->j = fresh(lw, "j", ir_t(m, IRT_I32));
    /* lane code runs on frozen topology: nothing is marked for deletion */
    s->skip_dead = lw->conn_deletion && !lw->fn->lane;
    s->then = ir_block(m, loc);
    *k = s->var;
    return s;
}

/* The condition under which a loop with `work` runs in parallel. */
IrExpr *lw_par(Lw *lw, IrExpr *net, IrExpr *work, bool lanes)
{
    return ir_helper(M(lw), lanes ? IRH_PAR_LANES : IRH_PAR, ir_t(M(lw), IRT_BOOL), IR_ARGS(net, work));
}

static IrStmt *range_loop(Lw *lw, IrForKind kind, IrVar *var, IrExpr *lo, IrExpr *hi, Loc loc)
{
    IrStmt *s = lw_add(lw, IRS_FOR, loc);
    s->for_kind = kind;
    s->var = var;
    s->lo = lo;
    s->hi = hi;
    s->then = ir_block(M(lw), loc);
    return s;
}

/* Loop over the nodes of group g (lo..hi) of the current replicate. */
static void node_group_call(Lw *lw, LowerNet *net, int g, Expr *range, const Symbol *proc,
                            PtrVec *args, Loc loc, const void *origin)
{
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32), *i64 = ir_t(m, IRT_I64);
    IrStmt *saved = lw_open(lw, loc);
    lw->blk->origin = origin;
    IrExpr *netx = ir_ref(m, lw->fn->net_v);
    /* the arguments first: a network function in them may replicate or
       delete nodes of the group, and the call runs on the nodes there are
       then (as a call on replicates does, docs/language-decisions.md) */
    PtrVec a = {0};
    lw_args_to_temps(lw, proc, args, &a, loc);
    IrVar *lo, *hi;
    lw_range(lw, range, ir_netinfo(m, IRN_COUNT, netx, ir_i32(m, g), NULL), &lo, &hi, loc);
    IrVar *i = fresh(lw, "i", i32);
    IrStmt *loop = range_loop(lw, IRFOR_NODES, i, ir_ref(m, lo), ir_ref(m, hi), loc);
    loop->g = g;
    IrExpr *work = ir_binary(m, IROP_MUL, i64,
                             lw_i64(lw, ir_binary(m, IROP_ADD, i32,
                                                  ir_binary(m, IROP_SUB, i32, ir_ref(m, hi), ir_ref(m, lo)),
                                                  ir_i32(m, 1))),
                             ir_int(m, i64, 8));
    loop->par = lw_par(lw, netx, work, false);
    IrExpr *call = ir_call(m, lw_node_fn(lw, net, g, proc),
                           IR_ARGS(ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->rep_v), ir_ref(m, i)));
    for (int k = 0; k < a.len; k++)
        vec_push(m->arena, &call->args, a.items[k]);
    IrStmt *e = ir_s(m, IRS_EVAL, loc);
    e->a = call;
    ir_append(m, loop->then, e);
    commit_if_needed(lw, proc, ir_ref(m, lw->fn->net_v), loc);
    lw_close(lw, saved);
}

/* Calls a connection procedure for every connection at interface ifc. */
static void iface_call(Lw *lw, const Symbol *ifc, const Symbol *proc, PtrVec *args, Loc loc,
                       const void *origin)
{
    IrModule *m = M(lw);
    IrStmt *saved = lw_open(lw, loc);
    lw->blk->origin = origin;
    PtrVec a = {0};
    lw_args_to_temps(lw, proc, args, &a, loc);
    IrLayout *pl = lw_plain(lw, proc->owner);
    for (int b = 0; b < lw->fn->net->nbundles; b++) {
        if (!lw_bundle_at(lw, b, lw->fn->group, ifc))
            continue; /* no expressions for the bundles elsewhere: a call is not O(bundles) */
        IrVar *k;
        IrStmt *loop = lw_conn_loop(lw, b, lw->fn->group, ifc, ir_ref(m, lw->fn->net_v),
                                    ir_ref(m, lw->fn->idx_v), &k, loc);
        IrExpr *C = ir_conns(m, ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->rep_v), b, pl);
        IrExpr *call = ir_call(m, lw_conn_fn(lw, proc),
                               IR_ARGS(ir_ref(m, lw->fn->net_v), ir_i32(m, b), ir_ref(m, k),
                                       ir_addr(m, ir_index(m, C, ir_ref(m, k)))));
        for (int i = 0; i < a.len; i++)
            vec_push(m->arena, &call->args, a.items[i]);
        IrStmt *e = ir_s(m, IRS_EVAL, loc);
        e->a = call;
        ir_append(m, loop->then, e);
    }
    lw_close(lw, saved);
}

/* Lane arrays holding the same (scalar temporary) arguments in every lane,
 * for a lane call from the central agent. */
void lw_broadcast_args(Lw *lw, const Symbol *proc, PtrVec *temps, PtrVec *out, Loc loc)
{
    IrModule *m = M(lw);
    for (int i = 0; i < proc->sub->params.len && i < temps->len; i++) {
        Symbol *p = VEC_AT(proc->sub->params, i, Symbol);
        IrExpr *t = VEC_AT(*temps, i, IrExpr);
        if (p->access == ACCESS_IO) {
            vec_push(m->arena, out, t);
            continue;
        }
        const IrType *et = p->access == ACCESS_VAR ? ir_t_ptr(m, lw_vt(lw, p->type), false)
                                                   : lw_vt(lw, p->type);
        IrVar *la = lw_fill_lanes(lw, "bc", et, lw_const_by_address(p) ? ir_deref(m, t) : t,
                                  loc); /* by address: lw_args_to_temps */
        vec_push(m->arena, out, ir_ref(m, la));
    }
}

/* A network procedure call from the central agent on replicates lo..hi of
 * network n: lane blocks when it is replicated in lanes, else one call per
 * replicate. */
void lw_call_replicates(Lw *lw, const Symbol *proc, PtrVec *argv, IrExpr *net, IrVar *lo,
                        IrVar *hi, bool single, Loc loc, const void *origin)
{
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32), *i64 = ir_t(m, IRT_I64), *bt = ir_t(m, IRT_BOOL);
    PtrVec temps = *argv;
    IrExpr *L = ir_named(m, "RT_LANES", i32);
    IrExpr *nwork = ir_helper(m, IRH_NET_WORK, i64, IR_ARGS(net));
    IrExpr *count = lw_i64(lw, ir_binary(m, IROP_ADD, i32,
                                         ir_binary(m, IROP_SUB, i32, ir_ref(m, hi), ir_ref(m, lo)),
                                         ir_i32(m, 1)));
    IrStmt *plain_blk = lw->blk;
    if (lw->opts.lanes) {
        IrStmt *ifs = lw_add(lw, IRS_IF, loc);
        ifs->origin = origin;
        ifs->a = single ? lw_blocked(lw, net)
                        : ir_binary(m, IROP_LAND, bt, lw_blocked(lw, net),
                                    ir_binary(m, IROP_LE, bt, ir_ref(m, lo), ir_ref(m, hi)));
        ifs->then = ir_block(m, loc);
        ifs->els = ir_block(m, loc);
        IrStmt *saved = lw_push(lw, ifs->then);
        PtrVec la = {0};
        lw_broadcast_args(lw, proc, &temps, &la, loc);
        IrVar *j = fresh(lw, "blk", i32);
        IrStmt *loop = range_loop(lw, IRFOR_BLOCKS, j, ir_binary(m, IROP_DIV, i32, ir_ref(m, lo), L),
                                  ir_binary(m, IROP_DIV, i32, ir_ref(m, hi), L), loc);
        loop->par = single ? NULL
                           : ir_binary(m, IROP_LAND, bt,
                                       ir_binary(m, IROP_LT, bt, ir_binary(m, IROP_DIV, i32, ir_ref(m, lo), L),
                                                 ir_binary(m, IROP_DIV, i32, ir_ref(m, hi), L)),
                                       lw_par(lw, net, ir_binary(m, IROP_MUL, i64, count, nwork), true));
        /* the mask of the replicates lo..hi in block j */
        lw_push(lw, loop->then);
        IrVar *mk = lw_decl_uninit(lw, "m", ir_t_lanes(m, i32), loc);
        IrStmt *fl = lw_lanes_loop(lw, loc);
        IrExpr *q = ir_binary(m, IROP_ADD, i32, ir_binary(m, IROP_MUL, i32, ir_ref(m, j), L), ir_ref(m, fl->var));
        IrStmt *as = ir_s(m, IRS_ASSIGN, loc);
        as->a = ir_index(m, ir_ref(m, mk), ir_ref(m, fl->var));
        as->b = ir_binary(m, IROP_LAND, bt, ir_binary(m, IROP_GE, bt, q, ir_ref(m, lo)),
                          ir_binary(m, IROP_LE, bt, q, ir_ref(m, hi)));
        ir_append(m, fl->then, as);
        IrExpr *call = ir_call(m, lw_lane_fn(lw, proc, NULL, -1), IR_ARGS(net, ir_ref(m, j), ir_ref(m, mk)));
        for (int i = 0; i < la.len; i++)
            vec_push(m->arena, &call->args, la.items[i]);
        lw_eval(lw, call, loc);
        lw_close(lw, saved);
        plain_blk = ifs->els;
    }
    IrStmt *saved = lw_push(lw, plain_blk);
    IrVar *r = fresh(lw, "r", i32);
    IrStmt *loop = range_loop(lw, IRFOR_REPS, r, ir_ref(m, lo), ir_ref(m, hi), loc);
    loop->par = single ? NULL
                       : ir_binary(m, IROP_LAND, bt, ir_binary(m, IROP_GT, bt, ir_ref(m, hi), ir_ref(m, lo)),
                                   lw_par(lw, net, ir_binary(m, IROP_MUL, i64, count, nwork), false));
    IrExpr *call = ir_call(m, lw_conn_fn(lw, proc), IR_ARGS(net, ir_ref(m, r)));
    for (int i = 0; i < temps.len; i++)
        vec_push(m->arena, &call->args, temps.items[i]);
    IrStmt *e = ir_s(m, IRS_EVAL, loc);
    e->a = call;
    ir_append(m, loop->then, e);
    lw_close(lw, saved);
}

/* net[].p (), net.p (), net[a...b].p (): every selected replicate. */
static void replicates_call(Lw *lw, Expr *call, Expr *obj, const Symbol *proc, PtrVec *args)
{
    IrModule *m = M(lw);
    Expr *base, *range;
    lw_split_multi(obj, &base, &range);
    IrExpr *netx, *repx;
    LowerNet *ln;
    lw_net_object(lw, base, &netx, &repx, &ln);
    IrStmt *saved = lw_open(lw, call->loc);
    lw->blk->origin = call;
    lw->blk->tag = IRTAG_REPS_CALL;
    /* the arguments first: a function in them may change the replication,
       and the call runs on the replicates there are then */
    PtrVec temps = {0};
    lw_args_to_temps(lw, proc, args, &temps, call->loc);
    IrVar *n = lw_decl(lw, "n", ir_t_ptr(m, ir_t(m, IRT_NET), false), netx, call->loc);
    n->is_const = true;
    IrVar *lo, *hi;
    lw_range(lw, range, ir_netinfo(m, IRN_NREPS, ir_ref(m, n), NULL, NULL), &lo, &hi, call->loc);
    lw_call_replicates(lw, proc, &temps, ir_ref(m, n), lo, hi, false, call->loc, call);
    lw_close(lw, saved);
}

void lw_global_call_stmt(Lw *lw, const Symbol *f, PtrVec *args, Loc loc)
{
    IrModule *m = M(lw);
    IrVar *saved = NULL;
    if (stdlib_reports_call_pos(f))
        saved = lw_decl(lw, "lib", ir_t_named(m, "rt_srcpos"),
                        ir_helper(m, IRH_LIB_AT, ir_t_named(m, "rt_srcpos"),
                                  IR_ARGS(lw_pos(lw, loc))),
                        loc);
    lw_eval(lw, lw_global_call(lw, f, args), loc);
    if (saved)
        lw_eval(lw, ir_helper(m, IRH_LIB_DONE, ir_t(m, IRT_VOID), IR_ARGS(ir_ref(m, saved))), loc);
}

static bool any_var_arg(const Symbol *f)
{
    for (int i = 0; i < f->sub->params.len; i++)
        if (VEC_AT(f->sub->params, i, Symbol)->access == ACCESS_VAR)
            return true;
    return false;
}

static bool lw_moves_storage_args(const PtrVec *args)
{
    for (int i = 0; i < args->len; i++)
        if (lw_moves_storage(VEC_AT(*args, i, Expr)))
            return true;
    return false;
}

/* A procedure call.  In the central agent of a program with lane blocks a
 * node X.g[i] passed as a VAR argument is copied into a plain record
 * before the call and back after it. */
static void call_stmt(Lw *lw, Expr *call)
{
    IrModule *m = M(lw);
    const Symbol *f = call->sym;
    PtrVec *args = &call->u.call.args;
    int na = args->len < f->sub->params.len ? args->len : f->sub->params.len;
    size_t sz = (size_t)(na ? na : 1);
    LwCaNode *nodes = arena_alloc(lw->arena, sz * sizeof *nodes);
    IrVar **vl = arena_alloc(lw->arena, sz * sizeof *vl), **vp = arena_alloc(lw->arena, sz * sizeof *vp);
    IrVar **vt = arena_alloc(lw->arena, sz * sizeof *vt), **vr = arena_alloc(lw->arena, sz * sizeof *vr);
    /* the copied-in nodes replace their arguments (lw->arg_temps, set when
       all are evaluated: the calls in an index consume lw->arg_temps) */
    IrExpr **temps = arena_alloc(lw->arena, sz * sizeof *temps);
    IrStmt *saved = NULL;
    bool any = false;
    const IrType *i32 = ir_t(m, IRT_I32);
    /* VAR arguments through the bare network variable: after the call,
       what it stored in replicate 0 is copied to the others */
    LwBare *bare = arena_alloc(lw->arena, sz * sizeof *bare);
    bool *all = arena_alloc(lw->arena, sz * sizeof *all);
    for (int i = 0; i < na; i++) {
        Symbol *p = VEC_AT(f->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        if (p->access != ACCESS_VAR || !lw_bare_applies(lw, a))
            continue;
        if (!any)
            saved = lw_open(lw, call->loc);
        any = true;
        all[i] = lw_bare_begin(lw, a, &bare[i], call->loc);
    }
    for (int i = 0; i < na; i++) {
        Symbol *p = VEC_AT(f->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        if (p->access != ACCESS_VAR || p->type->kind != TY_NODE || !lw_ca_node(lw, a, &nodes[i]))
            continue;
        if (!any)
            saved = lw_open(lw, call->loc);
        any = true;
        LwCaNode *n = &nodes[i];
        IrVar *vn = lw_decl(lw, "vn", ir_t_ptr(m, ir_t(m, IRT_NET), false), n->net, call->loc);
        vn->is_const = true;
        vr[i] = lw_decl(lw, "vr", i32, n->rep, call->loc);
        vr[i]->is_const = true;
        Symbol *gs = a->u.subscript.obj->sym;
        IrVar *vi = lw_decl(lw, "vi", i32,
                            lw_idx_first(lw, a->loc, a->u.subscript.index, lw_sub_index(lw, a->u.subscript.index),
                                   ir_netinfo(m, IRN_COUNT, ir_ref(m, vn), ir_i32(m, n->g), NULL),
                                   gs->name),
                            call->loc);
        vi->is_const = true;
        IrLayout *ll = lw_lanes_layout(lw, n->node), *pl = lw_plain(lw, n->node);
        IrExpr *L = ir_named(m, "RT_LANES", i32);
        vl[i] = lw_decl(lw, "vl", ir_t_ptr(m, ir_t_record(m, ll), false),
                        ir_cond(m, ir_t_ptr(m, ir_t_record(m, ll), false), lw_blocked(lw, ir_ref(m, vn)),
                                ir_addr(m, ir_index(m, ir_nodes(m, ir_ref(m, vn),
                                                                ir_binary(m, IROP_DIV, i32, ir_ref(m, vr[i]), L),
                                                                n->g, ll),
                                                    ir_ref(m, vi))),
                                ir_null(m)),
                        call->loc);
        vl[i]->is_const = true;
        vp[i] = lw_decl(lw, "vp", ir_t_ptr(m, ir_t_record(m, pl), false),
                        ir_cond(m, ir_t_ptr(m, ir_t_record(m, pl), false), lw_blocked(lw, ir_ref(m, vn)),
                                ir_null(m),
                                ir_addr(m, ir_index(m, ir_nodes(m, ir_ref(m, vn), ir_ref(m, vr[i]), n->g, pl),
                                                    ir_ref(m, vi)))),
                        call->loc);
        vp[i]->is_const = true;
        IrExpr *lane_v = ir_call(m, lw_type_fn(lw, n->node, IRFN_LANE_REC),
                                 IR_ARGS(ir_ref(m, vl[i]), ir_null(m),
                                         ir_binary(m, IROP_MOD, i32, ir_ref(m, vr[i]), L)));
        vt[i] = lw_decl(lw, "vt", lw_vt(lw, n->node),
                        ir_cond(m, lw_vt(lw, n->node), ir_ref(m, vl[i]), lane_v,
                                ir_cast(m, lw_vt(lw, n->node), ir_deref(m, ir_ref(m, vp[i])))),
                        call->loc);
        temps[i] = ir_addr(m, ir_ref(m, vt[i]));
    }
    lw->arg_temps = temps;
    lw->n_arg_temps = na;
    /* an argument that may move network storage before the addresses of
       VAR arguments are taken (assign_stmt) */
    if (!any && lw->fn && lw_storage_may_move(lw) && any_var_arg(f) && lw_moves_storage_args(args)) {
        saved = lw_open(lw, call->loc);
        any = true;
    }
    if (any_var_arg(f))
        lw_args_first(lw, f, args);
    lw_global_call_stmt(lw, f, args, call->loc);
    for (int i = 0; i < na; i++) {
        if (!vt[i])
            continue;
        IrStmt *s = lw_add(lw, IRS_IF, call->loc);
        s->a = ir_ref(m, vl[i]);
        s->then = ir_block(m, call->loc);
        s->els = ir_block(m, call->loc);
        IrStmt *put = ir_s(m, IRS_EVAL, call->loc);
        put->a = ir_call(m, lw_type_fn(lw, nodes[i].node, IRFN_LANE_PUT),
                         IR_ARGS(ir_ref(m, vl[i]), ir_null(m),
                                 ir_binary(m, IROP_MOD, i32, ir_ref(m, vr[i]), ir_named(m, "RT_LANES", i32)),
                                 ir_addr(m, ir_ref(m, vt[i]))));
        ir_append(m, s->then, put);
        IrStmt *back = ir_s(m, IRS_ASSIGN, call->loc);
        back->a = ir_deref(m, ir_ref(m, vp[i]));
        back->b = ir_ref(m, vt[i]);
        ir_append(m, s->els, back);
    }
    for (int i = na - 1; i >= 0; i--)
        if (all[i]) {
            lw_bare_copy(lw, &bare[i], call->loc);
            lw_bare_end(lw, &bare[i]);
        }
    if (any)
        lw_close(lw, saved);
}

static void objcall_stmt(Lw *lw, Expr *call)
{
    IrModule *m = M(lw);
    const Symbol *proc = call->sym;
    Expr *obj = call->u.objcall.obj;
    PtrVec *args = &call->u.objcall.args;
    const Type *owner = proc->owner;

    if (call->call_kind == CALL_REPLICATES) {
        replicates_call(lw, call, obj, proc, args);
        return;
    }
    if (lw_in_merge(lw) && obj->kind == EXPR_ME && owner->kind != TY_RECORD) {
        lw_eval(lw, lw_merge_call(lw, call), call->loc);
        return;
    }
    if (call->call_kind == CALL_GROUP) {
        Expr *base, *range;
        lw_split_multi(obj, &base, &range);
        if (owner->kind == TY_NODE && lw->fn && lw->fn->net && base->kind == EXPR_SELECT) {
            node_group_call(lw, lw->fn->net, lower_group_index(lw->fn->net, base->sym), range, proc,
                            args, call->loc, call);
            return;
        }
        if (owner->kind == TY_CONNECTION && lw->fn && lw->fn->net && base->kind == EXPR_SELECT) {
            iface_call(lw, base->sym, proc, args, call->loc, call);
            return;
        }
        lw_unsupported(lw, call->loc, "this group procedure call");
        return;
    }
    /* one object */
    PtrVec a = {0};
    switch (owner->kind) {
    case TY_RECORD: {
        /* a record reached through the bare network variable (net.p.inc ()):
           the procedure changes it in replicate 0, then it is copied to the
           others, as for a VAR argument (call_stmt) */
        LwBare bare;
        bool all = lw_bare_applies(lw, obj);
        IrStmt *saved = all ? lw_open(lw, call->loc) : NULL;
        if (all)
            lw_bare_begin(lw, obj, &bare, call->loc);
        /* arguments and subscripts that may move network storage before
           the receiver's address is taken (assign_stmt) */
        LwBare ix;
        if (!all && lw->fn && lw_storage_may_move(lw) &&
            (lw_moves_storage_args(args) || lw_moves_storage(obj))) {
            saved = lw_open(lw, call->loc);
            lw_indices_first(lw, obj, &ix);
        }
        lw_args_first(lw, proc, args);
        vec_push(m->arena, &a, ir_addr(m, lw_lvalue(lw, obj)));
        lw_args(lw, proc, args, &a);
        if (!all) {
            if (!saved)
                break;
            IrExpr *c = ir_call(m, lw_conn_fn(lw, proc), 0, NULL);
            c->args = a;
            lw_eval(lw, c, call->loc);
            lw_indices_end(lw, &ix);
            lw_close(lw, saved);
            return;
        }
        IrExpr *c = ir_call(m, lw_conn_fn(lw, proc), 0, NULL);
        c->args = a;
        lw_eval(lw, c, call->loc);
        lw_bare_copy(lw, &bare, call->loc);
        lw_bare_end(lw, &bare);
        lw_close(lw, saved);
        return;
    }
    case TY_NETWORK: {
        IrExpr *netx, *repx;
        LowerNet *ln;
        lw_net_object(lw, obj, &netx, &repx, &ln);
        if (obj->kind != EXPR_ME) {
            /* net[i].p () from the central agent: replicate i only; the
               arguments before the subscript's check (they may change the
               replication) */
            IrStmt *saved = lw_open(lw, call->loc);
            lw->blk->origin = call;
            PtrVec temps = {0};
            lw_args_to_temps(lw, proc, args, &temps, call->loc);
            IrVar *n = lw_decl(lw, "n", ir_t_ptr(m, ir_t(m, IRT_NET), false), netx, call->loc);
            n->is_const = true;
            IrVar *one = lw_decl(lw, "one", ir_t(m, IRT_I32), repx ? repx : ir_i32(m, 0), call->loc);
            one->is_const = true;
            if (lw->opts.lanes) {
                lw_call_replicates(lw, proc, &temps, ir_ref(m, n), one, one, true, call->loc, call);
            } else {
                IrExpr *c = ir_call(m, lw_conn_fn(lw, proc), IR_ARGS(ir_ref(m, n), ir_ref(m, one)));
                for (int i = 0; i < temps.len; i++)
                    vec_push(m->arena, &c->args, temps.items[i]);
                lw_eval(lw, c, call->loc);
            }
            lw_close(lw, saved);
            return;
        }
        vec_push(m->arena, &a, netx);
        vec_push(m->arena, &a, repx ? repx : ir_i32(m, 0));
        lw_args(lw, proc, args, &a);
        break;
    }
    case TY_NODE:
        if (!lw->fn || !lw->fn->net)
            goto unsupported;
        if (obj->kind == EXPR_ME) {
            vec_push(m->arena, &a, ir_ref(m, lw->fn->net_v));
            vec_push(m->arena, &a, ir_ref(m, lw->fn->rep_v));
            vec_push(m->arena, &a, ir_ref(m, lw->fn->idx_v));
            lw_args(lw, proc, args, &a);
            IrExpr *c = ir_call(m, lw_node_fn(lw, lw->fn->net, lw->fn->group, proc), 0, NULL);
            c->args = a;
            lw_eval(lw, c, call->loc);
            return;
        }
        if (obj->kind == EXPR_SUBSCRIPT && obj->u.subscript.obj->kind == EXPR_SELECT) {
            LowerNet *net = lw->fn->net;
            Symbol *gs = obj->u.subscript.obj->sym;
            int g = lower_group_index(net, gs);
            /* the arguments before the index's check (see node_group_call) */
            IrStmt *saved = lw_open(lw, call->loc);
            PtrVec temps = {0};
            lw_args_to_temps(lw, proc, args, &temps, call->loc);
            vec_push(m->arena, &a, ir_ref(m, lw->fn->net_v));
            vec_push(m->arena, &a, ir_ref(m, lw->fn->rep_v));
            vec_push(m->arena, &a, lw_idx_first(lw, obj->loc, obj->u.subscript.index, lw_expr(lw, obj->u.subscript.index),
                                          ir_netinfo(m, IRN_COUNT, ir_ref(m, lw->fn->net_v), ir_i32(m, g), NULL),
                                          gs->name));
            for (int k = 0; k < temps.len; k++)
                vec_push(m->arena, &a, temps.items[k]);
            IrExpr *c = ir_call(m, lw_node_fn(lw, net, g, proc), 0, NULL);
            c->args = a;
            lw_eval(lw, c, call->loc);
            lw_close(lw, saved);
            commit_if_needed(lw, proc, ir_ref(m, lw->fn->net_v), call->loc);
            return;
        }
        goto unsupported;
    case TY_CONNECTION:
        if (obj->kind == EXPR_ME && lw->fn && lw->fn->k_v) {
            vec_push(m->arena, &a, ir_ref(m, lw->fn->net_v));
            vec_push(m->arena, &a, ir_ref(m, lw->fn->b_v));
            vec_push(m->arena, &a, ir_ref(m, lw->fn->k_v));
            vec_push(m->arena, &a, ir_ref(m, lw->fn->me_v));
            lw_args(lw, proc, args, &a);
            break;
        }
        goto unsupported;
    default:
        goto unsupported;
    }
    {
        IrExpr *c = ir_call(m, lw_conn_fn(lw, proc), 0, NULL);
        c->args = a;
        lw_eval(lw, c, call->loc);
        return;
    }
unsupported:
    lw_unsupported(lw, call->loc, "this object procedure call");
}

/* ---- REDUCTION and WTA ------------------------------------------------------------ */

static IrReduce *new_reduce(Lw *lw, const Symbol *fn, const Type *et, bool wta, IrReduceKind kind)
{
    IrModule *m = M(lw);
    IrReduce *r = arena_alloc(m->arena, sizeof *r);
    r->kind = kind;
    r->wta = wta;
    r->combine = lw_subr_fn(lw, fn);
    r->vtype = lw_vt(lw, et);
    const IrType *i32 = ir_t(m, IRT_I32);
    r->acc = fresh(lw, "acc", r->vtype);
    r->have = fresh(lw, "have", ir_t(m, IRT_BOOL));
    if (wta) {
        r->win = fresh(lw, "win", i32);
        r->winb = fresh(lw, "winb", i32);
    }
    return r;
}

static void yield(Lw *lw, IrExpr *v, IrExpr *pos, IrExpr *bundle, Loc loc, const void *origin)
{
    IrStmt *y = lw_add(lw, IRS_YIELD, loc);
    y->a = v;
    y->b = pos;
    y->c = bundle;
    y->origin = origin;
}

/* bare: a REDUCTION INTO net.path (lw_bare_begin), whose result is then
 * copied to the other replicates -- only when there is a result: over an
 * empty set the INTO object is left unchanged (semantics 8.4). */
static void combine(Lw *lw, Stmt *s, bool wta, LwBare *bare)
{
    IrModule *m = M(lw);
    Expr *pvs = wta ? s->u.wta.pv : s->u.reduction.pvs;
    Expr *pv = wta ? pvs : pvs->u.select.obj;
    Symbol *elem = wta ? s->target : pvs->sym;
    int level = s->sem_flags & SEMF_LEVEL_MASK;
    Expr *base, *range;
    lw_split_multi(pv, &base, &range);
    const IrType *i32 = ir_t(m, IRT_I32);
    IrReduce *r = new_reduce(lw, s->callee, elem->type, wta, IRR_SERIAL);
    IrStmt *rs = lw_add(lw, IRS_REDUCE, s->loc);
    rs->red = r;
    rs->origin = s;
    rs->then = ir_block(m, s->loc);
    if (!wta)
        r->into = lw_lvalue(lw, s->u.reduction.into);
    IrStmt *saved = lw_push(lw, rs->then);
    if (level == SEMF_LEVEL_NET) {
        IrExpr *netx, *repx;
        LowerNet *ln;
        lw_net_object(lw, base, &netx, &repx, &ln);
        IrVar *n = lw_decl(lw, "n", ir_t_ptr(m, ir_t(m, IRT_NET), false), netx, s->loc);
        n->is_const = true;
        IrVar *lo, *hi;
        lw_range(lw, range, ir_netinfo(m, IRN_NREPS, ir_ref(m, n), NULL, NULL), &lo, &hi, s->loc);
        IrVar *rv = fresh(lw, "r", i32);
        IrStmt *loop = range_loop(lw, IRFOR_REPS, rv, ir_ref(m, lo), ir_ref(m, hi), s->loc);
        lw_push(lw, loop->then);
        IrLayout *pl = lw_plain(lw, base->type);
        IrExpr *plain = ir_field(m, ir_deref(m, ir_netrec(m, ir_ref(m, n), ir_ref(m, rv), pl)),
                                 lw_field(lw, pl, elem));
        IrExpr *val = plain;
        if (lw->opts.lanes) {
            IrLayout *ll = lw_lanes_layout(lw, base->type);
            IrExpr *L = ir_named(m, "RT_LANES", i32);
            IrExpr *lane = ir_index(m, ir_field(m, ir_deref(m, ir_netrec(m, ir_ref(m, n),
                                                   ir_binary(m, IROP_DIV, i32, ir_ref(m, rv), L), ll)),
                                                lw_field(lw, ll, elem)),
                                    ir_binary(m, IROP_MOD, i32, ir_ref(m, rv), L));
            val = ir_cond(m, r->vtype, lw_blocked(lw, ir_ref(m, n)), lane, plain);
        }
        IrVar *v = lw_decl(lw, "v", r->vtype, val, s->loc);
        v->is_const = true;
        yield(lw, ir_ref(m, v), ir_ref(m, rv), NULL, s->loc, s);
        if (bare && !wta) {
            r->after = ir_block(m, s->loc);
            lw_push(lw, r->after);
            lw_bare_copy(lw, bare, s->loc);
        }
        if (wta) {
            r->after = ir_block(m, s->loc);
            lw_push(lw, r->after);
            /* the winner's procedure: its arguments, then the winner
               checked against the replicates there are then (a function in
               the arguments may have changed the replication) */
            PtrVec temps = {0};
            lw_args_to_temps(lw, s->proc, &s->u.wta.args, &temps, s->loc);
            IrVar *w = lw_decl(lw, "w", i32,
                               lw_idx(lw, s->loc, ir_ref(m, r->win),
                                      ir_netinfo(m, IRN_NREPS, ir_ref(m, n), NULL, NULL), "replicate"),
                               s->loc);
            w->is_const = true;
            if (lw->opts.lanes) {
                lw_call_replicates(lw, s->proc, &temps, ir_ref(m, n), w, w, true, s->loc, s);
            } else {
                IrExpr *c = ir_call(m, lw_conn_fn(lw, s->proc), IR_ARGS(ir_ref(m, n), ir_ref(m, w)));
                for (int i = 0; i < temps.len; i++)
                    vec_push(m->arena, &c->args, temps.items[i]);
                lw_eval(lw, c, s->loc);
            }
        }
    } else if (level == SEMF_LEVEL_NODE) {
        LowerNet *net = lw->fn->net;
        int g = lower_group_index(net, base->sym);
        Type *node = type_node_of(base->sym->type);
        IrExpr *netx = ir_ref(m, lw->fn->net_v);
        IrVar *lo, *hi;
        lw_range(lw, range, ir_netinfo(m, IRN_COUNT, netx, ir_i32(m, g), NULL), &lo, &hi, s->loc);
        IrLayout *pl = lw_plain(lw, node);
        IrVar *N = lw_decl(lw, "N", ir_t_ptr(m, ir_t_record(m, pl), true),
                           ir_nodes(m, netx, ir_ref(m, lw->fn->rep_v), g, pl), s->loc);
        N->is_const = true;
        IrVar *i = fresh(lw, "i", i32);
        IrStmt *loop = range_loop(lw, IRFOR_NODES, i, ir_ref(m, lo), ir_ref(m, hi), s->loc);
        loop->g = g;
        lw_push(lw, loop->then);
        IrVar *v = lw_decl(lw, "v", r->vtype,
                           ir_field(m, ir_index(m, ir_ref(m, N), ir_ref(m, i)), lw_field(lw, pl, elem)),
                           s->loc);
        v->is_const = true;
        yield(lw, ir_ref(m, v), ir_ref(m, i), NULL, s->loc, s);
        if (wta) {
            r->after = ir_block(m, s->loc);
            lw_push(lw, r->after);
            /* the winner's procedure: its arguments, then the winner
               checked against the nodes there are then (a network function
               in the arguments may have deleted or copied nodes of the
               group, as for ME.g[i].p (f ())) */
            PtrVec temps = {0};
            lw_args_to_temps(lw, s->proc, &s->u.wta.args, &temps, s->loc);
            PtrVec a = {0};
            vec_push(m->arena, &a, netx);
            vec_push(m->arena, &a, ir_ref(m, lw->fn->rep_v));
            vec_push(m->arena, &a, lw_idx(lw, s->loc, ir_ref(m, r->win),
                                          ir_netinfo(m, IRN_COUNT, netx, ir_i32(m, g), NULL),
                                          base->sym->name));
            for (int k = 0; k < temps.len; k++)
                vec_push(m->arena, &a, temps.items[k]);
            IrExpr *c = ir_call(m, lw_node_fn(lw, net, g, s->proc), 0, NULL);
            c->args = a;
            lw_eval(lw, c, s->loc);
            commit_if_needed(lw, s->proc, netx, s->loc);
        }
    } else {
        Symbol *ifc = base->sym;
        IrExpr *netx = ir_ref(m, lw->fn->net_v);
        int nloops = 0;
        for (int b = 0; b < lw->fn->net->nbundles; b++) {
            IrVar *k;
            lw_push(lw, rs->then);
            if (!lw_bundle_at(lw, b, lw->fn->group, ifc))
                continue;
            IrStmt *loop = lw_conn_loop(lw, b, lw->fn->group, ifc, netx, ir_ref(m, lw->fn->idx_v), &k, s->loc);
            nloops++;
            lw_push(lw, loop->then);
            const Type *ct = lw->fn->net->bundles[b].conn;
            IrLayout *pl = lw_plain(lw, ct);
            IrExpr *C = ir_conns(m, netx, ir_ref(m, lw->fn->rep_v), b, pl);
            IrVar *v = lw_decl(lw, "v", r->vtype,
                               ir_field(m, ir_index(m, C, ir_ref(m, k)), lw_field(lw, pl, elem)), s->loc);
            v->is_const = true;
            yield(lw, ir_ref(m, v), ir_ref(m, k), ir_i32(m, b), s->loc, s);
        }
        if (wta) {
            /* the winner's record, found through its bundle; with no bundle
               at this interface there is never a winner (and its connection
               type may have no procedures at all) */
            r->after = ir_block(m, s->loc);
            lw_push(lw, r->after);
        }
        if (wta && nloops) {
            IrLayout *pl = lw_plain(lw, s->proc->owner);
            IrExpr *rec = ir_binary(m, IROP_ADD, ir_t_ptr(m, ir_t_record(m, pl), false),
                                    ir_cast(m, ir_t_ptr(m, ir_t_record(m, pl), false),
                                            ir_index(m, ir_netinfo(m, IRN_CONNS_ARRAY, netx,
                                                                   ir_ref(m, lw->fn->rep_v), NULL),
                                                     ir_ref(m, r->winb))),
                                    ir_ref(m, r->win));
            PtrVec a = {0};
            vec_push(m->arena, &a, netx);
            vec_push(m->arena, &a, ir_ref(m, r->winb));
            vec_push(m->arena, &a, ir_ref(m, r->win));
            vec_push(m->arena, &a, rec);
            lw_args(lw, s->proc, &s->u.wta.args, &a);
            IrExpr *c = ir_call(m, lw_conn_fn(lw, s->proc), 0, NULL);
            c->args = a;
            lw_eval(lw, c, s->loc);
        }
    }
    lw_close(lw, saved);
}

/* ---- topology statements ----------------------------------------------------------- */

/* For a PVS ME.g[...].iface: group index, range and interface. */
static int pvs_group(Lw *lw, Expr *pvs, Expr **range, Symbol **ifc)
{
    Expr *base;
    lw_split_multi(pvs->u.select.obj, &base, range);
    *ifc = pvs->sym;
    return lower_group_index(lw->fn->net, base->sym);
}

static void connect_stmt(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *sr, *dr;
    Symbol *si, *di;
    int sg = pvs_group(lw, s->u.connect.from, &sr, &si);
    int dg = pvs_group(lw, s->u.connect.to, &dr, &di);
    int b = lower_bundle_index(lw->fn->net, sg, si, dg, di);
    IrStmt *saved = lw_open(lw, s->loc);
    IrExpr *netx = ir_ref(m, lw->fn->net_v);
    IrVar *slo, *shi, *dlo, *dhi;
    IrExpr *scount = ir_netinfo(m, IRN_COUNT, netx, ir_i32(m, sg), NULL);
    IrExpr *dcount = ir_netinfo(m, IRN_COUNT, netx, ir_i32(m, dg), NULL);
    if (lw_storage_may_move(lw) && ((sr && lw_moves_storage(sr)) || (dr && lw_moves_storage(dr)))) {
        /* A bound that deletes or copies nodes (a network function) may
           change either group: both intervals first, then both ranges
           from the sizes there are afterwards (an all-slice ME.a[] is
           every node of a when the statement runs, as a slice whose own
           bounds moved storage is clipped afterwards, lw_range). */
        IrVar *ss = sr ? range_value(lw, sr, s->loc) : NULL;
        IrVar *ds = dr ? range_value(lw, dr, s->loc) : NULL;
        range_all(lw, scount, &slo, &shi, s->loc);
        if (ss)
            range_clip(lw, ss, slo, shi, s->loc);
        range_all(lw, dcount, &dlo, &dhi, s->loc);
        if (ds)
            range_clip(lw, ds, dlo, dhi, s->loc);
    } else {
        lw_range(lw, sr, scount, &slo, &shi, s->loc);
        lw_range(lw, dr, dcount, &dlo, &dhi, s->loc);
    }
    lw_eval(lw, ir_helper(m, s->kind == STMT_CONNECT ? IRH_CONNECT : IRH_DISCONNECT, ir_t(m, IRT_VOID),
                          IR_ARGS(netx, ir_i32(m, b), ir_ref(m, slo), ir_ref(m, shi), ir_ref(m, dlo),
                                  ir_ref(m, dhi), lw_pos(lw, s->loc))),
            s->loc);
    lw_close(lw, saved);
}

static void replicate_stmt(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *count = s->u.replicate.count;
    IrExpr *pos = lw_pos(lw, s->loc);
    const IrType *v = ir_t(m, IRT_VOID);
    switch (s->sem_flags & SEMF_LEVEL_MASK) {
    case SEMF_LEVEL_NET: {
        IrExpr *netx, *repx;
        LowerNet *ln;
        lw_net_object(lw, s->u.replicate.obj, &netx, &repx, &ln);
        IrStmt *saved = lw_open(lw, s->loc);
        IrExpr *work = ir_helper(m, IRH_NET_WORK, ir_t(m, IRT_I64), IR_ARGS(netx));
        if (type_is_integral(count->type)) {
            IrVar *n = lw_decl(lw, "n", ir_t(m, IRT_I32), lw_expr(lw, count), s->loc);
            n->is_const = true;
            lw_eval(lw, ir_helper(m, IRH_REPLICATE, v,
                                  IR_ARGS(netx, ir_ref(m, n), ir_ref(m, n), ir_bool(m, false), work, pos)),
                    s->loc);
        } else {
            const IrType *ivt = lw_vt(lw, lw->si->builtin[TY_INTERVAL]), *i32 = ir_t(m, IRT_I32);
            IrVar *n = lw_decl(lw, "n", ivt, lw_expr_as(lw, count, lw->si->builtin[TY_INTERVAL]), s->loc);
            n->is_const = true;
            lw_eval(lw, ir_helper(m, IRH_REPLICATE, v,
                                  IR_ARGS(netx, ir_member(m, ir_ref(m, n), "min", i32),
                                          ir_member(m, ir_ref(m, n), "max", i32), ir_bool(m, true), work,
                                          pos)),
                    s->loc);
        }
        lw_close(lw, saved);
        return;
    }
    case SEMF_LEVEL_NODE:
        lw_eval(lw, ir_helper(m, IRH_REQUEST_NODE_REPLICATE, v,
                              IR_ARGS(ir_ref(m, lw->fn->net_v), ir_i32(m, lw->fn->group),
                                      ir_ref(m, lw->fn->idx_v), lw_expr(lw, count), pos)),
                s->loc);
        lw_add(lw, IRS_RETURN, s->loc);
        return;
    default:
        lw_eval(lw, ir_helper(m, IRH_REQUEST_CONN_REPLICATE, v,
                              IR_ARGS(ir_ref(m, lw->fn->net_v), ir_ref(m, lw->fn->b_v),
                                      ir_ref(m, lw->fn->k_v), lw_expr(lw, count), pos)),
                s->loc);
        lw_add(lw, IRS_RETURN, s->loc);
        return;
    }
}

/* ---- I/O and assignments --------------------------------------------------------------- */

static void io_stmt(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *pvs = s->u.io.node_side;
    Expr *base, *range;
    lw_split_multi(pvs->u.select.obj, &base, &range); /* base: netobj.g */
    Expr *netobj = base->u.select.obj;
    if (netobj->kind == EXPR_ALLSLICE)
        netobj = netobj->u.allslice.obj;
    IrExpr *netx, *repx;
    LowerNet *ln;
    lw_net_object(lw, netobj, &netx, &repx, &ln);
    int g = lower_group_index(ln, base->sym);
    Type *node = type_node_of(base->sym->type);
    IrStmt *saved = lw_open(lw, s->loc);
    lw->blk->origin = s;
    IrVar *n = lw_decl(lw, "n", ir_t_ptr(m, ir_t(m, IRT_NET), false), netx, s->loc);
    n->is_const = true;
    IrVar *lo, *hi;
    lw_range(lw, range, ir_netinfo(m, IRN_COUNT, ir_ref(m, n), ir_i32(m, g), NULL), &lo, &hi, s->loc);
    IrLayout *pl = lw_plain(lw, node);
    IrLayout *ll = ir_layout_find(m, node, IRF_LANE);
    IrExpr *lane_off = ll ? ir_offsetof(m, ir_t_record(m, ll), lw_field(lw, ll, pvs->sym)->name)
                          : ir_int(m, ir_t(m, IRT_SIZE), 0);
    IrField *elem = lw_field(lw, pl, pvs->sym);
    /* the element's size: the runtime checks the area's against it */
    lw_eval(lw, ir_helper(m, s->kind == STMT_INPUT ? IRH_IO_INPUT : IRH_IO_OUTPUT, ir_t(m, IRT_VOID),
                          IR_ARGS(ir_ref(m, n), ir_i32(m, g), ir_ref(m, lo), ir_ref(m, hi),
                                  ir_offsetof(m, ir_t_record(m, pl), elem->name), lane_off,
                                  ir_sizeof(m, elem->type), ir_addr(m, lw_lvalue(lw, s->u.io.io)),
                                  lw_pos(lw, s->loc))),
            s->loc);
    lw_close(lw, saved);
}

static void connaddr_assign(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *ca = s->u.assign.target;
    Expr *from = ca->u.connaddr.from, *to = ca->u.connaddr.to;
    /* from = netobj.g1[i].o, to = netobj.g2[j].i */
    Expr *fs = from->u.select.obj, *ts = to->u.select.obj;
    Expr *fg = fs->u.subscript.obj, *tg = ts->u.subscript.obj;
    IrExpr *netx, *repx, *tnetx, *trepx;
    LowerNet *ln, *tln;
    lw_net_object(lw, fg->u.select.obj, &netx, &repx, &ln);
    lw_net_object(lw, tg->u.select.obj, &tnetx, &trepx, &tln);
    /* A value that may move network storage (a central-agent function that
     * REPLICATEs, or one that reaches EXTEND, CONNECT, DISCONNECT or node
     * copies) is evaluated before the connection is looked up, as in
     * assign_stmt: the record the helper returns lives in the bundle's
     * storage, which the value's calls may free. */
    Expr *v = s->u.assign.value;
    IrStmt *saved = lw_storage_may_move(lw) && lw_moves_storage(v) ? lw_open(lw, s->loc) : NULL;
    IrExpr *val = NULL;
    if (saved) {
        IrVar *tv = lw_decl(lw, "val", lw_vt(lw, v->type), lw_expr(lw, v), s->loc);
        tv->is_const = true;
        val = lw_convert_to(lw, ir_ref(m, tv), v->type, from->sym->type);
    }
    /* The address names the network's only exemplar (the helper refuses a
     * replicated network), but a side written net[i] still evaluates and
     * checks its replicate subscript (§10.3.3): net[1] of an unreplicated
     * network is an error, not replicate 0. */
    if (fg->u.select.obj->kind == EXPR_SUBSCRIPT)
        lw_eval(lw, repx, s->loc);
    if (tg->u.select.obj->kind == EXPR_SUBSCRIPT)
        lw_eval(lw, trepx, s->loc);
    int sg = lower_group_index(ln, fg->sym), dg = lower_group_index(ln, tg->sym);
    int b = lower_bundle_index(ln, sg, from->sym, dg, to->sym);
    const IrType *T = lw_vt(lw, from->sym->type);
    IrExpr *p = ir_helper(m, IRH_CONN_ADDRESS, ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false),
                          IR_ARGS(netx, ir_i32(m, b), lw_expr(lw, fs->u.subscript.index),
                                  lw_expr(lw, ts->u.subscript.index), lw_pos(lw, s->loc)));
    lw_assign(lw, ir_deref(m, ir_cast(m, ir_t_ptr(m, T, false), p)),
              val ? val : lw_expr_as(lw, v, from->sym->type), s->loc);
    if (saved)
        lw_close(lw, saved);
}

/* `lv op= value` for an assignment statement; the address of lv is
 * evaluated once.  val: the value already evaluated (of the value's type),
 * or NULL to lower it here. */
static void assign_to(Lw *lw, Stmt *s, IrExpr *lv, IrExpr *val)
{
    IrModule *m = M(lw);
    Expr *t = s->u.assign.target, *v = s->u.assign.value;
    if (s->u.assign.op == ASSIGN_SET) {
        lw_assign(lw, lv, val ? lw_convert_to(lw, val, v->type, t->type) : lw_expr_as(lw, v, t->type),
                  s->loc);
        return;
    }
    IrStmt *saved = lw_open(lw, s->loc);
    IrVar *p = lw_decl(lw, "p", ir_t_ptr(m, lw_vt(lw, t->type), false), ir_addr(m, lv), s->loc);
    IrExpr *cur = ir_deref(m, ir_ref(m, p));
    lw_assign(lw, ir_deref(m, ir_ref(m, p)),
              val ? lw_compound_value(lw, s, cur, val) : lw_compound_rhs(lw, s, cur), s->loc);
    lw_close(lw, saved);
}

/* ---- stores through the bare network variable --------------------------------------------- */

/* Appends the subscript index idx to b (no temporary yet). */
void lw_bare_add(Lw *lw, LwBare *b, Expr *idx)
{
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 8;
        Expr **ni = arena_alloc(lw->arena, (size_t)cap * sizeof *ni);
        IrVar **nt = arena_alloc(lw->arena, (size_t)cap * sizeof *nt);
        if (b->n) {
            memcpy(ni, b->idx, (size_t)b->n * sizeof *ni);
            memcpy(nt, b->tmp, (size_t)b->n * sizeof *nt);
        }
        b->idx = ni;
        b->tmp = nt;
        b->cap = cap;
    }
    b->idx[b->n] = idx;
    b->tmp[b->n] = NULL;
    b->n++;
}

/* The location `net.path` of the central agent: the root of the path is
 * the network variable itself (not net[i], which names one replicate);
 * true with the subscripts of the path in b (outermost last). */
static bool bare_path(Lw *lw, Expr *e, LwBare *b)
{
    while (e) {
        switch (e->kind) {
        case EXPR_SELECT:
            e = e->u.select.obj;
            break;
        case EXPR_SUBSCRIPT:
            if (e->u.subscript.obj->type && e->u.subscript.obj->type->kind == TY_NETWORK)
                return false; /* net[i].path: replicate i alone */
            lw_bare_add(lw, b, e->u.subscript.index);
            e = e->u.subscript.obj;
            break;
        case EXPR_NAME:
            return e->type && e->type->kind == TY_NETWORK && e->sym && e->sym->is_global &&
                   ptrmap_get(&lw->vars, e->sym, NULL, 0);
        default:
            return false;
        }
    }
    return false;
}

bool lw_bare_applies(Lw *lw, Expr *target)
{
    LwBare b;
    memset(&b, 0, sizeof b);
    return lw->fn && lw->fn->ctx == CTX_CA && !lw->fn->lane && target &&
           (target->kind == EXPR_SELECT || target->kind == EXPR_SUBSCRIPT) && target->type &&
           !type_is_node_collection(target->type) && bare_path(lw, target, &b);
}

bool lw_bare_begin(Lw *lw, Expr *target, LwBare *b, Loc loc)
{
    memset(b, 0, sizeof *b);
    if (!lw_bare_applies(lw, target))
        return false;
    bare_path(lw, target, b);
    b->target = target;
    /* the indices in the order they appear (outermost first) */
    for (int i = b->n - 1; i >= 0; i--) {
        Expr *x = b->idx[i];
        if (x->kind == EXPR_INT) { /* nothing to evaluate twice */
            b->tmp[i] = NULL;
            continue;
        }
        b->tmp[i] = lw_decl(lw, "bx", lw_vt(lw, x->type), lw_expr(lw, x), loc);
        b->tmp[i]->is_const = true;
    }
    /* keep only those with a temporary */
    int k = 0;
    for (int i = 0; i < b->n; i++)
        if (b->tmp[i]) {
            b->idx[k] = b->idx[i];
            b->tmp[k++] = b->tmp[i];
        }
    b->n = k;
    b->up = lw->bare;
    lw->bare = b;
    return true;
}

/* The address of a FOR variable is evaluated once, before the loop
 * (docs/language-decisions.md): each subscript on its path that is not a
 * literal gets a temporary that every use of the variable reads
 * (lw_sub_index); lw_indices_end drops them after the loop. */
void lw_for_var_once(Lw *lw, Expr *var, LwBare *b, Loc loc)
{
    memset(b, 0, sizeof *b);
    for (Expr *e = var; e;) {
        if (e->kind == EXPR_SELECT) {
            e = e->u.select.obj;
        } else if (e->kind == EXPR_SUBSCRIPT) {
            if (e->u.subscript.index->kind != EXPR_INT)
                lw_bare_add(lw, b, e->u.subscript.index);
            e = e->u.subscript.obj;
        } else {
            break;
        }
    }
    if (!b->n)
        return;
    /* outermost first, as written */
    for (int i = b->n - 1; i >= 0; i--) {
        Expr *x = b->idx[i];
        b->tmp[i] = lw_decl(lw, "fx", lw_vt(lw, x->type), lw_expr(lw, x), loc);
        b->tmp[i]->is_const = true;
    }
    b->up = lw->bare;
    lw->bare = b;
}

void lw_bare_end(Lw *lw, LwBare *b)
{
    if (b->target && lw->bare == b)
        lw->bare = b->up;
}

/* The location target in replicate r (NULL: 0), a node in lane blocks
 * through its lane. */
static void bare_store(Lw *lw, Expr *target, IrVar *r, IrExpr *value, Loc loc)
{
    IrVar *saved = lw->bare_rep;
    lw->bare_rep = r;
    if (!lw_ca_node_store(lw, target, value, loc))
        lw_assign(lw, lw_lvalue(lw, target), value, loc);
    lw->bare_rep = saved;
}

void lw_bare_copy(Lw *lw, LwBare *b, Loc loc)
{
    if (!b->target)
        return;
    IrModule *m = M(lw);
    const IrType *i32 = ir_t(m, IRT_I32);
    Expr *t = b->target, *root = t;
    while (root->kind == EXPR_SELECT || root->kind == EXPR_SUBSCRIPT)
        root = root->kind == EXPR_SELECT ? root->u.select.obj : root->u.subscript.obj;
    IrVar *g = ptrmap_get(&lw->vars, root->sym, NULL, 0);
    IrStmt *saved = lw_open(lw, loc);
    IrVar *r = fresh(lw, "r", i32);
    IrStmt *loop = range_loop(lw, IRFOR_REPS, r, ir_i32(m, 1),
                              ir_binary(m, IROP_SUB, i32,
                                        ir_netinfo(m, IRN_NREPS, ir_addr(m, ir_ref(m, g)), NULL, NULL),
                                        ir_i32(m, 1)),
                              loc);
    lw_push(lw, loop->then);
    IrVar *keep = lw->bare_rep;
    lw->bare_rep = NULL;
    IrExpr *v = lw_ca_node_value(lw, t);
    if (!v)
        v = lw_lvalue(lw, t);
    lw->bare_rep = keep;
    bare_store(lw, t, r, v, loc);
    lw_close(lw, saved);
}

static void assign_stmt(Lw *lw, Stmt *s)
{
    Expr *t = s->u.assign.target;
    if (t->kind == EXPR_CONNADDR) {
        connaddr_assign(lw, s);
        return;
    }
    /* through the bare network variable: the store into replicate 0, then
       copied to the others */
    LwBare bare;
    bool all = lw_bare_applies(lw, t);
    /* a value that may move network storage (a central-agent function
       that REPLICATEs, EXTENDs, ..., or in network code a network function
       that deletes or copies nodes) is evaluated before the target's
       address is taken: the target may be in the storage it frees */
    Expr *v = s->u.assign.value;
    bool ca = lw->fn && lw_storage_may_move(lw);
    bool first = ca && lw_moves_storage(v);
    IrStmt *saved = all || (ca && (first || lw_moves_storage(t))) ? lw_open(lw, s->loc) : NULL;
    IrExpr *val = NULL;
    if (first) {
        IrVar *tv = lw_decl(lw, "val", lw_vt(lw, v->type), lw_expr(lw, v), s->loc);
        tv->is_const = true;
        val = ir_ref(M(lw), tv);
    }
    /* likewise the target's subscripts (the bare case evaluates them all
       before the store) */
    LwBare ix;
    if (all)
        lw_bare_begin(lw, t, &bare, s->loc);
    else
        lw_indices_first(lw, t, &ix);
    LwCaNode cn;
    if (s->u.assign.op == ASSIGN_SET && t->type && t->type->kind == TY_NODE && lw_ca_node(lw, t, &cn))
        lw_ca_node_store(lw, t, val ? lw_convert_to(lw, val, v->type, t->type) : lw_expr_as(lw, v, t->type),
                         s->loc);
    else
        assign_to(lw, s, lw_lvalue(lw, t), val);
    if (all) {
        lw_bare_copy(lw, &bare, s->loc);
        lw_bare_end(lw, &bare);
    } else {
        lw_indices_end(lw, &ix);
    }
    if (saved)
        lw_close(lw, saved);
}

/* ---- control flow ---------------------------------------------------------------------------- */

static void stmt(Lw *lw, Stmt *s);

/* FOR v := a TO b: semantics 8.6, after the last round v is one past the
 * bound; the step wraps like the type's arithmetic, so a bound at the
 * type's end ends the loop instead of running on. */
/* The FOR variable plus (minus) one (semantics 8.6).  The step after the
 * last round (stop) wraps like the variable's type, so that a bound at the
 * end of the range ends the loop; any other step that leaves the range is
 * an integer overflow (checked with --check-overflow, as for `i += 1`). */
IrExpr *lw_for_step(Lw *lw, Expr *var, bool down, IrVar *stop, Loc loc)
{
    IrModule *m = M(lw);
    const IrType *i64 = ir_t(m, IRT_I64), *u64 = ir_t(m, IRT_U64), *vt = lw_vt(lw, var->type);
    IrExpr *wrap = ir_cast(m, vt, ir_binary(m, down ? IROP_SUB : IROP_ADD, u64,
                                            ir_cast(m, u64, lw_i64(lw, lw_lvalue(lw, var))),
                                            ir_int(m, u64, 1)));
    IrExpr *checked = lw_chk(lw, var->type, loc,
                             ir_binary(m, down ? IROP_SUB : IROP_ADD, i64,
                                       lw_i64(lw, lw_lvalue(lw, var)), ir_int(m, i64, 1)));
    return ir_cond(m, vt, ir_ref(m, stop), wrap, checked);
}

static void for_stmt(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    Expr *var = s->u.for_.var;
    bool down = s->u.for_.dir == FOR_DOWNTO;
    const IrType *bt = ir_t(m, IRT_BOOL), *i64 = ir_t(m, IRT_I64);
    IrStmt *saved = lw_open(lw, s->loc);
    /* a variable through the bare network variable: every assignment of it
       reaches every replicate (the body may read it in each) */
    Expr *from = s->u.for_.from;
    IrExpr *fv = NULL;
    if (lw->fn && lw_storage_may_move(lw) && lw_moves_storage(from)) {
        /* before the variable's address (assign_stmt) */
        IrVar *t = lw_decl(lw, "from", lw_vt(lw, var->type), lw_expr_as(lw, from, var->type), s->loc);
        t->is_const = true;
        fv = ir_ref(m, t);
    }
    LwBare bare, once;
    bool all = lw_bare_begin(lw, var, &bare, s->loc);
    memset(&once, 0, sizeof once);
    if (!all)
        lw_for_var_once(lw, var, &once, s->loc);
    IrExpr *v = lw_lvalue(lw, var);
    lw_assign(lw, v, fv ? fv : lw_expr_as(lw, from, var->type), s->loc);
    if (all)
        lw_bare_copy(lw, &bare, s->loc);
    IrVar *to = lw_decl(lw, "to", i64, lw_expr(lw, s->u.for_.to), s->loc);
    to->is_const = true;
    IrStmt *loop = lw_add(lw, IRS_LOOP, s->loc);
    loop->then = ir_block(m, s->loc);
    lw_push(lw, loop->then);
    IrStmt *test = lw_add(lw, IRS_IF, s->loc);
    test->a = ir_unary(m, IROP_NOT, bt, ir_binary(m, down ? IROP_GE : IROP_LE, bt, lw_lvalue(lw, var),
                                                   ir_ref(m, to)));
    test->then = ir_block(m, s->loc);
    ir_append(m, test->then, ir_s(m, IRS_BREAK, s->loc));
    lw_block(lw, s->u.for_.body);
    if (s->u.for_.until_cond) {
        IrStmt *u = lw_add(lw, IRS_IF, s->loc);
        u->a = lw_expr(lw, s->u.for_.until_cond);
        u->then = ir_block(m, s->loc);
        ir_append(m, u->then, ir_s(m, IRS_BREAK, s->loc));
    }
    IrVar *stop = lw_decl(lw, "stop", ir_t(m, IRT_BOOL),
                          ir_binary(m, IROP_EQ, bt, lw_lvalue(lw, var), ir_ref(m, to)), s->loc);
    stop->is_const = true;
    lw_assign(lw, lw_lvalue(lw, var), lw_for_step(lw, var, down, stop, s->loc), s->loc);
    if (all)
        lw_bare_copy(lw, &bare, s->loc);
    IrStmt *st = lw_add(lw, IRS_IF, s->loc);
    st->a = ir_ref(m, stop);
    st->then = ir_block(m, s->loc);
    ir_append(m, st->then, ir_s(m, IRS_BREAK, s->loc));
    if (all)
        lw_bare_end(lw, &bare);
    lw_indices_end(lw, &once);
    lw_close(lw, saved);
}

static void if_stmt(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    IrStmt *outer = NULL, *last = NULL;
    for (int i = 0; i < s->u.if_.arms.len; i++) {
        IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
        IrStmt *is = ir_s(m, IRS_IF, arm->loc);
        if (!outer)
            ir_append(m, lw->blk, is);
        else { /* ELSIF: the else branch holds the next test */
            last->els = ir_block(m, arm->loc);
            ir_append(m, last->els, is);
        }
        IrStmt *saved = lw_push(lw, is);
        is->a = lw_expr(lw, arm->cond);
        lw_close(lw, saved);
        is->then = ir_block(m, arm->loc);
        saved = lw_push(lw, is->then);
        lw_block(lw, arm->body);
        lw_close(lw, saved);
        if (!outer)
            outer = is;
        last = is;
    }
    if (s->u.if_.else_body) {
        last->els = ir_block(m, s->loc);
        IrStmt *saved = lw_push(lw, last->els);
        lw_block(lw, s->u.if_.else_body);
        lw_close(lw, saved);
    }
}

static void loop_stmt(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    IrStmt *loop = lw_add(lw, IRS_LOOP, s->loc);
    loop->then = ir_block(m, s->loc);
    IrStmt *saved = lw_push(lw, loop->then);
    if (s->u.loop.while_cond) {
        IrStmt *w = lw_add(lw, IRS_IF, s->loc);
        w->a = ir_unary(m, IROP_NOT, ir_t(m, IRT_BOOL), lw_expr(lw, s->u.loop.while_cond));
        w->then = ir_block(m, s->loc);
        ir_append(m, w->then, ir_s(m, IRS_BREAK, s->loc));
    }
    lw_block(lw, s->u.loop.body);
    if (s->u.loop.until_cond) {
        IrStmt *u = lw_add(lw, IRS_IF, s->loc);
        u->a = lw_expr(lw, s->u.loop.until_cond);
        u->then = ir_block(m, s->loc);
        ir_append(m, u->then, ir_s(m, IRS_BREAK, s->loc));
    }
    lw_close(lw, saved);
}

static void stmt(Lw *lw, Stmt *s)
{
    IrModule *m = M(lw);
    if (lw->fn && lw->fn->merge_inst &&
        (s->kind == STMT_REDUCTION || s->kind == STMT_WTA || s->kind == STMT_REPLICATE)) {
        lw_unsupported(lw, s->loc, "REDUCTION, WTA or REPLICATE ME in a subroutine that a "
                                   "MERGE procedure calls (it has no network there)");
        return;
    }
    switch (s->kind) {
    case STMT_ASSIGN:
        assign_stmt(lw, s);
        break;
    case STMT_INPUT:
    case STMT_OUTPUT:
        io_stmt(lw, s);
        break;
    case STMT_CALL:
        call_stmt(lw, s->u.call.call);
        break;
    case STMT_OBJCALL:
        objcall_stmt(lw, s->u.call.call);
        break;
    case STMT_MULTICALL: {
        /* the components may run in any order: one after the other, each
           parallel inside; what they request of the topology takes effect
           when all have completed (semantics §7), so that the nodes the
           later components select are the ones there were at the start */
        bool outer = lw->defer_commit;
        IrExpr *outer_net = lw->deferred_commit;
        lw->defer_commit = true;
        lw->deferred_commit = NULL;
        for (int i = 0; i < s->u.multi.calls.len; i++)
            objcall_stmt(lw, VEC_AT(s->u.multi.calls, i, Expr));
        IrExpr *net = lw->deferred_commit;
        lw->defer_commit = outer;
        lw->deferred_commit = outer_net;
        if (net)
            lw_eval(lw, ir_helper(M(lw), IRH_COMMIT_TOPOLOGY, ir_t(M(lw), IRT_VOID),
                                  IR_ARGS(net, lw_pos(lw, s->loc))),
                    s->loc);
        break;
    }
    case STMT_REDUCTION:
        if (lw_bare_applies(lw, s->u.reduction.into)) {
            /* INTO net.path: the result reaches every replicate */
            LwBare bare;
            IrStmt *saved = lw_open(lw, s->loc);
            lw_bare_begin(lw, s->u.reduction.into, &bare, s->loc);
            combine(lw, s, false, &bare);
            lw_bare_end(lw, &bare);
            lw_close(lw, saved);
        } else {
            combine(lw, s, false, NULL);
        }
        break;
    case STMT_WTA:
        combine(lw, s, true, NULL);
        break;
    case STMT_RETURN: {
        IrStmt *r = lw_add(lw, IRS_RETURN, s->loc);
        if (s->u.ret.value && lw->fn && lw->fn->subr && lw->fn->subr->sub->result) {
            IrStmt *saved = lw_push(lw, r); /* (no statements go to r) */
            r->a = lw_expr_as(lw, s->u.ret.value, lw->fn->subr->sub->result);
            lw_close(lw, saved);
        }
        break;
    }
    case STMT_IF:
        if_stmt(lw, s);
        break;
    case STMT_LOOP:
        loop_stmt(lw, s);
        break;
    case STMT_FOR:
        for_stmt(lw, s);
        break;
    case STMT_BREAK:
        lw_add(lw, IRS_BREAK, s->loc);
        break;
    case STMT_REPLICATE:
        replicate_stmt(lw, s);
        break;
    case STMT_EXTEND: {
        Expr *g = s->u.replicate.obj;
        lw_eval(lw, ir_helper(m, IRH_EXTEND, ir_t(m, IRT_VOID),
                              IR_ARGS(ir_ref(m, lw->fn->net_v), ir_i32(m, lower_group_index(lw->fn->net, g->sym)),
                                      lw_expr(lw, s->u.replicate.count), lw_pos(lw, s->loc))),
                s->loc);
        break;
    }
    case STMT_CONNECT:
    case STMT_DISCONNECT:
        connect_stmt(lw, s);
        break;
    case STMT_MERGE: {
        IrExpr *netx, *repx;
        LowerNet *ln;
        lw_net_object(lw, s->u.merge.obj, &netx, &repx, &ln);
        IrStmt *e = lw_add(lw, IRS_EVAL, s->loc);
        e->a = ir_helper(m, IRH_MERGE, ir_t(m, IRT_VOID), IR_ARGS(netx, lw_pos(lw, s->loc)));
        e->origin = s;
        break;
    }
    default:
        lw_unsupported(lw, s->loc, "this statement");
    }
}

/* Local data objects: declared zeroed (so that reading an uninitialized
 * CuPit variable is deterministic), then initialized in textual order; in
 * lane code each (but an I/O area) is an array over the lanes. */
void lw_declare_locals(Lw *lw, Block *b)
{
    IrModule *m = M(lw);
    bool lane = lw->fn && lw->fn->lane;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            InitId *id = VEC_AT(d->u.data.ids, j, InitId);
            Symbol *sym = id->sym;
            IrVar *v;
            if (sym->access == ACCESS_IO) {
                v = ir_var(m, lw_local_name(lw, sym), ir_t(m, IRT_IO), IRV_LOCAL);
                IrStmt *s = lw_add(lw, IRS_DECL, id->id.loc);
                s->var = v;
                s->a = ir_struct(m, ir_t(m, IRT_IO));
                ir_struct_add(m, s->a, "elem_size", ir_sizeof(m, lw_vt(lw, sym->type)));
            } else {
                const IrType *t = lw_vt(lw, sym->type);
                v = ir_var(m, lw_local_name(lw, sym), lane ? ir_t_lanes(m, t) : t, IRV_LOCAL);
                IrStmt *s = lw_add(lw, IRS_DECL, id->id.loc);
                s->var = v;
            }
            v->sym = sym;
            ptrmap_put(lw->arena, &lw->vars, sym, cur_fn(lw), 0, v);
        }
    }
}

void lw_locals(Lw *lw, Block *b)
{
    lw_declare_locals(lw, b);
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            InitId *id = VEC_AT(d->u.data.ids, j, InitId);
            Symbol *sym = id->sym;
            if (sym->access == ACCESS_IO)
                continue;
            IrVar *v = ptrmap_get(&lw->vars, sym, cur_fn(lw), 0);
            lw_default_init(lw, sym->type, ir_ref(M(lw), v), id->id.loc);
            if (id->init)
                lw_assign(lw, ir_ref(M(lw), v), lw_expr_as(lw, id->init, sym->type), id->id.loc);
        }
    }
}

void lw_block(Lw *lw, Block *b)
{
    if (!b)
        return;
    IrStmt *saved = lw_open(lw, b->loc);
    lw_locals(lw, b);
    for (int i = 0; i < b->stmts.len && !lw->failed; i++)
        stmt(lw, VEC_AT(b->stmts, i, Stmt));
    lw_close(lw, saved);
}
