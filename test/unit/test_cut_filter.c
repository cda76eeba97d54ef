/*
 * test_cut_filter.c: a triangle or a facet cut along other triangles (algorithm/gx_cut.h), filtered (signs and
 * orders among its points from certified enclosures, new vertices rounded from them) against the same cut
 * with every decision in rationals (gx_cut_exact): the same triangles, pieces, cuts along each edge, piece
 * points (and their doubles where the enclosures give them), sides and every rounded vertex, bit for bit.
 * Cases meant to sit on the filter's edge: cuts through the domain's corners and along its edges, coplanar
 * triangles shifted by an ulp or less, many cuts through one point, grid triangles edge-on-face, facets cut by
 * coplanar groups and strips of triangles (the sections' points made from enclosures, their rationals only
 * when needed), at small and at UTM coordinates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut.h"
#include "algorithm/gx_projection.h"
#include "gx_test.h"

#define MAX_TAU 24

static long cuts_compared,
			vertices_compared,
			pieces_near;

/* A random double in [lo, hi), on a grid of step q when q > 0. */
static double
draw(double lo, double hi, double q)
{
	double		x = lo + (hi - lo) * (double) gx_test_below(1u << 30) / (double) (1u << 30);

	return q > 0 ? q * nearbyint(x / q) : x;
}

/* p moved by k ulps on each coordinate (k in -2..2 drawn per coordinate). */
static void
nudge(const double *p, double *r)
{
	for (int a = 0; a < 3; a++)
	{
		int			k = (int) gx_test_below(5) - 2;

		r[a] = p[a];
		for (; k > 0; k--)
			r[a] = nextafter(r[a], INFINITY);
		for (; k < 0; k++)
			r[a] = nextafter(r[a], -INFINITY);
	}
}

/* One case: the domain (T, then the triangles of ext coplanar with it), the ntau triangles cutting it. */
typedef struct Case
{
	double		T[9],
				ext[9 * 2],
				tau[9 * MAX_TAU];
	int			next,
				ntau;
} Case;

/* The cut of case k, filtered or exact; NULL when T is flat or the build failed (err set). */
static GxCut *
cut_of(const Case *k, bool exact, GxError *err)
{
	int			sigma,
				drop = gx_triangle_projection(k->T, &sigma);
	GxCut	   *c;

	if (drop < 0 || (c = gx_cut_new(k->T, drop)) == NULL)
		return NULL;
	if (exact)
		gx_cut_exact(c);
	for (int e = 0; e < k->next; e++)
		gx_cut_extend(c, k->ext + 9 * e);
	/* the first two as one group, the others alone */
	if (k->ntau >= 2)
	{
		const size_t idx[2] = {0, 1};

		gx_cut_add_group(c, k->tau, idx, 2);
	}
	for (int t = 2; t < k->ntau; t++)
		gx_cut_add(c, k->tau + 9 * t);
	if (!gx_cut_build(c, NULL, err))
	{
		gx_cut_free(c);
		return NULL;
	}
	return c;
}

