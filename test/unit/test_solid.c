/*
 * test_solid.c: solids (gx_solid.h), point location and intercepts (gx_intercepts.h) against an
 * independent oracle: random sets of voxels of a lattice at UTM offsets (x ~ 5e5, y ~ 7e6) with a 1/64 m
 * spacing, whose boundary faces (split into triangles along a random diagonal, written in random order and
 * orientation) make the surface. The oracle knows the voxels: a point is inside the closed solid when a
 * voxel touching it is filled, interior when all are; along a segment, the exact parameters where it
 * crosses lattice planes cut it into pieces that each lie in one voxel (or in one plane). Points and
 * segments are taken on lattice planes, between them, and one ulp off them. Also: gx_makesolid's errors
 * (open surface, edge-only contact of two voxels), its orientation (each face outward, cavities inward),
 * gx_intersects with a solid, and the batch engine's volume pairs against gx_intersects. Containment
 * (gx_contains) of points and segments against the oracle too, and the intercepts of a batch's pairs
 * (gx_intercepts_of_pairs, lines rebuilt from a batch side) against gx_intercepts, with and without the
 * solids' side index, and with the segments' triangles taken from a batch's element pairs.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_measure.h"
#include "algorithm/gx_open_box.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "batch/gx_batch.h"
#include "gx_test.h"
#include "batch/gx_side_index.h"
#include "operation/gx_contains.h"
#include "operation/gx_intercepts.h"
#include "operation/gx_intersects.h"
#include "operation/gx_solid_make.h"

#define N 5						/* voxels per axis */
#define H 0.015625				/* lattice spacing, exact */
static const double origin[3] = {500000.0, 7000000.0, 250.0};

static bool vox[N][N][N];

static bool
filled(int i, int j, int k)
{
	return i >= 0 && j >= 0 && k >= 0 && i < N && j < N && k < N && vox[i][j][k];
}

static double
plane(int axis, int k)
{
	return origin[axis] + k * H;
}

/* The boundary's triangles, in random order and orientation. */
static double *
voxel_surface(size_t *n)
{
	double	   *tri = malloc(N * N * N * 6 * 2 * 9 * sizeof(double));
	size_t		m = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				for (int axis = 0; axis < 3 && vox[i][j][k]; axis++)
					for (int side = 0; side < 2; side++)
					{
						int			c[3] = {i, j, k},
									d[3] = {i, j, k},
									u = (axis + 1) % 3,
									v = (axis + 2) % 3;
						double		q[4][3];

						d[axis] += side ? 1 : -1;
						if (filled(d[0], d[1], d[2]))
							continue;
						for (int corner = 0; corner < 4; corner++)
						{
							int			p[3] = {c[0], c[1], c[2]};

							p[axis] += side;
							p[u] += corner == 1 || corner == 2;
							p[v] += corner >= 2;
							for (int a = 0; a < 3; a++)
								q[corner][a] = plane(a, p[a]);
						}
						/* quad 0 1 2 3 around; split along 0-2 or 1-3 */
						{
							int			diag = gx_test_below(2),
										t[2][3] = {{0, 1, 2}, {0, 2, 3}},
										s[2][3] = {{0, 1, 3}, {1, 2, 3}};

							for (int h = 0; h < 2; h++)
							{
								int		   *ix = diag ? s[h] : t[h];
								int			flip = gx_test_below(2);

								memcpy(tri + 9 * m, q[ix[0]], 24);
								memcpy(tri + 9 * m + 3, q[ix[flip ? 2 : 1]], 24);
								memcpy(tri + 9 * m + 6, q[ix[flip ? 1 : 2]], 24);
								m++;
							}
						}
					}
	for (size_t a = m; a > 1; a--)
	{
		size_t		b = gx_test_below((unsigned) a);
		double		tmp[9];

		memcpy(tmp, tri + 9 * (a - 1), sizeof(tmp));
		memcpy(tri + 9 * (a - 1), tri + 9 * b, sizeof(tmp));
		memcpy(tri + 9 * b, tmp, sizeof(tmp));
	}
	*n = m;
	return tri;
}

/* Two voxels touching along an edge only: a non-manifold edge. */
static bool
edge_only_contact(void)
{
	for (int axis = 0; axis < 3; axis++)
		for (int i = 0; i <= N; i++)
			for (int j = 0; j <= N; j++)
				for (int k = 0; k < N; k++)
				{
					int			u = (axis + 1) % 3,
								v = (axis + 2) % 3;
					bool		f[4];

					for (int q = 0; q < 4; q++)
					{
						int			p[3];

						p[axis] = k;
						p[u] = i - 1 + (q & 1);
						p[v] = j - 1 + (q >> 1);
						f[q] = filled(p[0], p[1], p[2]);
					}
					if (f[0] == f[3] && f[1] == f[2] && f[0] != f[1])
						return true;
				}
	return false;
}

/* Voxel indices along one axis touching coordinate x: lo..hi. */
static void
touching(int axis, double x, int *lo, int *hi)
{
	int			k = (int) floor((x - origin[axis]) / H);

	/* the estimate made exact by comparisons with the lattice planes */
	while (k > -2 && x < plane(axis, k))
		k--;
	while (k < N + 1 && x >= plane(axis, k + 1))
		k++;
	*lo = *hi = k;
	if (x == plane(axis, k))
		*lo = k - 1;
}

static GxLocation
oracle_point(const double *p)
{
	int			lo[3],
				hi[3],
				in = 0,
				all = 0;

	for (int a = 0; a < 3; a++)
		touching(a, p[a], &lo[a], &hi[a]);
	for (int i = lo[0]; i <= hi[0]; i++)
		for (int j = lo[1]; j <= hi[1]; j++)
			for (int k = lo[2]; k <= hi[2]; k++)
			{
				in += filled(i, j, k);
				all++;
			}
	return in == 0 ? GX_LOC_OUTSIDE : in == all ? GX_LOC_INSIDE : GX_LOC_BOUNDARY;
}

/* A coordinate on a lattice plane, between two, or one ulp off one (sometimes just outside the grid). */
static double
coordinate(int axis)
{
	double		x = plane(axis, (int) gx_test_below(N + 3) - 1);

	switch (gx_test_below(4))
	{
		case 0:
			return x;
		case 1:
			return x + H / 2;
		case 2:
			return nextafter(x, INFINITY);
		default:
			return nextafter(x, -INFINITY);
	}
}

/* Is the rational point p + t (q - p) in the closed solid? */
static bool
oracle_rational(const double *p, const double *q, mpq_srcptr t)
{
	int			lo[3],
				hi[3];
	mpq_t		x,
				d,
				pl;

	mpq_inits(x, d, pl, NULL);
	for (int a = 0; a < 3; a++)
	{
		int			k;

		mpq_set_d(x, p[a]);
		mpq_set_d(d, q[a]);
		mpq_sub(d, d, x);
		mpq_mul(d, d, t);
		mpq_add(x, x, d);
		k = (int) floor((mpq_get_d(x) - origin[a]) / H);
		for (;;)
		{
			mpq_set_d(pl, plane(a, k));
			if (k > -2 && mpq_cmp(x, pl) < 0)
			{
				k--;
				continue;
			}
			mpq_set_d(pl, plane(a, k + 1));
			if (k < N + 1 && mpq_cmp(x, pl) >= 0)
			{
				k++;
				continue;
			}
			break;
		}
		mpq_set_d(pl, plane(a, k));
		lo[a] = hi[a] = k;
		if (mpq_cmp(x, pl) == 0)
			lo[a] = k - 1;
	}
	mpq_clears(x, d, pl, NULL);
	for (int i = lo[0]; i <= hi[0]; i++)
		for (int j = lo[1]; j <= hi[1]; j++)
			for (int k = lo[2]; k <= hi[2]; k++)
				if (filled(i, j, k))
					return true;
	return false;
}

