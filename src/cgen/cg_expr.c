/* cg_expr.c -- C for CuPit expressions and objects.
 *
 * Expressions become C expressions (strings in the arena).  Integer
 * arithmetic is done in int64_t and checked back into the result type by
 * the cp_chk_* helpers of the generated prelude, so that no C operation has
 * undefined behaviour; Real arithmetic is plain float arithmetic.  Where an
 * operand is needed twice (intervals) a statement expression holds it in a
 * temporary. */
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cg_internal.h"


/* ---- literals ---------------------------------------------------------- */

const char *cg_real_literal(Cg *cg, double v)
{
    if (isnan(v))
        return "((cp_real)__builtin_nanf(\"\"))";
    if (isinf(v))
        return v > 0 ? "((cp_real)__builtin_inff())" : "((cp_real)-__builtin_inff())";
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    if (!strpbrk(buf, ".eE"))
        strcat(buf, ".0");
    return cg_fmt(cg, "((cp_real)%s)", buf);
}

static const char *int_literal(Cg *cg, const Type *t, int64_t v)
{
    const char *lit = v == INT64_MIN      ? "INT64_MIN"
                      : v == -2147483648LL ? "(-2147483647 - 1)"
                                           : cg_fmt(cg, "%" PRId64, v);
    if (t->kind == TY_INT)
        return v < 0 ? cg_fmt(cg, "(%s)", lit) : lit;
    return cg_fmt(cg, "((%s)%s)", cg_ctype(cg, t), lit);
}

const char *cg_string_literal(Cg *cg, const char *bytes, int len)
{
    size_t cap = (size_t)len * 4 + 3;
    char *s = arena_alloc(cg->arena, cap);
    char *p = s;
    *p++ = '"';
    for (int i = 0; i < len; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '"' || c == '\\') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c == '\n') {
            *p++ = '\\';
            *p++ = 'n';
        } else if (c == '?' ) {
            *p++ = '\\'; /* no trigraphs */
            *p++ = '?';
        } else if (c < 0x20 || c >= 0x7f) {
            p += sprintf(p, "\\%03o", c);
        } else {
            *p++ = (char)c;
        }
    }
    *p++ = '"';
    *p = '\0';
    return s;
}

/* A folded constant of a simple type as a C literal, or NULL. */
static const char *const_literal(Cg *cg, const Expr *e)
{
    if (!e->is_const || !e->type)
        return NULL;
    switch (e->type->kind) {
    case TY_INT1:
    case TY_INT2:
    case TY_INT:
        return int_literal(cg, e->type, e->const_int);
    case TY_REAL:
        return cg_real_literal(cg, e->const_real);
    case TY_BOOL:
        return e->const_int ? "true" : "false";
    case TY_SYMBOLIC:
        return cg_fmt(cg, "((cp_int)%" PRId64 ")", e->const_int);
    default:
        return NULL;
    }
}

/* ---- helpers ---------------------------------------------------------- */

static const char *chk_name(const Type *t)
{
    switch (t->kind) {
    case TY_INT1: return "cp_chk_i8";
    case TY_INT2: return "cp_chk_i16";
    default: return "cp_chk_i32";
    }
}

static Type *builtin(Cg *cg, TypeKind k)
{
    return cg->si->builtin[k];
}

const char *cg_expr_as(Cg *cg, Expr *e, const Type *to)
{
    const char *x = cg_expr(cg, e);
    const Type *from = e->type;
    if (!to || !from || from == to)
        return x;
    if (type_is_integral(from) && type_is_integral(to))
        return cg_fmt(cg, "((%s)%s)", cg_ctype(cg, to), x);
    if (type_is_int_interval(from) && type_is_int_interval(to)) {
        const char *t = cg_fresh(cg, "iv");
        return cg_fmt(cg, "__extension__ ({ %s %s = %s; (%s){%s.min, %s.max}; })",
                   cg_ctype(cg, from), t, x, cg_ctype(cg, to), t, t);
    }
    return x;
}

/* The C expression for one node of group g: NET->reps[REP].nodes[G][i]. */
static const char *node_lvalue(Cg *cg, CgNet *net, int g, const char *netx,
                               const char *repx, const char *idx, Loc loc)
{
    Symbol *gs = VEC_AT(net->groups, g, Symbol);
    Type *node = type_node_of(gs->type);
    if (cg->lane)
        return cg_fmt(cg, "((%s *)(%s)->blocks[blk].nodes[%d])[cp_idx(%s, %s, (%s)->count[%d], \"%s\")]",
                   cg_lane_type(cg, node), netx, g, cg_pos(cg, loc), idx, netx, g, gs->name);
    return cg_fmt(cg, "((%s *)(%s)->reps[%s].nodes[%d])[cp_idx(%s, %s, (%s)->count[%d], \"%s\")]",
               cg_ctype(cg, node), netx, repx, g, cg_pos(cg, loc), idx, netx, g, gs->name);
}

static bool in_central_agent(const Cg *cg);

/* Node X.g[i] in the central agent of a program with lane blocks: the
 * start of a statement expression that sets n_ (the network), r_ (the
 * replicate) and i_ (the node), and the node type; NULL when obj is not
 * such a node.  Replicate r is lane r % RT_LANES of block r / RT_LANES
 * while the network is replicated in lanes, else plain record r. */
