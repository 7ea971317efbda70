/* cg_stmt.c -- C for CuPit statements, including the parallel ones.
 *
 * Group procedure calls become loops over the selected nodes, replicates
 * or connections; the outermost loop with enough work is an OpenMP
 * parallel for (cp_par() in the prelude refuses nested and tiny loops).
 * REDUCTION and WTA combine in index order, so results do not depend on
 * the thread count.  Topology changes requested inside a parallel call are
 * committed by the network-level caller after the call has completed. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cg_internal.h"


/* A parallel variable split into its collection and optional interval:
 * X[] -> (X, NULL), X[a...b] -> (X, a...b), bare X (leniency) -> (X, NULL). */
void cg_split_multi(Expr *pv, Expr **base, Expr **range)
{
    *range = NULL;
    if (pv->kind == EXPR_ALLSLICE) {
        *base = pv->u.allslice.obj;
    } else if (pv->kind == EXPR_SUBSCRIPT && !type_is_integral(pv->u.subscript.index->type)) {
        *base = pv->u.subscript.obj;
        *range = pv->u.subscript.index;
    } else {
        *base = pv;
    }
}

/* Declares lo/hi clipped to [0, count-1] (and to the interval, if any). */
static void emit_range(Cg *cg, Expr *range, const char *count, const char *lo, const char *hi)
{
    emit(cg->out, "int32_t %s = 0, %s = (int32_t)(%s) - 1;", lo, hi, count);
    if (range) {
        const char *s = cg_fresh(cg, "sl");
        emit(cg->out, "const cp_interval %s = %s;", s,
             cg_expr_as(cg, range, cg->si->builtin[TY_INTERVAL]));
        emit(cg->out, "if (%s.min > %s) %s = %s.min;", s, lo, lo, s);
        emit(cg->out, "if (%s.max < %s) %s = %s.max;", s, hi, hi, s);
    }
}

/* Evaluates call arguments once into temporaries (broadcast to every
 * execution of a group call) and returns the argument list. */
