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
#include <stdint.h>
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
	bool		exact_cuts;		/* the solids' cuts decided in rationals only (gx_cut_exact): the tests' reference */
	int			threads;		/* a boolean's threads at most (0: one per core; within a parallel run: 1) */
	const char *thread_budget;	/* and the budget they are drawn from (gx_threads_begin; NULL: none) */
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

/* The volumes of a ∩ b, a ∪ b and a \ b (indexed by GxBooleanOp), each rounded once, and their exact signs. */
typedef struct GxOverlayVolumes
{
	double		v[3];
	int			sign[3];
	size_t		filtered,		/* cut triangles whose areas the filter decided */
				rational;		/* cut triangles whose areas came from rational pieces */
	bool		exact_sums;		/* the filter's sums could not be rounded: the volumes are gx_overlay_sums' */
} GxOverlayVolumes;

/* The bit of op in a set of them (gx_overlay_volumes' ops), and the set of all three. */
#define GX_BOOL_OP(op) (1u << (op))
#define GX_BOOL_ALL (GX_BOOL_OP(GX_BOOL_INTERSECTION) | GX_BOOL_OP(GX_BOOL_UNION) | GX_BOOL_OP(GX_BOOL_DIFFERENCE))

/*
 * The same volumes as gx_overlay_sums and gx_overlay_volume give, rounded once, bit for bit, faster
 * (gx_overlay_filter.c): a triangle cut in general position has its area inside the other solid from
 * Green's theorem over its cuts, in certified double-doubles (algorithm/gx_ddi.h), the others' areas are
 * rational; the sums are certified double-doubles, rounded once when their error allows it, else done
 * again in rationals. Only the volumes of the ops in the set ops (GX_BOOL_OP bits) are computed (the others
 * are left 0): a triangle that adds only to the others is passed over (for a ∩ b alone, every triangle whose
 * box misses the other solid's). Two solids with the same triangles, bit for bit and in the same order, are
 * each other's intersection and union, with no difference: only their own volume is summed. Same arguments
 * and errors as gx_overlay_sums.
 */
bool		gx_overlay_volumes(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt,
							   unsigned ops, GxOverlayVolumes *out, GxError *err);

/*
 * gx_overlay_volumes with the pairs of triangles whose boxes overlap given (found on the GPU): pairs[2k], a's
 * triangle, and pairs[2k + 1], b's, for k < npairs, every such pair once, in any order. The same volumes and
 * errors.
 */
bool		gx_overlay_volumes_of_pairs(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt,
										unsigned ops, const uint32_t *pairs, size_t npairs, GxOverlayVolumes *out,
										GxError *err);

/*
 * The volume of a op b for two solids (GX_FLAG_SOLID, or EMPTY), exact and rounded once to *out.
 * ia, ib: their indexes, or NULL to build them for the call. false with err set as gx_overlay_sums, or
 * GX_ERR_INVALID when one is not a solid.
 */
bool		gx_boolean_volume(const GxSerialized *a, const GxSolidIndex *ia, const GxSerialized *b,
							  const GxSolidIndex *ib, GxBooleanOp op, const GxOverlayOptions *opt, double *out,
							  GxError *err);

/*
 * The overlay's step for one triangle T of one side against the other solid, shared by the rational path and
 * the filter: the other's triangles meeting T, and the areas of T's pieces by class.
 */
typedef struct GxOverlayCut
{
	const GxSolidIndex *other;
	const GxOverlayOptions *opt;
	const double *T;
	size_t	   *met,			/* the other's triangles that meet T */
				nmet,
				cap;
	bool		nomem;
	unsigned long visits;
	mpq_t		area[GX_PIECE_CLASSES];
} GxOverlayCut;

void		gx_overlay_cut_init(GxOverlayCut *c, const GxSolidIndex *other, const GxOverlayOptions *opt);
void		gx_overlay_cut_clear(GxOverlayCut *c);

/*
 * T = self's triangle i: the other's triangles that meet it into c->met; when none does, T's class
 * (GX_PIECE_INSIDE or GX_PIECE_OUTSIDE, one vertex located); -1 when some do; -2 with err set.
 */
int			gx_overlay_cut_meet(GxOverlayCut *c, const GxSolidIndex *self, size_t i, GxError *err);

/* Appends the other's triangle i to c->met when it meets c->T; false when memory ran out (c->nomem). */
bool		gx_overlay_cut_collect(GxOverlayCut *c, size_t i);

/* The class of c->T (of box box), met by none of the other's triangles, as gx_overlay_cut_meet. */
int			gx_overlay_cut_whole(GxOverlayCut *c, const GxBox3D *box, GxError *err);

/* c->area[k]: the area in (t, u) of T's pieces of class k (T's is 1/2), T not flat (drop: its projection). */
bool		gx_overlay_cut_areas(GxOverlayCut *c, int drop, GxError *err);

#endif
