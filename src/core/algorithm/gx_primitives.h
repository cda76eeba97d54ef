/*
 * gx_primitives.h: exact intersection test of two closed elements: points (kind 1: 3 doubles), segments
 * (kind 2: 2 points, 6 contiguous doubles) and triangles (kind 3: 3 points, 9 contiguous doubles, as
 * surfaces). Touching counts as intersecting. Degenerate input is reduced to what it is: a zero-length
 * segment to its point, a triangle with collinear or repeated vertices to the segment or point it covers.
 * Every decision is a sign of orient3d/orient2d (exact, gx_predicates.h) or a coordinate comparison;
 * the algorithms are in gx_primitives_impl.h, shared with the GPU.
 */
#ifndef GX_PRIMITIVES_H
#define GX_PRIMITIVES_H

#include <stdbool.h>

bool		gx_elements_intersect(const double *a, int ka, const double *b, int kb);

/*
 * gx_elements_intersect of triangles t and u whose orientations are known: du[i] the sign of
 * gx_orient3d(t0, t1, t2, u_i), dt[i] that of gx_orient3d(u0, u1, u2, t_i).
 */
bool		gx_triangles_intersect_signed(const double *t, const double *u, const int du[3], const int dt[3]);

#endif
