/* lw_module.c -- drives the lowering of an analysed program to the loop IR.
 *
 * Functions: every global subroutine, REDUCTION and WTA function and MERGE
 * procedure becomes one IrFunc; an object subroutine of a node type one per
 * (network type, group) in which the node type occurs, so that the bundles
 * at each interface are constants; with lane blocks every network, node
 * and connection subroutine also gets lane versions (node: per group,
 * connection: per bundle).  All are declared first, so that bodies can call
 * each other in any order, then filled. */
#include <string.h>

#include "cupitc/ast_walk.h"
#include "cupitc/lower_ir.h"
#include "lw_internal.h"

void lw_unsupported(Lw *lw, Loc loc, const char *what)
{
    /* a limit of cupitc, not a mistake of the program */
    diag_error(loc, "internal error: cupitc cannot generate code for %s here (a limitation "
               "of cupitc, not an error in the program; please report it)", what);
    lw->failed = true;
}

/* ---- statement building ------------------------------------------------------ */

IrStmt *lw_add(Lw *lw, IrStmtKind k, Loc loc)
{
    IrStmt *s = ir_s(lw->m, k, loc);
    ir_append(lw->m, lw->blk, s);
    return s;
}

IrVar *lw_decl(Lw *lw, const char *stem, const IrType *t, IrExpr *init, Loc loc)
{
    IrVar *v = ir_fresh(lw->m, lw->fn ? lw->fn->f : NULL, stem, t);
    IrStmt *s = lw_add(lw, IRS_DECL, loc);
    s->var = v;
    s->a = init;
    return v;
}

IrVar *lw_decl_uninit(Lw *lw, const char *stem, const IrType *t, Loc loc)
{
    IrVar *v = lw_decl(lw, stem, t, NULL, loc);
    VEC_AT(lw->blk->list, lw->blk->list.len - 1, IrStmt)->uninit = true;
    return v;
}

void lw_assign(Lw *lw, IrExpr *lhs, IrExpr *rhs, Loc loc)
{
    IrStmt *s = lw_add(lw, IRS_ASSIGN, loc);
    s->a = lhs;
    s->b = rhs;
}

void lw_eval(Lw *lw, IrExpr *e, Loc loc)
{
    IrStmt *s = lw_add(lw, IRS_EVAL, loc);
    s->a = e;
}

IrStmt *lw_open(Lw *lw, Loc loc)
{
    IrStmt *saved = lw->blk;
    IrStmt *b = ir_block(lw->m, loc);
    ir_append(lw->m, lw->blk, b);
    lw->blk = b;
    return saved;
}

void lw_close(Lw *lw, IrStmt *saved)
{
    lw->blk = saved;
}

IrStmt *lw_push(Lw *lw, IrStmt *into)
{
    IrStmt *saved = lw->blk;
    lw->blk = into;
    return saved;
}

/* ---- names --------------------------------------------------------------------- */

/* C keywords and the lowercase macros of the headers generated code
 * includes; a CuPit name equal to one of these gets a trailing '_'. */
static const char *const reserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "bool", "true", "false",
    "offsetof", "errno", "assert", "me", "you", "net", "rep", "idx",
    "main", "asm", "typeof", NULL,
};

const char *lw_cident(Lw *lw, const char *name)
{
    for (int i = 0; reserved[i]; i++)
        if (strcmp(reserved[i], name) == 0)
            return arena_printf(lw->m->perm, "%s_", name);
    return name;
}

const char *lw_local_name(Lw *lw, const Symbol *sym)
{
    return arena_printf(lw->m->arena, "v_%s", sym->cname ? sym->cname : sym->name);
}

/* The standard library's arithmetic functions that are called inline
 * (cupit_rt.h) when declared with their library signature. */
static const struct {
    const char *name;
    IrHelper helper;
    int nparams;
} builtins[] = {
    {"sigmoid", IRH_SIGMOID, 1},   {"sigmoidPrime", IRH_SIGMOID_PRIME, 1},
    {"absReal", IRH_ABS_REAL, 1},  {"signReal", IRH_SIGN_REAL, 1},
    {"minReal", IRH_MIN_REAL, 2},  {"maxReal", IRH_MAX_REAL, 2},
};

