/* lower.c -- the lowering pass: drives shape collection and the lane plan,
 * and answers the C emitter's questions about them. */
#include <string.h>

#include "cupitc/ast_walk.h"
#include "cupitc/stdlib_sigs.h"
#include "lower_internal.h"

/* ---- pointer map ------------------------------------------------------------ */

struct PtrMapSlot {
    const void *a, *b;
    int c;
    void *value; /* NULL: free slot */
};

static uint64_t hash3(const void *a, const void *b, int c)
{
    uint64_t h = (uint64_t)(uintptr_t)a * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uintptr_t)b * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= (uint64_t)(uint32_t)c * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return h ^ (h >> 29);
}

void *ptrmap_get(const PtrMap *m, const void *a, const void *b, int c)
{
    if (!m->nslots)
        return NULL;
    for (uint64_t i = hash3(a, b, c) & (uint64_t)(m->nslots - 1);;
         i = (i + 1) & (uint64_t)(m->nslots - 1)) {
        const struct PtrMapSlot *s = &m->slots[i];
        if (!s->value)
            return NULL;
        if (s->a == a && s->b == b && s->c == c)
            return s->value;
    }
}

static void insert(struct PtrMapSlot *slots, int n, const void *a, const void *b, int c,
                   void *value)
{
    for (uint64_t i = hash3(a, b, c) & (uint64_t)(n - 1);; i = (i + 1) & (uint64_t)(n - 1)) {
        struct PtrMapSlot *s = &slots[i];
        if (!s->value || (s->a == a && s->b == b && s->c == c)) {
            *s = (struct PtrMapSlot){a, b, c, value};
            return;
        }
    }
}

void ptrmap_put(Arena *arena, PtrMap *m, const void *a, const void *b, int c, void *value)
{
    if (ptrmap_get(m, a, b, c)) {
        insert(m->slots, m->nslots, a, b, c, value);
        return;
    }
    if (4 * (m->used + 1) > 3 * m->nslots) { /* at most 3/4 full */
        int n = m->nslots ? 2 * m->nslots : 64;
        struct PtrMapSlot *slots = arena_alloc(arena, (size_t)n * sizeof *slots);
        for (int i = 0; i < m->nslots; i++)
            if (m->slots[i].value)
                insert(slots, n, m->slots[i].a, m->slots[i].b, m->slots[i].c,
                       m->slots[i].value);
        arena_release(arena, m->slots, (size_t)m->nslots * sizeof *slots);
        m->slots = slots;
        m->nslots = n;
    }
    insert(m->slots, m->nslots, a, b, c, value);
    m->used++;
}

void ptrmap_free(Arena *arena, PtrMap *m)
{
    arena_release(arena, m->slots, (size_t)m->nslots * sizeof *m->slots);
    *m = (PtrMap){0};
}

/* ---- the pass ------------------------------------------------------------------ */

void lower_split_multi(Expr *pv, Expr **base, Expr **range)
{
    *range = NULL;
    if (pv->kind == EXPR_ALLSLICE) {
        *base = pv->u.allslice.obj;
    } else if (pv->kind == EXPR_SUBSCRIPT && !type_is_integral(pv->u.subscript.index->type)) {
        *base = pv->u.subscript.obj;
        *range = pv->u.subscript.index;
    } else {
        *base = pv;
    }
}

LowerPlan *lower_program(Program *prog, Arena *arena, const LowerOptions *opts)
{
    LowerPlan *p = arena_alloc(arena, sizeof *p);
    p->arena = arena;
    p->si = prog->sema;
    p->opts = *opts;
    lower_collect_shapes(p);
    if (opts->lanes && opts->fuse) {
        lower_transport(p);
        lower_uniform(p);
    }
    return p;
}

/* ---- queries ---------------------------------------------------------------------- */

bool lower_varies(const LowerPlan *p, const Symbol *s)
{
    return p->opts.arithmetic_pure ? s->sub->varies : s->sub->varies_replaced;
}

bool lower_pure_library_function(const LowerPlan *p, const Symbol *f)
{
    return p->opts.arithmetic_pure && stdlib_is_arithmetic(f);
}

const LazyWriter *lower_lazy_read(const LowerPlan *p, const LowerNet *net, int bundle,
                                  const void *site)
{
    return ptrmap_get(&p->lazy, net, site, bundle);
}

