/* gx_projection.c: the axis projection of a triangle (gx_projection.h), by exact gx_orient2d over the three drops. */
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_projection.h"

int
gx_triangle_projection(const double *t, int *sigma)
{
	for (int drop = 0; drop < 3; drop++)
		if ((*sigma = gx_orient2d(t, t + 3, t + 6, drop)) != 0)
			return drop;
	return -1;
}
