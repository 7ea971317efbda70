/* main.c -- the cupitc driver.
 *
 * Pipeline: read source -> parse (front end) -> semantic analysis ->
 * C emission -> system C compiler.  Each phase reports through diag.h; the
 * driver stops after the first phase with errors.  Exit status: 0 success,
 * 1 errors in the input (or a failed C compilation), 2 usage errors. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/diag.h"
#include "cupitc/emit.h"
#include "cupitc/lower.h"
#include "cupitc/lower_ir.h"
#include "cupitc/output.h"
#include "cupitc/passes.h"
#include "cupitc/pipeline.h"
#include "cupitc/print_c.h"
#include "cupitc/parse.h"
#include "cupitc/sema.h"
#include "cupitc/stdlib_sigs.h"
#include "cupitc/toolchain.h"

#define CUPITC_VERSION "0.1.0"

enum { EXIT_INPUT_ERROR = 1, EXIT_USAGE = 2 };

typedef enum Stop {
    STOP_LINK,    /* default: an executable */
    STOP_OBJECT,  /* -c */
    STOP_C,       /* -S / --emit-c */
    STOP_SYNTAX,  /* -fsyntax-only: parse and analyse */
} Stop;

typedef struct Options {
    const char *input;
    const char *output;
    Stop stop;
    bool dump_ast;   /* --dump-ast: the tree after semantic analysis */
    bool dump_parse; /* --dump-parse: the tree as parsed */
    bool line_directives;
    bool openmp;
    bool portable;   /* --portable: no host tuning */
    bool library;    /* --library: an object with the API of cupit_embed.h */
    bool check_index;
    bool check_overflow;
    bool lanes;
    int pass_on[PASS__COUNT]; /* -fPASS / -fno-PASS: 1 / 0, -1 default (on unless -O0) */
    bool verify_ir;   /* --verify-ir (or CUPITC_VERIFY_IR=1): check the IR after every pass */
    bool dump_ir;     /* --dump-ir: the IR after the passes */
    bool dump_passes; /* --dump-passes: what each pass changed */
    int builtins; /* -1: default (on unless user C or object files are given) */
    bool debug;
    bool verbose;
    unsigned warn;  /* SEMA_WARN_*: -Wall / -Wextra, -WNAME, -Wno-NAME (src/sema/warnings.c) */
    bool werror;    /* -Werror */
    bool no_warn;   /* -w */
    const char *opt_level;
    int error_limit;
    const char **extra; /* C files, objects, -l, -L, -Xcc arguments */
    int nextra;
    char **owned;       /* names made here ("./-x.c"), freed with the options */
    int nowned;
} Options;

static void options_free(Options *o)
{
    for (int i = 0; i < o->nowned; i++)
        free(o->owned[i]);
    free(o->owned);
    free(o->extra);
}

