/* lw_expr.c -- CuPit expressions and objects as IR expressions.
 *
 * Integer arithmetic is done in 64 bits and checked back into the result
 * type by the cp_chk_* helpers, so that no C operation has undefined
 * behaviour; Real arithmetic is plain float arithmetic.  Where an operand
 * is needed twice, or a network object must be looked up in either of its
 * storages, a statement expression holds temporaries.  In lane code every
 * value is that of the lane lw->lane. */
#include <inttypes.h>
#include <string.h>

#include "lw_internal.h"
#include "cupitc/ast_walk.h"
#include "cupitc/stdlib_sigs.h"

static Type *builtin(Lw *lw, TypeKind k)
{
    return lw->si->builtin[k];
}

IrExpr *lw_pos(Lw *lw, Loc loc)
{
    return ir_pos(lw->m, loc.line);
}

IrExpr *lw_cstr(Lw *lw, const char *s)
{
    return ir_string(lw->m, s, (int)strlen(s));
}

IrExpr *lw_i64(Lw *lw, IrExpr *x)
{
    return ir_cast(lw->m, ir_t(lw->m, IRT_I64), x);
}

static IrHelper chk_helper(const Type *t)
{
    switch (t->kind) {
    case TY_INT1: return IRH_CHK_I8;
    case TY_INT2: return IRH_CHK_I16;
    default: return IRH_CHK_I32;
    }
}

IrExpr *lw_chk(Lw *lw, const Type *t, Loc loc, IrExpr *v64)
{
    return ir_helper(lw->m, chk_helper(t), lw_vt(lw, t), IR_ARGS(lw_pos(lw, loc), v64));
}

IrExpr *lw_idx(Lw *lw, Loc loc, IrExpr *i, IrExpr *n, const char *what)
{
    return ir_helper(lw->m, IRH_IDX, ir_t(lw->m, IRT_I32),
                     IR_ARGS(lw_pos(lw, loc), i, n, lw_cstr(lw, what)));
}

IrExpr *lw_idx_first(Lw *lw, Loc loc, const Expr *index, IrExpr *i, IrExpr *n, const char *what)
{
    if (!lw_storage_may_move(lw) || !lw_moves_storage(index))
        return lw_idx(lw, loc, i, n, what);
    IrModule *m = lw->m;
    IrStmt *b = ir_block(m, loc);
    IrStmt *saved = lw_push(lw, b);
    IrVar *t = lw_decl(lw, "ix", i->type, i, loc);
    t->is_const = true;
    lw_close(lw, saved);
    return ir_stmts(m, b, lw_idx(lw, loc, ir_ref(m, t), n, what));
}

IrExpr *lw_lane_idx(Lw *lw)
{
    if (!lw->lane) {
        lw_unsupported(lw, (Loc){0}, "a lane value outside a lane loop");
        return ir_i32(lw->m, 0);
    }
    return ir_ref(lw->m, lw->lane);
}

IrExpr *lw_blocked(Lw *lw, IrExpr *net)
{
    return ir_netinfo(lw->m, IRN_BLOCKED, net, NULL, NULL);
}

void lw_split_multi(Expr *pv, Expr **base, Expr **range)
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

/* ---- literals ------------------------------------------------------------- */

static IrExpr *const_literal(Lw *lw, const Expr *e)
{
    if (!e->is_const || !e->type)
        return NULL;
    IrModule *m = lw->m;
    switch (e->type->kind) {
    case TY_INT1: case TY_INT2: case TY_INT: case TY_SYMBOLIC:
        return ir_int(m, e->type->kind == TY_SYMBOLIC ? lw_vt(lw, builtin(lw, TY_INT))
                                                      : lw_vt(lw, e->type), e->const_int);
    case TY_REAL:
        return ir_real(m, lw_vt(lw, e->type), e->const_real);
    case TY_BOOL:
        return ir_bool(m, e->const_int != 0);
    default:
        return NULL;
    }
}

/* ---- conversions ---------------------------------------------------------------- */

IrExpr *lw_convert_to(Lw *lw, IrExpr *x, const Type *from, const Type *to)
{
    IrModule *m = lw->m;
    if (!to || !from || from == to)
        return x;
    if (type_is_integral(from) && type_is_integral(to))
        return ir_cast(m, lw_vt(lw, to), x);
    if (type_is_int_interval(from) && type_is_int_interval(to)) {
        IrStmt *b = ir_block(m, (Loc){0});
        IrVar *t = ir_fresh(m, lw->fn ? lw->fn->f : NULL, "iv", lw_vt(lw, from));
        IrStmt *d = ir_s(m, IRS_DECL, (Loc){0});
        d->var = t;
        d->a = x;
        ir_append(m, b, d);
        IrExpr *s = ir_struct(m, lw_vt(lw, to));
        ir_struct_add(m, s, NULL, ir_member(m, ir_ref(m, t), "min", lw_vt(lw, from->elem)));
        ir_struct_add(m, s, NULL, ir_member(m, ir_ref(m, t), "max", lw_vt(lw, from->elem)));
        return ir_stmts(m, b, s);
    }
    return x;
}

IrExpr *lw_expr_as(Lw *lw, Expr *e, const Type *to)
{
    return lw_convert_to(lw, lw_expr(lw, e), e->type, to);
}

/* ---- objects ------------------------------------------------------------------- */

static bool in_central_agent(const Lw *lw)
{
    return !lw->fn || lw->fn->ctx == CTX_CA;
}

bool lw_storage_may_move(const Lw *lw)
{
    if (!lw->fn)
        return true;
    if (lw->fn->lane)
        return false;
    return lw->fn->ctx == CTX_CA || lw->fn->ctx == CTX_NETP || lw->fn->ctx == CTX_NETF;
}

/* The field of a record expression for element elem: the layout follows
 * from the record's type; in a lane record, lane lw->lane of it. */
static IrExpr *elem_of(Lw *lw, IrExpr *rec, const Symbol *elem)
{
    IrModule *m = lw->m;
    const IrLayout *l = NULL;
    if (rec->type && rec->type->kind == IRT_RECORD)
        l = rec->type->layout;
    else if (rec->type && rec->type->kind == IRT_VALUE)
        l = lw_plain(lw, rec->type->cupit);
    if (!l) {
        lw_unsupported(lw, elem->loc, "an element of this object");
        return ir_i32(m, 0);
    }
    IrField *f = lw_field(lw, l, elem);
    if (!f)
        return ir_i32(m, 0);
    IrExpr *x = ir_field(m, rec, f);
    return f->lanes ? ir_index(m, x, lw_lane_idx(lw)) : x;
}

/* The node records of group g of a network, plain or (lane code) lane.
 * first: the index or the replicate's index may move storage
 * (lw_moves_storage: a network function that deletes or copies nodes, a
 * central-agent function that replicates): the index, then the replicate
 * (with its check) are evaluated, and the index checked, before the
 * records are reached, not unsequenced with it. */
static IrExpr *node_lvalue(Lw *lw, const LowerNet *net, int g, IrExpr *netx, IrExpr *repx,
                           IrExpr *idx, bool first, Loc loc)
{
    IrModule *m = lw->m;
    Symbol *gs = VEC_AT(net->groups, g, Symbol);
    Type *node = type_node_of(gs->type);
    IrExpr *n = ir_netinfo(m, IRN_COUNT, netx, ir_i32(m, g), NULL);
    if (lw->fn && lw->fn->lane)
        return ir_index(m, ir_nodes(m, netx, ir_ref(m, lw->fn->rep_v), g, lw_lanes_layout(lw, node)),
                        lw_idx(lw, loc, idx, n, gs->name));
    if (!first)
        return ir_index(m, ir_nodes(m, netx, repx, g, lw_plain(lw, node)), lw_idx(lw, loc, idx, n, gs->name));
    IrStmt *b = ir_block(m, loc);
    IrStmt *saved = lw_push(lw, b);
    IrVar *raw = lw_decl(lw, "nx", idx->type, idx, loc);
    raw->is_const = true;
    IrVar *rv = lw_decl(lw, "nr", ir_t(m, IRT_I32), repx, loc);
    rv->is_const = true;
    IrVar *iv = lw_decl(lw, "ni", ir_t(m, IRT_I32), lw_idx(lw, loc, ir_ref(m, raw), n, gs->name), loc);
    iv->is_const = true;
    lw_close(lw, saved);
    IrExpr *rec = ir_index(m, ir_nodes(m, netx, ir_ref(m, rv), g, lw_plain(lw, node)), ir_ref(m, iv));
    return ir_deref(m, ir_stmts(m, b, ir_addr(m, rec)));
}

void lw_net_object(Lw *lw, Expr *e, IrExpr **net, IrExpr **rep, LowerNet **lnet)
{
    IrModule *m = lw->m;
    *net = NULL;
    *rep = NULL;
    *lnet = NULL;
    switch (e->kind) {
    case EXPR_ME:
        if (!lw->fn || !lw->fn->net_v) {
            lw_unsupported(lw, e->loc, "this network object");
            *net = ir_null(m);
            *rep = ir_i32(m, 0);
            return;
        }
        *net = ir_ref(m, lw->fn->net_v);
        *rep = ir_ref(m, lw->fn->rep_v);
        *lnet = lw->fn->net;
        return;
    case EXPR_NAME: {
        IrVar *g = ptrmap_get(&lw->vars, e->sym, NULL, 0);
        *net = ir_addr(m, ir_ref(m, g));
        *rep = lw->bare_rep ? ir_ref(m, lw->bare_rep) : ir_i32(m, 0);
        *lnet = lower_net_of(lw->plan, e->sym->type);
        return;
    }
    case EXPR_SUBSCRIPT:
        lw_net_object(lw, e->u.subscript.obj, net, rep, lnet);
        if (type_is_integral(e->u.subscript.index->type))
            *rep = lw_idx_first(lw, e->loc, e->u.subscript.index, lw_sub_index(lw, e->u.subscript.index),
                          ir_netinfo(m, IRN_NREPS, *net, NULL, NULL),
                          e->u.subscript.obj->kind == EXPR_NAME
                              ? arena_printf(lw->arena, "%s replicate", e->u.subscript.obj->u.name.name)
                              : "replicate");
        else
            *rep = NULL;
        return;
    case EXPR_ALLSLICE:
        lw_net_object(lw, e->u.allslice.obj, net, rep, lnet);
        *rep = NULL;
        return;
    default:
        lw_unsupported(lw, e->loc, "this network object");
        *net = ir_null(m);
        *rep = ir_i32(m, 0);
        return;
    }
}

