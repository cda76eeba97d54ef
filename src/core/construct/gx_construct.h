/*
 * gx_construct.h: geometries made from other geometries or from boxes: a box as a geometry, the parts of a
 * geometry and collections of parts, affine transforms rounded once per coordinate, prisms (extrusion),
 * the exact convex hull and the 2.5D Delaunay triangulation. Every function returns a new serialized value
 * (gx_alloc'd, *size bytes), or NULL with err set.
 */
#ifndef GX_CONSTRUCT_H
#define GX_CONSTRUCT_H

#include "geom/gx_geom.h"

/*
 * The box as a geometry of its dimension: a solid of 12 triangles, the 2 triangles of a flat box (a TIN), the
 * LINESTRING of a box flat in two axes, the POINT of a point box; GEOMETRYCOLLECTION EMPTY for an EMPTY box.
 */
GxSerialized *gx_box_geom(const GxBox3D *box, int32_t srid, size_t *size, GxError *err);

/*
 * Parts. A collection (MULTIPOINT, MULTILINESTRING, GEOMETRYCOLLECTION) has its children as parts; any other
 * geometry (a POINT, a LINESTRING, a TRIANGLE, a TIN, a POLYHEDRALSURFACE, a solid) is one part, itself,
 * however many triangles it has; an EMPTY one has none.
 */
uint32_t	gx_num_parts(const GxSerialized *g);

/* The subtree at n (a node of a validated geometry) as a geometry of its own in SRID srid. */
GxSerialized *gx_geom_of_node(const GxNode *n, int32_t srid, size_t *size, GxError *err);

/*
 * Calls visit(ctx, path, depth, leaf) for every node of g that is not a collection, in order: path[0..depth)
 * the 1-based positions of its ancestors' children that lead to it (depth 0 for g itself when it is no
 * collection). Returns false as soon as a visit does.
 */
typedef bool (*GxDumpVisitor) (void *ctx, const int *path, int depth, const GxNode *leaf);
bool		gx_dump_walk(const GxSerialized *g, GxDumpVisitor visit, void *ctx);

/*
 * The n geometries as one collection: a MULTIPOINT when all are POINTs, a MULTILINESTRING when all are
 * LINESTRINGs, else a GEOMETRYCOLLECTION (a solid goes in as its POLYHEDRALSURFACE). Their SRIDs must match
 * (gx_srids_match); the result has the non-zero one.
 */
GxSerialized *gx_collect(const GxSerialized *const *parts, size_t n, size_t *size, GxError *err);

/*
 * An affine map: x'_k = sum_j m[k][j] x_j + sum_j ca[k][j] * cb[k][j], each output coordinate the exact value
 * rounded once (gx_dot_nearest). The constant part is a sum of products so that a rotation about a point is
 * one exact expression.
 */
typedef struct GxAffine
{
	double		m[3][3];
	double		ca[3][3];
	double		cb[3][3];
} GxAffine;

/*
 * g with every point mapped by map (called on runs of npoints points, 3 doubles each, to overwrite in place;
 * false with err set to stop) and the SRID srid. Every mapped coordinate must be finite (GX_ERR_RANGE). A
 * solid is checked again (gx_solid_make) and reoriented: when the map (rounding, or a singular or folding
 * map) leaves it no valid solid, GX_ERR_INVALID naming the first offending triangles. fname prefixes messages.
 */
typedef bool (*GxPointMap) (void *ctx, double *xyz, size_t npoints, GxError *err);
GxSerialized *gx_map_points(const GxSerialized *g, GxPointMap map, void *ctx, int32_t srid, const char *fname,
							size_t *size, GxError *err);

/*
 * g mapped by t (gx_map_points). Every entry must be finite (GX_ERR_ARG naming the first that is not); a coordinate beyond
 * the doubles is GX_ERR_RANGE. A solid is checked again (gx_solid_make) and reoriented: when rounding or a
 * singular map leaves it no valid solid, GX_ERR_INVALID with the offending triangles. fname prefixes messages.
 */
GxSerialized *gx_affine(const GxSerialized *g, const GxAffine *t, const char *fname, size_t *size, GxError *err);

/*
 * The prism swept by the triangles of g (a TRIANGLE, TIN, POLYHEDRALSURFACE or a collection of them: a
 * surface) moved by dz along z (finite, non-zero): the surface, its copy at z + dz (each z rounded once) and
 * the vertical sides along its boundary edges, checked as a solid (gx_solid_make).
 */
GxSerialized *gx_extrude(const GxSerialized *g, double dz, size_t *size, GxError *err);

/*
 * The exact convex hull of g's vertices: a solid when they span space (every corner a vertex, faces in one
 * plane kept as triangles), the TIN of a convex polygon's corners when they lie in one plane, the LINESTRING
 * between the two ends when on one line, the POINT when all are one. EMPTY is GX_ERR_INVALID.
 */
GxSerialized *gx_convexhull(const GxSerialized *g, size_t *size, GxError *err);

/*
 * The 2.5D Delaunay triangulation (a TIN) of the vertices of points (and of breaklines) in the (x, y) plane,
 * each vertex keeping its z, constrained by the segments of breaklines (LINESTRINGs, or NULL) when given:
 * exact predicates, cocircular points resolved by symbolic perturbation (gx_delaunay.c). Errors
 * (GX_ERR_INVALID): two points with one (x, y) and different z, fewer than 3 distinct points, all on one line;
 * breaklines that cross other than at a vertex: GX_ERR_UNSUPPORTED naming both.
 */
GxSerialized *gx_delaunay(const GxSerialized *points, const GxSerialized *breaklines, size_t *size, GxError *err);

#endif
