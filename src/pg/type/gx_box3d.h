/* gx_box3d.h: the gxbox3d value (a GxBox3D), its EMPTY marker and the box predicates shared by operators and GiST. */
#ifndef GX_BOX3D_H
#define GX_BOX3D_H

#include "postgres.h"
#include "fmgr.h"

#include "geom/gx_box.h"

/*
 * A gxbox3d datum is a GxBox3D passed by reference: 48 bytes, double alignment. Normal boxes have finite
 * bounds with min <= max on each axis (closed: a flat box or a point is a box). The EMPTY box, the key of
 * an EMPTY geometry and the union of nothing, has every min +inf and every max -inf: it is the identity of
 * gx_box_extend and no box predicate (gx_box.h) is true of it.
 */
#define DatumGetGxBox3DP(d)		((GxBox3D *) DatumGetPointer(d))
#define PG_GETARG_GXBOX3D_P(n)	DatumGetGxBox3DP(PG_GETARG_DATUM(n))

/*
 * Reads the bounding box cached in the header of a gxgeom datum, detoasting only the header (no copy at
 * all for an in-line value). Returns false, with *box set to EMPTY, for an EMPTY geometry.
 */
bool		gx_datum_get_box(Datum geom, GxBox3D *box);

/*
 * The same, with the value's elements (segments, triangles, points) estimated from its first node, read in
 * the same slice: 0 for an EMPTY value (ANALYZE's measure of a column, for the planner's costs).
 */
bool		gx_datum_get_head(Datum geom, GxBox3D *box, double *elements);

#endif
