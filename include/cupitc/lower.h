/* lower.h -- network shapes and the analyses of the annotated tree that
 * the IR passes consume.
 *
 * lower_program() runs after semantic analysis, before the lowering to the
 * loop IR (lower_ir.h).  It computes
 *   - the static shape of every network type: its node groups and its
 *     connection bundles (shape.c);
 *   - with lane blocks, the transport analysis (transport.c): for every
 *     read of a connection element in lane code, which assignments can
 *     have written the value it reads; where that is one unconditional
 *     `ME.e := expr` of the procedure called at one interface call, the
 *     read can evaluate `expr` again ("lazy read"), with the procedure's
 *     arguments kept per node ("slots"), and a write no other read needs
 *     need not be stored.  The fuse pass (src/passes/pass_fuse.c) makes
 *     these rewrites;
 *   - the uniformity analysis (uniform.c): which connection elements all
 *     replicates hold equal whenever lane code runs, and which calls of
 *     the central agent compute the same in every replicate (the shared
 *     and merge-first passes).
 * The analyses only describe the program; no code reads them but the
 * passes, which check their own preconditions and leave the IR as it is
 * where they cannot prove them.  Everything lives in the compilation's
 * arena. */
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

/* ---- the analyses ------------------------------------------------------------ */

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
    bool fuse;          /* run the transport and uniformity analyses */
    bool const_branch;  /* lane code keeps only the branch of an IF that
                           lower_known_arg decides */
    bool library;       /* --library: C may call saveNetworks at any time */
    bool arithmetic_pure; /* calls of sigmoid, absReal, ... reach the library's
                           functions (builtins on): no effects, the same result
                           for the same argument.  Off, a C file may replace
                           them (SubrInfo.varies_replaced) */
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
/* The Bool or integral CONST parameter `param` of node procedure `proc` as
 * every call of its lane version for `group` passes it: true and *value
 * (Bool: 0 or 1) when each call passes the same constant; false when not
 * known (no plan, calls that differ or pass a value the compiler cannot
 * tell). */
bool lower_known_arg(const LowerPlan *p, const Symbol *proc, const LowerNet *net, int group,
                     int param, int64_t *value);
bool lower_lane_reached(const LowerPlan *p, const Symbol *s, const LowerNet *net,
                        int group_or_bundle);

/* Whether subroutine s or anything it calls names an I/O area (IO object)
 * or is EXTERNAL code outside the standard library, which may reach one
 * without naming it (cupit_io, a kept pointer): a call that does neither
 * may run block by block interleaved with the I/O assignments before it. */
bool lower_uses_io(LowerPlan *p, const Symbol *s);

/* X[] / X[a...b] / X (a bare collection) -> the collection and its
 * interval (NULL for all of it). */
void lower_split_multi(Expr *pv, Expr **base, Expr **range);

/* Statistics for --dump-lanes and the tests. */
void lower_dump(const LowerPlan *p, FILE *out);

#endif
