/*
 * gx_plane_side.h: the side of a triangle's plane that points lie on, for many points against one triangle:
 * Shewchuk's orient3d filter with the triangle's half done once, the exact predicate where it cannot decide.
 * det | e1 ; e2 ; p - a | (e1 = b - a, e2 = c - a, rounded) expanded along its last row has his evaluation's
 * shape, so his bound on its error holds while nothing overflows and underflow stays far below the bound: e1
 * and e2 in his filter's range (their products at least 2^-640 or 0), the permanent between 2^-600 and 2^900
 * (a product of p - a that underflows errs by 2^-1074 at most).
 */
#ifndef GX_PLANE_SIDE_H
#define GX_PLANE_SIDE_H

#include <math.h>
#include <stdbool.h>

#include "algorithm/gx_orient.h"
#include "algorithm/gx_predicates.h"

typedef struct GxPlaneSide
{
	const double *a;			/* the triangle */
	double		n[3],			/* e1 x e2 */
				np[3];			/* its permanent's terms */
	bool		ok;				/* e1 and e2 in the filter's range */
} GxPlaneSide;

static inline void
gx_plane_side_init(GxPlaneSide *pl, const double *a)
{
	double		e[2][3];

	pl->a = a;
	pl->ok = true;
	for (int k = 0; k < 3; k++)
	{
		e[0][k] = a[3 + k] - a[k];
		e[1][k] = a[6 + k] - a[k];
		pl->ok &= gx_in_range(e[0][k], GX_FILTER3_LO, GX_FILTER3_HI) &&
			gx_in_range(e[1][k], GX_FILTER3_LO, GX_FILTER3_HI);
	}
	for (int k = 0; k < 3; k++)
	{
		double		x = e[0][(k + 1) % 3] * e[1][(k + 2) % 3],
					y = e[0][(k + 2) % 3] * e[1][(k + 1) % 3];

		pl->n[k] = x - y;
		pl->np[k] = fabs(x) + fabs(y);
	}
}

/* +1 when p lies above the plane (on its normal's side), -1 below, 0 on it: -gx_orient3d. */
static inline int
gx_plane_side(const GxPlaneSide *pl, const double *p)
{
	double		d[3] = {p[0] - pl->a[0], p[1] - pl->a[1], p[2] - pl->a[2]},
				h = d[0] * pl->n[0] + d[1] * pl->n[1] + d[2] * pl->n[2],
				perm = fabs(d[0]) * pl->np[0] + fabs(d[1]) * pl->np[1] + fabs(d[2]) * pl->np[2],
				bound = GX_O3D_ERRBOUND_A * perm;

	if (pl->ok && perm > 0x1p-600 && perm < 0x1p900 && (h > bound || -h > bound))
		return h > 0 ? 1 : -1;
	return -gx_orient3d(pl->a, pl->a + 3, pl->a + 6, p);
}

#endif
