/* parallel.c -- statements on parallel variables and on the topology.
 *
 * REDUCTION and WTA (§8.4, §8.5), I/O assignments (§8.2), REPLICATE
 * (§8.7), EXTEND (§8.8), CONNECT/DISCONNECT (§8.9) and MERGE (§8.10), with
 * the context rules of §5.3.  Where a PV is required a bare group, array,
 * interface or network variable counts as its all-slice (§6.4 leniency). */
#include "sema_internal.h"

#include <stdio.h>

static bool is_network_name(const Expr *e)
{
    return e->kind == EXPR_NAME && e->sym && e->sym->is_global && e->sym->type &&
           e->sym->type->kind == TY_NETWORK;
}

Type *sema_multitude(Ctx *c, Expr *e)
{
    Type *t = sema_analyze_expr(c, e);
    if (type_is_error(t))
        return t;
    if (e->cat == VC_PV)
        return t;
    if (e->cat == VC_OBJECT) {
        if (sema_is_iface(e))
            return t;
        if (sema_grid_row_to_pv(c, e)) /* X.g[i] of a grid: its row, leniently */
            return e->type;
        if (type_is_node_collection(t))
            return type_node_of(t);
        if (is_network_name(e))
            return t;
    }
    return NULL;
}

/* The level a REDUCTION/WTA combines over in this context (§5.3, §8.4). */
static int parallel_level(const Ctx *c)
{
    if (ctx_is_global_subr(c))
        return SEMF_LEVEL_NET;
    switch (c->kind) {
    case CTX_NETP: case CTX_NETF: return SEMF_LEVEL_NODE;
    case CTX_NODEP: case CTX_NODEF: return SEMF_LEVEL_CONN;
    default: return 0;
    }
}

static const char *level_phrase(int level)
{
    switch (level) {
    case SEMF_LEVEL_NET: return "the replicates of a network variable (net[])";
    case SEMF_LEVEL_NODE: return "the nodes of a node group or array of ME (ME.g[])";
    default: return "the connections of an interface of ME (ME.i[])";
    }
}

/* Is the multitude pv of element type et the one this level works on? */
static bool shape_matches(const Expr *pv, const Type *et, int level)
{
    Expr *root = sema_object_root((Expr *)pv);
    switch (level) {
    case SEMF_LEVEL_NET:
        return et->kind == TY_NETWORK && is_network_name(root);
    case SEMF_LEVEL_NODE:
        return et->kind == TY_NODE && root->kind == EXPR_ME;
    default: {
        const Expr *base = pv->kind == EXPR_ALLSLICE ? pv->u.allslice.obj : pv;
        return et->kind == TY_CONNECTION && root->kind == EXPR_ME && sema_is_iface(base);
    }
    }
}

/* Finds data element `id` of element type et for a REDUCTION/WTA. */
static Symbol *data_element(Ctx *c, Type *et, Ident id, const char *stmt)
{
    Symbol *m = sema_scope_find(et->members, id.name);
    if (!m || m->redefined) {
        if (!m && sema_report_once(c, et, id.name))
            diag_error(id.loc, "type '%s' has no element '%s'", et->name, id.name);
        return NULL;
    }
    if (m->kind != SYM_ELEM || !type_is_plain_data(m->type)) {
        diag_error(id.loc, "%s needs a data element, but '%s' is %s %s of '%s'", stmt,
                   id.name, m->kind == SYM_ELEM ? "a node group or array" : "an",
                   m->kind == SYM_ELEM ? "element" : sema_sym_what(m), et->name);
        return NULL;
    }
    return m;
}