static int
cmp_q(const void *x, const void *y)
{
	return mpq_cmp((mpq_srcptr) x, (mpq_srcptr) y);
}

/* The oracle's intervals (in t) of segment p -> q: up to 64, as pairs of doubles of t. */
static size_t
oracle_segment(const double *p, const double *q, double *lo_t, double *hi_t, mpq_t *lo_q, mpq_t *hi_q)
{
	__mpq_struct bp[3 * (N + 3) + 2];
	size_t		nb = 0,
				out = 0;
	bool		gap_in[3 * (N + 3) + 2],
				open = false;
	mpq_t		mid,
				num,
				den;

	mpq_inits(mid, num, den, NULL);
	mpq_init(&bp[nb]);
	mpq_set_ui(&bp[nb++], 0, 1);
	mpq_init(&bp[nb]);
	mpq_set_ui(&bp[nb++], 1, 1);
	for (int a = 0; a < 3; a++)
		for (int k = -1; k <= N + 1 && p[a] != q[a]; k++)
		{
			mpq_set_d(num, plane(a, k));
			mpq_set_d(den, p[a]);
			mpq_sub(num, num, den);
			mpq_set_d(mid, q[a]);
			mpq_sub(den, mid, den);
			mpq_div(num, num, den);
			if (mpq_sgn(num) > 0 && mpq_cmp_ui(num, 1, 1) < 0)
			{
				mpq_init(&bp[nb]);
				mpq_set(&bp[nb++], num);
			}
		}
	qsort(bp, nb, sizeof(__mpq_struct), cmp_q);
	for (size_t k = 0; k + 1 < nb; k++)
	{
		mpq_add(mid, &bp[k], &bp[k + 1]);
		mpq_div_2exp(mid, mid, 1);
		gap_in[k] = mpq_cmp(&bp[k], &bp[k + 1]) != 0 && oracle_rational(p, q, mid);
	}
	for (size_t k = 0; k < nb; k++)
	{
		bool		in = oracle_rational(p, q, &bp[k]);

		if (k + 1 < nb && mpq_cmp(&bp[k], &bp[k + 1]) == 0)
			continue;			/* a repeated breakpoint: its last copy decides */
		if (in && !open)
		{
			mpq_set(lo_q[out], &bp[k]);
			open = true;
		}
		if (open && (k + 1 == nb || !gap_in[k]))
		{
			mpq_set(hi_q[out], &bp[k]);
			lo_t[out] = mpq_get_d(lo_q[out]);
			hi_t[out] = mpq_get_d(hi_q[out]);
			out++;
			open = false;
		}
	}
	for (size_t k = 0; k < nb; k++)
		mpq_clear(&bp[k]);
	mpq_clears(mid, num, den, NULL);
	return out;
}

static GxSerialized *
tin_of(const double *tri, size_t n)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	for (size_t i = 0; i < 3 * n; i++)
		gx_builder_coord(&b, tri[3 * i], tri[3 * i + 1], tri[3 * i + 2]);
	gx_builder_end(&b, node, (uint32_t) n);
	return gx_builder_finish(&b, 0, &size);
}

static GxSerialized *
point_of(const double *p, int type, size_t npoints)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, type);
	for (size_t i = 0; i < npoints; i++)
		gx_builder_coord(&b, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
	gx_builder_end(&b, node, (uint32_t) npoints);
	return gx_builder_finish(&b, 0, &size);
}

/* Each face of the solid faces outward: just beyond its centroid along its normal lies an empty voxel. */
static bool
faces_outward(const GxSerialized *solid)
{
	size_t		n;
	const double *t = gx_solid_triangles(solid, &n);

	for (size_t i = 0; i < n; i++, t += 9)
	{
		double		e1[3],
					e2[3],
					nrm[3],
					c[3],
					out[3],
					in[3];

		for (int a = 0; a < 3; a++)
		{
			e1[a] = t[3 + a] - t[a];
			e2[a] = t[6 + a] - t[a];
			c[a] = (t[a] + t[3 + a] + t[6 + a]) / 3;
		}
		nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
		nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
		nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
		for (int a = 0; a < 3; a++)
		{
			double		step = nrm[a] > 0 ? H / 4 : nrm[a] < 0 ? -H / 4 : 0;

			out[a] = c[a] + step;
			in[a] = c[a] - step;
		}
		if (oracle_point(out) != GX_LOC_OUTSIDE || oracle_point(in) != GX_LOC_INSIDE)
			return false;
	}
	return true;
}

/* Random voxels; with repair, edge-only contacts are filled in until none is left (a valid solid). */
static void
random_voxels(int percent, bool repair)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				vox[i][j][k] = (int) gx_test_below(100) < percent;
	while (repair && edge_only_contact())
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				for (int k = 0; k < N; k++)
					if (!vox[i][j][k] && gx_test_below(4) == 0)
						vox[i][j][k] = true;
}

/* A hollow box with a separate core in its cavity: three shells. */
static void
nested_voxels(void)
{
	memset(vox, 0, sizeof(vox));
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				vox[i][j][k] = i == 0 || j == 0 || k == 0 || i == N - 1 || j == N - 1 || k == N - 1 ||
					(i == 2 && j == 2 && k == 2);
}

/*
 * Is the triangle in the closed solid? 1 or 0; -1 for a flat triangle (its edges are segments, checked
 * above). A triangle in no lattice plane lies in the union of the filled closed voxels exactly when every
 * voxel whose open inside it meets is filled: its points in open voxels are dense in it. One in the lattice
 * plane of axis a at level k likewise, with the open squares of that plane, each in the solid when a voxel
 * beside it is filled (a square is met when the open box of its voxels on both sides is). (The open-box test
 * is checked against rational clipping in test_open_box.)
 */
