/* check_memory.c -- unit tests of the compiler's storage: the arena
 * (src/arena.c), the streaming C emitter (src/emit_c/emit.c) and source
 * files and locations (src/diag.c), and the formatter both use (src/format.c). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/arena.h"
#include "cupitc/diag.h"
#include "cupitc/emit.h"
#include "cupitc/format.h"

#include <limits.h>
#include <stdarg.h>
#include <sys/types.h>
#include <wchar.h>

static bool all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return false;
    return true;
}

START_TEST(test_arena_zeroed_and_aligned)
{
    Arena *a = arena_new();
    /* many chunks' worth, in sizes that are not multiples of 8 */
    for (int i = 0; i < 200000; i++) {
        size_t n = (size_t)(i % 61) + 1;
        unsigned char *p = arena_alloc(a, n);
        ck_assert_msg(((uintptr_t)p & 7) == 0, "allocation %d not 8-aligned", i);
        ck_assert_msg(all_zero(p, n), "allocation %d not zero", i);
        memset(p, 0xAB, n); /* the next allocation must not see this */
    }
    arena_free(a);
}
END_TEST

START_TEST(test_arena_large_blocks)
{
    Arena *a = arena_new();
    char *small = arena_alloc(a, 16);
    memcpy(small, "before", 7);
    /* larger than a chunk: its own mapping; the current chunk stays in use */
    size_t big = 5u * 1024 * 1024 + 3;
    unsigned char *p = arena_alloc(a, big);
    ck_assert(all_zero(p, big));
    p[0] = p[big - 1] = 1;
    char *after = arena_alloc(a, 16);
    ck_assert(all_zero(after, 16));
    ck_assert_ptr_eq(after, small + 16); /* bump allocation went on in place */
    ck_assert_str_eq(small, "before");
    arena_free(a);
}
END_TEST

START_TEST(test_arena_vectors_keep_items)
{
    Arena *a = arena_new();
    PtrVec v = {0}, w = {0};
    static int items[5000];
    for (int i = 0; i < 5000; i++) {
        vec_push(a, &v, &items[i]);
        if (i % 3 == 0) /* interleaved: w's growth cannot always be in place */
            vec_push(a, &w, &items[i]);
        if (i % 7 == 0)
            arena_alloc(a, 24);
    }
    ck_assert_int_eq(v.len, 5000);
    ck_assert_int_ge(v.cap, v.len);
    for (int i = 0; i < 5000; i++)
        ck_assert_ptr_eq(VEC_AT(v, i, int), &items[i]);
    for (int i = 0; i < w.len; i++)
        ck_assert_ptr_eq(VEC_AT(w, i, int), &items[3 * i]);
    arena_free(a);
}
END_TEST

START_TEST(test_arena_printf_long_text)
{
    Arena *a = arena_new();
    ck_assert_str_eq(arena_printf(a, "%s-%d", "x", 42), "x-42");
    char long_text[1000];
    memset(long_text, 'q', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    char *s = arena_printf(a, "<%s>", long_text);
    ck_assert_uint_eq(strlen(s), sizeof long_text + 1);
    ck_assert(s[0] == '<' && s[sizeof long_text] == '>');
    ck_assert_ptr_eq(intern_cstr(a, "name"), intern(a, "name!", 4));
    arena_free(a);
}
END_TEST

/* Emits `lines` numbered lines through an emitter with a sink. */
static bool emit_lines(FILE *f, int lines)
{
    Emitter e;
    emit_init(&e);
    emit_set_sink(&e, f);
    emit_open(&e, "int f(void)");
    for (int i = 0; i < lines; i++)
        emit(&e, "x%d = %d; /* %s */", i, i * 7, "a comment long enough to fill the buffer");
    emit_close(&e, "%s", "");
    bool ok = emit_finish(&e);
    ck_assert_uint_eq(e.len, 0); /* everything went to the sink */
    emit_free(&e);
    return ok;
}

START_TEST(test_emit_streams_in_order)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert(emit_lines(f, 20000)); /* several 64 KB pieces */
    rewind(f);
    char line[256];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "int f(void) {\n");
    for (int i = 0; i < 20000; i++) {
        char want[256];
        snprintf(want, sizeof want, "    x%d = %d; /* %s */\n", i, i * 7,
                 "a comment long enough to fill the buffer");
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        ck_assert_str_eq(line, want);
    }
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "}\n");
    ck_assert_ptr_null(fgets(line, sizeof line, f));
    fclose(f);
}
END_TEST

START_TEST(test_emit_reports_write_errors)
{
    FILE *f = fopen("/dev/full", "wb");
    if (!f)
        return; /* no /dev/full here */
    errno = 0;
    ck_assert(!emit_lines(f, 5000));
    ck_assert_int_eq(errno, ENOSPC);
    fclose(f);
}
END_TEST

