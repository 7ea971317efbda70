/* ast_walk.h -- a walk over every child of every statement and expression.
 *
 * The analyses that only collect something from a subroutine body (the
 * subroutines it calls, whether it replicates ME) use this walk instead of
 * a switch of their own over every kind, so that no child -- an EXTEND
 * count, a CONNECT subscript, a FOR variable's index -- can be missed by
 * one of them.  The callbacks run before the children, in source order. */
#ifndef CUPITC_AST_WALK_H
#define CUPITC_AST_WALK_H

#include "cupitc/ast.h"

typedef struct AstWalk AstWalk;
struct AstWalk {
    void (*expr)(AstWalk *w, Expr *e); /* NULL: nothing to do per expression */
    void (*stmt)(AstWalk *w, Stmt *s); /* NULL: nothing to do per statement */
};
/* Embed AstWalk as the first member of the walk's own state and cast the
 * callback's argument back to it. */

/* The locals' initializers, then the statements; NULL is an empty block. */
void ast_walk_block(AstWalk *w, Block *b);
void ast_walk_stmt(AstWalk *w, Stmt *s);
void ast_walk_expr(AstWalk *w, Expr *e); /* NULL: nothing */

/* Calls f (cx, child) for each direct child of e that is an expression, in
 * evaluation order (a child may be NULL).  For the walks that need an
 * order or a state of their own (the central agent's flow analysis, the
 * search for network calls) and so cannot use AstWalk: they handle a
 * node's own meaning and leave its children to this, so that none is
 * missed. */
typedef void (*AstChildFn)(void *cx, Expr *child);
void ast_expr_children(Expr *e, AstChildFn f, void *cx);

#endif