bool cg_ca_node(Cg *cg, Expr *obj, CgCaNode *out)
{
    if (!cg->opts.lanes || cg->lane || !in_central_agent(cg) || obj->kind != EXPR_SUBSCRIPT)
        return false;
    Expr *grp = obj->u.subscript.obj;
    if (grp->kind != EXPR_SELECT || !grp->sym || !type_is_node_collection(grp->sym->type))
        return false;
    const char *repx;
    CgNet *cn;
    cg_net_object(cg, grp->u.select.obj, &out->net, &repx, &cn);
    if (!cn)
        return false;
    out->rep = repx ? repx : "0";
    out->g = cg_group_index(cn, grp->sym);
    Symbol *gs = VEC_AT(cn->groups, out->g, Symbol);
    out->node = type_node_of(gs->type);
    out->idx = cg_fmt(cg, "cp_idx(%s, %s, n_->count[%d], \"%s\")", cg_pos(cg, obj->loc),
                      cg_expr(cg, obj->u.subscript.index), out->g, gs->name);
    return true;
}

static const char *ca_node(Cg *cg, Expr *obj, int *g, Type **node)
{
    CgCaNode n;
    if (!cg_ca_node(cg, obj, &n))
        return NULL;
    *g = n.g;
    *node = n.node;
    return cg_fmt(cg, "__extension__ ({ rt_net *n_ = %s; const int32_t r_ = %s; "
                      "const int32_t i_ = %s; ", n.net, n.rep, n.idx);
}

/* Element `elem` of such a node (ca_node), as an lvalue. */
static const char *ca_node_elem(Cg *cg, Expr *obj, const Symbol *elem)
{
    int g;
    Type *node;
    const char *head = ca_node(cg, obj, &g, &node);
    if (!head)
        return NULL;
    const char *f = cg_field(cg, elem);
    return cg_fmt(cg, "(*%sn_->blocks ? &((%s *)n_->blocks[r_ / RT_LANES].nodes[%d])[i_].%s[r_ %% RT_LANES] "
                      ": &((%s *)n_->reps[r_].nodes[%d])[i_].%s; }))",
                  head, cg_lane_type(cg, node), g, f, cg_ctype(cg, node), g, f);
}

/* The address of such a node's plain record (a VAR argument of a
 * function; statements copy in and out, cg_stmt.c), a run-time error while
 * the network is replicated in lanes. */
static const char *ca_node_addr(Cg *cg, Expr *obj)
{
    int g;
    Type *node;
    const char *head = ca_node(cg, obj, &g, &node);
    if (!head)
        return NULL;
    return cg_fmt(cg, "%sif (n_->blocks) rt_error(%s, \"a node of the replicated network %%s as a "
                      "VAR argument of a function\", n_->desc->name); "
                      "&((%s *)n_->reps[r_].nodes[%d])[i_]; })",
                  head, cg_pos(cg, obj->loc), cg_ctype(cg, node), g);
}

/* Such a node (ca_node) as a plain record value. */
static const char *ca_node_value(Cg *cg, Expr *obj)
{
    int g;
    Type *node;
    const char *head = ca_node(cg, obj, &g, &node);
    if (!head)
        return NULL;
    return cg_fmt(cg, "%sn_->blocks ? cpLaneRec_%s(&((%s *)n_->blocks[r_ / RT_LANES].nodes[%d])[i_], "
                      "NULL, r_ %% RT_LANES) : ((%s *)n_->reps[r_].nodes[%d])[i_]; })",
                  head, node->name, cg_lane_type(cg, node), g, cg_ctype(cg, node), g);
}

void cg_net_object(Cg *cg, Expr *e, const char **net, const char **rep, CgNet **cgnet)
{
    *net = NULL;
    *rep = NULL;
    *cgnet = NULL;
    switch (e->kind) {
    case EXPR_ME:
        *net = "net";
        *rep = "rep";
        *cgnet = cg->fn ? cg->fn->net : NULL;
        return;
    case EXPR_NAME:
        *net = cg_fmt(cg, "(&%s)", cg_global(cg, e->sym));
        *rep = "0";
        *cgnet = cg_net_of(cg, e->sym->type);
        return;
    case EXPR_SUBSCRIPT:
        cg_net_object(cg, e->u.subscript.obj, net, rep, cgnet);
        if (type_is_integral(e->u.subscript.index->type))
            *rep = cg_fmt(cg, "cp_idx(%s, %s, (%s)->nreps, \"replicate\")", cg_pos(cg, e->loc),
                       cg_expr(cg, e->u.subscript.index), *net);
        else
            *rep = NULL;
        return;
    case EXPR_ALLSLICE:
        cg_net_object(cg, e->u.allslice.obj, net, rep, cgnet);
        *rep = NULL;
        return;
    default:
        cg_unsupported(cg, e->loc, "this network object");
        *net = "net";
        *rep = "0";
        return;
    }
}

/* A network object reached through the runtime's storage (not a MERGE
 * procedure's ME/YOU, which point at the network records directly). */
static bool is_network_expr(Cg *cg, const Expr *e)
{
    if (!e->type || e->type->kind != TY_NETWORK)
        return false;
    return !(cg->fn && cg->fn->ctx == CTX_MERGE);
}

/* ---- objects ------------------------------------------------------------ */

/* Code of the central agent (where a network may be replicated in lanes). */
static bool in_central_agent(const Cg *cg)
{
    return !cg->fn || cg->fn->ctx == CTX_CA;
}

/* In lane code: obj is a lane record (ME of a network, node or connection
 * subroutine, or one node ME.g[i]), whose elements are indexed by lane. */
static bool is_lane_record(Cg *cg, const Expr *obj)
{
    if (obj->kind == EXPR_ME || obj->kind == EXPR_YOU)
        return cg->fn && cg->fn->me_type && cg_has_lanes(cg->fn->me_type) &&
               (cg->fn->ctx != CTX_MERGE || cg->lane);
    return obj->kind == EXPR_SUBSCRIPT && obj->u.subscript.obj->kind == EXPR_SELECT &&
           obj->u.subscript.obj->sym && type_is_node_collection(obj->u.subscript.obj->sym->type);
}

