/* ast.h -- the abstract syntax tree of a CuPit program.
 *
 * One node shape per construct (Decl, Stmt, Expr, Block), each with its
 * source location.  Nodes are built only by the ast_* constructors in ast.c
 * (all memory comes from the compilation's arena) and never freed one by one.
 * The parser fills the syntactic fields; semantic analysis fills the fields
 * under "set by sema" and leaves the syntactic ones untouched, so later
 * phases (lowering, C emission) read one annotated tree.
 *
 * Names are interned (arena.h): compare them with ==. */
#ifndef CUPITC_AST_H
#define CUPITC_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "cupitc/arena.h"
#include "cupitc/diag.h"

typedef struct Type Type;     /* semantic types, sema.h */
typedef struct Symbol Symbol; /* semantic symbols, sema.h */
typedef struct Scope Scope;   /* name scopes, sema.h */
typedef struct SemaInfo SemaInfo; /* the analysed program, sema.h */

typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef struct Decl Decl;
typedef struct Block Block;

/* An identifier occurrence: interned name plus where it was written. */
typedef struct Ident {
    const char *name;
    Loc loc;
} Ident;

/* ---- operators ------------------------------------------------------- */

/* ORDER OP: keep in sync with op_spelling[] in ast.c. */
typedef enum Op {
    OP_OR,       /* OR */
    OP_XOR,      /* XOR */
    OP_AND,      /* AND */
    OP_EQ,       /* = */
    OP_NE,       /* <> */
    OP_LT,       /* < */
    OP_GT,       /* > */
    OP_LE,       /* <= */
    OP_GE,       /* >= */
    OP_IN,       /* IN */
    OP_BITOR,    /* BITOR */
    OP_BITXOR,   /* BITXOR */
    OP_INTERVAL, /* ... */
    OP_BITAND,   /* BITAND */
    OP_LSHIFT,   /* LSHIFT */
    OP_RSHIFT,   /* RSHIFT */
    OP_ADD,      /* + */
    OP_SUB,      /* - */
    OP_MUL,      /* * */
    OP_DIV,      /* / */
    OP_MOD,      /* % */
    OP_POW,      /* ** */
    /* unary */
    OP_NOT,      /* NOT */
    OP_BITNOT,   /* BITNOT */
    OP_NEG,      /* - (prefix) */
    OP_MIN,      /* MIN */
    OP_MAX,      /* MAX */
    OP_RANDOM,   /* RANDOM */
    /* made by sema only, for node grids (sym: the grid element, sema.h): */
    OP_GRID_INDEX, /* row i, column j -> node number (both checked) */
    OP_GRID_SLICE, /* row i, column interval -> node interval (row checked) */
    OP_GRID_ROW,   /* row i -> the interval of its nodes (checked) */
    OP_GRID_ROWS,  /* row interval -> the interval of their nodes */
    OP__COUNT
} Op;

/* ORDER ASSIGN: keep in sync with assign_spelling[] in ast.c. */
typedef enum AssignOp {
    ASSIGN_SET, /* := */
    ASSIGN_ADD, /* += */
    ASSIGN_SUB, /* -= */
    ASSIGN_MUL, /* *= */
    ASSIGN_DIV, /* /= */
    ASSIGN_MOD, /* %= */
    ASSIGN__COUNT
} AssignOp;

typedef enum Access {
    ACCESS_NONE,  /* element definitions: no access word */
    ACCESS_CONST, /* CONST */
    ACCESS_VAR,   /* VAR */
    ACCESS_IO     /* IO */
} Access;

typedef enum ForDir { FOR_UPTO, FOR_TO, FOR_DOWNTO } ForDir;
typedef enum IfaceMode { IFACE_IN, IFACE_OUT } IfaceMode;

/* ---- expressions and objects ----------------------------------------- */