static void usage(FILE *out)
{
    fputs("usage: cupitc [options] FILE.nn [more.c ...] [-o OUT]\n"
          "       cupitc [options] prog.o [more.o more.c -lLIB ...] [-o OUT]   (link only)\n"
          "  FILE.nn may be '-': the program is read from standard input\n"
          "\n"
          "Compiles a CuPit program to an executable: C with OpenMP, then the\n"
          "system C compiler ($CC, default cc) and the cupitc runtime library.\n"
          "\n"
          "options:\n"
          "  -o FILE            write the output to FILE (default a.out, FILE.c with -S,\n"
          "                     FILE.o with -c); -o - writes the C (-S) or the object\n"
          "                     file (-c) to standard output\n"
          "  -S, --emit-c       write the generated C and stop (wins over -c)\n"
          "  -c                 stop at the object file\n"
          "  --                 end of the options: the arguments after it are files\n"
          "  -fsyntax-only      check the program, produce no output\n"
          "  -O0 -O1 -O2 -O3    optimisation of the C compiler (default -O2)\n"
          "  -g                 debuggable output (#line directives name the .nn file)\n"
          "  -v                 show the C compiler command\n"
          "  -Wall              warn about unused variables and parameters, values set\n"
          "                     and never read, MERGE sums that grow without bound,\n"
          "                     real denoters beyond the Real range (infinity)\n"
          "  -Wextra            -Wall, and LSHIFT of a denoter (of type Int1 or Int2)\n"
          "  -WNAME, -Wno-NAME  turn one warning on / off, NAME as a warning names it:\n"
          "                     unused-variable, unused-but-set-variable,\n"
          "                     unused-parameter (all three: unused),\n"
          "                     merge-accumulates, real-infinity, narrow-shift\n"
          "  -Werror            make warnings errors;  -w  no warnings\n"
          "  --no-line          no #line directives in the generated C\n"
          "  --no-openmp        build without OpenMP (serial program)\n"
          "  --library          an object file without main, with the C API of\n"
          "                     cupit_embed.h (cupit_init, cupit_call, cupit_io, ...)\n"
          "  --portable         code for any machine of the architecture (default: tuned\n"
          "                     for this machine's CPU, -march=native)\n"
          "  --no-checks        drop the subscript range checks\n"
          "  --check-overflow   make integer overflow a run-time error (default: wraps)\n"
          "  -fno-builtin       call sigmoid, sigmoidPrime, absReal, signReal, minReal\n"
          "                     and maxReal through the library, not inline (the\n"
          "                     default when C or object files are given)\n"
          "  --no-lanes         run replicated networks one replicate at a time\n"
          "                     instead of in SIMD lane blocks\n"
          "  -fno-PASS, -fPASS  turn an optimisation pass of the loop IR off / on (all\n"
          "                     off with -O0): dce, fuse, shared, merge-first, batch,\n"
          "                     rep-state, vsum, dense, drop-fields, const-branch\n"
          "                     (docs/ir.md)\n"
          "  -lLIB, -LDIR       passed to the linker (also -l LIB, -L DIR)\n"
          "  -Xcc FLAG          pass FLAG to the C compiler\n"
          "  FILE.c, FILE.o     compiled and linked with the program (EXTERNAL code)\n"
          "  --dump-parse       print the syntax tree as parsed and stop\n"
          "  --dump-ast         print the analysed syntax tree and stop\n"
          "  --dump-ir          print the loop IR after the passes and stop\n"
          "  --dump-passes      print what each pass changed and stop\n"
          "  --verify-ir        check the IR after lowering and after every pass\n"
          "  -ferror-limit=N    stop after N errors (default 20, 0 = no limit)\n"
          "  --help             show this help\n"
          "  --version          show the version\n",
          out);
}

/* C files, objects or libraries (-l) that may define EXTERNAL subroutines. */
static bool has_link_inputs(const Options *o)
{
    for (int i = 0; i < o->nextra; i++)
        if (o->extra[i][0] != '-' || strncmp(o->extra[i], "-l", 2) == 0)
            return true;
    return false;
}

static bool parse_int_arg(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 1000000)
        return false;
    *out = (int)v;
    return true;
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static void add_extra(Options *o, const char *a)
{
    const char **v = realloc(o->extra, (size_t)(o->nextra + 1) * sizeof *v);
    if (!v) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    v[o->nextra++] = a;
    o->extra = v;
}

/* Keeps a name made here until the options are freed; returns it. */
static const char *add_owned(Options *o, char *name)
{
    char **v = realloc(o->owned, (size_t)(o->nowned + 1) * sizeof *v);
    if (!v) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    v[o->nowned++] = name;
    o->owned = v;
    return name;
}

/* A file argument: a C file, object or library, else the CuPit source.
 * Returns -1 to go on, or an exit status: a C file, object or library that
 * cannot be read is an input error (as a missing CuPit source is), two
 * CuPit sources a usage error. */
