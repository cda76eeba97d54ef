/*
 * test_measure.c: lengths and points along lines rounded once. gx_round_sum_sqrt (p + q sqrt(r) to the
 * nearest double) against oracles of its own: rationals when r is a square, gx_mpq_sqrt_nearest when p is 0,
 * and GMP floats of 2 000 bits otherwise, with the overflow, tie and subnormal ends. Then what it is for:
 * intercept depths of vertical and inclined holes through boxes are the exact depths where those are
 * doubles, at any segment of the hole, the fast path and the one with points alike; every depth of random
 * segments is the exact one rounded once; gx_polyline_locate's points are the exact points rounded once.
 */
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_measure.h"
#include "algorithm/gx_round.h"
#include "gx_test.h"
#include "operation/gx_intercepts.h"
#include "solid/gx_solid.h"

#define PREC 2000

/* A random double of random magnitude 2^[-e, e] and sign. */
static double
any_double(int e)
{
	double		d = ldexp(1 + gx_test_uniform(), (int) gx_test_int(-e, e));

	return gx_test_below(2) ? -d : d;
}

/* A random rational a / b of small integers and a power of two. */
static void
any_rational(mpq_ptr q, int e)
{
	mpq_set_si(q, (long) gx_test_int(-1000000, 1000000), (unsigned long) gx_test_int(1, 1000000));
	mpq_canonicalize(q);
	if (e > 0)
	{
		int			k = (int) gx_test_int(-e, e);

		if (k >= 0)
			mpq_mul_2exp(q, q, (mp_bitcnt_t) k);
		else
			mpq_div_2exp(q, q, (mp_bitcnt_t) -k);
	}
}

/* The double nearest to x, a GMP float far more precise than a double (not at a tie). */
static double
nearest_of_mpf(const mpf_t x)
{
	double		d = mpf_get_d(x),	/* truncated toward zero */
				e = nextafter(d, mpf_sgn(x) < 0 ? -INFINITY : INFINITY);
	mpf_t		u,
				w;
	int			c;

	if (isinf(d) || isinf(e))
		return INFINITY;		/* beyond what this oracle judges: the caller skips it */
	mpf_inits(u, w, NULL);
	mpf_set_d(u, d);
	mpf_sub(u, x, u);
	mpf_abs(u, u);
	mpf_set_d(w, e);
	mpf_sub(w, x, w);
	mpf_abs(w, w);
	c = mpf_cmp(u, w);
	mpf_clears(u, w, NULL);
	return c <= 0 ? d : e;
}

/* p + q sqrt(r) as a GMP float of PREC bits. */
static void
mpf_of(mpf_t out, mpq_srcptr p, mpq_srcptr q, mpq_srcptr r)
{
	mpf_t		t;

	mpf_init2(t, PREC);
	mpf_set_q(t, r);
	mpf_sqrt(t, t);
	mpf_set_q(out, q);
	mpf_mul(out, out, t);
	mpf_set_q(t, p);
	mpf_add(out, out, t);
	mpf_clear(t);
}

