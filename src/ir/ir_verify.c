/* ir_verify.c -- checks an IrModule (docs/ir.md, "The verifier").
 *
 *   - every element access names a field of the layout its record has
 *     (the record's type decides the layout), and not a dropped one;
 *     record locators name a group or bundle of the function's network;
 *   - every variable is defined before use: a parameter, a global, a
 *     declaration earlier in an enclosing block, the index of an enclosing
 *     loop or a variable of the enclosing reduction;
 *   - masks are well-formed: the lane index appears only inside its lane
 *     loop, a lane reduction's mask is an array of int32_t over the lanes;
 *   - YIELD only inside a REDUCE, BREAK and CONTINUE only inside loops;
 *   - calls name functions of the module with as many arguments as the
 *     callee has parameters; loops have the bounds their kind needs.
 * The test build runs it after lowering and after every pass. */
#include <stdlib.h>
#include <string.h>

#include "cupitc/ir.h"
#include "cupitc/lower.h"

typedef struct IrVerifier Vf;
struct IrVerifier {
    const IrModule *m;
    const IrFunc *fn;
    const char *after;
    FILE *err;
    int errors;
    int *live;        /* [var id]: in scope this many times */
    int *stack;       /* ids pushed, in order */
    int nstack, cap;
    int loops;        /* enclosing loops (BREAK, CONTINUE) */
    int reduces;      /* enclosing REDUCE regions */
    int nlive;        /* live[] covers variable ids below this */
};

static void fail(Vf *v, const char *what, const char *detail)
{
    if (v->errors < 50)
        fprintf(v->err, "cupitc: internal error: IR verifier (after %s): %s: %s%s%s%s\n", v->after,
                v->fn ? v->fn->name : "module", what, detail ? " '" : "", detail ? detail : "",
                detail ? "'" : "");
    v->errors++;
}

static void grow_live(Vf *v)
{
    if (v->m->nvars + 2 <= v->nlive)
        return;
    int n = v->nlive ? v->nlive : 256;
    while (n < v->m->nvars + 2)
        n *= 2;
    v->live = realloc(v->live, (size_t)n * sizeof *v->live);
    if (!v->live) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    memset(v->live + v->nlive, 0, (size_t)(n - v->nlive) * sizeof *v->live);
    v->nlive = n;
}

static void push(Vf *v, const IrVar *var)
{
    if (!var)
        return;
    if (v->nstack == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 256;
        v->stack = realloc(v->stack, (size_t)v->cap * sizeof *v->stack);
        if (!v->stack) {
            fputs("cupitc: fatal error: out of memory\n", stderr);
            exit(3);
        }
    }
    v->stack[v->nstack++] = var->id;
    v->live[var->id]++;
}

static int mark(const Vf *v)
{
    return v->nstack;
}

static void pop_to(Vf *v, int mk)
{
    while (v->nstack > mk)
        v->live[v->stack[--v->nstack]]--;
}

static const IrLayout *layout_of(const IrModule *m, const IrType *t)
{
    if (!t)
        return NULL;
    if (t->kind == IRT_RECORD)
        return t->layout;
    if (t->kind == IRT_VALUE && t->cupit)
        return ir_layout_find(m, t->cupit, IRF_PLAIN);
    return NULL;
}

/* Whether f is one of the module's functions (it is marked when the
 * verifier starts; a function dead-function elimination removed is not). */
static bool func_in_module(const IrModule *m, const IrFunc *f)
{
    (void)m;
    return f->in_module;
}

static void mark_functions(const IrModule *m)
{
    for (int i = 0; i < m->funcs.len; i++)
        ((IrFunc *)VEC_AT(m->funcs, i, IrFunc))->in_module = false;
}

static void expr(Vf *v, const IrExpr *e);
static void stmt(Vf *v, const IrStmt *s);

static void exprs(Vf *v, const PtrVec *l)
{
    for (int i = 0; i < l->len; i++)
        expr(v, VEC_AT(*l, i, IrExpr));
}

static void locator(Vf *v, const IrExpr *e)
{
    if (!e->layout) {
        fail(v, "a record locator without a layout", NULL);
        return;
    }
    if (e->layout->form != e->form)
        fail(v, "a record locator whose form is not its layout's", NULL);
    const LowerNet *net = v->fn ? v->fn->net : NULL;
    if (!net || e->c)
        return;
    if (e->kind == IRE_NODES && (e->g < 0 || e->g >= net->groups.len))
        fail(v, "a node locator of a group the network does not have", NULL);
    if (e->kind == IRE_CONNS && (e->g < 0 || e->g >= net->nbundles))
        fail(v, "a connection locator of a bundle the network does not have", NULL);
}

