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
