/* ir.c -- constructors of the loop IR (ir.h).
 *
 * Every node comes from the module's arena.  Types are interned per
 * module, so that two IrType pointers of the same shape are usually equal;
 * ir_type_same compares shapes for the rest. */
#include <stdint.h>
#include <string.h>

#include "cupitc/ir.h"

/* ORDER HELPER: one row per IrHelper, its C name and whether it is pure
 * (no effect but its value: lane code may evaluate it in idle lanes). */
static const struct {
    const char *name;
    bool pure;
} ir_helpers[] = {
    {"<none>", false},
    {"cp_chk_i32", false}, {"cp_chk_i16", false}, {"cp_chk_i8", false},
    {"cp_idx", false},
    {"cp_grid_index", false}, {"cp_grid_row", false}, {"cp_grid_slice", false},
    {"cp_grid_rows", true},
    {"cp_div", false}, {"cp_mod", false}, {"cp_shl", false}, {"cp_shr", false},
    {"cp_real_to_int", false},
    {"cp_fmod_real", true},
    {"cp_in_iv", true}, {"cp_in_iv1", true}, {"cp_in_iv2", true}, {"cp_in_rv", true},
    {"cp_random_iv", false}, {"cp_random_iv1", false}, {"cp_random_iv2", false},
    {"cp_random_rv", false},
    {"rt_ipow", false}, {"rt_rpow_int", true}, {"rt_rpow", false},
    {"cp_any", true}, {"cp_first_lane", true},
    {"cp_live_count", true}, {"cp_net_work", true}, {"cp_par", true}, {"cp_par_lanes", true},
    {"rt_sigmoid", true}, {"rt_sigmoid_prime", true}, {"rt_abs_real", true},
    {"rt_sign_real", true}, {"rt_min_real", true}, {"rt_max_real", true},
    {"rt_error", false},
    {"rt_extend", false}, {"rt_connect", false}, {"rt_disconnect", false},
    {"rt_conn_address", false},
    {"rt_commit_topology", false}, {"rt_request_node_replicate", false},
    {"rt_request_conn_replicate", false},
    {"rt_replicate", false}, {"rt_merge", false}, {"rt_merge_first", false},
    {"rt_merge_spread", false},
    {"rt_io_input", false}, {"rt_io_output", false}, {"rt_io_check", false},
    {"rt_io_block", false},
    {"rt_net_create", false}, {"rt_net_destroy", false},
    {"__builtin_memcpy", false}, {"__builtin_memset", false},
    {"__builtin_strcmp", true},
    {"rt_dense_sum", false},
    {"rt_lib_at", false}, {"rt_lib_done", false},
    {"rt_stack_check", false},
};
_Static_assert(sizeof ir_helpers / sizeof ir_helpers[0] == IRH__COUNT,
               "ir_helpers[] must have one row per IrHelper");

const char *ir_helper_name(IrHelper h)
{
    return ir_helpers[h].name;
}

bool ir_helper_pure(IrHelper h)
{
    return ir_helpers[h].pure;
}

/* ---- the module's map from CuPit types to their IR types and layouts ------------ */

struct IrTypeSlot {
    const Type *t;              /* NULL: free */
    const IrType *value;
    IrLayout *layouts[3];       /* by IrForm */
};

