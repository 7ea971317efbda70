/* check_lexer.c -- unit tests of the scanner (grammar/lexer.re).
 *
 * Each test scans an in-memory string and compares the token stream,
 * written as one line ("id:a '<--' int:1"), and the diagnostics. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/lex.h"
#include "fe_capture.h"
#include "parser.h"

static Arena *arena;
static LexToken last_string; /* value of the last string denoter scanned */

static void append(char *out, size_t cap, const char *piece)
{
    size_t n = strlen(out);
    snprintf(out + n, cap - n, "%s%s", n ? " " : "", piece);
}

/* Scans len bytes of text; returns the tokens as one line. */
static const char *scan_n(const char *text, size_t len)
{
    static char out[8192];
    out[0] = '\0';
    if (!arena)
        arena = arena_new();
    capture_begin();
    SourceFile *src = source_from_string("t.nn", text, len);
    Lexer lx;
    lex_init(&lx, src, arena);
    LexToken v;
    Loc loc;
    int t;
    while ((t = lex_next(&lx, &v, &loc)) != 0) {
        char piece[512];
        switch (t) {
        case TK_LIDENT: snprintf(piece, sizeof piece, "id:%s", v.text); break;
        case TK_UIDENT: snprintf(piece, sizeof piece, "type:%s", v.text); break;
        case TK_INTDEN: snprintf(piece, sizeof piece, "int:%llu", (unsigned long long)v.u.int_value); break;
        case TK_REALDEN: snprintf(piece, sizeof piece, "real:%g", v.u.real_value); break;
        case TK_STRDEN:
            last_string = v;
            snprintf(piece, sizeof piece, "str:%d", v.u.str.len);
            break;
        default: snprintf(piece, sizeof piece, "%s", lex_token_name(t)); break;
        }
        append(out, sizeof out, piece);
    }
    ck_assert_int_eq(lex_next(&lx, &v, &loc), 0); /* end of file stays there */
    ck_assert_int_eq(lx.errors, diag_error_count());
    capture_end();
    source_free(src);
    return out;
}

static const char *scan(const char *text)
{
    return scan_n(text, strlen(text));
}

/* The line:col of every token. */
static const char *positions(const char *text)
{
    static char out[1024];
    out[0] = '\0';
    if (!arena)
        arena = arena_new();
    capture_begin();
    SourceFile *src = source_from_string("t.nn", text, strlen(text));
    Lexer lx;
    lex_init(&lx, src, arena);
    LexToken v;
    Loc loc;
    while (lex_next(&lx, &v, &loc) != 0) {
        char piece[32];
        snprintf(piece, sizeof piece, "%d:%d", loc.line, loc.col);
        append(out, sizeof out, piece);
    }
    capture_end();
    source_free(src);
    return out;
}

#define ck_scan(text, expected) ck_assert_str_eq(scan(text), (expected))
#define ck_errors(n) ck_assert_int_eq(diag_error_count(), (n))
#define ck_message(s) ck_assert_msg(strstr(captured, (s)) != NULL, "no '%s' in:\n%s", (s), captured)

/* ---- identifiers and keywords ---------------------------------------- */

START_TEST(test_lexer_lowercase_identifiers)
{
    ck_scan("a abc x1 camelCase in out me index true false",
            "id:a id:abc id:x1 id:camelCase id:in id:out id:me id:index id:true id:false");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_uppercase_identifiers)
{
    ck_scan("T T2 Int1 TreeIT2 Weight A1B ABC1 ENDx IOx Realerval",
            "type:T type:T2 type:Int1 type:TreeIT2 type:Weight type:A1B type:ABC1 "
            "type:ENDx type:IOx type:Realerval");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_every_keyword)
{
    static const char *const kws[] = {
        "AND", "ARRAY", "BITAND", "BITNOT", "BITOR", "BITXOR", "BREAK", "BY",
        "CONNECT", "CONNECTION", "CONST", "DISCONNECT", "DOWNTO", "ELSE", "ELSIF", "END",
        "EXTEND", "EXTERNAL", "FOR", "FROM", "FUNCTION", "GROUP", "IF", "IN",
        "INDEX", "INTO", "IO", "IS", "LSHIFT", "MAX", "MAXINDEX", "ME",
        "MERGE", "MIN", "NETWORK", "NODE", "NOT", "OF", "OR", "OUT",
        "PROCEDURE", "RANDOM", "RECORD", "REDUCTION", "REPEAT", "REPLICATE", "RETURN", "RSHIFT",
        "SYMBOLIC", "THEN", "TO", "TYPE", "UNTIL", "UPTO", "VAR", "WHILE",
        "WTA", "XOR", "YOU",
    };
    ck_assert_int_eq(sizeof kws / sizeof kws[0], 59);
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) {
        char want[32];
        snprintf(want, sizeof want, "'%s'", kws[i]);
        ck_assert_str_eq(scan(kws[i]), want);
        ck_errors(0);
    }
}
END_TEST

