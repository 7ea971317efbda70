/* check_lower.c -- unit tests of the network shapes, the analyses of the
 * tree (lower/transport.c, lower/uniform.c) and what the IR passes make of
 * them.  Each test builds a small program around one network procedure and
 * checks which reads the transport analysis finds recomputable, which
 * writes need not be stored, and -- in the IR after the passes -- which
 * elements the connection's lane record keeps and which moved to its
 * shared record.  The end-to-end counterpart is tests/run/fusion.nn. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/diag.h"
#include "cupitc/emit.h"
#include "cupitc/lower.h"
#include "cupitc/parse.h"
#include "cupitc/pipeline.h"
#include "cupitc/sema.h"

static Arena *arena;
static SourceFile *source;
static Program *prog;
static LowerPlan *plan;
static Pipeline *pipeline;
static IrModule *module;
static char *dump;
static size_t dump_len;
static const char *globals = ""; /* declarations before the prelude */
static bool library;              /* a --library object */

static void teardown(void)
{
    pipeline_free(pipeline);
    pipeline = NULL;
    if (arena)
        arena_free(arena);
    source_free(source);
    free(dump);
    arena = NULL;
    source = NULL;
    dump = NULL;
}

/* The test program: connection type L, node type U, network N with groups
 * a and b (a.o -> b.i), the network procedures `procs`, and a central agent
 * that builds the net and then runs `calls`. */
static const char *const prelude =
    "PROCEDURE pReal (Real CONST x) IS EXTERNAL;\n"
    "Real IO xs;\n"
    "Real REDUCTION sum IS RETURN ME + YOU; END REDUCTION;"
    " Int REDUCTION addQuot IS RETURN ME + 8 / YOU; END REDUCTION;\n"
    "TYPE L IS CONNECTION\n"
    "  Real w := 1.0, s := 0.0, r := 0.0, bk := 0.0; Int n := 1;\n"
    "  PROCEDURE send (Real CONST v) IS ME.s := v * ME.w; END;\n"
    "  PROCEDURE sendIf (Real CONST v) IS IF v > 0.0 THEN ME.s := v; END; END;\n"
    "  PROCEDURE sendBack (Real CONST e) IS ME.bk := e * ME.w; END;\n"
    "  PROCEDURE noise () IS ME.r := RANDOM (0.0...1.0); END;\n"
    "  PROCEDURE scale () IS ME.w := ME.w * 2.0; END;\n"
    "  PROCEDURE scaleBy (Real CONST f) IS ME.w := ME.w * f; END;\n"
    "  PROCEDURE absorb () IS ME.w := ME.w + ME.s; END;\n"
    "  %s\n"
    "END TYPE;\n"
    "TYPE U IS NODE\n"
    "  IN L i;\n"
    "  OUT L o;\n"
    "  Real v := 1.0, got := 0.0; Int cnt := 0;\n"
    "  PROCEDURE emit () IS ME.o[].send (ME.v); END;\n"
    "  PROCEDURE emitIf () IS ME.o[].sendIf (ME.v); END;\n"
    "  PROCEDURE emitUnlessSmall () IS\n"
    "    IF ME.v < 0.5 THEN RETURN; END;\n"
    "    ME.o[].send (ME.v);\n"
    "  END;\n"
    "  PROCEDURE gather () IS REDUCTION ME.i[].s:sum INTO ME.got; END;"
    " PROCEDURE count () IS REDUCTION ME.i[].n:addQuot INTO ME.cnt; END;\n"
    "  PROCEDURE gatherAbsorb () IS REDUCTION ME.i[].s:sum INTO ME.got; ME.i[].absorb (); END;\n"
    "  PROCEDURE back () IS ME.i[].sendBack (ME.v); END;\n"
    "  PROCEDURE collect () IS REDUCTION ME.o[].bk:sum INTO ME.got; END;\n"
    "  PROCEDURE shake () IS ME.i[].noise (); END;\n"
    "  PROCEDURE rescale () IS ME.i[].scale (); END;\n"
    "  PROCEDURE rescaleBy (Real CONST f) IS ME.i[].scaleBy (f); END;\n"
    "  PROCEDURE absorbIn () IS ME.i[].absorb (); END;\n"
    "  PROCEDURE maybeRescale () IS IF ME.v > 0.5 THEN ME.i[].scale (); END; END;\n"
    "  PROCEDURE pick (Int CONST m) IS IF m = 1 THEN ME.v := 2.0; END; END;\n"
    "  PROCEDURE emitAll (Bool CONST all) IS\n"
    "    IF all THEN ME.o[].send (ME.v); ELSE ME.o[].sendIf (ME.v); END;\n"
    "  END;\n"
    "  PROCEDURE gatherUnless (Int CONST m) IS\n"
    "    ME.v := 0.5; IF m = 1 THEN RETURN; END; REDUCTION ME.i[].s:sum INTO ME.got;\n"
    "  END;\n"
    "  PROCEDURE emitMode (Int CONST m) IS\n"
    "    IF m < 2 OR m = 4 THEN ME.o[].sendIf (ME.v); END;\n"
    "    IF NOT (m <> 2) THEN ME.o[].send (ME.v); END;\n"
    "  END;\n"
    "END TYPE;\n"
    "TYPE G IS GROUP OF U END TYPE;\n"
    "TYPE N IS NETWORK\n"
    "  G a, b;\n"
    "  PROCEDURE build () IS\n"
    "    EXTEND ME.a BY 2; EXTEND ME.b BY 2;\n"
    "    CONNECT ME.a[].o TO ME.b[].i;\n"
    "  END;\n"
    "  %s\n"
    "END TYPE;\n"
    "N VAR net;\n"
    "PROCEDURE program () IS\n"
    "  net.build ();\n"
    "  REPLICATE net INTO 4;\n"
    "  %s\n"
    "END;\n";

