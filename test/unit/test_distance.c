/*
 * test_distance.c: exact distance (gx_distance.h) and correct rounding (gx_round.h) against independent
 * oracles.
 *  - Element distance oracle: the closest pair of two convex hulls is the affine closest pair of some two
 *    sub-simplices (vertex subsets) whose normal equations are non-singular and whose solution has
 *    non-negative weights; the oracle solves all 7 x 7 subset pairs by Gaussian elimination in GMP and
 *    keeps the least. It shares nothing with the implementation (no clamping, no degenerate reduction).
 *  - Rounding oracle: r is the double nearest to v iff v lies between the midpoints of r with its two
 *    neighbours (ties: r even), checked exactly in GMP (for square roots, against the squared midpoints).
 * Cases: random lattice configurations (touching, parallel, coplanar, degenerate ones frequent), random
 * doubles at UTM offsets, exact distances that are doubles, with d and coordinates 1 ulp either side.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "batch/gx_batch.h"
#include "gx_test.h"
#include "io/gx_io.h"
#include "operation/gx_distance.h"
#include "operation/gx_solid_make.h"

/* ---- the element oracle -------------------------------------------------------------------------------- */

/* Least |x - y|^2 over x in hull(a), y in hull(b) (na, nb vertices, mpq coordinates), into d2. */
static void
oracle_d2(mpq_t (*a)[3], int na, mpq_t (*b)[3], int nb, mpq_t d2)
{
	bool		have = false;
	mpq_t		m[4][5],		/* normal equations, augmented */
				col[4][3],
				r[3],
				z[4],
				t,
				w,
				v;

	for (int i = 0; i < 4; i++)
	{
		for (int j = 0; j < 5; j++)
			mpq_init(m[i][j]);
		for (int k = 0; k < 3; k++)
			mpq_init(col[i][k]);
		mpq_init(z[i]);
	}
	mpq_inits(r[0], r[1], r[2], t, w, v, NULL);
	for (int sa = 1; sa < (1 << na); sa++)
		for (int sb = 1; sb < (1 << nb); sb++)
		{
			int			ia[3],
						ib[3],
						ka = 0,
						kb = 0,
						n = 0;
			bool		ok = true;

			for (int i = 0; i < na; i++)
				if (sa & (1 << i))
					ia[ka++] = i;
			for (int j = 0; j < nb; j++)
				if (sb & (1 << j))
					ib[kb++] = j;
			/* x - y = r + sum z_c col_c, r = a0 - b0, columns a_i - a0 and -(b_j - b0) */
			for (int k = 0; k < 3; k++)
				mpq_sub(r[k], a[ia[0]][k], b[ib[0]][k]);
			for (int i = 1; i < ka; i++, n++)
				for (int k = 0; k < 3; k++)
					mpq_sub(col[n][k], a[ia[i]][k], a[ia[0]][k]);
			for (int j = 1; j < kb; j++, n++)
				for (int k = 0; k < 3; k++)
					mpq_sub(col[n][k], b[ib[0]][k], b[ib[j]][k]);
			for (int p = 0; p < n; p++)
			{
				for (int q = 0; q < n; q++)
				{
					mpq_set_ui(m[p][q], 0, 1);
					for (int k = 0; k < 3; k++)
					{
						mpq_mul(t, col[p][k], col[q][k]);
						mpq_add(m[p][q], m[p][q], t);
					}
				}
				mpq_set_ui(m[p][n], 0, 1);
				for (int k = 0; k < 3; k++)
				{
					mpq_mul(t, col[p][k], r[k]);
					mpq_sub(m[p][n], m[p][n], t);
				}
			}
			/* Gauss-Jordan with exact pivots; a singular system is skipped (its sub-simplices cover it) */
			for (int p = 0; p < n && ok; p++)
			{
				int			piv = p;

				while (piv < n && mpq_sgn(m[piv][p]) == 0)
					piv++;
				if (piv == n)
				{
					ok = false;
					break;
				}
				for (int q = 0; q <= n; q++)
					mpq_swap(m[p][q], m[piv][q]);
				for (int i = 0; i < n; i++)
					if (i != p && mpq_sgn(m[i][p]) != 0)
					{
						mpq_div(t, m[i][p], m[p][p]);
						for (int q = p; q <= n; q++)
						{
							mpq_mul(w, t, m[p][q]);
							mpq_sub(m[i][q], m[i][q], w);
						}
					}
			}
			if (!ok)
				continue;
			/* weights: z for the later vertices, 1 - their sum for the first of each side, all >= 0 */
			for (int p = 0; p < n; p++)
			{
				mpq_div(z[p], m[p][n], m[p][p]);
				ok &= mpq_sgn(z[p]) >= 0;
			}
			mpq_set_ui(t, 1, 1);
			for (int p = 0; p < ka - 1; p++)
				mpq_sub(t, t, z[p]);
			mpq_set_ui(w, 1, 1);
			for (int p = ka - 1; p < n; p++)
				mpq_sub(w, w, z[p]);
			if (!ok || mpq_sgn(t) < 0 || mpq_sgn(w) < 0)
				continue;
			mpq_set_ui(t, 0, 1);
			for (int k = 0; k < 3; k++)
			{
				mpq_set(w, r[k]);
				for (int p = 0; p < n; p++)
				{
					mpq_mul(v, z[p], col[p][k]);
					mpq_add(w, w, v);
				}
				mpq_mul(w, w, w);
				mpq_add(t, t, w);
			}
			if (!have || mpq_cmp(t, d2) < 0)
				mpq_set(d2, t);
			have = true;
		}
	for (int i = 0; i < 4; i++)
	{
		for (int j = 0; j < 5; j++)
			mpq_clear(m[i][j]);
		for (int k = 0; k < 3; k++)
			mpq_clear(col[i][k]);
		mpq_clear(z[i]);
	}
	mpq_clears(r[0], r[1], r[2], t, w, v, NULL);
}