static Symbol *lookup_global_fn(Ctx *c, Ident id, SymKind want, const char *what)
{
    Symbol *f = sema_scope_lookup(c->scope, id.name);
    if (!f) {
        diag_error(id.loc, "undefined %s '%s'", what, id.name);
        return NULL;
    }
    if (!f->defined) {
        diag_error(id.loc, "'%s' is used before its definition", id.name);
        diag_note(f->loc, "'%s' is defined here", id.name);
        return NULL;
    }
    if (f->redefined)
        return NULL;
    if (f->kind != want) {
        diag_error(id.loc, "'%s' is a %s, not a %s", id.name, sema_sym_what(f), what);
        return NULL;
    }
    return f;
}

/* Common part of REDUCTION and WTA: context, PV shape and element. */
static Symbol *combined_element(Ctx *c, Stmt *s, Expr *pv, Ident elem, const char *stmt,
                                Type **et_out)
{
    int level = parallel_level(c);
    if (!level) {
        diag_error(s->loc, "%s is not allowed in %s", stmt, sema_ctx_desc(c));
        return NULL;
    }
    Type *et = sema_multitude(c, pv);
    if (et && type_is_error(et))
        return NULL;
    if (!et || !shape_matches(pv, et, level)) {
        /* ME.i[].q.b: a part of an element of the parallel variable */
        const Expr *in = pv;
        while (in->kind == EXPR_SELECT || in->kind == EXPR_SUBSCRIPT) {
            const Expr *up = in;
            in = in->kind == EXPR_SELECT ? in->u.select.obj : in->u.subscript.obj;
            if (in->cat == VC_PV && up->kind == EXPR_SELECT) {
                diag_error(elem.loc, "%s combines a whole data element of each member "
                           "('%s' here), not a part of one ('%s')", stmt,
                           up->u.select.elem.name, elem.name);
                return NULL;
            }
        }
        diag_error(pv->loc, "in %s, %s combines over %s", sema_ctx_desc(c), stmt,
                   level_phrase(level));
        return NULL;
    }
    s->sem_flags |= level;
    *et_out = et;
    return data_element(c, et, elem, stmt);
}

/* ReductionStmt -> REDUCTION Object ":" ReductionFunctionId INTO Object (§8.4) */
void sema_reduction(Ctx *c, Stmt *s)
{
    Expr *pvs = s->u.reduction.pvs, *into = s->u.reduction.into;
    if (pvs->kind != EXPR_SELECT) {
        if (!parallel_level(c))
            diag_error(s->loc, "REDUCTION is not allowed in %s", sema_ctx_desc(c));
        else
            diag_error(pvs->loc, "the object of REDUCTION must select an element of a "
                       "parallel variable, e.g. ME.in[].out");
        return;
    }
    Type *et = NULL;
    Symbol *el = combined_element(c, s, pvs->u.select.obj, pvs->u.select.elem,
                                  "REDUCTION", &et);
    if (!el)
        return;
    pvs->sym = el;
    pvs->type = el->type;
    pvs->cat = VC_PVS;
    Symbol *op = lookup_global_fn(c, s->u.reduction.func, SYM_REDUCTION,
                                  "reduction function");
    Type *xt = sema_analyze_expr(c, into);
    if (!op || type_is_error(xt))
        return;
    s->callee = op;
    s->target = el;
    if (!sema_check_writable(c, into, "reduce into", ""))
        return;
    if (op->type != el->type)
        diag_error(s->u.reduction.func.loc, "reduction function '%s' combines %s values, "
                   "but element '%s' has type %s", op->name, op->type->name, el->name,
                   el->type->name);
    else if (xt != op->type)
        diag_error(into->loc, "the REDUCTION result has type %s, but the INTO object has "
                   "type %s (the types must be identical)", op->type->name, xt->name);
}

/* WtaStmt -> WTA Object "." ElementName ":" WtaFunctionId ObjectProcedureId
 *            "(" ArgumentList ")" (§8.5) */
