/*
 * gx_overlay_dd.h: the overlay filter's certified double-double arithmetic (algorithm/gx_ddi.h) that the CPU
 * (gx_overlay_filter.c) and the GPU (cuda/gx_cuda_overlap.cu) share: value-returning operations, a triangle's
 * det(T0 - o, T1 - o, T2 - o) and its prism, and a volume's rounding. Read by nvcc too.
 */
#ifndef GX_OVERLAY_DD_H
#define GX_OVERLAY_DD_H

#include <stdbool.h>

#include "algorithm/gx_ddi.h"
#include "base/gx_hd.h"

/* a - b, exact. */
GX_HD GxDDI
gx_ov_sub_d(double a, double b)
{
	GxDDI		r = {0, 0, 0};

	gx_two_diff(a, b, &r.hi, &r.lo);
	return r;
}

GX_HD GxDDI
gx_ov_add(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_add(&r, &a, &b);
	return r;
}

GX_HD GxDDI
gx_ov_sub(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_sub(&r, &a, &b);
	return r;
}

GX_HD GxDDI
gx_ov_mul(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_mul(&r, &a, &b);
	return r;
}

GX_HD GxDDI
gx_ov_div(GxDDI a, GxDDI b)
{
	GxDDI		r;

	gx_ddi_div(&r, &a, &b);
	return r;
}

/* det(T0 - o, T1 - o, T2 - o), as gx_orient3d_value, T's 9 coordinates at T. */
GX_HD GxDDI
gx_overlay_det(const double *T, const double *o)
{
	GxDDI		r[3][3];

	for (int k = 0; k < 3; k++)
		for (int a = 0; a < 3; a++)
			r[k][a] = gx_ov_sub_d(T[3 * k + a], o[a]);
	return gx_ov_add(gx_ov_add(gx_ov_mul(r[0][0], gx_ov_sub(gx_ov_mul(r[1][1], r[2][2]), gx_ov_mul(r[1][2], r[2][1]))),
							   gx_ov_mul(r[0][1], gx_ov_sub(gx_ov_mul(r[1][2], r[2][0]), gx_ov_mul(r[1][0], r[2][2])))),
					 gx_ov_mul(r[0][2], gx_ov_sub(gx_ov_mul(r[1][0], r[2][1]), gx_ov_mul(r[1][1], r[2][0]))));
}

/*
 * 6 times the signed volume of the prism between triangle T and the plane z = o[2]: twice T's area projected
 * on (x, y), signed by its orientation, times the sum of its vertices' heights over that plane. Over a closed,
 * oriented surface these add up to det(T0 - o, T1 - o, T2 - o)'s sum (6 times the volume it bounds), with a
 * third of the products.
 */
GX_HD GxDDI
gx_overlay_prism(const double *T, const double *o)
{
	GxDDI		area = gx_ov_sub(gx_ov_mul(gx_ov_sub_d(T[3], T[0]), gx_ov_sub_d(T[7], T[1])),
								 gx_ov_mul(gx_ov_sub_d(T[6], T[0]), gx_ov_sub_d(T[4], T[1]))),
				heights = gx_ov_add(gx_ov_add(gx_ov_sub_d(T[2], o[2]), gx_ov_sub_d(T[5], o[2])),
									gx_ov_sub_d(T[8], o[2]));

	return gx_ov_mul(area, heights);
}

/*
 * The volume v / 3 rounded once into *value and its sign into *sign (v a sum of det / 2 over pieces): false
 * when the enclosure cannot decide them (not certainly zero or of one sign, or across a rounding boundary).
 */
GX_HD bool
gx_overlay_round(GxDDI v, double *value, int *sign)
{
	const GxDDI three = {3, 0, 0};

	if (gx_ddi_is_zero(&v))
	{
		*value = 0;
		*sign = 0;
		return true;
	}
	v = gx_ov_div(v, three);
	*sign = gx_ddi_sign(&v);
	return *sign != 2 && *sign != 0 && gx_ddi_round(&v, value);
}

#endif
