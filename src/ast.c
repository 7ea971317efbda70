/* ast.c -- constructors and spellings for the syntax tree.
 *
 * Every node is zero-filled arena memory, so the "set by sema" fields start
 * out empty.  The parser calls exactly one constructor per construct; the
 * shape constructors below fill the union member that belongs to the kind. */
#include "cupitc/ast.h"

#include <stddef.h>


static Arena *current_arena;

void ast_set_arena(Arena *a) { current_arena = a; }

Arena *ast_arena(void)
{
    if (!current_arena)
        diag_internal(__FILE__, __LINE__, "AST arena not set");
    return current_arena;
}

static void *node(size_t size) { return arena_alloc(ast_arena(), size); }

static Arena *syntax_arena;

void ast_set_syntax_arena(Arena *a) { syntax_arena = a; }

/* Syntax only analysis reads (Program.syntax). */
static void *syntax_node(size_t size)
{
    return syntax_arena ? arena_alloc(syntax_arena, size) : node(size);
}

/* The bytes of a node of type T (Expr, Stmt, Decl) whose kind uses `member`
 * of its union `u`, which comes last: nodes are allocated only that long. */
#define KIND_SIZE(T, member) (offsetof(T, u) + sizeof(((T *)0)->u.member))

/* ---- expressions ----------------------------------------------------- */

/* The bytes of an Expr of each kind: up to the end of its member of `u`
 * (none for ME, YOU, INDEX).  An all-slice may become a subscript when sema
 * rewrites a node grid row (sema/expr.c, sema/parallel.c), so it has that
 * member's room. */
static const unsigned char expr_size[EXPR__COUNT] = {
    [EXPR_INT] = KIND_SIZE(Expr, int_lit),
    [EXPR_REAL] = KIND_SIZE(Expr, real_lit),
    [EXPR_STRING] = KIND_SIZE(Expr, str_lit),
    [EXPR_NAME] = KIND_SIZE(Expr, name),
    [EXPR_ME] = offsetof(Expr, u),
    [EXPR_YOU] = offsetof(Expr, u),
    [EXPR_INDEX] = offsetof(Expr, u),
    [EXPR_SELECT] = KIND_SIZE(Expr, select),
    [EXPR_SUBSCRIPT] = KIND_SIZE(Expr, subscript),
    [EXPR_ALLSLICE] = KIND_SIZE(Expr, subscript),
    [EXPR_CONNADDR] = KIND_SIZE(Expr, connaddr),
    [EXPR_UNARY] = KIND_SIZE(Expr, unary),
    [EXPR_BINARY] = KIND_SIZE(Expr, binary),
    [EXPR_TERNARY] = KIND_SIZE(Expr, ternary),
    [EXPR_CALL] = KIND_SIZE(Expr, call),
    [EXPR_OBJCALL] = KIND_SIZE(Expr, objcall),
    [EXPR_CONVERT] = KIND_SIZE(Expr, convert),
    [EXPR_MAXINDEX] = KIND_SIZE(Expr, maxindex),
};

Expr *ast_expr(ExprKind kind, Loc loc)
{
    if ((unsigned)kind >= EXPR__COUNT || !expr_size[kind])
        diag_internal(__FILE__, __LINE__, "expression kind %d has no size", (int)kind);
    Expr *e = node(expr_size[kind]);
    e->kind = kind;
    e->loc = loc;
    return e;
}

Expr *ast_int(uint64_t value, Loc loc)
{
    Expr *e = ast_expr(EXPR_INT, loc);
    e->u.int_lit.value = value;
    return e;
}

Expr *ast_real(double value, const char *spelling, Loc loc)
{
    Expr *e = ast_expr(EXPR_REAL, loc);
    e->u.real_lit.value = value;
    e->u.real_lit.spelling = spelling;
    return e;
}

Expr *ast_string(const char *bytes, int len, const char *spelling, Loc loc)
{
    Expr *e = ast_expr(EXPR_STRING, loc);
    e->u.str_lit.bytes = bytes;
    e->u.str_lit.len = len;
    e->u.str_lit.spelling = spelling;
    return e;
}

Expr *ast_name(const char *name, Loc loc)
{
    Expr *e = ast_expr(EXPR_NAME, loc);
    e->u.name.name = name;
    return e;
}

Expr *ast_select(Expr *obj, Ident elem, Loc loc)
{
    Expr *e = ast_expr(EXPR_SELECT, loc);
    e->u.select.obj = obj;
    e->u.select.elem = elem;
    return e;
}

Expr *ast_subscript(Expr *obj, Expr *index, Loc loc)
{
    Expr *e = ast_expr(EXPR_SUBSCRIPT, loc);
    e->u.subscript.obj = obj;
    e->u.subscript.index = index;
    return e;
}

