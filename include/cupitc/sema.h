/* sema.h -- the semantic model of a CuPit program (names, types, contexts).
 *
 * sema_analyze() resolves every name, types every expression, checks every
 * static rule of semantics.md and annotates the AST in place (the "set by
 * sema" fields of ast.h).  Code generation reads the annotated tree together
 * with the Types and Symbols declared here; it never has to re-derive a rule.
 * Everything lives in the compilation's arena. */
#ifndef CUPITC_SEMA_H
#define CUPITC_SEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"

/* ---- types ----------------------------------------------------------- */

/* ORDER TYPEKIND: keep in sync with kind_names[] in sema/types.c.
 * The integer kinds and the integer interval kinds are each ordered by
 * size, so "smaller" is "<" within a family (semantics.md §2.5). */
typedef enum TypeKind {
    TY_ERROR,       /* an erroneous construct: accepted everywhere, so that one
                       mistake yields one message (never reaches code generation) */
    TY_INT1,        /* 1-byte signed */
    TY_INT2,        /* 2-byte signed */
    TY_INT,         /* 4-byte signed */
    TY_REAL,
    TY_BOOL,
    TY_STRING,
    TY_OPAQUE,
    TY_INTERVAL1,   /* (min, max) of Int1 */
    TY_INTERVAL2,   /* (min, max) of Int2 */
    TY_INTERVAL,    /* (min, max) of Int */
    TY_REALERVAL,   /* (min, max) of Real */
    TY_SYMBOLIC,    /* enumeration: values[] */
    TY_RECORD,      /* elems[], subrs[], merge */
    TY_NODE,        /* elems[], ifaces[], subrs[], merge */
    TY_CONNECTION,  /* elems[], subrs[], merge */
    TY_ARRAY,       /* elem, size */
    TY_GROUP,       /* elem (a node type) */
    TY_NETWORK,     /* elems[] (incl. node groups/arrays), groups[], subrs[], merge */
    TY__COUNT
} TypeKind;

struct Type {
    TypeKind kind;
    const char *name;  /* "Int", "Weight", "<error>" */
    Decl *decl;        /* the defining TYPE declaration; NULL when predefined */
    Symbol *sym;       /* the type's symbol in the global scope */
    int id;            /* unique, in definition order (predefined types first) */

    /* RECORD, NODE, CONNECTION, NETWORK */
    Scope *members;    /* element scope: reachable only by selection */
    PtrVec elems;      /* Symbol* SYM_ELEM: data elements in definition order
                          (for NETWORK this includes the node groups/arrays) */
    PtrVec ifaces;     /* NODE: Symbol* SYM_IFACE in definition order */
    PtrVec subrs;      /* Symbol* SYM_OBJPROC / SYM_OBJFUNC in definition order */
    Symbol *merge;     /* SYM_MERGE or NULL */
    PtrVec groups;     /* NETWORK: the elements of elems[] whose type is a node
                          GROUP or an ARRAY of nodes, in definition order */

    /* ARRAY: element type; GROUP: node type; intervals: base type
       (Interval1 -> Int1, ..., Realerval -> Real) */
    Type *elem;
    int64_t size;      /* ARRAY: folded size (>= 1) */
    int64_t bytes;     /* an upper bound of the C object's size (elements
                          aligned to 8 bytes); at most SEMA_MAX_OBJECT_BYTES */

    PtrVec values;     /* SYMBOLIC: Symbol* SYM_ENUM in definition order */

    bool complete;     /* the definition has been analysed (define-before-use) */
};

/* ---- symbols --------------------------------------------------------- */

/* ORDER SYMKIND: keep in sync with sym_kind_names[] in sema/scope.c. */
typedef enum SymKind {
    SYM_TYPE,       /* type name; type = the type */
    SYM_CONST,      /* CONST data object (global or local); also true/false */
    SYM_VAR,        /* VAR data object */
    SYM_IO,         /* IO data object */
    SYM_PARAM,      /* parameter; access = CONST/VAR/IO */
    SYM_ENUM,       /* SYMBOLIC value; owner = the SYMBOLIC type, index = ordinal */
    SYM_PROC,       /* global procedure */
    SYM_FUNC,       /* global function; result = result type */
    SYM_REDUCTION,  /* T REDUCTION f; type = result = T */
    SYM_WTA,        /* T WTA f; type = T, result = Bool */
    SYM_ELEM,       /* data element of a record/node/connection/network type */
    SYM_IFACE,      /* node interface element; type = connection type, mode */
    SYM_OBJPROC,    /* object procedure; owner = its type */
    SYM_OBJFUNC,    /* object function; owner = its type */
    SYM_MERGE,      /* MERGE procedure; owner = its type */
    SYM__COUNT
} SymKind;

