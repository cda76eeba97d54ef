/*
 * test_boolean.c: the booleans of two solids as solids (operation/gx_boolean.h), against oracles that share
 * none of the construction's code:
 *  - volume: the result's exact volume (gx_volume_exact over its rounded triangles) equals the overlay's exact
 *    volume (gx_overlay.h, itself checked against boxes and CGAL) exactly where no vertex was rounded (boxes on
 *    a grid, at UTM coordinates one shifted 0.3 m too, octants), to 1e-9 relative elsewhere (or within what
 *    moving the vertices by 5 spacings of doubles changes, for copies shifted by less than that);
 *  - points: random points are inside the result exactly when (in a) op (in b), each located by
 *    gx_solid_locate; points within rounding distance of a surface (a nudge of 1e-9 of the scene's size
 *    changes where they are in a or b) are skipped;
 *  - boxes: the intersection of two boxes is the box of their intervals' overlaps;
 *  - validity: every result is a solid (gx_boolean_solid refuses one gx_solid_make does not accept), or an
 *    error only where one is due: the union of solids that touch along an edge only.
 * Inputs: boxes on a coarse grid (identical, shared faces, edges, vertices), at UTM coordinates shifted 0.3 m,
 * octahedra shifted by fractions, at UTM coordinates, and by less than the doubles' spacing there, a box whose
 * planes pass through vertices, the Kuhn tetrahedra of a cube (edge on face), a box with a cavity, EMPTY.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "gx_test.h"
#include "gx_test_solids.h"
#include "operation/gx_boolean.h"
#include "operation/gx_solid_make.h"
#include "operation/gx_volume.h"

/* The octahedron of centre c and radius r, each vertex moved by up to jitter / 2 on each axis. */
static void
octahedron(Soup *s, const double *c, double r, double jitter)
{
	double		v[6][3];

	for (int k = 0; k < 6; k++)
	{
		memcpy(v[k], c, 3 * sizeof(double));
		v[k][k / 2] += k % 2 ? -r : r;
		for (int d = 0; d < 3; d++)
			v[k][d] += jitter * ((double) gx_test_below(1024) / 1024 - 0.5);
	}
	for (int sx = 0; sx < 2; sx++)
		for (int sy = 0; sy < 2; sy++)
			for (int sz = 0; sz < 2; sz++)
				tri3(s, v[sx], v[2 + sy], v[4 + sz]);
}

static const char *const op_name[] = {"a ∩ b", "a ∪ b", "a \\ b"};

static bool
apply(GxBooleanOp op, bool x, bool y)
{
	return op == GX_BOOL_INTERSECTION ? x && y : op == GX_BOOL_UNION ? x || y : x && !y;
}

/*
 * a op b for the three ops: a solid (or the union refused where may_fail says so), its volume the overlay's
 * (exactly when exact, else to 1e-9 relative or within slack m3), random points in it as in a op b. Returns
 * the results (NULL where refused).
 */
