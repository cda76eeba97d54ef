/*
 * test_desurvey.c: unit tests of gx_desurvey (minimum curvature) and gx_measure (lengths and locating along
 * lines) against independent computations: straight holes with exact coordinates; holes surveyed along a
 * circle, where minimum curvature is exact, against the analytic circle (vertices and densified points); a
 * published worked example; densification leaving the survey vertices unchanged; lengths and located points
 * against long double oracles; every bad argument. argv[1] is not used.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_measure.h"
#include "base/gx_alloc.h"
#include "gx_test.h"
#include "io/gx_io.h"
#include "mining/gx_desurvey.h"

#define MAX_SURVEYS	64
#define U			0x1p-53

/* Uniform between lo and hi, from the shared test generator (gx_test.h). */
static double
rnd(double lo, double hi)
{
	return lo + (hi - lo) * gx_test_uniform();
}

static GxSerialized *
point(double x, double y, double z, int srid)
{
	char		wkt[128];
	size_t		size;
	GxError		err = {GX_OK, ""};

	snprintf(wkt, sizeof(wkt), "SRID=%d;POINT Z (%.17g %.17g %.17g)", srid, x, y, z);
	return gx_from_wkt(wkt, &size, &err);
}

/* Desurveys; NULL (err set) on failure. */
static GxSerialized *
trace(const GxSerialized *collar, const double *depth, const double *az, const double *dip, size_t n,
	  double step, bool down, GxError *err)
{
	GxSurvey	sv = {depth, az, dip, n};
	GxDesurveyOptions opt = {step > 0, step, down};
	size_t		size;

	return gx_desurvey(collar, &sv, &opt, &size, err);
}

static const double *
vertices(const GxSerialized *g, size_t *n)
{
	*n = gx_body(g)->count;
	return gx_node_coords(gx_body(g));
}

static bool
same_point(const double *p, double x, double y, double z)
{
	return p[0] == x && p[1] == y && p[2] == z;
}