/* What kind of body a subroutine is: decides what is legal in it
 * (semantics.md §5.3).  ORDER CTX: keep in sync with ctx_names[] in
 * sema/context.c. */
typedef enum SubrContext {
    CTX_NONE,       /* not a subroutine */
    CTX_CA,         /* global subroutine of the central agent (§5.1) */
    CTX_FREE,       /* free global subroutine (incl. every EXTERNAL one) */
    CTX_NETP, CTX_NETF,   /* network object procedure / function */
    CTX_NODEP, CTX_NODEF, /* node object procedure / function */
    CTX_CONP, CTX_CONF,   /* connection object procedure / function */
    CTX_RECP, CTX_RECF,   /* record object procedure / function */
    CTX_RED,        /* REDUCTION function */
    CTX_WTA,        /* WTA function */
    CTX_MERGE,      /* MERGE procedure (owner says which level) */
    CTX__COUNT
} SubrContext;

/* What analysis alone needs of a subroutine: it lives in the analysis's
 * own arena (SemaInfo.temp) and is gone after sema_release. */
typedef struct SubrAnalysis {
    PtrVec callees;    /* Symbol*: global subroutines called directly (once each) */
    Symbol *last_caller; /* keeps callees[] duplicate-free */
    /* object subroutines: the first construct of the body that needs ME's
       place in a network (INDEX, group, interface and topology operations)
       and the calls of object subroutines on ME/YOU, for the rule that a
       MERGE procedure reaches none of them (docs/language-decisions.md) */
    const char *net_use; /* "INDEX", "REDUCTION", ...; NULL if none */
    Loc net_use_loc;
    PtrVec me_calls;   /* Expr* EXPR_OBJCALL on ME or YOU of a non-record type */
    PtrVec self_calls; /* object functions: Expr*, the read-only objects the
                          function is called on in its own body (S-43 once the
                          body shows that it changes its ME) */
    Scope *scope;      /* parameter scope; the body's block scope is inside it */
    PtrVec locals;     /* Symbol*: its parameters and local data objects (all
                          blocks), in definition order (-Wall) */
    /* object subroutines, for -Wmerge-accumulates: the elements the body
       resets (counted only if the subroutine can run) and the object
       subroutines it calls (also a WTA's winner procedure) */
    PtrVec resets;     /* Symbol* SYM_ELEM */
    PtrVec obj_callees; /* Symbol* SYM_OBJPROC / SYM_OBJFUNC */
    struct LocalNames *local_names; /* name -> how many locals have it (scope.c) */
} SubrAnalysis;

/* What only subroutines have (kept apart: most symbols are data objects,
 * elements and parameters, and a large program has hundreds of thousands). */
typedef struct SubrInfo {
    PtrVec params;     /* Symbol* SYM_PARAM in order (empty for RED/WTA/MERGE) */
    Type *result;      /* functions, REDUCTION: result type; WTA: Bool;
                          procedures, MERGE: NULL */
    SubrContext context;
    bool external;     /* IS EXTERNAL (no body) */
    bool is_central_agent; /* global subroutine marked CA by §5.1 */
    bool is_free;      /* global subroutine that is not CA (EXTERNAL: always) */
    bool replicates;   /* global subroutine that may REPLICATE a network, itself
                          or through the global subroutines it calls */
    bool calls_external; /* global subroutine that is EXTERNAL or calls one,
                          itself or through the global subroutines it calls
                          (in a --library object C code may call back through
                          cupit_call and replicate) */
    bool called;       /* global subroutine some subroutine calls (program:
                          it calls itself) */
    bool called_in_init; /* ... that an initializer of a global object calls */
    bool mentions_network; /* body names a global NETWORK variable (§5.1 step 2) */
    bool uses_random;  /* subroutines: the body evaluates RANDOM */
    bool changes_me;   /* object functions: call an object procedure on ME or on
                          an object reached from it (directly or through such a
                          function), so a call changes the object it is called on */
    bool varies;       /* global subroutine, REDUCTION or WTA function whose
                          results or effects may differ between two calls with
                          the same arguments: it evaluates RANDOM or calls
                          EXTERNAL code other than the standard arithmetic
                          functions, itself or through the global subroutines
                          it calls */
    bool varies_replaced; /* the same where a C file may replace the standard
                          arithmetic functions (stdlib.md: their library
                          versions are weak), so that they count as any
                          other EXTERNAL code (LowerOptions.arithmetic_pure) */
    SubrAnalysis *an;  /* until sema_release; NULL for non-subroutines */
} SubrInfo;

