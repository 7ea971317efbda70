/* decls.c -- definitions: types, data objects, subroutines (semantics.md
 * §1-§4).
 *
 * Global names are declared first (so a name used too early is reported as
 * "used before its definition", not as unknown), then every definition is
 * analysed in textual order.  Where each category of object may occur
 * (§2.4) is checked by check_placement. */
#include <string.h>

#include "sema_internal.h"
#include "cupitc/stdlib_sigs.h"

/* Where an object of some type is being defined (columns of §2.4). */
typedef enum Place {
    PL_GLOBAL, PL_LOCAL, PL_PARAM, PL_EXT_PARAM, PL_ELEM, PL_NET_ELEM,
    PL_ARRAY_ELEM, PL_RESULT,
} Place;

static Type *err_type(SemaInfo *si) { return si->builtin[TY_ERROR]; }

/* A context for expressions outside subroutine bodies. */
static Ctx init_ctx(SemaInfo *si, Scope *scope, bool elem_init)
{
    Ctx c = {0};
    c.si = si;
    c.scope = scope;
    c.kind = CTX_NONE;
    c.elem_init = elem_init;
    return c;
}

/* The CuPit type a name from another language means (Integer, Boolean,
 * Float, ...), or NULL: too far from Int, Bool and Real for the
 * did-you-mean search. */
