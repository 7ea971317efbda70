/* types.c -- the predefined types and the type rules of semantics.md §2.
 *
 * Type identity is pointer identity (types are named, §2.1).  The only
 * implicit conversions are the widenings Int1 < Int2 < Int and
 * Interval1 < Interval2 < Interval (§2.5); every predicate here lets an
 * error type through so that one mistake is reported once. */
#include "sema_internal.h"

/* ORDER TYPEKIND */
static const char *const kind_names[] = {
    "<error>", "Int1", "Int2", "Int", "Real", "Bool", "String", "Opaque",
    "Interval1", "Interval2", "Interval", "Realerval",
    "SYMBOLIC", "RECORD", "NODE", "CONNECTION", "ARRAY", "GROUP", "NETWORK",
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == TY__COUNT,
               "kind_names out of sync with TypeKind");

const char *sema_type_kind_name(TypeKind k)
{
    return k < TY__COUNT ? kind_names[k] : "?";
}

const char *sema_type_name(const Type *type)
{
    return type ? type->name : "<none>";
}

Type *sema_new_type(SemaInfo *si, TypeKind kind, const char *name)
{
    Type *t = arena_alloc(si->arena, sizeof *t);
    t->kind = kind;
    t->name = name;
    t->id = si->next_type_id++;
    return t;
}

void sema_make_builtins(SemaInfo *si)
{
    for (TypeKind k = TY_ERROR; k <= TY_REALERVAL; k++) {
        Type *t = sema_new_type(si, k, intern_cstr(si->arena, kind_names[k]));
        t->complete = true;
        t->bytes = 8; /* pointers, Interval, Realerval, the error type */
        si->builtin[k] = t;
    }
    /* C sizes of the small types (cupit_rt.h), for the object size bound */
    si->builtin[TY_BOOL]->bytes = si->builtin[TY_INT1]->bytes = 1;
    si->builtin[TY_INT2]->bytes = si->builtin[TY_INTERVAL1]->bytes = 2;
    si->builtin[TY_INT]->bytes = si->builtin[TY_INTERVAL2]->bytes = 4;
    si->builtin[TY_REAL]->bytes = 4;
    si->builtin[TY_INTERVAL1]->elem = si->builtin[TY_INT1];
    si->builtin[TY_INTERVAL2]->elem = si->builtin[TY_INT2];
    si->builtin[TY_INTERVAL]->elem = si->builtin[TY_INT];
    si->builtin[TY_REALERVAL]->elem = si->builtin[TY_REAL];
}

bool type_is_error(const Type *t) { return !t || t->kind == TY_ERROR; }

bool type_is_integral(const Type *t)
{
    return t && (t->kind == TY_INT1 || t->kind == TY_INT2 || t->kind == TY_INT);
}

bool type_is_number(const Type *t)
{
    return type_is_integral(t) || (t && t->kind == TY_REAL);
}

bool type_is_int_interval(const Type *t)
{
    return t && (t->kind == TY_INTERVAL1 || t->kind == TY_INTERVAL2 ||
                 t->kind == TY_INTERVAL);
}

bool type_is_interval(const Type *t)
{
    return type_is_int_interval(t) || (t && t->kind == TY_REALERVAL);
}

bool type_is_structure(const Type *t)
{
    return t && (t->kind == TY_RECORD || t->kind == TY_NODE ||
                 t->kind == TY_CONNECTION || t->kind == TY_NETWORK);
}

bool type_is_node_grid(const Type *t)
{
    return t && t->kind == TY_ARRAY && t->elem && t->elem->kind == TY_ARRAY && t->elem->elem &&
           t->elem->elem->kind == TY_NODE;
}

bool type_is_node_array(const Type *t)
{
    return (t && t->kind == TY_ARRAY && t->elem && t->elem->kind == TY_NODE) ||
           type_is_node_grid(t);
}

bool type_is_node_collection(const Type *t)
{
    return (t && t->kind == TY_GROUP) || type_is_node_array(t);
}

Type *type_node_of(const Type *t)
{
    if (type_is_node_grid(t))
        return t->elem->elem;
    return type_is_node_collection(t) ? t->elem : NULL;
}

int64_t type_node_count(const Type *t)
{
    if (type_is_node_grid(t))
        return t->size * t->elem->size;
    return type_is_node_array(t) ? t->size : 0;
}

