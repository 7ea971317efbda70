/* lower.c -- the lowering pass: drives shape collection and the lane plan,
 * and answers the C emitter's questions about them. */
#include <string.h>

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

static bool io_in_expr(LowerPlan *p, const Expr *e);

static bool io_in_exprs(LowerPlan *p, const PtrVec *v)
{
    for (int i = 0; i < v->len; i++)
        if (io_in_expr(p, VEC_AT(*v, i, Expr)))
            return true;
    return false;
}

static bool io_in_expr(LowerPlan *p, const Expr *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case EXPR_NAME: return e->sym && e->sym->kind == SYM_IO;
    case EXPR_SELECT: return io_in_expr(p, e->u.select.obj);
    case EXPR_SUBSCRIPT:
        return io_in_expr(p, e->u.subscript.obj) || io_in_expr(p, e->u.subscript.index);
    case EXPR_ALLSLICE: return io_in_expr(p, e->u.allslice.obj);
    case EXPR_CONNADDR:
        return io_in_expr(p, e->u.connaddr.from) || io_in_expr(p, e->u.connaddr.to);
    case EXPR_UNARY: return io_in_expr(p, e->u.unary.operand);
    case EXPR_BINARY: return io_in_expr(p, e->u.binary.lhs) || io_in_expr(p, e->u.binary.rhs);
    case EXPR_TERNARY:
        return io_in_expr(p, e->u.ternary.cond) || io_in_expr(p, e->u.ternary.then_e) ||
               io_in_expr(p, e->u.ternary.else_e);
    case EXPR_CALL:
        return io_in_exprs(p, &e->u.call.args) || (e->sym && lower_uses_io(p, e->sym));
    case EXPR_OBJCALL:
        return io_in_expr(p, e->u.objcall.obj) || io_in_exprs(p, &e->u.objcall.args) ||
               (e->sym && lower_uses_io(p, e->sym));
    case EXPR_CONVERT: return io_in_exprs(p, &e->u.convert.args);
    case EXPR_MAXINDEX: return io_in_expr(p, e->u.maxindex.obj);
    default: return false;
    }
}

static bool io_in_block(LowerPlan *p, const Block *b)
{
    if (!b)
        return false;
    for (int i = 0; i < b->defs.len; i++) {
        const Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++)
            if (io_in_expr(p, VEC_AT(d->u.data.ids, j, InitId)->init))
                return true;
    }
    for (int i = 0; i < b->stmts.len; i++) {
        const Stmt *s = VEC_AT(b->stmts, i, Stmt);
        bool found = false;
        switch (s->kind) {
        case STMT_ASSIGN:
            found = io_in_expr(p, s->u.assign.target) || io_in_expr(p, s->u.assign.value);
            break;
        case STMT_INPUT: case STMT_OUTPUT: found = true; break;
        case STMT_CALL: case STMT_OBJCALL: found = io_in_expr(p, s->u.call.call); break;
        case STMT_MULTICALL: found = io_in_exprs(p, &s->u.multi.calls); break;
        case STMT_REDUCTION:
            found = io_in_expr(p, s->u.reduction.into) ||
                    (s->callee && lower_uses_io(p, s->callee));
            break;
        case STMT_WTA:
            found = io_in_exprs(p, &s->u.wta.args) || (s->proc && lower_uses_io(p, s->proc)) ||
                    (s->callee && lower_uses_io(p, s->callee));
            break;
        case STMT_RETURN: found = io_in_expr(p, s->u.ret.value); break;
        case STMT_IF:
            for (int j = 0; j < s->u.if_.arms.len && !found; j++) {
                const IfArm *arm = VEC_AT(s->u.if_.arms, j, IfArm);
                found = io_in_expr(p, arm->cond) || io_in_block(p, arm->body);
            }
            found = found || io_in_block(p, s->u.if_.else_body);
            break;
        case STMT_LOOP:
            found = io_in_expr(p, s->u.loop.while_cond) || io_in_block(p, s->u.loop.body) ||
                    io_in_expr(p, s->u.loop.until_cond);
            break;
        case STMT_FOR:
            found = io_in_expr(p, s->u.for_.from) || io_in_expr(p, s->u.for_.to) ||
                    io_in_block(p, s->u.for_.body) || io_in_expr(p, s->u.for_.until_cond);
            break;
        case STMT_REPLICATE: case STMT_EXTEND:
            found = io_in_expr(p, s->u.replicate.count);
            break;
        default: break;
        }
        if (found)
            return true;
    }
    return false;
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
    if (!yes && s->decl && !s->sub->external)
        yes = io_in_block(p, s->decl->u.subr.body);
    ptrmap_put(p->arena, &p->uses_io, s, NULL, 0, yes ? (void *)2 : (void *)1);
    return yes;
}

void lower_dump(const LowerPlan *p, FILE *out)
{
    for (int i = 0; i < p->dump.len; i++)
        fprintf(out, "%s\n", VEC_AT(p->dump, i, const char));
}