static const char *foreign_type_name(const char *name)
{
    static const char *const map[][2] = {
        {"Integer", "Int"}, {"Long", "Int"}, {"Boolean", "Bool"},
        {"Float", "Real"}, {"Double", "Real"}, {"Short", "Int2"}, {"Byte", "Int1"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(name, map[i][0]) == 0)
            return map[i][1];
    return NULL;
}

Type *sema_resolve_type(Ctx *c, Ident id)
{
    Symbol *sym = sema_scope_find(c->si->globals, id.name);
    if (!sym || sym->kind != SYM_TYPE) {
        diag_error(id.loc, "unknown type '%s'", id.name);
        const char *near = sema_closest_in(c->si->globals, id.name, SYMS(SYM_TYPE), false, false);
        const char *cupit = near ? NULL : foreign_type_name(id.name);
        if (near)
            diag_note(id.loc, "did you mean '%s'?", near);
        else if (cupit)
            diag_note(id.loc, "the type is written '%s' in CuPit", cupit);
        return err_type(c->si);
    }
    if (!sym->defined) {
        diag_error(id.loc, "type '%s' is used before its definition", id.name);
        diag_note(sym->loc, "'%s' is defined here", id.name);
        return err_type(c->si);
    }
    return sym->redefined ? err_type(c->si) : sym->type;
}

/* The location of `word` (a keyword the AST does not keep a position for,
 * such as the VAR of a parameter group) at or after `at`; `at` itself if it
 * is not found nearby. */
static Loc word_after(Loc at, const char *word)
{
    const SourceFile *f = loc_file(at);
    const char *line_start = source_line(f, at.line);
    if (!line_start)
        return at;
    size_t n = strlen(word);
    const char *p = line_start + at.col - 1, *end = f->text + f->len;
    int line = at.line, col = (int)at.col;
    for (int budget = 400; p + n <= end && budget > 0; p++, budget--) {
        bool start = p == f->text || !(p[-1] >= 'A' && p[-1] <= 'Z');
        bool stop = p + n == end || !(p[n] >= 'A' && p[n] <= 'Z');
        if (start && stop && memcmp(p, word, n) == 0)
            return loc_at(f, line, col);
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return at;
}

static const char *category_name(const Type *t)
{
    switch (t->kind) {
    case TY_NODE: return "node";
    case TY_CONNECTION: return "connection";
    case TY_GROUP: return "group";
    case TY_NETWORK: return "network";
    default: return "node array";
    }
}

/* ---- §2.4: where objects of each category may occur ------------------- */

static bool check_placement(Type *t, Place p, Loc at)
{
    if (type_is_error(t) || type_is_plain_data(t))
        return true;
    const char *n = t->name;
    switch (t->kind) {
    case TY_NODE:
        switch (p) {
        case PL_EXT_PARAM: case PL_ARRAY_ELEM: return true;
        case PL_GLOBAL: case PL_LOCAL:
            diag_error(at, "'%s' is a node type: nodes exist only inside node groups "
                       "and arrays", n);
            return false;
        case PL_NET_ELEM:
            diag_error(at, "a single node cannot be a network element; use a GROUP or "
                       "ARRAY of '%s'", n);
            return false;
        default: break;
        }
        break;
    case TY_ARRAY: /* an array of nodes */
        switch (p) {
        case PL_EXT_PARAM: case PL_NET_ELEM: return true;
        case PL_GLOBAL: case PL_LOCAL:
            diag_error(at, "'%s' is an array of nodes: it can only be an element of a "
                       "network type", n);
            return false;
        case PL_ARRAY_ELEM:
            if (!type_is_node_grid(t))
                return true; /* a row of a node grid */
            diag_error(at, "an array of node arrays has at most two dimensions ('%s' is "
                       "already an array of node arrays)", n);
            return false;
        default: break;
        }
        break;
    case TY_GROUP:
        if (p == PL_NET_ELEM)
            return true;
        if (p == PL_GLOBAL || p == PL_LOCAL || p == PL_PARAM || p == PL_EXT_PARAM) {
            diag_error(at, "'%s' is a group type: groups can only be elements of a "
                       "network type", n);
            return false;
        }
        break;
    case TY_CONNECTION:
        if (p == PL_EXT_PARAM)
            return true;
        if (p == PL_GLOBAL || p == PL_LOCAL || p == PL_ELEM || p == PL_NET_ELEM) {
            diag_error(at, "'%s' is a connection type: connections exist only attached "
                       "to node interfaces", n);
            return false;
        }
        break;
    case TY_NETWORK:
        if (p == PL_GLOBAL)
            return true;
        if (p != PL_ARRAY_ELEM && p != PL_RESULT) {
            diag_error(at, "'%s' is a network type: network objects can only be global "
                       "variables", n);
            return false;
        }
        break;
    default:
        break;
    }
    switch (p) {
    case PL_PARAM:
        diag_error(at, "a parameter of type '%s' (a %s type) is only allowed for "
                   "EXTERNAL subroutines", n, category_name(t));
        break;
    case PL_ELEM:
        diag_error(at, "an element of a record, node or connection type cannot have "
                   "type '%s'", n);
        break;
    case PL_ARRAY_ELEM:
        diag_error(at, "an array element cannot have type '%s'", n);
        break;
    case PL_RESULT:
        diag_error(at, "a function cannot return a value of type '%s'", n);
        break;
    default:
        diag_error(at, "an object of type '%s' is not allowed here", n);
        break;
    }
    return false;
}

/* ---- data objects ------------------------------------------------------ */

static SymKind access_kind(Access a)
{
    switch (a) {
    case ACCESS_CONST: return SYM_CONST;
    case ACCESS_IO: return SYM_IO;
    default: return SYM_VAR;
    }
}

/* Initializer, CONST/IO rules and folding for one defined object. */
static void object_init(Ctx *c, Symbol *sym, InitId *id)
{
    if (sym->access == ACCESS_CONST && !id->init) {
        diag_error(id->id.loc, "CONST object '%s' needs an initializer", sym->name);
        return;
    }
    if (!id->init)
        return;
    if (sym->access == ACCESS_IO) {
        diag_error(id->init->loc, "an IO object cannot have an initializer (its storage "
                   "belongs to external code)");
        sema_analyze_expr(c, id->init);
        return;
    }
    if (!sema_value_to(c, id->init, sym->type, "the initializer"))
        return;
    Expr *e = id->init;
    if (sym->access == ACCESS_CONST && e->is_const && !type_is_error(sym->type)) {
        sym->has_value = true;
        sym->const_int = e->const_int;
        sym->const_real = e->const_real;
    }
}

/* T CONST|VAR|IO a := e, b  at top level (global) or in a block (local). */
static void data_decl(Ctx *c, Decl *d, bool global)
{
    SemaInfo *si = c->si;
    Type *t = sema_resolve_type(c, d->u.data.type);
    bool placed = check_placement(t, global ? PL_GLOBAL : PL_LOCAL, d->u.data.type.loc);
    if (placed && t->kind == TY_NETWORK && d->u.data.access != ACCESS_VAR) {
        diag_error(d->u.data.type.loc, "a network object must be a VAR");
        placed = false;
    }
    if (!placed)
        t = err_type(si);
    for (int i = 0; i < d->u.data.ids.len; i++) {
        InitId *id = VEC_AT(d->u.data.ids, i, InitId);
        Symbol *sym = id->sym;
        if (!global) {
            sym = sema_new_symbol(si, access_kind(d->u.data.access), id->id.name, id->id.loc);
            sym->decl = d;
            sym->init = id;
            sym->subr = c->subr;
            id->sym = sym;
        }
        sym->type = t;
        sym->access = d->u.data.access;
        object_init(c, sym, id);
        if (global) {
            sym->defined = true;
            sym->index = si->data.len;
            vec_push(si->arena, &si->data, sym);
            if (t->kind == TY_NETWORK)
                vec_push(si->arena, &si->networks, sym);
            continue;
        }
        /* A top-level local may not repeat a parameter's name (§1.5). */
        Scope *params = c->scope->parent;
        Symbol *p = params && params->kind == SCOPE_PARAMS && c->subr &&
                            c->subr->sub->an->scope == params
                        ? sema_scope_find(params, sym->name) : NULL;
        if (p) {
            diag_error(sym->loc, "redefinition of '%s'", sym->name);
            diag_note(p->loc, "previous definition of '%s' is here", p->name);
            continue;
        }
        if (sema_declare(si, c->scope, sym)) {
            sym->defined = true;
            sema_assign_local_cname(si, c->subr, sym);
        }
    }
    if (d->u.data.ids.len > 0)
        d->sym = VEC_AT(d->u.data.ids, 0, InitId)->sym;
}

void sema_local_data(Ctx *c, Decl *d)
{
    data_decl(c, d, false);
}

/* ---- subroutines ------------------------------------------------------- */

static bool is_function_kind(SymKind k)
{
    return k == SYM_FUNC || k == SYM_OBJFUNC || k == SYM_REDUCTION || k == SYM_WTA;
}

/* Parameters and result type of a PROCEDURE / FUNCTION (global or object). */
static void subr_header(SemaInfo *si, Decl *d, Symbol *sym)
{
    Ctx c = init_ctx(si, si->globals, false);
    sym->sub->external = d->u.subr.external;
    if (sym->sub->external && (sym->kind == SYM_OBJPROC || sym->kind == SYM_OBJFUNC))
        /* §4.3 leaves their meaning to the compiler: cupitc has none
           (docs/language-decisions.md) */
        diag_error(d->u.subr.name.loc, "object %s '%s' cannot be EXTERNAL: cupitc supports "
                   "EXTERNAL only for global subroutines (call one from a CuPit body)",
                   sym->kind == SYM_OBJPROC ? "procedure" : "function", sym->name);
    sym->sub->an->scope = sema_scope_new(si, SCOPE_PARAMS, si->globals);
    sym->sub->an->scope->subr = sym;
    bool func = sym->kind == SYM_FUNC || sym->kind == SYM_OBJFUNC;
    for (int g = 0; g < d->u.subr.params.len; g++) {
        ParamGroup *pg = VEC_AT(d->u.subr.params, g, ParamGroup);
        Type *t = sema_resolve_type(&c, pg->type);
        if (!check_placement(t, sym->sub->external ? PL_EXT_PARAM : PL_PARAM, pg->type.loc))
            t = err_type(si);
        if (func && pg->access == ACCESS_VAR)
            diag_error(word_after(pg->type.loc, "VAR"), "a function cannot have VAR "
                       "parameters");
        for (int i = 0; i < pg->names.len; i++) {
            Ident *id = VEC_AT(pg->names, i, Ident);
            Symbol *p = sema_new_symbol(si, SYM_PARAM, id->name, id->loc);
            p->type = t;
            p->access = pg->access;
            p->subr = sym;
            p->index = sym->sub->params.len;
            p->defined = true;
            vec_push(si->arena, &sym->sub->params, p);
            if (sema_declare(si, sym->sub->an->scope, p))
                sema_assign_local_cname(si, sym, p);
        }
    }
    if (func) {
        Type *r = sema_resolve_type(&c, d->u.subr.result);
        if (!check_placement(r, PL_RESULT, d->u.subr.result.loc))
            r = err_type(si);
        sym->sub->result = r;
        sym->type = r;
    }
}

/* Sets up ME/YOU/INDEX for the body of sym (§5.3) and analyses it. */
static void subr_body(SemaInfo *si, Decl *d, Symbol *sym)
{
    Ctx c = {0};
    /* the names reported as undefined in this body: most bodies have none,
       so the scope lives here and takes arena memory only when one is added */
    Scope undefined = {.kind = SCOPE_BLOCK};
    c.si = si;
    c.subr = sym;
    c.scope = sym->sub->an->scope;
    c.undefined = &undefined;
    c.owner = sym->owner;
    switch (sym->kind) {
    case SYM_PROC: case SYM_FUNC:
        c.kind = CTX_CA;
        break;
    case SYM_REDUCTION: case SYM_WTA:
        c.kind = sym->kind == SYM_WTA ? CTX_WTA : CTX_RED;
        c.me_type = c.you_type = sym->type;
        c.me_read_only = true;
        break;
    case SYM_MERGE:
        c.kind = CTX_MERGE;
        c.me_type = c.you_type = sym->owner;
        break;
    default:
        c.kind = sema_object_context(sym->owner->kind, sym->kind == SYM_OBJFUNC);
        c.me_type = sym->owner;
        c.me_read_only = sym->kind == SYM_OBJFUNC;
        c.index_ok = sym->owner->kind == TY_NETWORK || sym->owner->kind == TY_NODE;
        break;
    }
    sym->sub->context = c.kind;
    if (sym->sub->external || !d->u.subr.body)
        return;
    sema_block(&c, d->u.subr.body);
    sema_check_self_calls(&c);
    if (is_function_kind(sym->kind)) {
        Loc blame = d->u.subr.name.loc;
        if (!sema_ends_in_return(d->u.subr.body, &blame))
            diag_error(blame, "%s '%s' must end with a RETURN statement (or an IF whose "
                       "branches all end with one)", sema_sym_what(sym), sym->name);
    }
    if (c.kind == CTX_CA) {
        /* §5.1, incrementally: every callee is defined earlier, so its
         * classification is already final. */
        bool ca = sym->sub->is_central_agent || sym->sub->mentions_network;
        for (int i = 0; i < sym->sub->an->callees.len && !ca; i++)
            ca = VEC_AT(sym->sub->an->callees, i, Symbol)->sub->is_central_agent;
        sym->sub->is_central_agent = ca;
    }
}

/* An EXTERNAL declaration of a standard library subroutine must say what
 * the library defines (a disagreeing one would call it with the wrong
 * arguments). */
static void check_standard(const Symbol *sym)
{
    const StdSubr *std = sym->sub->external ? stdlib_find(sym->name) : NULL;
    const char *why = std ? stdlib_mismatch(std, sym) : NULL;
    if (!why)
        return;
    diag_error(sym->loc, "this declaration of the standard library's '%s' is wrong: %s",
               sym->name, why);
    diag_note(sym->loc, "the standard library declares it as: %s", stdlib_decl(std));
}

static void global_subr(SemaInfo *si, Decl *d)
{
    Symbol *sym = d->sym;
    vec_push(si->arena, &si->subrs, sym);
    if (d->kind == DECL_REDUCTION || d->kind == DECL_WTA) {
        Ctx c = init_ctx(si, si->globals, false);
        Type *t = sema_resolve_type(&c, d->u.subr.result);
        if (!type_is_error(t) && !type_is_plain_data(t)) {
            diag_error(d->u.subr.result.loc, "a %s cannot work on values of type '%s'",
                       sema_sym_what(sym), t->name);
            t = err_type(si);
        }
        sym->type = t;
        sym->sub->result = d->kind == DECL_WTA ? si->builtin[TY_BOOL] : t;
        sym->sub->an->scope = sema_scope_new(si, SCOPE_PARAMS, si->globals);
        sym->sub->an->scope->subr = sym;
    } else {
        subr_header(si, d, sym);
        check_standard(sym);
        if (stdlib_uses_networks(sym)) /* §5.1: its callers are CA (context.c) */
            sym->sub->is_central_agent = true;
    }
    sym->defined = true;
    subr_body(si, d, sym);
}

/* ---- type definitions --------------------------------------------------- */

static Type *element_type(SemaInfo *si, Type *self, Ident id, Place p)
{
    Ctx c = init_ctx(si, si->globals, false);
    Type *t = sema_resolve_type(&c, id);
    if (t == self && !t->complete) {
        diag_error(id.loc, "type '%s' cannot contain itself", t->name);
        return err_type(si);
    }
    if (!check_placement(t, p, id.loc))
        return err_type(si);
    return t;
}

static void array_type(SemaInfo *si, Decl *d, Type *t)
{
    Ctx c = init_ctx(si, si->globals, false);
    Expr *size = d->u.type.array_size;
    Type *st = sema_value(&c, size);
    t->elem = element_type(si, t, d->u.type.elem_type, PL_ARRAY_ELEM);
    t->size = 1;
    if (type_is_error(st))
        return;
    if (!type_is_integral(st) || !size->is_const)
        diag_error(size->loc, "the array size must be an integral compile-time constant");
    else if (size->const_int < 1)
        diag_error(size->loc, "the array size must be at least 1, not %lld",
                   (long long)size->const_int);
    else
        t->size = size->const_int;
}

static void group_type(SemaInfo *si, Decl *d, Type *t)
{
    Ctx c = init_ctx(si, si->globals, false);
    Type *e = sema_resolve_type(&c, d->u.type.elem_type);
    if (!type_is_error(e) && e->kind != TY_NODE) {
        diag_error(d->u.type.elem_type.loc, "the base type of a group must be a node "
                   "type, not '%s'", e->name);
        e = err_type(si);
    }
    t->elem = e;
}

static void symbolic_type(Type *t)
{
    for (int i = 0; i < t->values.len; i++)
        VEC_AT(t->values, i, Symbol)->defined = true;
}

static Symbol *member(SemaInfo *si, Type *t, SymKind kind, Ident id, Decl *d)
{
    Symbol *m = sema_new_symbol(si, kind, id.name, id.loc);
    m->decl = d;
    m->owner = t;
    if (!sema_declare(si, t->members, m))
        return NULL;
    return m;
}

/* First pass over a structure type: declare every member. */
static void declare_members(SemaInfo *si, Decl *td, Type *t)
{
    Place place = t->kind == TY_NETWORK ? PL_NET_ELEM : PL_ELEM;
    for (int i = 0; i < td->u.type.elems.len; i++) {
        Decl *d = VEC_AT(td->u.type.elems, i, Decl);
        d->type = t;
        switch (d->kind) {
        case DECL_ELEM: {
            Type *et = element_type(si, t, d->u.data.type, place);
            for (int j = 0; j < d->u.data.ids.len; j++) {
                InitId *id = VEC_AT(d->u.data.ids, j, InitId);
                Symbol *m = member(si, t, SYM_ELEM, id->id, d);
                if (!m)
                    continue;
                m->type = et;
                m->init = id;
                m->defined = true;
                m->index = t->elems.len;
                id->sym = m;
                if (!d->sym)
                    d->sym = m;
                vec_push(si->arena, &t->elems, m);
                if (type_is_node_collection(et))
                    vec_push(si->arena, &t->groups, m);
            }
            break;
        }
        case DECL_IFACE: {
            Ctx c = init_ctx(si, si->globals, false);
            Type *it = sema_resolve_type(&c, d->u.iface.type);
            if (!type_is_error(it) && it->kind != TY_CONNECTION) {
                diag_error(d->u.iface.type.loc, "an interface must have a connection "
                           "type, not '%s'", it->name);
                it = err_type(si);
            }
            for (int j = 0; j < d->u.iface.names.len; j++) {
                Ident *id = VEC_AT(d->u.iface.names, j, Ident);
                Symbol *m = member(si, t, SYM_IFACE, *id, d);
                if (!m)
                    continue;
                m->type = it;
                m->mode = d->u.iface.mode;
                m->defined = true;
                m->index = t->ifaces.len;
                vec_push(si->arena, &t->ifaces, m);
                if (!d->sym)
                    d->sym = m;
            }
            break;
        }
        case DECL_PROC: case DECL_FUNC: {
            Symbol *m = member(si, t, d->kind == DECL_PROC ? SYM_OBJPROC : SYM_OBJFUNC,
                               d->u.subr.name, d);
            if (!m) {
                /* still analyse it, as an anonymous subroutine */
                m = sema_new_symbol(si, d->kind == DECL_PROC ? SYM_OBJPROC : SYM_OBJFUNC,
                                    d->u.subr.name.name, d->u.subr.name.loc);
                m->decl = d;
                m->owner = t;
            } else {
                m->index = t->subrs.len;
                vec_push(si->arena, &t->subrs, m);
            }
            m->cname = arena_printf(si->arena, "%s_%s", t->name, m->name);
            d->sym = m;
            subr_header(si, d, m);
            break;
        }
        case DECL_MERGE: {
            Symbol *m = sema_new_symbol(si, SYM_MERGE, intern_cstr(si->arena, "MERGE"),
                                        d->loc);
            m->decl = d;
            m->owner = t;
            m->cname = arena_printf(si->arena, "%s_merge", t->name);
            m->sub->an->scope = sema_scope_new(si, SCOPE_PARAMS, si->globals);
            m->sub->an->scope->subr = m;
            d->sym = m;
            if (t->merge) {
                diag_error(d->loc, "type '%s' has more than one MERGE procedure", t->name);
                diag_note(t->merge->loc, "the first MERGE procedure is here");
            } else {
                t->merge = m;
            }
            break;
        }
        default:
            cp_unreachable();
        }
    }
}

/* Second pass: element initializers and subroutine bodies, in order. */
static void analyze_members(SemaInfo *si, Decl *td)
{
    for (int i = 0; i < td->u.type.elems.len; i++) {
        Decl *d = VEC_AT(td->u.type.elems, i, Decl);
        if (d->kind == DECL_ELEM) {
            for (int j = 0; j < d->u.data.ids.len; j++) {
                InitId *id = VEC_AT(d->u.data.ids, j, InitId);
                if (!id->init || !id->sym)
                    continue;
                Symbol *m = id->sym;
                Ctx c = init_ctx(si, si->globals, true);
                if (type_is_node_collection(m->type)) {
                    diag_error(id->init->loc, "node group or array element '%s' cannot "
                               "have an initializer", m->name);
                    continue;
                }
                sema_value_to(&c, id->init, m->type, "the initializer");
            }
        } else if (d->kind == DECL_PROC || d->kind == DECL_FUNC || d->kind == DECL_MERGE) {
            Symbol *m = d->sym;
            vec_push(si->arena, &si->subrs, m);
            m->defined = true;
            subr_body(si, d, m);
        }
    }
}

/* The bytes bound of an element or array element type (set when its
 * definition was analysed; types are defined before use). */
static int64_t part_bytes(const Type *t)
{
    return t && t->bytes > 0 ? t->bytes : 8;
}

/* Bytes of one object of t, an upper bound (8-byte alignment of every
 * element); saturates above SEMA_MAX_OBJECT_BYTES.  Interfaces and groups
 * take no room in the record (docs/runtime-abi.md); a node array of a
 * network counts with the network. */
static int64_t bound_bytes(const Type *t)
{
    const int64_t over = SEMA_MAX_OBJECT_BYTES + 1;
    switch (t->kind) {
    case TY_ARRAY: {
        int64_t e = part_bytes(t->elem);
        return e > 0 && t->size > over / e ? over : t->size * e;
    }
    case TY_RECORD: case TY_NODE: case TY_CONNECTION: case TY_NETWORK: {
        int64_t sum = 8;
        for (int i = 0; i < t->elems.len; i++) {
            const Symbol *e = VEC_AT(t->elems, i, Symbol);
            if (!e->type || e->type->kind == TY_GROUP)
                continue;
            int64_t b = (part_bytes(e->type) + 7) / 8 * 8;
            sum = b >= over - sum ? over : sum + b;
        }
        return sum;
    }
    default:
        return part_bytes(t);
    }
}

static void check_size(Decl *d, Type *t)
{
    t->bytes = bound_bytes(t);
    if (t->bytes <= SEMA_MAX_OBJECT_BYTES)
        return;
    diag_error(d->u.type.name.loc, "type '%s' is too large: one object of it would take more "
               "than cupitc's limit of %lld bytes", t->name, (long long)SEMA_MAX_OBJECT_BYTES);
    t->bytes = 8; /* reported once, not again by every type containing it */
}

static void type_def(SemaInfo *si, Decl *d)
{
    Symbol *sym = d->sym;
    Type *t = d->type;
    sym->defined = true; /* visible from its own TYPE X IS onward (§1.3) */
    switch (d->u.type.body) {
    case TDEF_SYMBOLIC: symbolic_type(t); break;
    case TDEF_ARRAY: array_type(si, d, t); break;
    case TDEF_GROUP: group_type(si, d, t); break;
    default:
        declare_members(si, d, t);
        t->complete = true;
        analyze_members(si, d);
        break;
    }
    t->complete = true;
    if (t->kind == TY_SYMBOLIC)
        t->bytes = 4;
    else if (t->kind != TY_GROUP)
        check_size(d, t);
    vec_push(si->arena, &si->types, t);
}

/* ---- the two passes ------------------------------------------------------- */

static TypeKind kind_of_body(TypeDefKind k)
{
    switch (k) {
    case TDEF_SYMBOLIC: return TY_SYMBOLIC;
    case TDEF_RECORD: return TY_RECORD;
    case TDEF_NODE: return TY_NODE;
    case TDEF_CONNECTION: return TY_CONNECTION;
    case TDEF_ARRAY: return TY_ARRAY;
    case TDEF_GROUP: return TY_GROUP;
    default: return TY_NETWORK;
    }
}

static void declare_global(SemaInfo *si, Symbol *sym)
{
    sym->is_global = true;
    sema_declare(si, si->globals, sym);
}

void sema_declare_globals(SemaInfo *si, Program *prog)
{
    for (int i = 0; i < prog->parts.len; i++) {
        Decl *d = VEC_AT(prog->parts, i, Decl);
        switch (d->kind) {
        case DECL_TYPE: {
            Ident n = d->u.type.name;
            Type *t = sema_new_type(si, kind_of_body(d->u.type.body), n.name);
            Symbol *sym = sema_new_symbol(si, SYM_TYPE, n.name, n.loc);
            t->decl = d;
            t->sym = sym;
            sym->decl = d;
            sym->type = t;
            d->sym = sym;
            d->type = t;
            if (t->kind != TY_SYMBOLIC && t->kind != TY_ARRAY && t->kind != TY_GROUP) {
                t->members = sema_scope_new(si, SCOPE_TYPE, NULL);
                t->members->owner = t;
            }
            declare_global(si, sym);
            for (int j = 0; j < d->u.type.enums.len; j++) {
                Ident *e = VEC_AT(d->u.type.enums, j, Ident);
                Symbol *v = sema_new_symbol(si, SYM_ENUM, e->name, e->loc);
                v->decl = d;
                v->type = v->owner = t;
                v->index = t->values.len;
                v->cname = arena_printf(si->arena, "%s_%s", n.name, e->name);
                vec_push(si->arena, &t->values, v);
                declare_global(si, v);
            }
            break;
        }
        case DECL_DATA:
            for (int j = 0; j < d->u.data.ids.len; j++) {
                InitId *id = VEC_AT(d->u.data.ids, j, InitId);
                Symbol *sym = sema_new_symbol(si, access_kind(d->u.data.access),
                                              id->id.name, id->id.loc);
                sym->decl = d;
                sym->init = id;
                sym->access = d->u.data.access;
                id->sym = sym;
                declare_global(si, sym);
            }
            break;
        case DECL_PROC: case DECL_FUNC: case DECL_REDUCTION: case DECL_WTA: {
            static const SymKind kinds[] = {
                [DECL_PROC] = SYM_PROC, [DECL_FUNC] = SYM_FUNC,
                [DECL_REDUCTION] = SYM_REDUCTION, [DECL_WTA] = SYM_WTA,
            };
            Ident n = d->u.subr.name;
            Symbol *sym = sema_new_symbol(si, kinds[d->kind], n.name, n.loc);
            sym->decl = d;
            d->sym = sym;
            declare_global(si, sym);
            if (sym->kind == SYM_PROC && n.name == intern_cstr(si->arena, "program"))
                sym->sub->is_central_agent = true;
            break;
        }
        default:
            cp_unreachable();
        }
    }
}

/* Room for every subroutine and type in si->subrs and si->types: they are
   filled between other allocations, so growing them would leave each old
   array behind. */
static void reserve_lists(SemaInfo *si, const Program *prog)
{
    int subrs = 0, types = 0;
    for (int i = 0; i < prog->parts.len; i++) {
        const Decl *d = VEC_AT(prog->parts, i, Decl);
        if (d->kind == DECL_DATA)
            continue;
        if (d->kind != DECL_TYPE) {
            subrs++;
            continue;
        }
        types++;
        for (int j = 0; j < d->u.type.elems.len; j++) {
            DeclKind k = VEC_AT(d->u.type.elems, j, Decl)->kind;
            subrs += k == DECL_PROC || k == DECL_FUNC || k == DECL_MERGE;
        }
    }
    vec_reserve(si->arena, &si->subrs, si->subrs.len + subrs);
    vec_reserve(si->arena, &si->types, si->types.len + types);
}

void sema_analyze_parts(SemaInfo *si, Program *prog)
{
    reserve_lists(si, prog);
    for (int i = 0; i < prog->parts.len; i++) {
        Decl *d = VEC_AT(prog->parts, i, Decl);
        switch (d->kind) {
        case DECL_TYPE: type_def(si, d); break;
        case DECL_DATA: {
            Ctx c = init_ctx(si, si->globals, false);
            data_decl(&c, d, true);
            break;
        }
        default: global_subr(si, d); break;
        }
    }
}