static void
vertices_of(GxElem e, mpq_t (*v)[3])
{
	for (int i = 0; i < e.kind; i++)
		for (int k = 0; k < 3; k++)
			mpq_set_d(v[i][k], e.c[3 * i + k]);
}

typedef struct Verts
{
	mpq_t		v[3][3];
} Verts;

static void
verts_init(Verts *v)
{
	for (int i = 0; i < 3; i++)
		mpq_inits(v->v[i][0], v->v[i][1], v->v[i][2], NULL);
}

static void
verts_clear(Verts *v)
{
	for (int i = 0; i < 3; i++)
		mpq_clears(v->v[i][0], v->v[i][1], v->v[i][2], NULL);
}

static long element_checks;
static long filter_decided;

/*
 * One pair: exact d2 against the oracle, the closest points on their elements and |pa - pb|^2 = d2, the
 * filter bounds around d2, and the same in the other argument order.
 */
static void
check_pair(GxElem a, GxElem b, const char *what)
{
	GxClosest	c,
				r;
	Verts		va,
				vb;
	mpq_t		want,
				on,
				x;
	double		lo,
				hi;

	gx_closest_init(&c);
	gx_closest_init(&r);
	verts_init(&va);
	verts_init(&vb);
	mpq_inits(want, on, x, NULL);
	vertices_of(a, va.v);
	vertices_of(b, vb.v);
	oracle_d2(va.v, a.kind, vb.v, b.kind, want);
	gx_elem_closest(a, b, &c);
	gx_elem_closest(b, a, &r);
	element_checks++;
	CHECK_MSG(mpq_equal(c.d2, want), "%s: d2 %g, oracle %g", what, mpq_get_d(c.d2), mpq_get_d(want));
	CHECK_MSG(mpq_equal(r.d2, want), "%s (swapped): d2 %g, oracle %g", what, mpq_get_d(r.d2), mpq_get_d(want));
	/* the points: on their elements (oracle distance 0) and as far apart as d2 says */
	oracle_d2(&c.pa, 1, va.v, a.kind, on);
	CHECK_MSG(mpq_sgn(on) == 0, "%s: pa is not on a", what);
	oracle_d2(&c.pb, 1, vb.v, b.kind, on);
	CHECK_MSG(mpq_sgn(on) == 0, "%s: pb is not on b", what);
	oracle_d2(&c.pa, 1, &c.pb, 1, on);
	CHECK_MSG(mpq_equal(on, c.d2), "%s: |pa - pb|^2 differs from d2", what);
	gx_elem_dist2_bounds(a, b, &lo, &hi);
	mpq_set_d(x, lo);
	CHECK_MSG(mpq_cmp(x, want) <= 0, "%s: filter lower bound %.17g above d2 %.17g", what, lo, mpq_get_d(want));
	if (isfinite(hi))
	{
		mpq_set_d(x, hi);
		CHECK_MSG(mpq_cmp(x, want) >= 0, "%s: filter upper bound %.17g below d2 %.17g", what, hi,
				  mpq_get_d(want));
	}
	/* a filter worth having: bounds within a relative 1e-9 of each other on well-separated pairs */
	if (mpq_get_d(want) > 0 && hi - lo <= 1e-9 * hi)
		filter_decided++;
	mpq_clears(want, on, x, NULL);
	verts_clear(&va);
	verts_clear(&vb);
	gx_closest_clear(&c);
	gx_closest_clear(&r);
}

/* Random configurations of small lattice points: ties, touching, parallel, coplanar, degenerate. */
static void
test_lattice(void)
{
	double		ca[9],
				cb[9];
	static const double offsets[][3] = {{0, 0, 0}, {500000, 7000000, 1000}};

	for (int n = 0; n < 6000; n++)
	{
		int			ka = 1 + (int) (gx_test_rand() % 3),
					kb = 1 + (int) (gx_test_rand() % 3);
		const double *o = offsets[n % 2];
		double		scale = n % 2 ? 0.25 : 1;	/* centimetre-sized features at UTM offsets: exact */

		for (int i = 0; i < 9; i++)
		{
			ca[i] = o[i % 3] + scale * (double) (gx_test_rand() % 5);
			cb[i] = o[i % 3] + scale * (double) (gx_test_rand() % 5);
		}
		check_pair((GxElem) {ca, ka}, (GxElem) {cb, kb}, "lattice");
	}
}

