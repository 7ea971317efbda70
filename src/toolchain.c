/* toolchain.c -- finds the runtime and runs the system C compiler. */
#include "cupitc/toolchain.h"

#include "cupitc/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
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

/* How a run of the C compiler ended. */
typedef struct RunResult {
    enum {
        RUN_OK,         /* exit status 0 */
        RUN_NOT_RUN,    /* it could not be started (fork or exec failed): err */
        RUN_SIGNALED,   /* ended by signal `code` */
        RUN_FAILED,     /* exit status `code` */
    } how;
    int code, err;
    bool held; /* the kept stderr was not passed through (run's `hold`) */
} RunResult;

/* Runs the command; its stderr is passed through and, when `keep` is set,
 * also kept there (up to a bound, for the undefined references and for
 * telling a crash of the C compiler from an error it reports).  With
 * `hold`, what is kept is not passed through: the caller shows it or not
 * (all of it is passed through when it cannot be kept whole). */
static RunResult run(const ArgList *a, char **keep, bool hold)
{
    RunResult r = {RUN_OK, 0, 0, false};
    int fds[2] = {-1, -1};
    int exec_fds[2] = {-1, -1}; /* the child's errno when exec fails */
    if (keep && pipe(fds) != 0)
        keep = NULL;
    if (pipe(exec_fds) == 0) {
        fcntl(exec_fds[0], F_SETFD, FD_CLOEXEC);
        fcntl(exec_fds[1], F_SETFD, FD_CLOEXEC);
    } else {
        exec_fds[0] = exec_fds[1] = -1;
    }
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (keep) {
            dup2(fds[1], STDERR_FILENO);
            close(fds[0]);
            close(fds[1]);
        }
        execvp(a->v[0], (char *const *)a->v);
        int e = errno;
        if (exec_fds[1] < 0 || write(exec_fds[1], &e, sizeof e) != (ssize_t)sizeof e)
            fprintf(stderr, "cupitc: error: cannot run the C compiler '%s': %s\n", a->v[0],
                    strerror(e));
        _exit(127);
    }
    if (pid > 0)
        out_set_child(pid);
    if (exec_fds[1] >= 0)
        close(exec_fds[1]);
    if (pid < 0) {
        r.how = RUN_NOT_RUN;
        r.err = errno;
        if (keep) {
            close(fds[0]);
            close(fds[1]);
        }
        if (exec_fds[0] >= 0)
            close(exec_fds[0]);
        if (keep)
            *keep = NULL;
        return r;
    }
    if (keep) {
        enum { KEEP_MAX = 1 << 20 };
        close(fds[1]);
        size_t len = 0;
        char *buf = malloc(KEEP_MAX + 1);
        char chunk[4096];
        ssize_t n;
        while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            if (hold && (!buf || len + (size_t)n > KEEP_MAX)) {
                if (buf)
                    fwrite(buf, 1, len, stderr); /* too much to hold: show it all */
                hold = false;
            }
            if (!hold)
                fwrite(chunk, 1, (size_t)n, stderr);
            if (buf && len + (size_t)n <= KEEP_MAX) {
                memcpy(buf + len, chunk, (size_t)n);
                len += (size_t)n;
            }
        }
        close(fds[0]);
        if (buf)
            buf[len] = '\0';
        *keep = buf;
        r.held = hold;
    }
    int exec_err = 0;
    if (exec_fds[0] >= 0) {
        ssize_t n;
        while ((n = read(exec_fds[0], &exec_err, sizeof exec_err)) < 0 && errno == EINTR)
            ;
        if (n != (ssize_t)sizeof exec_err)
            exec_err = 0;
        close(exec_fds[0]);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    out_set_child(0);
    if (exec_err) {
        r.how = RUN_NOT_RUN;
        r.err = exec_err;
    } else if (WIFSIGNALED(status)) {
        r.how = RUN_SIGNALED;
        r.code = WTERMSIG(status);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        r.how = RUN_FAILED;
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return r;
}

/* The line of the C compiler's messages that says it crashed or ran out
 * of a resource (not an error in the code it was given), or NULL. */
static char *outside_failure(const char *text)
{
    static const char *const keys[] = {
        "internal compiler error",     /* gcc: a bug of gcc, or a crash of cc1 */
        "signal terminated program",   /* gcc: cc1 or as killed (e.g. out of memory) */
        "PLEASE submit a bug report",  /* clang crashed */
        "failed due to signal",        /* clang */
        "out of memory", "virtual memory exhausted", "Cannot allocate memory",
        "No space left on device", "Disk quota exceeded", "File too large",
        "cannot execute",              /* gcc: cc1, as or ld missing */
    };
    if (!text)
        return NULL;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *p = strstr(text, keys[k]);
        if (!p)
            continue;
        const char *b = p, *e = strchr(p, '\n');
        while (b > text && b[-1] != '\n')
            b--;
        if (!e)
            e = p + strlen(p);
        size_t n = (size_t)(e - b) > 300 ? 300 : (size_t)(e - b);
        char *line = malloc(n + 1);
        if (line) {
            memcpy(line, b, n);
            line[n] = '\0';
        }
        return line;
    }
    return NULL;
}