static double
dist3(const double *p, const double *q)
{
	return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

/* Straight holes: exact coordinates for directions along the axes, tight ones at 45 degrees. */
static void
test_straight(void)
{
	GxSerialized *c = point(500000, 7000000, 350, 32633);
	GxError		err = {GX_OK, ""};
	double		d[] = {0, 100, 250}, az[] = {0, 0, 0}, dip[] = {-90, -90, -90};
	double		az_e[] = {90, 90}, flat[] = {0, 0}, d2[] = {10, 40.5};
	double		az_w[] = {-90, 270}, down[] = {90, 90}, az_ne[] = {45, 405}, dip45[] = {-45, -45};
	GxSerialized *g;
	const double *p;
	size_t		n;

	g = trace(c, d, az, dip, 3, 0, false, &err);
	p = vertices(g, &n);
	CHECK(g->srid == 32633 && gx_body(g)->type == GX_LINESTRING && n == 3);
	CHECK(same_point(p, 500000, 7000000, 350) && same_point(p + 3, 500000, 7000000, 250) &&
		  same_point(p + 6, 500000, 7000000, 100));
	gx_free(g);

	/* horizontal east; the first survey below the collar gives the direction from the collar down to it */
	g = trace(c, d2, az_e, flat, 2, 0, false, &err);
	p = vertices(g, &n);
	CHECK(n == 3 && same_point(p, 500000, 7000000, 350) && same_point(p + 3, 500010, 7000000, 350) &&
		  same_point(p + 6, 500040.5, 7000000, 350));
	gx_free(g);

	/* azimuths -90 and 270 are west; with dip_positive_down, +90 is straight down */
	g = trace(c, d2, az_w, flat, 2, 0, false, &err);
	p = vertices(g, &n);
	CHECK(n == 3 && same_point(p + 6, 499959.5, 7000000, 350));
	gx_free(g);
	g = trace(c, d2, az_w, down, 2, 0, true, &err);
	p = vertices(g, &n);
	CHECK(n == 3 && same_point(p + 3, 500000, 7000000, 340) && same_point(p + 6, 500000, 7000000, 309.5));
	gx_free(g);
	g = trace(c, d2, az_w, down, 2, 0, false, &err);
	p = vertices(g, &n);
	CHECK(n == 3 && same_point(p + 6, 500000, 7000000, 390.5));
	gx_free(g);

	/* north-east at 45 degrees down (azimuth 405 = 45) */
	g = trace(c, d2, az_ne, dip45, 2, 0, false, &err);
	p = vertices(g, &n);
	CHECK_MSG(n == 3 && fabs(p[6] - (500000 + 40.5 * 0.5)) < 1e-9 && fabs(p[7] - (7000000 + 40.5 * 0.5)) < 1e-9 &&
			  fabs(p[8] - (350 - 40.5 * sqrt(0.5))) < 1e-12, "%.17g %.17g %.17g", p[6], p[7], p[8]);
	gx_free(g);
	CHECK(err.code == GX_OK);
	gx_free(c);
}

/* A hole bending at a constant rate in a vertical plane: vertical at the collar, inclination d/R at depth d. */
static void
test_vertical_arc(void)
{
	const double R = 300, azimuth = 30;
	double		d[] = {0, 13, 40, 41.5, 90, 160, 230, 400}, az[8], dip[8];
	GxSerialized *c = point(0, 0, 0, 0), *g;
	GxError		err = {GX_OK, ""};
	const double *p;
	size_t		n;

	for (int i = 0; i < 8; i++)
		az[i] = azimuth, dip[i] = -90 + d[i] / R * (180 / M_PI);
	g = trace(c, d, az, dip, 8, 0, false, &err);
	p = vertices(g, &n);
	CHECK(n == 8);
	for (size_t i = 0; i < n; i++)
	{
		double		th = d[i] / R, h = R * (1 - cos(th));
		double		want[3] = {h * sin(azimuth * M_PI / 180), h * cos(azimuth * M_PI / 180), -R * sin(th)};

		CHECK_MSG(dist3(p + 3 * i, want) < 1e-10, "vertex %zu off the circle by %g", i, dist3(p + 3 * i, want));
	}
	gx_free(g);
	gx_free(c);
}

/* Direction of the circle through the origin with unit tangent t0 and unit normal nrm, radius R, at arc s. */
static void
circle_direction(const double t0[3], const double nrm[3], double R, double s, double t[3])
{
	for (int c = 0; c < 3; c++)
		t[c] = cos(s / R) * t0[c] + sin(s / R) * nrm[c];
}

static void
circle_point(const double t0[3], const double nrm[3], double R, double s, double p[3])
{
	for (int c = 0; c < 3; c++)
		p[c] = R * sin(s / R) * t0[c] + R * (1 - cos(s / R)) * nrm[c];
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The depths of a trace's points: 0, the surveys, and multiples of step not within step * 1e-9 of a survey. */
static size_t
expected_depths(const double *d, size_t n, double step, double *out, size_t cap)
{
	size_t		m = 0;

	out[m++] = 0;
	for (size_t i = 0; i < n; i++)
		if (d[i] > 0)
			out[m++] = d[i];
	for (double k = 1; step > 0 && k * step < d[n - 1] && m < cap; k++)
	{
		bool		near = false;

		for (size_t i = 0; i < n; i++)
			near |= fabs(k * step - d[i]) <= step * 1e-9;
		if (!near)
			out[m++] = k * step;
	}
	qsort(out, m, sizeof(double), cmp_double);
	return m;
}

/*
 * Random circles in 3D at UTM coordinates, surveyed at random depths: every vertex and every densified point
 * lies where the circle is at its depth (to 2 nm: two float8 spacings at northing 7e6, the oracle rounds too);
 * the trace's length is the sum of the circle's chords.
 */
static void
test_circles(void)
{
	static double want_d[20000];

	for (int round = 0; round < 300; round++)
	{
		double		t0[3], nrm[3], len, R = rnd(40, 3000), step = round % 3 ? rnd(0.3, 7) : 0;
		double		x0 = rnd(4e5, 6e5), y0 = rnd(6.9e6, 7.1e6), z0 = rnd(-500, 800);
		double		d[MAX_SURVEYS], az[MAX_SURVEYS], dip[MAX_SURVEYS], chords = 0;
		size_t		n = 2 + round % 20, np, nw;
		GxSerialized *c = point(x0, y0, z0, 32633), *g;
		GxError		err = {GX_OK, ""};
		const double *p;

		/* a random unit tangent and a unit normal orthogonal to it */
		do
		{
			for (int k = 0; k < 3; k++)
				t0[k] = rnd(-1, 1), nrm[k] = rnd(-1, 1);
			len = sqrt(t0[0] * t0[0] + t0[1] * t0[1] + t0[2] * t0[2]);
		} while (len < 0.1 || len > 1);
		for (int k = 0; k < 3; k++)
			t0[k] /= len;
		len = nrm[0] * t0[0] + nrm[1] * t0[1] + nrm[2] * t0[2];
		for (int k = 0; k < 3; k++)
			nrm[k] -= len * t0[k];
		len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
		for (int k = 0; k < 3; k++)
			nrm[k] /= len;

		/* depths: dogleg below 60 degrees between surveys, at most 3 radians in all; the circle starts at the
		 * first survey, and above it the hole is straight (the first survey's direction from the collar down) */
		d[0] = round % 2 ? 0 : rnd(0.5, 20);
		for (size_t i = 1; i < n; i++)
			d[i] = d[i - 1] + rnd(0.01, fmin(R, 3 * R / n));
		for (size_t i = 0; i < n; i++)
		{
			double		t[3];

			circle_direction(t0, nrm, R, d[i] - d[0], t);
			az[i] = atan2(t[0], t[1]) * (180 / M_PI);
			dip[i] = atan2(t[2], hypot(t[0], t[1])) * (180 / M_PI);
		}
		g = trace(c, d, az, dip, n, step, false, &err);
		CHECK_MSG(g != NULL, "%s", err.msg);
		if (g == NULL)
			continue;
		p = vertices(g, &np);
		nw = expected_depths(d, n, step, want_d, sizeof(want_d) / sizeof(want_d[0]));
		CHECK_MSG(np == nw, "round %d: %zu points, expected %zu", round, np, nw);
		for (size_t i = 0; i < np && i < nw; i++)
		{
			double		s = want_d[i], q[3];

			if (s <= d[0])
				for (int k = 0; k < 3; k++)
					q[k] = s * t0[k];
			else
			{
				circle_point(t0, nrm, R, s - d[0], q);
				for (int k = 0; k < 3; k++)
					q[k] += d[0] * t0[k];
			}
			q[0] += x0, q[1] += y0, q[2] += z0;
			CHECK_MSG(dist3(p + 3 * i, q) < 2e-9, "round %d point %zu (depth %g, R %g): off by %g", round, i, s, R,
					  dist3(p + 3 * i, q));
			if (i > 0)
				chords += want_d[i - 1] >= d[0] ? 2 * R * sin((s - want_d[i - 1]) / (2 * R)) : s - want_d[i - 1];
		}
		len = gx_polyline_length(p, np);
		CHECK_MSG(fabs(len - chords) < 1e-7 && len <= d[n - 1] * (1 + 4 * U), "round %d: length %.17g, chords %.17g",
				  round, len, chords);
		gx_free(g);
		gx_free(c);
	}
}

/*
 * The worked example of drillingformulas.com ("Minimum Curvature Method"): surveys at 3500 ft (inclination
 * 15, azimuth 20) and 3600 ft (25, 45) give North 27.22 ft, East 19.45 ft, TVD 94.01 ft between them.
 */
static void
test_published_example(void)
{
	double		d[] = {3500, 3600}, az[] = {20, 45}, dip[] = {-(90 - 15), -(90 - 25)};
	GxSerialized *c = point(0, 0, 0, 0), *g;
	GxError		err = {GX_OK, ""};
	const double *p;
	size_t		n;

	g = trace(c, d, az, dip, 2, 0, false, &err);
	p = vertices(g, &n);
	CHECK(n == 3);
	CHECK_MSG(fabs(p[7] - p[4] - 27.22) < 0.005 && fabs(p[6] - p[3] - 19.45) < 0.005 &&
			  fabs(p[5] - p[8] - 94.01) < 0.005, "N %.4f E %.4f TVD %.4f", p[7] - p[4], p[6] - p[3], p[5] - p[8]);
	/* the same with inclination-style dips (positive down) */
	dip[0] = 75, dip[1] = 65;
	gx_free(g);
	g = trace(c, d, az, dip, 2, 0, true, &err);
	p = vertices(g, &n);
	CHECK(fabs(p[5] - p[8] - 94.01) < 0.005);
	gx_free(g);
	gx_free(c);
}

/* Densification adds points between the survey vertices and leaves those vertices bit for bit unchanged. */
static void
test_densify_keeps_vertices(void)
{
	for (int round = 0; round < 200; round++)
	{
		double		d[MAX_SURVEYS], az[MAX_SURVEYS], dip[MAX_SURVEYS];
		size_t		n = 1 + round % 12, np, nd, j = 0;
		double		step = rnd(0.2, 12);
		GxSerialized *c = point(rnd(4e5, 6e5), rnd(6.9e6, 7.1e6), rnd(0, 900), 32633), *plain, *dense;
		GxError		err = {GX_OK, ""};
		const double *p, *q;

		d[0] = round % 2 ? rnd(0, 30) : 0;
		az[0] = rnd(0, 360), dip[0] = rnd(-90, -30);
		for (size_t i = 1; i < n; i++)
		{
			d[i] = d[i - 1] + (round % 5 == 0 ? step * (double) (i + 1) : rnd(0.5, 60));
			az[i] = az[i - 1] + rnd(-8, 8);
			dip[i] = fmax(-90, fmin(90, dip[i - 1] + rnd(-5, 5)));
		}
		if (d[n - 1] == 0)
			d[n - 1] = 1;
		plain = trace(c, d, az, dip, n, 0, round % 3 == 0, &err);
		dense = trace(c, d, az, dip, n, step, round % 3 == 0, &err);
		CHECK_MSG(plain && dense, "%s", err.msg);
		if (!plain || !dense)
			continue;
		p = vertices(plain, &np);
		q = vertices(dense, &nd);
		for (size_t i = 0; i < np; i++)
		{
			while (j < nd && memcmp(q + 3 * j, p + 3 * i, 3 * sizeof(double)) != 0)
				j++;
			CHECK_MSG(j < nd, "round %d: survey vertex %zu is not in the densified trace", round, i);
		}
		CHECK(nd >= np && memcmp(q, p, 3 * sizeof(double)) == 0 && memcmp(q + 3 * (nd - 1), p + 3 * (np - 1), 24) == 0);
		/* consecutive densified points are no farther apart than step (and the rounding of UTM coordinates) */
		for (size_t i = 1; i < nd; i++)
			CHECK_MSG(dist3(q + 3 * i - 3, q + 3 * i) <= step * (1 + 1e-9) + 4e-9, "round %d: gap %.17g > step %.17g", round,
					  dist3(q + 3 * i - 3, q + 3 * i), step);
		gx_free(plain);
		gx_free(dense);
		gx_free(c);
	}
}

static void
expect_error(GxSerialized *collar, const double *d, const double *az, const double *dip, size_t n, double step,
			 GxErrorCode code, const char *words)
{
	GxError		err = {GX_OK, ""};
	GxSurvey	sv = {d, az, dip, n};
	GxDesurveyOptions opt = {step != 0, step, false};
	size_t		size;
	GxSerialized *g = gx_desurvey(collar, &sv, &opt, &size, &err);

	CHECK_MSG(g == NULL && err.code == code && strstr(err.msg, words) != NULL, "expected '%s', got '%s'", words,
			  err.msg);
	gx_free(g);
}

static void
test_errors(void)
{
	GxSerialized *c = point(1, 2, 3, 0);
	size_t		size;
	GxError		err = {GX_OK, ""};
	GxSerialized *line = gx_from_wkt("LINESTRING Z (0 0 0,1 1 1)", &size, &err);
	GxSerialized *empty = gx_from_wkt("POINT EMPTY", &size, &err);
	double		d[] = {0, 10, 20}, az[] = {0, 10, 20}, dip[] = {-60, -60, -60};
	double		bad_d[] = {0, 10, 10}, neg_d[] = {-1, 10, 20}, nan_v[] = {0, NAN, 20}, inf_v[] = {0, 10, INFINITY};
	double		steep[] = {-60, -90.5, -60}, zero[] = {0}, opp_az[] = {0, 180, 180}, opp_dip[] = {-30, 30, 30};

	expect_error(line, d, az, dip, 3, 0, GX_ERR_INVALID, "must be a POINT, not a LINESTRING");
	expect_error(empty, d, az, dip, 3, 0, GX_ERR_INVALID, "not an empty one");
	expect_error(c, d, az, dip, 0, 0, GX_ERR_INVALID, "arrays are empty");
	expect_error(c, bad_d, az, dip, 3, 0, GX_ERR_INVALID, "survey 3: depth 10 is not greater");
	expect_error(c, neg_d, az, dip, 3, 0, GX_ERR_INVALID, "survey 1: depth -1 is negative");
	expect_error(c, nan_v, az, dip, 3, 0, GX_ERR_INVALID, "survey 2: depth nan");
	expect_error(c, d, nan_v, dip, 3, 0, GX_ERR_INVALID, "survey 2:");
	expect_error(c, d, az, inf_v, 3, 0, GX_ERR_INVALID, "survey 3:");
	expect_error(c, d, az, steep, 3, 0, GX_ERR_INVALID, "survey 2: dip -90.5 is outside [-90, 90]");
	expect_error(c, d, az, dip, 3, -1, GX_ERR_INVALID, "step_m must be a positive");
	expect_error(c, d, az, dip, 3, NAN, GX_ERR_INVALID, "step_m must be a positive");
	expect_error(c, zero, zero, zero, 1, 0, GX_ERR_INVALID, "single point");
	expect_error(c, d, opp_az, opp_dip, 3, 0, GX_ERR_INVALID, "opposite directions");
	expect_error(c, d, az, dip, 3, 1e-300, GX_ERR_LIMIT, "more points than one value holds");
	gx_free(c);
	gx_free(line);
	gx_free(empty);
}

/* Lengths and located points along random UTM polylines against long double oracles (Kahan-summed). */
static void
test_measure(void)
{
	static double xyz[3 * 2000];
	static long double cum[2000];

	for (int round = 0; round < 200; round++)
	{
		size_t		n = 2 + (size_t) rnd(0, 1998);
		GxError		err = {GX_OK, ""};
		double		out[3], len;
		long double lost = 0;	/* Kahan's compensation of the oracle's sum */

		xyz[0] = rnd(4e5, 6e5), xyz[1] = rnd(6.9e6, 7.1e6), xyz[2] = rnd(-500, 500);
		cum[0] = 0;
		for (size_t i = 1; i < n; i++)
		{
			long double dx, dy, dz, y;

			for (int k = 0; k < 3; k++)
				xyz[3 * i + k] = xyz[3 * i - 3 + k] + (round % 7 == 0 && i % 5 == 0 ? 0 : rnd(-20, 20));
			dx = (long double) xyz[3 * i] - xyz[3 * i - 3];
			dy = (long double) xyz[3 * i + 1] - xyz[3 * i - 2];
			dz = (long double) xyz[3 * i + 2] - xyz[3 * i - 1];
			y = sqrtl(dx * dx + dy * dy + dz * dz) - lost;
			cum[i] = cum[i - 1] + y;
			lost = (cum[i] - cum[i - 1]) - y;
		}
		len = gx_polyline_length(xyz, n);
		CHECK_MSG(fabsl(len - cum[n - 1]) <= (4.5 * U + (n * U) * (n * U)) * cum[n - 1], "round %d: length %.17g vs %.20Lg",
				  round, len, cum[n - 1]);

		/* ends and vertices exactly; a vertex's cumulative length is the length of the line up to it */
		CHECK(gx_polyline_locate(xyz, n, 0, out, &err) && memcmp(out, xyz, 24) == 0);
		CHECK(gx_polyline_locate(xyz, n, len, out, &err) && memcmp(out, xyz + 3 * (n - 1), 24) == 0);
		for (int k = 0; k < 20; k++)
		{
			size_t		v = (size_t) rnd(0, (double) n - 0.5);

			CHECK_MSG(gx_polyline_locate(xyz, n, gx_polyline_length(xyz, v + 1), out, &err) &&
					  memcmp(out, xyz + 3 * v, 24) == 0, "round %d: vertex %zu", round, v);
		}
		/* between: within the stated bound of the oracle's point at m */
		for (int k = 0; k < 50; k++)
		{
			double		m = rnd(0, len), bound;
			size_t		i = 1;
			long double t, dist = 0;

			while (i < n - 1 && cum[i] < m)
				i++;
			t = cum[i] > cum[i - 1] ? (m - cum[i - 1]) / (cum[i] - cum[i - 1]) : 0;
			CHECK(gx_polyline_locate(xyz, n, m, out, &err));
			for (int c = 0; c < 3; c++)
			{
				long double want = xyz[3 * i - 3 + c] + t * ((long double) xyz[3 * i + c] - xyz[3 * i - 3 + c]);

				dist += (out[c] - want) * (out[c] - want);
			}
			/* length error along the line, rounding of the interpolation, and one ulp of 7e6 per coordinate */
			bound = (4.5 * U + (n * U) * (n * U)) * m + 4 * U * (double) (cum[i] - cum[i - 1]) + 3 * 0x1p-30;
			CHECK_MSG(sqrtl(dist) <= bound, "round %d: m %.17g off by %Lg > %g", round, m, sqrtl(dist), bound);
		}
		CHECK(!gx_polyline_locate(xyz, n, -1e-300, out, &err) && err.code == GX_ERR_INVALID);
		err.code = GX_OK;
		CHECK(!gx_polyline_locate(xyz, n, nextafter(len, INFINITY), out, &err) && strstr(err.msg, "is outside [0, "));
		err.code = GX_OK;
		CHECK(!gx_polyline_locate(xyz, n, NAN, out, &err));
	}
}

/* Segments whose squares would overflow or underflow are scaled, not lost. */
static void
test_measure_extremes(void)
{
	double		a[3] = {0, 0, 0}, big[3] = {3e300, 4e300, 0}, tiny[3] = {3e-300, 0, 4e-300};
	double		huge[6] = {-1.5e308, 0, 0, 1.5e308, 0, 0}, out[3];
	GxError		err = {GX_OK, ""};

	CHECK(fabs(gx_segment_length(a, big) - 5e300) <= 5e300 * 4 * U);
	CHECK(fabs(gx_segment_length(a, tiny) - 5e-300) <= 5e-300 * 4 * U);
	CHECK(isinf(gx_polyline_length(huge, 2)));
	CHECK(!gx_polyline_locate(huge, 2, 1, out, &err) && strstr(err.msg, "too long"));
}

/* The area of the triangle at the origin with legs x and y along the axes, as gx_area computes it. */
static double
leg_area(const char *x, const char *y)
{
	char		wkt[200];
	size_t		size;
	GxError		err = {GX_OK, ""};
	GxSerialized *g;
	double		area;

	snprintf(wkt, sizeof(wkt), "TRIANGLE Z ((0 0 0,%s 0 0,0 %s 0,0 0 0))", x, y);
	g = gx_from_wkt(wkt, &size, &err);
	CHECK_MSG(g != NULL, "%s: %s", wkt, err.msg);
	if (g == NULL)
		return NAN;
	area = gx_geom_area(g);
	gx_free(g);
	return area;
}

/*
 * Areas at every magnitude, against the exact a b / 2 of the legs a and b (in long double, whose range holds
 * it): within the documented bound, plus half the smallest subnormal for a subnormal area; beyond DBL_MAX,
 * Infinity; a side longer than DBL_MAX still measured.
 */
static void
test_area_extremes(void)
{
	const char *legs[][2] = {{"1e100", "1e100"}, {"1e-100", "1e-100"}, {"3e200", "1e-250"}, {"1e-160", "1e-160"},
	{"3e-170", "2e-160"}, {"1e154", "1e154"}, {"1e-154", "1e-154"}, {"1.7e308", "1e-300"}, {"3", "4"}};
	size_t		size;
	GxError		err = {GX_OK, ""};
	GxSerialized *g;

	for (size_t i = 0; i < sizeof(legs) / sizeof(legs[0]); i++)
	{
		double		a = strtod(legs[i][0], NULL),
					b = strtod(legs[i][1], NULL),
					got = leg_area(legs[i][0], legs[i][1]);
		long double want = 0.5L * a * b;

		CHECK_MSG(fabsl(got - want) <= 8 * U * (long double) a * b + 0x1p-1075L,
				  "legs %s %s: area %.17g, exact %.17Lg", legs[i][0], legs[i][1], got, want);
	}
	CHECK(isinf(leg_area("1e300", "1e300")));
	CHECK(leg_area("0", "1e300") == 0);
	/* a side from -1.5e308 to 1.5e308 (longer than DBL_MAX) by 1e-300 across: 1.5e8 */
	g = gx_from_wkt("TRIANGLE Z ((-1.5e308 0 0,1.5e308 0 0,-1.5e308 1e-300 0,-1.5e308 0 0))", &size, &err);
	CHECK(g != NULL && fabs(gx_geom_area(g) - 1.5e8) <= 1.5e8 * 8 * U);
	gx_free(g);
}

int
main(void)
{
	gx_test_seed(UINT64_C(0x2545F4914F6CDD1D));
	test_straight();
	test_vertical_arc();
	test_circles();
	test_published_example();
	test_densify_keeps_vertices();
	test_errors();
	test_measure();
	test_measure_extremes();
	test_area_extremes();
	return gx_test_report("test_desurvey");
}
