/*
 * test_predicates.c: unit tests of the exact predicates (gx_predicates.h): hand cases (exact zeros,
 * signs, UTM offsets, 1-ulp perturbations, subnormal and huge coordinates), a randomized
 * differential test of the ladder and of the expansion rung against GMP, and the filter's
 * effectiveness at UTM coordinates; the exact values of the determinants (gx_predicates_exact.h) for
 * small integers times powers of two far apart, where double arithmetic gives them exactly. Usage:
 * test_predicates [seed].
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "gx_test.h"

#define DEFAULT_SEED UINT64_C(20240601)
#define RANDOM_CONFIGS 100000
#define UTM_CONFIGS 100000

#define P3 "(%a, %a, %a)"
#define A3(p) (p)[0], (p)[1], (p)[2]

static const double utm[3] = {500000.0, 7000000.0, 250.0};

/* splitmix64 */
static uint64_t rng_state;

static uint64_t
rnd(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int
rnd_int(int lo, int hi)
{
	return lo + (int) (rnd() % (uint64_t) (hi - lo + 1));
}

/* Counters of this thread since `before`. */
static GxPredStats
stats_since(const GxPredStats *before)
{
	GxPredStats s = gx_pred_stats;

	s.orient3d -= before->orient3d;
	s.orient2d -= before->orient2d;
	s.filter_failures -= before->filter_failures;
	s.exact_expansion -= before->exact_expansion;
	s.exact_gmp -= before->exact_gmp;
	return s;
}

static void
print_stats(const char *label, const GxPredStats *s)
{
	uint64_t	calls = s->orient3d + s->orient2d;

	printf("  %-22s orient3d %8" PRIu64 ", orient2d %8" PRIu64 ": filter %8" PRIu64
		   ", expansion %7" PRIu64 ", gmp %7" PRIu64 " (filter undecided %.3f%%)\n",
		   label, s->orient3d, s->orient2d, calls - s->filter_failures, s->exact_expansion,
		   s->exact_gmp, calls ? 100.0 * (double) s->filter_failures / (double) calls : 0.0);
}

/*
 * Compares the ladder, and the expansion rung where it applies, with GMP on one orient3d input;
 * returns GMP's sign.
 */
static int
check3(const double *a, const double *b, const double *c, const double *d)
{
	int			g = gx_orient3d_gmp(a, b, c, d);
	int			s = gx_orient3d(a, b, c, d);
	int			e = gx_orient3d_expansion(a, b, c, d);

	CHECK_MSG(s == g, "orient3d %d, gmp %d at " P3 P3 P3 P3, s, g, A3(a), A3(b), A3(c), A3(d));
	if (e != 2)
		CHECK_MSG(e == g, "orient3d expansion %d, gmp %d at " P3 P3 P3 P3,
				  e, g, A3(a), A3(b), A3(c), A3(d));
	return g;
}

/* The same for orient2d in projection `drop`. */
static int
check2(const double *a, const double *b, const double *c, int drop)
{
	int			g = gx_orient2d_gmp(a, b, c, drop);
	int			s = gx_orient2d(a, b, c, drop);
	int			e = gx_orient2d_expansion(a, b, c, drop);

	CHECK_MSG(s == g, "orient2d(%d) %d, gmp %d at " P3 P3 P3, drop, s, g, A3(a), A3(b), A3(c));
	if (e != 2)
		CHECK_MSG(e == g, "orient2d(%d) expansion %d, gmp %d at " P3 P3 P3,
				  drop, e, g, A3(a), A3(b), A3(c));
	return g;
}

/* Point at offset o plus the lattice point (x, y, z) times unit. */
static void
at(double *p, const double *o, double unit, double x, double y, double z)
{
	p[0] = o[0] + x * unit;
	p[1] = o[1] + y * unit;
	p[2] = o[2] + z * unit;
}

/* Point with 2D coordinates (u, v) in projection `drop`, and w along the dropped axis. */
static void
at2(double *p, int drop, double u, double v, double w)
{
	p[(drop + 1) % 3] = u;
	p[(drop + 2) % 3] = v;
	p[drop] = w;
}

static void
hand_orient3d(void)
{
	static const double zero[3] = {0, 0, 0};
	const double *offsets[2] = {zero, utm};
	double		a[3], b[3], c[3], d[3], e[3];
	GxPredStats before;

	/* Shewchuk's convention: d below the counter-clockwise triangle a b c is positive. */
	at(a, zero, 1, 0, 0, 0);
	at(b, zero, 1, 1, 0, 0);
	at(c, zero, 1, 0, 1, 0);
	at(d, zero, 1, 0, 0, -1);
	CHECK(check3(a, b, c, d) == 1);
	CHECK(check3(b, a, c, d) == -1);
	at(d, zero, 1, 0, 0, 1);
	CHECK(check3(a, b, c, d) == -1);
	at(d, zero, 1, 5, -7, 0);
	CHECK(check3(a, b, c, d) == 0);
	CHECK(check3(a, b, c, a) == 0);
	CHECK(check3(a, a, c, d) == 0);

	/* Exact zeros on a lattice: the plane x + y + z = 6, and four points of a line. */
	at(a, zero, 1, 1, 2, 3);
	at(b, zero, 1, 3, 1, 2);
	at(c, zero, 1, 2, 3, 1);
	at(d, zero, 1, 6, 0, 0);
	CHECK(check3(a, b, c, d) == 0);
	at(d, zero, 1, -4, 5, 5);
	CHECK(check3(a, b, c, d) == 0);
	at(a, zero, 1, 0, 0, 0);
	at(b, zero, 1, 1, 1, 1);
	at(c, zero, 1, 2, 2, 2);
	at(d, zero, 1, 3, 3, 3);
	CHECK(check3(a, b, c, d) == 0);

	/*
	 * Translation invariance with centimetre-sized features at the origin and at UTM offsets: in
	 * units of 1/128 m the translated points are exact, so the signs must be identical; in units of
	 * 0.01 m they are rounded, and the ladder must still agree with GMP (check3).
	 */
	for (int k = 0; k < 2; k++)
	{
		double		unit = k == 0 ? 1.0 / 128 : 0.01;
		int			sign[2][4];

		for (int o = 0; o < 2; o++)
		{
			/* the tilted plane z = x / 100 + 2 y / 100, and points 1 unit above and below it */
			at(a, offsets[o], unit, 0, 0, 0);
			at(b, offsets[o], unit, 100, 0, 1);
			at(c, offsets[o], unit, 0, 100, 2);
			at(d, offsets[o], unit, 100, 100, 3);
			sign[o][0] = check3(a, b, c, d);
			at(d, offsets[o], unit, 100, 100, 4);
			sign[o][1] = check3(a, b, c, d);
			at(d, offsets[o], unit, 100, 100, 2);
			sign[o][2] = check3(a, b, c, d);
			at(d, offsets[o], unit, 30, 30, -1);
			sign[o][3] = check3(a, b, c, d);
		}
		if (k == 0)
			CHECK(sign[0][0] == 0 && sign[1][0] == 0);
		for (int i = 1; i < 4; i++)
			CHECK_MSG(sign[0][i] == sign[1][i] && sign[0][i] != 0, "unit %g, case %d", unit, i);
		CHECK(sign[0][1] == -1 && sign[0][2] == 1);
	}

	/* 1-ulp perturbations of an exactly coplanar point at the origin and at UTM offsets. */
	for (int o = 0; o < 2; o++)
	{
		at(a, offsets[o], 1.0 / 128, 0, 0, 0);
		at(b, offsets[o], 1.0 / 128, 100, 0, 1);
		at(c, offsets[o], 1.0 / 128, 0, 100, 2);
		at(d, offsets[o], 1.0 / 128, 100, 100, 3);
		CHECK(check3(a, b, c, d) == 0);
		for (int axis = 0; axis < 3; axis++)
		{
			int			up, down;

			e[0] = d[0], e[1] = d[1], e[2] = d[2];
			e[axis] = nextafter(d[axis], INFINITY);
			up = check3(a, b, c, e);
			e[axis] = nextafter(d[axis], -INFINITY);
			down = check3(a, b, c, e);
			CHECK_MSG(up != 0 && up == -down, "offset %d axis %d: %d %d", o, axis, up, down);
		}
		e[0] = d[0], e[1] = d[1], e[2] = nextafter(d[2], INFINITY);
		CHECK(check3(a, b, c, e) == -1);
	}

	/* Nearly collinear a, b, c (Shewchuk's example): the filter cannot decide, expansions do. */
	before = gx_pred_stats;
	a[0] = nextafter(0.5, 1), a[1] = 0.5, a[2] = 0.5;
	at(b, zero, 1, 12, 12, 12);
	at(c, zero, 1, 24, 24, 24);
	at(d, zero, 1, 1, 0, 3);
	CHECK(check3(a, b, c, d) != 0);
	a[0] = 0.5;
	CHECK(check3(a, b, c, d) == 0);
	CHECK(stats_since(&before).exact_expansion == 2);

	/* Tiny (1e-300, subnormal) and huge (1e300, overflowing differences) coordinates go to GMP. */
	before = gx_pred_stats;
	for (int k = 0; k < 3; k++)
	{
		double		unit = k == 0 ? 1e-300 : k == 1 ? 0x1p-1074 : 1e300;

		at(a, zero, unit, 0, 0, 0);
		at(b, zero, unit, 2, 0, 0);
		at(c, zero, unit, 0, 3, 0);
		at(d, zero, unit, 0, 0, -1);
		CHECK(check3(a, b, c, d) == 1);
		CHECK(gx_orient3d_expansion(a, b, c, d) == 2);
		at(d, zero, unit, 1, 1, 0);
		CHECK(check3(a, b, c, d) == 0);
		at(d, zero, unit, 1, 1, 1);
		CHECK(check3(a, b, c, d) == -1);
		d[2] = nextafter(0, 1);
		CHECK(check3(a, b, c, d) == -1);
	}
	CHECK(stats_since(&before).exact_gmp == 12);
	at(a, zero, 1e308, -1, 0, 0);
	at(b, zero, 1e308, 1, 0, 0);
	at(c, zero, 1e308, 0, 1, 0);
	at(d, zero, 1e308, 0, 0, -1);
	CHECK(check3(a, b, c, d) == 1);
	/* mixed: unit triangle, d far below it, or a tiny step off its plane */
	at(a, zero, 1, 0, 0, 0);
	at(b, zero, 1, 1, 0, 0);
	at(c, zero, 1, 0, 1, 0);
	at(d, zero, 1, 0.25, 0.25, -1e300);
	CHECK(check3(a, b, c, d) == 1);
	at(d, zero, 1, 1e-300, 0, 0);
	CHECK(check3(a, b, c, d) == 0);
	at(d, zero, 1, 0.5, 0.5, 1e-300);
	CHECK(check3(a, b, c, d) == -1);

	/* Non-finite coordinates (rejected by the parsers) give 0 instead of aborting in GMP. */
	at(d, zero, 1, NAN, 0, 0);
	CHECK(gx_orient3d(a, b, c, d) == 0);
	CHECK(gx_orient3d_expansion(a, b, c, d) == 2);
	at(d, zero, 1, 0, INFINITY, 0);
	CHECK(gx_orient3d(a, b, c, d) == 0);
}

static void
hand_orient2d(void)
{
	double		a[3], b[3], c[3];
	GxPredStats before;

	for (int drop = 0; drop < 3; drop++)
	{
		/* counter-clockwise is positive; the dropped coordinate is irrelevant */
		at2(a, drop, 0, 0, 7);
		at2(b, drop, 1, 0, -3);
		at2(c, drop, 0, 1, 1e10);
		CHECK(check2(a, b, c, drop) == 1);
		CHECK(check2(b, a, c, drop) == -1);
		at2(c, drop, 3, 0, 1);
		CHECK(check2(a, b, c, drop) == 0);
		CHECK(check2(a, a, c, drop) == 0);
		at2(a, drop, -2, -2, 0);
		at2(b, drop, 1, 1, 0);
		at2(c, drop, 5, 5, 0);
		CHECK(check2(a, b, c, drop) == 0);

		/* collinear at UTM offsets (exact in units of 1/128 m), then 1 ulp off the line */
		at2(a, drop, utm[0], utm[1], 0);
		at2(b, drop, utm[0] + 1.0 / 128, utm[1] + 3.0 / 128, 0);
		at2(c, drop, utm[0] + 5.0 / 128, utm[1] + 15.0 / 128, 0);
		CHECK(check2(a, b, c, drop) == 0);
		c[(drop + 2) % 3] = nextafter(c[(drop + 2) % 3], INFINITY);
		CHECK(check2(a, b, c, drop) == 1);
		c[(drop + 2) % 3] = nextafter(utm[1] + 15.0 / 128, -INFINITY);
		CHECK(check2(a, b, c, drop) == -1);

		/* Shewchuk's nearly collinear points: the filter cannot decide, expansions do. */
		before = gx_pred_stats;
		at2(a, drop, nextafter(0.5, 1), 0.5, 0);
		at2(b, drop, 12, 12, 0);
		at2(c, drop, 24, 24, 0);
		CHECK(check2(a, b, c, drop) == -1);
		at2(a, drop, 0.5, nextafter(0.5, 1), 0);
		CHECK(check2(a, b, c, drop) == 1);
		CHECK(stats_since(&before).exact_expansion == 2);

		/* tiny, subnormal, huge and overflowing coordinates go to GMP */
		before = gx_pred_stats;
		for (int k = 0; k < 4; k++)
		{
			double		unit = k == 0 ? 1e-300 : k == 1 ? 0x1p-1074 : k == 2 ? 1e300 : 1e308;

			at2(a, drop, -unit, 0, 0);
			at2(b, drop, unit, 0, 0);
			at2(c, drop, 0, unit, 0);
			CHECK(check2(a, b, c, drop) == 1);
			CHECK(gx_orient2d_expansion(a, b, c, drop) == 2);
			at2(c, drop, 0, 0, 0);
			CHECK(check2(a, b, c, drop) == 0);
		}
		CHECK(stats_since(&before).exact_gmp == 8);
		at2(a, drop, 0, 0, 0);
		at2(b, drop, 1, 1, 0);
		at2(c, drop, 1e300, 1e300 + 1e285, 0);
		CHECK(check2(a, b, c, drop) == 1);
		at2(c, drop, 1e-300, 0, 0);
		CHECK(check2(a, b, c, drop) == -1);

		at2(c, drop, NAN, 0, 0);
		CHECK(gx_orient2d(a, b, c, drop) == 0);
		at2(c, drop, 0, 0, NAN);
		CHECK(check2(a, b, c, drop) == 0);
	}
}

/* Moves x by 0 to 3 ulps in a random direction. */
static double
perturb(double x)
{
	int			steps = rnd_int(0, 3);
	double		toward = (rnd() & 1) ? INFINITY : -INFINITY;

	for (int i = 0; i < steps; i++)
		x = nextafter(x, toward);
	return x;
}

/* Random finite double with a random exponent in [emin, emax]. */
static double
random_exponent_double(int emin, int emax)
{
	double		m = 1.0 + (double) (rnd() >> 11) * 0x1p-53;
	int			e = rnd_int(emin, emax);

	return ldexp((rnd() & 1) ? m : -m, e);
}

/*
 * n (3 or 4) random points: small integer lattice points, the last one often made dependent on the
 * others (coplanar for 4, collinear in space or in one projection for 3), mapped to doubles at one
 * of several scales and offsets, or (one time in five) at extreme exponents; then, in half of the
 * configurations, a random subset of the coordinates is moved by a few ulps.
 */
static void
random_points(int n, double p[4][3])
{
	static const int radii[] = {1, 3, 20};
	static const double scales[] = {1e-3, 0x1p-10, 1, 1e3, 1e6};
	static const double offsets[3][3] = {{0, 0, 0}, {5e5, 7e6, 250}, {1e9, 1e9, 1e9}};
	int			r = radii[rnd_int(0, 2)];
	int			lat[4][3];
	int			dependent = rnd_int(0, 2);
	int			s = rnd_int(-2, 2),
				t = n == 4 ? rnd_int(-2, 2) : 0,
				kept = rnd_int(0, 2);
	int			mode = rnd_int(0, 9);
	int			perturbed = rnd_int(0, 1);
	double		scale = scales[rnd_int(0, 4)];
	const double *offset = offsets[rnd_int(0, 2)];
	double		base[3];
	int			exponent[3];

	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			lat[i][k] = rnd_int(-r, r);
	/* dependent 1: in space; 2: in the projection dropping axis `kept` only */
	if (dependent)
		for (int k = 0; k < 3; k++)
			if (dependent == 1 || k != kept)
				lat[n - 1][k] = lat[0][k] + s * (lat[1][k] - lat[0][k]) +
					t * (lat[2][k] - lat[0][k]);

	/*
	 * Extreme modes: lattice times 2^e (|lattice| < 2^8, so differences may overflow), or lattice
	 * times 2^e added to a random base 0 to 60 binades above it.
	 */
	exponent[0] = exponent[1] = exponent[2] = rnd_int(-1074, 1015);
	for (int k = 0; k < 3; k++)
	{
		base[k] = 0;
		if (mode == 9)
		{
			base[k] = random_exponent_double(-1074, 1015);
			exponent[k] = ilogb(base[k]) - rnd_int(0, 60);
			if (exponent[k] < -1074)
				exponent[k] = -1074;
		}
	}

	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
		{
			if (mode < 8)
				p[i][k] = offset[k] + lat[i][k] * scale;
			else
				p[i][k] = base[k] + ldexp(lat[i][k], exponent[k]);
			if (perturbed && rnd_int(0, 3) == 0)
				p[i][k] = perturb(p[i][k]);
		}
}

static void
random_differential(void)
{
	GxPredStats before = gx_pred_stats;
	GxPredStats s;
	long		zeros3 = 0,
				zeros2 = 0;
	double		p[4][3];

	for (int i = 0; i < RANDOM_CONFIGS; i++)
	{
		random_points(4, p);
		zeros3 += check3(p[0], p[1], p[2], p[3]) == 0;
	}
	for (int i = 0; i < RANDOM_CONFIGS; i++)
	{
		random_points(3, p);
		for (int drop = 0; drop < 3; drop++)
			zeros2 += check2(p[0], p[1], p[2], drop) == 0;
	}
	s = stats_since(&before);
	printf("  random: %d orient3d configurations (%ld exactly degenerate), %d orient2d configurations x 3 projections (%ld degenerate)\n",
		   RANDOM_CONFIGS, zeros3, RANDOM_CONFIGS, zeros2);
	print_stats("random differential:", &s);
	/* every rung must have been exercised */
	CHECK(s.exact_expansion > 1000 && s.exact_gmp > 1000 && zeros3 > 1000 && zeros2 > 1000);
}

/* Exact determinant of three integer vectors. */
static int64_t
det3(const int64_t u[3], const int64_t v[3], const int64_t w[3])
{
	return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
		u[2] * (v[0] * w[1] - v[1] * w[0]);
}

/*
 * The filter must decide almost everything on non-degenerate centimetre-scale configurations at
 * UTM offsets (features up to 20 m), in orient3d and in all three projections of orient2d.
 */
static void
filter_effectiveness(void)
{
	GxPredStats before = gx_pred_stats;
	GxPredStats s;
	int			done = 0;

	while (done < UTM_CONFIGS)
	{
		int			lat[4][3];
		int64_t		u[3], v[3], w[3];
		double		p[4][3];

		for (int i = 0; i < 4; i++)
			for (int k = 0; k < 3; k++)
				lat[i][k] = rnd_int(0, 2000);
		for (int k = 0; k < 3; k++)
		{
			u[k] = lat[0][k] - lat[3][k];
			v[k] = lat[1][k] - lat[3][k];
			w[k] = lat[2][k] - lat[3][k];
		}
		if (det3(u, v, w) == 0 || u[0] * v[1] == u[1] * v[0] || u[1] * v[2] == u[2] * v[1] ||
			u[2] * v[0] == u[0] * v[2])
			continue;
		for (int i = 0; i < 4; i++)
			at(p[i], utm, 0.01, lat[i][0], lat[i][1], lat[i][2]);
		check3(p[0], p[1], p[2], p[3]);
		for (int drop = 0; drop < 3; drop++)
			check2(p[0], p[1], p[3], drop);
		done++;
	}
	s = stats_since(&before);
	print_stats("UTM, non-degenerate:", &s);
	CHECK_MSG(s.filter_failures * 100 < s.orient3d + s.orient2d, "%" PRIu64 " filter failures",
			  s.filter_failures);
}

/*
 * gx_orient3d_value and gx_orient2d_value against the determinant of the small integers computed in
 * doubles (exact: every product and sum stays below 2^53), times the powers of two; each point has its own
 * power, or all points share one.
 */
static void
exact_values(void)
{
	mpq_t		got,
				want;
	int			wrong = 0;

	mpq_inits(got, want, NULL);
	for (int r = 0; r < 20000; r++)
	{
		int			k = rnd_int(-1074, 300);
		double		p[4][3],
					q[4][3];
		int			w[4];

		for (int v = 0; v < 4; v++)
		{
			w[v] = r % 2 ? k : rnd_int(-1074, 300);
			for (int a = 0; a < 3; a++)
				p[v][a] = rnd_int(-1000, 1000);
		}
		/* one shared power: the integer determinant times 2^(3k) */
		for (int v = 0; v < 4; v++)
			for (int a = 0; a < 3; a++)
				q[v][a] = ldexp(p[v][a], k);
		{
			double		ad[3],
						bd[3],
						cd[3];

			for (int a = 0; a < 3; a++)
			{
				ad[a] = p[0][a] - p[3][a];
				bd[a] = p[1][a] - p[3][a];
				cd[a] = p[2][a] - p[3][a];
			}
			mpq_set_d(want, ad[2] * (bd[0] * cd[1] - cd[0] * bd[1]) + bd[2] * (cd[0] * ad[1] - ad[0] * cd[1]) +
					  cd[2] * (ad[0] * bd[1] - bd[0] * ad[1]));
		}
		if (k >= 0)
			mpq_mul_2exp(want, want, (mp_bitcnt_t) 3 * k);
		else
			mpq_div_2exp(want, want, (mp_bitcnt_t) (-3 * k));
		wrong += !gx_orient3d_value(q[0], q[1], q[2], q[3], got) || !mpq_equal(got, want);
		/* orient2d over (x, y) of points 0, 1, 2 with powers of their own: the sum of three cross terms */
		{
			mpq_t		term;
			double		s[3][3];

			mpq_init(term);
			for (int v = 0; v < 3; v++)
				for (int a = 0; a < 3; a++)
					s[v][a] = ldexp(p[v][a], w[v]);
			mpq_set_ui(want, 0, 1);
			/* (a - c) x (b - c) = a x b + b x c + c x a */
			for (int v = 0; v < 3; v++)
			{
				int			u = (v + 1) % 3;

				mpq_set_d(term, p[v][0] * p[u][1] - p[u][0] * p[v][1]);
				if (w[v] + w[u] >= 0)
					mpq_mul_2exp(term, term, (mp_bitcnt_t) (w[v] + w[u]));
				else
					mpq_div_2exp(term, term, (mp_bitcnt_t) -(w[v] + w[u]));
				mpq_add(want, want, term);
			}
			wrong += !gx_orient2d_value(s[0], s[1], s[2], 2, got) || !mpq_equal(got, want);
			mpq_clear(term);
		}
	}
	CHECK_MSG(wrong == 0, "%d exact determinant values wrong", wrong);
	mpq_clears(got, want, NULL);
}

/*
 * gx_plane_crossing_tu against lambda (gx_plane_crossing's): the point a + lambda (b - a) on axes i and j, its
 * (t, u) by Cramer's rule in the triangle's projection there; refused where that projection is flat.
 */
static bool
crossing_tu_agrees(const double *T, const double *a, const double *b, mpq_srcptr lambda, int i, int j)
{
	mpq_t		x[2],
				e[2][2],
				d,
				w,
				t,
				u,
				gt,
				gu;
	bool		ok;

	mpq_inits(x[0], x[1], e[0][0], e[0][1], e[1][0], e[1][1], d, w, t, u, gt, gu, NULL);
	for (int k = 0; k < 2; k++)
	{
		int			ax = k ? j : i;

		mpq_set_d(x[k], b[ax]);
		mpq_set_d(w, a[ax]);
		mpq_sub(x[k], x[k], w);
		mpq_mul(x[k], x[k], lambda);
		mpq_add(x[k], x[k], w);
		mpq_set_d(w, T[ax]);
		mpq_sub(x[k], x[k], w);	/* X - T0 */
		for (int m = 0; m < 2; m++)
		{
			mpq_set_d(e[m][k], T[3 * (m + 1) + ax]);
			mpq_sub(e[m][k], e[m][k], w);
		}
	}
	mpq_mul(d, e[0][0], e[1][1]);
	mpq_mul(w, e[0][1], e[1][0]);
	mpq_sub(d, d, w);
	if (mpq_sgn(d) == 0)
		ok = !gx_plane_crossing_tu(T, i, j, a, b, gt, gu);
	else
	{
		mpq_mul(t, x[0], e[1][1]);
		mpq_mul(w, x[1], e[1][0]);
		mpq_sub(t, t, w);
		mpq_div(t, t, d);
		mpq_mul(u, e[0][0], x[1]);
		mpq_mul(w, e[0][1], x[0]);
		mpq_sub(u, u, w);
		mpq_div(u, u, d);
		ok = gx_plane_crossing_tu(T, i, j, a, b, gt, gu) && mpq_equal(gt, t) && mpq_equal(gu, u);
	}
	mpq_clears(x[0], x[1], e[0][0], e[0][1], e[1][0], e[1][1], d, w, t, u, gt, gu, NULL);
	return ok;
}

/*
 * gx_plane_crossing against va / (va - vb) of two gx_orient3d_value calls, for a triangle and two points
 * each with a power of two of its own (coordinates from 2^-1074 to 2^300 times small integers), and points
 * at UTM offsets one ulp apart; a segment parallel to the plane is refused. For a segment whose ends lie
 * strictly on either side, gx_plane_crossing_trunc gives mpq_get_d of that ratio (its truncation) or
 * declines; it declines every other segment, and none at UTM offsets or with coordinates within its range.
 * gx_plane_crossing_tu on each pair of axes in turn (crossing_tu_agrees).
 */
static void
plane_crossings(void)
{
	mpq_t		va,
				vb,
				want,
				got;
	int			wrong = 0,
				parallel = 0,
				strict_utm = 0,
				fast_utm = 0,
				strict_scaled = 0,
				fast_scaled = 0;

	mpq_inits(va, vb, want, got, NULL);
	for (int r = 0; r < 20000; r++)
	{
		double		t[9],
					a[3],
					b[3],
					q;
		bool		utm = r % 3 == 0,
					strict;

		for (int k = 0; k < 9; k++)
			t[k] = utm ? (k % 3 == 0 ? 500000.0 : k % 3 == 1 ? 7000000.0 : 250.0) + rnd_int(-50, 50) * 0.125 :
				ldexp(rnd_int(-1000, 1000), rnd_int(-1074, 300) / (r % 2 ? 1 : 8));
		for (int k = 0; k < 3; k++)
		{
			a[k] = utm ? nextafter(t[k], rnd_int(0, 1) ? INFINITY : -INFINITY) + rnd_int(-3, 3) * 0.25 :
				ldexp(rnd_int(-1000, 1000), rnd_int(-1074, 300) / (r % 2 ? 1 : 8));
			b[k] = r % 97 == 0 ? a[k] + (t[3 + k] - t[k]) : utm ? t[6 + k] + rnd_int(-3, 3) * 0.5 :
				ldexp(rnd_int(-1000, 1000), rnd_int(-1074, 300) / (r % 2 ? 1 : 8));
		}
		if (!gx_orient3d_value(t, t + 3, t + 6, a, va) || !gx_orient3d_value(t, t + 3, t + 6, b, vb))
			continue;
		strict = mpq_sgn(va) * mpq_sgn(vb) < 0;
		mpq_sub(want, va, vb);
		if (mpq_sgn(want) == 0)
		{
			parallel++;
			wrong += gx_plane_crossing(t, a, b, got) + gx_plane_crossing_trunc(t, a, b, &q);
			continue;
		}
		mpq_div(want, va, want);
		wrong += !gx_plane_crossing(t, a, b, got) || !mpq_equal(got, want);
		wrong += !crossing_tu_agrees(t, a, b, want, r % 3, (r + 1 + r / 3 % 2) % 3);
		if (gx_plane_crossing_trunc(t, a, b, &q))
		{
			wrong += !strict || q != mpq_get_d(want);
			fast_utm += utm;
			fast_scaled += !utm && r % 2 == 0;
		}
		strict_utm += strict && utm;
		strict_scaled += strict && !utm && r % 2 == 0;
	}
	CHECK_MSG(wrong == 0, "%d plane crossings wrong", wrong);
	CHECK_MSG(parallel > 0, "no segment parallel to its plane among the cases");
	CHECK_MSG(strict_utm > 1000 && fast_utm == strict_utm, "%d of %d crossings at UTM offsets truncated without GMP",
			  fast_utm, strict_utm);
	CHECK_MSG(strict_scaled > 1000 && fast_scaled == strict_scaled,
			  "%d of %d crossings at coordinates from 2^-134 to 2^47 truncated without GMP", fast_scaled, strict_scaled);
	mpq_clears(va, vb, want, got, NULL);
}

/*
 * gx_plane_crossing_trunc where the crossing may be a double: the plane z = c of a horizontal triangle at UTM
 * offsets, crossed by a segment from h i above it to h j below (u = i / (i + j), a double when i + j is a
 * power of two), its ends then often moved by an ulp or a few along z; each against mpq_get_d of
 * gx_plane_crossing's u. Then the edges of its range: coordinates that are small integers times 2^-150 or
 * near 2^149, and crossings from a point 2^-150 above the plane to one 2^140 to 2^149 below, where u comes
 * near its least, 2^-300 (accepted ones must be right; some are declined).
 */
/* Counts a crossing gx_plane_crossing_trunc takes (fast), and those whose truncation is not u's (wrong). */
static void
truncated(const double *t, const double *a, const double *b, mpq_srcptr u, int *fast, int *wrong)
{
	double		q;

	if (gx_plane_crossing_trunc(t, a, b, &q))
	{
		(*fast)++;
		*wrong += q != mpq_get_d(u);
	}
}

static void
plane_crossings_at_doubles(void)
{
	mpq_t		u;
	int			wrong = 0,
				fast = 0,
				cases = 0;

	mpq_init(u);
	for (int r = 0; r < 20000; r++)
	{
		double		c = 250.0 + rnd_int(-1000, 1000) * 0.125,
					x = 500000.0 + rnd_int(-1000, 1000) * 0.5,
					y = 7000000.0 + rnd_int(-1000, 1000) * 0.5,
					t[9] = {x, y, c, x + 10, y, c, x, y + 10, c},
					h = ldexp(1, rnd_int(-3, 6)),
					a[3] = {x + rnd_int(0, 4), y + rnd_int(0, 4), c + h * rnd_int(1, 7)},
					b[3] = {x + rnd_int(0, 4), y + rnd_int(0, 4), c - h * rnd_int(1, 7)};

		for (int m = rnd_int(0, 3); m > 0; m--)
			a[2] = nextafter(a[2], rnd_int(0, 1) ? INFINITY : -INFINITY);
		for (int m = rnd_int(0, 3); m > 0; m--)
			b[2] = nextafter(b[2], rnd_int(0, 1) ? INFINITY : -INFINITY);
		/* (an end at z = 0 moved by ulps would be subnormal, out of gx_plane_crossing_trunc's range) */
		if (!(a[2] > c && b[2] < c) || fabs(b[2]) < 1 || !gx_plane_crossing(t, a, b, u))
			continue;
		cases++;
		truncated(t, a, b, u, &fast, &wrong);
	}
	CHECK_MSG(wrong == 0, "%d truncated crossings wrong", wrong);
	CHECK_MSG(cases > 10000 && fast == cases, "%d of %d crossings near doubles truncated without GMP", fast, cases);
	wrong = fast = cases = 0;
	for (int r = 0; r < 20000; r++)
	{
		int			e = r % 2 ? -150 : 139;
		double		t[9],
					a[3],
					b[3];

		for (int k = 0; k < 9; k++)
			t[k] = k % 3 == 2 ? 0 : ldexp(rnd_int(-1000, 1000), rnd_int(0, 3) ? e : -e - 11);
		t[2] = t[5] = t[8] = ldexp(rnd_int(-3, 3), e);
		for (int k = 0; k < 2; k++)
		{
			a[k] = ldexp(rnd_int(-1000, 1000), e);
			b[k] = ldexp(rnd_int(-1000, 1000), rnd_int(0, 1) ? e : -150);
		}
		a[2] = t[2] + ldexp(rnd_int(1, 7), r % 3 ? -150 : e);
		b[2] = t[2] - ldexp(rnd_int(1, 1000), rnd_int(140, 149) - (r % 3 == 0 ? 0 : 10));
		if (!(a[2] > t[2] && b[2] < t[2]) || !gx_plane_crossing(t, a, b, u) ||
			gx_orient3d(t, t + 3, t + 6, a) * gx_orient3d(t, t + 3, t + 6, b) >= 0)
			continue;
		cases++;
		truncated(t, a, b, u, &fast, &wrong);
	}
	CHECK_MSG(wrong == 0, "%d truncated crossings at the edges of the range wrong", wrong);
	CHECK_MSG(cases > 5000 && fast > cases / 4, "%d of %d crossings at the edges of the range truncated", fast, cases);
	mpq_clear(u);
}

int
main(int argc, char **argv)
{
	uint64_t	seed = argc > 1 ? strtoull(argv[1], NULL, 0) : DEFAULT_SEED;

	printf("test_predicates: seed %" PRIu64 "\n", seed);
	rng_state = seed;
	hand_orient3d();
	hand_orient2d();
	random_differential();
	filter_effectiveness();
	exact_values();
	plane_crossings();
	plane_crossings_at_doubles();
	print_stats("whole test:", &gx_pred_stats);
	return gx_test_report("test_predicates");
}
