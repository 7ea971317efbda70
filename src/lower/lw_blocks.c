/* lw_blocks.c -- central-agent code that works on lane blocks directly,
 * built for the passes that decide to use it (pass_merge_first.c,
 * pass_batch.c): a call on lane block 0 alone, and I/O moved block by
 * block inside the loop of the call that follows it. */
#include "cupitc/lower_ir.h"
#include "lw_internal.h"

/* Sets up lowering inside central-agent function f, appending to blk. */
static LwFn enter(Lw *lw, IrFunc *f, IrStmt *blk)
{
    LwFn fn = {.subr = f->subr, .ctx = CTX_CA, .group = -1, .bundle = -1, .f = f};
    lw->blk = blk;
    return fn;
}

IrStmt *lower_block0_call(Lw *lw, IrFunc *f, const Expr *call, IrExpr *net)
{
    IrModule *m = lw->m;
    IrStmt *b = ir_block(m, call->loc);
    LwFn fn = enter(lw, f, b);
    lw->fn = &fn;
    PtrVec temps = {0}, la = {0};
    lw_args_to_temps(lw, call->sym, (PtrVec *)&call->u.objcall.args, &temps, call->loc);
    lw_broadcast_args(lw, call->sym, &temps, &la, call->loc);
    /* every lane of block 0 holds the merged values, padding lanes too */
    IrVar *mk = lw_fill_lanes(lw, "m", ir_t(m, IRT_I32), ir_i32(m, 1), call->loc);
    IrExpr *c = ir_call(m, lw_lane_fn(lw, call->sym, NULL, -1), IR_ARGS(net, ir_i32(m, 0), ir_ref(m, mk)));
    for (int i = 0; i < la.len; i++)
        vec_push(m->arena, &c->args, la.items[i]);
    lw_eval(lw, c, call->loc);
    lw->fn = NULL;
    return b;
}

