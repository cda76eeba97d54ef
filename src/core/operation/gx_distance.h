/*
 * gx_distance.h: exact Euclidean distance between geometries (closed point sets), for gx_dwithin,
 * gx_distance and gx_shortestline.
 *
 * The minimum over element pairs, with the pairs culled by their boxes (a grid over boxes
 * expanded by the search radius), the filter deciding what it can and GMP the rest. A solid is its volume:
 * a geometry inside it is at distance 0.
 */
#ifndef GX_DISTANCE_H
#define GX_DISTANCE_H

#include "algorithm/gx_elem_distance.h"
#include "geom/gx_geom.h"

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