void sema_wta(Ctx *c, Stmt *s)
{
    Expr *pv = s->u.wta.pv;
    Type *et = NULL;
    Symbol *el = combined_element(c, s, pv, s->u.wta.elem, "WTA", &et);
    if (!el) {
        for (int i = 0; i < s->u.wta.args.len; i++)
            sema_analyze_expr(c, VEC_AT(s->u.wta.args, i, Expr));
        return;
    }
    s->target = el;
    Symbol *op = lookup_global_fn(c, s->u.wta.func, SYM_WTA, "WTA function");
    if (op) {
        s->callee = op;
        if (op->type != el->type)
            diag_error(s->u.wta.func.loc, "WTA function '%s' compares %s values, but "
                       "element '%s' has type %s", op->name, op->type->name, el->name,
                       el->type->name);
    }
    Ident pid = s->u.wta.proc;
    Symbol *p = sema_scope_find(et->members, pid.name);
    if (!p || p->kind != SYM_OBJPROC) {
        if (p && p->redefined)
            ; /* the duplicate definition has been reported */
        else if (p)
            diag_error(pid.loc, "'%s' is an %s of '%s', not an object procedure (WTA "
                       "calls a procedure for the winner)", pid.name, sema_sym_what(p),
                       et->name);
        else if (sema_report_once(c, et, pid.name)) {
            diag_error(pid.loc, "type '%s' has no object procedure '%s'", et->name,
                       pid.name);
            const char *near = sema_closest_in(et->members, pid.name, SYMS(SYM_OBJPROC),
                                               false, false);
            if (near)
                diag_note(pid.loc, "did you mean '%s'?", near);
        }
        for (int i = 0; i < s->u.wta.args.len; i++)
            sema_analyze_expr(c, VEC_AT(s->u.wta.args, i, Expr));
        return;
    }
    if (!p->defined) {
        diag_error(pid.loc, "'%s' is used before its definition", pid.name);
        diag_note(p->loc, "'%s' is defined here", pid.name);
        return;
    }
    s->proc = p;
    sema_note_obj_call(c, p);
    sema_check_var_param_rule(c, p, pid.loc);
    sema_check_args(c, p, &s->u.wta.args, pid.loc);
}

/* ---- I/O assignments --------------------------------------------------- */

static void io_shape_error(Expr *e)
{
    diag_error(e->loc, "the left side of an I/O assignment must select a data element "
               "of a node group of a network variable, e.g. net.in[].inData");
}

/* net.g[].d, net[].g[].d, net.g[a...b].d, net.g.d (leniency); of a node
 * grid also a row net.g[i][].d or net.g[i][a...b].d, or the bare row
 * net.g[i].d (leniency), rewritten into the grid's flat node array as in
 * expressions (expr.c). */
