/* ir.h -- the loop IR between the annotated tree and C (docs/ir.md).
 *
 * Lowering (src/lower/) turns the analysed program into an IrModule: record
 * layouts, functions whose bodies are explicit loops over replicates, lane
 * blocks, nodes of a group, connections of a bundle and lanes, reductions
 * and WTA as IRS_REDUCE regions with their combine function, masks as
 * ordinary lane-array variables, topology changes and I/O as runtime calls.
 * Passes (src/passes/) rewrite the module; the verifier (ir_verify) checks
 * it after each of them in the test build; the C printer (src/emit_c/)
 * prints it and decides nothing.
 *
 * The IR is close to C on purpose: every expression has one C meaning, so
 * the printer is a plain walk.  What makes it a loop IR are the domain
 * nodes the passes reason about: IRS_FOR with its kind (the group, bundle
 * or replicates it ranges over) and parallel annotation, the record
 * locators IRE_NODES / IRE_CONNS / IRE_NETREC with a layout, IRE_FIELD with
 * a field of that layout (the only way to name an element), IRS_REDUCE /
 * IRS_YIELD, and calls between functions.  A layout is the one source of
 * truth of what a record holds: passes drop or move fields there, and an
 * access to a field its layout does not hold is a verifier error.
 *
 * Everything lives in the module's arena. */
#ifndef CUPITC_IR_H
#define CUPITC_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/diag.h"
#include "cupitc/sema.h"

typedef struct IrType IrType;
typedef struct IrLayout IrLayout;
typedef struct IrField IrField;
typedef struct IrVar IrVar;
typedef struct IrExpr IrExpr;
typedef struct IrStmt IrStmt;
typedef struct IrFunc IrFunc;
typedef struct IrModule IrModule;
typedef struct LowerNet LowerNet;

/* ---- types ------------------------------------------------------------- */

typedef enum IrTypeKind {
    IRT_VOID,
    IRT_BOOL,    /* C bool (conditions, flags) */
    IRT_INT,     /* C int (lane indices) */
    IRT_I32,     /* int32_t (node, connection, replicate indices; masks) */
    IRT_I64,     /* int64_t (unchecked integer arithmetic) */
    IRT_U64,     /* uint64_t */
    IRT_SIZE,    /* size_t */
    IRT_VALUE,   /* a CuPit type's C type: cp_real, cp_int, cpT_R, ... (value) */
    IRT_RECORD,  /* the C struct of a layout: cpT_X, cpV_X (lanes), cpS_X (shared) */
    IRT_PTR,     /* pointer to elem */
    IRT_ARRAY,   /* C array of n elems (n == -1: RT_LANES) */
    IRT_VEC,     /* a vector of RT_LANES elems (cp_vreal, cp_vint) */
    IRT_NET,     /* rt_net */
    IRT_IO,      /* cp_io */
    IRT_POS,     /* rt_srcpos */
    IRT_CSTR,    /* const char * */
    IRT_OPAQUE,  /* void */
    IRT_NAMED,   /* a C type of the runtime by name (rt_field, rt_group_desc, ...) */
    IRT__COUNT
} IrTypeKind;

struct IrType {
    IrTypeKind kind;
    bool is_const;         /* IRT_PTR: pointer to const */
    const Type *cupit;     /* IRT_VALUE */
    const IrLayout *layout;/* IRT_RECORD */
    const IrType *elem;    /* IRT_PTR, IRT_ARRAY, IRT_VEC */
    int n;                 /* IRT_ARRAY: length, -1 for RT_LANES, -2 unsized [] */
    const char *name;      /* IRT_NAMED */
    /* types built from this one, made once (ir_t_ptr, ir_t_lanes, ir_t_array) */
    const IrType *ptr_to, *const_ptr_to;
    const IrType *arrays_of; /* IRT_ARRAY types of this element, linked by next_array */
    const IrType *next_array;
};

/* ---- layouts: what a record holds ------------------------------------------- */

