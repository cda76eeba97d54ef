/*
 * test_overlay.c: the exact volumes of the booleans of two solids (operation/gx_overlay.h), against oracles
 * that share none of its code:
 *  - boxes, whose common volume is the product of their intervals' overlaps: random boxes on a coarse grid
 *    (shared faces, edges, vertices, identical boxes, touching ones), shifted by fractions, at UTM offsets,
 *    with cavities;
 *  - a solid and a box: gx_volume_in_box_exact (the volume clipped by the box's planes, no decision taken),
 *    for tetrahedra, the Kuhn tetrahedra of a cube and terrain blocks, boxes whose planes pass through vertices;
 *  - exact identities on any pair: vol(a) + vol(b) = vol(a ∩ b) + vol(a ∪ b), vol(a \ b) + vol(a ∩ b) =
 *    vol(a), a ∩ b = b ∩ a, a ∩ a = a, and 0 for solids touching along a face, an edge or a vertex.
 * Every comparison is between exact rationals, or between a double and the correctly rounded rational.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_round.h"
#include "geom/gx_box.h"
#include "gx_test.h"
#include "gx_test_tris.h"
#include "operation/gx_overlay.h"
#include "operation/gx_volume.h"

/* Tetrahedron abcd, oriented outward whatever the order of its vertices (not flat). */
static void
add_tetra(Tris *t, const double *a, const double *b, const double *c, const double *d)
{
	mpq_t		det;

	mpq_init(det);
	gx_orient3d_value(a, b, c, d, det);
	if (mpq_sgn(det) < 0)
	{
		const double *x = b;

		b = c;
		c = x;
	}
	mpq_clear(det);
	/* orient3d(a, b, c, d) > 0: d lies below abc seen counter-clockwise, so abc faces away from d */
	add_tri(t, a, b, c);
	add_tri(t, a, d, b);
	add_tri(t, b, d, c);
	add_tri(t, c, d, a);
}

static void
exact_volume(const Tris *t, mpq_t out)
{
	GxVolumeWork w;

	gx_volume_work_init(&w);
	gx_volume_exact(t->v, t->n, &w, out);
	gx_volume_work_clear(&w);
}

/* What the filter (gx_overlay_volumes) did over all the pairs: cut triangles filtered, rational; sums redone. */
static size_t filtered_total,
			rational_total,
			exact_sums_total;

/*
 * Every pair of a triangle of ia and one of ib whose boxes overlap, in reverse order (as the GPU would give them,
 * in some order), malloc'd, *n of them.
 */
static uint32_t *
all_pairs(const GxSolidIndex *ia, const GxSolidIndex *ib, size_t *n)
{
	uint32_t   *v = malloc((ia->n * ib->n + 1) * 2 * sizeof(uint32_t));

	*n = 0;
	for (size_t i = ia->n; i-- > 0;)
		for (size_t j = ib->n; j-- > 0;)
			if (gx_box_overlaps(&ia->boxes[i], &ib->boxes[j]))
			{
				v[2 * *n] = (uint32_t) i;
				v[2 * (*n)++ + 1] = (uint32_t) j;
			}
	return v;
}

/*
 * gx_overlay_volumes against the rational path's volumes v[3]: each the rounded rational bit for bit, the
 * same sign; all three at once, each asked alone (its triangles only), and with the pairs of triangles given.
 */