static Symbol *io_node_side(Ctx *c, Expr *ns)
{
    if (ns->kind != EXPR_SELECT) {
        io_shape_error(ns);
        return NULL;
    }
    Expr *g = ns->u.select.obj, *x = g, *row = NULL;
    if (g->kind == EXPR_ALLSLICE)
        x = g->u.allslice.obj;
    else if (g->kind == EXPR_SUBSCRIPT)
        x = g->u.subscript.obj;
    if (g != x && x->kind == EXPR_SUBSCRIPT) {
        row = x->u.subscript.index;
        x = x->u.subscript.obj;
    }
    if (x->kind != EXPR_SELECT) {
        io_shape_error(ns);
        return NULL;
    }
    Expr *n = x->u.select.obj;
    Expr *name = n->kind == EXPR_ALLSLICE ? n->u.allslice.obj : n;
    if (name->kind == EXPR_SUBSCRIPT && name->u.subscript.obj->kind == EXPR_NAME &&
        !type_is_error(sema_analyze_expr(c, name->u.subscript.obj)) &&
        is_network_name(name->u.subscript.obj)) {
        diag_error(name->loc, "an I/O assignment moves the values of every replicate "
                   "(§8.2): write '%s[]' or '%s', not a subscript of the replicates",
                   name->u.subscript.obj->u.name.name, name->u.subscript.obj->u.name.name);
        return NULL;
    }
    if (name->kind != EXPR_NAME) {
        io_shape_error(ns);
        return NULL;
    }
    Type *nt = sema_analyze_expr(c, name);
    if (type_is_error(nt))
        return NULL;
    if (!is_network_name(name)) {
        io_shape_error(ns);
        return NULL;
    }
    if (n != name) {
        n->type = nt;
        n->cat = VC_PV;
    }
    Symbol *gs = sema_scope_find(nt->members, x->u.select.elem.name);
    if (!gs || gs->kind != SYM_ELEM || !type_is_node_collection(gs->type)) {
        diag_error(x->u.select.elem.loc, "'%s' is not a node group or array of network "
                   "type '%s'", x->u.select.elem.name, nt->name);
        return NULL;
    }
    if (row && !type_is_node_grid(gs->type)) {
        diag_error(row->loc, "'%s' is not an array of node arrays: it has no rows",
                   gs->name);
        return NULL;
    }
    x->sym = gs;
    x->type = gs->type;
    x->cat = n->cat == VC_PV ? VC_PVS : VC_OBJECT;
    Type *node = type_node_of(gs->type);
    if (row) {
        Type *rt = sema_value(c, row);
        if (type_is_error(rt))
            return NULL;
        if (!type_is_integral(rt)) {
            diag_error(row->loc, "a row of '%s' needs an integer subscript, not %s",
                       gs->name, rt->name);
            return NULL;
        }
    }
    if (g->kind == EXPR_SUBSCRIPT) {
        Type *it = sema_value(c, g->u.subscript.index);
        if (type_is_error(it))
            return NULL;
        if (!row && type_is_integral(it) && type_is_node_grid(gs->type)) {
            /* net.g[i].d: row i, a bare array as its all-slice (§6.4
               leniency), as in calls, REDUCTION, WTA and CONNECT */
            g->u.subscript.index = sema_grid_op(c, OP_GRID_ROW, g->u.subscript.index, NULL, gs,
                                                true, g->u.subscript.index->loc);
        } else if (!type_is_int_interval(it)) {
            diag_error(g->u.subscript.index->loc, "the node side of an I/O assignment "
                       "needs a slice (integer interval), not %s", it->name);
            return NULL;
        } else if (type_is_node_grid(gs->type)) /* rows a...b, or columns of row `row` */
            g->u.subscript.index =
                row ? sema_grid_op(c, OP_GRID_SLICE, row, g->u.subscript.index, gs, true,
                                   g->u.subscript.index->loc)
                    : sema_grid_op(c, OP_GRID_ROWS, g->u.subscript.index, NULL, gs, true,
                                   g->u.subscript.index->loc);
    } else if (row) { /* net.g[i][]: row i */
        g->kind = EXPR_SUBSCRIPT;
        g->u.subscript.obj = x;
        g->u.subscript.index = sema_grid_op(c, OP_GRID_ROW, row, NULL, gs, true, row->loc);
    }
    if (g->kind == EXPR_SUBSCRIPT)
        g->u.subscript.obj = x;
    if (g != x) {
        g->type = node;
        g->cat = VC_PV;
    }
    Symbol *d = sema_scope_find(node->members, ns->u.select.elem.name);
    if (!d || d->kind != SYM_ELEM) {
        diag_error(ns->u.select.elem.loc, "node type '%s' has no data element '%s'",
                   node->name, ns->u.select.elem.name);
        return NULL;
    }
    ns->sym = d;
    ns->type = d->type;
    ns->cat = VC_PVS;
    return d;
}

/* InputAssignment -> Object "<--" Object; OutputAssignment -> Object "-->"
 * Object (§8.2) */
