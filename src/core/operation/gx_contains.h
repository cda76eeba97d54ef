/*
 * gx_contains.h: containment, exactly: does b lie in the closed point set of a (a solid's volume; else the
 * union of a's points, segments and triangles)? An EMPTY a or b contains nothing and lies in nothing.
 */
#ifndef GX_CONTAINS_H
#define GX_CONTAINS_H

#include "geom/gx_geom.h"
#include "solid/gx_solid.h"

/*
 * 1, 0, or -1 with err set: mixed SRIDs, memory, no usable ray, or GX_ERR_UNSUPPORTED where no exact test
 * here settles it (a triangle of b lying on more than 48 lines of a solid's surface, a solid b whose surface
 * runs along a's triangles' edges at every point tried, a triangle covered only by several triangles of a
 * surface). a_index: the solid a's index, or NULL (then built when needed); with it, only a's header is read.
 */
int			gx_contains(const GxSerialized *a, const GxSolidIndex *a_index, const GxSerialized *b, GxError *err);

/*
 * Does the solid's closed volume hold the whole box? A box of positive volume does when the solid's volume
 * inside it equals its own, exactly (an open piece outside would have a volume); a flat box is its face,
 * segment or point. 1, 0, or -1 with err set as gx_contains.
 */
int			gx_solid_contains_box(const GxSolidIndex *s, const GxBox3D *box, GxError *err);

/*
 * Does triangle t lie in the closed volume of the solid indexed by s (gx_triangle_in_solid.c)? 1, 0, or -1
 * with err set as gx_contains; *touches says whether the solid's surface meets t (when its edges are in).
 */
int			gx_triangle_in_solid(const GxSolidIndex *s, const double *t, bool *touches, GxError *err);

#endif
