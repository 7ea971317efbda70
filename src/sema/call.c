/* call.c -- procedure and function calls (semantics.md §4, §5.2, §8.3).
 *
 * Resolves the callee, classifies the call (plain, object, group,
 * replicates), applies the call-level table of §5.2 and the parameter rules
 * (CONST/VAR/IO, the VAR-parameter rule for object procedures), and records
 * calls of global subroutines for the central-agent computation. */
#include <string.h>

#include "sema_internal.h"
#include "cupitc/stdlib_sigs.h"

static Type *fail(Ctx *c, Expr *e)
{
    e->type = c->si->builtin[TY_ERROR];
    e->cat = VC_NONE;
    return e->type;
}

/* Analyses arguments for their own errors only (the call itself is wrong). */
static void scan_args(Ctx *c, PtrVec *args)
{
    for (int i = 0; i < args->len; i++)
        sema_analyze_expr(c, VEC_AT(*args, i, Expr));
}

static void note_declared(const Symbol *callee)
{
    if (callee->decl)
        diag_note(callee->loc, "'%s' is defined here", callee->name);
}

void sema_check_args(Ctx *c, Symbol *callee, PtrVec *args, Loc at)
{
    int n = callee->sub->params.len;
    if (args->len != n) {
        diag_error(at, "'%s' expects %d argument%s, but %d %s given", callee->name, n,
                   n == 1 ? "" : "s", args->len, args->len == 1 ? "was" : "were");
        note_declared(callee);
        scan_args(c, args);
        return;
    }
    for (int i = 0; i < n; i++) {
        Expr *a = VEC_AT(*args, i, Expr);
        Symbol *f = VEC_AT(callee->sub->params, i, Symbol);
        if (f->access == ACCESS_CONST && type_is_node_array(f->type)) {
            /* EXTERNAL subroutines may take a whole node array (§2.4) */
            Type *t = sema_analyze_expr(c, a);
            if (!type_is_error(t) && (a->cat != VC_OBJECT || t != f->type)) {
                diag_error(a->loc, "argument %d of '%s' must be a node array of type %s",
                           i + 1, callee->name, f->type->name);
                continue;
            }
            /* its nodes, like a single node of it (expr.c, subscript_expr) */
            if (!type_is_error(t) && c->kind == CTX_MERGE)
                diag_error(a->loc, "a node array cannot be used in a MERGE procedure (it "
                           "merges the data elements of two replicates, outside any "
                           "network call)");
            else if (!type_is_error(t))
                sema_note_net_use(c, a->loc, "a node array");
            continue;
        }
        if (f->access == ACCESS_CONST) {
            Type *t = sema_value(c, a);
            if (!type_is_error(t) && !type_is_error(f->type) &&
                !type_assignable(f->type, t))
                diag_error(a->loc, "argument %d of '%s' has type %s, but parameter '%s' "
                           "has type %s%s", i + 1, callee->name, t->name, f->name,
                           f->type->name, sema_mismatch_hint(f->type, t));
            continue;
        }
        Type *t = sema_analyze_expr(c, a);
        if (type_is_error(t) || type_is_error(f->type))
            continue;
        if (f->access == ACCESS_IO) {
            if (!sema_is_io_area(a) || t != f->type)
                diag_error(a->loc, "argument %d of '%s' must be an I/O area (IO object) "
                           "of type %s for IO parameter '%s'", i + 1, callee->name,
                           f->type->name, f->name);
            continue;
        }
        if (a->cat != VC_OBJECT || sema_is_io_area(a) || sema_is_iface(a)) {
            diag_error(a->loc, "argument %d of '%s' must be a variable: it is passed "
                       "to VAR parameter '%s'", i + 1, callee->name, f->name);
            continue;
        }
        if (!sema_check_writable(c, a, "pass", " to a VAR parameter"))
            continue;
        sema_note_set(c, a);
        if (t != f->type)
            diag_error(a->loc, "argument %d of '%s' has type %s, but VAR parameter '%s' "
                       "needs exactly %s", i + 1, callee->name, t->name, f->name,
                       f->type->name);
    }
}

