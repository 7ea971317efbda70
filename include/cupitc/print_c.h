/* print_c.h -- the C printer: one translation unit from an IrModule.
 *
 * The printer decides nothing: every loop, record member, mask and
 * parallel region it prints is in the module (ir.h).  The same module
 * always prints the same bytes. */
#ifndef CUPITC_PRINT_C_H
#define CUPITC_PRINT_C_H

#include "cupitc/emit.h"
#include "cupitc/ir.h"

/* Prints m; the bodies of streamed functions come from hooks (may be NULL
 * when there are none).  Returns false if building one failed. */
bool print_c_module(const IrModule *m, Emitter *out, const IrBodyHooks *hooks);

#endif