static void
test_round_sum_sqrt(void)
{
	mpq_t		p,
				q,
				r,
				s,
				v;
	mpf_t		x;

	mpq_inits(p, q, r, s, v, NULL);
	mpf_init2(x, PREC);
	for (int i = 0; i < 20000; i++)
	{
		double		got,
					want;

		mpq_set_d(p, gx_test_below(4) == 0 ? 0 : any_double(gx_test_below(2) ? 60 : 1000));
		any_rational(q, gx_test_below(2) ? 60 : 900);
		any_rational(s, gx_test_below(2) ? 60 : 900);
		mpq_abs(s, s);
		switch (i % 3)
		{
			case 0:				/* r a square: p + q s is rational */
				mpq_mul(r, s, s);
				mpq_mul(v, q, s);
				mpq_add(v, v, p);
				want = gx_mpq_get_d_nearest(v);
				break;
			case 1:				/* p = 0, q = 1: the square root alone */
				mpq_set_ui(p, 0, 1);
				mpq_set_ui(q, 1, 1);
				mpq_set(r, s);
				want = gx_mpq_sqrt_nearest(r);
				break;
			default:			/* a square root of a non-square, in GMP floats */
				mpq_set(r, s);
				mpf_of(x, p, q, r);
				want = nearest_of_mpf(x);
				if (isinf(want))
					continue;	/* GMP's conversion beyond DBL_MAX is system dependent */
				break;
		}
		got = gx_round_sum_sqrt(p, q, r);
		CHECK_MSG(got == want || (got == 0 && want == 0), "case %d: %a + %g sqrt(%g): %a, want %a", i % 3,
				  mpq_get_d(p), mpq_get_d(q), mpq_get_d(r), got, want);
	}

	/* overflow: IEEE's threshold DBL_MAX + 2^970 rounds to infinity, a hair below it to DBL_MAX */
	mpq_set_d(p, DBL_MAX);
	mpq_set_ui(q, 1, 1);
	mpq_set_ui(r, 1, 1);
	mpq_mul_2exp(r, r, 1940);		/* sqrt(r) = 2^970 */
	CHECK(gx_round_sum_sqrt(p, q, r) == INFINITY);
	mpq_set_si(q, -1, 1);
	mpq_neg(p, p);
	CHECK(gx_round_sum_sqrt(p, q, r) == -INFINITY);
	mpq_set_ui(s, 1, 1);
	mpq_mul_2exp(s, s, 970);
	mpq_set_ui(v, 1, 1);
	mpq_div_2exp(v, v, 100);
	mpq_sub(s, s, v);
	mpq_mul(r, s, s);
	mpq_set_ui(q, 1, 1);
	mpq_neg(p, p);
	CHECK(gx_round_sum_sqrt(p, q, r) == DBL_MAX);
	mpq_set_d(p, 1e308);
	mpq_set_d(r, 1e308);
	mpq_mul(r, r, r);
	mpq_mul_2exp(r, r, 4);
	CHECK(gx_round_sum_sqrt(p, q, r) == INFINITY);	/* 5e308, the sum's square root's terms overflow first */

	/* ties go to even: 1 + 2^-53 rounds to 1, 1 + 3 2^-53 to 1 + 2^-51; half the least subnormal to 0 */
	mpq_set_ui(p, 1, 1);
	mpq_set_ui(r, 1, 1);
	mpq_div_2exp(r, r, 106);
	CHECK(gx_round_sum_sqrt(p, q, r) == 1.0);
	mpq_set_ui(r, 9, 1);
	mpq_div_2exp(r, r, 106);
	CHECK(gx_round_sum_sqrt(p, q, r) == 1 + 0x1p-51);
	mpq_set_ui(p, 0, 1);
	mpq_set_ui(r, 1, 1);
	mpq_div_2exp(r, r, 2 * 1075);
	CHECK(gx_round_sum_sqrt(p, q, r) == 0);
	mpq_set_ui(r, 9, 1);
	mpq_div_2exp(r, r, 2 * 1076);	/* 0.75 of the least subnormal */
	CHECK(gx_round_sum_sqrt(p, q, r) == 0x1p-1074);

	/* cancellation far from the guess: p + q sqrt(r) = 2^-60 with p = 2^60 */
	mpq_set_ui(p, 1, 1);
	mpq_mul_2exp(p, p, 60);
	mpq_set_si(q, -1, 1);
	mpq_set(s, p);
	mpq_set_ui(v, 1, 1);
	mpq_div_2exp(v, v, 60);
	mpq_sub(s, s, v);
	mpq_mul(r, s, s);
	CHECK(gx_round_sum_sqrt(p, q, r) == 0x1p-60);
	mpf_clear(x);
	mpq_clears(p, q, r, s, v, NULL);
}

