/* check_sema.c -- unit tests of the semantic analysis: type compatibility
 * and promotion (§2.5), integer denoter types, constant folding, central
 * agent classification (§5.1) and the annotations code generation reads.
 * Programs are in-memory strings; diagnostics go to a memory buffer. */
#include <unistd.h>
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/diag.h"
#include "cupitc/parse.h"
#include "cupitc/sema.h"
#include "cupitc/stdlib_sigs.h"

static Arena *arena;
static SourceFile *source;
static Program *prog;
static char *messages;
static size_t messages_len;

static void teardown(void)
{
    if (arena)
        arena_free(arena);
    source_free(source);
    free(messages);
    arena = NULL;
    source = NULL;
    messages = NULL;
}

/* Parses and analyses text; returns the number of errors reported. */
static int analyze(const char *text)
{
    teardown();
    FILE *out = open_memstream(&messages, &messages_len);
    diag_configure(&(DiagOptions){.out = out, .color = false, .error_limit = 0});
    diag_reset();
    arena = arena_new();
    ast_set_arena(arena);
    source = source_from_string("t.nn", text, strlen(text));
    prog = parse_program(source, arena);
    ck_assert_int_eq(diag_error_count(), 0); /* the inputs are syntactically valid */
    sema_analyze(prog, arena);
    fclose(out);
    return diag_error_count();
}

static Symbol *global(const char *name)
{
    Symbol *s = sema_scope_find(prog->sema->globals, intern_cstr(arena, name));
    ck_assert_msg(s != NULL, "no global '%s'", name);
    return s;
}

static Type *ty(SemaInfo *si, TypeKind k) { return si->builtin[k]; }

/* ---- compatibility and promotion ----------------------------------------- */

START_TEST(test_sema_integer_promotion)
{
    Arena *a = arena_new();
    SemaInfo *si = sema_info_new(a);
    Type *i1 = ty(si, TY_INT1), *i2 = ty(si, TY_INT2), *i = ty(si, TY_INT);
    ck_assert(type_compatible(i1, i));
    ck_assert(type_compatible(i, i2));
    ck_assert_ptr_eq(type_common(i1, i2), i2);
    ck_assert_ptr_eq(type_common(i, i1), i);
    ck_assert_ptr_eq(type_common(i2, i2), i2);
    ck_assert(type_assignable(i, i1));
    ck_assert(type_assignable(i2, i1));
    ck_assert(!type_assignable(i1, i2)); /* narrowing */
    ck_assert(!type_assignable(i2, i));
    arena_free(a);
}
END_TEST

START_TEST(test_sema_interval_promotion)
{
    Arena *a = arena_new();
    SemaInfo *si = sema_info_new(a);
    Type *v1 = ty(si, TY_INTERVAL1), *v = ty(si, TY_INTERVAL), *re = ty(si, TY_REALERVAL);
    ck_assert_ptr_eq(type_common(v1, v), v);
    ck_assert(type_assignable(v, v1));
    ck_assert(!type_assignable(v1, v));
    ck_assert(!type_compatible(v, re));
    ck_assert(!type_compatible(v1, ty(si, TY_INT1))); /* interval vs number */
    ck_assert_ptr_eq(type_interval_of(si, ty(si, TY_INT2)), ty(si, TY_INTERVAL2));
    ck_assert_ptr_eq(type_interval_of(si, ty(si, TY_REAL)), re);
    ck_assert_ptr_eq(v1->elem, ty(si, TY_INT1));
    arena_free(a);
}
END_TEST

START_TEST(test_sema_no_other_conversions)
{
    Arena *a = arena_new();
    SemaInfo *si = sema_info_new(a);
    Type *r = ty(si, TY_REAL), *i = ty(si, TY_INT), *b = ty(si, TY_BOOL);
    ck_assert(!type_compatible(r, i));
    ck_assert(!type_assignable(r, i)); /* Real VAR r := 0 is S */
    ck_assert(!type_assignable(i, r));
    ck_assert(!type_compatible(b, i));
    ck_assert_ptr_null(type_common(r, ty(si, TY_INT1)));
    ck_assert(type_equal(r, r));
    ck_assert(!type_equal(r, i));
    /* the error type is compatible with everything, so nothing cascades */
    ck_assert(type_compatible(ty(si, TY_ERROR), b));
    ck_assert(type_assignable(i, ty(si, TY_ERROR)));
    arena_free(a);
}
END_TEST

START_TEST(test_sema_int_literal_types)
{
    Arena *a = arena_new();
    SemaInfo *si = sema_info_new(a);
    ck_assert_ptr_eq(type_of_int_literal(si, 0), ty(si, TY_INT1));
    ck_assert_ptr_eq(type_of_int_literal(si, 127), ty(si, TY_INT1));
    ck_assert_ptr_eq(type_of_int_literal(si, 128), ty(si, TY_INT2));
    ck_assert_ptr_eq(type_of_int_literal(si, 32767), ty(si, TY_INT2));
    ck_assert_ptr_eq(type_of_int_literal(si, 32768), ty(si, TY_INT));
    ck_assert_ptr_eq(type_of_int_literal(si, 2147483647u), ty(si, TY_INT));
    ck_assert_ptr_null(type_of_int_literal(si, 2147483648u));
    arena_free(a);
}
END_TEST