/* Reports a run of the C compiler that failed for a reason outside the
 * code it was given: it could not be run, or a signal ended it. */
static void report_not_run(const char *cc_env, const char *prog, RunResult r)
{
    if (r.how == RUN_NOT_RUN)
        fprintf(stderr, "cupitc: error: cannot run the C compiler '%s'%s%s%s: %s\n", prog,
                cc_env ? " (from $CC='" : "", cc_env ? cc_env : "", cc_env ? "')" : "",
                strerror(r.err));
    else
        fprintf(stderr, "cupitc: error: the C compiler '%s' was ended by signal %d (%s): it "
                        "crashed or was stopped, which is no error of the program\n",
                prog, r.code, strsignal(r.code));
}

/* The names of GNU ld's "undefined reference to `NAME'" lines. */
static void undefined_refs(const char *text, ToolResult *r)
{
    static const char key[] = "undefined reference to `";
    for (const char *p = text; p && (p = strstr(p, key)); ) {
        p += sizeof key - 1;
        const char *e = strchr(p, '\'');
        if (!e)
            break;
        size_t n = (size_t)(e - p);
        bool dup = false;
        for (int i = 0; i < r->nundefined; i++)
            if (strlen(r->undefined[i]) == n && strncmp(r->undefined[i], p, n) == 0)
                dup = true;
        if (!dup && r->nundefined < TOOL_MAX_UNDEFINED) {
            char *name = malloc(n + 1);
            if (name) {
                memcpy(name, p, n);
                name[n] = '\0';
                r->undefined[r->nundefined++] = name;
            }
        }
        p = e;
    }
}

static bool is_lib_flag(const char *s)
{
    return strncmp(s, "-l", 2) == 0 || strncmp(s, "-L", 2) == 0;
}

static void common_flags(ArgList *a, const ToolOptions *o, const char *inc_flag)
{
    arg(a, "-std=c11");
    arg(a, o->opt_level ? o->opt_level : "-O2");
    if (o->debug)
        arg(a, "-g");
    if (o->openmp)
        arg(a, "-fopenmp");
    /* code for the machine it is built on (lane records fill its vector
       registers); the user's -Xcc -march=... comes later and wins */
    if (!o->portable)
        arg(a, "-march=native");
    arg(a, inc_flag);
}

/* The C compiler: $CC split at blanks into a program and its arguments, as
 * make runs it (CC="gcc -m64", CC="ccache cc"; no quoting), default "cc". */
typedef struct Cc {
    const char *env; /* $CC as given, NULL when unset or empty */
    char *copy;      /* the words, NUL-separated */
    ArgList words;
} Cc;

static void cc_init(Cc *c)
{
    const char *env = getenv("CC");
    c->env = NULL;
    c->copy = NULL;
    c->words = (ArgList){0};
    if (env) {
        c->copy = strdup(env);
        if (!c->copy) {
            fputs("cupitc: fatal error: out of memory\n", stderr);
            exit(3);
        }
        for (char *w = strtok(c->copy, " \t\n"); w; w = strtok(NULL, " \t\n"))
            arg(&c->words, w);
    }
    if (c->words.n > 0)
        c->env = env;
    else
        arg(&c->words, "cc");
}

static void cc_free(Cc *c)
{
    free(c->copy);
    free(c->words.v);
}

static void cc_args(ArgList *a, const Cc *c)
{
    for (int i = 0; i < c->words.n; i++)
        arg(a, c->words.v[i]);
}

/* After an internal compiler error: the same command with
 * -fno-tree-vectorize last, so that it wins over -Xcc options.  Warns and
 * returns true when that builds; false (the first failure stands) when not. */
