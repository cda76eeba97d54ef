/* gx_intersects.h: does geometry a share a point with geometry b? Exact for the stored doubles. */
#ifndef GX_INTERSECTS_H
#define GX_INTERSECTS_H

#include "algorithm/gx_elements.h"
#include "geom/gx_geom.h"
#include "index/gx_grid.h"

/* 1 or 0; -1 with err set on mixed SRIDs or allocation failure. EMPTY intersects nothing. */
int			gx_intersects(const GxSerialized *a, const GxSerialized *b, GxError *err);

/*
 * A geometry made ready for many tests: all its elements, their boxes and a grid over them, built once.
 * g must stay valid while the prepared geometry is used.
 */
typedef struct GxPrepared
{
	const GxSerialized *g;
	GxElements	elems;
	GxBox3D    *boxes;
	GxGrid		grid;
	struct GxSolidIndex *solid;	/* g is a solid: its point location index */
} GxPrepared;

bool		gx_prepare(GxPrepared *p, const GxSerialized *g, GxError *err);
/* Same answer as gx_intersects(p->g, other). */
int			gx_intersects_prepared(const GxPrepared *p, const GxSerialized *other, GxError *err);
void		gx_prepared_free(GxPrepared *p);

#endif