typedef enum IrForm {
    IRF_PLAIN,   /* one replicate's record: cpT_X */
    IRF_LANE,    /* RT_LANES replicates: every element an array over the lanes, cpV_X */
    IRF_SHARED,  /* elements every replicate of a block holds equal, cpS_X */
} IrForm;

struct IrField {
    const IrLayout *layout;
    const char *name;      /* C member name */
    const Symbol *elem;    /* the CuPit element, NULL for a slot */
    const IrType *type;    /* the member's C type (lane arrays: IRT_ARRAY of RT_LANES) */
    const Type *vtype;     /* the element's CuPit type (per lane) */
    bool lanes;            /* an array over the lanes */
    bool dropped;          /* no longer in the record (a pass proved nothing needs it) */
    /* slots (node lane records): parameter `param` of the interface call
       with slot number `slot`, kept per node for recomputed reads */
    int slot;
    const Symbol *slot_param, *slot_proc;
    int uses;              /* scratch of the passes: accesses counted (pu_count_uses) */
};

struct IrLayout {
    const Type *type;      /* node, connection, network, record or array type */
    IrForm form;
    const char *cname;     /* cpT_X, cpV_X, cpS_X */
    PtrVec fields;         /* IrField*, in member order */
    bool used;             /* IRF_SHARED: the record exists (some field shared) */
};

/* ---- variables --------------------------------------------------------- */

typedef enum IrVarKind {
    IRV_LOCAL,   /* a CuPit local data object or an IR temporary */
    IRV_PARAM,   /* a function parameter */
    IRV_GLOBAL,  /* a CuPit global data object or a generated static */
} IrVarKind;

struct IrVar {
    const char *name;      /* C name, unique within its function */
    const IrType *type;
    IrVarKind kind;
    const Symbol *sym;     /* the CuPit object it holds, if any */
    bool is_const;         /* declared const */
    int id;                /* unique in the module (the verifier's def-use sets) */
    /* a pointer to lane records of a connection type: the pointer to the
       parallel shared records (the shared pass moves elements there) */
    IrVar *twin;
};

/* ---- expressions ------------------------------------------------------- */

typedef enum IrExprKind {
    IRE_INT,       /* integer constant of type (C literal with a cast) */
    IRE_REAL,      /* Real constant */
    IRE_BOOL,      /* true / false */
    IRE_STRING,    /* C string literal from bytes/len */
    IRE_NULL,      /* NULL */
    IRE_VAR,       /* var */
    IRE_FIELD,     /* a.field (a: a record value or lvalue of field->layout) */
    IRE_MEMBER,    /* a.name for structs outside layouts (intervals: min, max;
                      arrays: a) */
    IRE_INDEX,     /* a[b] */
    IRE_DEREF,     /* *a */
    IRE_ADDR,      /* &a */
    IRE_NODES,     /* the records of group g (c: a run-time group index instead) in
                      replicate / block b of net a, as a pointer of the layout's type */
    IRE_CONNS,     /* the records of bundle `g` likewise */
    IRE_NETREC,    /* the network's own record likewise */
    IRE_NETINFO,   /* run-time state of net a0 (IrNetInfo `info`, operands a1, a2) */
    IRE_UNARY,     /* op a */
    IRE_BINARY,    /* a op b */
    IRE_COND,      /* a ? b : c */
    IRE_CAST,      /* (type) a */
    IRE_CALL,      /* fn (args), ext (args), helper (args), or (*a) (args) */
    IRE_STRUCT,    /* compound literal of `type` with designated members (names,
                      args) or positional ones (names NULL) */
    IRE_TEMP_ADDR, /* (const T[]){a}: address of a temporary copy of a */
    IRE_STMTS,     /* statement expression: run body, value a */
    IRE_POS,       /* CP_POS(line): an rt_srcpos */
    IRE_SIZEOF,    /* sizeof (type) */
    IRE_OFFSETOF,  /* offsetof (type a->type, member) */
    IRE_FUNCREF,   /* the function fn as a value (a pointer) */
    IRE_NAMED,     /* a named constant of the runtime's headers (RT_F_REAL, RT_LANES) */
    IRE__COUNT
} IrExprKind;