typedef enum ExprKind {
    EXPR_INT,       /* 42, 017, 0x1F */
    EXPR_REAL,      /* 1.5e-3 */
    EXPR_STRING,    /* "text\n" */
    EXPR_NAME,      /* x (an ObjectName; also true/false, SYMBOLIC values) */
    EXPR_ME,        /* ME */
    EXPR_YOU,       /* YOU */
    EXPR_INDEX,     /* INDEX */
    EXPR_SELECT,    /* obj.name */
    EXPR_SUBSCRIPT, /* obj[e]  (element or slice, decided by e's type) */
    EXPR_ALLSLICE,  /* obj[] */
    EXPR_CONNADDR,  /* (a --> b) */
    EXPR_UNARY,     /* NOT a, BITNOT a, -a, MIN a, MAX a, RANDOM a */
    EXPR_BINARY,    /* a op b */
    EXPR_TERNARY,   /* c ? a : b */
    EXPR_CALL,      /* f(args): function call, or procedure call statement */
    EXPR_OBJCALL,   /* obj.f(args): object function / procedure call */
    EXPR_CONVERT,   /* T(args): conversion or constructor */
    EXPR_MAXINDEX,  /* MAXINDEX(obj) */
    EXPR__COUNT
} ExprKind;

/* What an expression denotes, set by sema (see semantics.md §6.4). */
typedef enum ValueCat {
    VC_NONE,     /* not yet analysed, or erroneous */
    VC_VALUE,    /* an rvalue (result of an operator, call, denoter) */
    VC_OBJECT,   /* an ordinary object (can be a target if writable) */
    VC_PV,       /* parallel variable: ME.g[], ME.i[], net[], net[a...b] */
    VC_PVS,      /* parallel variable selection: PV.element */
    VC_CONNADDR, /* connection address (a --> b) */
    VC_TYPE,     /* a name that denotes a type or subroutine, not a value */
} ValueCat;

/* Kind of a call, set by sema (issue: "classify every call"). */
typedef enum CallKind {
    CALL_NONE,
    CALL_PLAIN,       /* global procedure/function, incl. EXTERNAL */
    CALL_OBJECT,      /* object subroutine on one object (ME, rec, net[i]) */
    CALL_GROUP,       /* object procedure on a group/array/slice/interface */
    CALL_REPLICATES,  /* network procedure on net / net[] / net[a...b] */
} CallKind;

/* Kinds and flags are packed into the first word, the folded value shares
 * one slot, and the kind's part `u` comes last: a node is allocated only as
 * long as its kind needs (ast_expr), so `u` may be read only through the
 * member of the node's kind.  A large program has millions of expressions. */
struct Expr {
    ExprKind kind : 8;
    ValueCat cat : 8;        /* set by sema */
    CallKind call_kind : 8;  /* set by sema */
    bool is_const : 1; /* set by sema: value known at compile time (const_*
                          below valid) */
    bool read_only : 1; /* set by sema: object that may not be changed here */
    Loc loc; /* first token of the construct; operator for binary/unary */

    /* set by sema */
    Type *type;        /* value type; for PV/PVS the element's type */
    Symbol *sym;       /* NAME: the object; SELECT: the element; calls: callee */
    union {            /* when is_const; the type says which */
        int64_t const_int; /* integral, Bool, SYMBOLIC */
        double const_real; /* Real */
    };

    union {
        struct { uint64_t value; } int_lit;           /* EXPR_INT */
        struct { double value; const char *spelling; } real_lit; /* EXPR_REAL */
        struct {                                      /* EXPR_STRING */
            const char *bytes; /* decoded, NUL-terminated */
            int len;           /* decoded length (may contain NULs) */
            const char *spelling; /* source text with quotes */
        } str_lit;
        struct { const char *name; } name;            /* EXPR_NAME */
        struct { Expr *obj; Ident elem; } select;     /* EXPR_SELECT */
        struct { Expr *obj; Expr *index; } subscript; /* EXPR_SUBSCRIPT */
        struct { Expr *obj; } allslice;               /* EXPR_ALLSLICE */
        struct { Expr *from, *to; } connaddr;         /* EXPR_CONNADDR */
        struct { Op op; Expr *operand; } unary;       /* EXPR_UNARY */
        struct { Op op; Expr *lhs, *rhs; } binary;    /* EXPR_BINARY */
        struct { Expr *cond, *then_e, *else_e; } ternary; /* EXPR_TERNARY */
        struct { Ident callee; PtrVec args; } call;   /* EXPR_CALL: Expr* */
        struct { Expr *obj; Ident method; PtrVec args; } objcall; /* EXPR_OBJCALL */
        struct { Ident type; PtrVec args; } convert;  /* EXPR_CONVERT */
        struct { Expr *obj; } maxindex;               /* EXPR_MAXINDEX */
    } u; /* last: see above */
};

