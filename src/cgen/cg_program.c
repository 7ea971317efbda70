/* cg_program.c -- drives code generation and emits the subroutines.
 *
 * The generated file has fixed sections: prelude (checked-arithmetic
 * helpers), types, global objects, prototypes, element initializers,
 * network shapes, subroutines, start-up.  Object subroutines of node types
 * are emitted once per (network type, group) in which the node type
 * occurs, so that the connection bundles at each interface are constants. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cg_internal.h"

static const char prelude[] =
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "#include <stdbool.h>\n"
    "#include \"cupit_rt.h\"\n"
    "#ifdef _OPENMP\n"
    "#include <omp.h>\n"
    "#define CP_PRAGMA(x) _Pragma(#x)\n"
    "#else\n"
    "#define CP_PRAGMA(x)\n"
    "#endif\n"
    "\n"
    "/* ===== prelude: checked arithmetic, parallel policy ===== */\n"
    "#define CP_UNUSED __attribute__((unused))\n"
    "/* Results are computed in 64 bits; narrowing to the CuPit type wraps\n"
    "   (two's complement) unless overflow checks are on. */\n"
    "static CP_UNUSED inline cp_int cp_chk_i32(rt_srcpos w, int64_t v) {\n"
    "    if (CP_CHECK_OVERFLOW && (v < INT32_MIN || v > INT32_MAX)) rt_error(w, \"integer overflow (Int)\");\n"
    "    return (cp_int)v;\n"
    "}\n"
    "static CP_UNUSED inline cp_int2 cp_chk_i16(rt_srcpos w, int64_t v) {\n"
    "    if (CP_CHECK_OVERFLOW && (v < INT16_MIN || v > INT16_MAX)) rt_error(w, \"integer overflow (Int2)\");\n"
    "    return (cp_int2)v;\n"
    "}\n"
    "static CP_UNUSED inline cp_int1 cp_chk_i8(rt_srcpos w, int64_t v) {\n"
    "    if (CP_CHECK_OVERFLOW && (v < INT8_MIN || v > INT8_MAX)) rt_error(w, \"integer overflow (Int1)\");\n"
    "    return (cp_int1)v;\n"
    "}\n"
    "static CP_UNUSED inline int32_t cp_idx(rt_srcpos w, int64_t i, int64_t n, const char *what) {\n"
    "    if (CP_CHECK_INDEX && (i < 0 || i >= n)) rt_index_error(w, what, i, n);\n"
    "    return (int32_t)i;\n"
    "}\n"
    "/* node grids, m rows of n nodes stored row after row: a node, a row, a\n"
    "   slice of a row, the nodes of a slice of rows (empty: {1, 0}) */\n"
    "static CP_UNUSED inline int32_t cp_grid_index(rt_srcpos w, int64_t r, int64_t m, int64_t c, int64_t n, const char *row, const char *col) {\n"
    "    return (int32_t)((int64_t)cp_idx(w, r, m, row) * n + cp_idx(w, c, n, col));\n"
    "}\n"
    "static CP_UNUSED inline cp_interval cp_grid_row(rt_srcpos w, int64_t r, int64_t m, int64_t n, const char *what) {\n"
    "    const int64_t b = (int64_t)cp_idx(w, r, m, what) * n;\n"
    "    return (cp_interval){(cp_int)b, (cp_int)(b + n - 1)};\n"
    "}\n"
    "static CP_UNUSED inline cp_interval cp_grid_slice(rt_srcpos w, int64_t r, int64_t m, cp_interval c, int64_t n, const char *what) {\n"
    "    const int64_t b = (int64_t)cp_idx(w, r, m, what) * n;\n"
    "    const int64_t lo = c.min < 0 ? 0 : c.min, hi = c.max > n - 1 ? n - 1 : c.max;\n"
    "    return lo > hi ? (cp_interval){1, 0} : (cp_interval){(cp_int)(b + lo), (cp_int)(b + hi)};\n"
    "}\n"
    "static CP_UNUSED inline cp_interval cp_grid_rows(cp_interval r, int64_t m, int64_t n) {\n"
    "    const int64_t lo = r.min < 0 ? 0 : r.min, hi = r.max > m - 1 ? m - 1 : r.max;\n"
    "    return lo > hi ? (cp_interval){1, 0} : (cp_interval){(cp_int)(lo * n), (cp_int)(hi * n + n - 1)};\n"
    "}\n"
    "static CP_UNUSED inline int64_t cp_div(rt_srcpos w, int64_t a, int64_t b) {\n"
    "    if (b == 0) rt_div_by_zero(w);\n"
    "    return a / b;\n"
    "}\n"
    "static CP_UNUSED inline int64_t cp_mod(rt_srcpos w, int64_t a, int64_t b) {\n"
    "    if (b == 0) rt_div_by_zero(w);\n"
    "    return a % b;\n"
    "}\n"
    "static CP_UNUSED inline int64_t cp_shl(rt_srcpos w, int64_t a, int64_t b) {\n"
    "    if (b < 0 || b > 62) rt_error(w, \"shift count %lld out of range\", (long long)b);\n"
    "    return (int64_t)((uint64_t)a << b);\n"
    "}\n"
    "static CP_UNUSED inline int64_t cp_shr(rt_srcpos w, int64_t a, int64_t b) {\n"
    "    if (b < 0) rt_error(w, \"shift count %lld out of range\", (long long)b);\n"
    "    return b > 62 ? (a < 0 ? -1 : 0) : a >> b;\n"
    "}\n"
    "static CP_UNUSED inline int64_t cp_real_to_int(rt_srcpos w, cp_real x) {\n"
    "    if (!(x > -9.2e18 && x < 9.2e18)) rt_error(w, \"conversion overflow\");\n"
    "    return (int64_t)x;\n"
    "}\n"
    "static CP_UNUSED inline cp_real cp_fmod_real(cp_real a, cp_real b) {\n"
    "    return a - b * (cp_real)__builtin_trunc((double)a / (double)b);\n"
    "}\n"
    "static CP_UNUSED inline bool cp_in_iv(int64_t x, cp_interval i) { return x >= i.min && x <= i.max; }\n"
    "static CP_UNUSED inline bool cp_in_iv1(int64_t x, cp_interval1 i) { return x >= i.min && x <= i.max; }\n"
    "static CP_UNUSED inline bool cp_in_iv2(int64_t x, cp_interval2 i) { return x >= i.min && x <= i.max; }\n"
    "static CP_UNUSED inline bool cp_in_rv(cp_real x, cp_realerval i) { return x >= i.min && x <= i.max; }\n"
    "static CP_UNUSED inline cp_int cp_random_iv(rt_srcpos w, cp_interval i) { return rt_random_int(w, i.min, i.max); }\n"
    "static CP_UNUSED inline cp_int1 cp_random_iv1(rt_srcpos w, cp_interval1 i) { return (cp_int1)rt_random_int(w, i.min, i.max); }\n"
    "static CP_UNUSED inline cp_int2 cp_random_iv2(rt_srcpos w, cp_interval2 i) { return (cp_int2)rt_random_int(w, i.min, i.max); }\n"
    "static CP_UNUSED inline cp_real cp_random_rv(rt_srcpos w, cp_realerval i) { return rt_random_real(w, i.min, i.max); }\n"
    "#ifdef _OPENMP\n"
    "#define CP_SIMD _Pragma(\"omp simd\")\n"
    "#else\n"
    "#define CP_SIMD\n"
    "#endif\n"
    "/* Constant permutations of vectors (the lane fold of MERGE). */\n"
    "#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)\n"
    "#define CP_SHUFFLE 1\n"
    "#endif\n"
    "/* Lane arrays as vector values (sums kept in registers). */\n"
    "typedef cp_real cp_vreal __attribute__((vector_size(RT_LANES * sizeof(cp_real))));\n"
    "typedef cp_int cp_vint __attribute__((vector_size(RT_LANES * sizeof(cp_int))));\n"
    "/* Whether any lane of a lane mask is active. */\n"
    "static CP_UNUSED inline bool cp_any(const int32_t *m) {\n"
    "    int32_t a = 0;\n"
    "    for (int l = 0; l < RT_LANES; l++) a |= m[l];\n"
    "    return a != 0;\n"
    "}\n"
    "/* The first active lane of a lane mask, -1 if none. */\n"
    "static CP_UNUSED inline int cp_first_lane(const int32_t *m) {\n"
    "    for (int l = 0; l < RT_LANES; l++) if (m[l]) return l;\n"
    "    return -1;\n"
    "}\n"
    "/* Connections at node i of a bundle that are not marked for deletion. */\n"
    "static CP_UNUSED inline int64_t cp_live_count(const rt_bundle *b, const int32_t *start, int32_t i, bool by_src) {\n"
    "    int64_t n = start[i + 1] - start[i];\n"
    "    if (b->any_dead)\n"
    "        for (int32_t j = start[i]; j < start[i + 1]; j++)\n"
    "            n -= b->dead[by_src ? b->by_src[j] : j];\n"
    "    return n;\n"
    "}\n"
    "/* Work of one call on every node and connection of a replicate. */\n"
    "static CP_UNUSED inline int64_t cp_net_work(const rt_net *n) {\n"
    "    int64_t w = 1;\n"
    "    for (int32_t g = 0; g < n->desc->ngroups; g++) w += n->count[g];\n"
    "    for (int32_t b = 0; b < n->desc->nbundles; b++) w += n->bundles[b].nconn;\n"
    "    return w;\n"
    "}\n"
    "/* Run a loop in parallel only when it has enough work and is not already\n"
    "   inside a parallel loop: more threads never make a program slower. */\n"
    "static CP_UNUSED inline bool cp_par(const rt_net *n, int64_t work) {\n"
    "    (void)n;\n"
    "#ifdef _OPENMP\n"
    "    if (CP_RANDOM_IN_PARALLEL && rt_deterministic()) return false; /* RANDOM in index order */\n"
    "    return work >= CP_PAR_MIN_WORK && rt_threads() > 1 && !omp_in_parallel();\n"
    "#else\n"
    "    (void)work;\n"
    "    return false;\n"
    "#endif\n"
    "}\n"
    "/* Lane blocks of a call in parallel only when every thread gets\n"
    "   CP_PAR_LANE_WORK replicate-elements of work: a parallel region costs\n"
    "   microseconds (the runtime picks replicate counts to match). */\n"
    "static CP_UNUSED inline bool cp_par_lanes(const rt_net *n, int64_t work) {\n"
    "    (void)n;\n"
    "#ifdef _OPENMP\n"
    "    if (CP_RANDOM_IN_PARALLEL && rt_deterministic()) return false;\n"
    "    const int t = rt_threads();\n"
    "    return t > 1 && work >= (int64_t)CP_PAR_LANE_WORK * t && !omp_in_parallel();\n"
    "#else\n"
    "    (void)work;\n"
    "    return false;\n"
    "#endif\n"
    "}\n"
    "\n";