/* A node X.g[i] in the central agent of a program with lane blocks. */
bool lw_ca_node(Lw *lw, Expr *obj, LwCaNode *out)
{
    if (!lw->opts.lanes || (lw->fn && lw->fn->lane) || !in_central_agent(lw) ||
        obj->kind != EXPR_SUBSCRIPT)
        return false;
    Expr *grp = obj->u.subscript.obj;
    if (grp->kind != EXPR_SELECT || !grp->sym || !type_is_node_collection(grp->sym->type))
        return false;
    LowerNet *ln;
    IrExpr *rep;
    lw_net_object(lw, grp->u.select.obj, &out->net, &rep, &ln);
    if (!ln)
        return false;
    out->rep = rep ? rep : ir_i32(lw->m, 0);
    out->g = lower_group_index(ln, grp->sym);
    out->node = type_node_of(VEC_AT(ln->groups, out->g, Symbol)->type);
    out->idx = NULL;
    return true;
}

/* Opens a statement expression for such a node: n_, r_, i_ declared in
 * `body`; returns false when obj is not such a node. */
typedef struct CaNode {
    IrStmt *body;
    IrVar *n, *r, *i;
    int g;
    const Type *node;
} CaNode;

static bool ca_node_open(Lw *lw, Expr *obj, CaNode *c)
{
    LwCaNode n;
    if (!lw_ca_node(lw, obj, &n))
        return false;
    IrModule *m = lw->m;
    IrFunc *f = lw->fn ? lw->fn->f : NULL;
    c->body = ir_block(m, (Loc){0});
    c->g = n.g;
    c->node = n.node;
    IrStmt *saved = lw_push(lw, c->body);
    /* a node index that may move storage (it REPLICATEs the network,
       deletes nodes) runs before the replicate's index is checked */
    Expr *index = obj->u.subscript.index;
    IrExpr *ix = lw_sub_index(lw, index);
    if (lw_moves_storage(index)) {
        IrVar *t = lw_decl(lw, "nx", ix->type, ix, (Loc){0});
        t->is_const = true;
        ix = ir_ref(m, t);
    }
    c->n = lw_decl(lw, "n", ir_t_ptr(m, ir_t(m, IRT_NET), false), n.net, (Loc){0});
    c->r = lw_decl(lw, "r", ir_t(m, IRT_I32), n.rep, (Loc){0});
    c->r->is_const = true;
    Symbol *gs = obj->u.subscript.obj->sym;
    IrExpr *idx = lw_idx(lw, obj->loc, ix, ir_netinfo(m, IRN_COUNT, ir_ref(m, c->n), ir_i32(m, n.g), NULL),
                         gs->name);
    c->i = lw_decl(lw, "i", ir_t(m, IRT_I32), idx, (Loc){0});
    c->i->is_const = true;
    lw_close(lw, saved);
    (void)f;
    return true;
}

static IrExpr *lanes_const(Lw *lw)
{
    return ir_named(lw->m, "RT_LANES", ir_t(lw->m, IRT_I32));
}

/* Element elem of such a node, as an lvalue: a lane of its block while
 * replicated in lanes, else its plain record. */
static IrExpr *ca_node_elem(Lw *lw, Expr *obj, const Symbol *elem)
{
    CaNode c;
    if (!ca_node_open(lw, obj, &c))
        return NULL;
    IrModule *m = lw->m;
    const IrType *i32 = ir_t(m, IRT_I32);
    IrExpr *blk = ir_binary(m, IROP_DIV, i32, ir_ref(m, c.r), lanes_const(lw));
    IrExpr *ln = ir_binary(m, IROP_MOD, i32, ir_ref(m, c.r), lanes_const(lw));
    IrLayout *ll = lw_lanes_layout(lw, c.node), *pl = lw_plain(lw, c.node);
    IrExpr *lane_e = ir_index(m, ir_field(m, ir_index(m, ir_nodes(m, ir_ref(m, c.n), blk, c.g, ll),
                                                      ir_ref(m, c.i)),
                                          lw_field(lw, ll, elem)),
                              ln);
    IrExpr *plain_e = ir_field(m, ir_index(m, ir_nodes(m, ir_ref(m, c.n), ir_ref(m, c.r), c.g, pl),
                                           ir_ref(m, c.i)),
                               lw_field(lw, pl, elem));
    IrExpr *p = ir_cond(m, ir_t_ptr(m, lw_vt(lw, elem->type), false), lw_blocked(lw, ir_ref(m, c.n)),
                        ir_addr(m, lane_e), ir_addr(m, plain_e));
    return ir_deref(m, ir_stmts(m, c.body, p));
}

/* The address of such a node's plain record (a VAR argument of a
 * function), a run-time error while the network is replicated in lanes. */
static IrExpr *ca_node_addr(Lw *lw, Expr *obj)
{
    CaNode c;
    if (!ca_node_open(lw, obj, &c))
        return NULL;
    IrModule *m = lw->m;
    IrStmt *err = ir_s(m, IRS_IF, (Loc){0});
    err->a = lw_blocked(lw, ir_ref(m, c.n));
    err->then = ir_block(m, (Loc){0});
    IrStmt *e = ir_s(m, IRS_EVAL, (Loc){0});
    e->a = ir_helper(m, IRH_ERROR, ir_t(m, IRT_VOID),
                     IR_ARGS(lw_pos(lw, obj->loc),
                             lw_cstr(lw, "a node of the replicated network %s as a VAR argument of a function"),
                             ir_netinfo(m, IRN_NAME, ir_ref(m, c.n), NULL, NULL)));
    ir_append(m, err->then, e);
    ir_append(m, c.body, err);
    IrLayout *pl = lw_plain(lw, c.node);
    return ir_stmts(m, c.body, ir_addr(m, ir_index(m, ir_nodes(m, ir_ref(m, c.n), ir_ref(m, c.r), c.g, pl),
                                                   ir_ref(m, c.i))));
}

/* Such a node as a plain record value. */
static IrExpr *ca_node_value(Lw *lw, Expr *obj)
{
    CaNode c;
    if (!ca_node_open(lw, obj, &c))
        return NULL;
    IrModule *m = lw->m;
    const IrType *i32 = ir_t(m, IRT_I32);
    IrLayout *ll = lw_lanes_layout(lw, c.node), *pl = lw_plain(lw, c.node);
    IrExpr *blk = ir_binary(m, IROP_DIV, i32, ir_ref(m, c.r), lanes_const(lw));
    IrExpr *ln = ir_binary(m, IROP_MOD, i32, ir_ref(m, c.r), lanes_const(lw));
    IrExpr *lane_v = ir_call(m, lw_type_fn(lw, c.node, IRFN_LANE_REC),
                             IR_ARGS(ir_addr(m, ir_index(m, ir_nodes(m, ir_ref(m, c.n), blk, c.g, ll),
                                                         ir_ref(m, c.i))),
                                     ir_null(m), ln));
    IrExpr *plain_v = ir_index(m, ir_nodes(m, ir_ref(m, c.n), ir_ref(m, c.r), c.g, pl), ir_ref(m, c.i));
    return ir_stmts(m, c.body, ir_cond(m, lw_vt(lw, c.node), lw_blocked(lw, ir_ref(m, c.n)), lane_v, plain_v));
}

IrExpr *lw_ca_node_value(Lw *lw, Expr *obj)
{
    return ca_node_value(lw, obj);
}

bool lw_ca_node_store(Lw *lw, Expr *obj, IrExpr *value, Loc loc)
{
    CaNode c;
    if (!ca_node_open(lw, obj, &c))
        return false;
    IrModule *m = lw->m;
    const IrType *i32 = ir_t(m, IRT_I32);
    ir_append(m, lw->blk, c.body);
    IrStmt *saved = lw_push(lw, c.body);
    IrVar *v = lw_decl(lw, "nv", lw_vt(lw, c.node), value, loc);
    IrLayout *ll = lw_lanes_layout(lw, c.node), *pl = lw_plain(lw, c.node);
    IrStmt *s = lw_add(lw, IRS_IF, loc);
    s->a = lw_blocked(lw, ir_ref(m, c.n));
    s->then = ir_block(m, loc);
    s->els = ir_block(m, loc);
    IrStmt *put = ir_s(m, IRS_EVAL, loc);
    put->a = ir_call(m, lw_type_fn(lw, c.node, IRFN_LANE_PUT),
                     IR_ARGS(ir_addr(m, ir_index(m, ir_nodes(m, ir_ref(m, c.n),
                                                             ir_binary(m, IROP_DIV, i32, ir_ref(m, c.r),
                                                                       lanes_const(lw)),
                                                             c.g, ll),
                                                 ir_ref(m, c.i))),
                             ir_null(m), ir_binary(m, IROP_MOD, i32, ir_ref(m, c.r), lanes_const(lw)),
                             ir_addr(m, ir_ref(m, v))));
    ir_append(m, s->then, put);
    IrStmt *as = ir_s(m, IRS_ASSIGN, loc);
    as->a = ir_index(m, ir_nodes(m, ir_ref(m, c.n), ir_ref(m, c.r), c.g, pl), ir_ref(m, c.i));
    as->b = ir_ref(m, v);
    ir_append(m, s->els, as);
    lw_close(lw, saved);
    return true;
}

IrExpr *lw_sub_index(Lw *lw, Expr *idx)
{
    for (LwBare *b = lw->bare; b; b = b->up)
        for (int i = 0; i < b->n; i++)
            if (b->idx[i] == idx) {
                const IrType *t = b->tmp[i]->type;
                if (t->kind == IRT_ARRAY && t->n < 0) /* one per lane (lane code) */
                    return ir_index(lw->m, ir_ref(lw->m, b->tmp[i]), lw_lane_idx(lw));
                return ir_ref(lw->m, b->tmp[i]);
            }
    return lw_expr(lw, idx);
}

