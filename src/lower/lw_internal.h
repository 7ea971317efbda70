/* lw_internal.h -- state shared by the files that lower the annotated tree
 * to the loop IR (lw_*.c).
 *
 * lw_module.c drives it: layouts, one IrFunc per subroutine instance,
 * bodies, globals, start-up and the runtime's tables.  lw_expr.c lowers
 * expressions and objects, lw_stmt.c statements of one replicate
 * (including the group, interface and replicate calls, REDUCTION, WTA and
 * topology changes), lw_lanes.c the lane versions that run RT_LANES
 * replicates at once (masks, hoisted function calls), lw_merge.c MERGE
 * procedures, lw_types.c layouts and the functions and tables derived
 * from them.
 *
 * The lowering is naive on purpose: every element lives in its record and
 * every statement does what it says.  What the program keeps where is the
 * passes' business (src/passes/). */
#ifndef CUPITC_LW_INTERNAL_H
#define CUPITC_LW_INTERNAL_H

#include "cupitc/ir.h"
#include "cupitc/lower.h"
#include "lower_internal.h"

/* The subroutine whose body is being lowered. */
typedef struct LwFn {
    const Symbol *subr;
    SubrContext ctx;
    LowerNet *net;      /* network, node and connection instances */
    int group;          /* node instances: the group of ME */
    int bundle;         /* connection lane code: the bundle it runs on, else -1 */
    const Type *me_type;
    bool merge_inst;    /* an object subroutine run from a MERGE procedure */
    bool lane;          /* lane code */
    IrFunc *f;
    /* the function's fixed variables (NULL where absent) */
    IrVar *net_v, *rep_v, *idx_v, *b_v, *k_v, *me_v, *ms_v, *you_v, *ret_v, *m0_v;
} LwFn;

/* A store through the bare network variable in the central agent
 * (`net.path`, semantics: the element of every replicate): the subscript
 * indices of the path, evaluated once into temporaries before the store
 * (lw_bare_begin); the store then goes to replicate 0 and lw_bare_copy
 * copies the stored location to the other replicates. */
typedef struct LwBare {
    struct LwBare *up;   /* the enclosing one (a FOR body may store again) */
    Expr *target;
    Expr **idx;          /* n of them (lw_bare_add grows them) */
    IrVar **tmp;
    int n, cap;
} LwBare;

typedef struct Lw {
    IrModule *m;
    Program *prog;
    SemaInfo *si;
    Arena *arena;
    LowerPlan *plan;    /* network shapes */
    IrOptions opts;
    LwFn *fn;
    IrStmt *blk;        /* where statements go */
    bool failed;

    /* lane code */
    IrVar **masks;      /* the enclosing masks, innermost last */
    int nmasks, cap_masks;
    int loop_base;      /* where the innermost loop's mask sits */
    IrVar *lane;        /* the lane index of the lane loop being filled */
    PtrVec hoist_exprs; /* object function calls already lowered ... */
    PtrVec hoist_vars;  /* ... and the lane arrays holding their results */

    /* (Symbol*, IrFunc*, 0) -> IrVar*: locals and parameters; (Symbol*,
       NULL, 0) globals */
    PtrMap vars;
    /* (Symbol*, LowerNet*, group/bundle * 2 + lane) -> IrFunc* */
    PtrMap funcs;
    PtrMap type_fns;    /* (Type*, NULL, IrFuncRole) -> IrFunc* */
    PtrMap helpers_by_name; /* extern name -> IrFunc* (EXTERNAL prototypes) */
    PtrVec may_topo;    /* Symbol*: object subroutines that may change topology */
    PtrMap recursive;   /* (Symbol*, NULL, 0): subroutines that can call themselves */
    bool conn_deletion; /* some connection procedure deletes its ME */
    /* inside a multi-object call (a.p () AND b.q ()): the components'
       topology requests are committed once, after the last component */
    bool defer_commit;
    IrExpr *deferred_commit; /* the network to commit for, or NULL */
    PtrVec merge_callees; /* Symbol*: object subroutines MERGE procedures call */
    /* cg_args: arguments replaced by temporaries (a copied-in node), or NULL */
    IrExpr **arg_temps; /* n_arg_temps of them */
    int n_arg_temps;
    /* interface call sites in lane code -> their lane-array argument
       temporaries (passes recompute connection values from them) */
    PtrMap site_args;   /* (Expr* call, IrFunc*, 0) -> IrVar** (one per parameter) */
    /* (IrFunc*, NULL, 0) -> PtrVec* of const char*: the IFs the const-branch
       decision left with one arm (lower_const_branches) */
    PtrMap const_branches;
    IrVar *source_file; /* cp_source_file */
    /* a recomputed connection value being lowered (lower_lazy_value): the
       parameters of lazy_proc come from slot lazy_slot of the node record
       lazy_node, ME is the connection record lazy_me */
    PtrVec type_tables, net_tables; /* lw_types.c: the runtime's tables */
    PtrMap in_network;  /* (Type*, NULL, 0): a network type or a type of its groups or bundles */
    const Symbol *lazy_proc;
    IrExpr *lazy_node, *lazy_me;
    int lazy_slot;
    /* stores through the bare network variable being lowered (innermost
       first), and the replicate such a variable means while lw_bare_copy
       builds the location in replicate r (NULL: replicate 0) */
    LwBare *bare;
    IrVar *bare_rep;
} Lw;

