/* net_local.c -- network subroutines that touch nothing but the network's
 * own values.
 *
 * The transport analysis (transport.c) walks every network subroutine the
 * central agent calls, following the calls into node and connection code,
 * and gives up on a network whose calls recurse: it could not tell how
 * often a recursive call runs what it reaches.  A recursive helper such
 * as `Int FUNCTION depth (Int CONST d) IS ... ME.depth (d - 1) ...` that
 * computes only with the network's own elements reaches nothing the walk
 * follows; the walk skips it, and its recursion is no reason to give up. */
#include "lower_internal.h"

/* Whether network subroutine s -- with the network subroutines it calls
 * on ME -- computes only with ME's own elements, its parameters and locals,
 * constants and global functions: no node, connection, group or interface,
 * no topology, I/O or replication.  The walk then has nothing to follow in
 * it, and a recursion of such a function (a recursive helper of the
 * network) need not make the walk give up.  `visiting` holds the callers
 * being checked (assumed local: the answer for the first one is exact);
 * *budget bounds the work. */
typedef struct LocalCheck {
    LowerPlan *p;
    PtrVec visiting;
    int budget;
} LocalCheck;

static bool local_subr(LocalCheck *lc, const Symbol *s);
static bool local_expr(LocalCheck *lc, const Expr *e);

static bool local_exprs(LocalCheck *lc, const PtrVec *v)
{
    for (int i = 0; i < v->len; i++)
        if (!local_expr(lc, VEC_AT(*v, i, Expr)))
            return false;
    return true;
}

static bool local_expr(LocalCheck *lc, const Expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING: case EXPR_NAME: case EXPR_ME:
    case EXPR_INDEX:
        return true;
    case EXPR_SELECT: /* ME.element only */
        return e->u.select.obj->kind == EXPR_ME && e->sym && e->sym->type &&
               e->sym->type->kind != TY_GROUP && e->sym->type->kind != TY_ARRAY;
    case EXPR_UNARY:
        return e->u.unary.op != OP_RANDOM && local_expr(lc, e->u.unary.operand);
    case EXPR_BINARY:
        return local_expr(lc, e->u.binary.lhs) && local_expr(lc, e->u.binary.rhs);
    case EXPR_TERNARY:
        return local_expr(lc, e->u.ternary.cond) && local_expr(lc, e->u.ternary.then_e) &&
               local_expr(lc, e->u.ternary.else_e);
    case EXPR_CALL: /* a free global subroutine (§5.1): it cannot reach a network */
        if (!e->sym || !e->sym->sub || e->sym->sub->external || !e->sym->sub->is_free ||
            e->sym->sub->uses_random)
            return false;
        return local_exprs(lc, &e->u.call.args);
    case EXPR_OBJCALL:
        if (e->u.objcall.obj->kind != EXPR_ME || !e->sym || !e->sym->owner ||
            e->sym->owner->kind != TY_NETWORK || !local_subr(lc, e->sym))
            return false;
        return local_exprs(lc, &e->u.objcall.args);
    case EXPR_CONVERT:
        return local_exprs(lc, &e->u.convert.args);
    default:
        return false;
    }
}

static bool local_block(LocalCheck *lc, const Block *b);

static bool local_stmt(LocalCheck *lc, const Stmt *s)
{
    if (--lc->budget < 0)
        return false;
    switch (s->kind) {
    case STMT_ASSIGN:
        return local_expr(lc, s->u.assign.target) && local_expr(lc, s->u.assign.value);
    case STMT_CALL:
    case STMT_OBJCALL:
        return local_expr(lc, s->u.call.call);
    case STMT_RETURN:
        return local_expr(lc, s->u.ret.value);
    case STMT_BREAK:
        return true;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            const IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            if (!local_expr(lc, arm->cond) || !local_block(lc, arm->body))
                return false;
        }
        return local_block(lc, s->u.if_.else_body);
    case STMT_LOOP:
        return local_expr(lc, s->u.loop.while_cond) && local_block(lc, s->u.loop.body) &&
               local_expr(lc, s->u.loop.until_cond);
    case STMT_FOR:
        return local_expr(lc, s->u.for_.var) && local_expr(lc, s->u.for_.from) &&
               local_expr(lc, s->u.for_.to) && local_block(lc, s->u.for_.body) &&
               local_expr(lc, s->u.for_.until_cond);
    default:
        return false;
    }
}

static bool local_block(LocalCheck *lc, const Block *b)
{
    if (!b)
        return true;
    for (int i = 0; i < b->defs.len; i++) {
        const Decl *d = VEC_AT(b->defs, i, Decl);
        for (int j = 0; j < d->u.data.ids.len; j++)
            if (!local_expr(lc, VEC_AT(d->u.data.ids, j, InitId)->init))
                return false;
    }
    for (int i = 0; i < b->stmts.len; i++)
        if (!local_stmt(lc, VEC_AT(b->stmts, i, Stmt)))
            return false;
    return true;
}

/* p->net_local holds the answers known for good, (void *)3 for the
 * subroutines being visited and (void *)4 for those visited without an
 * answer.  A "no" that did not come from the budget is
 * an answer for good (it assumed nothing); a "yes" assumed the visited
 * subroutines local, and holds for all of them once the first one's answer
 * is yes.  So each subroutine is checked once, not once from each caller
 * (a chain of n network procedures took n^2 subroutine visits, each
 * searching the n visited ones: 4000 of them, 3 s). */
static bool local_subr(LocalCheck *lc, const Symbol *s)
{
    void *v = ptrmap_get(&lc->p->net_local, s, NULL, 0);
    if (v && v != (void *)4)
        return v != (void *)2; /* 3: being visited, assumed local */
    if (!s->decl || s->sub->external || s->sub->uses_random) {
        ptrmap_put(lc->p->arena, &lc->p->net_local, s, NULL, 0, (void *)2);
        return false;
    }
    ptrmap_put(lc->p->arena, &lc->p->net_local, s, NULL, 0, (void *)3);
    vec_push(lc->p->arena, &lc->visiting, (void *)s);
    bool r = local_block(lc, s->decl->u.subr.body);
    if (!r && lc->budget >= 0)
        ptrmap_put(lc->p->arena, &lc->p->net_local, s, NULL, 0, (void *)2);
    return r;
}

bool lower_net_local(LowerPlan *p, const Symbol *s)
{
    void *v = ptrmap_get(&p->net_local, s, NULL, 0);
    if (v && v != (void *)4)
        return v == (void *)1;
    LocalCheck lc = {.p = p, .budget = 10000};
    bool r = local_subr(&lc, s);
    /* the visited ones: local with s; else not known (unless known not) */
    for (int i = 0; i < lc.visiting.len; i++)
        if (ptrmap_get(&p->net_local, lc.visiting.items[i], NULL, 0) == (void *)3)
            ptrmap_put(p->arena, &p->net_local, lc.visiting.items[i], NULL, 0,
                       r ? (void *)1 : (void *)4);
    if (!r) /* also when the budget ran out: as before, the answer for s */
        ptrmap_put(p->arena, &p->net_local, s, NULL, 0, (void *)2);
    return r;
}

