/* cg_types.c -- C names, C types and element initializers.
 *
 * Every CuPit type gets one C type: simple types map to the cp_* typedefs
 * of cupit_rt.h, SYMBOLIC types to cp_int with one enumerator per value,
 * RECORD/NODE/CONNECTION/NETWORK types to structs of their data elements
 * (node groups and interfaces live in the runtime's network storage, not in
 * the structs), ARRAY types to a struct wrapping a C array so that arrays
 * assign and pass by value like every other CuPit value. */
#include <string.h>

#include "cg_internal.h"

/* C keywords and the lowercase macros of the headers generated code
 * includes; a CuPit name equal to one of these gets a trailing '_'. */
static const char *const reserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "bool", "true", "false",
    "offsetof", "errno", "assert", "me", "you", "net", "rep", "idx",
    "main", "asm", "typeof", NULL,
};

const char *cg_cident(Cg *cg, const char *name)
{
    for (int i = 0; reserved[i]; i++)
        if (strcmp(reserved[i], name) == 0)
            return arena_printf(cg->arena, "%s_", name);
    return name;
}

const char *cg_field(Cg *cg, const Symbol *elem)
{
    return cg_cident(cg, elem->name);
}

const char *cg_local(Cg *cg, const Symbol *sym)
{
    return arena_printf(cg->arena, "v_%s", sym->cname ? sym->cname : sym->name);
}

const char *cg_global(Cg *cg, const Symbol *sym)
{
    return arena_printf(cg->arena, "cpG_%s", sym->name);
}

static const char *builtin_name(Cg *cg, const Symbol *s);

/* The standard library's arithmetic functions that are called inline
 * (cupit_rt.h) when declared with their library signature. */
static const struct { const char *name, *inline_name; int nparams; } builtins[] = {
    {"sigmoid", "rt_sigmoid", 1},     {"sigmoidPrime", "rt_sigmoid_prime", 1},
    {"absReal", "rt_abs_real", 1},    {"signReal", "rt_sign_real", 1},
    {"minReal", "rt_min_real", 2},    {"maxReal", "rt_max_real", 2},
};

bool cg_is_builtin(Cg *cg, const Symbol *s)
{
    return builtin_name(cg, s) != NULL;
}

static const char *builtin_name(Cg *cg, const Symbol *s)
{
    if (!cg->opts.builtins || s->kind != SYM_FUNC || !s->sub->external || !s->sub->result ||
        s->sub->result->kind != TY_REAL)
        return NULL;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        if (strcmp(s->name, builtins[i].name) != 0 || s->sub->params.len != builtins[i].nparams)
            continue;
        for (int p = 0; p < s->sub->params.len; p++) {
            const Symbol *prm = VEC_AT(s->sub->params, p, Symbol);
            if (prm->access != ACCESS_CONST || prm->type->kind != TY_REAL)
                return NULL;
        }
        return builtins[i].inline_name;
    }
    return NULL;
}

const char *cg_subr_name(Cg *cg, const Symbol *s)
{
    const char *b = builtin_name(cg, s);
    if (b)
        return b;
    switch (s->kind) {
    case SYM_PROC:
    case SYM_FUNC:
        return s->sub->external ? s->name : arena_printf(cg->arena, "cpF_%s", s->name);
    case SYM_REDUCTION:
        return arena_printf(cg->arena, "cpR_%s", s->name);
    case SYM_WTA:
        return arena_printf(cg->arena, "cpW_%s", s->name);
    case SYM_OBJPROC:
    case SYM_OBJFUNC:
        return arena_printf(cg->arena, "cpM_%s_%s", s->owner->name, s->name);
    case SYM_MERGE:
        return arena_printf(cg->arena, "cpMerge_%s", s->owner->name);
    default:
        cp_unreachable();
    }
}

const char *cg_node_fn_name(Cg *cg, CgNet *net, int group, const Symbol *subr)
{
    const Symbol *g = VEC_AT(net->groups, group, Symbol);
    return arena_printf(cg->arena, "cpN_%s_%s_%s", net->type->name, g->name, subr->name);
}

const char *cg_init_fn_name(Cg *cg, const Type *t)
{
    return arena_printf(cg->arena, "cpI_%s", t->name);
}