/* ---- lw_module.c ---- */
void lw_unsupported(Lw *lw, Loc loc, const char *what);
bool lw_may_topo(Lw *lw, const Symbol *subr);
IrFunc *lw_subr_fn(Lw *lw, const Symbol *s);               /* global, REDUCTION, WTA, merge */
IrFunc *lw_node_fn(Lw *lw, const LowerNet *net, int group, const Symbol *s); /* one replicate */
IrFunc *lw_conn_fn(Lw *lw, const Symbol *s);               /* connection/network subroutine, one replicate */
IrFunc *lw_lane_fn(Lw *lw, const Symbol *s, const LowerNet *net, int group_or_bundle);
IrFunc *lw_merge_callee_fn(Lw *lw, const Symbol *s);
IrFunc *lw_type_fn(Lw *lw, const Type *t, IrFuncRole role); /* INIT, LANE_*, GATHER */
const char *lw_cident(Lw *lw, const char *name);            /* keyword-safe C name */
const char *lw_local_name(Lw *lw, const Symbol *sym);
bool lw_is_builtin(Lw *lw, const Symbol *subr, IrHelper *h);

/* Statement building: appends to lw->blk. */
IrStmt *lw_add(Lw *lw, IrStmtKind k, Loc loc);
IrVar *lw_decl(Lw *lw, const char *stem, const IrType *t, IrExpr *init, Loc loc);
IrVar *lw_decl_uninit(Lw *lw, const char *stem, const IrType *t, Loc loc);
void lw_assign(Lw *lw, IrExpr *lhs, IrExpr *rhs, Loc loc);
void lw_eval(Lw *lw, IrExpr *e, Loc loc);
/* A loop over the RT_LANES lanes appended to the current block; its var is
 * the lane index, its body an empty block the caller fills. */
IrStmt *lw_lanes_loop(Lw *lw, Loc loc);
/* A lane array of et named after stem whose every lane is set to v (v is
 * evaluated once per lane). */
IrVar *lw_fill_lanes(Lw *lw, const char *stem, const IrType *et, IrExpr *v, Loc loc);
/* Opens a nested block (appended to the current one) and makes it current;
 * lw_close returns to the enclosing one. */
IrStmt *lw_open(Lw *lw, Loc loc);
void lw_close(Lw *lw, IrStmt *saved);
/* A statement's children: fill `into` (a block) with fn. */
IrStmt *lw_push(Lw *lw, IrStmt *into);

/* ---- recursion.c ---- */
void lw_find_recursion(Lw *lw);
/* A recursive subroutine's function starts with a check of the stack. */
void lw_stack_check(Lw *lw, const Symbol *s);

/* ---- lw_types.c ---- */
const IrType *lw_vt(Lw *lw, const Type *t);                 /* a CuPit value type */
IrLayout *lw_plain(Lw *lw, const Type *t);
IrLayout *lw_lanes_layout(Lw *lw, const Type *t);
IrLayout *lw_shared_layout(Lw *lw, const Type *t);
IrField *lw_field(Lw *lw, const IrLayout *l, const Symbol *elem);
bool lw_has_lanes(const Type *t);                           /* node, connection, network */
/* A CONST parameter passed as a pointer to const: records and arrays of
 * EXTERNAL subroutines, and those too large for the stack (more than
 * 64 KB) of the other global subroutines. */
bool lw_const_by_address(const Symbol *p);
bool lw_type_has_init(Lw *lw, const Type *t);
void lw_default_init(Lw *lw, const Type *t, IrExpr *lv, Loc loc);
void lw_make_layouts(Lw *lw);
void lw_declare_type_fns(Lw *lw);
void lw_init_fn_body(Lw *lw, IrFunc *f);
/* After the passes: the lane get/put/rec/gather bodies, the element
 * leaves and network shapes (they follow the final layouts). */
