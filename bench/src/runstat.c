/* runstat.c -- runs a program that the harness cannot instrument (the
 * cupitc-generated trainer) and measures it from outside:
 *   runstat PROGRAM [ARGS...]
 * The program's stdout and stderr go to a pseudo-terminal, so its stdio
 * stays line-buffered and every line arrives when it is printed; each line
 * is echoed as "STAMP <seconds since start> <line>".  At the end one line
 * "RUSAGE maxrss_kb=<peak RSS> status=<exit status> wall=<seconds>" comes
 * from wait4(2).  Exit status: the program's, or 127 if it cannot start. */
#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void emit_line(const char *line, size_t len, double t)
{
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
        len--;
    printf("STAMP %.6f %.*s\n", t, (int)len, line);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: runstat PROGRAM [ARGS...]\n");
        return 2;
    }
    struct termios raw;
    memset(&raw, 0, sizeof raw);
    cfmakeraw(&raw);   /* no echo, no \n -> \r\n translation */
    int master;
    double t0 = now();
    pid_t pid = forkpty(&master, NULL, &raw, NULL);
    if (pid < 0) {
        perror("runstat: forkpty");
        return 127;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        fprintf(stderr, "runstat: cannot run %s: %s\n", argv[1], strerror(errno));
        _exit(127);
    }
    static char buf[1 << 16];
    size_t used = 0;
    for (;;) {
        ssize_t r = read(master, buf + used, sizeof buf - 1 - used);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;   /* EIO once the program has closed the terminal */
        double t = now() - t0;
        used += (size_t)r;
        char *start = buf, *nl;
        while ((nl = memchr(start, '\n', used - (size_t)(start - buf))) != NULL) {
            emit_line(start, (size_t)(nl - start), t);
            start = nl + 1;
        }
        used -= (size_t)(start - buf);
        memmove(buf, start, used);
        if (used == sizeof buf - 1) {   /* an over-long line: emit it as is */
            emit_line(buf, used, t);
            used = 0;
        }
    }
    if (used > 0) emit_line(buf, used, now() - t0);
    int status = 0;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {}
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("RUSAGE maxrss_kb=%ld status=%d wall=%.6f\n", ru.ru_maxrss, code, now() - t0);
    return code;
}