static void
check_ops(const Soup *sa, const Soup *sb, bool exact, bool may_fail, double slack, const char *what,
		  GxSerialized *res[3])
{
	GxSerialized *a = solid(sa),
			   *b = solid(sb);
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	GxBox3D		bb = a->box;
	double		scale;

	gx_box_extend(&bb, &b->box);
	scale = fmax(fmax(bb.xmax - bb.xmin, bb.ymax - bb.ymin), bb.zmax - bb.zmin);
	for (int op = 0; op < 3; op++)
	{
		GxError		err = {GX_OK, ""};
		size_t		size;
		double		v;
		mpq_t		got,
					want,
					diff;
		int			located = 0;

		res[op] = gx_boolean_solid(a, b, (GxBooleanOp) op, &opt, &size, &err);
		if (res[op] == NULL)
		{
			CHECK_MSG(may_fail && op == GX_BOOL_UNION && err.code == GX_ERR_INVALID, "%s: %s: %s", what,
					  op_name[op], err.msg);
			continue;
		}
		CHECK_MSG((res[op]->flags & GX_FLAG_SOLID) || (res[op]->flags & GX_FLAG_EMPTY), "%s: %s: not a solid",
				  what, op_name[op]);
		/* the volume */
		mpq_inits(got, want, diff, NULL);
		volume_of(res[op], got);
		CHECK(gx_boolean_volume(a, NULL, b, NULL, (GxBooleanOp) op, &opt, &v, &err));
		{
			GxSolidIndex ia,
						ib;
			GxOverlaySums s;
			size_t		na,
						nb;
			const double *ta = gx_solid_triangles(a, &na),
					   *tb = gx_solid_triangles(b, &nb);

			gx_solid_index_build(&ia, ta, na, &err);
			gx_solid_index_build(&ib, tb, nb, &err);
			gx_overlay_sums_init(&s);
			CHECK(gx_overlay_sums(&ia, &ib, &opt, &s, &err));
			gx_overlay_volume(&s, (GxBooleanOp) op, want);
			gx_overlay_sums_clear(&s);
			gx_solid_index_free(&ia);
			gx_solid_index_free(&ib);
		}
		if (exact)
			CHECK_MSG(mpq_equal(got, want), "%s: %s: volume %.17g, exactly %.17g", what, op_name[op],
					  mpq_get_d(got), mpq_get_d(want));
		else
		{
			mpq_sub(diff, got, want);
			CHECK_MSG(fabs(mpq_get_d(diff)) <= fmax(1e-9 * fabs(mpq_get_d(want)), slack),
					  "%s: %s: volume %.17g, exactly %.17g", what, op_name[op], mpq_get_d(got), mpq_get_d(want));
		}
		mpq_clears(got, want, diff, NULL);
		/* random points */
		for (int k = 0; k < 200; k++)
		{
			double		p[3];
			GxLocation	la,
						lb,
						lr;

			random_point(&bb, p);
			la = locate(a, p);
			lb = locate(b, p);
			lr = locate(res[op], p);
			if (la == GX_LOC_BOUNDARY || lb == GX_LOC_BOUNDARY)
				continue;
			if (lr != GX_LOC_BOUNDARY &&
				(lr == GX_LOC_INSIDE) == apply((GxBooleanOp) op, la == GX_LOC_INSIDE, lb == GX_LOC_INSIDE))
				located++;
			else
				CHECK_MSG(near_surface(a, b, p, 1e-9 * scale), "%s: %s: (%.17g %.17g %.17g) located %d, in a %d, in b %d",
						  what, op_name[op], p[0], p[1], p[2], lr, la, lb);
		}
		CHECK_MSG(located > 100, "%s: %s: only %d points located", what, op_name[op], located);
	}
	gx_free(a);
	gx_free(b);
}

static void
free_results(GxSerialized *res[3])
{
	for (int op = 0; op < 3; op++)
		if (res[op])
			gx_free(res[op]);
}

/*
 * Random boxes on a grid of 4 at origin o, the second shifted by shift on every axis (added in doubles: at UTM
 * coordinates its planes are off the grid's fractions by the rounding): every contact when not shifted; a ∩ b is
 * the box of the overlaps, and every result exact (the vertices are where the boxes' planes meet: no face's
 * diagonal makes one, its two triangles cut as one facet).
 */