/* Whether RANDOM can be evaluated in parallel code: in a subroutine other
 * than the central agent's (whose code runs on one thread) or an element
 * initializer (run serially, runtime-abi.md).  Then --deterministic runs
 * the parallel loops serially, so that RANDOM draws in index order. */
static bool random_in_parallel(Cg *cg)
{
    for (int i = 0; i < cg->si->subrs.len; i++) {
        const Symbol *s = VEC_AT(cg->si->subrs, i, Symbol);
        if (s->sub->uses_random && !s->sub->is_central_agent)
            return true;
    }
    return false;
}

/* printf into the compilation's arena: the generator's string builder. */
void cg_str_add(Cg *cg, CgStr *s, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (s->len + (size_t)n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 64;
        while (cap < s->len + (size_t)n + 1)
            cap *= 2;
        char *buf = arena_alloc(cg->arena, cap); /* the old buffer stays: at most 2x */
        if (s->len)
            memcpy(buf, s->buf, s->len);
        s->buf = buf;
        s->cap = cap;
    }
    vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    s->len += (size_t)n;
}

const char *cg_str_get(const CgStr *s)
{
    return s->buf ? s->buf : "";
}

const char *cg_fmt(Cg *cg, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = arena_vprintf(cg->arena, f, ap);
    va_end(ap);
    return s;
}