static const char *name_lvalue(Cg *cg, Expr *e)
{
    Symbol *s = e->sym;
    switch (s->kind) {
    case SYM_ENUM:
        return cg_fmt(cg, "cpE_%s_%s", s->owner->name, s->name);
    case SYM_CONST:
    case SYM_VAR:
    case SYM_IO:
        if (s->is_global)
            return cg_global(cg, s);
        /* lane code: every local is an array over the lanes */
        if (cg->lane && s->access != ACCESS_IO)
            return cg_fmt(cg, "%s[l]", cg_local(cg, s));
        return cg_local(cg, s);
    case SYM_PARAM:
        if (cg->lazy_proc && s->subr == cg->lazy_proc) /* from the caller's slot */
            return cg_fmt(cg, "(%s).%s[l]", cg->lazy_node, cg_slot_field(cg, cg->lazy_slot, s));
        if (s->access == ACCESS_IO)
            return cg_fmt(cg, "(*%s)", cg_local(cg, s));
        if (cg->lane) /* CONST: a lane array; VAR: an array of pointers */
            return s->access == ACCESS_VAR ? cg_fmt(cg, "(*%s[l])", cg_local(cg, s))
                                           : cg_fmt(cg, "%s[l]", cg_local(cg, s));
        if (s->access == ACCESS_VAR)
            return cg_fmt(cg, "(*%s)", cg_local(cg, s));
        return cg_local(cg, s);
    default:
        cg_unsupported(cg, e->loc, "this kind of name");
        return "0";
    }
}

static const char *me_lvalue(Cg *cg)
{
    if (cg->lazy_me)
        return cg->lazy_me;
    if (cg->fn && (cg->fn->ctx == CTX_RED || cg->fn->ctx == CTX_WTA))
        return "me";
    return "(*me)";
}

const char *cg_lvalue(Cg *cg, Expr *e)
{
    switch (e->kind) {
    case EXPR_NAME:
        return name_lvalue(cg, e);
    case EXPR_ME:
        return me_lvalue(cg);
    case EXPR_YOU:
        return cg->fn && (cg->fn->ctx == CTX_RED || cg->fn->ctx == CTX_WTA) ? "you" : "(*you)";
    case EXPR_INDEX:
        if (cg->fn && cg->fn->merge_inst) {
            cg_unsupported(cg, e->loc, "INDEX in a subroutine that a MERGE procedure calls "
                                       "(there is no index there)");
            return "0";
        }
        if (cg->fn && (cg->fn->ctx == CTX_NETP || cg->fn->ctx == CTX_NETF))
            return cg->lane ? "(blk * RT_LANES + l)" : "rep";
        if (cg->fn && cg->fn->net && cg->fn->group >= 0 && cg->fn->group < cg->fn->net->groups.len) {
            /* a node of a grid: its index in its row */
            const Type *g = VEC_AT(cg->fn->net->groups, cg->fn->group, Symbol)->type;
            if (type_is_node_grid(g))
                return cg_fmt(cg, "(idx %% %lld)", (long long)g->elem->size);
        }
        return "idx";
    case EXPR_SELECT: {
        Expr *obj = e->u.select.obj;
        if (cg->lane && is_lane_record(cg, obj)) {
            if (e->sym->owner && cg_has_shared(cg, e->sym->owner) &&
                lower_elem_shared(cg->plan, e->sym->owner, e->sym)) /* in ME's shared record */
                return cg_fmt(cg, "(%s).%s", cg->lazy_ms ? cg->lazy_ms : "*ms",
                              cg_field(cg, e->sym));
            return cg_fmt(cg, "(%s).%s[l]", cg_lvalue(cg, obj), cg_field(cg, e->sym));
        }
        if (is_network_expr(cg, obj)) {
            const char *netx, *repx;
            CgNet *cn;
            cg_net_object(cg, obj, &netx, &repx, &cn);
            if (!repx)
                repx = "0";
            if (cg->opts.lanes && in_central_agent(cg))
                /* the record of replicate r: a lane of a block while
                   replicated in lanes, else the plain record */
                return cg_fmt(cg, "(*__extension__ ({ rt_net *n_ = %s; const int32_t r_ = %s; "
                               "n_->blocks ? &((%s *)n_->blocks[r_ / RT_LANES].net)->%s[r_ %% RT_LANES] "
                               ": &((%s *)n_->reps[r_].net_data)->%s; }))",
                           netx, repx, cg_lane_type(cg, obj->type), cg_field(cg, e->sym),
                           cg_ctype(cg, obj->type), cg_field(cg, e->sym));
            return cg_fmt(cg, "((%s *)(%s)->reps[%s].net_data)->%s", cg_ctype(cg, obj->type), netx,
                       repx, cg_field(cg, e->sym));
        }
        const char *node_elem = ca_node_elem(cg, obj, e->sym);
        if (node_elem)
            return node_elem;
        return cg_fmt(cg, "(%s).%s", cg_lvalue(cg, obj), cg_field(cg, e->sym));
    }
    case EXPR_SUBSCRIPT: {
        Expr *obj = e->u.subscript.obj;
        const char *ix = cg_expr(cg, e->u.subscript.index);
        if (obj->kind == EXPR_SELECT && obj->sym && type_is_node_collection(obj->sym->type)) {
            /* one node of a group or node array: X.g[i] */
            const char *netx, *repx;
            CgNet *cn;
            cg_net_object(cg, obj->u.select.obj, &netx, &repx, &cn);
            if (!cn) {
                cg_unsupported(cg, e->loc, "this node access");
                return "0";
            }
            return node_lvalue(cg, cn, cg_group_index(cn, obj->sym), netx, repx ? repx : "0",
                               ix, e->loc);
        }
        if (obj->type && obj->type->kind == TY_ARRAY)
            return cg_fmt(cg, "(%s).a[cp_idx(%s, %s, %lld, \"array\")]", cg_lvalue(cg, obj),
                       cg_pos(cg, e->loc), ix, (long long)obj->type->size);
        cg_unsupported(cg, e->loc, "this subscription");
        return "0";
    }
    default:
        return cg_expr(cg, e);
    }
}