static void
test_boxes(const double *o, double shift)
{
	for (int iter = 0; iter < 60; iter++)
	{
		double		lo[2][3],
					hi[2][3];
		Soup		s[2] = {{.n = 0}, {.n = 0}};
		GxSerialized *res[3];
		int			touch = 0,
					apart = 0;
		char		what[400];

		for (int k = 0; k < 2; k++)
		{
			for (int d = 0; d < 3; d++)
			{
				int			i = (int) gx_test_below(3);

				lo[k][d] = o[d] + i;
				hi[k][d] = o[d] + (i + 1 + (int) gx_test_below(3 - (unsigned) i));
				if (k == 1)
				{
					lo[k][d] += shift;
					hi[k][d] += shift;
				}
			}
			box(&s[k], lo[k], hi[k]);
		}
		for (int d = 0; d < 3; d++)
		{
			double		x = fmin(hi[0][d], hi[1][d]) - fmax(lo[0][d], lo[1][d]);

			touch += x == 0;
			apart += x < 0;
		}
		snprintf(what, sizeof(what), "boxes [%.17g %.17g %.17g, %.17g %.17g %.17g] and [%.17g %.17g %.17g, %.17g %.17g %.17g]",
				 lo[0][0], lo[0][1], lo[0][2], hi[0][0], hi[0][1], hi[0][2], lo[1][0], lo[1][1], lo[1][2], hi[1][0],
				 hi[1][1], hi[1][2]);
		check_ops(&s[0], &s[1], true, apart == 0 && touch == 2, 0, what, res);
		if (res[GX_BOOL_INTERSECTION])
		{
			const GxSerialized *r = res[GX_BOOL_INTERSECTION];

			if (apart || touch)
				CHECK_MSG(r->flags & GX_FLAG_EMPTY, "%s: a ∩ b not EMPTY", what);
			else
				CHECK_MSG(r->box.xmin == fmax(lo[0][0], lo[1][0]) && r->box.xmax == fmin(hi[0][0], hi[1][0]) &&
						  r->box.ymin == fmax(lo[0][1], lo[1][1]) && r->box.ymax == fmin(hi[0][1], hi[1][1]) &&
						  r->box.zmin == fmax(lo[0][2], lo[1][2]) && r->box.zmax == fmin(hi[0][2], hi[1][2]),
						  "%s: a ∩ b's box", what);
		}
		free_results(res);
	}
}

/*
 * Two boxes at UTM coordinates, the second shifted 0.3 m: the other's planes cross each face's diagonal at
 * points whose doubles lie on the line of an edge beside them, where cutting each triangle alone made flat
 * triangles (the intersection was refused).
 */
static void
test_utm_boxes(void)
{
	const double lo[3] = {500126.25, 7000456.5, 1202},
				hi[3] = {500127.25, 7000457.5, 1204},
				blo[3] = {500126.25 + 0.3, 7000456.5 + 0.3, 1203 + 0.3},
				bhi[3] = {500127.25 + 0.3, 7000459.5 + 0.3, 1204 + 0.3};
	Soup		a = {.n = 0},
				b = {.n = 0};
	GxSerialized *res[3];

	box(&a, lo, hi);
	box(&b, blo, bhi);
	check_ops(&a, &b, true, false, 0, "UTM boxes, one shifted 0.3 m", res);
	CHECK(res[GX_BOOL_INTERSECTION] && res[GX_BOOL_INTERSECTION]->box.xmin == blo[0] &&
		  res[GX_BOOL_INTERSECTION]->box.ymax == hi[1] && res[GX_BOOL_INTERSECTION]->box.zmax == hi[2]);
	free_results(res);
}

/* The area of a soup's triangles. */
static double
area_of(const Soup *s)
{
	double		area = 0;

	for (size_t i = 0; i < s->n; i++)
	{
		const double *t = s->v + 9 * i;
		double		e[2][3],
					c[3];

		for (int k = 0; k < 3; k++)
		{
			e[0][k] = t[3 + k] - t[k];
			e[1][k] = t[6 + k] - t[k];
		}
		for (int k = 0; k < 3; k++)
			c[k] = e[0][(k + 1) % 3] * e[1][(k + 2) % 3] - e[0][(k + 2) % 3] * e[1][(k + 1) % 3];
		area += sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / 2;
	}
	return area;
}

/*
 * An octahedron at UTM coordinates and copies shifted by less than the doubles' spacing there (1e-9 m in y,
 * 6e-11 m in x): the surfaces cross at points that no double separates, which are moved onto their neighbours;
 * every result a solid, its volume within what moving its vertices by 4 spacings can change.
 */