/* Builds the program, runs the lowering, keeps its dump. */
static void plan_for(const char *conn_extra, const char *procs, const char *calls, bool fuse)
{
    teardown();
    char *text = NULL;
    size_t len = 0;
    FILE *t = open_memstream(&text, &len);
    fputs(globals, t);
    fprintf(t, prelude, conn_extra, procs, calls);
    fclose(t);
    char *msgs = NULL;
    size_t msgs_len = 0;
    FILE *m = open_memstream(&msgs, &msgs_len);
    diag_configure(&(DiagOptions){.out = m, .color = false, .error_limit = 0});
    diag_reset();
    arena = arena_new();
    ast_set_arena(arena);
    source = source_from_string("t.nn", text, strlen(text));
    prog = parse_program(source, arena);
    if (diag_error_count() == 0)
        sema_analyze(prog, arena);
    fclose(m);
    ck_assert_msg(diag_error_count() == 0, "program not accepted:\n%s\n%s", msgs, text);
    free(msgs);
    plan = lower_program(prog, arena,
                         &(LowerOptions){.lanes = true, .fuse = fuse, .const_branch = fuse,
                                         .library = library, .arithmetic_pure = true});
    FILE *d = open_memstream(&dump, &dump_len);
    lower_dump(plan, d);
    fclose(d);
    /* the IR after the passes (all on, or all off as with -O0) */
    PipelineOptions po = pipeline_defaults("t.nn");
    po.passes.verify = true;
    po.ir.library = library;
    for (int i = 0; i < PASS__COUNT; i++)
        po.passes.on[i] = fuse;
    pipeline_free(pipeline);
    pipeline = pipeline_build(prog, arena, &po);
    ck_assert_msg(pipeline != NULL, "no IR for:\n%s", text);
    module = pipeline_module(pipeline);
    free(text);
}

static bool dumped(const char *what)
{
    return strstr(dump, what) != NULL;
}

static Type *type_named(const char *name)
{
    Symbol *s = sema_scope_find(prog->sema->globals, intern_cstr(arena, name));
    ck_assert_msg(s && s->kind == SYM_TYPE, "no type '%s'", name);
    return s->type;
}

static Symbol *elem_of_l(const char *elem)
{
    Type *l = type_named("L");
    for (int i = 0; i < l->elems.len; i++) {
        Symbol *e = VEC_AT(l->elems, i, Symbol);
        if (!strcmp(e->name, elem))
            return e;
    }
    ck_abort_msg("no element '%s'", elem);
    return NULL;
}

/* The field of element elem of L in the IR's layout of form f, if it is
 * still there. */
static const IrField *ir_field_now(const char *elem, IrForm f)
{
    const IrLayout *l = ir_layout_find(module, type_named("L"), f);
    const IrField *x = l ? ir_field_of(l, elem_of_l(elem)) : NULL;
    return x && !x->dropped ? x : NULL;
}

/* Whether the lane code still keeps elem in memory (per lane or shared). */
static bool kept(const char *elem)
{
    return ir_field_now(elem, IRF_LANE) || ir_field_now(elem, IRF_SHARED);
}

/* Whether elem lives once per lane block (the shared pass moved it). */
static bool shared(const char *elem)
{
    return ir_field_now(elem, IRF_SHARED) != NULL;
}

START_TEST(test_lower_shape)
{
    plan_for("", "", "", true);
    ck_assert_int_eq(lower_net_count(plan), 1);
    LowerNet *n = lower_net_at(plan, 0);
    ck_assert_ptr_eq(n, lower_net_of(plan, type_named("N")));
    ck_assert_int_eq(n->groups.len, 2);
    ck_assert_int_eq(n->nbundles, 1);
    ck_assert_int_eq(n->bundles[0].src_group, 0);
    ck_assert_int_eq(n->bundles[0].dst_group, 1);
    ck_assert_ptr_eq(n->bundles[0].conn, type_named("L"));
}
END_TEST

START_TEST(test_lower_transport_then_reduce)
{
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();",
             true);
    ck_assert_msg(dumped("lazy read of s at line"), "%s", dump);
    ck_assert_msg(dumped("write of s at line 6 not stored"), "%s", dump); /* send */
    ck_assert(!kept("s"));
    ck_assert(kept("w")); /* read by the recomputation: stays */
    /* the sending node type keeps the argument of the call in a slot */
    const PtrVec *slots = lower_node_slots(plan, type_named("U"));
    ck_assert_int_eq(slots->len, 1);
    ck_assert_str_eq(VEC_AT(*slots, 0, LowerSlot)->proc->name, "send");
}
END_TEST

START_TEST(test_lower_saved_values_stored)
{
    /* saveNetworks writes the reunited network: without a MERGE procedure
       it is one exemplar, so the value that outlives the call is stored
       (the read is still recomputed); with one, the elements it does not
       merge are unspecified after the reunion and need not be */
    globals = "PROCEDURE saveNetworks (String CONST file) IS EXTERNAL;\n";
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();",
             true);
    ck_assert_msg(dumped("lazy read of s at line"), "%s", dump);
    ck_assert_msg(!dumped("not stored"), "%s", dump);
    ck_assert(kept("s"));
    plan_for("MERGE IS ME.w := ME.w + YOU.w; END MERGE;",
             "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();", true);
    ck_assert_msg(dumped("write of s at line 7 not stored"), "%s", dump);
    globals = "";
}
END_TEST

