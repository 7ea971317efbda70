/* passes_internal.h -- what the passes (pass_*.c) share. */
#ifndef CUPITC_PASSES_INTERNAL_H
#define CUPITC_PASSES_INTERNAL_H

#include "cupitc/passes.h"

typedef struct PassCtx {
    IrModule *m;
    Lw *lw;
    LowerPlan *plan;
    FILE *trace;       /* what the passes changed, or NULL */
} PassCtx;

void pass_dce(PassCtx *c);
void pass_const_branch(PassCtx *c, IrFunc *f);
void pass_fuse(PassCtx *c);
void pass_shared(PassCtx *c);
void pass_merge_first(PassCtx *c, IrFunc *f);
void pass_batch(PassCtx *c, IrFunc *f);
void pass_rep_state(PassCtx *c, IrFunc *f);
void pass_vsum(PassCtx *c);
void pass_dense(PassCtx *c);
void pass_regions(PassCtx *c);
void pass_drop_fields(PassCtx *c);
/* Not an optimisation: parameters, arguments and variables for shared
 * records of connection types whose shared layout stayed empty go. */
void pass_drop_empty_shared(PassCtx *c);

/* ---- utilities (pass_util.c) ---- */

/* Sets f->reached for every function the program's start reaches (through
 * calls, function references and reductions' combine functions; the
 * functions the runtime's tables name are roots). */
void pu_mark_reached(IrModule *m);
/* Calls fn on every BLOCK under s (its list may be edited). */
typedef void (*PuBlockFn)(IrStmt *blk, void *data);
void pu_each_block(IrStmt *s, PuBlockFn fn, void *data);
/* Inserts s into blk's list at position i. */
void pu_insert(IrModule *m, IrStmt *blk, int i, IrStmt *s);
void pu_remove(IrStmt *blk, int i);
/* One line of --dump-passes. */
void pu_trace(PassCtx *c, const char *pass, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The lane loop index of a lane-array access X[l], or NULL. */
IrVar *pu_lane_of(const IrExpr *e);
/* Sets every field's `uses` to the number of accesses that name it. */
void pu_count_uses(IrModule *m);
/* A lane-array temporary of element type vt, declared and filled by a
 * vectorizable lane loop at position `at` of blk: returns the temporary;
 * *fill is the assignment whose value (b) the caller sets, using *lane. */
IrVar *pu_lane_temp(IrModule *m, IrFunc *f, IrStmt *blk, int at, const IrType *vt, Loc loc,
                    IrStmt **fill, IrVar **lane);
/* Calls fn on every block of f if it is one of the central agent's
 * functions (the program and the global procedures it calls); traces
 * "N <what>". */
void pu_ca_blocks(PassCtx *c, IrFunc *f, const char *pass, const char *what,
                  void (*fn)(IrStmt *blk, PassCtx *c, IrFunc *f, int *n));

#endif