const char *cg_fresh(Cg *cg, const char *stem)
{
    return cg_fmt(cg, "%s%d_", stem, ++cg->tmp);
}

const char *cg_pos(Cg *cg, Loc loc)
{
    return cg_fmt(cg, "CP_POS(%d)", loc.line);
}

void cg_line(Cg *cg, Loc loc)
{
    if (cg->opts.line_directives && loc.line > 0) {
        cg->out->line = loc.line;
        cg->out->line_file = cg->line_file;
    }
}

void cg_no_line(Cg *cg)
{
    cg->out->line = 0;
}

void cg_unsupported(Cg *cg, Loc loc, const char *what)
{
    /* a limit of cupitc, not a mistake of the program */
    diag_error(loc, "internal error: cupitc cannot generate code for %s here (a limitation "
               "of cupitc, not an error in the program; please report it)", what);
    cg->failed = true;
}

/* ---- which subroutines may change the topology ------------------------- */

static bool contains_sym(PtrVec *v, Symbol *s)
{
    for (int i = 0; i < v->len; i++)
        if (v->items[i] == s)
            return true;
    return false;
}

bool cg_may_topo(Cg *cg, Symbol *subr)
{
    return contains_sym(&cg->may_topo, subr);
}

typedef struct TopoScan {
    Cg *cg;
    bool direct;      /* REPLICATE ME at node/connection level */
    bool conn_delete; /* REPLICATE ME at connection level */
    PtrVec callees;   /* object subroutines called */
} TopoScan;

static void scan_block(TopoScan *ts, Block *b);

static void scan_call(TopoScan *ts, Expr *call)
{
    if (call && call->sym && !contains_sym(&ts->callees, call->sym))
        vec_push(ts->cg->arena, &ts->callees, call->sym);
}