static uint64_t hash_ptr(const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static struct IrTypeSlot *type_slot(IrModule *m, const Type *t, bool create)
{
    if (m->type_slots_cap) {
        for (uint64_t i = hash_ptr(t) & (uint64_t)(m->type_slots_cap - 1);;
             i = (i + 1) & (uint64_t)(m->type_slots_cap - 1)) {
            struct IrTypeSlot *s = &m->type_slots[i];
            if (s->t == t)
                return s;
            if (!s->t)
                break;
        }
    }
    if (!create)
        return NULL;
    if (2 * (m->type_slots_used + 1) > m->type_slots_cap) {
        int n = m->type_slots_cap ? 2 * m->type_slots_cap : 256;
        struct IrTypeSlot *slots = arena_alloc(m->perm, (size_t)n * sizeof *slots);
        for (int i = 0; i < m->type_slots_cap; i++) {
            struct IrTypeSlot *o = &m->type_slots[i];
            if (!o->t)
                continue;
            uint64_t j = hash_ptr(o->t) & (uint64_t)(n - 1);
            while (slots[j].t)
                j = (j + 1) & (uint64_t)(n - 1);
            slots[j] = *o;
        }
        m->type_slots = slots;
        m->type_slots_cap = n;
    }
    uint64_t i = hash_ptr(t) & (uint64_t)(m->type_slots_cap - 1);
    while (m->type_slots[i].t)
        i = (i + 1) & (uint64_t)(m->type_slots_cap - 1);
    m->type_slots[i].t = t;
    m->type_slots_used++;
    return &m->type_slots[i];
}

IrModule *ir_module_new(Arena *arena, SemaInfo *si, const IrOptions *opts)
{
    IrModule *m = arena_alloc(arena, sizeof *m);
    m->arena = arena;
    m->perm = arena;
    for (int k = 0; k < IRT__COUNT; k++)
        m->simple[k].kind = (IrTypeKind)k;
    m->si = si;
    m->opts = *opts;
    return m;
}

/* ---- types ---------------------------------------------------------------- */

static IrType *new_type(IrModule *m, IrTypeKind k)
{
    IrType *t = arena_alloc(m->perm, sizeof *t);
    t->kind = k;
    return t;
}

const IrType *ir_t(IrModule *m, IrTypeKind k)
{
    return &m->simple[k];
}

bool ir_type_same(const IrType *a, const IrType *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || a->is_const != b->is_const)
        return false;
    switch (a->kind) {
    case IRT_VALUE: return a->cupit == b->cupit;
    case IRT_RECORD: return a->layout == b->layout;
    case IRT_PTR: case IRT_VEC: return ir_type_same(a->elem, b->elem);
    case IRT_ARRAY: return a->n == b->n && ir_type_same(a->elem, b->elem);
    case IRT_NAMED: return strcmp(a->name, b->name) == 0;
    default: return true;
    }
}

const IrType *ir_t_value(IrModule *m, const Type *t)
{
    struct IrTypeSlot *s = type_slot(m, t, true);
    if (!s->value) {
        IrType *r = new_type(m, IRT_VALUE);
        r->cupit = t;
        s->value = r;
    }
    return s->value;
}

const IrType *ir_t_record(IrModule *m, const IrLayout *l)
{
    IrType *r = new_type(m, IRT_RECORD);
    r->layout = l;
    return r;
}

const IrType *ir_t_ptr(IrModule *m, const IrType *elem, bool to_const)
{
    const IrType *const *memo = to_const ? &elem->const_ptr_to : &elem->ptr_to;
    if (*memo)
        return *memo;
    IrType *r = new_type(m, IRT_PTR);
    r->elem = elem;
    r->is_const = to_const;
    *(const IrType **)memo = r;
    return r;
}

const IrType *ir_t_array(IrModule *m, const IrType *elem, int n)
{
    for (const IrType *a = elem->arrays_of; a; a = a->next_array)
        if (a->n == n)
            return a;
    IrType *r = new_type(m, IRT_ARRAY);
    r->elem = elem;
    r->n = n;
    r->next_array = elem->arrays_of;
    ((IrType *)elem)->arrays_of = r;
    return r;
}

const IrType *ir_t_lanes(IrModule *m, const IrType *elem)
{
    return ir_t_array(m, elem, -1);
}

const IrType *ir_t_vec(IrModule *m, const IrType *elem)
{
    IrType *r = new_type(m, IRT_VEC);
    r->elem = elem;
    return r;
}

/* ---- layouts ----------------------------------------------------------------- */