/* A network object reached through the runtime's storage (not a MERGE
 * procedure's ME/YOU, which point at the network records directly). */
static bool is_network_expr(Lw *lw, const Expr *e)
{
    if (!e->type || e->type->kind != TY_NETWORK)
        return false;
    return !(lw->fn && lw->fn->ctx == CTX_MERGE);
}

static IrExpr *name_lvalue(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    Symbol *s = e->sym;
    bool lane = lw->fn && lw->fn->lane;
    switch (s->kind) {
    case SYM_ENUM:
        return ir_named(m, arena_printf(lw->m->arena, "cpE_%s_%s", s->owner->name, s->name),
                        lw_vt(lw, s->owner));
    case SYM_CONST:
    case SYM_VAR:
    case SYM_IO: {
        IrVar *v = ptrmap_get(&lw->vars, s, s->is_global ? NULL : (lw->fn ? lw->fn->f : NULL), 0);
        if (!v) {
            lw_unsupported(lw, e->loc, "this name");
            return ir_i32(m, 0);
        }
        /* lane code: every local but an I/O area is an array over the lanes */
        if (lane && !s->is_global && s->access != ACCESS_IO)
            return ir_index(m, ir_ref(m, v), lw_lane_idx(lw));
        return ir_ref(m, v);
    }
    case SYM_PARAM: {
        if (lw->lazy_proc && s->subr == lw->lazy_proc) { /* from the caller's slot */
            const Type *node = lw->lazy_node->type->layout->type;
            IrField *z = lw_slot_field(lw, node, lw->lazy_slot, lw->lazy_proc, s);
            return ir_index(m, ir_field(m, ir_clone(m, lw->lazy_node), z), lw_lane_idx(lw));
        }
        IrVar *v = ptrmap_get(&lw->vars, s, lw->fn ? lw->fn->f : NULL, 0);
        if (!v) {
            lw_unsupported(lw, e->loc, "this parameter");
            return ir_i32(m, 0);
        }
        if (s->access == ACCESS_IO)
            return ir_deref(m, ir_ref(m, v));
        if (lane) /* CONST: a lane array; VAR: an array of pointers */
            return s->access == ACCESS_VAR ? ir_deref(m, ir_index(m, ir_ref(m, v), lw_lane_idx(lw)))
                                           : ir_index(m, ir_ref(m, v), lw_lane_idx(lw));
        if (s->access == ACCESS_VAR || lw_const_by_address(s))
            return ir_deref(m, ir_ref(m, v));
        return ir_ref(m, v);
    }
    default:
        lw_unsupported(lw, e->loc, "this kind of name");
        return ir_i32(m, 0);
    }
}

IrExpr *lw_me(Lw *lw)
{
    IrModule *m = lw->m;
    if (lw->lazy_me) /* a fresh copy per use: passes rewrite trees in place */
        return ir_clone(m, lw->lazy_me);
    if (!lw->fn || !lw->fn->me_v) {
        lw_unsupported(lw, (Loc){0}, "ME here");
        return ir_i32(m, 0);
    }
    if (lw->fn->ctx == CTX_RED || lw->fn->ctx == CTX_WTA)
        return ir_ref(m, lw->fn->me_v);
    return ir_deref(m, ir_ref(m, lw->fn->me_v));
}

static IrExpr *you(Lw *lw)
{
    IrModule *m = lw->m;
    if (!lw->fn || !lw->fn->you_v) {
        lw_unsupported(lw, (Loc){0}, "YOU here");
        return ir_i32(m, 0);
    }
    if (lw->fn->ctx == CTX_RED || lw->fn->ctx == CTX_WTA)
        return ir_ref(m, lw->fn->you_v);
    return ir_deref(m, ir_ref(m, lw->fn->you_v));
}

static IrExpr *index_expr(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    const IrType *i32 = ir_t(m, IRT_I32);
    LwFn *fn = lw->fn;
    if (fn && fn->merge_inst) {
        lw_unsupported(lw, e->loc, "INDEX in a subroutine that a MERGE procedure calls "
                                   "(there is no index there)");
        return ir_i32(m, 0);
    }
    if (fn && (fn->ctx == CTX_NETP || fn->ctx == CTX_NETF))
        return fn->lane ? ir_binary(m, IROP_ADD, i32,
                                    ir_binary(m, IROP_MUL, i32, ir_ref(m, fn->rep_v), lanes_const(lw)),
                                    lw_lane_idx(lw))
                        : ir_ref(m, fn->rep_v);
    if (fn && fn->net && fn->group >= 0 && fn->group < fn->net->groups.len && fn->idx_v) {
        /* a node of a grid: its index in its row */
        const Type *g = VEC_AT(fn->net->groups, fn->group, Symbol)->type;
        if (type_is_node_grid(g))
            return ir_binary(m, IROP_MOD, i32, ir_ref(m, fn->idx_v), ir_i32(m, g->elem->size));
    }
    if (!fn || !fn->idx_v) {
        lw_unsupported(lw, e->loc, "INDEX here");
        return ir_i32(m, 0);
    }
    return ir_ref(m, fn->idx_v);
}

IrExpr *lw_lvalue(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    switch (e->kind) {
    case EXPR_NAME:
        return name_lvalue(lw, e);
    case EXPR_ME:
        return lw_me(lw);
    case EXPR_YOU:
        return you(lw);
    case EXPR_INDEX:
        return index_expr(lw, e);
    case EXPR_SELECT: {
        Expr *obj = e->u.select.obj;
        if (is_network_expr(lw, obj) && obj->kind != EXPR_ME) {
            IrExpr *netx, *repx;
            LowerNet *ln;
            lw_net_object(lw, obj, &netx, &repx, &ln);
            if (!repx)
                repx = ir_i32(m, 0);
            IrLayout *pl = lw_plain(lw, obj->type);
            if (lw->opts.lanes && in_central_agent(lw)) {
                /* the record of replicate r: a lane of a block while
                   replicated in lanes, else the plain record */
                IrStmt *b = ir_block(m, (Loc){0});
                IrStmt *saved = lw_push(lw, b);
                IrVar *n = lw_decl(lw, "n", ir_t_ptr(m, ir_t(m, IRT_NET), false), netx, (Loc){0});
                IrVar *r = lw_decl(lw, "r", ir_t(m, IRT_I32), repx, (Loc){0});
                r->is_const = true;
                lw_close(lw, saved);
                const IrType *i32 = ir_t(m, IRT_I32);
                IrLayout *ll = lw_lanes_layout(lw, obj->type);
                IrExpr *lane_e = ir_index(m, ir_field(m, ir_deref(m, ir_netrec(m, ir_ref(m, n),
                    ir_binary(m, IROP_DIV, i32, ir_ref(m, r), lanes_const(lw)), ll)), lw_field(lw, ll, e->sym)),
                    ir_binary(m, IROP_MOD, i32, ir_ref(m, r), lanes_const(lw)));
                IrExpr *plain_e = ir_field(m, ir_deref(m, ir_netrec(m, ir_ref(m, n), ir_ref(m, r), pl)),
                                           lw_field(lw, pl, e->sym));
                IrExpr *p = ir_cond(m, ir_t_ptr(m, lw_vt(lw, e->type), false), lw_blocked(lw, ir_ref(m, n)),
                                    ir_addr(m, lane_e), ir_addr(m, plain_e));
                return ir_deref(m, ir_stmts(m, b, p));
            }
            if (lw_storage_may_move(lw) && lw_moves_storage(obj)) {
                /* the replicate's index first, then the replicates: the
                   index may REPLICATE the network (it frees the array) */
                IrStmt *b = ir_block(m, (Loc){0});
                IrStmt *saved = lw_push(lw, b);
                IrVar *r = lw_decl(lw, "r", ir_t(m, IRT_I32), repx, (Loc){0});
                r->is_const = true;
                lw_close(lw, saved);
                IrExpr *f = ir_field(m, ir_deref(m, ir_netrec(m, netx, ir_ref(m, r), pl)), lw_field(lw, pl, e->sym));
                return ir_deref(m, ir_stmts(m, b, ir_addr(m, f)));
            }
            return ir_field(m, ir_deref(m, ir_netrec(m, netx, repx, pl)), lw_field(lw, pl, e->sym));
        }
        IrExpr *node_elem = ca_node_elem(lw, obj, e->sym);
        if (node_elem)
            return node_elem;
        return elem_of(lw, lw_lvalue(lw, obj), e->sym);
    }
    case EXPR_SUBSCRIPT: {
        Expr *obj = e->u.subscript.obj;
        IrExpr *ix = lw_sub_index(lw, e->u.subscript.index);
        if (obj->kind == EXPR_SELECT && obj->sym && type_is_node_collection(obj->sym->type)) {
            /* one node of a group or node array: X.g[i] */
            IrExpr *netx, *repx;
            LowerNet *ln;
            lw_net_object(lw, obj->u.select.obj, &netx, &repx, &ln);
            if (!ln) {
                lw_unsupported(lw, e->loc, "this node access");
                return ir_i32(m, 0);
            }
            return node_lvalue(lw, ln, lower_group_index(ln, obj->sym), netx,
                               repx ? repx : ir_i32(m, 0), ix,
                               lw_storage_may_move(lw) && (lw_moves_storage(e->u.subscript.index) ||
                                                           lw_moves_storage(obj->u.select.obj)),
                               e->loc);
        }
        if (obj->type && obj->type->kind == TY_ARRAY) {
            IrExpr *arr = ir_member(m, lw_lvalue(lw, obj), "a",
                                    ir_t_array(m, lw_vt(lw, obj->type->elem), (int)obj->type->size));
            return ir_index(m, arr, lw_idx(lw, e->loc, ix, ir_int(m, ir_t(m, IRT_I64), obj->type->size),
                                           "array"));
        }
        lw_unsupported(lw, e->loc, "this subscription");
        return ir_i32(m, 0);
    }
    default:
        return lw_expr(lw, e);
    }
}

/* ---- operators ---------------------------------------------------------------------- */

static IrHelper interval_helper(const Type *t, IrHelper iv, IrHelper iv1, IrHelper iv2, IrHelper rv)
{
    switch (t->kind) {
    case TY_INTERVAL1: return iv1;
    case TY_INTERVAL2: return iv2;
    case TY_INTERVAL: return iv;
    default: return rv;
    }
}

