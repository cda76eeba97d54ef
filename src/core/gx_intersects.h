/* gx_intersects.h: does geometry a share a point with geometry b? Exact for the stored doubles. */
#ifndef GX_INTERSECTS_H
#define GX_INTERSECTS_H

#include "gx_geom.h"

/* 1 or 0; -1 with err set on mixed SRIDs or allocation failure. EMPTY intersects nothing. */
int			gx_intersects(const GxSerialized *a, const GxSerialized *b, GxError *err);

#endif
