/*
 * gx_predicates.c: the orient3d/orient2d ladder of gx_predicates.h on the CPU, with its counters:
 * the filter and expansion rungs of gx_orient.h, then GMP (gx_predicates_gmp.c) for what expansions
 * cannot hold; and the crossing parameter of a segment and a plane truncated to a double, from expansions.
 * Must be compiled with -ffp-contract=off (see gx_expansion.h).
 */
#include "algorithm/gx_orient.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"

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

/*
 * Coordinates 0 or within [2^-150, 2^150] are multiples of 2^-202, and so are their differences (at most
 * 2^151); the products of three differences are multiples of 2^-606 (at most about 2^455). A u of at
 * least 2^-300 is a multiple of 2^-352, so each product of such a component and u is a multiple of 2^-958,
 * and every step of SCALE-EXPANSION stays exact (no result below 2^-1022 is rounded).
 */
#define CROSSING_LO 0x1p-150
#define CROSSING_HI 0x1p150
#define CROSSING_U_LO 0x1p-300

/* h = n . d for the exact normal n (3 expansions) and differences d: its length (at most 192 components). */
static int
dot_expansion(const double n[3][16], const int nlen[3], const GxDiff d[3], double *h)
{
	double		term[3][64],
				t01[128],
				work[96];
	int			len[3],
				l01;

	for (int k = 0; k < 3; k++)
		len[k] = gx_expansion_product(nlen[k], n[k], d[k].len, d[k].c, term[k], work);
	l01 = gx_expansion_sum(len[0], term[0], len[1], term[1], t01);
	return gx_expansion_sum(l01, t01, len[2], term[2], h);
}

/* sign(num - u den), exactly, for expansions num and den (at most 192 components each). */
static int
residual_sign(int nlen, const double *num, int dlen, const double *den, double u)
{
	double		scaled[384],
				diff[576];
	int			slen = gx_scale_expansion(dlen, den, -u, scaled);

	return gx_expansion_sign(gx_expansion_sum(nlen, num, slen, scaled, diff), diff);
}

/*
 * u = n . (t0 - a) / n . (b - a) with n = (t1 - t0) x (t2 - t0): orient3d(t, a) = n . (t0 - a) and
 * orient3d(t, a) - orient3d(t, b) = n . (b - a). Its estimate is within a few ulps; the exact signs of
 * num - u den then step it to the double with u den <= num < next(u) den.
 */
bool
gx_plane_crossing_trunc(const double *t, const double *a, const double *b, double *q)
{
	const double *pts[5] = {t, t + 3, t + 6, a, b};
	GxDiff		d1[3],
				d2[3],
				ta[3],
				ba[3];
	double		n[3][16],
				num[192],
				den[192],
				u;
	int			nlen[3],
				alen,
				dlen;

	for (int i = 0; i < 5; i++)
		for (int k = 0; k < 3; k++)
			if (!gx_in_range(pts[i][k], CROSSING_LO, CROSSING_HI))
				return false;
	for (int k = 0; k < 3; k++)
		if (!gx_exact_diff(t[3 + k], t[k], GX_EXPANSION3_LO, GX_EXPANSION3_HI, &d1[k]) ||
			!gx_exact_diff(t[6 + k], t[k], GX_EXPANSION3_LO, GX_EXPANSION3_HI, &d2[k]) ||
			!gx_exact_diff(t[k], a[k], GX_EXPANSION3_LO, GX_EXPANSION3_HI, &ta[k]) ||
			!gx_exact_diff(b[k], a[k], GX_EXPANSION3_LO, GX_EXPANSION3_HI, &ba[k]))
			return false;
	for (int k = 0; k < 3; k++)
		nlen[k] = gx_minor2(&d1[(k + 1) % 3], &d2[(k + 2) % 3], &d1[(k + 2) % 3], &d2[(k + 1) % 3], n[k]);
	alen = gx_compress(dot_expansion(n, nlen, ta, num), num, num);
	dlen = gx_compress(dot_expansion(n, nlen, ba, den), den, den);
	if (gx_expansion_sign(dlen, den) < 0)
	{
		for (int i = 0; i < alen; i++)
			num[i] = -num[i];
		for (int i = 0; i < dlen; i++)
			den[i] = -den[i];
	}
	if (gx_expansion_sign(alen, num) <= 0 || gx_expansion_sign(dlen, den) <= 0)
		return false;
	/* the quotient of the leading components, corrected by the rest (a double-double step) */
	{
		double		p,
					perr,
					n1 = num[alen - 1],
					n0 = alen > 1 ? num[alen - 2] : 0,
					d0 = dlen > 1 ? den[dlen - 2] : 0;

		u = n1 / den[dlen - 1];
		gx_two_product(u, den[dlen - 1], &p, &perr);
		u += (((n1 - p) - perr) + n0 - u * d0) / den[dlen - 1];
	}
	if (u >= 1)
		u = nextafter(1, 0);	/* u < 1: a crossing just short of b */
	for (int step = 0; step < 8; step++)
	{
		double		next = nextafter(u, 1);

		if (!(u >= CROSSING_U_LO && u < 1))
			return false;
		if (residual_sign(alen, num, dlen, den, u) < 0)
			u = nextafter(u, 0);
		else if (residual_sign(alen, num, dlen, den, next) >= 0)
			u = next;
		else
		{
			*q = u;
			return true;
		}
	}
	return false;
}
