/*
 * cgal_boolean.cpp: gpuexact's exact volumes of a ∩ b, a ∪ b and a \ b (operation/gx_overlay.h) against
 * CGAL's corefinement with exact constructions, rational for rational, and the rounded volumes (the rational
 * path's and the filter's) bit for bit: random and degenerate pairs (identical solids, copies shifted by a fraction of a metre, shared
 * faces, boxes whose planes pass through a body's vertices, grid tetrahedra meeting edge-on-face, touching
 * solids, cavities, UTM coordinates). Built and run only where CGAL's headers are (test/oracle/run.sh).
 */
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cgal_overlay.h"
extern "C"
{
#include "algorithm/gx_round.h"
}
#include "gx_test.h"
#include "gx_test_tris.h"

typedef std::vector<double> Soup;

static void
add_tri(Soup &t, const double *a, const double *b, const double *c)
{
	t.insert(t.end(), a, a + 3);
	t.insert(t.end(), b, b + 3);
	t.insert(t.end(), c, c + 3);
}

/* The box [lo, hi], outward (inward for a cavity). */
static void
add_box(Soup &t, const double *lo, const double *hi, bool inward = false)
{
	double		tri[12 * 9];

	box_triangles(lo, hi, inward, tri);
	t.insert(t.end(), tri, tri + 12 * 9);
}

/* Tetrahedron abcd, outward. */
static void
add_tetra(Soup &t, const double *a, const double *b, const double *c, const double *d)
{
	if (CGAL::orientation(K::Point_3(a[0], a[1], a[2]), K::Point_3(b[0], b[1], b[2]), K::Point_3(c[0], c[1], c[2]),
						  K::Point_3(d[0], d[1], d[2])) == CGAL::POSITIVE)
		std::swap(b, c);
	add_tri(t, a, b, c);
	add_tri(t, a, d, b);
	add_tri(t, b, d, c);
	add_tri(t, c, d, a);
}

/* An octahedron at c of radius r, its vertices jittered. */
static void
add_octahedron(Soup &t, const double *c, double r, double jitter)
{
	double		tri[8 * 9];

	octahedron_triangles(c, r, jitter, tri);
	t.insert(t.end(), tri, tri + 8 * 9);
}

static Soup
shifted(const Soup &t, const double *d)
{
	Soup		s = t;

	for (size_t i = 0; i < s.size(); i++)
		s[i] += d[i % 3];
	return s;
}

static int	compared;

/*
 * One pair: the three exact volumes equal CGAL's; the intersection's rounding is the exact one's; the filtered
 * volumes (gx_overlay_volumes) are CGAL's rounded once.
 */
static void
check(const Soup &a, const Soup &b, const char *what)
{
	Mesh		ma = mesh_of(a),
				mb = mesh_of(b);
	mpq_t		v[3],
				c;
	double		rounded[3];
	GxError		err = {GX_OK, ""};
	static const char *names[3] = {"intersection", "union", "difference"};

	mpq_inits(v[0], v[1], v[2], c, NULL);
	CHECK_MSG(CGAL::is_closed(ma) && CGAL::is_closed(mb) && !PMP::does_self_intersect(ma) &&
			  !PMP::does_self_intersect(mb), "%s: an input CGAL finds not closed or self-intersecting", what);
	if (!gx_volumes(a, b, v, &err) || !gx_rounded_volumes(a, b, rounded, &err))
		CHECK_MSG(false, "%s: %s", what, err.msg);
	else
		for (int k = 0; k < 3; k++)
		{
			if (!cgal_volume(ma, mb, (GxBooleanOp) k, c))
			{
				printf("%s: CGAL could not compute the %s\n", what, names[k]);
				continue;
			}
			compared++;
			CHECK_MSG(mpq_equal(v[k], c), "%s: %s %.17g, CGAL %.17g", what, names[k], mpq_get_d(v[k]),
					  mpq_get_d(c));
			if (k == 0)
				CHECK(gx_mpq_get_d_nearest(v[0]) == gx_mpq_get_d_nearest(c));
			CHECK_MSG(rounded[k] == gx_mpq_get_d_nearest(c), "%s: %s rounded %.17g, CGAL's %.17g", what, names[k],
					  rounded[k], gx_mpq_get_d_nearest(c));
		}
	mpq_clears(v[0], v[1], v[2], c, NULL);
}