const char *cg_ctype(Cg *cg, const Type *t)
{
    switch (t->kind) {
    case TY_INT1: return "cp_int1";
    case TY_INT2: return "cp_int2";
    case TY_INT: return "cp_int";
    case TY_REAL: return "cp_real";
    case TY_BOOL: return "cp_bool";
    case TY_STRING: return "cp_string";
    case TY_OPAQUE: return "cp_opaque";
    case TY_INTERVAL1: return "cp_interval1";
    case TY_INTERVAL2: return "cp_interval2";
    case TY_INTERVAL: return "cp_interval";
    case TY_REALERVAL: return "cp_realerval";
    case TY_SYMBOLIC:
    case TY_RECORD:
    case TY_NODE:
    case TY_CONNECTION:
    case TY_NETWORK:
    case TY_ARRAY:
        return arena_printf(cg->arena, "cpT_%s", t->name);
    default:
        return "void";
    }
}

/* Whether objects of type t get anything from element initializers. */
bool cg_type_has_init(Cg *cg, const Type *t)
{
    switch (t->kind) {
    case TY_ARRAY:
        return cg_type_has_init(cg, t->elem);
    case TY_RECORD:
    case TY_NODE:
    case TY_CONNECTION:
    case TY_NETWORK:
        for (int i = 0; i < t->elems.len; i++) {
            Symbol *e = VEC_AT(t->elems, i, Symbol);
            if (type_is_node_collection(e->type))
                continue;
            if ((e->init && e->init->init) || cg_type_has_init(cg, e->type))
                return true;
        }
        return false;
    default:
        return false;
    }
}

void cg_emit_default_init(Cg *cg, const Type *t, const char *lv)
{
    if (!cg_type_has_init(cg, t))
        return;
    if (t->kind == TY_ARRAY) {
        const char *i = cg_fresh(cg, "i");
        emit_open(cg->out, "for (int32_t %s = 0; %s < %lld; %s++)", i, i,
                  (long long)t->size, i);
        cg_emit_default_init(cg, t->elem, arena_printf(cg->arena, "(%s).a[%s]", lv, i));
        emit_close(cg->out, "%s", "");
        return;
    }
    emit(cg->out, "%s(NULL, &(%s));", cg_init_fn_name(cg, t), lv);
}

static bool is_struct_type(const Type *t)
{
    return t->kind == TY_RECORD || t->kind == TY_NODE || t->kind == TY_CONNECTION ||
           t->kind == TY_NETWORK;
}

static void emit_struct(Cg *cg, Type *t)
{
    Emitter *o = cg->out;
    emit_open(o, "typedef struct cpT_%s", t->name);
    int fields = 0;
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        if (type_is_node_collection(e->type))
            continue; /* node groups live in the network storage */
        emit(o, "%s %s;", cg_ctype(cg, e->type), cg_field(cg, e));
        fields++;
    }
    if (fields == 0)
        emit(o, "char cp_empty; /* C structs cannot be empty */");
    emit_close(o, " cpT_%s;", t->name);
}

/* Types that get a lane record (replicated storage, cupit_rt.h). */
bool cg_has_lanes(const Type *t)
{
    return t->kind == TY_NODE || t->kind == TY_CONNECTION || t->kind == TY_NETWORK;
}

const char *cg_lane_type(Cg *cg, const Type *t)
{
    return arena_printf(cg->arena, "cpV_%s", t->name);
}

bool cg_has_shared(Cg *cg, const Type *t)
{
    if (t->kind != TY_CONNECTION)
        return false;
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        if (lower_elem_kept(cg->plan, t, e) && lower_elem_shared(cg->plan, t, e))
            return true;
    }
    return false;
}

const char *cg_shared_type(Cg *cg, const Type *t)
{
    return arena_printf(cg->arena, "cpS_%s", t->name);
}

const char *cg_lane_offset(Cg *cg, const Type *t, const Symbol *elem)
{
    return arena_printf(cg->arena, "offsetof(%s, %s)", cg_lane_type(cg, t), cg_field(cg, elem));
}

/* Whether the lane record of t has element e (the lane plan can leave
 * connection elements out, lower.h), as an array over the lanes or
 * (*shared) as one value for all of them. */
