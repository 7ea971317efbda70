/* print_c.c -- prints an IrModule as one C translation unit.
 *
 * Sections, in order: the configuration macros and the prelude, the C
 * types of the program's types and of their layouts, the prototypes of
 * every function, the static objects (globals and the tables the runtime
 * reads), the function bodies.  Expressions are printed fully
 * parenthesized, each whole expression into one growing buffer (every
 * level appends its text, so time and memory are linear in the
 * expression's length) whose text is kept in a scratch arena that is
 * emptied after each function, so memory does not grow with the program. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/print_c.h"
#include "print_c_internal.h"

typedef struct Pc {
    const IrModule *m;
    Emitter *out;
    Arena *scratch;
    const char *line_file; /* the source name, escaped for #line */
    int inline_depth;      /* > 0: inside a statement expression (no #line) */
    const IrVar **heap;    /* the locals declared on the heap (decl_stmt) */
    int nheap, capheap;
    const IrFunc *fn;      /* the function being printed */
    /* large values' heap temporaries (needs_tmp): the expression, its name */
    const IrExpr **tmp_e;
    const char **tmp_name;
    int ntmp, captmp;
} Pc;

static const char *fmt(Pc *p, const char *f, ...) __attribute__((format(printf, 2, 3)));

static const char *fmt(Pc *p, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = arena_vprintf(p->scratch, f, ap);
    va_end(ap);
    return s;
}

/* ---- types ----------------------------------------------------------------- */

static const char *cupit_ctype(Pc *p, const Type *t)
{
    switch (t->kind) {
    case TY_INT1: return "cp_int1";
    case TY_INT2: return "cp_int2";
    case TY_INT: return "cp_int";
    case TY_REAL: return "cp_real";
    case TY_BOOL: return "cp_bool";
    case TY_STRING: return "cp_string";
    case TY_OPAQUE: return "cp_opaque";
    case TY_INTERVAL1: return "cp_interval1";
    case TY_INTERVAL2: return "cp_interval2";
    case TY_INTERVAL: return "cp_interval";
    case TY_REALERVAL: return "cp_realerval";
    case TY_SYMBOLIC: case TY_RECORD: case TY_NODE: case TY_CONNECTION: case TY_NETWORK:
    case TY_ARRAY:
        return fmt(p, "cpT_%s", t->name);
    default:
        return "void";
    }
}

/* The name of a type that is not a pointer or an array. */
static const char *base_type(Pc *p, const IrType *t)
{
    switch (t->kind) {
    case IRT_VOID: return "void";
    case IRT_BOOL: return "bool";
    case IRT_INT: return "int";
    case IRT_I32: return "int32_t";
    case IRT_I64: return "int64_t";
    case IRT_U64: return "uint64_t";
    case IRT_SIZE: return "size_t";
    case IRT_VALUE: return cupit_ctype(p, t->cupit);
    case IRT_RECORD: return t->layout->cname;
    case IRT_VEC:
        return t->elem->kind == IRT_VALUE && t->elem->cupit->kind == TY_REAL ? "cp_vreal" : "cp_vint";
    case IRT_NET: return "rt_net";
    case IRT_IO: return "cp_io";
    case IRT_POS: return "rt_srcpos";
    case IRT_CSTR: return "const char *";
    case IRT_OPAQUE: return "void";
    case IRT_NAMED: return t->name;
    default: return "void";
    }
}

/* A declaration of `name` (may be "") of type t, C declarator syntax.
 * is_const qualifies the declared object itself. */
static const char *decl_q(Pc *p, const IrType *t, const char *inner, bool is_const);

static const char *decl(Pc *p, const IrType *t, const char *inner)
{
    return decl_q(p, t, inner, false);
}

static const char *decl_q(Pc *p, const IrType *t, const char *inner, bool is_const)
{
    switch (t->kind) {
    case IRT_PTR: {
        const char *x = is_const ? fmt(p, "*const %s", inner) : fmt(p, "*%s", inner);
        return decl_q(p, t->elem, x, t->is_const);
    }
    case IRT_ARRAY: {
        const char *dim = t->n == -1 ? "RT_LANES" : t->n == -2 ? "" : fmt(p, "%d", t->n);
        const char *x = inner[0] == '*' ? fmt(p, "(%s)[%s]", inner, dim) : fmt(p, "%s[%s]", inner, dim);
        return decl_q(p, t->elem, x, is_const);
    }
    case IRT_CSTR: /* a pointer type itself: const applies to the pointer */
        return fmt(p, "const char *%s%s", is_const ? "const " : "", inner);
    default: {
        const char *b = base_type(p, t);
        const char *sep = inner[0] && b[strlen(b) - 1] != '*' ? " " : "";
        return fmt(p, "%s%s%s%s", is_const ? "const " : "", b, sep, inner);
    }
    }
}

static const char *type_name(Pc *p, const IrType *t)
{
    return decl(p, t, "");
}

/* ---- locals too large for the stack ------------------------------------------- */

/* A local variable of more bytes than this is kept on the heap: a thread's
 * stack (8 MB for the main thread, often less for OpenMP's) cannot hold a
 * large ARRAY, least of all one per lane, and the stack check of recursive
 * subroutines (rt_stack_check) leaves room for frames below 256 KB only. */
#define CP_LOCAL_STACK_MAX ((int64_t)64 << 10)

/* An upper bound of the C size of t, saturating; 0 where unknown. */
static int64_t c_bytes(const IrType *t)
{
    const int64_t cap = (int64_t)1 << 40;
    switch (t->kind) {
    case IRT_VALUE:
        return t->cupit && t->cupit->bytes > 0 ? t->cupit->bytes : 8;
    case IRT_ARRAY: {
        int64_t n = t->n == -1 ? 16 /* RT_LANES */ : t->n < 0 ? 0 : t->n;
        int64_t e = c_bytes(t->elem);
        return e && n > cap / e ? cap : n * e;
    }
    case IRT_RECORD: {
        int64_t sum = 0;
        for (int i = 0; t->layout && i < t->layout->fields.len; i++) {
            const IrField *f = VEC_AT(t->layout->fields, i, IrField);
            if (!f->dropped)
                sum += c_bytes(f->type);
            if (sum > cap)
                return cap;
        }
        return sum;
    }
    default:
        return 8;
    }
}

static bool is_heap_var(const Pc *p, const IrVar *v)
{
    for (int i = 0; i < p->nheap; i++)
        if (p->heap[i] == v)
            return true;
    return false;
}

static void add_heap_var(Pc *p, const IrVar *v)
{
    if (p->nheap == p->capheap) {
        int cap = p->capheap ? 2 * p->capheap : 16;
        const IrVar **h = arena_alloc(p->scratch, (size_t)cap * sizeof *h);
        for (int i = 0; i < p->nheap; i++)
            h[i] = p->heap[i];
        p->heap = h;
        p->capheap = cap;
    }
    p->heap[p->nheap++] = v;
}

/* How expressions name v: its storage through the pointer if on the heap. */
static const char *var_name(Pc *p, const IrVar *v)
{
    return is_heap_var(p, v) ? fmt(p, "(*%s)", v->name) : v->name;
}

/* ---- values too large for the stack ------------------------------------------ */

