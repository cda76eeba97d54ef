/*
 * gx_facets.h: the flat parts of a surface of triangles: the triangle across each edge (its ends matched by
 * their coordinates, points ordered by them), and facets (coplanar triangles joined across shared edges), which
 * the booleans cut as one polygon each (gx_boolean.h).
 */
#ifndef GX_FACETS_H
#define GX_FACETS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/gx_error.h"

/* Points in the order of their coordinates, x first: -1, 0 (equal) or 1. */
int			gx_point_cmp(const double *p, const double *q);

/*
 * The n triangles at tri (9 doubles each), their edges matched by their ends' coordinates: across[3 i + k] is
 * the triangle across triangle i's edge from its vertex k to k + 1, -1 when none. false with err set
 * (GX_ERR_INVALID) when an edge is shared by more than two triangles or run the same way by its two (the
 * triangles are not oriented consistently), or without memory.
 */
bool		gx_facets_adjacency(const double *tri, size_t n, long *across, GxError *err);

/*
 * The facets of the n triangles at tri (none flat, oriented consistently): triangles joined across shared edges
 * where the far vertex of one lies exactly in the other's plane, each facet at most max_tri triangles and
 * max_weight of weight (per triangle) in all (the first joins in the order of the triangles win). facet[i] is
 * a triangle of i's facet, the same for all of it. false with err set as gx_facets_adjacency.
 */
bool		gx_facets(const double *tri, size_t n, const size_t *weight, size_t max_tri, size_t max_weight,
					  size_t *facet, GxError *err);

#endif
