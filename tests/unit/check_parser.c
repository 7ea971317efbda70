/* check_parser.c -- unit tests of the parser (grammar/parser.y).
 *
 * Expressions are checked through a compact prefix form ("(+ a (* b c))")
 * that shows precedence and associativity; statements and definitions
 * through their node kinds and fields; syntax errors through the exact
 * number of diagnostics and their text. */
#include <check.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/ast_walk.h"
#include "cupitc/parse.h"
#include "fe_capture.h"

static Arena *arena;

static Program *parse(const char *text)
{
    if (!arena)
        arena = arena_new();
    capture_begin();
    SourceFile *src = source_from_string("t.nn", text, strlen(text));
    Program *prog = parse_program(src, arena);
    capture_end();
    return prog; /* src stays alive: nodes point into it */
}

#define ck_errors(n) \
    ck_assert_msg(diag_error_count() == (n), "%d errors, want %d:\n%s", \
                  diag_error_count(), (n), captured ? captured : "")
#define ck_message(s) ck_assert_msg(strstr(captured, (s)) != NULL, "no '%s' in:\n%s", (s), captured)

/* ---- expression printer ----------------------------------------------- */

static void sx(char *out, size_t cap, const Expr *e);

static void sxf(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void sxf(char *out, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(out);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + n, cap - n, fmt, ap);
    va_end(ap);
}

static void sx_list(char *out, size_t cap, const PtrVec *v)
{
    for (int i = 0; i < v->len; i++) {
        sxf(out, cap, "%s", " ");
        sx(out, cap, VEC_AT(*v, i, Expr));
    }
}

static void sx(char *out, size_t cap, const Expr *e)
{
    char num[32];
    switch (e->kind) {
    case EXPR_INT:
        snprintf(num, sizeof num, "%llu", (unsigned long long)e->u.int_lit.value);
        sxf(out, cap, "%s", num);
        break;
    case EXPR_REAL: sxf(out, cap, "%s", e->u.real_lit.spelling); break;
    case EXPR_STRING: sxf(out, cap, "%s", e->u.str_lit.spelling); break;
    case EXPR_NAME: sxf(out, cap, "%s", e->u.name.name); break;
    case EXPR_ME: sxf(out, cap, "%s", "ME"); break;
    case EXPR_YOU: sxf(out, cap, "%s", "YOU"); break;
    case EXPR_INDEX: sxf(out, cap, "%s", "INDEX"); break;
    case EXPR_SELECT:
        sxf(out, cap, "%s", "(. ");
        sx(out, cap, e->u.select.obj);
        sxf(out, cap, " %s)", e->u.select.elem.name);
        break;
    case EXPR_SUBSCRIPT:
        sxf(out, cap, "%s", "([] ");
        sx(out, cap, e->u.subscript.obj);
        sxf(out, cap, "%s", " ");
        sx(out, cap, e->u.subscript.index);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_ALLSLICE:
        sxf(out, cap, "%s", "([] ");
        sx(out, cap, e->u.allslice.obj);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_CONNADDR:
        sxf(out, cap, "%s", "(--> ");
        sx(out, cap, e->u.connaddr.from);
        sxf(out, cap, "%s", " ");
        sx(out, cap, e->u.connaddr.to);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_UNARY:
        sxf(out, cap, "(%s ", ast_op_spelling(e->u.unary.op));
        sx(out, cap, e->u.unary.operand);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_BINARY:
        sxf(out, cap, "(%s ", ast_op_spelling(e->u.binary.op));
        sx(out, cap, e->u.binary.lhs);
        sxf(out, cap, "%s", " ");
        sx(out, cap, e->u.binary.rhs);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_TERNARY:
        sxf(out, cap, "%s", "(? ");
        sx(out, cap, e->u.ternary.cond);
        sxf(out, cap, "%s", " ");
        sx(out, cap, e->u.ternary.then_e);
        sxf(out, cap, "%s", " ");
        sx(out, cap, e->u.ternary.else_e);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_CALL:
        sxf(out, cap, "(call %s", e->u.call.callee.name);
        sx_list(out, cap, &e->u.call.args);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_OBJCALL:
        sxf(out, cap, "%s", "(objcall ");
        sx(out, cap, e->u.objcall.obj);
        sxf(out, cap, " %s", e->u.objcall.method.name);
        sx_list(out, cap, &e->u.objcall.args);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_CONVERT:
        sxf(out, cap, "(%s", e->u.convert.type.name);
        sx_list(out, cap, &e->u.convert.args);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR_MAXINDEX:
        sxf(out, cap, "%s", "(MAXINDEX ");
        sx(out, cap, e->u.maxindex.obj);
        sxf(out, cap, "%s", ")");
        break;
    case EXPR__COUNT: break;
    }
}

static const char *show(const Expr *e)
{
    static char out[2048];
    out[0] = '\0';
    sx(out, sizeof out, e);
    return out;
}

/* The first statement of "PROCEDURE p () IS <body> END;". */
static Stmt *first_stmt(const char *body)
{
    char text[2048];
    snprintf(text, sizeof text, "PROCEDURE p () IS\n%s\nEND;\n", body);
    Program *prog = parse(text);
    ck_errors(0);
    ck_assert_int_eq(prog->parts.len, 1);
    Block *b = VEC_AT(prog->parts, 0, Decl)->u.subr.body;
    ck_assert_int_ge(b->stmts.len, 1);
    return VEC_AT(b->stmts, 0, Stmt);
}

/* The parsed form of `expr` (as the value of an assignment). */
static const char *expr(const char *e)
{
    char body[1024];
    snprintf(body, sizeof body, "x := %s;", e);
    Stmt *s = first_stmt(body);
    ck_assert_int_eq(s->kind, STMT_ASSIGN);
    return show(s->u.assign.value);
}

