/* ir_dump.c -- the readable form of the loop IR (cupitc --dump-ir).
 *
 * Layouts first (what each record holds; dropped fields and slots
 * marked), then every function with its role.  Loops show their kind and
 * domain (`for.nodes g1`, `for.conns b0 in`, `for.lanes simd`) and their
 * parallel condition, reductions their kind and combine function, record
 * locators their layout (`nodes.lane[g1](net, blk)`).  Expressions are
 * C-like.  docs/ir.md describes the notation. */
#include <inttypes.h>
#include <string.h>

#include "cupitc/ir.h"

typedef struct Dp {
    FILE *out;
    int depth;
} Dp;

static const char *const form_name[] = {"plain", "lane", "shared"};

static void indent(Dp *d)
{
    for (int i = 0; i < d->depth; i++)
        fputs("  ", d->out);
}

static void type_str(Dp *d, const IrType *t)
{
    FILE *o = d->out;
    if (!t) {
        fputs("?", o);
        return;
    }
    switch (t->kind) {
    case IRT_VOID: fputs("void", o); break;
    case IRT_BOOL: fputs("bool", o); break;
    case IRT_INT: fputs("int", o); break;
    case IRT_I32: fputs("i32", o); break;
    case IRT_I64: fputs("i64", o); break;
    case IRT_U64: fputs("u64", o); break;
    case IRT_SIZE: fputs("size", o); break;
    case IRT_VALUE: fputs(t->cupit->name ? t->cupit->name : "?", o); break;
    case IRT_RECORD: fputs(t->layout->cname, o); break;
    case IRT_PTR: fputs(t->is_const ? "const*" : "*", o); type_str(d, t->elem); break;
    case IRT_ARRAY:
        type_str(d, t->elem);
        if (t->n == -1)
            fputs("[lanes]", o);
        else if (t->n == -2)
            fputs("[]", o);
        else
            fprintf(o, "[%d]", t->n);
        break;
    case IRT_VEC: fputs("vec<", o); type_str(d, t->elem); fputs(">", o); break;
    case IRT_NET: fputs("net", o); break;
    case IRT_IO: fputs("io", o); break;
    case IRT_POS: fputs("pos", o); break;
    case IRT_CSTR: fputs("cstr", o); break;
    case IRT_OPAQUE: fputs("opaque", o); break;
    case IRT_NAMED: fputs(t->name, o); break;
    default: fputs("?", o); break;
    }
}

static const char *const op_text[IROP__COUNT] = {
    [IROP_NEG] = "-", [IROP_NOT] = "!", [IROP_BITNOT] = "~",
    [IROP_ADD] = "+", [IROP_SUB] = "-", [IROP_MUL] = "*", [IROP_DIV] = "/", [IROP_MOD] = "%",
    [IROP_LAND] = "&&", [IROP_LOR] = "||",
    [IROP_EQ] = "==", [IROP_NE] = "!=", [IROP_LT] = "<", [IROP_GT] = ">", [IROP_LE] = "<=",
    [IROP_GE] = ">=",
    [IROP_BITAND] = "&", [IROP_BITOR] = "|", [IROP_BITXOR] = "^", [IROP_VADD] = "+v",
};

static const char *const netinfo_name[IRN__COUNT] = {
    [IRN_COUNT] = "count", [IRN_NREPS] = "nreps", [IRN_NBLOCKS] = "nblocks",
    [IRN_BLOCKED] = "blocked", [IRN_DST_START] = "dst_start", [IRN_SRC_START] = "src_start",
    [IRN_BY_SRC] = "by_src", [IRN_SRC_NODE] = "src_node", [IRN_DST_NODE] = "dst_node",
    [IRN_ANY_DEAD] = "any_dead", [IRN_DEAD] = "dead", [IRN_BUNDLE] = "bundle",
    [IRN_NCONN] = "nconn", [IRN_DENSE] = "dense", [IRN_NAME] = "name",
    [IRN_CONNS_ARRAY] = "conns_array", [IRN_BLOCK_CONNS] = "block_conns",
};

static void expr(Dp *d, const IrExpr *e);
static void stmt(Dp *d, const IrStmt *s);

static void args(Dp *d, const PtrVec *v)
{
    for (int i = 0; i < v->len; i++) {
        if (i)
            fputs(", ", d->out);
        expr(d, VEC_AT(*v, i, IrExpr));
    }
}