static void expr(Vf *v, const IrExpr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case IRE_VAR:
        if (!e->u.var)
            fail(v, "a reference to no variable", NULL);
        else if (v->live[e->u.var->id] <= 0)
            fail(v, "a variable used where it is not defined", e->u.var->name);
        break;
    case IRE_FIELD: {
        const IrField *f = e->u.field;
        const IrLayout *l = layout_of(v->m, e->a ? e->a->type : NULL);
        if (!f)
            fail(v, "an element access without a field", NULL);
        else if (f->dropped)
            fail(v, "an access to a field its layout no longer holds", f->name);
        else if (l && f->layout != l)
            fail(v, "an access to a field of another layout than its record's", f->name);
        break;
    }
    case IRE_NODES: case IRE_CONNS: case IRE_NETREC:
        locator(v, e);
        break;
    case IRE_CALL:
        if (e->fn) {
            if (!func_in_module(v->m, e->fn))
                fail(v, "a call of a function the module does not have", e->fn->name);
            else if (e->fn->params.len != e->args.len)
                fail(v, "a call with another number of arguments than its callee has parameters",
                     e->fn->name);
        } else if (!e->ext && e->helper == IRH_NONE && !e->a) {
            fail(v, "a call of nothing", NULL);
        }
        break;
    case IRE_FUNCREF:
        if (!e->fn || !func_in_module(v->m, e->fn))
            fail(v, "a reference to a function the module does not have", NULL);
        break;
    case IRE_STMTS: {
        /* the value is in the scope of the body's declarations */
        int mk = mark(v);
        const IrStmt *b = e->u.body;
        if (b && b->kind == IRS_BLOCK)
            for (int i = 0; i < b->list.len; i++)
                stmt(v, VEC_AT(b->list, i, IrStmt));
        else
            stmt(v, b);
        expr(v, e->a);
        pop_to(v, mk);
        return;
    }
    default:
        break;
    }
    expr(v, e->a);
    expr(v, e->b);
    expr(v, e->c);
    exprs(v, &e->args);
}

static bool is_lane_mask(const IrType *t)
{
    if (!t)
        return false;
    if (t->kind == IRT_ARRAY && t->n == -1)
        return t->elem->kind == IRT_I32;
    return t->kind == IRT_PTR && t->elem->kind == IRT_I32;
}

static void for_stmt(Vf *v, const IrStmt *s)
{
    int mk = mark(v);
    switch (s->for_kind) {
    case IRFOR_LANES:
        if (!s->var)
            fail(v, "a lane loop without its index", NULL);
        break;
    case IRFOR_CONNS:
        if (!s->a || !s->b || !s->var)
            fail(v, "a connection loop without its network, node or index", NULL);
        if (s->out && !s->j)
            fail(v, "an outgoing connection loop without its by_src position", NULL);
        if (v->fn && v->fn->net && (s->g < 0 || s->g >= v->fn->net->nbundles))
            fail(v, "a connection loop over a bundle the network does not have", NULL);
        expr(v, s->a);
        expr(v, s->b);
        break;
    default:
        if (!s->lo || !s->hi || !s->var)
            fail(v, "a counted loop without bounds or index", NULL);
        expr(v, s->lo);
        expr(v, s->hi);
        expr(v, s->par);
        break;
    }
    push(v, s->var);
    push(v, s->j);
    v->loops++;
    stmt(v, s->then);
    v->loops--;
    pop_to(v, mk);
}

static void reduce(Vf *v, const IrStmt *s)
{
    const IrReduce *r = s->red;
    if (!r || !r->combine || !r->acc || !r->have) {
        fail(v, "a reduction without its combine function or accumulator", NULL);
        return;
    }
    if (!func_in_module(v->m, r->combine))
        fail(v, "a reduction whose combine function the module does not have", r->combine->name);
    if (r->wta && (!r->win || !r->winb))
        fail(v, "a WTA without its winner", NULL);
    if (r->kind != IRR_SERIAL) {
        if (!r->lane || !r->win || !r->winb)
            fail(v, "a lane reduction without its lane index or winner arrays", NULL);
        if (!is_lane_mask(r->mask ? r->mask->type : NULL))
            fail(v, "a lane reduction whose mask is not an int32_t lane array", NULL);
        if (r->kind == IRR_VSUM && !r->vacc)
            fail(v, "a vector sum without its vector accumulator", NULL);
        if (r->wta && (!r->wpos || !r->wbundle || !r->wmask))
            fail(v, "a lane WTA without the variables of its winners", NULL);
    }
    if (!r->wta && !r->into)
        fail(v, "a REDUCTION without its result", NULL);
    int mk = mark(v);
    push(v, r->acc);
    push(v, r->have);
    push(v, r->win);
    push(v, r->winb);
    push(v, r->vacc);
    /* the body's declarations stay visible to `after` (the winner's call
       names the network the body looked up) */
    v->reduces++;
    if (s->then && s->then->kind == IRS_BLOCK)
        for (int i = 0; i < s->then->list.len; i++)
            stmt(v, VEC_AT(s->then->list, i, IrStmt));
    else
        stmt(v, s->then);
    v->reduces--;
    push(v, r->lane);
    expr(v, r->mask);
    push(v, r->wpos);
    push(v, r->wbundle);
    push(v, r->wmask);
    if (r->kind != IRR_SERIAL && !r->wta && r->after) {
        /* a lane REDUCTION's `after` runs the calls of its target first:
           their temporaries stay visible to the target */
        if (r->after->kind == IRS_BLOCK)
            for (int i = 0; i < r->after->list.len; i++)
                stmt(v, VEC_AT(r->after->list, i, IrStmt));
        else
            stmt(v, r->after);
        expr(v, r->into);
    } else {
        expr(v, r->into);
        stmt(v, r->after);
    }
    pop_to(v, mk);
}

