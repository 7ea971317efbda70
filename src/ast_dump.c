/* ast_dump.c -- the syntax tree as stable indented text (--dump-parse,
 * --dump-ast, golden tests).
 *
 * One node per line: kind, key attributes, @line:col.  Children are indented
 * by two spaces; a "role:" prefix names a child whose place is not obvious
 * (loop conditions, FOR bounds).  With a type namer every expression also
 * shows ":: type" and every call its kind. */
#include "cupitc/ast.h"

#include <stdarg.h>

typedef struct Dumper {
    FILE *out;
    AstTypeNamer namer;
} Dumper;

static void dump_expr(Dumper *d, int depth, const char *role, const Expr *e);
static void dump_block(Dumper *d, int depth, const char *role, const Block *b);
static void dump_decl(Dumper *d, int depth, const Decl *decl);

/* Starts a line: indentation, role and the printf'd head. */
static void line(Dumper *d, int depth, const char *role, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void line(Dumper *d, int depth, const char *role, const char *fmt, ...)
{
    fprintf(d->out, "%*s", 2 * depth, "");
    if (role)
        fprintf(d->out, "%s: ", role);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
}

static void end_line(Dumper *d, Loc loc)
{
    fprintf(d->out, " @%d:%d\n", loc.line, (int)loc.col);
}

static const char *name_or(const char *name)
{
    return name ? name : "?";
}

static const char *call_kind_name(CallKind k)
{
    switch (k) {
    case CALL_NONE: return "none";
    case CALL_PLAIN: return "plain";
    case CALL_OBJECT: return "object";
    case CALL_GROUP: return "group";
    case CALL_REPLICATES: return "replicates";
    }
    return "?";
}

static void dump_args(Dumper *d, int depth, const PtrVec *args)
{
    for (int i = 0; i < args->len; i++)
        dump_expr(d, depth, NULL, VEC_AT(*args, i, Expr));
}

/* The head of an expression line, without location and annotations. */
static void expr_head(Dumper *d, int depth, const char *role, const Expr *e)
{
    switch (e->kind) {
    case EXPR_INT: line(d, depth, role, "int %llu", (unsigned long long)e->u.int_lit.value); break;
    case EXPR_REAL: line(d, depth, role, "real %s", e->u.real_lit.spelling); break;
    case EXPR_STRING: line(d, depth, role, "string %s", e->u.str_lit.spelling); break;
    case EXPR_NAME: line(d, depth, role, "name %s", e->u.name.name); break;
    case EXPR_ME: line(d, depth, role, "me"); break;
    case EXPR_YOU: line(d, depth, role, "you"); break;
    case EXPR_INDEX: line(d, depth, role, "index"); break;
    case EXPR_SELECT: line(d, depth, role, "select .%s", e->u.select.elem.name); break;
    case EXPR_SUBSCRIPT: line(d, depth, role, "subscript"); break;
    case EXPR_ALLSLICE: line(d, depth, role, "allslice"); break;
    case EXPR_CONNADDR: line(d, depth, role, "connaddr"); break;
    case EXPR_UNARY: line(d, depth, role, "unary %s", ast_op_spelling(e->u.unary.op)); break;
    case EXPR_BINARY: line(d, depth, role, "binary %s", ast_op_spelling(e->u.binary.op)); break;
    case EXPR_TERNARY: line(d, depth, role, "ternary"); break;
    case EXPR_CALL: line(d, depth, role, "call %s", e->u.call.callee.name); break;
    case EXPR_OBJCALL: line(d, depth, role, "objcall .%s", e->u.objcall.method.name); break;
    case EXPR_CONVERT: line(d, depth, role, "convert %s", e->u.convert.type.name); break;
    case EXPR_MAXINDEX: line(d, depth, role, "maxindex"); break;
    case EXPR__COUNT: cp_unreachable();
    }
}

/* Deeper trees are cut off: the dump recurses, and a long operator chain
 * (a + a + ... parses left-deep) must not overflow the stack. */
enum { DUMP_MAX_DEPTH = 4000 };

static void dump_expr(Dumper *d, int depth, const char *role, const Expr *e)
{
    if (!e)
        return;
    if (depth > DUMP_MAX_DEPTH) {
        line(d, depth > DUMP_MAX_DEPTH + 1 ? DUMP_MAX_DEPTH : depth, role,
             "... (nested more than %d levels: not shown)", DUMP_MAX_DEPTH);
        fputc('\n', d->out);
        return;
    }
    expr_head(d, depth, role, e);
    if (d->namer) {
        fprintf(d->out, " :: %s", d->namer(e->type));
        if (e->kind == EXPR_CALL || e->kind == EXPR_OBJCALL)
            fprintf(d->out, " [%s]", call_kind_name(e->call_kind));
    }
    end_line(d, e->loc);
    int c = depth + 1;
    switch (e->kind) {
    case EXPR_SELECT: dump_expr(d, c, NULL, e->u.select.obj); break;
    case EXPR_SUBSCRIPT:
        dump_expr(d, c, NULL, e->u.subscript.obj);
        dump_expr(d, c, NULL, e->u.subscript.index);
        break;
    case EXPR_ALLSLICE: dump_expr(d, c, NULL, e->u.allslice.obj); break;
    case EXPR_CONNADDR:
        dump_expr(d, c, NULL, e->u.connaddr.from);
        dump_expr(d, c, NULL, e->u.connaddr.to);
        break;
    case EXPR_UNARY: dump_expr(d, c, NULL, e->u.unary.operand); break;
    case EXPR_BINARY:
        dump_expr(d, c, NULL, e->u.binary.lhs);
        dump_expr(d, c, NULL, e->u.binary.rhs);
        break;
    case EXPR_TERNARY:
        dump_expr(d, c, NULL, e->u.ternary.cond);
        dump_expr(d, c, NULL, e->u.ternary.then_e);
        dump_expr(d, c, NULL, e->u.ternary.else_e);
        break;
    case EXPR_CALL: dump_args(d, c, &e->u.call.args); break;
    case EXPR_OBJCALL:
        dump_expr(d, c, NULL, e->u.objcall.obj);
        dump_args(d, c, &e->u.objcall.args);
        break;
    case EXPR_CONVERT: dump_args(d, c, &e->u.convert.args); break;
    case EXPR_MAXINDEX: dump_expr(d, c, NULL, e->u.maxindex.obj); break;
    default: break;
    }
}

static const char *for_dir_name(ForDir dir)
{
    return dir == FOR_UPTO ? "UPTO" : dir == FOR_TO ? "TO" : "DOWNTO";
}

static void dump_stmt(Dumper *d, int depth, const Stmt *s)
{
    int c = depth + 1;
    switch (s->kind) {
    case STMT_ASSIGN:
        line(d, depth, NULL, "assign %s", ast_assign_spelling(s->u.assign.op));
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.assign.target);
        dump_expr(d, c, NULL, s->u.assign.value);
        break;
    case STMT_INPUT:
    case STMT_OUTPUT:
        line(d, depth, NULL, s->kind == STMT_INPUT ? "input <--" : "output -->");
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.io.node_side);
        dump_expr(d, c, NULL, s->u.io.io);
        break;
    case STMT_CALL:
    case STMT_OBJCALL:
        line(d, depth, NULL, s->kind == STMT_CALL ? "call-stmt" : "objcall-stmt");
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.call.call);
        break;
    case STMT_MULTICALL:
        line(d, depth, NULL, "multicall");
        end_line(d, s->loc);
        dump_args(d, c, &s->u.multi.calls);
        break;
    case STMT_REDUCTION:
        line(d, depth, NULL, "reduce :%s", s->u.reduction.func.name);
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.reduction.pvs);
        dump_expr(d, c, "into", s->u.reduction.into);
        break;
    case STMT_WTA:
        line(d, depth, NULL, "wta-stmt .%s :%s .%s", s->u.wta.elem.name, s->u.wta.func.name,
             s->u.wta.proc.name);
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.wta.pv);
        dump_args(d, c, &s->u.wta.args);
        break;
    case STMT_RETURN:
        line(d, depth, NULL, "return");
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.ret.value);
        break;
    case STMT_IF:
        line(d, depth, NULL, "if");
        end_line(d, s->loc);
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            const IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            line(d, c, NULL, i == 0 ? "arm IF" : "arm ELSIF");
            end_line(d, arm->loc);
            dump_expr(d, c + 1, "cond", arm->cond);
            dump_block(d, c + 1, "then", arm->body);
        }
        dump_block(d, c, "else", s->u.if_.else_body);
        break;
    case STMT_LOOP:
        line(d, depth, NULL, "loop");
        end_line(d, s->loc);
        dump_expr(d, c, "while", s->u.loop.while_cond);
        dump_block(d, c, "body", s->u.loop.body);
        dump_expr(d, c, "until", s->u.loop.until_cond);
        break;
    case STMT_FOR:
        line(d, depth, NULL, "for %s", for_dir_name(s->u.for_.dir));
        end_line(d, s->loc);
        dump_expr(d, c, "var", s->u.for_.var);
        dump_expr(d, c, "from", s->u.for_.from);
        dump_expr(d, c, "to", s->u.for_.to);
        dump_block(d, c, "body", s->u.for_.body);
        dump_expr(d, c, "until", s->u.for_.until_cond);
        break;
    case STMT_BREAK:
        line(d, depth, NULL, "break");
        end_line(d, s->loc);
        break;
    case STMT_REPLICATE:
    case STMT_EXTEND:
        line(d, depth, NULL, s->kind == STMT_REPLICATE ? "replicate" : "extend");
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.replicate.obj);
        dump_expr(d, c, s->kind == STMT_REPLICATE ? "into" : "by", s->u.replicate.count);
        break;
    case STMT_CONNECT:
    case STMT_DISCONNECT:
        line(d, depth, NULL, s->kind == STMT_CONNECT ? "connect" : "disconnect");
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.connect.from);
        dump_expr(d, c, s->kind == STMT_CONNECT ? "to" : "from", s->u.connect.to);
        break;
    case STMT_MERGE:
        line(d, depth, NULL, "merge-stmt");
        end_line(d, s->loc);
        dump_expr(d, c, NULL, s->u.merge.obj);
        break;
    case STMT__COUNT: cp_unreachable();
    }
}

