/*
 * cgal_boolean.cpp: gpuexact's exact volumes of a ∩ b, a ∪ b and a \ b (operation/gx_overlay.h) against
 * CGAL's corefinement with exact constructions, rational for rational, and the rounded volumes (the rational
 * path's and the filter's) bit for bit: random and degenerate pairs (identical solids, copies shifted by a fraction of a metre, shared
 * faces, boxes whose planes pass through a body's vertices, grid tetrahedra meeting edge-on-face, touching
 * solids, cavities, UTM coordinates, copies shifted by less than the doubles' spacing, tetrahedra on a grid and
 * on the grid shifted 0.3 m). And the constructed solids (operation/gx_boolean.h) of the same pairs,
 * where ours does not refuse one (each refusal printed): CGAL finds each consistently oriented, closed, not
 * self-intersecting but for shells touching at a vertex (printed), of positive volume (outward) unless EMPTY
 * (then the exact volume is 0), its exact volume the overlay's to 1e-9 relative or, where past that (printed),
 * within what rounding its vertices to doubles can change (2 * area * the largest ulp), and random points in
 * it exactly when (in a) op (in b), all three located by CGAL. Built and run only where CGAL's headers are
 * (test/oracle/run.sh).
 */
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include <CGAL/Polygon_mesh_processing/orient_polygon_soup.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Side_of_triangle_mesh.h>

