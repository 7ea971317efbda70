/* lw_startup.c -- the program's start: initialization of the global
 * objects, the tables the runtime reads at start (networks, parameters for
 * --help, variables --set may change), and main -- or, with --library, the
 * API of cupit_embed.h (cupit_init, cupit_call, cupit_io, cupit_finish). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lw_internal.h"

static IrFunc *startup_fn(Lw *lw, const char *name, const IrType *ret, bool exported)
{
    IrFunc *f = ir_func(lw->m, name, IRFN_STARTUP, ret);
    f->exported = exported;
    f->is_static = !exported;
    f->body = ir_block(lw->m, (Loc){0});
    vec_push(lw->arena, &lw->m->funcs, f);
    return f;
}

static IrVar *global_of(Lw *lw, const Symbol *s)
{
    return ptrmap_get(&lw->vars, s, NULL, 0);
}

static IrFunc *init_globals(Lw *lw)
{
    IrModule *m = lw->m;
    IrFunc *f = startup_fn(lw, "cp_init_globals", NULL, false);
    LwFn fn = {.f = f, .group = -1, .bundle = -1, .ctx = CTX_CA};
    lw->fn = &fn;
    lw->blk = f->body;
    for (int i = 0; i < lw->si->data.len; i++) {
        Symbol *s = VEC_AT(lw->si->data, i, Symbol);
        if (s->access == ACCESS_IO)
            continue;
        IrVar *g = global_of(lw, s);
        if (s->type->kind == TY_NETWORK) {
            LowerNet *n = lower_net_of(lw->plan, s->type);
            lw_eval(lw, ir_helper(m, IRH_NET_CREATE, ir_t(m, IRT_VOID),
                                  IR_ARGS(ir_addr(m, ir_ref(m, g)), ir_addr(m, ir_ref(m, lw_desc_var(lw, n))),
                                          lw_pos(lw, s->loc))),
                    s->loc);
            continue;
        }
        lw_default_init(lw, s->type, ir_ref(m, g), s->loc);
        if (s->init && s->init->init)
            lw_assign(lw, ir_ref(m, g), lw_expr_as(lw, s->init->init, s->type), s->loc);
    }
    lw->fn = NULL;
    return f;
}

static IrFunc *fini_globals(Lw *lw)
{
    IrModule *m = lw->m;
    IrFunc *f = startup_fn(lw, "cp_fini_globals", NULL, false);
    for (int i = 0; i < lw->si->data.len; i++) {
        Symbol *s = VEC_AT(lw->si->data, i, Symbol);
        if (s->type->kind != TY_NETWORK)
            continue;
        IrStmt *e = ir_s(m, IRS_EVAL, (Loc){0});
        e->a = ir_helper(m, IRH_NET_DESTROY, ir_t(m, IRT_VOID), IR_ARGS(ir_addr(m, ir_ref(m, global_of(lw, s)))));
        ir_append(m, f->body, e);
    }
    return f;
}

/* A compile-time value of a --param call's argument for --help. */
static const char *doc_value(Lw *lw, const Expr *a)
{
    if (!a || !a->is_const)
        return "(computed)";
    if (a->type && a->type->kind == TY_REAL) {
        /* as few digits as give the Real back (at least %g's six), as
           the run time's messages show Reals: 1.0000001 is not "1" */
        double v = a->const_real;
        for (int digits = 6; digits < 9 && !isnan(v); digits++) {
            const char *t = arena_printf(lw->arena, "%.*g", digits, v);
            if ((double)strtof(t, NULL) == v)
                return t;
        }
        return arena_printf(lw->arena, "%.9g", v);
    }
    return arena_printf(lw->arena, "%lld", (long long)a->const_int);
}

static IrVar *table(Lw *lw, const char *name, const char *elem_type, IrStatic **st)
{
    IrVar *v = ir_var(lw->m, name, ir_t_array(lw->m, ir_t_named(lw->m, elem_type), -2), IRV_GLOBAL);
    *st = ir_static(lw->m, v, true);
    return v;
}