static IrExpr *unary(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    Expr *a = e->u.unary.operand;
    IrExpr *x = lw_expr(lw, a);
    const IrType *t = lw_vt(lw, e->type);
    switch (e->u.unary.op) {
    case OP_NOT:
        return ir_unary(m, IROP_NOT, t, x);
    case OP_BITNOT:
        return ir_cast(m, t, ir_unary(m, IROP_BITNOT, t, x));
    case OP_NEG:
        if (type_is_integral(e->type))
            return lw_chk(lw, e->type, e->loc, ir_unary(m, IROP_NEG, ir_t(m, IRT_I64), lw_i64(lw, x)));
        /* §9: `-a` is `0 - a`, so -(0.0) is +0.0, not IEEE's -0.0 */
        return ir_binary(m, IROP_SUB, t, ir_real(m, t, 0.0), x);
    case OP_MIN:
        return ir_member(m, x, "min", t);
    case OP_MAX:
        return ir_member(m, x, "max", t);
    case OP_RANDOM:
        return ir_helper(m, interval_helper(a->type, IRH_RANDOM_IV, IRH_RANDOM_IV1, IRH_RANDOM_IV2,
                                            IRH_RANDOM_RV),
                         t, IR_ARGS(lw_pos(lw, e->loc), x));
    case OP_GRID_ROW: {
        const char *what = arena_printf(lw->m->arena, "%s row", e->sym->name);
        return ir_helper(m, IRH_GRID_ROW, t,
                         IR_ARGS(lw_pos(lw, e->loc), x, ir_int(m, ir_t(m, IRT_I64), e->sym->type->size),
                                 ir_int(m, ir_t(m, IRT_I64), e->sym->type->elem->size),
                                 lw_cstr(lw, what)));
    }
    case OP_GRID_ROWS:
        return ir_helper(m, IRH_GRID_ROWS, t,
                         IR_ARGS(lw_expr_as(lw, a, builtin(lw, TY_INTERVAL)),
                                 ir_int(m, ir_t(m, IRT_I64), e->sym->type->size),
                                 ir_int(m, ir_t(m, IRT_I64), e->sym->type->elem->size)));
    default:
        cp_unreachable();
    }
}

static IrExpr *binary(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    Expr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    Op op = e->u.binary.op;
    IrExpr *pos = lw_pos(lw, e->loc);
    const IrType *t = lw_vt(lw, e->type), *bt = ir_t(m, IRT_BOOL), *i64 = ir_t(m, IRT_I64);
    Type *common = NULL;
    if (op != OP_POW && op != OP_LSHIFT && op != OP_RSHIFT && op != OP_IN)
        common = type_common(l->type, r->type);
    /* in lane code the left operand of AND/OR may be evaluated already
       (its right one makes lane calls: lw_lanes.c, hoist_short_circuit) */
    IrExpr *hl = (op == OP_OR || op == OP_AND) && lw->fn && lw->fn->lane ? lw_lane_hoisted(lw, l) : NULL;
    switch (op) {
    case OP_OR:
        return ir_binary(m, IROP_LOR, t, hl ? hl : lw_expr(lw, l), lw_expr(lw, r));
    case OP_AND:
        return ir_binary(m, IROP_LAND, t, hl ? hl : lw_expr(lw, l), lw_expr(lw, r));
    case OP_XOR:
        return ir_binary(m, IROP_NE, t, ir_cast(m, bt, lw_expr(lw, l)), ir_cast(m, bt, lw_expr(lw, r)));
    case OP_EQ: case OP_NE: case OP_LT: case OP_GT: case OP_LE: case OP_GE: {
        static const IrOp cmp[] = {IROP_EQ, IROP_NE, IROP_LT, IROP_GT, IROP_LE, IROP_GE};
        return ir_binary(m, cmp[op - OP_EQ], t, lw_expr_as(lw, l, common), lw_expr_as(lw, r, common));
    }
    case OP_IN: {
        IrHelper h = interval_helper(r->type, IRH_IN_IV, IRH_IN_IV1, IRH_IN_IV2, IRH_IN_RV);
        IrExpr *x = h == IRH_IN_RV ? lw_expr(lw, l) : lw_i64(lw, lw_expr(lw, l));
        return ir_helper(m, h, t, IR_ARGS(x, lw_expr(lw, r)));
    }
    case OP_BITOR: case OP_BITXOR: case OP_BITAND: {
        IrOp o = op == OP_BITOR ? IROP_BITOR : op == OP_BITXOR ? IROP_BITXOR : IROP_BITAND;
        return ir_cast(m, t, ir_binary(m, o, t, lw_expr_as(lw, l, common), lw_expr_as(lw, r, common)));
    }
    case OP_GRID_INDEX: case OP_GRID_SLICE: {
        const Type *g = e->sym->type;
        IrExpr *rows = ir_int(m, i64, g->size), *cols = ir_int(m, i64, g->elem->size);
        const char *rw = arena_printf(lw->m->arena, "%s row", e->sym->name);
        if (op == OP_GRID_INDEX)
            return ir_helper(m, IRH_GRID_INDEX, t,
                             IR_ARGS(pos, lw_expr(lw, l), rows, lw_expr(lw, r), cols, lw_cstr(lw, rw),
                                     lw_cstr(lw, arena_printf(lw->m->arena, "%s column", e->sym->name))));
        return ir_helper(m, IRH_GRID_SLICE, t,
                         IR_ARGS(pos, lw_expr(lw, l), rows, lw_expr_as(lw, r, builtin(lw, TY_INTERVAL)),
                                 cols, lw_cstr(lw, rw)));
    }
    case OP_INTERVAL: {
        IrExpr *s = ir_struct(m, t);
        ir_struct_add(m, s, NULL, lw_expr_as(lw, l, type_is_integral(l->type) ? builtin(lw, TY_INT) : NULL));
        ir_struct_add(m, s, NULL, lw_expr_as(lw, r, type_is_integral(r->type) ? builtin(lw, TY_INT) : NULL));
        return s;
    }
    case OP_LSHIFT: case OP_RSHIFT:
        return lw_chk(lw, e->type, e->loc,
                      ir_helper(m, op == OP_LSHIFT ? IRH_SHL : IRH_SHR, i64,
                                IR_ARGS(pos, lw_i64(lw, lw_expr(lw, l)), lw_i64(lw, lw_expr(lw, r)))));
    case OP_ADD: case OP_SUB: case OP_MUL: {
        IrOp o = op == OP_ADD ? IROP_ADD : op == OP_SUB ? IROP_SUB : IROP_MUL;
        if (type_is_integral(e->type))
            return lw_chk(lw, e->type, e->loc,
                          ir_binary(m, o, i64, lw_i64(lw, lw_expr(lw, l)), lw_i64(lw, lw_expr(lw, r))));
        return ir_binary(m, o, t, lw_expr(lw, l), lw_expr(lw, r));
    }
    case OP_DIV: case OP_MOD:
        if (type_is_integral(e->type))
            return lw_chk(lw, e->type, e->loc,
                          ir_helper(m, op == OP_DIV ? IRH_DIV : IRH_MOD, i64,
                                    IR_ARGS(pos, lw_expr(lw, l), lw_expr(lw, r))));
        if (op == OP_DIV)
            return ir_binary(m, IROP_DIV, t, lw_expr(lw, l), lw_expr(lw, r));
        return ir_helper(m, IRH_FMOD_REAL, t, IR_ARGS(lw_expr(lw, l), lw_expr(lw, r)));
    case OP_POW:
        if (type_is_integral(l->type))
            return ir_helper(m, IRH_IPOW, t, IR_ARGS(pos, lw_expr(lw, l), lw_expr(lw, r)));
        if (type_is_integral(r->type))
            return ir_helper(m, IRH_RPOW_INT, t, IR_ARGS(lw_expr(lw, l), lw_expr(lw, r)));
        return ir_helper(m, IRH_RPOW, t, IR_ARGS(pos, lw_expr(lw, l), lw_expr(lw, r)));
    default:
        cp_unreachable();
    }
}

/* ---- calls ------------------------------------------------------------------------------ */

/* A node array (a network's node ARRAY element) as an argument of an
 * EXTERNAL subroutine: the address of its nodes as plain records in
 * order (docs/runtime-abi.md §6), copied from either storage. */
static IrExpr *node_array_arg(Lw *lw, Expr *a, const Symbol *p)
{
    IrModule *m = lw->m;
    IrExpr *first = ir_i32(m, 0);
    Expr *sel = a;
    if (a->kind == EXPR_SUBSCRIPT && type_is_node_array(a->type)) {
        /* X.g[r]: row r of a node grid (sema.h) */
        sel = a->u.subscript.obj;
        if (sel->kind == EXPR_SELECT && sel->sym && type_is_node_grid(sel->sym->type))
            first = ir_binary(m, IROP_MUL, ir_t(m, IRT_I32),
                              lw_idx(lw, a->loc, lw_expr(lw, a->u.subscript.index),
                                     ir_int(m, ir_t(m, IRT_I64), sel->sym->type->size),
                                     arena_printf(lw->m->arena, "%s row", sel->sym->name)),
                              ir_i32(m, sel->sym->type->elem->size));
    }
    if (sel->kind != EXPR_SELECT || !sel->sym || sel->sym->kind != SYM_ELEM) {
        lw_unsupported(lw, a->loc, "this node array argument");
        return ir_null(m);
    }
    IrExpr *net, *rep;
    LowerNet *ln;
    lw_net_object(lw, sel->u.select.obj, &net, &rep, &ln);
    if (!ln)
        return ir_null(m);
    if (sel->u.select.obj->kind == EXPR_ME && lw->fn && lw->fn->lane)
        rep = ir_binary(m, IROP_ADD, ir_t(m, IRT_I32),
                        ir_binary(m, IROP_MUL, ir_t(m, IRT_I32), ir_ref(m, lw->fn->rep_v), lanes_const(lw)),
                        lw_lane_idx(lw));
    if (!rep)
        rep = ir_i32(m, 0);
    int g = lower_group_index(ln, sel->sym);
    Type *node = type_node_of(p->type);
    int n = (int)type_node_count(p->type);
    /* CONST only: a node array is not assignable (sema); the compound
       literal is the destination the nodes are gathered into */
    IrExpr *dst = ir_e(m, IRE_TEMP_ADDR, ir_t_ptr(m, lw_vt(lw, node), false));
    dst->a = ir_struct(m, ir_t_array(m, lw_vt(lw, node), n));
    ir_struct_add(m, dst->a, NULL, ir_i32(m, 0));
    dst->u.i = 1; /* not const: filled by the gather */
    return ir_call(m, lw_type_fn(lw, node, IRFN_GATHER),
                   IR_ARGS(dst, net, rep, ir_i32(m, g), first, ir_i32(m, n)));
}

