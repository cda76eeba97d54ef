/*
 * gx_ddi_values.h: certified double-doubles (gx_ddi.h) as values: exact differences of doubles, sums,
 * products and quotients returned, and det(T0 - o, T1 - o, T2 - o), the enclosure of gx_orient3d_value's
 * determinant. The filters that decide from enclosures share them: the cut's (gx_cut.c), the crossings with a
 * plane (gx_plane_near.c) and the overlay's volumes, on the CPU (operation/gx_overlay_filter.c) and on the GPU
 * (cuda/gx_cuda_overlap.cu). Read by nvcc too.
 */
#ifndef GX_DDI_VALUES_H
#define GX_DDI_VALUES_H

#include "algorithm/gx_ddi.h"
#include "base/gx_hd.h"

/* a - b, exact. */
GX_HD GxDDI
gx_ddv_sub_d(double a, double b)
{
	GxDDI		r = {0, 0, 0};

	gx_two_diff(a, b, &r.hi, &r.lo);
	return r;
}

GX_HD GxDDI
gx_ddv_add(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_add(&r, &a, &b);
	return r;
}

GX_HD GxDDI
gx_ddv_sub(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_sub(&r, &a, &b);
	return r;
}

GX_HD GxDDI
gx_ddv_mul(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_mul(&r, &a, &b);
	return r;
}

GX_HD GxDDI
gx_ddv_div(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_div(&r, &a, &b);
	return r;
}

/*
 * det(T0 - o, T1 - o, T2 - o), as gx_orient3d_value, T's 9 coordinates at T: the value whose sign is
 * gx_orient3d(T0, T1, T2, o).
 */
GX_HD GxDDI
gx_ddv_det(const double *T, const double *o)
{
	GxDDI		r[3][3];

	for (int k = 0; k < 3; k++)
		for (int a = 0; a < 3; a++)
			r[k][a] = gx_ddv_sub_d(T[3 * k + a], o[a]);
	return gx_ddv_add(gx_ddv_add(gx_ddv_mul(r[0][0], gx_ddv_sub(gx_ddv_mul(r[1][1], r[2][2]), gx_ddv_mul(r[1][2], r[2][1]))),
								 gx_ddv_mul(r[0][1], gx_ddv_sub(gx_ddv_mul(r[1][2], r[2][0]), gx_ddv_mul(r[1][0], r[2][2])))),
					  gx_ddv_mul(r[0][2], gx_ddv_sub(gx_ddv_mul(r[1][0], r[2][1]), gx_ddv_mul(r[1][1], r[2][0]))));
}

#endif
