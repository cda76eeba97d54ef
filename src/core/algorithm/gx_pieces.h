/*
 * gx_pieces.h: the pieces into which segments of a triangle T's plane cut T's open inside, and one rational
 * point of each, exactly. Containment asks of every piece whether it lies in something: a solid's volume
 * (gx_triangle_in_solid.c) or a surface's triangles (gx_contains.c). The pieces come as trapezoids (slabs of
 * T's first coordinate cut by the segments), with their areas: the overlay of two solids
 * (operation/gx_overlay.c) sums the areas of those inside, outside or on the other.
 */
#ifndef GX_PIECES_H
#define GX_PIECES_H

#include <stdbool.h>
#include <gmp.h>

#include "base/gx_error.h"

typedef struct GxPieces GxPieces;

/* The pieces of T (3 vertices, not flat; drop its projection, gx_triangle_projection); NULL without memory. */
GxPieces   *gx_pieces_new(const double *T, int drop);

/*
 * Triangle tau meets T's plane: its section by the plane cuts T (a vertex, an edge's segment, the segment
 * where it crosses the plane, or all three edges when tau lies in the plane, and then the points inside tau
 * are covered). Only the part of a segment inside T is kept.
 */
void		gx_pieces_add(GxPieces *pc, const double *tau);

/*
 * At most max_cuts segments and breakpoints (ends and crossings) in all: past it, the visits fail with
 * GX_ERR_LIMIT (a bound on memory and time for the overlay of pathological surfaces).
 */
void		gx_pieces_limit(GxPieces *pc, size_t max_cuts);

/*
 * Calls visit(ctx, t, u, err) for one point, T0 + t (T1 - T0) + u (T2 - T0), of each piece not covered;
 * visit returns 1 to go on, 0 to stop with 0, -1 (err set) to stop with -1. Returns 1 when every visit
 * returned 1, else what stopped it; -1 with GX_ERR_NOMEM when memory ran out here.
 */
typedef int (*GxPieceVisit) (void *ctx, mpq_srcptr t, mpq_srcptr u, GxError *err);
int			gx_pieces_visit(GxPieces *pc, GxPieceVisit visit, void *ctx, GxError *err);

/*
 * The same over every trapezoid: one point of it, (t, u) as above, which lies on no segment; its area in
 * (t, u) (T's is 1/2); and cover: 1 when a triangle in T's plane with T's orientation covers it, -1 when
 * one with the opposite orientation does, 0 when none does. Covered trapezoids are visited too.
 */
typedef int (*GxPieceAreaVisit) (void *ctx, mpq_srcptr t, mpq_srcptr u, mpq_srcptr area, int cover, GxError *err);
int			gx_pieces_visit_areas(GxPieces *pc, GxPieceAreaVisit visit, void *ctx, GxError *err);

void		gx_pieces_free(GxPieces *pc);

#endif
