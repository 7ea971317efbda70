/* cg_net.c -- the static shape of each network type (computed by the
 * lowering pass, lower/shape.c), emitted as rt_net_desc tables. */
#include <string.h>

#include "cg_internal.h"

CgNet *cg_net_of(Cg *cg, const Type *net_type)
{
    return lower_net_of(cg->plan, net_type);
}

int cg_group_index(CgNet *net, const Symbol *elem)
{
    return lower_group_index(net, elem);
}

int cg_bundle_index(CgNet *net, int src_group, const Symbol *src_iface, int dst_group,
                    const Symbol *dst_iface)
{
    return lower_bundle_index(net, src_group, src_iface, dst_group, dst_iface);
}

const char *cg_desc_name(Cg *cg, const CgNet *net)
{
    return arena_printf(cg->arena, "cpD_%s", net->type->name);
}

static const char *fn_or_null(Cg *cg, const Type *t)
{
    return cg_type_has_init(cg, t) ? cg_init_fn_name(cg, t) : "NULL";
}

static const char *merge_or_null(Cg *cg, const Type *t)
{
    return t->merge ? cg_subr_name(cg, t->merge) : "NULL";
}

void cg_emit_net_descs(Cg *cg)
{
    Emitter *o = cg->out;
    emit_directive(o, "/* ===== network shapes ===== */");
    for (int i = 0; i < lower_net_count(cg->plan); i++) {
        CgNet *n = lower_net_at(cg->plan, i);
        const char *d = cg_desc_name(cg, n);
        if (n->groups.len) {
            emit_open(o, "static const rt_group_desc %s_groups[] =", d);
            for (int g = 0; g < n->groups.len; g++) {
                Symbol *gs = VEC_AT(n->groups, g, Symbol);
                Type *node = type_node_of(gs->type);
                bool arr = gs->type->kind == TY_ARRAY;
                emit(o, "{.name = \"%s\", .node_size = sizeof(%s), .init = %s, .merge = %s, "
                        ".is_array = %s, .array_size = %lld, .lane = %s, %s},",
                     gs->name, cg_ctype(cg, node), fn_or_null(cg, node), merge_or_null(cg, node),
                     arr ? "true" : "false", arr ? (long long)type_node_count(gs->type) : 0LL,
                     cg_lane_desc(cg, node), cg_fields_init(cg, node));
            }
            emit_close(o, ";");
        }
        if (n->nbundles) {
            emit_open(o, "static const rt_bundle_desc %s_bundles[] =", d);
            for (int b = 0; b < n->nbundles; b++) {
                CgBundle *bu = &n->bundles[b];
                emit(o, "{.src_group = %d, .src_iface = %d, .dst_group = %d, .dst_iface = %d, "
                        ".conn_size = sizeof(%s), .init = %s, .merge = %s, .lane = %s, %s}, "
                        "/* %s.%s -> %s.%s */",
                     bu->src_group, bu->src_iface->index, bu->dst_group,
                     bu->dst_iface->index, cg_ctype(cg, bu->conn), fn_or_null(cg, bu->conn),
                     merge_or_null(cg, bu->conn), cg_lane_desc(cg, bu->conn),
                     cg_fields_init(cg, bu->conn),
                     VEC_AT(n->groups, bu->src_group, Symbol)->name, bu->src_iface->name,
                     VEC_AT(n->groups, bu->dst_group, Symbol)->name, bu->dst_iface->name);
            }
            emit_close(o, ";");
        }
        emit_open(o, "static const rt_net_desc %s =", d);
        emit(o, ".name = \"%s\", .net_size = sizeof(%s), .init = %s, .merge = %s,",
             n->type->name, cg_ctype(cg, n->type), fn_or_null(cg, n->type),
             merge_or_null(cg, n->type));
        emit(o, ".ngroups = %d, .groups = %s,", n->groups.len,
             n->groups.len ? arena_printf(cg->arena, "%s_groups", d) : "NULL");
        emit(o, ".nbundles = %d, .bundles = %s,", n->nbundles,
             n->nbundles ? arena_printf(cg->arena, "%s_bundles", d) : "NULL");
        emit(o, ".lanes = %s, .lane = %s,", cg->opts.lanes ? "true" : "false",
             cg_lane_desc(cg, n->type));
        emit(o, "%s,", cg_fields_init(cg, n->type));
        emit_close(o, ";");
        emit(o, "%s", "");
    }
}
