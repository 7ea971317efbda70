/* cg_net.c -- the static shape of each network type.
 *
 * A network's node groups are its GROUP and node-ARRAY elements.  Its
 * connection bundles (one per (group, OUT interface) -> (group, IN
 * interface) pair) are known at compile time: every CONNECT, DISCONNECT and
 * connection address names its groups and interfaces.  Knowing them lets
 * node procedures iterate an interface's connections through a constant
 * list of bundles.  The shape is emitted as an rt_net_desc table. */
#include <string.h>

#include "cg_internal.h"

CgNet *cg_net_of(Cg *cg, const Type *net_type)
{
    for (int i = 0; i < cg->nets.len; i++) {
        CgNet *n = VEC_AT(cg->nets, i, CgNet);
        if (n->type == net_type)
            return n;
    }
    return NULL;
}

int cg_group_index(CgNet *net, const Symbol *elem)
{
    for (int i = 0; i < net->groups.len; i++)
        if (VEC_AT(net->groups, i, Symbol) == elem)
            return i;
    return -1;
}

int cg_bundle_index(CgNet *net, int src_group, const Symbol *src_iface, int dst_group,
                    const Symbol *dst_iface)
{
    for (int i = 0; i < net->nbundles; i++) {
        CgBundle *b = &net->bundles[i];
        if (b->src_group == src_group && b->src_iface == src_iface &&
            b->dst_group == dst_group && b->dst_iface == dst_iface)
            return i;
    }
    return -1;
}

static void add_bundle(Cg *cg, CgNet *net, int sg, Symbol *si, int dg, Symbol *di)
{
    if (sg < 0 || dg < 0 || cg_bundle_index(net, sg, si, dg, di) >= 0)
        return;
    if (net->nbundles == net->bundles_cap) {
        int cap = net->bundles_cap ? 2 * net->bundles_cap : 8;
        CgBundle *b = arena_alloc(cg->arena, (size_t)cap * sizeof *b);
        if (net->nbundles)
            memcpy(b, net->bundles, (size_t)net->nbundles * sizeof *b);
        net->bundles = b;
        net->bundles_cap = cap;
    }
    net->bundles[net->nbundles++] = (CgBundle){sg, si, dg, di, si->type};
}

/* For `X.g[...].iface` (or X.g.iface, X.g[i].iface): the group element g. */
static Symbol *group_of_iface_sel(Expr *e)
{
    if (!e || e->kind != EXPR_SELECT)
        return NULL;
    Expr *o = e->u.select.obj;
    if (o->kind == EXPR_ALLSLICE)
        o = o->u.allslice.obj;
    else if (o->kind == EXPR_SUBSCRIPT)
        o = o->u.subscript.obj;
    if (o->kind != EXPR_SELECT)
        return NULL;
    return o->sym;
}

/* The network variable a CA-side object like nw.g[0].o starts from. */
static Symbol *root_name(Expr *e)
{
    for (;;) {
        switch (e->kind) {
        case EXPR_NAME: return e->sym;
        case EXPR_SELECT: e = e->u.select.obj; break;
        case EXPR_SUBSCRIPT: e = e->u.subscript.obj; break;
        case EXPR_ALLSLICE: e = e->u.allslice.obj; break;
        default: return NULL;
        }
    }
}

static void note_link(Cg *cg, CgNet *net, Expr *from, Expr *to)
{
    if (!net)
        return;
    Symbol *sg = group_of_iface_sel(from), *dg = group_of_iface_sel(to);
    if (!sg || !dg || !from->sym || !to->sym)
        return;
    add_bundle(cg, net, cg_group_index(net, sg), from->sym, cg_group_index(net, dg),
               to->sym);
}

static void scan_block(Cg *cg, Block *b, CgNet *owner);

static void scan_stmt(Cg *cg, Stmt *s, CgNet *owner)
{
    switch (s->kind) {
    case STMT_CONNECT:
    case STMT_DISCONNECT:
        note_link(cg, owner, s->u.connect.from, s->u.connect.to);
        break;
    case STMT_ASSIGN:
        if (s->u.assign.target->kind == EXPR_CONNADDR) {
            Expr *ca = s->u.assign.target;
            Symbol *nv = root_name(ca->u.connaddr.from);
            if (nv && nv->type)
                note_link(cg, cg_net_of(cg, nv->type), ca->u.connaddr.from,
                          ca->u.connaddr.to);
        }
        break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++)
            scan_block(cg, VEC_AT(s->u.if_.arms, i, IfArm)->body, owner);
        if (s->u.if_.else_body)
            scan_block(cg, s->u.if_.else_body, owner);
        break;
    case STMT_LOOP:
        scan_block(cg, s->u.loop.body, owner);
        break;
    case STMT_FOR:
        scan_block(cg, s->u.for_.body, owner);
        break;
    default:
        break;
    }
}