static int add_file(Options *o, const char *a)
{
    if (has_suffix(a, ".c") || has_suffix(a, ".o") || has_suffix(a, ".a") ||
        has_suffix(a, ".so")) {
        if (access(a, R_OK) != 0) {
            fprintf(stderr, "cupitc: error: cannot read '%s': %s\n", a, strerror(errno));
            return EXIT_INPUT_ERROR;
        }
        if (a[0] == '-') {
            /* a file named like an option (given after --): "./-x.c", so
               that neither the C compiler nor the split of `extra` into
               files and flags takes it for one */
            char *name = malloc(strlen(a) + 3);
            if (!name) {
                fputs("cupitc: fatal error: out of memory\n", stderr);
                exit(3);
            }
            sprintf(name, "./%s", a);
            a = add_owned(o, name);
        }
        add_extra(o, a);
    } else if (o->input) {
        fprintf(stderr, "cupitc: error: more than one CuPit source file ('%s' and '%s')\n",
                o->input, a);
        return EXIT_USAGE;
    } else {
        o->input = a;
    }
    return -1;
}

/* -o -: the output goes to standard output (-S and -c). */
static bool to_stdout(const Options *o)
{
    return o->output && strcmp(o->output, "-") == 0;
}

/* Whether `a` is an option of the generated programs (running.md), given
   to cupitc by mistake: `cupitc prog.nn --threads 4`. */