static const char *args_to_temps(Cg *cg, Symbol *subr, PtrVec *args, const char *prefix)
{
    CgStr list = {0};
    cg_str_add(cg, &list, "%s", prefix);
    for (int i = 0; i < args->len && i < subr->sub->params.len; i++) {
        Symbol *p = VEC_AT(subr->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        const char *t = cg_fresh(cg, "arg");
        if (p->access == ACCESS_CONST)
            emit(cg->out, "const %s %s = %s;", cg_ctype(cg, p->type), t,
                 cg_expr_as(cg, a, p->type));
        else if (p->access == ACCESS_IO)
            emit(cg->out, "cp_io *%s = &%s;", t, cg_lvalue(cg, a));
        else
            emit(cg->out, "%s *%s = &%s;", cg_ctype(cg, p->type), t, cg_lvalue(cg, a));
        emit(cg->out, "(void)%s;", t); /* an interface may have no bundles here */
        cg_str_add(cg, &list, "%s%s", list.len ? ", " : "", t);
    }
    return cg_str_get(&list);
}

static void commit_if_needed(Cg *cg, Symbol *callee, Loc loc)
{
    if (cg_may_topo(cg, callee))
        emit(cg->out, "rt_commit_topology(net, %s);", cg_pos(cg, loc));
}

/* The loop header over the live connections of interface `ifc` of node
 * `idx` in bundle b; the body sees k (connection index) and C_ (the
 * records: plain ones, or lane records in lane code, where topology is
 * frozen and nothing can be marked for deletion).  Returns false if the
 * bundle does not touch the interface. */
bool cg_open_conn_loop(Cg *cg, int b, const Symbol *ifc, const char *k)
{
    CgFn *fn = cg->fn;
    CgBundle *bu = &fn->net->bundles[b];
    bool in = bu->dst_group == fn->group && bu->dst_iface == ifc;
    bool out = bu->src_group == fn->group && bu->src_iface == ifc;
    if (!in && !out)
        return false;
    Emitter *o = cg->out;
    emit_open(o, "%s", "");
    emit(o, "const rt_bundle *B_ = &net->bundles[%d];", b);
    if (cg->lane) {
        emit(o, "%s *C_ = net->blocks[blk].conns[%d];", cg_lane_type(cg, bu->conn), b);
        if (cg_has_shared(cg, bu->conn))
            emit(o, "%s *CS_ = net->blocks[blk].conns_shared[%d]; (void)CS_;",
                 cg_shared_type(cg, bu->conn), b);
    } else
        emit(o, "%s *C_ = net->reps[rep].conns[%d];", cg_ctype(cg, bu->conn), b);
    if (in) {
        emit_open(o, "for (int32_t %s = B_->dst_start[idx]; %s < B_->dst_start[idx + 1]; %s++)",
                  k, k, k);
    } else {
        const char *j = cg_fresh(cg, "j");
        emit_open(o, "for (int32_t %s = B_->src_start[idx]; %s < B_->src_start[idx + 1]; %s++)",
                  j, j, j);
        emit(o, "const int32_t %s = B_->by_src[%s];", k, j);
    }
    if (cg->conn_deletion && !cg->lane)
        emit(o, "if (B_->any_dead && B_->dead[%s]) continue;", k);
    return true;
}

void cg_close_conn_loop(Cg *cg)
{
    emit_close(cg->out, "%s", "");
    emit_close(cg->out, "%s", "");
}

/* A loop that runs as an OpenMP parallel for when `cond` holds.  The
 * serial branch does not enter OpenMP at all: even a parallel region with an
 * if(false) clause costs a futex call, which dominates small group calls. */
static void parallel_loop(Cg *cg, const char *cond, const char *loop)
{
    Emitter *o = cg->out;
    emit_open(o, "if (%s)", cond);
    emit_directive(o, "CP_PRAGMA(omp parallel for schedule(static))");
    emit(o, "%s", loop);
    emit_close(o, "%s", "");
    emit_open(o, "else");
    emit(o, "%s", loop);
    emit_close(o, "%s", "");
}

/* Loop over the nodes of group g (lo..hi) of the current replicate. */
static void node_group_call(Cg *cg, CgNet *net, int g, Expr *range, Symbol *proc,
                            PtrVec *args, Loc loc)
{
    Emitter *o = cg->out;
    emit_open(o, "%s", "");
    const char *lo = cg_fresh(cg, "lo"), *hi = cg_fresh(cg, "hi"), *i = cg_fresh(cg, "i");
    emit_range(cg, range, cg_fmt(cg, "net->count[%d]", g), lo, hi);
    const char *a = args_to_temps(cg, proc, args, cg_fmt(cg, "net, rep, %s", i));
    const char *loop = cg_fmt(cg, "for (int32_t %s = %s; %s <= %s; %s++) %s(%s);", i, lo, i, hi, i,
                           cg_node_fn_name(cg, net, g, proc), a);
    parallel_loop(cg, cg_fmt(cg, "cp_par(net, (int64_t)(%s - %s + 1) * 8)", hi, lo), loop);
    commit_if_needed(cg, proc, loc);
    emit_close(o, "%s", "");
}

/* Calls a connection procedure for every connection at interface ifc. */
static void iface_call(Cg *cg, Symbol *ifc, Symbol *proc, PtrVec *args)
{
    Emitter *o = cg->out;
    emit_open(o, "%s", "");
    const char *a = args_to_temps(cg, proc, args, "");
    for (int b = 0; b < cg->fn->net->nbundles; b++) {
        const char *k = cg_fresh(cg, "k");
        if (!cg_open_conn_loop(cg, b, ifc, k))
            continue;
        emit(o, "%s(net, %d, %s, &C_[%s]%s%s);", cg_subr_name(cg, proc), b, k, k, *a ? ", " : "",
             a);
        cg_close_conn_loop(cg);
    }
    emit_close(o, "%s", "");
}

/* net[].p(), net.p(), net[a...b].p(): every selected replicate. */
/* Lane arrays holding the same (scalar temporary) arguments in every lane,
 * for a lane call from the central agent; returns ", L1, L2". */
static const char *broadcast_args(Cg *cg, Symbol *proc, const char *temps_csv)
{
    CgStr list = {0};
    const char *p = temps_csv;
    for (int i = 0; i < proc->sub->params.len; i++) {
        Symbol *prm = VEC_AT(proc->sub->params, i, Symbol);
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *t = arena_strndup(cg->arena, p, n);
        p = comma ? comma + 2 : p + n;
        if (prm->access == ACCESS_IO) {
            cg_str_add(cg, &list, ", %s", t);
            continue;
        }
        const char *la = cg_fresh(cg, "bc");
        emit(cg->out, "%s %s[RT_LANES];", cg_ctype(cg, prm->type), la);
        emit(cg->out, "for (int l = 0; l < RT_LANES; l++) %s[l] = %s;", la, t);
        cg_str_add(cg, &list, ", %s", la);
    }
    return cg_str_get(&list);
}

/* A network procedure call from the central agent on replicates lo..hi
 * (declared by the caller with the network in n_): lane blocks when the
 * network is replicated in lanes, else one call per replicate. */
static void call_replicates(Cg *cg, Symbol *proc, PtrVec *args, const char *lo, const char *hi)
{
    Emitter *o = cg->out;
    const char *temps = args_to_temps(cg, proc, args, "");
    const char *r = cg_fresh(cg, "r");
    /* one replicate (or one lane block) has nothing to share out, and a
       region around it would keep the call's own loops serial */
    bool single = strcmp(lo, hi) == 0;
    const char *work = single ? "false"
                              : cg_fmt(cg, "%s > %s && cp_par(n_, (int64_t)(%s - %s + 1) * "
                                           "cp_net_work(n_))", hi, lo, hi, lo);
    if (cg->opts.lanes) {
        if (strcmp(lo, hi) == 0)
            emit_open(o, "if (n_->blocks)");
        else
            emit_open(o, "if (n_->blocks && %s <= %s)", lo, hi);
        const char *la = broadcast_args(cg, proc, temps);
        const char *j = cg_fresh(cg, "blk");
        const char *loop = cg_fmt(cg,
            "for (int32_t %s = %s / RT_LANES; %s <= %s / RT_LANES; %s++) { int32_t m_[RT_LANES]; "
            "for (int l = 0; l < RT_LANES; l++) { int32_t q_ = %s * RT_LANES + l; m_[l] = q_ >= %s && q_ <= %s; } "
            "%s(n_, %s, m_%s); }",
            j, lo, j, hi, j, j, lo, hi, cg_lane_fn_name(cg, proc, NULL, -1), j, la);
        parallel_loop(cg, single ? "false"
                                 : cg_fmt(cg, "%s / RT_LANES < %s / RT_LANES && "
                                          "cp_par_lanes(n_, (int64_t)(%s - %s + 1) * cp_net_work(n_))",
                                          lo, hi, hi, lo), loop);
        emit_close(o, "%s", "");
        emit_open(o, "else");
    }
    const char *loop = cg_fmt(cg, "for (int32_t %s = %s; %s <= %s; %s++) %s(n_, %s%s%s);", r, lo, r, hi,
                           r, cg_subr_name(cg, proc), r, *temps ? ", " : "", temps);
    parallel_loop(cg, work, loop);
    if (cg->opts.lanes)
        emit_close(o, "%s", "");
}

/* net[].p(), net.p(), net[a...b].p(): every selected replicate. */
static void replicates_call(Cg *cg, Expr *obj, Symbol *proc, PtrVec *args)
{
    Emitter *o = cg->out;
    Expr *base, *range;
    cg_split_multi(obj, &base, &range);
    const char *netx, *repx;
    CgNet *cn;
    cg_net_object(cg, base, &netx, &repx, &cn);
    emit_open(o, "%s", "");
    emit(o, "rt_net *const n_ = %s;", netx);
    const char *lo = cg_fresh(cg, "lo"), *hi = cg_fresh(cg, "hi");
    emit_range(cg, range, "n_->nreps", lo, hi);
    call_replicates(cg, proc, args, lo, hi);
    emit_close(o, "%s", "");
}

/* One object procedure call statement (single object or multitude). */
/* A procedure call.  In the central agent of a program with lane blocks a
 * node X.g[i] passed as a VAR argument is copied into a plain record
 * before the call and back after it: while its network is replicated in
 * lanes, the node's replicate lives in a lane of a block (cg_ca_node). */
static void call_stmt(Cg *cg, Expr *call)
{
    Emitter *o = cg->out;
    Symbol *f = call->sym;
    PtrVec *args = &call->u.call.args;
    CgCaNode nodes[CG_MAX_ARG_TEMPS];
    bool copied[CG_MAX_ARG_TEMPS] = {0};
    bool any = false;
    for (int i = 0; i < args->len && i < f->sub->params.len && i < CG_MAX_ARG_TEMPS; i++) {
        Symbol *p = VEC_AT(f->sub->params, i, Symbol);
        if (p->access != ACCESS_VAR || p->type->kind != TY_NODE ||
            !cg_ca_node(cg, VEC_AT(*args, i, Expr), &nodes[i]))
            continue;
        if (!any)
            emit_open(o, "%s", "");
        any = true;
        CgCaNode *n = &nodes[i];
        emit(o, "rt_net *const vn%d_ = %s;", i, n->net);
        emit(o, "const int32_t vr%d_ = %s;", i, n->rep);
        emit(o, "const int32_t vi%d_ = __extension__ ({ rt_net *const n_ = vn%d_; %s; });", i, i,
             n->idx);
        emit(o, "%s *const vl%d_ = vn%d_->blocks ? &((%s *)vn%d_->blocks[vr%d_ / RT_LANES].nodes[%d])[vi%d_] : NULL;",
             cg_lane_type(cg, n->node), i, i, cg_lane_type(cg, n->node), i, i, n->g, i);
        emit(o, "%s *const vp%d_ = vn%d_->blocks ? NULL : &((%s *)vn%d_->reps[vr%d_].nodes[%d])[vi%d_];",
             cg_ctype(cg, n->node), i, i, cg_ctype(cg, n->node), i, i, n->g, i);
        emit(o, "%s vt%d_ = vl%d_ ? cpLaneRec_%s(vl%d_, NULL, vr%d_ %% RT_LANES) : *vp%d_;",
             cg_ctype(cg, n->node), i, i, n->node->name, i, i, i);
        cg->arg_temps[i] = cg_fmt(cg, "&vt%d_", i);
        copied[i] = true;
    }
    emit(o, "%s(%s);", cg_subr_name(cg, f), cg_args(cg, f, args, NULL));
    for (int i = 0; i < CG_MAX_ARG_TEMPS; i++) {
        if (copied[i])
            emit(o, "if (vl%d_) cpLanePut_%s(vl%d_, NULL, vr%d_ %% RT_LANES, &vt%d_); else *vp%d_ = vt%d_;",
                 i, nodes[i].node->name, i, i, i, i, i);
    }
    if (any)
        emit_close(o, "%s", "");
}

static void objcall_stmt(Cg *cg, Expr *call)
{
    Symbol *proc = call->sym;
    Expr *obj = call->u.objcall.obj;
    PtrVec *args = &call->u.objcall.args;
    Type *owner = proc->owner;
    Emitter *o = cg->out;

    if (call->call_kind == CALL_REPLICATES) {
        replicates_call(cg, obj, proc, args);
        return;
    }
    if (cg_in_merge(cg) && obj->kind == EXPR_ME && owner->kind != TY_RECORD) {
        emit(o, "%s;", cg_merge_call(cg, call));
        return;
    }
    if (call->call_kind == CALL_GROUP) {
        Expr *base, *range;
        cg_split_multi(obj, &base, &range);
        if (owner->kind == TY_NODE && cg->fn && cg->fn->net && base->kind == EXPR_SELECT) {
            node_group_call(cg, cg->fn->net, cg_group_index(cg->fn->net, base->sym), range, proc,
                            args, call->loc);
            return;
        }
        if (owner->kind == TY_CONNECTION && cg->fn && cg->fn->net && base->kind == EXPR_SELECT) {
            iface_call(cg, base->sym, proc, args);
            return;
        }
        cg_unsupported(cg, call->loc, "this group procedure call");
        return;
    }
    /* one object */
    switch (owner->kind) {
    case TY_RECORD:
        emit(o, "%s(%s);", cg_subr_name(cg, proc),
             cg_args(cg, proc, args, cg_fmt(cg, "&%s", cg_lvalue(cg, obj))));
        return;
    case TY_NETWORK: {
        const char *netx, *repx;
        CgNet *cn;
        cg_net_object(cg, obj, &netx, &repx, &cn);
        if (cg->opts.lanes && obj->kind != EXPR_ME) {
            /* net[i].p () from the central agent: replicate i only */
            emit_open(o, "%s", "");
            emit(o, "rt_net *const n_ = %s;", netx);
            emit(o, "const int32_t one_ = %s;", repx ? repx : "0");
            call_replicates(cg, proc, args, "one_", "one_");
            emit_close(o, "%s", "");
            return;
        }
        emit(o, "%s(%s);", cg_subr_name(cg, proc),
             cg_args(cg, proc, args, cg_fmt(cg, "%s, %s", netx, repx ? repx : "0")));
        return;
    }
    case TY_NODE:
        if (!cg->fn || !cg->fn->net)
            break;
        if (obj->kind == EXPR_ME) {
            emit(o, "%s(%s);", cg_node_fn_name(cg, cg->fn->net, cg->fn->group, proc),
                 cg_args(cg, proc, args, "net, rep, idx"));
            return;
        }
        if (obj->kind == EXPR_SUBSCRIPT && obj->u.subscript.obj->kind == EXPR_SELECT) {
            CgNet *net = cg->fn->net;
            int g = cg_group_index(net, obj->u.subscript.obj->sym);
            emit(o, "%s(%s);", cg_node_fn_name(cg, net, g, proc),
                 cg_args(cg, proc, args,
                         cg_fmt(cg, "net, rep, cp_idx(%s, %s, net->count[%d], \"%s\")",
                             cg_pos(cg, obj->loc), cg_expr(cg, obj->u.subscript.index), g,
                             obj->u.subscript.obj->sym->name)));
            commit_if_needed(cg, proc, call->loc);
            return;
        }
        break;
    case TY_CONNECTION:
        if (obj->kind == EXPR_ME) {
            emit(o, "%s(%s);", cg_subr_name(cg, proc), cg_args(cg, proc, args, "net, b, k, me"));
            return;
        }
        break;
    default:
        break;
    }
    cg_unsupported(cg, call->loc, "this object procedure call");
}

/* ---- REDUCTION and WTA --------------------------------------------------- */

/* Emits the loop over the elements a REDUCTION/WTA combines; `visit` is
 * then emitted with V_ = the element's value and W_ = its position. */
typedef struct Visit {
    const char *value_type;
    const char *index_decl; /* how to name the winner, per level */
} Visit;

static void combine(Cg *cg, Stmt *s, bool wta)
{
    Emitter *o = cg->out;
    Expr *pvs = wta ? s->u.wta.pv : s->u.reduction.pvs;
    Expr *pv = wta ? pvs : pvs->u.select.obj;
    Symbol *elem = wta ? s->target : pvs->sym;
    Symbol *fn = s->callee;
    int level = s->sem_flags & SEMF_LEVEL_MASK;
    Expr *base, *range;
    cg_split_multi(pv, &base, &range);
    const char *T = cg_ctype(cg, elem->type);
    const char *field = cg_field(cg, elem);
    const char *fname = cg_subr_name(cg, fn);
    /* per element: V_ value; winner bookkeeping */
    const char *step_red = cg_fmt(cg, "if (have_) acc_ = %s(acc_, v_); else { acc_ = v_; have_ = true; }", fname);

    emit_open(o, "%s", "");
    emit(o, "%s acc_ = {0};", T);
    emit(o, "bool have_ = false;");
    emit(o, "(void)acc_; (void)have_; /* an interface may have no bundles here */");
    if (level == SEMF_LEVEL_NET) {
        const char *netx, *repx;
        CgNet *cn;
        cg_net_object(cg, base, &netx, &repx, &cn);
        emit(o, "rt_net *const n_ = %s;", netx);
        if (wta)
            emit(o, "int32_t win_ = -1;");
        emit_range(cg, range, "n_->nreps", "lo_", "hi_");
        emit_open(o, "for (int32_t r_ = lo_; r_ <= hi_; r_++)");
        if (cg->opts.lanes)
            emit(o, "const %s v_ = n_->blocks ? ((%s *)n_->blocks[r_ / RT_LANES].net)->%s[r_ %% RT_LANES] : ((%s *)n_->reps[r_].net_data)->%s;",
                 T, cg_lane_type(cg, base->type), field, cg_ctype(cg, base->type), field);
        else
            emit(o, "const %s v_ = ((%s *)n_->reps[r_].net_data)->%s;", T, cg_ctype(cg, base->type), field);
        if (wta)
            emit(o, "if (!have_ || %s(v_, acc_)) { acc_ = v_; win_ = r_; have_ = true; }", fname);
        else
            emit(o, "%s", step_red);
        emit_close(o, "%s", "");
        if (wta) {
            if (cg->opts.lanes) {
                emit_open(o, "if (have_)");
                call_replicates(cg, s->proc, &s->u.wta.args, "win_", "win_");
                emit_close(o, "%s", "");
            } else {
                emit(o, "if (have_) %s(%s);", cg_subr_name(cg, s->proc),
                     cg_args(cg, s->proc, &s->u.wta.args, "n_, win_"));
            }
        }
    } else if (level == SEMF_LEVEL_NODE) {
        CgNet *net = cg->fn->net;
        int g = cg_group_index(net, base->sym);
        Type *node = type_node_of(base->sym->type);
        if (wta)
            emit(o, "int32_t win_ = -1;");
        emit_range(cg, range, cg_fmt(cg, "net->count[%d]", g), "lo_", "hi_");
        emit(o, "const %s *N_ = net->reps[rep].nodes[%d];", cg_ctype(cg, node), g);
        emit_open(o, "for (int32_t i_ = lo_; i_ <= hi_; i_++)");
        emit(o, "const %s v_ = N_[i_].%s;", T, field);
        if (wta)
            emit(o, "if (!have_ || %s(v_, acc_)) { acc_ = v_; win_ = i_; have_ = true; }", fname);
        else
            emit(o, "%s", step_red);
        emit_close(o, "%s", "");
        if (wta) {
            emit(o, "if (have_) %s(%s);", cg_node_fn_name(cg, net, g, s->proc),
                 cg_args(cg, s->proc, &s->u.wta.args, "net, rep, win_"));
            commit_if_needed(cg, s->proc, s->loc);
        }
    } else {
        Symbol *ifc = base->sym;
        if (wta)
            emit(o, "int32_t winb_ = -1, wink_ = -1;");
        for (int b = 0; b < cg->fn->net->nbundles; b++) {
            const char *k = cg_fresh(cg, "k");
            if (!cg_open_conn_loop(cg, b, ifc, k))
                continue;
            emit(o, "const %s v_ = C_[%s].%s;", T, k, field);
            if (wta)
                emit(o, "if (!have_ || %s(v_, acc_)) { acc_ = v_; winb_ = %d; wink_ = %s; have_ = true; }",
                     fname, b, k);
            else
                emit(o, "%s", step_red);
            cg_close_conn_loop(cg);
        }
        if (wta) {
            /* the winner's record, found through its bundle */
            emit_open(o, "if (have_)");
            emit(o, "void *const *cs_ = net->reps[rep].conns;");
            emit(o, "%s(%s);", cg_subr_name(cg, s->proc),
                 cg_args(cg, s->proc, &s->u.wta.args,
                         cg_fmt(cg, "net, winb_, wink_, (%s *)cs_[winb_] + wink_",
                             cg_ctype(cg, s->proc->owner))));
            emit_close(o, "%s", "");
        }
    }
    if (!wta)
        emit(o, "if (have_) %s = acc_;", cg_lvalue(cg, s->u.reduction.into));
    emit_close(o, "%s", "");
}

/* ---- topology statements ------------------------------------------------ */

/* For a PVS ME.g[...].iface: group index, range and interface. */
static int pvs_group(Cg *cg, Expr *pvs, Expr **range, Symbol **ifc)
{
    Expr *base;
    cg_split_multi(pvs->u.select.obj, &base, range);
    *ifc = pvs->sym;
    return cg_group_index(cg->fn->net, base->sym);
}

static void connect_stmt(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    Expr *sr, *dr;
    Symbol *si, *di;
    int sg = pvs_group(cg, s->u.connect.from, &sr, &si);
    int dg = pvs_group(cg, s->u.connect.to, &dr, &di);
    int b = cg_bundle_index(cg->fn->net, sg, si, dg, di);
    emit_open(o, "%s", "");
    emit_range(cg, sr, cg_fmt(cg, "net->count[%d]", sg), "slo_", "shi_");
    emit_range(cg, dr, cg_fmt(cg, "net->count[%d]", dg), "dlo_", "dhi_");
    emit(o, "rt_%s(net, %d, slo_, shi_, dlo_, dhi_, %s);",
         s->kind == STMT_CONNECT ? "connect" : "disconnect", b, cg_pos(cg, s->loc));
    emit_close(o, "%s", "");
}

static void replicate_stmt(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    Expr *count = s->u.replicate.count;
    const char *pos = cg_pos(cg, s->loc);
    switch (s->sem_flags & SEMF_LEVEL_MASK) {
    case SEMF_LEVEL_NET: {
        const char *netx, *repx;
        CgNet *cn;
        cg_net_object(cg, s->u.replicate.obj, &netx, &repx, &cn);
        emit_open(o, "%s", "");
        if (type_is_integral(count->type)) {
            emit(o, "const int32_t n_ = %s;", cg_expr(cg, count));
            emit(o, "rt_replicate(%s, n_, n_, false, cp_net_work(%s), %s);", netx, netx, pos);
        } else {
            emit(o, "const cp_interval n_ = %s;",
                 cg_expr_as(cg, count, cg->si->builtin[TY_INTERVAL]));
            emit(o, "rt_replicate(%s, n_.min, n_.max, true, cp_net_work(%s), %s);", netx, netx, pos);
        }
        emit_close(o, "%s", "");
        return;
    }
    case SEMF_LEVEL_NODE:
        emit(o, "rt_request_node_replicate(net, %d, idx, %s, %s);", cg->fn->group,
             cg_expr(cg, count), pos);
        emit(o, "return;");
        return;
    default:
        emit(o, "rt_request_conn_replicate(net, b, k, %s, %s);", cg_expr(cg, count), pos);
        emit(o, "return;");
        return;
    }
}

/* ---- I/O and assignments ------------------------------------------------ */

static void io_stmt(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    Expr *pvs = s->u.io.node_side;
    Expr *base, *range;
    cg_split_multi(pvs->u.select.obj, &base, &range); /* base: netobj.g */
    Expr *netobj = base->u.select.obj;
    if (netobj->kind == EXPR_ALLSLICE)
        netobj = netobj->u.allslice.obj;
    const char *netx, *repx;
    CgNet *cn;
    cg_net_object(cg, netobj, &netx, &repx, &cn);
    int g = cg_group_index(cn, base->sym);
    Type *node = type_node_of(base->sym->type);
    emit_open(o, "%s", "");
    emit(o, "rt_net *const n_ = %s;", netx);
    emit_range(cg, range, cg_fmt(cg, "n_->count[%d]", g), "lo_", "hi_");
    emit(o, "rt_io_%s(n_, %d, lo_, hi_, offsetof(%s, %s), %s, &%s, %s);",
         s->kind == STMT_INPUT ? "input" : "output", g, cg_ctype(cg, node),
         cg_field(cg, pvs->sym), cg_lane_offset(cg, node, pvs->sym),
         cg_lvalue(cg, s->u.io.io), cg_pos(cg, s->loc));
    emit_close(o, "%s", "");
}

static void connaddr_assign(Cg *cg, Stmt *s)
{
    Expr *ca = s->u.assign.target;
    Expr *from = ca->u.connaddr.from, *to = ca->u.connaddr.to;
    /* from = netobj.g1[i].o, to = netobj.g2[j].i */
    Expr *fs = from->u.select.obj, *ts = to->u.select.obj;
    Expr *fg = fs->u.subscript.obj, *tg = ts->u.subscript.obj;
    const char *netx, *repx;
    CgNet *cn;
    cg_net_object(cg, fg->u.select.obj, &netx, &repx, &cn);
    int sg = cg_group_index(cn, fg->sym), dg = cg_group_index(cn, tg->sym);
    int b = cg_bundle_index(cn, sg, from->sym, dg, to->sym);
    emit(cg->out, "*(%s *)rt_conn_address(%s, %d, %s, %s, %s) = %s;", cg_ctype(cg, from->sym->type),
         netx, b, cg_expr(cg, fs->u.subscript.index), cg_expr(cg, ts->u.subscript.index),
         cg_pos(cg, s->loc), cg_expr_as(cg, s->u.assign.value, from->sym->type));
}

/* The new value of `cur op= value` (op of the assignment statement s),
 * with `cur` the C expression of the target's current value. */
const char *cg_compound_rhs(Cg *cg, Stmt *s, const char *cur)
{
    Expr *t = s->u.assign.target;
    const char *pos = cg_pos(cg, s->loc);
    const char *x = cg_expr(cg, s->u.assign.value);
    bool integral = type_is_integral(t->type);
    const char *chk = t->type->kind == TY_INT1   ? "cp_chk_i8"
                      : t->type->kind == TY_INT2 ? "cp_chk_i16"
                                                 : "cp_chk_i32";
    switch (s->u.assign.op) {
    case ASSIGN_ADD: case ASSIGN_SUB: case ASSIGN_MUL: {
        const char *op = s->u.assign.op == ASSIGN_ADD ? "+" : s->u.assign.op == ASSIGN_SUB ? "-" : "*";
        return integral ? cg_fmt(cg, "%s(%s, (int64_t)%s %s (int64_t)%s)", chk, pos, cur, op, x)
                        : cg_fmt(cg, "%s %s %s", cur, op, x);
    }
    case ASSIGN_DIV:
        return integral ? cg_fmt(cg, "%s(%s, cp_div(%s, %s, %s))", chk, pos, pos, cur, x)
                        : cg_fmt(cg, "%s / %s", cur, x);
    default:
        return integral ? cg_fmt(cg, "%s(%s, cp_mod(%s, %s, %s))", chk, pos, pos, cur, x)
                        : cg_fmt(cg, "cp_fmod_real(%s, %s)", cur, x);
    }
}

/* Emits `lv op= value` for an assignment statement; the address of lv
 * is evaluated once. */
static void assign_to(Cg *cg, Stmt *s, const char *lv)
{
    Expr *t = s->u.assign.target;
    if (s->u.assign.op == ASSIGN_SET) {
        emit(cg->out, "%s = %s;", lv, cg_expr_as(cg, s->u.assign.value, t->type));
        return;
    }
    emit(cg->out, "{ %s *p_ = &%s; *p_ = %s; }", cg_ctype(cg, t->type), lv,
         cg_compound_rhs(cg, s, "*p_"));
}

/* `net.e := x` through the bare network variable stores into every
 * replicate (reads of net.e see replicate 0). */
static bool store_all_replicates(Cg *cg, Stmt *s)
{
    Expr *t = s->u.assign.target;
    if (t->kind != EXPR_SELECT || t->u.select.obj->kind != EXPR_NAME ||
        !t->u.select.obj->type || t->u.select.obj->type->kind != TY_NETWORK)
        return false;
    Expr *netobj = t->u.select.obj;
    const char *netx, *repx;
    CgNet *cn;
    cg_net_object(cg, netobj, &netx, &repx, &cn);
    Emitter *o = cg->out;
    const char *T = cg_ctype(cg, t->type), *f = cg_field(cg, t->sym);
    emit_open(o, "%s", "");
    /* the new value, computed as for replicate 0 */
    emit(o, "%s v_ = %s;", T, cg_lvalue(cg, t));
    assign_to(cg, s, "v_");
    emit(o, "rt_net *const n_ = %s;", netx);
    emit_open(o, "for (int32_t r_ = 0; r_ < n_->nreps; r_++)");
    if (cg->opts.lanes)
        emit(o, "*(n_->blocks ? &((%s *)n_->blocks[r_ / RT_LANES].net)->%s[r_ %% RT_LANES] : &((%s *)n_->reps[r_].net_data)->%s) = v_;",
             cg_lane_type(cg, netobj->type), f, cg_ctype(cg, netobj->type), f);
    else
        emit(o, "((%s *)n_->reps[r_].net_data)->%s = v_;", cg_ctype(cg, netobj->type), f);
    emit_close(o, "%s", "");
    emit_close(o, "%s", "");
    return true;
}

static void assign_stmt(Cg *cg, Stmt *s)
{
    Expr *t = s->u.assign.target;
    if (t->kind == EXPR_CONNADDR) {
        connaddr_assign(cg, s);
        return;
    }
    if (store_all_replicates(cg, s))
        return;
    assign_to(cg, s, cg_lvalue(cg, t));
}

/* ---- control flow ------------------------------------------------------ */

static void stmt(Cg *cg, Stmt *s);

static void for_stmt(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    Expr *var = s->u.for_.var;
    const char *v = cg_lvalue(cg, var);
    bool down = s->u.for_.dir == FOR_DOWNTO;
    emit_open(o, "%s", "");
    emit(o, "%s = %s;", v, cg_expr_as(cg, s->u.for_.from, var->type));
    emit(o, "const int64_t to_ = %s;", cg_expr(cg, s->u.for_.to));
    emit_open(o, "while (%s %s to_)", v, down ? ">=" : "<=");
    cg_block(cg, s->u.for_.body);
    if (s->u.for_.until_cond)
        emit(o, "if (%s) break;", cg_expr(cg, s->u.for_.until_cond));
    /* semantics 8.6: after the last round i is one past the bound; the
       step wraps like the type's arithmetic, so a bound at the type's end
       ends the loop instead of running on */
    emit(o, "{ const int stop_ = %s == to_; %s = (__typeof__(%s))((uint64_t)(int64_t)%s %s 1u); if (stop_) break; }",
         v, v, v, v, down ? "-" : "+");
    emit_close(o, "%s", "");
    emit_close(o, "%s", "");
}

static void stmt(Cg *cg, Stmt *s)
{
    Emitter *o = cg->out;
    cg_line(cg, s->loc);
    if (cg->fn && cg->fn->merge_inst &&
        (s->kind == STMT_REDUCTION || s->kind == STMT_WTA || s->kind == STMT_REPLICATE)) {
        cg_unsupported(cg, s->loc, "REDUCTION, WTA or REPLICATE ME in a subroutine that a "
                                   "MERGE procedure calls (it has no network there)");
        return;
    }
    switch (s->kind) {
    case STMT_ASSIGN:
        assign_stmt(cg, s);
        break;
    case STMT_INPUT:
    case STMT_OUTPUT:
        io_stmt(cg, s);
        break;
    case STMT_CALL:
        call_stmt(cg, s->u.call.call);
        break;
    case STMT_OBJCALL:
        objcall_stmt(cg, s->u.call.call);
        break;
    case STMT_MULTICALL:
        /* the components may run in any order: one after the other, each
           parallel inside */
        for (int i = 0; i < s->u.multi.calls.len; i++)
            objcall_stmt(cg, VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_REDUCTION:
        combine(cg, s, false);
        break;
    case STMT_WTA:
        combine(cg, s, true);
        break;
    case STMT_RETURN:
        if (s->u.ret.value && cg->fn && cg->fn->subr->sub->result)
            emit(o, "return %s;", cg_expr_as(cg, s->u.ret.value, cg->fn->subr->sub->result));
        else
            emit(o, "return;");
        break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            if (i == 0)
                emit_open(o, "if (%s)", cg_expr(cg, arm->cond));
            else
                emit_open(o, "else if (%s)", cg_expr(cg, arm->cond));
            cg_block(cg, arm->body);
            emit_close(o, "%s", "");
        }
        if (s->u.if_.else_body) {
            emit_open(o, "else");
            cg_block(cg, s->u.if_.else_body);
            emit_close(o, "%s", "");
        }
        break;
    case STMT_LOOP:
        emit_open(o, "for (;;)");
        if (s->u.loop.while_cond)
            emit(o, "if (!%s) break;", cg_expr(cg, s->u.loop.while_cond));
        cg_block(cg, s->u.loop.body);
        if (s->u.loop.until_cond)
            emit(o, "if (%s) break;", cg_expr(cg, s->u.loop.until_cond));
        emit_close(o, "%s", "");
        break;
    case STMT_FOR:
        for_stmt(cg, s);
        break;
    case STMT_BREAK:
        emit(o, "break;");
        break;
    case STMT_REPLICATE:
        replicate_stmt(cg, s);
        break;
    case STMT_EXTEND: {
        Expr *g = s->u.replicate.obj;
        emit(o, "rt_extend(net, %d, %s, %s);", cg_group_index(cg->fn->net, g->sym),
             cg_expr(cg, s->u.replicate.count), cg_pos(cg, s->loc));
        break;
    }
    case STMT_CONNECT:
    case STMT_DISCONNECT:
        connect_stmt(cg, s);
        break;
    case STMT_MERGE: {
        const char *netx, *repx;
        CgNet *cn;
        cg_net_object(cg, s->u.merge.obj, &netx, &repx, &cn);
        emit(o, "rt_merge(%s, %s);", netx, cg_pos(cg, s->loc));
        break;
    }
    default:
        cg_unsupported(cg, s->loc, "this statement");
    }
}

/* Local data objects: declared zeroed (so that reading an uninitialized
 * CuPit variable is deterministic), then initialized in textual order. */
/* Declares the local data objects of a block, zeroed; in lane code each
 * (but an I/O area) is an array over the lanes. */
void cg_declare_locals(Cg *cg, Block *b)
{
    Emitter *o = cg->out;
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            Symbol *sym = VEC_AT(d->u.data.ids, j, InitId)->sym;
            if (sym->access == ACCESS_IO)
                emit(o, "cp_io %s = {.elem_size = sizeof(%s)};", cg_local(cg, sym),
                     cg_ctype(cg, sym->type));
            else
                emit(o, "%s %s%s = {0};", cg_ctype(cg, sym->type), cg_local(cg, sym),
                     cg->lane ? "[RT_LANES]" : "");
            emit(o, "(void)%s;", cg_local(cg, sym)); /* CuPit allows unused locals */
        }
    }
}