/* Random doubles (full mantissas) near UTM coordinates; some vertices perturbed by one ulp. */
static void
test_random_doubles(void)
{
	double		ca[9],
				cb[9];
	static const double o[3] = {512345.678, 7012345.678, 1234.5};

	for (int n = 0; n < 3000; n++)
	{
		int			ka = 1 + (int) (gx_test_rand() % 3),
					kb = 1 + (int) (gx_test_rand() % 3);

		for (int i = 0; i < 9; i++)
		{
			ca[i] = o[i % 3] + (gx_test_uniform() - 0.5) * 0.1;
			cb[i] = o[i % 3] + (gx_test_uniform() - 0.5) * 0.1;
		}
		if (n % 3 == 0)			/* b a copy of a, one coordinate one ulp off: almost touching */
		{
			memcpy(cb, ca, sizeof(cb));
			cb[gx_test_rand() % 9] = nextafter(cb[gx_test_rand() % 9], INFINITY);
		}
		check_pair((GxElem) {ca, ka}, (GxElem) {cb, kb}, "random doubles");
	}
}

/* ---- rounding ------------------------------------------------------------------------------------------ */

/* Is r the double nearest to v (ties to even)? When sq, v is compared with squared midpoints (r ~ sqrt v). */
static bool
is_nearest(double r, mpq_srcptr v, bool sq)
{
	double		nb[2] = {nextafter(r, -INFINITY), nextafter(r, INFINITY)};
	mpq_t		m,
				t;
	bool		ok = true;
	uint64_t	bits;

	mpq_inits(m, t, NULL);
	memcpy(&bits, &r, sizeof(bits));
	for (int s = 0; s < 2; s++)
	{
		int			c;

		if (isinf(nb[s]))
			continue;
		if (isinf(r))
			break;
		/* midpoint of r and its neighbour */
		mpq_set_d(m, r);
		mpq_set_d(t, nb[s]);
		mpq_add(m, m, t);
		mpq_div_2exp(m, m, 1);
		if (sq)
		{
			if (mpq_sgn(m) < 0)
				continue;
			mpq_mul(m, m, m);
		}
		c = mpq_cmp(v, m);
		if (s == 0 && sq && r == 0)
			continue;
		if (s == 0 ? c < 0 : c > 0)
			ok = false;
		if (c == 0 && (bits & 1))
			ok = false;			/* a tie goes to the even neighbour */
	}
	if (isinf(r))
	{
		/* overflow: v must be at least DBL_MAX + half an ulp */
		mpq_set_d(m, DBL_MAX);
		mpq_set_d(t, 0x1p970);
		mpq_add(m, m, t);
		if (sq)
			mpq_mul(m, m, m);
		ok = mpq_cmp(mpq_sgn(v) < 0 ? (mpq_neg(t, v), t) : v, m) >= 0;
	}
	mpq_clears(m, t, NULL);
	return ok;
}

static void
check_round(mpq_srcptr v, const char *what)
{
	double		r = gx_mpq_get_d_nearest(v);

	CHECK_MSG(is_nearest(r, v, false), "%s: %a is not the nearest double", what, r);
	if (mpq_sgn(v) >= 0)
	{
		double		s = gx_mpq_sqrt_nearest(v);

		CHECK_MSG(is_nearest(s, v, true), "%s: %a is not the nearest double to the square root", what, s);
	}
}

