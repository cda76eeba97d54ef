/*
 * test_delaunay.c: gx_incircle against GMP, then gx_delaunay checked exactly. On random, UTM-offset,
 * grid (every square cocircular) and circle (every point cocircular) sets: every triangle counter-clockwise,
 * every point a vertex, every edge in one or two triangles, the edges of one triangle only each with every
 * point on its inner side (the hull), and the empty-circle property on every edge (GMP incircle <= 0), also
 * in its perturbed form (< 0: the documented rule for cocircular points, which makes the result the same for
 * any input order, checked on shuffled input). With breaklines: no edge crosses a breakline, each breakline
 * vertex is a vertex, and every edge not on a breakline is locally Delaunay. Bad input gets its error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_incircle.h"
#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "construct/gx_construct.h"
#include "geom/gx_geom.h"
#include "gx_test.h"

#define MAXP 20000

static double pts[3 * MAXP];

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

/* A MULTILINESTRING of lines of 2 points each, from 6 doubles a line. */
static GxSerialized *
lines(const double *l, size_t n)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_MULTILINESTRING);
	for (size_t i = 0; i < n; i++)
	{
		size_t		ln = gx_builder_begin(&b, GX_LINESTRING);

		gx_builder_coord(&b, l[6 * i], l[6 * i + 1], l[6 * i + 2]);
		gx_builder_coord(&b, l[6 * i + 3], l[6 * i + 4], l[6 * i + 5]);
		gx_builder_end(&b, ln, 2);
	}
	gx_builder_end(&b, node, (uint32_t) n);
	return gx_builder_finish(&b, 0, &size);
}

static int
o2(const double *a, const double *b, const double *c)
{
	return gx_orient2d_gmp(a, b, c, 2);
}