/* ---- operators -------------------------------------------------------- */

static const char *interval_helper(const Type *t)
{
    switch (t->kind) {
    case TY_INTERVAL1: return "iv1";
    case TY_INTERVAL2: return "iv2";
    case TY_INTERVAL: return "iv";
    default: return "rv";
    }
}

static const char *unary(Cg *cg, Expr *e)
{
    Expr *a = e->u.unary.operand;
    const char *x = cg_expr(cg, a);
    const char *pos = cg_pos(cg, e->loc);
    switch (e->u.unary.op) {
    case OP_NOT:
        return cg_fmt(cg, "(!%s)", x);
    case OP_BITNOT:
        return cg_fmt(cg, "((%s)~%s)", cg_ctype(cg, e->type), x);
    case OP_NEG:
        if (type_is_integral(e->type))
            return cg_fmt(cg, "%s(%s, -(int64_t)%s)", chk_name(e->type), pos, x);
        return cg_fmt(cg, "(-%s)", x);
    case OP_MIN:
        return cg_fmt(cg, "(%s).min", x);
    case OP_MAX:
        return cg_fmt(cg, "(%s).max", x);
    case OP_RANDOM:
        return cg_fmt(cg, "cp_random_%s(%s, %s)", interval_helper(a->type), pos, x);
    case OP_GRID_ROW:
        return cg_fmt(cg, "cp_grid_row(%s, %s, %lld, %lld, \"%s row\")", pos, x,
                      (long long)e->sym->type->size, (long long)e->sym->type->elem->size,
                      e->sym->name);
    case OP_GRID_ROWS:
        return cg_fmt(cg, "cp_grid_rows(%s, %lld, %lld)",
                      cg_expr_as(cg, a, builtin(cg, TY_INTERVAL)),
                      (long long)e->sym->type->size, (long long)e->sym->type->elem->size);
    default:
        cp_unreachable();
    }
}

static const char *binary(Cg *cg, Expr *e)
{
    Expr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    Op op = e->u.binary.op;
    const char *pos = cg_pos(cg, e->loc);
    Type *common = NULL;
    if (op != OP_POW && op != OP_LSHIFT && op != OP_RSHIFT && op != OP_IN)
        common = type_common(l->type, r->type);
    switch (op) {
    case OP_OR:
        return cg_fmt(cg, "(%s || %s)", cg_expr(cg, l), cg_expr(cg, r));
    case OP_AND:
        return cg_fmt(cg, "(%s && %s)", cg_expr(cg, l), cg_expr(cg, r));
    case OP_XOR:
        return cg_fmt(cg, "((bool)%s != (bool)%s)", cg_expr(cg, l), cg_expr(cg, r));
    case OP_EQ: case OP_NE: case OP_LT: case OP_GT: case OP_LE: case OP_GE: {
        static const char *const cmp[] = {"==", "!=", "<", ">", "<=", ">="};
        return cg_fmt(cg, "(%s %s %s)", cg_expr_as(cg, l, common), cmp[op - OP_EQ],
                   cg_expr_as(cg, r, common));
    }
    case OP_IN: {
        const char *h = interval_helper(r->type);
        const char *x = strcmp(h, "rv") == 0 ? cg_expr(cg, l)
                                             : cg_fmt(cg, "(int64_t)%s", cg_expr(cg, l));
        return cg_fmt(cg, "cp_in_%s(%s, %s)", h, x, cg_expr(cg, r));
    }
    case OP_BITOR: case OP_BITXOR: case OP_BITAND: {
        const char *o = op == OP_BITOR ? "|" : op == OP_BITXOR ? "^" : "&";
        return cg_fmt(cg, "((%s)(%s %s %s))", cg_ctype(cg, e->type), cg_expr_as(cg, l, common), o,
                   cg_expr_as(cg, r, common));
    }
    case OP_GRID_INDEX: case OP_GRID_SLICE: {
        const Type *g = e->sym->type;
        if (op == OP_GRID_INDEX)
            return cg_fmt(cg, "cp_grid_index(%s, %s, %lld, %s, %lld, \"%s row\", \"%s column\")",
                          pos, cg_expr(cg, l), (long long)g->size, cg_expr(cg, r),
                          (long long)g->elem->size, e->sym->name, e->sym->name);
        return cg_fmt(cg, "cp_grid_slice(%s, %s, %lld, %s, %lld, \"%s row\")", pos, cg_expr(cg, l),
                      (long long)g->size, cg_expr_as(cg, r, builtin(cg, TY_INTERVAL)),
                      (long long)g->elem->size, e->sym->name);
    }
    case OP_INTERVAL:
        return cg_fmt(cg, "((%s){%s, %s})", cg_ctype(cg, e->type),
                   cg_expr_as(cg, l, type_is_integral(l->type) ? builtin(cg, TY_INT) : NULL),
                   cg_expr_as(cg, r, type_is_integral(r->type) ? builtin(cg, TY_INT) : NULL));
    case OP_LSHIFT: case OP_RSHIFT:
        return cg_fmt(cg, "%s(%s, cp_%s(%s, (int64_t)%s, (int64_t)%s))", chk_name(e->type), pos,
                   op == OP_LSHIFT ? "shl" : "shr", pos, cg_expr(cg, l), cg_expr(cg, r));
    case OP_ADD: case OP_SUB: case OP_MUL: {
        const char *o = op == OP_ADD ? "+" : op == OP_SUB ? "-" : "*";
        if (type_is_integral(e->type))
            return cg_fmt(cg, "%s(%s, (int64_t)%s %s (int64_t)%s)", chk_name(e->type), pos,
                       cg_expr(cg, l), o, cg_expr(cg, r));
        return cg_fmt(cg, "(%s %s %s)", cg_expr(cg, l), o, cg_expr(cg, r));
    }
    case OP_DIV:
        if (type_is_integral(e->type))
            return cg_fmt(cg, "%s(%s, cp_div(%s, %s, %s))", chk_name(e->type), pos, pos,
                       cg_expr(cg, l), cg_expr(cg, r));
        return cg_fmt(cg, "(%s / %s)", cg_expr(cg, l), cg_expr(cg, r));
    case OP_MOD:
        if (type_is_integral(e->type))
            return cg_fmt(cg, "%s(%s, cp_mod(%s, %s, %s))", chk_name(e->type), pos, pos,
                       cg_expr(cg, l), cg_expr(cg, r));
        return cg_fmt(cg, "cp_fmod_real(%s, %s)", cg_expr(cg, l), cg_expr(cg, r));
    case OP_POW:
        if (type_is_integral(l->type))
            return cg_fmt(cg, "rt_ipow(%s, %s, %s)", pos, cg_expr(cg, l), cg_expr(cg, r));
        if (type_is_integral(r->type))
            return cg_fmt(cg, "rt_rpow_int(%s, %s)", cg_expr(cg, l), cg_expr(cg, r));
        return cg_fmt(cg, "rt_rpow(%s, %s, %s)", pos, cg_expr(cg, l), cg_expr(cg, r));
    default:
        cp_unreachable();
    }
}