bool lw_is_builtin(Lw *lw, const Symbol *s, IrHelper *h)
{
    if (!lw->opts.builtins || s->kind != SYM_FUNC || !s->sub->external || !s->sub->result ||
        s->sub->result->kind != TY_REAL)
        return false;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        if (strcmp(s->name, builtins[i].name) != 0 || s->sub->params.len != builtins[i].nparams)
            continue;
        for (int p = 0; p < s->sub->params.len; p++) {
            const Symbol *prm = VEC_AT(s->sub->params, p, Symbol);
            if (prm->access != ACCESS_CONST || prm->type->kind != TY_REAL)
                return false;
        }
        if (h)
            *h = builtins[i].helper;
        return true;
    }
    return false;
}

/* ---- which subroutines may change the topology ------------------------------- */

static bool contains(const PtrVec *v, const void *p)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == p)
            return true;
    return false;
}

bool lw_may_topo(Lw *lw, const Symbol *subr)
{
    return contains(&lw->may_topo, subr);
}

typedef struct TopoScan {
    AstWalk walk;     /* first: the callbacks get &walk */
    Lw *lw;
    bool direct;      /* REPLICATE ME at node/connection level */
    bool conn_delete; /* REPLICATE ME at connection level */
    PtrVec callees;   /* object subroutines called */
} TopoScan;

static void scan_callee(TopoScan *ts, Symbol *s)
{
    if (s && !contains(&ts->callees, s))
        vec_push(ts->lw->arena, &ts->callees, s);
}

/* The object functions an expression calls count as much as procedure
 * calls: a function may call object procedures on ME
 * (docs/language-decisions.md), and those may replicate or delete ME, so
 * `ME.x := ME.f ()` in a node procedure may change the topology as much as
 * a call statement would. */
static void scan_expr(AstWalk *w, Expr *e)
{
    if (e->kind == EXPR_OBJCALL)
        scan_callee((TopoScan *)w, e->sym);
}

static void scan_stmt(AstWalk *w, Stmt *s)
{
    TopoScan *ts = (TopoScan *)w;
    if (s->kind == STMT_WTA)
        scan_callee(ts, s->proc);
    if (s->kind == STMT_REPLICATE) {
        int lvl = s->sem_flags & SEMF_LEVEL_MASK;
        if (lvl == SEMF_LEVEL_NODE || lvl == SEMF_LEVEL_CONN)
            ts->direct = true;
        if (lvl == SEMF_LEVEL_CONN)
            ts->conn_delete = true;
    }
}

static void compute_may_topo(Lw *lw)
{
    PtrVec *subrs = &lw->si->subrs;
    TopoScan *scans = arena_alloc(lw->arena, (size_t)(subrs->len + 1) * sizeof *scans);
    for (int i = 0; i < subrs->len; i++) {
        Symbol *s = VEC_AT(*subrs, i, Symbol);
        scans[i].walk = (AstWalk){.expr = scan_expr, .stmt = scan_stmt};
        scans[i].lw = lw;
        if (s->decl && !s->sub->external)
            ast_walk_block(&scans[i].walk, s->decl->u.subr.body);
        if (scans[i].conn_delete)
            lw->conn_deletion = true;
        if (scans[i].direct)
            vec_push(lw->arena, &lw->may_topo, s);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < subrs->len; i++) {
            Symbol *s = VEC_AT(*subrs, i, Symbol);
            if (lw_may_topo(lw, s))
                continue;
            for (int j = 0; j < scans[i].callees.len; j++)
                if (lw_may_topo(lw, VEC_AT(scans[i].callees, j, Symbol))) {
                    vec_push(lw->arena, &lw->may_topo, s);
                    changed = true;
                    break;
                }
        }
    }
    arena_release(lw->arena, scans, (size_t)(subrs->len + 1) * sizeof *scans);
}

/* ---- function instances --------------------------------------------------------- */

static int inst_key(int group_or_bundle, bool lane)
{
    return (group_or_bundle + 1) * 2 + (lane ? 1 : 0);
}

static IrFunc *find_fn(Lw *lw, const Symbol *s, const LowerNet *net, int gb, bool lane)
{
    IrFunc *f = ptrmap_get(&lw->funcs, s, net, inst_key(gb, lane));
    if (!f)
        cp_unreachable(); /* every instance is declared before bodies are lowered */
    return f;
}