/* ---- statements ------------------------------------------------------ */

typedef enum StmtKind {
    STMT_ASSIGN,     /* obj op= expr */
    STMT_INPUT,      /* pvs <-- io */
    STMT_OUTPUT,     /* pvs --> io */
    STMT_CALL,       /* p(args)  (call is an EXPR_CALL) */
    STMT_OBJCALL,    /* obj.p(args)  (call is an EXPR_OBJCALL) */
    STMT_MULTICALL,  /* a.p() AND b.q() ...  (calls: EXPR_OBJCALL*) */
    STMT_REDUCTION,  /* REDUCTION pvs:op INTO obj */
    STMT_WTA,        /* WTA pv.elem:op proc(args) */
    STMT_RETURN,     /* RETURN [expr] */
    STMT_IF,         /* IF c THEN .. ELSIF .. ELSE .. END */
    STMT_LOOP,       /* [WHILE c] REPEAT .. [UNTIL c] END */
    STMT_FOR,        /* FOR v := a TO b REPEAT .. [UNTIL c] END */
    STMT_BREAK,      /* BREAK */
    STMT_REPLICATE,  /* REPLICATE obj INTO expr */
    STMT_EXTEND,     /* EXTEND obj BY expr */
    STMT_CONNECT,    /* CONNECT pvs TO pvs */
    STMT_DISCONNECT, /* DISCONNECT pvs FROM pvs */
    STMT_MERGE,      /* MERGE obj */
    STMT__COUNT
} StmtKind;

/* One "IF/ELSIF cond THEN body" arm. */
typedef struct IfArm {
    Expr *cond;
    Block *body;
    Loc loc; /* of IF or ELSIF */
} IfArm;

/* As with Expr, the kind's part `u` comes after the common fields and a
 * statement is allocated only as long as its kind needs (ast_stmt): read `u`
 * only through the member of the statement's kind, and callee, target and
 * proc only in a REDUCTION or WTA statement (only those have them). */
struct Stmt {
    StmtKind kind : 8;
    int sem_flags : 24; /* set by sema: phase-private bits (sema.h) */
    Loc loc; /* first token */

    union {
        struct { Expr *target; AssignOp op; Expr *value; } assign;
        struct { Expr *node_side; Expr *io; } io;       /* INPUT, OUTPUT */
        struct { Expr *call; } call;                    /* CALL, OBJCALL */
        struct { PtrVec calls; } multi;                 /* Expr* OBJCALL */
        struct { Expr *pvs; Ident func; Expr *into; } reduction;
        struct {
            Expr *pv;       /* candidates */
            Ident elem;     /* compared element */
            Ident func;     /* WTA function */
            Ident proc;     /* object procedure called for the winner */
            PtrVec args;    /* Expr* */
        } wta;
        struct { Expr *value; /* NULL: none */ } ret;
        struct { PtrVec arms; /* IfArm* */ Block *else_body; /* NULL */ } if_;
        struct { Expr *while_cond; Block *body; Expr *until_cond; } loop;
        struct {
            Expr *var; Expr *from; ForDir dir; Expr *to;
            Block *body; Expr *until_cond;
        } for_;
        struct { Expr *obj; Expr *count; } replicate;   /* REPLICATE, EXTEND */
        struct { Expr *from; Expr *to; } connect;       /* CONNECT, DISCONNECT */
        struct { Expr *obj; } merge;
    } u; /* see above */

    /* set by sema; REDUCTION and WTA only (see above) */
    Symbol *callee;  /* REDUCTION/WTA function */
    Symbol *target;  /* WTA: the element compared */
    Symbol *proc;    /* WTA: the object procedure called for the winner */
};

/* A statement list with its leading local definitions (grammar:
 * Statements ::= { DataObjectDef ";" } { Statement ";" }). */
struct Block {
    Loc loc;
    PtrVec defs;  /* Decl* of kind DECL_DATA */
    PtrVec stmts; /* Stmt* */
};

/* ---- definitions ----------------------------------------------------- */

