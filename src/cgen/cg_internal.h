/* cg_internal.h -- state shared by the code generator's files.
 *
 * cg_program.c drives the generation and emits subroutines, cg_types.c the
 * C types and initializers, cg_net.c the network shapes (groups, bundles,
 * descriptors), cg_expr.c expressions and objects, cg_stmt.c statements and
 * the parallel constructs. */
#ifndef CUPITC_CG_INTERNAL_H
#define CUPITC_CG_INTERNAL_H

#include <stdbool.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/cgen.h"
#include "cupitc/emit.h"
#include "cupitc/lower.h"
#include "cupitc/sema.h"

/* Network shapes come from the lowering pass (lower.h). */
typedef LowerBundle CgBundle;
typedef LowerNet CgNet;

/* The subroutine whose body is being emitted. */
typedef struct CgFn {
    Symbol *subr;
    SubrContext ctx;
    CgNet *net;         /* NetP/NetF and node instances: the network type */
    int group;          /* node instances: the group ME belongs to */
    int bundle;         /* connection lane code: the bundle it runs on, else -1 */
    Type *me_type;      /* type of ME, if any */
    bool merge_inst;    /* an object subroutine run from a MERGE procedure (cg_merge_calls.c) */
} CgFn;

/* A node X.g[i] named in the central agent of a program with lane blocks
 * (cg_ca_node): C expressions for its network, replicate and index (the
 * index refers to the network as n_). */
typedef struct CgCaNode {
    const char *net, *rep, *idx;
    int g;
    Type *node;
} CgCaNode;

enum { CG_MAX_ARG_TEMPS = 16 };

typedef struct Cg Cg;
/* cg_merge_calls.c: object subroutines that MERGE procedures call */
bool cg_in_merge(const Cg *cg);
const char *cg_merge_call(Cg *cg, Expr *call);
void cg_merge_calls_collect(Cg *cg);
void cg_emit_merge_prototypes(Cg *cg);
void cg_emit_merge_bodies(Cg *cg);
bool cg_merge_has_calls(Cg *cg, const Type *t);
const char *cg_params(Cg *cg, Symbol *s, const char *prefix);
const char *cg_result(Cg *cg, Symbol *s);

struct Cg {
    Program *prog;
    SemaInfo *si;
    Arena *arena;
    CgOptions opts;
    LowerPlan *plan;    /* network shapes and the lane plan */
    Emitter *out;
    CgFn *fn;
    int tmp;            /* counter for fresh temporaries */
    bool failed;
    const char *line_file; /* source name, escaped for #line */
    bool lane;          /* emitting lane code (cg_lanes.c) */
    void *lane_masks;   /* lane code: the stack of active masks */
    PtrVec hoist_exprs; /* lane code: object function calls already emitted */
    PtrVec hoist_names; /* ... and the lane arrays holding their results */
    /* lane code: a lazy value being emitted (cg_lazy_value): the parameters
       of lazy_proc come from the slots of lazy_node, ME is lazy_me */
    const Symbol *lazy_proc;
    const char *lazy_node;
    int lazy_slot;
    const char *lazy_me;
    const char *lazy_ms; /* ... and ME's shared record */
    bool conn_deletion; /* some connection procedure deletes its ME */
    PtrVec may_topo;    /* Symbol* object subroutines that may request
                           topology changes (directly or through calls) */
    const char *arg_temps[CG_MAX_ARG_TEMPS]; /* cg_args: arguments replaced by
                                                temporaries, or NULL */
    PtrVec merge_callees; /* Symbol* object subroutines MERGE procedures call */
};

/* ---- cg_program.c ---- */
const char *cg_fmt(Cg *cg, const char *f, ...) __attribute__((format(printf, 2, 3)));
/* A string built by appending (argument and parameter lists): linear in
 * its final length, where s = cg_fmt ("%s, %s", s, x) in a loop copies the
 * whole list at every step. */