typedef enum IrOp {
    IROP_NEG, IROP_NOT, IROP_BITNOT,                  /* unary */
    IROP_ADD, IROP_SUB, IROP_MUL, IROP_DIV, IROP_MOD, /* C semantics */
    IROP_LAND, IROP_LOR,
    IROP_EQ, IROP_NE, IROP_LT, IROP_GT, IROP_LE, IROP_GE,
    IROP_BITAND, IROP_BITOR, IROP_BITXOR,
    IROP_VADD,    /* vector + vector (IRT_VEC) */
    IROP__COUNT
} IrOp;

/* Run-time state of a network read by generated code (cupit_rt.h). */
typedef enum IrNetInfo {
    IRN_COUNT,       /* count[a1]: nodes in group a1 */
    IRN_NREPS,       /* nreps */
    IRN_NBLOCKS,     /* nblocks */
    IRN_BLOCKED,     /* blocks != NULL: replicated in lane blocks */
    IRN_DST_START,   /* bundles[a1].dst_start[a2] */
    IRN_SRC_START,   /* bundles[a1].src_start[a2] */
    IRN_BY_SRC,      /* bundles[a1].by_src[a2] */
    IRN_SRC_NODE,    /* bundles[a1].src_node[a2] */
    IRN_DST_NODE,    /* bundles[a1].dst_node[a2] */
    IRN_ANY_DEAD,    /* bundles[a1].any_dead */
    IRN_DEAD,        /* bundles[a1].dead[a2] */
    IRN_BUNDLE,      /* &bundles[a1] (an rt_bundle *) */
    IRN_NCONN,       /* bundles[a1].nconn */
    IRN_DENSE,       /* bundles[a1].dense */
    IRN_NAME,        /* desc->name */
    IRN_CONNS_ARRAY, /* the plain connection record pointers: reps[a1].conns
                        (void *const *) */
    IRN_BLOCK_CONNS, /* blocks[a1].conns (void *const *) */
    IRN__COUNT
} IrNetInfo;

/* Functions of the generated prelude and the runtime that IR calls by name
 * (ORDER HELPER: keep in sync with ir_helpers[] in ir.c). */
typedef enum IrHelper {
    IRH_NONE,
    IRH_CHK_I32, IRH_CHK_I16, IRH_CHK_I8,     /* (pos, int64): narrow, checked */
    IRH_IDX,                                  /* (pos, i, n, what): checked index */
    IRH_GRID_INDEX, IRH_GRID_ROW, IRH_GRID_SLICE, IRH_GRID_ROWS,
    IRH_DIV, IRH_MOD, IRH_SHL, IRH_SHR,       /* (pos, a, b) int64 */
    IRH_REAL_TO_INT,                          /* (pos, x) */
    IRH_FMOD_REAL,
    IRH_IN_IV, IRH_IN_IV1, IRH_IN_IV2, IRH_IN_RV,
    IRH_RANDOM_IV, IRH_RANDOM_IV1, IRH_RANDOM_IV2, IRH_RANDOM_RV,
    IRH_IPOW, IRH_RPOW_INT, IRH_RPOW,
    IRH_ANY, IRH_FIRST_LANE,                  /* masks */
    IRH_LIVE_COUNT, IRH_NET_WORK, IRH_PAR, IRH_PAR_LANES,
    IRH_SIGMOID, IRH_SIGMOID_PRIME, IRH_ABS_REAL, IRH_SIGN_REAL, IRH_MIN_REAL, IRH_MAX_REAL,
    IRH_ERROR,                                /* rt_error (pos, fmt, ...) */
    IRH_EXTEND, IRH_CONNECT, IRH_DISCONNECT, IRH_CONN_ADDRESS,
    IRH_COMMIT_TOPOLOGY, IRH_REQUEST_NODE_REPLICATE, IRH_REQUEST_CONN_REPLICATE,
    IRH_REPLICATE, IRH_MERGE, IRH_MERGE_FIRST, IRH_MERGE_SPREAD,
    IRH_IO_INPUT, IRH_IO_OUTPUT, IRH_IO_CHECK, IRH_IO_BLOCK,
    IRH_NET_CREATE, IRH_NET_DESTROY,
    IRH_MEMCPY, IRH_MEMSET,
    IRH_STRCMP,
    IRH_DENSE_SUM,                            /* rt_dense_sum (cupit_rt.h) */
    IRH_LIB_AT, IRH_LIB_DONE,                 /* (pos), (): around a standard I/O call */
    IRH_STACK_CHECK,                          /* (pos): entry of a recursive subroutine */
    IRH__COUNT
} IrHelper;

