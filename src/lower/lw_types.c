/* lw_types.c -- layouts and what follows from them: element initializers,
 * the functions that move one lane of a lane record to and from a plain
 * record, the element leaves saveNetworks reads, the network shapes.
 *
 * Every RECORD, NODE, CONNECTION and NETWORK type has a plain layout (its
 * data elements; node groups live in the runtime's storage), an ARRAY type
 * one holding the C array.  With lane blocks, node, connection and network
 * types also get a lane layout (every element an array over the lanes) and
 * connection types a shared layout that starts empty: the passes move
 * elements there or drop them, and the lane functions and tables are built
 * after them from what the layouts finally hold. */
#include <string.h>

#include "lw_internal.h"

const IrType *lw_vt(Lw *lw, const Type *t)
{
    return ir_t_value(lw->m, t);
}

bool lw_has_lanes(const Type *t)
{
    return t->kind == TY_NODE || t->kind == TY_CONNECTION || t->kind == TY_NETWORK;
}

static bool is_struct_type(const Type *t)
{
    return t->kind == TY_RECORD || t->kind == TY_NODE || t->kind == TY_CONNECTION ||
           t->kind == TY_NETWORK;
}

IrLayout *lw_plain(Lw *lw, const Type *t)
{
    return ir_layout(lw->m, t, IRF_PLAIN);
}

IrLayout *lw_lanes_layout(Lw *lw, const Type *t)
{
    return ir_layout(lw->m, t, IRF_LANE);
}

IrLayout *lw_shared_layout(Lw *lw, const Type *t)
{
    return ir_layout(lw->m, t, IRF_SHARED);
}

IrField *lw_field(Lw *lw, const IrLayout *l, const Symbol *elem)
{
    IrField *f = ir_field_of(l, elem);
    if (!f)
        lw_unsupported(lw, elem->loc, "an element missing from its record layout");
    return f;
}

/* Whether t is a network type or the node or connection type of one of a
 * network's groups or bundles: only such records ever exist in lane blocks
 * (and only their subroutines can run). */
bool lw_in_network(Lw *lw, const Type *t)
{
    return ptrmap_get(&lw->in_network, t, NULL, 0) != NULL;
}

static void find_network_types(Lw *lw)
{
    for (int n = 0; n < lower_net_count(lw->plan); n++) {
        const LowerNet *net = lower_net_at(lw->plan, n);
        ptrmap_put(lw->arena, &lw->in_network, net->type, NULL, 0, (void *)1);
        for (int g = 0; g < net->groups.len; g++)
            ptrmap_put(lw->arena, &lw->in_network,
                       type_node_of(VEC_AT(net->groups, g, Symbol)->type), NULL, 0, (void *)1);
        for (int b = 0; b < net->nbundles; b++)
            ptrmap_put(lw->arena, &lw->in_network, net->bundles[b].conn, NULL, 0, (void *)1);
    }
}

void lw_make_layouts(Lw *lw)
{
    IrModule *m = lw->m;
    find_network_types(lw);
    for (int i = 0; i < lw->si->types.len; i++) {
        Type *t = VEC_AT(lw->si->types, i, Type);
        if (t->kind == TY_ARRAY && !type_is_node_collection(t)) {
            if (type_is_node_collection(t->elem))
                continue; /* a node grid: sema rewrote its accesses (sema.h) */
            IrLayout *l = lw_plain(lw, t);
            IrField *a = ir_layout_add(m, l, "a", NULL, t->elem, false);
            a->type = ir_t_array(m, lw_vt(lw, t->elem), (int)t->size);
            continue;
        }
        if (!is_struct_type(t))
            continue;
        IrLayout *pl = lw_plain(lw, t);
        IrLayout *ll = lw->opts.lanes && lw_has_lanes(t) && lw_in_network(lw, t)
                           ? lw_lanes_layout(lw, t) : NULL;
        if (ll && t->kind == TY_CONNECTION)
            lw_shared_layout(lw, t);
        for (int j = 0; j < t->elems.len; j++) {
            Symbol *e = VEC_AT(t->elems, j, Symbol);
            if (type_is_node_collection(e->type))
                continue;
            const char *name = lw_cident(lw, e->name);
            ir_layout_add(m, pl, name, e, e->type, false);
            if (ll)
                ir_layout_add(m, ll, name, e, e->type, true);
        }
    }
}

