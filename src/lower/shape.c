/* shape.c -- the static shape of each network type.
 *
 * A network's node groups are its GROUP and node-ARRAY elements.  Its
 * connection bundles (one per (group, OUT interface) -> (group, IN
 * interface) pair) are known at compile time: every CONNECT, DISCONNECT and
 * connection address names its groups and interfaces.  Knowing them lets
 * node procedures iterate an interface's connections through a constant
 * list of bundles, and lets the lane plan reason per bundle. */
#include <string.h>

#include "lower_internal.h"

LowerNet *lower_net_of(const LowerPlan *p, const Type *net_type)
{
    for (int i = 0; i < p->nets.len; i++) {
        LowerNet *n = VEC_AT(p->nets, i, LowerNet);
        if (n->type == net_type)
            return n;
    }
    return NULL;
}

int lower_net_count(const LowerPlan *p)
{
    return p->nets.len;
}

LowerNet *lower_net_at(const LowerPlan *p, int i)
{
    return VEC_AT(p->nets, i, LowerNet);
}

int lower_group_index(const LowerNet *net, const Symbol *elem)
{
    for (int i = 0; i < net->groups.len; i++)
        if (VEC_AT(net->groups, i, Symbol) == elem)
            return i;
    return -1;
}

int lower_bundle_index(const LowerNet *net, int src_group, const Symbol *src_iface,
                       int dst_group, const Symbol *dst_iface)
{
    for (int i = 0; i < net->nbundles; i++) {
        const LowerBundle *b = &net->bundles[i];
        if (b->src_group == src_group && b->src_iface == src_iface &&
            b->dst_group == dst_group && b->dst_iface == dst_iface)
            return i;
    }
    return -1;
}

static void add_bundle(Arena *a, LowerNet *net, int sg, Symbol *si, int dg, Symbol *di)
{
    if (sg < 0 || dg < 0 || lower_bundle_index(net, sg, si, dg, di) >= 0)
        return;
    if (net->nbundles == net->bundles_cap) {
        int cap = net->bundles_cap ? 2 * net->bundles_cap : 8;
        LowerBundle *b = arena_alloc(a, (size_t)cap * sizeof *b);
        if (net->nbundles)
            memcpy(b, net->bundles, (size_t)net->nbundles * sizeof *b);
        net->bundles = b;
        net->bundles_cap = cap;
    }
    net->bundles[net->nbundles++] = (LowerBundle){sg, si, dg, di, si->type};
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

static void note_link(Arena *a, LowerNet *net, Expr *from, Expr *to)
{
    if (!net)
        return;
    Symbol *sg = group_of_iface_sel(from), *dg = group_of_iface_sel(to);
    if (!sg || !dg || !from->sym || !to->sym)
        return;
    add_bundle(a, net, lower_group_index(net, sg), from->sym, lower_group_index(net, dg),
               to->sym);
}

static void scan_block(LowerPlan *p, Block *b, LowerNet *owner);

static void scan_stmt(LowerPlan *p, Stmt *s, LowerNet *owner)
{
    switch (s->kind) {
    case STMT_CONNECT:
    case STMT_DISCONNECT:
        note_link(p->arena, owner, s->u.connect.from, s->u.connect.to);
        break;
    case STMT_ASSIGN:
        if (s->u.assign.target->kind == EXPR_CONNADDR) {
            Expr *ca = s->u.assign.target;
            Symbol *nv = root_name(ca->u.connaddr.from);
            if (nv && nv->type)
                note_link(p->arena, lower_net_of(p, nv->type), ca->u.connaddr.from,
                          ca->u.connaddr.to);
        }
        break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++)
            scan_block(p, VEC_AT(s->u.if_.arms, i, IfArm)->body, owner);
        if (s->u.if_.else_body)
            scan_block(p, s->u.if_.else_body, owner);
        break;
    case STMT_LOOP:
        scan_block(p, s->u.loop.body, owner);
        break;
    case STMT_FOR:
        scan_block(p, s->u.for_.body, owner);
        break;
    default:
        break;
    }
}

static void scan_block(LowerPlan *p, Block *b, LowerNet *owner)
{
    if (!b)
        return;
    for (int i = 0; i < b->stmts.len; i++)
        scan_stmt(p, VEC_AT(b->stmts, i, Stmt), owner);
}

void lower_collect_shapes(LowerPlan *p)
{
    SemaInfo *si = p->si;
    for (int i = 0; i < si->types.len; i++) {
        Type *t = VEC_AT(si->types, i, Type);
        if (t->kind != TY_NETWORK)
            continue;
        LowerNet *n = arena_alloc(p->arena, sizeof *n);
        n->type = t;
        for (int g = 0; g < t->groups.len; g++)
            vec_push(p->arena, &n->groups, t->groups.items[g]);
        vec_push(p->arena, &p->nets, n);
    }
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (!s->decl || s->sub->external)
            continue;
        LowerNet *owner = s->owner && s->owner->kind == TY_NETWORK ? lower_net_of(p, s->owner)
                                                                   : NULL;
        scan_block(p, s->decl->u.subr.body, owner);
    }
}