typedef enum DeclKind {
    DECL_TYPE,      /* TYPE X IS ... END */
    DECL_DATA,      /* T CONST|VAR|IO a := e, b  (global or local) */
    DECL_ELEM,      /* T a := e, b   (element of a RECORD/NODE/CONN/NETWORK) */
    DECL_IFACE,     /* IN T a, b / OUT T a  (node interface elements) */
    DECL_PROC,      /* PROCEDURE p (...) IS ... END   (global or object) */
    DECL_FUNC,      /* T FUNCTION f (...) IS ... END  (global or object) */
    DECL_REDUCTION, /* T REDUCTION op IS ... END */
    DECL_WTA,       /* T WTA op IS ... END */
    DECL_MERGE,     /* MERGE IS ... END  (inside a type) */
    DECL__COUNT
} DeclKind;

typedef enum TypeDefKind {
    TDEF_SYMBOLIC,
    TDEF_RECORD,
    TDEF_NODE,
    TDEF_CONNECTION,
    TDEF_ARRAY,
    TDEF_GROUP,
    TDEF_NETWORK,
    TDEF__COUNT
} TypeDefKind;

/* "name [:= init]" in data object and element definitions. */
typedef struct InitId {
    Ident id;
    Expr *init;     /* NULL: no initializer */
    Symbol *sym;    /* set by sema */
} InitId;

/* "T CONST|VAR|IO a, b" in a parameter list. */
typedef struct ParamGroup {
    Ident type;
    Access access;
    PtrVec names;   /* Ident* */
    Loc loc;
} ParamGroup;

/* As with Expr, the kind's part `u` comes last and a definition is
 * allocated only as long as its kind needs (ast_decl). */
struct Decl {
    DeclKind kind : 8;
    Loc loc; /* first token */

    /* set by sema */
    Symbol *sym;    /* the defined symbol (first one for lists) */
    Type *type;     /* TYPE: the defined type; subroutines: owner type or NULL */

    union {
        struct {                 /* DECL_TYPE */
            Ident name;
            TypeDefKind body;
            PtrVec enums;        /* SYMBOLIC: Ident* */
            PtrVec elems;        /* RECORD/NODE/CONNECTION/NETWORK: Decl* */
            Expr *array_size;    /* ARRAY */
            Ident elem_type;     /* ARRAY, GROUP: element type name */
        } type;
        struct {                 /* DECL_DATA, DECL_ELEM */
            Ident type;
            Access access;       /* ACCESS_NONE for DECL_ELEM */
            PtrVec ids;          /* InitId* */
        } data;
        struct {                 /* DECL_IFACE */
            IfaceMode mode;
            Ident type;
            PtrVec names;        /* Ident* */
        } iface;
        struct {                 /* PROC, FUNC, REDUCTION, WTA, MERGE */
            Ident name;          /* empty for MERGE */
            Ident result;        /* FUNC, REDUCTION, WTA: result/operand type */
            PtrVec params;       /* ParamGroup* (PROC, FUNC only) */
            bool external;       /* IS EXTERNAL: body is NULL */
            Block *body;
        } subr;
    } u; /* last: see above */
};

/* The whole translation unit. */
typedef struct Program {
    const SourceFile *file;
    PtrVec parts; /* Decl*, in textual order */
    /* syntax that only analysis reads: parameter groups (Decl.u.subr.params),
       the lists of a type's elements and values (u.type.elems, u.type.enums)
       and of an interface's names (u.iface.names); freed by sema_release,
       which empties those lists (a child of the tree's arena) */
    Arena *syntax;

    /* set by sema */
    SemaInfo *sema; /* types, symbols, scopes (NULL before analysis) */
} Program;

/* ---- constructors (ast.c) -------------------------------------------- */

/* The arena all constructors allocate from; set once per compilation. */
void ast_set_arena(Arena *a);
Arena *ast_arena(void);
/* Where ast_param_group and ast_ident_new allocate (Program.syntax); NULL:
 * the arena above. */
void ast_set_syntax_arena(Arena *a);