/* Number of errors when `e` is used as an expression. */
static int expr_errors(const char *e)
{
    char text[1024];
    snprintf(text, sizeof text, "PROCEDURE p () IS x := %s; END;", e);
    parse(text);
    return diag_error_count();
}

#define ck_expr(e, want) ck_assert_str_eq(expr(e), (want))

/* ---- expressions ------------------------------------------------------ */

START_TEST(test_parser_primaries)
{
    ck_expr("42", "42");
    ck_expr("0x1F", "31");
    ck_expr("1.5e3", "1.5e3");
    ck_expr("\"s\"", "\"s\"");
    ck_expr("y", "y");
    ck_expr("(y)", "y");
    ck_expr("f ()", "(call f)");
    ck_expr("f (1, y)", "(call f 1 y)");
    ck_expr("ME.g[2].h ()", "(objcall ([] (. ME g) 2) h)");
    ck_expr("Real (i)", "(Real i)");
    ck_expr("Stats (2, 3.0)", "(Stats 2 3.0)");
    ck_expr("MAXINDEX (net) + 1", "(+ (MAXINDEX net) 1)");
    ck_expr("MAXINDEX (ME.in)", "(MAXINDEX (. ME in))");
}
END_TEST

START_TEST(test_parser_objects)
{
    ck_expr("ME", "ME");
    ck_expr("YOU.d", "(. YOU d)");
    ck_expr("INDEX", "INDEX");
    ck_expr("a.b.c", "(. (. a b) c)");
    ck_expr("a[1][2]", "([] ([] a 1) 2)");
    ck_expr("net[].in[].inData", "(. ([] (. ([] net) in)) inData)");
    ck_expr("ME.in[0...0].out", "(. ([] (. ME in) (... 0 0)) out)");
    ck_expr("(a.o --> b.i).w", "(. (--> (. a o) (. b i)) w)");
}
END_TEST

START_TEST(test_parser_arithmetic_precedence)
{
    ck_expr("1 + 2 * 3", "(+ 1 (* 2 3))");
    ck_expr("a - b - c", "(- (- a b) c)");
    ck_expr("a / b % c * d", "(* (% (/ a b) c) d)");
    ck_expr("a ** b ** c", "(** a (** b c))");
    ck_expr("-a ** 2", "(** (- a) 2)");
    ck_expr("a ** -b", "(** a (- b))");
    ck_expr("2 * a ** 2", "(* 2 (** a 2))");
    ck_expr("a--b", "(- a (- b))");
    ck_expr("Real (outputs) ** 2 * 0.5 * s ** 2", "(* (* (** (Real outputs) 2) 0.5) (** s 2))");
}
END_TEST

START_TEST(test_parser_logical_precedence)
{
    ck_expr("NOT a AND b", "(AND (NOT a) b)");
    ck_expr("a > 4 AND b < c", "(AND (> a 4) (< b c))");
    ck_expr("a OR b AND c", "(OR a (AND b c))");
    ck_expr("a XOR b OR c", "(OR (XOR a b) c)");
    ck_expr("a AND b AND c", "(AND (AND a b) c)");
    ck_expr("a = b + 1", "(= a (+ b 1))");
    ck_expr("a <> b", "(<> a b)");
    ck_expr("a <= b", "(<= a b)");
    ck_expr("a >= b", "(>= a b)");
}
END_TEST

START_TEST(test_parser_bit_precedence)
{
    ck_expr("a BITOR b BITAND c", "(BITOR a (BITAND b c))");
    ck_expr("a BITXOR b BITOR c", "(BITOR (BITXOR a b) c)");
    ck_expr("a BITAND b LSHIFT 1", "(BITAND a (LSHIFT b 1))");
    ck_expr("a LSHIFT 1 + 2", "(LSHIFT a (+ 1 2))");
    ck_expr("a RSHIFT 1 RSHIFT 2", "(RSHIFT (RSHIFT a 1) 2)");
    ck_expr("BITNOT k BITAND 0x0F", "(BITAND (BITNOT k) 15)");
    ck_expr("k > 3 ? k LSHIFT 2 BITOR 1 : BITNOT k BITAND 0x0F",
            "(? (> k 3) (BITOR (LSHIFT k 2) 1) (BITAND (BITNOT k) 15))");
}
END_TEST

START_TEST(test_parser_intervals)
{
    ck_expr("1...3", "(... 1 3)");
    ck_expr("x IN 1...5", "(IN x (... 1 5))");
    ck_expr("a...b BITOR c", "(BITOR (... a b) c)");
    ck_expr("MIN 1...3", "(... (MIN 1) 3)");
    ck_expr("MIN (1...3)", "(MIN (... 1 3))");
    ck_expr("RANDOM (-0.5...0.5)", "(RANDOM (... (- 0.5) 0.5))");
    ck_expr("MAX w", "(MAX w)");
    ck_expr("a + 1...b * 2", "(... (+ a 1) (* b 2))");
}
END_TEST

START_TEST(test_parser_ternary)
{
    ck_expr("a ? b : c", "(? a b c)");
    ck_expr("(ME > YOU) ? ME : YOU", "(? (> ME YOU) ME YOU)");
    ck_expr("a ? b : (c ? d : e)", "(? a b (? c d e))");
    ck_expr("a OR b ? c AND d : e", "(? (OR a b) (AND c d) e)");
}
END_TEST

