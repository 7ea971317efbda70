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

#endif
