/*
 * gx_round.c: correct rounding of rationals and of their square roots to double.
 *
 * Both reduce to one step. A value v > 0 is known as an integer T of at least GUARD_BITS + 1 bits and an
 * exponent e: v = T * 2^e when T is even, and v lies strictly between (T - 1) * 2^e and (T + 1) * 2^e
 * when T is odd (its low bit is a sticky bit: something non-zero was cut off below it). Rounding T to 53
 * bits (fewer for a subnormal result) then rounds v: every halfway point between two doubles is an even
 * multiple of 2^e, so v and T * 2^e lie on the same side of it, and T * 2^e lies on one only when v does.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "algorithm/gx_expansion.h"
#include "algorithm/gx_round.h"

#define GUARD_BITS 56

/* The double nearest to v given as T and e above (T > 0). */
static double
round_scaled(mpz_srcptr t, long e)
{
	long		bits = (long) mpz_sizeinbase(t, 2);
	long		top = bits + e;		/* v lies in [2^(top-1), 2^top] */
	long		keep = top - 1 >= -1022 ? 53 : top + 1074;	/* significant bits a double has there */
	long		cut = bits - keep;	/* low bits of T rounded away (more than 2: keep <= 53 < bits - 2) */
	mpz_t		m;
	double		r;

	if (keep < 0)
		return 0.0;				/* below half the smallest subnormal */
	mpz_init(m);
	mpz_tdiv_q_2exp(m, t, (mp_bitcnt_t) cut);
	if (mpz_tstbit(t, (mp_bitcnt_t) (cut - 1)) &&
		(mpz_scan1(t, 0) < (mp_bitcnt_t) (cut - 1) || mpz_odd_p(m)))
		mpz_add_ui(m, m, 1);
	/* m has at most 54 bits, exact in a double; scaling by a power of two is then exact or overflows */
	r = ldexp(mpz_get_d(m), (int) (cut + e));
	mpz_clear(m);
	return r;
}

/* num = |n| * 2^shift and den = d * 2^-shift, whichever shift is non-negative. */
static void
scale(mpz_ptr num, mpz_ptr den, mpz_srcptr n, mpz_srcptr d, long shift)
{
	mpz_abs(num, n);
	mpz_set(den, d);
	if (shift >= 0)
		mpz_mul_2exp(num, num, (mp_bitcnt_t) shift);
	else
		mpz_mul_2exp(den, den, (mp_bitcnt_t) -shift);
}

double
gx_mpq_get_d_nearest(mpq_srcptr q)
{
	long		k;
	mpz_t		num,
				den,
				rem;
	double		r;

	if (mpq_sgn(q) == 0)
		return 0.0;
	/* T = 2 floor(|q| 2^k) + sticky, with |q| 2^k >= 2^GUARD_BITS */
	k = GUARD_BITS + 1 - ((long) mpz_sizeinbase(mpq_numref(q), 2) - (long) mpz_sizeinbase(mpq_denref(q), 2));
	mpz_inits(num, den, rem, NULL);
	scale(num, den, mpq_numref(q), mpq_denref(q), k);
	mpz_tdiv_qr(num, rem, num, den);
	mpz_mul_2exp(num, num, 1);
	if (mpz_sgn(rem) != 0)
		mpz_setbit(num, 0);
	r = round_scaled(num, -k - 1);
	mpz_clears(num, den, rem, NULL);
	return mpq_sgn(q) < 0 ? -r : r;
}

double
gx_mpq_sqrt_nearest(mpq_srcptr q)
{
	long		k,
				diff;
	mpz_t		num,
				den,
				rem,
				root;
	double		r;
	int			inexact;

	if (mpq_sgn(q) <= 0)
		return mpq_sgn(q) == 0 ? 0.0 : NAN;
	/* sqrt(q) = 2^-k sqrt(X), X = q 4^k >= 2^(2 GUARD_BITS + 1); T = 2 floor(sqrt(X)) + sticky */
	diff = (long) mpz_sizeinbase(mpq_numref(q), 2) - (long) mpz_sizeinbase(mpq_denref(q), 2);
	k = (2 * GUARD_BITS + 3 - diff) / 2 + 1;
	mpz_inits(num, den, rem, root, NULL);
	scale(num, den, mpq_numref(q), mpq_denref(q), 2 * k);
	mpz_tdiv_qr(num, rem, num, den);
	inexact = mpz_sgn(rem) != 0;
	mpz_sqrtrem(root, rem, num);
	inexact |= mpz_sgn(rem) != 0;
	mpz_mul_2exp(root, root, 1);
	if (inexact)
		mpz_setbit(root, 0);
	r = round_scaled(root, -k - 1);
	mpz_clears(num, den, rem, root, NULL);
	return r;
}

