/*
 * gx_elem_distance.h: exact Euclidean distance between two elements (points, segments, triangles as in
 * gx_primitives.h, degenerate ones reduced to what they cover): the exact closest pair, with the squared
 * distance and both points as GMP rationals (every closest-point parameter is a rational function of the
 * input doubles), and a floating-point filter giving certified bounds lo <= d2 <= hi on the squared distance.
 */
#ifndef GX_ELEM_DISTANCE_H
#define GX_ELEM_DISTANCE_H

#include <gmp.h>

#include "algorithm/gx_elements.h"

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

/* Are elements a and b within distance d (finite, >= 0)? GMP alone: the exact d2 against d * d. */
bool		gx_elem_dwithin_exact(GxElem a, GxElem b, double d);

/* Are elements a and b within distance d (finite, >= 0)? The filter bounds first, then GMP. */
bool		gx_elem_dwithin(GxElem a, GxElem b, double d);

#endif