static void
test_rounding(void)
{
	mpq_t		q,
				t;
	char		what[64];

	mpq_inits(q, t, NULL);
	/* random ratios of random integers, of many sizes */
	for (int n = 0; n < 20000; n++)
	{
		mpz_set_ui(mpq_numref(q), gx_test_rand() >> (gx_test_rand() % 64));
		mpz_mul_2exp(mpq_numref(q), mpq_numref(q), gx_test_rand() % 200);
		mpz_set_ui(mpq_denref(q), (gx_test_rand() >> (gx_test_rand() % 64)) | 1);
		mpz_mul_2exp(mpq_denref(q), mpq_denref(q), gx_test_rand() % 200);
		mpq_canonicalize(q);
		check_round(q, "random ratio");
	}
	/* exact squares of doubles (sqrt is that double), halfway points and their squares, 1 part in 2^200 off */
	for (int n = 0; n < 20000; n++)
	{
		int			e = (int) (gx_test_rand() % 2100) - 1074 - 10;
		double		d = ldexp(1 + gx_test_uniform(), e > 1000 ? 1000 : e),
					dn = nextafter(d, INFINITY);

		if (d == 0 || isinf(dn))
			continue;
		mpq_set_d(q, d);
		mpq_mul(q, q, q);
		CHECK_MSG(gx_mpq_sqrt_nearest(q) == d, "sqrt of the square of %a", d);
		check_round(q, "square of a double");
		/* halfway between d and its successor; then squared (a halfway square root) */
		mpq_set_d(q, d);
		mpq_set_d(t, dn);
		mpq_add(q, q, t);
		mpq_div_2exp(q, q, 1);
		snprintf(what, sizeof(what), "halfway above %a", d);
		check_round(q, what);
		mpq_mul(q, q, q);
		check_round(q, "square of a halfway point");
		for (int s = -1; s <= 1; s += 2)
		{
			mpq_set_ui(t, 1, 1);
			mpq_div_2exp(t, t, 200 + (unsigned) (gx_test_rand() % 400));
			mpq_mul(t, t, q);
			if (s < 0)
				mpq_sub(t, q, t);
			else
				mpq_add(t, q, t);
			check_round(t, "near a halfway square");
		}
	}
	/* subnormal and overflowing values */
	mpq_set_d(q, 0x1p-1074);
	mpq_div_2exp(q, q, 1);
	CHECK(gx_mpq_get_d_nearest(q) == 0);	/* a tie to even: 0 */
	mpq_set_ui(t, 1, 3);
	mpq_mul(t, t, q);
	mpq_add(q, q, t);
	CHECK(gx_mpq_get_d_nearest(q) == 0x1p-1074);
	mpq_set_d(q, DBL_MAX);
	mpq_mul(q, q, q);
	CHECK(gx_mpq_sqrt_nearest(q) == DBL_MAX);
	mpq_set_d(q, -DBL_MAX);
	mpq_mul_2exp(q, q, 1);
	CHECK(gx_mpq_get_d_nearest(q) == -INFINITY);
	mpq_clears(q, t, NULL);
}

/* ---- geometries ---------------------------------------------------------------------------------------- */

static GxSerialized *
geom(const char *wkt)
{
	size_t		size;
	GxError		err = {GX_OK, ""};
	GxSerialized *g = gx_from_wkt(wkt, &size, &err);

	if (g == NULL)
		fprintf(stderr, "bad test geometry %s: %s\n", wkt, err.msg);
	return g;
}

static int
dwithin(const char *a, const char *b, double d)
{
	GxSerialized *ga = geom(a),
			   *gb = geom(b);
	GxError		err = {GX_OK, ""};
	int			r = gx_dwithin(ga, gb, d, &err);

	gx_free(ga);
	gx_free(gb);
	return r;
}

static double
distance(const char *a, const char *b)
{
	GxSerialized *ga = geom(a),
			   *gb = geom(b);
	GxError		err = {GX_OK, ""};
	GxClosest	c;
	double		r;

	r = NAN;
	if (gx_closest(ga, gb, &c, &err) == 1)
	{
		r = gx_mpq_sqrt_nearest(c.d2);
		gx_closest_clear(&c);
	}
	gx_free(ga);
	gx_free(gb);
	return r;
}

/* Within exactly d, not within the double below, within the double above. */
static void
check_at(const char *a, const char *b, double d)
{
	CHECK_MSG(dwithin(a, b, d) == 1, "%s / %s: not within %.17g", a, b, d);
	CHECK_MSG(dwithin(b, a, d) == 1, "%s / %s: not within %.17g", b, a, d);
	CHECK_MSG(dwithin(a, b, nextafter(d, 0)) == 0, "%s / %s: within %.17g", a, b, nextafter(d, 0));
	CHECK_MSG(dwithin(a, b, nextafter(d, INFINITY)) == 1, "%s / %s", a, b);
	CHECK_MSG(distance(a, b) == d, "%s / %s: distance %.17g, want %.17g", a, b, distance(a, b), d);
}

