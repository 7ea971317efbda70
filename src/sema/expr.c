/* expr.c -- names, objects and operators (semantics.md §6, §9, §2.6).
 *
 * sema_analyze_expr() types one expression and records what it denotes
 * (ValueCat: object, PV, PVS, connection address, value); the users of an
 * expression (statements, calls) then decide whether that category is
 * legal there.  An erroneous operand yields TY_ERROR, which every check
 * lets through silently, so each mistake is reported exactly once. */
#include <math.h>
#include <string.h>

#include "sema_internal.h"

static Type *error_type(Ctx *c, Expr *e)
{
    e->type = c->si->builtin[TY_ERROR];
    e->cat = VC_NONE;
    return e->type;
}

static Type *builtin(Ctx *c, TypeKind k) { return c->si->builtin[k]; }

/* A group or array whose element type is erroneous (already reported):
 * objects of it are treated as erroneous too, so nothing cascades. */
static bool broken(const Type *t)
{
    while (t && (t->kind == TY_GROUP || t->kind == TY_ARRAY))
        t = t->elem;
    return type_is_error(t);
}

Expr *sema_object_root(Expr *e)
{
    while (e) {
        switch (e->kind) {
        case EXPR_SELECT: e = e->u.select.obj; break;
        case EXPR_SUBSCRIPT: e = e->u.subscript.obj; break;
        case EXPR_ALLSLICE: e = e->u.allslice.obj; break;
        default: return e;
        }
    }
    return NULL;
}

static bool is_network_var(const Symbol *sym)
{
    return sym && (sym->kind == SYM_VAR || sym->kind == SYM_CONST || sym->kind == SYM_IO) &&
           sym->is_global && sym->type && sym->type->kind == TY_NETWORK;
}

Symbol *sema_network_root(Expr *e)
{
    Expr *r = sema_object_root(e);
    return r && r->kind == EXPR_NAME && is_network_var(r->sym) ? r->sym : NULL;
}

bool sema_is_iface(const Expr *e)
{
    return e && e->kind == EXPR_SELECT && e->sym && e->sym->kind == SYM_IFACE &&
           e->cat == VC_OBJECT;
}

bool sema_is_io_area(const Expr *e)
{
    return e && e->kind == EXPR_NAME && e->sym &&
           (e->sym->kind == SYM_IO ||
            (e->sym->kind == SYM_PARAM && e->sym->access == ACCESS_IO));
}

bool sema_is_multitude(const Expr *e)
{
    if (!e)
        return false;
    if (e->cat == VC_PV)
        return true;
    if (e->cat != VC_OBJECT)
        return false;
    if (sema_is_iface(e) || type_is_node_collection(e->type))
        return true;
    return e->kind == EXPR_NAME && is_network_var(e->sym);
}

bool sema_note_network_use(Ctx *c, Expr *e)
{
    if (ctx_is_parallel(c)) {
        diag_error(e->loc, "network variable '%s' cannot be used in %s (it is reached "
                   "only through ME there)", e->sym->name, sema_ctx_desc(c));
        return false;
    }
    if (c->subr)
        c->subr->sub->mentions_network = true;
    return true;
}

/* ---- names and special objects ----------------------------------------- */

static Type *name_expr(Ctx *c, Expr *e)
{
    const char *n = e->u.name.name;
    Symbol *sym = sema_scope_lookup(c->scope, n);
    if (!sym || !sym->defined) {
        if (c->undefined && sema_scope_find(c->undefined, n))
            return error_type(c, e);
        if (sym) {
            diag_error(e->loc, "'%s' is used before its definition", n);
            diag_note(sym->loc, "'%s' is defined here", n);
        } else if (c->me_type && c->me_type->members &&
                   sema_scope_find(c->me_type->members, n)) {
            diag_error(e->loc, "'%s' is an element of '%s' and must be selected: "
                       "write ME.%s", n, c->me_type->name, n);
        } else {
            diag_error(e->loc, "undefined name '%s'", n);
            const char *near = sema_closest_in(c->scope, n, SYMS_DATA, true, false);
            if (near)
                diag_note(e->loc, "did you mean '%s'?", near);
        }
        if (c->undefined)
            sema_scope_add(c->si, c->undefined,
                           sema_new_symbol(c->si, SYM_VAR, n, e->loc));
        return error_type(c, e);
    }
    if (sym->redefined)
        return error_type(c, e);
    e->sym = sym;
    switch (sym->kind) {
    case SYM_CONST: case SYM_VAR: case SYM_IO: case SYM_PARAM:
        sema_use(c->si, sym)->reads++; /* an assignment target is recounted by stmt.c */
        if (is_network_var(sym) && !sema_note_network_use(c, e))
            return error_type(c, e);
        if (broken(sym->type))
            return error_type(c, e);
        e->type = sym->type;
        e->cat = VC_OBJECT;
        e->read_only = sym->access == ACCESS_CONST;
        if (sym->has_value) {
            e->is_const = true;
            e->const_int = sym->const_int;
            e->const_real = sym->const_real;
        }
        return e->type;
    case SYM_ENUM:
        e->type = sym->owner;
        e->cat = VC_VALUE;
        e->is_const = true;
        e->const_int = sym->index;
        return e->type;
    default:
        diag_error(e->loc, "'%s' is a %s, not a data object", n, sema_sym_what(sym));
        return error_type(c, e);
    }
}