START_TEST(test_lower_no_fuse)
{
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();",
             false);
    ck_assert_uint_eq(dump_len, 0);
    ck_assert(kept("s"));
    ck_assert_int_eq(lower_node_slots(plan, type_named("U"))->len, 0);
}
END_TEST

START_TEST(test_lower_read_in_a_later_call)
{
    /* the value crosses network calls: it must be in memory */
    plan_for("",
             "PROCEDURE e () IS ME.a[].emit (); END;\n"
             "PROCEDURE g () IS ME.b[].gather (); END;",
             "net[].e (); net[].g ();", true);
    ck_assert_msg(!dumped("lazy read"), "%s", dump);
    ck_assert_msg(!dumped("not stored"), "%s", dump);
    ck_assert(kept("s"));
}
END_TEST

START_TEST(test_lower_partial_writes)
{
    /* a slice, a condition in the connection, a node that may return
       first: none covers every connection, so older values can be read */
    const char *procs[] = {
        "PROCEDURE f () IS ME.a[0...0].emit (); ME.b[].gather (); END;",
        "PROCEDURE f () IS ME.a[].emitIf (); ME.b[].gather (); END;",
        "PROCEDURE f () IS ME.a[].emitUnlessSmall (); ME.b[].gather (); END;",
        "PROCEDURE f () IS ME.a[1].emit (); ME.b[].gather (); END;",
    };
    for (size_t i = 0; i < sizeof procs / sizeof *procs; i++) {
        plan_for("", procs[i], "net[].f ();", true);
        ck_assert_msg(!dumped("lazy read"), "%s: %s", procs[i], dump);
        ck_assert(kept("s"));
    }
}
END_TEST

START_TEST(test_lower_constant_condition)
{
    /* a Bool CONST argument the call fixes picks the IF arm: with TRUE every
       connection gets s; with FALSE or an unknown value only some may */
    plan_for("", "PROCEDURE f () IS ME.a[].emitAll (true); ME.b[].gather (); END;",
             "net[].f ();", true);
    ck_assert_msg(dumped("lazy read of s"), "%s", dump);
    ck_assert(!kept("s"));
    const char *procs[] = {
        "PROCEDURE f () IS ME.a[].emitAll (false); ME.b[].gather (); END;",
        "PROCEDURE f (Bool CONST x) IS ME.a[].emitAll (x); ME.b[].gather (); END;",
    };
    const char *calls[] = {"net[].f ();", "net[].f (true);"};
    for (size_t i = 0; i < sizeof procs / sizeof *procs; i++) {
        plan_for("", procs[i], calls[i], true);
        ck_assert_msg(!dumped("lazy read of s"), "%s: %s", procs[i], dump);
        ck_assert(kept("s"));
    }
    /* so does an Int CONST argument in a comparison, as const-branch
       decides it: with 2 only send runs; with 4 (or not known) sendIf may */
    plan_for("", "PROCEDURE f () IS ME.a[].emitMode (2); ME.b[].gather (); END;",
             "net[].f ();", true);
    ck_assert_msg(dumped("lazy read of s"), "%s", dump);
    ck_assert(!kept("s"));
    const char *modes[] = {
        "PROCEDURE f () IS ME.a[].emitMode (4); ME.b[].gather (); END;",
        "PROCEDURE f (Int CONST m) IS ME.a[].emitMode (m); ME.b[].gather (); END;",
    };
    const char *mcalls[] = {"net[].f ();", "net[].f (2);"};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        plan_for("", modes[i], mcalls[i], true);
        ck_assert_msg(!dumped("lazy read of s"), "%s: %s", modes[i], dump);
        ck_assert(kept("s"));
    }
}
END_TEST

START_TEST(test_lower_changed_operand)
{
    /* w changes between the write of s and its read: recomputing s then
       would use the new w */
    plan_for("",
             "PROCEDURE f () IS ME.a[].emit (); ME.b[].rescale (); ME.b[].gather (); END;",
             "net[].f ();", true);
    ck_assert_msg(!dumped("lazy read of s"), "%s", dump);
    ck_assert(kept("s"));
}
END_TEST

START_TEST(test_lower_two_writers)
{
    plan_for("",
             "PROCEDURE f () IS ME.a[].emit (); ME.a[].emitIf (); ME.b[].gather (); END;",
             "net[].f ();", true);
    ck_assert_msg(!dumped("lazy read of s"), "%s", dump);
    ck_assert(kept("s"));
}
END_TEST

START_TEST(test_lower_in_side_writer_out_side_read)
{
    plan_for("", "PROCEDURE f () IS ME.b[].back (); ME.a[].collect (); END;", "net[].f ();",
             true);
    ck_assert_msg(dumped("lazy read of bk"), "%s", dump);
    ck_assert(!kept("bk"));
}
END_TEST

START_TEST(test_lower_effects_kept)
{
    /* RANDOM advances the generator: its write stays though nobody reads it */
    plan_for("", "PROCEDURE f () IS ME.b[].shake (); END;", "net[].f ();", true);
    ck_assert_msg(!dumped("write of r"), "%s", dump);
    ck_assert(kept("r"));
}
END_TEST

START_TEST(test_lower_merge_keeps)
{
    plan_for("MERGE IS ME.s += YOU.s; END MERGE;",
             "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();", true);
    ck_assert_msg(!dumped("lazy read of s"), "%s", dump);
    ck_assert_msg(!dumped("write of s"), "%s", dump);
    ck_assert(kept("s"));
}
END_TEST

START_TEST(test_lower_recursion_gives_up)
{
    plan_for("",
             "PROCEDURE f (Int CONST n) IS\n"
             "  IF n > 0 THEN ME.f (n - 1); END;\n"
             "  ME.a[].emit (); ME.b[].gather ();\n"
             "END;",
             "net[].f (2);", true);
    ck_assert_msg(!dumped("lazy read"), "%s", dump);
    ck_assert(kept("s"));   /* written and read in memory */
    ck_assert(!kept("bk")); /* named by no code that runs */
}
END_TEST

