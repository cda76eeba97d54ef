/*
 * gx_volume_filter.c: the volume of a solid inside a box in certified double-doubles (gx_volume_filter.h):
 * the column sum of gx_volume_dd.h over the triangles the solid's index finds, read as a rounded volume, a
 * possible 0, or undecided.
 */
#include <math.h>

#include "operation/gx_volume_dd.h"
#include "operation/gx_volume_filter.h"

bool
gx_volume_filter_in_range(const GxBox3D *solid_box, const GxBox3D *box)
{
	return volume_dd_in_range(solid_box) && volume_dd_in_range(box);
}

bool
gx_box_volume_filter(const GxBox3D *box, double *out)
{
	Bounds_dd	b;
	gx_ddi_t	v,
				tmp;

	if (!volume_dd_in_range(box))
		return false;
	bounds_init_dd(&b, box);
	box_volume_dd(&b, v, tmp);
	bounds_clear_dd(&b);
	return gx_ddi_round(v, out);
}

GxVolumeVerdict
gx_volume_in_box_filter(const GxSolidIndex *s, const GxBox3D *box, GxVolumeFilterWork *w, double *out)
{
	Bounds_dd	b;

	if (!gx_volume_filter_in_range(&s->box, box))
		return GX_VOLUME_UNDECIDED;
	w->undecided = false;
	bounds_init_dd(&b, box);
	column_sum_dd(w, s, box, &b);
	bounds_clear_dd(&b);
	return volume_verdict_dd(w, box, out);
}