void sema_io_assign(Ctx *c, Stmt *s)
{
    const char *arrow = s->kind == STMT_INPUT ? "<--" : "-->";
    if (!ctx_is_global_subr(c)) {
        diag_error(s->loc, "I/O assignments ('%s') are only allowed in the central "
                   "agent, not in %s", arrow, sema_ctx_desc(c));
        return;
    }
    Symbol *d = io_node_side(c, s->u.io.node_side);
    Expr *io = s->u.io.io;
    Type *it = sema_analyze_expr(c, io);
    if (!d || type_is_error(it))
        return;
    if (io->kind != EXPR_NAME || !io->sym || io->sym->kind != SYM_IO || !io->sym->is_global) {
        diag_error(io->loc, "the right side of an I/O assignment must be a global IO "
                   "object");
        return;
    }
    if (it != d->type)
        diag_error(io->loc, "I/O area '%s' has type %s, but element '%s' has type %s",
                   io->sym->name, it->name, d->name, d->type->name);
    else if (s->kind == STMT_INPUT)
        sema_note_input(c, d);
}

/* ---- REPLICATE, EXTEND, CONNECT, MERGE ------------------------------------ */

static bool integral_count(Ctx *c, Expr *count, bool interval_ok, const char *stmt)
{
    Type *t = sema_value(c, count);
    if (type_is_error(t))
        return false;
    if (type_is_integral(t) || (interval_ok && type_is_int_interval(t)))
        return true;
    diag_error(count->loc, "the %s count must be %s, not %s", stmt,
               interval_ok ? "integral or an integer interval" : "integral", t->name);
    return false;
}

/* DataAllocationStmt -> REPLICATE Object INTO Expression (§8.7) */
void sema_replicate(Ctx *c, Stmt *s)
{
    Expr *obj = s->u.replicate.obj, *count = s->u.replicate.count;
    if (ctx_is_global_subr(c)) {
        Type *t = sema_analyze_expr(c, obj);
        if (!type_is_error(t) && !is_network_name(obj)) {
            if (obj->kind == EXPR_SUBSCRIPT && is_network_name(obj->u.subscript.obj))
                diag_error(obj->loc, "a network variable is replicated as a whole, not one "
                           "of its replicates (write 'REPLICATE %s INTO n')",
                           obj->u.subscript.obj->u.name.name);
            else
                diag_error(obj->loc, "in the central agent only a network variable can be "
                           "replicated");
            return;
        }
        s->sem_flags |= SEMF_LEVEL_NET;
        if (c->subr)
            c->subr->sub->replicates = true;
        if (!integral_count(c, count, true, "REPLICATE"))
            return;
        /* run-time errors in every run that executes the statement
           (§10.1); none where no run does (Ctx.dead) */
        if (c->dead)
            return;
        if (count->is_const && count->const_int < 1)
            diag_error(count->loc, "a network can only be replicated INTO a count of at "
                       "least 1, not %lld", (long long)count->const_int);
        if (count->kind == EXPR_BINARY && count->u.binary.op == OP_INTERVAL &&
            count->u.binary.lhs->is_const && count->u.binary.rhs->is_const) {
            long long lo = count->u.binary.lhs->const_int, hi = count->u.binary.rhs->const_int;
            if (lo > hi)
                diag_error(count->loc, "a network cannot be replicated INTO the empty "
                           "interval %lld...%lld", lo, hi);
            else if (lo < 1)
                diag_error(count->u.binary.lhs->loc, "a network can only be replicated INTO counts of at "
                           "least 1, not %lld...%lld", lo, hi);
        }
        return;
    }
    if (c->kind != CTX_NODEP && c->kind != CTX_CONP) {
        bool net = c->kind == CTX_NETP || c->kind == CTX_NETF;
        diag_error(s->loc, "REPLICATE is not allowed in %s%s", sema_ctx_desc(c),
                   !net ? ""
                   : obj->kind == EXPR_ME
                       ? " (the central agent replicates a network: 'REPLICATE net INTO n' "
                         "in a global procedure such as program)"
                       : " (nodes replicate themselves in a node procedure, 'REPLICATE ME "
                         "INTO n'; 'EXTEND ME.g BY n' adds nodes to a group)");
        return;
    }
    if (obj->kind != EXPR_ME) {
        diag_error(obj->loc, "only ME can be replicated in %s", sema_ctx_desc(c));
        return;
    }
    sema_analyze_expr(c, obj);
    s->sem_flags |= c->kind == CTX_NODEP ? SEMF_LEVEL_NODE : SEMF_LEVEL_CONN;
    if (!integral_count(c, count, false, "REPLICATE"))
        return;
    if (c->kind == CTX_NODEP && !c->dead && count->is_const && count->const_int < 0)
        diag_error(count->loc, "a node cannot be replicated INTO a negative count (%lld)",
                   (long long)count->const_int);
    if (c->kind == CTX_CONP && count->is_const && count->const_int != 0 &&
        count->const_int != 1)
        diag_error(count->loc, "a connection can only be replicated INTO 0 (delete it) "
                   "or 1, not %lld", (long long)count->const_int);
}

