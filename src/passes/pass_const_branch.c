/* pass_const_branch.c -- IFs that every call of a lane version decides.
 *
 * A node procedure written for several layers selects its code with Bool
 * (or integral: a mode number) CONST parameters: `PROCEDURE activate (Bool CONST isInput) IS IF
 * isInput THEN ... ELSE ... END`, called as `ME.i[].activate (true)` and
 * `ME.h[].activate (false)`.  Each group has its own lane version, and
 * where every call of that version passes the same constant (the
 * transport analysis meets the arguments of all calls it walks,
 * lower_known_arg), lowering builds only the arm taken, in place and
 * without masks: one straight-line version per group, whose first
 * statement may then be a sum the dense pass turns into a kernel.
 *
 * The decision is made while lowering (the masked IF is never built, so
 * nothing is built twice); -fno-const-branch turns it off through
 * LowerOptions.const_branch.  This pass only reports what was decided. */
#include "passes_internal.h"

void pass_const_branch(PassCtx *c, IrFunc *f)
{
    const char *const *notes = c->trace ? lower_const_branches(c->lw, f) : NULL;
    for (int i = 0; notes && notes[i]; i++)
        pu_trace(c, "const-branch", "%s", notes[i]);
}
