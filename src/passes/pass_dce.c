/* pass_dce.c -- functions that nothing calls are removed.
 *
 * Every subroutine gets its functions whether the program calls it or
 * not, node subroutines one per group and lane versions per group or
 * bundle; most instances of a typical program are never called.  Removing
 * them keeps the C compiler's work (and the fields they name) to what the
 * program can run. */
#include "passes_internal.h"

void pass_dce(PassCtx *c)
{
    IrModule *m = c->m;
    pu_mark_reached(m);
    int kept = 0, removed = 0;
    for (int i = 0; i < m->funcs.len; i++) {
        IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        if (f->reached)
            m->funcs.items[kept++] = f;
        else {
            removed++;
            pu_trace(c, "dce", "%s: removed (not called)", f->name);
        }
    }
    m->funcs.len = kept;
    (void)removed;
}