static void dump_block(Dumper *d, int depth, const char *role, const Block *b)
{
    if (!b)
        return;
    line(d, depth, role, "block");
    end_line(d, b->loc);
    for (int i = 0; i < b->defs.len; i++)
        dump_decl(d, depth + 1, VEC_AT(b->defs, i, Decl));
    for (int i = 0; i < b->stmts.len; i++)
        dump_stmt(d, depth + 1, VEC_AT(b->stmts, i, Stmt));
}

static void dump_idents(Dumper *d, int depth, const char *kind, const PtrVec *ids)
{
    for (int i = 0; i < ids->len; i++) {
        const Ident *id = VEC_AT(*ids, i, Ident);
        line(d, depth, NULL, "%s %s", kind, id->name);
        end_line(d, id->loc);
    }
}

static void dump_init_ids(Dumper *d, int depth, const PtrVec *ids)
{
    for (int i = 0; i < ids->len; i++) {
        const InitId *id = VEC_AT(*ids, i, InitId);
        line(d, depth, NULL, "id %s", id->id.name);
        end_line(d, id->id.loc);
        dump_expr(d, depth + 1, "init", id->init);
    }
}

static void dump_subr(Dumper *d, int depth, const Decl *decl)
{
    static const char *const kinds[] = {
        [DECL_PROC] = "procedure", [DECL_FUNC] = "function",
        [DECL_REDUCTION] = "reduction", [DECL_WTA] = "wta", [DECL_MERGE] = "merge",
    };
    line(d, depth, NULL, "%s", kinds[decl->kind]);
    if (decl->kind != DECL_MERGE)
        fprintf(d->out, " %s", name_or(decl->u.subr.name.name));
    if (decl->kind != DECL_PROC && decl->kind != DECL_MERGE)
        fprintf(d->out, " result=%s", name_or(decl->u.subr.result.name));
    if (decl->u.subr.external)
        fputs(" EXTERNAL", d->out);
    end_line(d, decl->loc);
    for (int i = 0; i < decl->u.subr.params.len; i++) {
        const ParamGroup *g = VEC_AT(decl->u.subr.params, i, ParamGroup);
        line(d, depth + 1, NULL, "param %s %s", ast_access_spelling(g->access), g->type.name);
        end_line(d, g->loc);
        dump_idents(d, depth + 2, "name", &g->names);
    }
    dump_block(d, depth + 1, NULL, decl->u.subr.body);
}