static bool program_option(const char *a)
{
    static const char *const names[] = {
        "--seed", "--threads", "--data", "--bias", "--csv-outputs", "--symmetric",
        "--max-epochs", "--protocol", "--no-protocol", "--report", "--summary", "--param",
        "--set", "--deterministic", "--memory-limit", "--par-work"};
    size_t n = strcspn(a, "=");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && strncmp(a, names[i], n) == 0)
            return true;
    return false;
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, Options *o)
{
    o->error_limit = 20;
    o->line_directives = true;
    o->openmp = true;
    o->check_index = true;
    o->builtins = -1;
    for (int p = 0; p < PASS__COUNT; p++)
        o->pass_on[p] = -1;
    o->lanes = true;
    o->opt_level = "-O2";
    bool options = true; /* false after "--": every argument is a file */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = false;
        } else if (!options) {
            int st = add_file(o, a);
            if (st >= 0)
                return st;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("cupitc " CUPITC_VERSION "\n");
            return 0;
        } else if (strcmp(a, "-fsyntax-only") == 0) {
            o->stop = STOP_SYNTAX;
        } else if (strcmp(a, "-S") == 0 || strcmp(a, "--emit-c") == 0) {
            if (o->stop < STOP_C) /* -S -c: -S wins, in any order, as in gcc */
                o->stop = STOP_C;
        } else if (strcmp(a, "-c") == 0) {
            if (o->stop < STOP_OBJECT)
                o->stop = STOP_OBJECT;
        } else if (strcmp(a, "--dump-ast") == 0) {
            o->dump_ast = true;
        } else if (strcmp(a, "--dump-parse") == 0) {
            o->dump_parse = true;
        } else if (strcmp(a, "--dump-lanes") == 0) { /* the former name */
            o->dump_passes = true;
        } else if (strncmp(a, "-fno-", 5) == 0 && pass_by_name(a + 5) >= 0) {
            o->pass_on[pass_by_name(a + 5)] = 0;
        } else if (strncmp(a, "-f", 2) == 0 && pass_by_name(a + 2) >= 0) {
            o->pass_on[pass_by_name(a + 2)] = 1;
        } else if (strcmp(a, "--verify-ir") == 0) {
            o->verify_ir = true;
        } else if (strcmp(a, "--dump-ir") == 0) {
            o->dump_ir = true;
        } else if (strcmp(a, "--dump-passes") == 0) {
            o->dump_passes = true;
        } else if (strcmp(a, "--no-line") == 0) {
            o->line_directives = false;
        } else if (strcmp(a, "--no-openmp") == 0) {
            o->openmp = false;
        } else if (strcmp(a, "--portable") == 0) {
            o->portable = true;
        } else if (strcmp(a, "--library") == 0) {
            o->library = true;
            if (o->stop == STOP_LINK)
                o->stop = STOP_OBJECT; /* the C program that uses it links */
        } else if (strcmp(a, "--no-checks") == 0) {
            o->check_index = false;
        } else if (strcmp(a, "--check-overflow") == 0) {
            o->check_overflow = true;
        } else if (strcmp(a, "-fbuiltin") == 0) {
            o->builtins = 1;
        } else if (strcmp(a, "-fno-builtin") == 0) {
            o->builtins = 0;
        } else if (strcmp(a, "--lanes") == 0) {
            o->lanes = true;
        } else if (strcmp(a, "--no-lanes") == 0) {
            o->lanes = false;
        } else if (strcmp(a, "-g") == 0) {
            o->debug = true;
        } else if (strcmp(a, "-v") == 0) {
            o->verbose = true;
        } else if (strcmp(a, "-Werror") == 0) {
            o->werror = true;
        } else if (strncmp(a, "-Wno-", 5) == 0 && sema_warning_flags(a + 5)) {
            o->warn &= ~sema_warning_flags(a + 5);
        } else if (strncmp(a, "-W", 2) == 0 && sema_warning_flags(a + 2)) {
            o->warn |= sema_warning_flags(a + 2);
        } else if (strcmp(a, "-w") == 0) {
            o->no_warn = true;
        } else if (strcmp(a, "-O0") == 0 || strcmp(a, "-O1") == 0 || strcmp(a, "-O2") == 0 ||
                   strcmp(a, "-O3") == 0 || strcmp(a, "-Os") == 0 || strcmp(a, "-O") == 0) {
            o->opt_level = a;
        } else if (strncmp(a, "-ferror-limit=", 14) == 0) {
            if (!parse_int_arg(a + 14, &o->error_limit)) {
                fprintf(stderr, "cupitc: error: invalid value in '%s'\n", a);
                return EXIT_USAGE;
            }
        } else if (strncmp(a, "-o", 2) == 0 && a[2] != '\0') {
            o->output = a + 2; /* -ofile, as C compilers take it */
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "-Xcc") == 0) {
            if (++i == argc) {
                fprintf(stderr, "cupitc: error: missing argument after '%s'\n", a);
                return EXIT_USAGE;
            }
            if (a[1] == 'o')
                o->output = argv[i];
            else
                add_extra(o, argv[i]);
        } else if ((strncmp(a, "-l", 2) == 0 || strncmp(a, "-L", 2) == 0) && a[2] != '\0') {
            add_extra(o, a);
        } else if (strcmp(a, "-l") == 0 || strcmp(a, "-L") == 0) {
            /* -l LIB, -L DIR, as C compilers take them: kept joined, so
               that the split of `extra` into files and flags sees a flag */
            if (++i == argc) {
                fprintf(stderr, "cupitc: error: missing argument after '%s'\n", a);
                return EXIT_USAGE;
            }
            char *joined = malloc(strlen(argv[i]) + 3);
            if (!joined) {
                fputs("cupitc: fatal error: out of memory\n", stderr);
                exit(3);
            }
            sprintf(joined, "%s%s", a, argv[i]);
            add_extra(o, add_owned(o, joined));
        } else if (a[0] == '-' && a[1] != '\0') {
            if (program_option(a))
                fprintf(stderr, "cupitc: error: unknown option '%s': it is an option of the "
                        "compiled program, not of cupitc (run './prog %s ...'; see "
                        "'./prog --help')\n", a, a);
            else
                fprintf(stderr, "cupitc: error: unknown option '%s' (see --help)\n", a);
            return EXIT_USAGE;
        } else {
            int st = add_file(o, a);
            if (st >= 0)
                return st;
        }
    }
    if (!o->input && !(o->stop == STOP_LINK && has_link_inputs(o))) {
        fprintf(stderr, "cupitc: error: no input file (see --help)\n");
        return EXIT_USAGE;
    }
    if (to_stdout(o) && o->stop == STOP_LINK && !o->dump_ast && !o->dump_parse && !o->dump_ir &&
        !o->dump_passes) {
        fprintf(stderr, "cupitc: error: '-o -' writes to standard output, which takes C (-S) or "
                        "an object file (-c), not an executable; name a file ('-o ./-' for a "
                        "file named '-')\n");
        return EXIT_USAGE;
    }
    return -1;
}