#include "cgal_overlay.h"
extern "C"
{
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "operation/gx_boolean.h"
#include "operation/gx_solid_make.h"
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

static int	compared,
			built,
			refused,
			located,
			nonmanifold,
			past_relative;
static std::mt19937 points(1);	/* the random points' own, so that the pairs are those gx_test_rand makes */

/* A serialized solid of the soup (gx_alloc'd), NULL with err set when it is none. */
static GxSerialized *
solid_of(const Soup &t, GxError *err)
{
	GxBuilder	b;
	GxSerialized *g,
			   *out;
	size_t		size,
				node;

	gx_builder_init(&b, err);
	node = gx_builder_begin(&b, GX_TIN);
	for (size_t i = 0; i < t.size(); i += 3)
		gx_builder_coord(&b, t[i], t[i + 1], t[i + 2]);
	gx_builder_end(&b, node, (uint32_t) (t.size() / 9));
	g = gx_builder_finish(&b, 0, &size);
	out = g ? gx_solid_from(g, NULL, &size, err) : NULL;
	gx_free(g);
	return out;
}

/*
 * The soup as a mesh, its vertices merged where their doubles are equal, but duplicated where the surface is
 * no manifold (shells, or two fans of one shell, touching at a vertex: a valid solid, CGAL's orient_polygon_soup
 * gives such a vertex one copy a fan). *flipped: how many triangles that had to reverse (0 for a consistently
 * oriented surface); *pinched: whether a vertex was duplicated.
 */
static Mesh
mesh_of_soup(const Soup &t, size_t *flipped, bool *pinched)
{
	std::vector<K::Point_3> pts;
	std::vector<std::vector<size_t>> polys(t.size() / 9);
	std::map<std::array<double, 3>, size_t> at;
	Mesh		m;

	for (size_t i = 0; i < polys.size(); i++)
		for (int k = 0; k < 3; k++)
		{
			std::array<double, 3> p = {t[9 * i + 3 * k], t[9 * i + 3 * k + 1], t[9 * i + 3 * k + 2]};
			auto		f = at.find(p);

			if (f == at.end())
			{
				f = at.emplace(p, pts.size()).first;
				pts.push_back(K::Point_3(p[0], p[1], p[2]));
			}
			polys[i].push_back(f->second);
		}
	{
		std::vector<std::vector<size_t>> before = polys;
		size_t		npts = pts.size();

		PMP::orient_polygon_soup(pts, polys);
		*pinched = pts.size() != npts;
		*flipped = 0;
		for (size_t i = 0; i < polys.size(); i++)
			for (int k = 0; k < 3; k++)
				if (pts[polys[i][k]] != pts[before[i][k]])
				{
					(*flipped)++;
					break;
				}
	}
	PMP::polygon_soup_to_polygon_mesh(pts, polys, m);
	return m;
}

/*
 * Whether every pair of m's faces that CGAL finds intersecting only touches at one point, a vertex of both
 * (a vertex duplicated by mesh_of_soup); *touching: how many such pairs.
 */
static bool
only_touching(const Mesh &m, size_t *touching)
{
	std::vector<std::pair<Mesh::Face_index, Mesh::Face_index>> pairs;

	PMP::self_intersections(m, std::back_inserter(pairs));
	*touching = 0;
	for (auto &fp : pairs)
	{
		K::Point_3	p[2][3];
		const K::Point_3 *pt;
		bool		at[2] = {false, false};

		for (int s = 0; s < 2; s++)
		{
			int			k = 0;

			for (Mesh::Vertex_index v : m.vertices_around_face(m.halfedge(s ? fp.second : fp.first)))
				p[s][k++] = m.point(v);
		}
		auto		x = CGAL::intersection(K::Triangle_3(p[0][0], p[0][1], p[0][2]),
										   K::Triangle_3(p[1][0], p[1][1], p[1][2]));
		pt = x ? boost::get<K::Point_3>(&*x) : NULL;
		if (pt == NULL)
			return false;
		for (int s = 0; s < 2; s++)
			for (int k = 0; k < 3; k++)
				at[s] = at[s] || p[s][k] == *pt;
		if (!at[0] || !at[1])
			return false;
		(*touching)++;
	}
	return true;
}

static bool
apply(GxBooleanOp op, bool x, bool y)
{
	return op == GX_BOOL_INTERSECTION ? x && y : op == GX_BOOL_UNION ? x || y : x && !y;
}

/*
 * Our a op b as a solid, checked by CGAL: oriented, closed, not self-intersecting, outward, its volume the
 * exact one (the overlay's, equal to CGAL's) to 1e-9 relative or within the rounding; random points in it exactly when (in a) op
 * (in b), skipping those on a's or b's surface and, where they disagree, those within 1e-9 of the scene's
 * size of a's or b's surface (the rounding of new vertices moves the result's surface that little).
 */
static void
check_solid(const GxSerialized *sa, const GxSerialized *sb, const Mesh &ma, const Mesh &mb, GxBooleanOp op,
			const mpq_t exact, const char *what, const char *name)
{
	GxError		err = {GX_OK, ""};
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	size_t		size,
				n = 0;
	GxSerialized *r = gx_boolean_solid(sa, sb, op, &opt, &size, &err);

	if (r == NULL)
	{
		printf("%s: %s refused: %.400s\n", what, name, err.msg);
		refused++;
		return;
	}
	built++;
	if (r->flags & GX_FLAG_EMPTY)
		CHECK_MSG(mpq_sgn(exact) == 0, "%s: %s EMPTY, exactly %.17g", what, name, mpq_get_d(exact));
	else
	{
		const double *t = gx_solid_triangles(r, &n);
		Soup		tri(t, t + 9 * n);
		size_t		flipped,
					touching;
		bool		pinched;
		Mesh		m = mesh_of_soup(tri, &flipped, &pinched);
		mpq_t		v,
					diff;
		double		area = 0,
					ulp = 0,
					err_v;

		CHECK_MSG(flipped == 0, "%s: %s: %zu triangles oriented against their neighbours", what, name, flipped);
		CHECK_MSG(m.number_of_faces() == n && CGAL::is_closed(m), "%s: %s: CGAL finds it not closed (%zu of %zu faces)",
				  what, name, (size_t) m.number_of_faces(), n);
		if (m.number_of_faces() != n || !CGAL::is_closed(m))
		{
			gx_free(r);
			return;
		}
		CHECK_MSG(only_touching(m, &touching), "%s: %s: CGAL finds it self-intersecting", what, name);
		if (pinched || touching)
		{
			printf("%s: %s: its surface touches itself at a vertex (%zu pairs of triangles)\n", what, name, touching);
			nonmanifold++;
		}
		/* the volume; where past 1e-9 relative, within what rounding the new vertices can change */
		for (size_t i = 0; i < 9 * n; i++)
			ulp = std::fmax(ulp, std::nextafter(std::fabs(t[i]), INFINITY) - std::fabs(t[i]));
		for (size_t i = 0; i < n; i++)
		{
			double		e[2][3];

			for (int j = 0; j < 3; j++)
				e[0][j] = t[9 * i + 3 + j] - t[9 * i + j], e[1][j] = t[9 * i + 6 + j] - t[9 * i + j];
			area += 0.5 * std::sqrt(std::pow(e[0][1] * e[1][2] - e[0][2] * e[1][1], 2) +
									std::pow(e[0][2] * e[1][0] - e[0][0] * e[1][2], 2) +
									std::pow(e[0][0] * e[1][1] - e[0][1] * e[1][0], 2));
		}
		mpq_inits(v, diff, NULL);
		to_mpq(PMP::volume(m), v);
		mpq_sub(diff, v, exact);
		err_v = std::fabs(mpq_get_d(diff));
		CHECK_MSG(mpq_sgn(v) > 0 && err_v <= std::fmax(1e-9 * mpq_get_d(exact), 2 * area * ulp),
				  "%s: %s: CGAL's volume of it %.17g, exactly %.17g, area %g", what, name, mpq_get_d(v),
				  mpq_get_d(exact), area);
		if (err_v > 1e-9 * mpq_get_d(exact))
		{
			printf("%s: %s: volume %.17g, exactly %.17g: %.2g relative (rounding: up to %.2g m3)\n", what, name,
				   mpq_get_d(v), mpq_get_d(exact), err_v / mpq_get_d(exact), 2 * area * ulp);
			past_relative++;
		}
		mpq_clears(v, diff, NULL);
		/* random points in the boxes of a and b */
		{
			CGAL::Side_of_triangle_mesh<Mesh, K> in_a(ma),
						in_b(mb),
						in_r(m);
			CGAL::Bbox_3 bb = PMP::bbox(ma) + PMP::bbox(mb);
			double		lo[3] = {bb.xmin(), bb.ymin(), bb.zmin()},
						hi[3] = {bb.xmax(), bb.ymax(), bb.zmax()},
						d = 1e-9 * std::fmax(std::fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);

			for (int k = 0; k < 100; k++)
			{
				double		p[3];
				CGAL::Bounded_side la,
							lb,
							lr;
				bool		near = false;

				for (int j = 0; j < 3; j++)
					p[j] = lo[j] + (hi[j] - lo[j]) * (points() % 100000 + 0.5) / 100000;
				la = in_a(K::Point_3(p[0], p[1], p[2]));
				lb = in_b(K::Point_3(p[0], p[1], p[2]));
				lr = in_r(K::Point_3(p[0], p[1], p[2]));
				if (la == CGAL::ON_BOUNDARY || lb == CGAL::ON_BOUNDARY)
					continue;
				if (lr != CGAL::ON_BOUNDARY &&
					(lr == CGAL::ON_BOUNDED_SIDE) == apply(op, la == CGAL::ON_BOUNDED_SIDE, lb == CGAL::ON_BOUNDED_SIDE))
				{
					located++;
					continue;
				}
				for (int j = 0; j < 6 && !near; j++)
				{
					double		q[3] = {p[0], p[1], p[2]};

					q[j / 2] += j % 2 ? -d : d;
					near = in_a(K::Point_3(q[0], q[1], q[2])) != la || in_b(K::Point_3(q[0], q[1], q[2])) != lb;
				}
				CHECK_MSG(near, "%s: %s: (%.17g %.17g %.17g) in it %d, in a %d, in b %d", what, name, p[0], p[1], p[2],
						  (int) lr, (int) la, (int) lb);
			}
		}
	}
	gx_free(r);
}

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

	GxSerialized *sa,
			   *sb;

	mpq_inits(v[0], v[1], v[2], c, NULL);
	CHECK_MSG(CGAL::is_closed(ma) && CGAL::is_closed(mb) && !PMP::does_self_intersect(ma) &&
			  !PMP::does_self_intersect(mb), "%s: an input CGAL finds not closed or self-intersecting", what);
	sa = solid_of(a, &err);
	sb = sa ? solid_of(b, &err) : NULL;
	if (sb == NULL || !gx_volumes(a, b, v, &err) || !gx_rounded_volumes(a, b, rounded, &err))
		CHECK_MSG(false, "%s: %s", what, err.msg);
	else
		for (int k = 0; k < 3; k++)
		{
			check_solid(sa, sb, ma, mb, (GxBooleanOp) k, v[k], what, names[k]);
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
	gx_free(sa);
	gx_free(sb);
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
	/* an octahedron and copies shifted by less than the doubles' spacing (9.3e-10 m in y): points no double separates */
	for (int r = 0; r < 12; r++)
	{
		Soup		a,
					b;
		double		d[3] = {0, 0, 0};

		add_octahedron(a, utm, 2, 1);
		d[r % 3] = (r % 4 + 1) * 3e-10;
		b = shifted(a, d);
		snprintf(what, sizeof(what), "octahedron and a copy shifted %g m", d[r % 3]);
		check(a, b, what);
	}
	/* tetrahedra on a 1 m grid and on the grid shifted 0.3 m: faces and vertices nearly meeting */
	for (int r = 0; r < 40; r++)
	{
		Soup		t[2];
		double		p[2][4][3];

		for (int s = 0; s < 2; s++)
			for (;;)
			{
				for (int k = 0; k < 4; k++)
					for (int d = 0; d < 3; d++)
						p[s][k][d] = utm[d] + (double) (gx_test_rand() % 4) + (s ? 0.3 : 0);
				if (CGAL::orientation(K::Point_3(p[s][0][0], p[s][0][1], p[s][0][2]),
									  K::Point_3(p[s][1][0], p[s][1][1], p[s][1][2]),
									  K::Point_3(p[s][2][0], p[s][2][1], p[s][2][2]),
									  K::Point_3(p[s][3][0], p[s][3][1], p[s][3][2])) != CGAL::COPLANAR)
					break;
			}
		for (int s = 0; s < 2; s++)
			add_tetra(t[s], p[s][0], p[s][1], p[s][2], p[s][3]);
		snprintf(what, sizeof(what), "grid tetrahedra %d, one shifted 0.3 m", r);
		check(t[0], t[1], what);
	}
	printf("cgal_boolean: %d volumes compared with CGAL's; %d solids built (%d refused) checked by CGAL: %d touch "
		   "themselves at a vertex, %d volumes past 1e-9 relative (within the rounding), %d random points located\n",
		   compared, built, refused, nonmanifold, past_relative, located);
	return gx_test_report("cgal_boolean");
}