/* A recursive network function that touches no node, connection or group
 * (a helper computing with the network's own values) is no reason to give
 * up; one that reaches node code through its recursion is. */
START_TEST(test_lower_local_recursion)
{
    plan_for("",
             "Int FUNCTION twice (Int CONST d) IS RETURN 2 * d; END;\n"
             "Int FUNCTION depth (Int CONST d) IS\n"
             "  IF d <= 0 THEN RETURN 1; END;\n"
             "  RETURN ME.depth (d - 1) * 2 + ME.twice (d);\n"
             "END;\n"
             "PROCEDURE f () IS\n"
             "  Int VAR k := ME.depth (3);\n"
             "  ME.a[].emit (); ME.b[].gather ();\n"
             "END;",
             "net[].f ();", true);
    ck_assert_msg(dumped("lazy read of s"), "%s", dump);
    ck_assert(!kept("s"));
    /* the same recursion through a function that calls node code */
    plan_for("",
             "Int FUNCTION depth (Int CONST d) IS\n"
             "  IF d <= 0 THEN ME.a[].emit (); RETURN 1; END;\n"
             "  RETURN ME.depth (d - 1) * 2;\n"
             "END;\n"
             "PROCEDURE f () IS\n"
             "  Int VAR k := ME.depth (3);\n"
             "  ME.a[].emit (); ME.b[].gather ();\n"
             "END;",
             "net[].f ();", true);
    ck_assert_msg(!dumped("lazy read"), "%s", dump);
    ck_assert(kept("s"));
    /* the local recursive helper is first met inside the check of quiet,
       which is not local (loud emits): the answers kept from that check
       (loud and quiet not local) must leave depth to be found local */
    plan_for("",
             "Int FUNCTION depth (Int CONST d) IS\n"
             "  IF d <= 0 THEN RETURN 1; END;\n"
             "  RETURN ME.depth (d - 1) * 2;\n"
             "END;\n"
             "Int FUNCTION loud (Int CONST d) IS\n"
             "  Int VAR k := ME.depth (d);\n"
             "  ME.a[].emit (); RETURN k;\n"
             "END;\n"
             "Int FUNCTION quiet (Int CONST d) IS RETURN ME.depth (d) + ME.loud (d); END;\n"
             "PROCEDURE f () IS\n"
             "  Int VAR k := ME.quiet (3);\n"
             "  ME.a[].emit (); ME.b[].gather ();\n"
             "END;",
             "net[].f ();", true);
    ck_assert_msg(dumped("lazy read of s"), "%s", dump);
    ck_assert(!kept("s"));
}
END_TEST

START_TEST(test_lower_unreached_instances)
{
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();",
             true);
    LowerNet *n = lower_net_at(plan, 0);
    Type *u = type_named("U");
    Symbol *gather = NULL, *emit = NULL;
    for (int i = 0; i < u->subrs.len; i++) {
        Symbol *s = VEC_AT(u->subrs, i, Symbol);
        if (!strcmp(s->name, "gather"))
            gather = s;
        if (!strcmp(s->name, "emit"))
            emit = s;
    }
    ck_assert(lower_lane_reached(plan, gather, n, 1));
    ck_assert(!lower_lane_reached(plan, gather, n, 0)); /* never called on group a */
    ck_assert(lower_lane_reached(plan, emit, n, 0));
}
END_TEST

/* ---- Bool CONST arguments every call fixes (const-branch) ----------------------- */

static int known_arg_of(const char *proc, int group)
{
    Type *u = type_named("U");
    for (int i = 0; i < u->subrs.len; i++) {
        Symbol *s = VEC_AT(u->subrs, i, Symbol);
        if (!strcmp(s->name, proc))
        {
            int64_t v;
            return lower_known_arg(plan, s, lower_net_at(plan, 0), group, 0, &v) ? (int)v : -1;
        }
    }
    ck_abort_msg("no %s", proc);
    return -2;
}

static int known_emit_all(int group)
{
    return known_arg_of("emitAll", group);
}

static int count_ifs(const IrStmt *s)
{
    if (!s)
        return 0;
    int n = s->kind == IRS_IF;
    for (int i = 0; i < s->list.len; i++)
        n += count_ifs(VEC_AT(s->list, i, IrStmt));
    return n + count_ifs(s->then) + count_ifs(s->els);
}

/* The IF statements of function `name` in the IR after the passes. */
static int ifs_of(const char *name)
{
    for (int i = 0; i < module->funcs.len; i++) {
        const IrFunc *f = VEC_AT(module->funcs, i, IrFunc);
        if (!strcmp(f->name, name))
            return count_ifs(f->body);
    }
    ck_abort_msg("no function %s", name);
    return -1;
}