START_TEST(test_emit_without_sink_keeps_text)
{
    Emitter e;
    emit_init(&e);
    emit(&e, "a %s", "b");
    emit_raw(&e, "%d", 3);
    ck_assert_str_eq(e.buf, "a b\n3");
    ck_assert(emit_finish(&e));
    ck_assert_str_eq(e.buf, "a b\n3");
    emit_free(&e);
}
END_TEST

START_TEST(test_loc_names_its_file)
{
    SourceFile *f = source_from_string("one.nn", "x\n", 2);
    SourceFile *g = source_from_string("two.nn", "y\n", 2);
    Loc l = loc_at(f, 3, 7), m = loc_at(g, 1, 1);
    ck_assert_uint_eq(sizeof(Loc), 8);
    ck_assert_ptr_eq(loc_file(l), f);
    ck_assert_ptr_eq(loc_file(m), g);
    ck_assert_int_eq(l.line, 3);
    ck_assert_int_eq((int)l.col, 7);
    ck_assert_ptr_null(loc_file((Loc){0}));
    ck_assert_int_eq((int)loc_at(f, 1, LOC_MAX_COL + 100).col, LOC_MAX_COL);
    source_free(f);
    ck_assert_ptr_null(loc_file(l)); /* a freed file is no longer named */
    SourceFile *h = source_from_string("three.nn", "", 0);
    ck_assert_ptr_eq(loc_file(loc_at(h, 1, 1)), h);
    source_free(g);
    source_free(h);
}
END_TEST

START_TEST(test_arena_blocks_between_chunk_sizes)
{
    /* the first chunks are small: a block larger than them but smaller than
       a full chunk gets room of its own, and small allocations go on */
    Arena *a = arena_new();
    char *first = arena_alloc(a, 8);
    size_t mid = 300u * 1024;
    unsigned char *p = arena_alloc(a, mid);
    ck_assert(all_zero(p, mid));
    memset(p, 0xCD, mid);
    for (int i = 0; i < 100000; i++) {
        unsigned char *q = arena_alloc(a, 40);
        ck_assert(all_zero(q, 40));
        memset(q, 0xEF, 40);
    }
    ck_assert(p[0] == 0xCD && p[mid - 1] == 0xCD && all_zero(first, 8));
    arena_reset(a);
    unsigned char *r = arena_alloc(a, 64);
    ck_assert(all_zero(r, 64)); /* the chunk kept by reset is cleared */
    arena_free(a);
}
END_TEST

START_TEST(test_arena_children_and_release)
{
    Arena *a = arena_new();
    Arena *c1 = arena_new_child(a), *c2 = arena_new_child(a);
    memset(arena_alloc(c1, 100), 1, 100);
    memset(arena_alloc(c2, 3u * 1024 * 1024), 2, 3u * 1024 * 1024);
    arena_free(c1); /* early: unlinked from its parent */
    /* a large block given back, and one that stays in use */
    size_t big = 512u * 1024;
    unsigned char *gone = arena_alloc(a, big), *kept = arena_alloc(a, big);
    memset(gone, 3, big);
    memset(kept, 4, big);
    arena_release(a, gone, big);
    arena_release(a, arena_alloc(a, 24), 24); /* small: stays until the arena goes */
    unsigned char *again = arena_alloc(a, big);
    ck_assert(all_zero(again, big));
    ck_assert(kept[0] == 4 && kept[big - 1] == 4);
    arena_free(a); /* frees c2 with it */
}
END_TEST

START_TEST(test_arena_reuses_chunks_cleared)
{
    /* the full-size chunks of a freed arena are taken by the next one that
       grows: what they held must not show */
    for (int round = 0; round < 3; round++) {
        Arena *a = arena_new();
        for (int i = 0; i < 100000; i++) {
            unsigned char *p = arena_alloc(a, 80);
            ck_assert_msg(all_zero(p, 80), "round %d allocation %d not zero", round, i);
            memset(p, 0xAB, 80);
        }
        arena_free(a);
    }
}
END_TEST

START_TEST(test_arena_reserve_and_interning)
{
    Arena *a = arena_new();
    PtrVec v = {0};
    static int items[100];
    vec_push(a, &v, &items[0]);
    vec_reserve(a, &v, 100);
    ck_assert_int_ge(v.cap, 100);
    void **room = v.items;
    for (int i = 1; i < 100; i++) {
        arena_alloc(a, 24); /* interleaved: growth would have to copy */
        vec_push(a, &v, &items[i]);
    }
    ck_assert_ptr_eq(v.items, room); /* no copy within the reserved room */
    for (int i = 0; i < 100; i++)
        ck_assert_ptr_eq(VEC_AT(v, i, int), &items[i]);
    const char *name = intern_cstr(a, "weight");
    ck_assert_ptr_eq(intern(a, "weights", 6), name);
    arena_end_interning(a);
    ck_assert_str_eq(name, "weight"); /* the strings stay */
    arena_free(a);
}
END_TEST

/* Writes `len` bytes of text to a temporary file and returns its name. */
static char *temp_source(const char *text, size_t len)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/check_memory_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    fclose(f);
    return path;
}