IrFunc *lw_subr_fn(Lw *lw, const Symbol *s)
{
    return find_fn(lw, s, NULL, -1, false);
}

IrFunc *lw_node_fn(Lw *lw, const LowerNet *net, int group, const Symbol *s)
{
    return find_fn(lw, s, net, group, false);
}

IrFunc *lw_conn_fn(Lw *lw, const Symbol *s)
{
    return find_fn(lw, s, NULL, -1, false);
}

IrFunc *lw_lane_fn(Lw *lw, const Symbol *s, const LowerNet *net, int gb)
{
    if (s->owner->kind == TY_NETWORK)
        return find_fn(lw, s, NULL, -1, true);
    return find_fn(lw, s, net, gb, true);
}

IrFunc *lw_merge_callee_fn(Lw *lw, const Symbol *s)
{
    IrFunc *f = ptrmap_get(&lw->funcs, s, NULL, -7);
    if (!f)
        cp_unreachable();
    return f;
}

IrFunc *lw_type_fn(Lw *lw, const Type *t, IrFuncRole role)
{
    return ptrmap_get(&lw->type_fns, t, NULL, (int)role);
}

static const char *subr_cname(Lw *lw, const Symbol *s)
{
    switch (s->kind) {
    case SYM_PROC:
    case SYM_FUNC:
        /* EXTERNAL: a name of its own too, bound to the C symbol (print_c.c),
           so that no local of the generated C (k, rep, blk) hides it */
        return arena_printf(lw->arena, s->sub->external ? "cpX_%s" : "cpF_%s", s->name);
    case SYM_REDUCTION:
        return arena_printf(lw->arena, "cpR_%s", s->name);
    case SYM_WTA:
        return arena_printf(lw->arena, "cpW_%s", s->name);
    case SYM_OBJPROC:
    case SYM_OBJFUNC:
        return arena_printf(lw->arena, "cpM_%s_%s", s->owner->name, s->name);
    case SYM_MERGE:
        return arena_printf(lw->arena, "cpMerge_%s", s->owner->name);
    default:
        cp_unreachable();
    }
}

static const IrType *result_type(Lw *lw, const Symbol *s)
{
    return s->sub->result ? lw_vt(lw, s->sub->result) : ir_t(lw->m, IRT_VOID);
}

/* The C parameter of a CuPit parameter of a subroutine on one replicate. */
bool lw_const_by_address(const Symbol *p)
{
    if (p->kind != SYM_PARAM || p->access != ACCESS_CONST || !p->subr ||
        (p->type->kind != TY_RECORD && p->type->kind != TY_ARRAY))
        return false;
    const Symbol *s = p->subr;
    if (s->sub->external)
        return true;
    /* a copy on the stack per call: 8 MB overflow the main thread's stack */
    return (s->kind == SYM_PROC || s->kind == SYM_FUNC || s->kind == SYM_OBJPROC ||
            s->kind == SYM_OBJFUNC) &&
           p->type->bytes > ((int64_t)64 << 10);
}

static IrVar *plain_param(Lw *lw, IrFunc *f, const Symbol *p)
{
    IrModule *m = lw->m;
    const char *name = lw_local_name(lw, p);
    const IrType *t;
    if (p->type->kind == TY_NODE || p->type->kind == TY_CONNECTION || type_is_node_array(p->type))
        t = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), p->access == ACCESS_CONST);
    else if (lw_const_by_address(p))
        t = ir_t_ptr(m, lw_vt(lw, p->type), true); /* by address */
    else if (p->access == ACCESS_IO)
        t = ir_t_ptr(m, ir_t(m, IRT_IO), false);
    else if (p->access == ACCESS_VAR)
        t = ir_t_ptr(m, lw_vt(lw, p->type), false);
    else
        t = lw_vt(lw, p->type);
    IrVar *v = ir_param(m, f, name, t);
    v->sym = p;
    ptrmap_put(lw->arena, &lw->vars, p, f, 0, v);
    return v;
}

/* The C parameter of a CuPit parameter in lane code: CONST an array over
 * the lanes, VAR an array of pointers, IO the area itself. */