/* Configurations whose exact distance is a double, plain and at UTM offsets (translation is exact here). */
static void
test_exact_distances(void)
{
	char		a[512],
				b[512];
	static const double off[][3] = {{0, 0, 0}, {500000, 7000000, 1000}, {-3, 0.5, 2e5}};

	for (int k = 0; k < 3; k++)
	{
		double		x = off[k][0],
					y = off[k][1],
					z = off[k][2];

		/* point-point 3-4-5 */
		snprintf(a, sizeof(a), "POINT Z (%.17g %.17g %.17g)", x, y, z);
		snprintf(b, sizeof(b), "POINT Z (%.17g %.17g %.17g)", x + 3, y, z + 4);
		check_at(a, b, 5);
		/* point to the interior of a segment, 3-4-5 */
		snprintf(b, sizeof(b), "LINESTRING Z (%.17g %.17g %.17g, %.17g %.17g %.17g)", x + 3, y - 10, z + 4, x + 3,
				 y + 10, z + 4);
		check_at(a, b, 5);
		/* skew segments 0.25 apart */
		snprintf(a, sizeof(a), "LINESTRING Z (%.17g %.17g %.17g, %.17g %.17g %.17g)", x - 1, y, z, x + 1, y, z);
		snprintf(b, sizeof(b), "LINESTRING Z (%.17g %.17g %.17g, %.17g %.17g %.17g)", x, y - 1, z + 0.25, x, y + 1,
				 z + 0.25);
		check_at(a, b, 0.25);
		/* parallel overlapping segments 0.01 apart (centimetre) */
		snprintf(b, sizeof(b), "LINESTRING Z (%.17g %.17g %.17g, %.17g %.17g %.17g)", x, y, z + 0.015625, x + 3, y,
				 z + 0.015625);
		check_at(a, b, 0.015625);
		/* point over a triangle's interior along the normal (2,1,2): distance 3 */
		snprintf(a, sizeof(a), "TRIANGLE Z ((%.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g))",
				 x + 1, y, z - 1, x, y + 2, z - 1, x - 1, y - 1, z + 1.5, x + 1, y, z - 1);
		snprintf(b, sizeof(b), "POINT Z (%.17g %.17g %.17g)", x + 2, y + 1, z + 2);
		check_at(a, b, 3);
		/* the triangle moved by the normal (2,1,2): parallel faces 3 apart */
		snprintf(b, sizeof(b), "TIN Z (((%.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g)))",
				 x + 3, y + 1, z + 1, x + 2, y + 3, z + 1, x + 1, y, z + 3.5, x + 3, y + 1, z + 1);
		check_at(a, b, 3);
		/* a degenerate triangle (collinear) and a zero-length segment */
		snprintf(a, sizeof(a), "TRIANGLE Z ((%.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g))",
				 x, y, z, x + 2, y, z, x + 1, y, z, x, y, z);
		snprintf(b, sizeof(b), "LINESTRING Z (%.17g %.17g %.17g, %.17g %.17g %.17g)", x + 1, y + 0.75, z, x + 1,
				 y + 0.75, z);
		check_at(a, b, 0.75);
	}
}

/* One ulp in a coordinate moves the answer: at UTM scale, centimetre gaps. */
static void
test_ulp_coordinates(void)
{
	char		a[256],
				b[256];
	double		zt = 1000.0,
				zp = 1000.01;
	double		gap;
	mpq_t		q,
				t;

	mpq_inits(q, t, NULL);
	/* the exact gap zp - zt is a double (Sterbenz) */
	gap = zp - zt;
	snprintf(a, sizeof(a), "TRIANGLE Z ((500000 7000000 %.17g, 500010 7000000 %.17g, 500000 7000010 %.17g, 500000 7000000 %.17g))",
			 zt, zt, zt, zt);
	snprintf(b, sizeof(b), "POINT Z (500001 7000001 %.17g)", zp);
	check_at(a, b, gap);
	snprintf(b, sizeof(b), "POINT Z (500001 7000001 %.17g)", nextafter(zp, INFINITY));
	CHECK(dwithin(a, b, gap) == 0);
	snprintf(b, sizeof(b), "POINT Z (500001 7000001 %.17g)", nextafter(zp, 0));
	CHECK(dwithin(a, b, nextafter(gap, 0)) == 1);
	/* a drill-hole segment passing 1 cm past an edge, slanted: compare with the oracle's exact distance */
	snprintf(b, sizeof(b), "LINESTRING Z (500005 6999990 1000.005, 500005.01 7000010 999.995)");
	{
		double		d = distance(a, b);
		GxSerialized *ga = geom(a),
				   *gb = geom(b);
		GxClosest	c;
		GxError		err = {GX_OK, ""};

		if (gx_closest(ga, gb, &c, &err) != 1)
			gx_closest_init(&c);	/* the checks below then fail */
		CHECK(is_nearest(d, c.d2, true));
		for (double x = nextafter(d, 0); x <= nextafter(d, INFINITY); x = nextafter(x, INFINITY))
		{
			mpq_set_d(q, x);
			mpq_mul(q, q, q);
			CHECK_MSG(dwithin(a, b, x) == (mpq_cmp(q, c.d2) >= 0), "slanted hole, d %.17g", x);
		}
		gx_closest_clear(&c);
		gx_free(ga);
		gx_free(gb);
	}
	mpq_clears(q, t, NULL);
}