static void
test_near_copies(void)
{
	const double c[3] = {500123.25, 7000456.5, 1200},
				ulp = 9.313225746154785e-10;	/* the spacing of doubles at y = 7e6 */

	for (int k = 0; k < 12; k++)
	{
		Soup		a = {.n = 0},
					b = {.n = 0};
		GxSerialized *res[3];
		char		what[100];
		double		d = (k % 4 + 1) * 3e-10;

		gx_test_seed(7 + k);
		octahedron(&a, c, 2, 1);
		b = a;
		for (size_t i = 0; i < 3 * b.n; i++)
			b.v[3 * i + k % 3] += d;
		snprintf(what, sizeof(what), "an octahedron and its copy shifted %g m on axis %d", d, k % 3);
		check_ops(&a, &b, false, false, (area_of(&a) + area_of(&b)) * 5 * sqrt(3) * ulp, what, res);
		free_results(res);
	}
}

/* Identical solids, and copies shifted by fractions, at the origin and at UTM coordinates. */
static void
test_octahedra(void)
{
	const double centre[2][3] = {{0, 0, 0}, {500010, 7000020, 300}};

	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 4; k++)
		{
			Soup		a = {.n = 0},
						b = {.n = 0};
			double		shifted[3];
			GxSerialized *res[3];
			char		what[100];

			memcpy(shifted, centre[c], sizeof(shifted));
			shifted[0] += 0.37 * k;
			shifted[1] += 0.11 * k;
			shifted[2] += 0.23 * (k % 2);
			gx_test_seed(42 + k);
			octahedron(&a, centre[c], 1.5, k ? 0.3 : 0);
			gx_test_seed(42 + k);
			octahedron(&b, shifted, 1.5, k ? 0.3 : 0);
			snprintf(what, sizeof(what), "octahedra at %g, shifted %d", centre[c][0], k);
			check_ops(&a, &b, k == 0, false, 0, what, res);
			if (k == 0)
				CHECK_MSG(res[GX_BOOL_DIFFERENCE] && (res[GX_BOOL_DIFFERENCE]->flags & GX_FLAG_EMPTY),
						  "%s: a \\ a is not EMPTY", what);
			free_results(res);
		}
}

/* The octahedron |x| + |y| + |z| <= 1 and boxes whose planes pass through its vertices: exact volumes. */
static void
test_octant(void)
{
	const double zero[3] = {0, 0, 0},
				los[3][3] = {{0, 0, 0}, {-1, -1, 0}, {-0.5, -2, -2}},
				his[3][3] = {{1, 1, 1}, {1, 1, 1}, {0.5, 2, 2}};

	for (int k = 0; k < 3; k++)
	{
		Soup		a = {.n = 0},
					b = {.n = 0};
		GxSerialized *res[3];

		octahedron(&a, zero, 1, 0);
		box(&b, los[k], his[k]);
		check_ops(&a, &b, true, false, 0, "octahedron and a box through its vertices", res);
		free_results(res);
	}
}

/* The six Kuhn tetrahedra of a cube (they meet face to face and edge on edge) and a cube's neighbours. */
static void
test_kuhn(void)
{
	const double o[3] = {0, 0, 0};
	Soup		t[6];

	for (int k = 0; k < 6; k++)
	{
		/* the path 0 -> e_p0 -> e_p0 + e_p1 -> (1, 1, 1) for permutation k */
		static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
		double		v[4][3];

		memcpy(v[0], o, sizeof(v[0]));
		for (int s = 1; s < 4; s++)
		{
			memcpy(v[s], v[s - 1], sizeof(v[s]));
			v[s][perm[k][s - 1]] += 1;
		}
		t[k].n = 0;
		tri3(&t[k], v[0], v[1], v[2]);
		tri3(&t[k], v[0], v[1], v[3]);
		tri3(&t[k], v[0], v[2], v[3]);
		tri3(&t[k], v[1], v[2], v[3]);
	}
	for (int x = 0; x < 6; x++)
		for (int y = 0; y < 6; y++)
		{
			GxSerialized *res[3];
			char		what[64];

			snprintf(what, sizeof(what), "Kuhn tetrahedra %d and %d", x, y);
			/* they all share the cube's diagonal: a union along an edge only may be refused */
			check_ops(&t[x], &t[y], true, true, 0, what, res);
			free_results(res);
		}
}