IrLayout *ir_layout_find(const IrModule *m, const Type *t, IrForm form)
{
    struct IrTypeSlot *s = type_slot((IrModule *)m, t, false);
    return s ? s->layouts[form] : NULL;
}

IrLayout *ir_layout(IrModule *m, const Type *t, IrForm form)
{
    struct IrTypeSlot *s = type_slot(m, t, true);
    if (s->layouts[form])
        return s->layouts[form];
    IrLayout *l = arena_alloc(m->perm, sizeof *l);
    s->layouts[form] = l;
    l->type = t;
    l->form = form;
    static const char *const prefix[] = {"cpT_", "cpV_", "cpS_"};
    l->cname = arena_printf(m->perm, "%s%s", prefix[form], t->name);
    vec_push(m->perm, &m->layouts, l);
    return l;
}

IrField *ir_field_of(const IrLayout *l, const Symbol *e)
{
    if (!l)
        return NULL;
    for (int i = 0; i < l->fields.len; i++) {
        IrField *f = VEC_AT(l->fields, i, IrField);
        if (f->elem == e)
            return f;
    }
    return NULL;
}

IrField *ir_layout_add(IrModule *m, IrLayout *l, const char *name, const Symbol *elem,
                       const Type *vtype, bool lanes)
{
    IrField *f = arena_alloc(m->perm, sizeof *f);
    f->layout = l;
    f->name = name;
    f->elem = elem;
    f->vtype = vtype;
    f->lanes = lanes;
    f->slot = -1;
    const IrType *vt = ir_t_value(m, vtype);
    f->type = lanes ? ir_t_lanes(m, vt) : vt;
    vec_push(m->perm, &l->fields, f);
    return f;
}

int ir_layout_live_fields(const IrLayout *l)
{
    int n = 0;
    for (int i = 0; i < l->fields.len; i++)
        n += !VEC_AT(l->fields, i, IrField)->dropped;
    return n;
}

/* ---- variables and functions ---------------------------------------------------- */

IrVar *ir_var(IrModule *m, const char *name, const IrType *t, IrVarKind k)
{
    IrVar *v = arena_alloc(m->arena, sizeof *v);
    v->name = name;
    v->type = t;
    v->kind = k;
    v->id = ++m->nvars;
    return v;
}

IrVar *ir_fresh(IrModule *m, IrFunc *f, const char *stem, const IrType *t)
{
    int n = f ? ++f->nvars : ++m->next_tmp;
    return ir_var(m, arena_printf(m->arena, "%s%d_", stem, n), t, IRV_LOCAL);
}

IrFunc *ir_func(IrModule *m, const char *name, IrFuncRole role, const IrType *ret)
{
    IrFunc *f = arena_alloc(m->perm, sizeof *f);
    f->name = name;
    f->role = role;
    f->ret = ret ? ret : ir_t(m, IRT_VOID);
    f->is_static = true;
    f->group = -1;
    return f;
}

IrVar *ir_param(IrModule *m, IrFunc *f, const char *name, const IrType *t)
{
    IrVar *v = ir_var(m, name, t, IRV_PARAM);
    vec_push(m->arena, &f->params, v);
    return v;
}

IrVar *ir_param_named(const IrFunc *f, const char *name)
{
    for (int i = 0; i < f->params.len; i++) {
        IrVar *v = VEC_AT(f->params, i, IrVar);
        if (strcmp(v->name, name) == 0)
            return v;
    }
    return NULL;
}

/* ---- expressions -------------------------------------------------------------------- */

IrExpr *ir_e(IrModule *m, IrExprKind k, const IrType *t)
{
    IrExpr *e = arena_alloc(m->arena, sizeof *e);
    e->kind = k;
    e->type = t;
    return e;
}

IrExpr *ir_int(IrModule *m, const IrType *t, int64_t v)
{
    IrExpr *e = ir_e(m, IRE_INT, t);
    e->u.i = v;
    return e;
}

