/* stdlib_output.c -- output EXTERNAL procedures and program parameters.
 *
 * pInt/pReal/pString print like printf %d / %g / %s without a newline.
 * A NaN prints as "nan" whatever its sign bit (printed_real).
 * protocolError prints one line per epoch, appends it to the protocol file
 * (--protocol) and ends the program after --max-epochs epochs.
 */
#include "cupit_stdlib.h"

#include <math.h>
#include "rt_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RT_WEAK __attribute__((weak))

static FILE *protocol;

/* x for printf: a NaN without its sign bit.  IEEE 754 does not specify
 * the sign of a NaN an operation makes, and it differs between one the C
 * compiler folded and one computed at run time (0.0 / 0.0 is "nan" in
 * one build and "-nan" in the other), so printing it would make the
 * output depend on the optimisation level. */
static double printed_real(cp_real x)
{
    return isnan(x) ? copysign((double)x, 1.0) : (double)x;
}

/* --max-epochs reached (protocolError saw the epoch), or SIGINT while the
 * program asks trainingDone; and whether it ever asked. */
static volatile sig_atomic_t limit_reached, interrupted;
static bool training_asked;
/* the program calls trainingDone somewhere (cupitc says so at start) */
static bool program_asks;

void rt_set_asks_training_done(void)
{
    program_asks = true;
}

static void on_interrupt(int sig)
{
    (void)sig;
    if (interrupted) /* a second Ctrl-C ends the program at once */
        _exit(130);
    interrupted = 1;
}

static cp_bool training_done(void)
{
    if (!training_asked) {
        training_asked = true;
        /* from now on Ctrl-C ends the training, not the program */
        struct sigaction sa = {0};
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
    }
    if (interrupted && !limit_reached) {
        limit_reached = true;
        fprintf(stderr, "%s: interrupted: ending the training (again: end the program)\n",
                rt_opt.program);
    }
    return limit_reached != 0;
}

/* protocolError and trainingDone may be called from network code, in
 * parallel: one at a time, so that the protocol file is opened once and
 * no line is lost, and --max-epochs ends the program once. */
RT_WEAK cp_bool trainingDone(void)
{
    cp_bool done;
#pragma omp critical(rt_protocol)
    done = training_done();
    return done;
}

/* The last epoch reported, for the summary. */
static struct { bool any; cp_int epoch, errors; cp_real error; } last;

static void protocol_error(cp_int epochNumber, cp_real totalError, cp_int nrOfErrors)
{
    bool show = rt_opt.report_every <= 1 || !last.any ||
                epochNumber % rt_opt.report_every == 0 ||
                (rt_opt.max_epochs && epochNumber >= rt_opt.max_epochs);
    if (show)
        printf("epoch %d error %g errors %d\n", (int)epochNumber,
               printed_real(totalError), (int)nrOfErrors);
    last.any = true;
    last.epoch = epochNumber;
    last.error = totalError;
    last.errors = nrOfErrors;
    static bool protocol_failed;
    if ((!rt_opt.protocol || *rt_opt.protocol) && !protocol && !protocol_failed) {
        /* the default file, PROGRAM.protocol.tsv in the current directory,
           is a convenience: if it cannot be written the run goes on */
        char def[512];
        const char *path = rt_protocol_file(def, sizeof def);
        rt_check_output(path, "protocol file", true, false);
        protocol = fopen(path, "w");
        if (!protocol && rt_opt.protocol)
            rt_error(rt_lib_where(), "cannot write the protocol file '%s': %s", path,
                     strerror(errno));
        if (!protocol) {
            protocol_failed = true;
            fprintf(stderr, "%s: warning: cannot write the protocol file '%s': %s\n",
                    rt_opt.program, path, strerror(errno));
        } else {
            fprintf(protocol, "# epoch\terror\terrors\n");
        }
    }
    if (protocol) {
        fprintf(protocol, "%d\t%.9g\t%d\n", (int)epochNumber,
                printed_real(totalError), (int)nrOfErrors);
        if (fflush(protocol) != 0 || ferror(protocol)) {
            /* a full disk, a quota: as when the file cannot be opened */
            int err = errno;
            char def[512];
            const char *path = rt_protocol_file(def, sizeof def);
            fclose(protocol);
            protocol = NULL;
            protocol_failed = true;
            if (rt_opt.protocol)
                rt_error(rt_lib_where(), "cannot write the protocol file '%s': %s", path,
                         strerror(err));
            fprintf(stderr, "%s: warning: cannot write the protocol file '%s': %s\n",
                    rt_opt.program, path, strerror(err));
        }
    }
    if (rt_opt.max_epochs && epochNumber >= rt_opt.max_epochs) {
        limit_reached = true;
        if (training_asked || program_asks)
            return; /* the program ends its training itself (trainingDone) */
        rt_claim_exit(); /* before the message: see rt_finish_exit */
        fflush(stdout);
        fprintf(stderr, "%s: stopping after epoch %d (--max-epochs)\n",
                rt_opt.program, (int)epochNumber);
        rt_finish_exit();
    }
}