static void scan_stmt(TopoScan *ts, Stmt *s)
{
    switch (s->kind) {
    case STMT_REPLICATE: {
        int lvl = s->sem_flags & SEMF_LEVEL_MASK;
        if (lvl == SEMF_LEVEL_NODE || lvl == SEMF_LEVEL_CONN)
            ts->direct = true;
        if (lvl == SEMF_LEVEL_CONN)
            ts->conn_delete = true;
        break;
    }
    case STMT_OBJCALL:
        scan_call(ts, s->u.call.call);
        break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            scan_call(ts, VEC_AT(s->u.multi.calls, i, Expr));
        break;
    case STMT_WTA:
        if (s->proc && !contains_sym(&ts->callees, s->proc))
            vec_push(ts->cg->arena, &ts->callees, s->proc);
        break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++)
            scan_block(ts, VEC_AT(s->u.if_.arms, i, IfArm)->body);
        if (s->u.if_.else_body)
            scan_block(ts, s->u.if_.else_body);
        break;
    case STMT_LOOP:
        scan_block(ts, s->u.loop.body);
        break;
    case STMT_FOR:
        scan_block(ts, s->u.for_.body);
        break;
    default:
        break;
    }
}

static void scan_block(TopoScan *ts, Block *b)
{
    if (b)
        for (int i = 0; i < b->stmts.len; i++)
            scan_stmt(ts, VEC_AT(b->stmts, i, Stmt));
}

static void compute_may_topo(Cg *cg)
{
    PtrVec *subrs = &cg->si->subrs;
    TopoScan *scans = arena_alloc(cg->arena, (size_t)(subrs->len + 1) * sizeof *scans);
    for (int i = 0; i < subrs->len; i++) {
        Symbol *s = VEC_AT(*subrs, i, Symbol);
        scans[i].cg = cg;
        if (s->decl && !s->sub->external)
            scan_block(&scans[i], s->decl->u.subr.body);
        if (scans[i].conn_delete)
            cg->conn_deletion = true;
        if (scans[i].direct)
            vec_push(cg->arena, &cg->may_topo, s);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < subrs->len; i++) {
            Symbol *s = VEC_AT(*subrs, i, Symbol);
            if (cg_may_topo(cg, s))
                continue;
            for (int j = 0; j < scans[i].callees.len; j++)
                if (cg_may_topo(cg, VEC_AT(scans[i].callees, j, Symbol))) {
                    vec_push(cg->arena, &cg->may_topo, s);
                    changed = true;
                    break;
                }
        }
    }
}

/* ---- signatures ---------------------------------------------------------- */

static const char *param_decl(Cg *cg, Symbol *p)
{
    const char *name = cg_local(cg, p);
    if (p->type->kind == TY_NODE || p->type->kind == TY_CONNECTION ||
        type_is_node_array(p->type))
        return cg_fmt(cg, "%svoid *%s", p->access == ACCESS_CONST ? "const " : "", name);
    /* EXTERNAL: records and arrays by address (docs/runtime-abi.md §6) */
    if (p->subr && p->subr->sub->external && p->access == ACCESS_CONST &&
        (p->type->kind == TY_RECORD || p->type->kind == TY_ARRAY))
        return cg_fmt(cg, "const %s *%s", cg_ctype(cg, p->type), name);
    if (p->access == ACCESS_IO)
        return cg_fmt(cg, "cp_io *%s", name);
    if (p->access == ACCESS_VAR)
        return cg_fmt(cg, "%s *%s", cg_ctype(cg, p->type), name);
    return cg_fmt(cg, "%s %s", cg_ctype(cg, p->type), name);
}

const char *cg_params(Cg *cg, Symbol *s, const char *prefix)
{
    CgStr l = {0};
    cg_str_add(cg, &l, "%s", prefix);
    for (int i = 0; i < s->sub->params.len; i++)
        cg_str_add(cg, &l, "%s%s", l.len ? ", " : "", param_decl(cg, VEC_AT(s->sub->params, i, Symbol)));
    return l.len ? cg_str_get(&l) : "void";
}

const char *cg_result(Cg *cg, Symbol *s)
{
    return s->sub->result ? cg_ctype(cg, s->sub->result) : "void";
}

