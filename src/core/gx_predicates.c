/*
 * gx_predicates.c: the orient3d/orient2d ladder of gx_predicates.h: Shewchuk's stage-A filter on
 * coordinate differences, guarded against underflow and overflow; then the exact sign from
 * floating-point expansions; then GMP (gx_predicates_gmp.c) for what expansions cannot hold.
 * Must be compiled with -ffp-contract=off (see gx_expansion.h).
 */
#include <math.h>

#include "gx_expansion.h"
#include "gx_predicates.h"

_Thread_local GxPredStats gx_pred_stats;

#define UNDECIDED 2

/* Shewchuk's epsilon (half an ulp of 1) and his stage-A error bound coefficients. */
#define EPS 0x1p-53
static const double o3derrboundA = (7.0 + 56.0 * EPS) * EPS;
static const double ccwerrboundA = (3.0 + 16.0 * EPS) * EPS;

/*
 * Ranges of nonzero rounded differences where the filter's error analysis holds, because every
 * product, and the error bound itself, is 0 or normal and finite. orient3d: a nonzero rounded minor
 * (bdx cdy - cdx bdy) of differences >= 2^-320 is a multiple of 2^-692 (cancellation cannot make it
 * smaller), so its product with a third difference is >= 2^-1012, and 7 eps times a nonzero
 * permanent (>= 2^-960) is normal; at most 2^993 above. orient2d: products >= 2^-960, so
 * 3 eps * detsum stays normal; at most 2^1001 above.
 */
#define FILTER3_LO 0x1p-320
#define FILTER3_HI 0x1p330
#define FILTER2_LO 0x1p-480
#define FILTER2_HI 0x1p500

/*
 * Ranges of nonzero expansion components (difference heads and tails) where every two_product of
 * the expansion rung is exact: components are multiples of 2^-352 (2^-502 in 2D), so no product
 * rounds below 2^-1004 and every partial product of Dekker's algorithm is a multiple of 2^-1074;
 * nothing approaches overflow.
 */
#define EXPANSION3_LO 0x1p-300
#define EXPANSION3_HI 0x1p300
#define EXPANSION2_LO 0x1p-450
#define EXPANSION2_HI 0x1p450

/* A difference a - b held exactly as an expansion of 1 or 2 components. */
typedef struct Diff
{
	int			len;
	double		c[2];
} Diff;

/* x is 0 or lo <= |x| <= hi; false for NaN and infinities. */
static inline int
in_range(double x, double lo, double hi)
{
	double		m = fabs(x);

	return x == 0 || (m >= lo && m <= hi);
}

static inline int
sign_of(double x)
{
	return (x > 0) - (x < 0);
}

/* Exact a - b into *d (TWO-DIFF); false when a component is outside [lo, hi] (or not finite). */
static inline int
exact_diff(double a, double b, double lo, double hi, Diff *d)
{
	double		head,
				tail;

	gx_two_diff(a, b, &head, &tail);
	if (!in_range(head, lo, hi) || !in_range(tail, lo, hi))
		return 0;
	d->len = tail == 0 ? 1 : 2;
	d->c[0] = tail == 0 ? head : tail;
	d->c[1] = head;
	return 1;
}

/* h = p * q - r * s (at most 16 components). */
static int
minor2(const Diff *p, const Diff *q, const Diff *r, const Diff *s, double *h)
{
	double		pq[8],
				rs[8],
				work[12];
	int			pqlen = gx_expansion_product(p->len, p->c, q->len, q->c, pq, work);
	int			rslen = gx_expansion_product(r->len, r->c, s->len, s->c, rs, work);

	for (int i = 0; i < rslen; i++)
		rs[i] = -rs[i];
	return gx_expansion_sum(pqlen, pq, rslen, rs, h);
}

/* h = z * (p * q - r * s), one cofactor term of the 3x3 determinant (at most 64 components). */
static int
cofactor_term(const Diff *z, const Diff *p, const Diff *q, const Diff *r, const Diff *s, double *h)
{
	double		minor[16],
				work[96];
	int			mlen = minor2(p, q, r, s, minor);

	return gx_expansion_product(mlen, minor, z->len, z->c, h, work);
}

/* Stage A of Shewchuk's orient3d on the rounded differences; UNDECIDED when it cannot certify. */
static int
orient3d_filter(const double *a, const double *b, const double *c, const double *d)
{
	double		adx = a[0] - d[0],
				ady = a[1] - d[1],
				adz = a[2] - d[2];
	double		bdx = b[0] - d[0],
				bdy = b[1] - d[1],
				bdz = b[2] - d[2];
	double		cdx = c[0] - d[0],
				cdy = c[1] - d[1],
				cdz = c[2] - d[2];
	double		bdxcdy, cdxbdy, cdxady, adxcdy, adxbdy, bdxady;
	double		det, permanent, errbound;

	if (!(in_range(adx, FILTER3_LO, FILTER3_HI) && in_range(ady, FILTER3_LO, FILTER3_HI) &&
		  in_range(adz, FILTER3_LO, FILTER3_HI) && in_range(bdx, FILTER3_LO, FILTER3_HI) &&
		  in_range(bdy, FILTER3_LO, FILTER3_HI) && in_range(bdz, FILTER3_LO, FILTER3_HI) &&
		  in_range(cdx, FILTER3_LO, FILTER3_HI) && in_range(cdy, FILTER3_LO, FILTER3_HI) &&
		  in_range(cdz, FILTER3_LO, FILTER3_HI)))
		return UNDECIDED;

	bdxcdy = bdx * cdy;
	cdxbdy = cdx * bdy;
	cdxady = cdx * ady;
	adxcdy = adx * cdy;
	adxbdy = adx * bdy;
	bdxady = bdx * ady;

	det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
	permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * fabs(adz) +
		(fabs(cdxady) + fabs(adxcdy)) * fabs(bdz) +
		(fabs(adxbdy) + fabs(bdxady)) * fabs(cdz);
	errbound = o3derrboundA * permanent;
	/* Without underflow, a zero permanent means every term is exactly zero. */
	if (det > errbound || -det > errbound || permanent == 0)
		return sign_of(det);
	return UNDECIDED;
}