void cg_locals(Cg *cg, Block *b)
{
    Emitter *o = cg->out;
    cg_declare_locals(cg, b);
    for (int i = 0; i < b->defs.len; i++) {
        Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++) {
            InitId *id = VEC_AT(d->u.data.ids, j, InitId);
            Symbol *sym = id->sym;
            if (sym->access == ACCESS_IO)
                continue;
            cg_line(cg, id->id.loc);
            cg_emit_default_init(cg, sym->type, cg_local(cg, sym));
            if (id->init)
                emit(o, "%s = %s;", cg_local(cg, sym), cg_expr_as(cg, id->init, sym->type));
        }
    }
}

/* ---- a batch: I/O into the replicates, then a call on them ------------------- */

/* The network variable of `net[].g[].e`, `net.g[].e` or `net[...]`, NULL
 * for anything else (one replicate, ME). */
static Symbol *all_replicates_var(Expr *e)
{
    if (e->kind == EXPR_ALLSLICE)
        e = e->u.allslice.obj;
    return e->kind == EXPR_NAME && e->sym && e->sym->type && e->sym->type->kind == TY_NETWORK
               ? e->sym : NULL;
}

/* Whether evaluating e earlier than written changes nothing: no calls
 * (a network function could read what the batch moves), no network data. */
static bool batch_safe(const Expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING:
        return true;
    case EXPR_NAME:
        return !(e->sym && e->sym->type && e->sym->type->kind == TY_NETWORK);
    case EXPR_UNARY:
        return e->u.unary.op != OP_RANDOM && batch_safe(e->u.unary.operand);
    case EXPR_BINARY:
        return batch_safe(e->u.binary.lhs) && batch_safe(e->u.binary.rhs);
    case EXPR_TERNARY:
        return batch_safe(e->u.ternary.cond) && batch_safe(e->u.ternary.then_e) &&
               batch_safe(e->u.ternary.else_e);
    case EXPR_CONVERT:
        for (int i = 0; i < e->u.convert.args.len; i++)
            if (!batch_safe(VEC_AT(e->u.convert.args, i, Expr)))
                return false;
        return true;
    case EXPR_MAXINDEX: /* I/O changes no replicate count or group size */
        return true;
    default:
        return false;
    }
}