static void
check_filter(const GxSolidIndex *ia, const GxSolidIndex *ib, mpq_t v[3])
{
	GxError		err = {GX_OK, ""};
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	GxOverlayVolumes fv,
				one,
				given;
	size_t		npairs;
	uint32_t   *pairs = all_pairs(ia, ib, &npairs);

	CHECK_MSG(gx_overlay_volumes(ia, ib, &opt, GX_BOOL_ALL, &fv, &err), "%s", err.msg);
	CHECK_MSG(gx_overlay_volumes_of_pairs(ia, ib, &opt, GX_BOOL_ALL, pairs, npairs, &given, &err), "%s", err.msg);
	free(pairs);
	for (int k = 0; k < 3; k++)
	{
		double		want = gx_mpq_get_d_nearest(v[k]);

		CHECK_MSG(memcmp(&fv.v[k], &want, sizeof(double)) == 0 && fv.sign[k] == mpq_sgn(v[k]),
				  "filtered volume %d: %.17g (sign %d), rational %.17g (sign %d)", k, fv.v[k], fv.sign[k], want,
				  mpq_sgn(v[k]));
		CHECK_MSG(gx_overlay_volumes(ia, ib, &opt, GX_BOOL_OP(k), &one, &err), "%s", err.msg);
		CHECK_MSG(memcmp(&one.v[k], &want, sizeof(double)) == 0 && one.sign[k] == mpq_sgn(v[k]),
				  "filtered volume %d alone: %.17g (sign %d), rational %.17g (sign %d)", k, one.v[k], one.sign[k],
				  want, mpq_sgn(v[k]));
		CHECK_MSG(memcmp(&given.v[k], &want, sizeof(double)) == 0 && given.sign[k] == mpq_sgn(v[k]),
				  "volume %d with the pairs given: %.17g (sign %d), rational %.17g (sign %d)", k, given.v[k],
				  given.sign[k], want, mpq_sgn(v[k]));
	}
	filtered_total += fv.filtered;
	rational_total += fv.rational;
	exact_sums_total += fv.exact_sums;
}

/*
 * The three volumes of a ∩ b, a ∪ b, a \ b, exact, into v[3] (and the filter's checked against them); false
 * when the overlay failed.
 */
static bool
boolean_volumes(const Tris *a, const Tris *b, mpq_t v[3])
{
	GxSolidIndex ia,
				ib;
	GxError		err = {GX_OK, ""};
	GxOverlaySums s;
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	bool		ok;

	if (!gx_solid_index_build(&ia, a->v, a->n, &err) || !gx_solid_index_build(&ib, b->v, b->n, &err))
		return false;
	gx_overlay_sums_init(&s);
	ok = gx_overlay_sums(&ia, &ib, &opt, &s, &err);
	CHECK_MSG(ok, "%s", err.msg);
	if (ok)
	{
		gx_overlay_volume(&s, GX_BOOL_INTERSECTION, v[0]);
		gx_overlay_volume(&s, GX_BOOL_UNION, v[1]);
		gx_overlay_volume(&s, GX_BOOL_DIFFERENCE, v[2]);
		check_filter(&ia, &ib, v);
	}
	gx_overlay_sums_clear(&s);
	gx_solid_index_free(&ia);
	gx_solid_index_free(&ib);
	return ok;
}

/*
 * The identities every pair must satisfy, exactly; the intersection's volume compared with expected (NULL:
 * none known), and with b ∩ a. Returns vol(a ∩ b) rounded.
 */
static double
check_pair(const Tris *a, const Tris *b, mpq_srcptr expected, const char *what)
{
	mpq_t		v[3],
				w[3],
				va,
				vb,
				x,
				y;
	double		rounded = NAN;

	mpq_inits(v[0], v[1], v[2], w[0], w[1], w[2], va, vb, x, y, NULL);
	exact_volume(a, va);
	exact_volume(b, vb);
	if (boolean_volumes(a, b, v) && boolean_volumes(b, a, w))
	{
		mpq_add(x, va, vb);
		mpq_add(y, v[0], v[1]);
		CHECK_MSG(mpq_equal(x, y), "%s: vol(a) + vol(b) = %g, vol(a ∩ b) + vol(a ∪ b) = %g", what, mpq_get_d(x),
				  mpq_get_d(y));
		mpq_add(y, v[2], v[0]);
		CHECK_MSG(mpq_equal(va, y), "%s: vol(a) = %g, vol(a \\ b) + vol(a ∩ b) = %g", what, mpq_get_d(va),
				  mpq_get_d(y));
		CHECK_MSG(mpq_equal(v[0], w[0]), "%s: a ∩ b %g, b ∩ a %g", what, mpq_get_d(v[0]), mpq_get_d(w[0]));
		CHECK_MSG(mpq_equal(v[1], w[1]), "%s: a ∪ b %g, b ∪ a %g", what, mpq_get_d(v[1]), mpq_get_d(w[1]));
		CHECK_MSG(mpq_sgn(v[0]) >= 0 && mpq_sgn(v[2]) >= 0 && mpq_sgn(w[2]) >= 0, "%s: a negative volume", what);
		if (expected)
			CHECK_MSG(mpq_equal(v[0], expected), "%s: vol(a ∩ b) = %.17g, expected %.17g", what, mpq_get_d(v[0]),
					  mpq_get_d(expected));
		rounded = gx_mpq_get_d_nearest(v[0]);
	}
	mpq_clears(v[0], v[1], v[2], w[0], w[1], w[2], va, vb, x, y, NULL);
	return rounded;
}

