/* context.c -- subroutine contexts and the central agent (semantics.md §5).
 *
 * Every body is analysed with a context (CA/free global subroutine, NetP,
 * NodeF, Merge, ...) that decides which statements, special objects and
 * calls are legal there.  The central agent is computed by the fixpoint of
 * §5.1 once every body has been analysed. */
#include <stddef.h>

#include "sema_internal.h"
#include "cupitc/stdlib_sigs.h"

/* ORDER CTX */
static const char *const ctx_names[] = {
    "none", "CA", "free", "NetP", "NetF", "NodeP", "NodeF", "ConP", "ConF",
    "RecP", "RecF", "Red", "Wta", "Merge",
};
_Static_assert(sizeof ctx_names / sizeof ctx_names[0] == CTX__COUNT,
               "ctx_names out of sync with SubrContext");

const char *sema_context_name(SubrContext c)
{
    return c < CTX__COUNT ? ctx_names[c] : "?";
}

const char *sema_ctx_desc(const Ctx *c)
{
    switch (c->kind) {
    case CTX_NONE: return c->elem_init ? "an element initializer" : "a global initializer";
    case CTX_CA: case CTX_FREE:
        if (c->subr && (c->subr->sub->is_central_agent || c->subr->sub->mentions_network))
            return "the central agent";
        return c->subr && c->subr->kind == SYM_FUNC ? "a global function"
                                                    : "a global procedure";
    case CTX_NETP: return "a network procedure";
    case CTX_NETF: return "a network function";
    case CTX_NODEP: return "a node procedure";
    case CTX_NODEF: return "a node function";
    case CTX_CONP: return "a connection procedure";
    case CTX_CONF: return "a connection function";
    case CTX_RECP: return "a record procedure";
    case CTX_RECF: return "a record function";
    case CTX_RED: return "a reduction function";
    case CTX_WTA: return "a WTA function";
    case CTX_MERGE: return "a MERGE procedure";
    default: return "this context";
    }
}

bool ctx_is_global_subr(const Ctx *c)
{
    return c->kind == CTX_CA || c->kind == CTX_FREE;
}

bool ctx_is_central(const Ctx *c)
{
    return ctx_is_global_subr(c) || (c->kind == CTX_NONE && !c->elem_init);
}

bool ctx_is_parallel(const Ctx *c)
{
    return c->kind >= CTX_NETP || c->elem_init;
}

bool ctx_is_function(const Ctx *c)
{
    return c->subr && (c->subr->kind == SYM_FUNC || c->subr->kind == SYM_OBJFUNC ||
                       c->subr->kind == SYM_REDUCTION || c->subr->kind == SYM_WTA);
}

SubrContext sema_object_context(TypeKind owner, bool is_function)
{
    switch (owner) {
    case TY_NETWORK: return is_function ? CTX_NETF : CTX_NETP;
    case TY_NODE: return is_function ? CTX_NODEF : CTX_NODEP;
    case TY_CONNECTION: return is_function ? CTX_CONF : CTX_CONP;
    default: return is_function ? CTX_RECF : CTX_RECP;
    }
}

static bool is_global_subr(const Symbol *s)
{
    return s->kind == SYM_PROC || s->kind == SYM_FUNC;
}

/* A REDUCTION or WTA function. */
static bool is_combine_subr(const Symbol *s)
{
    return s->kind == SYM_REDUCTION || s->kind == SYM_WTA;
}

/* Sets the flag at `flag` (an offset into SubrInfo) of every global
 * subroutine (with combine, also of every REDUCTION and WTA function) that
 * calls one that has it, until nothing changes; EXTERNAL subroutines keep
 * theirs. */
static void close_over_callers(SemaInfo *si, size_t flag, bool combine)
{
#define FLAG(sym) (*(bool *)((char *)(sym)->sub + flag))
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < si->subrs.len; i++) {
            Symbol *s = VEC_AT(si->subrs, i, Symbol);
            if (!(is_global_subr(s) || (combine && is_combine_subr(s))) || FLAG(s) ||
                s->sub->external)
                continue;
            for (int j = 0; j < s->sub->an->callees.len; j++) {
                if (FLAG(VEC_AT(s->sub->an->callees, j, Symbol))) {
                    FLAG(s) = true;
                    changed = true;
                    break;
                }
            }
        }
    }
#undef FLAG
}

/* §5.1: program and every subroutine that names a network variable are CA;
 * then every caller of a CA subroutine, until nothing changes.  EXTERNAL
 * subroutines are free, except saveNetworks and loadNetworks, which use
 * every network variable (stdlib_uses_networks).  Likewise what may REPLICATE a network:
 * a subroutine with such a statement (sema_replicate), and its callers;
 * what is or calls EXTERNAL code (SubrInfo.calls_external), and its callers;
 * and what may vary from call to call (SubrInfo.varies): RANDOM, EXTERNAL
 * code other than the standard arithmetic, and their callers. */
void sema_classify_central_agent(SemaInfo *si)
{
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (!is_global_subr(s))
            continue;
        s->sub->is_central_agent = stdlib_uses_networks(s) ||
                                   (!s->sub->external && (s == si->program || s->sub->mentions_network));
    }
    close_over_callers(si, offsetof(SubrInfo, is_central_agent), false);
    close_over_callers(si, offsetof(SubrInfo, replicates), false);
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (is_global_subr(s))
            s->sub->calls_external = s->sub->external;
    }
    close_over_callers(si, offsetof(SubrInfo, calls_external), false);
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (is_global_subr(s) || is_combine_subr(s)) {
            s->sub->varies = s->sub->uses_random || (s->sub->external && !stdlib_is_arithmetic(s));
            s->sub->varies_replaced = s->sub->uses_random || s->sub->external;
        }
    }
    close_over_callers(si, offsetof(SubrInfo, varies), true);
    close_over_callers(si, offsetof(SubrInfo, varies_replaced), true);
    for (int i = 0; i < si->subrs.len; i++) {
        const Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (is_global_subr(s) && s->sub->called_in_init && s->sub->replicates)
            si->init_replicates = true;
    }
    for (int i = 0; i < si->subrs.len; i++) {
        Symbol *s = VEC_AT(si->subrs, i, Symbol);
        if (!is_global_subr(s))
            continue;
        s->sub->is_free = !s->sub->is_central_agent;
        s->sub->context = s->sub->is_central_agent ? CTX_CA : CTX_FREE;
    }
}