bool lower_write_stored(const LowerPlan *p, const LowerNet *net, int bundle,
                        const Stmt *assign)
{
    /* not seen by the analysis (code no network call reaches): stored */
    return ptrmap_get(&p->stored, net, assign, bundle) != (void *)2;
}

int lower_site_slot(const LowerPlan *p, const Expr *site)
{
    const LowerSlot *s = ptrmap_get(&p->site_slot, site, NULL, 0);
    return s ? s->id : -1;
}

const PtrVec *lower_node_slots(const LowerPlan *p, const Type *node_type)
{
    static const PtrVec none;
    const PtrVec *v = ptrmap_get(&p->node_slots, node_type, NULL, 0);
    return v ? v : &none;
}

bool lower_elem_shared(const LowerPlan *p, const Type *conn_type, const Symbol *elem)
{
    return ptrmap_get(&p->shared, conn_type, elem, 0) != NULL;
}

bool lower_call_uniform(const LowerPlan *p, const Expr *call)
{
    return ptrmap_get(&p->uniform_calls, call, NULL, 0) == (void *)1;
}

bool lower_lane_reached(const LowerPlan *p, const Symbol *s, const LowerNet *net,
                        int group_or_bundle)
{
    return !p->planned || ptrmap_get(&p->gave_up, net, NULL, 0) ||
           ptrmap_get(&p->reached, s, net, group_or_bundle);
}

bool lower_known_arg(const LowerPlan *p, const Symbol *proc, const LowerNet *net, int group,
                     int param, int64_t *value)
{
    if (!p->planned || !p->opts.const_branch || param < 0 || param >= 64 ||
        ptrmap_get(&p->gave_up, net, NULL, 0))
        return false;
    const KnownArgs *kn = ptrmap_get(&p->known_args, proc, net, group);
    if (!kn || !kn->known[param])
        return false;
    *value = kn->value[param];
    return true;
}

/* ---- subroutines that name I/O areas ------------------------------------------------ */

typedef struct IoScan {
    AstWalk walk; /* first: the callbacks get &walk */
    LowerPlan *p;
    bool found;
} IoScan;

static void io_callee(IoScan *sc, const Symbol *s)
{
    if (s && !sc->found && lower_uses_io(sc->p, s))
        sc->found = true;
}

static void io_in_expr(AstWalk *w, Expr *e)
{
    IoScan *sc = (IoScan *)w;
    if (e->kind == EXPR_NAME && e->sym && e->sym->kind == SYM_IO)
        sc->found = true;
    if (e->kind == EXPR_CALL || e->kind == EXPR_OBJCALL)
        io_callee(sc, e->sym);
}

static void io_in_stmt(AstWalk *w, Stmt *s)
{
    IoScan *sc = (IoScan *)w;
    if (s->kind == STMT_INPUT || s->kind == STMT_OUTPUT)
        sc->found = true;
    if (s->kind == STMT_REDUCTION || s->kind == STMT_WTA)
        io_callee(sc, s->callee);
    if (s->kind == STMT_WTA)
        io_callee(sc, s->proc);
}

bool lower_uses_io(LowerPlan *p, const Symbol *s)
{
    void *v = ptrmap_get(&p->uses_io, s, NULL, 0);
    if (v)
        return v == (void *)2;
    ptrmap_put(p->arena, &p->uses_io, s, NULL, 0, (void *)1); /* recursion: no news */
    bool yes = false;
    for (int i = 0; i < s->sub->params.len && !yes; i++)
        yes = VEC_AT(s->sub->params, i, Symbol)->access == ACCESS_IO;
    /* EXTERNAL code other than the standard library may reach an area
       without naming it: a --library host through cupit_io, any C code
       through a pointer it kept from an earlier call */
    if (!yes && s->sub->external && !stdlib_find(s->name))
        yes = true;
    if (!yes && s->decl && !s->sub->external) {
        IoScan sc = {.walk = {.expr = io_in_expr, .stmt = io_in_stmt}, .p = p};
        ast_walk_block(&sc.walk, s->decl->u.subr.body);
        yes = sc.found;
    }
    ptrmap_put(p->arena, &p->uses_io, s, NULL, 0, yes ? (void *)2 : (void *)1);
    return yes;
}

void lower_dump(const LowerPlan *p, FILE *out)
{
    for (int i = 0; i < p->dump.len; i++)
        fprintf(out, "%s\n", VEC_AT(p->dump, i, const char));
}