/* ---- element initializers --------------------------------------------------------- */

bool lw_type_has_init(Lw *lw, const Type *t)
{
    switch (t->kind) {
    case TY_ARRAY:
        return lw_type_has_init(lw, t->elem);
    case TY_RECORD: case TY_NODE: case TY_CONNECTION: case TY_NETWORK:
        for (int i = 0; i < t->elems.len; i++) {
            Symbol *e = VEC_AT(t->elems, i, Symbol);
            if (type_is_node_collection(e->type))
                continue;
            if ((e->init && e->init->init) || lw_type_has_init(lw, e->type))
                return true;
        }
        return false;
    default:
        return false;
    }
}

/* Statements that initialize object lv of type t with the type's element
 * initializers. */
void lw_default_init(Lw *lw, const Type *t, IrExpr *lv, Loc loc)
{
    IrModule *m = lw->m;
    if (!lw_type_has_init(lw, t))
        return;
    if (t->kind == TY_ARRAY) {
        IrStmt *s = lw_add(lw, IRS_FOR, loc);
        s->for_kind = IRFOR_RANGE;
        s->var = ir_fresh(m, lw->fn ? lw->fn->f : NULL, "i", ir_t(m, IRT_I32));
        s->lo = ir_i32(m, 0);
        s->hi = ir_i32(m, t->size - 1);
        s->then = ir_block(m, loc);
        IrStmt *saved = lw_push(lw, s->then);
        IrExpr *arr = ir_member(m, lv, "a", ir_t_array(m, lw_vt(lw, t->elem), (int)t->size));
        lw_default_init(lw, t->elem, ir_index(m, arr, ir_ref(m, s->var)), loc);
        lw_close(lw, saved);
        return;
    }
    IrFunc *init = lw_type_fn(lw, t, IRFN_INIT);
    lw_eval(lw, ir_call(m, init, IR_ARGS(ir_null(m), ir_addr(m, lv))), loc);
}

static IrFunc *type_fn(Lw *lw, const Type *t, IrFuncRole role, const char *prefix,
                       const IrType *ret)
{
    IrFunc *f = ir_func(lw->m, arena_printf(lw->arena, "%s%s", prefix, t->name), role, ret);
    f->type = t;
    ptrmap_put(lw->arena, &lw->type_fns, t, NULL, (int)role, f);
    vec_push(lw->arena, &lw->m->funcs, f);
    return f;
}

void lw_declare_type_fns(Lw *lw)
{
    IrModule *m = lw->m;
    const IrType *vp = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false);
    const IrType *cvp = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true);
    const IrType *i32 = ir_t(m, IRT_I32), *i = ir_t(m, IRT_INT);
    for (int k = 0; k < lw->si->types.len; k++) {
        Type *t = VEC_AT(lw->si->types, k, Type);
        if (!is_struct_type(t))
            continue;
        if (lw_type_has_init(lw, t)) {
            IrFunc *f = type_fn(lw, t, IRFN_INIT, "cpI_", NULL);
            ir_param(m, f, "net", ir_t_ptr(m, ir_t(m, IRT_NET), false));
            ir_param(m, f, "rec", vp);
        }
        if (!lw_has_lanes(t) || !lw_in_network(lw, t))
            continue;
        if (!lw->opts.lanes)
            goto gather;
        IrFunc *g = type_fn(lw, t, IRFN_LANE_GET, "cpLaneGet_", NULL);
        ir_param(m, g, "rec", vp);
        ir_param(m, g, "lanes", cvp);
        ir_param(m, g, "shared", cvp);
        ir_param(m, g, "l", i);
        IrFunc *r = type_fn(lw, t, IRFN_LANE_REC, "cpLaneRec_", lw_vt(lw, t));
        r->is_inline = true;
        ir_param(m, r, "lanes", cvp);
        ir_param(m, r, "shared", cvp);
        ir_param(m, r, "l", i);
        IrFunc *p = type_fn(lw, t, IRFN_LANE_PUT, "cpLanePut_", NULL);
        ir_param(m, p, "lanes", vp);
        ir_param(m, p, "shared", vp);
        ir_param(m, p, "l", i);
        ir_param(m, p, "rec", cvp);
    gather:
        if (t->kind == TY_NODE) {
            IrFunc *ga = type_fn(lw, t, IRFN_GATHER, "cpGather_", cvp);
            ir_param(m, ga, "dst", ir_t_ptr(m, lw_vt(lw, t), false));
            ir_param(m, ga, "n", ir_t_ptr(m, ir_t(m, IRT_NET), true));
            ir_param(m, ga, "r", i32);
            ir_param(m, ga, "g", i);
            ir_param(m, ga, "first", i32);
            ir_param(m, ga, "count", i32);
        }
    }
}