/* ---- calls -------------------------------------------------------------- */

/* A node array (a network's node ARRAY element) as an argument of an
 * EXTERNAL subroutine: the address of its nodes as plain records in
 * order (docs/runtime-abi.md §6), copied from either storage. */
static const char *node_array_arg(Cg *cg, Expr *a, const Symbol *p)
{
    const char *net, *rep, *first = "0";
    CgNet *cgnet;
    Expr *sel = a;
    if (a->kind == EXPR_SUBSCRIPT && type_is_node_array(a->type)) {
        /* X.g[r]: row r of a node grid (sema.h) */
        sel = a->u.subscript.obj;
        if (sel->kind == EXPR_SELECT && sel->sym && type_is_node_grid(sel->sym->type))
            first = cg_fmt(cg, "cp_idx(%s, %s, %lld, \"%s row\") * %lld", cg_pos(cg, a->loc),
                           cg_expr(cg, a->u.subscript.index), (long long)sel->sym->type->size,
                           sel->sym->name, (long long)sel->sym->type->elem->size);
    }
    if (sel->kind != EXPR_SELECT || !sel->sym || sel->sym->kind != SYM_ELEM) {
        cg_unsupported(cg, a->loc, "this node array argument");
        return "0";
    }
    cg_net_object(cg, sel->u.select.obj, &net, &rep, &cgnet);
    if (!cgnet)
        return "0";
    if (sel->u.select.obj->kind == EXPR_ME && cg->lane)
        rep = "(blk * RT_LANES + l)";
    if (!rep)
        rep = "0";
    int g = cg_group_index(cgnet, sel->sym);
    Type *node = type_node_of(p->type);
    int n = (int)type_node_count(p->type);
    /* CONST only: a node array is not assignable (sema) */
    return cg_fmt(cg, "cpGather_%s((%s[%d]){0}, %s, %s, %d, %s, %d)", node->name,
                  cg_ctype(cg, node), n, net, rep, g, first, n);
}

const char *cg_args(Cg *cg, Symbol *subr, PtrVec *args, const char *prefix)
{
    CgStr s = {0};
    cg_str_add(cg, &s, "%s", prefix ? prefix : "");
    bool first = !prefix || !*prefix;
    /* the replacements are for this call's own arguments, not for the
       calls nested in them */
    const char *temps[CG_MAX_ARG_TEMPS];
    memcpy(temps, cg->arg_temps, sizeof temps);
    memset(cg->arg_temps, 0, sizeof cg->arg_temps);
    for (int i = 0; i < args->len && i < subr->sub->params.len; i++) {
        Symbol *p = VEC_AT(subr->sub->params, i, Symbol);
        Expr *a = VEC_AT(*args, i, Expr);
        TypeKind k = p->type->kind;
        if (subr->sub->external && type_is_node_array(p->type)) {
            cg_str_add(cg, &s, "%s%s", first ? "" : ", ", node_array_arg(cg, a, p));
            first = false;
            continue;
        }
        const char *x = p->access == ACCESS_CONST ? cg_expr_as(cg, a, p->type)
                                                  : cg_fmt(cg, "&%s", cg_lvalue(cg, a));
        const char *ca_addr = p->access == ACCESS_VAR && k == TY_NODE ? ca_node_addr(cg, a) : NULL;
        if (ca_addr)
            x = ca_addr;
        if (i < CG_MAX_ARG_TEMPS && temps[i])
            x = temps[i]; /* copied in and out around the call */
        else if (subr->sub->external && p->access == ACCESS_VAR && cg->lane &&
                 (k == TY_NODE || k == TY_CONNECTION))
            cg_unsupported(cg, a->loc, "a node or connection VAR argument of an EXTERNAL "
                                       "subroutine in replicated network code");
        if (subr->sub->external && p->access == ACCESS_CONST &&
            (k == TY_RECORD || k == TY_ARRAY || k == TY_NODE || k == TY_CONNECTION)) {
            /* EXTERNAL: records, arrays, nodes and connections by address */
            const char *ca_val = k == TY_NODE ? ca_node_value(cg, a) : NULL;
            if (cg->lane && k == TY_NODE) {
                /* lane l of the node as a plain record, alive for the call */
                x = cg_fmt(cg, "(const %s[]){cpLaneRec_%s(&%s, NULL, l)}", cg_ctype(cg, p->type),
                           p->type->name, cg_lvalue(cg, a));
            } else if (ca_val) {
                x = cg_fmt(cg, "(const %s[]){%s}", cg_ctype(cg, p->type), ca_val);
            } else if (cg->lane && k == TY_CONNECTION) {
                /* a connection's lane record may lack the elements the
                   lane plan keeps elsewhere (lower.h) */
                cg_unsupported(cg, a->loc, "a connection argument of an EXTERNAL subroutine "
                                           "in replicated network code");
            } else {
                x = a->cat == VC_OBJECT ? cg_fmt(cg, "&%s", cg_lvalue(cg, a))
                                        : cg_fmt(cg, "(const %s[]){%s}", cg_ctype(cg, p->type), x);
            }
        }
        cg_str_add(cg, &s, "%s%s", first ? "" : ", ", x);
        first = false;
    }
    return cg_str_get(&s);
}