START_TEST(test_parser_non_associative_errors)
{
    ck_assert_int_eq(expr_errors("a = b = c"), 1);
    ck_assert_int_eq(expr_errors("a < b < c"), 1);
    ck_assert_int_eq(expr_errors("x IN a IN b"), 1);
    ck_assert_int_eq(expr_errors("a ? b : c ? d : e"), 1);
    ck_assert_int_eq(expr_errors("a BITOR b...c"), 1);
    ck_assert_int_eq(expr_errors("a...b...c"), 1);
}
END_TEST

START_TEST(test_parser_unary_operand_is_primary)
{
    ck_assert_int_eq(expr_errors("- -a"), 1);
    ck_assert_int_eq(expr_errors("NOT NOT b"), 1);
    ck_assert_int_eq(expr_errors("-MIN x"), 1);
    ck_assert_int_eq(expr_errors("Int ()"), 1);      /* a conversion needs an argument */
    ck_assert_int_eq(expr_errors("MAXINDEX (1 + 2)"), 1); /* MAXINDEX takes an object */
    ck_assert_int_eq(expr_errors("\"a\" \"b\""), 1);  /* no string concatenation */
    ck_expr("-(-a)", "(- (- a))");
    ck_expr("NOT (NOT b)", "(NOT (NOT b))");
}
END_TEST

/* ---- statements ------------------------------------------------------- */

START_TEST(test_parser_assignments)
{
    static const char *const ops[] = {":=", "+=", "-=", "*=", "/=", "%="};
    for (int i = 0; i < 6; i++) {
        char body[64];
        snprintf(body, sizeof body, "ME.a[1] %s 2;", ops[i]);
        Stmt *s = first_stmt(body);
        ck_assert_int_eq(s->kind, STMT_ASSIGN);
        ck_assert_int_eq(s->u.assign.op, (AssignOp)i);
        ck_assert_str_eq(show(s->u.assign.target), "([] (. ME a) 1)");
        ck_assert_int_eq(s->loc.line, 2);
        ck_assert_int_eq(s->loc.col, 1);
    }
    Stmt *s = first_stmt("(nw.g1[0].o --> nw.g2[1].i1) := C (0.5);");
    ck_assert_str_eq(show(s->u.assign.target), "(--> (. ([] (. nw g1) 0) o) (. ([] (. nw g2) 1) i1))");
}
END_TEST

START_TEST(test_parser_io_assignments)
{
    Stmt *s = first_stmt("net[].in[].inData <-- x1;");
    ck_assert_int_eq(s->kind, STMT_INPUT);
    ck_assert_str_eq(show(s->u.io.node_side), "(. ([] (. ([] net) in)) inData)");
    ck_assert_str_eq(show(s->u.io.io), "x1");
    s = first_stmt("net[].out[].outData --> x2;");
    ck_assert_int_eq(s->kind, STMT_OUTPUT);
    ck_assert_str_eq(show(s->u.io.io), "x2");
}
END_TEST

START_TEST(test_parser_calls)
{
    Stmt *s = first_stmt("openDatafile (\"Data\", a, b);");
    ck_assert_int_eq(s->kind, STMT_CALL);
    ck_assert_str_eq(show(s->u.call.call), "(call openDatafile \"Data\" a b)");
    s = first_stmt("showNet ();");
    ck_assert_str_eq(show(s->u.call.call), "(call showNet)");
    s = first_stmt("ME.in[].adapt ();");
    ck_assert_int_eq(s->kind, STMT_OBJCALL);
    ck_assert_str_eq(show(s->u.call.call), "(objcall ([] (. ME in)) adapt)");
    s = first_stmt("ME.g1[].win () AND ME.g2[2...4].win () AND x.y (1);");
    ck_assert_int_eq(s->kind, STMT_MULTICALL);
    ck_assert_int_eq(s->u.multi.calls.len, 3);
    ck_assert_str_eq(show(VEC_AT(s->u.multi.calls, 1, Expr)), "(objcall ([] (. ME g2) (... 2 4)) win)");
}
END_TEST

START_TEST(test_parser_reduction_and_wta)
{
    Stmt *s = first_stmt("REDUCTION ME.in[].out:sum INTO ME.inData;");
    ck_assert_int_eq(s->kind, STMT_REDUCTION);
    ck_assert_str_eq(show(s->u.reduction.pvs), "(. ([] (. ME in)) out)");
    ck_assert_str_eq(s->u.reduction.func.name, "sum");
    ck_assert_str_eq(show(s->u.reduction.into), "(. ME inData)");
    s = first_stmt("WTA ME.g[].act:best win (1, 2);");
    ck_assert_int_eq(s->kind, STMT_WTA);
    ck_assert_str_eq(show(s->u.wta.pv), "([] (. ME g))");
    ck_assert_str_eq(s->u.wta.elem.name, "act");
    ck_assert_str_eq(s->u.wta.func.name, "best");
    ck_assert_str_eq(s->u.wta.proc.name, "win");
    ck_assert_int_eq(s->u.wta.args.len, 2);
    s = first_stmt("WTA net[].marked:larger.celebrate ();");
    ck_assert_str_eq(show(s->u.wta.pv), "([] net)");
    ck_assert_str_eq(s->u.wta.proc.name, "celebrate");
}
END_TEST

START_TEST(test_parser_return_break_merge)
{
    Stmt *s = first_stmt("RETURN;");
    ck_assert_int_eq(s->kind, STMT_RETURN);
    ck_assert_ptr_null(s->u.ret.value);
    s = first_stmt("RETURN ME + YOU;");
    ck_assert_str_eq(show(s->u.ret.value), "(+ ME YOU)");
    s = first_stmt("BREAK;");
    ck_assert_int_eq(s->kind, STMT_BREAK);
    s = first_stmt("MERGE net;");
    ck_assert_int_eq(s->kind, STMT_MERGE);
    ck_assert_str_eq(show(s->u.merge.obj), "net");
}
END_TEST

