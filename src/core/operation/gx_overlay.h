/*
 * gx_overlay.h: the exact overlay (corefinement) of two solids' surfaces, and the exact volumes of their
 * intersection, union and difference, rounded once.
 *
 * Every triangle T of each solid is cut by the other's surface along the segments where the other's
 * triangles meet it (crossing its plane, touching it, or lying in it), into pieces (algorithm/gx_pieces.h),
 * each decided exactly on the stored doubles: inside or outside the other solid (one rational point of it
 * located, solid/gx_solid.h), or on its surface, covered by one of its triangles lying in T's plane, with
 * the same or the opposite orientation. The boundary of a boolean is a choice of pieces:
 *   a ∩ b: a's inside b, b's inside a, a's on b with the same orientation;
 *   a ∪ b: a's outside b, b's outside a, a's on b with the same orientation;
 *   a \ b: a's outside b, b's inside a reversed, a's on b with the opposite orientation;
 * and by the divergence theorem a closed, oriented surface bounds the volume (1/6) sum over its triangles of
 * det(T0 - o, T1 - o, T2 - o), for any point o: a piece of T of area A in T's coordinates (t, u) (T's own is
 * 1/2) adds det(T0 - o, T1 - o, T2 - o) A / 3. The sums are exact rationals; the volume is rounded once.
 * Solids that only touch (along a face, an edge or a vertex) share no piece inside the other: 0.
 */
#ifndef GX_OVERLAY_H
#define GX_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <gmp.h>

#include "base/gx_interrupt.h"
#include "solid/gx_solid.h"

typedef enum GxPieceClass
{
	GX_PIECE_OUTSIDE = 0,
	GX_PIECE_INSIDE,
	GX_PIECE_ON_SAME,			/* on the other's surface, oriented the same way */
	GX_PIECE_ON_OPPOSITE,		/* on the other's surface, oriented the other way */
	GX_PIECE_CLASSES
} GxPieceClass;

typedef enum GxBooleanOp
{
	GX_BOOL_INTERSECTION,
	GX_BOOL_UNION,
	GX_BOOL_DIFFERENCE			/* a \ b */
} GxBooleanOp;

/* What one overlay may use. */
typedef struct GxOverlayOptions
{
	size_t		max_cuts;		/* the most segments and their crossings in one triangle (0: no bound) */
	const GxCancel *cancel;		/* polled: a flag set stops with GX_ERR_CANCELLED; NULL: never */
} GxOverlayOptions;

/*
 * sum[s][c]: over the triangles T of solid s (0: a, 1: b), det(T0 - o, T1 - o, T2 - o) times the area in
 * (t, u) of T's pieces of class c, o the first vertex of a.
 */
typedef struct GxOverlaySums
{
	mpq_t		sum[2][GX_PIECE_CLASSES];
} GxOverlaySums;

void		gx_overlay_sums_init(GxOverlaySums *s);
void		gx_overlay_sums_clear(GxOverlaySums *s);

/*
 * The sums of solids a and b (their point location indexes, each of at least one triangle). Memory from
 * malloc and GMP (threads may call this). false with err set: cancelled, a triangle cut past max_cuts
 * (GX_ERR_LIMIT), memory, or a point no ray could locate.
 */
bool		gx_overlay_sums(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt,
							GxOverlaySums *out, GxError *err);

/* The exact volume of a op b from the sums, into v. */
void		gx_overlay_volume(const GxOverlaySums *s, GxBooleanOp op, mpq_t v);

/*
 * The volume of a op b for two solids (GX_FLAG_SOLID, or EMPTY), exact and rounded once to *out.
 * ia, ib: their indexes, or NULL to build them for the call. false with err set as gx_overlay_sums, or
 * GX_ERR_INVALID when one is not a solid.
 */
bool		gx_boolean_volume(const GxSerialized *a, const GxSolidIndex *ia, const GxSerialized *b,
							  const GxSolidIndex *ib, GxBooleanOp op, const GxOverlayOptions *opt, double *out,
							  GxError *err);

#endif