/* The parameters the program reads (intParam ("hidden", 6) and the like),
 * once per name, for the generated program's --help; *n their number. */
static IrVar *param_docs(Lw *lw, int *n)
{
    IrModule *m = lw->m;
    const PtrVec *calls = &lw->si->param_calls;
    IrStatic *st = NULL;
    IrVar *v = NULL;
    *n = 0;
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
                  memcmp(on->u.str_lit.bytes, name->u.str_lit.bytes, (size_t)name->u.str_lit.len) == 0;
        }
        if (dup)
            continue;
        if (!v)
            v = table(lw, "cp_param_docs", "rt_param_doc", &st);
        const char *range = args->len >= 4
            ? arena_printf(lw->arena, "%s ... %s", doc_value(lw, VEC_AT(*args, 2, Expr)),
                           doc_value(lw, VEC_AT(*args, 3, Expr)))
            : "";
        IrExpr *row = ir_struct(m, ir_t_named(m, "rt_param_doc"));
        ir_struct_add(m, row, NULL, ir_string(m, name->u.str_lit.bytes, name->u.str_lit.len));
        ir_struct_add(m, row, NULL, lw_cstr(lw, e->type && e->type->kind == TY_REAL ? "Real" : "Int"));
        ir_struct_add(m, row, NULL, lw_cstr(lw, doc_value(lw, args->len > 1 ? VEC_AT(*args, 1, Expr) : NULL)));
        ir_struct_add(m, row, NULL, lw_cstr(lw, range));
        vec_push(m->arena, &st->rows, row);
        (*n)++;
    }
    return v;
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

static IrVar *settable_globals(Lw *lw, int *n)
{
    IrModule *m = lw->m;
    IrStatic *st = NULL;
    IrVar *v = NULL;
    *n = 0;
    for (int i = 0; i < lw->si->data.len; i++) {
        Symbol *s = VEC_AT(lw->si->data, i, Symbol);
        const char *k = settable_kind(s);
        if (!k)
            continue;
        if (!v)
            v = table(lw, "cp_settable", "rt_global_var", &st);
        IrExpr *row = ir_struct(m, ir_t_named(m, "rt_global_var"));
        ir_struct_add(m, row, NULL, lw_cstr(lw, s->name));
        ir_struct_add(m, row, NULL, ir_named(m, k, ir_t(m, IRT_INT)));
        ir_struct_add(m, row, NULL, ir_addr(m, ir_ref(m, global_of(lw, s))));
        vec_push(m->arena, &st->rows, row);
        (*n)++;
    }
    return v;
}

static void call_ext(Lw *lw, IrStmt *body, const char *name, int n, IrExpr *const *args)
{
    IrStmt *e = ir_s(lw->m, IRS_EVAL, (Loc){0});
    e->a = ir_call_ext(lw->m, name, ir_t(lw->m, IRT_VOID), n, args);
    ir_append(lw->m, body, e);
}

typedef struct Start {
    IrVar *docs, *settable, *nets, *names;
    int ndocs, nset, nnets;
    IrFunc *init, *fini;
} Start;

/* Whether the program calls the standard function trainingDone: such a
 * program leaves its training loop itself at --max-epochs, so the runtime
 * must not end it at the limit even when the limit is reached before the
 * first call (--max-epochs 1 with protocolError before trainingDone). */
static bool calls_training_done(Lw *lw)
{
    for (int k = 0; k < lw->si->subrs.len; k++) {
        const Symbol *s = VEC_AT(lw->si->subrs, k, Symbol);
        if (s->kind == SYM_FUNC && s->sub->external && s->sub->called &&
            strcmp(s->name, "trainingDone") == 0)
            return true;
    }
    return false;
}

