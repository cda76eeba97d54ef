/*
 * gx_solid_make.h: gx_makesolid: whether triangles bound a volume (checked exactly, on the CPU grid or as
 * the batch engine's self-join), their orientation, and the solid value made of them.
 */
#ifndef GX_SOLID_MAKE_H
#define GX_SOLID_MAKE_H

#include "batch/gx_batch.h"
#include "solid/gx_solid.h"

/*
 * gx_makesolid's check and orientation: the *n triangles at tri (9 doubles each) must bound a volume:
 * every edge shared by exactly two triangles, no two triangles meeting except along shared edges and
 * vertices (on the CPU a grid over the triangles, or a hierarchy of their boxes where the boxes crowd, or
 * the batch engine's self-join when opt asks for the GPU: the same answer). Triangles with a repeated vertex are dropped when
 * they lie along an edge of the rest (*n becomes the count kept); other degenerate triangles are refused.
 * On success the triangles are reoriented in place (outer shells outward, cavities inward) and *shells is
 * their number; false with err naming the first offence, with coordinates.
 */
bool		gx_solid_make(double *tri, size_t *n, const GxBatchOptions *opt, size_t *shells, GxError *err);

/*
 * gx_solid_make where some triangles are vouched for: kept[t] 1 for those of triangles that meet one another
 * only along the edges and at the vertices they share (such as the triangles of a solid, kept unchanged in a
 * boolean with another that none of them meets): their pairs are not tested again, which gives the same
 * verdict. kept is packed with the triangles.
 */
bool		gx_solid_make_kept(double *tri, size_t *n, uint8_t *kept, const GxBatchOptions *opt, size_t *shells,
							   GxError *err);

/*
 * A new serialized solid (gx_alloc'd, *size bytes) from g's triangles: gx_solid_make, then one
 * POLYHEDRALSURFACE. opt NULL: the CPU engine with default options.
 */
GxSerialized *gx_solid_from(const GxSerialized *g, const GxBatchOptions *opt, size_t *size, GxError *err);

#endif