START_TEST(test_lower_known_args)
{
    static const char *const procs =
        "PROCEDURE f (Bool CONST x) IS ME.a[].emitAll (true); ME.b[].emitAll (x); END;\n"
        "PROCEDURE g () IS ME.a[0].emitAll (true); ME.b[].emitAll (false); END;\n"
        "PROCEDURE h () IS ME.b[1...1].emitAll (true); END;";
    /* group a: true in every call (group and single node); b: the caller's
       parameter, not a constant */
    plan_for("", procs, "net[].f (true); net[].g ();", true);
    ck_assert_int_eq(known_emit_all(0), 1);
    ck_assert_int_eq(known_emit_all(1), -1);
    /* b: false in the only call */
    plan_for("", procs, "net[].g ();", true);
    ck_assert_int_eq(known_emit_all(1), 0);
    /* b: false in one call, true in another (a slice) */
    plan_for("", procs, "net[].g (); net[].h ();", true);
    ck_assert_int_eq(known_emit_all(1), -1);
    /* the lane versions keep only the arm taken: no IF on masks of the
       arms, only the entry's test for an empty mask ... */
    plan_for("", procs, "net[].g ();", true);
    int folded_a = ifs_of("cpNL_N_a_emitAll"), folded_b = ifs_of("cpNL_N_b_emitAll");
    /* ... which the masked IF has, with one test per arm, besides */
    plan_for("", procs, "net[].g (); net[].h ();", true);
    ck_assert_int_eq(ifs_of("cpNL_N_a_emitAll"), folded_a);
    ck_assert_int_ge(ifs_of("cpNL_N_b_emitAll"), folded_b + 2);
    /* Int CONST: a known value, and values that differ (slice 0...0) */
    plan_for("", "PROCEDURE f () IS ME.a[].pick (7); ME.b[].pick (1); ME.b[0...0].pick (2); END;",
             "net[].f ();", true);
    ck_assert_int_eq(known_arg_of("pick", 0), 7);
    ck_assert_int_eq(known_arg_of("pick", 1), -1);
    /* without the analysis (-O0) nothing is known */
    plan_for("", procs, "net[].g ();", false);
    ck_assert_int_eq(known_emit_all(0), -1);
    ck_assert_int_eq(known_emit_all(1), -1);
}
END_TEST

/* ---- elements equal in every replicate (uniform.c) ---------------------------- */

static const char *const train_procs =
    "PROCEDURE learn () IS ME.a[].emit (); ME.b[].gather (); ME.b[].back (); END;\n"
    "PROCEDURE adapt () IS ME.b[].rescale (); END;\n"
    "PROCEDURE absorb () IS ME.b[].absorbIn (); END;\n"
    "PROCEDURE personal () IS ME.b[].rescaleBy (Real (INDEX)); END;\n"
    "PROCEDURE maybe () IS ME.b[].maybeRescale (); END;\n"
    "PROCEDURE shake () IS ME.b[].shake (); END;";

START_TEST(test_lower_shared_after_merge)
{
    /* inputs make s and bk differ between replicates; w changes only after
       MERGE, from equal values */
    plan_for("", train_procs,
             "REPEAT net[].a[].v <-- xs; net[].learn (); MERGE net; net[].adapt ();\n"
             "  UNTIL false END REPEAT;",
             true);
    ck_assert_msg(shared("w"), "%s", dump);
    ck_assert(!shared("bk"));
    ck_assert_msg(dumped("element w shared"), "%s", dump);
    /* MERGE also makes the diverged elements equal again */
    plan_for("", train_procs, "net[].a[].v <-- xs; net[].learn (); MERGE net; net[].absorb ();",
             true);
    ck_assert_msg(shared("w"), "%s", dump);
}
END_TEST

START_TEST(test_lower_not_shared)
{
    const char *calls[] = {
        "net[].a[].v <-- xs; net[].learn (); net[].absorb ();", /* no MERGE between */
        "net[0].adapt ();",                                     /* one replicate */
        "net[1...2].adapt ();",                                 /* some replicates */
        "net[].personal ();",                                   /* INDEX */
        "net[].a[].v <-- xs; net[].b[].v <-- xs; net[].maybe ();", /* diverged condition */
    };
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
        plan_for("", train_procs, calls[i], true);
        ck_assert_msg(!shared("w"), "%s: %s", calls[i], dump);
    }
    plan_for("", train_procs, "net[].shake ();", true);
    ck_assert(!shared("r")); /* RANDOM */
    plan_for("MERGE IS ME.w += YOU.w; END MERGE;", train_procs, "net[].adapt ();", true);
    ck_assert(!shared("w")); /* the MERGE procedure combines it */
    plan_for("", train_procs, "net[].adapt ();", false);
    ck_assert(!shared("w")); /* -fno-fuse */
}
END_TEST

START_TEST(test_lower_merge_writes_callees)
{
    /* a MERGE procedure's recursive callee that calls itself twice: each
       callee is walked once (walking it per call took 2^64 walks), and
       what it writes counts as written by MERGE */
    plan_for("PROCEDURE twice (Int CONST n) IS\n"
             "  IF n > 0 THEN ME.twice (n - 1); ME.twice (n - 1); ELSE ME.w := ME.w * 2.0; END;\n"
             "END;\n"
             "MERGE IS ME.twice (3); END MERGE;",
             train_procs, "net[].adapt ();", true);
    ck_assert_msg(!shared("w"), "%s", dump);
    /* a write through an object function that calls a procedure on its ME,
       from inside an expression, counts too */
    plan_for("PROCEDURE addW (Real CONST x) IS ME.w := ME.w + x; END;\n"
             "Real FUNCTION f (Real CONST x) IS ME.addW (x); RETURN 0.0; END;\n"
             "MERGE IS ME.bk := ME.bk + ME.f (YOU.w); END MERGE;",
             train_procs, "net[].adapt ();", true);
    ck_assert_msg(!shared("w"), "%s", dump);
}
END_TEST