/* The runtime's start and the global objects, in main or cupit_init. */
static void program_start(Lw *lw, IrStmt *body, const Start *st, IrExpr *name, IrVar *argc, IrVar *argv)
{
    IrModule *m = lw->m;
    if (st->ndocs)
        call_ext(lw, body, "rt_set_param_docs", IR_ARGS(ir_ref(m, st->docs), ir_i32(m, st->ndocs)));
    /* for --help, and to check --set before the initializers run */
    call_ext(lw, body, "rt_set_global_docs",
             IR_ARGS(st->nset ? ir_ref(m, st->settable) : ir_null(m), ir_i32(m, st->nset)));
    if (calls_training_done(lw))
        call_ext(lw, body, "rt_set_asks_training_done", 0, NULL);
    if (m->random_in_parallel) /* the runtime's merges run MERGE procedures */
        call_ext(lw, body, "rt_set_random_in_parallel", 0, NULL);
    call_ext(lw, body, "rt_init", IR_ARGS(ir_ref(m, argc), ir_ref(m, argv), name));
    IrStmt *e = ir_s(m, IRS_EVAL, (Loc){0});
    e->a = ir_call(m, st->init, 0, NULL);
    ir_append(m, body, e);
    call_ext(lw, body, "rt_set_globals",
             IR_ARGS(st->nset ? ir_ref(m, st->settable) : ir_null(m), ir_i32(m, st->nset)));
    if (st->nnets)
        call_ext(lw, body, "rt_register_networks",
                 IR_ARGS(ir_ref(m, st->nets), ir_ref(m, st->names), ir_i32(m, st->nnets)));
}

static IrStmt *ret_stmt(Lw *lw, IrExpr *v)
{
    IrStmt *r = ir_s(lw->m, IRS_RETURN, (Loc){0});
    r->a = v;
    return r;
}

/* --library: cupit_embed.h's functions instead of main -- entry points are
 * the global procedures without parameters, data goes through the global
 * I/O areas. */