/* Object -> ME (§6.1, §5.3) */
static Type *me_expr(Ctx *c, Expr *e)
{
    if (!c->me_type) {
        diag_error(e->loc, "ME cannot be used in %s", sema_ctx_desc(c));
        return error_type(c, e);
    }
    e->type = c->me_type;
    e->cat = VC_OBJECT;
    e->read_only = c->me_read_only;
    return e->type;
}

/* Object -> YOU: MERGE, reduction and WTA bodies only, always CONST */
static Type *you_expr(Ctx *c, Expr *e)
{
    if (!c->you_type) {
        diag_error(e->loc, "YOU cannot be used in %s (only in MERGE procedures, "
                   "reduction and WTA functions)", sema_ctx_desc(c));
        return error_type(c, e);
    }
    e->type = c->you_type;
    e->cat = VC_OBJECT;
    e->read_only = true;
    return e->type;
}

/* Object -> INDEX: Int CONST in network and node subroutines */
static Type *index_expr(Ctx *c, Expr *e)
{
    if (!c->index_ok) {
        diag_error(e->loc, "INDEX cannot be used in %s (only in network and node "
                   "subroutines)", sema_ctx_desc(c));
        return error_type(c, e);
    }
    sema_note_net_use(c, e->loc, "INDEX");
    e->type = builtin(c, TY_INT);
    e->cat = VC_OBJECT;
    e->read_only = true;
    return e->type;
}

/* ---- selection, subscription, slices ------------------------------------ */

static Type *select_expr(Ctx *c, Expr *e)
{
    Expr *obj = e->u.select.obj;
    Ident elem = e->u.select.elem;
    Type *ot = sema_analyze_expr(c, obj);
    if (type_is_error(ot))
        return error_type(c, e);
    if (obj->cat == VC_CONNADDR) {
        diag_error(elem.loc, "a connection address cannot be selected from; it can "
                   "only be the whole left-hand side of ':='");
        return error_type(c, e);
    }
    if (obj->cat == VC_PVS) {
        diag_error(elem.loc, "a parallel variable selection cannot be selected from");
        return error_type(c, e);
    }
    if (sema_is_iface(obj)) {
        diag_error(elem.loc, "interface '%s' stands for many connections; its "
                   "elements can only be reached through a parallel variable", obj->sym->name);
        return error_type(c, e);
    }
    if (!type_is_structure(ot) || obj->cat == VC_VALUE || obj->cat == VC_NONE) {
        if (obj->cat == VC_OBJECT || obj->cat == VC_PV)
            diag_error(elem.loc, "cannot select '%s' from an object of type %s, "
                       "which has no elements", elem.name, ot->name);
        else
            diag_error(elem.loc, "cannot select '%s' from a value of type %s",
                       elem.name, ot->name);
        return error_type(c, e);
    }
    Symbol *m = sema_scope_find(ot->members, elem.name);
    if (!m || m->redefined) {
        if (!m && sema_report_once(c, ot, elem.name)) {
            diag_error(elem.loc, "type '%s' has no element '%s'", ot->name, elem.name);
            const char *near = sema_closest_in(ot->members, elem.name,
                                               SYMS(SYM_ELEM) | SYMS(SYM_IFACE), false, false);
            if (near)
                diag_note(elem.loc, "did you mean '%s'?", near);
        }
        return error_type(c, e);
    }
    if (m->kind != SYM_ELEM && m->kind != SYM_IFACE) {
        diag_error(elem.loc, "'%s' is an %s of '%s' and can only be called",
                   elem.name, sema_sym_what(m), ot->name);
        return error_type(c, e);
    }
    if (broken(m->type))
        return error_type(c, e);
    e->sym = m;
    e->type = m->type;
    e->cat = obj->cat == VC_PV ? VC_PVS : VC_OBJECT;
    e->read_only = obj->read_only;
    return e->type;
}

static bool check_subscriptable_base(const Expr *obj, Loc at)
{
    if (obj->cat == VC_PV || obj->cat == VC_PVS) {
        diag_error(at, "a parallel variable cannot be subscripted");
        return false;
    }
    if (obj->cat == VC_CONNADDR) {
        diag_error(at, "a connection address cannot be subscripted");
        return false;
    }
    return true;
}

/* ---- node grids (ARRAY m OF ARRAY n OF a node type) -------------------
 * The m*n nodes are one node array, row after row.  X.g[i] is row i, an
 * object of the row type (for MAXINDEX and EXTERNAL arguments); every
 * access that reaches nodes is rewritten here into an access of the flat
 * array with an index operator that checks each dimension, so lowering
 * and code generation only ever see a node array. */

/* The grid element symbol if e is X.g of a node grid g, else NULL. */
static Symbol *grid_of(const Expr *e)
{
    return e->kind == EXPR_SELECT && e->sym && e->sym->kind == SYM_ELEM &&
                   type_is_node_grid(e->sym->type)
               ? e->sym
               : NULL;
}

/* The grid element symbol if e is the row X.g[i] of a node grid. */
static Symbol *grid_row_of(const Expr *e)
{
    return e->kind == EXPR_SUBSCRIPT && e->cat == VC_OBJECT && type_is_node_array(e->type)
               ? grid_of(e->u.subscript.obj)
               : NULL;
}

