/*
 * gx_selectivity.h: selectivity of the box operators and of gx_intersects, from the box statistics that
 * ANALYZE stores for gxgeom columns (gx_analyze.c, model in src/core/index/gx_boxstats.h).
 */
#ifndef GX_SELECTIVITY_H
#define GX_SELECTIVITY_H

#include "postgres.h"
#include "nodes/pathnodes.h"

/* The pg_statistic slot kind of gxgeom box statistics (a code from the range left for private use). */
#define GX_STATISTIC_KIND_BOXES 17813
/* ... and of the mean elements (segments, triangles, points) of a value that is not NULL: one float8 */
#define GX_STATISTIC_KIND_ELEMENTS 17814

/* Fraction of the rows of the variable side of args (a two-argument clause) that the clause keeps. */
Selectivity gx_restriction_selectivity(PlannerInfo *root, List *args, int varRelid);

/* Fraction of the pairs (for semi and anti joins: of the outer rows) that the join clause args keeps. */
Selectivity gx_join_selectivity(PlannerInfo *root, List *args, JoinType jointype, SpecialJoinInfo *sjinfo);

/*
 * Mean elements of a value of expr, when it is not NULL: from the column's statistics, a constant's own
 * value; -1 when unknown.
 */
double		gx_expr_elements(PlannerInfo *root, Node *expr);

#endif
