/* cg_fields.c -- the data elements of node, connection and network types
 * as scalar leaves (rt_field tables, cupit_rt.h), from which the runtime
 * saves and loads networks element by element in a portable format
 * (runtime/rt_save.c).
 *
 * A leaf is a scalar at a byte offset, repeated `count` times `stride`
 * bytes apart: an array of scalars or of records is one leaf per scalar of
 * the element type; arrays nested in repeated arrays are unrolled. */
#include <string.h>

#include "cg_internal.h"

typedef struct Leaves {
    Cg *cg;
    Emitter *o;
    int n;
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

static void leaf(Leaves *lv, const char *off, const char *kind, const char *count,
                 const char *stride)
{
    emit(lv->o, "{(uint32_t)(%s), (uint32_t)(%s), (uint32_t)(%s), %s},", off, count, stride, kind);
    lv->n++;
}

/* Leaves of an object of type t at byte offset `off` (a C expression),
 * repeated count times stride bytes apart ("1", "0" when single). */
static void leaves(Leaves *lv, const Type *t, const char *off, const char *count,
                   const char *stride)
{
    Cg *cg = lv->cg;
    switch (t->kind) {
    case TY_INTERVAL1: case TY_INTERVAL2: case TY_INTERVAL: case TY_REALERVAL: {
        const char *ct = cg_ctype(cg, t), *k = kind_of(t->elem->kind);
        leaf(lv, cg_fmt(cg, "%s + offsetof(%s, min)", off, ct), k, count, stride);
        leaf(lv, cg_fmt(cg, "%s + offsetof(%s, max)", off, ct), k, count, stride);
        return;
    }
    case TY_RECORD: case TY_NODE: case TY_CONNECTION: case TY_NETWORK:
        for (int i = 0; i < t->elems.len; i++) {
            const Symbol *e = VEC_AT(t->elems, i, Symbol);
            if (type_is_node_collection(e->type))
                continue; /* groups and node arrays are saved as groups */
            leaves(lv, e->type,
                   cg_fmt(cg, "%s + offsetof(%s, %s)", off, cg_ctype(cg, t), cg_field(cg, e)),
                   count, stride);
        }
        return;
    case TY_ARRAY: {
        const char *base = cg_fmt(cg, "%s + offsetof(%s, a)", off, cg_ctype(cg, t));
        const char *es = cg_fmt(cg, "sizeof(%s)", cg_ctype(cg, t->elem));
        if (strcmp(count, "1") == 0) {
            leaves(lv, t->elem, base, cg_fmt(cg, "%lld", (long long)t->size), es);
        } else {
            /* already repeated: unroll this level */
            for (int64_t i = 0; i < t->size; i++)
                leaves(lv, t->elem, cg_fmt(cg, "%s + %lld * %s", base, (long long)i, es), count,
                       stride);
        }
        return;
    }
    default:
        leaf(lv, off, kind_of(t->kind), count, stride);
        return;
    }
}

static const char *table_name(Cg *cg, const Type *t)
{
    return cg_fmt(cg, "cpFld_%s", t->name);
}

void cg_emit_field_tables(Cg *cg)
{
    Emitter *o = cg->out;
    emit_directive(o, "/* ===== element leaves (saveNetworks) ===== */");
    for (int i = 0; i < cg->si->types.len; i++) {
        Type *t = VEC_AT(cg->si->types, i, Type);
        if (t->kind != TY_NODE && t->kind != TY_CONNECTION && t->kind != TY_NETWORK)
            continue;
        Leaves lv = {.cg = cg, .o = o};
        emit_open(o, "static CP_UNUSED const rt_field %s[] =", table_name(cg, t));
        leaves(&lv, t, "0", "1", "0");
        if (lv.n == 0)
            emit(o, "{0, 0, 0, RT_F_I8}, /* none (C has no empty arrays) */");
        emit_close(o, ";");
        emit(o, "enum { %s_n = %d };", table_name(cg, t), lv.n);
    }
    emit(o, "%s", "");
}

const char *cg_fields_init(Cg *cg, const Type *t)
{
    return cg_fmt(cg, ".fields = %s, .nfields = %s_n", table_name(cg, t), table_name(cg, t));
}