/* Explains why a subroutine belongs to the central agent (§5.1). */
static void note_ca_reason(const Symbol *s)
{
    if (stdlib_uses_networks(s)) {
        diag_note(s->loc, "'%s' belongs to the central agent because it reads or writes "
                  "every network variable", s->name);
        return;
    }
    if (s->sub->mentions_network) {
        diag_note(s->loc, "'%s' belongs to the central agent because it uses a network "
                  "variable", s->name);
        return;
    }
    for (int i = 0; i < s->sub->an->callees.len; i++) {
        const Symbol *callee = VEC_AT(s->sub->an->callees, i, Symbol);
        if (callee->sub->is_central_agent) {
            diag_note(s->loc, "'%s' belongs to the central agent because it calls '%s', "
                      "which does", s->name, callee->name);
            return;
        }
    }
    note_declared(s);
}

void sema_note_global_call(Ctx *c, Symbol *callee, Loc at)
{
    if (ctx_is_parallel(c) && callee->sub->is_central_agent) {
        diag_error(at, "'%s' belongs to the central agent and cannot be called from %s",
                   callee->name, sema_ctx_desc(c));
        note_ca_reason(callee);
        return;
    }
    callee->sub->called = true;
    if (!c->subr)
        callee->sub->called_in_init = true;
    /* Bodies are analysed one at a time, so remembering the last caller is
     * enough to record each callee once. */
    if (!c->subr || callee->sub->an->last_caller == c->subr)
        return;
    callee->sub->an->last_caller = c->subr;
    vec_push(c->si->temp, &c->subr->sub->an->callees, callee);
}

void sema_check_var_param_rule(Ctx *c, Symbol *callee, Loc at)
{
    if (callee->kind != SYM_OBJPROC || c->owner == callee->owner)
        return;
    for (int i = 0; i < callee->sub->params.len; i++) {
        Symbol *p = VEC_AT(callee->sub->params, i, Symbol);
        if (p->access == ACCESS_VAR) {
            diag_error(at, "'%s' has a VAR parameter and can only be called from "
                       "subroutines of type '%s'", callee->name, callee->owner->name);
            diag_note(p->loc, "VAR parameter '%s' is here", p->name);
            return;
        }
    }
}

/* ---- plain calls ---------------------------------------------------------- */

/* The standard functions that read --param (their calls are listed in a
 * generated program's --help). */
static bool is_param_function(const char *name)
{
    return strcmp(name, "intParam") == 0 || strcmp(name, "realParam") == 0 ||
           strcmp(name, "intParamIn") == 0 || strcmp(name, "realParamIn") == 0;
}

/* A call of an object procedure or function as if it were global
   (`build ()` in the central agent): say whose it is and how to call it. */
static void object_subr_note(Ctx *c, Ident f)
{
    for (int i = 0; i < c->si->types.len; i++) {
        Type *t = VEC_AT(c->si->types, i, Type);
        Symbol *m = t->members ? sema_scope_find(t->members, f.name) : NULL;
        if (!m || (m->kind != SYM_OBJPROC && m->kind != SYM_OBJFUNC))
            continue;
        const char *what = m->kind == SYM_OBJPROC ? "procedure" : "function";
        for (int k = 0; k < c->si->data.len; k++) {
            Symbol *d = VEC_AT(c->si->data, k, Symbol);
            if (d->type == t) {
                diag_note(f.loc, "'%s' is an object %s of type '%s': call it on an object "
                          "of that type, e.g. %s.%s (...)", f.name, what, t->name, d->name,
                          f.name);
                return;
            }
        }
        diag_note(f.loc, "'%s' is an object %s of type '%s': call it on an object of "
                  "that type (obj.%s (...))", f.name, what, t->name, f.name);
        return;
    }
}