/* The C signature of a subroutine (node instances: net/group given). */
static const char *signature(Cg *cg, Symbol *s, CgNet *net, int group)
{
    const char *r = cg_result(cg, s);
    switch (s->kind) {
    case SYM_PROC:
    case SYM_FUNC:
        return cg_fmt(cg, "%s%s %s(%s)", s->sub->external ? "" : "static CP_UNUSED ", r,
                   cg_subr_name(cg, s), cg_params(cg, s, ""));
    case SYM_REDUCTION:
        return cg_fmt(cg, "static CP_UNUSED inline %s %s(%s me, %s you)", r, cg_subr_name(cg, s),
                   cg_ctype(cg, s->type), cg_ctype(cg, s->type));
    case SYM_WTA:
        return cg_fmt(cg, "static CP_UNUSED inline bool %s(%s me, %s you)", cg_subr_name(cg, s),
                   cg_ctype(cg, s->type), cg_ctype(cg, s->type));
    case SYM_MERGE:
        return cg_fmt(cg, "static CP_UNUSED void %s(void *me_, const void *you_)", cg_subr_name(cg, s));
    default:
        break;
    }
    const char *T = cg_ctype(cg, s->owner);
    switch (s->owner->kind) {
    case TY_RECORD:
        return cg_fmt(cg, "static CP_UNUSED %s %s(%s)", r, cg_subr_name(cg, s),
                   cg_params(cg, s, cg_fmt(cg, "%s%s *me", s->kind == SYM_OBJFUNC ? "const " : "", T)));
    case TY_NETWORK:
        return cg_fmt(cg, "static CP_UNUSED %s %s(%s)", r, cg_subr_name(cg, s),
                   cg_params(cg, s, "rt_net *net, int32_t rep"));
    case TY_NODE:
        return cg_fmt(cg, "static CP_UNUSED %s %s(%s)", r, cg_node_fn_name(cg, net, group, s),
                   cg_params(cg, s, "rt_net *net, int32_t rep, int32_t idx"));
    case TY_CONNECTION:
        return cg_fmt(cg, "static CP_UNUSED %s %s(%s)", r, cg_subr_name(cg, s),
                   cg_params(cg, s, cg_fmt(cg, "rt_net *net, int32_t b, int32_t k, %s%s *me",
                                     s->kind == SYM_OBJFUNC ? "const " : "", T)));
    default:
        cp_unreachable();
    }
}

/* Calls fn(cg, s, net, group) for every C function subroutine s becomes. */
typedef void (*InstanceFn)(Cg *cg, Symbol *s, CgNet *net, int group);

static void for_each_instance(Cg *cg, Symbol *s, InstanceFn fn)
{
    bool node = (s->kind == SYM_OBJPROC || s->kind == SYM_OBJFUNC) && s->owner->kind == TY_NODE;
    if (!node) {
        fn(cg, s, NULL, -1);
        return;
    }
    for (int n = 0; n < lower_net_count(cg->plan); n++) {
        CgNet *net = lower_net_at(cg->plan, n);
        for (int g = 0; g < net->groups.len; g++)
            if (type_node_of(VEC_AT(net->groups, g, Symbol)->type) == s->owner)
                fn(cg, s, net, g);
    }
}

/* Calls fn for every lane instance of s: node subroutines per (network
 * type, group), connection subroutines per (network type, bundle). */
static void for_each_lane_instance(Cg *cg, Symbol *s, InstanceFn fn)
{
    if (s->owner->kind != TY_CONNECTION) {
        for_each_instance(cg, s, fn);
        return;
    }
    for (int n = 0; n < lower_net_count(cg->plan); n++) {
        CgNet *net = lower_net_at(cg->plan, n);
        for (int b = 0; b < net->nbundles; b++)
            if (net->bundles[b].conn == s->owner)
                fn(cg, s, net, b);
    }
}

static void emit_prototype(Cg *cg, Symbol *s, CgNet *net, int group)
{
    emit(cg->out, "%s%s;", s->sub->external ? "extern " : "", signature(cg, s, net, group));
}

static SubrContext context_of(Symbol *s)
{
    return s->sub->context;
}

static void emit_body(Cg *cg, Symbol *s, CgNet *net, int group)
{
    if (s->sub->external)
        return;
    Emitter *o = cg->out;
    CgFn fn = {.subr = s, .ctx = context_of(s), .net = net, .group = group, .bundle = -1,
               .me_type = s->owner};
    if (s->owner && s->owner->kind == TY_NETWORK)
        fn.net = cg_net_of(cg, s->owner);
    cg->fn = &fn;
    cg_line(cg, s->loc);
    emit_open(o, "%s", signature(cg, s, net, group));
    if (s->kind == SYM_MERGE) {
        emit(o, "%s *me = me_;", cg_ctype(cg, s->owner));
        emit(o, "const %s *you = you_;", cg_ctype(cg, s->owner));
        emit(o, "(void)me; (void)you;");
    } else if (s->owner && s->owner->kind == TY_NETWORK) {
        emit(o, "%s *me = net->reps[rep].net_data;", cg_ctype(cg, s->owner));
        emit(o, "(void)me;");
    } else if (s->owner && s->owner->kind == TY_NODE) {
        emit(o, "%s *me = &((%s *)net->reps[rep].nodes[%d])[idx];", cg_ctype(cg, s->owner),
             cg_ctype(cg, s->owner), group);
        emit(o, "(void)me;");
    } else if (s->owner && s->owner->kind == TY_CONNECTION) {
        emit(o, "(void)net; (void)b; (void)k; (void)me;");
    }
    cg_block(cg, s->decl->u.subr.body);
    emit_close(o, "%s", "");
    cg_no_line(cg);
    emit(o, "%s", "");
    cg->fn = NULL;
}

/* ---- globals and start-up ----------------------------------------------- */