/* Everything a caller reads of the two cuts, compared. */
static void
compare(const Case *k, const char *what)
{
	GxError		e[2] = {{GX_OK, ""}, {GX_OK, ""}};
	GxCut	   *c[2] = {cut_of(k, false, &e[0]), cut_of(k, true, &e[1])};
	mpq_t		t[2],
				u[2];
	size_t		nv = 0;

	CHECK_MSG((c[0] == NULL) == (c[1] == NULL) && strcmp(e[0].msg, e[1].msg) == 0, "%s: %s / %s", what,
			  e[0].msg, e[1].msg);
	if (c[0] == NULL || c[1] == NULL)
	{
		gx_cut_free(c[0]);
		gx_cut_free(c[1]);
		return;
	}
	CHECK_MSG(gx_cut_ntriangles(c[0]) == gx_cut_ntriangles(c[1]) && gx_cut_npieces(c[0]) == gx_cut_npieces(c[1]),
			  "%s: %zu triangles, %zu pieces; exact %zu, %zu", what, gx_cut_ntriangles(c[0]), gx_cut_npieces(c[0]),
			  gx_cut_ntriangles(c[1]), gx_cut_npieces(c[1]));
	if (gx_cut_ntriangles(c[0]) != gx_cut_ntriangles(c[1]) || gx_cut_npieces(c[0]) != gx_cut_npieces(c[1]))
		goto done;
	for (size_t x = 0; x < gx_cut_ntriangles(c[0]); x++)
	{
		size_t		p[2];
		const size_t *v[2] = {gx_cut_triangle(c[0], x, &p[0]), gx_cut_triangle(c[1], x, &p[1])};

		CHECK_MSG(p[0] == p[1] && memcmp(v[0], v[1], 3 * sizeof(size_t)) == 0, "%s: triangle %zu", what, x);
		for (int m = 0; m < 3; m++)
		{
			double		xyz[2][3];
			bool		border[2];
			size_t		src[2][4],
						n[2];

			if (v[0][m] + 1 > nv)
				nv = v[0][m] + 1;
			gx_cut_vertex(c[0], v[0][m], xyz[0]);
			gx_cut_vertex(c[1], v[0][m], xyz[1]);
			CHECK_MSG(memcmp(xyz[0], xyz[1], sizeof(xyz[0])) == 0, "%s: vertex %zu (%.17g %.17g %.17g), exact "
					  "(%.17g %.17g %.17g)", what, v[0][m], xyz[0][0], xyz[0][1], xyz[0][2], xyz[1][0], xyz[1][1],
					  xyz[1][2]);
			vertices_compared++;
			n[0] = gx_cut_edge(c[0], x, m, &border[0], src[0], 4);
			n[1] = gx_cut_edge(c[1], x, m, &border[1], src[1], 4);
			CHECK_MSG(n[0] == n[1] && border[0] == border[1] &&
					  memcmp(src[0], src[1], (n[0] < 4 ? n[0] : 4) * sizeof(size_t)) == 0,
					  "%s: triangle %zu's edge %d", what, x, m);
		}
	}
	for (size_t v = 0; v < nv; v++)
		for (int s = 0; s < k->ntau && s < 2; s++)
			CHECK_MSG(gx_cut_vertex_side(c[0], v, k->tau + 9 * s) == gx_cut_vertex_side(c[1], v, k->tau + 9 * s),
					  "%s: vertex %zu's side of cut %d", what, v, s);
	mpq_inits(t[0], u[0], t[1], u[1], NULL);
	for (size_t p = 0; p < gx_cut_npieces(c[0]); p++)
	{
		const double *tri[2];
		double		near[2];
		int			cover[2];

		cover[0] = gx_cut_piece_point(c[0], p, t[0], u[0], &tri[0]);
		cover[1] = gx_cut_piece_point(c[1], p, t[1], u[1], &tri[1]);
		CHECK_MSG(cover[0] == cover[1] && mpq_equal(t[0], t[1]) && mpq_equal(u[0], u[1]) &&
				  memcmp(tri[0], tri[1], 9 * sizeof(double)) == 0, "%s: piece %zu's point", what, p);
		/* its doubles from the enclosures, where they decide them: mpq_get_d of the rationals, in T, covered by none */
		if (gx_cut_piece_near(c[0], p, &near[0], &near[1]))
		{
			CHECK_MSG(near[0] == mpq_get_d(t[0]) && near[1] == mpq_get_d(u[0]) && cover[0] == 0 &&
					  tri[0][0] == k->T[0], "%s: piece %zu's point near (%.17g %.17g)", what, p, near[0], near[1]);
			pieces_near++;
		}
		CHECK_MSG(!gx_cut_piece_near(c[1], p, &near[0], &near[1]), "%s: piece %zu near without the filter", what, p);
	}
	mpq_clears(t[0], u[0], t[1], u[1], NULL);
	cuts_compared++;
done:
	gx_cut_free(c[0]);
	gx_cut_free(c[1]);
}

/* A random triangle about o of size s (on a grid of step q when q > 0). */
static void
random_triangle(const double *o, double s, double q, double *t)
{
	for (int k = 0; k < 9; k++)
		t[k] = o[k % 3] + draw(-s, s, q);
}

/* Triangles crossing T at random, through its corners, along its edges, and coplanar copies nudged. */
static void
test_random(const double *o, double s, double q, const char *where)
{
	char		what[120];

	for (int n = 0; n < 60; n++)
	{
		Case		k = {.next = 0, .ntau = 2 + (int) gx_test_below(MAX_TAU - 2)};

		random_triangle(o, s, q, k.T);
		for (int j = 0; j < k.ntau; j++)
		{
			double	   *tau = k.tau + 9 * j;

			random_triangle(o, s, q, tau);
			switch (gx_test_below(5))
			{
				case 0:			/* through a corner of T */
					memcpy(tau + 3 * gx_test_below(3), k.T + 3 * gx_test_below(3), 3 * sizeof(double));
					break;
				case 1:			/* along an edge of T */
					{
						int			e = (int) gx_test_below(3);

						memcpy(tau, k.T + 3 * e, 3 * sizeof(double));
						memcpy(tau + 3, k.T + 3 * ((e + 1) % 3), 3 * sizeof(double));
						break;
					}
				case 2:			/* T itself, each corner nudged by up to two ulps */
					for (int m = 0; m < 3; m++)
						nudge(k.T + 3 * m, tau + 3 * m);
					break;
				default:
					break;
			}
		}
		snprintf(what, sizeof(what), "%s: random case %d", where, n);
		compare(&k, what);
	}
}