int
gx_orient3d_expansion(const double *a, const double *b, const double *c, const double *d)
{
	Diff		ad[3],
				bd[3],
				cd[3];
	double		t1[64],
				t2[64],
				t3[64],
				t12[128],
				det[192];
	int			n1, n2, n3, n12, n;

	for (int k = 0; k < 3; k++)
		if (!exact_diff(a[k], d[k], EXPANSION3_LO, EXPANSION3_HI, &ad[k]) ||
			!exact_diff(b[k], d[k], EXPANSION3_LO, EXPANSION3_HI, &bd[k]) ||
			!exact_diff(c[k], d[k], EXPANSION3_LO, EXPANSION3_HI, &cd[k]))
			return UNDECIDED;

	/* adz (bdx cdy - cdx bdy) + bdz (cdx ady - adx cdy) + cdz (adx bdy - bdx ady) */
	n1 = cofactor_term(&ad[2], &bd[0], &cd[1], &cd[0], &bd[1], t1);
	n2 = cofactor_term(&bd[2], &cd[0], &ad[1], &ad[0], &cd[1], t2);
	n3 = cofactor_term(&cd[2], &ad[0], &bd[1], &bd[0], &ad[1], t3);
	n12 = gx_expansion_sum(n1, t1, n2, t2, t12);
	n = gx_expansion_sum(n12, t12, n3, t3, det);
	return gx_expansion_sign(n, det);
}

int
gx_orient3d(const double *a, const double *b, const double *c, const double *d)
{
	int			s;

	gx_pred_stats.orient3d++;
	s = orient3d_filter(a, b, c, d);
	if (s != UNDECIDED)
		return s;
	gx_pred_stats.filter_failures++;
	s = gx_orient3d_expansion(a, b, c, d);
	if (s != UNDECIDED)
	{
		gx_pred_stats.exact_expansion++;
		return s;
	}
	gx_pred_stats.exact_gmp++;
	return gx_orient3d_gmp(a, b, c, d);
}

/* Stage A of Shewchuk's orient2d in the projection dropping `drop`; UNDECIDED when it cannot certify. */
static int
orient2d_filter(const double *a, const double *b, const double *c, int drop)
{
	int			i = (drop + 1) % 3,
				j = (drop + 2) % 3;
	double		acx = a[i] - c[i],
				acy = a[j] - c[j];
	double		bcx = b[i] - c[i],
				bcy = b[j] - c[j];
	double		detleft, detright, det, detsum, errbound;

	if (!(in_range(acx, FILTER2_LO, FILTER2_HI) && in_range(acy, FILTER2_LO, FILTER2_HI) &&
		  in_range(bcx, FILTER2_LO, FILTER2_HI) && in_range(bcy, FILTER2_LO, FILTER2_HI)))
		return UNDECIDED;

	detleft = acx * bcy;
	detright = acy * bcx;
	det = detleft - detright;

	/* Products of opposite signs (or a zero one) cannot cancel. */
	if (detleft > 0)
	{
		if (detright <= 0)
			return sign_of(det);
		detsum = detleft + detright;
	}
	else if (detleft < 0)
	{
		if (detright >= 0)
			return sign_of(det);
		detsum = -detleft - detright;
	}
	else
		return sign_of(det);

	errbound = ccwerrboundA * detsum;
	if (det >= errbound || -det >= errbound)
		return sign_of(det);
	return UNDECIDED;
}

int
gx_orient2d_expansion(const double *a, const double *b, const double *c, int drop)
{
	int			i = (drop + 1) % 3,
				j = (drop + 2) % 3;
	Diff		acx, acy, bcx, bcy;
	double		det[16];
	int			n;

	if (!exact_diff(a[i], c[i], EXPANSION2_LO, EXPANSION2_HI, &acx) ||
		!exact_diff(a[j], c[j], EXPANSION2_LO, EXPANSION2_HI, &acy) ||
		!exact_diff(b[i], c[i], EXPANSION2_LO, EXPANSION2_HI, &bcx) ||
		!exact_diff(b[j], c[j], EXPANSION2_LO, EXPANSION2_HI, &bcy))
		return UNDECIDED;
	n = minor2(&acx, &bcy, &acy, &bcx, det);
	return gx_expansion_sign(n, det);
}

int
gx_orient2d(const double *a, const double *b, const double *c, int drop)
{
	int			s;

	gx_pred_stats.orient2d++;
	s = orient2d_filter(a, b, c, drop);
	if (s != UNDECIDED)
		return s;
	gx_pred_stats.filter_failures++;
	s = gx_orient2d_expansion(a, b, c, drop);
	if (s != UNDECIDED)
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