IrExpr *ir_i32(IrModule *m, int64_t v)
{
    return ir_int(m, ir_t(m, IRT_I32), v);
}

IrExpr *ir_real(IrModule *m, const IrType *t, double v)
{
    IrExpr *e = ir_e(m, IRE_REAL, t);
    e->u.r = v;
    return e;
}

IrExpr *ir_bool(IrModule *m, bool v)
{
    IrExpr *e = ir_e(m, IRE_BOOL, ir_t(m, IRT_BOOL));
    e->u.i = v;
    return e;
}

IrExpr *ir_string(IrModule *m, const char *bytes, int len)
{
    IrExpr *e = ir_e(m, IRE_STRING, ir_t(m, IRT_CSTR));
    e->u.str.bytes = bytes;
    e->u.str.len = len;
    return e;
}

IrExpr *ir_null(IrModule *m)
{
    return ir_e(m, IRE_NULL, ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false));
}

IrExpr *ir_ref(IrModule *m, IrVar *v)
{
    IrExpr *e = ir_e(m, IRE_VAR, v->type);
    e->u.var = v;
    return e;
}

IrExpr *ir_field(IrModule *m, IrExpr *rec, const IrField *f)
{
    IrExpr *e = ir_e(m, IRE_FIELD, f->type);
    e->a = rec;
    e->u.field = f;
    return e;
}

IrExpr *ir_member(IrModule *m, IrExpr *a, const char *name, const IrType *t)
{
    IrExpr *e = ir_e(m, IRE_MEMBER, t);
    e->a = a;
    e->u.member = name;
    return e;
}

IrExpr *ir_index(IrModule *m, IrExpr *a, IrExpr *i)
{
    const IrType *t = a->type && (a->type->kind == IRT_ARRAY || a->type->kind == IRT_PTR ||
                                  a->type->kind == IRT_VEC)
                          ? a->type->elem : NULL;
    IrExpr *e = ir_e(m, IRE_INDEX, t);
    e->a = a;
    e->b = i;
    return e;
}

IrExpr *ir_deref(IrModule *m, IrExpr *p)
{
    IrExpr *e = ir_e(m, IRE_DEREF, p->type && p->type->kind == IRT_PTR ? p->type->elem : NULL);
    e->a = p;
    return e;
}

IrExpr *ir_addr(IrModule *m, IrExpr *a)
{
    IrExpr *e = ir_e(m, IRE_ADDR, ir_t_ptr(m, a->type, false));
    e->a = a;
    return e;
}

static IrExpr *locator(IrModule *m, IrExprKind k, IrExpr *net, IrExpr *rep, int g,
                       const IrLayout *l)
{
    IrExpr *e = ir_e(m, k, ir_t_ptr(m, ir_t_record(m, l), false));
    e->a = net;
    e->b = rep;
    e->g = g;
    e->layout = l;
    e->form = l->form;
    return e;
}

IrExpr *ir_nodes(IrModule *m, IrExpr *net, IrExpr *rep, int g, const IrLayout *l)
{
    return locator(m, IRE_NODES, net, rep, g, l);
}

IrExpr *ir_conns(IrModule *m, IrExpr *net, IrExpr *rep, int b, const IrLayout *l)
{
    return locator(m, IRE_CONNS, net, rep, b, l);
}

IrExpr *ir_netrec(IrModule *m, IrExpr *net, IrExpr *rep, const IrLayout *l)
{
    return locator(m, IRE_NETREC, net, rep, -1, l);
}

IrExpr *ir_netinfo(IrModule *m, IrNetInfo info, IrExpr *net, IrExpr *x, IrExpr *y)
{
    const IrType *t;
    switch (info) {
    case IRN_BLOCKED: case IRN_ANY_DEAD: case IRN_DENSE: t = ir_t(m, IRT_BOOL); break;
    case IRN_DEAD: t = ir_t(m, IRT_BOOL); break;
    case IRN_NAME: t = ir_t(m, IRT_CSTR); break;
    case IRN_BUNDLE: t = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true); break;
    case IRN_CONNS_ARRAY: case IRN_BLOCK_CONNS:
        t = ir_t_ptr(m, ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false), true);
        break;
    default: t = ir_t(m, IRT_I32); break;
    }
    IrExpr *e = ir_e(m, IRE_NETINFO, t);
    e->info = info;
    e->a = net;
    e->b = x;
    e->c = y;
    return e;
}

