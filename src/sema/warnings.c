/* warnings.c -- the warnings of -Wall (docs/front-end.md).
 *
 * Analysis counts how each data object and parameter is used (reads,
 * writes) and how each element is stored to; after analysis these counts
 * give:
 *   -Wunused-variable        a local data object never named
 *   -Wunused-but-set-variable a local assigned (or reduced into), never read
 *   -Wunused-parameter       a parameter of a subroutine with a body, never named
 *   -Wmerge-accumulates      an element that a MERGE procedure adds up
 *                            (ME.e += YOU.e) and that other code only adds to:
 *                            after each MERGE every replicate holds the sum,
 *                            so it grows without bound unless reset.  A
 *                            store of a whole object, a VAR argument and
 *                            an input assignment count as resets; in an
 *                            object subroutine only if it can run (a global
 *                            subroutine, an initializer or a MERGE
 *                            procedure calls it, maybe through others).
 *   -Wreal-infinity          a real denoter beyond the largest Real
 *                            (1.0e39), or a constant expression that
 *                            overflows Real (1.0e38 * 10.0): its value is
 *                            infinity (docs/lexical.md)
 *   -Wnarrow-shift           (-Wextra only: `1 LSHIFT i` in a loop to 3 is
 *                            fine) `1 LSHIFT k` with k not constant: its
 *                            type is the left operand's, Int1 for the
 *                            denoter 1 (§9), so it wraps beyond 127 */
#include <string.h>

#include "sema_internal.h"

/* Whether e names element elem somewhere (ME.e := ME.e + x is an update). */
static bool mentions_elem(const Expr *e, const Symbol *elem)
{
    if (!e)
        return false;
    switch (e->kind) {
    case EXPR_SELECT: return e->sym == elem || mentions_elem(e->u.select.obj, elem);
    case EXPR_UNARY: return mentions_elem(e->u.unary.operand, elem);
    case EXPR_BINARY:
        return mentions_elem(e->u.binary.lhs, elem) || mentions_elem(e->u.binary.rhs, elem);
    case EXPR_TERNARY:
        return mentions_elem(e->u.ternary.cond, elem) || mentions_elem(e->u.ternary.then_e, elem) ||
               mentions_elem(e->u.ternary.else_e, elem);
    default: return false;
    }
}

static bool is_object_subr(const Symbol *s)
{
    return s && (s->kind == SYM_OBJPROC || s->kind == SYM_OBJFUNC);
}

/* Element elem is reset here: at once in a global subroutine or an
 * initializer, in an object subroutine only if it can run (sema_warnings
 * decides that after analysis: a procedure that nothing calls resets
 * nothing). */
static void note_reset(Ctx *c, Symbol *elem)
{
    if (is_object_subr(c->subr))
        vec_push(c->si->temp, &c->subr->sub->an->resets, elem);
    else
        sema_use(c->si, elem)->elem_reset = true;
}

/* A store of a whole object of type t (ME := U (...), a record, an array
 * of records) sets every element inside it. */
static void note_whole_set(Ctx *c, const Type *t)
{
    if (!t)
        return;
    if (t->kind == TY_ARRAY) {
        note_whole_set(c, t->elem);
        return;
    }
    if (t->kind != TY_RECORD && t->kind != TY_NODE && t->kind != TY_CONNECTION)
        return;
    for (int i = 0; i < t->elems.len; i++) {
        Symbol *e = VEC_AT(t->elems, i, Symbol);
        note_reset(c, e);
        note_whole_set(c, e->type); /* finite: no type contains itself (S-20) */
    }
}

void sema_note_set(Ctx *c, Expr *obj)
{
    if (!obj || c->kind == CTX_MERGE)
        return;
    if (obj->kind == EXPR_SELECT && obj->sym && obj->sym->kind == SYM_ELEM)
        note_reset(c, obj->sym);
    note_whole_set(c, obj->type);
}

void sema_note_input(Ctx *c, const Symbol *elem)
{
    note_reset(c, (Symbol *)elem);
    note_whole_set(c, elem->type);
}

void sema_note_obj_call(Ctx *c, Symbol *m)
{
    if (!is_object_subr(m))
        return;
    if (is_object_subr(c->subr))
        vec_push(c->si->temp, &c->subr->sub->an->obj_callees, m);
    else
        sema_use(c->si, m)->reached = true; /* called by a global subroutine,
                                               an initializer or a MERGE */
}

void sema_note_store(Ctx *c, Expr *target, AssignOp op, Expr *value)
{
    if (!target)
        return;
    if (op == ASSIGN_SET && c->kind != CTX_MERGE)
        note_whole_set(c, target->type);
    if (!target->sym)
        return;
    Symbol *sym = target->sym;
    SymUse *use = sema_use(c->si, sym);
    if (target->kind == EXPR_NAME) {
        if (op == ASSIGN_SET) {
            use->reads--; /* counted as a read by the name's analysis */
            use->writes++;
        }
        return;
    }
    if (target->kind != EXPR_SELECT || sym->kind != SYM_ELEM)
        return;
    if (c->kind == CTX_MERGE) {
        Expr *v = value;
        if (op == ASSIGN_ADD && v && v->kind == EXPR_SELECT && v->sym == sym &&
            v->u.select.obj->kind == EXPR_YOU && target->u.select.obj->kind == EXPR_ME)
            use->merge_sum = target->loc;
        return;
    }
    if (op == ASSIGN_ADD || (op == ASSIGN_SET && mentions_elem(value, sym)))
        use->elem_added = true;
    else
        note_reset(c, sym);
}