/* Meshes large enough for the grid: the geometry answer is the least element answer (brute force). */
static void
test_meshes(void)
{
	int			crossing = 0;

	for (int round = 0; round < 12; round++)
	{
		int			na = 20 + (int) (gx_test_rand() % 200),
					nb = 1 + (int) (gx_test_rand() % 60);
		size_t		cap = 64 + 400 * (size_t) (na + nb);
		char	   *wa = malloc(cap),
				   *wb = malloc(cap);
		size_t		la = 0,
					lb = 0;
		double		shift = round % 3 == 0 ? 3 : 0.03;
		bool		cross = round % 3 == 2;	/* a segment through the first triangle: they intersect */
		double		first[9] = {0};
		GxSerialized *ga,
				   *gb;
		GxElements	ea,
					eb;
		GxClosest	c,
					e;
		GxError		err = {GX_OK, ""};
		mpq_t		best,
					dd;
		bool		have = false;

		la += snprintf(wa + la, cap - la, "TIN Z (");
		for (int i = 0; i < na; i++)
		{
			double		x = 500000 + 10 * gx_test_uniform(),
						y = 7000000 + 10 * gx_test_uniform(),
						z = 1000 + 10 * gx_test_uniform();

			double		t[9] = {x, y, z, x + gx_test_uniform(), y, z + gx_test_uniform(), x, y + gx_test_uniform(), z};

			if (i == 0)
				memcpy(first, t, sizeof(t));
			la += snprintf(wa + la, cap - la, "%s((%.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g))",
						   i ? "," : "", t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], x, y, z);
		}
		snprintf(wa + la, cap - la, ")");
		lb += snprintf(wb + lb, cap - lb, "MULTILINESTRING Z (");
		if (cross)
		{
			double		cx = (first[0] + first[3] + first[6]) / 3,
						cy = (first[1] + first[4] + first[7]) / 3;

			lb += snprintf(wb + lb, cap - lb, "(%.17g %.17g %.17g, %.17g %.17g %.17g),", cx, cy, first[2] - 5, cx, cy,
						   first[2] + 5);
		}
		for (int i = 0; i < nb; i++)
		{
			double		x = 500000 + 10 * gx_test_uniform(),
						y = 7000000 + 10 * gx_test_uniform();

			lb += snprintf(wb + lb, cap - lb, "%s(%.17g %.17g %.17g, %.17g %.17g %.17g)", i ? "," : "", x, y,
						   1011 + shift, x + gx_test_uniform(), y + gx_test_uniform(), 1011 + shift + gx_test_uniform());
		}
		snprintf(wb + lb, cap - lb, ")");
		ga = geom(wa);
		gb = geom(wb);
		gx_elements_collect(ga, NULL, &ea, &err);
		gx_elements_collect(gb, NULL, &eb, &err);
		gx_closest_init(&e);
		mpq_inits(best, dd, NULL);
		for (size_t i = 0; i < ea.n; i++)
			for (size_t j = 0; j < eb.n; j++)
			{
				gx_elem_closest(ea.elems[i], eb.elems[j], &e);
				if (!have || mpq_cmp(e.d2, best) < 0)
					mpq_set(best, e.d2);
				have = true;
			}
		if (gx_closest(ga, gb, &c, &err) != 1)
			gx_closest_init(&c);
		CHECK_MSG(mpq_equal(c.d2, best), "mesh %d: %g, brute force %g", round, mpq_get_d(c.d2), mpq_get_d(best));
		if (mpq_sgn(c.d2) == 0)
			crossing++;
		CHECK(mpq_sgn(c.d2) != 0 || (mpq_equal(c.pa[0], c.pb[0]) && mpq_equal(c.pa[1], c.pb[1]) &&
									   mpq_equal(c.pa[2], c.pb[2])));
		for (int s = -1; s <= 1; s++)
		{
			double		d = gx_mpq_sqrt_nearest(best);

			d = s < 0 ? nextafter(d, 0) : s > 0 ? nextafter(d, INFINITY) : d;
			mpq_set_d(dd, d);
			mpq_mul(dd, dd, dd);
			CHECK_MSG(gx_dwithin(ga, gb, d, &err) == (mpq_cmp(best, dd) <= 0), "mesh %d, d %.17g", round, d);
			CHECK(gx_dwithin(gb, ga, d, &err) == (mpq_cmp(best, dd) <= 0));
		}
		mpq_clears(best, dd, NULL);
		gx_closest_clear(&c);
		gx_closest_clear(&e);
		gx_elements_free(&ea);
		gx_elements_free(&eb);
		gx_free(ga);
		gx_free(gb);
		free(wa);
		free(wb);
	}
	CHECK_MSG(crossing >= 4, "only %d of the crossing meshes intersect", crossing);
}

/* A random small geometry near (500000, 7000000, 1000): a few triangles, segments or points. */
static GxSerialized *
random_geometry(void)
{
	char		wkt[4096];
	size_t		n = 0;
	int			kind = (int) (gx_test_rand() % 3),
				count = 1 + (int) (gx_test_rand() % 4);
	double		x = 500000 + 20 * gx_test_uniform(),
				y = 7000000 + 20 * gx_test_uniform(),
				z = 1000 + 20 * gx_test_uniform();

	n += snprintf(wkt + n, sizeof(wkt) - n, "%s", kind == 0 ? "TIN Z (" : kind == 1 ? "MULTILINESTRING Z (" : "MULTIPOINT Z (");
	for (int i = 0; i < count; i++)
	{
		double		p[9];

		for (int k = 0; k < 9; k++)
			p[k] = (k % 3 == 0 ? x : k % 3 == 1 ? y : z) + 2 * gx_test_uniform();
		if (kind == 0)
			n += snprintf(wkt + n, sizeof(wkt) - n, "%s((%.17g %.17g %.17g,%.17g %.17g %.17g,%.17g %.17g %.17g,%.17g %.17g %.17g))",
						  i ? "," : "", p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[0], p[1], p[2]);
		else if (kind == 1)
			n += snprintf(wkt + n, sizeof(wkt) - n, "%s(%.17g %.17g %.17g,%.17g %.17g %.17g)", i ? "," : "", p[0], p[1],
						  p[2], p[3], p[4], p[5]);
		else
			n += snprintf(wkt + n, sizeof(wkt) - n, "%s(%.17g %.17g %.17g)", i ? "," : "", p[0], p[1], p[2]);
	}
	snprintf(wkt + n, sizeof(wkt) - n, ")");
	return geom(wkt);
}