static IrVar *lane_param(Lw *lw, IrFunc *f, const Symbol *p)
{
    IrModule *m = lw->m;
    const IrType *T = lw_vt(lw, p->type);
    const IrType *t = p->access == ACCESS_IO    ? ir_t_ptr(m, ir_t(m, IRT_IO), false)
                      : p->access == ACCESS_VAR ? ir_t_ptr(m, ir_t_ptr(m, T, false), true)
                                                : ir_t_ptr(m, T, true);
    IrVar *v = ir_param(m, f, lw_local_name(lw, p), t);
    v->sym = p;
    ptrmap_put(lw->arena, &lw->vars, p, f, 0, v);
    return v;
}

static void params_of(Lw *lw, IrFunc *f, const Symbol *s, bool lane)
{
    for (int i = 0; i < s->sub->params.len; i++) {
        const Symbol *p = VEC_AT(s->sub->params, i, Symbol);
        if (lane)
            lane_param(lw, f, p);
        else
            plain_param(lw, f, p);
    }
}

/* ME of an object function is a pointer to const, unless the function
 * calls a procedure on it (SubrInfo.changes_me). */
static bool me_const(const Symbol *s)
{
    return s->kind == SYM_OBJFUNC && !s->sub->changes_me;
}

static IrVar *fixed(Lw *lw, IrFunc *f, const char *name, const IrType *t)
{
    return ir_param(lw->m, f, name, t);
}

static void add_fn(Lw *lw, IrFunc *f)
{
    vec_push(lw->arena, &lw->m->funcs, f);
}

/* The function of subroutine s on one replicate (node instances: net, g). */
/* It would be the program's own main, called again. */
static void report_external_main(const Symbol *s)
{
    diag_error(s->loc, "EXTERNAL %s 'main' would be the C main function the program "
               "starts with (only a --library object has none)",
               s->kind == SYM_FUNC ? "function" : "procedure");
}

bool lower_check_external_main(const Program *prog, bool library)
{
    const SemaInfo *si = prog->sema;
    bool ok = true;
    for (int j = 0; !library && si && j < si->subrs.len; j++) {
        const Symbol *s = VEC_AT(si->subrs, j, Symbol);
        if ((s->kind == SYM_PROC || s->kind == SYM_FUNC) && s->sub->external &&
            strcmp(s->name, "main") == 0) {
            report_external_main(s);
            ok = false;
        }
    }
    return ok;
}

static void declare_plain(Lw *lw, Symbol *s, LowerNet *net, int g)
{
    IrModule *m = lw->m;
    IrFunc *f;
    const IrType *i32 = ir_t(m, IRT_I32);
    if (s->kind == SYM_PROC || s->kind == SYM_FUNC) {
        if (s->sub->external && lw_is_builtin(lw, s, NULL))
            return; /* inline from cupit_rt.h */
        f = ir_func(m, subr_cname(lw, s), s->sub->external ? IRFN_EXTERNAL : IRFN_GLOBAL,
                    result_type(lw, s));
        f->is_static = !s->sub->external;
        if (s->sub->external)
            f->link_name = s->name;
        if (s->sub->external && !lw->opts.library && strcmp(s->name, "main") == 0) {
            report_external_main(s);
            lw->failed = true;
        }
        params_of(lw, f, s, false);
    } else if (s->kind == SYM_REDUCTION || s->kind == SYM_WTA) {
        bool wta = s->kind == SYM_WTA;
        f = ir_func(m, subr_cname(lw, s), wta ? IRFN_WTA : IRFN_REDUCTION,
                    wta ? ir_t(m, IRT_BOOL) : lw_vt(lw, s->type));
        f->is_inline = true;
        f->pure = true;
        fixed(lw, f, "me", lw_vt(lw, s->type));
        fixed(lw, f, "you", lw_vt(lw, s->type));
    } else if (s->kind == SYM_MERGE) {
        f = ir_func(m, subr_cname(lw, s), IRFN_MERGE, NULL);
        fixed(lw, f, "me_", ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false));
        fixed(lw, f, "you_", ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true));
    } else {
        const Type *o = s->owner;
        const char *name = o->kind == TY_NODE
            ? arena_printf(lw->arena, "cpN_%s_%s_%s", net->type->name,
                           VEC_AT(net->groups, g, Symbol)->name, s->name)
            : subr_cname(lw, s);
        f = ir_func(m, name, IRFN_OBJECT, result_type(lw, s));
        f->net = net;
        f->group = g;
        switch (o->kind) {
        case TY_RECORD:
            fixed(lw, f, "me", ir_t_ptr(m, lw_vt(lw, o), me_const(s)));
            break;
        case TY_NETWORK:
            fixed(lw, f, "net", ir_t_ptr(m, ir_t(m, IRT_NET), false));
            fixed(lw, f, "rep", i32);
            break;
        case TY_NODE:
            fixed(lw, f, "net", ir_t_ptr(m, ir_t(m, IRT_NET), false));
            fixed(lw, f, "rep", i32);
            fixed(lw, f, "idx", i32);
            break;
        default: /* connection */
            fixed(lw, f, "net", ir_t_ptr(m, ir_t(m, IRT_NET), false));
            fixed(lw, f, "b", i32);
            fixed(lw, f, "k", i32);
            fixed(lw, f, "me", ir_t_ptr(m, ir_t_record(m, lw_plain(lw, o)), me_const(s)));
            break;
        }
        params_of(lw, f, s, false);
    }
    f->subr = s;
    f->loc = s->loc;
    ptrmap_put(lw->arena, &lw->funcs, s, net, inst_key(g, false), f);
    add_fn(lw, f);
}