/* Rank in (x, y) order: the perturbation's priority. */
static bool
xy_before(const double *a, const double *b)
{
	return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/* The perturbed incircle, written from its definition: the lowest-ranked point's lifting decides a tie. */
static int
incircle_sos(const double *a, const double *b, const double *c, const double *d)
{
	const double *q[4] = {a, b, c, d};
	int			s = gx_incircle_gmp(a, b, c, d);
	bool		used[4] = {false, false, false, false};

	for (int r = 0; r < 4 && s == 0; r++)
	{
		int			k = -1;
		const double *o[3];
		int			m = 0;

		for (int i = 0; i < 4; i++)
			if (!used[i] && (k < 0 || xy_before(q[i], q[k])))
				k = i;
		used[k] = true;
		for (int i = 0; i < 4; i++)
			if (i != k)
				o[m++] = q[i];
		s = (k % 2 ? -1 : 1) * o2(o[0], o[1], o[2]);
	}
	return s;
}

/* Two segments cross at a point inside both (not at an end). */
static bool
proper_cross(const double *a, const double *b, const double *c, const double *d)
{
	return o2(a, b, c) * o2(a, b, d) < 0 && o2(c, d, a) * o2(c, d, b) < 0;
}

/* c lies on the closed segment a b. */
static bool
on_segment(const double *a, const double *b, const double *c)
{
	return o2(a, b, c) == 0 && fmin(a[0], b[0]) <= c[0] && c[0] <= fmax(a[0], b[0]) &&
		fmin(a[1], b[1]) <= c[1] && c[1] <= fmax(a[1], b[1]);
}

typedef struct Checked
{
	bool		ok;
	long		edges;
} Checked;

static int
tri_cmp(const void *x, const void *y)
{
	return memcmp(x, y, 9 * sizeof(double));
}

/* The TIN's triangles each rotated to start at its least vertex, sorted: a canonical form. */
static double *
canonical(const GxSerialized *tin)
{
	uint32_t	n = gx_body(tin)->count;
	double	   *t = malloc((size_t) n * 9 * sizeof(double));

	memcpy(t, gx_node_coords(gx_body(tin)), (size_t) n * 9 * sizeof(double));
	for (uint32_t i = 0; i < n; i++)
	{
		double		r[9];
		int			m = 0;

		for (int k = 1; k < 3; k++)
			if (memcmp(t + 9 * i + 3 * k, t + 9 * i + 3 * m, 3 * sizeof(double)) < 0)
				m = k;
		for (int k = 0; k < 3; k++)
			memcpy(r + 3 * k, t + 9 * i + 3 * ((m + k) % 3), 3 * sizeof(double));
		memcpy(t + 9 * i, r, sizeof(r));
	}
	qsort(t, n, 9 * sizeof(double), tri_cmp);
	return t;
}

/* The exact checks of a triangulation of the n points (and of the breakline segments bl, nbl of them). */
static bool
check(const char *what, const GxSerialized *tin, const double *p, size_t n, const double *bl, size_t nbl)
{
	const GxNode *body = gx_body(tin);
	const double *t = gx_node_coords(body);
	uint32_t	nt = body->count;
	long		bad_ccw = 0,
				bad_circle = 0,
				bad_sos = 0,
				bad_hull = 0,
				bad_edge = 0,
				lost = 0,
				crossing = 0;

	if (body->type != GX_TIN)
		return false;
	for (uint32_t i = 0; i < nt; i++)
	{
		if (o2(t + 9 * i, t + 9 * i + 3, t + 9 * i + 6) <= 0)
			bad_ccw++;
		for (int e = 0; e < 3; e++)
		{
			const double *a = t + 9 * i + 3 * e,
					   *b = t + 9 * i + 3 * ((e + 1) % 3);
			int			twins = 0;
			bool		on_breakline = false;

			for (size_t k = 0; k < nbl; k++)
			{
				if (on_segment(bl + 6 * k, bl + 6 * k + 3, a) && on_segment(bl + 6 * k, bl + 6 * k + 3, b))
					on_breakline = true;
				if (proper_cross(a, b, bl + 6 * k, bl + 6 * k + 3))
					crossing++;
			}
			for (uint32_t j = 0; j < nt; j++)
				for (int f = 0; f < 3; f++)
				{
					const double *c = t + 9 * j + 3 * f,
							   *d = t + 9 * j + 3 * ((f + 1) % 3);

					if (memcmp(a, d, 24) == 0 && memcmp(b, c, 24) == 0)
					{
						const double *apex = t + 9 * j + 3 * ((f + 2) % 3);

						twins++;
						if (!on_breakline && gx_incircle_gmp(t + 9 * i, t + 9 * i + 3, t + 9 * i + 6, apex) > 0)
							bad_circle++;
						if (!on_breakline && incircle_sos(t + 9 * i, t + 9 * i + 3, t + 9 * i + 6, apex) > 0)
							bad_sos++;
					}
					else if (j != i && memcmp(a, c, 24) == 0 && memcmp(b, d, 24) == 0)
						bad_edge++;		/* the same edge twice in one direction */
				}
			if (twins > 1)
				bad_edge++;
			if (twins == 0)
				for (size_t q = 0; q < n; q++)
					if (o2(a, b, p + 3 * q) < 0)
					{
						bad_hull++;
						break;
					}
		}
	}
	for (size_t q = 0; q < n; q++)
	{
		bool		found = false;

		for (uint32_t i = 0; i < 3 * nt && !found; i++)
			found = memcmp(t + 3 * i, p + 3 * q, 24) == 0;
		lost += !found;
	}
	if (bad_ccw || bad_circle || bad_sos || bad_hull || bad_edge || lost || crossing)
	{
		fprintf(stderr, "%s: %u triangles: %ld clockwise, %ld not empty circles, %ld perturbed, %ld not hull, "
				"%ld edges repeated, %ld points lost, %ld crossing breaklines\n", what, nt, bad_ccw, bad_circle,
				bad_sos, bad_hull, bad_edge, lost, crossing);
		return false;
	}
	return true;
}

static GxSerialized *
triangulate(const double *p, size_t n, const double *bl, size_t nbl, GxError *err)
{
	GxSerialized *g = multipoint(p, n),
			   *l = nbl ? lines(bl, nbl) : NULL,
			   *tin;
	size_t		size;

	tin = gx_delaunay(g, l, &size, err);
	gx_free(g);
	gx_free(l);
	return tin;
}

static void
run(const char *what, size_t n, const double *bl, size_t nbl)
{
	GxError		err = {GX_OK, ""};
	GxSerialized *tin = triangulate(pts, n, bl, nbl, &err);

	CHECK_MSG(tin != NULL, "%s: %s", what, err.msg);
	if (tin)
		CHECK_MSG(check(what, tin, pts, n, bl, nbl), "%s", what);
	/* the same triangles for the input shuffled */
	if (tin && nbl == 0)
	{
		static double shuffled[3 * MAXP];
		GxSerialized *again;
		double	   *c1,
				   *c2;

		memcpy(shuffled, pts, n * 3 * sizeof(double));
		for (size_t i = n - 1; i > 0; i--)
		{
			size_t		j = gx_test_below((unsigned) i + 1);
			double		tmp[3];

			memcpy(tmp, shuffled + 3 * i, 24);
			memcpy(shuffled + 3 * i, shuffled + 3 * j, 24);
			memcpy(shuffled + 3 * j, tmp, 24);
		}
		again = triangulate(shuffled, n, NULL, 0, &err);
		CHECK(again && gx_body(again)->count == gx_body(tin)->count);
		if (again && gx_body(again)->count == gx_body(tin)->count)
		{
			c1 = canonical(tin);
			c2 = canonical(again);
			CHECK_MSG(memcmp(c1, c2, (size_t) gx_body(tin)->count * 72) == 0, "%s: depends on the input order", what);
			free(c1);
			free(c2);
		}
		gx_free(again);
	}
	gx_free(tin);
}

static void
test_incircle(void)
{
	int			bad = 0;

	for (int k = 0; k < 100000; k++)
	{
		double		q[4][3];
		int			kind = k % 3;

		for (int i = 0; i < 4; i++)
		{
			q[i][0] = kind == 0 ? gx_test_uniform() : (double) gx_test_int(-8, 8) + (kind == 2 ? 500000 : 0);
			q[i][1] = kind == 0 ? gx_test_uniform() : (double) gx_test_int(-8, 8) + (kind == 2 ? 4500000 : 0);
			q[i][2] = 0;
		}
		if (gx_incircle(q[0], q[1], q[2], q[3]) != gx_incircle_gmp(q[0], q[1], q[2], q[3]))
			bad++;
		if (gx_incircle_expansion(q[0], q[1], q[2], q[3]) != gx_incircle_gmp(q[0], q[1], q[2], q[3]))
			bad++;
	}
	CHECK_MSG(bad == 0, "%d incircle signs differ from GMP", bad);
}

int
main(void)
{
	size_t		n;
	GxError		err = {GX_OK, ""};

	test_incircle();
	for (int round = 0; round < 6; round++)
	{
		n = 10 + gx_test_below(round < 4 ? 100 : 600);
		for (size_t i = 0; i < n; i++)
		{
			pts[3 * i] = gx_test_uniform() * 1000 + (round % 2 ? 500000 : 0);
			pts[3 * i + 1] = gx_test_uniform() * 1000 + (round % 2 ? 4500000 : 0);
			pts[3 * i + 2] = gx_test_uniform() * 50;
		}
		run(round % 2 ? "random at UTM offsets" : "random", n, NULL, 0);
	}
	/* a 20 x 20 grid: every square's four corners on one circle */
	n = 0;
	for (int x = 0; x < 20; x++)
		for (int y = 0; y < 20; y++, n++)
			pts[3 * n] = 500000 + x * 0.5, pts[3 * n + 1] = 4500000 + y * 0.5, pts[3 * n + 2] = (x * y) % 7;
	run("grid", n, NULL, 0);
	/* the lattice points of x^2 + y^2 = 65^2 (all on one circle) and its centre */
	n = 0;
	for (int x = -65; x <= 65; x++)
		for (int y = -65; y <= 65; y++)
			if (x * x + y * y == 65 * 65)
				pts[3 * n] = x, pts[3 * n + 1] = y, pts[3 * n + 2] = 1, n++;
	run("circle", n, NULL, 0);
	pts[3 * n] = 0, pts[3 * n + 1] = 0, pts[3 * n + 2] = 0;
	run("circle and centre", n + 1, NULL, 0);
	/* breaklines through a grid: diagonals across the squares, one through grid points, a polyline */
	{
		double		bl[6 * 4] = {
			500000.25, 4500000.1, 3, 500009, 4500003.3, 4,
			500001, 4500001, 4, 500006, 4500006, 4,	/* along grid points (their z): split at each */
			500002.7, 4500009.2, 1, 500008.1, 4500004.4, 2,
			500008.1, 4500004.4, 2, 500009.4, 4500009.3, 5,
		};

		n = 0;
		for (int x = 0; x < 20; x++)
			for (int y = 0; y < 20; y++, n++)
				pts[3 * n] = 500000 + x * 0.5, pts[3 * n + 1] = 4500000 + y * 0.5, pts[3 * n + 2] = (x * y) % 7;
		/* the breaklines' vertices join the points */
		for (int k = 0; k < 8; k++)
		{
			bool		dup = false;

			for (size_t i = 0; i < n && !dup; i++)
				dup = pts[3 * i] == bl[3 * k] && pts[3 * i + 1] == bl[3 * k + 1];
			if (!dup)
				memcpy(pts + 3 * n++, bl + 3 * k, 24);
		}
		run("breaklines", n, bl, 4);
		/* two breaklines that cross */
		bl[3] = 500002.7, bl[4] = 4500009.2, bl[5] = 1;
		bl[6] = 500009, bl[7] = 4500000.2, bl[8] = 0;
		bl[9] = 500000.5, bl[10] = 4500008, bl[11] = 2;
		{
			GxSerialized *tin = triangulate(pts, n, bl, 2, &err);

			CHECK_MSG(tin == NULL && err.code == GX_ERR_UNSUPPORTED && strstr(err.msg, "cross"), "%s", err.msg);
			gx_free(tin);
		}
	}
	/* bad input */
	{
		double		dup[9] = {0, 0, 1, 1, 0, 1, 0, 0, 2},
					two[9] = {0, 0, 1, 1, 0, 1, 0, 0, 1},
					line[9] = {0, 0, 1, 1, 1, 1, 2, 2, 1};
		GxSerialized *tin;

		err.code = GX_OK;
		tin = triangulate(dup, 3, NULL, 0, &err);
		CHECK(tin == NULL && err.code == GX_ERR_INVALID && strstr(err.msg, "different z"));
		err.code = GX_OK;
		tin = triangulate(two, 3, NULL, 0, &err);
		CHECK(tin == NULL && err.code == GX_ERR_INVALID && strstr(err.msg, "2 distinct points"));
		err.code = GX_OK;
		tin = triangulate(line, 3, NULL, 0, &err);
		CHECK(tin == NULL && err.code == GX_ERR_INVALID && strstr(err.msg, "one line"));
	}
	return gx_test_report("test_delaunay");
}