static int
oracle_triangle(const double *t)
{
	if (gx_orient2d(t, t + 3, t + 6, 0) == 0 && gx_orient2d(t, t + 3, t + 6, 1) == 0 &&
		gx_orient2d(t, t + 3, t + 6, 2) == 0)
		return -1;
	for (int v = 0; v < 3; v++)
		for (int a = 0; a < 3; a++)
			if (t[3 * v + a] < plane(a, 0) || t[3 * v + a] > plane(a, N))
				return 0;
	for (int a = 0; a < 3; a++)
		for (int k = 0; k <= N; k++)
			if (t[a] == plane(a, k) && t[3 + a] == plane(a, k) && t[6 + a] == plane(a, k))
			{
				int			u = (a + 1) % 3,
							w = (a + 2) % 3;

				for (int i = 0; i < N; i++)
					for (int j = 0; j < N; j++)
					{
						int			c[3],
									d[3];
						double		lo[3],
									hi[3];
						GxBox3D		both;

						c[a] = k - 1, c[u] = i, c[w] = j;
						d[a] = k, d[u] = i, d[w] = j;
						lo[a] = plane(a, k - 1), lo[u] = plane(u, i), lo[w] = plane(w, j);
						hi[a] = plane(a, k + 1), hi[u] = plane(u, i + 1), hi[w] = plane(w, j + 1);
						both = (GxBox3D) {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
						if (!filled(c[0], c[1], c[2]) && !filled(d[0], d[1], d[2]) &&
							gx_triangle_meets_open_box(t, &both))
							return 0;
					}
				return 1;
			}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
			{
				GxBox3D		cell = {plane(0, i), plane(1, j), plane(2, k), plane(0, i + 1), plane(1, j + 1), plane(2, k + 1)};

				if (!vox[i][j][k] && gx_triangle_meets_open_box(t, &cell))
					return 0;
			}
	return 1;
}

/* Tallies of triangles in solids against the oracle, over all solids. */
static int	tri_inside,
			tri_outside,
			tri_undecided,
			tri_wrong,
			touching_inside,
			touching_outside;

/* Does some triangle of the surface meet t (brute force)? */
static bool
touches_surface(const GxSolidIndex *idx, const double *t)
{
	for (size_t i = 0; i < idx->n; i++)
		if (gx_elements_intersect(t, 3, idx->tri + 9 * i, 3))
			return true;
	return false;
}

/*
 * Random triangles with lattice-plane, mid-voxel and one-ulp-off coordinates, often sharing two
 * coordinates so that they lie along voxel faces: gx_triangle_in_solid against the oracle. It may refuse
 * (GX_ERR_UNSUPPORTED) but never disagree.
 */
static void
check_triangles(const GxSolidIndex *idx, int rounds)
{
	for (int r = 0; r < rounds; r++)
	{
		double		t[9];
		GxError		err = {GX_OK, ""};
		bool		touches;
		int			want,
					got;

		for (int v = 0; v < 3; v++)
			for (int a = 0; a < 3; a++)
				t[3 * v + a] = v > 0 && gx_test_below(3) == 0 ? t[a] : coordinate(a);
		want = oracle_triangle(t);
		if (want < 0)
			continue;
		got = gx_triangle_in_solid(idx, t, &touches, &err);
		if (got < 0)
		{
			CHECK_MSG(err.code == GX_ERR_UNSUPPORTED, "triangle: %s", err.msg);
			tri_undecided++;
			continue;
		}
		if (got != want && tri_wrong++ < 5)
			fprintf(stderr, "triangle (%.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g): contained %d, oracle %d\n",
					t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], got, want);
		tri_inside += got == 1;
		tri_outside += got == 0;
		if (got == 1)
			CHECK(touches == touches_surface(idx, t));
		if (got == want && touches_surface(idx, t))
		{
			touching_inside += got == 1;
			touching_outside += got == 0;
		}
	}
}

/* Tallies of box solids in voxel solids against the oracle. */
static int	box_in,
			box_out,
			box_undecided,
			box_wrong;

/*
 * Solids of a box of voxels against the voxel solid `solid` (whose voxels vox holds): contained exactly
 * when every voxel of the box is filled (unions of closed voxels). Their surfaces share faces, edges and
 * vertices wherever the box reaches the solid's surface, and a cavity of the solid inside the box makes it
 * not contained.
 */
static void
check_boxes_in_solid(const GxSerialized *solid, const GxBatchOptions *opt, int rounds)
{
	bool		saved[N][N][N];

	memcpy(saved, vox, sizeof(vox));
	for (int r = 0; r < rounds; r++)
	{
		int			lo[3],
					hi[3],
					want = 1,
					got;
		size_t		n,
					size;
		double	   *tri;
		GxSerialized *tin,
				   *box;
		GxError		err = {GX_OK, ""};

		for (int a = 0; a < 3; a++)
		{
			lo[a] = (int) gx_test_below(N);
			hi[a] = lo[a] + (int) gx_test_below((uint64_t) (N - lo[a]) < 3 ? (uint64_t) (N - lo[a]) : 3);
		}
		memset(vox, 0, sizeof(vox));
		for (int i = lo[0]; i <= hi[0]; i++)
			for (int j = lo[1]; j <= hi[1]; j++)
				for (int k = lo[2]; k <= hi[2]; k++)
				{
					vox[i][j][k] = true;
					want &= saved[i][j][k];
				}
		tri = voxel_surface(&n);
		tin = tin_of(tri, n);
		box = gx_solid_from(tin, opt, &size, &err);
		CHECK_MSG(box != NULL, "box solid: %s", err.msg);
		got = box ? gx_contains(solid, NULL, box, &err) : -1;
		if (box && got < 0)
		{
			CHECK_MSG(err.code == GX_ERR_UNSUPPORTED, "box in solid: %s", err.msg);
			box_undecided++;
			if (getenv("GX_DEBUG")) fprintf(stderr, "undecided: %s\n", err.msg);
		}
		else if (box && got != want && box_wrong++ < 5)
			fprintf(stderr, "box [%d %d %d]-[%d %d %d] in solid: contained %d, oracle %d\n", lo[0], lo[1], lo[2],
					hi[0], hi[1], hi[2], got, want);
		box_in += got == 1;
		box_out += got == 0;
		free(box);
		free(tin);
		free(tri);
	}
	memcpy(vox, saved, sizeof(vox));
}

/* No triangle was decided against the oracle; touching ones were decided both ways. */
static void
check_triangle_tallies(void)
{
	printf("triangles in solids: %d contained, %d not (touching the surface: %d and %d), %d not decided, %d wrong\n",
		   tri_inside, tri_outside, touching_inside, touching_outside, tri_undecided, tri_wrong);
	printf("boxes of voxels in solids: %d contained, %d not, %d not decided, %d wrong\n", box_in, box_out,
		   box_undecided, box_wrong);
	CHECK_MSG(box_wrong == 0, "%d boxes decided against the oracle", box_wrong);
	CHECK(box_in > 0 && box_out > 0 && box_undecided < box_in + box_out);
	CHECK_MSG(tri_wrong == 0, "%d triangles decided against the oracle", tri_wrong);
	CHECK(touching_inside > 0 && touching_outside > 0 && tri_undecided < tri_inside + tri_outside);
}