void lw_layout_fn_body(Lw *lw, IrFunc *f);
bool lw_in_network(Lw *lw, const Type *t);
void lw_declare_tables(Lw *lw);
void lw_build_tables(Lw *lw);
IrVar *lw_desc_var(Lw *lw, const LowerNet *net);

/* ---- lw_expr.c ---- */
IrExpr *lw_expr(Lw *lw, Expr *e);
IrExpr *lw_expr_as(Lw *lw, Expr *e, const Type *to);
IrExpr *lw_lvalue(Lw *lw, Expr *e);
IrExpr *lw_convert_to(Lw *lw, IrExpr *x, const Type *from, const Type *to);
/* Network object e: its rt_net pointer and replicate (NULL: all). */
void lw_net_object(Lw *lw, Expr *e, IrExpr **net, IrExpr **rep, LowerNet **lnet);
/* The arguments of a call of subr, after `prefix` (may be NULL). */
void lw_args(Lw *lw, const Symbol *subr, PtrVec *args, PtrVec *out);
IrExpr *lw_global_call(Lw *lw, const Symbol *f, PtrVec *args);
/* The statement calling global procedure f (args); around a standard I/O
 * procedure rt_lib_at/rt_lib_done give it the call's position (cupit_rt.h). */
void lw_global_call_stmt(Lw *lw, const Symbol *f, PtrVec *args, Loc loc);
IrExpr *lw_pos(Lw *lw, Loc loc);
IrExpr *lw_chk(Lw *lw, const Type *t, Loc loc, IrExpr *v64); /* narrow a 64-bit value */
IrExpr *lw_idx(Lw *lw, Loc loc, IrExpr *i, IrExpr *n, const char *what);
/* lw_idx of i, the lowered index expression index, against a size n read
 * from the network (a group's count, the number of replicates): where the
 * index may move storage (lw_storage_may_move, lw_moves_storage: it deletes
 * or copies nodes, replicates), it is evaluated before n is read -- the
 * check's arguments are unsequenced in C, and a stale n let an index past
 * the new end through. */
IrExpr *lw_idx_first(Lw *lw, Loc loc, const Expr *index, IrExpr *i, IrExpr *n, const char *what);
IrExpr *lw_i64(Lw *lw, IrExpr *x);
IrExpr *lw_me(Lw *lw);          /* ME as a record lvalue */
IrExpr *lw_cstr(Lw *lw, const char *s);
/* A node X.g[i] named in the central agent of a program with lane blocks. */
typedef struct LwCaNode {
    IrExpr *net, *rep, *idx; /* idx may refer to the network through n_ */
    int g;
    const Type *node;
} LwCaNode;
bool lw_ca_node(Lw *lw, Expr *obj, LwCaNode *out);
/* Such a node as a plain record value (NULL when obj is not such a node). */
IrExpr *lw_ca_node_value(Lw *lw, Expr *obj);
/* Stores `value` (a plain node record) into such a node: into its lane
 * while the network is in lane blocks, else into its plain record; false
 * (and nothing emitted) when obj is not such a node. */
bool lw_ca_node_store(Lw *lw, Expr *obj, IrExpr *value, Loc loc);
/* The index of a subscript: its temporary while a store through the bare
 * network variable is lowered (LwBare), else lowered here. */
IrExpr *lw_sub_index(Lw *lw, Expr *idx);
/* The C condition "replicated in lane blocks" of net n. */
IrExpr *lw_blocked(Lw *lw, IrExpr *net);
/* Split X[] / X[a...b] / X. */
void lw_split_multi(Expr *pv, Expr **base, Expr **range);
IrExpr *lw_compound_rhs(Lw *lw, Stmt *s, IrExpr *cur);
/* The same with the value already lowered (x, of the value's type). */
IrExpr *lw_compound_value(Lw *lw, Stmt *s, IrExpr *cur, IrExpr *x);
/* Whether evaluating e may move or free network storage: it calls a
 * central-agent subroutine (which may REPLICATE, EXTEND, ...) or a network
 * function that calls a procedure on its ME.  Where lw_storage_may_move,
 * such a value or argument is evaluated before the address of a location in
 * a network is taken (the location may be in the storage it frees). */
