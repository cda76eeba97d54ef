/*
 * gx_expansion.h: error-free transforms and floating-point expansion arithmetic after Shewchuk,
 * "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates" (1997).
 *
 * An expansion is an array of doubles, increasing in magnitude, whose exact sum is the value it
 * represents; the routines keep it nonoverlapping, so its largest component carries its sign.
 * Everything is exact under IEEE double arithmetic with round-to-nearest-even, provided that no
 * operation overflows or underflows (the callers check the exponent range of their inputs) and that
 * the compiler neither keeps extended precision nor contracts a*b+c into an FMA: every file that
 * uses these routines must be compiled with -ffp-contract=off (gcc) or -fmad=false (nvcc). On the GPU
 * the product's error term comes from an explicit fused multiply-add, which is exact.
 */
#ifndef GX_EXPANSION_H
#define GX_EXPANSION_H

#include <float.h>
#include <math.h>

#include "base/gx_hd.h"

#if !defined(__CUDACC__) && FLT_EVAL_METHOD != 0
#error "gx_expansion needs double expressions evaluated in double precision (FLT_EVAL_METHOD 0)"
#endif

/* x + y = a + b exactly, x = fl(a + b); requires |a| >= |b| (or a == 0). */
GX_HD void
gx_fast_two_sum(double a, double b, double *x, double *y)
{
	double		s = a + b;

	*x = s;
	*y = b - (s - a);
}

/* x + y = a + b exactly, x = fl(a + b), for any a and b (Knuth). */
GX_HD void
gx_two_sum(double a, double b, double *x, double *y)
{
	double		s = a + b;
	double		bvirt = s - a;
	double		avirt = s - bvirt;

	*x = s;
	*y = (a - avirt) + (b - bvirt);
}

/* x + y = a - b exactly, x = fl(a - b). */
GX_HD void
gx_two_diff(double a, double b, double *x, double *y)
{
	double		d = a - b;
	double		bvirt = a - d;
	double		avirt = d + bvirt;

	*x = d;
	*y = (a - avirt) + (bvirt - b);
}

/* Dekker's split: a = hi + lo with hi and lo of at most 26 significant bits each. */
GX_HD void
gx_split(double a, double *hi, double *lo)
{
	double		c = 134217729.0 * a;	/* 2^27 + 1 */
	double		abig = c - a;

	*hi = c - abig;
	*lo = a - *hi;
}

/* x + y = a * b exactly, x = fl(a * b): an explicit FMA on the GPU, Dekker's method on the CPU. */
GX_HD void
gx_two_product(double a, double b, double *x, double *y)
{
#ifdef __CUDA_ARCH__
	*x = __dmul_rn(a, b);
	*y = __fma_rn(a, b, -*x);
#else
	double		p = a * b;
	double		ahi, alo, bhi, blo;
	double		err1, err2, err3;

	gx_split(a, &ahi, &alo);
	gx_split(b, &bhi, &blo);
	err1 = p - ahi * bhi;
	err2 = err1 - alo * bhi;
	err3 = err2 - ahi * blo;
	*x = p;
	*y = alo * blo - err3;
#endif
}

/* Sign of an expansion: that of its most significant nonzero component. */
GX_HD int
gx_expansion_sign(int elen, const double *e)
{
	for (int i = elen - 1; i >= 0; i--)
	{
		if (e[i] > 0)
			return 1;
		if (e[i] < 0)
			return -1;
	}
	return 0;
}

/* The smaller in magnitude of the next unconsumed components of e and f; advances past it. */
GX_HD double
take_smaller(int elen, const double *e, int *i, int flen, const double *f, int *j)
{
	if (*j == flen || (*i < elen && fabs(e[*i]) <= fabs(f[*j])))
		return e[(*i)++];
	return f[(*j)++];
}

/*
 * h = e + f (Shewchuk's FAST-EXPANSION-SUM with zero elimination): merge the components by
 * magnitude, then carry the running sum up through them. h (elen + flen doubles) must not overlap
 * e or f. Returns the length of h, at least 1.
 */
GX_HD int
gx_expansion_sum(int elen, const double *e, int flen, const double *f, double *h)
{
	int			i = 0,
				j = 0,
				hlen = 0;
	double		q,
				hh;

	/* g1 <= g2 <= ... in magnitude; Q2 + h1 = g2 + g1 needs only FAST-TWO-SUM. */
	q = take_smaller(elen, e, &i, flen, f, &j);
	if (i + j < elen + flen)
	{
		gx_fast_two_sum(take_smaller(elen, e, &i, flen, f, &j), q, &q, &hh);
		if (hh != 0)
			h[hlen++] = hh;
	}
	while (i + j < elen + flen)
	{
		gx_two_sum(q, take_smaller(elen, e, &i, flen, f, &j), &q, &hh);
		if (hh != 0)
			h[hlen++] = hh;
	}
	if (q != 0 || hlen == 0)
		h[hlen++] = q;
	return hlen;
}

/*
 * h = b * e (SCALE-EXPANSION with zero elimination). h (2 * elen doubles) must not overlap e.
 * Returns the length of h, at least 1.
 */
GX_HD int
gx_scale_expansion(int elen, const double *e, double b, double *h)
{
	int			hlen = 0;
	double		q,
				hh,
				product1,
				product0,
				sum;

	gx_two_product(e[0], b, &q, &hh);
	if (hh != 0)
		h[hlen++] = hh;
	for (int i = 1; i < elen; i++)
	{
		gx_two_product(e[i], b, &product1, &product0);
		gx_two_sum(q, product0, &sum, &hh);
		if (hh != 0)
			h[hlen++] = hh;
		gx_fast_two_sum(product1, sum, &q, &hh);
		if (hh != 0)
			h[hlen++] = hh;
	}
	if (q != 0 || hlen == 0)
		h[hlen++] = q;
	return hlen;
}

/*
 * h = e, with as few components as Shewchuk's COMPRESS leaves (most often one to three): two passes of
 * FAST-TWO-SUM, down then up through the components. h (elen doubles) may be e. Returns the length of h.
 */
GX_HD int
gx_compress(int elen, const double *e, double *h)
{
	int			bottom = elen - 1,
				top = 0;
	double		q = e[elen - 1],
				sum,
				err;

	for (int i = elen - 2; i >= 0; i--)
	{
		gx_fast_two_sum(q, e[i], &sum, &err);
		if (err != 0)
		{
			h[bottom--] = sum;
			q = err;
		}
		else
			q = sum;
	}
	for (int i = bottom + 1; i < elen; i++)
	{
		gx_fast_two_sum(h[i], q, &sum, &err);
		if (err != 0)
			h[top++] = err;
		q = sum;
	}
	h[top] = q;
	return top + 1;
}

/*
 * h = e * f: the sum of e scaled by each component of f. h needs 2 * elen * flen doubles and work
 * 2 * elen * (flen + 1); neither may overlap e, f or each other. Returns the length of h, at least 1.
 */
GX_HD int
gx_expansion_product(int elen, const double *e, int flen, const double *f, double *h, double *work)
{
	double	   *scaled = work;
	double	   *sum = work + 2 * elen;
	int			hlen = gx_scale_expansion(elen, e, f[0], h);

	for (int i = 1; i < flen; i++)
	{
		int			slen = gx_scale_expansion(elen, e, f[i], scaled);

		hlen = gx_expansion_sum(hlen, h, slen, scaled, sum);
		for (int k = 0; k < hlen; k++)
			h[k] = sum[k];
	}
	return hlen;
}

#endif