/*
 * A facet of two triangles in the plane z = h (a square split on its diagonal) cut by tetrahedra's faces of a
 * grid, edge-on-face: their vertices on the grid, many on the plane, on the square's edges and diagonal.
 */
static void
test_grid(const double *o)
{
	char		what[120];

	for (int n = 0; n < 60; n++)
	{
		double		h = o[2] + (double) gx_test_below(3);
		Case		k = {.next = 1, .ntau = 2 + (int) gx_test_below(MAX_TAU - 2)};
		const double sq[4][3] = {{o[0], o[1], h}, {o[0] + 4, o[1], h}, {o[0] + 4, o[1] + 4, h},
		{o[0], o[1] + 4, h}};

		memcpy(k.T, sq[0], sizeof(sq[0]));
		memcpy(k.T + 3, sq[1], sizeof(sq[1]));
		memcpy(k.T + 6, sq[2], sizeof(sq[2]));
		memcpy(k.ext, sq[0], sizeof(sq[0]));
		memcpy(k.ext + 3, sq[2], sizeof(sq[2]));
		memcpy(k.ext + 6, sq[3], sizeof(sq[3]));
		for (int j = 0; j < k.ntau; j++)
			for (int m = 0; m < 9; m++)
				k.tau[9 * j + m] = o[m % 3] + (double) gx_test_below(5) * (m % 3 == 2 ? 0.5 : 1) -
					(m % 3 == 2 ? 0 : 0.5 * (double) gx_test_below(2));
		snprintf(what, sizeof(what), "grid case %d", n);
		compare(&k, what);
	}
}

/* Many cuts through one point inside T (a fan of triangles about a line through it), the point nudged. */
static void
test_fans(const double *o, const char *where)
{
	char		what[120];

	for (int n = 0; n < 30; n++)
	{
		Case		k = {.next = 0, .ntau = MAX_TAU};
		double		c[3],
					a[3];

		random_triangle(o, 10, 0, k.T);
		for (int a3 = 0; a3 < 3; a3++)
			c[a3] = (k.T[a3] + k.T[3 + a3] + k.T[6 + a3]) / 3;
		for (int j = 0; j < k.ntau; j++)
		{
			double	   *tau = k.tau + 9 * j,
						ang = 2 * 3.14159265358979323846 * j / k.ntau;

			nudge(c, a);
			for (int m = 0; m < 3; m++)
			{
				tau[m] = a[m];
				tau[3 + m] = a[m] + (m == 2 ? 30 : 30 * (m ? sin(ang) : cos(ang)));
				tau[6 + m] = a[m] + (m == 2 ? -30 : 30 * (m ? sin(ang + 0.01) : cos(ang + 0.01)));
			}
		}
		snprintf(what, sizeof(what), "%s: fan %d", where, n);
		compare(&k, what);
	}
}

/* o + q (i, j, k): a point of the integer grid of step q (a power of two) about o, exactly. */
static void
grid_point(const double *o, double q, long i, long j, long k, double *p)
{
	p[0] = o[0] + q * (double) i;
	p[1] = o[1] + q * (double) j;
	p[2] = o[2] + q * (double) k;
}

/* A random integer in [-m, m]. */
static long
around(long m)
{
	return (long) gx_test_below((unsigned) (2 * m + 1)) - m;
}

/*
 * A facet of two triangles (a parallelogram in the plane k = i + j of the grid) cut by a facet of the other
 * surface given as one group (another parallelogram, split on a diagonal: exactly coplanar), then by a strip
 * of triangles each sharing an edge with the one before (sections that meet at their shared edges' crossings):
 * the sections filtered, their rationals made only when needed. The group's shared edge crossing the facet's
 * plane on the facet's inner edge, a vertex of it or of the strip on the plane, its fourth corner nudged by an
 * ulp or two (no longer coplanar): where the filter must give way to the rationals.
 */
