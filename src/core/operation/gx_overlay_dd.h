/*
 * gx_overlay_dd.h: what the overlay filter's certified double-doubles (algorithm/gx_ddi_values.h) make that
 * the CPU (gx_overlay_filter.c) and the GPU (cuda/gx_cuda_overlap.cu) share: a triangle's prism and a
 * volume's rounding. Read by nvcc too.
 */
#ifndef GX_OVERLAY_DD_H
#define GX_OVERLAY_DD_H

#include <stdbool.h>

#include "algorithm/gx_ddi_values.h"
#include "base/gx_hd.h"

/*
 * 6 times the signed volume of the prism between triangle T and the plane z = o[2]: twice T's area projected
 * on (x, y), signed by its orientation, times the sum of its vertices' heights over that plane. Over a closed,
 * oriented surface these add up to det(T0 - o, T1 - o, T2 - o)'s sum (6 times the volume it bounds), with a
 * third of the products.
 */
GX_HD GxDDI
gx_overlay_prism(const double *T, const double *o)
{
	GxDDI		area = gx_ddv_sub(gx_ddv_mul(gx_ddv_sub_d(T[3], T[0]), gx_ddv_sub_d(T[7], T[1])),
								 gx_ddv_mul(gx_ddv_sub_d(T[6], T[0]), gx_ddv_sub_d(T[4], T[1]))),
				heights = gx_ddv_add(gx_ddv_add(gx_ddv_sub_d(T[2], o[2]), gx_ddv_sub_d(T[5], o[2])),
									gx_ddv_sub_d(T[8], o[2]));

	return gx_ddv_mul(area, heights);
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
	v = gx_ddv_div(v, three);
	*sign = gx_ddi_sign(&v);
	return *sign != 2 && *sign != 0 && gx_ddi_round(&v, value);
}

#endif
