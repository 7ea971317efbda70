/* rt_globals.c -- --set NAME=VALUE: the start value of a global variable
 * from the command line (docs/running.md), stored after the program's own
 * initializers have run and before `program` starts.  Generated code passes
 * the table of the variables that can be set (cupit_rt.h). */
#include "rt_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rt_global_kind_name(rt_global_kind k)
{
    switch (k) {
    case RT_GLOBAL_INT: return "Int";
    case RT_GLOBAL_INT2: return "Int2";
    case RT_GLOBAL_INT1: return "Int1";
    case RT_GLOBAL_REAL: return "Real";
    case RT_GLOBAL_BOOL: return "Bool";
    }
    return "?";
}

static _Noreturn void set_error(const rt_param *s, const char *msg)
{
    fflush(stdout);
    fprintf(stderr, "%s: --set %s=%s: %s\n", rt_opt.program, s->name, s->value, msg);
    exit(2);
}

/* Stores text into the variable (only checks it where keep is false);
 * false if its type cannot hold it. */
static bool store(const rt_global_var *v, const char *text, bool keep)
{
    char *end;
    errno = 0;
    if (v->kind == RT_GLOBAL_BOOL) {
        bool t = strcmp(text, "true") == 0 || strcmp(text, "1") == 0;
        if (!t && strcmp(text, "false") != 0 && strcmp(text, "0") != 0)
            return false;
        if (keep)
            *(cp_bool *)v->addr = t;
        return true;
    }
    if (v->kind == RT_GLOBAL_REAL) {
        double d = rt_strtoreal(text, &end);
        if (end == text || !rt_number_end(end) || errno || !isfinite((double)(cp_real)d))
            return false;
        if (keep)
            *(cp_real *)v->addr = (cp_real)d;
        return true;
    }
    long long i = strtoll(text, &end, 10);
    if (end == text || !rt_number_end(end) || errno)
        return false;
    switch (v->kind) {
    case RT_GLOBAL_INT:
        if (i < INT32_MIN || i > INT32_MAX)
            return false;
        if (keep)
            *(cp_int *)v->addr = (cp_int)i;
        return true;
    case RT_GLOBAL_INT2:
        if (i < INT16_MIN || i > INT16_MAX)
            return false;
        if (keep)
            *(cp_int2 *)v->addr = (cp_int2)i;
        return true;
    default:
        if (i < INT8_MIN || i > INT8_MAX)
            return false;
        if (keep)
            *(cp_int1 *)v->addr = (cp_int1)i;
        return true;
    }
}

static void set_globals(const rt_global_var *vars, int n, bool keep);

void rt_set_globals(const rt_global_var *vars, int n)
{
    set_globals(vars, n, true);
}

void rt_check_sets(const rt_global_var *vars, int n)
{
    set_globals(vars, n, false);
}

static void set_globals(const rt_global_var *vars, int n, bool keep)
{
    for (int i = 0; i < rt_opt.nsets; i++) {
        const rt_param *s = &rt_opt.sets[i];
        const rt_global_var *v = NULL;
        for (int k = 0; k < n && !v; k++)
            if (strcmp(vars[k].name, s->name) == 0)
                v = &vars[k];
        char msg[640];
        if (!v) {
            if (n == 0)
                set_error(s, "the program has no global Int, Real or Bool variable");
            size_t len = (size_t)snprintf(msg, sizeof msg, "the program has no global Int, "
                                          "Real or Bool variable of this name (it has:");
            for (int k = 0; k < n && len + 80 < sizeof msg; k++)
                len += (size_t)snprintf(msg + len, sizeof msg - len, " %s", vars[k].name);
            snprintf(msg + len, sizeof msg - len, ")");
            set_error(s, msg);
        }
        if (!store(v, s->value, keep)) {
            snprintf(msg, sizeof msg, "not a value of type %s", rt_global_kind_name(v->kind));
            set_error(s, msg);
        }
    }
}