Expr *sema_grid_op(Ctx *c, Op op, Expr *a, Expr *b, Symbol *g, bool interval, Loc loc)
{
    Expr *x = b ? ast_binary(op, a, b, loc) : ast_unary(op, a, loc);
    x->sym = g;
    x->cat = VC_VALUE;
    x->type = c->si->builtin[interval ? TY_INTERVAL : TY_INT];
    return x;
}

/* e := grid[index] as a node (object) or node slice (parallel variable) */
static Type *grid_access(Expr *e, Expr *grid, Expr *index, bool slice)
{
    e->kind = EXPR_SUBSCRIPT;
    e->u.subscript.obj = grid;
    e->u.subscript.index = index;
    e->read_only = grid->read_only;
    e->type = type_node_of(grid->type);
    e->cat = slice ? VC_PV : VC_OBJECT;
    return e->type;
}

bool sema_grid_row_to_pv(Ctx *c, Expr *e)
{
    Symbol *g = grid_row_of(e);
    if (!g)
        return false;
    Expr *grid = e->u.subscript.obj;
    grid_access(e, grid, sema_grid_op(c, OP_GRID_ROW, e->u.subscript.index, NULL, g, true, e->loc),
                true);
    return true;
}

/* Object -> Object "[" Expression "]": element or slice by the index type (§6.3) */
static Type *subscript_expr(Ctx *c, Expr *e)
{
    Expr *obj = e->u.subscript.obj, *idx = e->u.subscript.index;
    Type *ot = sema_analyze_expr(c, obj);
    Type *it = sema_value(c, idx);
    if (type_is_error(ot))
        return error_type(c, e);
    if (!check_subscriptable_base(obj, idx->loc))
        return error_type(c, e);
    if (sema_is_iface(obj)) {
        diag_error(idx->loc, "interface '%s' cannot be subscripted; only '%s[]' "
                   "(all its connections) is allowed", obj->sym->name, obj->sym->name);
        return error_type(c, e);
    }
    bool net = obj->kind == EXPR_NAME && is_network_var(obj->sym);
    if (obj->cat != VC_OBJECT ||
        !(ot->kind == TY_ARRAY || ot->kind == TY_GROUP || net)) {
        diag_error(idx->loc, "an object of type %s cannot be subscripted", ot->name);
        return error_type(c, e);
    }
    if (!net && type_is_node_collection(ot) && !type_is_node_grid(ot)) {
        /* the nodes of ME's groups and node arrays are merged by their own
           type's MERGE, pair by pair after the network's (§8.10); a MERGE
           procedure sees only the data elements of the two records.  A row
           of a grid is no node yet: MAXINDEX (ME.grid[i]) is its size */
        const char *what = "a node of a group or node array";
        if (c->kind == CTX_MERGE) {
            diag_error(e->loc, "%s cannot be used in a MERGE procedure (it merges the "
                       "data elements of two replicates, outside any network call)", what);
            return error_type(c, e);
        }
        sema_note_net_use(c, e->loc, what);
    }
    if (type_is_error(it))
        return error_type(c, e);
    bool slice = type_is_int_interval(it);
    if (!slice && !type_is_integral(it)) {
        diag_error(idx->loc, "a subscript must have an integer or integer interval "
                   "type, not %s", it->name);
        return error_type(c, e);
    }
    e->read_only = obj->read_only;
    if (net) {
        e->type = ot;
        e->cat = slice ? VC_PV : VC_OBJECT;
        return e->type;
    }
    Symbol *g = grid_row_of(obj);
    if (g) /* X.g[i][j], X.g[i][a...b] */
        return grid_access(e, obj->u.subscript.obj,
                           sema_grid_op(c, slice ? OP_GRID_SLICE : OP_GRID_INDEX,
                                   obj->u.subscript.index, idx, g, slice, idx->loc),
                           slice);
    g = grid_of(obj);
    if (g && slice) /* X.g[a...b]: the nodes of rows a to b */
        return grid_access(e, obj, sema_grid_op(c, OP_GRID_ROWS, idx, NULL, g, true, idx->loc),
                           true);
    if (slice && ot->kind == TY_ARRAY && !type_is_node_array(ot)) {
        diag_error(idx->loc, "a slice of array type '%s' has no use: slices are "
                   "parallel variables and need node elements", ot->name);
        return error_type(c, e);
    }
    e->type = ot->elem;
    e->cat = slice ? VC_PV : VC_OBJECT;
    return e->type;
}

/* Object -> Object "[" "]": the all-slice of a node collection, interface or
 * network variable (§6.3) */
