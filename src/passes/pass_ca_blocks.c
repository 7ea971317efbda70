/* pass_ca_blocks.c -- the central agent working on lane blocks directly:
 * the merge-first and batch passes.
 *
 * merge-first.  MERGE leaves every replicate equal.  A call on all
 * replicates right after it that finds them equal, leaves them equal and
 * does nothing else (the uniformity analysis, src/lower/uniform.c, proves
 * it: RPROP's weight update after MERGE) computes the same in every
 * replicate.  MERGE then merges into lane block 0 only
 * (rt_merge_first), such calls run on block 0, and block 0 is copied to
 * the other blocks after them (rt_merge_spread) instead of before.
 *
 * batch.  Inputs into all replicates of a network in lane blocks,
 * followed by a call on its replicates that names no I/O area itself,
 * become one loop over the blocks that moves each block's inputs and at
 * once runs the call on it, in parallel when the call is worth it: the
 * block's inputs then sit in the cache of the thread that computes on
 * them.  Block j's call reads and writes block j only, so the order is the
 * program's.
 *
 * Both keep the statements as written for the network not in lane
 * blocks, and change nothing where their conditions do not hold. */
#include "passes_internal.h"

/* The network variable of `net` or `net[]`, NULL for anything else. */
static const Symbol *all_replicates_var(const Expr *e)
{
    if (e->kind == EXPR_ALLSLICE)
        e = e->u.allslice.obj;
    return e->kind == EXPR_NAME && e->sym && e->sym->type && e->sym->type->kind == TY_NETWORK
               ? e->sym : NULL;
}

/* The call of a REPS_CALL block, or NULL. */
static const Expr *reps_call(const IrStmt *s)
{
    return s->kind == IRS_BLOCK && s->tag == IRTAG_REPS_CALL ? s->origin : NULL;
}

static IrExpr *net_ref(PassCtx *c, const Symbol *v)
{
    /* the network variable is a global: its static */
    for (int i = 0; i < c->m->statics.len; i++) {
        IrStatic *st = VEC_AT(c->m->statics, i, IrStatic);
        if (st->var->sym == v)
            return ir_addr(c->m, ir_ref(c->m, st->var));
    }
    return NULL;
}

/* if (n->blocks [&& n->nblocks > 1]) { fast } else { the statements as
   written } in place of blk's list[i .. i + n]. */
static void splice(PassCtx *c, IrStmt *blk, int i, int n, IrExpr *cond, IrStmt *fast)
{
    IrModule *m = c->m;
    IrStmt *first = VEC_AT(blk->list, i, IrStmt);
    IrStmt *ifs = ir_s(m, IRS_IF, first->loc);
    ifs->a = cond;
    ifs->then = fast;
    ifs->els = ir_block(m, first->loc);
    for (int k = 0; k <= n; k++)
        ir_append(m, ifs->els, VEC_AT(blk->list, i + k, IrStmt));
    for (int k = 0; k < n; k++)
        pu_remove(blk, i + 1);
    blk->list.items[i] = ifs;
}

/* ---- merge-first ------------------------------------------------------------------------ */

/* Whether e neither reads nor changes a network: no calls (a network
 * function could read what a batch moves, a free function could replicate
 * or merge), no network data, no RANDOM.  Such an expression may be
 * evaluated earlier than written (batch), and while only lane block 0 holds
 * the merged values (merge-first). */
static bool net_free(const Expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EXPR_INT: case EXPR_REAL: case EXPR_STRING:
        return true;
    case EXPR_NAME:
        return !(e->sym && e->sym->type && e->sym->type->kind == TY_NETWORK);
    case EXPR_UNARY:
        return e->u.unary.op != OP_RANDOM && net_free(e->u.unary.operand);
    case EXPR_BINARY:
        return net_free(e->u.binary.lhs) && net_free(e->u.binary.rhs);
    case EXPR_TERNARY:
        return net_free(e->u.ternary.cond) && net_free(e->u.ternary.then_e) &&
               net_free(e->u.ternary.else_e);
    case EXPR_CONVERT:
        for (int i = 0; i < e->u.convert.args.len; i++)
            if (!net_free(VEC_AT(e->u.convert.args, i, Expr)))
                return false;
        return true;
    case EXPR_MAXINDEX: /* I/O changes no replicate count or group size */
        return true;
    default:
        return false;
    }
}


