/*
 * gx_ddi.h: certified double-double numbers, the floating-point filter of exact constructions.
 *
 * A GxDDI is a double-double centre hi + lo (|lo| <= ulp(hi) / 2) and a radius rad >= 0: the exact value it
 * stands for lies in [hi + lo - rad, hi + lo + rad]. Sums and products are the accurate double-word
 * algorithms (Joldes, Muller and Popescu 2017: relative errors below 7u^2, u = 2^-53), and every operation
 * adds to the radius the propagated radii plus 2^-98 of its result (more than 20 times those bounds) and, for
 * products and quotients, 2^-1000 for underflow; radius arithmetic is done in round-to-nearest and inflated
 * by 1 + 2^-45, more than its own rounding. A quotient's radius comes from its residual, so it needs no
 * bound of its own. Overflow gives infinities or NaNs, which every test below reads as undecided. Values
 * come from exact doubles with radius 0, and a difference of two equal exact values is an exact 0.
 *
 * The GMP-like typedef gx_ddi_t (an array of one) lets code written for mpq_t take these as they are.
 * Needs -ffp-contract=off (gx_expansion.h).
 */
#ifndef GX_DDI_H
#define GX_DDI_H

#include <math.h>
#include <stdbool.h>

#include "algorithm/gx_expansion.h"

typedef struct GxDDI
{
	double		hi,
				lo,
				rad;
} GxDDI;

typedef GxDDI gx_ddi_t[1];

#define GX_DDI_REL 0x1p-98		/* computation error of one operation, relative to its result */
#define GX_DDI_ETA 0x1p-1000	/* underflow of one product or quotient */
#define GX_DDI_UP (1.0 + 0x1p-45)	/* inflation of a radius computed in round-to-nearest */

/* |hi + lo|, rounded up enough for radius arithmetic. */
GX_HD double
gx_ddi_mag(const GxDDI *a)
{
	return fabs(a->hi) + fabs(a->lo);
}

GX_HD void
gx_ddi_set_d(GxDDI *r, double d)
{
	r->hi = d;
	r->lo = 0;
	r->rad = 0;
}

GX_HD void
gx_ddi_set(GxDDI *r, const GxDDI *a)
{
	*r = *a;
}

/* Centre of a + b (double-word addition, accurate version). */
GX_HD void
dd_add(double ah, double al, double bh, double bl, double *zh, double *zl)
{
	double		s, e, t, f;

	gx_two_sum(ah, bh, &s, &e);
	gx_two_sum(al, bl, &t, &f);
	e += t;
	gx_fast_two_sum(s, e, &s, &e);
	e += f;
	gx_fast_two_sum(s, e, zh, zl);
}

/* Centre of a * b (double-word product). */
GX_HD void
dd_mul(double ah, double al, double bh, double bl, double *zh, double *zl)
{
	double		p, e;

	gx_two_product(ah, bh, &p, &e);
	e += ah * bl + al * bh;
	gx_fast_two_sum(p, e, zh, zl);
}

GX_HD void
gx_ddi_add(GxDDI *r, const GxDDI *a, const GxDDI *b)
{
	double		zh, zl, rad = a->rad + b->rad;

	dd_add(a->hi, a->lo, b->hi, b->lo, &zh, &zl);
	if (zh != 0 || rad != 0)
		rad = (rad + GX_DDI_REL * fabs(zh)) * GX_DDI_UP;
	r->hi = zh;
	r->lo = zl;
	r->rad = rad;
}

GX_HD void
gx_ddi_sub(GxDDI *r, const GxDDI *a, const GxDDI *b)
{
	GxDDI		nb = {-b->hi, -b->lo, b->rad};

	gx_ddi_add(r, a, &nb);
}

GX_HD void
gx_ddi_mul(GxDDI *r, const GxDDI *a, const GxDDI *b)
{
	double		zh, zl;
	double		rad = gx_ddi_mag(a) * b->rad + gx_ddi_mag(b) * a->rad + a->rad * b->rad;

	dd_mul(a->hi, a->lo, b->hi, b->lo, &zh, &zl);
	r->rad = (rad + GX_DDI_REL * fabs(zh) + GX_DDI_ETA) * GX_DDI_UP;
	r->hi = zh;
	r->lo = zl;
}

/*
 * r = a / b. z approximates the centres' quotient by two steps of long division; for x in a and y in b,
 * |x / y - z| <= (|a - z b| + rad_a + |z| rad_b) / (|b| - rad_b), |a - z b| taken from its own certified
 * residual. A divisor whose interval holds 0 gives an infinite radius.
 */
GX_HD void
gx_ddi_div(GxDDI *r, const GxDDI *a, const GxDDI *b)
{
	GxDDI		ac = {a->hi, a->lo, 0},
				bc = {b->hi, b->lo, 0},
				z,
				zb,
				res;
	double		q1 = a->hi / b->hi,
				q2,
				low = (fabs(b->hi) - fabs(b->lo)) * (1 - 0x1p-50) - b->rad * GX_DDI_UP;

	gx_ddi_set_d(&z, q1);
	gx_ddi_mul(&zb, &z, &bc);
	gx_ddi_sub(&res, &ac, &zb);
	q2 = res.hi / b->hi;
	gx_fast_two_sum(q1, q2, &z.hi, &z.lo);
	z.rad = 0;
	gx_ddi_mul(&zb, &z, &bc);
	gx_ddi_sub(&res, &ac, &zb);
	r->hi = z.hi;
	r->lo = z.lo;
	r->rad = low > 0 ? ((gx_ddi_mag(&res) + res.rad + a->rad + gx_ddi_mag(&z) * b->rad) / low + GX_DDI_ETA) *
		GX_DDI_UP * GX_DDI_UP : INFINITY;
}

/* The sign of a when certain: -1, 0 (an exact zero) or +1; else 2. NaNs are undecided. */
GX_HD int
gx_ddi_sign(const GxDDI *a)
{
	if (fabs(a->lo) + a->rad * GX_DDI_UP < fabs(a->hi))
		return a->hi > 0 ? 1 : -1;
	if (a->hi == 0 && a->lo == 0 && a->rad == 0)
		return 0;
	return 2;
}

/* Whether a is exactly zero (an undecided value is not). */
GX_HD bool
gx_ddi_is_zero(const GxDDI *a)
{
	return a->hi == 0 && a->lo == 0 && a->rad == 0;
}

/*
 * The double nearest to every value of a, when they all have the same nearest double (a strictly inside
 * hi's rounding cell, whose smaller half-width is half the gap from hi towards 0); false otherwise.
 */
GX_HD bool
gx_ddi_round(const GxDDI *a, double *out)
{
	double		half = (fabs(a->hi) - fabs(nextafter(a->hi, 0.0))) * 0.5;

	if (!((fabs(a->lo) + a->rad) * GX_DDI_UP < half))
		return false;
	*out = a->hi;
	return true;
}

#endif