IrExpr *ir_unary(IrModule *m, IrOp op, const IrType *t, IrExpr *a)
{
    IrExpr *e = ir_e(m, IRE_UNARY, t);
    e->op = op;
    e->a = a;
    return e;
}

IrExpr *ir_binary(IrModule *m, IrOp op, const IrType *t, IrExpr *a, IrExpr *b)
{
    IrExpr *e = ir_e(m, IRE_BINARY, t);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

IrExpr *ir_cond(IrModule *m, const IrType *t, IrExpr *c, IrExpr *a, IrExpr *b)
{
    IrExpr *e = ir_e(m, IRE_COND, t);
    e->a = c;
    e->b = a;
    e->c = b;
    return e;
}

IrExpr *ir_cast(IrModule *m, const IrType *t, IrExpr *a)
{
    IrExpr *e = ir_e(m, IRE_CAST, t);
    e->a = a;
    return e;
}

static void add_args(IrModule *m, IrExpr *e, int n, IrExpr *const *args)
{
    for (int i = 0; i < n; i++)
        vec_push(m->arena, &e->args, args[i]);
}

IrExpr *ir_call(IrModule *m, IrFunc *f, int n, IrExpr *const *args)
{
    IrExpr *e = ir_e(m, IRE_CALL, f->ret);
    e->fn = f;
    add_args(m, e, n, args);
    return e;
}

IrExpr *ir_call_ext(IrModule *m, const char *name, const IrType *ret, int n, IrExpr *const *args)
{
    IrExpr *e = ir_e(m, IRE_CALL, ret);
    e->ext = name;
    add_args(m, e, n, args);
    return e;
}

IrExpr *ir_helper(IrModule *m, IrHelper h, const IrType *ret, int n, IrExpr *const *args)
{
    IrExpr *e = ir_e(m, IRE_CALL, ret);
    e->helper = h;
    add_args(m, e, n, args);
    return e;
}

IrExpr *ir_struct(IrModule *m, const IrType *t)
{
    return ir_e(m, IRE_STRUCT, t);
}

void ir_struct_add(IrModule *m, IrExpr *s, const char *name, IrExpr *v)
{
    /* names grow with args: a name per argument, or none at all */
    int n = s->args.len;
    if (name) {
        const char **names = arena_alloc(m->arena, (size_t)(n + 1) * sizeof *names);
        if (n)
            memcpy(names, s->names, (size_t)n * sizeof *names);
        names[n] = name;
        s->names = names;
    }
    vec_push(m->arena, &s->args, v);
}

IrExpr *ir_temp_addr(IrModule *m, IrExpr *a)
{
    IrExpr *e = ir_e(m, IRE_TEMP_ADDR, ir_t_ptr(m, a->type, true));
    e->a = a;
    return e;
}

IrExpr *ir_stmts(IrModule *m, IrStmt *body, IrExpr *value)
{
    IrExpr *e = ir_e(m, IRE_STMTS, value ? value->type : ir_t(m, IRT_VOID));
    e->u.body = body;
    e->a = value;
    return e;
}

IrExpr *ir_pos(IrModule *m, int line)
{
    IrExpr *e = ir_e(m, IRE_POS, ir_t(m, IRT_POS));
    e->u.i = line;
    return e;
}

IrExpr *ir_sizeof(IrModule *m, const IrType *t)
{
    IrExpr *e = ir_e(m, IRE_SIZEOF, ir_t(m, IRT_SIZE));
    e->u.i = 0;
    e->type = ir_t(m, IRT_SIZE);
    e->a = ir_e(m, IRE_NULL, t); /* carries the type whose size is meant */
    return e;
}

IrExpr *ir_offsetof(IrModule *m, const IrType *t, const char *member)
{
    IrExpr *e = ir_e(m, IRE_OFFSETOF, ir_t(m, IRT_SIZE));
    e->a = ir_e(m, IRE_NULL, t); /* carries the struct type */
    e->u.member = member;
    return e;
}

IrExpr *ir_funcref(IrModule *m, IrFunc *f)
{
    IrExpr *e = ir_e(m, IRE_FUNCREF, ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true));
    e->fn = f;
    return e;
}