Expr *ast_allslice(Expr *obj, Loc loc)
{
    Expr *e = ast_expr(EXPR_ALLSLICE, loc);
    e->u.allslice.obj = obj;
    return e;
}

Expr *ast_connaddr(Expr *from, Expr *to, Loc loc)
{
    Expr *e = ast_expr(EXPR_CONNADDR, loc);
    e->u.connaddr.from = from;
    e->u.connaddr.to = to;
    return e;
}

Expr *ast_unary(Op op, Expr *operand, Loc loc)
{
    Expr *e = ast_expr(EXPR_UNARY, loc);
    e->u.unary.op = op;
    e->u.unary.operand = operand;
    return e;
}

Expr *ast_binary(Op op, Expr *lhs, Expr *rhs, Loc loc)
{
    Expr *e = ast_expr(EXPR_BINARY, loc);
    e->u.binary.op = op;
    e->u.binary.lhs = lhs;
    e->u.binary.rhs = rhs;
    return e;
}

Expr *ast_ternary(Expr *cond, Expr *then_e, Expr *else_e, Loc loc)
{
    Expr *e = ast_expr(EXPR_TERNARY, loc);
    e->u.ternary.cond = cond;
    e->u.ternary.then_e = then_e;
    e->u.ternary.else_e = else_e;
    return e;
}

Expr *ast_call(Ident callee, PtrVec args, Loc loc)
{
    Expr *e = ast_expr(EXPR_CALL, loc);
    e->u.call.callee = callee;
    e->u.call.args = args;
    return e;
}

Expr *ast_objcall(Expr *obj, Ident method, PtrVec args, Loc loc)
{
    Expr *e = ast_expr(EXPR_OBJCALL, loc);
    e->u.objcall.obj = obj;
    e->u.objcall.method = method;
    e->u.objcall.args = args;
    return e;
}

Expr *ast_convert(Ident type, PtrVec args, Loc loc)
{
    Expr *e = ast_expr(EXPR_CONVERT, loc);
    e->u.convert.type = type;
    e->u.convert.args = args;
    return e;
}

Expr *ast_maxindex(Expr *obj, Loc loc)
{
    Expr *e = ast_expr(EXPR_MAXINDEX, loc);
    e->u.maxindex.obj = obj;
    return e;
}

/* ---- statements ------------------------------------------------------ */

/* The bytes of a Stmt of each kind: up to the end of its member of `u`;
 * REDUCTION and WTA also have the fields after `u`. */
static const unsigned char stmt_size[STMT__COUNT] = {
    [STMT_ASSIGN] = KIND_SIZE(Stmt, assign),
    [STMT_INPUT] = KIND_SIZE(Stmt, io),
    [STMT_OUTPUT] = KIND_SIZE(Stmt, io),
    [STMT_CALL] = KIND_SIZE(Stmt, call),
    [STMT_OBJCALL] = KIND_SIZE(Stmt, call),
    [STMT_MULTICALL] = KIND_SIZE(Stmt, multi),
    [STMT_REDUCTION] = sizeof(Stmt),
    [STMT_WTA] = sizeof(Stmt),
    [STMT_RETURN] = KIND_SIZE(Stmt, ret),
    [STMT_IF] = KIND_SIZE(Stmt, if_),
    [STMT_LOOP] = KIND_SIZE(Stmt, loop),
    [STMT_FOR] = KIND_SIZE(Stmt, for_),
    [STMT_BREAK] = offsetof(Stmt, u),
    [STMT_REPLICATE] = KIND_SIZE(Stmt, replicate),
    [STMT_EXTEND] = KIND_SIZE(Stmt, replicate),
    [STMT_CONNECT] = KIND_SIZE(Stmt, connect),
    [STMT_DISCONNECT] = KIND_SIZE(Stmt, connect),
    [STMT_MERGE] = KIND_SIZE(Stmt, merge),
};

Stmt *ast_stmt(StmtKind kind, Loc loc)
{
    if ((unsigned)kind >= STMT__COUNT || !stmt_size[kind])
        diag_internal(__FILE__, __LINE__, "statement kind %d has no size", (int)kind);
    Stmt *s = node(stmt_size[kind]);
    s->kind = kind;
    s->loc = loc;
    return s;
}

Stmt *ast_assign(Expr *target, AssignOp op, Expr *value, Loc loc)
{
    Stmt *s = ast_stmt(STMT_ASSIGN, loc);
    s->u.assign.target = target;
    s->u.assign.op = op;
    s->u.assign.value = value;
    return s;
}