START_TEST(test_parser_if)
{
    Stmt *s = first_stmt("IF a THEN b := 1; ELSIF c THEN b := 2; b := 3; ELSIF d THEN ELSE b := 4; END IF;");
    ck_assert_int_eq(s->kind, STMT_IF);
    ck_assert_int_eq(s->u.if_.arms.len, 3);
    IfArm *arm = VEC_AT(s->u.if_.arms, 1, IfArm);
    ck_assert_str_eq(show(arm->cond), "c");
    ck_assert_int_eq(arm->body->stmts.len, 2);
    ck_assert_int_eq(VEC_AT(s->u.if_.arms, 2, IfArm)->body->stmts.len, 0);
    ck_assert_int_eq(s->u.if_.else_body->stmts.len, 1);
    s = first_stmt("IF a THEN END;");
    ck_assert_int_eq(s->u.if_.arms.len, 1);
    ck_assert_ptr_null(s->u.if_.else_body);
}
END_TEST

START_TEST(test_parser_loops)
{
    Stmt *s = first_stmt("REPEAT i += 1; UNTIL i >= n END REPEAT;");
    ck_assert_int_eq(s->kind, STMT_LOOP);
    ck_assert_ptr_null(s->u.loop.while_cond);
    ck_assert_str_eq(show(s->u.loop.until_cond), "(>= i n)");
    s = first_stmt("WHILE k > 0 REPEAT k -= 1; END REPEAT;");
    ck_assert_str_eq(show(s->u.loop.while_cond), "(> k 0)");
    ck_assert_ptr_null(s->u.loop.until_cond);
    s = first_stmt("WHILE a REPEAT UNTIL b END;");
    ck_assert_int_eq(s->u.loop.body->stmts.len, 0);
    static const char *const dirs[] = {"UPTO", "TO", "DOWNTO"};
    for (int i = 0; i < 3; i++) {
        char body[128];
        snprintf(body, sizeof body, "FOR k := 10 %s 0 REPEAT k2 += k; UNTIL k2 > 30 END;", dirs[i]);
        s = first_stmt(body);
        ck_assert_int_eq(s->kind, STMT_FOR);
        ck_assert_int_eq(s->u.for_.dir, (ForDir)i);
        ck_assert_str_eq(show(s->u.for_.var), "k");
        ck_assert_str_eq(show(s->u.for_.from), "10");
        ck_assert_str_eq(show(s->u.for_.to), "0");
        ck_assert_str_eq(show(s->u.for_.until_cond), "(> k2 30)");
    }
}
END_TEST

START_TEST(test_parser_allocation_statements)
{
    Stmt *s = first_stmt("REPLICATE nw INTO 3...20;");
    ck_assert_int_eq(s->kind, STMT_REPLICATE);
    ck_assert_str_eq(show(s->u.replicate.count), "(... 3 20)");
    s = first_stmt("EXTEND ME.g1 BY -2;");
    ck_assert_int_eq(s->kind, STMT_EXTEND);
    ck_assert_str_eq(show(s->u.replicate.count), "(- 2)");
    s = first_stmt("CONNECT ME.in[0...0].out TO ME.out[].in;");
    ck_assert_int_eq(s->kind, STMT_CONNECT);
    ck_assert_str_eq(show(s->u.connect.to), "(. ([] (. ME out)) in)");
    s = first_stmt("DISCONNECT ME.g1[].o FROM ME.g2[1...2].i1;");
    ck_assert_int_eq(s->kind, STMT_DISCONNECT);
    ck_assert_str_eq(show(s->u.connect.from), "(. ([] (. ME g1)) o)");
}
END_TEST

START_TEST(test_parser_local_definitions)
{
    Program *prog = parse("PROCEDURE p () IS Int VAR i := 0, j; Real CONST r = 1.0; i := 1; END;");
    ck_errors(0);
    Block *b = VEC_AT(prog->parts, 0, Decl)->u.subr.body;
    ck_assert_int_eq(b->defs.len, 2);
    ck_assert_int_eq(b->stmts.len, 1);
    Decl *d = VEC_AT(b->defs, 1, Decl);
    ck_assert_int_eq(d->u.data.access, ACCESS_CONST);
    ck_assert_str_eq(show(VEC_AT(d->u.data.ids, 0, InitId)->init), "1.0");
    parse("PROCEDURE p () IS i := 1; Int VAR k; END;");
    ck_errors(1);
    ck_message("t.nn:1:27: error: definition after a statement");
}
END_TEST

/* ---- definitions ------------------------------------------------------ */

static Decl *first_part(const char *text)
{
    Program *prog = parse(text);
    ck_errors(0);
    ck_assert_int_ge(prog->parts.len, 1);
    return VEC_AT(prog->parts, 0, Decl);
}

START_TEST(test_parser_symbolic_types)
{
    Decl *d = first_part("TYPE Color IS SYMBOLIC red, green, blue END;");
    ck_assert_int_eq(d->kind, DECL_TYPE);
    ck_assert_int_eq(d->u.type.body, TDEF_SYMBOLIC);
    ck_assert_int_eq(d->u.type.enums.len, 3);
    ck_assert_str_eq(VEC_AT(d->u.type.enums, 2, Ident)->name, "blue");
    d = first_part("TYPE Color IS SYMBOLIC red; END TYPE;");
    ck_assert_int_eq(d->u.type.enums.len, 1);
}
END_TEST