bool type_is_plain_data(const Type *t)
{
    if (!t)
        return false;
    switch (t->kind) {
    case TY_ERROR: case TY_INT1: case TY_INT2: case TY_INT: case TY_REAL:
    case TY_BOOL: case TY_STRING: case TY_OPAQUE: case TY_INTERVAL1:
    case TY_INTERVAL2: case TY_INTERVAL: case TY_REALERVAL: case TY_SYMBOLIC:
    case TY_RECORD:
        return true;
    case TY_ARRAY:
        return type_is_plain_data(t->elem);
    default:
        return false;
    }
}

bool type_equal(const Type *a, const Type *b) { return a == b; }

/* Integer family rank: 1..3 for Int1..Int, 0 otherwise; intervals alike. */
static int int_rank(const Type *t)
{
    switch (t->kind) {
    case TY_INT1: return 1;
    case TY_INT2: return 2;
    case TY_INT: return 3;
    default: return 0;
    }
}

static int interval_rank(const Type *t)
{
    switch (t->kind) {
    case TY_INTERVAL1: return 1;
    case TY_INTERVAL2: return 2;
    case TY_INTERVAL: return 3;
    default: return 0;
    }
}

bool type_compatible(const Type *a, const Type *b)
{
    if (type_is_error(a) || type_is_error(b) || a == b)
        return true;
    return (int_rank(a) && int_rank(b)) || (interval_rank(a) && interval_rank(b));
}

Type *type_common(Type *a, Type *b)
{
    if (type_is_error(a))
        return a;
    if (type_is_error(b))
        return b;
    if (a == b)
        return a;
    if (int_rank(a) && int_rank(b))
        return int_rank(a) >= int_rank(b) ? a : b;
    if (interval_rank(a) && interval_rank(b))
        return interval_rank(a) >= interval_rank(b) ? a : b;
    return NULL;
}

bool type_assignable(const Type *dst, const Type *src)
{
    if (type_is_error(dst) || type_is_error(src) || dst == src)
        return true;
    if (int_rank(dst) && int_rank(src))
        return int_rank(src) < int_rank(dst);
    if (interval_rank(dst) && interval_rank(src))
        return interval_rank(src) < interval_rank(dst);
    return false;
}

Type *type_interval_of(const SemaInfo *si, const Type *t)
{
    if (!t)
        return NULL;
    switch (t->kind) {
    case TY_INT1: return si->builtin[TY_INTERVAL1];
    case TY_INT2: return si->builtin[TY_INTERVAL2];
    case TY_INT: return si->builtin[TY_INTERVAL];
    case TY_REAL: return si->builtin[TY_REALERVAL];
    default: return NULL;
    }
}

Type *type_of_int_literal(const SemaInfo *si, uint64_t v)
{
    if (v <= 127)
        return si->builtin[TY_INT1];
    if (v <= 32767)
        return si->builtin[TY_INT2];
    if (v <= 2147483647u)
        return si->builtin[TY_INT];
    return NULL;
}

void type_int_range(const Type *t, int64_t *lo, int64_t *hi)
{
    switch (t ? t->kind : TY_INT) {
    case TY_INT1: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case TY_INT2: *lo = INT16_MIN; *hi = INT16_MAX; break;
    default: *lo = INT32_MIN; *hi = INT32_MAX; break;
    }
}

ConvertKind sema_convert_kind(const Expr *e)
{
    if (e->kind != EXPR_CONVERT || type_is_error(e->type))
        return CONV_ERROR;
    const Type *t = e->type;
    if (e->u.convert.args.len == 1) {
        const Expr *a = VEC_AT(e->u.convert.args, 0, Expr);
        if (a->type == t)
            return CONV_IDENTITY;
        if (type_is_number(t))
            return CONV_NUMERIC;
        if (type_is_int_interval(t))
            return CONV_INTERVAL;
    }
    switch (t->kind) {
    case TY_INTERVAL1: case TY_INTERVAL2: case TY_INTERVAL: case TY_REALERVAL:
        return CONV_MAKE_INTERVAL;
    case TY_RECORD: return CONV_RECORD;
    case TY_NODE: return CONV_NODE;
    case TY_CONNECTION: return CONV_CONNECTION;
    default: return CONV_ERROR;
    }
}