static void emit_globals(Cg *cg)
{
    Emitter *o = cg->out;
    emit_directive(o, "/* ===== global objects ===== */");
    emit(o, "static CP_UNUSED const char cp_source_file[] = %s;",
         cg_string_literal(cg, cg->opts.source_name, (int)strlen(cg->opts.source_name)));
    for (int i = 0; i < cg->si->data.len; i++) {
        Symbol *s = VEC_AT(cg->si->data, i, Symbol);
        if (s->type->kind == TY_NETWORK)
            emit(o, "static rt_net %s;", cg_global(cg, s));
        else if (s->access == ACCESS_IO)
            emit(o, "static cp_io %s = {.elem_size = sizeof(%s)};", cg_global(cg, s),
                 cg_ctype(cg, s->type));
        else
            emit(o, "static %s %s;", cg_ctype(cg, s->type), cg_global(cg, s));
    }
    emit(o, "%s", "");
}

/* A compile-time value of a --param call's argument for --help. */
static const char *doc_value(Cg *cg, const Expr *a)
{
    if (!a || !a->is_const)
        return "(computed)";
    if (a->type && a->type->kind == TY_REAL)
        return cg_fmt(cg, "%g", a->const_real);
    return cg_fmt(cg, "%lld", (long long)a->const_int);
}

/* The table of the parameters the program reads (intParam ("hidden", 6)
 * and the like), once per name, for the generated program's --help;
 * returns how many. */
static int emit_param_docs(Cg *cg)
{
    const PtrVec *calls = &cg->si->param_calls;
    int n = 0;
    for (int i = 0; i < calls->len; i++) {
        const Expr *e = VEC_AT(*calls, i, Expr);
        const PtrVec *args = &e->u.call.args;
        const Expr *name = args->len > 0 ? VEC_AT(*args, 0, Expr) : NULL;
        if (!name || name->kind != EXPR_STRING)
            continue;
        bool dup = false;
        for (int j = 0; j < i && !dup; j++) {
            const Expr *o = VEC_AT(*calls, j, Expr);
            const Expr *on = o->u.call.args.len ? VEC_AT(o->u.call.args, 0, Expr) : NULL;
            dup = on && on->kind == EXPR_STRING && on->u.str_lit.len == name->u.str_lit.len &&
                  memcmp(on->u.str_lit.bytes, name->u.str_lit.bytes,
                         (size_t)name->u.str_lit.len) == 0;
        }
        if (dup)
            continue;
        if (n++ == 0)
            emit_open(cg->out, "static const rt_param_doc cp_param_docs[] =");
        const char *range = args->len >= 4 ? cg_fmt(cg, "%s ... %s",
                                                    doc_value(cg, VEC_AT(*args, 2, Expr)),
                                                    doc_value(cg, VEC_AT(*args, 3, Expr)))
                                           : "";
        emit(cg->out, "{%s, \"%s\", \"%s\", \"%s\"},", cg_string_literal(cg, name->u.str_lit.bytes,
                                                                  name->u.str_lit.len),
             e->type && e->type->kind == TY_REAL ? "Real" : "Int",
             doc_value(cg, args->len > 1 ? VEC_AT(*args, 1, Expr) : NULL), range);
    }
    if (n)
        emit_close(cg->out, ";");
    return n;
}

/* The runtime kind of a global variable --set may change, or NULL. */
static const char *settable_kind(const Symbol *s)
{
    if (s->access != ACCESS_VAR)
        return NULL;
    switch (s->type->kind) {
    case TY_INT: return "RT_GLOBAL_INT";
    case TY_INT2: return "RT_GLOBAL_INT2";
    case TY_INT1: return "RT_GLOBAL_INT1";
    case TY_REAL: return "RT_GLOBAL_REAL";
    case TY_BOOL: return "RT_GLOBAL_BOOL";
    default: return NULL;
    }
}

/* The table of the global variables --set may change; returns how many. */
static int emit_settable_globals(Cg *cg)
{
    int n = 0;
    for (int i = 0; i < cg->si->data.len; i++) {
        Symbol *s = VEC_AT(cg->si->data, i, Symbol);
        const char *k = settable_kind(s);
        if (!k)
            continue;
        if (n++ == 0)
            emit_open(cg->out, "static const rt_global_var cp_settable[] =");
        emit(cg->out, "{\"%s\", %s, &%s},", s->name, k, cg_global(cg, s));
    }
    if (n)
        emit_close(cg->out, ";");
    return n;
}

/* The runtime's start and the global objects, in main or cupit_init. */
static void emit_program_start(Cg *cg, int ndocs, int nnets, const char *name)
{
    if (ndocs)
        emit(cg->out, "rt_set_param_docs(cp_param_docs, %d);", ndocs);
    emit(cg->out, "rt_init(argc, argv, %s);", name);
    emit(cg->out, "cp_init_globals();");
    int nset = 0;
    for (int i = 0; i < cg->si->data.len; i++)
        nset += settable_kind(VEC_AT(cg->si->data, i, Symbol)) != NULL;
    emit(cg->out, "rt_set_globals(%s, %d);", nset ? "cp_settable" : "NULL", nset);
    if (nnets)
        emit(cg->out, "rt_register_networks(cp_networks, cp_network_names, %d);", nnets);
}