START_TEST(test_parser_record_types)
{
    Decl *d = first_part(
        "TYPE Btype IS RECORD Atype x := Atype (2, 5); Int c := 0, e = 1;\n"
        "  PROCEDURE bump (Int CONST d) IS ME.c += d; END;\n"
        "  Int FUNCTION get () IS RETURN ME.c; END FUNCTION;\n"
        "  MERGE IS ME.c += YOU.c; END MERGE; END;");
    ck_assert_int_eq(d->u.type.body, TDEF_RECORD);
    ck_assert_int_eq(d->u.type.elems.len, 5);
    Decl *e = VEC_AT(d->u.type.elems, 1, Decl);
    ck_assert_int_eq(e->kind, DECL_ELEM);
    ck_assert_int_eq(e->u.data.ids.len, 2);
    ck_assert_int_eq(VEC_AT(d->u.type.elems, 2, Decl)->kind, DECL_PROC);
    Decl *f = VEC_AT(d->u.type.elems, 3, Decl);
    ck_assert_int_eq(f->kind, DECL_FUNC);
    ck_assert_str_eq(f->u.subr.result.name, "Int");
    Decl *m = VEC_AT(d->u.type.elems, 4, Decl);
    ck_assert_int_eq(m->kind, DECL_MERGE);
    ck_assert_ptr_null(m->u.subr.name.name);
}
END_TEST

START_TEST(test_parser_node_and_connection_types)
{
    Decl *d = first_part("TYPE N IS NODE IN W in, in2; OUT W out; Real a; END TYPE;");
    ck_assert_int_eq(d->u.type.body, TDEF_NODE);
    Decl *i = VEC_AT(d->u.type.elems, 0, Decl);
    ck_assert_int_eq(i->kind, DECL_IFACE);
    ck_assert_int_eq(i->u.iface.mode, IFACE_IN);
    ck_assert_int_eq(i->u.iface.names.len, 2);
    ck_assert_int_eq(VEC_AT(d->u.type.elems, 1, Decl)->u.iface.mode, IFACE_OUT);
    d = first_part("TYPE W IS CONNECTION Real w := 0.0; END;");
    ck_assert_int_eq(d->u.type.body, TDEF_CONNECTION);
    /* interfaces only in nodes */
    parse("TYPE W IS CONNECTION IN W x; END;");
    ck_errors(1);
}
END_TEST

START_TEST(test_parser_array_group_network_types)
{
    Decl *d = first_part("TYPE Vec IS ARRAY 3 * 4 OF Real END;");
    ck_assert_int_eq(d->u.type.body, TDEF_ARRAY);
    ck_assert_str_eq(show(d->u.type.array_size), "(* 3 4)");
    ck_assert_str_eq(d->u.type.elem_type.name, "Real");
    d = first_part("TYPE Vec IS ARRAY [4] OF Int END TYPE;");
    ck_assert_str_eq(show(d->u.type.array_size), "4");
    d = first_part("TYPE Layer IS GROUP OF Unit END TYPE;");
    ck_assert_int_eq(d->u.type.body, TDEF_GROUP);
    ck_assert_str_eq(d->u.type.elem_type.name, "Unit");
    d = first_part("TYPE Mlp IS NETWORK Layer in, hid; Real e; PROCEDURE p () IS END; END;");
    ck_assert_int_eq(d->u.type.body, TDEF_NETWORK);
    ck_assert_int_eq(d->u.type.elems.len, 3);
}
END_TEST

START_TEST(test_parser_data_definitions)
{
    Program *prog = parse("Real CONST a := 0.05, b := 1.1; Int VAR i, h := 4, o; Real IO x1, x2; Mlp VAR net;");
    ck_errors(0);
    ck_assert_int_eq(prog->parts.len, 4);
    Decl *d = VEC_AT(prog->parts, 1, Decl);
    ck_assert_int_eq(d->kind, DECL_DATA);
    ck_assert_int_eq(d->u.data.access, ACCESS_VAR);
    ck_assert_int_eq(d->u.data.ids.len, 3);
    ck_assert_ptr_null(VEC_AT(d->u.data.ids, 0, InitId)->init);
    ck_assert_int_eq(VEC_AT(prog->parts, 2, Decl)->u.data.access, ACCESS_IO);
}
END_TEST

START_TEST(test_parser_subroutines)
{
    Decl *d = first_part("PROCEDURE p (Real CONST a, b; Int VAR c) IS c := 1; END PROCEDURE;");
    ck_assert_int_eq(d->kind, DECL_PROC);
    ck_assert_int_eq(d->u.subr.params.len, 2);
    ParamGroup *g = VEC_AT(d->u.subr.params, 0, ParamGroup);
    ck_assert_str_eq(g->type.name, "Real");
    ck_assert_int_eq(g->access, ACCESS_CONST);
    ck_assert_int_eq(g->names.len, 2);
    d = first_part("Real FUNCTION sigmoid (Real CONST x) IS EXTERNAL;");
    ck_assert_int_eq(d->kind, DECL_FUNC);
    ck_assert(d->u.subr.external);
    ck_assert_ptr_null(d->u.subr.body);
    d = first_part("PROCEDURE q () IS EXTERNAL PROCEDURE;");
    ck_assert(d->u.subr.external);
    d = first_part("Real REDUCTION sum IS RETURN ME + YOU; END REDUCTION;");
    ck_assert_int_eq(d->kind, DECL_REDUCTION);
    ck_assert_str_eq(d->u.subr.result.name, "Real");
    d = first_part("Real WTA biggest IS RETURN ME > YOU; END WTA;");
    ck_assert_int_eq(d->kind, DECL_WTA);
    ck_assert_str_eq(d->u.subr.name.name, "biggest");
    /* parentheses are required (R10) */
    parse("PROCEDURE p IS END;");
    ck_errors(1);
}
END_TEST

START_TEST(test_parser_empty_program)
{
    Program *prog = parse("  (* nothing *)  ");
    ck_errors(0);
    ck_assert_int_eq(prog->parts.len, 0);
}
END_TEST

