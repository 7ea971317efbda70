/* stdlib_sigs.c -- the standard library's signatures (stdlib_sigs.h).
 * Keep in sync with runtime/cupit_stdlib.h and docs/stdlib.md; the unit
 * test check_sema compiles every declaration below as a program. */
#include "cupitc/stdlib_sigs.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { STD_MAX_PARAMS = 6 };

typedef struct StdParam {
    Access access;
    TypeKind type;
} StdParam;

struct StdSubr {
    const char *name;
    bool function;
    TypeKind result;
    int nparams;
    StdParam params[STD_MAX_PARAMS];
    const char *decl;
};

#define C(t) {ACCESS_CONST, TY_##t}
#define V(t) {ACCESS_VAR, TY_##t}
#define IO {ACCESS_IO, TY_REAL}

static const StdSubr subrs[] = {
    {"sigmoid", true, TY_REAL, 1, {C(REAL)}, "Real FUNCTION sigmoid (Real CONST x) IS EXTERNAL;"},
    {"sigmoidPrime", true, TY_REAL, 1, {C(REAL)},
     "Real FUNCTION sigmoidPrime (Real CONST x) IS EXTERNAL;"},
    {"absReal", true, TY_REAL, 1, {C(REAL)}, "Real FUNCTION absReal (Real CONST x) IS EXTERNAL;"},
    {"signReal", true, TY_REAL, 1, {C(REAL)}, "Real FUNCTION signReal (Real CONST x) IS EXTERNAL;"},
    {"minReal", true, TY_REAL, 2, {C(REAL), C(REAL)},
     "Real FUNCTION minReal (Real CONST x, y) IS EXTERNAL;"},
    {"maxReal", true, TY_REAL, 2, {C(REAL), C(REAL)},
     "Real FUNCTION maxReal (Real CONST x, y) IS EXTERNAL;"},
    {"openDatafile", false, TY_ERROR, 6, {C(STRING), V(INT), V(INT), V(INT), V(INT), V(INT)},
     "PROCEDURE openDatafile (String CONST filename; Int VAR iInputsN, rInputsN, iOutputsN, "
     "rOutputsN, examplesN) IS EXTERNAL;"},
    {"initIOareasxRxR", false, TY_ERROR, 3, {IO, IO, C(INT)},
     "PROCEDURE initIOareasxRxR (Real IO rIn; Real IO rOut; Int CONST maxreplicates) IS "
     "EXTERNAL;"},
    {"getExamplesxRxR", false, TY_ERROR, 4, {IO, IO, C(INT), V(INT)},
     "PROCEDURE getExamplesxRxR (Real IO rIn; Real IO rOut; Int CONST howmany; Int VAR "
     "firstI) IS EXTERNAL;"},
    {"openTestfile", false, TY_ERROR, 2, {C(STRING), V(INT)},
     "PROCEDURE openTestfile (String CONST name; Int VAR examplesN) IS EXTERNAL;"},
    {"getTestExamplesxRxR", false, TY_ERROR, 4, {IO, IO, C(INT), V(INT)},
     "PROCEDURE getTestExamplesxRxR (Real IO rIn; Real IO rOut; Int CONST howmany; Int VAR "
     "firstI) IS EXTERNAL;"},
    {"initIOareaxR", false, TY_ERROR, 3, {IO, C(INT), C(INT)},
     "PROCEDURE initIOareaxR (Real IO area; Int CONST maxreplicates, perReplicate) IS "
     "EXTERNAL;"},
    {"countCorrectxR", false, TY_ERROR, 4, {IO, IO, C(INT), V(INT)},
     "PROCEDURE countCorrectxR (Real IO actual; Real IO target; Int CONST howmany; Int VAR "
     "correct) IS EXTERNAL;"},
    {"protocolError", false, TY_ERROR, 3, {C(INT), C(REAL), C(INT)},
     "PROCEDURE protocolError (Int CONST epochNumber; Real CONST totalError; Int CONST "
     "nrOfErrors) IS EXTERNAL;"},
    {"pInt", false, TY_ERROR, 1, {C(INT)}, "PROCEDURE pInt (Int CONST me) IS EXTERNAL;"},
    {"pReal", false, TY_ERROR, 1, {C(REAL)}, "PROCEDURE pReal (Real CONST me) IS EXTERNAL;"},
    {"pString", false, TY_ERROR, 1, {C(STRING)}, "PROCEDURE pString (String CONST me) IS EXTERNAL;"},
    {"trainingDone", true, TY_BOOL, 0, {{0, 0}}, "Bool FUNCTION trainingDone () IS EXTERNAL;"},
    {"saveNetworks", false, TY_ERROR, 1, {C(STRING)},
     "PROCEDURE saveNetworks (String CONST file) IS EXTERNAL;"},
    {"loadNetworks", false, TY_ERROR, 1, {C(STRING)},
     "PROCEDURE loadNetworks (String CONST file) IS EXTERNAL;"},
    {"intParam", true, TY_INT, 2, {C(STRING), C(INT)},
     "Int FUNCTION intParam (String CONST name; Int CONST dflt) IS EXTERNAL;"},
    {"realParam", true, TY_REAL, 2, {C(STRING), C(REAL)},
     "Real FUNCTION realParam (String CONST name; Real CONST dflt) IS EXTERNAL;"},
    {"intParamIn", true, TY_INT, 4, {C(STRING), C(INT), C(INT), C(INT)},
     "Int FUNCTION intParamIn (String CONST name; Int CONST dflt, min, max) IS EXTERNAL;"},
    {"realParamIn", true, TY_REAL, 4, {C(STRING), C(REAL), C(REAL), C(REAL)},
     "Real FUNCTION realParamIn (String CONST name; Real CONST dflt, min, max) IS EXTERNAL;"},
};