bool lw_has_lane_version(const Symbol *s);
bool lw_has_lane_version(const Symbol *s)
{
    return (s->kind == SYM_OBJPROC || s->kind == SYM_OBJFUNC) && s->owner &&
           lw_has_lanes(s->owner) && !s->sub->external;
}

/* The lane version of s (node: per group, connection: per bundle). */
static void declare_lane(Lw *lw, Symbol *s, LowerNet *net, int gb)
{
    IrModule *m = lw->m;
    const Type *o = s->owner;
    const IrType *i32 = ir_t(m, IRT_I32);
    const char *name;
    if (o->kind == TY_NODE)
        name = arena_printf(lw->arena, "cpNL_%s_%s_%s", net->type->name,
                            VEC_AT(net->groups, gb, Symbol)->name, s->name);
    else if (o->kind == TY_CONNECTION)
        name = arena_printf(lw->arena, "cpML_%s_b%d_%s_%s", net->type->name, gb, o->name, s->name);
    else
        name = arena_printf(lw->arena, "cpML_%s_%s", o->name, s->name);
    IrFunc *f = ir_func(m, name, IRFN_LANE, NULL);
    f->lane = true;
    f->net = o->kind == TY_NETWORK ? NULL : net;
    f->group = o->kind == TY_NETWORK ? -1 : gb;
    /* connection subroutines run once per connection: worth inlining */
    f->is_inline = o->kind != TY_NETWORK;
    fixed(lw, f, "net", ir_t_ptr(m, ir_t(m, IRT_NET), false));
    fixed(lw, f, "blk", i32);
    if (o->kind == TY_NODE)
        fixed(lw, f, "idx", i32);
    if (o->kind == TY_CONNECTION) {
        bool c = me_const(s);
        fixed(lw, f, "k", i32);
        fixed(lw, f, "me", ir_t_ptr(m, ir_t_record(m, lw_lanes_layout(lw, o)), c));
        fixed(lw, f, "ms", ir_t_ptr(m, ir_t_record(m, lw_shared_layout(lw, o)), c));
    }
    fixed(lw, f, "M0", ir_t_ptr(m, i32, true));
    if (s->sub->result)
        fixed(lw, f, "ret", ir_t_ptr(m, lw_vt(lw, s->sub->result), false));
    params_of(lw, f, s, true);
    f->subr = s;
    f->loc = s->loc;
    ptrmap_put(lw->arena, &lw->funcs, s, o->kind == TY_NETWORK ? NULL : net, inst_key(o->kind == TY_NETWORK ? -1 : gb, true), f);
    add_fn(lw, f);
}