/* Kinds and flags share the first word, and the last fields only some kinds
 * have (sema_new_symbol allocates a symbol only as long as its kind needs):
 * init only data objects and elements, the folded value only SYM_CONST
 * symbols (read it only where has_value is set).  A large program has
 * hundreds of thousands of symbols. */
struct Symbol {
    SymKind kind : 8;
    Access access : 8; /* CONST/VAR/IO for data objects and parameters;
                          ACCESS_NONE for elements and interfaces */
    IfaceMode mode : 2; /* SYM_IFACE */
    bool defined : 1;  /* analysis has reached the definition (names used
                          earlier are "used before definition", §1.3) */
    bool redefined : 1; /* a second definition of the name was reported: uses
                          are not checked further (one error per mistake) */
    bool is_global : 1; /* data objects: defined at top level */
    /* CONST data objects (incl. true/false): the folded initializer value */
    bool has_value : 1;
    int uid;           /* unique in the program, in definition order; indexes
                          analysis's use counts (sema_use) */
    const char *name;  /* interned */
    Loc loc;           /* where the name is defined */
    Decl *decl;        /* defining declaration (NULL for predefined symbols) */
    const char *cname; /* C-safe name, unique within its C scope:
                          types, globals: the CuPit name;
                          object subroutines: "Type_name"; merge: "Type_merge";
                          enum values: "Type_value";
                          elements, interfaces: the CuPit name (unique per type);
                          params and locals: the name, or "name_N" when the same
                          name was already used in the subroutine (shadowing).
                          CuPit names never contain '_', so these never clash. */

    /* objects, parameters, elements, interfaces: the object's type;
       SYM_TYPE: the type itself; SYM_ENUM: its SYMBOLIC type;
       functions: result type; REDUCTION/WTA: the operand type T */
    Type *type;
    Type *owner;       /* elements, interfaces, object subroutines, merge:
                          the type they belong to; SYM_ENUM: the SYMBOLIC type */
    int index;         /* position within the owner's elems[] / ifaces[] /
                          subrs[] / values[]; parameters: position in params[];
                          global data objects: position in SemaInfo.data */
    Symbol *subr;      /* params and locals: the subroutine they belong to */

    /* subroutines (SYM_PROC, SYM_FUNC, SYM_REDUCTION, SYM_WTA, SYM_OBJPROC,
       SYM_OBJFUNC, SYM_MERGE): their own SubrInfo; every other symbol shares
       one that is all zero and read-only (a write to it is a crash, not a
       silent change) */
    SubrInfo *sub;

    /* only some kinds have these: see above */
    InitId *init;      /* data objects and elements: name and initializer */
    union {            /* SYM_CONST, when has_value */
        int64_t const_int; /* integral, Bool (0/1), SYMBOLIC (ordinal) */
        double const_real; /* Real */
    };
};

/* ---- scopes ---------------------------------------------------------- */

typedef enum ScopeKind {
    SCOPE_GLOBAL,   /* types, global data objects and subroutines, enum values */
    SCOPE_TYPE,     /* elements, interfaces, object subroutines of one type */
    SCOPE_PARAMS,   /* a subroutine's parameters */
    SCOPE_BLOCK,    /* the local data objects of one statement list */
} ScopeKind;

struct Scope {
    ScopeKind kind;
    Scope *parent;     /* enclosing scope for lookup; NULL for GLOBAL and TYPE */
    Type *owner;       /* SCOPE_TYPE: the type */
    Symbol *subr;      /* PARAMS, BLOCK: the enclosing subroutine */
    PtrVec syms;       /* Symbol* in definition order */
    /* open-addressing hash table over interned names (scope.c) */
    Symbol **slots;
    int nslots;
};