/* The exact common volume of two boxes. */
static void
box_overlap(const double *alo, const double *ahi, const double *blo, const double *bhi, mpq_t out)
{
	mpq_t		d,
				e;

	mpq_inits(d, e, NULL);
	mpq_set_ui(out, 1, 1);
	for (int k = 0; k < 3; k++)
	{
		double		lo = fmax(alo[k], blo[k]),
					hi = fmin(ahi[k], bhi[k]);

		if (hi <= lo)
		{
			mpq_set_ui(out, 0, 1);
			break;
		}
		mpq_set_d(d, hi);
		mpq_set_d(e, lo);
		mpq_sub(d, d, e);
		mpq_mul(out, out, d);
	}
	mpq_clears(d, e, NULL);
}

/* A box with corners on a grid of step h from origin o, some shifted by a fraction of h. */
static void
grid_box(const double *o, double h, bool shift, double *lo, double *hi)
{
	for (int k = 0; k < 3; k++)
	{
		int			i = gx_test_rand() % 4,
					j = i + 1 + gx_test_rand() % 3;

		lo[k] = o[k] + i * h;
		hi[k] = o[k] + j * h;
		if (shift && gx_test_rand() % 2)
		{
			double		f = (gx_test_rand() % 7 + 1) * h / 8 + 0.1;

			lo[k] += f;
			hi[k] += f;
		}
	}
}

static void
test_boxes(void)
{
	const double origins[3][3] = {{0, 0, 0}, {500123.25, 7000456.5, 1200}, {-3.5, 2.25, -1e-3}};
	mpq_t		expected;
	int			touching = 0,
				overlapping = 0;

	mpq_init(expected);
	for (int o = 0; o < 3; o++)
		for (int r = 0; r < 60; r++)
		{
			Tris		a = {0},
						b = {0};
			double		alo[3],
						ahi[3],
						blo[3],
						bhi[3],
						got;
			char		what[64];

			grid_box(origins[o], o == 2 ? 0.37 : 1, false, alo, ahi);
			grid_box(origins[o], o == 2 ? 0.37 : 1, r % 3 == 0, blo, bhi);
			if (r == 0)
				memcpy(blo, alo, sizeof(alo)), memcpy(bhi, ahi, sizeof(ahi));
			add_box(&a, alo, ahi, false);
			add_box(&b, blo, bhi, false);
			box_overlap(alo, ahi, blo, bhi, expected);
			snprintf(what, sizeof(what), "boxes %d/%d", o, r);
			got = check_pair(&a, &b, expected, what);
			CHECK_MSG(got == gx_mpq_get_d_nearest(expected), "%s: rounded %.17g", what, got);
			if (mpq_sgn(expected) == 0)
				touching++;
			else
				overlapping++;
			free(a.v);
			free(b.v);
		}
	/* both cases occur: boxes sharing faces, edges and vertices, and overlapping ones */
	CHECK(touching > 10 && overlapping > 10);
	mpq_clear(expected);
}

/* A box with a cavity against a box: their overlap less the cavity's. */
static void
test_cavity(void)
{
	const double lo[3] = {0, 0, 0},
				hi[3] = {4, 4, 4},
				clo[3] = {1, 1, 1},
				chi[3] = {3, 3, 3};
	const double probes[4][2][3] = {
		{{2, 2, 2}, {5, 5, 5}},	/* a corner of the cavity */
		{{1, 1, 1}, {3, 3, 3}},	/* exactly the cavity */
		{{0.5, 1, 1}, {3.5, 3, 3}},	/* through it, sharing 4 of its faces' planes */
		{{-1, -1, -1}, {5, 5, 5}}	/* around everything */
	};
	mpq_t		expected,
				c;

	mpq_inits(expected, c, NULL);
	for (int p = 0; p < 4; p++)
	{
		Tris		a = {0},
					b = {0};
		char		what[32];

		add_box(&a, lo, hi, false);
		add_box(&a, clo, chi, true);
		add_box(&b, probes[p][0], probes[p][1], false);
		box_overlap(lo, hi, probes[p][0], probes[p][1], expected);
		box_overlap(clo, chi, probes[p][0], probes[p][1], c);
		mpq_sub(expected, expected, c);
		snprintf(what, sizeof(what), "cavity %d", p);
		check_pair(&a, &b, expected, what);
		free(a.v);
		free(b.v);
	}
	mpq_clears(expected, c, NULL);
}

