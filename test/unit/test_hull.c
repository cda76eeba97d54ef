/*
 * test_hull.c: gx_convexhull against a brute-force exact check on random and degenerate point sets (random,
 * integer grids, points of a lattice sphere with many coplanar fours, coplanar and collinear sets, repeated
 * points, all of them also at UTM offsets). A result is the hull when it is a valid solid (or convex polygon)
 * whose vertices are input points and every input point lies inside or on every face (orient3d, exactly): a
 * convex polytope with vertices among the points and containing them all is their hull, so no point is lost.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "construct/gx_construct.h"
#include "geom/gx_geom.h"
#include "gx_test.h"

#define MAXP 3000

static double pts[3 * MAXP];

/* A MULTIPOINT of the n points at p. */
static GxSerialized *
multipoint(const double *p, size_t n)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_MULTIPOINT);
	for (size_t i = 0; i < n; i++)
	{
		size_t		pn = gx_builder_begin(&b, GX_POINT);

		gx_builder_coord(&b, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
		gx_builder_end(&b, pn, 1);
	}
	gx_builder_end(&b, node, (uint32_t) n);
	return gx_builder_finish(&b, 0, &size);
}

static bool
is_input(const double *v, const double *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(v, p + 3 * i, 3 * sizeof(double)) == 0)
			return true;
	return false;
}

/* The brute-force check of a hull of the n points; the kind of result expected (0 point .. 3 solid). */
static bool
check_hull(const char *what, const double *p, size_t n, int dim)
{
	GxSerialized *g = multipoint(p, n),
			   *h;
	GxError		err = {GX_OK, ""};
	size_t		size;
	bool		ok = true;
	const GxNode *body;
	const double *t;

	h = gx_convexhull(g, &size, &err);
	gx_free(g);
	if (h == NULL)
	{
		fprintf(stderr, "%s: %s\n", what, err.msg);
		return false;
	}
	body = gx_body(h);
	t = gx_node_coords(body);
	if (dim == 3)
	{
		int			sign = 0;

		ok = body->type == GX_POLYHEDRALSURFACE && (h->flags & GX_FLAG_SOLID);
		for (uint32_t f = 0; ok && f < body->count; f++)
			for (size_t i = 0; ok && i < n; i++)
			{
				int			s = gx_orient3d(t + 9 * f, t + 9 * f + 3, t + 9 * f + 6, p + 3 * i);

				if (s != 0 && sign == 0)
					sign = s;
				ok = s == 0 || s == sign;
			}
	}
	else if (dim == 2)
	{
		/* a fan: boundary edges h0 hk, hk hk+1 ..., each with every point on one side, the same side */
		ok = body->type == GX_TIN && body->count >= 1;
		for (uint32_t f = 0; ok && f < body->count; f++)
			for (size_t i = 0; ok && i < n; i++)
				ok = gx_orient3d(t + 9 * f, t + 9 * f + 3, t + 9 * f + 6, p + 3 * i) == 0;
		for (int drop = 0, sign = 0; ok && drop < 3; drop++, sign = 0)
			for (uint32_t f = 0; ok && f < body->count; f++)
				for (int e = 0; ok && e < 3; e++)
				{
					const double *a = t + 9 * f + 3 * e,
							   *b = t + 9 * f + 3 * ((e + 1) % 3);
					bool		boundary = !((e == 0 && f > 0) || (e == 2 && f + 1 < body->count));

					for (size_t i = 0; ok && boundary && i < n; i++)
					{
						int			s = gx_orient2d(a, b, p + 3 * i, drop);

						if (s != 0 && sign == 0)
							sign = s;
						ok = s == 0 || s == sign;
					}
				}
	}
	else
		ok = body->type == (dim == 1 ? GX_LINESTRING : GX_POINT);
	for (long k = 0; ok && k < gx_leaf_doubles(body->type, body->count) / 3; k++)
		ok = is_input(t + 3 * k, p, n);
	if (!ok)
		fprintf(stderr, "%s: not the hull (%s of %u)\n", what, gx_type_name(body->type), body->count);
	gx_free(h);
	return ok;
}