static Type *plain_call(Ctx *c, Expr *e, bool as_stmt)
{
    Ident f = e->u.call.callee;
    PtrVec *args = &e->u.call.args;
    Symbol *sym = sema_scope_lookup(c->scope, f.name);
    if (!sym || !sym->defined) {
        if (!(c->undefined && sema_scope_find(c->undefined, f.name))) {
            if (sym) {
                diag_error(f.loc, "'%s' is used before its definition", f.name);
                diag_note(sym->loc, "'%s' is defined here", f.name);
            } else if (c->me_type && c->me_type->members &&
                       sema_scope_find(c->me_type->members, f.name)) {
                diag_error(f.loc, "'%s' belongs to type '%s' and must be called on an "
                           "object: write ME.%s (...)", f.name, c->me_type->name, f.name);
            } else {
                diag_error(f.loc, "undefined procedure or function '%s'", f.name);
                const StdSubr *std = stdlib_find(f.name);
                const char *near = std ? NULL : sema_closest_in(c->scope, f.name, SYMS_SUBR,
                                                                 true, true);
                if (std)
                    diag_note(f.loc, "'%s' is in the standard library; declare it before "
                              "its first use: %s", f.name, stdlib_decl(std));
                else if (near && stdlib_find(near) && !sema_scope_lookup(c->scope, near))
                    diag_note(f.loc, "did you mean the standard library's '%s'? (declare it: %s)",
                              near, stdlib_decl(stdlib_find(near)));
                else if (near)
                    diag_note(f.loc, "did you mean '%s'?", near);
                else
                    object_subr_note(c, f);
            }
            if (c->undefined)
                sema_scope_add(c->si, c->undefined,
                               sema_new_symbol(c->si, SYM_PROC, f.name, f.loc));
        }
        scan_args(c, args);
        return fail(c, e);
    }
    if (sym->redefined) {
        scan_args(c, args);
        return fail(c, e);
    }
    switch (sym->kind) {
    case SYM_PROC:
        if (!as_stmt) {
            diag_error(f.loc, "procedure '%s' cannot be called in an expression: it "
                       "returns no value", f.name);
            scan_args(c, args);
            return fail(c, e);
        }
        break;
    case SYM_FUNC:
        if (as_stmt) {
            diag_error(f.loc, "function '%s' cannot be called as a statement (its "
                       "result would be lost)", f.name);
            scan_args(c, args);
            return fail(c, e);
        }
        break;
    case SYM_REDUCTION: case SYM_WTA:
        diag_error(f.loc, "'%s' is a %s; it can only be named in a %s statement",
                   f.name, sema_sym_what(sym),
                   sym->kind == SYM_WTA ? "WTA" : "REDUCTION");
        scan_args(c, args);
        return fail(c, e);
    default:
        diag_error(f.loc, "'%s' is a %s, not a procedure or function", f.name,
                   sema_sym_what(sym));
        scan_args(c, args);
        return fail(c, e);
    }
    e->sym = sym;
    e->call_kind = CALL_PLAIN;
    sema_check_args(c, sym, args, f.loc);
    sema_note_global_call(c, sym, f.loc);
    if (sym->sub->external && is_param_function(sym->name))
        vec_push(c->si->arena, &c->si->param_calls, e);
    e->type = sym->sub->result;
    e->cat = sym->sub->result ? VC_VALUE : VC_NONE;
    return e->type;
}

/* ---- object calls --------------------------------------------------------- */

static bool same_level_object(const Expr *obj)
{
    return obj->kind == EXPR_ME || obj->kind == EXPR_YOU;
}

static bool group_calls_allowed(const Ctx *c)
{
    return ctx_is_global_subr(c) || c->kind == CTX_NETP || c->kind == CTX_NETF ||
           c->kind == CTX_NODEP || c->kind == CTX_NODEF;
}

/* Owner-level contexts: the type's own subroutines and its MERGE. */
static bool in_own_level(const Ctx *c, TypeKind level)
{
    if (c->kind == CTX_MERGE)
        return c->owner && c->owner->kind == level;
    switch (level) {
    case TY_NETWORK: return c->kind == CTX_NETP || c->kind == CTX_NETF;
    case TY_NODE: return c->kind == CTX_NODEP || c->kind == CTX_NODEF;
    case TY_CONNECTION: return c->kind == CTX_CONP || c->kind == CTX_CONF;
    default: return false;
    }
}

static const char *level_name(TypeKind k)
{
    switch (k) {
    case TY_NETWORK: return "network";
    case TY_NODE: return "node";
    case TY_CONNECTION: return "connection";
    default: return "record";
    }
}

