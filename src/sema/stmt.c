/* stmt.c -- statement lists and the ordinary statements (semantics.md §8).
 *
 * Assignments, calls, RETURN, IF, loops and BREAK are checked here; the
 * statements that work on parallel variables or change the topology
 * (REDUCTION, WTA, I/O, REPLICATE, EXTEND, CONNECT, MERGE) are in
 * parallel.c.  Each statement list opens a block scope (§1.5). */
#include "sema_internal.h"

static bool known_false(const Expr *e);
static bool known_true(const Expr *e);
static bool block_completes(const Block *b);

/* Whether a BREAK in b ends the loop whose body b is (not one of an inner
   loop). */
static bool breaks_out(const Block *b)
{
    for (int i = 0; b && i < b->stmts.len; i++) {
        const Stmt *st = VEC_AT(b->stmts, i, Stmt);
        if (st->kind == STMT_BREAK)
            return true;
        if (st->kind == STMT_IF) {
            for (int k = 0; k < st->u.if_.arms.len; k++)
                if (breaks_out(VEC_AT(st->u.if_.arms, k, IfArm)->body))
                    return true;
            if (breaks_out(st->u.if_.else_body))
                return true;
        }
    }
    return false;
}

/* Whether the statement after s can run once s has run (s analysed, so that
   its conditions are folded): not after RETURN, BREAK or `REPLICATE ME`
   (which implies RETURN, §8.7), an IF all of whose arms that can be taken
   end so (with an ELSE, or an arm whose condition is constant true), or a
   loop that no condition and no BREAK ends. */
static bool stmt_completes(const Stmt *s)
{
    switch (s->kind) {
    case STMT_RETURN: case STMT_BREAK: return false;
    case STMT_REPLICATE: return !s->u.replicate.obj || s->u.replicate.obj->kind != EXPR_ME;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            const IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            if (!arm->cond || known_false(arm->cond))
                continue;
            if (block_completes(arm->body))
                return true;
            if (known_true(arm->cond))
                return false; /* no later arm, nor the ELSE, runs */
        }
        return !s->u.if_.else_body || block_completes(s->u.if_.else_body);
    case STMT_LOOP: {
        const Expr *w = s->u.loop.while_cond, *u = s->u.loop.until_cond;
        return (w && !known_true(w)) || (u && !known_false(u)) || breaks_out(s->u.loop.body);
    }
    default: return true;
    }
}

static bool block_completes(const Block *b)
{
    for (int i = 0; b && i < b->stmts.len; i++)
        if (!stmt_completes(VEC_AT(b->stmts, i, Stmt)))
            return false;
    return true;
}

/* Statements -> { DataObjectDef ";" } { Statement ";" }: one block scope */
void sema_block(Ctx *c, Block *b)
{
    Scope *outer = c->scope;
    /* only definitions add names to a block's scope: a nested block without
       any (most of them) looks names up in the enclosing scope directly.  A
       subroutine body always has its own, so that a nested block's scope
       never has the parameters as its parent (decls.c tells a top-level
       local that way) */
    Scope *s = outer;
    if (b->defs.len > 0 || !outer || outer->kind != SCOPE_BLOCK) {
        s = sema_scope_new(c->si, SCOPE_BLOCK, outer);
        s->subr = c->subr;
    }
    c->scope = s;
    for (int i = 0; i < b->defs.len; i++)
        sema_local_data(c, VEC_AT(b->defs, i, Decl));
    /* after a RETURN or BREAK, or a statement that always ends in one
       (stmt_completes), the rest of the list never runs */
    int ended = 0;
    for (int i = 0; i < b->stmts.len; i++) {
        Stmt *st = VEC_AT(b->stmts, i, Stmt);
        sema_stmt(c, st);
        if (!ended && !stmt_completes(st)) {
            ended = 1;
            c->dead++;
        }
    }
    c->dead -= ended;
    c->scope = outer;
}

static void condition(Ctx *c, Expr *e, const char *what)
{
    if (!e)
        return;
    Type *t = sema_value(c, e);
    if (!type_is_error(t) && t->kind != TY_BOOL)
        diag_error(e->loc, "the condition of %s must be Bool, not %s", what, t->name);
}

/* A condition (analysed) that folds to false resp. true. */
static bool known_false(const Expr *e)
{
    return e->is_const && e->type && e->type->kind == TY_BOOL && !e->const_int;
}

static bool known_true(const Expr *e)
{
    return e->is_const && e->type && e->type->kind == TY_BOOL && e->const_int;
}