START_TEST(test_sema_denoter_types_in_programs)
{
    ck_assert_int_eq(analyze("Int1 VAR k := 100;\nInt VAR n := 5;\n"
                             "Int2 VAR m := -128;\nPROCEDURE program () IS END;\n"), 0);
    ck_assert_int_eq(analyze("Int1 VAR k := 200;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("Int1 VAR k := -128;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("Real VAR r := 0;\nPROCEDURE program () IS END;\n"), 1);
}
END_TEST

/* ---- constant folding --------------------------------------------------- */

static void expect_int(const char *name, int64_t v)
{
    Symbol *s = global(name);
    ck_assert_msg(s->has_value, "'%s' not folded", name);
    ck_assert_int_eq(s->const_int, v);
}

START_TEST(test_sema_fold_integers)
{
    ck_assert_int_eq(analyze(
        "Int CONST a := 3 * 4 - 2, b := a * a + 1, c := 2 ** 10, d := -7 / 2,\n"
        "  e := 17 % 5, f := 1 LSHIFT 6, g := 40 RSHIFT 3, h := 12 BITOR 3,\n"
        "  i := BITNOT 0, j := Int (2.9), k := Int1 (200), l := (a > 5) ? 1 : 2,\n"
        "  m := 0x1F BITAND 7 BITXOR 1;\n"
        "PROCEDURE program () IS END;\n"), 0);
    expect_int("a", 10);
    expect_int("b", 101);
    expect_int("c", 1024);
    expect_int("d", -3);
    expect_int("e", 2);
    expect_int("f", 64);
    expect_int("g", 5);
    expect_int("h", 15);
    expect_int("i", -1);
    expect_int("j", 2);
    expect_int("k", -56); /* narrowing wraps like the target */
    expect_int("l", 1);
    expect_int("m", 6);
}
END_TEST

START_TEST(test_sema_fold_reals_and_bools)
{
    ck_assert_int_eq(analyze(
        "Real CONST r := 1.0 / 4.0, s := Real (3) * 0.5, p := 1.5 ** 2, q := 7.5 % 2.0;\n"
        "Bool CONST t := NOT (1 > 2), u := true AND false, v := true XOR false;\n"
        "TYPE Color IS SYMBOLIC red, green END;\n"
        "Color CONST col := green;\n"
        "PROCEDURE program () IS END;\n"), 0);
    ck_assert(global("r")->has_value);
    ck_assert_double_eq(global("r")->const_real, 0.25);
    ck_assert_double_eq(global("s")->const_real, 1.5);
    ck_assert_double_eq(global("p")->const_real, 2.25);
    ck_assert_double_eq(global("q")->const_real, 1.5);
    expect_int("t", 1);
    expect_int("u", 0);
    expect_int("v", 1);
    expect_int("col", 1);
}
END_TEST

/* Real is float on the target: folding rounds every value to float, as
   the run time computes it */
START_TEST(test_sema_fold_reals_single)
{
    ck_assert_int_eq(analyze(
        "Real CONST a := 16777217.0, b := 0.1 + 0.2 - 0.3, c := Real (16777217),\n"
        "  d := 1.0 / 3.0 * 3.0 - 1.0, e := 1.1 ** 3, f := 1.0e39, g := f * 2.0;\n"
        "Int CONST i := Int (16777217.0);\n"
        "Bool CONST t := 0.1 + 0.2 = 0.3;\n"
        "PROCEDURE program () IS END;\n"), 0);
    ck_assert_double_eq(global("a")->const_real, 16777216.0);
    ck_assert_double_eq(global("b")->const_real, (double)(0.1f + 0.2f - 0.3f));
    ck_assert_double_eq(global("c")->const_real, 16777216.0);
    ck_assert_double_eq(global("d")->const_real, (double)(1.0f / 3.0f * 3.0f - 1.0f));
    ck_assert_double_eq(global("e")->const_real, (double)(float)((double)1.1f * 1.1f * 1.1f));
    ck_assert(isinf(global("f")->const_real)); /* too large for a float */
    ck_assert(isinf(global("g")->const_real)); /* inf * 2 does not overflow */
    expect_int("i", 16777216);
    expect_int("t", (0.1f + 0.2f == 0.3f));
    /* Real %: a - b * Real (Int (a / b)) with the Real quotient: 0.7 / 0.1
       is 7.0 in float (6.99999978 exactly), so 0.7 % 0.1 is 0 */
    ck_assert_int_eq(analyze("Real CONST m := 0.7 % 0.1, n := -0.7 % 0.1;\n"
                             "PROCEDURE program () IS END;\n"), 0);
    ck_assert_double_eq(global("m")->const_real, 0.0);
    ck_assert_double_eq(global("n")->const_real, 0.0);
    /* finite in double, but not in float: the infinity, as at run time */
    ck_assert_int_eq(analyze("Real CONST a := 1.0e38 * 10.0, b := -0.5 ** -200;\n"
                             "PROCEDURE program () IS END;\n"), 0);
    ck_assert(isinf(global("a")->const_real) && global("a")->const_real > 0);
    ck_assert(isinf(global("b")->const_real) && global("b")->const_real > 0);
}
END_TEST

/* a NaN (inf - inf of a denoter too large for Real) compares unordered */
START_TEST(test_sema_fold_nan_compare)
{
    ck_assert_int_eq(analyze(
        "Real CONST big := 1.0e39, n := big - big;\n"
        "Bool CONST eq := n = n, ne := n <> n, lt := n < 1.0, le := n <= 1.0, gt := 1.0 > n,\n"
        "  ge := n >= n;\n"
        "PROCEDURE program () IS END;\n"), 0);
    ck_assert(isnan(global("n")->const_real));
    expect_int("eq", 0);
    expect_int("ne", 1);
    expect_int("lt", 0);
    expect_int("le", 0);
    expect_int("gt", 0);
    expect_int("ge", 0);
}
END_TEST

/* no error in an arm that a constant condition rules out (§9, §10.1) */
START_TEST(test_sema_fold_dead_arm)
{
    ck_assert_int_eq(analyze(
        "Int CONST n := 0, a := n > 0 ? 100 / n : -1, b := n = 0 ? 7 : 2147483647 + 1;\n"
        "PROCEDURE program () IS\n"
        "  Int VAR x;\n"
        "  IF n > 0 THEN x := 1 / n; ELSIF true THEN x := 2; ELSE x := 2 ** -1; END;\n"
        "  WHILE false REPEAT x := Int (1.0e30); END;\n"
        "  FOR x := 1 TO n REPEAT x := 1 % n; END; FOR x := n DOWNTO 1 REPEAT x := 1 / n; END;\n"
        "END;\n"), 0);
    expect_int("a", -1);
    expect_int("b", 7);
    /* the arm that runs still reports */
    ck_assert_int_eq(analyze("Int CONST n := 0, a := n = 0 ? 100 / n : -1;\n"
                             "PROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n"
                             "  Int VAR x; IF false THEN x := 1; ELSE x := 1 / 0; END;\n"
                             "END;\n"), 1);
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n"
                             "  Int VAR x; FOR x := 1 TO 1 REPEAT x := 1 / 0; END;\n"
                             "END;\n"), 1);
    /* AND / OR short-circuit: the right operand after a deciding constant */
    ck_assert_int_eq(analyze("Int CONST n := 0;\n"
                             "Bool CONST a := n > 0 AND 1 / n > 0, b := n = 0 OR 1 / n > 0;\n"
                             "PROCEDURE program () IS END;\n"), 0);
    ck_assert_int_eq(analyze("Int CONST n := 0;\nBool CONST a := n = 0 AND 1 / n > 0;\n"
                             "PROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("Int CONST n := 0;\nBool CONST a := n > 0 XOR 1 / n > 0;\n"
                             "PROCEDURE program () IS END;\n"), 1);
    ck_assert(strstr(messages, "division by zero") != NULL);
    /* after a RETURN or BREAK, the rest of that statement list; a BREAK
       inside an IF does not end the list around the IF */
    ck_assert_int_eq(analyze("Int FUNCTION f () IS RETURN 1; RETURN 1 / 0; END;\n"
                             "PROCEDURE program () IS\n"
                             "  Int VAR x; WHILE true REPEAT BREAK; x := 1 % 0; END;\n"
                             "  RETURN; x := 2 ** -1;\n"
                             "END;\n"), 0);
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n"
                             "  Int VAR x; WHILE true REPEAT IF x > 0 THEN BREAK; END; x := 1 / 0; END;\n"
                             "END;\n"), 1);
    /* and after a statement that always ends in one: an IF whose arms
       that can be taken all end so, a loop that nothing but RETURN ends */
    ck_assert_int_eq(analyze("Int FUNCTION f (Int CONST k) IS\n"
                             "  IF k > 0 THEN RETURN 1; ELSIF false THEN RETURN 3; ELSE RETURN 0; END;\n"
                             "  RETURN 1 / 0;\nEND;\n"
                             "PROCEDURE program () IS\n"
                             "  Int VAR x;\n"
                             "  WHILE true REPEAT IF x > 0 THEN BREAK; ELSE RETURN; END; x := 1 / 0; END;\n"
                             "  IF false THEN x := 1; ELSIF true THEN RETURN; ELSE x := 2; END; x := 1 % 0;\n"
                             "END;\n"
                             "PROCEDURE p () IS\n"
                             "  Int VAR x; REPEAT REPEAT BREAK; END; END; x := 2 ** -1;\n"
                             "END;\n"), 0);
    /* a way out: an arm that goes on, no ELSE, a condition, a BREAK */
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n"
                             "  Int VAR x; IF x > 0 THEN RETURN; ELSIF x < 0 THEN x := 1; ELSE RETURN; END;\n"
                             "  x := 1 / 0;\nEND;\n"), 1);
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n"
                             "  Int VAR x; IF x > 0 THEN RETURN; END; x := 1 / 0;\nEND;\n"), 1);
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n"
                             "  Int VAR x; REPEAT x += 1; UNTIL x > 3 END; x := 1 / 0;\nEND;\n"), 1);
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n"
                             "  Int VAR x; REPEAT IF x > 0 THEN BREAK; END; END; x := 1 / 0;\nEND;\n"), 1);
}
END_TEST