/* a ∩ box against gx_volume_in_box_exact. */
static void
check_in_box(const Tris *a, const double *lo, const double *hi, const char *what)
{
	Tris		b = {0};
	GxSolidIndex ia;
	GxError		err = {GX_OK, ""};
	GxBox3D		box = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
	GxVolumeWork w;
	mpq_t		expected;

	mpq_init(expected);
	gx_volume_work_init(&w);
	if (gx_solid_index_build(&ia, a->v, a->n, &err))
	{
		gx_volume_in_box_exact(&ia, &box, &w, expected);
		gx_solid_index_free(&ia);
		add_box(&b, lo, hi, false);
		check_pair(a, &b, expected, what);
		free(b.v);
	}
	gx_volume_work_clear(&w);
	mpq_clear(expected);
}

static double
coord(double o, int grid)
{
	return grid ? o + (int) (gx_test_rand() % 5) : o + (double) (gx_test_rand() % 1000) / 256.0;
}

static void
test_tetrahedra_in_boxes(void)
{
	const double origins[2][3] = {{0, 0, 0}, {500000.5, 6999999.25, 850}};

	for (int o = 0; o < 2; o++)
		for (int r = 0; r < 80; r++)
		{
			Tris		a = {0};
			double		p[4][3],
						lo[3],
						hi[3];
			char		what[64];
			mpq_t		det;

			mpq_init(det);
			do
			{
				for (int k = 0; k < 4; k++)
					for (int d = 0; d < 3; d++)
						p[k][d] = coord(origins[o][d], r % 2);
				gx_orient3d_value(p[0], p[1], p[2], p[3], det);
			} while (mpq_sgn(det) == 0);
			mpq_clear(det);
			add_tetra(&a, p[0], p[1], p[2], p[3]);
			/* a box whose planes pass through the tetrahedron's vertices, or on a grid */
			for (int d = 0; d < 3; d++)
			{
				double		x = p[gx_test_rand() % 4][d],
							y = p[gx_test_rand() % 4][d];

				if (x == y)
					y = x + 1;
				lo[d] = fmin(x, y);
				hi[d] = fmax(x, y);
			}
			snprintf(what, sizeof(what), "tetrahedron in box %d/%d", o, r);
			check_in_box(&a, lo, hi, what);
			free(a.v);
		}
}

/* The 6 Kuhn tetrahedra of the unit cube at o (they share edges and faces; each meets the others edge-on-face). */
static void
kuhn(const double *o, double h, int k, Tris *t)
{
	static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	double		v[4][3];

	memcpy(v[0], o, 3 * sizeof(double));
	for (int s = 1; s <= 3; s++)
	{
		memcpy(v[s], v[s - 1], 3 * sizeof(double));
		v[s][perms[k][s - 1]] += h;
	}
	add_tetra(t, v[0], v[1], v[2], v[3]);
}

static void
test_grid_tetrahedra(void)
{
	const double o[3] = {500000, 7000000, 100},
				hi[3] = {500002, 7000002, 102};
	mpq_t		zero,
				sixth;

	mpq_inits(zero, sixth, NULL);
	mpq_set_ui(sixth, 4, 3);	/* a cube of side 2 in 6 */
	for (int i = 0; i < 6; i++)
	{
		Tris		a = {0},
					cube = {0};
		char		what[48];

		kuhn(o, 2, i, &a);
		add_box(&cube, o, hi, false);
		snprintf(what, sizeof(what), "Kuhn %d in its cube", i);
		check_pair(&a, &cube, sixth, what);
		check_pair(&a, &a, sixth, "Kuhn with itself");
		for (int j = i + 1; j < 6; j++)
		{
			Tris		b = {0};

			kuhn(o, 2, j, &b);
			snprintf(what, sizeof(what), "Kuhn %d and %d", i, j);
			check_pair(&a, &b, zero, what);
			free(b.v);
		}
		/* a neighbour cube's tetrahedra touch only along faces, edges or vertices */
		for (int d = 0; d < 3; d++)
		{
			Tris		b = {0};
			double		q[3] = {o[0], o[1], o[2]};

			q[d] += 2;
			kuhn(q, 2, (i + d) % 6, &b);
			snprintf(what, sizeof(what), "Kuhn %d and a neighbour's", i);
			check_pair(&a, &b, zero, what);
			free(b.v);
		}
		free(a.v);
		free(cube.v);
	}
	mpq_clears(zero, sixth, NULL);
}