/*
 * A prism over a 12-gon whose caps are fans of 10 coplanar triangles (one facet, cut as one polygon), against
 * octahedra small and large through its bottom cap, across the fan's inner edges: each of the cap's pieces is
 * located in the octahedron from the fan's triangle that holds it.
 */
static void
test_fan(void)
{
	for (int k = 0; k < 12; k++)
	{
		Soup		a = {.n = 0},
					b = {.n = 0};
		double		ring[12][2][3],
					r = k < 6 ? 0.3 : 1 + 0.25 * (k - 6),
					c[3] = {1.4 * cos(0.9 * k), 1.4 * sin(0.9 * k), 0.1 * (k % 3) - 0.1};
		GxSerialized *res[3];
		char		what[100];

		for (int i = 0; i < 12; i++)
			for (int z = 0; z < 2; z++)
			{
				ring[i][z][0] = 2 * cos(2 * M_PI * i / 12);
				ring[i][z][1] = 2 * sin(2 * M_PI * i / 12);
				ring[i][z][2] = z;
			}
		for (int i = 1; i + 1 < 12; i++)
			for (int z = 0; z < 2; z++)
				tri3(&a, ring[0][z], ring[i][z], ring[i + 1][z]);
		for (int i = 0; i < 12; i++)
		{
			tri3(&a, ring[i][0], ring[(i + 1) % 12][0], ring[(i + 1) % 12][1]);
			tri3(&a, ring[i][0], ring[(i + 1) % 12][1], ring[i][1]);
		}
		if (k >= 6)
			c[0] = c[1] = 0;
		gx_test_seed(99 + k);
		octahedron(&b, c, r, r / 5);
		snprintf(what, sizeof(what), "a prism with fan caps and octahedron %d", k);
		check_ops(&a, &b, false, false, 0, what, res);
		free_results(res);
	}
}

/* A box with a cavity against boxes cutting through the cavity. */
static void
test_cavity(void)
{
	const double lo[3] = {0, 0, 0},
				hi[3] = {4, 4, 4},
				clo[3] = {1, 1, 1},
				chi[3] = {3, 3, 3},
				blos[2][3] = {{2, 2, 2}, {-1, 1.5, 1.5}},
				bhis[2][3] = {{5, 5, 5}, {5, 2.5, 2.5}};

	for (int k = 0; k < 2; k++)
	{
		Soup		a = {.n = 0},
					b = {.n = 0};
		GxSerialized *res[3];

		box(&a, lo, hi);
		box(&a, clo, chi);
		box(&b, blos[k], bhis[k]);
		check_ops(&a, &b, true, false, 0, "a box with a cavity", res);
		free_results(res);
	}
}

/*
 * A solid's part in a box: its volume is gx_volume_in_box_exact's, exactly for the octant (nothing rounded),
 * else to 1e-9 (the box's faces are two triangles: their diagonals cut the solid's faces at rounded points).
 */