int
main()
{
	const double utm[3] = {500123.25, 7000456.5, 1200};
	char		what[64];

	/* boxes on a grid: shared faces, edges, vertices, identical, shifted by fractions, at UTM */
	for (int r = 0; r < 40; r++)
	{
		Soup		a,
					b;
		double		lo[2][3],
					hi[2][3];

		for (int s = 0; s < 2; s++)
			for (int d = 0; d < 3; d++)
			{
				int			i = gx_test_rand() % 4,
							j = i + 1 + gx_test_rand() % 3;

				lo[s][d] = (r % 2 ? utm[d] : 0) + i;
				hi[s][d] = (r % 2 ? utm[d] : 0) + j;
				if (s && r % 5 == 0)
					lo[s][d] += 0.3, hi[s][d] += 0.3;
			}
		add_box(a, lo[0], hi[0]);
		add_box(b, r % 7 == 0 ? lo[0] : lo[1], r % 7 == 0 ? hi[0] : hi[1]);
		snprintf(what, sizeof(what), "boxes %d", r);
		check(a, b, what);
	}
	/* a box with a cavity against boxes through it */
	{
		const double lo[3] = {0, 0, 0}, hi[3] = {4, 4, 4}, clo[3] = {1, 1, 1}, chi[3] = {3, 3, 3},
			plo[3] = {0.5, 1, 1}, phi[3] = {3.5, 3, 3}, qlo[3] = {2, 2, 2}, qhi[3] = {5, 5, 5};
		Soup		a,
					b,
					c;

		add_box(a, lo, hi);
		add_box(a, clo, chi, true);
		add_box(b, plo, phi);
		add_box(c, qlo, qhi);
		check(a, b, "cavity, a box sharing 4 of its planes");
		check(a, c, "cavity, a box over a corner");
	}
	/* octahedra: jittered, shifted copies, identical, at UTM */
	for (int r = 0; r < 30; r++)
	{
		Soup		a,
					b;
		double		c0[3] = {utm[0], utm[1], utm[2]},
					d[3] = {0.25, 0.125, 0.0625};

		add_octahedron(a, c0, 2, r % 2 ? 1 : 0);
		if (r % 3 == 0)
			b = shifted(a, d);
		else if (r % 3 == 1)
			b = a;
		else
		{
			double		c1[3];

			for (int k = 0; k < 3; k++)
				c1[k] = c0[k] + (double) (gx_test_rand() % 64) / 16 - 2;
			add_octahedron(b, c1, 1.5, 1);
		}
		snprintf(what, sizeof(what), "octahedra %d", r);
		check(a, b, what);
	}
	/* tetrahedra and boxes whose planes pass through their vertices */
	for (int r = 0; r < 30; r++)
	{
		Soup		a,
					b;
		double		p[4][3],
					lo[3],
					hi[3];

		for (int k = 0; k < 4; k++)
			for (int d = 0; d < 3; d++)
				p[k][d] = utm[d] + (double) (gx_test_rand() % 1000) / 256;
		add_tetra(a, p[0], p[1], p[2], p[3]);
		for (int d = 0; d < 3; d++)
		{
			double		x = p[gx_test_rand() % 4][d],
						y = p[gx_test_rand() % 4][d];

			lo[d] = std::fmin(x, y);
			hi[d] = x == y ? x + 1 : std::fmax(x, y);
		}
		add_box(b, lo, hi);
		snprintf(what, sizeof(what), "tetrahedron and box %d", r);
		check(a, b, what);
	}
	/* the Kuhn tetrahedra of a cube: they meet edge-on-face and along shared faces */
	{
		static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
		Soup		t[6];

		for (int k = 0; k < 6; k++)
		{
			double		v[4][3];

			memcpy(v[0], utm, sizeof(v[0]));
			for (int s = 1; s <= 3; s++)
			{
				memcpy(v[s], v[s - 1], sizeof(v[s]));
				v[s][perms[k][s - 1]] += 2;
			}
			add_tetra(t[k], v[0], v[1], v[2], v[3]);
		}
		for (int i = 0; i < 6; i++)
			for (int j = i + 1; j < 6; j++)
			{
				snprintf(what, sizeof(what), "Kuhn %d and %d", i, j);
				check(t[i], t[j], what);
			}
	}
	printf("cgal_boolean: %d volumes compared with CGAL's\n", compared);
	return gx_test_report("cgal_boolean");
}
