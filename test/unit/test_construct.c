/*
 * test_construct.c: geometries made from others (src/core/construct). gx_dot_nearest, the rounding of every
 * transformed coordinate, against the definition of correct rounding checked in rationals (no neighbouring
 * double nearer, ties to even) on random, cancelling and UTM-sized sums; boxes as geometries of each
 * dimension; parts dumped and collected back; affine maps of solids, one that flattens a solid refused;
 * prisms and their exact volumes.
 */
#include <gmp.h>
#include <math.h>
#include <string.h>

#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "construct/gx_construct.h"
#include "geom/gx_box.h"
#include "gx_test.h"
#include "io/gx_io.h"
#include "operation/gx_volume.h"

static double
any_double(int e)
{
	double		d = ldexp(1 + gx_test_uniform(), (int) gx_test_int(-e, e));

	return gx_test_below(2) ? -d : d;
}

/* |s - d| as a rational into out. */
static void
gap(mpq_t out, mpq_srcptr s, double d)
{
	mpq_set_d(out, d);
	mpq_sub(out, s, out);
	mpq_abs(out, out);
}

/* r is the double nearest to the exact sum of a[i] b[i], ties to even. */
static bool
rounded_once(const double *a, const double *b, int n, double r)
{
	mpq_t		s,
				t,
				g0,
				g1;
	bool		ok = true;

	if (!isfinite(r))
		return false;
	mpq_inits(s, t, g0, g1, NULL);
	for (int i = 0; i < n; i++)
	{
		mpq_set_d(t, a[i]);
		mpq_set_d(g0, b[i]);
		mpq_mul(t, t, g0);
		mpq_add(s, s, t);
	}
	gap(g0, s, r);
	for (int dir = -1; dir <= 1; dir += 2)
	{
		double		nb = nextafter(r, dir * INFINITY);
		int			c;
		uint64_t	bits;

		if (!isfinite(nb))
			continue;
		gap(g1, s, nb);
		c = mpq_cmp(g0, g1);
		memcpy(&bits, &r, sizeof(bits));
		if (c > 0 || (c == 0 && (bits & 1)))
			ok = false;
	}
	mpq_clears(s, t, g0, g1, NULL);
	return ok;
}

static void
test_dot(void)
{
	double		a[6],
				b[6];
	int			bad = 0;

	for (int k = 0; k < 20000; k++)
	{
		int			n = 1 + (int) gx_test_below(6);
		int			kind = k % 4;

		for (int i = 0; i < n; i++)
		{
			a[i] = kind == 0 ? any_double(300) : kind == 1 ? any_double(4) : cos(gx_test_uniform() * 7);
			b[i] = kind == 0 ? any_double(300) : kind == 1 ? any_double(30) : 500000 + 1e6 * gx_test_uniform();
		}
		if (kind == 3 && n >= 2)
		{
			/* a[1] b[1] nearly cancels a[0] b[0]: the rounded product's error is all that is left */
			b[1] = -(a[0] * b[0]) / a[1];
		}
		if (!rounded_once(a, b, n, gx_dot_nearest(a, b, n)))
			bad++;
	}
	CHECK_MSG(bad == 0, "%d sums not rounded once", bad);
	/* subnormal and exact zero results */
	a[0] = 0x1p-1000, b[0] = 0x1p-70, a[1] = 3, b[1] = 0x1p-1074;
	CHECK(rounded_once(a, b, 2, gx_dot_nearest(a, b, 2)));
	a[0] = 0.1, b[0] = 3, a[1] = -0.3, b[1] = 1, a[2] = 0.1, b[2] = 0;
	CHECK(rounded_once(a, b, 3, gx_dot_nearest(a, b, 3)));
	a[0] = 1e300, b[0] = 1e300;
	CHECK(isinf(gx_dot_nearest(a, b, 1)));
}

static GxSerialized *
wkt(const char *text)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = gx_from_wkt(text, &size, &err);

	CHECK_MSG(g != NULL, "%s: %s", text, err.msg);
	return g;
}

static void
test_box(void)
{
	GxBox3D		boxes[4] = {{0, 0, 0, 1, 2, 3}, {0, 0, 5, 1, 2, 5}, {0, 7, 5, 1, 7, 5}, {1, 2, 3, 1, 2, 3}};
	uint32_t	types[4] = {GX_POLYHEDRALSURFACE, GX_TIN, GX_LINESTRING, GX_POINT};
	uint32_t	counts[4] = {12, 2, 2, 1};
	GxBox3D		empty;
	GxError		err = {GX_OK, ""};
	size_t		size;

	for (int i = 0; i < 4; i++)
	{
		GxSerialized *g = gx_box_geom(&boxes[i], 32633, &size, &err);

		CHECK_MSG(g != NULL, "%s", err.msg);
		CHECK(gx_body(g)->type == types[i] && gx_body(g)->count == counts[i]);
		CHECK(gx_box_equal(&g->box, &boxes[i]) && g->srid == 32633);
		CHECK(((g->flags & GX_FLAG_SOLID) != 0) == (i == 0));
		if (i == 0)
		{
			double		v;

			CHECK(gx_volume(g, &v, &err) && v == 6);
		}
		gx_free(g);
	}
	gx_box_set_empty(&empty);
	{
		GxSerialized *g = gx_box_geom(&empty, 0, &size, &err);

		CHECK(g && (g->flags & GX_FLAG_EMPTY) && gx_body(g)->type == GX_GEOMETRYCOLLECTION);
		gx_free(g);
	}
}