/* The element initializers of one type (cpI_T). */
void lw_init_fn_body(Lw *lw, IrFunc *f)
{
    IrModule *m = lw->m;
    const Type *t = f->type;
    LwFn fn = {.f = f, .group = -1, .bundle = -1, .ctx = CTX_CA};
    lw->fn = &fn;
    f->body = ir_block(m, (Loc){0});
    lw->blk = f->body;
    IrLayout *l = lw_plain(lw, t);
    IrVar *p = lw_decl(lw, "p", ir_t_ptr(m, ir_t_record(m, l), false),
                       ir_ref(m, VEC_AT(f->params, 1, IrVar)), (Loc){0});
    p->name = "p";
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        if (type_is_node_collection(e->type))
            continue;
        IrExpr *lv = ir_field(m, ir_deref(m, ir_ref(m, p)), lw_field(lw, l, e));
        if (e->init && e->init->init)
            lw_assign(lw, lv, lw_expr_as(lw, e->init->init, e->type), e->init->init->loc);
        else
            lw_default_init(lw, e->type, lv, e->loc);
    }
    lw->fn = NULL;
}

/* ---- lane records -------------------------------------------------------------------------- */

static IrExpr *cast_ptr(Lw *lw, const IrLayout *l, IrVar *v, bool to_const)
{
    return ir_cast(lw->m, ir_t_ptr(lw->m, ir_t_record(lw->m, l), to_const), ir_ref(lw->m, v));
}

/* The lane record's get (plain record r := lane l of the lanes and their
 * shared record) or put (the reverse); an element the lanes do not keep is
 * zero in the plain record (never read outside a call) and left alone by
 * put. */
static void lane_move(Lw *lw, const Type *t, bool get)
{
    IrModule *m = lw->m;
    IrFunc *f = lw_type_fn(lw, t, get ? IRFN_LANE_GET : IRFN_LANE_PUT);
    IrLayout *pl = lw_plain(lw, t), *ll = ir_layout_find(m, t, IRF_LANE);
    IrLayout *sl = ir_layout_find(m, t, IRF_SHARED);
    f->body = ir_block(m, (Loc){0});
    LwFn fn = {.f = f};
    lw->fn = &fn;
    lw->blk = f->body;
    /* get (rec, lanes, shared, l); put (lanes, shared, l, rec) */
    IrVar *rec = VEC_AT(f->params, get ? 0 : 3, IrVar);
    IrVar *lanes = VEC_AT(f->params, get ? 1 : 0, IrVar);
    IrVar *shared = VEC_AT(f->params, get ? 2 : 1, IrVar);
    IrVar *l = VEC_AT(f->params, get ? 3 : 2, IrVar);
    IrVar *r = lw_decl(lw, "r", ir_t_ptr(m, ir_t_record(m, pl), !get), cast_ptr(lw, pl, rec, !get), (Loc){0});
    IrVar *v = ll ? lw_decl(lw, "v", ir_t_ptr(m, ir_t_record(m, ll), get), cast_ptr(lw, ll, lanes, get), (Loc){0})
                  : NULL;
    IrVar *sv = sl && ir_layout_live_fields(sl)
                    ? lw_decl(lw, "sv", ir_t_ptr(m, ir_t_record(m, sl), get), cast_ptr(lw, sl, shared, get), (Loc){0})
                    : NULL;
    for (int i = 0; i < pl->fields.len; i++) {
        IrField *pf = VEC_AT(pl->fields, i, IrField);
        IrExpr *plain = ir_field(m, ir_deref(m, ir_ref(m, r)), pf), *other = NULL;
        IrField *lf = ir_field_of(ll, pf->elem), *sf = ir_field_of(sl, pf->elem);
        if (lf && !lf->dropped)
            other = ir_index(m, ir_field(m, ir_deref(m, ir_ref(m, v)), lf), ir_ref(m, l));
        else if (sf && !sf->dropped && sv)
            other = ir_field(m, ir_deref(m, ir_ref(m, sv)), sf);
        if (other)
            lw_assign(lw, get ? plain : other, get ? other : plain, (Loc){0});
        else if (get)
            lw_eval(lw, ir_helper(m, IRH_MEMSET, ir_t(m, IRT_VOID),
                                  IR_ARGS(ir_addr(m, plain), ir_i32(m, 0), ir_sizeof(m, pf->type))),
                    (Loc){0});
    }
    lw->fn = NULL;
}