IrStmt *lower_batch(Lw *lw, IrFunc *f, Stmt *const *inputs, int n, const Expr *call, IrExpr *net)
{
    IrModule *m = lw->m;
    const IrType *i32 = ir_t(m, IRT_I32), *i64 = ir_t(m, IRT_I64), *bt = ir_t(m, IRT_BOOL);
    IrStmt *b = ir_block(m, call->loc);
    LwFn fn = enter(lw, f, b);
    lw->fn = &fn;
    IrVar *j = ir_fresh(m, f, "j", i32); /* the block of the loop below */
    /* the I/O checks first, each input's range */
    PtrVec moves = {0};
    for (int k = 0; k < n; k++) {
        Stmt *s = inputs[k];
        Expr *pvs = s->u.io.node_side, *gb, *gr;
        lw_split_multi(pvs->u.select.obj, &gb, &gr);
        LowerNet *ln = NULL;
        IrExpr *nx, *rx;
        Expr *netobj = gb->u.select.obj;
        if (netobj->kind == EXPR_ALLSLICE)
            netobj = netobj->u.allslice.obj;
        lw_net_object(lw, netobj, &nx, &rx, &ln);
        int g = lower_group_index(ln, gb->sym);
        const Type *node = type_node_of(gb->sym->type);
        IrVar *lo, *hi;
        lw_range(lw, gr, ir_netinfo(m, IRN_COUNT, ir_clone(m, net), ir_i32(m, g), NULL), &lo, &hi, s->loc);
        IrVar *io = lw_decl(lw, "io", ir_t_ptr(m, ir_t(m, IRT_IO), false), ir_addr(m, lw_lvalue(lw, s->u.io.io)),
                            s->loc);
        IrLayout *ll = lw_lanes_layout(lw, node);
        const IrField *elem = lw_field(lw, lw_plain(lw, node), pvs->sym);
        lw_eval(lw, ir_helper(m, IRH_IO_CHECK, ir_t(m, IRT_VOID),
                              IR_ARGS(ir_clone(m, net), ir_i32(m, g), ir_ref(m, lo), ir_ref(m, hi),
                                      ir_sizeof(m, elem->type), ir_ref(m, io), ir_bool(m, true),
                                      lw_pos(lw, s->loc))),
                s->loc);
        IrStmt *mv = ir_s(m, IRS_EVAL, s->loc);
        mv->a = ir_helper(m, IRH_IO_BLOCK, ir_t(m, IRT_VOID),
                          IR_ARGS(ir_clone(m, net), ir_i32(m, g), ir_ref(m, lo), ir_ref(m, hi),
                                  ir_offsetof(m, ir_t_record(m, ll), lw_field(lw, ll, pvs->sym)->name),
                                  ir_ref(m, io), ir_ref(m, j), ir_bool(m, true)));
        vec_push(m->arena, &moves, mv);
    }
    /* the call's range and arguments */
    Expr *base, *range;
    lw_split_multi(call->u.objcall.obj, &base, &range);
    IrVar *lo, *hi;
    lw_range(lw, range, ir_netinfo(m, IRN_NREPS, ir_clone(m, net), NULL, NULL), &lo, &hi, call->loc);
    PtrVec temps = {0}, la = {0};
    lw_args_to_temps(lw, call->sym, (PtrVec *)&call->u.objcall.args, &temps, call->loc);
    lw_broadcast_args(lw, call->sym, &temps, &la, call->loc);
    /* one loop over the blocks: each block's moves, then the call on it */
    IrExpr *L = ir_named(m, "RT_LANES", i32);
    IrStmt *loop = lw_add(lw, IRS_FOR, call->loc);
    loop->for_kind = IRFOR_BLOCKS;
    loop->var = j;
    loop->lo = ir_i32(m, 0);
    loop->hi = ir_binary(m, IROP_SUB, i32, ir_netinfo(m, IRN_NBLOCKS, ir_clone(m, net), NULL, NULL),
                         ir_i32(m, 1));
    IrExpr *count = ir_cast(m, i64, ir_binary(m, IROP_ADD, i32,
                                              ir_binary(m, IROP_SUB, i32, ir_ref(m, hi), ir_ref(m, lo)),
                                              ir_i32(m, 1)));
    loop->par = ir_binary(m, IROP_LAND, bt,
                          ir_binary(m, IROP_LT, bt, ir_binary(m, IROP_DIV, i32, ir_ref(m, lo), L),
                                    ir_binary(m, IROP_DIV, i32, ir_ref(m, hi), ir_clone(m, L))),
                          lw_par(lw, ir_clone(m, net),
                                 ir_binary(m, IROP_MUL, i64, count,
                                           ir_helper(m, IRH_NET_WORK, i64, IR_ARGS(ir_clone(m, net)))),
                                 true));
    loop->then = ir_block(m, call->loc);
    IrStmt *saved = lw_push(lw, loop->then);
    for (int k = 0; k < moves.len; k++)
        ir_append(m, lw->blk, VEC_AT(moves, k, IrStmt));
    IrStmt *skip = lw_add(lw, IRS_IF, call->loc);
    skip->a = ir_binary(m, IROP_LOR, bt,
                        ir_binary(m, IROP_LOR, bt,
                                  ir_binary(m, IROP_LT, bt, ir_ref(m, j),
                                            ir_binary(m, IROP_DIV, i32, ir_ref(m, lo), ir_clone(m, L))),
                                  ir_binary(m, IROP_GT, bt, ir_ref(m, j),
                                            ir_binary(m, IROP_DIV, i32, ir_ref(m, hi), ir_clone(m, L)))),
                        ir_binary(m, IROP_GT, bt, ir_ref(m, lo), ir_ref(m, hi)));
    skip->then = ir_block(m, call->loc);
    ir_append(m, skip->then, ir_s(m, IRS_CONTINUE, call->loc));
    IrVar *mk = lw_decl_uninit(lw, "m", ir_t_lanes(m, i32), call->loc);
    IrStmt *fl = lw_lanes_loop(lw, call->loc);
    IrVar *l = fl->var;
    IrExpr *q = ir_binary(m, IROP_ADD, i32, ir_binary(m, IROP_MUL, i32, ir_ref(m, j), ir_clone(m, L)),
                          ir_ref(m, l));
    IrStmt *as = ir_s(m, IRS_ASSIGN, call->loc);
    as->a = ir_index(m, ir_ref(m, mk), ir_ref(m, l));
    as->b = ir_binary(m, IROP_LAND, bt, ir_binary(m, IROP_GE, bt, q, ir_ref(m, lo)),
                      ir_binary(m, IROP_LE, bt, ir_clone(m, q), ir_ref(m, hi)));
    ir_append(m, fl->then, as);
    IrExpr *c = ir_call(m, lw_lane_fn(lw, call->sym, NULL, -1),
                        IR_ARGS(ir_clone(m, net), ir_ref(m, j), ir_ref(m, mk)));
    for (int i = 0; i < la.len; i++)
        vec_push(m->arena, &c->args, la.items[i]);
    lw_eval(lw, c, call->loc);
    lw_close(lw, saved);
    lw->fn = NULL;
    return b;
}