static void library_api(Lw *lw, const Start *st)
{
    IrModule *m = lw->m;
    const IrType *i = ir_t(m, IRT_INT), *bt = ir_t(m, IRT_BOOL);
    const char *entry_t = "struct { const char *name; void (*fn)(void); }";
    const char *area_t = "struct { const char *name; cp_io *area; }";
    IrStatic *es;
    IrVar *entries = table(lw, "cp_entries", entry_t, &es);
    int n = 0;
    for (int k = 0; k < lw->si->subrs.len; k++) {
        Symbol *s = VEC_AT(lw->si->subrs, k, Symbol);
        if (s->kind == SYM_PROC && !s->sub->external && s->sub->params.len == 0) {
            IrExpr *row = ir_struct(m, ir_t_named(m, entry_t));
            ir_struct_add(m, row, NULL, lw_cstr(lw, s->name));
            ir_struct_add(m, row, NULL, ir_funcref(m, lw_subr_fn(lw, s)));
            vec_push(m->arena, &es->rows, row);
            n++;
        }
    }
    if (n == 0) { /* C has no empty arrays */
        IrExpr *row = ir_struct(m, ir_t_named(m, entry_t));
        ir_struct_add(m, row, NULL, ir_null(m));
        ir_struct_add(m, row, NULL, ir_null(m));
        vec_push(m->arena, &es->rows, row);
    }
    int nio = 0;
    IrVar *areas = NULL;
    IrStatic *as = NULL;
    for (int k = 0; k < lw->si->data.len; k++) {
        Symbol *s = VEC_AT(lw->si->data, k, Symbol);
        if (s->access != ACCESS_IO)
            continue;
        if (!areas)
            areas = table(lw, "cp_areas", area_t, &as);
        IrExpr *row = ir_struct(m, ir_t_named(m, area_t));
        ir_struct_add(m, row, NULL, lw_cstr(lw, s->name));
        ir_struct_add(m, row, NULL, ir_addr(m, ir_ref(m, global_of(lw, s))));
        vec_push(m->arena, &as->rows, row);
        nio++;
    }
    IrFunc *init = startup_fn(lw, "cupit_init", i, true);
    IrVar *argc = ir_param(m, init, "argc", i);
    IrVar *argv = ir_param(m, init, "argv", ir_t_ptr(m, ir_t_ptr(m, ir_t_named(m, "char"), false), false));
    /* the runtime refuses calls in the wrong order (rt_embed.c) */
    call_ext(lw, init->body, "rt_embed_start", 0, NULL);
    program_start(lw, init->body, st,
                  ir_cond(m, ir_t(m, IRT_CSTR), ir_binary(m, IROP_GT, bt, ir_ref(m, argc), ir_i32(m, 0)),
                          ir_index(m, ir_ref(m, argv), ir_i32(m, 0)), lw_cstr(lw, "cupit")),
                  argc, argv);
    ir_append(m, init->body, ret_stmt(lw, ir_i32(m, 0)));

    /* for (int i = 0; i < n; i++) if (name matches) { call; return 0; } */
    IrFunc *call = startup_fn(lw, "cupit_call", i, true);
    IrVar *name = ir_param(m, call, "name", ir_t(m, IRT_CSTR));
    call_ext(lw, call->body, "rt_embed_check_call", IR_ARGS(ir_ref(m, name)));
    IrStmt *loop = ir_s(m, IRS_FOR, (Loc){0});
    loop->for_kind = IRFOR_RANGE;
    loop->var = ir_var(m, "i", i, IRV_LOCAL);
    loop->lo = ir_i32(m, 0);
    loop->hi = ir_i32(m, n - 1);
    loop->then = ir_block(m, (Loc){0});
    IrExpr *row = ir_index(m, ir_ref(m, entries), ir_ref(m, loop->var));
    IrStmt *hit = ir_s(m, IRS_IF, (Loc){0});
    hit->a = ir_binary(m, IROP_EQ, bt,
                       ir_helper(m, IRH_STRCMP, i, IR_ARGS(ir_member(m, row, "name", ir_t(m, IRT_CSTR)), ir_ref(m, name))),
                       ir_i32(m, 0));
    hit->then = ir_block(m, (Loc){0});
    IrExpr *fp = ir_e(m, IRE_CALL, ir_t(m, IRT_VOID));
    fp->a = ir_member(m, row, "fn", ir_t_ptr(m, ir_t(m, IRT_OPAQUE), true));
    IrStmt *ev = ir_s(m, IRS_EVAL, (Loc){0});
    ev->a = fp;
    ir_append(m, hit->then, ev);
    ir_append(m, hit->then, ret_stmt(lw, ir_i32(m, 0)));
    ir_append(m, loop->then, hit);
    if (n) {
        ir_append(m, call->body, loop);
    } else {
        IrStmt *e = ir_s(m, IRS_EVAL, (Loc){0});
        e->a = ir_cast(m, ir_t(m, IRT_VOID), ir_ref(m, name));
        ir_append(m, call->body, e);
    }
    ir_append(m, call->body, ret_stmt(lw, ir_i32(m, -1)));

    IrFunc *io = startup_fn(lw, "cupit_io", ir_t_ptr(m, ir_t(m, IRT_IO), false), true);
    IrVar *iname = ir_param(m, io, "name", ir_t(m, IRT_CSTR));
    if (nio) {
        /* a NULL name names no area (strcmp would crash) */
        IrStmt *none = ir_s(m, IRS_IF, (Loc){0});
        none->a = ir_binary(m, IROP_EQ, bt, ir_ref(m, iname), ir_null(m));
        none->then = ir_block(m, (Loc){0});
        ir_append(m, none->then, ret_stmt(lw, ir_null(m)));
        ir_append(m, io->body, none);
        IrStmt *l2 = ir_s(m, IRS_FOR, (Loc){0});
        l2->for_kind = IRFOR_RANGE;
        l2->var = ir_var(m, "i", i, IRV_LOCAL);
        l2->lo = ir_i32(m, 0);
        l2->hi = ir_i32(m, nio - 1);
        l2->then = ir_block(m, (Loc){0});
        IrExpr *ar = ir_index(m, ir_ref(m, areas), ir_ref(m, l2->var));
        IrStmt *h2 = ir_s(m, IRS_IF, (Loc){0});
        h2->a = ir_binary(m, IROP_EQ, bt,
                          ir_helper(m, IRH_STRCMP, i, IR_ARGS(ir_member(m, ar, "name", ir_t(m, IRT_CSTR)), ir_ref(m, iname))),
                          ir_i32(m, 0));
        h2->then = ir_block(m, (Loc){0});
        ir_append(m, h2->then, ret_stmt(lw, ir_member(m, ar, "area", ir_t_ptr(m, ir_t(m, IRT_IO), false))));
        ir_append(m, l2->then, h2);
        ir_append(m, io->body, l2);
    } else {
        IrStmt *e = ir_s(m, IRS_EVAL, (Loc){0});
        e->a = ir_cast(m, ir_t(m, IRT_VOID), ir_ref(m, iname));
        ir_append(m, io->body, e);
    }
    ir_append(m, io->body, ret_stmt(lw, ir_null(m)));

    IrFunc *fin = startup_fn(lw, "cupit_finish", i, true);
    IrStmt *idle = ir_s(m, IRS_IF, (Loc){0}); /* not running: nothing to release */
    idle->a = ir_unary(m, IROP_NOT, bt, ir_call_ext(m, "rt_embed_stop", bt, 0, NULL));
    idle->then = ir_block(m, (Loc){0});
    ir_append(m, idle->then, ret_stmt(lw, ir_i32(m, 0)));
    ir_append(m, fin->body, idle);
    IrStmt *e = ir_s(m, IRS_EVAL, (Loc){0});
    e->a = ir_call(m, st->fini, 0, NULL);
    ir_append(m, fin->body, e);
    ir_append(m, fin->body, ret_stmt(lw, ir_call_ext(m, "rt_finish", i, 0, NULL)));
}

