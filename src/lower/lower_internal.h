/* lower_internal.h -- state shared by the lowering's files.
 *
 * shape.c collects the network shapes, transport.c computes the lane plan
 * of connection elements, lower.c drives both and answers the queries of
 * the C emitter. */
#ifndef CUPITC_LOWER_INTERNAL_H
#define CUPITC_LOWER_INTERNAL_H

#include <stdint.h>

#include "cupitc/lower.h"

/* A small map from (pointer, pointer, int) keys to pointers. */
typedef struct PtrMap {
    struct PtrMapSlot *slots;
    int nslots, used;
} PtrMap;

void *ptrmap_get(const PtrMap *m, const void *a, const void *b, int c);
void ptrmap_put(Arena *arena, PtrMap *m, const void *a, const void *b, int c, void *value);
/* Empties m, giving its table back to the arena (arena_release). */
void ptrmap_free(Arena *arena, PtrMap *m);

struct LowerPlan {
    Arena *arena;
    SemaInfo *si;
    LowerOptions opts;
    PtrVec nets;          /* LowerNet* in network type definition order */

    /* transport plan (transport.c) */
    PtrMap lazy;          /* (net, site, bundle) -> const LazyWriter* */
    PtrMap stored;        /* (net, assign, bundle) -> (void *)1 stored / (void *)2 elided */
    PtrMap site_slot;     /* (site, NULL, 0) -> LowerSlot* */
    PtrMap node_slots;    /* (node type, NULL, 0) -> PtrVec* of LowerSlot* */
    PtrMap reached;       /* (subroutine, net, group or bundle) -> (void *)1 */
    PtrMap known_args;    /* (node procedure, net, group) -> KnownArgs* */
    PtrMap net_local;     /* (network subroutine, NULL, 0) -> (void *)1 touches
                             nothing the transport walk follows / (void *)2;
                             3 and 4 while checking (net_local.c) */
    PtrMap gave_up;       /* (net, NULL, 0) -> (void *)1: no plan, all in memory */
    PtrMap shared;        /* (conn type, elem, 0) -> (void *)1: one value per block */
    PtrMap uses_io;       /* (subroutine, NULL, 0) -> (void *)1 no / (void *)2 yes */
    PtrMap uniform_calls; /* (CA call, NULL, 0) -> (void *)1 uniform / (void *)2 not */
    PtrMap pure_fns;      /* (global function, NULL, 2 * nesting + 0 recomputable /
                             1 effect-free) -> (void *)1 yes / (void *)2 no (transport.c) */
    bool planned;         /* the transport plan was made */
    int nslots;
    PtrVec dump;          /* const char* lines for lower_dump */
};

/* The Bool and integral CONST parameters of a node procedure's lane version
 * (the first 64) as every call the transport walk sees passes them: the
 * same constant in each (known[i], value[i]), or not (known[i] false). */
typedef struct KnownArgs {
    bool known[64];
    int64_t value[64];
} KnownArgs;

/* SubrInfo.varies of the global subroutine, REDUCTION or WTA function s
 * under these options: without arithmetic_pure a call of sigmoid,
 * absReal, ... may reach a C file's version, which may count its calls or
 * keep state, as any EXTERNAL code (SubrInfo.varies_replaced). */
bool lower_varies(const LowerPlan *p, const Symbol *s);
/* Whether f is one of the standard arithmetic functions and these options
 * make them the library's (no effects, one result per argument). */
bool lower_pure_library_function(const LowerPlan *p, const Symbol *f);

/* Whether network subroutine s, with the network subroutines it calls on
 * ME, computes only with ME's own elements, its parameters and locals,
 * constants and free global functions (net_local.c); once per subroutine. */
bool lower_net_local(LowerPlan *p, const Symbol *s);

/* The value of CONST parameter `param` (of the subroutine in question)
 * that every call concerned passes as the same constant; false where it
 * cannot be told. */
typedef bool (*LowerParamValue)(const void *cx, const Symbol *param, int64_t *v);

/* Whether a condition built from constants and such parameters with NOT,
 * AND, OR, XOR and the comparisons is decided (both operands known:
 * nothing with an effect is left unevaluated): 1 true, 0 false, -1 not
 * known (const_cond.c). */
int lower_decide_cond(const Expr *cond, LowerParamValue param, const void *cx);

void lower_collect_shapes(LowerPlan *p);
void lower_transport(LowerPlan *p);
void lower_uniform(LowerPlan *p);


#endif
