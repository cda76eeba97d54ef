/*
 * gx_split.h: a solid split by an open surface (a TIN: topography, a fault, a pit wall) into its parts on
 * either side. The positive side of the surface is the one its triangles' normals point to (each triangle
 * counter-clockwise seen from there: above, for a TIN counter-clockwise seen from above). The combinatorics
 * are exact, as the booleans' (gx_boolean.h): the solid's facets are cut along the surface's, each piece's
 * side decided exactly where it borders the surface, and the surface's pieces strictly inside the solid close
 * both parts (oriented one way for each). New vertices are rounded once; each part is mended and checked as
 * the booleans' results are (gx_boolean_make), and refused, naming where, when rounding broke it.
 *
 * The surface must cut the solid through: its border outside the solid or on the solid's surface. Where it
 * ends inside the solid (so that its two sides meet around its border), the split is refused, naming where.
 * A shell of the solid that the surface does not reach (a separate body, a cavity) goes with the side whose
 * part contains it, or else with the side of the surface that a ray from it meets first (along the surface's
 * mean normal, up or down it; toward a point inside a triangle of the surface, for a shell the surface touches
 * but does not cut); when no ray from it meets the surface, the split is refused.
 */
#ifndef GX_SPLIT_H
#define GX_SPLIT_H

#include "operation/gx_overlay.h"

/*
 * The parts of solid (GX_FLAG_SOLID, or EMPTY) on either side of surface (a TIN, POLYHEDRALSURFACE or TRIANGLE,
 * its triangles consistently oriented, each edge shared by at most two): part[0] on the negative side, part[1]
 * on the positive side, new serialized solids (gx_alloc'd, size[k] bytes, the solid's SRID), EMPTY when
 * nothing lies on that side. false with err set: cancelled, a triangle cut past opt->max_cuts (GX_ERR_LIMIT),
 * memory, or GX_ERR_INVALID: bad input, a surface that does not cut the solid through, or a part that rounding
 * made invalid.
 */
bool		gx_split_solid(const GxSerialized *solid, const GxSerialized *surface, const GxOverlayOptions *opt,
						   GxSerialized *part[2], size_t size[2], GxError *err);

#endif