IrExpr *ir_named(IrModule *m, const char *name, const IrType *t)
{
    IrExpr *e = ir_e(m, IRE_NAMED, t);
    e->u.member = name;
    return e;
}

const IrType *ir_t_named(IrModule *m, const char *name)
{
    IrType *r = new_type(m, IRT_NAMED);
    r->name = name;
    return r;
}

IrStatic *ir_static(IrModule *m, IrVar *var, bool is_const)
{
    IrStatic *s = arena_alloc(m->perm, sizeof *s);
    s->var = var;
    s->is_const = is_const;
    vec_push(m->perm, &m->statics, s);
    return s;
}

/* ---- statements ------------------------------------------------------------------------ */

IrStmt *ir_s(IrModule *m, IrStmtKind k, Loc loc)
{
    IrStmt *s = arena_alloc(m->arena, sizeof *s);
    s->kind = k;
    s->loc = loc;
    return s;
}

IrStmt *ir_block(IrModule *m, Loc loc)
{
    return ir_s(m, IRS_BLOCK, loc);
}

void ir_append(IrModule *m, IrStmt *block, IrStmt *s)
{
    vec_push(m->arena, &block->list, s);
}

IrExpr *ir_clone(IrModule *m, const IrExpr *e)
{
    if (!e)
        return NULL;
    IrExpr *c = arena_alloc(m->arena, sizeof *c);
    *c = *e;
    c->a = ir_clone(m, e->a);
    c->b = ir_clone(m, e->b);
    c->c = ir_clone(m, e->c);
    c->args = (PtrVec){0};
    for (int i = 0; i < e->args.len; i++)
        vec_push(m->arena, &c->args, ir_clone(m, VEC_AT(e->args, i, IrExpr)));
    return c;
}

IrStmt *ir_clone_stmt(IrModule *m, const IrStmt *s)
{
    if (!s)
        return NULL;
    IrStmt *c = arena_alloc(m->arena, sizeof *c);
    *c = *s;
    c->a = ir_clone(m, s->a);
    c->b = ir_clone(m, s->b);
    c->c = ir_clone(m, s->c);
    c->lane_sel = ir_clone(m, s->lane_sel);
    c->lo = ir_clone(m, s->lo);
    c->hi = ir_clone(m, s->hi);
    c->par = ir_clone(m, s->par);
    c->then = ir_clone_stmt(m, s->then);
    c->els = ir_clone_stmt(m, s->els);
    c->list = (PtrVec){0};
    for (int i = 0; i < s->list.len; i++)
        vec_push(m->arena, &c->list, ir_clone_stmt(m, VEC_AT(s->list, i, IrStmt)));
    if (s->red) {
        IrReduce *r = arena_alloc(m->arena, sizeof *r);
        *r = *s->red;
        r->into = ir_clone(m, s->red->into);
        r->mask = ir_clone(m, s->red->mask);
        r->after = ir_clone_stmt(m, s->red->after);
        c->red = r;
    }
    if (s->ints) {
        c->ints = arena_alloc(m->arena, (size_t)(s->list.len + 1) * sizeof *c->ints);
        for (int i = 0; i < s->list.len; i++)
            c->ints[i] = s->ints[i];
    }
    return c;
}