START_TEST(test_lower_merge_callee_fields)
{
    /* a MERGE procedure that calls object subroutines runs lane by lane on
       plain records that get fills and put stores back: the elements its
       callees name (r, only through rr) stay in the lane record although
       no lane code names them */
    plan_for("Real FUNCTION rr () IS RETURN ME.r; END;"
             " PROCEDURE setBk (Real CONST z) IS ME.bk := z; END;"
             " MERGE IS ME.setBk (ME.rr () + YOU.rr ()); END MERGE;",
             "PROCEDURE gat () IS ME.a[].collect (); END;", "MERGE net; net[].gat ();", true);
    ck_assert_msg(kept("r"), "%s", dump);
    ck_assert_msg(kept("bk"), "%s", dump);
    /* a MERGE on the lane records: an element no code names leaves */
    plan_for("MERGE IS ME.bk += YOU.bk; END MERGE;", "PROCEDURE gat () IS ME.a[].collect (); END;",
             "MERGE net; net[].gat ();", true);
    ck_assert_msg(!kept("r"), "%s", dump);
    ck_assert_msg(kept("bk"), "%s", dump);
}
END_TEST

/* Whether statement k of `program` (0 = net.build ()) is a call that every
 * replicate computes alike. */
static bool uniform_stmt(int k)
{
    Symbol *p = sema_scope_find(prog->sema->globals, intern_cstr(arena, "program"));
    Stmt *s = VEC_AT(p->decl->u.subr.body->stmts, k, Stmt);
    ck_assert_int_eq(s->kind, STMT_OBJCALL);
    return lower_call_uniform(plan, s->u.call.call);
}

START_TEST(test_lower_library_entries)
{
    /* `poke`, a second global procedure (the calls close program's body),
       makes w differ between replicates; only program runs in a program,
       but the host of a --library object may call poke and then program */
    const char *calls = "net[].adapt ();\nEND;\nPROCEDURE poke () IS net[].personal ();";
    plan_for("", train_procs, calls, true);
    ck_assert_msg(shared("w"), "%s", dump);
    library = true;
    plan_for("", train_procs, calls, true);
    library = false;
    ck_assert_msg(!shared("w"), "%s", dump);
    /* after MERGE every replicate is equal however the host got there */
    library = true;
    plan_for("", train_procs, "MERGE net; net[].adapt ();", true);
    library = false;
    ck_assert_msg(uniform_stmt(3), "%s", dump);
}
END_TEST

START_TEST(test_lower_uniform_calls)
{
    /* statements: 0 build, 1 REPLICATE, then the calls */
    plan_for("", train_procs,
             "net[].a[].v <-- xs; net[].learn (); MERGE net; net[].adapt (); net[].absorb ();\n"
             "net[].learn (); net[0].adapt (); net[].personal ();",
             true);
    ck_assert(!uniform_stmt(3)); /* learn: the inputs differ */
    ck_assert(uniform_stmt(5));  /* adapt right after MERGE */
    ck_assert(uniform_stmt(6));  /* absorb: still all equal */
    ck_assert(uniform_stmt(7));  /* learn again: v was merged too */
    ck_assert(!uniform_stmt(8)); /* one replicate */
    ck_assert(!uniform_stmt(9)); /* INDEX */
    /* a call that prints runs once per replicate */
    plan_for("", "PROCEDURE say () IS pReal (1.0); END;", "MERGE net; net[].say ();", true);
    ck_assert(!uniform_stmt(3));
    /* so does a global function that stores into a global variable, also
       through another function; one that only computes does not */
    globals = "Int VAR h := 0;\n"
              "Real FUNCTION bump (Real CONST x) IS h += 1; RETURN x; END;\n"
              "Real FUNCTION same (Real CONST x) IS RETURN x; END;\n"
              "Real FUNCTION viaBump (Real CONST x) IS RETURN same (bump (x)); END;\n";
    plan_for("",
             "PROCEDURE c1 () IS ME.b[].rescaleBy (bump (2.0)); END;\n"
             "PROCEDURE c2 () IS ME.b[].rescaleBy (same (2.0)); END;\n"
             "PROCEDURE c3 () IS ME.b[].rescaleBy (viaBump (2.0)); END;",
             "MERGE net; net[].c1 (); MERGE net; net[].c2 (); MERGE net; net[].c3 ();", true);
    globals = "";
    ck_assert(!uniform_stmt(3));
    ck_assert(uniform_stmt(5));
    ck_assert(!uniform_stmt(7));
}
END_TEST

/* Whether the module has a function of that name. */
static bool has_fn(const char *name)
{
    for (int i = 0; i < module->funcs.len; i++)
        if (!strcmp(VEC_AT(module->funcs, i, IrFunc)->name, name))
            return true;
    return false;
}

/* The IR dump of MERGE callee `name` (its body built if streamed), up to the
 * next function; "" if there is none.  Freed by the caller. */
static char *fn_dump(const char *name)
{
    char *all = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&all, &len);
    ck_assert(pipeline_dump(pipeline, f));
    fclose(f);
    char head[128];
    snprintf(head, sizeof head, "func merge-callee %s(", name);
    char *at = strstr(all, head);
    char *out = strdup(at ? at : "");
    free(all);
    char *next = strstr(out + 1, "\nfunc ");
    if (next)
        *next = 0;
    return out;
}

/* An object function that can call itself checks the stack in every
 * version, also in the one MERGE procedures call (cpMI_); one that
 * cannot, in none. */
START_TEST(test_lower_merge_callee_stack_check)
{
    plan_for("Int FUNCTION deep (Int CONST d) IS IF d <= 0 THEN RETURN ME.n; END;"
             " RETURN ME.deep (d - 1) + 1; END;\n"
             "  Int FUNCTION flat () IS RETURN ME.n + 1; END;\n"
             "  MERGE IS ME.n := ME.deep (YOU.n) + YOU.flat (); END MERGE;",
             "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();", true);
    ck_assert(has_fn("cpMI_L_deep"));
    char *deep = fn_dump("cpMI_L_deep"), *flat = fn_dump("cpMI_L_flat");
    ck_assert_msg(strstr(deep, "rt_stack_check"), "%s", deep);
    ck_assert_msg(*flat && !strstr(flat, "rt_stack_check"), "%s", flat);
    free(deep);
    free(flat);
}
END_TEST