static bool has_body(const Symbol *s)
{
    return s->decl && !s->sub->external && s->decl->u.subr.body;
}

static void locals(SemaInfo *si, const Symbol *subr, unsigned which)
{
    for (int i = 0; i < subr->sub->an->locals.len; i++) {
        const Symbol *v = VEC_AT(subr->sub->an->locals, i, Symbol);
        if (!v->name || v->redefined)
            continue;
        const SymUse *use = sema_use(si, v);
        if (v->kind == SYM_PARAM) {
            if (use->reads <= 0 && use->writes == 0 && (which & SEMA_WARN_UNUSED_PARAMETER))
                diag_warning(v->loc, "unused parameter '%s' [-Wunused-parameter]", v->name);
        } else if (use->reads <= 0 && use->writes == 0) {
            if (which & SEMA_WARN_UNUSED_VARIABLE)
                diag_warning(v->loc, "unused variable '%s' [-Wunused-variable]", v->name);
        } else if (use->reads <= 0 && (which & SEMA_WARN_UNUSED_BUT_SET)) {
            diag_warning(v->loc, "variable '%s' is set but never read "
                         "[-Wunused-but-set-variable]", v->name);
        }
    }
}

/* The resets of the object subroutines that can run: those that global
 * subroutines, initializers and MERGE procedures call, and those that these
 * call in turn. */
static void reached_resets(SemaInfo *si)
{
    PtrVec work = {0};
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (is_object_subr(s) && sema_use(si, s)->reached)
            vec_push(si->temp, &work, s);
    }
    while (work.len > 0) {
        Symbol *s = VEC_AT(work, --work.len, Symbol);
        if (!s->sub->an)
            continue;
        for (int i = 0; i < s->sub->an->resets.len; i++)
            sema_use(si, VEC_AT(s->sub->an->resets, i, Symbol))->elem_reset = true;
        for (int i = 0; i < s->sub->an->obj_callees.len; i++) {
            Symbol *callee = VEC_AT(s->sub->an->obj_callees, i, Symbol);
            SymUse *use = sema_use(si, callee);
            if (!use->reached) {
                use->reached = true;
                vec_push(si->temp, &work, callee);
            }
        }
    }
}

static void merge_counters(SemaInfo *si, const Type *t)
{
    for (int i = 0; i < t->elems.len; i++) {
        const Symbol *e = VEC_AT(t->elems, i, Symbol);
        const SymUse *use = sema_use(si, e);
        if (use->merge_sum.line > 0 && use->elem_added && !use->elem_reset) {
            diag_warning(use->merge_sum, "MERGE adds up '%s', which the program only ever adds "
                         "to: after each MERGE every replicate holds the sum, so it grows "
                         "without bound [-Wmerge-accumulates]", e->name);
            diag_note(e->loc, "reset '%s' (e.g. ME.%s := 0) after each MERGE, or merge it "
                      "another way", e->name, e->name);
        }
    }
}

unsigned sema_warning_flags(const char *name)
{
    static const struct { const char *name; unsigned flags; } names[] = {
        {"all", SEMA_WARN_ALL},
        {"extra", SEMA_WARN_EXTRA},
        {"unused", SEMA_WARN_UNUSED_VARIABLE | SEMA_WARN_UNUSED_BUT_SET |
                   SEMA_WARN_UNUSED_PARAMETER},
        {"unused-variable", SEMA_WARN_UNUSED_VARIABLE},
        {"unused-but-set-variable", SEMA_WARN_UNUSED_BUT_SET},
        {"unused-parameter", SEMA_WARN_UNUSED_PARAMETER},
        {"merge-accumulates", SEMA_WARN_MERGE_ACCUMULATES},
        {"real-infinity", SEMA_WARN_REAL_INFINITY},
        {"narrow-shift", SEMA_WARN_NARROW_SHIFT},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].flags;
    return 0;
}

void sema_warnings(Program *prog, unsigned which)
{
    SemaInfo *si = prog->sema;
    if (!si || !si->temp)
        return;
    for (int i = 0; i < si->subrs.len; i++) {
        const Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (has_body(s))
            locals(si, s, which);
    }
    if (which & SEMA_WARN_MERGE_ACCUMULATES)
        reached_resets(si);
    if (which & SEMA_WARN_MERGE_ACCUMULATES)
        for (int i = 0; i < si->types.len; i++)
            merge_counters(si, VEC_AT(si->types, i, Type));
    for (int i = 0; (which & SEMA_WARN_REAL_INFINITY) && i < si->inf_reals.len; i++) {
        const Expr *e = VEC_AT(si->inf_reals, i, Expr);
        if (e->kind != EXPR_REAL)
            diag_warning(e->loc, "this constant expression overflows Real (beyond "
                         "3.4028235e+38): its value is infinity [-Wreal-infinity]");
        else
            diag_warning(e->loc, "real denoter '%s' is beyond the largest Real (3.4028235e+38): "
                         "its value is infinity [-Wreal-infinity]",
                         e->u.real_lit.spelling ? e->u.real_lit.spelling : "?");
    }
    for (int i = 0; (which & SEMA_WARN_NARROW_SHIFT) && i < si->narrow_shifts.len; i++) {
        const Expr *e = VEC_AT(si->narrow_shifts, i, Expr);
        bool one = e->type->kind == TY_INT1;
        diag_warning(e->loc, "this LSHIFT has type %s, the type of its left operand (a "
                     "denoter): it wraps beyond %d; write Int (...) LSHIFT ... for an Int "
                     "[-Wnarrow-shift]", e->type->name, one ? 127 : 32767);
    }
}