static void
check_solid(GxSerialized *solid, const GxBatchOptions *opt, int rounds)
{
	GxSolidIndex idx;
	GxError		err = {GX_OK, ""};
	size_t		n;

	const double *tri = gx_solid_triangles(solid, &n);

	CHECK(gx_solid_index_build(&idx, tri, n, &err));
	CHECK(faces_outward(solid));
	for (int r = 0; r < rounds; r++)
	{
		double		p[3],
					q[9],
					lo_t[64],
					hi_t[64];
		mpq_t		lo_q[64],
					hi_q[64];
		GxInterval *iv = NULL;
		size_t		niv = 0,
					no;
		GxLocation	want,
					got;
		GxSerialized *pt,
				   *line;

		for (int a = 0; a < 3; a++)
			p[a] = coordinate(a);
		want = oracle_point(p);
		got = gx_solid_locate(&idx, p);
		CHECK_MSG(got == want, "point (%.17g %.17g %.17g): located %d, oracle %d", p[0], p[1], p[2], got, want);

		/* gx_intersects of the point and the solid: inside or on */
		pt = point_of(p, GX_POINT, 1);
		CHECK(gx_intersects(pt, solid, &err) == (want != GX_LOC_OUTSIDE));
		free(pt);

		/* a segment, often along a lattice plane or axis */
		memcpy(q, p, sizeof(p));
		for (int a = 0; a < 3; a++)
			q[3 + a] = gx_test_below(3) == 0 ? p[a] : coordinate(a);
		if (gx_test_below(5) == 0)
			memcpy(q + 3, p, sizeof(p));	/* zero length */
		CHECK(gx_intercepts(&idx, q, 2, &iv, &niv, &err));
		for (int k = 0; k < 64; k++)
			mpq_inits(lo_q[k], hi_q[k], NULL);
		no = oracle_segment(q, q + 3, lo_t, hi_t, lo_q, hi_q);
		{
			/*
			 * each length is t |q1 - q0| exactly, rounded once: sqrt(t^2 |q1 - q0|^2) rounded, never beyond
			 * the end's length, gx_segment_length, as gx_length gives it (that at t = 1)
			 */
			bool		same = niv == no;
			mpq_t		len2,
						x;

			mpq_inits(len2, x, NULL);
			gx_segment_length2_exact(q, q + 3, len2);
			for (size_t k = 0; k < no && same; k++)
			{
				double		end = gx_segment_length(q, q + 3);

				mpq_mul(x, lo_q[k], lo_q[k]);
				mpq_mul(x, x, len2);
				same = iv[k].from == fmin(end, gx_mpq_sqrt_nearest(x));
				mpq_mul(x, hi_q[k], hi_q[k]);
				mpq_mul(x, x, len2);
				same = same && iv[k].to == (mpq_cmp_ui(hi_q[k], 1, 1) == 0 ? end : fmin(end, gx_mpq_sqrt_nearest(x)));
			}
			mpq_clears(len2, x, NULL);
			CHECK_MSG(same, "segment (%.17g %.17g %.17g)-(%.17g %.17g %.17g): %zu intervals, oracle %zu%s",
					  q[0], q[1], q[2], q[3], q[4], q[5], niv, no, niv && no ? " (or lengths differ)" : "");
		}
		/* the whole segment misses the solid exactly when it has no intercept */
		line = point_of(q, GX_LINESTRING, 2);
		if (q[0] != q[3] || q[1] != q[4] || q[2] != q[5])
			CHECK(gx_intersects(line, solid, &err) == (no > 0));
		/* it lies in the solid exactly when its one intercept is all of it (a point: when not outside) */
		{
			int			c = gx_contains(solid, r % 2 ? &idx : NULL, line, &err);
			bool		whole = q[0] == q[3] && q[1] == q[4] && q[2] == q[5] ? oracle_point(q) != GX_LOC_OUTSIDE :
				no == 1 && mpq_sgn(lo_q[0]) == 0 && mpq_cmp_ui(hi_q[0], 1, 1) == 0;

			CHECK_MSG(c == (int) whole, "segment (%.17g %.17g %.17g)-(%.17g %.17g %.17g): contained %d, oracle %d",
					  q[0], q[1], q[2], q[3], q[4], q[5], c, (int) whole);
		}
		free(line);
		for (int k = 0; k < 64; k++)
			mpq_clears(lo_q[k], hi_q[k], NULL);
		free(iv);
	}
	check_triangles(&idx, rounds);
	gx_solid_index_free(&idx);
	(void) opt;
}

/*
 * The intercepts of a batch's pairs (random polylines, all paired with the solid) are gx_intercepts', bit for
 * bit, whether the solids' side carries its index or not.
 */
static void
check_intercepts_of_pairs(GxSerialized *solid)
{
	enum
	{
		LINES = 40
	};
	GxSerialized *lines[LINES];
	GxBatchSide ls,
				ss;
	GxSolidIndex idx;
	GxError		err = {GX_OK, ""};
	GxBatchOptions opt;
	GxBatchStats st;
	GxPairs		pairs;
	uint64_t	keys[LINES];
	size_t		n;
	const double *tri = gx_solid_triangles(solid, &n);

	CHECK(gx_solid_index_build(&idx, tri, n, &err));
	gx_batch_side_init(&ls);
	gx_batch_side_init(&ss);
	for (int i = 0; i < LINES; i++)
	{
		double		p[12];
		int			np = 2 + (int) gx_test_below(3);

		for (int k = 0; k < np; k++)
			for (int a = 0; a < 3; a++)
				p[3 * k + a] = k > 0 && gx_test_below(4) == 0 ? p[3 * (k - 1) + a] : coordinate(a);
		lines[i] = point_of(p, GX_LINESTRING, (size_t) np);
		CHECK(gx_batch_side_add(&ls, lines[i], &err));
	}
	CHECK(gx_batch_side_add(&ss, solid, &err));
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	opt.element_pairs = true;
	CHECK(gx_batch_intersect(&ls, &ss, &opt, &pairs, &st, &err) && pairs.elements != NULL);
	/* without the index, with it, and with it and the triangles the batch paired each segment with */
	for (int indexed = 0; indexed < 3; indexed++)
	{
		GxPairInterval *got;
		size_t		ngot,
					at = 0;
		bool		same = true;

		if (indexed == 1)
			CHECK(gx_side_index_build(&ss, &err));
		for (int i = 0; i < LINES; i++)
			keys[i] = (uint64_t) i << 32;
		CHECK(gx_intercepts_of_pairs(&ls, &ss, keys, LINES, indexed == 2 ? pairs.elements : NULL,
									 indexed == 2 ? pairs.nelements : 0, 2, NULL, NULL, &got, &ngot, &err));
		for (int i = 0; i < LINES && same; i++)
		{
			GxInterval *iv;
			size_t		niv;

			CHECK(gx_intercepts(&idx, gx_node_coords(gx_body(lines[i])), gx_body(lines[i])->count, &iv, &niv, &err));
			for (size_t k = 0; k < niv && same; k++, at++)
				same = at < ngot && got[at].key == (uint64_t) i << 32 && got[at].from == iv[k].from &&
					got[at].to == iv[k].to;
			gx_free(iv);
		}
		CHECK_MSG(same && at == ngot, "intercepts of pairs (%s): %zu records, per line %zu",
				  indexed == 0 ? "without an index" : indexed == 1 ? "with an index" : "the batch's element pairs",
				  ngot, at);
		free(got);
	}
	gx_free(pairs.keys);
	gx_free(pairs.elements);
	for (int i = 0; i < LINES; i++)
		free(lines[i]);
	gx_batch_side_free(&ls);
	gx_batch_side_free(&ss);
	gx_solid_index_free(&idx);
}

/*
 * The batch engine pairs points with solids exactly as gx_intersects does: by the grid, and by probes into
 * the solids' kept index, which leave a point to the volume pass (on the surface too).
 */