/* Every point moved by a UTM-sized offset (exact for these coordinates). */
static void
offset(double *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
	{
		p[3 * i] += 500000;
		p[3 * i + 1] += 4500000;
		p[3 * i + 2] += 100;
	}
}

static void
both(const char *what, size_t n, int dim)
{
	CHECK_MSG(check_hull(what, pts, n, dim), "%s", what);
	offset(pts, n);
	CHECK_MSG(check_hull(what, pts, n, dim), "%s at UTM offsets", what);
}

int
main(void)
{
	size_t		n;
	GxError		err = {GX_OK, ""};
	size_t		size;

	for (int round = 0; round < 40; round++)
	{
		n = 4 + gx_test_below(round < 30 ? 60 : 2000);
		for (size_t i = 0; i < 3 * n; i++)
			pts[i] = gx_test_uniform() * 100 - 50;
		both("random", n, 3);
		/* random small integers: many coplanar and collinear triples, repeated points */
		for (size_t i = 0; i < 3 * n; i++)
			pts[i] = (double) gx_test_int(-3, 3);
		both("small integers", n, 3);
	}
	/* a grid 6 x 6 x 6: every face holds 36 points, every edge 6 */
	n = 0;
	for (int x = 0; x < 6; x++)
		for (int y = 0; y < 6; y++)
			for (int z = 0; z < 6; z++, n++)
				pts[3 * n] = x, pts[3 * n + 1] = y, pts[3 * n + 2] = z;
	both("grid", n, 3);
	/* the lattice points of the sphere x^2 + y^2 + z^2 = 25 * 25: many fours on one circle */
	n = 0;
	for (int x = -25; x <= 25; x++)
		for (int y = -25; y <= 25; y++)
			for (int z = -25; z <= 25; z++)
				if (x * x + y * y + z * z == 625 && n < MAXP)
					pts[3 * n] = x, pts[3 * n + 1] = y, pts[3 * n + 2] = z, n++;
	both("lattice sphere", n, 3);
	/* coplanar sets: z = x + 2y on a grid and at random integers, and a vertical plane */
	for (int round = 0; round < 10; round++)
	{
		n = 3 + gx_test_below(300);
		for (size_t i = 0; i < n; i++)
		{
			pts[3 * i] = (double) gx_test_int(-20, 20);
			pts[3 * i + 1] = (double) gx_test_int(-20, 20);
			pts[3 * i + 2] = round % 2 ? 7 : pts[3 * i] + 2 * pts[3 * i + 1];
			if (round % 3 == 2)
				pts[3 * i + 2] = pts[3 * i + 1], pts[3 * i + 1] = 3;
		}
		pts[0] = 100, pts[1] = 3, pts[2] = round % 3 == 2 ? 0 : round % 2 ? 7 : 106;
		pts[3] = -100, pts[4] = 3, pts[5] = round % 3 == 2 ? 50 : round % 2 ? 7 : -94;
		pts[6] = 0, pts[7] = 3, pts[8] = round % 3 == 2 ? -50 : round % 2 ? 7 : 6;
		both("coplanar", n, 2);
	}
	/* collinear, and one point repeated */
	n = 50;
	for (size_t i = 0; i < n; i++)
	{
		double		t = (double) gx_test_int(-100, 100);

		pts[3 * i] = t, pts[3 * i + 1] = 2 * t, pts[3 * i + 2] = -3 * t;
	}
	both("collinear", n, 1);
	for (size_t i = 0; i < 20; i++)
		pts[3 * i] = 1.5, pts[3 * i + 1] = -2, pts[3 * i + 2] = 1e-300;
	both("one point", 20, 0);
	/* EMPTY has no hull */
	{
		GxSerialized *e = multipoint(pts, 0);

		CHECK(gx_convexhull(e, &size, &err) == NULL && err.code == GX_ERR_INVALID);
		gx_free(e);
	}
	return gx_test_report("test_hull");
}
