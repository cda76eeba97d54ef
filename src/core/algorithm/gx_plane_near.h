/*
 * gx_plane_near.h: certified enclosures (gx_ddi.h) of the coordinates (t, u) in a triangle T's plane that
 * gx_plane_coords.h makes in rationals: where a segment crosses the plane. The filter of the cuts (gx_cut.c)
 * decides from them, and makes a point's rationals only where they cannot decide.
 */
#ifndef GX_PLANE_NEAR_H
#define GX_PLANE_NEAR_H

#include "algorithm/gx_ddi.h"

typedef struct GxPlaneNear
{
	const double *T;
	int			i,
				j;				/* the projection's axes, as gx_plane_coords_init's */
	GxDDI		e[2][2],		/* T1 - T0 and T2 - T0 there */
				det;			/* their cross product */
} GxPlaneNear;

/* T: 3 vertices, not flat; drop its projection (gx_triangle_projection). */
void		gx_plane_near_init(GxPlaneNear *pn, const double *T, int drop);

/*
 * Enclosures of (t, u) where segment ab, its ends strictly on either side of T's plane, crosses it (the point
 * gx_tu_of_crossing makes); infinite or NaN radii where the doubles overflow (every sign of them undecided).
 */
void		gx_near_of_crossing(const GxPlaneNear *pn, const double *a, const double *b, GxDDI *t, GxDDI *u);

#endif