static Type *allslice_expr(Ctx *c, Expr *e)
{
    Expr *obj = e->u.allslice.obj;
    Type *ot = sema_analyze_expr(c, obj);
    if (type_is_error(ot))
        return error_type(c, e);
    if (!check_subscriptable_base(obj, e->loc))
        return error_type(c, e);
    e->read_only = obj->read_only;
    e->cat = VC_PV;
    if (sema_is_iface(obj)) {
        e->sym = obj->sym;
        e->type = ot;
        return e->type;
    }
    if (obj->cat == VC_OBJECT && obj->kind == EXPR_NAME && is_network_var(obj->sym)) {
        e->type = ot;
        return e->type;
    }
    Symbol *g = grid_row_of(obj);
    if (g) /* X.g[i][]: the nodes of row i */
        return grid_access(e, obj->u.subscript.obj,
                           sema_grid_op(c, OP_GRID_ROW, obj->u.subscript.index, NULL, g, true,
                                   obj->loc),
                           true);
    if (obj->cat == VC_OBJECT && type_is_node_collection(ot)) {
        e->type = type_node_of(ot); /* all nodes, also of a grid */
        return e->type;
    }
    if (obj->cat == VC_OBJECT && ot->kind == TY_ARRAY)
        diag_error(e->loc, "an all-slice of array type '%s' has no use: slices are "
                   "parallel variables and need node elements", ot->name);
    else
        diag_error(e->loc, "'[]' cannot be applied to an object of type %s", ot->name);
    return error_type(c, e);
}

/* (a --> b): an OUT and an IN interface of single nodes of one network
 * variable, same connection type, central agent only (§6.5). */
static bool connaddr_side(Ctx *c, Expr *side, IfaceMode mode)
{
    Type *t = sema_analyze_expr(c, side);
    if (type_is_error(t))
        return false;
    const char *want = mode == IFACE_OUT ? "OUT" : "IN";
    bool ok = sema_is_iface(side) && side->sym->mode == mode &&
              side->u.select.obj->cat == VC_OBJECT &&
              side->u.select.obj->type->kind == TY_NODE && sema_network_root(side);
    if (!ok)
        diag_error(side->loc, "the %s side of a connection address must be an %s "
                   "interface of a single node of a network variable (net.g[i].%s)",
                   mode == IFACE_OUT ? "left" : "right", want,
                   mode == IFACE_OUT ? "out" : "in");
    return ok;
}

static Type *connaddr_expr(Ctx *c, Expr *e)
{
    if (!ctx_is_global_subr(c)) {
        diag_error(e->loc, "connection addressing is only allowed in the central "
                   "agent, not in %s", sema_ctx_desc(c));
        return error_type(c, e);
    }
    Expr *from = e->u.connaddr.from, *to = e->u.connaddr.to;
    bool ok = connaddr_side(c, from, IFACE_OUT);
    ok = connaddr_side(c, to, IFACE_IN) && ok;
    if (!ok)
        return error_type(c, e);
    if (sema_network_root(from) != sema_network_root(to)) {
        diag_error(to->loc, "both sides of a connection address must belong to the "
                   "same network variable");
        return error_type(c, e);
    }
    if (from->type != to->type) {
        diag_error(to->loc, "interfaces of different connection types (%s and %s)",
                   from->type->name, to->type->name);
        return error_type(c, e);
    }
    e->type = from->type;
    e->cat = VC_CONNADDR;
    return e->type;
}

/* ---- operators ----------------------------------------------------------- */

static Type *op_error(Loc at, const char *op, const Type *a, const Type *b, Ctx *c)
{
    /* the mixes other languages allow, with what CuPit writes instead */
    bool arith = strchr("+-*/=<>.", op[0]) != NULL;
    const char *hint = "";
    if (b && arith && ((type_is_integral(a) && b->kind == TY_REAL) ||
                       (a->kind == TY_REAL && type_is_integral(b))))
        hint = " (integral and Real operands never mix: convert one, e.g. Real (n), "
               "or write a Real denoter such as 1.0)";
    else if (b && a->kind == TY_BOOL && b->kind == TY_BOOL && (strcmp(op, "=") == 0 || strcmp(op, "<>") == 0))
        hint = " (Bool values are not compared: write b or NOT b, and XOR for 'differ')";
    if (b)
        diag_error(at, "operator '%s' cannot be applied to %s and %s%s", op, a->name, b->name,
                   hint);
    else
        diag_error(at, "operator '%s' cannot be applied to %s", op, a->name);
    return builtin(c, TY_ERROR);
}