/* No CuPit source, only objects (cupitc -c output), C files and libraries:
 * link them with the runtime, as cc links object files. */
static int link_only(const Options *opt, const char *argv0)
{
    const char *path = opt->output ? opt->output : "a.out";
    const char **inputs = (const char **)opt->extra;
    if (!out_check_path(path, inputs, opt->nextra))
        return EXIT_INPUT_ERROR;
    char *lib_dir = NULL, *inc_dir = NULL;
    if (!tool_find_runtime(argv0, &lib_dir, &inc_dir))
        return EXIT_INPUT_ERROR;
    out_install_signal_cleanup();
    char *tmp_out = out_temp(path, NULL);
    int status = EXIT_INPUT_ERROR;
    if (tmp_out) {
        ToolOptions to = {
            .output = tmp_out, .final_output = path, .source_name = NULL,
            .stage = STAGE_LINK, .opt_level = opt->opt_level, .debug = opt->debug,
            .openmp = opt->openmp, .portable = opt->portable, .verbose = opt->verbose,
            .extra = opt->extra, .nextra = opt->nextra, .user_files = true,
        };
        ToolResult tr = tool_compile(&to, lib_dir, inc_dir);
        tool_result_free(&tr);
        if (tr.ok) { /* out_commit frees tmp_out, also when it fails */
            if (out_commit(tmp_out, path))
                status = 0;
            tmp_out = NULL;
        }
    }
    out_discard(tmp_out);
    free(lib_dir);
    free(inc_dir);
    return status;
}

/* C or object files given: they may replace standard library functions. */
static bool has_user_files(const Options *o)
{
    for (int i = 0; i < o->nextra; i++)
        if (o->extra[i][0] != '-')
            return true;
    return false;
}

/* "dir/prog.nn" -> "prog" + suffix. */
static char *derived_name(const char *input, const char *suffix)
{
    if (strcmp(input, "-") == 0)
        input = "stdin"; /* cupitc -S - writes stdin.c */
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    size_t n = strlen(base);
    if (has_suffix(base, ".nn"))
        n -= 3;
    char *s = malloc(n + strlen(suffix) + 1);
    if (!s) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    memcpy(s, base, n);
    strcpy(s + n, suffix);
    return s;
}

/* The EXTERNAL subroutines the linker found no definition of, at their
 * declarations. */
static void report_undefined(Program *prog, ToolResult *tr)
{
    SemaInfo *si = prog->sema;
    for (int i = 0; i < tr->nundefined; i++)
        for (int j = 0; si && j < si->subrs.len; j++) {
            Symbol *s = VEC_AT(si->subrs, j, Symbol);
            if (s->sub->external && strcmp(s->name, tr->undefined[i]) == 0) {
                diag_error(s->loc, "EXTERNAL %s '%s' is defined in none of the C files, "
                           "objects and libraries given, nor in the CuPit standard library "
                           "(docs/stdlib.md)", s->kind == SYM_FUNC ? "function" : "procedure",
                           s->name);
                const char *near = stdlib_closest(s->name);
                if (near)
                    diag_note(s->loc, "did you mean the standard library's '%s'? %s", near,
                              stdlib_decl(stdlib_find(near)));
            }
        }
    tool_result_free(tr);
}

/* Linking without C files, objects or libraries: every EXTERNAL subroutine
 * must be the standard library's, else the program cannot link; reported
 * at its declaration, with the closest standard name. */
static bool externals_defined(Program *prog)
{
    SemaInfo *si = prog->sema;
    bool ok = true;
    for (int j = 0; si && j < si->subrs.len; j++) {
        Symbol *s = VEC_AT(si->subrs, j, Symbol);
        if (!s->sub->external || (s->kind != SYM_PROC && s->kind != SYM_FUNC) || stdlib_find(s->name))
            continue;
        diag_error(s->loc, "EXTERNAL %s '%s' is not in the CuPit standard library, and no C "
                   "file, object or library that could define it is given",
                   s->kind == SYM_FUNC ? "function" : "procedure", s->name);
        const char *near = stdlib_closest(s->name);
        if (near)
            diag_note(s->loc, "did you mean the standard library's '%s'? %s", near,
                      stdlib_decl(stdlib_find(near)));
        ok = false;
    }
    return ok;
}

