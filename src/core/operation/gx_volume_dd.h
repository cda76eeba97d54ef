/*
 * gx_volume_dd.h: the volume filter's arithmetic, gx_volume_impl.h over certified double-doubles
 * (gx_ddi.h), and its verdict on a sum, for the CPU (gx_volume_filter.c) and the GPU
 * (cuda/gx_cuda_volume.cu) alike: one arithmetic, one verdict. Included once by each of them.
 */
#ifndef GX_VOLUME_DD_H
#define GX_VOLUME_DD_H

#include <math.h>

#include "algorithm/gx_ddi.h"
#include "base/gx_hd.h"
#include "operation/gx_volume_filter.h"

/* The sign of a - b when the enclosures decide it; else 0, with the work marked undecided. */
GX_HD int
compare_dd(GxVolumeFilterWork *w, const GxDDI *a, const GxDDI *b)
{
	GxDDI		d;
	int			s;

	gx_ddi_sub(&d, a, b);
	s = gx_ddi_sign(&d);
	if (s != 2)
		return s;
	w->undecided = true;
	return 0;
}

#ifdef __CUDACC__
#define VOL_FN static __host__ __device__
#endif
#define VOL(name) name##_dd
#define VOL_T gx_ddi_t
#define VOL_SRC const GxDDI *
#define VOL_WORK GxVolumeFilterWork
#define VOL_INIT(x) ((void) (x))
#define VOL_CLEAR(x) ((void) (x))
#define VOL_SET(r, a) gx_ddi_set(r, a)
#define VOL_SET_D(r, d) gx_ddi_set_d(r, d)
#define VOL_SET_UI(r, n) gx_ddi_set_d(r, (double) (n))
#define VOL_ADD(r, a, b) gx_ddi_add(r, a, b)
#define VOL_SUB(r, a, b) gx_ddi_sub(r, a, b)
#define VOL_MUL(r, a, b) gx_ddi_mul(r, a, b)
#define VOL_DIV(r, a, b) gx_ddi_div(r, a, b)
#define VOL_IS_ZERO(a) gx_ddi_is_zero(a)
#define VOL_CMP(w, a, b) compare_dd(w, a, b)
#include "operation/gx_volume_impl.h"

/* Coordinates beyond 2^200 could overflow the products (the exact path takes them). */
#define GX_VOLUME_FILTER_RANGE 0x1p200

GX_HD bool
volume_dd_in_range(const GxBox3D *b)
{
	return fmax(fmax(fabs(b->xmin), fabs(b->xmax)), fmax(fmax(fabs(b->ymin), fabs(b->ymax)),
														 fmax(fabs(b->zmin), fabs(b->zmax)))) <=
		GX_VOLUME_FILTER_RANGE;
}

/*
 * The verdict on w->sum, six times the volume inside box as column sums add it up (w->undecided when a
 * comparison was not certain): the rounded volume when its enclosure is positive and within one rounding
 * cell, NEAR_ZERO when the enclosure holds 0 and all of it lies below the box's own volume.
 */
VOL_FN GxVolumeVerdict
volume_verdict_dd(GxVolumeFilterWork *w, const GxBox3D *box, double *out)
{
	Bounds_dd	b;
	gx_ddi_t	six,
				v,
				whole,
				tmp;
	int			sign;

	if (w->undecided)
		return GX_VOLUME_UNDECIDED;
	gx_ddi_set_d(six, 6);
	gx_ddi_div(v, w->sum, six);
	sign = gx_ddi_sign(v);
	if (sign == 1)
		return gx_ddi_round(v, out) ? GX_VOLUME_ROUNDED : GX_VOLUME_UNDECIDED;
	if (sign == -1)
		return GX_VOLUME_UNDECIDED;	/* cannot be: a volume is >= 0 */
	/* the enclosure holds 0: is all of it below the box's own volume? */
	bounds_init_dd(&b, box);
	box_volume_dd(&b, whole, tmp);
	if ((gx_ddi_mag(v) + v->rad) * GX_DDI_UP < (whole->hi - fabs(whole->lo) - whole->rad * GX_DDI_UP) * (1 - 0x1p-50))
		return GX_VOLUME_NEAR_ZERO;
	return GX_VOLUME_UNDECIDED;
}

#endif