START_TEST(test_lexer_unknown_keyword_once)
{
    ck_scan("WHILST x > 0", "id:x '>' int:0");
    ck_errors(1);
    ck_message("t.nn:1:1: error: unknown keyword 'WHILST'");
    ck_scan("TREE TT WHILST", "");
    ck_errors(3);
    ck_message("unknown keyword 'TT'");
}
END_TEST

START_TEST(test_lexer_unknown_keyword_repairs)
{
    /* likely slips are reported with a hint and handed on as meant */
    ck_scan("ENDIF ENDREPEAT", "'END' 'IF' 'END' 'REPEAT'");
    ck_errors(2);
    ck_message("t.nn:1:1: error: unknown keyword 'ENDIF' (write 'END IF')");
    ck_scan("REAL INT INTERVAL TRUE", "type:Real type:Int type:Interval id:true");
    ck_errors(4);
    ck_message("unknown keyword 'REAL' (write 'Real')");
    ck_message("unknown keyword 'TRUE' (write 'true')");
    ck_scan("ELSEIF WITH ENDWHILE BEGIN", "'ELSIF' 'TO' 'END'");
    ck_errors(4);
    ck_message("CONNECT uses 'TO'");
    ck_scan("INTEGER BOOLEAN FLOAT", "type:Int type:Bool type:Real");
    ck_errors(3);
    ck_message("unknown keyword 'INTEGER' (the type is written 'Int')");
    ck_message("unknown keyword 'FLOAT' (the type is written 'Real')");
    ck_scan("a MOD b DIV c", "id:a '%' id:b '/' id:c");
    ck_errors(2);
    ck_message("unknown keyword 'MOD' (the remainder is written '%')");
    ck_message("unknown keyword 'DIV' (integer division is written '/')");
}
END_TEST

START_TEST(test_lexer_keyword_prefixes)
{
    /* longest match: ENDIF is one word, END IF two keywords */
    ck_scan("END IF ENDPROCEDURE", "'END' 'IF' 'END' 'PROCEDURE'");
    ck_errors(1);
    ck_scan("INTO IN INDEX", "'INTO' 'IN' 'INDEX'");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_underscore_in_identifier)
{
    ck_scan("Int VAR my_x;", "type:Int 'VAR' id:my_x ';'");
    ck_errors(1);
    ck_message("t.nn:1:11: error: illegal character '_' in 'my_x'");
    ck_scan("_x", "id:x");
    ck_errors(1);
}
END_TEST

/* ---- denoters -------------------------------------------------------- */

START_TEST(test_lexer_integer_denoters)
{
    ck_scan("0 7 42 017 0x1F 0XfF 2147483647", "int:0 int:7 int:42 int:15 int:31 int:255 int:2147483647");
    ck_errors(0);
    /* `1e5` and `0x` are no denoters: test_lexer_malformed_reals and
       test_lexer_malformed_integer */
}
END_TEST

START_TEST(test_lexer_integer_too_large)
{
    scan("2147483648");
    ck_errors(1);
    ck_message("integer denoter '2147483648' is too large");
    scan("0x80000000 040000000000 99999999999999999999999999");
    ck_errors(3);
}
END_TEST

START_TEST(test_lexer_malformed_integer)
{
    ck_scan("09 0189", "int:9 int:189");
    ck_errors(2);
    ck_message("malformed integer denoter '09'");
    ck_scan("0x;", "int:0 ';'");
    ck_errors(1);
    ck_message("t.nn:1:1: error: malformed integer denoter '0x' (hexadecimal digits are needed");
    ck_scan("0x1e5", "int:485"); /* hex digits, no exponent */
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_real_denoters)
{
    ck_scan("1.0 0.5 1.0e-6 2.5E+3 3.25e2", "real:1 real:0.5 real:1e-06 real:2500 real:325");
    ck_errors(0);
}
END_TEST

