/*
 * gx_contains.h: containment, exactly: does b lie in the closed point set of a (a solid's volume; else the
 * union of a's points, segments and triangles)? An EMPTY a or b contains nothing and lies in nothing.
 */
#ifndef GX_CONTAINS_H
#define GX_CONTAINS_H

#include "geom/gx_geom.h"
#include "solid/gx_solid.h"

/*
 * 1, 0, or -1 with err set: mixed SRIDs, memory, or no usable ray (an invalid solid). a_index: the solid a's
 * index, or NULL (then built when needed); with it, only a's header is read.
 */
int			gx_contains(const GxSerialized *a, const GxSolidIndex *a_index, const GxSerialized *b, GxError *err);

/*
 * Does a hold the whole box (closed)? A box of positive volume lies only in a solid, when the solid's volume
 * inside it equals its own, exactly (an open piece outside would have a volume); a flat box is its
 * rectangle, segment or point, contained as gx_contains decides. 1, 0, or -1 with err set as gx_contains.
 */
int			gx_contains_box(const GxSerialized *a, const GxSolidIndex *a_index, const GxBox3D *box, GxError *err);

/*
 * Does triangle t lie in the closed volume of the solid indexed by s (gx_triangle_in_solid.c)? 1, 0, or -1
 * with err set as gx_contains; *touches says whether the solid's surface meets t (when its edges are in).
 */
int			gx_triangle_in_solid(const GxSolidIndex *s, const double *t, bool *touches, GxError *err);

#endif