static Symbol *input_var(Stmt *s)
{
    if (s->kind != STMT_INPUT)
        return NULL;
    Expr *base, *range;
    cg_split_multi(s->u.io.node_side->u.select.obj, &base, &range);
    if (!batch_safe(range) || base->kind != EXPR_SELECT)
        return NULL;
    return all_replicates_var(base->u.select.obj);
}

/* The statements b[i..] that form a batch: I/O inputs into all replicates
 * of one network in lane blocks, then a call of a network procedure on
 * (some of) its replicates that does not touch I/O areas itself.  Returns
 * how many inputs there are (0: no batch). */
static int batch_at(Cg *cg, Block *b, int i)
{
    if (!cg->opts.lanes || (cg->fn && cg->fn->ctx != CTX_CA))
        return 0;
    Symbol *v = input_var(VEC_AT(b->stmts, i, Stmt));
    if (!v)
        return 0;
    int n = 1;
    while (i + n < b->stmts.len && input_var(VEC_AT(b->stmts, i + n, Stmt)) == v)
        n++;
    if (i + n == b->stmts.len)
        return 0;
    Stmt *c = VEC_AT(b->stmts, i + n, Stmt);
    if (c->kind != STMT_OBJCALL || c->u.call.call->call_kind != CALL_REPLICATES)
        return 0;
    Expr *base, *range;
    cg_split_multi(c->u.call.call->u.objcall.obj, &base, &range);
    if (all_replicates_var(base) != v || !batch_safe(range) ||
        lower_uses_io(cg->plan, c->u.call.call->sym))
        return 0;
    for (int k = 0; k < c->u.call.call->u.objcall.args.len; k++)
        if (!batch_safe(VEC_AT(c->u.call.call->u.objcall.args, k, Expr)))
            return 0;
    return n;
}