typedef struct Dumped
{
	GxSerialized *parts[16];
	int			n;
	int			depths[16];
} Dumped;

static bool
keep_part(void *ctx, const int *path, int depth, const GxNode *leaf)
{
	Dumped	   *d = ctx;
	GxError		err = {GX_OK, ""};
	size_t		size;

	(void) path;
	d->depths[d->n] = depth;
	d->parts[d->n++] = gx_geom_of_node(leaf, 4326, &size, &err);
	return d->n < 16;
}

/* gx_collect of gx_dump gives back the input byte for byte. */
static void
test_parts(void)
{
	const char *inputs[] = {
		"SRID=4326;MULTIPOINT Z (1 2 3,4 5 6)",
		"SRID=4326;MULTILINESTRING Z ((0 0 0,1 1 1),(2 2 2,3 3 3,4 4 5))",
		"SRID=4326;GEOMETRYCOLLECTION Z (POINT Z (1 2 3),LINESTRING Z (0 0 0,1 1 1),TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0))),POINT Z EMPTY)",
	};

	for (int i = 0; i < 3; i++)
	{
		GxSerialized *g = wkt(inputs[i]),
				   *back;
		Dumped		d = {{0}, 0, {0}};
		GxError		err = {GX_OK, ""};
		size_t		size,
					gsize = (size_t) ((const char *) gx_node_next(gx_body(g)) - (const char *) g);

		CHECK(gx_dump_walk(g, keep_part, &d));
		CHECK(d.n == (int) gx_num_parts(g));
		back = gx_collect((const GxSerialized *const *) d.parts, (size_t) d.n, &size, &err);
		CHECK_MSG(back && size == gsize && memcmp((char *) back + 4, (char *) g + 4, size - 4) == 0, "%s", inputs[i]);
		for (int k = 0; k < d.n; k++)
		{
			CHECK(d.depths[k] == 1);
			gx_free(d.parts[k]);
		}
		gx_free(back);
		gx_free(g);
	}
	{
		GxSerialized *g = wkt("TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 0,0 1 0,1 0 0)))");

		CHECK(gx_num_parts(g) == 1);
		gx_free(g);
	}
}

static void
test_affine_solid(void)
{
	GxBox3D		box = {0, 0, 0, 2, 3, 4};
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *cube = gx_box_geom(&box, 0, &size, &err),
			   *moved;
	GxAffine	mirror = {{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0}}, {{0}}},
				flatten = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 0}}, {{0}}, {{0}}},
				nan = {{{NAN, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0}}, {{0}}};
	double		v;

	moved = gx_affine(cube, &mirror, "test", &size, &err);
	CHECK_MSG(moved && (moved->flags & GX_FLAG_SOLID), "%s", err.msg);
	CHECK(moved && gx_volume(moved, &v, &err) && v == 24);
	gx_free(moved);
	moved = gx_affine(cube, &flatten, "test", &size, &err);
	CHECK(moved == NULL && err.code == GX_ERR_INVALID && strstr(err.msg, "no valid solid"));
	err.code = GX_OK;
	moved = gx_affine(cube, &nan, "test", &size, &err);
	CHECK(moved == NULL && err.code == GX_ERR_ARG);
	gx_free(cube);
}

static void
test_extrude(void)
{
	GxSerialized *g = wkt("TIN Z (((0 0 0,2 0 0,2 2 0,0 0 0)),((0 0 0,2 2 0,1 3 1,0 0 0)))"),
			   *p;
	GxError		err = {GX_OK, ""};
	size_t		size;
	double		v;

	p = gx_extrude(g, -2.5, &size, &err);
	CHECK_MSG(p && (p->flags & GX_FLAG_SOLID) && gx_body(p)->count == 4 + 8, "%s", err.msg);
	/* the prism's volume is the footprint's area times |dz|: (2 + 2) * 2.5 */
	CHECK(p && gx_volume(p, &v, &err) && v == 10);
	gx_free(p);
	p = gx_extrude(g, 0, &size, &err);
	CHECK(p == NULL && err.code == GX_ERR_ARG);
	gx_free(g);
	err.code = GX_OK;
	g = wkt("LINESTRING Z (0 0 0,1 1 1)");
	p = gx_extrude(g, 1, &size, &err);
	CHECK(p == NULL && err.code == GX_ERR_INVALID);
	gx_free(g);
}

int
main(void)
{
	test_dot();
	test_box();
	test_parts();
	test_affine_solid();
	test_extrude();
	return gx_test_report("test_construct");
}