Type *sema_binary_type(Ctx *c, Op op, Type *a, Type *b, Loc at, const char *spell)
{
    if (type_is_error(a) || type_is_error(b))
        return builtin(c, TY_ERROR);
    Type *common = type_common(a, b);
    switch (op) {
    case OP_OR: case OP_XOR: case OP_AND:
        if (a->kind == TY_BOOL && b->kind == TY_BOOL)
            return a;
        return op_error(at, spell, a, b, c);
    case OP_EQ: case OP_NE: case OP_LT: case OP_GT: case OP_LE: case OP_GE:
        if ((type_is_number(a) && type_is_number(b) && common) ||
            (a->kind == TY_SYMBOLIC && a == b))
            return builtin(c, TY_BOOL);
        return op_error(at, spell, a, b, c);
    case OP_IN: {
        bool ok = (type_is_integral(a) && type_is_int_interval(b)) ||
                  (a->kind == TY_REAL && b->kind == TY_REALERVAL);
        if (ok)
            return builtin(c, TY_BOOL);
        return op_error(at, spell, a, b, c);
    }
    case OP_INTERVAL:
        if (type_is_number(a) && type_is_number(b) && common)
            return builtin(c, common->kind == TY_REAL ? TY_REALERVAL : TY_INTERVAL);
        return op_error(at, spell, a, b, c);
    case OP_BITOR: case OP_BITXOR: case OP_BITAND:
        if (type_is_integral(a) && type_is_integral(b))
            return common;
        return op_error(at, spell, a, b, c);
    case OP_LSHIFT: case OP_RSHIFT:
        if (type_is_integral(a) && type_is_integral(b))
            return a;
        return op_error(at, spell, a, b, c);
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
        if (type_is_number(a) && type_is_number(b) && common)
            return common;
        return op_error(at, spell, a, b, c);
    case OP_MOD:
        if (type_is_number(a) && type_is_number(b) && common)
            return common;
        if (type_is_number(a) && type_is_number(b)) {
            diag_error(at, "'%s' needs two integral or two Real operands, not %s and %s",
                       spell, a->name, b->name);
            return builtin(c, TY_ERROR);
        }
        return op_error(at, spell, a, b, c);
    case OP_POW:
        if (type_is_integral(a) && type_is_integral(b))
            return builtin(c, TY_INT);
        if (a->kind == TY_REAL && type_is_number(b))
            return a;
        if (type_is_integral(a) && b->kind == TY_REAL) {
            diag_error(at, "'**' with an integral base needs an integral exponent "
                       "(convert the base: Real(a) ** b)");
            return builtin(c, TY_ERROR);
        }
        return op_error(at, spell, a, b, c);
    default:
        cp_unreachable();
    }
}

/* E11 -> NOT | BITNOT | - | MIN | MAX | RANDOM  E12 (§9) */
static Type *unary_expr(Ctx *c, Expr *e)
{
    Type *a = sema_value(c, e->u.unary.operand);
    if (type_is_error(a))
        return error_type(c, e);
    Op op = e->u.unary.op;
    const char *spell = ast_op_spelling(op);
    Type *t = NULL;
    switch (op) {
    case OP_NOT: t = a->kind == TY_BOOL ? a : NULL; break;
    case OP_BITNOT: t = type_is_integral(a) ? a : NULL; break;
    case OP_NEG: t = type_is_number(a) ? a : NULL; break;
    case OP_MIN: case OP_MAX: case OP_RANDOM:
        t = type_is_interval(a) ? a->elem : NULL;
        break;
    default: cp_unreachable();
    }
    if (!t) {
        op_error(e->loc, spell, a, NULL, c);
        return error_type(c, e);
    }
    if (op == OP_RANDOM && c->subr)
        c->subr->sub->uses_random = true;
    e->type = t;
    e->cat = VC_VALUE;
    sema_fold(c, e);
    return e->type;
}

/* E2..E10 -> E op E (§9) */
static Type *binary_expr(Ctx *c, Expr *e)
{
    Op op = e->u.binary.op;
    const Expr *l = e->u.binary.lhs;
    Type *a = sema_value(c, e->u.binary.lhs);
    /* AND and OR short-circuit (compiler-dependent.md): after a constant
       false resp. true left operand the right one is never evaluated */
    bool skip = (op == OP_AND || op == OP_OR) && l->is_const && !type_is_error(a) &&
                a->kind == TY_BOOL && (op == OP_OR) == (l->const_int != 0);
    c->dead += skip;
    Type *b = sema_value(c, e->u.binary.rhs);
    c->dead -= skip;
    Type *t = sema_binary_type(c, op, a, b, e->loc, ast_op_spelling(op));
    if (type_is_error(t))
        return error_type(c, e);
    e->type = t;
    e->cat = VC_VALUE;
    sema_fold(c, e);
    /* a LSHIFT has the type of its left operand: of a denoter like 1,
       Int1, so `1 LSHIFT k` wraps beyond 127 (-Wnarrow-shift) */
    if (op == OP_LSHIFT && !e->is_const && (t->kind == TY_INT1 || t->kind == TY_INT2) &&
        (l->kind == EXPR_INT || (l->kind == EXPR_UNARY && l->u.unary.op == OP_NEG &&
                                 l->u.unary.operand->kind == EXPR_INT)) &&
        !c->dead)
        vec_push(c->si->arena, &c->si->narrow_shifts, e);
    return e->type;
}

/* E1 -> E2 "?" E2 ":" E2: Bool condition, compatible branches (§9) */
static Type *ternary_expr(Ctx *c, Expr *e)
{
    Expr *cond = e->u.ternary.cond;
    Type *ct = sema_value(c, cond);
    /* only the arm a constant condition selects is ever evaluated (§9) */
    bool known = cond->is_const && !type_is_error(ct) && ct->kind == TY_BOOL;
    c->dead += known && !cond->const_int;
    Type *a = sema_value(c, e->u.ternary.then_e);
    c->dead -= known && !cond->const_int;
    c->dead += known && cond->const_int;
    Type *b = sema_value(c, e->u.ternary.else_e);
    c->dead -= known && cond->const_int;
    bool bad = false;
    if (!type_is_error(ct) && ct->kind != TY_BOOL) {
        diag_error(cond->loc, "the condition of '?:' must be Bool, not %s", ct->name);
        bad = true;
    }
    if (type_is_error(a) || type_is_error(b) || bad)
        return error_type(c, e);
    Type *t = type_common(a, b);
    if (!t) {
        diag_error(e->u.ternary.else_e->loc, "the branches of '?:' have incompatible "
                   "types %s and %s", a->name, b->name);
        return error_type(c, e);
    }
    e->type = t;
    e->cat = VC_VALUE;
    sema_fold(c, e);
    return e->type;
}