/* Closes the fast path of statements b[i] ... b[i + n] (the last block
 * opened) and emits them plainly for the other case. */
static void plain_otherwise(Cg *cg, Block *b, int i, int n)
{
    Emitter *o = cg->out;
    emit_close(o, "%s", "");
    emit_open(o, "else");
    for (int k = 0; k <= n; k++)
        stmt(cg, VEC_AT(b->stmts, i + k, Stmt));
    emit_close(o, "%s", "");
    emit_close(o, "%s", "");
}

/* A batch in lane blocks: the I/O checks first, then one loop over the
 * blocks that moves each block's inputs and at once runs the call on it, in
 * parallel when the call is worth it.  The block's inputs then sit in the
 * cache of the thread that computes on them, and the moves run in parallel
 * too.  Block j's call reads and writes block j only, so the order is the
 * program's.  Not in lane blocks: the statements one by one. */
static void batch(Cg *cg, Block *b, int i, int n)
{
    Emitter *o = cg->out;
    Stmt *first = VEC_AT(b->stmts, i, Stmt), *cs = VEC_AT(b->stmts, i + n, Stmt);
    Expr *call = cs->u.call.call, *base, *range;
    Symbol *proc = call->sym;
    cg_split_multi(call->u.objcall.obj, &base, &range);
    const char *netx, *repx;
    CgNet *cn;
    cg_net_object(cg, base, &netx, &repx, &cn);
    cg_line(cg, first->loc);
    emit_open(o, "%s", "");
    emit(o, "rt_net *const n_ = %s;", netx);
    emit_open(o, "if (n_->blocks)");
    const char *moves = "";
    for (int k = 0; k < n; k++) {
        Stmt *s = VEC_AT(b->stmts, i + k, Stmt);
        cg_line(cg, s->loc);
        Expr *pvs = s->u.io.node_side, *gb, *gr;
        cg_split_multi(pvs->u.select.obj, &gb, &gr);
        int g = cg_group_index(cn, gb->sym);
        Type *node = type_node_of(gb->sym->type);
        const char *lo = cg_fresh(cg, "ilo"), *hi = cg_fresh(cg, "ihi");
        emit_range(cg, gr, cg_fmt(cg, "n_->count[%d]", g), lo, hi);
        const char *io = cg_fmt(cg, "&%s", cg_lvalue(cg, s->u.io.io));
        emit(o, "rt_io_check(n_, %d, %s, %s, %s, true, %s);", g, lo, hi, io, cg_pos(cg, s->loc));
        moves = cg_fmt(cg, "%s rt_io_block(n_, %d, %s, %s, %s, %s, j_, true);", moves, g, lo, hi,
                       cg_lane_offset(cg, node, pvs->sym), io);
    }
    cg_line(cg, cs->loc);
    const char *lo = cg_fresh(cg, "lo"), *hi = cg_fresh(cg, "hi");
    emit_range(cg, range, "n_->nreps", lo, hi);
    const char *la = broadcast_args(cg, proc, args_to_temps(cg, proc, &call->u.objcall.args, ""));
    const char *loop = cg_fmt(cg,
        "for (int32_t j_ = 0; j_ < n_->nblocks; j_++) {%s "
        "if (j_ < %s / RT_LANES || j_ > %s / RT_LANES || %s > %s) continue; "
        "int32_t m_[RT_LANES]; for (int l = 0; l < RT_LANES; l++) { int32_t q_ = j_ * RT_LANES + l; "
        "m_[l] = q_ >= %s && q_ <= %s; } %s(n_, j_, m_%s); }",
        moves, lo, hi, lo, hi, lo, hi, cg_lane_fn_name(cg, proc, NULL, -1), la);
    parallel_loop(cg, cg_fmt(cg, "%s / RT_LANES < %s / RT_LANES && "
                             "cp_par_lanes(n_, (int64_t)(%s - %s + 1) * cp_net_work(n_))",
                             lo, hi, hi, lo),
                  loop);
    plain_otherwise(cg, b, i, n);
}

