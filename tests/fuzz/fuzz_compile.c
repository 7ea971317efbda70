/* fuzz_compile.c -- libFuzzer harness for the whole compiler (make fuzz).
 *
 * Each input is a CuPit source.  It goes through the front end, semantic
 * analysis (with the warnings of -Wall), the lowering to the loop IR, the
 * IR passes with the verifier after each, and the C printer, as
 * `cupitc -Wall -S --verify-ir` would, with diagnostics discarded; only a
 * crash, a sanitizer report, a verifier fault, a leak or a hang is a
 * finding.  The input's length picks the variant (default, --no-lanes,
 * every pass off, one pass off), so every variant is covered without
 * changing the language of the inputs.
 *
 * Built with -DFUZZ_WITH_CC, the harness also compiles the generated C with
 * the C compiler (-fsyntax-only) for one accepted program in FUZZ_CC_EVERY
 * (environment, default 20): generated C that does not compile is a bug of
 * cupitc, reported as a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/diag.h"
#include "cupitc/emit.h"
#include "cupitc/parse.h"
#include "cupitc/pipeline.h"
#include "cupitc/print_c.h"
#include "cupitc/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

#ifdef FUZZ_WITH_CC
/* Compiles the C text with $CC -fsyntax-only; aborts when it fails. */
static void compile_c(const Emitter *em)
{
    static long every = -1, seen = 0;
    if (every < 0) {
        const char *e = getenv("FUZZ_CC_EVERY");
        every = e && atol(e) > 0 ? atol(e) : 20;
    }
    if (seen++ % every != 0)
        return;
    char path[] = "/tmp/cupitc-fuzz-XXXXXX.c";
    int fd = mkstemps(path, 2);
    if (fd < 0)
        return;
    /* without a sink the emitter keeps the whole text */
    FILE *f = fdopen(fd, "w");
    if (!f || fwrite(em->buf, 1, em->len, f) != em->len || fclose(f) != 0) {
        unlink(path);
        return;
    }
    const char *cc = getenv("CC");
    const char *inc = getenv("FUZZ_RT_INCLUDE");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s -std=c11 -fsyntax-only -fopenmp -w -I%s %s 2>/dev/null",
             cc && *cc ? cc : "cc", inc && *inc ? inc : "build/include/cupit", path);
    int st = system(cmd);
    if (st != 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1) {
        fprintf(stderr, "fuzz_compile: the C compiler rejected the generated code "
                        "(kept in %s)\n", path);
        abort();
    }
    unlink(path);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink)
        sink = fopen("/dev/null", "w");
    diag_reset();
    diag_configure(&(DiagOptions){.out = sink, .error_limit = 20});
    SourceFile *src = source_from_string("fuzz.nn", (const char *)data, size);
    Arena *arena = arena_new();
    ast_set_arena(arena);
    Program *prog = parse_program(src, arena);
    if (diag_error_count() == 0 && sema_analyze(prog, arena) && diag_error_count() == 0) {
        sema_warnings(prog, SEMA_WARN_ALL); /* -Wall */
        PipelineOptions po = pipeline_defaults("fuzz.nn");
        po.ir.line_directives = true;
        po.passes.verify = true;
        switch (size % 4) {
        case 1: po.ir.lanes = false; break;                      /* --no-lanes */
        case 2: memset(po.passes.on, 0, sizeof po.passes.on); break; /* -O0 */
        case 3: po.passes.on[(size / 4) % PASS__COUNT] = false; break; /* -fno-PASS */
        default: break;
        }
        Emitter em;
        emit_init(&em);
        Pipeline *pl = pipeline_build(prog, arena, &po);
        bool ok = pl && pipeline_print(pl, &em);
        if (ok) {
#ifdef FUZZ_WITH_CC
            compile_c(&em);
#endif
        } else if (diag_error_count() == 0) {
            /* no diagnostic: the verifier found a fault (reported on stderr) */
            abort();
        }
        pipeline_free(pl);
        emit_free(&em);
    }
    arena_free(arena);
    source_free(src);
    return 0;
}
