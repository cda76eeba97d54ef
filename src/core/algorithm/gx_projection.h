/* gx_projection.h: the axis projection of a triangle: the axis to drop so that its 2D projection is one-to-one. */
#ifndef GX_PROJECTION_H
#define GX_PROJECTION_H

#include <stdbool.h>

/*
 * The first axis (trying 0, 1, 2 in that order) whose drop leaves triangle t (3 vertices of 3 doubles) a
 * proper triangle, with t's orientation there (gx_orient2d, exact) in *sigma; -1, *sigma 0, when t is flat.
 */
int			gx_triangle_projection(const double *t, int *sigma);

/* A triangle with collinear (or repeated) vertices, no projection one-to-one: the union of its edges. */
static inline bool
gx_triangle_flat(const double *t)
{
	int			sigma;

	return gx_triangle_projection(t, &sigma) < 0;
}

#endif
