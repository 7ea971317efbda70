/* sema_internal.h -- what the files of the semantic analysis share.
 *
 * Ctx describes the body being analysed (which subroutine kind, what ME,
 * YOU and INDEX mean there, the current scope); every checking function
 * takes it.  Nothing here is visible outside src/sema. */
#ifndef CUPITC_SEMA_INTERNAL_H
#define CUPITC_SEMA_INTERNAL_H

#include <stdbool.h>

#include "cupitc/ast.h"
#include "cupitc/diag.h"
#include "cupitc/sema.h"

typedef struct Ctx {
    SemaInfo *si;
    Scope *scope;          /* innermost scope for name lookup */
    Symbol *subr;          /* subroutine being analysed; NULL in initializers */
    SubrContext kind;      /* CTX_CA stands for every global subroutine (CA or
                              free is only known after its body); CTX_NONE for
                              initializers */
    bool elem_init;        /* initializer of a type's data element */
    Type *owner;           /* object subroutines and MERGE: their type */
    Type *me_type;         /* NULL where ME is not allowed */
    bool me_read_only;
    Type *you_type;        /* NULL where YOU is not allowed */
    bool index_ok;         /* INDEX allowed (network and node subroutines) */
    int loop_depth;        /* enclosing loops, for BREAK */
    int dead;              /* > 0: code that no run executes (an arm a constant
                              condition rules out, statements after a
                              RETURN or BREAK); folding reports no
                              run-time error there (constfold.c) */
    Scope *undefined;      /* names already reported as undefined here */
    int depth;             /* expression nesting, bounded by SEMA_MAX_DEPTH */
    bool too_deep;         /* the nesting limit was reported in this body */
} Ctx;

/* Expressions are analysed recursively; deeper trees (e.g. a chain of
 * 10000 '+') are rejected instead of exhausting the stack. */
enum { SEMA_MAX_DEPTH = 5000 };

/* The largest object cupitc compiles: a type whose C object could be
 * larger is reported at its definition (docs/language-decisions.md).
 * Beyond it C compilers reject the object or the linker cannot place it. */
#define SEMA_MAX_OBJECT_BYTES ((int64_t)0x7fffffff)

/* ---- merge_rule.c ---- */
/* Records that the body being analysed uses `what` (needs ME's place in a
 * network); the first use per subroutine is kept. */
void sema_note_net_use(Ctx *c, Loc at, const char *what);
/* Reports MERGE procedures that reach such a use through calls on ME/YOU. */
void sema_check_merge_calls(SemaInfo *si);

/* ---- warnings.c ---- */
/* Records a store to target (analysed) by `op` with value (NULL: a
 * REDUCTION INTO), for the use counts of -Wall. */
void sema_note_store(Ctx *c, Expr *target, AssignOp op, Expr *value);
/* -Wmerge-accumulates: obj may be set here (a VAR argument), or the input
 * assignment `net[].g[].elem <-- area` sets elem. */
void sema_note_set(Ctx *c, Expr *obj);
void sema_note_input(Ctx *c, const Symbol *elem);
/* Records a call of the object subroutine m (also a WTA's winner procedure). */
void sema_note_obj_call(Ctx *c, Symbol *m);

/* ---- scope.c ---- */
/* A bit set of SymKinds, for "did you mean". */
typedef unsigned SymKindMask;
#define SYMS(k) (1u << (k))
#define SYMS_SUBR (SYMS(SYM_PROC) | SYMS(SYM_FUNC))
#define SYMS_DATA (SYMS(SYM_CONST) | SYMS(SYM_VAR) | SYMS(SYM_IO) | SYMS(SYM_PARAM) | SYMS(SYM_ENUM))
/* The name in s (and its parents) of a wanted kind closest to name, also
 * among the standard library's when `standard`; NULL when none is close. */
const char *sema_closest_in(const Scope *s, const char *name, SymKindMask want, bool parents,
                            bool standard);
Scope *sema_scope_new(SemaInfo *si, ScopeKind kind, Scope *parent);
/* Adds sym; on a duplicate reports it (with a note at the first one) and
 * returns false. */
bool sema_declare(SemaInfo *si, Scope *s, Symbol *sym);
/* Adds without duplicate check (the caller knows the name is free). */
void sema_scope_add(SemaInfo *si, Scope *s, Symbol *sym);
Symbol *sema_new_symbol(SemaInfo *si, SymKind kind, const char *name, Loc loc);
/* How analysis has seen sym used (-Wall). */
SymUse *sema_use(SemaInfo *si, const Symbol *sym);
/* "function", "data object", ... for messages. */
const char *sema_sym_what(const Symbol *sym);
/* A missing member is reported once per program and (type, name): true
 * the first time. */
bool sema_report_once(Ctx *c, const Type *t, const char *name);
/* Gives params and locals of one subroutine distinct C names. */
void sema_assign_local_cname(SemaInfo *si, Symbol *subr, Symbol *sym);

/* ---- types.c ---- */
Type *sema_new_type(SemaInfo *si, TypeKind kind, const char *name);
void sema_make_builtins(SemaInfo *si);

/* ---- decls.c ---- */
/* Declares every global name first (duplicates, use-before-definition),
 * then analyses the definitions in textual order. */
void sema_declare_globals(SemaInfo *si, Program *prog);
void sema_analyze_parts(SemaInfo *si, Program *prog);
/* Resolves a type name written at `id`; reports and returns the error type
 * when it is unknown or not yet defined. */
