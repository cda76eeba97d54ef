/*
 * gx_distance.h: exact Euclidean distance between geometries (closed point sets), for gx_dwithin,
 * gx_distance and gx_shortestline.
 *
 * Element level: the exact closest pair of two elements (points, segments, triangles as in
 * gx_primitives.h, degenerate ones reduced to what they cover), with the squared distance and both points
 * as GMP rationals (every closest-point parameter is a rational function of the input doubles); and a
 * floating-point filter giving certified bounds lo <= d2 <= hi on the squared distance.
 * Geometry level: the minimum over element pairs, with the pairs culled by their boxes (a grid over boxes
 * expanded by the search radius), the filter deciding what it can and GMP the rest. A solid is its volume:
 * a geometry inside it is at distance 0.
 */
#ifndef GX_DISTANCE_H
#define GX_DISTANCE_H

#include <gmp.h>

#include "gx_elements.h"
#include "gx_geom.h"

typedef struct GxClosest
{
	mpq_t		d2;				/* squared distance */
	mpq_t		pa[3];			/* a closest point on the first element or geometry */
	mpq_t		pb[3];			/* and its partner on the second: |pa - pb|^2 = d2 */
} GxClosest;

void		gx_closest_init(GxClosest *c);
void		gx_closest_clear(GxClosest *c);

/* Exact closest pair of two elements; intersecting elements give d2 = 0 and pa = pb, a common point. */
void		gx_elem_closest(GxElem a, GxElem b, GxClosest *out);

/* Certified bounds on the squared distance of two elements: *lo <= d2 <= *hi (no GMP). */
void		gx_elem_dist2_bounds(GxElem a, GxElem b, double *lo, double *hi);

/*
 * The filter alone for "within d", d^2 rounded down and up in d2_lo and d2_hi: 1, 0, or -1 (open). The GPU
 * engine decides the very same way (gx_distance_filter_impl.h).
 */
int			gx_elem_dwithin_filter(GxElem a, GxElem b, double d2_lo, double d2_hi);

/* Are elements a and b within distance d (finite, >= 0)? The filter bounds first, then GMP. */
bool		gx_elem_dwithin(GxElem a, GxElem b, double d);

/*
 * Is the distance between a and b at most d? 1 or 0; -1 with err set on mixed SRIDs, allocation
 * failure or a failed point location in a solid. EMPTY is within no distance of anything; a negative or NaN d gives 0, +inf gives 1.
 */
int			gx_dwithin(const GxSerialized *a, const GxSerialized *b, double d, GxError *err);

/*
 * Exact closest pair of geometries a and b: 1 with out initialised and set (the caller clears it), or 0
 * when either is EMPTY; -1 with err set on mixed SRIDs or allocation failure (out untouched then). The
 * interruptible part (gx_check_interrupts) runs before any GMP value exists, so an interrupt leaks none.
 */
int			gx_closest(const GxSerialized *a, const GxSerialized *b, GxClosest *out, GxError *err);

#endif