static bool retry_without_vectorizer(const ToolOptions *o, const ArgList *a, const char *messages)
{
    ArgList b = {0};
    for (int i = 0; i < a->n; i++)
        arg(&b, a->v[i]);
    arg(&b, "-fno-tree-vectorize");
    if (o->verbose)
        print_command(stderr, &b);
    char *again = NULL;
    RunResult rr = run(&b, &again, true);
    bool ok = rr.how == RUN_OK;
    if (ok && again && rr.held)
        fputs(again, stderr); /* its warnings */
    if (ok) {
        char *line = outside_failure(messages);
        fprintf(stderr, "cupitc: warning: the C compiler crashed on the C generated for '%s' "
                "(it said: %s); built it again without vectorization "
                "(-fno-tree-vectorize), which makes slower code\n",
                o->source_name, line ? line : "internal compiler error");
        free(line);
    }
    free(again);
    free(b.v);
    return ok;
}

/* 1. The generated C alone: an error the C compiler reports here is
 * cupitc's, unless the user's C options caused it; a crash of the C
 * compiler or a lack of resources is neither. */
/* The output files are created empty before the C compiler runs (the
 * temporaries of output.c), so a C compiler that exits 0 without writing
 * its output (-fsyntax-only among the -Xcc options or in $CC) would leave
 * an empty "executable" or object file behind.  Returns whether `path` got
 * contents; an output that is no regular file (-o /dev/null) counts.
 * `what` names the output, `name` (or NULL) the file the user asked for. */
static bool wrote_output(const char *cmd, const char *path, const char *what, const char *name)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 0)
        return true;
    fprintf(stderr, "cupitc: error: the C compiler '%s' succeeded but wrote no output (%s%s%s%s "
            "is empty; an option that stops it before its output, such as -fsyntax-only, in "
            "-Xcc or $CC?); command was:\n  ", cmd, what, name ? " '" : "", name ? name : "",
            name ? "'" : "");
    return false;
}

static bool compile_generated(const ToolOptions *o, const Cc *cc, const char *inc_flag,
                              ToolResult *r)
{
    bool user_flags = false;
    for (int i = 0; i < o->nextra; i++)
        if (o->extra[i][0] == '-' && !is_lib_flag(o->extra[i]))
            user_flags = true;
    ArgList a = {0};
    cc_args(&a, cc);
    common_flags(&a, o, inc_flag);
    arg(&a, "-c");
    arg(&a, "-o");
    arg(&a, o->stage == STAGE_OBJECT ? o->output : o->obj_file);
    arg(&a, o->c_file);
    for (int i = 0; i < o->nextra; i++)
        if (o->extra[i][0] == '-' && !is_lib_flag(o->extra[i]))
            arg(&a, o->extra[i]);
    if (o->verbose)
        print_command(stderr, &a);
    char *messages = NULL;
    RunResult rr = run(&a, &messages, true);
    bool ok = rr.how == RUN_OK;
    bool shown = !rr.held;
    if (!ok && rr.how == RUN_FAILED && messages && strstr(messages, "internal compiler error")) {
        /* A bug of the C compiler, most often in its vectorizer (gcc 12's
         * -O3 with AVX-512 stops in gimple_expand_vec_cond_expr on some
         * programs): build once more without vectorization, which is
         * slower code but the program's; its crash report is not shown. */
        ok = retry_without_vectorizer(o, &a, messages);
        shown = shown || ok;
    }
    if (messages && !shown)
        fputs(messages, stderr);
    bool object = o->stage == STAGE_OBJECT;
    bool wrote = !ok || wrote_output(a.v[0], object ? o->output : o->obj_file, "the object file",
                                     object ? o->final_output : NULL);
    if (!wrote) {
        print_command(stderr, &a);
        r->failed = TOOL_FAILED_COMPILE;
        ok = false;
    } else if (!ok) {
        r->failed = TOOL_FAILED_COMPILE;
        char *outside = rr.how == RUN_FAILED ? outside_failure(messages) : NULL;
        if (rr.how == RUN_NOT_RUN) {
            report_not_run(cc->env, a.v[0], rr);
            free(messages);
            free(a.v);
            return false;
        } else if (rr.how == RUN_SIGNALED) {
            report_not_run(cc->env, a.v[0], rr);
            fputs("  command was:\n  ", stderr);
        } else if (outside) {
            fprintf(stderr, "cupitc: error: the C compiler crashed or ran out of resources on "
                    "the C generated for '%s' (it said: %s); that is no error of the program "
                    "(a lower -O or a smaller program may get through). Command was:\n  ",
                    o->source_name, outside);
        } else if (user_flags) {
            fputs("cupitc: error: the C compiler failed on the generated code with the C "
                  "options given (-Xcc); command was:\n  ", stderr);
        } else if (!messages || !strstr(messages, "error")) {
            fprintf(stderr, "cupitc: error: the C compiler '%s' failed (exit status %d) "
                    "without reporting an error in the C generated for '%s'; command was:\n  ",
                    a.v[0], rr.code, o->source_name);
        } else {
            fprintf(stderr, "cupitc: internal error: the C compiler failed on the code "
                    "generated for '%s'. This is a bug of cupitc: please report it with the "
                    "program. Command was:\n  ", o->source_name);
        }
        print_command(stderr, &a);
        free(outside);
    }
    free(messages);
    free(a.v);
    return ok;
}