typedef struct CgStr {
    char *buf;
    size_t len, cap;
} CgStr;
void cg_str_add(Cg *cg, CgStr *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *cg_str_get(const CgStr *s); /* "" while empty */
const char *cg_fresh(Cg *cg, const char *stem);
const char *cg_pos(Cg *cg, Loc loc); /* an rt_srcpos compound literal */
void cg_line(Cg *cg, Loc loc);       /* #line for the lines that follow */
void cg_no_line(Cg *cg);             /* boilerplate: no #line */
const char *cg_global_call(Cg *cg, Symbol *f, PtrVec *args);
void cg_unsupported(Cg *cg, Loc loc, const char *what);
bool cg_may_topo(Cg *cg, Symbol *subr);

/* ---- cg_types.c ---- */
const char *cg_ctype(Cg *cg, const Type *t);      /* C type of a value */
const char *cg_cident(Cg *cg, const char *name);  /* keyword-safe C name */
const char *cg_field(Cg *cg, const Symbol *elem); /* struct field name */
const char *cg_local(Cg *cg, const Symbol *sym);  /* local/param C name */
const char *cg_global(Cg *cg, const Symbol *sym); /* global object name */
const char *cg_subr_name(Cg *cg, const Symbol *subr);
bool cg_is_builtin(Cg *cg, const Symbol *subr); /* inline standard arithmetic */
const char *cg_node_fn_name(Cg *cg, CgNet *net, int group, const Symbol *subr);
const char *cg_init_fn_name(Cg *cg, const Type *t);
bool cg_type_has_init(Cg *cg, const Type *t);
void cg_emit_types(Cg *cg);
bool cg_has_lanes(const Type *t);                  /* node, connection, network */
const char *cg_lane_type(Cg *cg, const Type *t);   /* cpV_T */
/* The elements of t that every replicate holds equal (lower.h) live in a
 * shared record cpS_T next to the lane record; false when t has none. */
bool cg_has_shared(Cg *cg, const Type *t);
const char *cg_shared_type(Cg *cg, const Type *t); /* cpS_T */
const char *cg_lane_offset(Cg *cg, const Type *t, const Symbol *elem);
const char *cg_lane_desc(Cg *cg, const Type *t);   /* rt_lane_desc initializer */
void cg_emit_type_inits(Cg *cg);
/* Statements that initialize object `lv` (a C lvalue) of type t with the
 * type's element initializers. */
void cg_emit_default_init(Cg *cg, const Type *t, const char *lv);

/* ---- cg_net.c ---- */
CgNet *cg_net_of(Cg *cg, const Type *net_type);
int cg_group_index(CgNet *net, const Symbol *elem);
int cg_bundle_index(CgNet *net, int src_group, const Symbol *src_iface,
                    int dst_group, const Symbol *dst_iface);
void cg_emit_net_descs(Cg *cg);
/* cg_fields.c: rt_field tables of node, connection and network types */
void cg_emit_field_tables(Cg *cg);
const char *cg_fields_init(Cg *cg, const Type *t); /* ".fields = ..., .nfields = ..." */
const char *cg_desc_name(Cg *cg, const CgNet *net);

/* ---- cg_expr.c ---- */
const char *cg_expr(Cg *cg, Expr *e);
/* The expression converted to type `to` (integer widening, or identity). */
const char *cg_expr_as(Cg *cg, Expr *e, const Type *to);
const char *cg_lvalue(Cg *cg, Expr *e);
const char *cg_real_literal(Cg *cg, double v);
const char *cg_string_literal(Cg *cg, const char *bytes, int len);
/* Network object `e` (a network variable, net[i], or ME in network code):
 * its rt_net pointer expression, and replicate expression (NULL = all). */
void cg_net_object(Cg *cg, Expr *e, const char **net, const char **rep, CgNet **cgnet);
/* Argument list "a, b, c" for a call of subr with args. */
const char *cg_args(Cg *cg, Symbol *subr, PtrVec *args, const char *prefix);
bool cg_ca_node(Cg *cg, Expr *obj, CgCaNode *out);

/* ---- cg_lanes.c ---- */
bool cg_has_lane_version(const Symbol *s);
const char *cg_lane_fn_name(Cg *cg, const Symbol *s, CgNet *net, int group);
const char *cg_lane_signature(Cg *cg, const Symbol *s, CgNet *net, int group);
const char *cg_lane_hoisted(Cg *cg, const Expr *e);
/* A parameter that a slot can hold: a CONST simple value. */
bool cg_slot_param(const Symbol *p);
/* The slot element holding parameter `param` of the interface call with
 * slot number `slot`: z<slot>_<param>. */
const char *cg_slot_field(Cg *cg, int slot, const Symbol *param);
/* The value a lazy read of bundle b recomputes, as an expression in lane l:
 * `conn` is the connection's lane record, `k` its index. */
const char *cg_lazy_value(Cg *cg, const LazyWriter *w, int b, const char *k,
                          const char *conn, const char *conn_shared);
void cg_emit_lane_prototype(Cg *cg, Symbol *s, CgNet *net, int group);
void cg_emit_lane_body(Cg *cg, Symbol *s, CgNet *net, int group);
const char *cg_lane_merge_name(Cg *cg, const Type *t);
const char *cg_lane_fold_name(Cg *cg, const Type *t);
/* Whether element e of t is an array over the lanes in t's lane record. */
bool cg_lane_array_elem(Cg *cg, const Type *t, const Symbol *e);
void cg_emit_lane_merge(Cg *cg, Symbol *merge);

/* ---- cg_stmt.c ---- */
void cg_block(Cg *cg, Block *b);
/* X[] / X[a...b] / X (a bare collection) -> the collection and its interval */
void cg_split_multi(Expr *pv, Expr **base, Expr **range);
bool cg_open_conn_loop(Cg *cg, int b, const Symbol *ifc, const char *k);
void cg_close_conn_loop(Cg *cg);
const char *cg_compound_rhs(Cg *cg, Stmt *s, const char *cur);
void cg_locals(Cg *cg, Block *b);
void cg_declare_locals(Cg *cg, Block *b);

#endif