static void
check_batch(GxSerialized **solids, int nsolids, const GxBatchOptions *opt)
{
	GxBatchSide a,
				b;
	GxPairs		pairs;
	GxBatchStats st;
	GxError		err = {GX_OK, ""};
	GxSerialized *pts[200];
	size_t		expect = 0,
				on_surface = 0;

	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	for (int i = 0; i < 200; i++)
	{
		double		p[6];

		for (int k = 0; k < 3; k++)
			p[k] = coordinate(k);
		for (int k = 0; k < 3; k++)
			p[3 + k] = p[k] + (gx_test_below(2) ? H / 3 : 0);
		pts[i] = point_of(p, i % 2 ? GX_POINT : GX_LINESTRING, i % 2 ? 1 : 2);
		CHECK(gx_batch_side_add(&a, pts[i], &err));
	}
	for (int s = 0; s < nsolids; s++)
	{
		GxSolidIndex idx;
		size_t		n;
		const double *tri = gx_solid_triangles(solids[s], &n);

		CHECK(gx_batch_side_add(&b, solids[s], &err));
		CHECK(gx_solid_index_build(&idx, tri, n, &err));
		for (int i = 1; i < 200; i += 2)
			on_surface += gx_solid_locate(&idx, gx_node_coords(gx_body(pts[i]))) == GX_LOC_BOUNDARY;
		gx_solid_index_free(&idx);
	}
	for (int i = 0; i < 200; i++)
		for (int s = 0; s < nsolids; s++)
			expect += gx_intersects(pts[i], solids[s], &err) == 1;
	CHECK(on_surface > 0);
	/* the grid; probes into the solids' index; points only (left to the volume pass whole) */
	for (int way = 0; way < 3; way++)
	{
		GxBatchSide points;
		const GxBatchSide *q = &a;
		size_t		want = 0;
		bool		same = true;

		if (way == 1)
			CHECK(gx_side_index_build(&b, &err));
		if (way == 2)
		{
			gx_batch_side_init(&points);
			for (int i = 1; i < 200; i += 2)
				CHECK(gx_batch_side_add(&points, pts[i], &err));
			gx_side_index_free(&b);
			q = &points;
		}
		CHECK(gx_batch_intersect(q, &b, opt, &pairs, &st, &err));
		for (int i = way == 2; i < 200; i += way == 2 ? 2 : 1)
			for (int s = 0; s < nsolids; s++)
			{
				uint64_t	key = ((uint64_t) (way == 2 ? i / 2 : i) << 32) | (uint64_t) s;
				bool		got = false,
							meets = gx_intersects(pts[i], solids[s], &err) == 1;

				for (size_t k = 0; k < pairs.n; k++)
					got |= pairs.keys[k] == key;
				same &= got == meets;
				want += meets;
			}
		CHECK_MSG(same && pairs.n == want, "batch (%s): %zu pairs, gx_intersects %zu",
				  way == 0 ? "grid" : way == 1 ? "probes into the solids' index" : "points only", pairs.n, want);
		CHECK(st.volume_pairs > 0);
		/* probes and a side of points leave points to the volume pass: those on a surface are among its pairs */
		CHECK(way == 0 || st.volume_pairs >= on_surface);
		CHECK(way < 2 || st.volume_pairs == want);
		gx_free(pairs.keys);
		if (way == 2)
			gx_batch_side_free(&points);
	}
	printf("test_solid: batch of 200 points and segments against %d solids, %zu pairs, %zu points on a surface\n",
		   nsolids, expect, on_surface);
	for (int i = 0; i < 200; i++)
		free(pts[i]);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
}

/*
 * A side of many single points (a block model's centroids: the engine takes them chunk by chunk in order)
 * against the solids, as side a and as side b, with both sides' indexes kept (the points then visited by the
 * layers of their grid under each solid) and built for the batch: the pairs are those of gx_solid_locate,
 * point by point, and come out sorted.
 */
static void
check_point_side(GxSerialized **solids, int nsolids, const GxBatchOptions *opt)
{
	enum
	{
		NPOINTS = 70001			/* more than four chunks of the engine's */
	};
	GxBatchSide pts,
				b;
	GxSolidIndex idx[8];
	GxError		err = {GX_OK, ""};
	double	   *p = malloc(NPOINTS * 3 * sizeof(double));
	size_t		want = 0,
				on_surface = 0;
	uint8_t    *meets = calloc((size_t) NPOINTS * nsolids, 1);

	gx_batch_side_init(&pts);
	gx_batch_side_init(&b);
	for (int s = 0; s < nsolids; s++)
	{
		size_t		n;
		const double *tri = gx_solid_triangles(solids[s], &n);

		CHECK(gx_batch_side_add(&b, solids[s], &err));
		CHECK(gx_solid_index_build(&idx[s], tri, n, &err));
	}
	for (int i = 0; i < NPOINTS; i++)
	{
		GxSerialized *g;

		for (int k = 0; k < 3; k++)
			p[3 * i + k] = coordinate(k);
		g = point_of(p + 3 * i, GX_POINT, 1);
		CHECK(gx_batch_side_add(&pts, g, &err));
		free(g);
		for (int s = 0; s < nsolids; s++)
		{
			GxLocation	loc = gx_solid_locate(&idx[s], p + 3 * i);

			meets[(size_t) i * nsolids + s] = loc != GX_LOC_OUTSIDE;
			want += loc != GX_LOC_OUTSIDE;
			on_surface += loc == GX_LOC_BOUNDARY;
		}
	}
	CHECK(on_surface > 0 && want > on_surface);
	for (int way = 0; way < 4; way++)
	{
		bool		points_first = way % 2 == 0,
					same = true;
		GxPairs		pairs;
		GxBatchStats st;
		size_t		got = 0;

		if (way == 2)
			CHECK(gx_side_index_build(&b, &err) && gx_side_index_build(&pts, &err));
		CHECK(points_first ? gx_batch_intersect(&pts, &b, opt, &pairs, &st, &err) :
			  gx_batch_intersect(&b, &pts, opt, &pairs, &st, &err));
		for (size_t k = 0; k < pairs.n; k++)
		{
			uint32_t	i = points_first ? (uint32_t) (pairs.keys[k] >> 32) : (uint32_t) pairs.keys[k],
						s = points_first ? (uint32_t) pairs.keys[k] : (uint32_t) (pairs.keys[k] >> 32);

			same &= i < NPOINTS && s < (uint32_t) nsolids && meets[(size_t) i * nsolids + s] &&
				(k == 0 || pairs.keys[k - 1] < pairs.keys[k]);
			got++;
		}
		CHECK_MSG(same && got == want, "a side of %d points (%s, %s): %zu pairs, gx_solid_locate %zu", NPOINTS,
				  points_first ? "side a" : "side b", way < 2 ? "indexed for the batch" : "both sides' index kept",
				  got, want);
		CHECK(st.located >= want);
		gx_free(pairs.keys);
	}
	printf("test_solid: a side of %d points against %d solids, %zu pairs, %zu on a surface\n", NPOINTS, nsolids,
		   want, on_surface);
	for (int s = 0; s < nsolids; s++)
		gx_solid_index_free(&idx[s]);
	gx_side_index_free(&b);
	gx_side_index_free(&pts);
	gx_batch_side_free(&pts);
	gx_batch_side_free(&b);
	free(p);
	free(meets);
}