/* --library: cupit_embed.h's functions instead of main -- entry points
 * are the global procedures without parameters, data goes through the
 * global I/O areas. */
static void emit_library_api(Cg *cg, int ndocs, int nnets)
{
    Emitter *o = cg->out;
    emit(o, "#include \"cupit_embed.h\"");
    emit_open(o, "static const struct { const char *name; void (*fn)(void); } cp_entries[] =");
    int n = 0;
    for (int i = 0; i < cg->si->subrs.len; i++) {
        Symbol *s = VEC_AT(cg->si->subrs, i, Symbol);
        if (s->kind == SYM_PROC && !s->sub->external && s->sub->params.len == 0) {
            emit(o, "{\"%s\", %s},", s->name, cg_subr_name(cg, s));
            n++;
        }
    }
    emit_close(o, ";");
    int nio = 0;
    for (int i = 0; i < cg->si->data.len; i++)
        nio += VEC_AT(cg->si->data, i, Symbol)->access == ACCESS_IO;
    if (nio) {
        emit_open(o, "static const struct { const char *name; cp_io *area; } cp_areas[] =");
        for (int i = 0; i < cg->si->data.len; i++) {
            Symbol *s = VEC_AT(cg->si->data, i, Symbol);
            if (s->access == ACCESS_IO)
                emit(o, "{\"%s\", &%s},", s->name, cg_global(cg, s));
        }
        emit_close(o, ";");
    }
    emit_open(o, "int cupit_init(int argc, char **argv)");
    emit_program_start(cg, ndocs, nnets, "argc > 0 ? argv[0] : \"cupit\"");
    emit(o, "return 0;");
    emit_close(o, "%s", "");
    emit_open(o, "int cupit_call(const char *name)");
    emit(o, "for (int i = 0; i < %d; i++)", n);
    emit(o, "    if (__builtin_strcmp(cp_entries[i].name, name) == 0) { cp_entries[i].fn(); return 0; }");
    emit(o, "return -1;");
    emit_close(o, "%s", "");
    emit_open(o, "cp_io *cupit_io(const char *name)");
    if (nio) {
        emit(o, "for (int i = 0; i < %d; i++)", nio);
        emit(o, "    if (__builtin_strcmp(cp_areas[i].name, name) == 0) return cp_areas[i].area;");
    } else {
        emit(o, "(void)name;");
    }
    emit(o, "return 0;");
    emit_close(o, "%s", "");
    emit_open(o, "int cupit_finish(void)");
    emit(o, "cp_fini_globals();");
    emit(o, "return rt_finish();");
    emit_close(o, "%s", "");
}

static void emit_startup(Cg *cg)
{
    Emitter *o = cg->out;
    emit_directive(o, "/* ===== start-up ===== */");
    emit_open(o, "static void cp_init_globals(void)");
    for (int i = 0; i < cg->si->data.len; i++) {
        Symbol *s = VEC_AT(cg->si->data, i, Symbol);
        if (s->access == ACCESS_IO)
            continue;
        cg_line(cg, s->loc);
        if (s->type->kind == TY_NETWORK) {
            CgNet *n = cg_net_of(cg, s->type);
            emit(o, "rt_net_create(&%s, &%s, %s);", cg_global(cg, s), cg_desc_name(cg, n),
                 cg_pos(cg, s->loc));
            continue;
        }
        cg_emit_default_init(cg, s->type, cg_global(cg, s));
        if (s->init && s->init->init)
            emit(o, "%s = %s;", cg_global(cg, s), cg_expr_as(cg, s->init->init, s->type));
    }
    cg_no_line(cg);
    emit_close(o, "%s", "");
    emit(o, "%s", "");
    emit_open(o, "static void cp_fini_globals(void)");
    for (int i = 0; i < cg->si->data.len; i++) {
        Symbol *s = VEC_AT(cg->si->data, i, Symbol);
        if (s->type->kind == TY_NETWORK)
            emit(o, "rt_net_destroy(&%s);", cg_global(cg, s));
    }
    emit_close(o, "%s", "");
    emit(o, "%s", "");
    int nnets = 0;
    for (int i = 0; i < cg->si->data.len; i++)
        nnets += VEC_AT(cg->si->data, i, Symbol)->type->kind == TY_NETWORK;
    if (nnets) { /* saveNetworks and loadNetworks find them here */
        emit_open(o, "static rt_net *const cp_networks[] =");
        for (int i = 0; i < cg->si->data.len; i++) {
            Symbol *s = VEC_AT(cg->si->data, i, Symbol);
            if (s->type->kind == TY_NETWORK)
                emit(o, "&%s,", cg_global(cg, s));
        }
        emit_close(o, ";");
        emit_open(o, "static const char *const cp_network_names[] =");
        for (int i = 0; i < cg->si->data.len; i++) {
            Symbol *s = VEC_AT(cg->si->data, i, Symbol);
            if (s->type->kind == TY_NETWORK)
                emit(o, "\"%s\",", s->name);
        }
        emit_close(o, ";");
    }
    int ndocs = emit_param_docs(cg);
    emit_settable_globals(cg);
    if (cg->opts.library) {
        emit_library_api(cg, ndocs, nnets);
        return;
    }
    emit_open(o, "int main(int argc, char **argv)");
    emit_program_start(cg, ndocs, nnets, "argv[0]");
    emit(o, "%s();", cg_subr_name(cg, cg->si->program));
    emit(o, "cp_fini_globals();");
    emit(o, "return rt_finish();");
    emit_close(o, "%s", "");
}

