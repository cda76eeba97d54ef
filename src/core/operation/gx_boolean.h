/*
 * gx_boolean.h: the booleans of two solids as solids: the pieces of the overlay (gx_overlay.h) that bound
 * a ∩ b, a ∪ b or a \ b, each triangulated along its real outline (algorithm/gx_cut.h: every point where the
 * surfaces' cuts end or cross is a vertex of every piece it lies on, so pieces join without T-junctions). The
 * triangles of one solid that the other's surface meets are cut by facets (gx_facets.h: coplanar neighbours,
 * a box's face), each as one polygon, by the other's facets each as one polygon: a facet's inner edges make
 * no vertices. The combinatorics are exact; each new vertex is an exact rational point rounded once to doubles.
 * Rounding can break a valid surface (a sliver thinner than the rounding flattens or folds over): the rounded
 * triangles are mended (gx_snap.h) and checked as gx_makesolid checks any surface (closed, every edge shared by
 * two triangles, no two triangles meeting but along shared edges and vertices, exactly, solid/gx_solid_make.h),
 * and the result is refused, naming the triangles at fault, when they fail: a result is a valid solid or an
 * error, never an invalid one. Solids that touch along an edge make such a refusal too (their union is not a
 * manifold there; shells touching at a vertex are a solid).
 */
#ifndef GX_BOOLEAN_H
#define GX_BOOLEAN_H

#include "algorithm/gx_cut.h"
#include "operation/gx_overlay.h"

/*
 * The pieces of the n triangles at tri, cut by the surface of solid other, whose class keep[class] chooses:
 * 0 dropped, 1 kept, -1 kept reversed. Appended to *out (9 doubles a triangle, realloc'd: *nout of *cap),
 * vertices rounded to the nearest doubles. Memory from malloc. false with err set: cancelled, a triangle cut
 * past opt->max_cuts (GX_ERR_LIMIT), memory, or a point no ray could locate.
 */
bool		gx_overlay_pieces(const double *tri, size_t n, const GxSolidIndex *other, const signed char *keep,
							  const GxOverlayOptions *opt, double **out, size_t *nout, size_t *cap, GxError *err);

/*
 * A facet of a solid cut by a surface's facets, as gx_split_facets hands it over: the solid's triangles tri[0 ..
 * ntri) (indices), cut (built) by ngroups calls of gx_cut_add_group, call g with the surface's triangles
 * others[start[g] .. start[g + 1]) (indices), coplanar and joined.
 */
typedef struct GxFacetCut
{
	GxCut	   *cut;
	const size_t *tri,
			   *others,
			   *start;
	size_t		ntri,
				ngroups;
} GxFacetCut;

typedef bool (*GxFacetVisit) (void *ctx, const GxFacetCut *fc, GxError *err);

/*
 * For a split of solid atri (na triangles, indexed by aidx) by surface stri (ns triangles, indexed by sidx),
 * cut as the booleans cut two solids, facet by facet: the surface's pieces strictly inside the solid appended
 * to *out as gx_overlay_pieces appends them, and each facet of the solid's triangles that the surface meets
 * handed to visit, cut by the surface's facets (the same facets that cut the surface). The solid's triangles
 * handed to no visit are those the surface misses (or flat). false with err set as gx_overlay_pieces, or as
 * visit.
 */
bool		gx_split_facets(const double *atri, size_t na, const GxSolidIndex *aidx, const double *stri, size_t ns,
							const GxSolidIndex *sidx, const GxOverlayOptions *opt, double **out, size_t *nout,
							size_t *cap, GxFacetVisit visit, void *ctx, GxError *err);

/*
 * The triangles of idx that meet triangle T (exactly: touching counts), their indices into *met (realloc'd:
 * *n of *cap). false without memory.
 */
bool		gx_boolean_met(const GxSolidIndex *idx, const double *T, size_t **met, size_t *n, size_t *cap);

/*
 * The solid bounded by the n triangles at tri (gx_alloc'd: mended and reoriented in place), whose new vertices
 * (those not among the vertices of the inputs in[k], nin[k] triangles each) were rounded to doubles: a new
 * serialized solid (gx_alloc'd, *size bytes), EMPTY when n is 0 or when every triangle rounded flat (a part
 * thinner than the rounding everywhere). Flat triangles are mended and the surface
 * checked as gx_makesolid checks it (gx_snap.h); where it fails, again with the new vertices that lie within
 * 1, then 4 times the coordinates' largest spacing of doubles of another vertex moved onto it, then so and the
 * slivers within as much of their longest edge mended too. NULL with
 * err naming the triangle at fault (in the first check) when none passes ("the <what>'s surface, its new
 * vertices rounded to doubles, is no valid solid: ..."). The check runs on opt's threads, cancelled by its flags.
 */
GxSerialized *gx_boolean_make(double *tri, size_t n, const double *const in[2], const size_t nin[2], int32_t srid,
							  const char *what, const GxOverlayOptions *opt, size_t *size, GxError *err);

/*
 * a op b for two solids (GX_FLAG_SOLID, or EMPTY): a new serialized solid (gx_alloc'd, *size bytes, a's
 * SRID), EMPTY when nothing is left. NULL with err set as gx_overlay_pieces, or GX_ERR_INVALID when one is not
 * a solid or the rounded result is not a valid solid.
 */
GxSerialized *gx_boolean_solid(const GxSerialized *a, const GxSerialized *b, GxBooleanOp op,
							   const GxOverlayOptions *opt, size_t *size, GxError *err);

/*
 * gx_boolean_solid for solids given with their point location indexes (gx_solid_index_build of their
 * triangles), each NULL to build it for the call: a solid kept indexed between calls, as a pit cut with many
 * bodies. A solid whose index is given is read for its flags and SRID alone: its value may be its header.
 */
GxSerialized *gx_boolean_solid_indexed(const GxSerialized *a, const GxSolidIndex *ia, const GxSerialized *b,
									   const GxSolidIndex *ib, GxBooleanOp op, const GxOverlayOptions *opt,
									   size_t *size, GxError *err);

/*
 * a op b for two solids given by their indexes alone (n 0 for EMPTY), of SRID srid: what a worker thread
 * builds (under gx_alloc_plain) from solids read before.
 */
GxSerialized *gx_boolean_of_indexes(const GxSolidIndex *a, const GxSolidIndex *b, GxBooleanOp op, int32_t srid,
									const GxOverlayOptions *opt, size_t *size, GxError *err);

/* The part of solid a inside box (a solid: its volume is gx_volume(a, box)'s, but for the rounding). */
GxSerialized *gx_boolean_box(const GxSerialized *a, const GxBox3D *box, const GxOverlayOptions *opt, size_t *size,
							 GxError *err);

/* Whether g is a solid (GX_FLAG_SOLID) or EMPTY; false with err set (GX_ERR_INVALID) when not. */
bool		gx_boolean_check(const GxSerialized *g, GxError *err);

/* The triangles of a surface (a TIN, POLYHEDRALSURFACE or TRIANGLE; none when EMPTY); false, err set, for another type. */
bool		gx_boolean_surface(const GxSerialized *surface, const double **tri, size_t *n, GxError *err);

/*
 * The part of a surface (a TIN, POLYHEDRALSURFACE or TRIANGLE) in a solid's closed volume, its pieces on the
 * solid's boundary included: a TIN of its pieces, oriented as the surface, EMPTY when none.
 */
GxSerialized *gx_surface_in_solid(const GxSerialized *surface, const GxSerialized *solid,
								  const GxOverlayOptions *opt, size_t *size, GxError *err);

#endif