/* The batch engine with a distance (CPU) finds exactly the pairs gx_dwithin finds, at boundary distances. */
static void
test_batch_distance(void)
{
	enum
	{
		NA = 60, NB = 40
	};
	GxSerialized *ga[NA],
			   *gb[NB];
	GxBatchSide a,
				b;
	GxBatchOptions opt;
	GxBatchStats st;
	GxError		err = {GX_OK, ""};
	GxClosest	c;
	static const int resolutions[] = {0, 1, 7};

	for (int i = 0; i < NA; i++)
		ga[i] = random_geometry();
	for (int j = 0; j < NB; j++)
		gb[j] = random_geometry();
	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	CHECK(gx_batch_side_add_many(&a, (const GxSerialized *const *) ga, NA, &err));
	CHECK(gx_batch_side_add_many(&b, (const GxSerialized *const *) gb, NB, &err));
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	for (int round = 0; round < 6; round++)
	{
		/* d: the exact distance of a random pair rounded, or the double just below or above it */
		double		d;
		GxPairs		got;
		size_t		want = 0,
					k = 0;
		bool		same = true;

		if (gx_closest(ga[gx_test_rand() % NA], gb[gx_test_rand() % NB], &c, &err) != 1)
			gx_closest_init(&c);
		d = gx_mpq_sqrt_nearest(c.d2);
		gx_closest_clear(&c);
		d = round % 3 == 0 ? d : round % 3 == 1 ? nextafter(d, 0) : nextafter(d, INFINITY);
		opt.grid_resolution = resolutions[round % 3];
		opt.threads = 1 + round % 2;
		opt.distance = d;
		CHECK(gx_batch_intersect(&a, &b, &opt, &got, &st, &err));
		for (int i = 0; i < NA; i++)
			for (int j = 0; j < NB; j++)
				if (gx_dwithin(ga[i], gb[j], d, &err) == 1)
				{
					uint64_t	key = ((uint64_t) i << 32) | (uint32_t) j;

					want++;
					same &= k < got.n && got.keys[k++] == key;
				}
		CHECK_MSG(same && want == got.n, "batch within %.17g: %zu pairs, gx_dwithin %zu", d, got.n, want);
		gx_free(got.keys);
	}
	opt.gpu_only = true;
	CHECK(!gx_batch_intersect(&a, &b, &opt, &(GxPairs) {NULL, 0, NULL, 0}, &st, &err) && err.code == GX_ERR_DEVICE);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	for (int i = 0; i < NA; i++)
		gx_free(ga[i]);
	for (int j = 0; j < NB; j++)
		gx_free(gb[j]);
}

/* A solid is its volume: inside is distance 0 (at a vertex inside), outside is the surface's distance. */
static void
test_solids(void)
{
	/* the cube [0,4]^3 as 12 triangles, made a solid */
	GxSerialized *surface = geom("TIN Z (((0 0 0,4 4 0,4 0 0,0 0 0)),((0 0 0,0 4 0,4 4 0,0 0 0)),"
								 "((0 0 4,4 0 4,4 4 4,0 0 4)),((0 0 4,4 4 4,0 4 4,0 0 4)),"
								 "((0 0 0,4 0 0,4 0 4,0 0 0)),((0 0 0,4 0 4,0 0 4,0 0 0)),"
								 "((0 4 0,4 4 4,4 4 0,0 4 0)),((0 4 0,0 4 4,4 4 4,0 4 0)),"
								 "((0 0 0,0 4 4,0 4 0,0 0 0)),((0 0 0,0 0 4,0 4 4,0 0 0)),"
								 "((4 0 0,4 4 0,4 4 4,4 0 0)),((4 0 0,4 4 4,4 0 4,4 0 0)))");
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *cube = gx_solid_from(surface, NULL, &size, &err);
	GxSerialized *in = geom("MULTIPOINT Z ((9 9 9), (1 2 3))"),
			   *out = geom("LINESTRING Z (6 2 2, 7 3 3)");
	GxClosest	c;

	CHECK_MSG(cube != NULL, "gx_solid_from: %s", err.msg);
	if (cube == NULL)
		return;
	/* a point 1 from the nearest face, inside: distance 0, not 1; the surface alone is 1 away */
	CHECK(gx_dwithin(in, cube, 0, &err) == 1 && gx_dwithin(cube, in, 0, &err) == 1);
	CHECK(gx_dwithin(in, surface, nextafter(1, 0), &err) == 0 && gx_dwithin(in, surface, 1, &err) == 1);
	CHECK(gx_closest(cube, in, &c, &err) == 1);
	CHECK(mpq_sgn(c.d2) == 0 && mpq_equal(c.pa[0], c.pb[0]) && mpq_get_d(c.pa[1]) == 2 && mpq_get_d(c.pa[2]) == 3);
	gx_closest_clear(&c);
	/* outside: the distance to the surface */
	CHECK(gx_dwithin(out, cube, 2, &err) == 1 && gx_dwithin(out, cube, nextafter(2, 0), &err) == 0);
	CHECK(gx_closest(out, cube, &c, &err) == 1 && mpq_cmp_ui(c.d2, 4, 1) == 0);
	gx_closest_clear(&c);
	gx_free(cube);
	gx_free(surface);
	gx_free(in);
	gx_free(out);
}