static void expr(Dp *d, const IrExpr *e)
{
    FILE *o = d->out;
    if (!e) {
        fputs("<null>", o);
        return;
    }
    switch (e->kind) {
    case IRE_INT: fprintf(o, "%" PRId64, e->u.i); break;
    case IRE_REAL: fprintf(o, "%.9g", e->u.r); break;
    case IRE_BOOL: fputs(e->u.i ? "true" : "false", o); break;
    case IRE_STRING:
        fputc('"', o);
        for (int i = 0; i < e->u.str.len; i++) {
            unsigned char c = (unsigned char)e->u.str.bytes[i];
            if (c == '\n')
                fputs("\\n", o);
            else if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
                fprintf(o, "\\%03o", c);
            else
                fputc(c, o);
        }
        fputc('"', o);
        break;
    case IRE_NULL: fputs("null", o); break;
    case IRE_VAR: fputs(e->u.var->name, o); break;
    case IRE_FIELD:
        expr(d, e->a);
        fprintf(o, ".%s", e->u.field->name);
        break;
    case IRE_MEMBER:
        expr(d, e->a);
        fprintf(o, ".%s", e->u.member);
        break;
    case IRE_INDEX:
        expr(d, e->a);
        fputc('[', o);
        expr(d, e->b);
        fputc(']', o);
        break;
    case IRE_DEREF: fputs("*", o); expr(d, e->a); break;
    case IRE_ADDR: fputs("&", o); expr(d, e->a); break;
    case IRE_NODES: case IRE_CONNS: case IRE_NETREC: {
        const char *k = e->kind == IRE_NODES ? "nodes" : e->kind == IRE_CONNS ? "conns" : "netrec";
        fprintf(o, "%s.%s", k, form_name[e->form]);
        if (e->kind == IRE_NODES && e->c) {
            fputc('[', o);
            expr(d, e->c);
            fputc(']', o);
        } else if (e->kind != IRE_NETREC) {
            fprintf(o, "[%c%d]", e->kind == IRE_NODES ? 'g' : 'b', e->g);
        }
        fputc('(', o);
        expr(d, e->a);
        fputs(", ", o);
        expr(d, e->b);
        fputc(')', o);
        break;
    }
    case IRE_NETINFO:
        fprintf(o, "%s(", netinfo_name[e->info]);
        expr(d, e->a);
        if (e->b) {
            fputs(", ", o);
            expr(d, e->b);
        }
        if (e->c) {
            fputs(", ", o);
            expr(d, e->c);
        }
        fputc(')', o);
        break;
    case IRE_UNARY:
        fprintf(o, "(%s", op_text[e->op]);
        expr(d, e->a);
        fputc(')', o);
        break;
    case IRE_BINARY:
        fputc('(', o);
        expr(d, e->a);
        fprintf(o, " %s ", op_text[e->op]);
        expr(d, e->b);
        fputc(')', o);
        break;
    case IRE_COND:
        fputc('(', o);
        expr(d, e->a);
        fputs(" ? ", o);
        expr(d, e->b);
        fputs(" : ", o);
        expr(d, e->c);
        fputc(')', o);
        break;
    case IRE_CAST:
        fputs("(", o);
        type_str(d, e->type);
        fputs(")", o);
        expr(d, e->a);
        break;
    case IRE_CALL:
        if (e->fn)
            fputs(e->fn->name, o);
        else if (e->ext)
            fprintf(o, "extern %s", e->ext);
        else if (e->helper != IRH_NONE)
            fprintf(o, "@%s", ir_helper_name(e->helper));
        else {
            fputs("(*", o);
            expr(d, e->a);
            fputs(")", o);
        }
        fputc('(', o);
        args(d, &e->args);
        fputc(')', o);
        break;
    case IRE_STRUCT:
        type_str(d, e->type);
        fputc('{', o);
        for (int i = 0; i < e->args.len; i++) {
            if (i)
                fputs(", ", o);
            if (e->names)
                fprintf(o, ".%s = ", e->names[i]);
            expr(d, VEC_AT(e->args, i, IrExpr));
        }
        fputc('}', o);
        break;
    case IRE_TEMP_ADDR: fputs("&temp(", o); expr(d, e->a); fputc(')', o); break;
    case IRE_STMTS: {
        fputs("({\n", o);
        d->depth += 2;
        stmt(d, e->u.body);
        indent(d);
        expr(d, e->a);
        fputc('\n', o);
        d->depth -= 2;
        indent(d);
        fputs("  })", o);
        break;
    }
    case IRE_POS: fprintf(o, "pos(%d)", (int)e->u.i); break;
    case IRE_SIZEOF: fputs("sizeof(", o); type_str(d, e->a->type); fputc(')', o); break;
    case IRE_OFFSETOF:
        fputs("offsetof(", o);
        type_str(d, e->a->type);
        fprintf(o, ", %s)", e->u.member);
        break;
    case IRE_FUNCREF: fprintf(o, "&%s", e->fn->name); break;
    case IRE_NAMED: fputs(e->u.member, o); break;
    default: fputs("?", o); break;
    }
}

