/* scope.c -- scopes, symbols and their C names.
 *
 * A scope is an ordered list of symbols plus a hash table over their
 * interned names.  Duplicates are reported here, once, with a note at the
 * first definition (semantics.md §1.5). */
#include <stddef.h>
#include <string.h>

#include "sema_internal.h"
#include "cupitc/stdlib_sigs.h"

/* ORDER SYMKIND */
static const char *const sym_kind_names[] = {
    "type", "CONST", "VAR", "IO", "parameter", "SYMBOLIC value", "procedure",
    "function", "reduction function", "WTA function", "element", "interface",
    "object procedure", "object function", "MERGE procedure",
};
_Static_assert(sizeof sym_kind_names / sizeof sym_kind_names[0] == SYM__COUNT,
               "sym_kind_names out of sync with SymKind");

const char *sema_sym_kind_name(SymKind k)
{
    return k < SYM__COUNT ? sym_kind_names[k] : "?";
}

const char *sema_sym_what(const Symbol *sym)
{
    switch (sym->kind) {
    case SYM_TYPE: return "type";
    case SYM_CONST: case SYM_VAR: case SYM_IO: return "data object";
    case SYM_PARAM: return "parameter";
    case SYM_ENUM: return "SYMBOLIC value";
    case SYM_PROC: return "procedure";
    case SYM_FUNC: return "function";
    case SYM_REDUCTION: return "reduction function";
    case SYM_WTA: return "WTA function";
    case SYM_ELEM: return "element";
    case SYM_IFACE: return "interface";
    case SYM_OBJPROC: return "object procedure";
    case SYM_OBJFUNC: return "object function";
    case SYM_MERGE: return "MERGE procedure";
    default: return "name";
    }
}

/* Scopes, their tables and everything else only analysis needs come from
   si->temp, which sema_release frees before the later phases run. */
Scope *sema_scope_new(SemaInfo *si, ScopeKind kind, Scope *parent)
{
    Scope *s = arena_alloc(si->temp, sizeof *s);
    s->kind = kind;
    s->parent = parent;
    return s;
}

static unsigned hash_name(const char *name, int nslots)
{
    uintptr_t h = (uintptr_t)name;
    h ^= h >> 17;
    h *= 0x9E3779B1u;
    return (unsigned)h & (unsigned)(nslots - 1); /* nslots: a power of two */
}

Symbol *sema_scope_find(const Scope *s, const char *name)
{
    if (!s || !name)
        return NULL;
    if (!s->slots) { /* small scopes: linear search */
        for (int i = 0; i < s->syms.len; i++) {
            Symbol *sym = VEC_AT(s->syms, i, Symbol);
            if (sym->name == name)
                return sym;
        }
        return NULL;
    }
    for (unsigned i = hash_name(name, s->nslots);; i = (i + 1) & (unsigned)(s->nslots - 1)) {
        Symbol *sym = s->slots[i];
        if (!sym || sym->name == name)
            return sym;
    }
}

Symbol *sema_scope_lookup(const Scope *s, const char *name)
{
    for (; s; s = s->parent) {
        Symbol *sym = sema_scope_find(s, name);
        if (sym)
            return sym;
    }
    return NULL;
}

static void rehash(SemaInfo *si, Scope *s)
{
    int n = s->nslots ? s->nslots * 2 : 64;
    s->slots = arena_alloc(si->temp, (size_t)n * sizeof *s->slots);
    s->nslots = n;
    for (int i = 0; i < s->syms.len; i++) {
        Symbol *sym = VEC_AT(s->syms, i, Symbol);
        unsigned j = hash_name(sym->name, n);
        while (s->slots[j])
            j = (j + 1) & (unsigned)(n - 1);
        s->slots[j] = sym;
    }
}

void sema_scope_add(SemaInfo *si, Scope *s, Symbol *sym)
{
    vec_push(si->temp, &s->syms, sym);
    if (s->syms.len < 16)
        return;
    if (!s->slots || s->syms.len * 2 > s->nslots) {
        rehash(si, s);
        return;
    }
    unsigned j = hash_name(sym->name, s->nslots);
    while (s->slots[j])
        j = (j + 1) & (unsigned)(s->nslots - 1);
    s->slots[j] = sym;
}

bool sema_declare(SemaInfo *si, Scope *s, Symbol *sym)
{
    Symbol *old = sema_scope_find(s, sym->name);
    if (old) {
        /* predefined symbols have no source position; parameters have one
           but no declaration of their own */
        bool predefined = !old->decl && old->loc.line == 0;
        if (old->kind == SYM_TYPE && predefined)
            diag_error(sym->loc, "'%s' is a predefined type and cannot be redefined",
                       sym->name);
        else if (predefined)
            diag_error(sym->loc, "'%s' is predefined and cannot be redefined", sym->name);
        else if (old->kind == SYM_TYPE)
            diag_error(sym->loc, "redefinition of type '%s'", sym->name);
        else
            diag_error(sym->loc, "redefinition of '%s'", sym->name);
        if (!predefined) {
            diag_note(old->loc, "previous definition of '%s' is here", old->name);
            old->redefined = true;
        }
        return false;
    }
    sema_scope_add(si, s, sym);
    return true;
}