int stdlib_count(void)
{
    return (int)(sizeof subrs / sizeof subrs[0]);
}

const StdSubr *stdlib_at(int i)
{
    return i >= 0 && i < stdlib_count() ? &subrs[i] : NULL;
}

bool stdlib_is_arithmetic(const Symbol *sym)
{
    static const char *const names[] = {"sigmoid", "sigmoidPrime", "absReal", "signReal",
                                        "minReal", "maxReal"};
    if (!sym || sym->kind != SYM_FUNC || !sym->sub->external)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(sym->name, names[i]))
            return true;
    return false;
}

bool stdlib_uses_networks(const Symbol *sym)
{
    return sym && sym->kind == SYM_PROC && sym->sub && sym->sub->external &&
           (!strcmp(sym->name, "saveNetworks") || !strcmp(sym->name, "loadNetworks"));
}

const StdSubr *stdlib_find(const char *name)
{
    for (size_t i = 0; i < sizeof subrs / sizeof subrs[0]; i++)
        if (strcmp(subrs[i].name, name) == 0)
            return &subrs[i];
    return NULL;
}

bool stdlib_reports_call_pos(const Symbol *sym)
{
    static const char *const names[] = {
        "initIOareasxRxR", "getExamplesxRxR", "openTestfile", "getTestExamplesxRxR",
        "initIOareaxR", "countCorrectxR", "openDatafile", "saveNetworks", "loadNetworks",
        "protocolError", "intParam", "realParam", "intParamIn", "realParamIn",
    };
    if (!sym->sub || !sym->sub->external)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(sym->name, names[i]) == 0)
            return true;
    return false;
}

const char *stdlib_decl(const StdSubr *s)
{
    return s->decl;
}

static const char *type_word(TypeKind k)
{
    switch (k) {
    case TY_INT: return "Int";
    case TY_REAL: return "Real";
    case TY_STRING: return "String";
    default: return "?";
    }
}

static const char *access_word(Access a)
{
    return a == ACCESS_VAR ? "VAR" : a == ACCESS_IO ? "IO" : "CONST";
}

const char *stdlib_mismatch(const StdSubr *s, const Symbol *sym)
{
    static char why[160];
    bool function = sym->kind == SYM_FUNC;
    if (function != s->function) {
        snprintf(why, sizeof why, "it is declared as a %s, but the library's is a %s",
                 function ? "function" : "procedure", s->function ? "function" : "procedure");
        return why;
    }
    if (function && (!sym->sub->result || sym->sub->result->kind != s->result)) {
        snprintf(why, sizeof why, "its result is %s here, but %s in the library",
                 sym->sub->result ? sym->sub->result->name : "?", type_word(s->result));
        return why;
    }
    if (sym->sub->params.len != s->nparams) {
        snprintf(why, sizeof why, "it has %d parameter%s here, but %d in the library",
                 sym->sub->params.len, sym->sub->params.len == 1 ? "" : "s", s->nparams);
        return why;
    }
    for (int i = 0; i < s->nparams; i++) {
        const Symbol *p = VEC_AT(sym->sub->params, i, Symbol);
        const StdParam *q = &s->params[i];
        if (p->access != q->access || !p->type || p->type->kind != q->type) {
            snprintf(why, sizeof why, "parameter %d is %s %s here, but %s %s in the library",
                     i + 1, p->type ? p->type->name : "?", access_word(p->access),
                     type_word(q->type), access_word(q->access));
            return why;
        }
    }
    return NULL;
}

int name_distance(const char *a, const char *b, int limit)
{
    /* Damerau-Levenshtein (optimal string alignment) over short names */
    enum { N = 64 };
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (strcasecmp(a, b) == 0)
        return 0; /* only the case differs: the best correction */
    if (la >= N || lb >= N || (la > lb ? la - lb : lb - la) > limit)
        return limit + 1;
    int d[N + 1][N + 1];
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int v = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb] > limit ? limit + 1 : d[la][lb];
}

int name_distance_limit(const char *name)
{
    int n = (int)strlen(name);
    return n <= 1 ? 0 : n <= 4 ? 1 : n / 3 + 1;
}

const char *stdlib_closest(const char *name)
{
    int limit = name_distance_limit(name), best = limit + 1;
    const char *pick = NULL;
    for (size_t i = 0; i < sizeof subrs / sizeof subrs[0]; i++) {
        int d = name_distance(name, subrs[i].name, limit);
        if (d < best) {
            best = d;
            pick = subrs[i].name;
        }
    }
    return pick;
}
