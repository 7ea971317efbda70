/* toolchain.c -- finds the runtime and runs the system C compiler. */
#include "cupitc/toolchain.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CUPITC_PREFIX
#define CUPITC_PREFIX "/usr/local"
#endif

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (!s) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    snprintf(s, n, "%s/%s", a, b);
    return s;
}

static bool try_prefix(const char *prefix, char **lib_dir, char **inc_dir)
{
    char *lib = join(prefix, "lib/cupit");
    char *inc = join(prefix, "include/cupit");
    char *a = join(lib, "libcupitrt.a");
    char *h = join(inc, "cupit_rt.h");
    bool ok = is_file(a) && is_file(h);
    free(a);
    free(h);
    if (ok) {
        *lib_dir = lib;
        *inc_dir = inc;
    } else {
        free(lib);
        free(inc);
    }
    return ok;
}

bool tool_find_runtime(const char *argv0, char **lib_dir, char **inc_dir)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 && argv0 && realpath(argv0, exe))
        n = (ssize_t)strlen(exe);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char *prefix = join(exe, "..");
            bool ok = try_prefix(prefix, lib_dir, inc_dir);
            free(prefix);
            if (ok)
                return true;
        }
    }
    if (try_prefix(CUPITC_PREFIX, lib_dir, inc_dir))
        return true;
    fprintf(stderr, "cupitc: error: cannot find the runtime library (libcupitrt.a "
                    "and cupit_rt.h) next to the compiler or under %s\n",
            CUPITC_PREFIX);
    return false;
}

typedef struct ArgList {
    const char **v;
    int n, cap;
} ArgList;

static void arg(ArgList *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = realloc(a->v, (size_t)a->cap * sizeof *a->v);
        if (!a->v) {
            fputs("cupitc: fatal error: out of memory\n", stderr);
            exit(3);
        }
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static void print_command(FILE *out, const ArgList *a)
{
    for (int i = 0; i < a->n; i++) {
        const char *s = a->v[i];
        bool quote = strpbrk(s, " \t\"'$\\") != NULL || *s == '\0';
        fprintf(out, i ? " %s%s%s" : "%s%s%s", quote ? "'" : "", s, quote ? "'" : "");
    }
    fputc('\n', out);
}

bool tool_compile(const ToolOptions *o, const char *lib_dir, const char *inc_dir)
{
    const char *cc = getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    ArgList a = {0};
    char *inc_flag = malloc(strlen(inc_dir) + 3);
    char *lib_file = join(lib_dir, o->openmp ? "libcupitrt.a" : "libcupitrt-serial.a");
    if (!inc_flag) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    sprintf(inc_flag, "-I%s", inc_dir);

    arg(&a, cc);
    arg(&a, "-std=c11");
    arg(&a, o->opt_level ? o->opt_level : "-O2");
    if (o->debug)
        arg(&a, "-g");
    if (o->openmp)
        arg(&a, "-fopenmp");
    arg(&a, inc_flag);
    if (o->stage == STAGE_OBJECT)
        arg(&a, "-c");
    arg(&a, "-o");
    arg(&a, o->output);
    arg(&a, o->c_file);
    for (int i = 0; i < o->nextra; i++)
        if (o->stage == STAGE_LINK || strncmp(o->extra[i], "-l", 2) != 0)
            arg(&a, o->extra[i]);
    if (o->stage == STAGE_LINK) {
        arg(&a, lib_file);
        arg(&a, "-lm");
    }
    if (o->verbose)
        print_command(stderr, &a);

    bool ok = false;
    pid_t pid = fork();
    if (pid == 0) {
        execvp(cc, (char *const *)a.v);
        fprintf(stderr, "cupitc: error: cannot run C compiler '%s': %s\n", cc,
                strerror(errno));
        _exit(127);
    } else if (pid > 0) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (!ok) {
            /* With user C files the failure may well be theirs; without,
             * generated code failed to compile, which is a compiler bug. */
            fputs(o->user_files ? "cupitc: error: C compilation failed; command was:\n  "
                                : "cupitc: internal error: the C compiler failed on generated "
                                  "code; command was:\n  ",
                  stderr);
            print_command(stderr, &a);
        }
    } else {
        fprintf(stderr, "cupitc: error: cannot start C compiler: %s\n", strerror(errno));
    }
    free(a.v);
    free(inc_flag);
    free(lib_file);
    return ok;
}