static void
test_groups(const double *o, double q, const char *where)
{
	char		what[120];

	for (int n = 0; n < 80; n++)
	{
		Case		k = {.next = 1, .ntau = 2 + (int) gx_test_below(MAX_TAU - 2)};
		long		a[2] = {around(8), around(8)},
					b[2] = {a[0] + 1 + (long) gx_test_below(8), a[1] + around(3)},
					c[2] = {a[0] + around(3), a[1] + 1 + (long) gx_test_below(8)},
					d[2] = {c[0] + b[0] - a[0], c[1] + b[1] - a[1]},
					g[4][3],
					v[3][3];
		int			variant = (int) gx_test_below(5);
		const int	corner[2][3] = {{0, 1, 2}, {0, 2, 3}};

		/* the domain: A B D and A D C, D = B + C - A, on the plane k = i + j */
		grid_point(o, q, a[0], a[1], a[0] + a[1], k.T);
		grid_point(o, q, b[0], b[1], b[0] + b[1], k.T + 3);
		grid_point(o, q, d[0], d[1], d[0] + d[1], k.T + 6);
		memcpy(k.ext, k.T, 3 * sizeof(double));
		memcpy(k.ext + 3, k.T + 6, 3 * sizeof(double));
		grid_point(o, q, c[0], c[1], c[0] + c[1], k.ext + 6);
		/* the group: G0 G1 G2 and G0 G2 G3, G3 = G0 + G2 - G1 */
		for (int m = 0; m < 3; m++)
			for (int x = 0; x < 3; x++)
				g[m][x] = around(10);
		if (variant == 1)
		{
			/* its shared edge G0 G2 crosses the facet's plane at the middle of the inner edge A D */
			g[0][0] = a[0];
			g[0][1] = a[1];
			g[0][2] = a[0] + a[1] + 2;
			g[2][0] = d[0];
			g[2][1] = d[1];
			g[2][2] = d[0] + d[1] - 2;
		}
		else if (variant == 2)
			g[0][2] = g[0][0] + g[0][1];	/* G0 on the facet's plane */
		for (int x = 0; x < 3; x++)
			g[3][x] = g[0][x] + g[2][x] - g[1][x];
		for (int t = 0; t < 2; t++)
			for (int m = 0; m < 3; m++)
				grid_point(o, q, g[corner[t][m]][0], g[corner[t][m]][1], g[corner[t][m]][2], k.tau + 9 * t + 3 * m);
		if (variant == 3)
			nudge(k.tau + 9 + 6, k.tau + 9 + 6);
		/* the strip: triangle j is V_j V_j+1 V_j+2 */
		for (int m = 0; m < 3; m++)
			for (int x = 0; x < 3; x++)
				v[m][x] = around(10);
		for (int j = 2; j < k.ntau; j++)
		{
			for (int m = 0; m < 3; m++)
				grid_point(o, q, v[m][0], v[m][1], v[m][2], k.tau + 9 * j + 3 * m);
			memmove(v[0], v[1], 2 * sizeof(v[0]));
			for (int x = 0; x < 3; x++)
				v[2][x] = around(10);
			if (variant == 4 && gx_test_below(2))
				v[2][2] = v[2][0] + v[2][1];	/* a vertex on the facet's plane */
		}
		snprintf(what, sizeof(what), "%s: group case %d (variant %d)", where, n, variant);
		compare(&k, what);
	}
}

int
main(void)
{
	const double zero[3] = {0, 0, 0},
				utm[3] = {500123.25, 7000456.5, 210};

	test_random(zero, 10, 0, "small");
	test_random(zero, 4, 1, "small grid");
	test_random(utm, 30, 1e-3, "UTM");
	test_random(utm, 1e-6, 0, "UTM, sub-micrometre");
	test_grid(zero);
	test_grid(utm);
	test_fans(zero, "small");
	test_fans(utm, "UTM");
	test_groups(zero, 1, "small");
	test_groups(utm, 0x1p-10, "UTM");
	test_groups(utm, 0x1p-30, "UTM, at the spacing of the doubles");
	CHECK_MSG(cuts_compared > 500, "%ld cuts compared", cuts_compared);
	CHECK_MSG(pieces_near > 100, "%ld pieces' points from the enclosures", pieces_near);
	printf("%ld cuts, %ld vertices and %ld pieces' points from the enclosures compared\n", cuts_compared,
		   vertices_compared, pieces_near);
	return gx_test_report("test_cut_filter");
}