static void
test_in_box(void)
{
	const double zero[3] = {0, 0, 0},
				utm[3] = {500000, 7000000, 250};
	const GxBox3D boxes[4] = {{0, 0, 0, 1, 1, 1}, {-0.3, -0.2, -0.1, 0.4, 0.5, 0.6}, {-2, -2, 0, 2, 2, 2},
	{499999.5, 6999999.5, 249.5, 500000.5, 7000000.5, 250}};

	for (int k = 0; k < 4; k++)
		for (int jitter = 0; jitter < 2; jitter++)
		{
			Soup		s = {.n = 0};
			GxSerialized *a,
					   *r;
			GxSolidIndex ix;
			GxVolumeWork w;
			GxOverlayOptions opt = {0, NULL, false, 0, NULL};
			GxError		err = {GX_OK, ""};
			size_t		n,
						size;
			mpq_t		want,
						got,
						diff;

			octahedron(&s, k == 3 ? utm : zero, 1, jitter ? 0.2 : 0);
			a = solid(&s);
			r = gx_boolean_box(a, &boxes[k], &opt, &size, &err);
			/* box 1's corner (0.4 0.5 -0.1) lies within an ulp of a face: slivers that rounding flattens, mended */
			CHECK_MSG(r != NULL, "octahedron in box %d: %s", k, err.msg);
			if (r == NULL)
			{
				gx_free(a);
				continue;
			}
			mpq_inits(want, got, diff, NULL);
			gx_solid_index_build(&ix, gx_solid_triangles(a, &n), s.n, &err);
			gx_volume_work_init(&w);
			gx_volume_in_box_exact(&ix, &boxes[k], &w, want);
			gx_volume_work_clear(&w);
			gx_solid_index_free(&ix);
			volume_of(r, got);
			mpq_sub(diff, got, want);
			if (jitter == 0 && k == 0)
				CHECK_MSG(mpq_equal(got, want), "octahedron in box %d: %.17g, exactly %.17g", k, mpq_get_d(got),
						  mpq_get_d(want));
			else
				CHECK_MSG(fabs(mpq_get_d(diff)) <= 1e-9 * mpq_get_d(want), "octahedron in box %d: %.17g, exactly %.17g",
						  k, mpq_get_d(got), mpq_get_d(want));
			CHECK(mpq_sgn(want) > 0 && (r->flags & GX_FLAG_SOLID));
			mpq_clears(want, got, diff, NULL);
			gx_free(a);
			gx_free(r);
		}
}

/* A flat square across a box: its part inside is the box's section, area 4 (the parts on its faces too). */
static void
test_surface(void)
{
	const double lo[3] = {0, 0, 0},
				hi[3] = {2, 2, 2};
	const double sq[4][3] = {{-1, -1, 1}, {3, -1, 1}, {3, 3, 1}, {-1, 3, 1}},
				top[4][3] = {{-1, -1, 2}, {3, -1, 2}, {3, 3, 2}, {-1, 3, 2}};

	for (int k = 0; k < 2; k++)
	{
		const double (*q)[3] = k ? top : sq;
		Soup		b = {.n = 0};
		GxSerialized *solid_b,
				   *tin,
				   *r;
		GxBuilder	bu;
		GxError		err = {GX_OK, ""};
		GxOverlayOptions opt = {0, NULL, false, 0, NULL};
		size_t		size,
					node;
		double		area = 0;

		box(&b, lo, hi);
		solid_b = solid(&b);
		gx_builder_init(&bu, &err);
		node = gx_builder_begin(&bu, GX_TIN);
		for (int v = 0; v < 6; v++)
		{
			const int	idx[6] = {0, 1, 2, 0, 2, 3};

			gx_builder_coord(&bu, q[idx[v]][0], q[idx[v]][1], q[idx[v]][2]);
		}
		gx_builder_end(&bu, node, 2);
		tin = gx_builder_finish(&bu, 0, &size);
		r = gx_surface_in_solid(tin, solid_b, &opt, &size, &err);
		CHECK_MSG(r != NULL, "surface in a box: %s", err.msg);
		if (r)
		{
			const double *t = gx_node_coords(gx_body(r));

			for (uint32_t i = 0; i < gx_body(r)->count; i++, t += 9)
			{
				double		e1[2] = {t[3] - t[0], t[4] - t[1]},
							e2[2] = {t[6] - t[0], t[7] - t[1]};

				area += (e1[0] * e2[1] - e1[1] * e2[0]) / 2;
				CHECK(t[2] == q[0][2] && t[5] == q[0][2] && t[8] == q[0][2]);
			}
			CHECK_MSG(area == 4, "surface in a box: area %.17g", area);
			gx_free(r);
		}
		gx_free(tin);
		gx_free(solid_b);
	}
}

int
main(void)
{
	test_boxes((const double[3]) {0, 0, 0}, 0);
	test_boxes((const double[3]) {500123.25, 7000456.5, 1200}, 0.3);
	test_utm_boxes();
	test_octahedra();
	test_octant();
	test_kuhn();
	test_cavity();
	test_fan();
	test_near_copies();
	test_in_box();
	test_surface();
	return gx_test_report("test_boolean");
}