Type *sema_resolve_type(Ctx *c, Ident id);
/* A local data object definition inside a block. */
void sema_local_data(Ctx *c, Decl *d);

/* ---- expr.c ---- */
/* Analyses e wherever it occurs; objects keep their category (PV, PVS,
 * connection address), nothing is reported about how e is used. */
Type *sema_analyze_expr(Ctx *c, Expr *e);
/* Analyses e as a value: PVs, PVS, connection addresses, interfaces, I/O
 * areas, groups and networks are reported. */
Type *sema_value(Ctx *c, Expr *e);
/* An index operator of node grid g (OP_GRID_*, ast.h) on a (and b): Int,
 * or Interval if `interval`. */
Expr *sema_grid_op(Ctx *c, Op op, Expr *a, Expr *b, Symbol *g, bool interval, Loc loc);
/* If e is the row X.g[i] of a node grid: makes it the parallel variable of
 * the row's nodes (as X.g[i][]) and returns true. */
bool sema_grid_row_to_pv(Ctx *c, Expr *e);
/* Analyses e as a value that must be assignable to `dst` (initializers,
 * RETURN, CONST arguments); reports with `what` ("initializer", ...). */
bool sema_value_to(Ctx *c, Expr *e, Type *dst, const char *what);
/* " (no implicit narrowing)" and similar hints for a type mismatch. */
const char *sema_mismatch_hint(const Type *dst, const Type *src);
/* Checks that an analysed object may be changed (assignment target, FOR
 * variable, REDUCTION INTO, VAR argument); messages read
 * "cannot <verb> <object><suffix>". */
bool sema_check_writable(Ctx *c, Expr *e, const char *verb, const char *suffix);
/* Result type of `a op b` per §9, or the error type after reporting at
 * `at` with operator spelling `spell`. */
Type *sema_binary_type(Ctx *c, Op op, Type *a, Type *b, Loc at, const char *spell);
/* Reports a PV/PVS used where an ordinary value is needed (§6.4). */
bool sema_check_not_parallel(Ctx *c, Expr *e);
/* Root NAME of an object path (net in net[].in[].d), or NULL. */
Expr *sema_object_root(Expr *e);
/* The network variable an expression is rooted at, or NULL. */
Symbol *sema_network_root(Expr *e);
/* Records that the current body names a global network variable. */
bool sema_note_network_use(Ctx *c, Expr *e);

/* ---- call.c ---- */
/* CALL or OBJCALL; as_stmt: a procedure is expected, else a function. */
Type *sema_call(Ctx *c, Expr *e, bool as_stmt, bool in_multi);
/* Checks actual arguments against a subroutine's parameters. */
void sema_check_args(Ctx *c, Symbol *callee, PtrVec *args, Loc at);
/* §5.1: records a call to a global subroutine and reports calls of CA
 * subroutines from parallel code. */
void sema_note_global_call(Ctx *c, Symbol *callee, Loc at);
/* After the body of the object function c->subr: S-43 for the calls of
 * it on read-only objects in its own body, where the body changes its ME
 * (known only once the whole body is analysed). */
void sema_check_self_calls(Ctx *c);
/* Checks the VAR-parameter rule (§4.1, S-31) for an object procedure. */
void sema_check_var_param_rule(Ctx *c, Symbol *callee, Loc at);

/* ---- stmt.c ---- */
void sema_block(Ctx *c, Block *b);
void sema_stmt(Ctx *c, Stmt *s);
/* §4.1: does the statement list end in RETURN (or an IF with ELSE all of
 * whose branches do)?  If not, *blame is where the rule is violated (left
 * unchanged for an empty list). */
bool sema_ends_in_return(const Block *b, Loc *blame);

/* ---- parallel.c ---- */
void sema_reduction(Ctx *c, Stmt *s);
void sema_wta(Ctx *c, Stmt *s);
void sema_io_assign(Ctx *c, Stmt *s);
void sema_replicate(Ctx *c, Stmt *s);
void sema_extend(Ctx *c, Stmt *s);
void sema_connect(Ctx *c, Stmt *s);
void sema_merge_stmt(Ctx *c, Stmt *s);
/* Analyses an object that must denote a multitude (PV, or a bare group,
 * array, interface or network variable taken as its all-slice).  Returns
 * the element type (node, connection, network) or NULL if e is none. */
Type *sema_multitude(Ctx *c, Expr *e);

/* ---- constfold.c ---- */
/* Folds e if all its operands are known; reports overflow and division by
 * zero.  Called by expr.c after e's type is set. */
void sema_fold(Ctx *c, Expr *e);
/* v rounded to the target's Real (float) */
double sema_real_value(double v);

/* ---- context.c ---- */
/* "a node procedure", "a global procedure", "an element initializer" */
const char *sema_ctx_desc(const Ctx *c);
bool ctx_is_global_subr(const Ctx *c);   /* CTX_CA */
/* A global subroutine or a global's initializer: both run in the central
 * agent (an initializer at start-up, before program), so both may call
 * network functions on a network variable (docs/language-decisions.md). */
bool ctx_is_central(const Ctx *c);
bool ctx_is_parallel(const Ctx *c);      /* object subr, merge, red, wta */
bool ctx_is_function(const Ctx *c);      /* any kind of function body */
SubrContext sema_object_context(TypeKind owner, bool is_function);
/* §5.1 fixpoint over all global subroutines (after analysis). */
void sema_classify_central_agent(SemaInfo *si);

#endif