/* ---- conversions and constructors (§2.6) --------------------------------- */

static Type *constructor(Ctx *c, Expr *e, Type *t)
{
    PtrVec *args = &e->u.convert.args;
    if (t->elems.len != args->len) {
        diag_error(e->u.convert.type.loc, "constructor %s needs %d argument%s (one per "
                   "data element), not %d", t->name, t->elems.len,
                   t->elems.len == 1 ? "" : "s", args->len);
        return error_type(c, e);
    }
    bool ok = true;
    for (int i = 0; i < args->len; i++) {
        Expr *a = VEC_AT(*args, i, Expr);
        Symbol *el = VEC_AT(t->elems, i, Symbol);
        Type *at = a->type;
        if (!type_assignable(el->type, at)) {
            diag_error(a->loc, "argument %d of constructor %s has type %s, but element "
                       "'%s' has type %s%s", i + 1, t->name, at->name, el->name,
                       el->type->name, sema_mismatch_hint(el->type, at));
            ok = false;
        }
    }
    if (!ok)
        return error_type(c, e);
    e->type = t;
    e->cat = VC_VALUE;
    return t;
}

/* E11 -> TypeId "(" ExprList ")": conversion or constructor (§2.6) */
static Type *convert_expr(Ctx *c, Expr *e)
{
    Type *t = sema_resolve_type(c, e->u.convert.type);
    PtrVec *args = &e->u.convert.args;
    bool arg_error = false;
    for (int i = 0; i < args->len; i++)
        if (type_is_error(sema_value(c, VEC_AT(*args, i, Expr))))
            arg_error = true;
    if (type_is_error(t) || arg_error)
        return error_type(c, e);
    e->sym = t->sym;
    Loc at = e->u.convert.type.loc;
    Type *a0 = args->len >= 1 ? VEC_AT(*args, 0, Expr)->type : NULL;
    if (args->len == 1 && a0 == t && !type_is_structure(t)) {
        e->type = t; /* identity */
        e->cat = VC_VALUE;
        sema_fold(c, e);
        return e->type;
    }
    switch (t->kind) {
    case TY_INT1: case TY_INT2: case TY_INT: case TY_REAL:
        if (args->len == 1 && type_is_number(a0)) {
            e->type = t;
            e->cat = VC_VALUE;
            sema_fold(c, e);
            return e->type;
        }
        break;
    case TY_INTERVAL1: case TY_INTERVAL2: case TY_INTERVAL: case TY_REALERVAL:
        if (args->len == 1 && t->kind != TY_REALERVAL && type_is_int_interval(a0)) {
            e->type = t;
            e->cat = VC_VALUE;
            return t;
        }
        if (args->len == 2) {
            for (int i = 0; i < 2; i++) {
                Expr *a = VEC_AT(*args, i, Expr);
                if (!type_assignable(t->elem, a->type)) {
                    diag_error(a->loc, "%s bound of %s(...) has type %s, but %s is "
                               "expected%s", i == 0 ? "lower" : "upper", t->name,
                               a->type->name, t->elem->name,
                               sema_mismatch_hint(t->elem, a->type));
                    return error_type(c, e);
                }
            }
            e->type = t;
            e->cat = VC_VALUE;
            return t;
        }
        break;
    case TY_RECORD: case TY_NODE: case TY_CONNECTION:
        if (args->len == 1 && a0 == t) {
            e->type = t;
            e->cat = VC_VALUE;
            return t;
        }
        return constructor(c, e, t);
    default:
        break;
    }
    if (t->kind == TY_ARRAY || t->kind == TY_GROUP || t->kind == TY_NETWORK)
        diag_error(at, "type '%s' has no constructor (array, group and network types "
                   "cannot be constructed)", t->name);
    else if (args->len == 1)
        diag_error(at, "no conversion from %s to %s", a0->name, t->name);
    else
        diag_error(at, "%s(...) with %d arguments is not a conversion or constructor",
                   t->name, args->len);
    return error_type(c, e);
}

/* Whether the object path o has a subscript (a[i], net[i].a, X.g[i]...). */
static bool path_has_subscript(const Expr *o)
{
    while (o && (o->kind == EXPR_SELECT || o->kind == EXPR_SUBSCRIPT)) {
        if (o->kind == EXPR_SUBSCRIPT)
            return true;
        o = o->u.select.obj;
    }
    return false;
}