static void scan_block(Cg *cg, Block *b, CgNet *owner)
{
    if (!b)
        return;
    for (int i = 0; i < b->stmts.len; i++)
        scan_stmt(cg, VEC_AT(b->stmts, i, Stmt), owner);
}

void cg_collect_nets(Cg *cg)
{
    for (int i = 0; i < cg->si->types.len; i++) {
        Type *t = VEC_AT(cg->si->types, i, Type);
        if (t->kind != TY_NETWORK)
            continue;
        CgNet *n = arena_alloc(cg->arena, sizeof *n);
        n->type = t;
        for (int g = 0; g < t->groups.len; g++)
            vec_push(cg->arena, &n->groups, t->groups.items[g]);
        vec_push(cg->arena, &cg->nets, n);
    }
    for (int i = 0; i < cg->si->subrs.len; i++) {
        Symbol *s = VEC_AT(cg->si->subrs, i, Symbol);
        if (!s->decl || s->external)
            continue;
        CgNet *owner = s->owner && s->owner->kind == TY_NETWORK ? cg_net_of(cg, s->owner) : NULL;
        scan_block(cg, s->decl->u.subr.body, owner);
    }
}

const char *cg_desc_name(Cg *cg, const CgNet *net)
{
    return arena_printf(cg->arena, "cpD_%s", net->type->name);
}

static const char *fn_or_null(Cg *cg, const Type *t)
{
    return cg_type_has_init(cg, t) ? cg_init_fn_name(cg, t) : "NULL";
}

static const char *merge_or_null(Cg *cg, const Type *t)
{
    return t->merge ? cg_subr_name(cg, t->merge) : "NULL";
}

void cg_emit_net_descs(Cg *cg)
{
    Emitter *o = cg->out;
    emit_directive(o, "/* ===== network shapes ===== */");
    for (int i = 0; i < cg->nets.len; i++) {
        CgNet *n = VEC_AT(cg->nets, i, CgNet);
        const char *d = cg_desc_name(cg, n);
        if (n->groups.len) {
            emit_open(o, "static const rt_group_desc %s_groups[] =", d);
            for (int g = 0; g < n->groups.len; g++) {
                Symbol *gs = VEC_AT(n->groups, g, Symbol);
                Type *node = type_node_of(gs->type);
                bool arr = gs->type->kind == TY_ARRAY;
                emit(o, "{.name = \"%s\", .node_size = sizeof(%s), .init = %s, .merge = %s, "
                        ".is_array = %s, .array_size = %lld, .lane = %s},",
                     gs->name, cg_ctype(cg, node), fn_or_null(cg, node), merge_or_null(cg, node),
                     arr ? "true" : "false", arr ? (long long)gs->type->size : 0LL,
                     cg_lane_desc(cg, node));
            }
            emit_close(o, ";");
        }
        if (n->nbundles) {
            emit_open(o, "static const rt_bundle_desc %s_bundles[] =", d);
            for (int b = 0; b < n->nbundles; b++) {
                CgBundle *bu = &n->bundles[b];
                emit(o, "{.src_group = %d, .src_iface = %d, .dst_group = %d, .dst_iface = %d, "
                        ".conn_size = sizeof(%s), .init = %s, .merge = %s, .lane = %s}, "
                        "/* %s.%s -> %s.%s */",
                     bu->src_group, bu->src_iface->index, bu->dst_group,
                     bu->dst_iface->index, cg_ctype(cg, bu->conn), fn_or_null(cg, bu->conn),
                     merge_or_null(cg, bu->conn), cg_lane_desc(cg, bu->conn),
                     VEC_AT(n->groups, bu->src_group, Symbol)->name, bu->src_iface->name,
                     VEC_AT(n->groups, bu->dst_group, Symbol)->name, bu->dst_iface->name);
            }
            emit_close(o, ";");
        }
        emit_open(o, "static const rt_net_desc %s =", d);
        emit(o, ".name = \"%s\", .net_size = sizeof(%s), .init = %s, .merge = %s,",
             n->type->name, cg_ctype(cg, n->type), fn_or_null(cg, n->type),
             merge_or_null(cg, n->type));
        emit(o, ".ngroups = %d, .groups = %s,", n->groups.len,
             n->groups.len ? arena_printf(cg->arena, "%s_groups", d) : "NULL");
        emit(o, ".nbundles = %d, .bundles = %s,", n->nbundles,
             n->nbundles ? arena_printf(cg->arena, "%s_bundles", d) : "NULL");
        emit(o, ".lanes = %s, .lane = %s,", cg->opts.lanes ? "true" : "false",
             cg_lane_desc(cg, n->type));
        emit_close(o, ";");
        emit(o, "%s", "");
    }
}