/* ---- END keywords and syntax errors ------------------------------------ */

START_TEST(test_parser_end_keyword_mismatch)
{
    parse("PROCEDURE p () IS REPEAT x := 1; END IF; END;");
    ck_errors(1);
    ck_message("t.nn:1:38: error: 'END IF' does not match the loop at line 1 (write 'END' or 'END REPEAT')");
    parse("TYPE T IS GROUP OF U END PROCEDURE;");
    ck_errors(1);
    ck_message("'END PROCEDURE' does not match the type definition");
    parse("Real FUNCTION f () IS EXTERNAL PROCEDURE;");
    ck_errors(1);
    ck_message("'EXTERNAL PROCEDURE' does not match the function");
    parse("PROCEDURE p () IS IF a THEN END REPEAT; END FUNCTION;");
    ck_errors(2);
    /* the kind of type after END: END TYPE is meant */
    parse("TYPE T IS RECORD Int a; END RECORD; TYPE U IS NODE Real x; END NODE;");
    ck_errors(2);
    ck_message("t.nn:1:29: error: 'END RECORD' does not match the type definition at line 1 "
               "(write 'END' or 'END TYPE')");
    ck_message("'END NODE' does not match the type definition");
}
END_TEST

START_TEST(test_parser_missing_semicolon)
{
    parse("PROCEDURE p () IS\n  IF a THEN b := 1 END;\nEND;\n");
    ck_errors(1);
    ck_message("t.nn:2:20: error: expected ';' before 'END'");
}
END_TEST

START_TEST(test_parser_missing_end)
{
    parse("PROCEDURE p () IS\n  IF a THEN\n    b := 1;\n");
    ck_errors(1);
    ck_message("t.nn:4:1: error: expected 'END' before end of file (to close 'IF' at line 2)");
    parse("TYPE T IS RECORD Int a;\n");
    ck_errors(1);
    ck_message("(to close 'TYPE' at line 1)");
}
END_TEST

START_TEST(test_parser_expected_tokens_named)
{
    parse("PROCEDURE p () IS x := (1 + 2; END;");
    ck_errors(1);
    ck_message("expected ')'");
    parse("Int VAR x := ;");
    ck_errors(1);
    ck_message("expected an expression before ';'");
    parse("PROCEDURE p () IS x + 1; END;");
    ck_errors(1);
    ck_message("expected an assignment operator before '+'");
    parse("foo;");
    ck_errors(1);
    ck_message("before identifier 'foo'");
}
END_TEST

START_TEST(test_parser_hints)
{
    expr_errors("a < b < c");
    ck_message("comparisons do not associate");
    expr_errors("- -a");
    ck_message("the operand of a unary operator is a primary");
    expr_errors("a ? b : c ? d : e");
    ck_message("a nested '?:' needs parentheses");
    expr_errors("1...2...3");
    ck_message("an interval has one '...'");
    expr_errors("-Real (2)");
    ck_message("a conversion is not a primary");
    parse("PROCEDURE p () IS Int VAR Count; END;");
    ck_errors(1);
    ck_message("start with a lower-case letter");
    parse("TYPE unit IS NODE Real v; END TYPE;");
    ck_errors(1);
    ck_message("type names start with an upper-case letter");
    /* An operator token where no expression is going on gets no
     * precedence hint: an interface in a record, '=' opening a statement. */
    parse("TYPE R IS RECORD IN C i; Int x; END;");
    ck_message("before 'IN'");
    ck_assert_msg(strstr(captured, "associate") == NULL, "hint in:\n%s", captured);
    parse("PROCEDURE p () IS IF a THEN = 1; END; END;");
    ck_message("before '='");
    ck_assert_msg(strstr(captured, "associate") == NULL, "hint in:\n%s", captured);
    parse("PROCEDURE p () IS ... a := 3; END;");
    ck_message("before '...'");
    ck_assert_msg(strstr(captured, "interval has one") == NULL, "hint in:\n%s", captured);
    expr_errors("f (1, 2 < 3 < 4)");
    ck_message("comparisons do not associate");
    /* '=' after the head of a definition: IS is missing, no comparison */
    parse("TYPE T = RECORD Int a; END;");
    ck_errors(1);
    ck_message("expected 'IS' before '=' (a definition is written with IS, not '=')");
    ck_assert_msg(strstr(captured, "associate") == NULL, "hint in:\n%s", captured);
    parse("PROCEDURE p () = END;");
    ck_message("expected 'IS' before '=' (a definition is written with IS");
    /* MERGE without IS: its END still closes the MERGE, not the type */
    parse("TYPE C IS CONNECTION Real w; MERGE ME.w := YOU.w; END MERGE; END TYPE;");
    ck_errors(1);
    ck_message("expected 'IS' after 'MERGE'");
    /* a type name as a value */
    expr_errors("True");
    ck_message("expected '(' before ';' (the Boolean denoters are 'true' and 'false')");
    expr_errors("Int + 1");
    ck_message("(type name 'Int' is no value; a conversion is written 'Int (x)')");
    /* a keyword where only a name can stand */
    parse("Int VAR END := 1;");
    ck_errors(1);
    ck_message("expected identifier before 'END' ('END' is a keyword, not a name; names start "
               "with a lower-case letter, e.g. 'end')");
    /* Modula's `END name;`; a name on the next line is a statement */
    parse("PROCEDURE p () IS END PROCEDURE p; Int FUNCTION f () IS RETURN 1; END f;");
    ck_errors(2);
    ck_message("t.nn:1:33: error: expected ';' before identifier 'p' (the name of a definition "
               "is not repeated after END)");
    parse("PROCEDURE p () IS IF a THEN END IF\n x := 1; END;");
    ck_errors(1);
    ck_assert_msg(strstr(captured, "not repeated") == NULL, "hint in:\n%s", captured);
    /* a '*)' outside a comment (the comment before it was closed already) */
    parse("PROCEDURE p () IS (* a *) b *) END;");
    ck_errors(1);
    ck_message("t.nn:1:29: error: '*)' outside a comment (comments nest");
    /* ',' where ';' separates parameter groups; a type name as a name */
    parse("PROCEDURE p (Int CONST a, Real CONST b) IS END;");
    ck_errors(1);
    ck_message("t.nn:1:27: error: expected identifier before type name 'Real' (another type starts "
               "a new parameter group or definition: after ';', not ',')");
    parse("TYPE R IS RECORD Int a, Real b; END;");
    ck_errors(1);
    ck_message("t.nn:1:25: error: expected identifier before type name 'Real' (another type starts "
               "a new parameter group or definition: after ';', not ',')");
    parse("PROCEDURE p (Int CONST a, Count) IS END;");
    ck_message("start with a lower-case letter");
    parse("PROCEDURE p () IS FOR i := 1 TO 9 BY 2 REPEAT END; END;");
    ck_errors(1);
    ck_message("expected 'REPEAT' before 'BY' (a FOR loop counts by 1, up with TO or UPTO and "
               "down with DOWNTO: there is no BY)");
    /* the ':' of '?:' missing: not the operators that could go on */
    expr_errors("a ? b");
    ck_message("expected the ':' of '?:' before ';'");
    ck_assert_msg(strstr(captured, "'OR'") == NULL, "operators in:\n%s", captured);
    /* a stray ';': said at it, not as a missing END */
    parse("PROCEDURE p () IS x := 1;; x := 2; END;");
    ck_errors(1);
    ck_message("1:26: error: extra ';' (CuPit has no empty statement: remove it)");
    parse("PROCEDURE p () IS END;; PROCEDURE q () IS END;");
    ck_errors(1);
    ck_message("1:23: error: extra ';' (remove it)");
    /* ':=' where a condition goes on: comparison is written '=' */
    parse("PROCEDURE p () IS IF x := 1 THEN x := 2; END; END;");
    ck_errors(1);
    ck_message("expected 'THEN' before ':=' (':=' assigns; comparison is written '=')");
    parse("PROCEDURE p () IS FOR i := 1 TO 3 REPEAT END; END;");
    ck_errors(0);
    parse("PROCEDURE p (Int VAR x := 0) IS END;"); /* no condition there */
    ck_message("before ':='");
    ck_assert_msg(strstr(captured, "comparison is written") == NULL, "hint in:\n%s", captured);
}
END_TEST