struct IrExpr {
    IrExprKind kind;
    IrOp op;               /* UNARY, BINARY */
    IrNetInfo info;        /* NETINFO */
    IrHelper helper;       /* CALL of a helper (fn NULL) */
    IrForm form;           /* NODES, CONNS, NETREC: the layout's form */
    int g;                 /* NODES: group; CONNS: bundle */
    const IrType *type;    /* the value's C type */
    IrExpr *a, *b, *c;     /* operands (see the kinds) */
    union {
        int64_t i;         /* INT, BOOL, POS (line) */
        double r;          /* REAL */
        struct { const char *bytes; int len; } str; /* STRING */
        IrVar *var;        /* VAR */
        const IrField *field; /* FIELD */
        const char *member;/* MEMBER, OFFSETOF, NAMED */
        IrStmt *body;      /* STMTS */
    } u;
    IrFunc *fn;            /* CALL of a function of the module */
    const char *ext;       /* CALL of an EXTERNAL function by C name */
    PtrVec args;           /* CALL, STRUCT: IrExpr* */
    const char **names;    /* STRUCT: member names (NULL: positional) */
    const IrLayout *layout;/* NODES, CONNS, NETREC, STRUCT of a layout */
    const void *origin;    /* the tree node it was lowered from (passes match on it) */
};

/* ---- statements -------------------------------------------------------- */

typedef enum IrStmtKind {
    IRS_BLOCK,     /* { decls and stmts }: list */
    IRS_DECL,      /* var [= a] (a NULL: zero-initialized) */
    IRS_ASSIGN,    /* a = b */
    IRS_EVAL,      /* a; (a call) */
    IRS_IF,        /* if (a) then else (else may be NULL) */
    IRS_LOOP,      /* for (;;) body */
    IRS_FOR,       /* counted loop, see IrForKind */
    IRS_BREAK,
    IRS_CONTINUE,
    IRS_RETURN,    /* return [a] */
    IRS_SWITCH,    /* switch (a) { case ints[i]: cases[i] } (each ends in break) */
    IRS_REDUCE,    /* a reduction or WTA region (IrReduce), body yields */
    IRS_YIELD,     /* one candidate of the enclosing IRS_REDUCE */
    IRS_SHUFFLE,   /* lane fold: a.field[l] := a.field[pair base], b.field[l] :=
                      a.field[pair base + w] for round w (IrShuffle) */
    IRS_COMMENT,   /* text */
    IRS__COUNT
} IrStmtKind;

/* What a statement is part of, for the passes that rewrite it. */
typedef enum IrTag {
    IRTAG_NONE,
    IRTAG_IFACE_CALL,   /* BLOCK: an interface call in lane code (origin: the call);
                           its argument temporaries, then one IFACE_BUNDLE each */
    IRTAG_IFACE_BUNDLE, /* BLOCK: the call on bundle g (aux: the records C, CS) */
    IRTAG_LANE_ASSIGN,  /* FOR lanes: one assignment in lane code (origin: the
                           statement; aux[0] the mask) */
    IRTAG_REPS_CALL,    /* BLOCK: a call on replicates from the central agent */
} IrTag;

typedef enum IrForKind {
    IRFOR_RANGE,   /* var = lo ... hi (inclusive), plain */
    IRFOR_NODES,   /* the nodes lo ... hi of group g */
    IRFOR_REPS,    /* replicates lo ... hi */
    IRFOR_BLOCKS,  /* lane blocks lo ... hi */
    IRFOR_LANES,   /* var = 0 ... RT_LANES - 1 (the lane index) */
    IRFOR_CONNS,   /* connections of bundle g at node a (out: through by_src) */
    IRFOR__COUNT
} IrForKind;

