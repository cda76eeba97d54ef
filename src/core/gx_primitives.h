/*
 * gx_primitives.h: exact intersection tests between closed elements: points (3 doubles), segments
 * (2 points, 6 contiguous doubles) and triangles (3 points, 9 contiguous doubles, as surfaces).
 * Touching counts as intersecting. Degenerate input is reduced to what it is: a zero-length segment to
 * its point, a triangle with collinear or repeated vertices to the segment or point it covers.
 * Every decision is a sign of orient3d/orient2d (exact, gx_predicates.h) or a coordinate comparison.
 */
#ifndef GX_PRIMITIVES_H
#define GX_PRIMITIVES_H

#include <stdbool.h>

bool		gx_point_point(const double *p, const double *q);
bool		gx_point_segment(const double *p, const double *s);
bool		gx_point_triangle(const double *p, const double *t);
bool		gx_segment_segment(const double *s, const double *u);
bool		gx_segment_triangle(const double *s, const double *t);
bool		gx_triangle_triangle(const double *t, const double *u);

#endif