bool cg_generate(Program *prog, LowerPlan *plan, const CgOptions *opts, Emitter *out)
{
    Cg cg = {.prog = prog, .si = prog->sema, .arena = prog->sema->arena, .opts = *opts,
             .plan = plan, .out = out};
    if (!cg.si->program) {
        Loc whole_file = loc_at(prog->file, 0, 0);
        diag_error(whole_file, "no procedure 'program'");
        return false;
    }
    const char *q = cg_string_literal(&cg, opts->source_name, (int)strlen(opts->source_name));
    cg.line_file = arena_strndup(cg.arena, q + 1, strlen(q) - 2);
    compute_may_topo(&cg);
    cg_merge_calls_collect(&cg);

    emit_directive(out, "/* Generated by cupitc from %s. */", opts->source_name);
    emit_directive(out, "#define CP_CHECK_INDEX %d", opts->check_index ? 1 : 0);
    emit_directive(out, "#define CP_CHECK_OVERFLOW %d", opts->check_overflow ? 1 : 0);
    emit_directive(out, "#ifndef CP_PAR_MIN_WORK");
    emit_directive(out, "#define CP_PAR_MIN_WORK 20000");
    emit_directive(out, "#endif");
    emit_directive(out, "#ifndef CP_PAR_LANE_WORK");
    emit_directive(out, "#define CP_PAR_LANE_WORK 80000");
    emit_directive(out, "#endif");
    emit_directive(out, "#define CP_RANDOM_IN_PARALLEL %d", random_in_parallel(&cg) ? 1 : 0);
    emit_directive(out, "#define CP_POS(line) ((rt_srcpos){cp_source_file, (line)})");
    emit_raw(out, "%s", prelude);
    cg_emit_types(&cg);
    emit_globals(&cg);

    emit_directive(out, "/* ===== prototypes ===== */");
    for (int i = 0; i < cg.si->subrs.len; i++) {
        Symbol *s = VEC_AT(cg.si->subrs, i, Symbol);
        for_each_instance(&cg, s, emit_prototype);
        if (opts->lanes && cg_has_lane_version(s) && !s->sub->external)
            for_each_lane_instance(&cg, s, cg_emit_lane_prototype);
    }
    cg_emit_merge_prototypes(&cg);
    if (opts->lanes)
        for (int i = 0; i < cg.si->subrs.len; i++) {
            Symbol *s = VEC_AT(cg.si->subrs, i, Symbol);
            if (s->kind == SYM_MERGE && cg_has_lanes(s->owner))
            {
                emit(out, "static CP_UNUSED void %s(void *me_, const void *you_, const void *sh_);",
                     cg_lane_merge_name(&cg, s->owner));
                emit(out, "static CP_UNUSED void %s(void *me_, const void *sh_);",
                     cg_lane_fold_name(&cg, s->owner));
            }
        }
    emit(out, "%s", "");

    cg_emit_type_inits(&cg);
    cg_emit_field_tables(&cg);
    cg_emit_net_descs(&cg);

    emit_directive(out, "/* ===== subroutines ===== */");
    for (int i = 0; i < cg.si->subrs.len; i++)
        for_each_instance(&cg, VEC_AT(cg.si->subrs, i, Symbol), emit_body);
    cg_emit_merge_bodies(&cg);
    if (opts->lanes) {
        emit_directive(out, "/* ===== lane versions (replicated networks) ===== */");
        for (int i = 0; i < cg.si->subrs.len; i++) {
            Symbol *s = VEC_AT(cg.si->subrs, i, Symbol);
            if (cg_has_lane_version(s))
                for_each_lane_instance(&cg, s, cg_emit_lane_body);
            else if (s->kind == SYM_MERGE && cg_has_lanes(s->owner) && s->decl)
                cg_emit_lane_merge(&cg, s);
        }
    }
    emit_startup(&cg);
    return !cg.failed;
}
