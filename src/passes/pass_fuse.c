/* pass_fuse.c -- transport-then-reduce fusion, and the stores it makes
 * unnecessary.
 *
 * A CuPit program moves values between nodes through connection elements:
 * `ME.out[].send (x)` stores `ME.signal := x * ME.weight` in every
 * connection, and a later `REDUCTION ME.in[].signal:sum` sums them.  The
 * transport analysis (src/lower/transport.c) finds, for every read of a
 * connection element in lane code, the assignments whose value it can see;
 * where that is one unconditional assignment of the procedure called at
 * one interface call, the read can evaluate the assignment's expression
 * again, with the call's arguments kept per node ("slots").  This pass
 * makes those rewrites in lane code:
 *
 *   - a read of ME.e in a connection's lane version, and the candidates of
 *     a REDUCTION or WTA over an interface, become the recomputed value;
 *   - the interface call stores the arguments the recomputations need into
 *     the slots of its node's lane record;
 *   - an assignment no read needs from memory is left out, and a call of
 *     a connection procedure that then does nothing, with it.
 *
 * Precondition: the analysis saw every lane version that can run.  It
 * walks the network calls of the central agent into lane code, and prunes
 * what a condition it can decide (a Bool CONST argument the call fixes)
 * never runs; a lane version it did not reach is called, if at all, with
 * no active lane.  Such a version keeps only that check: with an active
 * lane it stops the program with an internal error instead of running
 * code whose stores the analysis may have left out.  Which fields the
 * lane records keep follows from what code still names
 * (pass_drop_fields.c). */
#include <string.h>

#include "passes_internal.h"

static bool is_lane_object(const IrFunc *f)
{
    return f->role == IRFN_LANE && f->net && f->subr && f->subr->owner &&
           (f->subr->owner->kind == TY_NODE || f->subr->owner->kind == TY_CONNECTION);
}

/* The lane versions of net the analysis did not reach keep only the check
 * that they run with no active lane. */
static void stub_unreached(PassCtx *c, const LowerNet *net)
{
    IrModule *m = c->m;
    for (int i = 0; i < m->funcs.len; i++) {
        IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        if (!is_lane_object(f) || f->net != net || !f->reached || !f->body ||
            lower_lane_reached(c->plan, f->subr, net, f->group))
            continue;
        IrStmt *b = ir_block(m, f->loc);
        IrStmt *chk = ir_s(m, IRS_IF, f->loc);
        chk->a = ir_helper(m, IRH_ANY, ir_t(m, IRT_BOOL), IR_ARGS(ir_ref(m, ir_param_named(f, "M0"))));
        chk->then = ir_block(m, f->loc);
        IrStmt *e = ir_s(m, IRS_EVAL, f->loc);
        e->a = ir_helper(m, IRH_ERROR, ir_t(m, IRT_VOID),
                         IR_ARGS(ir_pos(m, f->loc.line),
                                 ir_string(m, "internal error: lane code of %s that the analysis of the "
                                              "network calls does not reach (please report it)",
                                           (int)strlen("internal error: lane code of %s that the analysis "
                                                       "of the network calls does not reach (please "
                                                       "report it)")),
                                 ir_string(m, f->subr->name, (int)strlen(f->subr->name))));
        ir_append(m, chk->then, e);
        ir_append(m, b, chk);
        f->body = b;
        f->self = NULL;
        pu_trace(c, "fuse", "%s: not reached by the analysis: runs only with no active lane", f->name);
    }
}

/* ---- connection lane versions ---------------------------------------------------- */

typedef struct ConnCtx {
    PassCtx *c;
    IrFunc *f;
    int reads;
} ConnCtx;