/* The 12 triangles of the box [lo, hi], facing out. */
static void
box_triangles(const double lo[3], const double hi[3], double *tri)
{
	static const int faces[6][4] = {
		{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}
	};

	for (int f = 0; f < 6; f++)
		for (int t = 0; t < 2; t++)
		{
			int			c[3] = {faces[f][0], faces[f][1 + t], faces[f][2 + t]};

			for (int v = 0; v < 3; v++)
				for (int k = 0; k < 3; k++)
					tri[18 * f + 9 * t + 3 * v + k] = (c[v] >> k) & 1 ? hi[k] : lo[k];
		}
}

/* The intervals of line (n points) in the solid, with points (points) or lengths only. */
static size_t
depths(const GxSolidIndex *idx, const double *line, size_t n, bool points, double *from, double *to)
{
	GxInterceptJob j = {idx, line, n, NULL, 0, 0, 0, !points, NULL, 0};
	GxError		err = {GX_OK, ""};
	size_t		k = 0;

	if (points)
	{
		GxInterval *iv;

		CHECK(gx_intercepts(idx, line, n, &iv, &k, &err));
		for (size_t i = 0; i < k && i < 4; i++)
		{
			from[i] = iv[i].from;
			to[i] = iv[i].to;
		}
		free(iv);
		return k;
	}
	CHECK(gx_intercepts_many(&j, 1, 1, NULL, NULL, &err));
	for (size_t i = 0; i < j.n && i < 4; i++)
	{
		from[i] = j.out[i].from;
		to[i] = j.out[i].to;
	}
	free(j.out);
	return j.n;
}

/*
 * Holes through the box x, y in [0, 100], z in [300, 340]: vertical ones from z 400 (in from 60 m to
 * 100 m), inclined ones along (3, 4, -12) (13 m of hole per 12 m of depth: in from 65 m to 108.33 m), and
 * each again below a first segment of 100 m: every exact depth that is a double comes out exact.
 */
static void
test_hole_depths(void)
{
	double		lo[3] = {0, 0, 300},
				hi[3] = {100, 100, 340},
				tri[108],
				from[4],
				to[4];
	GxSolidIndex idx;
	GxError		err = {GX_OK, ""};
	int			wrong = 0;

	box_triangles(lo, hi, tri);
	CHECK(gx_solid_index_build(&idx, tri, 12, &err));
	for (int i = 0; i < 150; i++)
	{
		double		x = 1 + gx_test_int(0, 6200) / 64.0,	/* dyadic: x / 2 + 30 is exact too */
					y = 1 + gx_test_int(0, 6200) / 64.0,
					vertical[6] = {x, y, 400, x, y, 152},
					inclined[6] = {x / 2, y / 2, 400, x / 2 + 30, y / 2 + 40, 280},
					deeper[9] = {x, y, 500, x, y, 400, x, y, 152};

		for (int points = 0; points < 2; points++)
		{
			size_t		n = depths(&idx, vertical, 2, points, from, to);

			wrong += !(n == 1 && from[0] == 60 && to[0] == 100);
			n = depths(&idx, deeper, 3, points, from, to);
			wrong += !(n == 1 && from[0] == 160 && to[0] == 200);
			n = depths(&idx, inclined, 2, points, from, to);
			/* 65 exactly; 108.33... rounded once */
			wrong += !(n == 1 && from[0] == 65 && to[0] == 1300.0 / 12);
		}
	}
	CHECK_MSG(wrong == 0, "%d depths not exact", wrong);
	gx_solid_index_free(&idx);
}