/* §5.2: may the current context call method m on obj?  Sets call_kind. */
static bool check_level(Ctx *c, Expr *e, Expr *obj, Symbol *m, bool multi)
{
    TypeKind level = m->owner->kind;
    bool func = m->kind == SYM_OBJFUNC;
    const char *what = func ? "function" : "procedure";
    Loc at = e->u.objcall.method.loc;
    if (level == TY_RECORD) {
        e->call_kind = CALL_OBJECT;
        return true;
    }
    if (level == TY_NETWORK && ctx_is_central(c) && sema_network_root(obj) &&
        (obj->kind == EXPR_NAME || obj->kind == EXPR_SUBSCRIPT ||
         obj->kind == EXPR_ALLSLICE)) {
        bool one = obj->cat == VC_OBJECT && (func || obj->kind == EXPR_SUBSCRIPT);
        e->call_kind = one ? CALL_OBJECT : CALL_REPLICATES;
        return true;
    }
    if (in_own_level(c, level) && same_level_object(obj)) {
        e->call_kind = CALL_OBJECT;
        return true;
    }
    if (level == TY_NODE && (c->kind == CTX_NETP || c->kind == CTX_NETF) && !func) {
        e->call_kind = multi ? CALL_GROUP : CALL_OBJECT;
        return true;
    }
    if (level == TY_CONNECTION && (c->kind == CTX_NODEP || c->kind == CTX_NODEF) &&
        !func && multi && sema_is_iface(obj->kind == EXPR_ALLSLICE ? obj->u.allslice.obj : obj)) {
        e->call_kind = CALL_GROUP;
        return true;
    }
    if (func && ((level == TY_NODE && (c->kind == CTX_NETP || c->kind == CTX_NETF)) ||
                 (level == TY_CONNECTION && (c->kind == CTX_NODEP || c->kind == CTX_NODEF))))
        diag_error(at, "%s function '%s' cannot be called from %s: function calls "
                   "never go down a level", level_name(level), m->name, sema_ctx_desc(c));
    else
        diag_error(at, "%s %s '%s' cannot be called from %s", level_name(level), what,
                   m->name, sema_ctx_desc(c));
    return false;
}

/* S-43 for a call of m, a function that changes its ME, on the read-only
 * object obj. */
static bool changing_function_target(Ctx *c, Expr *obj, const Symbol *m)
{
    char verb[256];
    snprintf(verb, sizeof verb, "call '%s', a function that calls a procedure on its ME, on",
             m->name);
    return sema_check_writable(c, obj, verb, "");
}

/* Object procedure calls may not change a read-only object (CONST record,
 * YOU, ME of a reduction/WTA function); object functions may still call
 * procedures on ME (semantics.md §12).  Such a function changes the object
 * it is called on, so it is called on a read-only object under the same
 * rule as a procedure. */
static bool check_call_target(Ctx *c, Expr *obj, Symbol *m)
{
    bool changes = m->kind == SYM_OBJPROC || (m->kind == SYM_OBJFUNC && m->sub->changes_me);
    Expr *root = sema_object_root(obj);
    bool exempt = root->kind == EXPR_ME && c->kind != CTX_RED && c->kind != CTX_WTA;
    if (!changes) {
        /* the function being analysed called on another object: whether it
           changes its ME is known only after its body (sema_check_self_calls) */
        if (m == c->subr && m->kind == SYM_OBJFUNC && obj->read_only && !exempt)
            vec_push(c->si->temp, &m->sub->an->self_calls, obj);
        return true;
    }
    if (root->kind == EXPR_ME && c->subr && c->subr->kind == SYM_OBJFUNC)
        c->subr->sub->changes_me = true;
    if (!obj->read_only || exempt)
        return true;
    if (m->kind == SYM_OBJPROC)
        return sema_check_writable(c, obj, "call a procedure on", "");
    return changing_function_target(c, obj, m);
}

void sema_check_self_calls(Ctx *c)
{
    Symbol *f = c->subr;
    if (!f || f->kind != SYM_OBJFUNC || !f->sub->changes_me)
        return;
    for (int i = 0; i < f->sub->an->self_calls.len; i++)
        changing_function_target(c, VEC_AT(f->sub->an->self_calls, i, Expr), f);
}

/* ObjectProcedureCall -> Object "." ObjectProcedureId "(" ArgumentList ")";
 * also object function calls (§5.2, §6.4) */
