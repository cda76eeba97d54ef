/*
 * gx_solid.h: solids: closed triangulated surfaces taken as the volume they bound (GX_FLAG_SOLID).
 *
 * A solid's node holds the triangles of all its shells, each shell consistently oriented, outer shells
 * outward and cavities inward. Point location counts the crossings of a ray with the triangles (their
 * parity); every decision is an exact orientation sign (gx_predicates.h, gx_predicates_exact.h). A ray
 * that meets an edge, a vertex or lies in a triangle's plane is detected exactly and replaced by another.
 */
#ifndef GX_SOLID_H
#define GX_SOLID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "geom/gx_geom.h"
#include "index/gx_grid.h"

typedef enum GxLocation
{
	GX_LOC_OUTSIDE = 0,
	GX_LOC_BOUNDARY = 1,
	GX_LOC_INSIDE = 2,
	GX_LOC_FAILED = -1			/* no usable ray found (not seen in practice; reported as an error) */
} GxLocation;

/*
 * The gaps of a solid's columns (gx_solid_gaps.c): per (x, y) column of the grid, 64 bins of height over the
 * solid's box; a bin is busy when the z-range of a triangle the column lists reaches it. The points of a run of
 * free bins all lie on one side of the surface: the runs' bins whose side is known are set in inside or
 * outside (the lowest and highest runs are outside from the start). Threads locating points of the same solid
 * set those bits with relaxed atomics: any of them sets the same ones.
 */
typedef struct GxGapColumn
{
	uint64_t	busy,
				inside,
				outside;
} GxGapColumn;

typedef struct GxSolidGaps
{
	GxGapColumn *col;
	double		zmin,
				scale;			/* bins per unit of height */
} GxSolidGaps;

/* The triangles of a solid with their boxes and a grid over (x, y): rays go up or down. */
typedef struct GxSolidIndex
{
	const double *tri;			/* 9 doubles per triangle, not owned */
	size_t		n;
	GxBox3D		box;
	GxBox3D    *boxes;
	GxGrid		grid;			/* dim[2] == 1 */
	GxSolidGaps gaps;
} GxSolidIndex;

/*
 * Indexes the n triangles at tri (kept where they are); false with err set: memory, or the process's cancel
 * flags (gx_cancel_flags) set while it works (GX_ERR_CANCELLED). Nothing to free then.
 */
bool		gx_solid_index_build(GxSolidIndex *s, const double *tri, size_t n, GxError *err);
void		gx_solid_index_free(GxSolidIndex *s);

/*
 * A grid over the boxes of solids[0..n) (an EMPTY solid's box is empty), about four cells a solid, for the
 * solids whose boxes a box overlaps; grid->items NULL when every solid is EMPTY. false with err set for memory.
 */
bool		gx_solids_grid(GxGrid *grid, const GxSolidIndex *solids, size_t n, GxError *err);

/*
 * A copy of built index src in memory of gx_alloc_try (for an index built on a thread with malloc, under an
 * allocator threads may not call); false with err set when memory runs out (dst untouched).
 */
bool		gx_solid_index_copy(GxSolidIndex *dst, const GxSolidIndex *src, GxError *err);

/* Bytes an index holds, its triangles not counted. */
size_t		gx_solid_index_bytes(const GxSolidIndex *s);

/* Where p lies: inside, on the boundary or outside of the closed volume. */
GxLocation	gx_solid_locate(const GxSolidIndex *s, const double *p);

/*
 * True when the columns' busy heights (GxSolidGaps) show that no triangle's box of s overlaps box (a box of
 * the solid's box's extent or beyond); false when one may: the triangles' boxes then tell.
 */
bool		gx_solid_gaps_miss(const GxSolidIndex *s, const GxBox3D *box);

/*
 * Where a + t (b - a) lies, for a rational t (0 <= t <= 1), a point known not to lie on the boundary:
 * GX_LOC_INSIDE or GX_LOC_OUTSIDE.
 */
GxLocation	gx_solid_locate_off_boundary(const GxSolidIndex *s, const double *a, const double *b, mpq_srcptr t);

/*
 * Where a + t (b - a) + u (c - a) lies, for the triangle abc at tri and rationals t, u >= 0 with t + u <= 1,
 * a point known not to lie on the boundary: GX_LOC_INSIDE or GX_LOC_OUTSIDE.
 */
GxLocation	gx_solid_locate_in_triangle(const GxSolidIndex *s, const double *tri, mpq_srcptr t, mpq_srcptr u);

/*
 * The same for rationals t and u made only when needed: exact(ctx) sets them (called at most when a sign
 * needs them; it may be called again); td and ud are mpq_get_d of them, which the search starts from.
 */
GxLocation	gx_solid_locate_in_triangle_lazy(const GxSolidIndex *s, const double *tri, double td, double ud,
											 mpq_srcptr t, mpq_srcptr u, void (*exact) (void *ctx), void *ctx);

/*
 * For gx_makesolid's shells: the crossings of one non-degenerate ray from a + t (b - a) with the triangles of
 * each shell (triangle i belongs to shell shell_of[i]) into counts[0 .. nshells), those of shell skip
 * ignored (the point lies on it, and on no other). false when no ray avoided the edges.
 */
bool		gx_solid_ray_shells(const GxSolidIndex *s, const double *a, const double *b, mpq_srcptr t,
								const uint32_t *shell_of, uint32_t skip, uint32_t *counts, size_t nshells);

/* Calls visit(ctx, i) for every triangle whose box overlaps box, once each; stops when visit is false. */
bool		gx_solid_index_search(const GxSolidIndex *s, const GxBox3D *box, bool (*visit) (void *ctx, size_t i),
								  void *ctx);

/*
 * The triangles whose boxes overlap box, in ascending order, into *list (malloc'd: *n of *cap); false without
 * memory. What a solid much larger than another needs of itself near the other.
 */
bool		gx_solid_index_near(const GxSolidIndex *s, const GxBox3D *box, size_t **list, size_t *n, size_t *cap);

/*
 * Whether x, known to miss the surface of solid, lies inside it: one vertex of each of its connected pieces
 * (a point, a linestring, a triangle) whose box the solid's contains is located; only such a piece can lie
 * inside. index: the solid's, or NULL to build one when a piece first needs it. 1, 0, or -1 with err set
 * (memory; no usable ray).
 */
int			gx_solid_contains_any(const GxSerialized *solid, const GxSolidIndex *index, const GxSerialized *x,
								  GxError *err);

/* The triangles (9 doubles each) of a solid's node and their count. */
const double *gx_solid_triangles(const GxSerialized *g, size_t *n);

#endif