/* ---- the walk over every child (ast_walk.c) ----------------------------- */

typedef struct NameCount {
    AstWalk walk;
    int names, stmts;
} NameCount;

static void count_x(AstWalk *w, Expr *e)
{
    if (e->kind == EXPR_NAME && strcmp(e->u.name.name, "x") == 0)
        ((NameCount *)w)->names++;
}

static void count_stmt(AstWalk *w, Stmt *s)
{
    (void)s;
    ((NameCount *)w)->stmts++;
}

/* `x` in every child position of every statement and expression kind: the
 * walk must reach each one (an analysis built on it must not miss a callee
 * in, say, an EXTEND count or a CONNECT subscript). */
START_TEST(test_parser_walk_reaches_every_child)
{
    static const char body[] =
        "  Int VAR a := x;\n"
        "  x := x; x += x;\n"                                        /* 2 statements */
        "  x[x].e <-- x; x --> x[];\n"                               /* 2 */
        "  p (x, x); x.q (x) AND x[x].r (x);\n"                      /* 2 */
        "  REDUCTION x[].e:sum INTO x; WTA x[].e:best win (x, x);\n" /* 2 */
        "  IF x THEN RETURN x; ELSIF x THEN BREAK; ELSE RETURN; END;\n" /* 4 */
        "  WHILE x REPEAT a := 1; UNTIL x END;\n"                    /* 2 */
        "  FOR x[x] := x TO x REPEAT a := 2; UNTIL x END;\n"         /* 2 */
        "  REPLICATE x INTO x; EXTEND x.g BY x;\n"                   /* 2 */
        "  CONNECT x[x...x].o TO x[].i; DISCONNECT x[].o FROM x[x].i;\n" /* 2 */
        "  MERGE x;\n"                                               /* 1 */
        "  a := -x + (x ? x : x) * f (x) - x.g (x) + Int (x, x) + MAXINDEX (x);\n" /* 1 */
        "  a := ((x --> x) = x) ? 1 : 0;\n";                         /* 1 */
    char text[2048];
    snprintf(text, sizeof text, "PROCEDURE p () IS\n%sEND PROCEDURE;\n", body);
    Program *prog = parse(text);
    ck_errors(0);
    Decl *d = VEC_AT(prog->parts, 0, Decl);
    ck_assert_int_eq(d->kind, DECL_PROC);
    int want = 0; /* every x in the body is a name */
    for (const char *q = body; *q; q++)
        want += *q == 'x' && (q == body || !isalnum((unsigned char)q[-1])) &&
                !isalnum((unsigned char)q[1]);
    NameCount nc = {.walk = {.expr = count_x, .stmt = count_stmt}};
    ast_walk_block(&nc.walk, d->u.subr.body);
    ck_assert_int_eq(nc.names, want);
    ck_assert_int_eq(nc.stmts, 23);
}
END_TEST