/* DataAllocationStmt -> EXTEND Object BY Expression (§8.8) */
void sema_extend(Ctx *c, Stmt *s)
{
    Expr *obj = s->u.replicate.obj;
    if (c->kind != CTX_NETP) {
        diag_error(s->loc, "EXTEND is only allowed in network procedures, not in %s",
                   sema_ctx_desc(c));
        return;
    }
    Type *t = sema_analyze_expr(c, obj);
    if (!type_is_error(t)) {
        bool own = obj->kind == EXPR_SELECT && obj->u.select.obj->kind == EXPR_ME &&
                   obj->cat == VC_OBJECT;
        if (!own || t->kind != TY_GROUP)
            diag_error(obj->loc, "EXTEND needs a node group element of ME%s",
                       type_is_node_array(t) ? " (node arrays have a fixed size)" : "");
    }
    integral_count(c, s->u.replicate.count, false, "EXTEND");
}

/* How a hint writes the subscript ix: its number, its name, else dflt. */
static const char *index_text(const Expr *ix, char *buf, size_t n, const char *dflt)
{
    if (ix->kind == EXPR_INT) {
        snprintf(buf, n, "%llu", (unsigned long long)ix->u.int_lit.value);
        return buf;
    }
    return ix->kind == EXPR_NAME ? ix->u.name.name : dflt;
}

