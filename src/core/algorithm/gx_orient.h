/*
 * gx_orient.h: the first two rungs of the orient3d/orient2d ladder, shared by the CPU (gx_predicates.c)
 * and the CUDA kernels: Shewchuk's stage-A filter on coordinate differences, guarded against underflow
 * and overflow, then the exact sign from floating-point expansions. Each returns -1, 0, +1, or
 * GX_UNDECIDED when it cannot decide (filter too uncertain; expansions out of their exact range).
 * Must be compiled with -ffp-contract=off (gcc) or -fmad=false (nvcc).
 */
#ifndef GX_ORIENT_H
#define GX_ORIENT_H

#include "algorithm/gx_expansion.h"
#include "base/gx_hd.h"

/* Returned by a rung that cannot decide. */
#define GX_UNDECIDED 2

/* Shewchuk's stage-A error bound coefficients. */
#define GX_EPS 0x1p-53	/* Shewchuk's epsilon, half an ulp of 1 */
#define GX_O3D_ERRBOUND_A ((7.0 + 56.0 * GX_EPS) * GX_EPS)
#define GX_CCW_ERRBOUND_A ((3.0 + 16.0 * GX_EPS) * GX_EPS)

/*
 * Ranges of nonzero rounded differences where the filter's error analysis holds, because every
 * product, and the error bound itself, is 0 or normal and finite. orient3d: a nonzero rounded minor
 * (bdx cdy - cdx bdy) of differences >= 2^-320 is a multiple of 2^-692 (cancellation cannot make it
 * smaller), so its product with a third difference is >= 2^-1012, and 7 eps times a nonzero
 * permanent (>= 2^-960) is normal; at most 2^993 above. orient2d: products >= 2^-960, so
 * 3 eps * detsum stays normal; at most 2^1001 above.
 */
#define GX_FILTER3_LO 0x1p-320
#define GX_FILTER3_HI 0x1p330
#define GX_FILTER2_LO 0x1p-480
#define GX_FILTER2_HI 0x1p500

/*
 * Ranges of nonzero expansion components (difference heads and tails) where every two_product of
 * the expansion rung is exact: components are multiples of 2^-352 (2^-502 in 2D), so no product
 * rounds below 2^-1004 and every partial product of Dekker's algorithm is a multiple of 2^-1074;
 * nothing approaches overflow.
 */
#define GX_EXPANSION3_LO 0x1p-300
#define GX_EXPANSION3_HI 0x1p300
#define GX_EXPANSION2_LO 0x1p-450
#define GX_EXPANSION2_HI 0x1p450

/* A difference a - b held exactly as an expansion of 1 or 2 components. */
typedef struct GxDiff
{
	int			len;
	double		c[2];
} GxDiff;

/* x is 0 or lo <= |x| <= hi; false for NaN and infinities. */
GX_HD int
gx_in_range(double x, double lo, double hi)
{
	double		m = fabs(x);

	return x == 0 || (m >= lo && m <= hi);
}

GX_HD int
gx_sign_of(double x)
{
	return (x > 0) - (x < 0);
}

/* Exact a - b into *d (TWO-DIFF); false when a component is outside [lo, hi] (or not finite). */
GX_HD int
gx_exact_diff(double a, double b, double lo, double hi, GxDiff *d)
{
	double		head,
				tail;

	gx_two_diff(a, b, &head, &tail);
	if (!gx_in_range(head, lo, hi) || !gx_in_range(tail, lo, hi))
		return 0;
	d->len = tail == 0 ? 1 : 2;
	d->c[0] = tail == 0 ? head : tail;
	d->c[1] = head;
	return 1;
}

/* h = p * q - r * s (at most 16 components). */
GX_HD int
gx_minor2(const GxDiff *p, const GxDiff *q, const GxDiff *r, const GxDiff *s, double *h)
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
GX_HD int
gx_cofactor_term(const GxDiff *z, const GxDiff *p, const GxDiff *q, const GxDiff *r, const GxDiff *s, double *h)
{
	double		minor[16],
				work[96];
	int			mlen = gx_minor2(p, q, r, s, minor);

	return gx_expansion_product(mlen, minor, z->len, z->c, h, work);
}

/* Stage A of Shewchuk's orient3d on the rounded differences; GX_UNDECIDED when it cannot certify. */
GX_HD int
gx_orient3d_filter(const double *a, const double *b, const double *c, const double *d)
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

	if (!(gx_in_range(adx, GX_FILTER3_LO, GX_FILTER3_HI) && gx_in_range(ady, GX_FILTER3_LO, GX_FILTER3_HI) &&
		  gx_in_range(adz, GX_FILTER3_LO, GX_FILTER3_HI) && gx_in_range(bdx, GX_FILTER3_LO, GX_FILTER3_HI) &&
		  gx_in_range(bdy, GX_FILTER3_LO, GX_FILTER3_HI) && gx_in_range(bdz, GX_FILTER3_LO, GX_FILTER3_HI) &&
		  gx_in_range(cdx, GX_FILTER3_LO, GX_FILTER3_HI) && gx_in_range(cdy, GX_FILTER3_LO, GX_FILTER3_HI) &&
		  gx_in_range(cdz, GX_FILTER3_LO, GX_FILTER3_HI)))
		return GX_UNDECIDED;

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
	errbound = GX_O3D_ERRBOUND_A * permanent;
	/* Without underflow, a zero permanent means every term is exactly zero. */
	if (det > errbound || -det > errbound || permanent == 0)
		return gx_sign_of(det);
	return GX_UNDECIDED;
}