Stmt *ast_io(StmtKind kind, Expr *node_side, Expr *io, Loc loc)
{
    Stmt *s = ast_stmt(kind, loc);
    s->u.io.node_side = node_side;
    s->u.io.io = io;
    return s;
}

Stmt *ast_call_stmt(Expr *call, Loc loc)
{
    Stmt *s = ast_stmt(call->kind == EXPR_OBJCALL ? STMT_OBJCALL : STMT_CALL, loc);
    s->u.call.call = call;
    return s;
}

Stmt *ast_multicall(PtrVec calls, Loc loc)
{
    Stmt *s = ast_stmt(STMT_MULTICALL, loc);
    s->u.multi.calls = calls;
    return s;
}

Stmt *ast_reduction_stmt(Expr *pvs, Ident func, Expr *into, Loc loc)
{
    Stmt *s = ast_stmt(STMT_REDUCTION, loc);
    s->u.reduction.pvs = pvs;
    s->u.reduction.func = func;
    s->u.reduction.into = into;
    return s;
}

Stmt *ast_wta_stmt(Expr *pv, Ident elem, Ident func, Ident proc, PtrVec args, Loc loc)
{
    Stmt *s = ast_stmt(STMT_WTA, loc);
    s->u.wta.pv = pv;
    s->u.wta.elem = elem;
    s->u.wta.func = func;
    s->u.wta.proc = proc;
    s->u.wta.args = args;
    return s;
}

Stmt *ast_return(Expr *value, Loc loc)
{
    Stmt *s = ast_stmt(STMT_RETURN, loc);
    s->u.ret.value = value;
    return s;
}

Stmt *ast_if(PtrVec arms, Block *else_body, Loc loc)
{
    Stmt *s = ast_stmt(STMT_IF, loc);
    s->u.if_.arms = arms;
    s->u.if_.else_body = else_body;
    return s;
}

Stmt *ast_loop(Expr *while_cond, Block *body, Expr *until_cond, Loc loc)
{
    Stmt *s = ast_stmt(STMT_LOOP, loc);
    s->u.loop.while_cond = while_cond;
    s->u.loop.body = body;
    s->u.loop.until_cond = until_cond;
    return s;
}

Stmt *ast_for(Expr *var, Expr *from, ForDir dir, Expr *to, Block *body,
              Expr *until_cond, Loc loc)
{
    Stmt *s = ast_stmt(STMT_FOR, loc);
    s->u.for_.var = var;
    s->u.for_.from = from;
    s->u.for_.dir = dir;
    s->u.for_.to = to;
    s->u.for_.body = body;
    s->u.for_.until_cond = until_cond;
    return s;
}

Stmt *ast_break(Loc loc) { return ast_stmt(STMT_BREAK, loc); }

Stmt *ast_replicate(StmtKind kind, Expr *obj, Expr *count, Loc loc)
{
    Stmt *s = ast_stmt(kind, loc);
    s->u.replicate.obj = obj;
    s->u.replicate.count = count;
    return s;
}

Stmt *ast_connect(StmtKind kind, Expr *from, Expr *to, Loc loc)
{
    Stmt *s = ast_stmt(kind, loc);
    s->u.connect.from = from;
    s->u.connect.to = to;
    return s;
}

Stmt *ast_merge_stmt(Expr *obj, Loc loc)
{
    Stmt *s = ast_stmt(STMT_MERGE, loc);
    s->u.merge.obj = obj;
    return s;
}

Block *ast_block(PtrVec defs, PtrVec stmts, Loc loc)
{
    Block *b = node(sizeof *b);
    b->defs = defs;
    b->stmts = stmts;
    b->loc = loc;
    return b;
}

IfArm *ast_if_arm(Expr *cond, Block *body, Loc loc)
{
    IfArm *a = node(sizeof *a);
    a->cond = cond;
    a->body = body;
    a->loc = loc;
    return a;
}

/* ---- definitions ----------------------------------------------------- */

/* The bytes of a Decl of each kind: up to the end of its member of `u`. */
static const unsigned char decl_size[DECL__COUNT] = {
    [DECL_TYPE] = KIND_SIZE(Decl, type),
    [DECL_DATA] = KIND_SIZE(Decl, data),
    [DECL_ELEM] = KIND_SIZE(Decl, data),
    [DECL_IFACE] = KIND_SIZE(Decl, iface),
    [DECL_PROC] = KIND_SIZE(Decl, subr),
    [DECL_FUNC] = KIND_SIZE(Decl, subr),
    [DECL_REDUCTION] = KIND_SIZE(Decl, subr),
    [DECL_WTA] = KIND_SIZE(Decl, subr),
    [DECL_MERGE] = KIND_SIZE(Decl, subr),
};