static bool lane_elem(Cg *cg, const Type *t, const Symbol *e, bool *shared)
{
    bool has = !type_is_node_collection(e->type) && lower_elem_kept(cg->plan, t, e);
    if (shared)
        *shared = has && lower_elem_shared(cg->plan, t, e);
    return has;
}

bool cg_lane_array_elem(Cg *cg, const Type *t, const Symbol *e)
{
    bool shared;
    return lane_elem(cg, t, e, &shared) && !shared;
}

/* The lane record of t: every data element as an array over the lanes,
 * the shared record with the elements all replicates hold equal, and the
 * functions that move one lane to and from a plain record.  A node type's
 * lane record also holds the slots of interface calls (the arguments that
 * lazy reads recompute connection values from); they live only during a
 * network call, so get and put leave them alone. */
static void emit_lane_struct(Cg *cg, Type *t)
{
    Emitter *o = cg->out;
    const char *V = cg_lane_type(cg, t), *T = cg_ctype(cg, t);
    emit_open(o, "typedef struct %s", V);
    int fields = 0;
    bool shared;
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        if (!lane_elem(cg, t, e, &shared) || shared)
            continue;
        emit(o, "%s %s[RT_LANES];", cg_ctype(cg, e->type), cg_field(cg, e));
        fields++;
    }
    const PtrVec *slots = lower_node_slots(cg->plan, t);
    for (int i = 0; i < slots->len; i++) {
        const LowerSlot *sl = VEC_AT(*slots, i, LowerSlot);
        for (int j = 0; j < sl->proc->sub->params.len; j++) {
            const Symbol *p = VEC_AT(sl->proc->sub->params, j, Symbol);
            if (!cg_slot_param(p))
                continue;
            emit(o, "%s %s[RT_LANES]; /* slot: %s of the call of %s */", cg_ctype(cg, p->type),
                 cg_slot_field(cg, sl->id, p), p->name, sl->proc->name);
            fields++;
        }
    }
    if (fields == 0)
        emit(o, "char cp_empty[RT_LANES];");
    emit_close(o, " %s;", V);
    bool has_shared = cg_has_shared(cg, t);
    if (has_shared) { /* elements equal in every replicate: once per record */
        emit_open(o, "typedef struct %s", cg_shared_type(cg, t));
        for (int i = 0; i < t->elems.len; i++) {
            Symbol *e = VEC_AT(t->elems, i, Symbol);
            if (lane_elem(cg, t, e, &shared) && shared)
                emit(o, "%s %s;", cg_ctype(cg, e->type), cg_field(cg, e));
        }
        emit_close(o, " %s;", cg_shared_type(cg, t));
    }
    const char *S = has_shared ? cg_shared_type(cg, t) : "void";
    emit_open(o, "static CP_UNUSED void cpLaneGet_%s(void *rec, const void *lanes, const void *shared, int l)",
              t->name);
    emit(o, "%s *r = rec;", T);
    emit(o, "const %s *v = lanes;", V);
    emit(o, "const %s *sv = shared;", S);
    emit(o, "(void)r; (void)v; (void)sv; (void)l;");
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        if (lane_elem(cg, t, e, &shared))
            emit(o, "r->%s = %s->%s%s;", cg_field(cg, e), shared ? "sv" : "v", cg_field(cg, e),
                 shared ? "" : "[l]");
        else if (!type_is_node_collection(e->type)) /* never read outside a call */
            emit(o, "__builtin_memset(&r->%s, 0, sizeof r->%s);", cg_field(cg, e),
                 cg_field(cg, e));
    }
    emit_close(o, "%s", "");
    emit_open(o, "static CP_UNUSED inline %s cpLaneRec_%s(const void *lanes, const void *shared, int l)",
              T, t->name);
    emit(o, "%s r;", T);
    emit(o, "cpLaneGet_%s(&r, lanes, shared, l);", t->name);
    emit(o, "return r;");
    emit_close(o, "%s", "");
    emit_open(o, "static CP_UNUSED void cpLanePut_%s(void *lanes, void *shared, int l, const void *rec)",
              t->name);
    emit(o, "const %s *r = rec;", T);
    emit(o, "%s *v = lanes;", V);
    emit(o, "%s *sv = shared;", S);
    emit(o, "(void)r; (void)v; (void)sv; (void)l;");
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        if (lane_elem(cg, t, e, &shared))
            emit(o, "%s->%s%s = r->%s;", shared ? "sv" : "v", cg_field(cg, e), shared ? "" : "[l]",
                 cg_field(cg, e));
    }
    emit_close(o, "%s", "");
    if (t->kind != TY_NODE)
        return;
    /* nodes first ... first+count-1 of group g of replicate r as plain
       records in dst, from either storage (a node array, or a row of a
       node grid, passed to EXTERNAL code) */
    emit_open(o, "static CP_UNUSED const void *cpGather_%s(%s *dst, const rt_net *n, int32_t r, "
                 "int g, int32_t first, int32_t count)", t->name, T);
    emit(o, "for (int32_t i = 0; i < count; i++)");
    emit(o, "    dst[i] = n->blocks ? cpLaneRec_%s(&((const %s *)n->blocks[r / RT_LANES].nodes[g])[first + i], "
            "NULL, r %% RT_LANES) : ((const %s *)n->reps[r].nodes[g])[first + i];", t->name, V, T);
    emit(o, "return dst;");
    emit_close(o, "%s", "");
}