/* a constant REPLICATE count that no run uses is no error either */
START_TEST(test_sema_replicate_dead_arm)
{
    static const char *net = "TYPE U IS NODE Int v;\n"
                             "  PROCEDURE g () IS IF false THEN REPLICATE ME INTO -1; END; END;\n"
                             "END;\nTYPE G IS GROUP OF U END;\nTYPE Net IS NETWORK G g; END;\n"
                             "Net VAR net;\n";
    char src[512];
    snprintf(src, sizeof src, "%sPROCEDURE program () IS\n"
             "  IF 0 > 1 THEN REPLICATE net INTO 0; END;\nEND;\n", net);
    ck_assert_int_eq(analyze(src), 0);
    snprintf(src, sizeof src, "%sPROCEDURE program () IS\n"
             "  IF 0 < 1 THEN REPLICATE net INTO 0; END;\nEND;\n", net);
    ck_assert_int_eq(analyze(src), 1);
    ck_assert(strstr(messages, "at least 1") != NULL);
    /* REPLICATE ME implies RETURN (§8.7): what follows it never runs */
    ck_assert_int_eq(analyze("TYPE U IS NODE Int v;\n"
                             "  PROCEDURE g () IS REPLICATE ME INTO 1; REPLICATE ME INTO -1; END;\n"
                             "END;\nTYPE G IS GROUP OF U END;\nTYPE Net IS NETWORK G g; END;\n"
                             "Net VAR net;\nPROCEDURE program () IS END;\n"), 0);
}
END_TEST

START_TEST(test_sema_fold_not_constant)
{
    ck_assert_int_eq(analyze("Int VAR x := 1;\nInt CONST a := x + 1, b := RANDOM (1...3);\n"
                             "PROCEDURE program () IS END;\n"), 0);
    ck_assert(!global("a")->has_value);
    ck_assert(!global("b")->has_value);
}
END_TEST