typedef enum IrReduceKind {
    IRR_SERIAL,    /* first candidate, then combine (one replicate) */
    IRR_LANES,     /* lane arrays: every lane sees the same candidates */
    IRR_LANES_MASKED, /* lane arrays: a candidate counts in lanes yield->a selects */
    IRR_VSUM,      /* a sum in a vector register (every lane, no mask) */
} IrReduceKind;

typedef struct IrReduce {
    IrReduceKind kind;
    bool wta;              /* WTA: keep the winner's position */
    IrFunc *combine;       /* REDUCTION function / WTA comparison */
    const IrType *vtype;   /* element value type (per lane) */
    IrVar *acc, *have;     /* accumulator, "has a value" (SERIAL: bool; LANES: first_) */
    IrVar *win, *winb;     /* WTA: position and bundle of the winner (lane arrays in
                              lane code); REDUCE_MASKED: win marks lanes with a value */
    IrVar *vacc;           /* VSUM: the vector accumulator */
    IrExpr *into;          /* REDUCTION: where the result goes (NULL for WTA) */
    IrExpr *mask;          /* lane code: the statement's active lanes (a lane array) */
    IrStmt *after;         /* WTA: run when there is a winner (serial), or once per
                              distinct winner (lane code); serial REDUCTION: run
                              after the store into `into` when there is a result */
    /* lane code: the lane index of the finishing loops (into and mask may
       name it), and what `after` sees of one distinct winner: its
       position, bundle and the mask of the lanes that chose it */
    IrVar *lane, *wpos, *wbundle, *wmask;
} IrReduce;

struct IrStmt {
    IrStmtKind kind;
    Loc loc;               /* the .nn position (#line), line 0: none */
    IrExpr *a, *b;
    IrVar *var;            /* DECL, FOR (the index; CONNS: k) */
    bool uninit;           /* DECL without a: left uninitialized */
    PtrVec list;           /* BLOCK: IrStmt*; SWITCH: IrStmt* cases */
    IrStmt *then, *els;    /* IF; LOOP/FOR: then is the body */
    /* FOR */
    IrForKind for_kind;
    int g;                 /* NODES: group; CONNS: bundle */
    IrExpr *lo, *hi;       /* inclusive bounds (RANGE, NODES, REPS, BLOCKS) */
    bool out;              /* CONNS: through the source side (by_src); a is the
                              network, b the node */
    IrVar *j;              /* CONNS out: the position in by_src */
    bool skip_dead;        /* CONNS: skip connections marked for deletion */
    bool simd;             /* LANES: vectorizable (#pragma omp simd) */
    IrExpr *par;           /* parallel for when this holds (NULL: serial) */
    /* SWITCH */
    int64_t *ints;
    /* REDUCE */
    IrReduce *red;
    /* YIELD: a value (lane code: a lane array), b position, c bundle,
       lane_sel per-lane selection (REDUCE_MASKED) */
    IrExpr *c, *lane_sel;
    /* SHUFFLE */
    const IrField *field;
    int w;
    /* COMMENT */
    const char *text;
    const void *origin;    /* the tree node it was lowered from */
    IrTag tag;
    IrVar *aux[2];         /* see IrTag; YIELD in a connection loop: C, CS */
};

/* ---- functions ---------------------------------------------------------- */