Expr *ast_expr(ExprKind kind, Loc loc);
Expr *ast_int(uint64_t value, Loc loc);
Expr *ast_real(double value, const char *spelling, Loc loc);
Expr *ast_string(const char *bytes, int len, const char *spelling, Loc loc);
Expr *ast_name(const char *name, Loc loc);
Expr *ast_select(Expr *obj, Ident elem, Loc loc);
Expr *ast_subscript(Expr *obj, Expr *index, Loc loc);
Expr *ast_allslice(Expr *obj, Loc loc);
Expr *ast_connaddr(Expr *from, Expr *to, Loc loc);
Expr *ast_unary(Op op, Expr *operand, Loc loc);
Expr *ast_binary(Op op, Expr *lhs, Expr *rhs, Loc loc);
Expr *ast_ternary(Expr *cond, Expr *then_e, Expr *else_e, Loc loc);
Expr *ast_call(Ident callee, PtrVec args, Loc loc);
Expr *ast_objcall(Expr *obj, Ident method, PtrVec args, Loc loc);
Expr *ast_convert(Ident type, PtrVec args, Loc loc);
Expr *ast_maxindex(Expr *obj, Loc loc);

Stmt *ast_stmt(StmtKind kind, Loc loc);
Block *ast_block(PtrVec defs, PtrVec stmts, Loc loc);
IfArm *ast_if_arm(Expr *cond, Block *body, Loc loc);
Decl *ast_decl(DeclKind kind, Loc loc);
InitId *ast_init_id(Ident id, Expr *init);
ParamGroup *ast_param_group(Ident type, Access access, PtrVec names, Loc loc);
Ident *ast_ident_new(Ident id);

/* Shape constructors: one per statement or definition form, each filling
 * exactly the union member of its kind. */
Stmt *ast_assign(Expr *target, AssignOp op, Expr *value, Loc loc);
Stmt *ast_io(StmtKind kind, Expr *node_side, Expr *io, Loc loc); /* INPUT, OUTPUT */
Stmt *ast_call_stmt(Expr *call, Loc loc); /* STMT_CALL or STMT_OBJCALL by call */
Stmt *ast_multicall(PtrVec calls, Loc loc);
Stmt *ast_reduction_stmt(Expr *pvs, Ident func, Expr *into, Loc loc);
Stmt *ast_wta_stmt(Expr *pv, Ident elem, Ident func, Ident proc, PtrVec args, Loc loc);
Stmt *ast_return(Expr *value, Loc loc);
Stmt *ast_if(PtrVec arms, Block *else_body, Loc loc);
Stmt *ast_loop(Expr *while_cond, Block *body, Expr *until_cond, Loc loc);
Stmt *ast_for(Expr *var, Expr *from, ForDir dir, Expr *to, Block *body,
              Expr *until_cond, Loc loc);
Stmt *ast_break(Loc loc);
Stmt *ast_replicate(StmtKind kind, Expr *obj, Expr *count, Loc loc); /* REPLICATE, EXTEND */
Stmt *ast_connect(StmtKind kind, Expr *from, Expr *to, Loc loc); /* CONNECT, DISCONNECT */
Stmt *ast_merge_stmt(Expr *obj, Loc loc);

/* TYPE name IS body END: `list` holds the SYMBOLIC names (Ident*) or the
 * elements (Decl*); array_size/elem_type are for ARRAY and GROUP. */
Decl *ast_type_def(Ident name, TypeDefKind body, PtrVec list, Expr *array_size,
                   Ident elem_type, Loc loc);
Decl *ast_data_def(DeclKind kind, Ident type, Access access, PtrVec ids, Loc loc);
Decl *ast_iface_def(IfaceMode mode, Ident type, PtrVec names, Loc loc);
/* PROC, FUNC, REDUCTION, WTA, MERGE; a MERGE has name.name == NULL. */
Decl *ast_subr_def(DeclKind kind, Ident name, Ident result, PtrVec params,
                   bool external, Block *body, Loc loc);
Program *ast_program(const SourceFile *file, PtrVec parts);

/* Spellings for messages and dumps. */
const char *ast_op_spelling(Op op);
const char *ast_assign_spelling(AssignOp op);
const char *ast_access_spelling(Access a);
const char *ast_typedef_spelling(TypeDefKind k);

/* ---- dump (ast_dump.c) ------------------------------------------------ */

/* Names a semantic type for the dump; sema provides one (sema_type_name). */
typedef const char *(*AstTypeNamer)(const Type *type);

/* Prints the tree in a stable indented text form (--dump-ast).  With a
 * namer (after sema), each expression also shows its type and each call its
 * kind; with NULL only the syntax is shown. */
void ast_dump(FILE *out, const Program *prog, AstTypeNamer namer);

#endif