static void line_of(Dp *d, const IrStmt *s)
{
    if (s->loc.line > 0)
        fprintf(d->out, "  @%d", s->loc.line);
    fputc('\n', d->out);
}

static void body(Dp *d, const IrStmt *s)
{
    d->depth++;
    if (s && s->kind == IRS_BLOCK)
        for (int i = 0; i < s->list.len; i++)
            stmt(d, VEC_AT(s->list, i, IrStmt));
    else
        stmt(d, s);
    d->depth--;
}

static const char *const for_name[IRFOR__COUNT] = {
    [IRFOR_RANGE] = "range", [IRFOR_NODES] = "nodes", [IRFOR_REPS] = "reps",
    [IRFOR_BLOCKS] = "blocks", [IRFOR_LANES] = "lanes", [IRFOR_CONNS] = "conns",
};

static const char *const reduce_name[] = {"serial", "lanes", "lanes-masked", "vsum"};

static void stmt(Dp *d, const IrStmt *s)
{
    FILE *o = d->out;
    if (!s)
        return;
    if (s->kind == IRS_BLOCK) {
        indent(d);
        fputs("{\n", o);
        body(d, s);
        indent(d);
        fputs("}\n", o);
        return;
    }
    indent(d);
    switch (s->kind) {
    case IRS_DECL:
        fputs("decl ", o);
        type_str(d, s->var->type);
        fprintf(o, " %s", s->var->name);
        if (s->a) {
            fputs(" = ", o);
            expr(d, s->a);
        } else if (!s->uninit) {
            fputs(" = 0", o);
        }
        line_of(d, s);
        return;
    case IRS_ASSIGN:
        expr(d, s->a);
        fputs(" := ", o);
        expr(d, s->b);
        line_of(d, s);
        return;
    case IRS_EVAL:
        expr(d, s->a);
        line_of(d, s);
        return;
    case IRS_IF:
        fputs("if ", o);
        expr(d, s->a);
        line_of(d, s);
        body(d, s->then);
        if (s->els) {
            indent(d);
            fputs("else\n", o);
            body(d, s->els);
        }
        return;
    case IRS_LOOP:
        fputs("loop", o);
        line_of(d, s);
        body(d, s->then);
        return;
    case IRS_FOR:
        fprintf(o, "for.%s", for_name[s->for_kind]);
        if (s->for_kind == IRFOR_NODES)
            fprintf(o, " g%d", s->g);
        if (s->for_kind == IRFOR_CONNS) {
            fprintf(o, " b%d %s %s at ", s->g, s->out ? "out" : "in", s->var->name);
            expr(d, s->b);
            if (s->skip_dead)
                fputs(" live", o);
        } else if (s->for_kind == IRFOR_LANES) {
            fprintf(o, " %s%s", s->var->name, s->simd ? " simd" : "");
        } else {
            fprintf(o, " %s = ", s->var->name);
            expr(d, s->lo);
            fputs(" .. ", o);
            expr(d, s->hi);
        }
        if (s->par) {
            fputs(" parallel if ", o);
            expr(d, s->par);
        }
        line_of(d, s);
        body(d, s->then);
        return;
    case IRS_BREAK: fputs("break", o); line_of(d, s); return;
    case IRS_CONTINUE: fputs("continue", o); line_of(d, s); return;
    case IRS_RETURN:
        fputs("return", o);
        if (s->a) {
            fputc(' ', o);
            expr(d, s->a);
        }
        line_of(d, s);
        return;
    case IRS_SWITCH:
        fputs("switch ", o);
        expr(d, s->a);
        line_of(d, s);
        for (int i = 0; i < s->list.len; i++) {
            indent(d);
            fprintf(o, "case %" PRId64 ":\n", s->ints[i]);
            body(d, VEC_AT(s->list, i, IrStmt));
        }
        return;
    case IRS_REDUCE: {
        const IrReduce *r = s->red;
        fprintf(o, "reduce.%s %s %s(acc %s)", reduce_name[r->kind], r->wta ? "wta" : "reduction",
                r->combine->name, r->acc->name);
        if (r->mask) {
            fputs(" mask ", o);
            expr(d, r->mask);
        }
        if (r->into) {
            fputs(" into ", o);
            expr(d, r->into);
        }
        line_of(d, s);
        body(d, s->then);
        if (r->after) {
            indent(d);
            fputs(r->wta ? "winner:\n" : "then:\n", o);
            body(d, r->after);
        }
        return;
    }
    case IRS_YIELD:
        fputs("yield ", o);
        expr(d, s->a);
        if (s->b) {
            fputs(" at ", o);
            expr(d, s->b);
        }
        if (s->c) {
            fputs(" bundle ", o);
            expr(d, s->c);
        }
        if (s->lane_sel) {
            fputs(" where ", o);
            expr(d, s->lane_sel);
        }
        line_of(d, s);
        return;
    case IRS_SHUFFLE:
        fprintf(o, "shuffle %s round %d (", s->field->name, s->w);
        expr(d, s->a);
        fputs(", ", o);
        expr(d, s->b);
        fputc(')', o);
        line_of(d, s);
        return;
    case IRS_COMMENT:
        fprintf(o, "# %s\n", s->text);
        return;
    default:
        fputs("?\n", o);
        return;
    }
}