static void
test_identities(void)
{
	const double c0[3] = {500010, 7000020, 300};

	for (int r = 0; r < 60; r++)
	{
		Tris		a = {0},
					b = {0};
		double		c1[3];
		char		what[48];
		mpq_t		va;

		memcpy(c1, c0, sizeof(c1));
		for (int d = 0; d < 3; d++)
			c1[d] += r % 4 == 0 ? 0.25 * d : (double) (gx_test_rand() % 64) / 16 - 2;
		add_octahedron(&a, c0, 2, r % 2 ? 1 : 0);
		add_octahedron(&b, c1, 1.5 + (r % 3) * 0.5, r % 2 ? 1 : 0);
		snprintf(what, sizeof(what), "octahedra %d", r);
		check_pair(&a, &b, NULL, what);
		mpq_init(va);
		exact_volume(&a, va);
		check_pair(&a, &a, va, "an octahedron with itself");
		mpq_clear(va);
		if (r < 10)
		{
			double		lo[3],
						hi[3];

			for (int d = 0; d < 3; d++)
			{
				lo[d] = a.v[3 * (gx_test_rand() % 24) + d];
				hi[d] = lo[d] + 1.5;
			}
			snprintf(what, sizeof(what), "octahedron in box %d", r);
			check_in_box(&a, lo, hi, what);
		}
		free(a.v);
		free(b.v);
	}
}

/* Tetrahedra sharing a face (oppositely), an edge or a vertex with another touch it only: 0. */
static void
test_touching(void)
{
	const double p[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, 0.3, -1}, {-1, -1, -1}};
	const double q[3] = {2, 0.5, 0.25};
	mpq_t		zero;
	Tris		a = {0},
				face = {0},
				edge = {0},
				vertex = {0};

	mpq_init(zero);
	add_tetra(&a, p[0], p[1], p[2], p[3]);
	add_tetra(&face, p[0], p[1], p[2], p[4]);
	add_tetra(&edge, p[0], p[1], p[4], p[5]);
	add_tetra(&vertex, p[1], q, p[4], p[5]);
	check_pair(&a, &face, zero, "tetrahedra sharing a face");
	check_pair(&a, &edge, zero, "tetrahedra sharing an edge");
	check_pair(&a, &vertex, zero, "tetrahedra sharing a vertex");
	free(a.v);
	free(face.v);
	free(edge.v);
	free(vertex.v);
	mpq_clear(zero);
}

static void star_body(Tris *t, const double *c, double r, int n, bool smooth);

/*
 * A triangle cut past the bound fails with GX_ERR_LIMIT; a cancel flag set stops it; past the memory of the
 * pairs that may meet, the filter gives way to the rational path.
 */
