/* merge_rule.c -- what a MERGE procedure may reach (docs/language-decisions.md).
 *
 * A MERGE procedure combines the data elements of two replicates of one
 * object (ME, YOU) while replicates are reunited, outside any network
 * call: there is no replicate or node index, and the interfaces, groups
 * and topology are not ME's to use.  §5.3 forbids INDEX, group calls,
 * REDUCTION and WTA in its body; the same holds for every object
 * subroutine it calls on ME or YOU, directly or through others, so such a
 * call is a static error at the MERGE procedure. */
#include "sema_internal.h"

void sema_note_net_use(Ctx *c, Loc at, const char *what)
{
    Symbol *s = c->subr;
    if (s && !s->sub->an->net_use && (s->kind == SYM_OBJPROC || s->kind == SYM_OBJFUNC)) {
        s->sub->an->net_use = what;
        s->sub->an->net_use_loc = at;
    }
}

static bool seen(const PtrVec *v, const Symbol *s)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == s)
            return true;
    return false;
}

/* The first subroutine reachable from s (s included) through calls on
 * ME/YOU whose body has a network use; NULL if none. */
static Symbol *find_use(SemaInfo *si, Symbol *s, PtrVec *visited)
{
    if (!s || seen(visited, s))
        return NULL;
    vec_push(si->temp, visited, s);
    if (s->sub->an->net_use)
        return s;
    for (int i = 0; i < s->sub->an->me_calls.len; i++) {
        Symbol *hit = find_use(si, VEC_AT(s->sub->an->me_calls, i, Expr)->sym, visited);
        if (hit)
            return hit;
    }
    return NULL;
}

void sema_check_merge_calls(SemaInfo *si)
{
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *m = VEC_AT(si->subrs, i, Symbol);
        if (m->kind != SYM_MERGE)
            continue;
        for (int j = 0; j < m->sub->an->me_calls.len; j++) {
            Expr *call = VEC_AT(m->sub->an->me_calls, j, Expr);
            PtrVec visited = {0};
            Symbol *hit = find_use(si, call->sym, &visited);
            if (!hit)
                continue;
            const char *why = "a MERGE procedure combines the data elements of two "
                              "replicates, outside any network call";
            if (hit == call->sym)
                diag_error(call->u.objcall.method.loc, "a MERGE procedure cannot call '%s': "
                           "it uses %s, which needs the object's place in a network (%s)",
                           call->sym->name, hit->sub->an->net_use, why);
            else
                diag_error(call->u.objcall.method.loc, "a MERGE procedure cannot call '%s': "
                           "it calls '%s', which uses %s, which needs the object's place "
                           "in a network (%s)", call->sym->name, hit->name, hit->sub->an->net_use, why);
            diag_note(hit->sub->an->net_use_loc, "%s is used here, in '%s'", hit->sub->an->net_use, hit->name);
        }
    }
}