static void for_each_plain(Lw *lw, Symbol *s)
{
    bool node = (s->kind == SYM_OBJPROC || s->kind == SYM_OBJFUNC) && s->owner->kind == TY_NODE;
    if ((s->kind == SYM_OBJPROC || s->kind == SYM_OBJFUNC) && s->owner->kind == TY_CONNECTION &&
        !lw_in_network(lw, s->owner))
        return; /* no connection of this type can exist */
    if (!node) {
        declare_plain(lw, s, NULL, -1);
        return;
    }
    for (int n = 0; n < lower_net_count(lw->plan); n++) {
        LowerNet *net = lower_net_at(lw->plan, n);
        for (int g = 0; g < net->groups.len; g++)
            if (type_node_of(VEC_AT(net->groups, g, Symbol)->type) == s->owner)
                declare_plain(lw, s, net, g);
    }
}

static void for_each_lane(Lw *lw, Symbol *s)
{
    const Type *o = s->owner;
    if (o->kind == TY_NETWORK) {
        declare_lane(lw, s, NULL, -1);
        return;
    }
    for (int n = 0; n < lower_net_count(lw->plan); n++) {
        LowerNet *net = lower_net_at(lw->plan, n);
        if (o->kind == TY_NODE) {
            for (int g = 0; g < net->groups.len; g++)
                if (type_node_of(VEC_AT(net->groups, g, Symbol)->type) == o)
                    declare_lane(lw, s, net, g);
        } else {
            for (int b = 0; b < net->nbundles; b++)
                if (net->bundles[b].conn == o)
                    declare_lane(lw, s, net, b);
        }
    }
}

static void declare_merge_callee(Lw *lw, Symbol *s)
{
    IrModule *m = lw->m;
    IrFunc *f = ir_func(m, arena_printf(lw->arena, "cpMI_%s_%s", s->owner->name, s->name),
                        IRFN_MERGE_CALLEE, result_type(lw, s));
    fixed(lw, f, "me", ir_t_ptr(m, lw_vt(lw, s->owner), me_const(s)));
    params_of(lw, f, s, false);
    f->subr = s;
    f->loc = s->loc;
    ptrmap_put(lw->arena, &lw->funcs, s, NULL, -7, f);
    add_fn(lw, f);
}

static void declare_lane_merge(Lw *lw, Symbol *s)
{
    IrModule *m = lw->m;
    const IrType *vp = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), false);
    const IrType *cvp = ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true);
    IrFunc *f = ir_func(m, arena_printf(lw->arena, "cpMergeL_%s", s->owner->name), IRFN_LANE_MERGE,
                        NULL);
    fixed(lw, f, "me_", vp);
    fixed(lw, f, "you_", cvp);
    fixed(lw, f, "sh_", cvp);
    fixed(lw, f, "n", ir_t(m, IRT_I32));
    f->subr = s;
    f->type = s->owner;
    f->lane = true;
    f->loc = s->loc;
    ptrmap_put(lw->arena, &lw->type_fns, s->owner, NULL, IRFN_LANE_MERGE, f);
    add_fn(lw, f);
    /* no fold for a MERGE that does more than compute: the fold would run
       it on every lane, the runtime then merges block 0's lanes one pair
       at a time (docs/replication.md) */
    if (lw_merge_varies(lw, s))
        return;
    IrFunc *g = ir_func(m, arena_printf(lw->arena, "cpFoldL_%s", s->owner->name), IRFN_LANE_FOLD,
                        NULL);
    fixed(lw, g, "me_", vp);
    fixed(lw, g, "sh_", cvp);
    g->subr = s;
    g->type = s->owner;
    g->loc = s->loc;
    ptrmap_put(lw->arena, &lw->type_fns, s->owner, NULL, IRFN_LANE_FOLD, g);
    add_fn(lw, g);
}

/* ---- bodies ---------------------------------------------------------------------------------- */

static SubrContext context_of(const Symbol *s)
{
    return s->sub->context;
}