static Op compound_op(AssignOp op)
{
    switch (op) {
    case ASSIGN_ADD: return OP_ADD;
    case ASSIGN_SUB: return OP_SUB;
    case ASSIGN_MUL: return OP_MUL;
    case ASSIGN_DIV: return OP_DIV;
    case ASSIGN_MOD: return OP_MOD;
    default: cp_unreachable();
    }
}

/* Assignment -> Object AssignOperator Expression (§8.1, §2.5) */
static void assignment(Ctx *c, Stmt *s)
{
    Expr *target = s->u.assign.target, *value = s->u.assign.value;
    AssignOp op = s->u.assign.op;
    Type *tt = sema_analyze_expr(c, target);
    if (target->cat == VC_CONNADDR) {
        s->sem_flags |= SEMF_CONNADDR;
        if (op != ASSIGN_SET) {
            diag_error(target->loc, "a connection address can only be assigned with ':='");
            sema_analyze_expr(c, value);
            return;
        }
        sema_value_to(c, value, tt, "the value stored into the connection");
        return;
    }
    if (!type_is_error(tt) && target->cat == VC_OBJECT && sema_is_io_area(target)) {
        /* the one error is the target's; `x := y` between two I/O areas
           would otherwise also say that y is no value, before it */
        sema_check_writable(c, target, "assign to", "");
        sema_analyze_expr(c, value);
        return;
    }
    Type *vt = sema_value(c, value);
    sema_note_store(c, target, op, value);
    if (type_is_error(tt))
        return;
    if (!sema_check_writable(c, target, "assign to", ""))
        return;
    if (tt->kind == TY_CONNECTION) {
        diag_error(target->loc, "a connection can only be assigned through connection "
                   "addressing: (a --> b) := ...");
        return;
    }
    if (type_is_error(vt))
        return;
    if (op == ASSIGN_SET) {
        if (!type_assignable(tt, vt))
            diag_error(value->loc, "cannot assign a value of type %s to an object of "
                       "type %s%s", vt->name, tt->name, sema_mismatch_hint(tt, vt));
        return;
    }
    /* an integral target never takes a Real: the operator's own hint
       (convert an operand to Real) cannot help, as the target stays
       integral, so name the conversion of the value */
    if (type_is_integral(tt) && vt->kind == TY_REAL) {
        diag_error(target->loc, "operator '%s' cannot be applied to %s and Real (the "
                   "object stays %s: convert the value, e.g. %s (...))",
                   ast_assign_spelling(op), tt->name, tt->name, tt->name);
        return;
    }
    Type *r = sema_binary_type(c, compound_op(op), tt, vt, target->loc,
                               ast_assign_spelling(op));
    if (!type_is_error(r) && !type_assignable(tt, r))
        diag_error(value->loc, "the result of '%s' has type %s, which cannot be "
                   "assigned to an object of type %s%s", ast_assign_spelling(op),
                   r->name, tt->name, sema_mismatch_hint(tt, r));
}

/* ReturnStmt -> RETURN [Expression] (§8.6) */
static void return_stmt(Ctx *c, Stmt *s)
{
    Expr *v = s->u.ret.value;
    bool func = ctx_is_function(c);
    if (v && !func) {
        diag_error(v->loc, "%s cannot return a value", sema_ctx_desc(c));
        sema_analyze_expr(c, v);
        return;
    }
    if (!v) {
        if (func)
            diag_error(s->loc, "RETURN in %s needs a value of type %s", sema_ctx_desc(c),
                       c->subr->sub->result->name);
        return;
    }
    sema_value_to(c, v, c->subr->sub->result, "the RETURN value");
}

/* LoopStmt -> FOR Object ":=" Expression ForLoopStep Expression REPEAT
 *             Statements [UNTIL Expression] END (§8.6) */
static void for_stmt(Ctx *c, Stmt *s)
{
    Expr *var = s->u.for_.var;
    Type *vt = sema_analyze_expr(c, var);
    bool var_ok = !type_is_error(vt);
    if (var_ok && (var->cat != VC_OBJECT || !type_is_integral(vt))) {
        diag_error(var->loc, "the FOR variable must be an integer variable%s%s",
                   var->cat == VC_OBJECT ? ", not of type " : "",
                   var->cat == VC_OBJECT ? vt->name : "");
        var_ok = false;
    } else if (var_ok) {
        var_ok = sema_check_writable(c, var, "use", " as FOR variable");
    }
    Type *ft = sema_value(c, s->u.for_.from);
    Type *tt = sema_value(c, s->u.for_.to);
    if (!type_is_error(vt) && !var_ok) {
        /* the bounds' types follow from the variable's: one message */
    } else if (!type_is_error(ft) && !type_is_integral(ft))
        diag_error(s->u.for_.from->loc, "the FOR start value must be integral, not %s",
                   ft->name);
    else if (var_ok && !type_is_error(ft) && !type_assignable(vt, ft))
        diag_error(s->u.for_.from->loc, "the FOR start value has type %s, which cannot "
                   "be assigned to the %s variable", ft->name, vt->name);
    if (!type_is_error(tt) && !type_is_integral(tt) && (var_ok || type_is_error(vt)))
        diag_error(s->u.for_.to->loc, "the FOR end value must be integral, not %s",
                   tt->name);
    /* constant bounds of an empty range: the body never runs (§8.6) */
    const Expr *f = s->u.for_.from, *t = s->u.for_.to;
    bool never = f->is_const && t->is_const && type_is_integral(ft) && type_is_integral(tt) &&
                 (s->u.for_.dir == FOR_DOWNTO ? f->const_int < t->const_int
                                               : f->const_int > t->const_int);
    c->dead += never;
    c->loop_depth++;
    sema_block(c, s->u.for_.body);
    c->loop_depth--;
    condition(c, s->u.for_.until_cond, "UNTIL");
    c->dead -= never;
}