static void
test_limits(void)
{
	Tris		a = {0},
				b = {0};
	const double lo[3] = {0, 0, 0},
				hi[3] = {1, 1, 1};
	GxSolidIndex ia,
				ib;
	GxError		err = {GX_OK, ""};
	GxOverlaySums s;
	volatile int flag = 1;
	GxCancel	cancel = {{&flag, NULL}};
	GxOverlayOptions limited = {6, NULL, false, 0, NULL},
				cancelled = {0, &cancel, false, 0, NULL};
	GxOverlayVolumes fv,
				bounded;
	const double c[3] = {500010.25, 7000020.5, 300};

	add_box(&a, lo, hi, false);
	for (int k = 0; k < 20; k++)
	{
		const double plo[3] = {0.5 + k * 0.01, -1, -1},
					phi[3] = {0.505 + k * 0.01, 2, 2};

		add_box(&b, plo, phi, false);
	}
	gx_solid_index_build(&ia, a.v, a.n, &err);
	gx_solid_index_build(&ib, b.v, b.n, &err);
	gx_overlay_sums_init(&s);
	CHECK(!gx_overlay_sums(&ia, &ib, &limited, &s, &err) && err.code == GX_ERR_LIMIT);
	err.code = GX_OK;
	CHECK(!gx_overlay_volumes(&ia, &ib, &limited, GX_BOOL_ALL, &fv, &err) && err.code == GX_ERR_LIMIT);
	err.code = GX_OK;
	CHECK(!gx_overlay_sums(&ia, &ib, &cancelled, &s, &err) && err.code == GX_ERR_CANCELLED);
	err.code = GX_OK;
	CHECK(!gx_overlay_volumes(&ia, &ib, &cancelled, GX_BOOL_ALL, &fv, &err) && err.code == GX_ERR_CANCELLED);
	gx_overlay_sums_clear(&s);
	gx_solid_index_free(&ia);
	gx_solid_index_free(&ib);
	/* more pairs of triangles that may meet (15 576) than the bound's memory holds: each triangle's searched */
	a.n = b.n = 0;
	star_body(&a, c, 2, 24, false);
	star_body(&b, (double[3]) {c[0] + 1, c[1], c[2]}, 2, 24, false);
	gx_solid_index_build(&ia, a.v, a.n, &err);
	gx_solid_index_build(&ib, b.v, b.n, &err);
	err.code = GX_OK;
	CHECK(gx_overlay_volumes(&ia, &ib, &(GxOverlayOptions) {0, NULL, false, 0, NULL}, GX_BOOL_ALL, &fv, &err) && !fv.exact_sums);
	CHECK_MSG(gx_overlay_volumes(&ia, &ib, &(GxOverlayOptions) {128, NULL, false, 0, NULL}, GX_BOOL_ALL, &bounded, &err) &&
			  !bounded.exact_sums && bounded.filtered == fv.filtered, "%s", err.msg);
	CHECK(memcmp(fv.v, bounded.v, sizeof(fv.v)) == 0);
	/* on one thread (fv on every core): the same shares, so the same enclosures decide the same triangles */
	{
		GxOverlayVolumes one;

		CHECK(gx_overlay_volumes(&ia, &ib, &(GxOverlayOptions) {0, NULL, false, 1, NULL}, GX_BOOL_ALL, &one, &err));
		CHECK_MSG(memcmp(fv.v, one.v, sizeof(fv.v)) == 0 && fv.filtered == one.filtered &&
				  fv.rational == one.rational && fv.exact_sums == one.exact_sums && ia.n > 2 * 1024,
				  "one thread: %zu filtered, %zu rational; every core: %zu, %zu", one.filtered, one.rational,
				  fv.filtered, fv.rational);
	}
	/* the same with the pairs given */
	{
		size_t		npairs;
		uint32_t   *pairs = all_pairs(&ia, &ib, &npairs);

		CHECK_MSG(gx_overlay_volumes_of_pairs(&ia, &ib, &(GxOverlayOptions) {128, NULL, false, 0, NULL}, GX_BOOL_ALL, pairs, npairs,
											  &bounded, &err) && !bounded.exact_sums && bounded.filtered == fv.filtered,
				  "%s", err.msg);
		CHECK(memcmp(fv.v, bounded.v, sizeof(fv.v)) == 0);
		free(pairs);
	}
	gx_solid_index_free(&ia);
	gx_solid_index_free(&ib);
	free(a.v);
	free(b.v);
}

/*
 * A body star-shaped about c: rings of 2 n vertices at n - 1 latitudes, each at radius r times a random factor
 * in [0.75, 1.25) in steps of 1/64 (or 1 when smooth), and two poles; triangles outward.
 */