static void recompute_read(IrExpr **slot, void *data)
{
    ConnCtx *cc = data;
    IrExpr *e = *slot;
    if (!e->origin || (e->kind != IRE_INDEX && e->kind != IRE_FIELD))
        return;
    const LazyWriter *w = lower_lazy_read(cc->c->plan, cc->f->net, cc->f->group, e->origin);
    IrVar *l = pu_lane_of(e);
    if (!w || !l)
        return;
    IrModule *m = cc->c->m;
    IrVar *me = ir_param_named(cc->f, "me"), *k = ir_param_named(cc->f, "k");
    *slot = lower_lazy_value(cc->c->lw, cc->f, w, cc->f->group, ir_ref(m, k),
                             ir_deref(m, ir_ref(m, me)), l);
    cc->reads++;
}

/* The assignment `ME.e := ...` of a lane-assignment loop, or NULL. */
static const Stmt *me_assignment(const IrStmt *s)
{
    if (s->kind != IRS_FOR || s->tag != IRTAG_LANE_ASSIGN || !s->origin)
        return NULL;
    const Stmt *st = s->origin;
    const Expr *t = st->u.assign.target;
    return t->kind == EXPR_SELECT && t->u.select.obj->kind == EXPR_ME ? st : NULL;
}

typedef struct Elide {
    PassCtx *c;
    IrFunc *f;
    int stores;
} Elide;

static void elide_in_block(IrStmt *blk, void *data)
{
    Elide *el = data;
    for (int i = 0; i < blk->list.len; i++) {
        IrStmt *s = VEC_AT(blk->list, i, IrStmt);
        const Stmt *st = me_assignment(s);
        if (!st || lower_write_stored(el->c->plan, el->f->net, el->f->group, st))
            continue;
        IrStmt *cm = ir_s(el->c->m, IRS_COMMENT, s->loc);
        cm->text = arena_printf(el->c->m->arena, "ME.%s: not stored, every read recomputes or ignores it",
                                st->u.assign.target->sym->name);
        blk->list.items[i] = cm;
        el->stores++;
    }
}

static void fuse_conn(PassCtx *c, IrFunc *f)
{
    ConnCtx cc = {.c = c, .f = f};
    ir_rewrite_exprs(f->body, recompute_read, &cc);
    Elide el = {.c = c, .f = f};
    pu_each_block(f->body, elide_in_block, &el);
    if (cc.reads || el.stores)
        pu_trace(c, "fuse", "%s: %d reads recomputed, %d stores left out", f->name, cc.reads, el.stores);
}

/* ---- node lane versions ---------------------------------------------------------------- */

/* Whether procedure proc on bundle b does nothing in lane code: all it
 * does is assignments to elements of ME that are not stored. */
static bool call_vanishes(PassCtx *c, const LowerNet *net, const Symbol *proc, int b)
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
            lower_write_stored(c->plan, net, b, st))
            return false;
    }
    return true;
}

typedef struct NodeCtx {
    PassCtx *c;
    IrFunc *f;
    int slots, yields, calls;
} NodeCtx;

/* me.z[l] = M[l] ? arg[l] : me.z[l] for each slot parameter. */
static void store_slots(NodeCtx *nc, IrStmt *blk, int at, const Expr *call, int slot)
{
    IrModule *m = nc->c->m;
    const Symbol *proc = call->sym;
    IrVar *const *args = lower_site_args(nc->c->lw, nc->f, call);
    IrVar *mk = blk->aux[0];
    const Type *node = nc->f->subr->owner;
    if (!args || !mk || !nc->f->self)
        return;
    for (int i = 0; i < proc->sub->params.len; i++) {
        const Symbol *p = VEC_AT(proc->sub->params, i, Symbol);
        if (!args[i] || p->access != ACCESS_CONST || !type_is_plain_data(p->type) ||
            p->type->kind == TY_RECORD || p->type->kind == TY_ARRAY)
            continue;
        IrField *z = lower_slot_field(nc->c->lw, node, slot, proc, p);
        IrStmt *loop = ir_s(m, IRS_FOR, blk->loc);
        loop->for_kind = IRFOR_LANES;
        loop->simd = true;
        loop->var = ir_var(m, "l", ir_t(m, IRT_INT), IRV_LOCAL);
        loop->then = ir_block(m, blk->loc);
        IrExpr *l = ir_ref(m, loop->var);
        IrExpr *target = ir_index(m, ir_field(m, ir_deref(m, ir_ref(m, nc->f->self)), z), l);
        IrStmt *as = ir_s(m, IRS_ASSIGN, blk->loc);
        as->a = target;
        as->b = ir_cond(m, z->type->elem, ir_index(m, ir_ref(m, mk), ir_ref(m, loop->var)),
                        ir_index(m, ir_ref(m, args[i]), ir_ref(m, loop->var)), ir_clone(m, target));
        ir_append(m, loop->then, as);
        pu_insert(m, blk, at++, loop);
        nc->slots++;
    }
}