void lw_build_startup(Lw *lw);
void lw_build_startup(Lw *lw)
{
    IrModule *m = lw->m;
    Start st = {0};
    st.init = init_globals(lw);
    st.fini = fini_globals(lw);
    for (int i = 0; i < lw->si->data.len; i++)
        st.nnets += VEC_AT(lw->si->data, i, Symbol)->type->kind == TY_NETWORK;
    if (st.nnets) { /* saveNetworks and loadNetworks find them here */
        IrStatic *a, *b;
        st.nets = ir_var(m, "cp_networks", ir_t_array(m, ir_t_ptr(m, ir_t(m, IRT_NET), false), -2), IRV_GLOBAL);
        a = ir_static(m, st.nets, false);
        st.names = ir_var(m, "cp_network_names", ir_t_array(m, ir_t(m, IRT_CSTR), -2), IRV_GLOBAL);
        b = ir_static(m, st.names, true);
        for (int i = 0; i < lw->si->data.len; i++) {
            Symbol *s = VEC_AT(lw->si->data, i, Symbol);
            if (s->type->kind != TY_NETWORK)
                continue;
            vec_push(m->arena, &a->rows, ir_addr(m, ir_ref(m, global_of(lw, s))));
            vec_push(m->arena, &b->rows, lw_cstr(lw, s->name));
        }
    }
    st.docs = param_docs(lw, &st.ndocs);
    st.settable = settable_globals(lw, &st.nset);
    if (lw->opts.library) {
        library_api(lw, &st);
        return;
    }
    const IrType *i = ir_t(m, IRT_INT);
    IrFunc *mainf = startup_fn(lw, "main", i, true);
    IrVar *argc = ir_param(m, mainf, "argc", i);
    IrVar *argv = ir_param(m, mainf, "argv", ir_t_ptr(m, ir_t_ptr(m, ir_t_named(m, "char"), false), false));
    program_start(lw, mainf->body, &st, ir_index(m, ir_ref(m, argv), ir_i32(m, 0)), argc, argv);
    IrStmt *p = ir_s(m, IRS_EVAL, (Loc){0});
    p->a = ir_call(m, lw_subr_fn(lw, lw->si->program), 0, NULL);
    ir_append(m, mainf->body, p);
    IrStmt *f = ir_s(m, IRS_EVAL, (Loc){0});
    f->a = ir_call(m, st.fini, 0, NULL);
    ir_append(m, mainf->body, f);
    ir_append(m, mainf->body, ret_stmt(lw, ir_call_ext(m, "rt_finish", i, 0, NULL)));
}
