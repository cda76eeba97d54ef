/*
 * gx_volume_filter.h: the floating-point filter of the volume of a solid inside a box: the exact path's
 * clipping and integrals (gx_volume_impl.h) in certified double-doubles (gx_ddi.h), about 106 bits, so
 * that the enclosure of the exact volume almost always lies within one double's rounding cell. The GPU
 * runs the same (gx_volume_dd.h); this header is read by nvcc too.
 */
#ifndef GX_VOLUME_FILTER_H
#define GX_VOLUME_FILTER_H

#include <stdbool.h>

#include "algorithm/gx_ddi.h"
#include "geom/gx_box.h"
#include "solid/gx_solid.h"

/* The filter's scratch of one thread: the same clipping in certified double-doubles (gx_ddi.h). */
typedef struct GxVolumeFilterWork
{
	gx_ddi_t	poly[3][12][3];
	gx_ddi_t	t,
				u,
				v,
				f,
				sum;
	bool		undecided;		/* a comparison could not be decided */
} GxVolumeFilterWork;

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

/*
 * Whether the filter takes the volume of a solid whose box is solid_box inside box (coordinates small
 * enough that no product overflows; the exact path takes the others).
 */
bool		gx_volume_filter_in_range(const GxBox3D *solid_box, const GxBox3D *box);

#endif
