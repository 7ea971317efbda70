/* lower.h -- lowering: what the C emitter needs to know beyond the
 * annotated tree.
 *
 * lower_program() runs after semantic analysis and before C generation.  It
 * computes
 *   - the static shape of every network type: its node groups and its
 *     connection bundles (shape.c);
 *   - the plan for lane code (replicated networks), which decides where the
 *     values of connection elements live (transport.c):
 *       * a read of a connection element whose value was always written,
 *         earlier in the same network call, by one known assignment
 *         `ME.e := expr` in a connection procedure called on an interface
 *         becomes a *lazy read*: it evaluates `expr` again, with the
 *         procedure's arguments kept per node ("slots") instead of per
 *         connection.  This is the "transport then reduce" fusion: a
 *         forward pass `ME.out[].send (x)` followed by
 *         `REDUCTION ME.in[].signal:sum` sums `x[src] * weight` directly.
 *       * a write that no read needs from memory is *elided*.
 *       * an element that lane code never needs in memory is *dropped*
 *         from the lane record.
 *   - which connection elements all replicates hold equal whenever lane
 *     code runs, such as weights changed only right after MERGE
 *     (uniform.c): a lane record holds them once instead of once per lane.
 *     Everything else stays as the program says.  The plan only changes
 *     where values are kept, never what is computed; the tests compare
 *     every program with and without it (-fno-fuse, -O0).
 * Everything lives in the compilation's arena. */
#ifndef CUPITC_LOWER_H
#define CUPITC_LOWER_H

#include <stdbool.h>
#include <stdio.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/sema.h"

/* ---- network shapes ------------------------------------------------------ */

/* One connection bundle of a network type: all connections from one
 * (group, OUT interface) to one (group, IN interface). */
typedef struct LowerBundle {
    int src_group;
    Symbol *src_iface;
    int dst_group;
    Symbol *dst_iface;
    Type *conn;         /* connection type */
} LowerBundle;

/* The static shape of one network type. */
typedef struct LowerNet {
    Type *type;
    PtrVec groups;      /* Symbol* elements that are node groups/arrays */
    int nbundles;
    LowerBundle *bundles;
    int bundles_cap;
} LowerNet;

/* ---- the lane plan ---------------------------------------------------------- */

/* The write whose value a lazy read recomputes: `assign` (ME.e := expr in
 * the connection procedure `proc`), executed through the interface call
 * `site` (ME.i[].proc (args) in a node procedure). */
typedef struct LazyWriter {
    int slot;           /* the site's slot number: lane record elements z<slot>_<param> */
    const Expr *site;   /* the interface call */
    const Symbol *proc; /* the connection procedure called */
    const Stmt *assign; /* ME.e := expr, at the top level of proc's body */
    bool from_src;      /* an OUT interface: the slot is at the source node */
} LazyWriter;

/* The arguments of one interface call, kept per node in its lane record. */
typedef struct LowerSlot {
    int id;
    const Symbol *proc; /* the connection procedure: one slot per CONST parameter */
} LowerSlot;

typedef struct LowerOptions {
    bool lanes;         /* replicated networks run in lane blocks */
    bool fuse;          /* lazy reads, elided writes, dropped elements */
} LowerOptions;

typedef struct LowerPlan LowerPlan;

LowerPlan *lower_program(Program *prog, Arena *arena, const LowerOptions *opts);

/* Shapes, in network type definition order. */
int lower_net_count(const LowerPlan *p);
LowerNet *lower_net_at(const LowerPlan *p, int i);
LowerNet *lower_net_of(const LowerPlan *p, const Type *net_type);
int lower_group_index(const LowerNet *net, const Symbol *elem);
int lower_bundle_index(const LowerNet *net, int src_group, const Symbol *src_iface,
                       int dst_group, const Symbol *dst_iface);

/* The writer a read of a connection element recomputes, or NULL when the
 * read loads from memory.  `site` is the reading Expr (ME.e, or the target
 * of a compound assignment) in a connection subroutine, or the REDUCTION /
 * WTA statement in a node subroutine; `bundle` the bundle it reads. */
const LazyWriter *lower_lazy_read(const LowerPlan *p, const LowerNet *net, int bundle,
                                  const void *site);
/* Whether the assignment `assign` (in a connection procedure) stores to
 * memory when the procedure runs on `bundle` of `net` in lane code. */
bool lower_write_stored(const LowerPlan *p, const LowerNet *net, int bundle,
                        const Stmt *assign);
/* The slot number the interface call `site` fills, or -1 when no lazy read
 * uses its arguments. */
int lower_site_slot(const LowerPlan *p, const Expr *site);
/* The slots (LowerSlot*) in the lane record of `node_type`. */
const PtrVec *lower_node_slots(const LowerPlan *p, const Type *node_type);
/* Whether the lane record of a connection type keeps element `elem`. */
bool lower_elem_kept(const LowerPlan *p, const Type *conn_type, const Symbol *elem);
/* Whether element `elem` of a connection type is equal in all replicates
 * whenever lane code runs (uniform.c): the lane record holds it once. */
bool lower_elem_shared(const LowerPlan *p, const Type *conn_type, const Symbol *elem);

/* Whether the central agent's call `call` (net[].p (...) or net.p (...))
 * always finds all replicates equal, leaves them equal and does nothing
 * else: every replicate computes the same, so after MERGE it can run on one
 * lane block whose result is then copied to the others (uniform.c). */
bool lower_call_uniform(const LowerPlan *p, const Expr *call);

/* Whether lane code can run node subroutine `s` on `group` of `net`, or
 * connection subroutine `s` on `bundle` of `net` (a network call of the
 * central agent reaches it).  Instances that cannot run get no body that
 * would need the elements the plan leaves out. */
bool lower_lane_reached(const LowerPlan *p, const Symbol *s, const LowerNet *net,
                        int group_or_bundle);

/* Whether subroutine s or anything it calls names an I/O area (IO object):
 * a call that does not may run block by block interleaved with the I/O
 * assignments before it. */
bool lower_uses_io(LowerPlan *p, const Symbol *s);

/* Statistics for --dump-lanes and the tests. */
void lower_dump(const LowerPlan *p, FILE *out);

#endif