static void
test_special(void)
{
	GxSerialized *a = geom("SRID=32633;POINT Z (0 0 0)"),
			   *b = geom("SRID=4326;POINT Z (1 0 0)"),
			   *e = geom("POINT EMPTY"),
			   *p = geom("POINT Z (0 0 0)");
	GxError		err = {GX_OK, ""};
	GxClosest	c;

	CHECK(gx_dwithin(a, b, 1, &err) == -1 && err.code == GX_ERR_SRID);
	err.code = GX_OK;
	CHECK(gx_closest(a, b, &c, &err) == -1 && err.code == GX_ERR_SRID);
	err.code = GX_OK;
	CHECK(gx_dwithin(a, e, 1e300, &err) == 0);
	CHECK(gx_closest(e, a, &c, &err) == 0);
	CHECK(gx_dwithin(a, p, 0, &err) == 1);
	CHECK(gx_dwithin(a, p, -1, &err) == 0);
	CHECK(gx_dwithin(a, p, NAN, &err) == 0);
	CHECK(gx_dwithin(a, p, INFINITY, &err) == 1);
	/* intersecting: distance 0 at a common point */
	CHECK(dwithin("TRIANGLE Z ((0 0 0, 4 0 0, 0 4 0, 0 0 0))", "LINESTRING Z (1 1 -1, 1 1 1)", 0) == 1);
	CHECK(distance("TRIANGLE Z ((0 0 0, 4 0 0, 0 4 0, 0 0 0))", "LINESTRING Z (1 1 -1, 1 1 1)") == 0);
	/* huge coordinates: no overflow to a wrong answer */
	CHECK(distance("POINT Z (-1e308 0 0)", "POINT Z (1e308 0 0)") == INFINITY);
	CHECK(dwithin("POINT Z (-1e308 0 0)", "POINT Z (1e308 0 0)", DBL_MAX) == 0);
	CHECK(distance("POINT Z (0 0 0)", "POINT Z (1e-320 0 0)") == 1e-320);
	gx_free(a);
	gx_free(b);
	gx_free(e);
	gx_free(p);
}

/*
 * Distances whose squares underflow: two points 2^-545 apart (the square, 2^-1090, is below the smallest
 * double). The filter's shortcut once took the vanished square for a common vertex (found by the
 * differential test at a scale of 1e-151).
 */
static void
test_underflowing_squares(void)
{
	double		p[3] = {0x1p-500, 0x1p-490, 0},
				q[3] = {0x1p-500 + 0x1p-545, 0x1p-490, 0},
				seg[6] = {0x1p-500 + 0x1p-545, 0x1p-490, 0, 0x1p-500 + 0x1p-545, 0x1p-490 + 0x1p-520, 0};
	GxElem		a = {p, 1},
				b = {q, 1},
				s = {seg, 2};

	CHECK(!gx_elem_dwithin(a, b, 0));
	CHECK(!gx_elem_dwithin(a, b, 0x1p-546));
	CHECK(gx_elem_dwithin(a, b, 0x1p-545));
	CHECK(!gx_elem_dwithin(a, s, 0));
	CHECK(!gx_elem_dwithin(s, a, 0x1p-546));
	CHECK(gx_elem_dwithin(s, a, 0x1p-545));
	CHECK(gx_elem_dwithin(a, a, 0));
}

int
main(void)
{
	test_underflowing_squares();
	test_rounding();
	test_lattice();
	test_random_doubles();
	test_exact_distances();
	test_ulp_coordinates();
	test_meshes();
	test_batch_distance();
	test_solids();
	test_special();
	printf("element pairs checked: %ld, filter bounds within 1e-9 relative on %ld of them\n", element_checks,
		   filter_decided);
	return gx_test_report("test_distance");
}
