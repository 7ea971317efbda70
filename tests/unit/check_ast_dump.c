/* check_ast_dump.c -- unit tests of the tree dump (src/ast_dump.c).
 *
 * The syntax-only form is covered in depth by the tests/parse goldens; here the
 * exact layout of a small tree, and the annotated form that semantic
 * analysis will use (types via the namer, call kinds). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/parse.h"
#include "fe_capture.h"

static char *dump_text;

static const char *dump(const char *src, AstTypeNamer namer, CallKind first_call_kind)
{
    Arena *arena = arena_new();
    capture_begin();
    SourceFile *file = source_from_string("t.nn", src, strlen(src));
    Program *prog = parse_program(file, arena);
    capture_end();
    ck_assert_int_eq(diag_error_count(), 0);
    Decl *proc = VEC_AT(prog->parts, prog->parts.len - 1, Decl);
    Stmt *first = VEC_AT(proc->u.subr.body->stmts, 0, Stmt);
    if (first->kind == STMT_CALL || first->kind == STMT_OBJCALL)
        first->u.call.call->call_kind = first_call_kind;

    size_t len;
    free(dump_text);
    FILE *out = open_memstream(&dump_text, &len);
    ast_dump(out, prog, namer);
    fclose(out);
    arena_free(arena);
    source_free(file);
    return dump_text;
}

static const char *name_type(const Type *type)
{
    return type ? "?" : "untyped";
}

static const char *const source =
    "Real CONST eta := 0.5;\n"
    "PROCEDURE program () IS\n"
    "  net[].adapt (eta * 2);\n"
    "END;\n";

START_TEST(test_ast_dump_syntax_only)
{
    ck_assert_str_eq(dump(source, NULL, CALL_NONE),
                     "program\n"
                     "  data CONST Real @1:1\n"
                     "    id eta @1:12\n"
                     "      init: real 0.5 @1:19\n"
                     "  procedure program @2:1\n"
                     "    block @3:3\n"
                     "      objcall-stmt @3:3\n"
                     "        objcall .adapt @3:3\n"
                     "          allslice @3:3\n"
                     "            name net @3:3\n"
                     "          binary * @3:20\n"
                     "            name eta @3:16\n"
                     "            int 2 @3:22\n");
}
END_TEST

START_TEST(test_ast_dump_annotated)
{
    ck_assert_str_eq(dump(source, name_type, CALL_REPLICATES),
                     "program\n"
                     "  data CONST Real @1:1\n"
                     "    id eta @1:12\n"
                     "      init: real 0.5 :: untyped @1:19\n"
                     "  procedure program @2:1\n"
                     "    block @3:3\n"
                     "      objcall-stmt @3:3\n"
                     "        objcall .adapt :: untyped [replicates] @3:3\n"
                     "          allslice :: untyped @3:3\n"
                     "            name net :: untyped @3:3\n"
                     "          binary * :: untyped @3:20\n"
                     "            name eta :: untyped @3:16\n"
                     "            int 2 :: untyped @3:22\n");
}
END_TEST

START_TEST(test_ast_dump_plain_call)
{
    ck_assert_str_eq(dump("PROCEDURE program () IS pInt (1); END;", NULL, CALL_PLAIN),
                     "program\n"
                     "  procedure program @1:1\n"
                     "    block @1:25\n"
                     "      call-stmt @1:25\n"
                     "        call pInt @1:25\n"
                     "          int 1 @1:31\n");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ast_dump");
    TCase *tc = tcase_create("dump");
    tcase_add_test(tc, test_ast_dump_syntax_only);
    tcase_add_test(tc, test_ast_dump_annotated);
    tcase_add_test(tc, test_ast_dump_plain_call);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