RT_WEAK void protocolError(cp_int epochNumber, cp_real totalError,
                           cp_int nrOfErrors)
{
#pragma omp critical(rt_protocol)
    protocol_error(epochNumber, totalError, nrOfErrors);
}

void rt_protocol_finish(void)
{
    if (!last.any)
        return;
    if (rt_opt.summary || isatty(STDERR_FILENO)) {
        fflush(stdout);
        fprintf(stderr, "%s: %d epochs, final error %g (errors %d), %.2f s\n", rt_opt.program,
                (int)last.epoch, printed_real(last.error), (int)last.errors, rt_seconds());
    }
}

/* No critical section: protocol_error calls it (through rt_check_output)
 * inside critical(rt_protocol), and the other caller, saveNetworks, runs
 * in the central agent, never beside a protocolError of network code. */
bool rt_protocol_is(const struct stat *st)
{
    struct stat own;
    return protocol && fstat(fileno(protocol), &own) == 0 && own.st_dev == st->st_dev &&
           own.st_ino == st->st_ino;
}

void rt_protocol_close(void)
{
    if (protocol)
        fclose(protocol);
    protocol = NULL;
}

RT_WEAK void pInt(cp_int me)
{
    printf("%d", (int)me);
}

RT_WEAK void pReal(cp_real me)
{
    printf("%g", printed_real(me));
}

RT_WEAK void pString(const char *me)
{
    fputs(me ? me : "", stdout);
}

RT_WEAK cp_int intParam(const char *name, cp_int dflt)
{
    name = rt_lib_str(name);
    const char *v = rt_param_value(name);
    if (!v)
        return dflt;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || !rt_number_end(end) || x < INT32_MIN || x > INT32_MAX)
        rt_error(rt_lib_where(), "--param %s=%s: not an Int", name, v);
    return (cp_int)x;
}

RT_WEAK cp_real realParam(const char *name, cp_real dflt)
{
    name = rt_lib_str(name);
    const char *v = rt_param_value(name);
    if (!v)
        return dflt;
    char *end;
    double x = rt_strtoreal(v, &end);
    if (end == v || !rt_number_end(end))
        rt_error(rt_lib_where(), "--param %s=%s: not a Real", name, v);
    if (!isfinite(x) || !isfinite((double)(cp_real)x))
        rt_error(rt_lib_where(), "--param %s=%s: not a finite number in the range of Real",
                 name, v);
    return (cp_real)x;
}

/* The range-checked forms: the value (given or default) must lie in
 * [min, max]; outside it is a run-time error naming the range. */
RT_WEAK cp_int intParamIn(const char *name, cp_int dflt, cp_int min, cp_int max)
{
    name = rt_lib_str(name);
    cp_int x = intParam(name, dflt);
    if (x < min || x > max)
        rt_error(rt_lib_where(), "--param %s=%d: must be between %d and %d", name, (int)x,
                 (int)min, (int)max);
    return x;
}

RT_WEAK cp_real realParamIn(const char *name, cp_real dflt, cp_real min, cp_real max)
{
    name = rt_lib_str(name);
    cp_real x = realParam(name, dflt);
    if (!(x >= min && x <= max)) {
        rt_real_text xs, lo, hi;
        rt_error(rt_lib_where(), "--param %s=%s: must be between %s and %s", name,
                 rt_real_str(&xs, x), rt_real_str(&lo, min), rt_real_str(&hi, max));
    }
    return x;
}
