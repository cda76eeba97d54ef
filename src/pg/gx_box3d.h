/* gx_box3d.h: the gxbox3d value (a GxBox3D), its EMPTY marker and the box predicates shared by operators and GiST. */
#ifndef GX_BOX3D_H
#define GX_BOX3D_H

#include "postgres.h"
#include "fmgr.h"
#include "utils/float.h"

#include "gx_geom.h"

/*
 * A gxbox3d datum is a GxBox3D passed by reference: 48 bytes, double alignment. Normal boxes have finite
 * bounds with min <= max on each axis (closed: a flat box or a point is a box). The EMPTY box, the key of
 * an EMPTY geometry and the union of nothing, has every min +inf and every max -inf: it is the identity of
 * gx_box_expand and no predicate below is true of it.
 */
#define DatumGetGxBox3DP(d)		((GxBox3D *) DatumGetPointer(d))
#define PG_GETARG_GXBOX3D_P(n)	DatumGetGxBox3DP(PG_GETARG_DATUM(n))

/* Bound d of a box, d = 0..2 for x, y, z (the six doubles are laid out xmin ymin zmin xmax ymax zmax). */
#define GX_BOX_LO(b, d)			(((const double *) &(b)->xmin)[d])
#define GX_BOX_HI(b, d)			(((const double *) &(b)->xmax)[d])

static inline void
gx_box_set_empty(GxBox3D *b)
{
	b->xmin = b->ymin = b->zmin = get_float8_infinity();
	b->xmax = b->ymax = b->zmax = -get_float8_infinity();
}

static inline bool
gx_box_is_empty(const GxBox3D *b)
{
	return !(b->xmin <= b->xmax && b->ymin <= b->ymax && b->zmin <= b->zmax);
}

/* Closed overlap: boxes sharing only a face, an edge or a corner overlap. False if either is EMPTY. */
static inline bool
gx_box_overlaps(const GxBox3D *a, const GxBox3D *b)
{
	return a->xmin <= b->xmax && b->xmin <= a->xmax &&
		a->ymin <= b->ymax && b->ymin <= a->ymax &&
		a->zmin <= b->zmax && b->zmin <= a->zmax;
}

/* a contains b (boundaries included). False if either is EMPTY. */
static inline bool
gx_box_contains(const GxBox3D *a, const GxBox3D *b)
{
	return !gx_box_is_empty(a) && !gx_box_is_empty(b) &&
		a->xmin <= b->xmin && b->xmax <= a->xmax &&
		a->ymin <= b->ymin && b->ymax <= a->ymax &&
		a->zmin <= b->zmin && b->zmax <= a->zmax;
}

/* a becomes the union of a and b (EMPTY is the identity). */
static inline void
gx_box_expand(GxBox3D *a, const GxBox3D *b)
{
	a->xmin = Min(a->xmin, b->xmin);
	a->ymin = Min(a->ymin, b->ymin);
	a->zmin = Min(a->zmin, b->zmin);
	a->xmax = Max(a->xmax, b->xmax);
	a->ymax = Max(a->ymax, b->ymax);
	a->zmax = Max(a->zmax, b->zmax);
}

static inline bool
gx_box_equal(const GxBox3D *a, const GxBox3D *b)
{
	return a->xmin == b->xmin && a->ymin == b->ymin && a->zmin == b->zmin &&
		a->xmax == b->xmax && a->ymax == b->ymax && a->zmax == b->zmax;
}

/*
 * Reads the bounding box cached in the header of a gxgeom datum, detoasting only the header (no copy at
 * all for an in-line value). Returns false, with *box set to EMPTY, for an EMPTY geometry.
 */
bool		gx_datum_get_box(Datum geom, GxBox3D *box);

#endif
