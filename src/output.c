/* output.c -- safe output files (output.h). */
#include "cupitc/output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The temporary files alive now; the signal handler removes them.  A few
 * suffice: the generated C and one output. */
enum { MAX_TEMPS = 4 };
static char *volatile temps[MAX_TEMPS];

static void remember(char *path)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!temps[i]) {
            temps[i] = path;
            return;
        }
}

static void forget(const char *path)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temps[i] == path)
            temps[i] = NULL;
}

/* Outputs that are devices or pipes (-o /dev/null, -S -o /dev/stdout): they
 * are written in place, as the C compiler does, never renamed over or
 * removed. */
static char *directs[MAX_TEMPS];

bool out_is_direct(const char *temp)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp && directs[i] == temp)
            return true;
    return false;
}

static bool drop_direct(const char *temp)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temp && directs[i] == temp) {
            directs[i] = NULL;
            return true;
        }
    return false;
}

/* The C compiler while it runs: a signal that ends cupitc ends it too
 * (`kill` of cupitc alone would leave it running, and it could create its
 * output after the temporary files are gone). */
static volatile pid_t child;

void out_set_child(pid_t pid)
{
    child = pid;
}

/* Passes the signal on to the C compiler and waits up to 2 s for it to
 * end, then kills it; everything here is async-signal-safe. */
static void end_child(int sig)
{
    pid_t pid = child;
    if (pid <= 0)
        return;
    kill(pid, sig == SIGINT || sig == SIGHUP || sig == SIGQUIT ? sig : SIGTERM);
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 200; i++) {
        pid_t w = waitpid(pid, NULL, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            return;
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void on_signal(int sig)
{
    end_child(sig);
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temps[i])
            unlink(temps[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

void out_install_signal_cleanup(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM,
                               SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa = {0};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* The folder part of path ("." when there is none); malloc'd. */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

bool out_check_path(const char *output, const char *const *inputs, int n)
{
    if (!*output) { /* -o '' */
        fputs("cupitc: error: the output file name is empty\n", stderr);
        return false;
    }
    struct stat so;
    if (stat(output, &so) == 0) {
        if (S_ISDIR(so.st_mode)) {
            fprintf(stderr, "cupitc: error: cannot write '%s': it is a directory\n", output);
            return false;
        }
        for (int i = 0; i < n; i++) {
            struct stat si;
            if (inputs[i] && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev &&
                si.st_ino == so.st_ino) {
                fprintf(stderr, "cupitc: error: the output '%s' is the input file '%s'; "
                        "refusing to overwrite it\n", output, inputs[i]);
                return false;
            }
        }
    }
    char *dir = folder_of(output);
    if (!dir) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    struct stat sd;
    bool ok = true;
    if (stat(dir, &sd) != 0 || !S_ISDIR(sd.st_mode)) {
        fprintf(stderr, "cupitc: error: cannot write '%s': the folder '%s' does not exist\n",
                output, dir);
        ok = false;
    } else if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "cupitc: error: cannot write '%s': the folder '%s' is not writable\n",
                output, dir);
        ok = false;
    }
    free(dir);
    return ok;
}

char *out_temp(const char *output, const char *suffix)
{
    char *path;
    int slen = 0;
    struct stat st;
    if (output && stat(output, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        for (int i = 0; i < MAX_TEMPS; i++)
            if (!directs[i]) {
                path = strdup(output);
                if (!path) {
                    fputs("cupitc: fatal error: out of memory\n", stderr);
                    exit(3);
                }
                directs[i] = path;
                return path;
            }
    }
    if (output) {
        char *dir = folder_of(output);
        const char *base = strrchr(output, '/');
        base = base ? base + 1 : output;
        path = dir ? malloc(strlen(dir) + strlen(base) + 24) : NULL;
        if (path)
            sprintf(path, "%s/.%s.cupitc-XXXXXX", dir, base);
        free(dir);
    } else {
        const char *tmpdir = getenv("TMPDIR");
        if (!tmpdir || !*tmpdir)
            tmpdir = "/tmp";
        slen = (int)strlen(suffix);
        path = malloc(strlen(tmpdir) + strlen(suffix) + 16);
        if (path)
            sprintf(path, "%s/cupitc-XXXXXX%s", tmpdir, suffix);
    }
    if (!path) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    int fd = mkstemps(path, slen);
    if (fd < 0) {
        int e = errno;
        if (output) {
            /* the user named `output`, not the temporary file beside it */
            char *dir = folder_of(output);
            fprintf(stderr, "cupitc: error: cannot write '%s': cannot create a file in the "
                    "folder '%s': %s\n", output, dir ? dir : ".", strerror(e));
            free(dir);
        } else {
            fprintf(stderr, "cupitc: error: cannot create a temporary file in '%.*s' "
                    "($TMPDIR): %s\n", (int)(strrchr(path, '/') - path), path, strerror(e));
        }
        free(path);
        return NULL;
    }
    /* the final file gets the usual permissions, not mkstemp's 0600 */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    remember(path);
    return path;
}

bool out_commit(char *temp, const char *output)
{
    if (drop_direct(temp)) {
        free(temp);
        return true;
    }
    if (rename(temp, output) != 0) {
        fprintf(stderr, "cupitc: error: cannot write '%s': %s\n", output, strerror(errno));
        out_discard(temp);
        return false;
    }
    forget(temp);
    free(temp);
    return true;
}

void out_discard(char *temp)
{
    if (!temp)
        return;
    if (drop_direct(temp)) {
        free(temp);
        return;
    }
    forget(temp);
    unlink(temp);
    free(temp);
}

bool out_same_files(const char *a, const char *b)
{
    /* reads of 32 KB: a generated C file can be hundreds of megabytes, and
       this runs when the compilation's memory is at its peak */
    enum { BLOCK = 32 * 1024 };
    FILE *fa = fopen(a, "rb");
    FILE *fb = fa ? fopen(b, "rb") : NULL;
    struct stat sa, sb;
    char *ba = malloc(BLOCK), *bb = malloc(BLOCK);
    bool same = fa && fb && ba && bb && fstat(fileno(fa), &sa) == 0 &&
                fstat(fileno(fb), &sb) == 0 && sa.st_size == sb.st_size;
    while (same) {
        size_t na = fread(ba, 1, BLOCK, fa), nb = fread(bb, 1, BLOCK, fb);
        if (na != nb || memcmp(ba, bb, na) != 0)
            same = false;
        else if (na == 0)
            break;
    }
    same = same && !ferror(fa) && !ferror(fb);
    free(ba);
    free(bb);
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

bool out_copy_to_stdout(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "cupitc: error: cannot read the temporary file '%s': %s\n", path,
                strerror(errno));
        return false;
    }
    /* written to the descriptor itself, after what stdio holds: a failure
       is reported here once, and leaves no buffered rest for the check of
       standard output at the exit */
    char buf[64 * 1024];
    size_t n;
    int err = 0;
    bool ok = fflush(stdout) == 0;
    if (!ok)
        err = errno;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) {
        for (size_t done = 0; ok && done < n;) {
            ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                ok = false;
                err = w < 0 ? errno : EIO;
            } else {
                done += (size_t)w;
            }
        }
    }
    if (!ok)
        fprintf(stderr, "cupitc: error: cannot write to standard output: %s\n", strerror(err));
    else if (ferror(in)) {
        fprintf(stderr, "cupitc: error: cannot read the temporary file '%s': %s\n", path,
                strerror(errno));
        ok = false;
    }
    fclose(in);
    return ok;
}