/* Looks a name up in this scope only / in this scope and its parents. */
Symbol *sema_scope_find(const Scope *s, const char *name);
Symbol *sema_scope_lookup(const Scope *s, const char *name);

/* ---- the analysed program ------------------------------------------- */

/* How analysis has seen a symbol used, for the warnings of -Wall
 * (src/sema/warnings.c); sema_use finds it. */
typedef struct SymUse {
    int reads, writes; /* data objects and parameters: named as a value /
                          assigned with ':=' or REDUCTION INTO */
    Loc merge_sum;     /* elements: where a MERGE adds YOU's value (line 0:
                          none) */
    bool elem_reset;   /* elements: set outside MERGE other than by adding */
    bool elem_added;   /* elements: `+=` (or := itself + ...) outside MERGE */
    bool reached;      /* object subroutines: a global subroutine, initializer
                          or MERGE procedure calls it, maybe through others */
} SymUse;

typedef struct SemaInfo {
    Arena *arena;
    /* what only analysis and its warnings need: scopes, SubrAnalysis, use
       counts; freed by sema_release (a child of `arena`, freed with it) */
    Arena *temp;
    Scope *globals;    /* NULL after sema_release */
    Type *builtin[TY__COUNT]; /* TY_ERROR .. TY_REALERVAL; NULL for the rest */
    PtrVec types;      /* Type*: user-defined types in definition order */
    PtrVec data;       /* Symbol*: global data objects in textual order
                          (= initialization order) */
    PtrVec networks;   /* Symbol*: global NETWORK variables (subset of data) */
    PtrVec param_calls; /* Expr*: calls of intParam, realParam, intParamIn,
                           realParamIn (a generated program's --help lists them) */
    PtrVec subrs;      /* Symbol*: every subroutine (global, object, merge,
                          reduction, WTA) in textual order */
    PtrVec inf_reals;  /* Expr*: real denoters beyond the Real range and
                          constant expressions that overflow Real, which
                          are the Real infinity (-Wall warns) */
    PtrVec narrow_shifts; /* Expr*: `1 LSHIFT k` with a denoter on the left and
                          a count not known: Int1 or Int2, the denoter's
                          type, which wraps early (-Wall warns) */
    Symbol *program;   /* the procedure `program`, NULL if missing */
    bool init_replicates; /* an initializer of a global object calls a
                             subroutine that may REPLICATE a network */
    Symbol *sym_true, *sym_false;
    int next_type_id, next_uid; /* counters for Type.id and Symbol.uid */
    Scope *reported;   /* analysis bookkeeping: missing members already reported */
    PtrVec use_pages;  /* SymUse[USE_PAGE] each, by Symbol.uid (sema_use) */
} SemaInfo;

/* Analyses the whole program, reporting through diag.h.  Returns false if
 * any error was reported.  Also stores the result in prog->sema. */
bool sema_analyze(Program *prog, Arena *arena);
/* The warnings of -Wall, one bit each; -WNAME turns one on, -Wno-NAME off. */
enum {
    SEMA_WARN_UNUSED_VARIABLE = 1u << 0,    /* -Wunused-variable */
    SEMA_WARN_UNUSED_BUT_SET = 1u << 1,     /* -Wunused-but-set-variable */
    SEMA_WARN_UNUSED_PARAMETER = 1u << 2,   /* -Wunused-parameter */
    SEMA_WARN_MERGE_ACCUMULATES = 1u << 3,  /* -Wmerge-accumulates */
    SEMA_WARN_REAL_INFINITY = 1u << 4,      /* -Wreal-infinity */
    SEMA_WARN_NARROW_SHIFT = 1u << 5,       /* -Wnarrow-shift (-Wextra) */
    SEMA_WARN_ALL = (1u << 5) - 1,          /* -Wall */
    SEMA_WARN_EXTRA = (1u << 6) - 1,        /* -Wextra: -Wall and narrow-shift */
};
/* The bits of warning NAME (the text after -W or -Wno-: "unused-variable",
 * "unused" for the three unused-* ones, "all", "extra"); 0 if there is no
 * such warning. */
unsigned sema_warning_flags(const char *name);
/* The warnings of the bits in `which` on an analysed program
 * (src/sema/warnings.c): unused variables and parameters, values stored and
 * never read, MERGE procedures that add up an element nothing ever resets,
 * real denoters beyond the largest Real. */
