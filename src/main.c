/* main.c -- the cupitc driver.
 *
 * Pipeline: read source -> parse (front end) -> semantic analysis ->
 * lowering -> C emission -> system C compiler.  Each phase reports through
 * diag.h; the driver stops after the first phase with errors.  Exit status:
 * 0 success, 1 errors in the input, 2 usage errors. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/diag.h"
#include "cupitc/parse.h"
#include "cupitc/sema.h"

#define CUPITC_VERSION "0.1.0"

enum { EXIT_INPUT_ERROR = 1, EXIT_USAGE = 2 };

typedef struct Options {
    const char *input;
    const char *output;
    bool syntax_only;
    bool dump_ast;   /* --dump-ast: the tree after semantic analysis */
    bool dump_parse; /* --dump-parse: the tree as parsed */
    int error_limit;
} Options;

static void usage(FILE *out)
{
    fputs("usage: cupitc [options] FILE.nn [more.c ...] [-o OUT]\n"
          "\n"
          "Compiles a CuPit program to an executable (C with OpenMP, then the\n"
          "system C compiler).\n"
          "\n"
          "options:\n"
          "  -o FILE            write the output to FILE\n"
          "  -fsyntax-only      check the program, produce no output\n"
          "  --dump-parse       print the syntax tree as parsed and stop\n"
          "  --dump-ast         print the analysed syntax tree and stop\n"
          "  -ferror-limit=N    stop after N errors (default 20, 0 = no limit)\n"
          "  --help             show this help\n"
          "  --version          show the version\n",
          out);
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

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, Options *o)
{
    o->error_limit = 20;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("cupitc " CUPITC_VERSION "\n");
            return 0;
        } else if (strcmp(a, "-fsyntax-only") == 0) {
            o->syntax_only = true;
        } else if (strcmp(a, "--dump-ast") == 0) {
            o->dump_ast = true;
        } else if (strcmp(a, "--dump-parse") == 0) {
            o->dump_parse = true;
        } else if (strncmp(a, "-ferror-limit=", 14) == 0) {
            if (!parse_int_arg(a + 14, &o->error_limit)) {
                fprintf(stderr, "cupitc: error: invalid value in '%s'\n", a);
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc) {
                fprintf(stderr, "cupitc: error: missing file name after '-o'\n");
                return EXIT_USAGE;
            }
            o->output = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "cupitc: error: unknown option '%s' (see --help)\n", a);
            return EXIT_USAGE;
        } else if (o->input) {
            fprintf(stderr, "cupitc: error: more than one CuPit source file ('%s' and '%s')\n",
                    o->input, a);
            return EXIT_USAGE;
        } else {
            o->input = a;
        }
    }
    if (!o->input) {
        fprintf(stderr, "cupitc: error: no input file (see --help)\n");
        return EXIT_USAGE;
    }
    return -1;
}

int main(int argc, char **argv)
{
    Options opt = {0};
    int status = parse_args(argc, argv, &opt);
    if (status >= 0)
        return status;

    diag_configure(&(DiagOptions){
        .out = stderr,
        .color = isatty(STDERR_FILENO) && getenv("NO_COLOR") == NULL,
        .error_limit = opt.error_limit,
    });

    const char *why = NULL;
    SourceFile *src = source_read(opt.input, &why);
    if (!src) {
        fprintf(stderr, "cupitc: error: cannot read '%s': %s\n", opt.input, why);
        return EXIT_INPUT_ERROR;
    }

    Arena *arena = arena_new();
    ast_set_arena(arena);
    Program *prog = parse_program(src, arena);
    status = 0;
    if (diag_error_count() > 0) {
        status = EXIT_INPUT_ERROR;
    } else if (opt.dump_parse) {
        ast_dump(stdout, prog, NULL);
    } else if (!sema_analyze(prog, arena)) {
        status = EXIT_INPUT_ERROR;
    } else if (opt.dump_ast) {
        ast_dump(stdout, prog, sema_type_name);
    } else if (!opt.syntax_only) {
        fprintf(stderr, "cupitc: error: code generation is not available in this "
                        "build; use -fsyntax-only or --dump-ast\n");
        status = EXIT_USAGE;
    }

    arena_free(arena);
    source_free(src);
    return status;
}