/*
 * The exact value of the orient3d determinant as an expansion into det (up to 192 components): its length,
 * or 0 when a difference is outside the range where the expansion is exact (GX_EXPANSION3_LO/HI).
 */
GX_HD int
gx_orient3d_value_expansion(const double *a, const double *b, const double *c, const double *d, double *det)
{
	GxDiff		ad[3],
				bd[3],
				cd[3];
	double		t1[64],
				t2[64],
				t3[64],
				t12[128];
	int			n1, n2, n3, n12;

	for (int k = 0; k < 3; k++)
		if (!gx_exact_diff(a[k], d[k], GX_EXPANSION3_LO, GX_EXPANSION3_HI, &ad[k]) ||
			!gx_exact_diff(b[k], d[k], GX_EXPANSION3_LO, GX_EXPANSION3_HI, &bd[k]) ||
			!gx_exact_diff(c[k], d[k], GX_EXPANSION3_LO, GX_EXPANSION3_HI, &cd[k]))
			return 0;

	/* adz (bdx cdy - cdx bdy) + bdz (cdx ady - adx cdy) + cdz (adx bdy - bdx ady) */
	n1 = gx_cofactor_term(&ad[2], &bd[0], &cd[1], &cd[0], &bd[1], t1);
	n2 = gx_cofactor_term(&bd[2], &cd[0], &ad[1], &ad[0], &cd[1], t2);
	n3 = gx_cofactor_term(&cd[2], &ad[0], &bd[1], &bd[0], &ad[1], t3);
	n12 = gx_expansion_sum(n1, t1, n2, t2, t12);
	return gx_expansion_sum(n12, t12, n3, t3, det);
}

GX_HD int
gx_orient3d_exact_expansion(const double *a, const double *b, const double *c, const double *d)
{
	double		det[192];
	int			n = gx_orient3d_value_expansion(a, b, c, d, det);

	return n == 0 ? GX_UNDECIDED : gx_expansion_sign(n, det);
}

/* Stage A of Shewchuk's orient2d in the projection dropping `drop`; GX_UNDECIDED when it cannot certify. */
GX_HD int
gx_orient2d_filter(const double *a, const double *b, const double *c, int drop)
{
	int			i = (drop + 1) % 3,
				j = (drop + 2) % 3;
	double		acx = a[i] - c[i],
				acy = a[j] - c[j];
	double		bcx = b[i] - c[i],
				bcy = b[j] - c[j];
	double		detleft, detright, det, detsum, errbound;

	if (!(gx_in_range(acx, GX_FILTER2_LO, GX_FILTER2_HI) && gx_in_range(acy, GX_FILTER2_LO, GX_FILTER2_HI) &&
		  gx_in_range(bcx, GX_FILTER2_LO, GX_FILTER2_HI) && gx_in_range(bcy, GX_FILTER2_LO, GX_FILTER2_HI)))
		return GX_UNDECIDED;

	detleft = acx * bcy;
	detright = acy * bcx;
	det = detleft - detright;

	/* Products of opposite signs (or a zero one) cannot cancel. */
	if (detleft > 0)
	{
		if (detright <= 0)
			return gx_sign_of(det);
		detsum = detleft + detright;
	}
	else if (detleft < 0)
	{
		if (detright >= 0)
			return gx_sign_of(det);
		detsum = -detleft - detright;
	}
	else
		return gx_sign_of(det);

	errbound = GX_CCW_ERRBOUND_A * detsum;
	if (det >= errbound || -det >= errbound)
		return gx_sign_of(det);
	return GX_UNDECIDED;
}

GX_HD int
gx_orient2d_exact_expansion(const double *a, const double *b, const double *c, int drop)
{
	int			i = (drop + 1) % 3,
				j = (drop + 2) % 3;
	GxDiff		acx, acy, bcx, bcy;
	double		det[16];
	int			n;

	if (!gx_exact_diff(a[i], c[i], GX_EXPANSION2_LO, GX_EXPANSION2_HI, &acx) ||
		!gx_exact_diff(a[j], c[j], GX_EXPANSION2_LO, GX_EXPANSION2_HI, &acy) ||
		!gx_exact_diff(b[i], c[i], GX_EXPANSION2_LO, GX_EXPANSION2_HI, &bcx) ||
		!gx_exact_diff(b[j], c[j], GX_EXPANSION2_LO, GX_EXPANSION2_HI, &bcy))
		return GX_UNDECIDED;
	n = gx_minor2(&acx, &bcy, &acy, &bcx, det);
	return gx_expansion_sign(n, det);
}

#endif