static void fuse_node_block(IrStmt *blk, void *data)
{
    NodeCtx *nc = data;
    PassCtx *c = nc->c;
    IrModule *m = c->m;
    if (blk->tag == IRTAG_IFACE_CALL) {
        const Expr *call = blk->origin;
        /* the bundles whose call does nothing go */
        for (int i = 0; i < blk->list.len; i++) {
            IrStmt *b = VEC_AT(blk->list, i, IrStmt);
            if (b->tag == IRTAG_IFACE_BUNDLE && call_vanishes(c, nc->f->net, call->sym, b->g)) {
                pu_remove(blk, i--);
                nc->calls++;
            }
        }
        int slot = lower_site_slot(c->plan, call);
        if (slot >= 0) {
            int at = 0;
            while (at < blk->list.len && VEC_AT(blk->list, at, IrStmt)->tag != IRTAG_IFACE_BUNDLE)
                at++;
            store_slots(nc, blk, at, call, slot);
        }
        return;
    }
    /* the candidates of a REDUCTION or WTA over an interface */
    for (int i = 0; i < blk->list.len; i++) {
        IrStmt *y = VEC_AT(blk->list, i, IrStmt);
        if (y->kind != IRS_YIELD || !y->origin || !y->c || y->c->kind != IRE_INT || !y->aux[0] ||
            !y->b || y->b->kind != IRE_VAR)
            continue;
        int b = (int)y->c->u.i;
        const LazyWriter *w = lower_lazy_read(c->plan, nc->f->net, b, y->origin);
        if (!w)
            continue;
        const IrType *vt = y->a->type && y->a->type->kind == IRT_ARRAY ? y->a->type->elem : NULL;
        if (!vt)
            continue;
        IrStmt *fill;
        IrVar *l;
        IrVar *lz = pu_lane_temp(m, nc->f, blk, i, vt, y->loc, &fill, &l);
        IrExpr *rec = ir_index(m, ir_ref(m, y->aux[0]), ir_clone(m, y->b));
        fill->b = lower_lazy_value(c->lw, nc->f, w, b, ir_clone(m, y->b), rec, l);
        i += 2;
        y->a = ir_ref(m, lz);
        nc->yields++;
    }
}

static void fuse_node(PassCtx *c, IrFunc *f)
{
    NodeCtx nc = {.c = c, .f = f};
    pu_each_block(f->body, fuse_node_block, &nc);
    if (nc.slots || nc.yields || nc.calls)
        pu_trace(c, "fuse", "%s: %d slot stores, %d reduction candidates recomputed, %d empty calls left out",
                 f->name, nc.slots, nc.yields, nc.calls);
}

void pass_fuse(PassCtx *c)
{
    IrModule *m = c->m;
    pu_mark_reached(m);
    for (int n = 0; n < lower_net_count(c->plan); n++) {
        const LowerNet *net = lower_net_at(c->plan, n);
        stub_unreached(c, net);
        for (int i = 0; i < m->funcs.len; i++) {
            IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
            if (!is_lane_object(f) || f->net != net || !f->body)
                continue;
            if (f->subr->owner->kind == TY_CONNECTION)
                fuse_conn(c, f);
            else
                fuse_node(c, f);
        }
    }
}