Decl *ast_decl(DeclKind kind, Loc loc)
{
    if ((unsigned)kind >= DECL__COUNT || !decl_size[kind])
        diag_internal(__FILE__, __LINE__, "definition kind %d has no size", (int)kind);
    Decl *d = node(decl_size[kind]);
    d->kind = kind;
    d->loc = loc;
    return d;
}

Decl *ast_type_def(Ident name, TypeDefKind body, PtrVec list, Expr *array_size,
                   Ident elem_type, Loc loc)
{
    Decl *d = ast_decl(DECL_TYPE, loc);
    d->u.type.name = name;
    d->u.type.body = body;
    if (body == TDEF_SYMBOLIC)
        d->u.type.enums = list;
    else
        d->u.type.elems = list;
    d->u.type.array_size = array_size;
    d->u.type.elem_type = elem_type;
    return d;
}

Decl *ast_data_def(DeclKind kind, Ident type, Access access, PtrVec ids, Loc loc)
{
    Decl *d = ast_decl(kind, loc);
    d->u.data.type = type;
    d->u.data.access = access;
    d->u.data.ids = ids;
    return d;
}

Decl *ast_iface_def(IfaceMode mode, Ident type, PtrVec names, Loc loc)
{
    Decl *d = ast_decl(DECL_IFACE, loc);
    d->u.iface.mode = mode;
    d->u.iface.type = type;
    d->u.iface.names = names;
    return d;
}

Decl *ast_subr_def(DeclKind kind, Ident name, Ident result, PtrVec params,
                   bool external, Block *body, Loc loc)
{
    Decl *d = ast_decl(kind, loc);
    d->u.subr.name = name;
    d->u.subr.result = result;
    d->u.subr.params = params;
    d->u.subr.external = external;
    d->u.subr.body = body;
    return d;
}

InitId *ast_init_id(Ident id, Expr *init)
{
    InitId *i = node(sizeof *i);
    i->id = id;
    i->init = init;
    return i;
}

ParamGroup *ast_param_group(Ident type, Access access, PtrVec names, Loc loc)
{
    ParamGroup *g = syntax_node(sizeof *g);
    g->type = type;
    g->access = access;
    g->names = names;
    g->loc = loc;
    return g;
}

Ident *ast_ident_new(Ident id)
{
    Ident *p = syntax_node(sizeof *p);
    *p = id;
    return p;
}

Program *ast_program(const SourceFile *file, PtrVec parts)
{
    Program *p = node(sizeof *p);
    p->file = file;
    p->parts = parts;
    return p;
}

/* ---- spellings ------------------------------------------------------- */

/* ORDER OP */
static const char *const op_spelling[] = {
    "OR", "XOR", "AND", "=", "<>", "<", ">", "<=", ">=", "IN",
    "BITOR", "BITXOR", "...", "BITAND", "LSHIFT", "RSHIFT",
    "+", "-", "*", "/", "%", "**",
    "NOT", "BITNOT", "-", "MIN", "MAX", "RANDOM",
    "GRID_INDEX", "GRID_SLICE", "GRID_ROW", "GRID_ROWS",
};
_Static_assert(sizeof op_spelling / sizeof op_spelling[0] == OP__COUNT,
               "op_spelling out of sync with enum Op");

/* ORDER ASSIGN */
static const char *const assign_spelling[] = {":=", "+=", "-=", "*=", "/=", "%="};
_Static_assert(sizeof assign_spelling / sizeof assign_spelling[0] == ASSIGN__COUNT,
               "assign_spelling out of sync with enum AssignOp");

static const char *const typedef_spelling[] = {
    "SYMBOLIC", "RECORD", "NODE", "CONNECTION", "ARRAY", "GROUP", "NETWORK",
};
_Static_assert(sizeof typedef_spelling / sizeof typedef_spelling[0] == TDEF__COUNT,
               "typedef_spelling out of sync with enum TypeDefKind");

const char *ast_op_spelling(Op op)
{
    return (unsigned)op < OP__COUNT ? op_spelling[op] : "?";
}

const char *ast_assign_spelling(AssignOp op)
{
    return (unsigned)op < ASSIGN__COUNT ? assign_spelling[op] : "?";
}

const char *ast_access_spelling(Access a)
{
    switch (a) {
    case ACCESS_NONE: return "";
    case ACCESS_CONST: return "CONST";
    case ACCESS_VAR: return "VAR";
    case ACCESS_IO: return "IO";
    }
    return "?";
}

const char *ast_typedef_spelling(TypeDefKind k)
{
    return (unsigned)k < TDEF__COUNT ? typedef_spelling[k] : "?";
}