/* Random segments through a random box: each depth is t |b - a| rounded once, t the exact crossing. */
static void
test_segment_depths(void)
{
	int			wrong = 0;

	for (int i = 0; i < 400; i++)
	{
		double		lo[3],
					hi[3],
					tri[108],
					seg[6],
					from[4],
					to[4];
		GxSolidIndex idx;
		GxError		err = {GX_OK, ""};
		mpq_t		t,
					len2,
					x,
					y;
		size_t		n;

		for (int k = 0; k < 3; k++)
		{
			lo[k] = gx_test_uniform() * 1000 + 500000;
			hi[k] = lo[k] + 50 + gx_test_uniform() * 100;	/* wide enough that the segment goes through */
			seg[k] = lo[k] - 1 - gx_test_uniform() * 9;
			seg[3 + k] = hi[k] + 1 + gx_test_uniform() * 9;
		}
		box_triangles(lo, hi, tri);
		CHECK(gx_solid_index_build(&idx, tri, 12, &err));
		n = depths(&idx, seg, 2, i % 2, from, to);
		mpq_inits(t, len2, x, y, NULL);
		gx_segment_length2_exact(seg, seg + 3, len2);
		/* the segment enters and leaves through the planes z = lo and z = hi or others: take each plane */
		if (n == 1)
		{
			double		ends[2] = {from[0], to[0]};
			bool		found[2] = {false, false};

			for (int k = 0; k < 3; k++)
				for (int side = 0; side < 2; side++)
				{
					double		plane = side ? hi[k] : lo[k];
					double		want;

					/* t = (plane - a) / (b - a) on axis k; its depth sqrt(t^2 len2) */
					mpq_set_d(x, plane);
					mpq_set_d(y, seg[k]);
					mpq_sub(x, x, y);
					mpq_set_d(t, seg[3 + k]);
					mpq_sub(t, t, y);
					mpq_div(t, x, t);
					mpq_mul(x, t, t);
					mpq_mul(x, x, len2);
					want = gx_mpq_sqrt_nearest(x);
					found[0] |= want == ends[0];
					found[1] |= want == ends[1];
				}
			wrong += !(found[0] && found[1]);
		}
		else
			wrong++;
		mpq_clears(t, len2, x, y, NULL);
		gx_solid_index_free(&idx);
	}
	CHECK_MSG(wrong == 0, "%d segments whose depths are not rounded once", wrong);
}

/* gx_polyline_locate: the exact point at a length, rounded once, against GMP floats. */
static void
test_locate(void)
{
	double		vertical[6] = {7, 9, 400, 7, 9, 152},
				out[3];
	GxError		err = {GX_OK, ""};
	int			wrong = 0;
	mpf_t		x,
				len,
				c,
				s;

	CHECK(gx_polyline_locate(vertical, 2, 60, out, &err) && out[0] == 7 && out[1] == 9 && out[2] == 340);
	mpf_init2(x, PREC);
	mpf_init2(len, PREC);
	mpf_init2(c, PREC);
	mpf_init2(s, PREC);
	for (int i = 0; i < 2000; i++)
	{
		double		line[9],
					m,
					start;

		for (int k = 0; k < 9; k++)
			line[k] = (k < 3 ? 0 : line[k - 3]) + (k < 3 ? 400000 : 0) + any_double(6);
		start = gx_segment_length(line, line + 3);
		m = start + gx_test_uniform() * gx_segment_length(line + 3, line + 6);
		if (!gx_polyline_locate(line, 3, m, out, &err))
		{
			wrong++;
			continue;
		}
		mpf_set_ui(len, 0);
		for (int k = 0; k < 3; k++)
		{
			mpf_set_d(c, line[6 + k]);
			mpf_set_d(x, line[3 + k]);
			mpf_sub(c, c, x);
			mpf_mul(c, c, c);
			mpf_add(len, len, c);
		}
		mpf_sqrt(len, len);
		mpf_set_d(x, m);
		mpf_set_d(c, start);
		mpf_sub(x, x, c);			/* m - start, from the second segment's start */
		for (int k = 0; k < 3; k++)
		{
			mpf_set_d(c, line[6 + k]);
			mpf_set_d(s, line[3 + k]);
			mpf_sub(c, c, s);		/* b - a */
			mpf_mul(c, c, x);
			mpf_div(c, c, len);
			mpf_add(c, c, s);
			wrong += out[k] != nearest_of_mpf(c);
		}
	}
	CHECK_MSG(wrong == 0, "%d coordinates not rounded once", wrong);
	mpf_clears(x, len, c, s, NULL);
}

int
main(void)
{
	mpf_set_default_prec(PREC);
	test_round_sum_sqrt();
	test_hole_depths();
	test_segment_depths();
	test_locate();
	return gx_test_report("test_measure");
}
