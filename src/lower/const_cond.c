/* const_cond.c -- conditions that the constant arguments of a call decide
 * (lower_decide_cond).
 *
 * The transport analysis follows a node call into the IF arm its
 * constants select, and the lane code keeps only that arm (const-branch);
 * both must decide the same conditions alike, or the analysis would
 * reason about code the lane version does not run.  So they share this
 * one decider and differ only in where a parameter's value comes from. */
#include "lower_internal.h"

/* A constant, or what `param` says of a parameter. */
static bool value_of(const Expr *e, LowerParamValue param, const void *cx, int64_t *v)
{
    if (e->is_const && e->type && (e->type->kind == TY_BOOL || type_is_integral(e->type))) {
        *v = e->const_int;
        return true;
    }
    return e->kind == EXPR_NAME && e->sym && e->sym->kind == SYM_PARAM && param(cx, e->sym, v);
}

int lower_decide_cond(const Expr *cond, LowerParamValue param, const void *cx)
{
    int64_t a, b;
    if (cond->kind == EXPR_UNARY && cond->u.unary.op == OP_NOT) {
        int k = lower_decide_cond(cond->u.unary.operand, param, cx);
        return k < 0 ? -1 : !k;
    }
    if (cond->kind == EXPR_BINARY) {
        const Expr *l = cond->u.binary.lhs, *r = cond->u.binary.rhs;
        switch (cond->u.binary.op) {
        case OP_AND:
        case OP_OR:
        case OP_XOR: {
            int x = lower_decide_cond(l, param, cx), y = lower_decide_cond(r, param, cx);
            if (x < 0 || y < 0)
                return -1;
            return cond->u.binary.op == OP_AND ? x && y : cond->u.binary.op == OP_OR ? x || y : x != y;
        }
        case OP_EQ: case OP_NE: case OP_LT: case OP_GT: case OP_LE: case OP_GE:
            if (!value_of(l, param, cx, &a) || !value_of(r, param, cx, &b))
                return -1;
            switch (cond->u.binary.op) {
            case OP_EQ: return a == b;
            case OP_NE: return a != b;
            case OP_LT: return a < b;
            case OP_GT: return a > b;
            case OP_LE: return a <= b;
            default: return a >= b;
            }
        default:
            return -1;
        }
    }
    if (cond->type && cond->type->kind == TY_BOOL && value_of(cond, param, cx, &a))
        return a != 0;
    return -1;
}