static bool any_moves_storage(const PtrVec *v);

/* An object inside a network variable (net.e, net[i].e), whose storage a
 * replication may move. */
static bool of_network(const Expr *e)
{
    for (;;) {
        if (e->type && e->type->kind == TY_NETWORK)
            return true;
        if (e->kind == EXPR_SELECT)
            e = e->u.select.obj;
        else if (e->kind == EXPR_SUBSCRIPT)
            e = e->u.subscript.obj;
        else
            return false;
    }
}

void lw_args(Lw *lw, const Symbol *subr, PtrVec *args, PtrVec *out)
{
    IrModule *m = lw->m;
    bool lane = lw->fn && lw->fn->lane;
    /* the replacements are for this call's own arguments, not for the
       calls nested in them */
    IrExpr **temps = lw->arg_temps;
    int ntemps = lw->n_arg_temps;
    lw->arg_temps = NULL;
    lw->n_arg_temps = 0;
    bool moves = in_central_agent(lw) && any_moves_storage(args);
    for (int i = 0; i < args->len && i < subr->sub->params.len; i++) {
        Symbol *p = VEC_AT(subr->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        TypeKind k = p->type->kind;
        bool ext = subr->sub->external;
        if (ext && type_is_node_array(p->type)) {
            vec_push(m->arena, out, node_array_arg(lw, a, p));
            continue;
        }
        IrExpr *x = NULL;
        if (i < ntemps && temps[i]) {
            /* copied in and out around the call */
            x = lw_const_by_address(p) ? ir_addr(m, temps[i]) : temps[i];
        } else if (p->access == ACCESS_CONST) {
            x = NULL; /* below */
        } else {
            IrExpr *ca = p->access == ACCESS_VAR && k == TY_NODE ? ca_node_addr(lw, a) : NULL;
            x = ca ? ca : ir_addr(m, lw_lvalue(lw, a));
            if (ext && p->access == ACCESS_VAR && lane && (k == TY_NODE || k == TY_CONNECTION))
                lw_unsupported(lw, a->loc, "a node or connection VAR argument of an EXTERNAL "
                                           "subroutine in replicated network code");
        }
        if (!x && p->access == ACCESS_CONST) {
            if ((ext && (k == TY_NODE || k == TY_CONNECTION)) || lw_const_by_address(p)) {
                /* EXTERNAL: records, arrays, nodes and connections by address */
                IrExpr *ca_val = k == TY_NODE ? ca_node_value(lw, a) : NULL;
                if (lane && k == TY_NODE && a->kind != EXPR_ME && a->kind != EXPR_SUBSCRIPT) {
                    /* a node value (c ? ME.g[0] : ME.g[1]): plain already */
                    x = ir_temp_addr(m, lw_expr_as(lw, a, p->type));
                } else if (lane && k == TY_NODE) {
                    /* lane l of the node as a plain record, alive for the call */
                    x = ir_temp_addr(m, ir_call(m, lw_type_fn(lw, p->type, IRFN_LANE_REC),
                                                IR_ARGS(ir_addr(m, lw_lvalue(lw, a)), ir_null(m),
                                                        lw_lane_idx(lw))));
                } else if (ca_val) {
                    x = ir_temp_addr(m, ca_val);
                } else if (lane && k == TY_CONNECTION && a->cat != VC_OBJECT) {
                    /* a connection value (a constructor, c ? Cx (1) : Cx (2)):
                       a plain record already, one per lane */
                    x = ir_temp_addr(m, lw_expr_as(lw, a, p->type));
                } else if (lane && k == TY_CONNECTION) {
                    lw_unsupported(lw, a->loc, "a connection argument of an EXTERNAL subroutine "
                                               "in replicated network code");
                    x = ir_null(m);
                } else if (a->cat == VC_OBJECT && (ext || !moves || !of_network(a))) {
                    x = ir_addr(m, lw_lvalue(lw, a));
                } else {
                    /* a copy: another argument may move the object's
                       storage before the call reads it */
                    x = ir_temp_addr(m, lw_expr_as(lw, a, p->type));
                }
            } else {
                x = lw_expr_as(lw, a, p->type);
            }
        }
        vec_push(m->arena, out, x);
    }
}

static IrExpr *call_of(Lw *lw, const Symbol *f, PtrVec *out)
{
    IrModule *m = lw->m;
    IrHelper h;
    if (lw_is_builtin(lw, f, &h)) {
        IrExpr *e = ir_helper(m, h, lw_vt(lw, f->sub->result), 0, NULL);
        e->args = *out;
        return e;
    }
    IrExpr *e = ir_call(m, lw_subr_fn(lw, f), 0, NULL);
    e->args = *out;
    return e;
}

/* A call of a global subroutine f (args).  In lane code a node passed as a
 * VAR argument of an EXTERNAL is lane l of a lane record: it is copied
 * into a plain record for the call and back after it. */
IrExpr *lw_global_call(Lw *lw, const Symbol *f, PtrVec *args)
{
    IrModule *m = lw->m;
    bool lane = lw->fn && lw->fn->lane;
    if (!lane || !f->sub->external) {
        PtrVec out = {0};
        lw_args(lw, f, args, &out);
        return call_of(lw, f, &out);
    }
    IrStmt *pre = ir_block(m, (Loc){0});
    PtrVec post = {0};
    int n = args->len < f->sub->params.len ? args->len : f->sub->params.len;
    IrExpr **temps = arena_alloc(lw->arena, (size_t)(n ? n : 1) * sizeof *temps);
    bool any = false;
    for (int i = 0; i < n; i++) {
        Symbol *p = VEC_AT(f->sub->params, i, Symbol);
        if (p->access != ACCESS_VAR || p->type->kind != TY_NODE)
            continue;
        IrExpr *lv = lw_lvalue(lw, VEC_AT(*args, i, Expr));
        IrStmt *saved = lw_push(lw, pre);
        IrVar *t = lw_decl(lw, "vt", lw_vt(lw, p->type),
                           ir_call(m, lw_type_fn(lw, p->type, IRFN_LANE_REC),
                                   IR_ARGS(ir_addr(m, lv), ir_null(m), lw_lane_idx(lw))),
                           (Loc){0});
        lw_close(lw, saved);
        IrStmt *put = ir_s(m, IRS_EVAL, (Loc){0});
        put->a = ir_call(m, lw_type_fn(lw, p->type, IRFN_LANE_PUT),
                         IR_ARGS(ir_addr(m, lv), ir_null(m), lw_lane_idx(lw), ir_addr(m, ir_ref(m, t))));
        vec_push(m->arena, &post, put);
        temps[i] = ir_addr(m, ir_ref(m, t));
        any = true;
    }
    PtrVec out = {0};
    if (any) {
        lw->arg_temps = temps;
        lw->n_arg_temps = n;
    }
    lw_args(lw, f, args, &out);
    IrExpr *call = call_of(lw, f, &out);
    if (!any)
        return call;
    IrExpr *value = NULL;
    IrStmt *saved = lw_push(lw, pre);
    if (f->sub->result) {
        IrVar *r = lw_decl(lw, "r", lw_vt(lw, f->sub->result), call, (Loc){0});
        value = ir_ref(m, r);
    } else {
        lw_eval(lw, call, (Loc){0});
    }
    lw_close(lw, saved);
    for (int i = 0; i < post.len; i++)
        ir_append(m, pre, VEC_AT(post, i, IrStmt));
    return ir_stmts(m, pre, value);
}

/* A call of a standard function that reports its errors at the call
 * (intParam and the like, stdlib_reports_call_pos): the call's position is
 * set around it, as lw_global_call_stmt does for the procedures. */
static IrExpr *positioned_call(Lw *lw, const Symbol *f, PtrVec *args, Loc loc)
{
    IrModule *m = lw->m;
    IrExpr *call = lw_global_call(lw, f, args);
    IrStmt *pre = ir_block(m, loc);
    IrStmt *saved = lw_push(lw, pre);
    IrVar *lib = lw_decl(lw, "lib", ir_t_named(m, "rt_srcpos"),
                         ir_helper(m, IRH_LIB_AT, ir_t_named(m, "rt_srcpos"), IR_ARGS(lw_pos(lw, loc))),
                         loc);
    IrVar *r = lw_decl(lw, "r", lw_vt(lw, f->sub->result), call, loc);
    lw_eval(lw, ir_helper(m, IRH_LIB_DONE, ir_t(m, IRT_VOID), IR_ARGS(ir_ref(m, lib))), loc);
    lw_close(lw, saved);
    return ir_stmts(m, pre, ir_ref(m, r));
}

/* Address of a record receiver: &lvalue for objects, a temporary copy for
 * values (a function result, a constructor). */
static IrExpr *receiver_addr(Lw *lw, Expr *obj)
{
    IrModule *m = lw->m;
    if (obj->cat == VC_OBJECT)
        return ir_addr(m, lw_lvalue(lw, obj));
    IrExpr *t = ir_temp_addr(m, lw_expr(lw, obj));
    t->u.i = 1; /* a modifiable copy: procedures may change their receiver */
    t->type = ir_t_ptr(m, lw_vt(lw, obj->type), false);
    return t;
}

/* A network function called from the central agent on replicate rep: in
 * lane blocks, the lane version with one active lane. */
static IrExpr *lane_aware_net_function(Lw *lw, Expr *e, IrExpr *netx, IrExpr *repx)
{
    IrModule *m = lw->m;
    const Symbol *f = e->sym;
    PtrVec *args = &e->u.objcall.args;
    const IrType *R = lw_vt(lw, f->sub->result), *i32 = ir_t(m, IRT_I32);
    IrStmt *b = ir_block(m, (Loc){0});
    IrStmt *saved = lw_push(lw, b);
    PtrVec scalar = {0}, lane = {0};
    for (int i = 0; i < args->len && i < f->sub->params.len; i++) {
        Symbol *p = VEC_AT(f->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        if (p->access == ACCESS_IO) {
            IrVar *t = lw_decl(lw, "fa", ir_t_ptr(m, ir_t(m, IRT_IO), false), ir_addr(m, lw_lvalue(lw, a)), (Loc){0});
            vec_push(m->arena, &scalar, ir_ref(m, t));
            vec_push(m->arena, &lane, ir_ref(m, t));
        } else if (lw_const_by_address(p)) {
            /* its lane array (large) is built in the lane branch below */
            IrVar *t = lw_decl(lw, "fa", lw_vt(lw, p->type), lw_expr_as(lw, a, p->type), e->loc);
            t->is_const = true;
            vec_push(m->arena, &scalar, ir_addr(m, ir_ref(m, t)));
            vec_push(m->arena, &lane, NULL);
        } else {
            IrVar *t = lw_decl(lw, "fa", lw_vt(lw, p->type), lw_expr_as(lw, a, p->type), (Loc){0});
            t->is_const = true;
            IrVar *L = lw_fill_lanes(lw, "faL", lw_vt(lw, p->type), ir_ref(m, t), (Loc){0});
            vec_push(m->arena, &scalar, ir_ref(m, t));
            vec_push(m->arena, &lane, ir_ref(m, L));
        }
    }
    /* the replicate after the arguments: they may change the replication */
    IrVar *n = lw_decl(lw, "n", ir_t_ptr(m, ir_t(m, IRT_NET), false), netx, (Loc){0});
    IrVar *r = lw_decl(lw, "r", i32, repx, (Loc){0});
    r->is_const = true;
    IrVar *res = lw_decl_uninit(lw, "res", R, (Loc){0});
    IrStmt *ifb = lw_add(lw, IRS_IF, (Loc){0});
    ifb->a = lw_blocked(lw, ir_ref(m, n));
    ifb->then = ir_block(m, (Loc){0});
    ifb->els = ir_block(m, (Loc){0});
    lw_push(lw, ifb->then);
    IrVar *mk = lw_decl(lw, "m", ir_t_lanes(m, i32), NULL, (Loc){0});
    IrVar *t = lw_decl_uninit(lw, "t", ir_t_lanes(m, R), (Loc){0});
    IrExpr *ln = ir_binary(m, IROP_MOD, i32, ir_ref(m, r), lanes_const(lw));
    lw_assign(lw, ir_index(m, ir_ref(m, mk), ln), ir_i32(m, 1), (Loc){0});
    IrExpr *call = ir_call(m, lw_lane_fn(lw, f, NULL, -1),
                           IR_ARGS(ir_ref(m, n), ir_binary(m, IROP_DIV, i32, ir_ref(m, r), lanes_const(lw)),
                                   ir_ref(m, mk), ir_ref(m, t)));
    for (int i = 0; i < lane.len; i++) {
        IrExpr *x = lane.items[i];
        if (!x) { /* broadcast a by-address argument (lw_broadcast_args) */
            IrExpr *v = ir_deref(m, ir_clone(m, scalar.items[i]));
            x = ir_ref(m, lw_fill_lanes(lw, "faL", v->type, v, e->loc));
        }
        vec_push(m->arena, &call->args, x);
    }
    lw_eval(lw, call, (Loc){0});
    lw_assign(lw, ir_ref(m, res), ir_index(m, ir_ref(m, t), ln), (Loc){0});
    lw_push(lw, ifb->els);
    IrExpr *pc = ir_call(m, lw_conn_fn(lw, f), IR_ARGS(ir_ref(m, n), ir_ref(m, r)));
    for (int i = 0; i < scalar.len; i++)
        vec_push(m->arena, &pc->args, scalar.items[i]);
    lw_assign(lw, ir_ref(m, res), pc, (Loc){0});
    lw_close(lw, saved);
    return ir_stmts(m, b, ir_ref(m, res));
}

/* net[i].f (args) from the central agent, one replicate at a time: the
 * arguments first, then the replicate's check (a function in the
 * arguments may change the replication). */
static IrExpr *net_function_args_first(Lw *lw, Expr *e, IrExpr *netx, IrExpr *repx)
{
    IrModule *m = lw->m;
    const Symbol *f = e->sym;
    IrStmt *b = ir_block(m, (Loc){0});
    IrStmt *saved = lw_push(lw, b);
    PtrVec temps = {0};
    lw_args_to_temps(lw, f, &e->u.objcall.args, &temps, (Loc){0});
    IrVar *r = lw_decl(lw, "r", ir_t(m, IRT_I32), repx, (Loc){0});
    r->is_const = true;
    IrExpr *c = ir_call(m, lw_conn_fn(lw, f), IR_ARGS(netx, ir_ref(m, r)));
    for (int i = 0; i < temps.len; i++)
        vec_push(m->arena, &c->args, temps.items[i]);
    IrVar *res = lw_decl(lw, "res", lw_vt(lw, f->sub->result), c, (Loc){0});
    lw_close(lw, saved);
    return ir_stmts(m, b, ir_ref(m, res));
}

static bool any_moves_storage(const PtrVec *v)
{
    for (int i = 0; i < v->len; i++)
        if (lw_moves_storage(VEC_AT(*v, i, Expr)))
            return true;
    return false;
}

/* lw_moves_storage over every child of the expression (ast_walk), so that
 * no kind of operand can hide a call. */
typedef struct MovesWalk {
    AstWalk w;
    bool moves;
} MovesWalk;

static void moves_expr(AstWalk *w, Expr *e)
{
    MovesWalk *mw = (MovesWalk *)w;
    const Symbol *f = e->sym;
    if (e->kind == EXPR_CALL && f && f->sub && f->sub->is_central_agent)
        mw->moves = true; /* a global subroutine may replicate */
    else if (e->kind == EXPR_OBJCALL && f && f->sub && f->sub->changes_me && f->owner &&
             f->owner->kind != TY_RECORD)
        mw->moves = true;
}

bool lw_moves_storage(const Expr *e)
{
    MovesWalk mw = {.w = {.expr = moves_expr}};
    ast_walk_expr(&mw.w, (Expr *)e);
    return mw.moves;
}

bool lw_args_first(Lw *lw, const Symbol *subr, PtrVec *args)
{
    if (!lw_storage_may_move(lw) || !any_moves_storage(args))
        return false;
    /* evaluating an argument lowers the calls in it, which consume
       lw->arg_temps: the temporaries go in when all are evaluated */
    int n = args->len < subr->sub->params.len ? args->len : subr->sub->params.len;
    IrExpr **temps = arena_alloc(lw->arena, (size_t)(n ? n : 1) * sizeof *temps);
    for (int i = 0; i < n && i < lw->n_arg_temps; i++)
        temps[i] = lw->arg_temps[i];
    for (int i = 0; i < n; i++) {
        Symbol *p = VEC_AT(subr->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        TypeKind k = p->type->kind;
        if (p->access != ACCESS_CONST || temps[i] ||
            (subr->sub->external && (k == TY_RECORD || k == TY_ARRAY || k == TY_NODE ||
                                     k == TY_CONNECTION || type_is_node_array(p->type))))
            continue;
        IrVar *t = lw_decl(lw, "fa", lw_vt(lw, p->type), lw_expr_as(lw, a, p->type), a->loc);
        t->is_const = true;
        temps[i] = ir_ref(lw->m, t);
    }
    lw->arg_temps = temps;
    lw->n_arg_temps = n;
    return true;
}

bool lw_indices_first(Lw *lw, Expr *target, LwBare *b)
{
    memset(b, 0, sizeof *b);
    if (!lw->fn || !lw_storage_may_move(lw))
        return false;
    LwBare found;
    memset(&found, 0, sizeof found);
    for (Expr *e = target; e;) {
        if (e->kind == EXPR_SELECT) {
            e = e->u.select.obj;
        } else if (e->kind == EXPR_SUBSCRIPT) {
            if (lw_moves_storage(e->u.subscript.index))
                lw_bare_add(lw, &found, e->u.subscript.index);
            e = e->u.subscript.obj;
        } else {
            break;
        }
    }
    /* in the order they are written (outermost first) */
    for (int i = found.n - 1; i >= 0; i--) {
        Expr *x = found.idx[i];
        lw_bare_add(lw, b, x);
        b->tmp[b->n - 1] = lw_decl(lw, "ix", lw_vt(lw, x->type), lw_expr(lw, x), x->loc);
        b->tmp[b->n - 1]->is_const = true;
    }
    if (!b->n)
        return false;
    b->up = lw->bare;
    lw->bare = b;
    return true;
}

void lw_indices_end(Lw *lw, LwBare *b)
{
    if (b->n && !b->target && lw->bare == b)
        lw->bare = b->up;
}

/* A record function that changes its ME (SubrInfo.changes_me) called in
 * the central agent on a record reached through the bare network variable
 * (net.p.f ()): it runs on replicate 0, then the record is copied to the
 * other replicates, as objcall_stmt does for a procedure; the indices of
 * the path are evaluated once, before the call.  Also any record function
 * whose arguments may move network storage (lw_moves_storage): they are
 * evaluated before the receiver's address is taken. */
static IrExpr *ca_record_function(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    const Symbol *f = e->sym;
    Expr *obj = e->u.objcall.obj;
    IrStmt *b = ir_block(m, e->loc);
    IrStmt *saved = lw_push(lw, b);
    LwBare bare, ix;
    bool all = f->sub->changes_me && lw_bare_begin(lw, obj, &bare, e->loc);
    if (!all) {
        memset(&bare, 0, sizeof bare);
        lw_indices_first(lw, obj, &ix);
    }
    lw_args_first(lw, f, &e->u.objcall.args);
    PtrVec out = {0};
    vec_push(m->arena, &out, receiver_addr(lw, obj));
    lw_args(lw, f, &e->u.objcall.args, &out);
    IrExpr *c = ir_call(m, lw_conn_fn(lw, f), 0, NULL);
    c->args = out;
    IrVar *res = lw_decl(lw, "res", lw_vt(lw, f->sub->result), c, e->loc);
    lw_bare_copy(lw, &bare, e->loc);
    lw_bare_end(lw, &bare);
    if (!all)
        lw_indices_end(lw, &ix);
    lw_close(lw, saved);
    return ir_stmts(m, b, ir_ref(m, res));
}

static IrExpr *objcall(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    const Symbol *f = e->sym;
    Expr *obj = e->u.objcall.obj;
    const Type *owner = f->owner;
    if (lw_in_merge(lw) && (obj->kind == EXPR_ME || obj->kind == EXPR_YOU) &&
        owner->kind != TY_RECORD)
        return lw_merge_call(lw, e);
    PtrVec out = {0};
    switch (owner->kind) {
    case TY_RECORD:
        if ((f->sub->changes_me && lw_bare_applies(lw, obj)) ||
            (lw_storage_may_move(lw) && (any_moves_storage(&e->u.objcall.args) || lw_moves_storage(obj))))
            return ca_record_function(lw, e);
        vec_push(m->arena, &out, receiver_addr(lw, obj));
        lw_args(lw, f, &e->u.objcall.args, &out);
        break;
    case TY_NETWORK: {
        IrExpr *netx, *repx;
        LowerNet *ln;
        lw_net_object(lw, obj, &netx, &repx, &ln);
        if (lw->opts.lanes && in_central_agent(lw))
            return lane_aware_net_function(lw, e, netx, repx ? repx : ir_i32(m, 0));
        if (in_central_agent(lw))
            return net_function_args_first(lw, e, netx, repx ? repx : ir_i32(m, 0));
        vec_push(m->arena, &out, netx);
        vec_push(m->arena, &out, repx ? repx : ir_i32(m, 0));
        lw_args(lw, f, &e->u.objcall.args, &out);
        break;
    }
    case TY_NODE:
        if (obj->kind == EXPR_ME && lw->fn && lw->fn->net && !lw->fn->lane) {
            vec_push(m->arena, &out, ir_ref(m, lw->fn->net_v));
            vec_push(m->arena, &out, ir_ref(m, lw->fn->rep_v));
            vec_push(m->arena, &out, ir_ref(m, lw->fn->idx_v));
            lw_args(lw, f, &e->u.objcall.args, &out);
            IrExpr *c = ir_call(m, lw_node_fn(lw, lw->fn->net, lw->fn->group, f), 0, NULL);
            c->args = out;
            return c;
        }
        lw_unsupported(lw, e->loc, "this object function call");
        return ir_i32(m, 0);
    case TY_CONNECTION:
        if (obj->kind == EXPR_ME && lw->fn && !lw->fn->lane) {
            vec_push(m->arena, &out, ir_ref(m, lw->fn->net_v));
            vec_push(m->arena, &out, ir_ref(m, lw->fn->b_v));
            vec_push(m->arena, &out, ir_ref(m, lw->fn->k_v));
            vec_push(m->arena, &out, ir_ref(m, lw->fn->me_v));
            lw_args(lw, f, &e->u.objcall.args, &out);
            break;
        }
        lw_unsupported(lw, e->loc, "this object function call");
        return ir_i32(m, 0);
    default:
        lw_unsupported(lw, e->loc, "this object function call");
        return ir_i32(m, 0);
    }
    IrExpr *c = ir_call(m, lw_conn_fn(lw, f), 0, NULL);
    c->args = out;
    return c;
}

static IrExpr *convert(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    PtrVec *args = &e->u.convert.args;
    Expr *a0 = args->len ? VEC_AT(*args, 0, Expr) : NULL;
    Type *t = e->type;
    const IrType *T = lw_vt(lw, t);
    switch (sema_convert_kind(e)) {
    case CONV_IDENTITY:
        return lw_expr(lw, a0);
    case CONV_NUMERIC:
        if (t->kind == TY_REAL)
            return ir_cast(m, T, lw_expr(lw, a0));
        if (a0->type->kind == TY_REAL)
            return lw_chk(lw, t, e->loc, ir_helper(m, IRH_REAL_TO_INT, ir_t(m, IRT_I64),
                                                   IR_ARGS(lw_pos(lw, e->loc), lw_expr(lw, a0))));
        return lw_chk(lw, t, e->loc, lw_i64(lw, lw_expr(lw, a0)));
    case CONV_INTERVAL: {
        IrStmt *b = ir_block(m, (Loc){0});
        IrVar *tmp = ir_fresh(m, lw->fn ? lw->fn->f : NULL, "iv", lw_vt(lw, a0->type));
        IrStmt *d = ir_s(m, IRS_DECL, (Loc){0});
        d->var = tmp;
        d->a = lw_expr(lw, a0);
        ir_append(m, b, d);
        IrExpr *s = ir_struct(m, T);
        const IrType *et = lw_vt(lw, a0->type->elem);
        ir_struct_add(m, s, NULL, lw_chk(lw, t->elem, e->loc, ir_member(m, ir_ref(m, tmp), "min", et)));
        ir_struct_add(m, s, NULL, lw_chk(lw, t->elem, e->loc, ir_member(m, ir_ref(m, tmp), "max", et)));
        return ir_stmts(m, b, s);
    }
    case CONV_MAKE_INTERVAL: {
        IrExpr *s = ir_struct(m, T);
        ir_struct_add(m, s, NULL, lw_expr_as(lw, a0, t->elem));
        ir_struct_add(m, s, NULL, lw_expr_as(lw, VEC_AT(*args, 1, Expr), t->elem));
        return s;
    }
    case CONV_RECORD:
    case CONV_NODE:
    case CONV_CONNECTION: {
        IrExpr *s = ir_struct(m, T);
        IrLayout *pl = lw_plain(lw, t);
        int ai = 0;
        for (int i = 0; i < t->elems.len && ai < args->len; i++) {
            Symbol *el = VEC_AT(t->elems, i, Symbol);
            if (type_is_node_collection(el->type))
                continue;
            ir_struct_add(m, s, lw_field(lw, pl, el)->name,
                          lw_expr_as(lw, VEC_AT(*args, ai, Expr), el->type));
            ai++;
        }
        if (ai == 0) /* C has no empty initializer lists */
            ir_struct_add(m, s, NULL, ir_i32(m, 0));
        return s;
    }
    default:
        lw_unsupported(lw, e->loc, "this conversion");
        return ir_i32(m, 0);
    }
}

/* Whether the path of o has a subscript (net[i], a[i], X.g[i]). */
static bool path_has_subscript(const Expr *o)
{
    for (; o; o = o->kind == EXPR_SELECT ? o->u.select.obj : o->u.subscript.obj) {
        if (o->kind == EXPR_SUBSCRIPT)
            return true;
        if (o->kind != EXPR_SELECT)
            return false;
    }
    return false;
}

/* MAXINDEX's size x, after the statement evaluating the replicate's index
 * repx when netobj is net[i] (net[i].g, net[i].g[j].in): the operand is evaluated once
 * (§9), its index checked (§10.3), and a function in it may change the
 * size, so the size is read afterwards. */
static IrExpr *after_rep(Lw *lw, const Expr *netobj, IrExpr *repx, IrExpr *x)
{
    if (!repx || netobj->kind != EXPR_SUBSCRIPT)
        return x;
    IrModule *m = lw->m;
    IrStmt *b = ir_block(m, (Loc){0});
    IrStmt *s = ir_s(m, IRS_EVAL, (Loc){0});
    s->a = ir_cast(m, ir_t(m, IRT_VOID), repx);
    ir_append(m, b, s);
    return ir_stmts(m, b, x);
}

/* MAXINDEX(obj): highest index of an interface, group, array or network. */
static IrExpr *maxindex(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    const IrType *ci = lw_vt(lw, builtin(lw, TY_INT));
    Expr *o = e->u.maxindex.obj;
    if (o->kind == EXPR_ALLSLICE)
        o = o->u.allslice.obj;
    if (o->type && o->type->kind == TY_NETWORK && !sema_is_iface(o)) {
        IrExpr *netx, *repx;
        LowerNet *ln;
        lw_net_object(lw, o, &netx, &repx, &ln);
        return after_rep(lw, o, repx, ir_binary(m, IROP_SUB, ci,
                                             ir_cast(m, ci, ir_netinfo(m, IRN_NREPS, netx, NULL, NULL)),
                                             ir_i32(m, 1)));
    }
    if (o->kind == EXPR_SELECT && sema_is_iface(o)) {
        /* connections at an interface: of ME in a node subroutine, or of a
           node X.g[i] (the topology is the same in every replicate) */
        Expr *node = o->u.select.obj, *grp = node->kind == EXPR_SUBSCRIPT
                                                 ? node->u.subscript.obj : NULL;
        LowerNet *cn = NULL;
        IrExpr *netx = NULL, *idx = NULL, *repx = NULL;
        int g = -1;
        if (node->kind == EXPR_ME && lw->fn && lw->fn->net && lw->fn->idx_v) {
            cn = lw->fn->net;
            g = lw->fn->group;
            netx = ir_ref(m, lw->fn->net_v);
            idx = ir_ref(m, lw->fn->idx_v);
        } else if (grp && grp->kind == EXPR_SELECT && grp->sym &&
                   type_is_node_collection(grp->sym->type)) {
            lw_net_object(lw, grp->u.select.obj, &netx, &repx, &cn);
            if (cn) {
                g = lower_group_index(cn, grp->sym);
                idx = lw_idx_first(lw, node->loc, node->u.subscript.index, lw_expr(lw, node->u.subscript.index),
                             ir_netinfo(m, IRN_COUNT, netx, ir_i32(m, g), NULL), grp->sym->name);
            }
        }
        if (!cn || g < 0) {
            lw_unsupported(lw, e->loc, "MAXINDEX of this interface");
            return ir_i32(m, 0);
        }
        Symbol *ifc = o->sym;
        IrStmt *b = ir_block(m, (Loc){0});
        IrStmt *saved = lw_push(lw, b);
        if (repx && grp->u.select.obj->kind == EXPR_SUBSCRIPT)
            lw_eval(lw, ir_cast(m, ir_t(m, IRT_VOID), repx), (Loc){0}); /* net[i].g[j].in: its index first */
        IrVar *nt = lw_decl(lw, "nt", ir_t_ptr(m, ir_t(m, IRT_NET), false), netx, (Loc){0});
        nt->is_const = true;
        IrVar *ix = lw_decl(lw, "ix", ir_t(m, IRT_I32), idx, (Loc){0});
        ix->is_const = true;
        IrVar *n = lw_decl(lw, "n", ir_t(m, IRT_I64), ir_int(m, ir_t(m, IRT_I64), 0), (Loc){0});
        for (int bi = 0; bi < cn->nbundles; bi++) {
            LowerBundle *bu = &cn->bundles[bi];
            bool in = bu->dst_group == g && bu->dst_iface == ifc;
            bool out = bu->src_group == g && bu->src_iface == ifc;
            if (!in && !out)
                continue;
            /* the start array as a pointer: cp_live_count indexes it */
            IrExpr *start = ir_addr(m, ir_netinfo(m, in ? IRN_DST_START : IRN_SRC_START,
                                                 ir_ref(m, nt), ir_i32(m, bi), ir_i32(m, 0)));
            lw_assign(lw, ir_ref(m, n),
                      ir_binary(m, IROP_ADD, ir_t(m, IRT_I64), ir_ref(m, n),
                                ir_helper(m, IRH_LIVE_COUNT, ir_t(m, IRT_I64),
                                          IR_ARGS(ir_netinfo(m, IRN_BUNDLE, ir_ref(m, nt), ir_i32(m, bi), NULL),
                                                  start, ir_ref(m, ix), ir_bool(m, !in)))),
                      (Loc){0});
        }
        lw_close(lw, saved);
        return ir_stmts(m, b, ir_cast(m, ci, ir_binary(m, IROP_SUB, ir_t(m, IRT_I64), ir_ref(m, n),
                                                       ir_int(m, ir_t(m, IRT_I64), 1))));
    }
    if (o->kind == EXPR_SUBSCRIPT && o->type && type_is_node_array(o->type)) {
        /* a row of a node grid: only its row number is checked */
        const Expr *g = o->u.subscript.obj;
        IrStmt *b = ir_block(m, (Loc){0});
        if (g->kind == EXPR_SELECT && g->u.select.obj->type &&
            g->u.select.obj->type->kind == TY_NETWORK && g->u.select.obj->kind == EXPR_SUBSCRIPT) {
            /* net[i].m[r]: the replicate's index first */
            IrExpr *netx, *repx;
            LowerNet *ln;
            lw_net_object(lw, g->u.select.obj, &netx, &repx, &ln);
            if (repx) {
                IrStmt *r = ir_s(m, IRS_EVAL, (Loc){0});
                r->a = ir_cast(m, ir_t(m, IRT_VOID), repx);
                ir_append(m, b, r);
            }
        }
        IrStmt *s = ir_s(m, IRS_EVAL, (Loc){0});
        s->a = lw_idx(lw, o->loc, lw_expr(lw, o->u.subscript.index),
                      ir_int(m, ir_t(m, IRT_I64), g->type->size),
                      arena_printf(lw->m->arena, "%s row", g->sym ? g->sym->name : "array"));
        ir_append(m, b, s);
        return ir_stmts(m, b, ir_int(m, ci, o->type->size - 1));
    }
    if (o->kind == EXPR_SELECT && o->sym && type_is_node_grid(o->sym->type))
        return ir_int(m, ci, o->sym->type->size - 1);
    if (o->kind == EXPR_SELECT && o->sym && type_is_node_collection(o->sym->type)) {
        IrExpr *netx, *repx;
        LowerNet *ln;
        lw_net_object(lw, o->u.select.obj, &netx, &repx, &ln);
        if (!ln) {
            lw_unsupported(lw, e->loc, "MAXINDEX of this group");
            return ir_i32(m, 0);
        }
        return after_rep(lw, o->u.select.obj, repx, ir_binary(m, IROP_SUB, ci,
                                             ir_cast(m, ci, ir_netinfo(m, IRN_COUNT, netx,
                                                                       ir_i32(m, lower_group_index(ln, o->sym)),
                                                                       NULL)),
                                             ir_i32(m, 1)));
    }
    if (o->type && o->type->kind == TY_ARRAY) {
        if (!path_has_subscript(o))
            return ir_int(m, ci, o->type->size - 1);
        /* a[i], net[i].a: the subscripts evaluated and checked */
        IrStmt *b = ir_block(m, (Loc){0});
        IrStmt *s = ir_s(m, IRS_EVAL, (Loc){0});
        s->a = ir_cast(m, ir_t(m, IRT_VOID), ir_addr(m, lw_lvalue(lw, o)));
        ir_append(m, b, s);
        return ir_stmts(m, b, ir_int(m, ci, o->type->size - 1));
    }
    lw_unsupported(lw, e->loc, "MAXINDEX of this object");
    return ir_i32(m, 0);
}

/* ---- the dispatcher ---------------------------------------------------------------------- */

IrExpr *lw_expr(Lw *lw, Expr *e)
{
    IrModule *m = lw->m;
    IrExpr *lit = const_literal(lw, e);
    if (lit)
        return lit;
    switch (e->kind) {
    case EXPR_INT:
        return ir_int(m, lw_vt(lw, e->type ? e->type : builtin(lw, TY_INT)), (int64_t)e->u.int_lit.value);
    case EXPR_REAL:
        return ir_real(m, lw_vt(lw, builtin(lw, TY_REAL)), e->u.real_lit.value);
    case EXPR_STRING:
        return ir_string(m, e->u.str_lit.bytes, e->u.str_lit.len);
    case EXPR_SELECT: {
        /* a read: the fuse pass may recompute it (origin: the read) */
        IrExpr *x = lw_lvalue(lw, e);
        x->origin = e;
        return x;
    }
    case EXPR_SUBSCRIPT:
    case EXPR_ME:
    case EXPR_YOU:
        /* a whole node (X.g[i], or ME and YOU of a node's MERGE) as a
           value: in the central agent its lane while the network is
           replicated in lane blocks (there is no plain record), in lane
           code the current lane of its lane record */
        if (e->type && e->type->kind == TY_NODE) {
            IrExpr *v = e->kind == EXPR_SUBSCRIPT ? ca_node_value(lw, e) : NULL;
            if (v)
                return v;
            if (lw->fn && lw->fn->lane)
                return ir_call(m, lw_type_fn(lw, e->type, IRFN_LANE_REC),
                               IR_ARGS(ir_addr(m, lw_lvalue(lw, e)), ir_null(m), lw_lane_idx(lw)));
        }
        return lw_lvalue(lw, e);
    case EXPR_NAME:
        return lw_lvalue(lw, e);
    case EXPR_INDEX:
        return ir_cast(m, lw_vt(lw, builtin(lw, TY_INT)), lw_lvalue(lw, e));
    case EXPR_UNARY:
        return unary(lw, e);
    case EXPR_BINARY:
        return binary(lw, e);
    case EXPR_TERNARY: {
        /* in lane code the condition may be evaluated already (its
           branches make lane calls: lw_lanes.c, hoist_branches) */
        IrExpr *c = lw->fn && lw->fn->lane ? lw_lane_hoisted(lw, e->u.ternary.cond) : NULL;
        return ir_cond(m, lw_vt(lw, e->type), c ? c : lw_expr(lw, e->u.ternary.cond),
                       lw_expr_as(lw, e->u.ternary.then_e, e->type),
                       lw_expr_as(lw, e->u.ternary.else_e, e->type));
    }
    case EXPR_CALL:
        if (e->sym->sub && e->sym->sub->result && stdlib_reports_call_pos(e->sym))
            return positioned_call(lw, e->sym, &e->u.call.args, e->loc);
        return lw_global_call(lw, e->sym, &e->u.call.args);
    case EXPR_OBJCALL: {
        IrExpr *h = lw->fn && lw->fn->lane ? lw_lane_hoisted(lw, e) : NULL;
        return h ? h : objcall(lw, e);
    }
    case EXPR_CONVERT:
        return convert(lw, e);
    case EXPR_MAXINDEX:
        return maxindex(lw, e);
    default:
        lw_unsupported(lw, e->loc, "this expression");
        return ir_i32(m, 0);
    }
}

/* The new value of `cur op= value` (op of the assignment statement s). */
IrExpr *lw_compound_rhs(Lw *lw, Stmt *s, IrExpr *cur)
{
    return lw_compound_value(lw, s, cur, lw_expr(lw, s->u.assign.value));
}

IrExpr *lw_compound_value(Lw *lw, Stmt *s, IrExpr *cur, IrExpr *x)
{
    IrModule *m = lw->m;
    Expr *t = s->u.assign.target;
    IrExpr *pos = lw_pos(lw, s->loc);
    bool integral = type_is_integral(t->type);
    const IrType *T = lw_vt(lw, t->type), *i64 = ir_t(m, IRT_I64);
    switch (s->u.assign.op) {
    case ASSIGN_ADD: case ASSIGN_SUB: case ASSIGN_MUL: {
        IrOp o = s->u.assign.op == ASSIGN_ADD ? IROP_ADD : s->u.assign.op == ASSIGN_SUB ? IROP_SUB : IROP_MUL;
        return integral ? lw_chk(lw, t->type, s->loc, ir_binary(m, o, i64, lw_i64(lw, cur), lw_i64(lw, x)))
                        : ir_binary(m, o, T, cur, x);
    }
    case ASSIGN_DIV:
        return integral ? lw_chk(lw, t->type, s->loc, ir_helper(m, IRH_DIV, i64, IR_ARGS(pos, cur, x)))
                        : ir_binary(m, IROP_DIV, T, cur, x);
    default:
        return integral ? lw_chk(lw, t->type, s->loc, ir_helper(m, IRH_MOD, i64, IR_ARGS(pos, cur, x)))
                        : ir_helper(m, IRH_FMOD_REAL, T, IR_ARGS(cur, x));
    }
}