/* ---- MERGE, then calls that every replicate computes alike ------------------ */

/* How many statements after the MERGE at b[i] are calls on all replicates
 * of the merged network that compute the same in every replicate
 * (lower_call_uniform): right after MERGE they need to run on one lane
 * block only, before its result is copied to the others. */
static int uniform_after_merge(Cg *cg, Block *b, int i)
{
    Stmt *m = VEC_AT(b->stmts, i, Stmt);
    if (!cg->opts.lanes || (cg->fn && cg->fn->ctx != CTX_CA) || m->kind != STMT_MERGE)
        return 0;
    Symbol *v = all_replicates_var(m->u.merge.obj);
    int n = 0;
    while (v && i + 1 + n < b->stmts.len) {
        Stmt *c = VEC_AT(b->stmts, i + 1 + n, Stmt);
        if (c->kind != STMT_OBJCALL || c->u.call.call->call_kind != CALL_REPLICATES ||
            !lower_call_uniform(cg->plan, c->u.call.call))
            break;
        Expr *base, *range;
        cg_split_multi(c->u.call.call->u.objcall.obj, &base, &range);
        if (range || all_replicates_var(base) != v)
            break;
        n++;
    }
    return n;
}

static void merge_then_uniform(Cg *cg, Block *b, int i, int n)
{
    Emitter *o = cg->out;
    Stmt *m = VEC_AT(b->stmts, i, Stmt);
    const char *netx, *repx;
    CgNet *cn;
    cg_net_object(cg, m->u.merge.obj, &netx, &repx, &cn);
    cg_line(cg, m->loc);
    emit_open(o, "%s", "");
    emit(o, "rt_net *const n_ = %s;", netx);
    emit_open(o, "if (n_->blocks && n_->nblocks > 1)");
    emit(o, "rt_merge_first(n_, %s);", cg_pos(cg, m->loc));
    for (int k = 1; k <= n; k++) {
        Stmt *s = VEC_AT(b->stmts, i + k, Stmt);
        Expr *call = s->u.call.call;
        cg_line(cg, s->loc);
        emit_open(o, "%s", "");
        const char *la = broadcast_args(cg, call->sym,
                                        args_to_temps(cg, call->sym, &call->u.objcall.args, ""));
        /* every lane of block 0 holds the merged values, padding lanes too */
        emit(o, "int32_t m_[RT_LANES]; for (int l = 0; l < RT_LANES; l++) m_[l] = 1;");
        emit(o, "%s(n_, 0, m_%s);", cg_lane_fn_name(cg, call->sym, NULL, -1), la);
        emit_close(o, "%s", "");
    }
    emit(o, "rt_merge_spread(n_, %s);", cg_pos(cg, m->loc));
    plain_otherwise(cg, b, i, n);
}

void cg_block(Cg *cg, Block *b)
{
    if (!b)
        return;
    emit_open(cg->out, "%s", "");
    cg_locals(cg, b);
    for (int i = 0; i < b->stmts.len; i++) {
        int n = batch_at(cg, b, i);
        if (n > 0) {
            batch(cg, b, i, n);
            i += n;
            continue;
        }
        n = uniform_after_merge(cg, b, i);
        if (n > 0) {
            merge_then_uniform(cg, b, i, n);
            i += n;
            continue;
        }
        stmt(cg, VEC_AT(b->stmts, i, Stmt));
    }
    emit_close(cg->out, "%s", "");
}