static void dump_decl(Dumper *d, int depth, const Decl *decl)
{
    switch (decl->kind) {
    case DECL_TYPE:
        line(d, depth, NULL, "type %s %s", decl->u.type.name.name,
             ast_typedef_spelling(decl->u.type.body));
        if (decl->u.type.elem_type.name)
            fprintf(d->out, " of=%s", decl->u.type.elem_type.name);
        end_line(d, decl->loc);
        dump_idents(d, depth + 1, "enum", &decl->u.type.enums);
        dump_expr(d, depth + 1, "size", decl->u.type.array_size);
        for (int i = 0; i < decl->u.type.elems.len; i++)
            dump_decl(d, depth + 1, VEC_AT(decl->u.type.elems, i, Decl));
        break;
    case DECL_DATA:
    case DECL_ELEM:
        if (decl->kind == DECL_DATA)
            line(d, depth, NULL, "data %s %s", ast_access_spelling(decl->u.data.access),
                 decl->u.data.type.name);
        else
            line(d, depth, NULL, "elem %s", decl->u.data.type.name);
        end_line(d, decl->loc);
        dump_init_ids(d, depth + 1, &decl->u.data.ids);
        break;
    case DECL_IFACE:
        line(d, depth, NULL, "iface %s %s", decl->u.iface.mode == IFACE_IN ? "IN" : "OUT",
             decl->u.iface.type.name);
        end_line(d, decl->loc);
        dump_idents(d, depth + 1, "name", &decl->u.iface.names);
        break;
    case DECL_PROC:
    case DECL_FUNC:
    case DECL_REDUCTION:
    case DECL_WTA:
    case DECL_MERGE:
        dump_subr(d, depth, decl);
        break;
    case DECL__COUNT: cp_unreachable();
    }
}

void ast_dump(FILE *out, const Program *prog, AstTypeNamer namer)
{
    Dumper d = {out, namer};
    fputs("program\n", out);
    for (int i = 0; i < prog->parts.len; i++)
        dump_decl(&d, 1, VEC_AT(prog->parts, i, Decl));
}
