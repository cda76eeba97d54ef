/*
 * gx_volume_filter.h: the floating-point filter of the volume of a solid inside a box: the exact path's
 * clipping and integrals (gx_volume_impl.h) in certified double-doubles (gx_ddi.h), about 106 bits, so
 * that the enclosure of the exact volume almost always lies within one double's rounding cell.
 */
#ifndef GX_VOLUME_FILTER_H
#define GX_VOLUME_FILTER_H

#include "operation/gx_volume.h"

typedef enum GxVolumeVerdict
{
	GX_VOLUME_ROUNDED,			/* the exact volume is > 0 and *out is its nearest double */
	GX_VOLUME_NEAR_ZERO,		/* its enclosure holds 0 and lies below the box's own volume */
	GX_VOLUME_UNDECIDED			/* neither: decide it exactly */
} GxVolumeVerdict;

/* The filter's verdict on the volume of s inside box, some triangle's box reaching the box. */
GxVolumeVerdict gx_volume_in_box_filter(const GxSolidIndex *s, const GxBox3D *box, GxVolumeFilterWork *w,
										double *out);

/* The box's own volume, correctly rounded, when the filter can certify it (true). */
bool		gx_box_volume_filter(const GxBox3D *box, double *out);

#endif