const char *cg_lane_desc(Cg *cg, const Type *t)
{
    bool merge = t->merge && cg->opts.lanes;
    return arena_printf(cg->arena, "{sizeof(cpV_%s), cpLaneGet_%s, cpLanePut_%s, %s, %s, %s}",
                        t->name, t->name, t->name, merge ? cg_lane_merge_name(cg, t) : "NULL",
                        cg_has_shared(cg, t) ? arena_printf(cg->arena, "sizeof(cpS_%s)", t->name)
                                             : "0",
                        merge ? cg_lane_fold_name(cg, t) : "NULL");
}

void cg_emit_types(Cg *cg)
{
    Emitter *o = cg->out;
    emit_directive(o, "/* ===== types ===== */");
    for (int i = 0; i < cg->si->types.len; i++) {
        Type *t = VEC_AT(cg->si->types, i, Type);
        if (t->kind == TY_SYMBOLIC) {
            emit(o, "typedef cp_int cpT_%s;", t->name);
            emit_open(o, "enum");
            for (int v = 0; v < t->values.len; v++) {
                Symbol *s = VEC_AT(t->values, v, Symbol);
                emit(o, "cpE_%s_%s = %d,", t->name, s->name, v);
            }
            emit_close(o, ";");
        } else if (is_struct_type(t)) {
            emit_struct(cg, t);
            if (cg_has_lanes(t))
                emit_lane_struct(cg, t);
        } else if (t->kind == TY_ARRAY && !type_is_node_collection(t)) {
            if (type_is_node_collection(t->elem)) {
                cg_unsupported(cg, t->decl ? t->decl->loc : (Loc){0},
                               "arrays of node arrays");
                continue;
            }
            emit(o, "typedef struct cpT_%s { %s a[%lld]; } cpT_%s;", t->name,
                 cg_ctype(cg, t->elem), (long long)t->size, t->name);
        }
    }
    emit(o, "%s", "");
}

/* The element initializers of one struct type, as an rt_init_fn. */
static void emit_init_fn(Cg *cg, Type *t)
{
    Emitter *o = cg->out;
    emit_open(o, "static CP_UNUSED void %s(rt_net *net, void *rec)", cg_init_fn_name(cg, t));
    emit(o, "cpT_%s *p = rec;", t->name);
    emit(o, "(void)net;");
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        if (type_is_node_collection(e->type))
            continue;
        const char *lv = arena_printf(cg->arena, "p->%s", cg_field(cg, e));
        if (e->init && e->init->init) {
            cg_line(cg, e->init->init->loc);
            emit(o, "%s = %s;", lv, cg_expr_as(cg, e->init->init, e->type));
        } else {
            cg_emit_default_init(cg, e->type, lv);
        }
    }
    cg_no_line(cg);
    emit_close(o, "%s", "");
    emit(o, "%s", "");
}

void cg_emit_type_inits(Cg *cg)
{
    emit_directive(cg->out, "/* ===== element initializers ===== */");
    for (int i = 0; i < cg->si->types.len; i++) {
        Type *t = VEC_AT(cg->si->types, i, Type);
        if (is_struct_type(t) && cg_type_has_init(cg, t))
            emit_init_fn(cg, t);
    }
}
