/* sema.c -- the entry point of semantic analysis.
 *
 * Builds the predefined environment, declares and analyses every
 * definition (decls.c), checks the `program` procedure (§1.2) and
 * classifies the global subroutines into central agent and free (§5.1). */
#include "sema_internal.h"

SemaInfo *sema_info_new(Arena *arena)
{
    SemaInfo *si = arena_alloc(arena, sizeof *si);
    si->arena = arena;
    si->temp = arena_new_child(arena);
    si->globals = sema_scope_new(si, SCOPE_GLOBAL, NULL);
    si->reported = sema_scope_new(si, SCOPE_BLOCK, NULL);
    sema_make_builtins(si);
    for (TypeKind k = TY_INT1; k <= TY_REALERVAL; k++) {
        Type *t = si->builtin[k];
        Symbol *sym = sema_new_symbol(si, SYM_TYPE, t->name, (Loc){0});
        sym->type = t;
        sym->defined = true;
        sym->is_global = true;
        t->sym = sym;
        sema_scope_add(si, si->globals, sym);
    }
    static const char *const names[] = {"false", "true"};
    for (int v = 0; v < 2; v++) {
        Symbol *sym = sema_new_symbol(si, SYM_CONST, intern_cstr(arena, names[v]), (Loc){0});
        sym->type = si->builtin[TY_BOOL];
        sym->access = ACCESS_CONST;
        sym->defined = true;
        sym->is_global = true;
        sym->has_value = true;
        sym->const_int = v;
        sema_scope_add(si, si->globals, sym);
        if (v)
            si->sym_true = sym;
        else
            si->sym_false = sym;
    }
    return si;
}

/* §1.2: `program` exists and is a global non-EXTERNAL procedure with (). */
static void check_program(SemaInfo *si, const Program *prog)
{
    Symbol *p = sema_scope_find(si->globals, intern_cstr(si->arena, "program"));
    if (!p) {
        diag_error(loc_at(prog->file, 0, 0), "the program has no procedure 'program' "
                   "(execution starts there)");
        const char *near = sema_closest_in(si->globals, "program", SYMS(SYM_PROC), false, false);
        if (near) /* `PROCEDURE progam () IS ...` */
            diag_note(sema_scope_find(si->globals, near)->loc, "did you mean '%s' to be "
                      "'program'?", near);
        return;
    }
    if (p->kind != SYM_PROC) {
        diag_error(p->loc, "'program' must be a procedure, not a %s", sema_sym_what(p));
        return;
    }
    if (p->sub->external) {
        diag_error(p->loc, "procedure 'program' cannot be EXTERNAL");
        return;
    }
    if (p->sub->params.len > 0) {
        diag_error(p->loc, "procedure 'program' must have an empty parameter list ()");
        return;
    }
    si->program = p;
}

/* Empties the lists of d that live in Program.syntax. */
static void forget_syntax(Decl *d)
{
    switch (d->kind) {
    case DECL_TYPE:
        for (int i = 0; i < d->u.type.elems.len; i++)
            forget_syntax(VEC_AT(d->u.type.elems, i, Decl));
        d->u.type.elems = d->u.type.enums = (PtrVec){0};
        break;
    case DECL_IFACE:
        d->u.iface.names = (PtrVec){0};
        break;
    case DECL_PROC: case DECL_FUNC: case DECL_REDUCTION: case DECL_WTA: case DECL_MERGE:
        d->u.subr.params = (PtrVec){0};
        break;
    default:
        break;
    }
}

void sema_release(Program *prog)
{
    if (prog->syntax) {
        for (int i = 0; i < prog->parts.len; i++)
            forget_syntax(VEC_AT(prog->parts, i, Decl));
        arena_free(prog->syntax);
        prog->syntax = NULL;
    }
    SemaInfo *si = prog->sema;
    if (!si || !si->temp)
        return;
    for (int i = 0; i < si->types.len; i++)
        VEC_AT(si->types, i, Type)->members = NULL;
    for (int i = 0; i < si->subrs.len; i++)
        VEC_AT(si->subrs, i, Symbol)->sub->an = NULL;
    si->globals = si->reported = NULL;
    si->use_pages = (PtrVec){0};
    arena_free(si->temp);
    si->temp = NULL;
    arena_end_interning(si->arena); /* names are interned by the scanner and analysis only */
}

bool sema_analyze(Program *prog, Arena *arena)
{
    int errors_before = diag_error_count();
    SemaInfo *si = sema_info_new(arena);
    prog->sema = si;
    sema_declare_globals(si, prog);
    sema_analyze_parts(si, prog);
    check_program(si, prog);
    sema_check_merge_calls(si);
    sema_classify_central_agent(si);
    return diag_error_count() == errors_before;
}