/* A call of a global subroutine f (args).  In lane code a node passed as a
 * VAR argument of an EXTERNAL is lane l of a lane record: it is copied
 * into a plain record for the call and back after it (the C code sees a
 * plain record, docs/runtime-abi.md §6). */
const char *cg_global_call(Cg *cg, Symbol *f, PtrVec *args)
{
    const char *name = cg_subr_name(cg, f);
    if (!cg->lane || !f->sub->external)
        return cg_fmt(cg, "%s(%s)", name, cg_args(cg, f, args, NULL));
    CgStr pre = {0}, post = {0};
    const char *temps[CG_MAX_ARG_TEMPS] = {0};
    bool any = false;
    for (int i = 0; i < args->len && i < f->sub->params.len && i < CG_MAX_ARG_TEMPS; i++) {
        Symbol *p = VEC_AT(f->sub->params, i, Symbol);
        if (p->access != ACCESS_VAR || p->type->kind != TY_NODE)
            continue;
        const char *lv = cg_lvalue(cg, VEC_AT(*args, i, Expr));
        const char *t = cg_fresh(cg, "vt");
        cg_str_add(cg, &pre, "%s %s = cpLaneRec_%s(&%s, NULL, l); ", cg_ctype(cg, p->type), t,
                   p->type->name, lv);
        cg_str_add(cg, &post, " cpLanePut_%s(&%s, NULL, l, &%s);", p->type->name, lv, t);
        temps[i] = cg_fmt(cg, "&%s", t);
        any = true;
    }
    if (!any)
        return cg_fmt(cg, "%s(%s)", name, cg_args(cg, f, args, NULL));
    memcpy(cg->arg_temps, temps, sizeof temps);
    const char *call = cg_fmt(cg, "%s(%s)", name, cg_args(cg, f, args, NULL));
    if (f->sub->result)
        return cg_fmt(cg, "__extension__ ({ %s%s r_ = %s;%s r_; })", cg_str_get(&pre),
                      cg_ctype(cg, f->sub->result), call, cg_str_get(&post));
    return cg_fmt(cg, "__extension__ ({ %s%s;%s })", cg_str_get(&pre), call, cg_str_get(&post));
}

/* Address of a record receiver: &lvalue for objects, a compound literal
 * array for values (a function result, a constructor). */
static const char *receiver_addr(Cg *cg, Expr *obj)
{
    if (obj->cat == VC_OBJECT)
        return cg_fmt(cg, "&%s", cg_lvalue(cg, obj));
    return cg_fmt(cg, "(%s[]){%s}", cg_ctype(cg, obj->type), cg_expr(cg, obj));
}

/* A network function called from the central agent on replicate repx: in
 * lane blocks, the lane version with one active lane. */
static const char *lane_aware_net_function(Cg *cg, Expr *e, const char *netx, const char *repx)
{
    Symbol *f = e->sym;
    PtrVec *args = &e->u.objcall.args;
    const char *R = cg_ctype(cg, f->sub->result);
    CgStr s = {0}, scalar = {0}, lane = {0};
    cg_str_add(cg, &s, "__extension__ ({ rt_net *n_ = %s; const int32_t r_ = %s; %s res_;", netx,
               repx, R);
    for (int i = 0; i < args->len && i < f->sub->params.len; i++) {
        Symbol *p = VEC_AT(f->sub->params, i, Symbol);
        const char *t = cg_fresh(cg, "fa");
        if (p->access == ACCESS_IO) {
            cg_str_add(cg, &s, " cp_io *%s = &%s;", t, cg_lvalue(cg, VEC_AT(*args, i, Expr)));
            cg_str_add(cg, &lane, ", %s", t);
        } else {
            cg_str_add(cg, &s, " const %s %s = %s; %s %sL[RT_LANES]; for (int l = 0; l < RT_LANES; l++) %sL[l] = %s;",
                       cg_ctype(cg, p->type), t, cg_expr_as(cg, VEC_AT(*args, i, Expr), p->type),
                       cg_ctype(cg, p->type), t, t, t);
            cg_str_add(cg, &lane, ", %sL", t);
        }
        cg_str_add(cg, &scalar, ", %s", t);
    }
    return cg_fmt(cg, "%s if (n_->blocks) { int32_t m_[RT_LANES] = {0}; %s t_[RT_LANES]; "
                   "m_[r_ %% RT_LANES] = 1; %s(n_, r_ / RT_LANES, m_, t_%s); res_ = t_[r_ %% RT_LANES]; } "
                   "else res_ = %s(n_, r_%s); res_; })",
               cg_str_get(&s), R, cg_lane_fn_name(cg, f, NULL, -1), cg_str_get(&lane),
               cg_subr_name(cg, f), cg_str_get(&scalar));
}

