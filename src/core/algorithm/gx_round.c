/*
 * gx_round.c: correct rounding of rationals and of their square roots to double.
 *
 * Both reduce to one step. A value v > 0 is known as an integer T of at least GUARD_BITS + 1 bits and an
 * exponent e: v = T * 2^e when T is even, and v lies strictly between (T - 1) * 2^e and (T + 1) * 2^e
 * when T is odd (its low bit is a sticky bit: something non-zero was cut off below it). Rounding T to 53
 * bits (fewer for a subnormal result) then rounds v: every halfway point between two doubles is an even
 * multiple of 2^e, so v and T * 2^e lie on the same side of it, and T * 2^e lies on one only when v does.
 */
#include <math.h>

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