/* Whether the link missed the OpenMP runtime (GOMP_..., omp_...): an
 * OpenMP object linked into a --no-openmp program. */
static bool openmp_wanted(const ToolResult *r)
{
    for (int i = 0; i < r->nundefined; i++)
        if (strncmp(r->undefined[i], "GOMP_", 5) == 0 || strncmp(r->undefined[i], "omp_", 4) == 0)
            return true;
    return false;
}

/* 2. Linking with the user's files and the runtime: a failure is a missing
 * definition or library, the user's to fix. */
static bool link_program(const ToolOptions *o, const Cc *cc, const char *inc_flag,
                         const char *lib_file, ToolResult *r)
{
    ArgList l = {0};
    cc_args(&l, cc);
    common_flags(&l, o, inc_flag);
    arg(&l, "-o");
    arg(&l, o->output);
    if (o->obj_file)
        arg(&l, o->obj_file);
    for (int i = 0; i < o->nextra; i++)
        arg(&l, o->extra[i]);
    arg(&l, lib_file);
    arg(&l, "-lm");
    if (o->verbose)
        print_command(stderr, &l);
    char *messages = NULL;
    RunResult rr = run(&l, &messages, false);
    bool ok = rr.how == RUN_OK;
    if (ok && !wrote_output(l.v[0], o->output, "the program", o->final_output)) {
        print_command(stderr, &l);
        r->failed = o->user_files ? TOOL_FAILED_USER : TOOL_FAILED_LINK;
        ok = false;
    } else if (!ok) {
        r->failed = o->user_files ? TOOL_FAILED_USER : TOOL_FAILED_LINK;
        if (rr.how != RUN_FAILED)
            report_not_run(cc->env, l.v[0], rr);
        if (rr.how != RUN_NOT_RUN) {
            undefined_refs(messages, r);
            fprintf(stderr, "cupitc: error: %s '%s' failed; command was:\n  ",
                    o->user_files ? "compiling and linking" : "linking",
                    o->final_output ? o->final_output : o->output);
            print_command(stderr, &l);
            if (!o->openmp && openmp_wanted(r))
                fputs("cupitc: note: an object file given was compiled with OpenMP (it calls "
                      "the OpenMP runtime); link it without --no-openmp, or compile it with "
                      "--no-openmp too\n", stderr);
        }
    }
    free(messages);
    free(l.v);
    return ok;
}

ToolResult tool_compile(const ToolOptions *o, const char *lib_dir, const char *inc_dir)
{
    ToolResult r = {.ok = false};
    Cc cc;
    cc_init(&cc);
    char *inc_flag = malloc(strlen(inc_dir) + 3);
    char *lib_file = join(lib_dir, o->openmp ? "libcupitrt.a" : "libcupitrt-serial.a");
    if (!inc_flag) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    sprintf(inc_flag, "-I%s", inc_dir);
    /* no generated C: only link (objects of cupitc -c, C files, libraries) */
    bool compiled = !o->c_file || compile_generated(o, &cc, inc_flag, &r);
    if (compiled)
        r.ok = o->stage == STAGE_OBJECT || link_program(o, &cc, inc_flag, lib_file, &r);
    free(inc_flag);
    free(lib_file);
    cc_free(&cc);
    return r;
}

void tool_result_free(ToolResult *r)
{
    for (int i = 0; i < r->nundefined; i++)
        free(r->undefined[i]);
    r->nundefined = 0;
}