/*
 * The sign of p + q sqrt(r) - m, for r >= 0: with A = p - m, the sign of A + q sqrt(r), decided by comparing
 * A^2 with q^2 r when the two terms have opposite signs. Exact.
 */
static int
sign_above(mpq_srcptr p, mpq_srcptr q, mpq_srcptr r, mpq_srcptr m, mpq_ptr a, mpq_ptr b)
{
	int			sa,
				sb,
				c;

	mpq_sub(a, p, m);
	sa = mpq_sgn(a);
	sb = mpq_sgn(r) == 0 ? 0 : mpq_sgn(q);
	if (sb == 0 || sa == sb)
		return sa != 0 ? sa : sb;
	if (sa == 0)
		return sb;
	mpq_mul(a, a, a);
	mpq_mul(b, q, q);
	mpq_mul(b, b, r);
	c = mpq_cmp(a, b);
	return c > 0 ? sa : c < 0 ? sb : 0;
}

/* Doubles in order as integers: -0 and +0 are 0, key(nextafter(x, inf)) = key(x) + 1. */
static int64_t
order_key(double d)
{
	int64_t		bits;

	memcpy(&bits, &d, sizeof(bits));
	return bits >= 0 ? bits : -(bits & INT64_MAX);
}

static double
from_key(int64_t k)
{
	int64_t		bits = k >= 0 ? k : (-k) | INT64_MIN;
	double		d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* The double of key k as a rational; one key beyond either end is +-2^1024, the next double were there one. */
static void
key_value(int64_t k, mpq_ptr out)
{
	int64_t		kmax = order_key(DBL_MAX);

	if (k > kmax || k < -kmax)
	{
		mpq_set_si(out, k > 0 ? 1 : -1, 1);
		mpq_mul_2exp(out, out, 1024);
	}
	else
		mpq_set_d(out, from_key(k));
}

typedef struct SqrtSum
{
	mpq_srcptr	p,
				q,
				r;
	mpq_t		m,
				a,
				b;
} SqrtSum;

/*
 * Does p + q sqrt(r) round above the double of key k: beyond the midpoint between it and the next one up,
 * or on it when that double is odd (ties go to even; beyond DBL_MAX, the halfway point 2^1024 - 2^970 and
 * above round to infinity as in IEEE 754)? False at every key from the answer's up, true below it.
 */
static bool
rounds_above(SqrtSum *v, int64_t k)
{
	int			s;

	key_value(k, v->m);
	key_value(k + 1, v->a);
	mpq_add(v->m, v->m, v->a);
	mpq_div_2exp(v->m, v->m, 1);
	s = sign_above(v->p, v->q, v->r, v->m, v->a, v->b);
	return s > 0 || (s == 0 && (k & 1) != 0);
}

/* x = n / d as mant * 2^exp, mant a double near 1, so that nothing overflows before the end. */
static double
approx_mpq(mpq_srcptr x, long *exp)
{
	long		en,
				ed;
	double		mn = mpz_get_d_2exp(&en, mpq_numref(x)),
				md = mpz_get_d_2exp(&ed, mpq_denref(x));

	*exp = en - ed;
	return mn / md;
}

/* A double near p + q sqrt(r), of any accuracy: the search below starts there. */
static double
guess(mpq_srcptr p, mpq_srcptr q, mpq_srcptr r)
{
	long		ep,
				eq,
				er;
	double		mp = approx_mpq(p, &ep),
				mq = approx_mpq(q, &eq),
				mr = approx_mpq(r, &er),
				x;

	if (er % 2 != 0)
	{
		mr *= 2;
		er--;
	}
	x = ldexp(mp, (int) fmax(fmin(ep, 2100), -2100)) + ldexp(mq * sqrt(mr), (int) fmax(fmin(eq + er / 2, 2100), -2100));
	return isnan(x) ? 0 : fmax(-DBL_MAX, fmin(DBL_MAX, x));
}

double
gx_round_sum_sqrt(mpq_srcptr p, mpq_srcptr q, mpq_srcptr r)
{
	SqrtSum		v = {.p = p, .q = q, .r = r};
	int64_t		kmax = order_key(DBL_MAX),
				k0 = order_key(guess(p, q, r)),
				lo = -kmax - 1,
				hi = kmax + 1;
	bool		above;
	uint64_t	room;

	/*
	 * The answer is the smallest key that does not round above, in [-kmax - 1, kmax + 1] (the two ends
	 * standing for -inf and +inf). Gallop from the guess to bracket it in [lo, hi], keys below lo rounding
	 * above and hi not, then bisect.
	 */
	mpq_inits(v.m, v.a, v.b, NULL);
	above = rounds_above(&v, k0);
	if (above)
		lo = k0 + 1;
	else
		hi = k0;
	room = above ? (uint64_t) kmax - (uint64_t) k0 : (uint64_t) k0 + (uint64_t) kmax + 1;
	for (uint64_t step = 1; step <= room; step = step > room / 2 ? room + 1 : 2 * step)
	{
		int64_t		k = above ? k0 + (int64_t) step : k0 - (int64_t) step;

		if (rounds_above(&v, k) != above)
		{
			if (above)
				hi = k;
			else
				lo = k + 1;
			break;
		}
		if (above)
			lo = k + 1;
		else
			hi = k;
	}
	while (lo < hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;

		if (rounds_above(&v, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	mpq_clears(v.m, v.a, v.b, NULL);
	return hi > kmax ? INFINITY : hi < -kmax ? -INFINITY : from_key(hi);
}

/*
 * The product a * b, certified exact in one double: *p set and true when fl(a * b) has no error (its error
 * term, exact away from underflow, is zero) or a factor is 0 or +-1.
 */
static bool
exact_product(double a, double b, double *p)
{
	double		err;

	if (a == 0 || b == 0 || fabs(a) == 1 || fabs(b) == 1)
	{
		*p = a * b;
		return true;
	}
	gx_two_product(a, b, p, &err);
	return err == 0 && isfinite(*p) && fabs(*p) >= 0x1p-969;
}

double
gx_dot_nearest(const double *a, const double *b, int n)
{
	double		p[GX_DOT_MAX];
	int			nonzero = 0;
	bool		exact = true,
				any = false;
	long		e = 0,
				ea[GX_DOT_MAX],
				eb[GX_DOT_MAX];
	mpz_t		sum,
				term,
				mb;
	double		r;

	/* at most two exact products: one IEEE addition rounds their sum once (translations, scales, quarter turns) */
	for (int i = 0; i < n && exact; i++)
	{
		exact = exact_product(a[i], b[i], &p[i]);
		if (exact && p[i] != 0)
			p[nonzero++] = p[i];
	}
	if (exact && nonzero <= 2)
		return nonzero == 0 ? 0.0 : nonzero == 1 ? p[0] : p[0] + p[1];

	/* each product an integer times 2^(ea + eb); their exact sum over the least exponent */
	for (int i = 0; i < n; i++)
	{
		int			x;

		(void) frexp(a[i], &x);
		ea[i] = x - 53;
		(void) frexp(b[i], &x);
		eb[i] = x - 53;
		if (a[i] != 0 && b[i] != 0 && (!any || ea[i] + eb[i] < e))
			e = ea[i] + eb[i];
		any |= a[i] != 0 && b[i] != 0;
	}
	if (!any)
		return 0.0;
	mpz_inits(sum, term, mb, NULL);
	for (int i = 0; i < n; i++)
	{
		if (a[i] == 0 || b[i] == 0)
			continue;
		mpz_set_d(term, ldexp(a[i], (int) -ea[i]));
		mpz_set_d(mb, ldexp(b[i], (int) -eb[i]));
		mpz_mul(term, term, mb);
		mpz_mul_2exp(term, term, (mp_bitcnt_t) (ea[i] + eb[i] - e));
		mpz_add(sum, sum, term);
	}
	if (mpz_sgn(sum) == 0)
		r = 0.0;
	else
	{
		/* T even (exact) with enough bits for round_scaled */
		long		shift = (long) GUARD_BITS + 2 - (long) mpz_sizeinbase(sum, 2);
		int			sign = mpz_sgn(sum);

		shift = shift < 1 ? 1 : shift;
		mpz_abs(sum, sum);
		mpz_mul_2exp(sum, sum, (mp_bitcnt_t) shift);
		r = round_scaled(sum, e - shift);
		r = sign < 0 ? -r : r;
	}
	mpz_clears(sum, term, mb, NULL);
	return r;
}