/* The 12 triangles of the box [x0, x1] x [y0, y1] x [z0, z1], into t (108 doubles). */
static void
box_triangles(double *t, double x0, double y0, double z0, double x1, double y1, double z1)
{
	const double c[8][3] = {{x0, y0, z0}, {x1, y0, z0}, {x1, y1, z0}, {x0, y1, z0},
	{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}};
	static const int f[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
	{1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};

	for (int i = 0; i < 12; i++)
		for (int v = 0; v < 3; v++)
			memcpy(t + 9 * i + 3 * v, c[f[i][v]], 3 * sizeof(double));
}

#define M 16					/* cells a side of the grid prism */
#define X0 500000.0
#define Y0 7000000.0

/* Appends the two triangles of quad a b c d (in order around it), with a random diagonal. */
static size_t
quad(double *t, size_t n, const double *a, const double *b, const double *c, const double *d)
{
	const double *q[4] = {a, b, c, d};
	int			r = (int) gx_test_below(2);

	for (int k = 0; k < 3; k++)
	{
		memcpy(t + 9 * n + 3 * k, q[(r + k) % 4], 3 * sizeof(double));
		memcpy(t + 9 * (n + 1) + 3 * k, q[(r + 2 + k) % 4], 3 * sizeof(double));
	}
	return n + 2;
}

/*
 * The prism [0, M] x [0, M] x [0, 1] (at UTM offsets) with every face cut into unit squares, and with hole,
 * a hole through cell (M / 4, M / 4); malloc'd, *n triangles.
 */
static double *
grid_prism(bool hole, size_t *n)
{
	double	   *t = malloc((size_t) (4 * M * M + 16 * M + 16) * 9 * sizeof(double));
	int			h = M / 4;		/* the hole's cell, inside the triangle (0, 0) (M, 0) (0, M) */

	*n = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++)
		{
			if (hole && i == h && j == h)
				continue;
			for (int z = 0; z < 2; z++)
			{
				const double a[3] = {X0 + i, Y0 + j, z},
							b[3] = {X0 + i + 1, Y0 + j, z},
							c[3] = {X0 + i + 1, Y0 + j + 1, z},
							d[3] = {X0 + i, Y0 + j + 1, z};

				*n = quad(t, *n, a, b, c, d);
			}
		}
	for (int k = 0; k < 4 * M + (hole ? 4 : 0); k++)
	{
		/* the walls: unit squares along the outer rim, then along the hole's */
		int			side = k < 4 * M ? k / M : k - 4 * M,
					s = k < 4 * M ? k % M : 0,
					lo = k < 4 * M ? 0 : h,
					hi = k < 4 * M ? M : h + 1;
		double		p[2][3];

		for (int e = 0; e < 2; e++)
		{
			int			u = k < 4 * M ? s + e : lo + e;

			p[e][0] = X0 + (side == 0 ? u : side == 1 ? hi : side == 2 ? u : lo);
			p[e][1] = Y0 + (side == 0 ? lo : side == 1 ? u : side == 2 ? hi : u);
			p[e][2] = 0;
		}
		{
			const double a[3] = {p[0][0], p[0][1], 0},
						b[3] = {p[1][0], p[1][1], 0},
						c[3] = {p[1][0], p[1][1], 1},
						d[3] = {p[0][0], p[0][1], 1};

			*n = quad(t, *n, a, b, c, d);
		}
	}
	return t;
}

/*
 * Stacked boxes, their faces cut into K x K squares (so that the grid has inner columns), given to the
 * index as they are: parity makes a box inside another a cavity. Runs of free bins alternate sides up a
 * column; the boxes' z-planes are lattice planes and one ulp off them.
 */
#define K 8
static const double stack[5][6] = {
	{0, 0, 0, 8, 8, 8},			/* the body */
	{2, 2, 2, 6, 6, 3},			/* a cavity */
	{2, 2, 5, 6, 6, 6},			/* another above it */
	{3, 3, 2.5, 5, 5, 2.75},	/* an island in the first cavity */
	{0, 0, 9, 8, 8, 10}			/* a second body above the first */
};

/* Inside (parity of the boxes holding p strictly), or on a box's surface. */
static GxLocation
stack_oracle(const double *p)
{
	int			inside = 0;

	for (int b = 0; b < 5; b++)
	{
		bool		in = true,
					on = true;

		for (int a = 0; a < 3; a++)
		{
			double		lo = (a == 0 ? X0 : a == 1 ? Y0 : 0) + stack[b][a],
						hi = (a == 0 ? X0 : a == 1 ? Y0 : 0) + stack[b][3 + a];

			in = in && p[a] > lo && p[a] < hi;
			on = on && p[a] >= lo && p[a] <= hi;
		}
		if (on && !in)
			return GX_LOC_BOUNDARY;
		inside += in;
	}
	return inside % 2 ? GX_LOC_INSIDE : GX_LOC_OUTSIDE;
}

static void
check_gaps(void)
{
	size_t		n = 0,
				npts = 0;
	double	   *t = malloc(5 * 6 * 2 * K * K * 9 * sizeof(double)),
			   *pts = malloc(24 * 24 * 96 * 3 * sizeof(double));
	GxSolidIndex idx;
	GxError		e = {GX_OK, ""};
	int			wrong = 0;

	for (int b = 0; b < 5; b++)
		for (int f = 0; f < 6; f++)
		{
			int			a = f % 3,		/* the face's normal axis */
						u = (a + 1) % 3,
						v = (a + 2) % 3;
			double		off[3] = {X0, Y0, 0},
						lo[3],
						hi[3];

			for (int k = 0; k < 3; k++)
			{
				lo[k] = off[k] + stack[b][k];
				hi[k] = off[k] + stack[b][3 + k];
			}
			for (int i = 0; i < K; i++)
				for (int j = 0; j < K; j++)
				{
					double		q[4][3];

					for (int c = 0; c < 4; c++)
					{
						int			di = i + (c == 1 || c == 2),
									dj = j + (c >= 2);

						q[c][a] = f < 3 ? lo[a] : hi[a];
						q[c][u] = lo[u] + (hi[u] - lo[u]) * di / K;
						q[c][v] = lo[v] + (hi[v] - lo[v]) * dj / K;
					}
					n = quad(t, n, q[0], q[1], q[2], q[3]);
				}
		}
	CHECK(gx_solid_index_build(&idx, t, n, &e));
	/* (x, y) on and between the faces' squares; z on, between and one ulp off the boxes' planes */
	for (int i = 0; i < 24; i++)
		for (int j = 0; j < 24; j++)
			for (int k = 0; k < 96; k++)
			{
				double	   *p = pts + 3 * npts++,
							z = k / 8.0 - 0.5;

				p[0] = X0 + i / 3.0 + 0.01;
				p[1] = Y0 + j / 3.0 + 0.01 * (j % 2);
				p[2] = k % 3 == 0 ? nextafter(z, INFINITY) : k % 3 == 1 ? nextafter(z, -INFINITY) : z;
			}
	/* in random order, twice: the second pass takes what the first learned */
	for (size_t i = npts - 1; i > 0; i--)
	{
		size_t		j = gx_test_below((unsigned) (i + 1));
		double		tmp[3];

		memcpy(tmp, pts + 3 * i, sizeof(tmp));
		memcpy(pts + 3 * i, pts + 3 * j, sizeof(tmp));
		memcpy(pts + 3 * j, tmp, sizeof(tmp));
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < npts; i++)
		{
			const double *p = pts + 3 * i;
			GxLocation	got = gx_solid_locate(&idx, p),
						want = stack_oracle(p);

			if (got != want && wrong++ < 5)
				CHECK_MSG(false, "stacked boxes, pass %d: (%.17g %.17g %.17g) located %d, oracle %d", pass, p[0],
						  p[1], p[2], got, want);
		}
	CHECK_MSG(wrong == 0, "stacked boxes: %d points located wrongly", wrong);
	gx_solid_index_free(&idx);
	free(t);
	free(pts);
}