static void
star_body(Tris *t, const double *c, double r, int n, bool smooth)
{
	double	   *v = malloc((size_t) (n + 1) * 2 * n * 3 * sizeof(double));

	for (int i = 0; i <= n; i++)
		for (int j = 0; j < 2 * n; j++)
		{
			double		th = M_PI * i / n,
						ph = M_PI * j / n,
						f = smooth || i == 0 || i == n ? 1 : 0.75 + (double) (gx_test_rand() % 32) / 64,
						*p = v + 3 * (i * 2 * n + j);

			p[0] = c[0] + r * f * sin(th) * cos(ph);
			p[1] = c[1] + r * f * sin(th) * sin(ph);
			p[2] = c[2] + r * f * cos(th);
		}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < 2 * n; j++)
		{
			const double *q[4] = {v + 3 * (i * 2 * n + j), v + 3 * ((i + 1) * 2 * n + j),
			v + 3 * ((i + 1) * 2 * n + (j + 1) % (2 * n)), v + 3 * (i * 2 * n + (j + 1) % (2 * n))};

			/* counter-clockwise seen from outside; the poles' rings are one point */
			if (i > 0)
				add_tri(t, q[0], q[1], q[3]);
			if (i < n - 1)
				add_tri(t, q[1], q[2], q[3]);
		}
	free(v);
}

/*
 * The filter against the rational path on bodies whose cuts are mostly in general position (random bodies,
 * at UTM coordinates, a copy shifted along an axis, so that edges of both lie in one plane), and on what it
 * cannot decide: a volume exactly halfway between two doubles (a rounding tie), identical bodies.
 */
static void
test_filter(void)
{
	const double c0[3] = {500010.25, 7000020.5, 300};
	const double lo[3] = {500009, 7000019, 299},
				tie[3] = {500009 + 1 + 0x1p-27, 7000019 + 1 - 0x1p-27, 300};
	size_t		filtered = filtered_total;
	Tris		a = {0},
				b = {0};

	for (int r = 0; r < 16; r++)
	{
		double		c1[3];
		char		what[48];

		memcpy(c1, c0, sizeof(c1));
		for (int d = 0; d < 3; d++)
			c1[d] += r % 4 == 1 ? (d == 0 ? 0.37 : 0) : (double) (gx_test_rand() % 64) / 32 - 1;
		a.n = b.n = 0;
		star_body(&a, c0, 2, 6 + r % 5, r % 8 == 7);
		if (r % 4 == 1)
			for (size_t k = 0; k < a.n; k++)
				add_tri(&b, (double[3]) {a.v[9 * k] + 0.37, a.v[9 * k + 1], a.v[9 * k + 2]},
						(double[3]) {a.v[9 * k + 3] + 0.37, a.v[9 * k + 4], a.v[9 * k + 5]},
						(double[3]) {a.v[9 * k + 6] + 0.37, a.v[9 * k + 7], a.v[9 * k + 8]});
		else
			star_body(&b, c1, 1.5 + (r % 3) * 0.5, 5 + r % 7, r % 8 == 7);
		snprintf(what, sizeof(what), "star bodies %d", r);
		check_pair(&a, &b, NULL, what);
	}
	CHECK_MSG(filtered_total > filtered + 1000, "the filter decided %zu cut triangles", filtered_total - filtered);
	/* a box of volume (1 + 2^-27) (1 - 2^-27) = 1 - 2^-54, halfway between 1 - 2^-53 and 1, in a body */
	{
		size_t		exact = exact_sums_total;
		mpq_t		want;

		a.n = b.n = 0;
		add_box(&a, lo, tie, false);
		star_body(&b, c0, 4, 6, false);
		mpq_init(want);
		mpq_set_ui(want, (1UL << 54) - 1, 1UL << 54);
		check_pair(&a, &b, want, "a box of a tie's volume in a body");
		CHECK(exact_sums_total > exact);
		/* with a copy of itself: its own volume, the tie decided in rationals too */
		exact = exact_sums_total;
		b.n = 0;
		for (size_t k = 0; k < a.n; k++)
			add_tri(&b, a.v + 9 * k, a.v + 9 * k + 3, a.v + 9 * k + 6);
		check_pair(&a, &b, want, "a box of a tie's volume with a copy of itself");
		CHECK(exact_sums_total > exact);
		mpq_clear(want);
	}
	free(a.v);
	free(b.v);
}

int
main(void)
{
	test_boxes();
	test_cavity();
	test_tetrahedra_in_boxes();
	test_grid_tetrahedra();
	test_identities();
	test_touching();
	test_limits();
	test_filter();
	printf("test_overlay: the filter decided %zu cut triangles, rationals %zu, sums redone %zu times\n",
		   filtered_total, rational_total, exact_sums_total);
	return gx_test_report("test_overlay");
}