/* E11 -> MAXINDEX "(" Object ")" (§9) */
static Type *maxindex_expr(Ctx *c, Expr *e)
{
    Expr *o = e->u.maxindex.obj;
    Type *t = sema_analyze_expr(c, o);
    if (type_is_error(t))
        return error_type(c, e);
    if (o->kind == EXPR_SUBSCRIPT && o->cat == VC_PV && o->u.subscript.index->kind == EXPR_UNARY &&
        o->u.subscript.index->u.unary.op == OP_GRID_ROW) {
        /* X.g[i][], the nodes of row i of a node grid: an all-slice is the
           same object, here the row X.g[i] */
        o->u.subscript.index = o->u.subscript.index->u.unary.operand;
        o->type = t = o->u.subscript.obj->type->elem;
        o->cat = VC_OBJECT;
    }
    Expr *base = o->kind == EXPR_ALLSLICE && o->cat == VC_PV ? o->u.allslice.obj : o;
    bool ok = base->cat == VC_OBJECT &&
              (sema_is_iface(base) || base->type->kind == TY_GROUP ||
               base->type->kind == TY_ARRAY ||
               (base->kind == EXPR_NAME && is_network_var(base->sym)));
    if (!ok && o->kind == EXPR_SUBSCRIPT && o->u.subscript.obj->kind == EXPR_NAME &&
        is_network_var(o->u.subscript.obj->sym)) {
        diag_error(o->loc, "MAXINDEX needs a connection interface, group, array or "
                   "network variable, not one replicate of %s (MAXINDEX (%s) is the "
                   "highest replicate index)", o->u.subscript.obj->u.name.name,
                   o->u.subscript.obj->u.name.name);
        return error_type(c, e);
    }
    if (!ok) {
        diag_error(o->loc, "MAXINDEX needs a connection interface, group, array or "
                   "network variable, not %s of type %s",
                   o->cat == VC_OBJECT ? "an object" : "a value", t->name);
        return error_type(c, e);
    }
    if (sema_is_iface(base) || base->type->kind == TY_GROUP) {
        const char *what = sema_is_iface(base) ? "MAXINDEX of an interface"
                                               : "MAXINDEX of a group";
        if (c->kind == CTX_MERGE) {
            diag_error(e->loc, "%s cannot be used in a MERGE procedure (it merges the "
                       "data elements of two replicates, outside any network call)", what);
            return error_type(c, e);
        }
        sema_note_net_use(c, e->loc, what);
    }
    e->type = builtin(c, TY_INT);
    e->cat = VC_VALUE;
    /* an array's size is known, but a subscript on the way to it (rows[i],
       net[i].a) is evaluated and checked at run time (§9, §10.3), so only
       a path without one folds */
    if (base->type->kind == TY_ARRAY && !sema_is_iface(base) && !path_has_subscript(base)) {
        e->is_const = true;
        e->const_int = base->type->size - 1;
    }
    return e->type;
}

/* ---- entry points -------------------------------------------------------- */

static Type *analyze_kind(Ctx *c, Expr *e);

Type *sema_analyze_expr(Ctx *c, Expr *e)
{
    if (c->depth >= SEMA_MAX_DEPTH) {
        if (!c->too_deep)
            diag_error(e->loc, "expression too long or nested too deeply: more than %d "
                       "levels (each operator of a chain such as a + b + c is one level; "
                       "split it with variables)", SEMA_MAX_DEPTH);
        c->too_deep = true;
        return error_type(c, e);
    }
    c->depth++;
    Type *t = analyze_kind(c, e);
    c->depth--;
    return t;
}

static Type *analyze_kind(Ctx *c, Expr *e)
{
    switch (e->kind) {
    case EXPR_INT: {
        Type *t = type_of_int_literal(c->si, e->u.int_lit.value);
        if (!t) /* the scanner has reported it */
            return error_type(c, e);
        e->type = t;
        e->cat = VC_VALUE;
        e->is_const = true;
        e->const_int = (int64_t)e->u.int_lit.value;
        return t;
    }
    case EXPR_REAL:
        e->type = builtin(c, TY_REAL);
        e->cat = VC_VALUE;
        e->is_const = true;
        e->const_real = sema_real_value(e->u.real_lit.value);
        if (isinf(e->const_real) && !isinf(e->u.real_lit.value))
            vec_push(c->si->arena, &c->si->inf_reals, e);
        return e->type;
    case EXPR_STRING:
        e->type = builtin(c, TY_STRING);
        e->cat = VC_VALUE;
        return e->type;
    case EXPR_NAME: return name_expr(c, e);
    case EXPR_ME: return me_expr(c, e);
    case EXPR_YOU: return you_expr(c, e);
    case EXPR_INDEX: return index_expr(c, e);
    case EXPR_SELECT: return select_expr(c, e);
    case EXPR_SUBSCRIPT: return subscript_expr(c, e);
    case EXPR_ALLSLICE: return allslice_expr(c, e);
    case EXPR_CONNADDR: return connaddr_expr(c, e);
    case EXPR_UNARY: return unary_expr(c, e);
    case EXPR_BINARY: return binary_expr(c, e);
    case EXPR_TERNARY: return ternary_expr(c, e);
    case EXPR_CALL: case EXPR_OBJCALL: return sema_call(c, e, false, false);
    case EXPR_CONVERT: return convert_expr(c, e);
    case EXPR_MAXINDEX: return maxindex_expr(c, e);
    default: cp_unreachable();
    }
}

bool sema_check_not_parallel(Ctx *c, Expr *e)
{
    (void)c;
    switch (e->cat) {
    case VC_PV:
        diag_error(e->loc, "a parallel variable cannot be used as a value (only as "
                   "the object of a procedure call)");
        return false;
    case VC_PVS:
        diag_error(e->loc, "a parallel variable selection can only be used in "
                   "REDUCTION, WTA, CONNECT, DISCONNECT and I/O assignments");
        return false;
    case VC_CONNADDR:
        diag_error(e->loc, "a connection address can only be the whole left-hand "
                   "side of ':='");
        return false;
    default:
        return true;
    }
}

