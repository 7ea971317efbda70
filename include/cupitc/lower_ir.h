/* lower_ir.h -- lowering of the analysed program to the loop IR (ir.h).
 *
 * lower_to_ir builds the module: layouts, one function per subroutine
 * instance, the program's start.  The passes (passes.h) then rewrite it,
 * and lower_finish_ir adds what follows from the final layouts (the lane
 * record functions, the element leaves and the network shapes the runtime
 * reads).  Both report unsupported constructs as diagnostics and return
 * false / set the state's failure. */
#ifndef CUPITC_LOWER_IR_H
#define CUPITC_LOWER_IR_H

#include "cupitc/ir.h"
#include "cupitc/lower.h"

typedef struct Lw Lw;

IrModule *lower_to_ir(Program *prog, LowerPlan *plan, const IrOptions *opts, Lw **state);
bool lower_failed(const Lw *lw);
bool lower_finish_ir(Lw *lw);
/* Builds the body of a streamed function (IrFunc.streamed), from the
 * module's current arena. */
bool lower_stream_body(Lw *lw, IrFunc *f);
/* Reports an EXTERNAL subroutine named main, which would be the C main
 * function of the program (only a --library object has none); false if
 * there is one.  lower_to_ir checks it too; the driver calls it where no
 * code is made (-fsyntax-only), so that it finds every error a build
 * finds. */
bool lower_check_external_main(const Program *prog, bool library);

/* Services of the lowering for the passes (src/passes/). */

/* The value the writer w stores, recomputed in lane code of function f
 * (a lane version running on bundle b, or a node's lane version whose
 * REDUCTION reads bundle b) for connection k whose lane record is `conn`,
 * in lane `lane`: the writer's parameters come from the slots of the node
 * at the other end (LazyWriter.from_src), its ME is `conn`. */
IrExpr *lower_lazy_value(Lw *lw, IrFunc *f, const LazyWriter *w, int b, IrExpr *k, IrExpr *conn,
                         IrVar *lane);
/* The slot field of parameter `param` of slot number `slot` in node type
 * node's lane record (created on first use). */
IrField *lower_slot_field(Lw *lw, const Type *node, int slot, const Symbol *proc,
                          const Symbol *param);
/* What lowering decided for the const-branch pass in function f: one line
 * per IF that kept only its arm taken (NULL-terminated, NULL if none).
 * The pass reports them (--dump-passes). */
const char *const *lower_const_branches(Lw *lw, const IrFunc *f);
/* The lane-array temporaries of an interface call's arguments in lane
 * code of function f, one per parameter of the called procedure (NULL:
 * none recorded). */
IrVar *const *lower_site_args(Lw *lw, const IrFunc *f, const Expr *call);
/* In central-agent function f: the network procedure call `call` on lane
 * block 0 of network net, every lane active. */
IrStmt *lower_block0_call(Lw *lw, IrFunc *f, const Expr *call, IrExpr *net);
/* In central-agent function f: the inputs (I/O statements into all
 * replicates of net) checked, then one loop over net's lane blocks that
 * moves each block's inputs and runs `call` on that block. */
IrStmt *lower_batch(Lw *lw, IrFunc *f, Stmt *const *inputs, int n, const Expr *call, IrExpr *net);

#endif