static void lane_rec(Lw *lw, const Type *t)
{
    IrModule *m = lw->m;
    IrFunc *f = lw_type_fn(lw, t, IRFN_LANE_REC);
    f->body = ir_block(m, (Loc){0});
    LwFn fn = {.f = f};
    lw->fn = &fn;
    lw->blk = f->body;
    IrVar *r = lw_decl_uninit(lw, "r", lw_vt(lw, t), (Loc){0});
    r->name = "r";
    lw_eval(lw, ir_call(m, lw_type_fn(lw, t, IRFN_LANE_GET),
                        IR_ARGS(ir_addr(m, ir_ref(m, r)), ir_ref(m, VEC_AT(f->params, 0, IrVar)),
                                ir_ref(m, VEC_AT(f->params, 1, IrVar)),
                                ir_ref(m, VEC_AT(f->params, 2, IrVar)))),
            (Loc){0});
    IrStmt *ret = lw_add(lw, IRS_RETURN, (Loc){0});
    ret->a = ir_ref(m, r);
    lw->fn = NULL;
}

/* Nodes first ... first+count-1 of group g of replicate r as plain records
 * in dst, from either storage (a node array, or a row of a node grid,
 * passed to EXTERNAL code). */
static void gather(Lw *lw, const Type *t)
{
    IrModule *m = lw->m;
    IrFunc *f = lw_type_fn(lw, t, IRFN_GATHER);
    f->body = ir_block(m, (Loc){0});
    LwFn fn = {.f = f};
    lw->fn = &fn;
    lw->blk = f->body;
    IrVar *dst = VEC_AT(f->params, 0, IrVar), *n = VEC_AT(f->params, 1, IrVar);
    IrVar *r = VEC_AT(f->params, 2, IrVar), *g = VEC_AT(f->params, 3, IrVar);
    IrVar *first = VEC_AT(f->params, 4, IrVar), *count = VEC_AT(f->params, 5, IrVar);
    IrStmt *loop = lw_add(lw, IRS_FOR, (Loc){0});
    loop->for_kind = IRFOR_RANGE;
    loop->var = ir_var(m, "i", ir_t(m, IRT_I32), IRV_LOCAL);
    loop->lo = ir_i32(m, 0);
    loop->hi = ir_binary(m, IROP_SUB, ir_t(m, IRT_I32), ir_ref(m, count), ir_i32(m, 1));
    loop->then = ir_block(m, (Loc){0});
    IrExpr *at = ir_binary(m, IROP_ADD, ir_t(m, IRT_I32), ir_ref(m, first), ir_ref(m, loop->var));
    IrExpr *lanes = NULL;
    const IrLayout *ll = ir_layout_find(m, t, IRF_LANE);
    IrExpr *nv = ir_cast(m, ir_t_ptr(m, ir_t(m, IRT_NET), false), ir_ref(m, n));
    if (ll) {
        IrExpr *blk = ir_binary(m, IROP_DIV, ir_t(m, IRT_I32), ir_ref(m, r), ir_named(m, "RT_LANES", ir_t(m, IRT_I32)));
        IrExpr *ln = ir_binary(m, IROP_MOD, ir_t(m, IRT_I32), ir_ref(m, r), ir_named(m, "RT_LANES", ir_t(m, IRT_I32)));
        IrExpr *nodes = ir_nodes(m, nv, blk, -1, ll);
        nodes->c = ir_ref(m, g);
        lanes = ir_call(m, lw_type_fn(lw, t, IRFN_LANE_REC),
                        IR_ARGS(ir_addr(m, ir_index(m, nodes, at)), ir_null(m), ln));
    }
    IrExpr *plain_nodes = ir_nodes(m, nv, ir_ref(m, r), -1, lw_plain(lw, t));
    plain_nodes->c = ir_ref(m, g);
    IrExpr *plain = ir_index(m, plain_nodes, at);
    IrStmt *as = ir_s(m, IRS_ASSIGN, (Loc){0});
    as->a = ir_index(m, ir_ref(m, dst), ir_ref(m, loop->var));
    as->b = lanes ? ir_cond(m, lw_vt(lw, t), lw_blocked(lw, nv), lanes, plain) : plain;
    ir_append(m, loop->then, as);
    IrStmt *ret = lw_add(lw, IRS_RETURN, (Loc){0});
    ret->a = ir_ref(m, dst);
    lw->fn = NULL;
}