/* A denoter that lies just off the middle between two floats has a nearest
 * double exactly in the middle; its Real is still the nearest float, not
 * the even one that rounding that double again would give. */
START_TEST(test_lexer_real_denoter_rounds_once)
{
    static const struct {
        const char *text;
        float want;
    } cases[] = {
        {"1.000000059604644775390625001", 1.00000011920928955078125f}, /* above a tie */
        {"1.000000059604644775390624999", 1.0f},                       /* below it */
        {"1.000000059604644775390625", 1.0f},                          /* the tie: even */
        {"1.000000178813934326171874999", 1.00000011920928955078125f}, /* below, even above */
        {"1.000000178813934326171875", 1.0000002384185791015625f},     /* the tie: even */
        {"0.1", 0.1f},
    };
    if (!arena)
        arena = arena_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SourceFile *src = source_from_string("t.nn", cases[i].text, strlen(cases[i].text));
        Lexer lx;
        lex_init(&lx, src, arena);
        LexToken v;
        Loc loc;
        ck_assert_int_eq(lex_next(&lx, &v, &loc), TK_REALDEN);
        ck_assert_msg((float)v.u.real_value == cases[i].want, "%s: got %.9g, want %.9g",
                      cases[i].text, (double)(float)v.u.real_value, (double)cases[i].want);
        source_free(src);
    }
}
END_TEST

START_TEST(test_lexer_interval_dots)
{
    ck_scan("1...3", "int:1 '...' int:3");
    ck_scan("0.5...1.5", "real:0.5 '...' real:1.5");
    ck_scan("a[3...5]", "id:a '[' int:3 '...' int:5 ']'");
    ck_scan("-0.5...0.5", "'-' real:0.5 '...' real:0.5");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_malformed_reals)
{
    ck_scan("1.", "real:1");
    ck_errors(1);
    ck_message("malformed real denoter '1.'");
    ck_scan(":= .5;", "':=' real:0.5 ';'");
    ck_errors(1);
    ck_message("t.nn:1:4: error: malformed real denoter '.5'");
    ck_scan("1.0e+ x", "real:1 id:x");
    ck_errors(1);
    ck_message("exponent has no digits");
    ck_scan("1e5 2E-3", "real:100000 real:0.002");
    ck_errors(2);
    ck_message("malformed real denoter '1e5' (a real denoter has digits on both sides of a '.', "
               "e.g. 1.0e5)");
    ck_message("malformed real denoter '2E-3' (a real denoter has digits on both sides of a '.', "
               "e.g. 2.0E-3)");
    ck_scan("1.0e99999", "real:inf");
    ck_errors(1);
}
END_TEST

START_TEST(test_lexer_string_escapes)
{
    ck_scan("\"a\\n\\t\\v\\b\\r\\f\\a\\\\\\?\\'\\\"z\"", "str:13");
    ck_errors(0);
    ck_assert_mem_eq(last_string.u.str.bytes, "a\n\t\v\b\r\f\a\\?'\"z", 13);
    ck_assert_str_eq(last_string.text, "\"a\\n\\t\\v\\b\\r\\f\\a\\\\\\?\\'\\\"z\"");
    ck_scan("\"\\101\\0\\x41\\x7e\\7\"", "str:5");
    ck_errors(0);
    ck_assert_mem_eq(last_string.u.str.bytes, "A\0A~\a", 5);
    ck_scan("\">>> weights: \"", "str:13");
    ck_scan("\"\"", "str:0");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_string_errors)
{
    scan("\"a\\qb\"");
    ck_errors(1);
    ck_message("unknown escape sequence '\\q'");
    scan("\"\\x\" \"\\777\" \"\\x100\"");
    ck_errors(3);
    ck_message("'\\x' used with no following hex digits");
    ck_message("octal escape sequence '\\777' is out of range");
    ck_message("hex escape sequence '\\x100' is out of range");
}
END_TEST