void sema_warnings(Program *prog, unsigned which);
/* Frees what only analysis and its warnings need: Program.syntax (the lists
 * it names become empty); SemaInfo.temp, i.e. the scopes (SemaInfo.globals
 * and Type.members are set to NULL), SubrInfo.an (set to NULL) and the use
 * counts; and the arena's table of interned names (nothing is interned
 * after analysis).  Later phases read the rest of the annotated tree. */
void sema_release(Program *prog);

/* A fresh model with the predefined types and constants only (used by
 * sema_analyze and by unit tests of the type rules). */
SemaInfo *sema_info_new(Arena *arena);

/* The AstTypeNamer for ast_dump: the type's name ("<error>" for errors). */
const char *sema_type_name(const Type *type);
const char *sema_sym_kind_name(SymKind k);
const char *sema_type_kind_name(TypeKind k);
const char *sema_context_name(SubrContext c);

/* ---- type predicates (types.c) -------------------------------------- */

bool type_is_error(const Type *t);
bool type_is_integral(const Type *t);      /* Int1, Int2, Int */
bool type_is_number(const Type *t);        /* integral or Real */
bool type_is_int_interval(const Type *t);  /* Interval1, Interval2, Interval */
bool type_is_interval(const Type *t);      /* integer intervals or Realerval */
bool type_is_structure(const Type *t);     /* record, node, connection, network */
/* ARRAY of a node type, or an array of those (a node grid) */
bool type_is_node_array(const Type *t);
/* ARRAY m OF ARRAY n OF a node type: its m*n nodes are stored as one node
 * array, row after row (docs/language-decisions.md, "arrays of node arrays") */
bool type_is_node_grid(const Type *t);
bool type_is_node_collection(const Type *t); /* node GROUP or node ARRAY */
/* Simple, interval, record or array of those: ordinary "data" (§2.4 row 1-2). */
bool type_is_plain_data(const Type *t);

/* Type identity is by name, i.e. pointer identity (§2.1). */
bool type_equal(const Type *a, const Type *b);
/* Compatible for binary operators and ?: (identical, or both integral /
 * both integer interval: the smaller one is widened). */
bool type_compatible(const Type *a, const Type *b);
/* The common type of two compatible types (the larger); NULL if not
 * compatible.  An error type absorbs the other. */
Type *type_common(Type *a, Type *b);
/* `src` may be stored into an object of type `dst` (assignment,
 * initializer, RETURN, CONST argument): equal, or src a smaller integer
 * (interval) type of the same family. */
bool type_assignable(const Type *dst, const Type *src);
/* Interval type whose base is t (Int1 -> Interval1, Real -> Realerval), or
 * NULL. */
Type *type_interval_of(const SemaInfo *si, const Type *t);
/* Smallest integer type holding v (Int1, Int2, Int), or NULL if v > max Int. */
Type *type_of_int_literal(const SemaInfo *si, uint64_t v);
/* Node type of a node group or node array, else NULL. */
Type *type_node_of(const Type *t);
/* Number of nodes of a node array type (m*n for a grid), else 0. */
int64_t type_node_count(const Type *t);
/* Inclusive value range of an integral type. */
void type_int_range(const Type *t, int64_t *lo, int64_t *hi);

/* ---- reading the annotations ---------------------------------------- */