/* The body of a function that follows from the final layouts (built when
 * it is printed). */
void lw_layout_fn_body(Lw *lw, IrFunc *f)
{
    switch (f->role) {
    case IRFN_LANE_GET: lane_move(lw, f->type, true); break;
    case IRFN_LANE_REC: lane_rec(lw, f->type); break;
    case IRFN_LANE_PUT: lane_move(lw, f->type, false); break;
    case IRFN_GATHER: gather(lw, f->type); break;
    default: break;
    }
}

/* ---- element leaves (saveNetworks) ---------------------------------------------------------- */

typedef struct Leaves {
    Lw *lw;
    IrStatic *table;
} Leaves;

static const char *kind_of(TypeKind k)
{
    switch (k) {
    case TY_INT1: return "RT_F_I8";
    case TY_INT2: return "RT_F_I16";
    case TY_INT: case TY_SYMBOLIC: return "RT_F_I32";
    case TY_REAL: return "RT_F_REAL";
    case TY_BOOL: return "RT_F_BOOL";
    default: return "RT_F_POINTER";
    }
}

static void leaf(Leaves *lv, IrExpr *off, const char *kind, IrExpr *count, IrExpr *stride)
{
    IrModule *m = lv->lw->m;
    const IrType *u32 = ir_t_named(m, "uint32_t");
    IrExpr *row = ir_struct(m, ir_t_named(m, "rt_field"));
    ir_struct_add(m, row, NULL, ir_cast(m, u32, off));
    ir_struct_add(m, row, NULL, ir_cast(m, u32, count));
    ir_struct_add(m, row, NULL, ir_cast(m, u32, stride));
    ir_struct_add(m, row, NULL, ir_named(m, kind, ir_t(m, IRT_INT)));
    vec_push(m->arena, &lv->table->rows, row);
}

static IrExpr *plus(Lw *lw, IrExpr *a, IrExpr *b)
{
    return ir_binary(lw->m, IROP_ADD, ir_t(lw->m, IRT_SIZE), a, b);
}

/* Leaves of an object of type t at byte offset off, repeated count times
 * stride bytes apart (count NULL: single). */