bool lw_moves_storage(const Expr *e);
/* Whether storage can move while code here runs (so that lw_moves_storage
 * matters): the central agent, and the plain code of network subroutines
 * (a network function on ME may delete or copy nodes, EXTEND, CONNECT).
 * Not lane code: its network is replicated, its topology frozen. */
bool lw_storage_may_move(const Lw *lw);
/* Where lw_storage_may_move, when an argument of subr moves storage: the CONST
 * arguments evaluated into temporaries in the current block (lw->arg_temps,
 * taken by the next lw_args); false (nothing done) otherwise. */
bool lw_args_first(Lw *lw, const Symbol *subr, PtrVec *args);
/* Where lw_storage_may_move: the subscripts in the path target that move
 * storage, evaluated into temporaries in the current block before the
 * address is taken (lw_sub_index reads them while b is on lw->bare);
 * false (nothing done) when there are none.  end takes b off again. */
bool lw_indices_first(Lw *lw, Expr *target, LwBare *b);
void lw_indices_end(Lw *lw, LwBare *b);
IrExpr *lw_lane_idx(Lw *lw);    /* the current lane index (lane code) */

/* ---- lw_stmt.c ---- */
void lw_block(Lw *lw, Block *b);
void lw_locals(Lw *lw, Block *b);
void lw_declare_locals(Lw *lw, Block *b);
/* Declares lo/hi clipped to [0, count-1] and the interval. */
void lw_range(Lw *lw, Expr *range, IrExpr *count, IrVar **lo, IrVar **hi, Loc loc);
/* Whether bundle b touches the interface ifc of group g. */
bool lw_bundle_at(Lw *lw, int b, int group, const Symbol *ifc);
/* A FOR over the connections of bundle b at node `node` of the interface
 * ifc of group g; NULL when the bundle does not touch it. */
IrStmt *lw_conn_loop(Lw *lw, int b, int group, const Symbol *ifc, IrExpr *net, IrExpr *node,
                     IrVar **k, Loc loc);
IrExpr *lw_par(Lw *lw, IrExpr *net, IrExpr *work, bool lanes);
/* proc on the replicates lo .. hi of net; argv: its arguments, already
 * evaluated (lw_args_to_temps) before lo and hi, since a function in them
 * may change the replication. */
void lw_call_replicates(Lw *lw, const Symbol *proc, PtrVec *argv, IrExpr *net, IrVar *lo,
                        IrVar *hi, bool single, Loc loc, const void *origin);
void lw_args_to_temps(Lw *lw, const Symbol *subr, PtrVec *args, PtrVec *out, Loc loc);
void lw_broadcast_args(Lw *lw, const Symbol *proc, PtrVec *temps, PtrVec *out, Loc loc);
/* Stores through the bare network variable (LwBare): begin declares the
 * index temporaries in the current block (false when target is not such a
 * location: nothing done); copy copies the location from replicate 0 to
 * replicates 1 .. nreps-1 in the representation the network has then; end
 * forgets the temporaries. */
bool lw_bare_applies(Lw *lw, Expr *target);
bool lw_bare_begin(Lw *lw, Expr *target, LwBare *b, Loc loc);
void lw_bare_add(Lw *lw, LwBare *b, Expr *idx);
void lw_bare_copy(Lw *lw, LwBare *b, Loc loc);
void lw_bare_end(Lw *lw, LwBare *b);
void lw_for_var_once(Lw *lw, Expr *var, LwBare *b, Loc loc);
/* the FOR variable's next value; stop: whether the round was the last */
IrExpr *lw_for_step(Lw *lw, Expr *var, bool down, IrVar *stop, Loc loc);

/* ---- lw_lanes.c ---- */
void lw_lane_body(Lw *lw, IrFunc *f);
IrField *lw_slot_field(Lw *lw, const Type *node, int slot, const Symbol *proc, const Symbol *param);
const char *lw_lane_hoisted_name(Lw *lw, const Expr *e);
IrExpr *lw_lane_hoisted(Lw *lw, const Expr *e);

/* ---- lw_merge.c ---- */
void lw_merge_calls_collect(Lw *lw);
bool lw_in_merge(const Lw *lw);
IrExpr *lw_merge_call(Lw *lw, Expr *call);
bool lw_merge_has_calls(Lw *lw, const Type *t);
bool lw_merge_varies(Lw *lw, const Symbol *merge);
void lw_merge_callee_body(Lw *lw, IrFunc *f);
void lw_lane_merge_body(Lw *lw, IrFunc *f);
void lw_lane_fold_body(Lw *lw, IrFunc *f);

#endif