Symbol *sema_new_symbol(SemaInfo *si, SymKind kind, const char *name, Loc loc)
{
    static const SubrInfo no_subr; /* in read-only memory */
    /* only data objects and elements have an initializer, only CONST data
       objects a folded value: the other symbols end before them */
    size_t size = kind == SYM_CONST ? sizeof(Symbol)
                  : kind == SYM_VAR || kind == SYM_IO || kind == SYM_ELEM
                      ? offsetof(Symbol, const_int)
                      : offsetof(Symbol, init);
    Symbol *sym = arena_alloc(si->arena, size);
    sym->kind = kind;
    switch (kind) {
    case SYM_PROC: case SYM_FUNC: case SYM_REDUCTION: case SYM_WTA:
    case SYM_OBJPROC: case SYM_OBJFUNC: case SYM_MERGE:
        sym->sub = arena_alloc(si->arena, sizeof *sym->sub);
        sym->sub->an = arena_alloc(si->temp, sizeof *sym->sub->an);
        break;
    default:
        sym->sub = (SubrInfo *)&no_subr;
        break;
    }
    sym->name = name;
    sym->loc = loc;
    sym->cname = name;
    sym->uid = si->next_uid++;
    return sym;
}

enum { USE_PAGE = 4096 }; /* SymUse records per page of si->use_pages */

SymUse *sema_use(SemaInfo *si, const Symbol *sym)
{
    int page = sym->uid / USE_PAGE;
    while (si->use_pages.len <= page)
        vec_push(si->temp, &si->use_pages, arena_alloc(si->temp, USE_PAGE * sizeof(SymUse)));
    return &VEC_AT(si->use_pages, page, SymUse)[sym->uid % USE_PAGE];
}

bool sema_report_once(Ctx *c, const Type *t, const char *name)
{
    SemaInfo *si = c->si;
    const char *key = intern_cstr(si->arena, arena_printf(si->temp, "%s.%s", t->name, name));
    if (sema_scope_find(si->reported, key))
        return false;
    sema_scope_add(si, si->reported, sema_new_symbol(si, SYM_ELEM, key, (Loc){0}));
    return true;
}

/* Params and locals: "x", then "x_2", "x_3" for further objects named x in
 * the same subroutine (inner blocks may shadow outer ones). */
/* How many locals of one subroutine have each (interned) name: an open
 * hash table on the name's address, so that naming n locals is O(n). */
struct LocalNames {
    const char **keys;
    int *counts;
    int cap, len;
};

static unsigned name_slot(const char *name, int cap)
{
    uintptr_t h = (uintptr_t)name;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15u;
    return (unsigned)(h >> 7) & (unsigned)(cap - 1);
}

static int *name_count(SemaInfo *si, struct LocalNames *t, const char *name)
{
    if (2 * (t->len + 1) > t->cap) {
        struct LocalNames old = *t;
        t->cap = old.cap ? old.cap * 2 : 64;
        t->keys = arena_alloc(si->temp, (size_t)t->cap * sizeof *t->keys);
        t->counts = arena_alloc(si->temp, (size_t)t->cap * sizeof *t->counts);
        memset(t->keys, 0, (size_t)t->cap * sizeof *t->keys);
        t->len = 0;
        for (int i = 0; i < old.cap; i++)
            if (old.keys[i])
                *name_count(si, t, old.keys[i]) = old.counts[i];
    }
    unsigned i = name_slot(name, t->cap);
    while (t->keys[i] && t->keys[i] != name)
        i = (i + 1) & (unsigned)(t->cap - 1);
    if (!t->keys[i]) {
        t->keys[i] = name;
        t->counts[i] = 0;
        t->len++;
    }
    return &t->counts[i];
}

void sema_assign_local_cname(SemaInfo *si, Symbol *subr, Symbol *sym)
{
    if (!subr)
        return;
    enum { SCAN_MAX = 32 }; /* few locals (the usual case): a scan, no table */
    if (subr->sub->an->locals.len < SCAN_MAX && !subr->sub->an->local_names) {
        int count = 0;
        for (int i = 0; i < subr->sub->an->locals.len; i++)
            if (VEC_AT(subr->sub->an->locals, i, Symbol)->name == sym->name)
                count++;
        vec_push(si->temp, &subr->sub->an->locals, sym);
        sym->cname = count ? arena_printf(si->arena, "%s_%d", sym->name, count + 1) : sym->name;
        return;
    }
    if (!subr->sub->an->local_names) { /* the table takes over from the scan */
        subr->sub->an->local_names = arena_alloc(si->temp, sizeof *subr->sub->an->local_names);
        memset(subr->sub->an->local_names, 0, sizeof *subr->sub->an->local_names);
        for (int i = 0; i < subr->sub->an->locals.len; i++)
            (*name_count(si, subr->sub->an->local_names, VEC_AT(subr->sub->an->locals, i, Symbol)->name))++;
    }
    int *count = name_count(si, subr->sub->an->local_names, sym->name);
    vec_push(si->temp, &subr->sub->an->locals, sym);
    sym->cname = *count ? arena_printf(si->arena, "%s_%d", sym->name, *count + 1) : sym->name;
    (*count)++;
}

/* Keeps the candidate closest to name (fewer edits win; earlier wins ties). */
static void consider(const char *name, const Symbol *cand, SymKindMask want, int limit,
                     int *best, const char **pick)
{
    if (!cand->name || cand->name == name || !(want & (1u << cand->kind)))
        return;
    int d = name_distance(name, cand->name, limit);
    if (d < *best) {
        *best = d;
        *pick = cand->name;
    }
}

const char *sema_closest_in(const Scope *s, const char *name, SymKindMask want, bool parents,
                            bool standard)
{
    int limit = name_distance_limit(name), best = limit + 1;
    const char *pick = NULL;
    for (; s; s = parents ? s->parent : NULL)
        for (int i = 0; i < s->syms.len; i++)
            consider(name, VEC_AT(s->syms, i, Symbol), want, limit, &best, &pick);
    if (standard) {
        const char *std = stdlib_closest(name);
        if (std && name_distance(name, std, limit) < best)
            pick = std;
    }
    return pick;
}