/* The body of a subroutine on one replicate. */
static void plain_body(Lw *lw, IrFunc *f)
{
    const Symbol *s = f->subr;
    IrModule *m = lw->m;
    LwFn fn = {.subr = s, .ctx = context_of(s), .net = (LowerNet *)f->net, .group = f->group,
               .bundle = -1, .me_type = s->owner, .f = f};
    if (s->owner && s->owner->kind == TY_NETWORK)
        fn.net = lower_net_of(lw->plan, s->owner);
    fn.net_v = ir_param_named(f, "net");
    fn.rep_v = ir_param_named(f, "rep");
    fn.idx_v = ir_param_named(f, "idx");
    fn.b_v = ir_param_named(f, "b");
    fn.k_v = ir_param_named(f, "k");
    lw->fn = &fn;
    f->body = ir_block(m, s->loc);
    lw->blk = f->body;
    if (s->kind == SYM_MERGE) {
        const IrType *T = lw_vt(lw, s->owner);
        fn.me_v = lw_decl(lw, "me", ir_t_ptr(m, T, false), ir_ref(m, ir_param_named(f, "me_")), s->loc);
        fn.me_v->name = "me";
        fn.you_v = lw_decl(lw, "you", ir_t_ptr(m, T, true), ir_ref(m, ir_param_named(f, "you_")), s->loc);
        fn.you_v->name = "you";
    } else if (s->kind == SYM_REDUCTION || s->kind == SYM_WTA) {
        fn.me_v = ir_param_named(f, "me");
        fn.you_v = ir_param_named(f, "you");
    } else if (s->owner && s->owner->kind == TY_NETWORK) {
        IrLayout *l = lw_plain(lw, s->owner);
        fn.me_v = lw_decl(lw, "me", ir_t_ptr(m, ir_t_record(m, l), false),
                          ir_netrec(m, ir_ref(m, fn.net_v), ir_ref(m, fn.rep_v), l), s->loc);
        fn.me_v->name = "me";
    } else if (s->owner && s->owner->kind == TY_NODE) {
        IrLayout *l = lw_plain(lw, s->owner);
        fn.me_v = lw_decl(lw, "me", ir_t_ptr(m, ir_t_record(m, l), false),
                          ir_addr(m, ir_index(m, ir_nodes(m, ir_ref(m, fn.net_v), ir_ref(m, fn.rep_v),
                                                          f->group, l),
                                              ir_ref(m, fn.idx_v))),
                          s->loc);
        fn.me_v->name = "me";
    } else if (s->owner) {
        fn.me_v = ir_param_named(f, "me");
    }
    f->self = fn.me_v;
    lw_stack_check(lw, s);
    lw_block(lw, s->decl->u.subr.body);
    lw->fn = NULL;
}

/* ---- globals and start-up -------------------------------------------------------------------- */

static void globals(Lw *lw)
{
    IrModule *m = lw->m;
    for (int i = 0; i < lw->si->data.len; i++) {
        Symbol *s = VEC_AT(lw->si->data, i, Symbol);
        const char *name = arena_printf(lw->arena, "cpG_%s", s->name);
        IrVar *v;
        IrStatic *st;
        if (s->type->kind == TY_NETWORK) {
            v = ir_var(m, name, ir_t(m, IRT_NET), IRV_GLOBAL);
            ir_static(m, v, false);
        } else if (s->access == ACCESS_IO) {
            v = ir_var(m, name, ir_t(m, IRT_IO), IRV_GLOBAL);
            st = ir_static(m, v, false);
            st->init = ir_struct(m, ir_t(m, IRT_IO));
            ir_struct_add(m, st->init, "elem_size", ir_sizeof(m, lw_vt(lw, s->type)));
        } else {
            v = ir_var(m, name, lw_vt(lw, s->type), IRV_GLOBAL);
            ir_static(m, v, false);
        }
        v->sym = s;
        ptrmap_put(lw->arena, &lw->vars, s, NULL, 0, v);
    }
}

/* Whether RANDOM can be evaluated in parallel code: in a subroutine other
 * than the central agent's (whose code runs on one thread) or an element
 * initializer (run serially, runtime-abi.md).  Then --deterministic runs
 * the parallel loops serially, so that RANDOM draws in index order. */
static bool random_in_parallel(Lw *lw)
{
    for (int i = 0; i < lw->si->subrs.len; i++) {
        const Symbol *s = VEC_AT(lw->si->subrs, i, Symbol);
        if (s->sub->uses_random && !s->sub->is_central_agent)
            return true;
    }
    return false;
}

void lw_build_startup(Lw *lw);

/* ---- the driver -------------------------------------------------------------------------------- */

/* Functions no whole-program pass looks into: their bodies are built when
 * they are printed and freed after (print_c.h), so that the compiler's
 * memory does not grow with them.  Object subroutines of node and
 * connection types stay (dead-function elimination follows their calls),
 * and so do those of network types, from which it starts. */