Type *sema_value(Ctx *c, Expr *e)
{
    Type *t = sema_analyze_expr(c, e);
    if (type_is_error(t))
        return t;
    if (!sema_check_not_parallel(c, e))
        return error_type(c, e);
    if (e->cat != VC_OBJECT)
        return t;
    if (sema_is_iface(e)) {
        diag_error(e->u.select.elem.loc, "interface '%s' is not a value",
                   e->sym->name);
        return error_type(c, e);
    }
    if (sema_is_io_area(e)) {
        diag_error(e->loc, "I/O area '%s' can only be used in I/O assignments and "
                   "as an IO argument", e->sym->name);
        return error_type(c, e);
    }
    if (t->kind == TY_GROUP || t->kind == TY_NETWORK || type_is_node_array(t)) {
        const char *kind = t->kind == TY_NETWORK ? "network" : t->kind == TY_GROUP ? "group"
                                                                                  : "node array";
        if (e->sym && (e->kind == EXPR_NAME || e->kind == EXPR_SELECT))
            diag_error(e->loc, "%s '%s' (of type %s) is not a value: networks, groups and node "
                       "arrays cannot be assigned, compared or passed by value", kind,
                       e->sym->name, t->name);
        else
            diag_error(e->loc, "a %s (of type %s) is not a value: networks, groups and node "
                       "arrays cannot be assigned, compared or passed by value", kind, t->name);
        return error_type(c, e);
    }
    return t;
}

bool sema_value_to(Ctx *c, Expr *e, Type *dst, const char *what)
{
    Type *t = sema_value(c, e);
    if (type_is_error(t) || type_is_error(dst))
        return !type_is_error(t);
    if (type_assignable(dst, t))
        return true;
    diag_error(e->loc, "%s has type %s, but %s is expected%s", what, t->name, dst->name,
               sema_mismatch_hint(dst, t));
    return false;
}

const char *sema_mismatch_hint(const Type *dst, const Type *src)
{
    if ((type_is_integral(dst) && type_is_integral(src)) ||
        (type_is_int_interval(dst) && type_is_int_interval(src)))
        return " (no implicit narrowing)";
    if (dst->kind == TY_REAL && type_is_integral(src))
        return " (write a Real denoter such as 1.0, or convert with Real(...))";
    /* name the destination's own conversion: Int (r) would still need
       narrowing into an Int1 or Int2 object */
    if (type_is_integral(dst) && src->kind == TY_REAL)
        return dst->kind == TY_INT1   ? " (convert with Int1(...))"
               : dst->kind == TY_INT2 ? " (convert with Int2(...))"
                                      : " (convert with Int(...))";
    return "";
}

/* Describes the root of a read-only object for "cannot ..." messages. */
static const char *read_only_what(Ctx *c, Expr *e)
{
    Expr *r = sema_object_root(e);
    switch (r->kind) {
    case EXPR_NAME:
        if (r->sym && r->sym->kind == SYM_PARAM)
            return arena_printf(c->si->arena, "CONST parameter '%s'", r->sym->name);
        return arena_printf(c->si->arena, "CONST object '%s'", r->sym ? r->sym->name : "?");
    case EXPR_YOU: return "YOU (it is read-only)";
    case EXPR_INDEX: return "INDEX (it is read-only)";
    case EXPR_ME:
        return arena_printf(c->si->arena, "ME (it is read-only in %s)", sema_ctx_desc(c));
    default: return "a read-only object";
    }
}

bool sema_check_writable(Ctx *c, Expr *e, const char *verb, const char *suffix)
{
    if (type_is_error(e->type))
        return true;
    if (e->cat == VC_PV || e->cat == VC_PVS) {
        diag_error(e->loc, "cannot %s a parallel variable%s", verb, suffix);
        return false;
    }
    if (e->cat == VC_CONNADDR) {
        diag_error(e->loc, "cannot %s a connection address%s", verb, suffix);
        return false;
    }
    if (e->cat != VC_OBJECT) {
        if (e->kind == EXPR_NAME && e->sym)
            diag_error(e->loc, "cannot %s '%s'%s: it is a %s, not a variable", verb,
                       e->sym->name, suffix, sema_sym_what(e->sym));
        else
            diag_error(e->loc, "cannot %s a value%s: a variable is needed", verb, suffix);
        return false;
    }
    if (sema_is_iface(e)) {
        diag_error(e->u.select.elem.loc, "cannot %s interface '%s'%s", verb,
                   e->sym->name, suffix);
        return false;
    }
    if (sema_is_io_area(e)) {
        diag_error(e->loc, "cannot %s I/O area '%s'%s (use an I/O assignment)", verb,
                   e->sym->name, suffix);
        return false;
    }
    if (e->read_only) {
        diag_error(e->loc, "cannot %s %s%s", verb, read_only_what(c, e), suffix);
        return false;
    }
    Type *t = e->type;
    if (t->kind == TY_GROUP || t->kind == TY_NETWORK || type_is_node_array(t)) {
        diag_error(e->loc, "cannot %s an object of type %s%s", verb, t->name, suffix);
        return false;
    }
    return true;
}