START_TEST(test_lexer_unterminated_string)
{
    /* raw newline: reported at the opening quote, scanning goes on */
    ck_scan("x := \"abc\ny;", "id:x ':=' str:3 id:y ';'");
    ck_errors(1);
    ck_message("t.nn:1:6: error: unterminated string");
    ck_scan("  \"abc", "str:3");
    ck_errors(1);
    ck_message("t.nn:1:3: error: unterminated string");
    ck_scan("\"ab\r\n\"", "str:2 str:0");
    ck_errors(2);
}
END_TEST

START_TEST(test_lexer_string_backslash_newline)
{
    /* C's continuation line: one message, the string goes on over the
       line end, and its closing quote opens no other string */
    ck_scan("\"ab\\\ncd\" x", "str:4 id:x");
    ck_errors(1);
    ck_message("t.nn:1:4: error: a '\\' at the end of a line does not continue a string");
    ck_assert_mem_eq(last_string.u.str.bytes, "abcd", 4);
    ck_assert_str_eq(positions("\"ab\\\r\ncd\" x"), "1:1 2:5");
    /* the value grows past the first line: a longer next line */
    ck_scan("\"a\\\n0123456789012345678901234567890123456789\\\nxyz\"", "str:44");
    ck_errors(2);
    ck_assert_mem_eq(last_string.u.str.bytes, "a0123456789012345678901234567890123456789xyz", 44);
}
END_TEST

START_TEST(test_lexer_typographic_quotes)
{
    /* one message, and the text up to the closing quote is the string */
    ck_scan("(\xe2\x80\x9c" "a, b: c" "\xe2\x80\x9d)", "'(' str:7 ')'");
    ck_errors(1);
    ck_message("t.nn:1:2: error: non-ASCII character U+201C (a typographic quote: string denoters use '\"')");
    ck_assert_mem_eq(last_string.u.str.bytes, "a, b: c", 7);
    ck_scan("\xe2\x80\x9d" "x\"", "str:1");
    ck_errors(1);
    /* no closing quote on the line: the words stay words */
    ck_scan("\xe2\x80\x9c" "ab\ncd", "id:ab id:cd");
    ck_errors(1);
    ck_scan("\xe2\x80\x9c" "ab\xe2\x80", "id:ab"); /* a cut quote at the end: bad bytes */
    ck_errors(3);
}
END_TEST

START_TEST(test_lexer_adjacent_strings)
{
    ck_scan("\"a\" \"b\"", "str:1 str:1"); /* two tokens, never concatenated */
    ck_errors(0);
}
END_TEST

/* ---- comments -------------------------------------------------------- */

START_TEST(test_lexer_nested_comments)
{
    ck_scan("a (* one (* two *) still *) b", "id:a id:b");
    ck_scan("(**)x(* *) (* ** ( * ) *)y", "id:x id:y");
    ck_errors(0);
    ck_assert_str_eq(positions("(* a\n (* b\n *) c *)\n  z"), "4:3");
}
END_TEST

START_TEST(test_lexer_unterminated_comment)
{
    ck_scan("x\n  (* a (* b *) c\n\n", "id:x");
    ck_errors(1);
    ck_message("t.nn:2:3: error: unterminated comment");
}
END_TEST

START_TEST(test_lexer_comment_close_outside)
{
    ck_scan("a *) b", "id:a '*' ')' id:b");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_c_comment)
{
    /* one message, and the text is skipped as the comment it was meant to be */
    ck_scan("a /* b\n c */ d", "id:a id:d");
    ck_errors(1);
    ck_message("t.nn:1:3: error: '/*' does not start a comment in CuPit");
    ck_assert_str_eq(positions("a /* b\n c */ d\ne"), "1:1 2:7 3:1");
    ck_scan("a /* no end\nb", "id:a id:b"); /* without "*\/" up to the line end */
    ck_errors(1);
    ck_scan("a / *b", "id:a '/' '*' id:b");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_comment_may_hold_any_text)
{
    ck_scan("(* Universit\xc3\xa4t \xff \x01 *) x", "id:x");
    ck_errors(0);
}
END_TEST

/* ---- operators and punctuation ---------------------------------------- */