int
main(void)
{
	GxBatchOptions opt;
	GxSerialized *solids[8];
	int			nsolids = 0,
				made = 0,
				refused = 0;

	gx_test_seed(UINT64_C(0x2545F4914F6CDD1D));
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;

	for (int round = 0; round < 40; round++)
	{
		size_t		n,
					size,
					shells;
		double	   *tri;
		GxSerialized *tin,
				   *solid;
		GxError		err = {GX_OK, ""};
		bool		nonmanifold;

		if (round == 0)
			nested_voxels();
		else
			random_voxels(round % 3 == 0 ? 70 : 35, round % 4 != 0);
		nonmanifold = edge_only_contact();
		tri = voxel_surface(&n);
		if (n == 0)
		{
			free(tri);
			continue;
		}
		tin = tin_of(tri, n);
		solid = gx_solid_from(tin, &opt, &size, &err);
		/* the batch engine's self-join (the GPU's path; its CPU engine here) decides the same */
		{
			GxBatchOptions gpu = opt;
			GxError		e2 = {GX_OK, ""};
			size_t		size2;
			GxSerialized *s2;

			gpu.device = GX_DEVICE_GPU;
			s2 = gx_solid_from(tin, &gpu, &size2, &e2);
			CHECK_MSG(solid ? (s2 && size2 == size && memcmp(s2, solid, size) == 0) : (!s2 && strcmp(err.msg, e2.msg) == 0),
					  "round %d: grid and batch engine differ: %s / %s", round, err.msg, e2.msg);
			free(s2);
		}
		CHECK_MSG((solid != NULL) == !nonmanifold, "round %d: makesolid %s (%s), oracle %s", round,
				  solid ? "accepted" : "refused", err.msg, nonmanifold ? "non-manifold" : "valid");
		if (solid)
		{
			if (getenv("GX_DEBUG"))
				fprintf(stderr, "round %d made, %zu triangles\n", round, n);
			made++;
			CHECK(solid->flags & GX_FLAG_SOLID);
			check_solid(solid, &opt, 300);
			check_intercepts_of_pairs(solid);
			check_boxes_in_solid(solid, &opt, 15);
			if (nsolids < 8)
				solids[nsolids++] = solid;
			else
				free(solid);
		}
		else
		{
			refused++;
			CHECK(strstr(err.msg, "more than two triangles") != NULL);
		}
		/* the nested case: three shells */
		if (round == 0 && solid)
		{
			memcpy(tri, gx_solid_triangles(solid, &n), 9 * n * sizeof(double));
			CHECK(gx_solid_make(tri, &n, &opt, &shells, &err) && shells == 3);
		}
		/* an open surface: one triangle dropped */
		{
			GxSerialized *open = tin_of(tri, n - 1),
					   *s2;
			GxError		e2 = {GX_OK, ""};

			s2 = gx_solid_from(open, &opt, &size, &e2);
			CHECK(s2 == NULL && (strstr(e2.msg, "one triangle only") || strstr(e2.msg, "more than two")));
			free(open);
		}
		free(tin);
		free(tri);
	}
	/* two closed boxes through each other: every edge is paired, the faces cross: refused by both paths */
	{
		size_t		n1,
					n2,
					size;
		double	   *t1,
				   *t2,
				   *both;
		GxSerialized *tin,
				   *s1,
				   *s2;
		GxBatchOptions gpu = opt;
		GxError		e1 = {GX_OK, ""},
					e2 = {GX_OK, ""};

		memset(vox, 0, sizeof(vox));
		vox[1][1][1] = vox[1][2][1] = true;
		t1 = voxel_surface(&n1);
		memset(vox, 0, sizeof(vox));
		vox[1][1][1] = vox[2][1][1] = true;
		t2 = voxel_surface(&n2);
		/* shift the second box by a quarter voxel: its faces cross the first's */
		for (size_t i = 0; i < 3 * n2; i++)
			t2[3 * i + 2] += H / 4;
		both = malloc((n1 + n2) * 9 * sizeof(double));
		memcpy(both, t1, n1 * 9 * sizeof(double));
		memcpy(both + 9 * n1, t2, n2 * 9 * sizeof(double));
		tin = tin_of(both, n1 + n2);
		gpu.device = GX_DEVICE_GPU;
		s1 = gx_solid_from(tin, &opt, &size, &e1);
		s2 = gx_solid_from(tin, &gpu, &size, &e2);
		CHECK_MSG(!s1 && !s2 && strstr(e1.msg, "meet other than") && strcmp(e1.msg, e2.msg) == 0, "%s / %s", e1.msg, e2.msg);
		free(t1);
		free(t2);
		free(both);
		free(tin);
	}
	/*
	 * a triangular bipyramid (any two of its faces share a vertex): valid with its apexes on either side of
	 * the equator; with the north apex pulled below and aside, faces sharing one vertex cross each other
	 */
	{
		const double apex[2][3] = {{0.25, 0.25, 1}, {-3, -3, -3}};

		for (int k = 0; k < 2; k++)
		{
			const double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0}, s[3] = {0.25, 0.25, -1};
			const double *f[6][3] = {{apex[k], a, b}, {apex[k], b, c}, {apex[k], c, a}, {s, b, a}, {s, c, b}, {s, a, c}};
			double		t[54];
			GxSerialized *tin,
					   *s1,
					   *s2;
			GxBatchOptions gpu = opt;
			GxError		e1 = {GX_OK, ""},
						e2 = {GX_OK, ""};
			size_t		size;

			for (int i = 0; i < 6; i++)
				for (int v = 0; v < 3; v++)
					memcpy(t + 9 * i + 3 * v, f[i][v], 3 * sizeof(double));
			tin = tin_of(t, 6);
			gpu.device = GX_DEVICE_GPU;
			s1 = gx_solid_from(tin, &opt, &size, &e1);
			s2 = gx_solid_from(tin, &gpu, &size, &e2);
			if (k == 0)
				CHECK_MSG(s1 && s2, "the bipyramid: %s / %s", e1.msg, e2.msg);
			else
				CHECK_MSG(!s1 && !s2 && strstr(e1.msg, "meet other than") && strcmp(e1.msg, e2.msg) == 0,
						  "the folded bipyramid: %s / %s", e1.msg, e2.msg);
			free(s1);
			free(s2);
			free(tin);
		}
	}
	/*
	 * A triangle lying on a slab's top face, which many surface triangles cover, its edges along the face:
	 * contained. Over the same slab with a square hole through it, which the triangle's inside spans: not
	 * contained (the surface touches its inside along the hole's rim without crossing it).
	 */
	for (int hole = 0; hole < 2; hole++)
	{
		size_t		n,
					size;
		double	   *tri;
		GxSerialized *tin,
				   *slab;
		GxSolidIndex idx;
		GxError		e = {GX_OK, ""};
		bool		touches;
		const double top = plane(2, 2),
					t[9] = {plane(0, 0), plane(1, 0), top, plane(0, N), plane(1, 0), top, plane(0, 0), plane(1, N), top};
		int			got;

		memset(vox, 0, sizeof(vox));
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				vox[i][j][1] = !(hole && i == 1 && j == 1);
		tri = voxel_surface(&n);
		tin = tin_of(tri, n);
		slab = gx_solid_from(tin, &opt, &size, &e);
		CHECK_MSG(slab != NULL, "slab %d: %s", hole, e.msg);
		if (slab)
		{
			const double *st = gx_solid_triangles(slab, &n);

			CHECK(gx_solid_index_build(&idx, st, n, &e));
			got = gx_triangle_in_solid(&idx, t, &touches, &e);
			CHECK_MSG(got == !hole && touches, "triangle on a slab%s: %d (%s)", hole ? " with a hole" : "", got, e.msg);
			gx_solid_index_free(&idx);
		}
		free(slab);
		free(tin);
		free(tri);
	}
	/*
	 * A prism of M x M cells, each face cut into unit squares and those into triangles: the top face lies
	 * along hundreds of lines. A triangle lying on it, its edges along the face: contained; with a hole
	 * through one cell, spanned by the triangle: not. A box sharing the prism's bottom face holds the prism
	 * (its face touches every line of the prism's bottom); the prism, as a cavity of a larger box, is not
	 * held by it.
	 */
	for (int hole = 0; hole < 2; hole++)
	{
		size_t		n,
					size;
		double	   *tri = grid_prism(hole, &n);
		GxSerialized *tin = tin_of(tri, n),
				   *prism;
		GxSolidIndex idx;
		GxError		e = {GX_OK, ""};
		bool		touches;
		const double t[9] = {X0, Y0, 1, X0 + M, Y0, 1, X0, Y0 + M, 1};
		int			got;

		prism = gx_solid_from(tin, &opt, &size, &e);
		CHECK_MSG(prism != NULL, "grid prism %d: %s", hole, e.msg);
		if (prism)
		{
			const double *st = gx_solid_triangles(prism, &n);

			CHECK(gx_solid_index_build(&idx, st, n, &e));
			got = gx_triangle_in_solid(&idx, t, &touches, &e);
			CHECK_MSG(got == !hole && touches, "triangle on a grid prism%s: %d (%s)", hole ? " with a hole" : "",
					  got, e.msg);
			gx_solid_index_free(&idx);
		}
		if (prism && !hole)
		{
			/* the box [0, M] x [0, M] x [0, 2] around the prism; [-1, M + 1] x [-1, M + 1] x [-1, 2] with it as a cavity */
			double	   *both = malloc((n + 12) * 9 * sizeof(double));
			const double *st = gx_solid_triangles(prism, &n);

			for (int cavity = 0; cavity < 2; cavity++)
			{
				GxSerialized *box,
						   *btin;

				box_triangles(both, X0 - cavity, Y0 - cavity, -cavity, X0 + M + cavity, Y0 + M + cavity, 2);
				if (cavity)
					memcpy(both + 12 * 9, st, n * 9 * sizeof(double));
				btin = tin_of(both, 12 + (cavity ? n : 0));
				box = gx_solid_from(btin, &opt, &size, &e);
				CHECK_MSG(box != NULL, "box around a grid prism: %s", e.msg);
				if (box)
				{
					got = gx_contains(box, NULL, prism, &e);
					CHECK_MSG(got == !cavity, "a grid prism in a box%s: %d (%s)", cavity ? " as its cavity" : "",
							  got, e.msg);
				}
				free(box);
				free(btin);
			}
			free(both);
		}
		free(prism);
		free(tin);
		free(tri);
	}
	/*
	 * Blocks against a block of voxels with a cavity (its centre voxel): the whole block, whose surface is the
	 * body's outer surface, holds the cavity (not contained: the cavity walls' outer side is inside it); the
	 * centre voxel fills the cavity (not contained: its faces lie on the walls, facing the other way); a
	 * corner voxel, sharing three faces with the body's, is contained.
	 */
	{
		static const int boxes[3][6] = {{1, 1, 1, 3, 3, 3}, {2, 2, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 1}};
		GxSerialized *parts[2];

		for (int part = 0; part < 4; part++)
		{
			size_t		n,
						size;
			double	   *tri;
			GxSerialized *tin;
			GxError		e = {GX_OK, ""};
			const int  *bx = boxes[part == 0 ? 0 : part - 1];

			memset(vox, 0, sizeof(vox));
			for (int i = bx[0]; i <= bx[3]; i++)
				for (int j = bx[1]; j <= bx[4]; j++)
					for (int k = bx[2]; k <= bx[5]; k++)
						vox[i][j][k] = !(part == 0 && i == 2 && j == 2 && k == 2);
			tri = voxel_surface(&n);
			tin = tin_of(tri, n);
			parts[part == 0 ? 0 : 1] = gx_solid_from(tin, &opt, &size, &e);
			CHECK_MSG(parts[part == 0 ? 0 : 1] != NULL, "block %d: %s", part, e.msg);
			if (part > 0 && parts[0] && parts[1])
			{
				int			got = gx_contains(parts[0], NULL, parts[1], &e);

				CHECK_MSG(got == (part == 3), "block %d in the body with a cavity: %d (%s)", part, got, e.msg);
			}
			if (part > 0)
				free(parts[1]);
			free(tin);
			free(tri);
		}
		free(parts[0]);
	}
	/* a multi-part geometry with one part inside and one far away (its box is not inside the solid's) */
	{
		GxError		e = {GX_OK, ""};
		GxBuilder	b;
		size_t		node,
					size;
		GxSerialized *mp;
		GxBatchSide sa,
					sb;
		GxPairs		pairs;
		GxBatchStats st;
		double		in[3],
					far[3] = {origin[0] + 1000, origin[1] + 1000, origin[2] + 1000};
		bool		found = false;

		/* inside the first solid: the centre of one of its filled voxels */
		nested_voxels();
		for (int a = 0; a < 3; a++)
			in[a] = plane(a, 0) + H / 2;
		gx_builder_init(&b, &e);
		node = gx_builder_begin(&b, GX_MULTIPOINT);
		for (int k = 0; k < 2; k++)
		{
			size_t		p = gx_builder_begin(&b, GX_POINT);
			const double *c = k ? in : far;

			gx_builder_coord(&b, c[0], c[1], c[2]);
			gx_builder_end(&b, p, 1);
		}
		gx_builder_end(&b, node, 2);
		mp = gx_builder_finish(&b, 0, &size);
		CHECK(gx_intersects(mp, solids[0], &e) == 1);
		gx_batch_side_init(&sa);
		gx_batch_side_init(&sb);
		CHECK(gx_batch_side_add(&sa, mp, &e) && gx_batch_side_add(&sb, solids[0], &e));
		CHECK(gx_batch_intersect(&sa, &sb, &opt, &pairs, &st, &e));
		found = pairs.n == 1 && st.volume_pairs == 1;
		CHECK_MSG(found, "multi-part geometry with a part inside: %zu pairs", pairs.n);
		gx_free(pairs.keys);
		gx_batch_side_free(&sa);
		gx_batch_side_free(&sb);
		free(mp);
	}
	CHECK(made >= 5);
	CHECK(refused >= 1);
	check_batch(solids, nsolids, &opt);
	check_point_side(solids, nsolids, &opt);
	check_gaps();
	for (int s = 0; s < nsolids; s++)
		free(solids[s]);
	printf("test_solid: %d solids made, %d refused as non-manifold\n", made, refused);
	check_triangle_tallies();
	return gx_test_report("test_solid");
}