/* A value of more than CP_LOCAL_STACK_MAX bytes does not go through the C
 * stack either: a function returning one (out_result) writes it to storage
 * its caller passes and returns that address, and the expressions that
 * would make a C temporary of one (a call, a compound literal, a statement
 * expression, a copy whose address is taken) build it in a heap temporary
 * of the statement instead, declared before it as a large local is
 * (decl_stmt).  A conditional of large values selects between addresses. */
static bool big_type(const IrType *t)
{
    return t && t->kind != IRT_VOID && c_bytes(t) > CP_LOCAL_STACK_MAX;
}

static bool out_result(const IrFunc *f)
{
    if (!f || f->exported)
        return false;
    switch (f->role) {
    case IRFN_GLOBAL: case IRFN_OBJECT: case IRFN_MERGE_CALLEE: case IRFN_LANE_REC:
    case IRFN_REDUCTION:
        return big_type(f->ret);
    default:
        return false;
    }
}

/* The operands (ME, YOU) of a REDUCTION or WTA function of such a type go
 * by address; the body reads them through the pointers. */
static bool param_by_address(const IrFunc *f, const IrVar *v)
{
    return !f->exported && (f->role == IRFN_REDUCTION || f->role == IRFN_WTA) && big_type(v->type);
}

/* The combination of a and b by the REDUCTION or WTA function of r
 * (out: the heap temporary for a large result, reduce). */
static const char *combine_call(Pc *p, const IrFunc *f, const char *a, const char *b, const char *out)
{
    if (!f->params.len || !param_by_address(f, VEC_AT(f->params, 0, IrVar)))
        return fmt(p, "%s(%s, %s)", f->name, a, b);
    if (out_result(f))
        return fmt(p, "(*%s(&(%s), &(%s), %s))", f->name, a, b, out);
    return fmt(p, "%s(&(%s), &(%s))", f->name, a, b);
}

/* A compound literal that is built member by member. */
static bool big_struct(const IrExpr *e)
{
    if (e->kind != IRE_STRUCT || !e->names || e->type->kind == IRT_ARRAY || !big_type(e->type))
        return false;
    for (int i = 0; i < e->args.len; i++)
        if (VEC_AT(e->args, i, IrExpr)->type->kind == IRT_ARRAY)
            return false;
    return true;
}

/* e needs a heap temporary of its statement: of e's type, of the copied
 * value's for IRE_TEMP_ADDR. */
static bool needs_tmp(const IrExpr *e)
{
    switch (e->kind) {
    case IRE_CALL: return e->fn && out_result(e->fn);
    case IRE_STRUCT: return big_struct(e);
    case IRE_STMTS: return big_type(e->type) && e->a;
    case IRE_TEMP_ADDR: /* no copy of a value already in a temporary */
        return e->a->type->kind != IRT_ARRAY && big_type(e->a->type) && !needs_tmp(e->a);
    default: return false;
    }
}

static const char *tmp_of(const Pc *p, const IrExpr *e)
{
    for (int i = p->ntmp - 1; i >= 0; i--)
        if (p->tmp_e[i] == e)
            return p->tmp_name[i];
    return NULL;
}

/* The operands of a large conditional must have addresses. */
static bool addressable(const Pc *p, const IrExpr *e)
{
    switch (e->kind) {
    case IRE_VAR: case IRE_FIELD: case IRE_MEMBER: case IRE_INDEX: case IRE_DEREF:
        return true;
    case IRE_COND:
        return addressable(p, e->b) && addressable(p, e->c);
    default:
        return tmp_of(p, e) && e->kind != IRE_TEMP_ADDR;
    }
}

/* Names the heap temporaries that the expressions of one statement need
 * (not those of the statements inside it, which declare their own). */
static void scan_tmps(Pc *p, const IrExpr *e)
{
    if (!e)
        return;
    scan_tmps(p, e->a);
    scan_tmps(p, e->b);
    scan_tmps(p, e->c);
    for (int i = 0; i < e->args.len; i++)
        scan_tmps(p, VEC_AT(e->args, i, IrExpr));
    if (!needs_tmp(e))
        return;
    if (p->ntmp == p->captmp) {
        int cap = p->captmp ? 2 * p->captmp : 8;
        const IrExpr **te = arena_alloc(p->scratch, (size_t)cap * sizeof *te);
        const char **tn = arena_alloc(p->scratch, (size_t)cap * sizeof *tn);
        for (int i = 0; i < p->ntmp; i++) {
            te[i] = p->tmp_e[i];
            tn[i] = p->tmp_name[i];
        }
        p->tmp_e = te;
        p->tmp_name = tn;
        p->captmp = cap;
    }
    p->tmp_e[p->ntmp] = e;
    p->tmp_name[p->ntmp] = fmt(p, "bigv%d_", p->ntmp + 1);
    p->ntmp++;
}

/* Finds the temporaries of statement s; true if there are any: then
 * stmt_tmps_decl declares them. */
static bool stmt_tmps(Pc *p, const IrStmt *s, int *first)
{
    *first = p->ntmp;
    const IrExpr *own[] = {s->a, s->b, s->c, s->lane_sel, s->lo, s->hi, s->par,
                           s->red ? s->red->into : NULL, s->red ? s->red->mask : NULL};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        scan_tmps(p, own[i]);
    return p->ntmp > *first;
}

static void stmt_tmps_decl(Pc *p, int first, int line)
{
    for (int i = first; i < p->ntmp; i++) {
        const IrExpr *e = p->tmp_e[i];
        const char *name = p->tmp_name[i];
        const IrType *t = e->kind == IRE_TEMP_ADDR ? e->a->type : e->type;
        emit(p->out, "%s __attribute__((cleanup(rt_local_free))) = rt_local_alloc(CP_POS(%d), sizeof *%s);",
             decl_q(p, t, fmt(p, "(*%s)", name), false), line, name);
    }
}

/* ---- expressions ------------------------------------------------------------- */

static const char *expr(Pc *p, const IrExpr *e);
static void stmt(Pc *p, const IrStmt *s);
static void body_of(Pc *p, const IrStmt *s);

static const char *real_literal(Pc *p, double v)
{
    if (isnan(v))
        return "((cp_real)__builtin_nanf(\"\"))";
    if (isinf(v))
        return v > 0 ? "((cp_real)__builtin_inff())" : "((cp_real)-__builtin_inff())";
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    return fmt(p, "((cp_real)%s)", buf);
}

static const char *int_literal(Pc *p, const IrType *t, int64_t v)
{
    const char *lit = v == INT64_MIN       ? "INT64_MIN"
                      : v == -2147483648LL ? "(-2147483647 - 1)"
                      : v < 0              ? fmt(p, "(%" PRId64 ")", v)
                                           : fmt(p, "%" PRId64, v);
    if (t->kind == IRT_VALUE && t->cupit->kind != TY_INT)
        return fmt(p, "((%s)%s)", type_name(p, t), lit);
    return lit;
}

static const char *string_literal(Pc *p, const char *bytes, int len)
{
    char *s = arena_alloc(p->scratch, (size_t)len * 4 + 3);
    char *q = s;
    *q++ = '"';
    for (int i = 0; i < len; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '"' || c == '\\') {
            *q++ = '\\';
            *q++ = (char)c;
        } else if (c == '\n') {
            *q++ = '\\';
            *q++ = 'n';
        } else if (c == '?') {
            *q++ = '\\'; /* no trigraphs */
            *q++ = '?';
        } else if (c < 0x20 || c >= 0x7f) {
            q += sprintf(q, "\\%03o", c);
        } else {
            *q++ = (char)c;
        }
    }
    *q++ = '"';
    *q = '\0';
    return s;
}