typedef struct ReduceCount {
    IrReduceKind kind;
    int n;
} ReduceCount;

static bool count_reduce(IrVisitor *v, IrStmt *s)
{
    ReduceCount *rc = v->data;
    if (s->kind == IRS_REDUCE && s->red->kind == rc->kind)
        rc->n++;
    return true;
}

/* How many reductions of that kind function `name` holds. */
static int reductions(const char *name, IrReduceKind kind)
{
    for (int i = 0; i < module->funcs.len; i++) {
        IrFunc *f = VEC_AT(module->funcs, i, IrFunc);
        if (strcmp(f->name, name) != 0)
            continue;
        ReduceCount rc = {.kind = kind};
        IrVisitor v = {.stmt = count_reduce, .data = &rc};
        ir_walk_stmt(&v, f->body);
        return rc.n;
    }
    ck_abort_msg("no function '%s'", name);
    return 0;
}

START_TEST(test_lower_lane_reduce_masks)
{
    /* a sum combines in every lane, in a vector register with the passes on */
    const char *calls = "net[1].f ();";
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); ME.b[].count (); END;", calls, true);
    ck_assert_int_eq(reductions("cpNL_N_b_gather", IRR_VSUM), 1);
    /* a function that divides combines only in the active lanes: an inactive
       lane's candidates may be 0 */
    ck_assert_int_eq(reductions("cpNL_N_b_count", IRR_LANES_MASKED), 1);
    ck_assert_int_eq(reductions("cpNL_N_b_count", IRR_LANES), 0);
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); ME.b[].count (); END;", calls, false);
    ck_assert_int_eq(reductions("cpNL_N_b_gather", IRR_LANES), 1);
    ck_assert_int_eq(reductions("cpNL_N_b_count", IRR_LANES_MASKED), 1);
}
END_TEST

START_TEST(test_lower_dense)
{
    /* b's sums over the full bundle a -> b become one kernel call: the
       procedure without its sum is made for the kernel's branch */
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();", true);
    ck_assert(has_fn("cpNRest_N_b_gather"));
    /* not on a slice of the group */
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[0...0].gather (); END;", "net[].f ();", true);
    ck_assert(!has_fn("cpNRest_N_b_gather"));
    /* not when the rest of the procedure changes what the sums read */
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gatherAbsorb (); END;", "net[].f ();", true);
    ck_assert(!has_fn("cpNRest_N_b_gatherAbsorb"));
    /* after an assignment to ME, also when the call's constant drops a
       RETURN before the sum; not when it keeps it: that RETURN clears the
       mask the sum runs under */
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gatherUnless (2); END;", "net[].f ();", true);
    ck_assert(has_fn("cpNRest_N_b_gatherUnless"));
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gatherUnless (1); END;", "net[].f ();", true);
    ck_assert(!has_fn("cpNRest_N_b_gatherUnless"));
    /* nor with the passes off (-O0) */
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();", false);
    ck_assert(!has_fn("cpNRest_N_b_gather"));
}
END_TEST

/* How many calls of the lane (cpML_) or plain (cpM_) version of network
 * procedure `proc` the generated C of `program` makes. */
static int calls_in_program(const char *prefix, const char *proc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    Emitter em;
    emit_init(&em);
    emit_set_sink(&em, f);
    ck_assert(pipeline_print(pipeline, &em));
    ck_assert(emit_finish(&em));
    emit_free(&em);
    fclose(f);
    const char *start = strstr(text, "void cpF_program(void) {");
    ck_assert(start != NULL);
    const char *end = strstr(start, "\n}\n");
    char call[64];
    snprintf(call, sizeof call, "%s_N_%s(", prefix, proc);
    int n = 0;
    for (const char *q = strstr(start, call); q && q < end; q = strstr(q + 1, call))
        n++;
    free(text);
    return n;
}

static int lane_calls_in_program(const char *proc)
{
    return calls_in_program("cpML", proc);
}

static int plain_calls_in_program(const char *proc)
{
    return calls_in_program("cpM", proc);
}

START_TEST(test_lower_rep_state)
{
    const char *procs = "PROCEDURE f () IS ME.a[].emit (); END; PROCEDURE g () IS ME.b[].gather (); END;";
    /* replicated INTO the constant 4: in lane blocks, the plain path goes */
    plan_for("", procs, "net[].f (); net[1].g ();", true);
    ck_assert_int_gt(lane_calls_in_program("f"), 0);
    ck_assert_int_eq(plain_calls_in_program("f"), 0);
    ck_assert_int_gt(lane_calls_in_program("g"), 0);
    ck_assert_int_eq(plain_calls_in_program("g"), 0);
    plan_for("", procs, "net[].f (); net[1].g ();", false);
    ck_assert_int_gt(plain_calls_in_program("f"), 0);
    ck_assert_int_gt(plain_calls_in_program("g"), 0);
    /* INTO an interval: either form */
    plan_for("", procs, "REPLICATE net INTO 1; REPLICATE net INTO 2...9; net[].f ();", true);
    ck_assert_int_gt(lane_calls_in_program("f"), 0);
    ck_assert_int_gt(plain_calls_in_program("f"), 0);
    /* after INTO 1 the network is plain: the lane path goes, and the C
       compiler never sees the lane version called */
    plan_for("", procs, "REPLICATE net INTO 1; net[].f ();", true);
    ck_assert_int_eq(lane_calls_in_program("f"), 0);
    /* ... but not with the passes off (-O0) */
    plan_for("", procs, "REPLICATE net INTO 1; net[].f ();", false);
    ck_assert_int_gt(lane_calls_in_program("f"), 0);
    /* an IF that does not replicate keeps what is known; one that may, not */
    plan_for("", procs, "REPLICATE net INTO 1; IF MAXINDEX (net) = 0 THEN net[].g (); END; net[].f ();",
             true);
    ck_assert_int_eq(lane_calls_in_program("f"), 0);
    ck_assert_int_eq(lane_calls_in_program("g"), 0);
    plan_for("", procs,
             "REPLICATE net INTO 1; IF MAXINDEX (net) = 0 THEN REPLICATE net INTO 3; END; net[].f ();",
             true);
    ck_assert_int_gt(lane_calls_in_program("f"), 0);
    /* a loop that replicates: unknown from its start, known again after
       INTO 1 inside it */
    plan_for("", procs,
             "REPLICATE net INTO 1;\n"
             "REPEAT net[].f (); REPLICATE net INTO 1; net[].g (); REPLICATE net INTO 2; UNTIL true END;",
             true);
    ck_assert_int_gt(lane_calls_in_program("f"), 0);
    ck_assert_int_gt(plain_calls_in_program("f"), 0);
    ck_assert_int_eq(lane_calls_in_program("g"), 0);
    /* INTO an interval, or a count that is not the constant 1 */
    plan_for("", procs, "REPLICATE net INTO 1; REPLICATE net INTO 1...1; net[].f ();", true);
    ck_assert_int_gt(lane_calls_in_program("f"), 0);
}
END_TEST