/* Object function call obj.f(args) (functions only: procedure calls are
 * statements, cg_stmt.c). */
static const char *objcall(Cg *cg, Expr *e)
{
    Symbol *f = e->sym;
    Expr *obj = e->u.objcall.obj;
    Type *owner = f->owner;
    const char *name = cg_subr_name(cg, f);
    if (cg_in_merge(cg) && (obj->kind == EXPR_ME || obj->kind == EXPR_YOU) &&
        owner->kind != TY_RECORD)
        return cg_merge_call(cg, e);
    switch (owner->kind) {
    case TY_RECORD:
        return cg_fmt(cg, "%s(%s)", name,
                   cg_args(cg, f, &e->u.objcall.args, receiver_addr(cg, obj)));
    case TY_NETWORK: {
        const char *netx, *repx;
        CgNet *cn;
        cg_net_object(cg, obj, &netx, &repx, &cn);
        if (cg->opts.lanes && in_central_agent(cg))
            return lane_aware_net_function(cg, e, netx, repx ? repx : "0");
        return cg_fmt(cg, "%s(%s)", name,
                   cg_args(cg, f, &e->u.objcall.args,
                           cg_fmt(cg, "%s, %s", netx, repx ? repx : "0")));
    }
    case TY_NODE:
        if (obj->kind == EXPR_ME && cg->fn && cg->fn->net)
            return cg_fmt(cg, "%s(%s)", cg_node_fn_name(cg, cg->fn->net, cg->fn->group, f),
                       cg_args(cg, f, &e->u.objcall.args, "net, rep, idx"));
        break;
    case TY_CONNECTION:
        if (obj->kind == EXPR_ME)
            return cg_fmt(cg, "%s(%s)", name, cg_args(cg, f, &e->u.objcall.args, "net, b, k, me"));
        break;
    default:
        break;
    }
    cg_unsupported(cg, e->loc, "this object function call");
    return "0";
}

static const char *convert(Cg *cg, Expr *e)
{
    PtrVec *args = &e->u.convert.args;
    Expr *a0 = args->len ? VEC_AT(*args, 0, Expr) : NULL;
    const char *pos = cg_pos(cg, e->loc);
    Type *t = e->type;
    switch (sema_convert_kind(e)) {
    case CONV_IDENTITY:
        return cg_expr(cg, a0);
    case CONV_NUMERIC:
        if (t->kind == TY_REAL)
            return cg_fmt(cg, "((cp_real)%s)", cg_expr(cg, a0));
        if (a0->type->kind == TY_REAL)
            return cg_fmt(cg, "%s(%s, cp_real_to_int(%s, %s))", chk_name(t), pos, pos,
                       cg_expr(cg, a0));
        return cg_fmt(cg, "%s(%s, (int64_t)%s)", chk_name(t), pos, cg_expr(cg, a0));
    case CONV_INTERVAL: {
        const char *tmp = cg_fresh(cg, "iv");
        return cg_fmt(cg, "__extension__ ({ %s %s = %s; (%s){%s(%s, %s.min), %s(%s, %s.max)}; })",
                   cg_ctype(cg, a0->type), tmp, cg_expr(cg, a0), cg_ctype(cg, t),
                   chk_name(t->elem), pos, tmp, chk_name(t->elem), pos, tmp);
    }
    case CONV_MAKE_INTERVAL:
        return cg_fmt(cg, "((%s){%s, %s})", cg_ctype(cg, t), cg_expr_as(cg, a0, t->elem),
                   cg_expr_as(cg, VEC_AT(*args, 1, Expr), t->elem));
    case CONV_RECORD:
    case CONV_NODE:
    case CONV_CONNECTION: {
        CgStr s = {0};
        cg_str_add(cg, &s, "((%s){", cg_ctype(cg, t));
        int ai = 0;
        for (int i = 0; i < t->elems.len && ai < args->len; i++) {
            Symbol *el = VEC_AT(t->elems, i, Symbol);
            if (type_is_node_collection(el->type))
                continue;
            cg_str_add(cg, &s, "%s.%s = %s", ai ? ", " : "", cg_field(cg, el),
                       cg_expr_as(cg, VEC_AT(*args, ai, Expr), el->type));
            ai++;
        }
        cg_str_add(cg, &s, "})");
        return cg_str_get(&s);
    }
    default:
        cg_unsupported(cg, e->loc, "this conversion");
        return "0";
    }
}