static void leaves(Leaves *lv, const Type *t, IrExpr *off, IrExpr *count, IrExpr *stride)
{
    Lw *lw = lv->lw;
    IrModule *m = lw->m;
    IrExpr *one = count ? count : ir_int(m, ir_t(m, IRT_SIZE), 1);
    IrExpr *st = stride ? stride : ir_int(m, ir_t(m, IRT_SIZE), 0);
    switch (t->kind) {
    case TY_INTERVAL1: case TY_INTERVAL2: case TY_INTERVAL: case TY_REALERVAL: {
        const char *k = kind_of(t->elem->kind);
        leaf(lv, plus(lw, off, ir_offsetof(m, lw_vt(lw, t), "min")), k, one, st);
        leaf(lv, plus(lw, off, ir_offsetof(m, lw_vt(lw, t), "max")), k, one, st);
        return;
    }
    case TY_RECORD: case TY_NODE: case TY_CONNECTION: case TY_NETWORK:
        for (int i = 0; i < t->elems.len; i++) {
            const Symbol *e = VEC_AT(t->elems, i, Symbol);
            if (type_is_node_collection(e->type))
                continue; /* groups and node arrays are saved as groups */
            leaves(lv, e->type, plus(lw, off, ir_offsetof(m, lw_vt(lw, t), lw_cident(lw, e->name))),
                   count, stride);
        }
        return;
    case TY_ARRAY: {
        /* Directly nested arrays are one row of elements in C (the array
         * struct is just its member a, at offset 0, with no padding): take
         * every level at once, count = the product of the sizes, stride =
         * the size of the innermost element that is not an array. */
        IrExpr *base = plus(lw, off, ir_offsetof(m, lw_vt(lw, t), "a"));
        int64_t n = t->size;
        const Type *e = t->elem;
        for (; e->kind == TY_ARRAY; e = e->elem)
            n *= e->size;
        IrExpr *es = ir_sizeof(m, lw_vt(lw, e));
        if (!count) {
            leaves(lv, e, base, ir_int(m, ir_t(m, IRT_SIZE), n), es);
        } else {
            /* already repeated: the leaves of one element, relative to it,
               repeated for each element (RT_F_REPEAT ... RT_F_END) */
            IrExpr *zero = ir_int(m, ir_t(m, IRT_SIZE), 0);
            int at = lv->table->rows.len;
            leaf(lv, base, "RT_F_REPEAT", ir_int(m, ir_t(m, IRT_SIZE), n), es);
            leaves(lv, e, zero, count, stride);
            if (lv->table->rows.len == at + 1)
                lv->table->rows.len = at; /* nothing to repeat */
            else
                leaf(lv, zero, "RT_F_END", zero, zero);
        }
        return;
    }
    default:
        leaf(lv, off, kind_of(t->kind), one, st);
        return;
    }
}

/* ---- network shapes ---------------------------------------------------------------------------- */

typedef struct TypeTables {
    const Type *t;
    IrVar *fields;
    IrStatic *table;
    int nfields;
} TypeTables;

/* The leaves of a type's elements. */
static void fill_field_table(Lw *lw, TypeTables *tt)
{
    IrModule *m = lw->m;
    Leaves lv = {.lw = lw, .table = tt->table};
    leaves(&lv, tt->t, ir_int(m, ir_t(m, IRT_SIZE), 0), NULL, NULL);
    tt->nfields = lv.table->rows.len;
    if (tt->nfields == 0) { /* C has no empty arrays */
        leaf(&lv, ir_int(m, ir_t(m, IRT_SIZE), 0), "RT_F_I8", ir_int(m, ir_t(m, IRT_SIZE), 0),
             ir_int(m, ir_t(m, IRT_SIZE), 0));
        lv.table->comment = "no elements";
    }
}

static IrExpr *fn_or_null(Lw *lw, IrFunc *f)
{
    return f ? ir_funcref(lw->m, f) : ir_null(lw->m);
}

static IrExpr *lane_desc(Lw *lw, const Type *t)
{
    IrModule *m = lw->m;
    IrExpr *d = ir_struct(m, ir_t_named(m, "rt_lane_desc"));
    const IrLayout *ll = ir_layout_find(m, t, IRF_LANE);
    const IrLayout *sl = ir_layout_find(m, t, IRF_SHARED);
    IrFunc *merge = lw->opts.lanes ? lw_type_fn(lw, t, IRFN_LANE_MERGE) : NULL;
    ir_struct_add(m, d, NULL, ll ? ir_sizeof(m, ir_t_record(m, ll)) : ir_int(m, ir_t(m, IRT_SIZE), 0));
    ir_struct_add(m, d, NULL, fn_or_null(lw, lw_type_fn(lw, t, IRFN_LANE_GET)));
    ir_struct_add(m, d, NULL, fn_or_null(lw, lw_type_fn(lw, t, IRFN_LANE_PUT)));
    ir_struct_add(m, d, NULL, fn_or_null(lw, merge));
    ir_struct_add(m, d, NULL, sl && ir_layout_live_fields(sl) ? ir_sizeof(m, ir_t_record(m, sl))
                                                              : ir_int(m, ir_t(m, IRT_SIZE), 0));
    ir_struct_add(m, d, NULL, fn_or_null(lw, merge ? lw_type_fn(lw, t, IRFN_LANE_FOLD) : NULL));
    return d;
}

