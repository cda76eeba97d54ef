/*
 * gx_expansion.h: error-free transforms and floating-point expansion arithmetic after Shewchuk,
 * "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates" (1997).
 *
 * An expansion is an array of doubles, increasing in magnitude, whose exact sum is the value it
 * represents; the routines keep it nonoverlapping, so its largest component carries its sign.
 * Everything is exact under IEEE double arithmetic with round-to-nearest-even, provided that no
 * operation overflows or underflows (the callers check the exponent range of their inputs) and that
 * the compiler neither keeps extended precision nor contracts a*b+c into an FMA: every file that
 * uses these routines must be compiled with -ffp-contract=off.
 */
#ifndef GX_EXPANSION_H
#define GX_EXPANSION_H

#include <float.h>

#if FLT_EVAL_METHOD != 0
#error "gx_expansion needs double expressions evaluated in double precision (FLT_EVAL_METHOD 0)"
#endif

/* x + y = a + b exactly, x = fl(a + b); requires |a| >= |b| (or a == 0). */
static inline void
gx_fast_two_sum(double a, double b, double *x, double *y)
{
	double		s = a + b;

	*x = s;
	*y = b - (s - a);
}

/* x + y = a + b exactly, x = fl(a + b), for any a and b (Knuth). */
static inline void
gx_two_sum(double a, double b, double *x, double *y)
{
	double		s = a + b;
	double		bvirt = s - a;
	double		avirt = s - bvirt;

	*x = s;
	*y = (a - avirt) + (b - bvirt);
}

/* x + y = a - b exactly, x = fl(a - b). */
static inline void
gx_two_diff(double a, double b, double *x, double *y)
{
	double		d = a - b;
	double		bvirt = a - d;
	double		avirt = d + bvirt;

	*x = d;
	*y = (a - avirt) + (bvirt - b);
}

/* Dekker's split: a = hi + lo with hi and lo of at most 26 significant bits each. */
static inline void
gx_split(double a, double *hi, double *lo)
{
	double		c = 134217729.0 * a;	/* 2^27 + 1 */
	double		abig = c - a;

	*hi = c - abig;
	*lo = a - *hi;
}

/* x + y = a * b exactly, x = fl(a * b) (Dekker, without FMA). */
static inline void
gx_two_product(double a, double b, double *x, double *y)
{
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
}

/* Sign of an expansion: that of its most significant nonzero component. */
static inline int
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

/*
 * h = e + f (Shewchuk's FAST-EXPANSION-SUM with zero elimination): merge the components by
 * magnitude, then carry the running sum up through them. h (elen + flen doubles) must not overlap
 * e or f. Returns the length of h, at least 1.
 */
int			gx_expansion_sum(int elen, const double *e, int flen, const double *f, double *h);

/*
 * h = b * e (SCALE-EXPANSION with zero elimination). h (2 * elen doubles) must not overlap e.
 * Returns the length of h, at least 1.
 */
int			gx_scale_expansion(int elen, const double *e, double b, double *h);

/*
 * h = e * f: the sum of e scaled by each component of f. h needs 2 * elen * flen doubles and work
 * 2 * elen * (flen + 1); neither may overlap e, f or each other. Returns the length of h, at least 1.
 */
int			gx_expansion_product(int elen, const double *e, int flen, const double *f,
								 double *h, double *work);

#endif