/* The generated C of the program plan_for built (free it). */
static char *generated_c(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    Emitter em;
    emit_init(&em);
    emit_set_sink(&em, f);
    ck_assert(pipeline_print(pipeline, &em));
    ck_assert(emit_finish(&em));
    emit_free(&em);
    fclose(f);
    return text;
}

START_TEST(test_lower_large_values_off_stack)
{
    /* values larger than 64 KB: results through cp_res into heap
       temporaries, constructors member by member; none as a C value
       parameter, result or compound literal (tests/run/reduce-large has
       the REDUCTION operands by address) */
    globals = "TYPE Big IS ARRAY 3000000 OF Int END TYPE;\n"
              "TYPE P IS RECORD Int k; Big b; END TYPE;\n"
              "Big FUNCTION mk (Int CONST v) IS Big VAR b; b[v] := v; RETURN b; END;\n"
              "Int FUNCTION get (Big CONST b; Int CONST i) IS RETURN b[i]; END;\n"
              "Int FUNCTION pk (P CONST p) IS RETURN p.k; END;\n";
    plan_for("", "", "pReal (Real (get (mk (1), 1) + pk (P (2, mk (3)))));", true);
    globals = "";
    char *c = generated_c();
    ck_assert(strstr(c, "cpT_Big (*cpF_mk(cp_int v_v CP_UNUSED, cpT_Big *restrict cp_res))") != NULL);
    ck_assert(strstr(c, "return (*cp_res = ") != NULL);
    ck_assert(strstr(c, "(*cpF_mk(((cp_int)((cp_int1)1)), bigv") != NULL);
    ck_assert(strstr(c, "->k = ") != NULL);  /* P (2, ...) member by member */
    ck_assert(strstr(c, "(cpT_P){") == NULL); /* no compound literal of P */
    ck_assert(strstr(c, "cpT_Big cpF_") == NULL);
    ck_assert(strstr(c, "cpT_Big v_") == NULL);
    free(c);
    /* small values as before */
    plan_for("", "PROCEDURE f () IS ME.a[].emit (); ME.b[].gather (); END;", "net[].f ();", true);
    c = generated_c();
    ck_assert(strstr(c, "cp_real cpR_sum(cp_real me CP_UNUSED, cp_real you CP_UNUSED)") != NULL);
    ck_assert(strstr(c, "cp_res") == NULL && strstr(c, "bigv") == NULL);
    free(c);
}
END_TEST

static Suite *lower_suite(void)
{
    Suite *s = suite_create("lower");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_lower_shape);
    tcase_add_test(tc, test_lower_transport_then_reduce);
    tcase_add_test(tc, test_lower_saved_values_stored);
    tcase_add_test(tc, test_lower_no_fuse);
    tcase_add_test(tc, test_lower_read_in_a_later_call);
    tcase_add_test(tc, test_lower_partial_writes);
    tcase_add_test(tc, test_lower_constant_condition);
    tcase_add_test(tc, test_lower_changed_operand);
    tcase_add_test(tc, test_lower_two_writers);
    tcase_add_test(tc, test_lower_in_side_writer_out_side_read);
    tcase_add_test(tc, test_lower_effects_kept);
    tcase_add_test(tc, test_lower_merge_keeps);
    tcase_add_test(tc, test_lower_recursion_gives_up);
    tcase_add_test(tc, test_lower_unreached_instances);
    tcase_add_test(tc, test_lower_shared_after_merge);
    tcase_add_test(tc, test_lower_not_shared);
    tcase_add_test(tc, test_lower_merge_writes_callees);
    tcase_add_test(tc, test_lower_merge_callee_fields);
    tcase_add_test(tc, test_lower_library_entries);
    tcase_add_test(tc, test_lower_uniform_calls);
    tcase_add_test(tc, test_lower_dense);
    tcase_add_test(tc, test_lower_rep_state);
    tcase_add_test(tc, test_lower_known_args);
    tcase_add_test(tc, test_lower_local_recursion);
    tcase_add_test(tc, test_lower_merge_callee_stack_check);
    tcase_add_test(tc, test_lower_lane_reduce_masks);
    tcase_add_test(tc, test_lower_large_values_off_stack);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lower_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
