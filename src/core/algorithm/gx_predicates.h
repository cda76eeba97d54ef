/*
 * gx_predicates.h: exact geometric predicates on doubles, the ladder of Menezes 2021, chapter 3:
 *   1. floating-point filter: Shewchuk's stage-A error bound, evaluated on coordinate differences
 *      (translation-invariant, so UTM-sized offsets do not defeat it), guarded against underflow/overflow;
 *   2. exact evaluation with floating-point expansions (error-free transforms, no FMA contraction);
 *   3. GMP rationals for what expansions cannot hold (exponents near overflow or underflow).
 * Each returns the exact sign (-1, 0, +1) of its determinant for the given doubles.
 */
#ifndef GX_PREDICATES_H
#define GX_PREDICATES_H

#include <stdint.h>

/*
 * Sign of det | a-d ; b-d ; c-d | (3x3, rows are the difference vectors). Positive when d lies below the
 * plane through a, b, c oriented counter-clockwise seen from above (Shewchuk's convention).
 */
int			gx_orient3d(const double *a, const double *b, const double *c, const double *d);

/*
 * Sign of the 2D orientation of a, b, c projected along axis `drop` (0: onto (y,z), 1: onto (z,x),
 * 2: onto (x,y)): det | a-c ; b-c | with the two kept coordinates in that cyclic order.
 */
int			gx_orient2d(const double *a, const double *b, const double *c, int drop);

/* Plain GMP rational evaluation of the same determinants: the last rung, and the test oracle. */
int			gx_orient3d_gmp(const double *a, const double *b, const double *c, const double *d);
int			gx_orient2d_gmp(const double *a, const double *b, const double *c, int drop);

/* Expansion rung alone; returns 2 when the input is outside the range expansions hold exactly. */
int			gx_orient3d_expansion(const double *a, const double *b, const double *c, const double *d);
int			gx_orient2d_expansion(const double *a, const double *b, const double *c, int drop);

/* Counters of the calling thread since it started (or since reset). */
typedef struct GxPredStats
{
	uint64_t	orient3d;		/* evaluations */
	uint64_t	orient2d;
	uint64_t	filter_failures;	/* filter could not decide */
	uint64_t	exact_expansion;	/* decided by expansions */
	uint64_t	exact_gmp;		/* decided by GMP */
} GxPredStats;

extern _Thread_local GxPredStats gx_pred_stats;

/* Adds src into dst (the batch engine sums its threads' counters). */
void		gx_pred_stats_add(GxPredStats *dst, const GxPredStats *src);

#endif
