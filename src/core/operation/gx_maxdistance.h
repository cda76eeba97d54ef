/*
 * gx_maxdistance.h: the exact largest distance between two geometries (gx_maxdistance, gx_longestline,
 * gx_dfullywithin). Both are closed sets spanned by their vertices (a solid by its boundary's), so the
 * largest distance is reached between two vertices: the maximum over vertex pairs, screened in doubles with
 * a certified margin, then decided with GMP among the pairs the screen leaves.
 */
#ifndef GX_MAXDISTANCE_H
#define GX_MAXDISTANCE_H

#include <gmp.h>

#include "geom/gx_geom.h"

/*
 * The farthest pair of vertices of a and b: 1 with d2 (initialised by the caller) the exact squared distance
 * and pa, pb the two vertices (the first in order of a's, then b's, among equally far pairs); 0 when either
 * is EMPTY; -1 with err set on mixed SRIDs or allocation failure.
 */
int			gx_farthest(const GxSerialized *a, const GxSerialized *b, mpq_t d2, double *pa, double *pb, GxError *err);

#endif