typedef enum IrFuncRole {
    IRFN_GLOBAL,      /* global procedure / function */
    IRFN_EXTERNAL,    /* EXTERNAL: a prototype only */
    IRFN_REDUCTION,   /* REDUCTION function (me, you) */
    IRFN_WTA,         /* WTA comparison */
    IRFN_OBJECT,      /* object subroutine on one replicate */
    IRFN_LANE,        /* object subroutine on a lane block (lane version) */
    IRFN_MERGE,       /* MERGE procedure on plain records */
    IRFN_MERGE_CALLEE,/* an object subroutine a MERGE procedure calls */
    IRFN_LANE_MERGE,  /* MERGE on lane records, lane by lane */
    IRFN_LANE_FOLD,   /* the lanes of one lane record into lane 0 */
    IRFN_INIT,        /* element initializers of a type */
    IRFN_LANE_GET,    /* one lane of a lane record into a plain record */
    IRFN_LANE_REC,    /* ... as a value */
    IRFN_LANE_PUT,    /* a plain record into one lane */
    IRFN_GATHER,      /* nodes of a group as plain records */
    IRFN_STARTUP,     /* main, cupit_init and the like */
    IRFN__COUNT
} IrFuncRole;

struct IrFunc {
    const char *name;
    const char *link_name; /* EXTERNAL: the symbol of the C function; `name` is
                              the prefixed name the generated C calls it by */
    IrFuncRole role;
    const IrType *ret;
    PtrVec params;         /* IrVar* */
    IrStmt *body;          /* NULL: declared only (EXTERNAL) */
    bool is_static;
    bool is_inline;
    bool exported;         /* visible outside (main, cupit_*) */
    bool pure;             /* no side effects (lane code may evaluate it in idle lanes) */
    const Symbol *subr;    /* the CuPit subroutine, if any */
    const Type *type;      /* INIT, LANE_*, GATHER: the type */
    const LowerNet *net;   /* object instances: the network type */
    int group;             /* node instances: group; connection lane code: bundle */
    bool lane;             /* runs on lane blocks (lane arrays, masks) */
    Loc loc;
    bool reached;          /* called, directly or not, from the program's start */
    bool streamed;         /* no whole-program pass needs it: its body is built
                              only when it is printed, and freed after */
    bool in_module;        /* the verifier's mark: one of the module's functions */
    IrVar *self;           /* object subroutines: the variable holding ME's record */
    int nvars;             /* fresh-name counter */
};

/* ---- the module ------------------------------------------------------------ */

/* One leaf of a record type for saveNetworks (rt_field). */
typedef struct IrLeaf {
    const char *offset;    /* C expression */
    const char *count, *stride;
    const char *kind;      /* RT_F_* */
} IrLeaf;

/* A static object of the generated file: a CuPit global, or a table the
 * runtime reads (network shapes, element leaves, parameter docs). */
typedef struct IrStatic {
    IrVar *var;            /* its name and type (IRT_ARRAY n -2: sized by rows) */
    IrExpr *init;          /* scalar or struct initializer, or NULL */
    PtrVec rows;           /* array initializer: IrExpr* (IRE_STRUCT) */
    bool is_const;
    const char *comment;   /* printed above it */
} IrStatic;

typedef struct IrOptions {
    bool line_directives;
    bool check_index;
    bool check_overflow;
    bool lanes;
    bool builtins;
    bool library;
    const char *source_name;
} IrOptions;

struct IrModule {
    /* Nodes come from `arena`; what lives as long as the module (types,
       layouts, functions, statics) from `perm`.  While one function is
       lowered and printed on its own (streamed, print_c.h), `arena` is a
       scratch arena emptied after it. */
    Arena *arena;
    Arena *perm;
    SemaInfo *si;
    struct LowerPlan *plan;   /* network shapes */
    IrOptions opts;
    PtrVec layouts;        /* IrLayout* */
    PtrVec funcs;          /* IrFunc*, in print order */
    PtrVec statics;        /* IrStatic*, in print order (after the prototypes) */
    /* (Type*, form) -> IrLayout*, and Type* -> its value IrType: open
       addressing, so that lookups cost nothing whatever the program's size */
    struct IrTypeSlot *type_slots;
    int type_slots_cap, type_slots_used;
    IrType simple[IRT__COUNT]; /* ir_t */
    bool random_in_parallel;
    int nvars;             /* variable ids */
    int next_tmp;
};

/* ---- construction (ir.c) -------------------------------------------------- */

IrModule *ir_module_new(Arena *arena, SemaInfo *si, const IrOptions *opts);