START_TEST(test_lexer_operators)
{
    ck_scan(":= += -= *= /= %= <-- --> = <> < > <= >= ... ** + - * / % ( ) [ ] . , ; : ?",
            "':=' '+=' '-=' '*=' '/=' '%=' '<--' '-->' '=' '<>' '<' '>' '<=' '>=' '...' "
            "'**' '+' '-' '*' '/' '%' '(' ')' '[' ']' '.' ',' ';' ':' '?'");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_longest_match)
{
    ck_scan("a<-1", "id:a '<' '-' int:1");
    ck_scan("a<--1", "id:a '<--' int:1");
    ck_scan("a--b", "id:a '-' '-' id:b");
    ck_scan("a-->b", "id:a '-->' id:b");
    ck_scan("a**=b", "id:a '**' '=' id:b");
    ck_scan("a<=>b", "id:a '<=' '>' id:b");
    ck_scan("a:=b", "id:a ':=' id:b");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_two_dots)
{
    /* '..' is no CuPit token: one message, read as the '...' meant */
    ck_scan("x.y..z", "id:x '.' id:y '...' id:z");
    ck_errors(1);
    ck_message("t.nn:1:4: error: '..' is not CuPit: an interval is written 'a...b'");
    ck_scan("1..3", "int:1 '...' int:3");
    ck_errors(1);
    ck_scan("0.5..1.5", "real:0.5 '...' real:1.5");
    ck_errors(1);
    ck_scan("a....b", "id:a '...' '.' id:b");
    ck_errors(0);
}
END_TEST

/* ---- positions, white space, bad bytes -------------------------------- */

START_TEST(test_lexer_positions)
{
    ck_assert_str_eq(positions("ab cd\n  e\n\nfg(h)"), "1:1 1:4 2:3 4:1 4:3 4:4 4:5");
    ck_assert_str_eq(positions("\ta\t\tb"), "1:2 1:5"); /* a tab is one column */
    ck_assert_str_eq(positions("a\r\nb\r\n c"), "1:1 2:1 3:2");
    ck_assert_str_eq(positions("x\f y"), "1:1 1:4");
}
END_TEST

START_TEST(test_lexer_illegal_characters)
{
    ck_scan("a $ b", "id:a id:b");
    ck_errors(1);
    ck_message("t.nn:1:3: error: illegal character '$'");
    scan("! # & @ \\ ^ ` { | } ~");
    ck_errors(11);
    scan("'c'");
    ck_errors(2);
    ck_message("string denoters use '\"'");
}
END_TEST

START_TEST(test_lexer_control_characters)
{
    ck_scan("a\x07" "b\x1b", "id:a id:b");
    ck_errors(2);
    ck_message("illegal control character 0x07");
    ck_message("illegal control character 0x1B");
    scan("\"a\x01z\"");
    ck_errors(1);
    ck_message("control character 0x01 in string");
}
END_TEST

START_TEST(test_lexer_nul_bytes)
{
    ck_assert_str_eq(scan_n("a\0b", 3), "id:a id:b");
    ck_errors(1);
    ck_message("t.nn:1:2: error: NUL byte in source text");
    ck_assert_str_eq(scan_n("\"a\0b\" (*\0*) c", 13), "str:2 id:c");
    ck_errors(2);
    ck_assert_str_eq(scan_n("x\0", 2), "id:x");
    ck_errors(1);
}
END_TEST

START_TEST(test_lexer_non_ascii)
{
    ck_scan("a \xc3\xbc b", "id:a id:b");
    ck_errors(1); /* one error for the two-byte character */
    ck_message("non-ASCII character U+00FC");
    ck_scan("\xe2\x82\xac\xf0\x9f\x98\x80", "");
    ck_errors(2);
    ck_message("U+20AC");
    ck_message("U+1F600");
}
END_TEST

/* A byte-order mark at the start is skipped (line 1 counts from after it);
   anywhere else it is a non-ASCII character. */
START_TEST(test_lexer_byte_order_mark)
{
    ck_scan("\xef\xbb\xbf" "a b", "id:a id:b");
    ck_errors(0);
    ck_assert_str_eq(positions("\xef\xbb\xbf" "ab c\nd"), "1:1 1:4 2:1");
    ck_scan("a \xef\xbb\xbf b", "id:a id:b");
    ck_errors(1);
    ck_message("non-ASCII character U+FEFF");
    ck_scan("\xef\xbb\xbf", "");
    ck_errors(0);
}
END_TEST