static void merge_first_block(IrStmt *blk, PassCtx *c, IrFunc *f, int *count)
{
    IrModule *m = c->m;
    for (int i = 0; i < blk->list.len; i++) {
        IrStmt *s = VEC_AT(blk->list, i, IrStmt);
        const Stmt *ms = s->kind == IRS_EVAL && s->a->kind == IRE_CALL && s->a->helper == IRH_MERGE
                             ? s->origin : NULL;
        const Symbol *v = ms ? all_replicates_var(ms->u.merge.obj) : NULL;
        if (!v)
            continue;
        int n = 0;
        while (i + 1 + n < blk->list.len) {
            const Expr *call = reps_call(VEC_AT(blk->list, i + 1 + n, IrStmt));
            if (!call || !lower_call_uniform(c->plan, call))
                break;
            /* its arguments are evaluated while the other blocks are stale */
            bool args_ok = true;
            for (int k = 0; args_ok && k < call->u.objcall.args.len; k++)
                args_ok = net_free(VEC_AT(call->u.objcall.args, k, Expr));
            if (!args_ok)
                break;
            Expr *base, *range;
            lower_split_multi(call->u.objcall.obj, &base, &range);
            if (range || all_replicates_var(base) != v)
                break;
            n++;
        }
        IrExpr *net = net_ref(c, v);
        if (n == 0 || !net)
            continue;
        const IrType *bt = ir_t(m, IRT_BOOL);
        IrStmt *fast = ir_block(m, s->loc);
        IrExpr *pos = VEC_AT(s->a->args, 1, IrExpr);
        IrStmt *first = ir_s(m, IRS_EVAL, s->loc);
        first->a = ir_helper(m, IRH_MERGE_FIRST, ir_t(m, IRT_VOID), IR_ARGS(ir_clone(m, net), ir_clone(m, pos)));
        ir_append(m, fast, first);
        for (int k = 1; k <= n; k++) {
            const Expr *call = reps_call(VEC_AT(blk->list, i + k, IrStmt));
            ir_append(m, fast, lower_block0_call(c->lw, f, call, ir_clone(m, net)));
        }
        IrStmt *spread = ir_s(m, IRS_EVAL, s->loc);
        spread->a = ir_helper(m, IRH_MERGE_SPREAD, ir_t(m, IRT_VOID), IR_ARGS(ir_clone(m, net), ir_clone(m, pos)));
        ir_append(m, fast, spread);
        IrExpr *cond = ir_binary(m, IROP_LAND, bt, ir_netinfo(m, IRN_BLOCKED, ir_clone(m, net), NULL, NULL),
                                 ir_binary(m, IROP_GT, bt, ir_netinfo(m, IRN_NBLOCKS, ir_clone(m, net), NULL, NULL),
                                           ir_i32(m, 1)));
        splice(c, blk, i, n, cond, fast);
        *count += n;
    }
}

void pass_merge_first(PassCtx *c, IrFunc *f)
{
    pu_ca_blocks(c, f, "merge-first", "calls after MERGE on lane block 0", merge_first_block);
}

/* ---- batch --------------------------------------------------------------------------------- */

/* The network variable an INPUT statement (lowered as the block s) moves
 * into all replicates of, or NULL. */
static const Symbol *input_var(const IrStmt *s, Stmt **st)
{
    if (s->kind != IRS_BLOCK || !s->origin)
        return NULL;
    Stmt *io = (Stmt *)s->origin;
    if (s->tag != IRTAG_NONE || io->kind != STMT_INPUT)
        return NULL;
    Expr *base, *range;
    lower_split_multi(io->u.io.node_side->u.select.obj, &base, &range);
    if (!net_free(range) || base->kind != EXPR_SELECT)
        return NULL;
    *st = io;
    return all_replicates_var(base->u.select.obj);
}

static void batch_block(IrStmt *blk, PassCtx *c, IrFunc *f, int *count)
{
    IrModule *m = c->m;
    for (int i = 0; i < blk->list.len; i++) {
        Stmt *io;
        const Symbol *v = input_var(VEC_AT(blk->list, i, IrStmt), &io);
        if (!v)
            continue;
        Stmt *inputs[64];
        int n = 0;
        while (i + n < blk->list.len && n < 64 && input_var(VEC_AT(blk->list, i + n, IrStmt), &io) == v)
            inputs[n++] = io;
        if (i + n == blk->list.len)
            continue;
        const Expr *call = reps_call(VEC_AT(blk->list, i + n, IrStmt));
        if (!call)
            continue;
        Expr *base, *range;
        lower_split_multi(call->u.objcall.obj, &base, &range);
        bool ok = all_replicates_var(base) == v && net_free(range) &&
                  !lower_uses_io(c->plan, call->sym);
        for (int k = 0; ok && k < call->u.objcall.args.len; k++)
            ok = net_free(VEC_AT(call->u.objcall.args, k, Expr));
        IrExpr *net = ok ? net_ref(c, v) : NULL;
        if (!net)
            continue;
        IrStmt *fast = lower_batch(c->lw, f, inputs, n, call, ir_clone(m, net));
        splice(c, blk, i, n, ir_netinfo(m, IRN_BLOCKED, net, NULL, NULL), fast);
        (*count)++;
    }
}

void pass_batch(PassCtx *c, IrFunc *f)
{
    pu_ca_blocks(c, f, "batch", "batches of inputs moved inside the call's block loop", batch_block);
}