/* Types. */
const IrType *ir_t(IrModule *m, IrTypeKind k); /* the module's one type of kind k */
const IrType *ir_t_value(IrModule *m, const Type *t);
const IrType *ir_t_record(IrModule *m, const IrLayout *l);
const IrType *ir_t_ptr(IrModule *m, const IrType *elem, bool to_const);
const IrType *ir_t_array(IrModule *m, const IrType *elem, int n);
const IrType *ir_t_lanes(IrModule *m, const IrType *elem); /* [RT_LANES] */
const IrType *ir_t_vec(IrModule *m, const IrType *elem);
bool ir_type_same(const IrType *a, const IrType *b);

/* Layouts: one per (type, form), created on first use. */
IrLayout *ir_layout(IrModule *m, const Type *t, IrForm form);
IrLayout *ir_layout_find(const IrModule *m, const Type *t, IrForm form);
/* The field of layout l for element e (NULL if it has none). */
IrField *ir_field_of(const IrLayout *l, const Symbol *e);
IrField *ir_layout_add(IrModule *m, IrLayout *l, const char *name, const Symbol *elem,
                       const Type *vtype, bool lanes);
/* Fields still in the record. */
int ir_layout_live_fields(const IrLayout *l);

/* Variables and functions. */
IrVar *ir_var(IrModule *m, const char *name, const IrType *t, IrVarKind k);
IrVar *ir_fresh(IrModule *m, IrFunc *f, const char *stem, const IrType *t);
IrFunc *ir_func(IrModule *m, const char *name, IrFuncRole role, const IrType *ret);
IrVar *ir_param(IrModule *m, IrFunc *f, const char *name, const IrType *t);
/* The parameter of f called name, or NULL. */
IrVar *ir_param_named(const IrFunc *f, const char *name);

/* Expressions. */
IrExpr *ir_e(IrModule *m, IrExprKind k, const IrType *t);
IrExpr *ir_int(IrModule *m, const IrType *t, int64_t v);
IrExpr *ir_i32(IrModule *m, int64_t v);
IrExpr *ir_real(IrModule *m, const IrType *t, double v);
IrExpr *ir_bool(IrModule *m, bool v);
IrExpr *ir_string(IrModule *m, const char *bytes, int len);
IrExpr *ir_null(IrModule *m);
IrExpr *ir_ref(IrModule *m, IrVar *v);
IrExpr *ir_field(IrModule *m, IrExpr *rec, const IrField *f);
IrExpr *ir_member(IrModule *m, IrExpr *a, const char *name, const IrType *t);
IrExpr *ir_index(IrModule *m, IrExpr *a, IrExpr *i);
IrExpr *ir_deref(IrModule *m, IrExpr *p);
IrExpr *ir_addr(IrModule *m, IrExpr *a);
IrExpr *ir_nodes(IrModule *m, IrExpr *net, IrExpr *rep, int g, const IrLayout *l);
IrExpr *ir_conns(IrModule *m, IrExpr *net, IrExpr *rep, int b, const IrLayout *l);
IrExpr *ir_netrec(IrModule *m, IrExpr *net, IrExpr *rep, const IrLayout *l);
IrExpr *ir_netinfo(IrModule *m, IrNetInfo info, IrExpr *net, IrExpr *x, IrExpr *y);
IrExpr *ir_unary(IrModule *m, IrOp op, const IrType *t, IrExpr *a);
IrExpr *ir_binary(IrModule *m, IrOp op, const IrType *t, IrExpr *a, IrExpr *b);
IrExpr *ir_cond(IrModule *m, const IrType *t, IrExpr *c, IrExpr *a, IrExpr *b);
IrExpr *ir_cast(IrModule *m, const IrType *t, IrExpr *a);
IrExpr *ir_call(IrModule *m, IrFunc *f, int n, IrExpr *const *args);
IrExpr *ir_call_ext(IrModule *m, const char *name, const IrType *ret, int n, IrExpr *const *args);
IrExpr *ir_helper(IrModule *m, IrHelper h, const IrType *ret, int n, IrExpr *const *args);
IrExpr *ir_struct(IrModule *m, const IrType *t);
void ir_struct_add(IrModule *m, IrExpr *s, const char *name, IrExpr *v);
IrExpr *ir_temp_addr(IrModule *m, IrExpr *a);
IrExpr *ir_stmts(IrModule *m, IrStmt *body, IrExpr *value);
IrExpr *ir_pos(IrModule *m, int line);
IrExpr *ir_sizeof(IrModule *m, const IrType *t);
IrExpr *ir_offsetof(IrModule *m, const IrType *t, const char *member);
IrExpr *ir_funcref(IrModule *m, IrFunc *f);
IrExpr *ir_named(IrModule *m, const char *name, const IrType *t);
const IrType *ir_t_named(IrModule *m, const char *name);
IrStatic *ir_static(IrModule *m, IrVar *var, bool is_const);
/* Helpers with fixed arity, as a convenience. */
#define IR_ARGS(...) (sizeof((IrExpr *[]){__VA_ARGS__}) / sizeof(IrExpr *)), (IrExpr *[]){__VA_ARGS__}