static const char *const role_name[IRFN__COUNT] = {
    [IRFN_GLOBAL] = "global", [IRFN_EXTERNAL] = "external", [IRFN_REDUCTION] = "reduction",
    [IRFN_WTA] = "wta", [IRFN_OBJECT] = "object", [IRFN_LANE] = "lane", [IRFN_MERGE] = "merge",
    [IRFN_MERGE_CALLEE] = "merge-callee", [IRFN_LANE_MERGE] = "lane-merge",
    [IRFN_LANE_FOLD] = "lane-fold", [IRFN_INIT] = "init", [IRFN_LANE_GET] = "lane-get",
    [IRFN_LANE_REC] = "lane-rec", [IRFN_LANE_PUT] = "lane-put", [IRFN_GATHER] = "gather",
    [IRFN_STARTUP] = "startup",
};

bool ir_dump(const IrModule *m, FILE *out, const IrBodyHooks *hooks)
{
    Dp d = {.out = out};
    for (int i = 0; i < m->layouts.len; i++) {
        const IrLayout *l = VEC_AT(m->layouts, i, IrLayout);
        fprintf(out, "layout %s (%s %s):", l->cname, form_name[l->form], l->type->name);
        for (int j = 0; j < l->fields.len; j++) {
            const IrField *f = VEC_AT(l->fields, j, IrField);
            fprintf(out, " %s%s%s%s", f->dropped ? "-" : "", f->name, f->lanes ? "[lanes]" : "",
                    f->slot_proc ? "(slot)" : "");
        }
        fputc('\n', out);
    }
    for (int i = 0; i < m->funcs.len; i++) {
        const IrFunc *f = VEC_AT(m->funcs, i, IrFunc);
        fprintf(out, "\nfunc %s %s(", role_name[f->role], f->name);
        for (int j = 0; j < f->params.len; j++) {
            const IrVar *v = VEC_AT(f->params, j, IrVar);
            fprintf(out, "%s%s ", j ? ", " : "", v->name);
            type_str(&d, v->type);
        }
        fputs(") -> ", out);
        type_str(&d, f->ret);
        fputc('\n', out);
        bool built = false;
        if (!f->body && f->streamed && hooks) {
            if (!hooks->build((IrFunc *)f, hooks->data))
                return false;
            built = true;
        }
        if (f->body)
            body(&d, f->body);
        if (built)
            hooks->release((IrFunc *)f, hooks->data);
    }
    return true;
}
