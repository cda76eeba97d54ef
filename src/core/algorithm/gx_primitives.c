/* gx_primitives.c: the element tests of gx_primitives_impl.h on the CPU, with the full exact ladder. */
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_primitives.h"

#define GXP_ORIENT3D gx_orient3d
#define GXP_ORIENT2D gx_orient2d
#include "algorithm/gx_primitives_impl.h"

bool
gx_elements_intersect(const double *a, int ka, const double *b, int kb)
{
	return gxp_elements(a, ka, b, kb) == 1;
}

bool
gx_triangles_intersect_signed(const double *t, const double *u, const int du[3], const int dt[3])
{
	if (!gxp_boxes_overlap(t, 3, u, 3) || (du[0] * du[1] > 0 && du[1] * du[2] > 0) ||
		(dt[0] * dt[1] > 0 && dt[1] * dt[2] > 0))
		return false;
	return gxp_triangle_triangle_signed(t, u, du, dt) == 1;
}