/* ME.g[...].i with i an interface of the given mode; returns its type. */
static Type *connect_operand(Ctx *c, Expr *e, IfaceMode mode, const char *stmt,
                             const char *which)
{
    if (e->kind != EXPR_SELECT) {
        sema_analyze_expr(c, e);
        diag_error(e->loc, "the operands of %s must be interfaces of ME's node groups, "
                   "e.g. ME.g[].out", stmt);
        return NULL;
    }
    Expr *pv = e->u.select.obj;
    Ident id = e->u.select.elem;
    Type *et = sema_multitude(c, pv);
    if (et && type_is_error(et))
        return NULL;
    if (!et && pv->kind == EXPR_SUBSCRIPT && sema_object_root(pv)->kind == EXPR_ME) {
        /* suggest the slice of the very node the user wrote where we can */
        const Expr *grp = pv->u.subscript.obj, *ix = pv->u.subscript.index;
        char num[24], row[24];
        const char *at = index_text(ix, num, sizeof num, "i");
        bool grid = ix->kind == EXPR_BINARY && ix->u.binary.op == OP_GRID_INDEX;
        if (grid && grp->kind == EXPR_SELECT && grp->u.select.obj->kind == EXPR_ME) {
            /* a node of a grid, ME.g[r][c] (sema made it ME.g[node (r, c)]):
               ME.g[r...r] would be the whole row r */
            const char *r = index_text(ix->u.binary.lhs, row, sizeof row, "i");
            at = index_text(ix->u.binary.rhs, num, sizeof num, "j");
            diag_error(e->loc, "the operands of %s must be interfaces of ME's node groups; "
                       "for one node of a grid write a slice of its row, e.g. "
                       "ME.%s[%s][%s...%s].%s", stmt, grp->u.select.elem.name, r, at, at,
                       id.name);
        } else if (grp->kind == EXPR_SELECT && grp->u.select.obj->kind == EXPR_ME)
            diag_error(e->loc, "the operands of %s must be interfaces of ME's node groups; "
                       "for one node%s%s write a slice, e.g. ME.%s[%s...%s].%s", stmt,
                       ix->kind == EXPR_INT ? "" : " ", ix->kind == EXPR_INT ? "" : at,
                       grp->u.select.elem.name, at, at, id.name);
        else
            diag_error(e->loc, "the operands of %s must be interfaces of ME's node groups; "
                       "for one node write a slice, e.g. ME.g[2...2].out", stmt);
        return NULL;
    }
    if (!et || et->kind != TY_NODE || sema_object_root(pv)->kind != EXPR_ME) {
        diag_error(e->loc, "the operands of %s must be interfaces of ME's node groups, "
                   "e.g. ME.g[].out", stmt);
        return NULL;
    }
    Symbol *i = sema_scope_find(et->members, id.name);
    if (!i || i->redefined) {
        if (!i && sema_report_once(c, et, id.name))
            diag_error(id.loc, "type '%s' has no element '%s'", et->name, id.name);
        return NULL;
    }
    if (i->kind != SYM_IFACE) {
        diag_error(id.loc, "'%s' is not an interface of '%s'", id.name, et->name);
        return NULL;
    }
    if (i->mode != mode) {
        diag_error(id.loc, "the %s operand of %s must be an %s interface; '%s' is an %s "
                   "interface", which, stmt, mode == IFACE_OUT ? "OUT" : "IN", id.name,
                   mode == IFACE_OUT ? "IN" : "OUT");
        return NULL;
    }
    e->sym = i;
    e->type = i->type;
    e->cat = VC_PVS;
    return i->type;
}

/* DataAllocationStmt -> CONNECT Object TO Object | DISCONNECT Object FROM
 * Object (§8.9) */
void sema_connect(Ctx *c, Stmt *s)
{
    const char *stmt = s->kind == STMT_CONNECT ? "CONNECT" : "DISCONNECT";
    if (c->kind != CTX_NETP) {
        diag_error(s->loc, "%s is only allowed in network procedures, not in %s", stmt,
                   sema_ctx_desc(c));
        return;
    }
    Type *a = connect_operand(c, s->u.connect.from, IFACE_OUT, stmt, "first");
    Type *b = connect_operand(c, s->u.connect.to, IFACE_IN, stmt, "second");
    if (a && b && a != b)
        diag_error(s->u.connect.to->loc, "%s of interfaces of different connection types "
                   "(%s and %s)", stmt, a->name, b->name);
}

/* MergeStmt -> MERGE Object (§8.10) */
void sema_merge_stmt(Ctx *c, Stmt *s)
{
    Expr *obj = s->u.merge.obj;
    if (!ctx_is_global_subr(c)) {
        diag_error(s->loc, "the MERGE statement is only allowed in the central agent, "
                   "not in %s", sema_ctx_desc(c));
        return;
    }
    Type *t = sema_analyze_expr(c, obj);
    if (type_is_error(t) || is_network_name(obj))
        return;
    if (obj->kind == EXPR_SUBSCRIPT && is_network_name(obj->u.subscript.obj))
        diag_error(obj->loc, "MERGE needs the network variable itself, not one of its "
                   "replicates (write 'MERGE %s')", obj->u.subscript.obj->u.name.name);
    else
        diag_error(obj->loc, "MERGE needs a network variable, not an object of type %s",
                   t->name);
}