/* Statements. */
IrStmt *ir_s(IrModule *m, IrStmtKind k, Loc loc);
IrStmt *ir_block(IrModule *m, Loc loc);
void ir_append(IrModule *m, IrStmt *block, IrStmt *s);

/* A copy of the expression tree e (variables, fields and functions are
 * shared; a statement expression's body too). */
IrExpr *ir_clone(IrModule *m, const IrExpr *e);
/* A copy of the statement tree s, expressions and reductions included
 * (variables are shared: the copy declares the same ones). */
IrStmt *ir_clone_stmt(IrModule *m, const IrStmt *s);

/* What a helper is called and whether calling it changes nothing. */
const char *ir_helper_name(IrHelper h);
bool ir_helper_pure(IrHelper h);

/* ---- walking (ir_walk.c) ---------------------------------------------------- */

/* Calls fn on every expression of s (pre-order: an expression before its
 * operands) and every statement (before its children), including the
 * bodies of statement expressions.  Return false from a callback to skip
 * the children. */
typedef struct IrVisitor {
    bool (*stmt)(struct IrVisitor *v, IrStmt *s);
    bool (*expr)(struct IrVisitor *v, IrExpr *e);
    void (*stmt_after)(struct IrVisitor *v, IrStmt *s);
    void *data;
} IrVisitor;
void ir_walk_stmt(IrVisitor *v, IrStmt *s);
void ir_walk_expr(IrVisitor *v, IrExpr *e);
void ir_walk_module(IrVisitor *v, IrModule *m);
/* Calls fn on the address of every expression slot under s (operands
 * before the expression that holds them), so that fn can replace it. */
typedef void (*IrSlotFn)(IrExpr **slot, void *data);
void ir_rewrite_exprs(IrStmt *s, IrSlotFn fn, void *data);

/* ---- checking and printing ------------------------------------------------------- */

/* Checks the module (docs/ir.md, "The verifier"); reports each violation
 * on `err` with `after` (the pass that ran last) and returns their number.
 * Functions whose body is not built (streamed) are left out. */
int ir_verify(const IrModule *m, const char *after, FILE *err);
/* The same for one function at a time (a streamed body), with state kept
 * between calls so that each costs what its function does. */
typedef struct IrVerifier IrVerifier;
IrVerifier *ir_verifier_new(const IrModule *m, FILE *err);
int ir_verify_func(IrVerifier *v, const IrFunc *f, const char *after);
void ir_verifier_free(IrVerifier *v);
/* Builds and frees the bodies of streamed functions around their use
 * (the C printer and the dump call them; pipeline.c provides them). */
typedef struct IrBodyHooks {
    bool (*build)(IrFunc *f, void *data);   /* false: a failure, reported */
    void (*release)(IrFunc *f, void *data);
    void *data;
} IrBodyHooks;
/* The readable form of --dump-ir; hooks may be NULL. */
bool ir_dump(const IrModule *m, FILE *out, const IrBodyHooks *hooks);

#endif