static bool streamable(const IrFunc *f)
{
    switch (f->role) {
    case IRFN_GLOBAL: case IRFN_REDUCTION: case IRFN_WTA: case IRFN_MERGE:
    case IRFN_MERGE_CALLEE: case IRFN_INIT:
    case IRFN_LANE_GET: case IRFN_LANE_REC: case IRFN_LANE_PUT: case IRFN_GATHER:
    case IRFN_LANE_FOLD: /* these four follow from the final layouts */
        return true;
    case IRFN_OBJECT:
        return f->subr && f->subr->owner && f->subr->owner->kind == TY_RECORD;
    default:
        return false;
    }
}

bool lower_stream_body(Lw *lw, IrFunc *f)
{
    switch (f->role) {
    case IRFN_GLOBAL: case IRFN_REDUCTION: case IRFN_WTA: case IRFN_MERGE: case IRFN_OBJECT:
        plain_body(lw, f);
        break;
    case IRFN_MERGE_CALLEE:
        lw_merge_callee_body(lw, f);
        break;
    case IRFN_INIT:
        lw_init_fn_body(lw, f);
        break;
    case IRFN_LANE_GET: case IRFN_LANE_REC: case IRFN_LANE_PUT: case IRFN_GATHER:
        lw_layout_fn_body(lw, f);
        break;
    case IRFN_LANE_FOLD:
        lw_lane_fold_body(lw, f);
        break;
    default:
        break;
    }
    return !lw->failed;
}

IrModule *lower_to_ir(Program *prog, LowerPlan *plan, const IrOptions *opts, Lw **state)
{
    SemaInfo *si = prog->sema;
    Arena *arena = si->arena;
    Lw *lw = arena_alloc(arena, sizeof *lw);
    lw->prog = prog;
    lw->si = si;
    lw->arena = arena;
    lw->plan = plan;
    lw->opts = *opts;
    lw->m = ir_module_new(arena, si, opts);
    lw->m->plan = plan;
    *state = lw;
    if (!si->program) {
        diag_error(loc_at(prog->file, 0, 0), "no procedure 'program'");
        lw->failed = true;
        return lw->m;
    }
    lw->m->random_in_parallel = random_in_parallel(lw);
    compute_may_topo(lw);
    lw_find_recursion(lw);
    lw_merge_calls_collect(lw);
    lw_make_layouts(lw);
    globals(lw);
    lw_declare_type_fns(lw);
    lw_declare_tables(lw);

    /* declarations, in the order of the output */
    for (int i = 0; i < si->subrs.len; i++)
        for_each_plain(lw, VEC_AT(si->subrs, i, Symbol));
    for (int i = 0; i < lw->merge_callees.len; i++)
        declare_merge_callee(lw, VEC_AT(lw->merge_callees, i, Symbol));
    if (opts->lanes)
        for (int i = 0; i < si->subrs.len; i++) {
            Symbol *s = VEC_AT(si->subrs, i, Symbol);
            if (lw_has_lane_version(s))
                for_each_lane(lw, s);
            else if (s->kind == SYM_MERGE && lw_has_lanes(s->owner) && s->decl &&
                     lw_in_network(lw, s->owner))
                declare_lane_merge(lw, s);
        }

    /* bodies: those whole-program passes need now, the others (streamed)
       when they are printed */
    int n = lw->m->funcs.len;
    for (int i = 0; i < n && !lw->failed; i++) {
        IrFunc *f = VEC_AT(lw->m->funcs, i, IrFunc);
        f->streamed = streamable(f);
        if (f->streamed)
            continue;
        switch (f->role) {
        case IRFN_OBJECT:
            plain_body(lw, f);
            break;
        case IRFN_LANE:
            lw_lane_body(lw, f);
            break;
        case IRFN_LANE_MERGE:
            lw_lane_merge_body(lw, f);
            break;
        default:
            break;
        }
    }
    if (!lw->failed)
        lw_build_startup(lw);
    return lw->m;
}

/* After the passes: the functions and tables that follow the layouts. */
bool lower_failed(const Lw *lw)
{
    return lw->failed;
}

bool lower_finish_ir(Lw *lw)
{
    if (lw->failed)
        return false;
    lw_build_tables(lw);
    return !lw->failed;
}