static bool has_user_files(const Options *o);

/* The source's name in messages: standard input (-) is <stdin>, as in the
 * compiler's own messages, also in the run-time errors and #line
 * directives of the generated C and in the C compiler's failures. */
static const char *source_label(const Options *opt)
{
    return strcmp(opt->input, "-") == 0 ? "<stdin>" : opt->input;
}

/* What the options ask of the IR and its passes. */
static PipelineOptions pipeline_options(const Options *opt)
{
    PipelineOptions po = pipeline_defaults(source_label(opt));
    po.ir = (IrOptions){.line_directives = opt->line_directives, .check_index = opt->check_index,
                        .check_overflow = opt->check_overflow, .lanes = opt->lanes,
                        .builtins = opt->builtins == 1 ||
                                    (opt->builtins < 0 && !has_user_files(opt)),
                        .library = opt->library, .source_name = source_label(opt)};
    po.passes.verify = opt->verify_ir || getenv("CUPITC_VERIFY_IR") != NULL;
    po.passes.trace = opt->dump_passes ? stdout : NULL;
    bool o0 = strcmp(opt->opt_level, "-O0") == 0;
    for (int p = 0; p < PASS__COUNT; p++)
        po.passes.on[p] = opt->pass_on[p] == 1 || (opt->pass_on[p] < 0 && !o0);
    return po;
}

/* Generates C into the temporary file `c_path`, streaming it (the whole
   text never sits in memory).  Returns 0 or the exit status of a failure,
   reported. */