/* What sema_analyze leaves in the tree (only for programs without errors):
 *
 * Decl:  sym = the (first) defined symbol; every InitId.sym is set.
 *        TYPE: type = the type.  Subroutines: type = owner type or NULL.
 * Expr:  type  = value type; for VC_PV / VC_PVS the type of ONE element
 *                (ME.hid[] -> SigmoidNode, net[] -> Mlp, ME.in[] -> Weight,
 *                ME.in[].out -> Real); bare interfaces ME.i have the
 *                connection type (sema_is_iface tells them apart).
 *        sym   = NAME: the object / enum value / true,false constant;
 *                SELECT: the element or interface (also for PVS);
 *                ALLSLICE of an interface: the interface; CALL, OBJCALL:
 *                callee; CONVERT: the target type's symbol; ME/YOU/INDEX:
 *                NULL.
 *        cat   = VC_OBJECT for objects (names, ME, YOU, INDEX, selections,
 *                single-element subscripts), VC_PV for net[], net[a...b],
 *                ME.g[], ME.g[a...b], ME.i[]; VC_PVS for PV.elem;
 *                VC_CONNADDR for (a --> b); VC_VALUE for everything else.
 *        call_kind on CALL/OBJCALL:
 *                CALL_PLAIN       global subroutine;
 *                CALL_OBJECT      one object: ME.p(), rec.f(), net[i].p(),
 *                                 ME.g[i].p(); also a network FUNCTION on a
 *                                 bare `net` (= replicate 0, §5.2);
 *                CALL_GROUP       node/connection procedure on ME.g[],
 *                                 ME.g[a...b], ME.i[] or (leniency) a bare
 *                                 ME.g / ME.i meaning its all-slice;
 *                CALL_REPLICATES  network procedure on net, net[], net[a...b].
 *                Procedure calls have type NULL and cat VC_NONE.
 *        is_const, const_int / const_real: folded value (integral, Bool as
 *                0/1, SYMBOLIC as ordinal, Real).  Folding happens wherever
 *                all operands are known (also MAXINDEX of an array);
 *                intervals and RANDOM are never folded.
 *        read_only: the object may not be changed in this context (CONST
 *                objects and parameters, YOU, INDEX, ME in functions and
 *                in reduction/WTA bodies, and everything selected from them).
 *        Implicit integer (interval) widening is not a node of its own: the
 *        operand keeps its own type and the context's type says what it is
 *        widened to (binary: type_common of both; assignment: the target).
 * Stmt:  callee = REDUCTION/WTA: the reduction/WTA function;
 *        target = REDUCTION/WTA: the data element reduced/compared;
 *        proc   = WTA: the object procedure called for the winner;
 *        sem_flags: SEMF_LEVEL_* for REDUCTION, WTA, REPLICATE;
 *        SEMF_CONNADDR on assignments to (a --> b).
 *        CALL/OBJCALL/MULTICALL statements: see their Expr's call_kind.
 *        FOR: the variable is an ordinary object expression.
 *        REDUCTION: pvs is PV.d with cat VC_PVS and sym = element d.
 *        CONNECT/DISCONNECT: both operands are PVs selecting an interface:
 *        cat VC_PVS, sym = the interface, type = its connection type.
 * I/O assignments: node_side is `net.g[].d`, `net[].g[].d`, `net.g.d` or
 *        with a slice of g; it has cat VC_PVS and sym = the node element d;
 *        its object (g[], g[a...b]) is a VC_PV of the node type, `net[]` a
 *        VC_PV of the network type; io is a global IO object (NAME). */

/* How an EXPR_CONVERT is to be carried out (derived from its types). */
typedef enum ConvertKind {
    CONV_ERROR,
    CONV_IDENTITY,     /* T(e) with e already of type T */
    CONV_NUMERIC,      /* Int/Int1/Int2/Real (e) */
    CONV_INTERVAL,     /* Interval/Interval1/Interval2 (e), e an integer interval */
    CONV_MAKE_INTERVAL,/* I(lo, hi) */
    CONV_RECORD,       /* R(e1, ..., en) over the data elements */
    CONV_NODE,         /* N(e1, ..., en) over the data elements */
    CONV_CONNECTION,   /* C(e1, ..., en) over the data elements */
} ConvertKind;
ConvertKind sema_convert_kind(const Expr *e);

/* e is a bare interface used as an object (ME.i); the PVS ME.g[].i has
 * the interface as sym too but cat VC_PVS. */
bool sema_is_iface(const Expr *e);
/* e names an I/O area: an IO data object or an IO parameter. */
bool sema_is_io_area(const Expr *e);
/* e is a bare node group/array/interface or network variable accepted in
 * place of its all-slice (§6.4 leniency), or a real PV. */
bool sema_is_multitude(const Expr *e);

/* Stmt.sem_flags: the level a REDUCTION / WTA combines over, and what a
 * REPLICATE replicates. */
enum {
    SEMF_LEVEL_MASK = 3,
    SEMF_LEVEL_NET = 1,   /* over network replicates (CA) / REPLICATE net */
    SEMF_LEVEL_NODE = 2,  /* over the nodes of a group (NetP/F) / REPLICATE ME node */
    SEMF_LEVEL_CONN = 3,  /* over an interface's connections (NodeP/F) /
                             REPLICATE ME connection */
    SEMF_CONNADDR = 4,    /* STMT_ASSIGN whose target is a connection address */
};

#endif