static TypeTables *tables_of(PtrVec *v, const Type *t)
{
    for (int i = 0; i < v->len; i++)
        if (VEC_AT(*v, i, TypeTables)->t == t)
            return VEC_AT(*v, i, TypeTables);
    return NULL;
}

static IrFunc *merge_fn(Lw *lw, const Type *t)
{
    return t->merge ? lw_subr_fn(lw, t->merge) : NULL;
}

IrVar *lw_desc_var(Lw *lw, const LowerNet *net)
{
    IrVar *v = ptrmap_get(&lw->vars, net, NULL, 1);
    if (!v) {
        v = ir_var(lw->m, arena_printf(lw->arena, "cpD_%s", net->type->name),
                   ir_t_named(lw->m, "rt_net_desc"), IRV_GLOBAL);
        ptrmap_put(lw->arena, &lw->vars, net, NULL, 1, v);
    }
    return v;
}

/* The runtime's tables of every network type, in the order C needs them
 * (element leaves, then groups and bundles, then the shape): declared at
 * lowering time, so that code can name them; filled after the passes. */
typedef struct NetTables {
    const LowerNet *net;
    IrStatic *groups, *bundles, *desc;
} NetTables;

void lw_declare_tables(Lw *lw)
{
    IrModule *m = lw->m;
    for (int i = 0; i < lw->si->types.len; i++) {
        Type *t = VEC_AT(lw->si->types, i, Type);
        if (!lw_has_lanes(t) || !lw_in_network(lw, t))
            continue;
        TypeTables *tt = arena_alloc(lw->arena, sizeof *tt);
        tt->t = t;
        tt->fields = ir_var(m, arena_printf(lw->arena, "cpFld_%s", t->name),
                            ir_t_array(m, ir_t_named(m, "rt_field"), -2), IRV_GLOBAL);
        tt->table = ir_static(m, tt->fields, true);
        vec_push(lw->arena, &lw->type_tables, tt);
    }
    for (int i = 0; i < lower_net_count(lw->plan); i++) {
        const LowerNet *n = lower_net_at(lw->plan, i);
        IrVar *dv = lw_desc_var(lw, n);
        NetTables *nt = arena_alloc(lw->arena, sizeof *nt);
        nt->net = n;
        if (n->groups.len)
            nt->groups = ir_static(m, ir_var(m, arena_printf(lw->arena, "%s_groups", dv->name),
                                             ir_t_array(m, ir_t_named(m, "rt_group_desc"), -2), IRV_GLOBAL),
                                   true);
        if (n->nbundles)
            nt->bundles = ir_static(m, ir_var(m, arena_printf(lw->arena, "%s_bundles", dv->name),
                                              ir_t_array(m, ir_t_named(m, "rt_bundle_desc"), -2), IRV_GLOBAL),
                                    true);
        nt->desc = ir_static(m, dv, true);
        vec_push(lw->arena, &lw->net_tables, nt);
    }
}