START_TEST(test_source_read_and_lines)
{
    /* a short file (mapped), and one of exactly a 4 KB page (read where
       pages are 4 KB: a mapping would have no terminating NUL) */
    static char page[4096];
    memset(page, 'x', sizeof page);
    page[100] = '\n';
    const struct { const char *text; size_t len; } cases[] = {
        {"one\ntwo\n\nfour", 15}, {page, sizeof page}};
    for (int i = 0; i < 2; i++) {
        char *path = temp_source(cases[i].text, cases[i].len);
        const char *why = NULL;
        SourceFile *f = source_read(path, &why);
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(f->len, cases[i].len);
        ck_assert(memcmp(f->text, cases[i].text, cases[i].len) == 0);
        ck_assert_int_eq(f->text[f->len], '\0');
        source_done_scanning(f); /* the text stays readable */
        ck_assert(memcmp(f->text, cases[i].text, cases[i].len) == 0);
        if (i == 0) {
            ck_assert_ptr_eq(source_line(f, 1), f->text);
            ck_assert_ptr_eq(source_line(f, 2), f->text + 4);
            ck_assert_ptr_eq(source_line(f, 3), f->text + 8);
            ck_assert_ptr_eq(source_line(f, 4), f->text + 9);
            ck_assert_ptr_null(source_line(f, 5));
        } else {
            ck_assert_ptr_eq(source_line(f, 2), f->text + 101);
            ck_assert_ptr_null(source_line(f, 3));
        }
        ck_assert_ptr_null(source_line(f, 0));
        source_free(f);
        remove(path);
    }
    SourceFile *e = source_from_string("empty.nn", "", 0);
    ck_assert_ptr_eq(source_line(e, 1), e->text);
    ck_assert_ptr_null(source_line(e, 2));
    source_free(e);
}
END_TEST

/* format_vsn must give exactly what vsnprintf gives, for every room. */
__attribute__((format(printf, 1, 2))) static void same_as_libc(const char *fmt, ...)
{
    char want[512], got[512];
    for (size_t room = 0; room <= 64; room++) {
        va_list a, b;
        va_start(a, fmt);
        int nw = vsnprintf(want, room ? room : 1, fmt, a);
        va_end(a);
        memset(got, 'x', sizeof got);
        va_start(b, fmt);
        int ng = format_vsn(got, room ? room : 1, fmt, b);
        va_end(b);
        ck_assert_int_eq(ng, nw);
        ck_assert_str_eq(got, want);
        if (room == 0)
            continue;
        ck_assert_int_eq(got[room], 'x'); /* nothing past the room */
    }
}

START_TEST(test_format_matches_vsnprintf)
{
    same_as_libc("%s", "");
    same_as_libc("plain text with no directive at all, longer than a few rooms");
    same_as_libc("%s", "");
    same_as_libc("%s.%s = %s;", "ME", "cpS_weight", "0.5");
    same_as_libc("%s", (const char *)NULL == NULL ? "x" : "y");
    same_as_libc("%d %i %u", 0, -7, 4000000000u);
    same_as_libc("%d|%d|%d", INT_MIN, INT_MAX, -1);
    same_as_libc("%ld %lu", LONG_MIN, ULONG_MAX);
    same_as_libc("%lld %llu", LLONG_MIN, ULLONG_MAX);
    same_as_libc("%zu bytes", (size_t)123456789);
    same_as_libc("100%% of %c%c", 'a', 'Z');
    same_as_libc("%s%d%s", "for (int i = ", 42, "; i++)");
    /* directives left to vsnprintf */
    same_as_libc("%g %.17g %03o", 0.1, 1.0 / 3.0, 8);
    same_as_libc("%5d|%-4s|%zd", 3, "ab", (ssize_t)-5);
    same_as_libc("%.*s", 3, "abcdef");
    same_as_libc("%lc", (wint_t)'w');
}
END_TEST

static Suite *memory_suite(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, test_arena_zeroed_and_aligned);
    tcase_add_test(tc, test_arena_large_blocks);
    tcase_add_test(tc, test_arena_vectors_keep_items);
    tcase_add_test(tc, test_arena_printf_long_text);
    tcase_add_test(tc, test_arena_blocks_between_chunk_sizes);
    tcase_add_test(tc, test_arena_children_and_release);
    tcase_add_test(tc, test_arena_reserve_and_interning);
    tcase_add_test(tc, test_arena_reuses_chunks_cleared);
    suite_add_tcase(s, tc);

    tc = tcase_create("emitter");
    tcase_add_test(tc, test_emit_streams_in_order);
    tcase_add_test(tc, test_emit_reports_write_errors);
    tcase_add_test(tc, test_emit_without_sink_keeps_text);
    tcase_add_test(tc, test_format_matches_vsnprintf);
    suite_add_tcase(s, tc);

    tc = tcase_create("locations");
    tcase_add_test(tc, test_loc_names_its_file);
    tcase_add_test(tc, test_source_read_and_lines);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(memory_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
