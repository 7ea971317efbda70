/* constfold.c -- compile-time evaluation of constant expressions.
 *
 * Integral values are computed in 64 bits and must fit the range of the
 * expression's type (Int1 + Int1 is Int1, §9).  Real is IEEE single
 * precision on the target (docs/compiler-dependent.md): every Real value
 * is rounded to float, so that a folded expression has the value the
 * same expression computed at run time has (each operation computed in
 * double and rounded is the correctly rounded float result).
 * Integral overflow, integral division by zero and a negative integral
 * exponent are run-time errors that would occur in every run, so they are
 * reported here (§10.1); a Real division by zero or a Real overflow is no
 * error at run time (the IEEE infinity or NaN, docs/compiler-dependent.md),
 * nor here. */
#include <math.h>
#include <stdarg.h>

#include "sema_internal.h"

/* The context of the expression sema_fold folds.  In code that no run
 * executes (the untaken arm of a constant condition, Ctx.dead) a value
 * that would be a run-time error there is no error (§10.1: only one that
 * occurs in every run in which the construct executes), and the
 * expression is left unfolded: every error path below returns before the
 * value is set. */
static const Ctx *fold_cx;

static void fold_error(const Expr *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fold_error(const Expr *e, const char *fmt, ...)
{
    if (fold_cx->dead)
        return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(e->loc, "%s", msg);
}

static double real_of(const Expr *e)
{
    return e->type->kind == TY_REAL ? e->const_real : (double)e->const_int;
}

static void set_int(Expr *e, int64_t v)
{
    e->is_const = true;
    e->const_int = v;
}

double sema_real_value(double v)
{
    return (double)(float)v;
}

static void set_real(Expr *e, double v)
{
    e->is_const = true;
    e->const_real = sema_real_value(v);
}

static bool fits(const Type *t, int64_t v)
{
    int64_t lo, hi;
    type_int_range(t, &lo, &hi);
    return v >= lo && v <= hi;
}

static void int_result(Expr *e, int64_t v, bool overflow)
{
    if (overflow || !fits(e->type, v)) {
        if (overflow)
            fold_error(e, "integer overflow in constant expression");
        else
            fold_error(e, "integer overflow in constant expression: %lld does not "
                       "fit in %s, the type of this operation%s", (long long)v,
                       e->type->name, e->type->kind == TY_INT ? "" :
                       " (convert an operand, e.g. Int (...))");
        return;
    }
    set_int(e, v);
}

/* v: the result of an operation on the finite or non-finite Reals x and
 * y.  An operation that makes a finite value infinite overflows Real: at
 * run time that is the IEEE infinity and no error (§9 "machine
 * arithmetic", not in §10.3), so the folded value is the infinity too;
 * -Wreal-infinity points it out, as for a denoter beyond Real. */
static void real_result(Expr *e, double v, double x, double y)
{
    v = sema_real_value(v);
    if (isinf(v) && isfinite(x) && isfinite(y) && !fold_cx->dead)
        vec_push(fold_cx->si->arena, &fold_cx->si->inf_reals, e);
    set_real(e, v);
}

/* Real ** integral as the run time computes it (rt_rpow_int). */
static double real_pow_int(double base, int64_t b)
{
    double r = 1.0;
    uint64_t n = b < 0 ? (uint64_t)(-(b + 1)) + 1 : (uint64_t)b;
    while (n) {
        if (n & 1)
            r *= base;
        base *= base;
        n >>= 1;
    }
    return b < 0 ? 1.0 / r : r;
}

static bool int_pow(int64_t base, int64_t exp, int64_t *out)
{
    int64_t r = 1;
    for (int64_t i = 0; i < exp; i++) {
        if (__builtin_mul_overflow(r, base, &r))
            return false;
        if (r == 0 || r == 1)
            break; /* stays 0 or 1 */
        if (r == -1 && i + 1 < exp) { /* (-1)**n */
            r = ((exp - i - 1) % 2 == 0) ? -1 : 1;
            break;
        }
    }
    *out = r;
    return true;
}

static void fold_unary(Expr *e)
{
    Expr *a = e->u.unary.operand;
    if (!a->is_const)
        return;
    switch (e->u.unary.op) {
    case OP_NOT: set_int(e, !a->const_int); break;
    case OP_BITNOT: set_int(e, ~a->const_int); break;
    case OP_NEG:
        if (e->type->kind == TY_REAL)
            set_real(e, 0.0 - a->const_real); /* §9: 0 - a, so -(0.0) is +0.0 */
        else
            int_result(e, -a->const_int, false);
        break;
    default: break; /* MIN, MAX, RANDOM: intervals are not folded */
    }
}

static void fold_compare(Expr *e, Op op, const Expr *a, const Expr *b)
{
    int cmp;
    if (a->type->kind == TY_REAL || b->type->kind == TY_REAL) {
        double x = real_of(a), y = real_of(b);
        if (isnan(x) || isnan(y)) { /* unordered: only <> holds */
            set_int(e, op == OP_NE);
            return;
        }
        cmp = x < y ? -1 : x > y;
    } else {
        cmp = a->const_int < b->const_int ? -1 : a->const_int > b->const_int;
    }
    bool r;
    switch (op) {
    case OP_EQ: r = cmp == 0; break;
    case OP_NE: r = cmp != 0; break;
    case OP_LT: r = cmp < 0; break;
    case OP_GT: r = cmp > 0; break;
    case OP_LE: r = cmp <= 0; break;
    default: r = cmp >= 0; break;
    }
    set_int(e, r);
}

static void fold_real_binary(Expr *e, Op op, double x, double y)
{
    double v;
    bool pole;
    switch (op) {
    case OP_ADD: real_result(e, x + y, x, y); break;
    case OP_SUB: real_result(e, x - y, x, y); break;
    case OP_MUL: real_result(e, x * y, x, y); break;
    case OP_DIV:
    case OP_MOD:
        if (op == OP_DIV) {
            v = x / y;
        } else { /* cp_fmod_real: each step rounded to float, the
                    quotient before it is truncated */
            double q = trunc(sema_real_value(x / y));
            v = x - sema_real_value(y * q);
        }
        if (y == 0.0) /* not checked at run time: the IEEE infinity or NaN */
            set_real(e, v);
        else
            real_result(e, v, x, y);
        break;
    case OP_POW:
        if (x < 0.0 && e->u.binary.rhs->type->kind == TY_REAL) {
            fold_error(e, "negative base with a Real exponent in constant "
                       "expression");
            return;
        }
        if (e->u.binary.rhs->type->kind == TY_REAL) {
            v = y == 0.0 ? 1.0 : pow(x, y);
            pole = x == 0.0 && y < 0.0;
        } else {
            v = real_pow_int(x, e->u.binary.rhs->const_int);
            pole = x == 0.0 && e->u.binary.rhs->const_int < 0;
            y = 0.0;
        }
        if (pole) /* 0 ** -n is 1 / 0: the infinity, as at run time */
            set_real(e, v);
        else
            real_result(e, v, x, y);
        break;
    default: break;
    }
}

static void fold_binary(Expr *e)
{
    Expr *a = e->u.binary.lhs, *b = e->u.binary.rhs;
    if (!a->is_const || !b->is_const)
        return;
    Op op = e->u.binary.op;
    int64_t x = a->const_int, y = b->const_int, r = 0;
    bool ovf = false;
    switch (op) {
    case OP_OR: set_int(e, x || y); return;
    case OP_XOR: set_int(e, (x != 0) != (y != 0)); return;
    case OP_AND: set_int(e, x && y); return;
    case OP_EQ: case OP_NE: case OP_LT: case OP_GT: case OP_LE: case OP_GE:
        fold_compare(e, op, a, b);
        return;
    case OP_IN: case OP_INTERVAL:
        return; /* intervals are not folded */
    default:
        break;
    }
    if (e->type->kind == TY_REAL) {
        fold_real_binary(e, op, real_of(a), real_of(b));
        return;
    }
    switch (op) {
    case OP_BITOR: set_int(e, x | y); return;
    case OP_BITXOR: set_int(e, x ^ y); return;
    case OP_BITAND: set_int(e, x & y); return;
    case OP_LSHIFT: case OP_RSHIFT:
        if (y < 0 || x < 0)
            return; /* machine-dependent: left to the target */
        if (op == OP_RSHIFT) {
            set_int(e, y > 62 ? 0 : x >> y);
            return;
        }
        if (y > 62) /* x * 2**y, beyond 64 bits unless x is 0 */
            ovf = x != 0;
        else
            ovf = __builtin_mul_overflow(x, (int64_t)1 << y, &r);
        break;
    case OP_ADD: ovf = __builtin_add_overflow(x, y, &r); break;
    case OP_SUB: ovf = __builtin_sub_overflow(x, y, &r); break;
    case OP_MUL: ovf = __builtin_mul_overflow(x, y, &r); break;
    case OP_DIV: case OP_MOD:
        if (y == 0) {
            fold_error(e, "division by zero in constant expression");
            return;
        }
        if (x == INT64_MIN && y == -1)
            ovf = true;
        else
            r = op == OP_DIV ? x / y : x % y;
        break;
    case OP_POW:
        if (y < 0) {
            fold_error(e, "negative exponent in constant integral '**'");
            return;
        }
        ovf = !int_pow(x, y, &r);
        break;
    default:
        return;
    }
    int_result(e, r, ovf);
}

static void fold_ternary(Expr *e)
{
    Expr *c = e->u.ternary.cond;
    Expr *pick = c->const_int ? e->u.ternary.then_e : e->u.ternary.else_e;
    if (!c->is_const || !pick->is_const)
        return;
    if (e->type->kind == TY_REAL)
        set_real(e, pick->const_real);
    else
        set_int(e, pick->const_int);
}

/* Numeric conversions: Real -> integer truncates; out-of-range narrowing
 * wraps (two's complement), as the C target does (also a Real beyond the
 * range of Int: Int (1.0e10) is 1410065408); a NaN, an infinity or a Real
 * beyond +-9.2e18, which has no 64-bit value to wrap, is a conversion
 * overflow, with the bounds of the run time's cp_real_to_int. */
static void fold_convert(Expr *e)
{
    if (e->u.convert.args.len != 1)
        return;
    Expr *a = VEC_AT(e->u.convert.args, 0, Expr);
    if (!a->is_const)
        return;
    if (e->type->kind == TY_REAL) {
        set_real(e, real_of(a));
        return;
    }
    if (!type_is_integral(e->type)) {
        if (a->type == e->type)
            set_int(e, a->const_int); /* Bool, SYMBOLIC identity */
        return;
    }
    int64_t v;
    if (a->type->kind == TY_REAL) {
        double t = trunc(a->const_real);
        if (!(t > -9.2e18 && t < 9.2e18)) {
            fold_error(e, "conversion overflow in constant expression");
            return;
        }
        v = (int64_t)t;
    } else {
        v = a->const_int;
    }
    switch (e->type->kind) {
    case TY_INT1: v = (int8_t)(uint8_t)(uint64_t)v; break;
    case TY_INT2: v = (int16_t)(uint16_t)(uint64_t)v; break;
    default: v = (int32_t)(uint32_t)(uint64_t)v; break;
    }
    set_int(e, v);
}

void sema_fold(Ctx *c, Expr *e)
{
    if (type_is_error(e->type))
        return;
    int errors = diag_error_count();
    fold_cx = c;
    switch (e->kind) {
    case EXPR_UNARY: fold_unary(e); break;
    case EXPR_BINARY: fold_binary(e); break;
    case EXPR_TERNARY: fold_ternary(e); break;
    case EXPR_CONVERT: fold_convert(e); break;
    default: break;
    }
    if (diag_error_count() > errors) /* reported: nothing may follow from it */
        e->type = c->si->builtin[TY_ERROR];
}