static void stmt(Vf *v, const IrStmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case IRS_BLOCK: {
        int mk = mark(v);
        for (int i = 0; i < s->list.len; i++)
            stmt(v, VEC_AT(s->list, i, IrStmt));
        pop_to(v, mk);
        return;
    }
    case IRS_DECL:
        if (!s->var)
            fail(v, "a declaration of no variable", NULL);
        expr(v, s->a);
        push(v, s->var);
        return;
    case IRS_ASSIGN:
        if (!s->a || !s->b)
            fail(v, "an assignment without both sides", NULL);
        expr(v, s->a);
        expr(v, s->b);
        return;
    case IRS_EVAL:
        expr(v, s->a);
        return;
    case IRS_IF:
        expr(v, s->a);
        stmt(v, s->then);
        stmt(v, s->els);
        return;
    case IRS_LOOP:
        v->loops++;
        stmt(v, s->then);
        v->loops--;
        return;
    case IRS_FOR:
        for_stmt(v, s);
        return;
    case IRS_BREAK:
    case IRS_CONTINUE:
        if (v->loops == 0)
            fail(v, "BREAK or CONTINUE outside a loop", NULL);
        return;
    case IRS_RETURN:
        expr(v, s->a);
        return;
    case IRS_SWITCH:
        expr(v, s->a);
        for (int i = 0; i < s->list.len; i++)
            stmt(v, VEC_AT(s->list, i, IrStmt));
        return;
    case IRS_REDUCE:
        reduce(v, s);
        return;
    case IRS_YIELD:
        if (v->reduces == 0)
            fail(v, "a YIELD outside a REDUCE", NULL);
        expr(v, s->a);
        expr(v, s->b);
        expr(v, s->c);
        return;
    case IRS_SHUFFLE:
        if (!s->field || s->field->dropped || !s->field->lanes || s->field->layout->form != IRF_LANE)
            fail(v, "a lane shuffle of a field that is not a lane array of its lane record", NULL);
        expr(v, s->a);
        expr(v, s->b);
        return;
    default:
        return;
    }
}

static void layouts(Vf *v)
{
    for (int i = 0; i < v->m->layouts.len; i++) {
        const IrLayout *l = VEC_AT(v->m->layouts, i, IrLayout);
        for (int j = 0; j < l->fields.len; j++) {
            const IrField *f = VEC_AT(l->fields, j, IrField);
            if (f->layout != l)
                fail(v, "a field listed in another layout than its own", f->name);
            if (f->lanes != (l->form == IRF_LANE))
                fail(v, "a lane array outside a lane record, or a scalar inside one", f->name);
            if (f->slot_proc && (l->form != IRF_LANE || l->type->kind != TY_NODE))
                fail(v, "a slot outside a node's lane record", f->name);
        }
    }
}

/* The module's functions and statics, then the layouts: what every
 * function may name. */
static void begin(Vf *v)
{
    grow_live(v);
    mark_functions(v->m);
    for (int i = 0; i < v->m->funcs.len; i++)
        ((IrFunc *)VEC_AT(v->m->funcs, i, IrFunc))->in_module = true;
    for (int i = 0; i < v->m->statics.len; i++)
        push(v, VEC_AT(v->m->statics, i, IrStatic)->var);
}

static void function(Vf *v, const IrFunc *f)
{
    v->fn = f;
    int mk = mark(v);
    for (int j = 0; j < f->params.len; j++)
        push(v, VEC_AT(f->params, j, IrVar));
    stmt(v, f->body);
    pop_to(v, mk);
    v->fn = NULL;
}

IrVerifier *ir_verifier_new(const IrModule *m, FILE *err)
{
    Vf *v = calloc(1, sizeof *v);
    if (!v) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    v->m = m;
    v->err = err;
    begin(v);
    return v;
}

void ir_verifier_free(IrVerifier *v)
{
    if (!v)
        return;
    free(v->live);
    free(v->stack);
    free(v);
}

int ir_verify_func(IrVerifier *v, const IrFunc *f, const char *after)
{
    int before = v->errors;
    v->after = after;
    grow_live(v); /* the function's variables are newer than the verifier */
    function(v, f);
    return v->errors - before;
}

int ir_verify(const IrModule *m, const char *after, FILE *err)
{
    Vf *v = ir_verifier_new(m, err);
    v->after = after;
    layouts(v);
    for (int i = 0; i < m->statics.len; i++) {
        const IrStatic *st = VEC_AT(m->statics, i, IrStatic);
        expr(v, st->init);
        exprs(v, &st->rows);
    }
    for (int i = 0; i < m->funcs.len; i++)
        function(v, VEC_AT(m->funcs, i, IrFunc));
    int n = v->errors;
    ir_verifier_free(v);
    return n;
}