static Type *object_call(Ctx *c, Expr *e, bool as_stmt, bool in_multi)
{
    Expr *obj = e->u.objcall.obj;
    Ident mid = e->u.objcall.method;
    PtrVec *args = &e->u.objcall.args;
    Type *ot = sema_analyze_expr(c, obj);
    if (type_is_error(ot)) {
        scan_args(c, args);
        return fail(c, e);
    }
    if (sema_grid_row_to_pv(c, obj)) /* X.g[i].p () of a grid: its row, leniently */
        ot = obj->type;
    if (obj->cat == VC_CONNADDR || obj->cat == VC_PVS || obj->cat == VC_VALUE) {
        if (obj->cat == VC_CONNADDR)
            diag_error(mid.loc, "a connection address cannot be the object of a call");
        else if (obj->cat == VC_PVS)
            diag_error(mid.loc, "a parallel variable selection cannot be the object "
                       "of a call");
        else
            diag_error(mid.loc, "'%s' cannot be called on a value", mid.name);
        scan_args(c, args);
        return fail(c, e);
    }
    bool multi = sema_is_multitude(obj);
    Type *et = obj->cat == VC_OBJECT && type_is_node_collection(ot) ? type_node_of(ot) : ot;
    Symbol *m = type_is_structure(et) ? sema_scope_find(et->members, mid.name) : NULL;
    if (!m || m->redefined || m->kind == SYM_ELEM || m->kind == SYM_IFACE) {
        if (m && m->redefined)
            ; /* the duplicate definition has been reported */
        else if (!type_is_structure(et))
            diag_error(mid.loc, "an object of type %s has no object procedures or "
                       "functions", et->name);
        else if (m)
            diag_error(mid.loc, "'%s' is an %s of '%s', not an object procedure or "
                       "function", mid.name, sema_sym_what(m), et->name);
        else if (sema_report_once(c, et, mid.name)) {
            diag_error(mid.loc, "type '%s' has no object procedure or function '%s'",
                       et->name, mid.name);
            const char *near = sema_closest_in(et->members, mid.name,
                                               SYMS(SYM_OBJPROC) | SYMS(SYM_OBJFUNC), false, false);
            if (near)
                diag_note(mid.loc, "did you mean '%s'?", near);
        }
        scan_args(c, args);
        return fail(c, e);
    }
    if (!m->defined) {
        diag_error(mid.loc, "'%s' is used before its definition", mid.name);
        note_declared(m);
        scan_args(c, args);
        return fail(c, e);
    }
    sema_note_obj_call(c, m);
    bool func = m->kind == SYM_OBJFUNC;
    if (func && obj->kind == EXPR_NAME)
        multi = false; /* net.f(): the first replicate's result (§5.2) */
    bool bad = false;
    if (in_multi && func) {
        diag_error(mid.loc, "each part of a multi-object call must call an object "
                   "procedure; '%s' is a function", mid.name);
        bad = true;
    } else if (as_stmt && func) {
        diag_error(mid.loc, "object function '%s' cannot be called as a statement (its "
                   "result would be lost)", mid.name);
        bad = true;
    } else if (!as_stmt && !func) {
        diag_error(mid.loc, "object procedure '%s' cannot be called in an expression: "
                   "it returns no value", mid.name);
        bad = true;
    } else if (multi && func) {
        diag_error(mid.loc, "object function '%s' cannot be called on a parallel "
                   "variable (it would yield many values)", mid.name);
        bad = true;
    } else if (multi && !group_calls_allowed(c)) {
        diag_error(mid.loc, "group procedure calls are not allowed in %s",
                   sema_ctx_desc(c));
        bad = true;
    } else if (!check_level(c, e, obj, m, multi)) {
        bad = true;
    } else if (!check_call_target(c, obj, m)) {
        bad = true;
    }
    if (bad) {
        scan_args(c, args);
        return fail(c, e);
    }
    e->sym = m;
    if (multi)
        sema_note_net_use(c, e->loc, "a group procedure call");
    else if (c->subr && (obj->kind == EXPR_ME || obj->kind == EXPR_YOU) && m->owner &&
             m->owner->kind != TY_RECORD)
        vec_push(c->si->temp, &c->subr->sub->an->me_calls, e);
    sema_check_var_param_rule(c, m, mid.loc);
    sema_check_args(c, m, args, mid.loc);
    e->type = m->sub->result;
    e->cat = m->sub->result ? VC_VALUE : VC_NONE;
    return e->type;
}

Type *sema_call(Ctx *c, Expr *e, bool as_stmt, bool in_multi)
{
    if (e->kind == EXPR_CALL)
        return plain_call(c, e, as_stmt);
    return object_call(c, e, as_stmt, in_multi);
}