START_TEST(test_parser_empty_element_list)
{
    parse("TYPE S IS RECORD END;\nTYPE N IS NODE END;\n");
    ck_errors(2);
    ck_message("t.nn:1:18: error: a RECORD type needs at least one element");
    ck_message("t.nn:2:16: error: a NODE type needs at least one element");
    parse("TYPE S IS RECORD Int a b; END;"); /* not empty, only broken */
    ck_errors(1);
}
END_TEST

START_TEST(test_parser_several_errors_once_each)
{
    parse("PROCEDURE p () IS\n"
          "  x := ;\n"
          "  y := 1 2;\n"
          "  IF a b THEN z := 1; END;\n"
          "  WHILE c d REPEAT z := 2; END;\n"
          "  w := 3;\n"
          "END PROCEDURE\n"
          "PROCEDURE q () IS RETURN; END;\n"
          "Int VAR k\n"
          "Int VAR m;\n");
    ck_errors(6);
}
END_TEST

START_TEST(test_parser_lexical_error_no_cascade)
{
    parse("PROCEDURE p () IS\n  WHILST a > 0 REPEAT a -= 1; END;\n  b := 1;\nEND;\n");
    ck_errors(1);
    ck_message("unknown keyword 'WHILST'");
    parse("Int VAR my_x;\nInt VAR y := 1 $ ;\n");
    ck_errors(2);
}
END_TEST

START_TEST(test_parser_appendix_a_constructs)
{
    parse("TYPE Color IS SYMBOLIC red, green, blue END;\n"
          "TYPE Btype IS RECORD Atype x := Atype (2, 5); Int c := 0;\n"
          "  PROCEDURE bump (Int CONST d) IS ME.c += d; END;  Int FUNCTION get () IS RETURN ME.c; END FUNCTION; END;\n"
          "TYPE Vec IS ARRAY 3 * 4 OF Real END;\n"
          "Real WTA biggest IS RETURN ME > YOU; END WTA;\n"
          "TYPE N IS NETWORK G g1, g2;\n"
          "  PROCEDURE p () IS\n"
          "    ME.g1[].win () AND ME.g2[2...4].win ();\n"
          "    WTA ME.g1[].act:biggest win ();\n"
          "    FOR k := 10 DOWNTO 0 REPEAT k2 += k; UNTIL k2 > 30 END;\n"
          "    WHILE k > 0 REPEAT k -= 1; END REPEAT;\n"
          "    DISCONNECT ME.g1[].o FROM ME.g2[1...2].i1;   EXTEND ME.g1 BY -2;\n"
          "    k := k > 3 ? k LSHIFT 2 BITOR 1 : BITNOT k BITAND 0x0F;\n"
          "  END;\n"
          "END;\n"
          "PROCEDURE program () IS\n"
          "  (nw.g1[0].o --> nw.g2[1].i1) := C (0.5);     REPLICATE nw INTO 3...20;\n"
          "END;\n");
    ck_errors(0);
}
END_TEST

START_TEST(test_parser_deep_nesting_is_an_error_not_a_crash)
{
    static char text[100000];
    strcpy(text, "Int VAR x := ");
    size_t n = strlen(text);
    for (int i = 0; i < 20000; i++)
        text[n++] = '(';
    text[n] = '\0';
    parse(text);
    ck_assert_int_ge(diag_error_count(), 1);
}
END_TEST

static Suite *parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("expressions");
    tcase_add_test(tc, test_parser_primaries);
    tcase_add_test(tc, test_parser_objects);
    tcase_add_test(tc, test_parser_arithmetic_precedence);
    tcase_add_test(tc, test_parser_logical_precedence);
    tcase_add_test(tc, test_parser_bit_precedence);
    tcase_add_test(tc, test_parser_intervals);
    tcase_add_test(tc, test_parser_ternary);
    tcase_add_test(tc, test_parser_non_associative_errors);
    tcase_add_test(tc, test_parser_unary_operand_is_primary);
    suite_add_tcase(s, tc);

    tc = tcase_create("statements");
    tcase_add_test(tc, test_parser_assignments);
    tcase_add_test(tc, test_parser_io_assignments);
    tcase_add_test(tc, test_parser_calls);
    tcase_add_test(tc, test_parser_reduction_and_wta);
    tcase_add_test(tc, test_parser_return_break_merge);
    tcase_add_test(tc, test_parser_if);
    tcase_add_test(tc, test_parser_loops);
    tcase_add_test(tc, test_parser_allocation_statements);
    tcase_add_test(tc, test_parser_local_definitions);
    tcase_add_test(tc, test_parser_walk_reaches_every_child);
    suite_add_tcase(s, tc);

    tc = tcase_create("definitions");
    tcase_add_test(tc, test_parser_symbolic_types);
    tcase_add_test(tc, test_parser_record_types);
    tcase_add_test(tc, test_parser_node_and_connection_types);
    tcase_add_test(tc, test_parser_array_group_network_types);
    tcase_add_test(tc, test_parser_data_definitions);
    tcase_add_test(tc, test_parser_subroutines);
    tcase_add_test(tc, test_parser_empty_program);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_test(tc, test_parser_end_keyword_mismatch);
    tcase_add_test(tc, test_parser_missing_semicolon);
    tcase_add_test(tc, test_parser_missing_end);
    tcase_add_test(tc, test_parser_expected_tokens_named);
    tcase_add_test(tc, test_parser_hints);
    tcase_add_test(tc, test_parser_empty_element_list);
    tcase_add_test(tc, test_parser_several_errors_once_each);
    tcase_add_test(tc, test_parser_lexical_error_no_cascade);
    tcase_add_test(tc, test_parser_appendix_a_constructs);
    tcase_add_test(tc, test_parser_deep_nesting_is_an_error_not_a_crash);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(parser_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