void lw_build_tables(Lw *lw)
{
    IrModule *m = lw->m;
    for (int i = 0; i < lw->type_tables.len; i++) {
        TypeTables *tt = VEC_AT(lw->type_tables, i, TypeTables);
        fill_field_table(lw, tt);
    }
    for (int i = 0; i < lw->net_tables.len; i++) {
        NetTables *nt = VEC_AT(lw->net_tables, i, NetTables);
        const LowerNet *n = nt->net;
        for (int g = 0; nt->groups && g < n->groups.len; g++) {
            Symbol *gs = VEC_AT(n->groups, g, Symbol);
            Type *node = type_node_of(gs->type);
            bool arr = gs->type->kind == TY_ARRAY;
            TypeTables *tt = tables_of(&lw->type_tables, node);
            IrExpr *r = ir_struct(m, ir_t_named(m, "rt_group_desc"));
            ir_struct_add(m, r, "name", ir_string(m, gs->name, (int)strlen(gs->name)));
            ir_struct_add(m, r, "node_size", ir_sizeof(m, lw_vt(lw, node)));
            ir_struct_add(m, r, "init", fn_or_null(lw, lw_type_fn(lw, node, IRFN_INIT)));
            ir_struct_add(m, r, "merge", fn_or_null(lw, merge_fn(lw, node)));
            ir_struct_add(m, r, "is_array", ir_bool(m, arr));
            ir_struct_add(m, r, "array_size", ir_i32(m, arr ? type_node_count(gs->type) : 0));
            ir_struct_add(m, r, "lane", lane_desc(lw, node));
            ir_struct_add(m, r, "fields", ir_ref(m, tt->fields));
            ir_struct_add(m, r, "nfields", ir_i32(m, tt->nfields));
            vec_push(m->arena, &nt->groups->rows, r);
        }
        for (int b = 0; nt->bundles && b < n->nbundles; b++) {
            const LowerBundle *bu = &n->bundles[b];
            TypeTables *tt = tables_of(&lw->type_tables, bu->conn);
            IrExpr *r = ir_struct(m, ir_t_named(m, "rt_bundle_desc"));
            ir_struct_add(m, r, "src_group", ir_i32(m, bu->src_group));
            ir_struct_add(m, r, "src_iface", ir_i32(m, bu->src_iface->index));
            ir_struct_add(m, r, "dst_group", ir_i32(m, bu->dst_group));
            ir_struct_add(m, r, "dst_iface", ir_i32(m, bu->dst_iface->index));
            ir_struct_add(m, r, "conn_size", ir_sizeof(m, lw_vt(lw, bu->conn)));
            ir_struct_add(m, r, "init", fn_or_null(lw, lw_type_fn(lw, bu->conn, IRFN_INIT)));
            ir_struct_add(m, r, "merge", fn_or_null(lw, merge_fn(lw, bu->conn)));
            ir_struct_add(m, r, "lane", lane_desc(lw, bu->conn));
            ir_struct_add(m, r, "fields", ir_ref(m, tt->fields));
            ir_struct_add(m, r, "nfields", ir_i32(m, tt->nfields));
            vec_push(m->arena, &nt->bundles->rows, r);
        }
        TypeTables *tt = tables_of(&lw->type_tables, n->type);
        IrExpr *d = ir_struct(m, ir_t_named(m, "rt_net_desc"));
        ir_struct_add(m, d, "name", ir_string(m, n->type->name, (int)strlen(n->type->name)));
        ir_struct_add(m, d, "net_size", ir_sizeof(m, lw_vt(lw, n->type)));
        ir_struct_add(m, d, "init", fn_or_null(lw, lw_type_fn(lw, n->type, IRFN_INIT)));
        ir_struct_add(m, d, "merge", fn_or_null(lw, merge_fn(lw, n->type)));
        ir_struct_add(m, d, "ngroups", ir_i32(m, n->groups.len));
        ir_struct_add(m, d, "groups", nt->groups ? ir_ref(m, nt->groups->var) : ir_null(m));
        ir_struct_add(m, d, "nbundles", ir_i32(m, n->nbundles));
        ir_struct_add(m, d, "bundles", nt->bundles ? ir_ref(m, nt->bundles->var) : ir_null(m));
        ir_struct_add(m, d, "lanes", ir_bool(m, lw->opts.lanes));
        ir_struct_add(m, d, "lane", lane_desc(lw, n->type));
        ir_struct_add(m, d, "fields", ir_ref(m, tt->fields));
        ir_struct_add(m, d, "nfields", ir_i32(m, tt->nfields));
        nt->desc->init = d;
    }
}
