/*
 * gx_desurvey.h: the trace of a drill hole from its collar and downhole surveys, by the minimum-curvature
 * method: between consecutive surveys the hole follows the circular arc tangent to both survey directions.
 *
 * Conventions: x east, y north, z up (elevation); depth is measured along the hole from the collar (metres or
 * the unit of the coordinates); azimuth in degrees clockwise from north (+y), any finite value (reduced
 * modulo 360); dip in degrees from horizontal in [-90, 90], negative downward (-90 straight down), or positive
 * downward when dip_positive_down is set.
 */
#ifndef GX_DESURVEY_H
#define GX_DESURVEY_H

#include <stdbool.h>
#include <stddef.h>

#include "geom/gx_geom.h"

typedef struct GxSurvey
{
	const double *depth;		/* strictly increasing, >= 0 */
	const double *azimuth;
	const double *dip;
	size_t		n;				/* >= 1 */
} GxSurvey;

typedef struct GxDesurveyOptions
{
	bool		densify;		/* add a point on the arc at every multiple of step_m of depth */
	double		step_m;			/* > 0 when densify */
	bool		dip_positive_down;
} GxDesurveyOptions;

/*
 * The hole's trace as a LINESTRING Z with the collar's SRID: the collar (depth 0), then a vertex at every
 * survey depth (a first survey below depth 0 also gives the direction from the collar down to it), and with
 * densify, the points of the arcs at every multiple of step_m between them (none within step_m * 1e-9 of a
 * survey depth). Vertices at survey depths are the same with and without densification. Offsets from the
 * collar are summed with compensation, then added to the collar once. Bad arguments fail with GX_ERR_INVALID
 * naming the survey at fault; a trace too large for one value, GX_ERR_LIMIT. Returns NULL on failure.
 */
GxSerialized *gx_desurvey(const GxSerialized *collar, const GxSurvey *survey, const GxDesurveyOptions *opt,
						  size_t *size, GxError *err);

#endif
