/*
 * gx_join.h: the batched custom join (CustomScan over two child plans) that replaces a nested loop on
 * gx_intersects(outer_expr, inner_expr) or gx_dwithin(outer_expr, inner_expr, distance) (distance over
 * neither side: a constant or a parameter): the inner side is gathered once, the outer side in batches of
 * gpuexact.join_batch_rows rows, each batch run through the engine (GPU or CPU), then joined tuples emitted.
 *
 * Plan layout: custom_plans = (outer, inner); custom_scan_tlist = outer plan's tlist followed by the
 * inner plan's (the scan tuple is their concatenation); custom_exprs = (outer_expr, inner_expr,
 * joinquals, distance or NULL); custom_private = (jointype, number of outer columns). Inner and semi joins: the other
 * clauses are the plan's qual. Left and anti joins: joinquals are the other clauses of the ON (which pairs
 * match), the plan's qual those pushed down to the join (which output rows pass).
 */
#ifndef GX_JOIN_H
#define GX_JOIN_H

#include "postgres.h"
#include "nodes/extensible.h"

extern const CustomScanMethods gx_join_scan_methods;

/* Installs the planner hook (from _PG_init). */
void		gx_join_init(void);

/* Installs the hook that judges JIT on a plan's cost less the engine's work (gx_join_jit.c). */
void		gx_join_jit_init(void);

/* The executor's node (gx_join_exec.c). */
Node	   *gx_join_create_state(CustomScan *cscan);

#endif