static int generate_c(Pipeline *pl, const char *c_path, const char *shown_path)
{
    FILE *f = fopen(c_path, "wb");
    if (!f) {
        fprintf(stderr, "cupitc: error: cannot write '%s': %s\n", shown_path, strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    Emitter em;
    emit_init(&em);
    emit_set_sink(&em, f);
    int status = 0;
    if (!pipeline_print(pl, &em)) {
        status = EXIT_INPUT_ERROR;
    } else {
        bool ok = emit_finish(&em);
        int saved = errno;
        if (fclose(f) != 0 && ok) {
            ok = false;
            saved = errno;
        }
        f = NULL;
        if (!ok) {
            fprintf(stderr, "cupitc: error: cannot write '%s': %s\n", shown_path,
                    strerror(saved));
            status = EXIT_INPUT_ERROR;
        }
    }
    if (f)
        fclose(f);
    emit_free(&em);
    return status;
}

/* Emits C and runs the C compiler as the options ask. */
static int generate(const Options *opt, Program *prog, Pipeline *pl, const char *argv0)
{
    int status = 0;
    if (opt->stop == STOP_C && to_stdout(opt)) {
        /* written whole to a temporary file first: nothing reaches standard
           output from a failed generation */
        char *tmp = out_temp(NULL, ".c");
        if (!tmp)
            return EXIT_INPUT_ERROR;
        status = generate_c(pl, tmp, tmp);
        if (status == 0 && !out_copy_to_stdout(tmp))
            status = EXIT_INPUT_ERROR;
        out_discard(tmp);
        return status;
    }
    if (opt->stop == STOP_C) {
        char *out = opt->output ? NULL : derived_name(opt->input, ".c");
        const char *path = opt->output ? opt->output : out;
        char *tmp = out_temp(path, NULL);
        if (!tmp) {
            status = EXIT_INPUT_ERROR;
        } else if ((status = generate_c(pl, tmp, path)) != 0) {
            out_discard(tmp);
        } else if (!out_is_direct(tmp) && out_same_files(tmp, path)) {
            out_discard(tmp); /* an unchanged file keeps its time */
        } else if (!out_commit(tmp, path)) {
            status = EXIT_INPUT_ERROR;
        }
        free(out);
        return status;
    }

    char *c_file = out_temp(NULL, ".c");
    if (!c_file)
        return EXIT_INPUT_ERROR;
    if ((status = generate_c(pl, c_file, c_file)) != 0) {
        out_discard(c_file);
        return status;
    }
    char *lib_dir = NULL, *inc_dir = NULL;
    if (!tool_find_runtime(argv0, &lib_dir, &inc_dir)) {
        out_discard(c_file);
        return EXIT_INPUT_ERROR;
    }
    char *obj_file = opt->stop == STOP_LINK ? out_temp(NULL, ".o") : NULL;
    char *def_out = opt->output ? NULL
                                : (opt->stop == STOP_OBJECT ? derived_name(opt->input, ".o")
                                                            : strdup("a.out"));
    const char *path = opt->output ? opt->output : def_out;
    bool std_out = to_stdout(opt); /* -c -o -: copied to standard output */
    char *tmp_out = std_out ? out_temp(NULL, ".o") : out_temp(path, NULL);
    if (!tmp_out || (opt->stop == STOP_LINK && !obj_file)) {
        status = EXIT_INPUT_ERROR;
    } else {
        ToolOptions to = {
            .c_file = c_file,
            .obj_file = obj_file,
            .output = tmp_out,
            .final_output = std_out ? "standard output" : path,
            .source_name = source_label(opt),
            .stage = opt->stop == STOP_OBJECT ? STAGE_OBJECT : STAGE_LINK,
            .opt_level = opt->opt_level,
            .debug = opt->debug,
            .openmp = opt->openmp,
            .portable = opt->portable,
            .verbose = opt->verbose,
            .extra = opt->extra,
            .nextra = opt->nextra,
            .user_files = has_user_files(opt),
        };
        ToolResult tr = tool_compile(&to, lib_dir, inc_dir);
        if (!tr.ok) {
            report_undefined(prog, &tr);
            status = EXIT_INPUT_ERROR;
        } else if (std_out) {
            if (!out_copy_to_stdout(tmp_out))
                status = EXIT_INPUT_ERROR;
        } else {
            if (!out_commit(tmp_out, path)) /* it frees tmp_out either way */
                status = EXIT_INPUT_ERROR;
            tmp_out = NULL;
        }
    }
    out_discard(tmp_out);
    out_discard(obj_file);
    out_discard(c_file);
    free(def_out);
    free(lib_dir);
    free(inc_dir);
    return status;
}

/* The output of this run (NULL where there is none) must be writable and
 * must not be one of its inputs. */
static bool output_ok(const Options *opt)
{
    if (opt->stop == STOP_SYNTAX || opt->dump_ast || opt->dump_parse || opt->dump_ir ||
        opt->dump_passes || to_stdout(opt))
        return true;
    char *def = opt->output ? NULL
                            : derived_name(opt->input, opt->stop == STOP_C ? ".c"
                                                       : opt->stop == STOP_OBJECT ? ".o" : "");
    const char *path = opt->output ? opt->output : opt->stop == STOP_LINK ? "a.out" : def;
    const char **inputs = malloc(sizeof *inputs * (size_t)(opt->nextra + 1));
    if (!inputs) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    int n = 0;
    inputs[n++] = opt->input;
    for (int i = 0; i < opt->nextra; i++)
        if (opt->extra[i][0] != '-')
            inputs[n++] = opt->extra[i];
    bool ok = out_check_path(path, inputs, n);
    free(inputs);
    free(def);
    return ok;
}

static int compile(int argc, char **argv)
{
    Options opt = {0};
    int status = parse_args(argc, argv, &opt);
    if (status >= 0) {
        options_free(&opt);
        return status;
    }
    if (!opt.input) {
        status = link_only(&opt, argv[0]);
        options_free(&opt);
        return status;
    }

    diag_configure(&(DiagOptions){
        .out = stderr,
        .color = isatty(STDERR_FILENO) && getenv("NO_COLOR") == NULL,
        .error_limit = opt.error_limit,
        .no_warnings = opt.no_warn,
        .werror = opt.werror,
    });

    /* -c and --library make the object of the CuPit program alone: the C
       files, objects and libraries given only decide the builtins */
    for (int i = 0; opt.stop == STOP_OBJECT && !opt.no_warn && i < opt.nextra; i++)
        if (opt.extra[i][0] != '-')
            fprintf(stderr, "cupitc: warning: '%s' is not part of the object file that %s "
                    "makes; link it with the program that uses the object\n", opt.extra[i],
                    opt.library ? "--library" : "-c");

    if (!output_ok(&opt)) {
        options_free(&opt);
        return EXIT_INPUT_ERROR;
    }
    out_install_signal_cleanup();

    const char *why = NULL;
    SourceFile *src = source_read(opt.input, &why);
    if (!src) {
        /* `cupitc hello` for hello.nn */
        char with_nn[4096];
        bool hint = strcmp(opt.input, "-") != 0 && !has_suffix(opt.input, ".nn") &&
                    access(opt.input, F_OK) != 0 &&
                    (size_t)snprintf(with_nn, sizeof with_nn, "%s.nn", opt.input) <
                        sizeof with_nn &&
                    access(with_nn, R_OK) == 0;
        fprintf(stderr, "cupitc: error: cannot read '%s': %s%s%s%s\n",
                source_label(&opt), why, hint ? " (did you mean '" : "",
                hint ? with_nn : "", hint ? "'?)" : "");
        options_free(&opt);
        return EXIT_INPUT_ERROR;
    }

    Arena *arena = arena_new();
    ast_set_arena(arena);
    Program *prog = parse_program(src, arena);
    source_done_scanning(src);
    status = 0;
    if (diag_error_count() > 0) {
        status = EXIT_INPUT_ERROR;
    } else if (opt.dump_parse) {
        ast_dump(stdout, prog, NULL);
    } else if (!sema_analyze(prog, arena) || diag_error_count() > 0 ||
               (opt.warn && (sema_warnings(prog, opt.warn), diag_error_count() > 0))) {
        status = EXIT_INPUT_ERROR; /* -Werror: warnings count as errors */
    } else if (!opt.dump_ast && !lower_check_external_main(prog, opt.library)) {
        status = EXIT_INPUT_ERROR;
    } else if (opt.dump_ast) {
        ast_dump(stdout, prog, sema_type_name);
    } else if (opt.stop != STOP_SYNTAX) {
        bool dump = opt.dump_ir || opt.dump_passes;
        if (!dump && opt.stop == STOP_LINK && !has_link_inputs(&opt) && !externals_defined(prog)) {
            status = EXIT_INPUT_ERROR;
        } else {
            PipelineOptions po = pipeline_options(&opt);
            sema_release(prog); /* lowering needs none of analysis's own data */
            Pipeline *pl = pipeline_build(prog, arena, &po);
            if (!pl)
                status = EXIT_INPUT_ERROR;
            else if (opt.dump_ir)
                status = pipeline_dump(pl, stdout) ? 0 : EXIT_INPUT_ERROR;
            else if (!opt.dump_passes)
                status = generate(&opt, prog, pl, argv[0]);
            else if (!pipeline_run_streamed(pl))
                status = EXIT_INPUT_ERROR;
            pipeline_free(pl);
        }
    }

    arena_free(arena);
    source_free(src);
    options_free(&opt);
    return status;
}

/* Standard output is checked at the end, as GNU tools do: a dump, --help
 * or -S -o - that could not all be written (a full disk, /dev/full, a
 * closed pipe) is an error, never a silent success. */
int main(int argc, char **argv)
{
    int status = compile(argc, argv);
    bool failed = ferror(stdout) != 0;
    bool pending = __fpending(stdout) > 0; /* a closed stdout is EBADF only then */
    errno = 0;
    if (fclose(stdout) != 0 && !(errno == EBADF && !failed && !pending))
        failed = true;
    if (failed) {
        int e = errno;
        fprintf(stderr, "cupitc: error: cannot write to standard output: %s\n",
                e ? strerror(e) : "write error");
        if (status == 0)
            status = EXIT_INPUT_ERROR;
    }
    return status;
}