START_TEST(test_lexer_invalid_utf8)
{
    ck_scan("a \xff\xfe\x80 \xc3 b", "id:a id:b");
    ck_errors(4);
    ck_message("invalid UTF-8 byte 0xFF");
    ck_message("invalid UTF-8 byte 0xC3");
    /* valid UTF-8 inside a string is kept, invalid bytes are reported */
    ck_scan("\"gr\xc3\xbc\xc3\x9f\"", "str:6");
    ck_errors(0);
    scan("\"\xff\"");
    ck_errors(1);
    ck_message("invalid UTF-8 byte 0xFF in string");
}
END_TEST

START_TEST(test_lexer_token_names)
{
    ck_assert_str_eq(lex_token_name(TK_WHILE), "'WHILE'");
    ck_assert_str_eq(lex_token_name(TK_LIDENT), "identifier");
    ck_assert_str_eq(lex_token_name(TK_UIDENT), "type name");
    ck_assert_str_eq(lex_token_name(0), "end of file");
    ck_assert_str_eq(lex_token_name(';'), "';'");
    ck_assert_str_eq(lex_token_name(TK_LARROW), "'<--'");
}
END_TEST

START_TEST(test_lexer_empty_input)
{
    ck_scan("", "");
    ck_scan("  \n\t\r\n (* c *) \n", "");
    ck_errors(0);
}
END_TEST

static Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("identifiers");
    tcase_add_test(tc, test_lexer_lowercase_identifiers);
    tcase_add_test(tc, test_lexer_uppercase_identifiers);
    tcase_add_test(tc, test_lexer_every_keyword);
    tcase_add_test(tc, test_lexer_unknown_keyword_once);
    tcase_add_test(tc, test_lexer_unknown_keyword_repairs);
    tcase_add_test(tc, test_lexer_keyword_prefixes);
    tcase_add_test(tc, test_lexer_underscore_in_identifier);
    suite_add_tcase(s, tc);

    tc = tcase_create("denoters");
    tcase_add_test(tc, test_lexer_integer_denoters);
    tcase_add_test(tc, test_lexer_integer_too_large);
    tcase_add_test(tc, test_lexer_malformed_integer);
    tcase_add_test(tc, test_lexer_real_denoters);
    tcase_add_test(tc, test_lexer_real_denoter_rounds_once);
    tcase_add_test(tc, test_lexer_interval_dots);
    tcase_add_test(tc, test_lexer_malformed_reals);
    tcase_add_test(tc, test_lexer_string_escapes);
    tcase_add_test(tc, test_lexer_string_errors);
    tcase_add_test(tc, test_lexer_unterminated_string);
    tcase_add_test(tc, test_lexer_string_backslash_newline);
    tcase_add_test(tc, test_lexer_typographic_quotes);
    tcase_add_test(tc, test_lexer_adjacent_strings);
    suite_add_tcase(s, tc);

    tc = tcase_create("comments");
    tcase_add_test(tc, test_lexer_nested_comments);
    tcase_add_test(tc, test_lexer_unterminated_comment);
    tcase_add_test(tc, test_lexer_comment_close_outside);
    tcase_add_test(tc, test_lexer_comment_may_hold_any_text);
    tcase_add_test(tc, test_lexer_c_comment);
    suite_add_tcase(s, tc);

    tc = tcase_create("operators");
    tcase_add_test(tc, test_lexer_operators);
    tcase_add_test(tc, test_lexer_longest_match);
    tcase_add_test(tc, test_lexer_two_dots);
    suite_add_tcase(s, tc);

    tc = tcase_create("input");
    tcase_add_test(tc, test_lexer_positions);
    tcase_add_test(tc, test_lexer_illegal_characters);
    tcase_add_test(tc, test_lexer_control_characters);
    tcase_add_test(tc, test_lexer_nul_bytes);
    tcase_add_test(tc, test_lexer_non_ascii);
    tcase_add_test(tc, test_lexer_byte_order_mark);
    tcase_add_test(tc, test_lexer_invalid_utf8);
    tcase_add_test(tc, test_lexer_token_names);
    tcase_add_test(tc, test_lexer_empty_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lexer_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