START_TEST(test_sema_fold_errors)
{
    /* Int2 * Int2 is Int2 (§9): 40000 does not fit */
    ck_assert_int_eq(analyze("Int CONST a := 200 * 200;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert(strstr(messages, "overflow") != NULL);
    ck_assert_int_eq(analyze("Int CONST a := Int (200) * 200;\nPROCEDURE program () IS END;\n"), 0);
    expect_int("a", 40000);
    ck_assert_int_eq(analyze("Int CONST a := 1 / 0;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert(strstr(messages, "division by zero") != NULL);
    /* a Real division by zero is no error at run time: the IEEE value */
    ck_assert_int_eq(analyze("Real CONST a := 1.0 % 0.0, b := -1.0 / 0.0, c := 0.0 ** -2;\n"
                             "PROCEDURE program () IS END;\n"), 0);
    ck_assert(isnan(global("a")->const_real));
    ck_assert(isinf(global("b")->const_real) && global("b")->const_real < 0);
    ck_assert(isinf(global("c")->const_real) && global("c")->const_real > 0);
    ck_assert_int_eq(analyze("Int CONST a := 2 ** -1;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("Int CONST a := 2147483647 + 1;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("Int CONST a := Int (1.0e20);\nPROCEDURE program () IS END;\n"), 1);
    ck_assert(strstr(messages, "conversion overflow") != NULL);
    /* a Real beyond Int, not beyond 64 bits, wraps as at run time */
    ck_assert_int_eq(analyze("Int CONST a := Int (1.0e10), b := Int (-3.0e9);\n"
                             "Int1 CONST c := Int1 (300.0);\nPROCEDURE program () IS END;\n"), 0);
    expect_int("a", 1410065408);
    expect_int("b", 1294967296);
    expect_int("c", 44);
    /* a shift by 63 or more is a * 2**count too: beyond every type unless
       a is 0 (it was left unfolded, 0 at run time, where 1 LSHIFT 40 was
       reported) */
    ck_assert_int_eq(analyze("Int CONST a := Int (1) LSHIFT 63;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert(strstr(messages, "overflow") != NULL);
    ck_assert_int_eq(analyze("Int CONST a := Int (1) LSHIFT 1000;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("Int CONST a := Int (0) LSHIFT 63, b := 40 RSHIFT 63,\n"
                             "  c := 40 RSHIFT 1000;\nPROCEDURE program () IS END;\n"), 0);
    expect_int("a", 0);
    expect_int("b", 0);
    expect_int("c", 0);
}
END_TEST

/* SubrInfo.varies: RANDOM or EXTERNAL code other than the standard
   arithmetic, and every global subroutine that calls such a one */
START_TEST(test_sema_varies)
{
    ck_assert_int_eq(analyze(
        "Real FUNCTION sigmoid (Real CONST x) IS EXTERNAL;\n"
        "Int FUNCTION intParam (String CONST name; Int CONST dflt) IS EXTERNAL;\n"
        "Int FUNCTION draw () IS RETURN RANDOM (0...9); END;\n"
        "Int FUNCTION twice () IS RETURN 2 * draw (); END;\n"
        "Real FUNCTION act (Real CONST x) IS RETURN sigmoid (x); END;\n"
        "Int FUNCTION param () IS RETURN intParam (\"k\", 1); END;\n"
        "PROCEDURE roll (Int VAR k) IS k := twice (); END;\n"
        "Int FUNCTION plain (Int CONST x) IS RETURN x + 1; END;\n"
        "PROCEDURE program () IS END;\n"), 0);
    ck_assert(global("draw")->sub->varies);
    ck_assert(global("twice")->sub->varies);
    ck_assert(global("roll")->sub->varies);
    ck_assert(global("param")->sub->varies);
    ck_assert(global("intParam")->sub->varies);
    ck_assert(!global("sigmoid")->sub->varies);
    ck_assert(!global("act")->sub->varies);
    ck_assert(!global("plain")->sub->varies);
}
END_TEST

START_TEST(test_sema_fold_array_sizes)
{
    ck_assert_int_eq(analyze("Int CONST n := 3;\nTYPE V IS ARRAY n * 4 - 2 OF Real END;\n"
                             "TYPE W IS ARRAY 1 OF V END;\nPROCEDURE program () IS END;\n"), 0);
    Type *v = global("V")->type;
    ck_assert_int_eq(v->kind, TY_ARRAY);
    ck_assert_int_eq(v->size, 10);
    ck_assert_ptr_eq(v->elem, prog->sema->builtin[TY_REAL]);
    ck_assert_int_eq(global("W")->type->size, 1);
    ck_assert_int_eq(analyze("Int VAR n := 3;\nTYPE V IS ARRAY n OF Real END;\n"
                             "PROCEDURE program () IS END;\n"), 1);
    ck_assert_int_eq(analyze("TYPE V IS ARRAY 0 OF Real END;\nPROCEDURE program () IS END;\n"), 1);
}
END_TEST

/* ---- central agent ------------------------------------------------------- */

static const char *ca_program =
    "Real FUNCTION twice (Real CONST v) IS RETURN 2.0 * v; END;\n"
    "TYPE C IS CONNECTION Real w; END;\n"
    "TYPE N IS NODE IN C i; Real x; PROCEDURE p () IS ME.x := twice (ME.x); END; END;\n"
    "TYPE L IS GROUP OF N END;\n"
    "TYPE Net IS NETWORK L g; Int k; END;\n"
    "PROCEDURE ext (Int CONST v) IS EXTERNAL;\n"
    "Net VAR net;\n"
    "Int VAR plain;\n"
    "PROCEDURE usesNet () IS net[0].k := 1; END;\n"
    "PROCEDURE callsUser () IS usesNet (); END;\n"
    "PROCEDURE callsCaller () IS callsUser (); ext (1); END;\n"
    "PROCEDURE helper () IS plain := 2; ext (plain); END;\n"
    "Int FUNCTION readNet () IS RETURN MAXINDEX (net); END;\n"
    "PROCEDURE program () IS helper (); END;\n";

START_TEST(test_sema_central_agent)
{
    ck_assert_int_eq(analyze(ca_program), 0);
    ck_assert(global("program")->sub->is_central_agent);
    ck_assert_ptr_eq(prog->sema->program, global("program"));
    ck_assert(global("usesNet")->sub->is_central_agent);
    ck_assert(global("usesNet")->sub->mentions_network);
    ck_assert(global("callsUser")->sub->is_central_agent);
    ck_assert(!global("callsUser")->sub->mentions_network);
    ck_assert(global("callsCaller")->sub->is_central_agent);
    ck_assert(global("readNet")->sub->is_central_agent);
    ck_assert(global("helper")->sub->is_free);
    ck_assert(global("twice")->sub->is_free);
    ck_assert(global("ext")->sub->is_free);
    ck_assert(global("ext")->sub->external);
    ck_assert_int_eq(global("helper")->sub->context, CTX_FREE);
    ck_assert_int_eq(global("callsUser")->sub->context, CTX_CA);
    ck_assert_int_eq(global("callsCaller")->sub->an->callees.len, 2);
    Type *n = global("N")->type;
    Symbol *p = VEC_AT(n->subrs, 0, Symbol);
    ck_assert_int_eq(p->sub->context, CTX_NODEP);
    ck_assert(!p->sub->is_central_agent);
}
END_TEST

/* What may REPLICATE a network (directly or through calls), what is
 * called, and whether an initializer of a global may replicate. */
#define REPLICATES_TEXT \
        "TYPE C IS CONNECTION Real w; END;\n" \
        "TYPE N IS NODE IN C i; Real x; PROCEDURE twin () IS REPLICATE ME INTO 2; END; END;\n" \
        "TYPE L IS GROUP OF N END;\n" \
        "TYPE Net IS NETWORK L g; END;\n" \
        "Net VAR net;\n" \
        "Int FUNCTION grow (Int CONST k) IS REPLICATE net INTO k; RETURN k; END;\n" \
        "PROCEDURE viaGrow () IS IF grow (2) > 0 THEN MERGE net; END; END;\n" \
        "PROCEDURE sync () IS MERGE net; END;\n" \
        "%s" \
        "PROCEDURE program () IS viaGrow (); sync (); %s END;\n"

START_TEST(test_sema_replicates)
{
    char buf[2048];
    snprintf(buf, sizeof buf, REPLICATES_TEXT, "", "");
    ck_assert_int_eq(analyze(buf), 0);
    ck_assert(global("grow")->sub->replicates);
    ck_assert(global("viaGrow")->sub->replicates); /* through the call */
    ck_assert(!global("sync")->sub->replicates);   /* MERGE does not */
    ck_assert(global("program")->sub->replicates); /* calls viaGrow */
    Symbol *twin = VEC_AT(global("N")->type->subrs, 0, Symbol);
    ck_assert(!twin->sub->replicates);             /* a node, not a network */
    ck_assert(global("sync")->sub->called);
    ck_assert(!global("program")->sub->called);
    ck_assert(!prog->sema->init_replicates);
    /* program calling itself; a global initialized by a replicating call */
    snprintf(buf, sizeof buf, REPLICATES_TEXT, "Int VAR n := grow (3);\n", "IF n = 0 THEN program (); END;");
    ck_assert_int_eq(analyze(buf), 0);
    ck_assert(global("program")->sub->called);
    ck_assert(prog->sema->init_replicates);
}
END_TEST

START_TEST(test_sema_central_agent_called_from_parallel_code)
{
    ck_assert_int_eq(analyze(
        "TYPE C IS CONNECTION Real w; END;\n"
        "TYPE N IS NODE IN C i; Real x; END;\n"
        "TYPE L IS GROUP OF N END;\n"
        "TYPE Net IS NETWORK L g; END;\n"
        "Net VAR net;\n"
        "PROCEDURE sync () IS MERGE net; END;\n"
        "PROCEDURE indirect () IS sync (); END;\n"
        "TYPE M IS NODE Real y; PROCEDURE p () IS indirect (); END; END;\n"
        "PROCEDURE program () IS END;\n"), 1);
    ck_assert(strstr(messages, "central agent") != NULL);
}
END_TEST

/* ---- annotations --------------------------------------------------------- */

static Decl *subr_of(const char *type, int index)
{
    Type *t = global(type)->type;
    return VEC_AT(t->subrs, index, Symbol)->decl;
}

static Stmt *stmt_at(Decl *d, int i)
{
    return VEC_AT(d->u.subr.body->stmts, i, Stmt);
}

START_TEST(test_sema_call_kinds_and_categories)
{
    ck_assert_int_eq(analyze(
        "Real REDUCTION sum IS RETURN ME + YOU; END;\n"
        "TYPE C IS CONNECTION Real w; PROCEDURE s () IS END; END;\n"
        "TYPE N IS NODE IN C i; OUT C o; Real x;\n"
        "  PROCEDURE p () IS ME.i[].s (); REDUCTION ME.i[].w:sum INTO ME.x; END; END;\n"
        "TYPE L IS GROUP OF N END;\n"
        "TYPE Net IS NETWORK L g; Real e;\n"
        "  PROCEDURE q () IS ME.g[].p (); ME.g[0].p (); ME.g.p (); END;\n"
        "  Real FUNCTION f () IS RETURN ME.e; END; END;\n"
        "Net VAR net;\n"
        "PROCEDURE program () IS\n"
        "  Real VAR r;\n"
        "  net.q (); net[1].q (); r := net.f (); REDUCTION net[].e:sum INTO r;\n"
        "END;\n"), 0);
    Decl *q = subr_of("Net", 0);
    Expr *c0 = stmt_at(q, 0)->u.call.call;
    ck_assert_int_eq(c0->call_kind, CALL_GROUP);
    ck_assert_int_eq(c0->u.objcall.obj->cat, VC_PV);
    ck_assert_ptr_eq(c0->u.objcall.obj->type, global("N")->type);
    ck_assert_int_eq(stmt_at(q, 1)->u.call.call->call_kind, CALL_OBJECT);
    ck_assert_int_eq(stmt_at(q, 2)->u.call.call->call_kind, CALL_GROUP); /* leniency */

    Decl *p = subr_of("N", 0);
    ck_assert_int_eq(stmt_at(p, 0)->u.call.call->call_kind, CALL_GROUP);
    Stmt *red = stmt_at(p, 1);
    ck_assert_int_eq(red->sem_flags & SEMF_LEVEL_MASK, SEMF_LEVEL_CONN);
    ck_assert_ptr_eq(red->callee, global("sum"));
    ck_assert_str_eq(red->target->name, "w");
    ck_assert_int_eq(red->u.reduction.pvs->cat, VC_PVS);

    Decl *main = global("program")->decl;
    ck_assert_int_eq(stmt_at(main, 0)->u.call.call->call_kind, CALL_REPLICATES);
    ck_assert_int_eq(stmt_at(main, 1)->u.call.call->call_kind, CALL_OBJECT);
    Expr *fcall = stmt_at(main, 2)->u.assign.value;
    ck_assert_int_eq(fcall->call_kind, CALL_OBJECT);
    ck_assert_ptr_eq(fcall->type, prog->sema->builtin[TY_REAL]);
    ck_assert_int_eq(stmt_at(main, 3)->sem_flags & SEMF_LEVEL_MASK, SEMF_LEVEL_NET);
}
END_TEST

/* A node grid: every access that reaches nodes becomes an access of the
 * flat node array with a checking index operator (sema.h, ast.h). */
START_TEST(test_sema_node_grid_rewrite)
{
    ck_assert_int_eq(analyze(
        "TYPE N IS NODE Int k; PROCEDURE p () IS END; END;\n"
        "TYPE Row IS ARRAY 4 OF N END;\n"
        "TYPE Map IS ARRAY 3 OF Row END;\n"
        "TYPE Net IS NETWORK Map g; Int m;\n"
        "  PROCEDURE q () IS ME.g[1][2].p (); ME.g[1][].p (); ME.g[0...1].p ();\n"
        "    ME.g[2][1...2].p (); ME.g[].p (); ME.m := MAXINDEX (ME.g[1]); END; END;\n"
        "Net VAR net;\n"
        "PROCEDURE program () IS net.q (); END;\n"), 0);
    Type *map = global("Map")->type, *n = global("N")->type;
    ck_assert(type_is_node_grid(map) && type_is_node_array(map));
    ck_assert(!type_is_node_grid(global("Row")->type));
    ck_assert_ptr_eq(type_node_of(map), n);
    ck_assert_int_eq(type_node_count(map), 12);
    Decl *q = subr_of("Net", 0);
    static const Op ops[] = {OP_GRID_INDEX, OP_GRID_ROW, OP_GRID_ROWS, OP_GRID_SLICE};
    for (int i = 0; i < 4; i++) {
        Expr *obj = stmt_at(q, i)->u.call.call->u.objcall.obj;
        ck_assert_int_eq(obj->kind, EXPR_SUBSCRIPT);
        ck_assert_int_eq(obj->u.subscript.obj->kind, EXPR_SELECT); /* the grid itself */
        ck_assert_ptr_eq(obj->type, n);
        Expr *ix = obj->u.subscript.index;
        Op op = ix->kind == EXPR_BINARY ? ix->u.binary.op : ix->u.unary.op;
        ck_assert_int_eq(op, ops[i]);
        ck_assert_str_eq(ix->sym->name, "g");
        ck_assert_int_eq(obj->cat, i == 0 ? VC_OBJECT : VC_PV);
    }
    Expr *all = stmt_at(q, 4)->u.call.call->u.objcall.obj; /* every node */
    ck_assert_int_eq(all->kind, EXPR_ALLSLICE);
    ck_assert_ptr_eq(all->type, n);
    Expr *mx = stmt_at(q, 5)->u.assign.value->u.maxindex.obj; /* a row stays a row */
    ck_assert_ptr_eq(mx->type, global("Row")->type);
}
END_TEST

START_TEST(test_sema_symbols_and_scopes)
{
    ck_assert_int_eq(analyze(
        "Int VAR x;\n"
        "TYPE R IS RECORD Int a, b := 7; Real c; MERGE IS ME.a += YOU.a; END; END;\n"
        "PROCEDURE p (Int CONST x) IS\n"
        "  Int VAR y := x;\n"
        "  IF y > 0 THEN Int VAR y := 2; y += 1; END;\n"
        "END;\n"
        "PROCEDURE program () IS END;\n"), 0);
    Type *r = global("R")->type;
    ck_assert_int_eq(r->elems.len, 3);
    ck_assert_str_eq(VEC_AT(r->elems, 1, Symbol)->name, "b");
    ck_assert_int_eq(VEC_AT(r->elems, 1, Symbol)->index, 1);
    ck_assert_ptr_nonnull(r->merge);
    ck_assert_str_eq(r->merge->cname, "R_merge");
    Symbol *p = global("p");
    ck_assert_int_eq(p->sub->params.len, 1);
    ck_assert_int_eq(p->sub->an->locals.len, 3); /* x, y, inner y */
    ck_assert_str_eq(VEC_AT(p->sub->an->locals, 2, Symbol)->cname, "y_2");
    ck_assert_int_eq(VEC_AT(p->sub->params, 0, Symbol)->access, ACCESS_CONST);
    ck_assert(global("x")->is_global);
    ck_assert_ptr_eq(prog->sema->data.items[0], global("x"));
    ck_assert_str_eq(sema_type_name(r), "R");
    ck_assert_str_eq(sema_type_name(prog->sema->builtin[TY_ERROR]), "<error>");
}
END_TEST

START_TEST(test_sema_convert_kinds)
{
    ck_assert_int_eq(analyze(
        "TYPE R IS RECORD Int a; Real b; END;\n"
        "PROCEDURE program () IS\n"
        "  Int VAR k; Real VAR r; Interval VAR i; Interval1 VAR j; R VAR x;\n"
        "  k := Int (k); r := Real (k); i := Interval (j); j := Interval1 (0, 5);\n"
        "  x := R (k, r);\n"
        "END;\n"), 0);
    Decl *main = global("program")->decl;
    static const ConvertKind want[] = {
        CONV_IDENTITY, CONV_NUMERIC, CONV_INTERVAL, CONV_MAKE_INTERVAL, CONV_RECORD,
    };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(sema_convert_kind(stmt_at(main, i)->u.assign.value), want[i]);
    Expr *folded = stmt_at(main, 1)->u.assign.value;
    ck_assert(!folded->is_const); /* k is a variable */
}
END_TEST

START_TEST(test_sema_one_error_per_mistake)
{
    /* an undefined name: one message, no follow-on errors */
    ck_assert_int_eq(analyze("PROCEDURE program () IS\n  Real VAR r;\n"
                             "  r := y + 1.0 * y;\n  r := y;\n  IF y THEN END;\nEND;\n"), 1);
    ck_assert_int_eq(analyze("Bogus VAR b;\nPROCEDURE program () IS b := 1; b.x := b[2]; END;\n"), 1);
}
END_TEST

/* One TCase per feature; the program-based ones free their arena after
 * each test. */
static void add_case(Suite *s, const char *name, bool fixture, const TTest *const *tests)
{
    TCase *tc = tcase_create(name);
    if (fixture)
        tcase_add_checked_fixture(tc, NULL, teardown);
    for (; *tests; tests++)
        tcase_add_test(tc, *tests);
    suite_add_tcase(s, tc);
}

START_TEST(test_sema_nesting_limit)
{
    /* a left-deep chain deeper than the limit is one error, not a crash */
    size_t terms = 6000, cap = terms * 4 + 128;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    size_t n = (size_t)snprintf(text, cap, "PROCEDURE program () IS Int VAR x; x := x");
    for (size_t i = 1; i < terms; i++)
        n += (size_t)snprintf(text + n, cap - n, " + x");
    snprintf(text + n, cap - n, "; END;\n");
    ck_assert_int_eq(analyze(text), 1);
    ck_assert(strstr(messages, "nested too deeply") != NULL);
    free(text);
}
END_TEST

/* ---- every expression of a legal program is annotated ------------------- */

static int unannotated;

static void walk_block(const Block *b);

static void walk_expr(const Expr *e)
{
    if (!e)
        return;
    bool proc_call = (e->kind == EXPR_CALL || e->kind == EXPR_OBJCALL) && e->sym &&
                     !e->sym->sub->result;
    if (!proc_call && (!e->type || e->cat == VC_NONE || type_is_error(e->type)))
        unannotated++;
    if ((e->kind == EXPR_CALL || e->kind == EXPR_OBJCALL) &&
        (e->call_kind == CALL_NONE || !e->sym))
        unannotated++;
    const PtrVec *args = NULL;
    switch (e->kind) {
    case EXPR_SELECT: walk_expr(e->u.select.obj); break;
    case EXPR_SUBSCRIPT: walk_expr(e->u.subscript.obj); walk_expr(e->u.subscript.index); break;
    case EXPR_ALLSLICE: walk_expr(e->u.allslice.obj); break;
    case EXPR_CONNADDR: walk_expr(e->u.connaddr.from); walk_expr(e->u.connaddr.to); break;
    case EXPR_UNARY: walk_expr(e->u.unary.operand); break;
    case EXPR_BINARY: walk_expr(e->u.binary.lhs); walk_expr(e->u.binary.rhs); break;
    case EXPR_TERNARY:
        walk_expr(e->u.ternary.cond);
        walk_expr(e->u.ternary.then_e);
        walk_expr(e->u.ternary.else_e);
        break;
    case EXPR_CALL: args = &e->u.call.args; break;
    case EXPR_OBJCALL: walk_expr(e->u.objcall.obj); args = &e->u.objcall.args; break;
    case EXPR_CONVERT: args = &e->u.convert.args; break;
    case EXPR_MAXINDEX: walk_expr(e->u.maxindex.obj); break;
    default: break;
    }
    for (int i = 0; args && i < args->len; i++)
        walk_expr(VEC_AT(*args, i, Expr));
}

static void walk_stmt(const Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN: walk_expr(s->u.assign.target); walk_expr(s->u.assign.value); break;
    case STMT_INPUT: case STMT_OUTPUT: walk_expr(s->u.io.node_side); walk_expr(s->u.io.io); break;
    case STMT_CALL: case STMT_OBJCALL: walk_expr(s->u.call.call); break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            walk_expr(VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_REDUCTION:
        walk_expr(s->u.reduction.pvs);
        walk_expr(s->u.reduction.into);
        if (!s->callee || !s->target)
            unannotated++;
        break;
    case STMT_WTA:
        walk_expr(s->u.wta.pv);
        for (int i = 0; i < s->u.wta.args.len; i++)
            walk_expr(VEC_AT(s->u.wta.args, i, Expr));
        if (!s->callee || !s->target || !s->proc)
            unannotated++;
        break;
    case STMT_RETURN: walk_expr(s->u.ret.value); break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            walk_expr(arm->cond);
            walk_block(arm->body);
        }
        if (s->u.if_.else_body)
            walk_block(s->u.if_.else_body);
        break;
    case STMT_LOOP:
        walk_expr(s->u.loop.while_cond);
        walk_block(s->u.loop.body);
        walk_expr(s->u.loop.until_cond);
        break;
    case STMT_FOR:
        walk_expr(s->u.for_.var);
        walk_expr(s->u.for_.from);
        walk_expr(s->u.for_.to);
        walk_block(s->u.for_.body);
        walk_expr(s->u.for_.until_cond);
        break;
    case STMT_REPLICATE: case STMT_EXTEND:
        walk_expr(s->u.replicate.obj);
        walk_expr(s->u.replicate.count);
        if (s->kind == STMT_REPLICATE && !(s->sem_flags & SEMF_LEVEL_MASK))
            unannotated++;
        break;
    case STMT_CONNECT: case STMT_DISCONNECT:
        walk_expr(s->u.connect.from);
        walk_expr(s->u.connect.to);
        break;
    case STMT_MERGE: walk_expr(s->u.merge.obj); break;
    default: break;
    }
}

static void walk_data(const Decl *d)
{
    if (!d->sym)
        unannotated++;
    for (int i = 0; i < d->u.data.ids.len; i++) {
        InitId *id = VEC_AT(d->u.data.ids, i, InitId);
        if (!id->sym)
            unannotated++;
        walk_expr(id->init);
    }
}

static void walk_block(const Block *b)
{
    for (int i = 0; i < b->defs.len; i++)
        walk_data(VEC_AT(b->defs, i, Decl));
    for (int i = 0; i < b->stmts.len; i++)
        walk_stmt(VEC_AT(b->stmts, i, Stmt));
}

static void walk_decl(const Decl *d)
{
    switch (d->kind) {
    case DECL_TYPE:
        if (!d->type || !d->type->complete)
            unannotated++;
        walk_expr(d->u.type.array_size);
        for (int i = 0; i < d->u.type.elems.len; i++)
            walk_decl(VEC_AT(d->u.type.elems, i, Decl));
        break;
    case DECL_DATA: case DECL_ELEM: walk_data(d); break;
    case DECL_IFACE: if (!d->sym) unannotated++; break;
    default:
        if (!d->sym || d->sym->sub->context == CTX_NONE)
            unannotated++;
        if (d->u.subr.body)
            walk_block(d->u.subr.body);
        break;
    }
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void check_fully_annotated(const char *path)
{
    ck_assert_int_eq(analyze(read_text(path)), 0);
    unannotated = 0;
    for (int i = 0; i < prog->parts.len; i++)
        walk_decl(VEC_AT(prog->parts, i, Decl));
    ck_assert_msg(unannotated == 0, "%s: %d unannotated nodes", path, unannotated);
}

START_TEST(test_sema_report_examples_annotated)
{
    /* make check runs in the repository root; shared/ is beside it */
    if (access("../shared/report-examples/backprop.nn", R_OK) == 0) {
        check_fully_annotated("../shared/report-examples/backprop.nn");
        check_fully_annotated("../shared/report-examples/features.nn");
    } else { /* counted by tests/run-all.sh */
        printf("skip sema/report-examples-annotated: needs ../shared/report-examples\n");
        fflush(stdout);
    }
    check_fully_annotated("tests/sema/all-constructs.nn");
    check_fully_annotated("tests/sema/contexts.nn");
}
END_TEST

/* Every declaration cupitc knows for the standard library is a valid
 * program line and agrees with itself; a changed one does not. */
START_TEST(test_sema_stdlib_declarations)
{
    size_t cap = 1 << 14, len = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    text[0] = 0;
    for (int i = 0; i < stdlib_count(); i++) {
        len += (size_t)snprintf(text + len, cap - len, "%s\n", stdlib_decl(stdlib_at(i)));
        ck_assert_uint_lt(len, cap);
    }
    snprintf(text + len, cap - len, "PROCEDURE program () IS END;\n");
    ck_assert_int_eq(analyze(text), 0);
    free(text);
    ck_assert_int_eq(analyze("PROCEDURE pInt (Real CONST x) IS EXTERNAL;\n"
                             "PROCEDURE program () IS END;\n"), 1);
    ck_assert_ptr_nonnull(strstr(messages, "parameter 1 is Real CONST here, but Int CONST"));
    ck_assert_int_eq(analyze("PROCEDURE getExamplesxRxR (Real IO a; Real IO b; Int CONST n; "
                             "Int CONST f) IS EXTERNAL;\nPROCEDURE program () IS END;\n"), 1);
    ck_assert_ptr_nonnull(strstr(messages, "parameter 4 is Int CONST here, but Int VAR"));
}
END_TEST

START_TEST(test_sema_did_you_mean)
{
    ck_assert_int_eq(name_distance("weight", "wieght", 3), 1); /* a swap is one edit */
    ck_assert_int_eq(name_distance("pint", "pInt", 1), 0);     /* case only */
    ck_assert_int_eq(name_distance("x", "y", 0), 1);           /* beyond the limit */
    ck_assert_int_eq(name_distance_limit("y"), 0);
    ck_assert_str_eq(stdlib_closest("pRael"), "pReal");
    ck_assert_ptr_null(stdlib_closest("completelyOther"));
    ck_assert_int_eq(analyze("Int VAR counter;\nPROCEDURE program () IS countr := 1; END;\n"), 1);
    ck_assert_ptr_nonnull(strstr(messages, "did you mean 'counter'?"));
    ck_assert_int_eq(analyze("Int VAR x;\nPROCEDURE program () IS x := y; END;\n"), 1);
    ck_assert_ptr_null(strstr(messages, "did you mean"));
}
END_TEST

static Suite *sema_suite(void)
{
    const TTest *const compatibility[] = {
        test_sema_integer_promotion, test_sema_interval_promotion,
        test_sema_no_other_conversions, test_sema_int_literal_types,
        test_sema_denoter_types_in_programs, NULL,
    };
    const TTest *const folding[] = {
        test_sema_fold_integers, test_sema_fold_reals_and_bools, test_sema_fold_reals_single,
        test_sema_fold_nan_compare,
        test_sema_fold_not_constant, test_sema_fold_dead_arm, test_sema_replicate_dead_arm,
        test_sema_fold_errors,
        test_sema_fold_array_sizes, NULL,
    };
    const TTest *const central_agent[] = {
        test_sema_central_agent, test_sema_central_agent_called_from_parallel_code, test_sema_replicates,
        test_sema_varies, NULL,
    };
    const TTest *const annotations[] = {
        test_sema_call_kinds_and_categories, test_sema_node_grid_rewrite,
        test_sema_symbols_and_scopes,
        test_sema_convert_kinds, test_sema_one_error_per_mistake, test_sema_nesting_limit,
        test_sema_report_examples_annotated, NULL,
    };
    const TTest *const standard[] = {
        test_sema_stdlib_declarations, test_sema_did_you_mean, NULL,
    };
    Suite *s = suite_create("sema");
    add_case(s, "compatibility", true, compatibility);
    add_case(s, "constant folding", true, folding);
    add_case(s, "central agent", true, central_agent);
    add_case(s, "annotations", true, annotations);
    add_case(s, "standard library and names", true, standard);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sema_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