void sema_stmt(Ctx *c, Stmt *s)
{
    switch (s->kind) {
    case STMT_ASSIGN: assignment(c, s); break;
    case STMT_INPUT: case STMT_OUTPUT: sema_io_assign(c, s); break;
    case STMT_CALL: case STMT_OBJCALL: sema_call(c, s->u.call.call, true, false); break;
    case STMT_MULTICALL:
        for (int i = 0; i < s->u.multi.calls.len; i++)
            sema_call(c, VEC_AT(s->u.multi.calls, i, Expr), true, true);
        break;
    case STMT_REDUCTION:
        sema_note_net_use(c, s->loc, "REDUCTION");
        sema_reduction(c, s);
        sema_note_store(c, s->u.reduction.into, ASSIGN_SET, NULL);
        break;
    case STMT_WTA: sema_note_net_use(c, s->loc, "WTA"); sema_wta(c, s); break;
    case STMT_RETURN: return_stmt(c, s); break;
    case STMT_IF: {
        /* after an arm whose condition is constant true, no later arm
           runs; the body of one whose condition is constant false never */
        int taken = 0;
        for (int i = 0; i < s->u.if_.arms.len; i++) {
            IfArm *arm = VEC_AT(s->u.if_.arms, i, IfArm);
            condition(c, arm->cond, i == 0 ? "IF" : "ELSIF");
            bool never = known_false(arm->cond);
            c->dead += never;
            sema_block(c, arm->body);
            c->dead -= never;
            if (known_true(arm->cond)) {
                c->dead++;
                taken++;
            }
        }
        if (s->u.if_.else_body)
            sema_block(c, s->u.if_.else_body);
        c->dead -= taken;
        break;
    }
    case STMT_LOOP: {
        condition(c, s->u.loop.while_cond, "WHILE");
        bool never = s->u.loop.while_cond && known_false(s->u.loop.while_cond);
        c->dead += never;
        c->loop_depth++;
        sema_block(c, s->u.loop.body);
        c->loop_depth--;
        condition(c, s->u.loop.until_cond, "UNTIL");
        c->dead -= never;
        break;
    }
    case STMT_FOR: for_stmt(c, s); break;
    case STMT_BREAK:
        if (c->loop_depth == 0)
            diag_error(s->loc, "BREAK outside a loop");
        break;
    case STMT_REPLICATE: sema_note_net_use(c, s->loc, "REPLICATE ME"); sema_replicate(c, s); break;
    case STMT_EXTEND: sema_note_net_use(c, s->loc, "EXTEND"); sema_extend(c, s); break;
    case STMT_CONNECT: case STMT_DISCONNECT:
        sema_note_net_use(c, s->loc, s->kind == STMT_CONNECT ? "CONNECT" : "DISCONNECT");
        sema_connect(c, s);
        break;
    case STMT_MERGE: sema_merge_stmt(c, s); break;
    default: cp_unreachable();
    }
}

bool sema_ends_in_return(const Block *b, Loc *blame)
{
    if (b->stmts.len == 0)
        return false;
    const Stmt *last = VEC_AT(b->stmts, b->stmts.len - 1, Stmt);
    if (last->kind == STMT_RETURN)
        return true;
    if (last->kind == STMT_IF && last->u.if_.else_body) {
        for (int i = 0; i < last->u.if_.arms.len; i++) {
            const IfArm *arm = VEC_AT(last->u.if_.arms, i, IfArm);
            *blame = arm->loc;
            if (!sema_ends_in_return(arm->body, blame))
                return false;
        }
        *blame = last->loc;
        return sema_ends_in_return(last->u.if_.else_body, blame);
    }
    *blame = last->loc;
    return false;
}