/* MAXINDEX(obj): highest index of an interface, group, array or network. */
static const char *maxindex(Cg *cg, Expr *e)
{
    Expr *o = e->u.maxindex.obj;
    if (o->kind == EXPR_ALLSLICE)
        o = o->u.allslice.obj;
    if (o->type && o->type->kind == TY_NETWORK && !sema_is_iface(o)) {
        const char *netx, *repx;
        CgNet *cn;
        cg_net_object(cg, o, &netx, &repx, &cn);
        return cg_fmt(cg, "((cp_int)(%s)->nreps - 1)", netx);
    }
    if (o->kind == EXPR_SELECT && sema_is_iface(o)) {
        /* connections at an interface: of ME in a node subroutine, or of a
           node X.g[i] (the topology is the same in every replicate) */
        Expr *node = o->u.select.obj, *grp = node->kind == EXPR_SUBSCRIPT
                                                 ? node->u.subscript.obj : NULL;
        CgNet *cn = NULL;
        const char *netx = "net", *idx = "idx";
        int g = -1;
        if (node->kind == EXPR_ME && cg->fn && cg->fn->net) {
            cn = cg->fn->net;
            g = cg->fn->group;
        } else if (grp && grp->kind == EXPR_SELECT && grp->sym &&
                   type_is_node_collection(grp->sym->type)) {
            const char *repx;
            cg_net_object(cg, grp->u.select.obj, &netx, &repx, &cn);
            if (cn) {
                g = cg_group_index(cn, grp->sym);
                idx = cg_fmt(cg, "cp_idx(%s, %s, (%s)->count[%d], \"%s\")", cg_pos(cg, node->loc),
                             cg_expr(cg, node->u.subscript.index), netx, g, grp->sym->name);
            }
        }
        if (!cn || g < 0) {
            cg_unsupported(cg, e->loc, "MAXINDEX of this interface");
            return "0";
        }
        Symbol *ifc = o->sym;
        const char *s = cg_fmt(cg, "__extension__ ({ rt_net *const nt_ = %s; const int32_t ix_ = %s; "
                                   "int64_t n_ = 0; (void)nt_; (void)ix_;", netx, idx);
        for (int b = 0; b < cn->nbundles; b++) {
            CgBundle *bu = &cn->bundles[b];
            bool in = bu->dst_group == g && bu->dst_iface == ifc;
            bool out = bu->src_group == g && bu->src_iface == ifc;
            if (!in && !out)
                continue;
            const char *start = in ? "dst_start" : "src_start";
            s = cg_fmt(cg, "%s n_ += cp_live_count(&nt_->bundles[%d], nt_->bundles[%d].%s, ix_, %s);",
                    s, b, b, start, in ? "false" : "true");
        }
        return cg_fmt(cg, "%s (cp_int)(n_ - 1); })", s);
    }
    if (o->kind == EXPR_SUBSCRIPT && o->type && type_is_node_array(o->type)) {
        /* a row of a node grid: only its row number is checked */
        const Expr *g = o->u.subscript.obj;
        return cg_fmt(cg, "((void)cp_idx(%s, %s, %lld, \"%s row\"), (cp_int)%lld)", cg_pos(cg, o->loc),
                      cg_expr(cg, o->u.subscript.index), (long long)g->type->size,
                      g->sym ? g->sym->name : "array", (long long)o->type->size - 1);
    }
    if (o->kind == EXPR_SELECT && o->sym && type_is_node_grid(o->sym->type))
        return cg_fmt(cg, "((cp_int)%lld)", (long long)o->sym->type->size - 1);
    if (o->kind == EXPR_SELECT && o->sym && type_is_node_collection(o->sym->type)) {
        const char *netx, *repx;
        CgNet *cn;
        cg_net_object(cg, o->u.select.obj, &netx, &repx, &cn);
        if (!cn) {
            cg_unsupported(cg, e->loc, "MAXINDEX of this group");
            return "0";
        }
        return cg_fmt(cg, "((cp_int)(%s)->count[%d] - 1)", netx, cg_group_index(cn, o->sym));
    }
    if (o->type && o->type->kind == TY_ARRAY)
        return cg_fmt(cg, "((cp_int)%lld)", (long long)o->type->size - 1);
    cg_unsupported(cg, e->loc, "MAXINDEX of this object");
    return "0";
}

/* ---- the dispatcher ---------------------------------------------------- */

const char *cg_expr(Cg *cg, Expr *e)
{
    const char *lit = const_literal(cg, e);
    if (lit)
        return lit;
    switch (e->kind) {
    case EXPR_INT:
        return int_literal(cg, e->type ? e->type : builtin(cg, TY_INT), (int64_t)e->u.int_lit.value);
    case EXPR_REAL:
        return cg_real_literal(cg, e->u.real_lit.value);
    case EXPR_STRING:
        return cg_string_literal(cg, e->u.str_lit.bytes, e->u.str_lit.len);
    case EXPR_SELECT:
        if (cg->lane && !cg->lazy_me && cg->fn && cg->fn->bundle >= 0 &&
            e->u.select.obj->kind == EXPR_ME) {
            /* a connection element whose value the lane plan recomputes */
            const LazyWriter *w = lower_lazy_read(cg->plan, cg->fn->net, cg->fn->bundle, e);
            if (w)
                return cg_lazy_value(cg, w, cg->fn->bundle, "k", "(*me)", "(*ms)");
        }
        return cg_lvalue(cg, e);
    case EXPR_NAME:
    case EXPR_ME:
    case EXPR_YOU:
    case EXPR_SUBSCRIPT:
        return cg_lvalue(cg, e);
    case EXPR_INDEX:
        return cg_fmt(cg, "((cp_int)%s)", cg_lvalue(cg, e));
    case EXPR_UNARY:
        return unary(cg, e);
    case EXPR_BINARY:
        return binary(cg, e);
    case EXPR_TERNARY:
        return cg_fmt(cg, "(%s ? %s : %s)", cg_expr(cg, e->u.ternary.cond),
                   cg_expr_as(cg, e->u.ternary.then_e, e->type),
                   cg_expr_as(cg, e->u.ternary.else_e, e->type));
    case EXPR_CALL:
        return cg_global_call(cg, e->sym, &e->u.call.args);
    case EXPR_OBJCALL: {
        const char *h = cg->lane ? cg_lane_hoisted(cg, e) : NULL;
        return h ? h : objcall(cg, e);
    }
    case EXPR_CONVERT:
        return convert(cg, e);
    case EXPR_MAXINDEX:
        return maxindex(cg, e);
    default:
        cg_unsupported(cg, e->loc, "this expression");
        return "0";
    }
}
