/*
 * gx_predicates.c: the orient3d/orient2d ladder of gx_predicates.h on the CPU, with its counters:
 * the filter and expansion rungs of gx_orient.h, then GMP (gx_predicates_gmp.c) for what expansions
 * cannot hold.
 * Must be compiled with -ffp-contract=off (see gx_expansion.h).
 */
#include "algorithm/gx_orient.h"
#include "algorithm/gx_predicates.h"

_Thread_local GxPredStats gx_pred_stats;

int
gx_orient3d_expansion(const double *a, const double *b, const double *c, const double *d)
{
	return gx_orient3d_exact_expansion(a, b, c, d);
}

int
gx_orient2d_expansion(const double *a, const double *b, const double *c, int drop)
{
	return gx_orient2d_exact_expansion(a, b, c, drop);
}

int
gx_orient3d(const double *a, const double *b, const double *c, const double *d)
{
	int			s;

	gx_pred_stats.orient3d++;
	s = gx_orient3d_filter(a, b, c, d);
	if (s != GX_UNDECIDED)
		return s;
	gx_pred_stats.filter_failures++;
	s = gx_orient3d_exact_expansion(a, b, c, d);
	if (s != GX_UNDECIDED)
	{
		gx_pred_stats.exact_expansion++;
		return s;
	}
	gx_pred_stats.exact_gmp++;
	return gx_orient3d_gmp(a, b, c, d);
}

int
gx_orient2d(const double *a, const double *b, const double *c, int drop)
{
	int			s;

	gx_pred_stats.orient2d++;
	s = gx_orient2d_filter(a, b, c, drop);
	if (s != GX_UNDECIDED)
		return s;
	gx_pred_stats.filter_failures++;
	s = gx_orient2d_exact_expansion(a, b, c, drop);
	if (s != GX_UNDECIDED)
	{
		gx_pred_stats.exact_expansion++;
		return s;
	}
	gx_pred_stats.exact_gmp++;
	return gx_orient2d_gmp(a, b, c, drop);
}

void
gx_pred_stats_add(GxPredStats *dst, const GxPredStats *src)
{
	dst->orient3d += src->orient3d;
	dst->orient2d += src->orient2d;
	dst->filter_failures += src->filter_failures;
	dst->exact_expansion += src->exact_expansion;
	dst->exact_gmp += src->exact_gmp;
}