/* Operands that need no parentheses in a postfix position. */
static bool is_primary(const IrExpr *e)
{
    switch (e->kind) {
    case IRE_VAR: case IRE_FIELD: case IRE_MEMBER: case IRE_INDEX: case IRE_CALL:
    case IRE_INT: case IRE_BOOL: case IRE_NULL: case IRE_FUNCREF: case IRE_NAMED:
        return true;
    default:
        return false;
    }
}

/* A growing buffer that a whole expression is printed into: each level of
 * a nested expression appends its text instead of formatting its subtree's
 * string again (which made long sums quadratic in time and memory). */
typedef struct Sb {
    char *buf;
    size_t len, cap;
} Sb;

static void sb_reserve(Sb *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *nb = realloc(b->buf, cap);
    if (!nb) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    b->buf = nb;
    b->cap = cap;
}

static void sb_add(Sb *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

static void sb_puts(Sb *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static void expr_to(Pc *p, Sb *b, const IrExpr *e);

static void primary_to(Pc *p, Sb *b, const IrExpr *e)
{
    size_t at = b->len;
    expr_to(p, b, e);
    if (is_primary(e) || (b->len > at && b->buf[at] == '('))
        return;
    /* parenthesized: only this operand's text moves */
    sb_reserve(b, 2);
    memmove(b->buf + at + 1, b->buf + at, b->len - at);
    b->buf[at] = '(';
    b->len++;
    sb_add(b, ")", 1);
}

/* e printed by `to` into one buffer, as a string of the scratch arena */
static const char *printed(Pc *p, void (*to)(Pc *, Sb *, const IrExpr *), const IrExpr *e)
{
    Sb b = {0};
    to(p, &b, e);
    char *s = arena_strndup(p->scratch, b.buf ? b.buf : "", b.len);
    free(b.buf);
    return s;
}

static const char *primary(Pc *p, const IrExpr *e)
{
    return printed(p, primary_to, e);
}

static const char *expr(Pc *p, const IrExpr *e)
{
    return printed(p, expr_to, e);
}

/* A condition (if): a binary operation without its own parentheses, which
 * inside those of the `if` make clang warn about `if ((a == b))`
 * (-Wparentheses-equality) in code the user never wrote. */
static const char *cond_expr(Pc *p, const IrExpr *e)
{
    const char *t = expr(p, e);
    size_t n = strlen(t);
    if (e->kind == IRE_BINARY && n >= 2 && t[0] == '(' && t[n - 1] == ')')
        return fmt(p, "%.*s", (int)(n - 2), t + 1);
    return t;
}

static const char *stmt_expr(Pc *p, const IrExpr *e, const char *big);
static void args_to(Pc *p, Sb *b, const PtrVec *v);

static void big_addr_to(Pc *p, Sb *b, const IrExpr *e)
{
    sb_add(b, "(&", 2);
    expr_to(p, b, e);
    sb_add(b, ")", 1);
}

/* Large value e, an lvalue without a C temporary (t: its heap temporary,
 * NULL for a conditional). */
static void big_value_to(Pc *p, Sb *b, const IrExpr *e, const char *t)
{
    switch (e->kind) {
    case IRE_COND:
        sb_add(b, "(*(", 3);
        expr_to(p, b, e->a);
        sb_add(b, " ? ", 3);
        big_addr_to(p, b, e->b);
        sb_add(b, " : ", 3);
        big_addr_to(p, b, e->c);
        sb_add(b, "))", 2);
        return;
    case IRE_CALL: /* out_result: f (args, t) returns t */
        sb_add(b, "(*", 2);
        sb_puts(b, e->fn->name);
        sb_add(b, "(", 1);
        args_to(p, b, &e->args);
        if (e->args.len)
            sb_add(b, ", ", 2);
        sb_puts(b, t);
        sb_add(b, "))", 2);
        return;
    case IRE_STRUCT:
        sb_add(b, "(*(", 3);
        for (int i = 0; i < e->args.len; i++) {
            sb_puts(b, fmt(p, "%s->%s = ", t, e->names[i]));
            expr_to(p, b, VEC_AT(e->args, i, IrExpr));
            sb_add(b, ", ", 2);
        }
        sb_puts(b, t);
        sb_add(b, "))", 2);
        return;
    case IRE_STMTS:
        sb_add(b, "(*", 2);
        sb_puts(b, stmt_expr(p, e, t));
        sb_add(b, ")", 1);
        return;
    case IRE_TEMP_ADDR: /* a copy of e->a in t */
        sb_puts(b, fmt(p, "(*%s = ", t));
        expr_to(p, b, e->a);
        sb_puts(b, fmt(p, ", %s)", t));
        return;
    default:
        cp_unreachable();
    }
}

static void args_to(Pc *p, Sb *b, const PtrVec *v)
{
    for (int i = 0; i < v->len; i++) {
        if (i)
            sb_add(b, ", ", 2);
        expr_to(p, b, VEC_AT(*v, i, IrExpr));
    }
}

static void struct_init_to(Pc *p, Sb *b, const IrExpr *e)
{
    sb_add(b, "{", 1);
    for (int i = 0; i < e->args.len; i++) {
        const IrExpr *a = VEC_AT(e->args, i, IrExpr);
        if (i)
            sb_add(b, ", ", 2);
        if (e->names) {
            sb_add(b, ".", 1);
            sb_puts(b, e->names[i]);
            sb_add(b, " = ", 3);
        }
        /* nested initializers without the compound literal's cast (static
           data needs constant expressions) */
        if (a->kind == IRE_STRUCT)
            struct_init_to(p, b, a);
        else
            expr_to(p, b, a);
    }
    sb_add(b, "}", 1);
}

static const char *struct_init(Pc *p, const IrExpr *e)
{
    Sb b = {0};
    struct_init_to(p, &b, e);
    char *s = arena_strndup(p->scratch, b.buf, b.len);
    free(b.buf);
    return s;
}

static const char *const op_text[IROP__COUNT] = {
    [IROP_NEG] = "-", [IROP_NOT] = "!", [IROP_BITNOT] = "~",
    [IROP_ADD] = "+", [IROP_SUB] = "-", [IROP_MUL] = "*", [IROP_DIV] = "/", [IROP_MOD] = "%",
    [IROP_LAND] = "&&", [IROP_LOR] = "||",
    [IROP_EQ] = "==", [IROP_NE] = "!=", [IROP_LT] = "<", [IROP_GT] = ">", [IROP_LE] = "<=",
    [IROP_GE] = ">=",
    [IROP_BITAND] = "&", [IROP_BITOR] = "|", [IROP_BITXOR] = "^", [IROP_VADD] = "+",
};

static const char *locator(Pc *p, const IrExpr *e)
{
    const char *net = primary(p, e->a), *rep = expr(p, e->b);
    const char *T = e->layout->cname;
    bool blocks = e->form != IRF_PLAIN;
    const char *where = blocks ? fmt(p, "%s->blocks[%s]", net, rep) : fmt(p, "%s->reps[%s]", net, rep);
    const char *shared = e->form == IRF_SHARED ? "_shared" : "";
    switch (e->kind) {
    case IRE_NODES:
        if (e->c)
            return fmt(p, "((%s *)%s.nodes%s[%s])", T, where, shared, expr(p, e->c));
        return fmt(p, "((%s *)%s.nodes%s[%d])", T, where, shared, e->g);
    case IRE_CONNS: return fmt(p, "((%s *)%s.conns%s[%d])", T, where, shared, e->g);
    default:
        return fmt(p, "((%s *)%s.%s%s)", T, where, blocks ? "net" : "net_data", shared);
    }
}

static const char *netinfo(Pc *p, const IrExpr *e)
{
    const char *n = primary(p, e->a);
    const char *x = e->b ? expr(p, e->b) : "", *y = e->c ? expr(p, e->c) : "";
    switch (e->info) {
    case IRN_COUNT: return fmt(p, "%s->count[%s]", n, x);
    case IRN_NREPS: return fmt(p, "%s->nreps", n);
    case IRN_NBLOCKS: return fmt(p, "%s->nblocks", n);
    case IRN_BLOCKED: return fmt(p, "(%s->blocks != NULL)", n);
    case IRN_DST_START: return fmt(p, "%s->bundles[%s].dst_start[%s]", n, x, y);
    case IRN_SRC_START: return fmt(p, "%s->bundles[%s].src_start[%s]", n, x, y);
    case IRN_BY_SRC: return fmt(p, "%s->bundles[%s].by_src[%s]", n, x, y);
    case IRN_SRC_NODE: return fmt(p, "%s->bundles[%s].src_node[%s]", n, x, y);
    case IRN_DST_NODE: return fmt(p, "%s->bundles[%s].dst_node[%s]", n, x, y);
    case IRN_ANY_DEAD: /* set by other threads of a group call: an atomic load */
        return fmt(p, "__atomic_load_n(&%s->bundles[%s].any_dead, __ATOMIC_RELAXED)", n, x);
    case IRN_DEAD: return fmt(p, "%s->bundles[%s].dead[%s]", n, x, y);
    case IRN_BUNDLE: return fmt(p, "(&%s->bundles[%s])", n, x);
    case IRN_NCONN: return fmt(p, "%s->bundles[%s].nconn", n, x);
    case IRN_DENSE: return fmt(p, "%s->bundles[%s].dense", n, x);
    case IRN_NAME: return fmt(p, "rt_net_name(%s)", n);
    case IRN_CONNS_ARRAY: return fmt(p, "((void *const *)%s->reps[%s].conns)", n, x);
    case IRN_BLOCK_CONNS: return fmt(p, "((void *const *)%s->blocks[%s].conns)", n, x);
    default: return "0";
    }
}

/* A statement expression on one line.  big: the heap temporary that the
 * value goes to (big_value_to); the statement expression's value is then
 * its address. */
static const char *stmt_expr(Pc *p, const IrExpr *e, const char *big)
{
    Emitter tmp;
    emit_init(&tmp);
    Emitter *saved = p->out;
    p->out = &tmp;
    p->inline_depth++;
    body_of(p, e->u.body);
    if (e->a && big)
        emit(&tmp, "*%s = %s; %s;", big, expr(p, e->a), big);
    else if (e->a)
        emit(&tmp, "%s;", expr(p, e->a));
    p->inline_depth--;
    p->out = saved;
    size_t n = tmp.len;
    char *s = arena_alloc(p->scratch, n + 32);
    char *q = s;
    q += sprintf(q, "__extension__ ({");
    bool space = true;
    for (size_t i = 0; i < n; i++) {
        char c = tmp.buf[i];
        if (c == '\n' || c == ' ') {
            if (!space)
                *q++ = ' ';
            space = true;
            continue;
        }
        if (space && q[-1] == '{')
            *q++ = ' ';
        *q++ = c;
        space = false;
    }
    if (!space)
        *q++ = ' ';
    q += sprintf(q, "})");
    emit_free(&tmp);
    return s;
}

static void big_value_to(Pc *p, Sb *b, const IrExpr *e, const char *t);

static void expr_to(Pc *p, Sb *b, const IrExpr *e)
{
    if (p->ntmp || e->kind == IRE_COND) {
        const char *t = tmp_of(p, e);
        if (t || (e->kind == IRE_COND && big_type(e->type) && addressable(p, e))) {
            big_value_to(p, b, e, t);
            return;
        }
    }
    switch (e->kind) {
    case IRE_INT: sb_puts(b, int_literal(p, e->type, e->u.i)); return;
    case IRE_REAL: sb_puts(b, real_literal(p, e->u.r)); return;
    case IRE_BOOL: sb_puts(b, e->u.i ? "true" : "false"); return;
    case IRE_STRING: sb_puts(b, string_literal(p, e->u.str.bytes, e->u.str.len)); return;
    case IRE_NULL: sb_puts(b, "NULL"); return;
    case IRE_VAR: sb_puts(b, var_name(p, e->u.var)); return;
    case IRE_FIELD:
    case IRE_MEMBER:
        primary_to(p, b, e->a);
        sb_add(b, ".", 1);
        sb_puts(b, e->kind == IRE_FIELD ? e->u.field->name : e->u.member);
        return;
    case IRE_INDEX:
        primary_to(p, b, e->a);
        sb_add(b, "[", 1);
        expr_to(p, b, e->b);
        sb_add(b, "]", 1);
        return;
    case IRE_DEREF:
    case IRE_ADDR:
        sb_puts(b, e->kind == IRE_DEREF ? "(*" : "(&");
        primary_to(p, b, e->a);
        sb_add(b, ")", 1);
        return;
    case IRE_NODES: case IRE_CONNS: case IRE_NETREC: sb_puts(b, locator(p, e)); return;
    case IRE_NETINFO: sb_puts(b, netinfo(p, e)); return;
    case IRE_UNARY:
        sb_add(b, "(", 1);
        sb_puts(b, op_text[e->op]);
        primary_to(p, b, e->a);
        sb_add(b, ")", 1);
        return;
    case IRE_BINARY:
        sb_add(b, "(", 1);
        expr_to(p, b, e->a);
        sb_add(b, " ", 1);
        sb_puts(b, op_text[e->op]);
        sb_add(b, " ", 1);
        expr_to(p, b, e->b);
        sb_add(b, ")", 1);
        return;
    case IRE_COND:
        sb_add(b, "(", 1);
        expr_to(p, b, e->a);
        sb_add(b, " ? ", 3);
        expr_to(p, b, e->b);
        sb_add(b, " : ", 3);
        expr_to(p, b, e->c);
        sb_add(b, ")", 1);
        return;
    case IRE_CAST:
        sb_add(b, "((", 2);
        sb_puts(b, type_name(p, e->type));
        sb_add(b, ")", 1);
        primary_to(p, b, e->a);
        sb_add(b, ")", 1);
        return;
    case IRE_CALL:
        if (!e->fn && !e->ext && e->helper == IRH_NONE)
            primary_to(p, b, e->a);
        else
            sb_puts(b, e->fn ? e->fn->name : e->ext ? e->ext : ir_helper_name(e->helper));
        sb_add(b, "(", 1);
        args_to(p, b, &e->args);
        sb_add(b, ")", 1);
        return;
    case IRE_STRUCT:
        sb_add(b, "((", 2);
        sb_puts(b, type_name(p, e->type));
        sb_add(b, ")", 1);
        struct_init_to(p, b, e);
        sb_add(b, ")", 1);
        return;
    case IRE_TEMP_ADDR:
        if (p->ntmp && tmp_of(p, e->a)) { /* needs_tmp: a large value's temporary */
            big_addr_to(p, b, e->a);
            return;
        }
        if (e->a->type->kind == IRT_ARRAY) { /* an array literal: its elements */
            sb_add(b, "(", 1);
            sb_puts(b, type_name(p, e->a->type));
            sb_add(b, ")", 1);
            struct_init_to(p, b, e->a);
            return;
        }
        /* u.i: a modifiable copy */
        sb_puts(b, fmt(p, "(%s%s[]){", e->u.i ? "" : "const ", type_name(p, e->a->type)));
        expr_to(p, b, e->a);
        sb_add(b, "}", 1);
        return;
    case IRE_STMTS: sb_puts(b, stmt_expr(p, e, NULL)); return;
    case IRE_POS: sb_puts(b, fmt(p, "CP_POS(%d)", (int)e->u.i)); return;
    case IRE_SIZEOF: sb_puts(b, fmt(p, "sizeof(%s)", type_name(p, e->a->type))); return;
    case IRE_OFFSETOF:
        sb_puts(b, fmt(p, "offsetof(%s, %s)", type_name(p, e->a->type), e->u.member));
        return;
    case IRE_FUNCREF: sb_puts(b, e->fn->name); return;
    case IRE_NAMED: sb_puts(b, e->u.member); return;
    default: sb_puts(b, "0"); return;
    }
}

/* ---- statements ------------------------------------------------------------------- */

static void set_line(Pc *p, Loc loc)
{
    if (p->inline_depth == 0 && p->m->opts.line_directives && loc.line > 0) {
        p->out->line = loc.line;
        p->out->line_file = p->line_file;
    }
}

static void no_line(Pc *p)
{
    if (p->inline_depth == 0)
        p->out->line = 0;
}

/* The statements of a block without its braces (a function body). */
static void body_of(Pc *p, const IrStmt *s)
{
    if (!s)
        return;
    if (s->kind != IRS_BLOCK) {
        stmt(p, s);
        return;
    }
    for (int i = 0; i < s->list.len; i++)
        stmt(p, VEC_AT(s->list, i, IrStmt));
}

static void braced(Pc *p, const char *head, const IrStmt *body)
{
    emit_open(p->out, "%s", head);
    body_of(p, body);
    emit_close(p->out, "%s", "");
}

static void decl_stmt(Pc *p, const IrVar *v, const IrExpr *init, bool uninit, int line)
{
    if (v->kind == IRV_LOCAL && c_bytes(v->type) > CP_LOCAL_STACK_MAX) {
        /* zero-filled storage on the heap, freed where the scope ends */
        const char *d = decl_q(p, v->type, fmt(p, "(*%s)", v->name), false);
        emit(p->out, "%s __attribute__((cleanup(rt_local_free))) = rt_local_alloc(CP_POS(%d), sizeof *%s);",
             d, line, v->name);
        add_heap_var(p, v);
        if (init)
            emit(p->out, "*%s = %s;", v->name, expr(p, init));
        return;
    }
    const char *d = decl_q(p, v->type, v->name, v->is_const);
    if (v->kind == IRV_LOCAL && v->type->kind == IRT_IO)
        /* the library forgets an area it allocated for it (cupit_rt.h) */
        d = fmt(p, "%s __attribute__((cleanup(rt_io_local_end)))", d);
    if (init)
        emit(p->out, "%s CP_UNUSED = %s;", d, expr(p, init));
    else if (uninit)
        emit(p->out, "%s CP_UNUSED;", d);
    else
        emit(p->out, "%s CP_UNUSED = {0};", d);
}

static const char *loop_header(Pc *p, const IrStmt *s)
{
    const char *v = s->var->name, *T = type_name(p, s->var->type);
    return fmt(p, "for (%s %s = %s; %s <= %s; %s++)", T, v, expr(p, s->lo), v, expr(p, s->hi), v);
}

/* A loop that runs as an OpenMP parallel for when s->par holds.  The serial
 * branch does not enter OpenMP at all (an if(false) region still costs a
 * futex call). */
static void for_range(Pc *p, const IrStmt *s)
{
    const char *head = loop_header(p, s);
    if (!s->par) {
        braced(p, head, s->then);
        return;
    }
    emit_open(p->out, "if (%s)", cond_expr(p, s->par));
    emit_directive(p->out, "CP_PRAGMA(omp parallel for schedule(static))");
    braced(p, head, s->then);
    emit_close(p->out, "%s", "");
    emit_open(p->out, "else");
    braced(p, head, s->then);
    emit_close(p->out, "%s", "");
}

/* A loop over the connections of one node at one interface.  Where it
 * skips connections marked for deletion, it reads the bundle's any_dead
 * flag once, before the loop, and as an atomic load: other threads of the
 * group call set it (rt_request_conn_replicate) while this one runs, and a
 * plain read of it would be a data race.  The loop's own marks are of
 * connections it has passed already. */
static void for_conns(Pc *p, const IrStmt *s)
{
    const char *net = primary(p, s->a), *node = expr(p, s->b), *k = s->var->name;
    const char *any = fmt(p, "%sdead_", k);
    if (s->skip_dead) {
        emit_open(p->out, "%s", "");
        emit(p->out, "const bool %s = __atomic_load_n(&%s->bundles[%d].any_dead, __ATOMIC_RELAXED);",
             any, net, s->g);
    }
    if (!s->out) {
        emit_open(p->out, "for (int32_t %s = %s->bundles[%d].dst_start[%s]; %s < %s->bundles[%d].dst_start[%s + 1]; %s++)",
                  k, net, s->g, node, k, net, s->g, node, k);
    } else {
        const char *j = s->j->name;
        emit_open(p->out, "for (int32_t %s = %s->bundles[%d].src_start[%s]; %s < %s->bundles[%d].src_start[%s + 1]; %s++)",
                  j, net, s->g, node, j, net, s->g, node, j);
        emit(p->out, "const int32_t %s = %s->bundles[%d].by_src[%s];", k, net, s->g, j);
    }
    if (s->skip_dead)
        emit(p->out, "if (%s && %s->bundles[%d].dead[%s]) continue;", any, net, s->g, k);
    body_of(p, s->then);
    emit_close(p->out, "%s", "");
    if (s->skip_dead)
        emit_close(p->out, "%s", "");
}

static void for_stmt(Pc *p, const IrStmt *s)
{
    switch (s->for_kind) {
    case IRFOR_LANES: {
        const char *v = s->var->name;
        braced(p, fmt(p, "%sfor (int %s = 0; %s < RT_LANES; %s++)", s->simd ? "CP_SIMD " : "", v, v, v),
               s->then);
        return;
    }
    case IRFOR_CONNS:
        for_conns(p, s);
        return;
    default:
        for_range(p, s);
        return;
    }
}

/* ---- reductions -------------------------------------------------------------------------- */

/* The REDUCE whose yields are being printed. */
static const IrStmt *cur_reduce;

static void yield(Pc *p, const IrStmt *y)
{
    const IrReduce *r = cur_reduce->red;
    const char *acc = var_name(p, r->acc), *v = expr(p, y->a);
    const IrFunc *cf = r->combine;
    const char *out = fmt(p, "%sres", r->acc->name);
    const char *pos = y->b ? expr(p, y->b) : "0", *bnd = y->c ? expr(p, y->c) : "0";
    const char *win = r->win ? r->win->name : NULL, *winb = r->winb ? r->winb->name : NULL;
    switch (r->kind) {
    case IRR_SERIAL: {
        const char *have = r->have->name;
        if (!r->wta) {
            emit(p->out, "if (%s) %s = %s; else { %s = %s; %s = true; }", have, acc,
                 combine_call(p, cf, acc, v, out), acc, v, have);
        } else {
            emit(p->out, "if (!%s || %s) { %s = %s; %s = %s; %s = %s; %s = true; }", have,
                 combine_call(p, cf, v, acc, out), acc, v, win, pos, winb, bnd, have);
        }
        return;
    }
    case IRR_LANES: {
        const char *first = r->have->name, *l = r->lane->name;
        const char *L = fmt(p, "CP_SIMD for (int %s = 0; %s < RT_LANES; %s++)", l, l, l);
        const char *V = fmt(p, "%s[%s]", primary(p, y->a), l);
        const char *accl = fmt(p, "%s[%s]", acc, l);
        if (!r->wta)
            emit(p->out, "if (%s) { %s %s[%s] = %s; %s = false; } else { %s %s[%s] = %s; }",
                 first, L, acc, l, V, first, L, acc, l, combine_call(p, cf, accl, V, out));
        else
            emit(p->out, "if (%s) { %s { %s[%s] = %s; %s[%s] = %s; %s[%s] = %s; } %s = false; } "
                         "else { %s if (%s) { %s[%s] = %s; %s[%s] = %s; %s[%s] = %s; } }",
                 first, L, acc, l, V, win, l, pos, winb, l, bnd, first, L,
                 combine_call(p, cf, V, accl, out), acc, l, V, win, l, pos, winb, l, bnd);
        return;
    }
    case IRR_VSUM: {
        const char *VT = base_type(p, r->vacc->type);
        emit(p->out, "{ %s v_; __builtin_memcpy(&v_, %s, sizeof v_); %s += v_; %s = false; }", VT, v,
             var_name(p, r->vacc), r->have->name);
        return;
    }
    case IRR_LANES_MASKED: {
        const char *l = r->lane->name;
        const char *V = fmt(p, "%s[%s]", primary(p, y->a), l);
        const char *sel = expr(p, y->lane_sel);
        const char *accl = fmt(p, "%s[%s]", acc, l);
        if (!r->wta)
            emit(p->out, "CP_SIMD for (int %s = 0; %s < RT_LANES; %s++) if (%s) { if (%s[%s] < 0) { %s[%s] = %s; %s[%s] = 0; } else %s[%s] = %s; }",
                 l, l, l, sel, win, l, acc, l, V, win, l, acc, l, combine_call(p, cf, accl, V, out));
        else
            emit(p->out, "CP_SIMD for (int %s = 0; %s < RT_LANES; %s++) if (%s) { if (%s[%s] < 0 || %s) { %s[%s] = %s; %s[%s] = %s; %s[%s] = %s; } }",
                 l, l, l, sel, win, l, combine_call(p, cf, V, accl, out), acc, l, V, win, l, pos, winb, l, bnd);
        return;
    }
    }
}

static void reduce(Pc *p, const IrStmt *s)
{
    const IrReduce *r = s->red;
    const IrStmt *saved = cur_reduce;
    emit_open(p->out, "%s", "");
    decl_stmt(p, r->acc, NULL, false, s->loc.line);
    if (out_result(r->combine)) /* combine_call */
        emit(p->out, "%s __attribute__((cleanup(rt_local_free))) = rt_local_alloc(CP_POS(%d), sizeof *%sres);",
             decl(p, r->combine->ret, fmt(p, "(*%sres)", r->acc->name)), s->loc.line, r->acc->name);
    if (r->kind == IRR_SERIAL) {
        emit(p->out, "bool %s CP_UNUSED = false;", r->have->name);
        if (r->wta)
            emit(p->out, "int32_t %s CP_UNUSED = -1, %s CP_UNUSED = -1;", r->win->name, r->winb->name);
    } else {
        const char *l = r->lane->name;
        emit(p->out, "int32_t %s[RT_LANES] CP_UNUSED, %s[RT_LANES] CP_UNUSED;", r->win->name,
             r->winb->name);
        emit(p->out, "for (int %s = 0; %s < RT_LANES; %s++) { %s[%s] = -1; %s[%s] = -1; }", l, l, l,
             r->win->name, l, r->winb->name, l);
        emit(p->out, "bool %s CP_UNUSED = true;", r->have->name);
        if (r->kind == IRR_VSUM) {
            decl_stmt(p, r->vacc, NULL, false, s->loc.line);
            if (r->vtype->kind == IRT_VALUE && r->vtype->cupit->kind == TY_REAL)
                emit(p->out, "%s = -%s; /* -0.0, the identity of IEEE addition */", var_name(p, r->vacc),
                     var_name(p, r->vacc));
        }
    }
    cur_reduce = s;
    body_of(p, s->then);
    cur_reduce = saved;
    if (r->kind == IRR_SERIAL) {
        if (!r->wta && r->after) {
            /* a REDUCTION whose result goes on (to the other replicates) */
            emit_open(p->out, "if (%s)", r->have->name);
            emit(p->out, "%s = %s;", expr(p, r->into), var_name(p, r->acc));
            body_of(p, r->after);
            emit_close(p->out, "%s", "");
        } else if (!r->wta)
            emit(p->out, "if (%s) %s = %s;", r->have->name, expr(p, r->into), var_name(p, r->acc));
        else if (r->after)
            braced(p, fmt(p, "if (%s)", r->have->name), r->after);
        emit_close(p->out, "%s", "");
        return;
    }
    const char *l = r->lane->name, *M = expr(p, r->mask);
    const char *Ml = fmt(p, "%s[%s]", primary(p, r->mask), l);
    (void)M;
    if (r->kind == IRR_VSUM)
        emit(p->out, "__builtin_memcpy(%s, &%s, sizeof %s);", var_name(p, r->acc), var_name(p, r->vacc),
             var_name(p, r->acc));
    if (!r->wta && r->after) {
        /* the target's calls (after), then the stores, in the lanes with a result */
        emit(p->out, "int32_t %s[RT_LANES];", r->wmask->name);
        emit(p->out, "for (int %s = 0; %s < RT_LANES; %s++) %s[%s] = %s && (!%s || %s[%s] >= 0);",
             l, l, l, r->wmask->name, l, Ml, r->have->name, r->win->name, l);
        body_of(p, r->after);
        emit(p->out, "for (int %s = 0; %s < RT_LANES; %s++) if (%s[%s]) %s = %s[%s];", l, l, l,
             r->wmask->name, l, expr(p, r->into), var_name(p, r->acc), l);
    } else if (!r->wta) {
        emit(p->out, "for (int %s = 0; %s < RT_LANES; %s++) if (%s && (!%s || %s[%s] >= 0)) %s = %s[%s];",
             l, l, l, Ml, r->have->name, r->win->name, l, expr(p, r->into), var_name(p, r->acc), l);
    } else {
        emit(p->out, "for (int %s = 0; %s < RT_LANES; %s++) if (!%s) %s[%s] = -1;", l, l, l, Ml,
             r->win->name, l);
        emit_open(p->out, "for (int w_ = 0; w_ < RT_LANES; w_++)");
        emit(p->out, "if (%s[w_] < 0) continue;", r->win->name);
        emit(p->out, "int32_t %s[RT_LANES];", r->wmask->name);
        emit(p->out, "const int32_t %s = %s[w_], %s CP_UNUSED = %s[w_];", r->wpos->name,
             r->win->name, r->wbundle->name, r->winb->name);
        emit(p->out, "for (int %s = 0; %s < RT_LANES; %s++) { %s[%s] = %s[%s] == %s && %s[%s] == %s; if (%s[%s]) %s[%s] = -1; }",
             l, l, l, r->wmask->name, l, r->win->name, l, r->wpos->name, r->winb->name, l,
             r->wbundle->name, r->wmask->name, l, r->win->name, l);
        body_of(p, r->after);
        emit_close(p->out, "%s", "");
    }
    emit_close(p->out, "%s", "");
}

/* One round of the lane fold: pairs of lanes 2w apart, as vector
 * permutations where the compiler has them. */
static void shuffle(Pc *p, const IrStmt *s)
{
    const char *m = primary(p, s->a), *y = primary(p, s->b), *f = s->field->name;
    const IrType *vt = s->field->type->elem;
    int w = s->w;
    bool vec = vt->kind == IRT_VALUE && (vt->cupit->kind == TY_REAL || vt->cupit->kind == TY_INT);
    if (vec) {
        const char *VT = vt->cupit->kind == TY_REAL ? "cp_vreal" : "cp_vint";
        char ia[160] = "", iy[160] = "";
        for (int l = 0; l < 16; l++) {
            size_t na = strlen(ia), ny = strlen(iy);
            snprintf(ia + na, sizeof ia - na, ", %d", l & -(2 * w));
            snprintf(iy + ny, sizeof iy - ny, ", %d", (l & -(2 * w)) + w);
        }
        emit_directive(p->out, "#ifdef CP_SHUFFLE");
        emit(p->out, "{ %s v_; __builtin_memcpy(&v_, %s.%s, sizeof v_); const %s a_ = __builtin_shufflevector(v_, v_%s); "
                     "const %s y_ = __builtin_shufflevector(v_, v_%s); __builtin_memcpy(%s.%s, &a_, sizeof a_); "
                     "__builtin_memcpy(%s.%s, &y_, sizeof y_); }",
             VT, m, f, VT, ia, VT, iy, m, f, y, f);
        emit_directive(p->out, "#else");
    }
    /* In place, without a copy of the lanes (RT_LANES copies of a large
       ARRAY element would not fit the stack): YOU's lanes first, then ME's
       from the top, where lane l & -2w <= l still holds its old value. */
    emit(p->out, "for (int l = 0; l < RT_LANES; l++) %s.%s[l] = %s.%s[(l & -%d) + %d]; "
                 "for (int l = RT_LANES - 1; l >= 0; l--) %s.%s[l] = %s.%s[l & -%d];",
         y, f, m, f, 2 * w, w, m, f, m, f, 2 * w);
    if (vec)
        emit_directive(p->out, "#endif");
}

static void stmt_of(Pc *p, const IrStmt *s);

/* A statement, after the heap temporaries of its large values: in a block
 * of its own, which frees them, but for a declaration. */
static void stmt(Pc *p, const IrStmt *s)
{
    int first;
    if (!stmt_tmps(p, s, &first)) {
        stmt_of(p, s);
        return;
    }
    set_line(p, s->loc);
    bool block = s->kind != IRS_DECL;
    if (block)
        emit_open(p->out, "%s", "");
    stmt_tmps_decl(p, first, s->loc.line);
    stmt_of(p, s);
    if (block)
        emit_close(p->out, "%s", "");
}

static void stmt_of(Pc *p, const IrStmt *s)
{
    set_line(p, s->loc);
    Emitter *o = p->out;
    switch (s->kind) {
    case IRS_BLOCK:
        braced(p, "", s);
        return;
    case IRS_DECL:
        decl_stmt(p, s->var, s->a, s->uninit, s->loc.line);
        return;
    case IRS_ASSIGN:
        emit(o, "%s = %s;", expr(p, s->a), expr(p, s->b));
        return;
    case IRS_EVAL:
        emit(o, "%s;", expr(p, s->a));
        return;
    case IRS_IF:
        braced(p, fmt(p, "if (%s)", cond_expr(p, s->a)), s->then);
        if (s->els)
            braced(p, "else", s->els);
        return;
    case IRS_LOOP:
        braced(p, "for (;;)", s->then);
        return;
    case IRS_FOR:
        for_stmt(p, s);
        return;
    case IRS_BREAK:
        emit(o, "break;");
        return;
    case IRS_CONTINUE:
        emit(o, "continue;");
        return;
    case IRS_RETURN:
        if (s->a && p->fn && out_result(p->fn))
            emit(o, "return (*cp_res = %s, cp_res);", expr(p, s->a));
        else if (s->a)
            emit(o, "return %s;", expr(p, s->a));
        else
            emit(o, "return;");
        return;
    case IRS_SWITCH:
        emit_open(o, "switch (%s)", expr(p, s->a));
        for (int i = 0; i < s->list.len; i++) {
            emit_open(o, "case %" PRId64 ":", s->ints[i]);
            body_of(p, VEC_AT(s->list, i, IrStmt));
            emit(o, "break;");
            emit_close(o, "%s", "");
        }
        emit(o, "default: break;");
        emit_close(o, "%s", "");
        return;
    case IRS_REDUCE:
        reduce(p, s);
        return;
    case IRS_YIELD:
        yield(p, s);
        return;
    case IRS_SHUFFLE:
        shuffle(p, s);
        return;
    case IRS_COMMENT:
        emit(o, "/* %s */", s->text);
        return;
    default:
        return;
    }
}

/* ---- functions ---------------------------------------------------------------------------- */

static const char *signature(Pc *p, const IrFunc *f)
{
    const char *params = "void";
    bool out = out_result(f); /* the result goes to *cp_res */
    if (f->params.len || out) {
        /* one pass to size, one to copy: linear in the parameter count */
        int np = f->params.len + out;
        const char **parts = arena_alloc(p->scratch, (size_t)np * sizeof *parts);
        size_t n = 0;
        for (int i = 0; i < np; i++) {
            const IrVar *v = i < f->params.len ? VEC_AT(f->params, i, IrVar) : NULL;
            /* a parameter need not be used (CuPit allows unused ones) */
            parts[i] = !v ? decl(p, f->ret, "*restrict cp_res")
                       : param_by_address(f, v)
                           ? fmt(p, "%s CP_UNUSED", decl_q(p, v->type, fmt(p, "(*%s)", v->name), true))
                           : fmt(p, "%s CP_UNUSED", decl_q(p, v->type, v->name, v->is_const));
            n += strlen(parts[i]) + 2;
        }
        char *s = arena_alloc(p->scratch, n + 1), *q = s;
        for (int i = 0; i < np; i++) {
            if (i) {
                memcpy(q, ", ", 2);
                q += 2;
            }
            size_t k = strlen(parts[i]);
            memcpy(q, parts[i], k);
            q += k;
        }
        *q = '\0';
        params = s;
    }
    const char *head = f->role == IRFN_EXTERNAL || f->exported ? ""
                       : f->is_inline ? "static CP_UNUSED inline "
                                      : "static CP_UNUSED ";
    return fmt(p, "%s%s", head, decl(p, f->ret, fmt(p, out ? "(*%s(%s))" : "%s(%s)", f->name, params)));
}

static void reset_scratch(Pc *p)
{
    arena_reset(p->scratch);
    p->heap = NULL; /* in the scratch arena; the locals of one function */
    p->nheap = p->capheap = 0;
    p->tmp_e = NULL;
    p->tmp_name = NULL;
    p->ntmp = p->captmp = 0;
}

static bool function(Pc *p, const IrFunc *f, const IrBodyHooks *hooks)
{
    bool built = false;
    if (!f->body && f->streamed && hooks) {
        if (!hooks->build((IrFunc *)f, hooks->data))
            return false;
        built = true;
    }
    if (f->body) {
        set_line(p, f->loc);
        p->fn = f;
        for (int i = 0; i < f->params.len; i++) /* read through the pointer */
            if (param_by_address(f, VEC_AT(f->params, i, IrVar)))
                add_heap_var(p, VEC_AT(f->params, i, IrVar));
        braced(p, signature(p, f), f->body);
        p->fn = NULL;
        no_line(p);
        emit(p->out, "%s", "");
        reset_scratch(p);
    }
    if (built)
        hooks->release((IrFunc *)f, hooks->data);
    return true;
}

/* ---- types of the program --------------------------------------------------------------- */

static void struct_of(Pc *p, const IrLayout *l)
{
    emit_open(p->out, "typedef struct %s", l->cname);
    int n = 0;
    for (int i = 0; i < l->fields.len; i++) {
        const IrField *f = VEC_AT(l->fields, i, IrField);
        if (f->dropped)
            continue;
        if (f->slot_proc)
            emit(p->out, "%s; /* slot: %s of the call of %s */", decl(p, f->type, f->name),
                 f->slot_param->name, f->slot_proc->name);
        else
            emit(p->out, "%s;", decl(p, f->type, f->name));
        n++;
    }
    if (n == 0)
        emit(p->out, "%s", l->form == IRF_LANE ? "char cp_empty[RT_LANES];"
                                              : "char cp_empty; /* C structs cannot be empty */");
    emit_close(p->out, " %s;", l->cname);
}

static void types(Pc *p)
{
    const IrModule *m = p->m;
    emit_directive(p->out, "/* ===== types ===== */");
    for (int i = 0; i < m->si->types.len; i++) {
        const Type *t = VEC_AT(m->si->types, i, Type);
        switch (t->kind) {
        case TY_SYMBOLIC:
            emit(p->out, "typedef cp_int cpT_%s;", t->name);
            emit_open(p->out, "enum");
            for (int v = 0; v < t->values.len; v++)
                emit(p->out, "cpE_%s_%s = %d,", t->name, VEC_AT(t->values, v, Symbol)->name, v);
            emit_close(p->out, ";");
            break;
        case TY_RECORD: case TY_NODE: case TY_CONNECTION: case TY_NETWORK: case TY_ARRAY: {
            const IrLayout *pl = ir_layout_find(m, t, IRF_PLAIN);
            if (!pl)
                break;
            if (t->kind == TY_ARRAY) {
                const IrField *a = VEC_AT(pl->fields, 0, IrField);
                emit(p->out, "typedef struct %s { %s; } %s;", pl->cname, decl(p, a->type, "a"),
                     pl->cname);
                break;
            }
            struct_of(p, pl);
            const IrLayout *ll = ir_layout_find(m, t, IRF_LANE);
            if (ll)
                struct_of(p, ll);
            const IrLayout *sl = ir_layout_find(m, t, IRF_SHARED);
            if (sl && ir_layout_live_fields(sl))
                struct_of(p, sl);
            break;
        }
        default:
            break;
        }
        reset_scratch(p);
    }
    emit(p->out, "%s", "");
}

static void statics(Pc *p)
{
    const IrModule *m = p->m;
    emit_directive(p->out, "/* ===== static objects ===== */");
    for (int i = 0; i < m->statics.len; i++) {
        const IrStatic *s = VEC_AT(m->statics, i, IrStatic);
        if (s->comment)
            emit(p->out, "/* %s */", s->comment);
        const char *d = decl_q(p, s->var->type, s->var->name, s->is_const);
        if (s->var->type->kind == IRT_ARRAY && s->var->type->n == -2) {
            emit_open(p->out, "static CP_UNUSED %s =", d);
            for (int r = 0; r < s->rows.len; r++) {
                const IrExpr *row = VEC_AT(s->rows, r, IrExpr);
                emit(p->out, "%s,", row->kind == IRE_STRUCT ? struct_init(p, row) : expr(p, row));
            }
            emit_close(p->out, ";");
        } else if (s->init) {
            emit(p->out, "static CP_UNUSED %s = %s;", d,
                 s->init->kind == IRE_STRUCT ? struct_init(p, s->init) : expr(p, s->init));
        } else {
            emit(p->out, "static CP_UNUSED %s;", d);
        }
        reset_scratch(p);
    }
    emit(p->out, "%s", "");
    reset_scratch(p);
}

bool print_c_module(const IrModule *m, Emitter *out, const IrBodyHooks *hooks)
{
    Pc p = {.m = m, .out = out, .scratch = arena_new()};
    const IrOptions *o = &m->opts;
    const char *q = string_literal(&p, o->source_name, (int)strlen(o->source_name));
    p.line_file = arena_strndup(p.scratch, q + 1, strlen(q) - 2);
    /* the source name outlives the scratch arena */
    Arena *keep = arena_new();
    p.line_file = arena_strdup(keep, p.line_file);

    emit_directive(out, "/* Generated by cupitc from %s. */", o->source_name);
    emit_directive(out, "#define CP_CHECK_INDEX %d", o->check_index ? 1 : 0);
    emit_directive(out, "#define CP_CHECK_OVERFLOW %d", o->check_overflow ? 1 : 0);
    emit_directive(out, "#ifndef CP_PAR_MIN_WORK");
    emit_directive(out, "#define CP_PAR_MIN_WORK 20000");
    emit_directive(out, "#endif");
    emit_directive(out, "#ifndef CP_PAR_LANE_WORK");
    emit_directive(out, "#define CP_PAR_LANE_WORK 80000");
    emit_directive(out, "#endif");
    emit_directive(out, "#define CP_RANDOM_IN_PARALLEL %d", m->random_in_parallel ? 1 : 0);
    emit_directive(out, "#define CP_POS(line) ((rt_srcpos){cp_source_file, (line)})");
    emit_raw(out, "%s", pc_prelude);
    emit(out, "static CP_UNUSED const char cp_source_file[] = %s;", q);
    types(&p);

    emit_directive(out, "/* ===== prototypes ===== */");
    for (int i = 0; i < m->funcs.len; i++) {
        const IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        if (f->role == IRFN_EXTERNAL) /* called by its own name, f->name */
            emit(out, "extern %s CP_LINK(\"%s\");", signature(&p, f), f->link_name);
        else if (!f->exported)
            emit(out, "%s;", signature(&p, f));
        reset_scratch(&p);
    }
    emit(out, "%s", "");
    reset_scratch(&p);
    statics(&p);

    emit_directive(out, "/* ===== functions ===== */");
    bool ok = true;
    for (int i = 0; i < m->funcs.len && ok; i++)
        ok = function(&p, VEC_AT(m->funcs, i, IrFunc), hooks);
    arena_free(p.scratch);
    arena_free(keep);
    return ok;
}
