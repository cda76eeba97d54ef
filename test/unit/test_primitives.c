/*
 * test_primitives.c: the exact element tests (point, segment, triangle; all pairs) against an independent
 * oracle: the separating-axis theorem in exact integer arithmetic, on random configurations of small
 * lattice points (so touching, coplanar, collinear and degenerate cases are frequent). The same
 * configurations are then translated to UTM-sized offsets and scaled by powers of two (exact operations
 * on these coordinates) and must give the same answers, in either argument order and vertex order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_elements.h"
#include "gx_test.h"

typedef struct V
{
	int64_t		x, y, z;
} V;

static V
sub(V a, V b)
{
	return (V) {a.x - b.x, a.y - b.y, a.z - b.z};
}

static V
cross(V a, V b)
{
	return (V) {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static int64_t
dot(V a, V b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* Is there an axis along which the two vertex sets are strictly apart? */
static int
separated_along(V axis, const V *a, int na, const V *b, int nb)
{
	int64_t		amin = INT64_MAX,
				amax = INT64_MIN,
				bmin = INT64_MAX,
				bmax = INT64_MIN;
	int			i;

	if (axis.x == 0 && axis.y == 0 && axis.z == 0)
		return 0;
	for (i = 0; i < na; i++)
	{
		int64_t		d = dot(axis, a[i]);

		amin = d < amin ? d : amin;
		amax = d > amax ? d : amax;
	}
	for (i = 0; i < nb; i++)
	{
		int64_t		d = dot(axis, b[i]);

		bmin = d < bmin ? d : bmin;
		bmax = d > bmax ? d : bmax;
	}
	return amax < bmin || bmax < amin;
}

/*
 * Oracle: convex hulls of a and b (1 to 3 vertices each) intersect iff no candidate axis separates them.
 * Candidates: vectors w (edges of either, vertex differences), their cross products u x v, and u x (v x u):
 * the direction between closest points is always one of these.
 */
static int
oracle(const V *a, int na, const V *b, int nb)
{
	V			w[32];
	int			n = 0,
				i,
				j;

	for (i = 0; i < na; i++)
		for (j = i + 1; j < na; j++)
			w[n++] = sub(a[j], a[i]);
	for (i = 0; i < nb; i++)
		for (j = i + 1; j < nb; j++)
			w[n++] = sub(b[j], b[i]);
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			w[n++] = sub(b[j], a[i]);
	for (i = 0; i < n; i++)
	{
		if (separated_along(w[i], a, na, b, nb))
			return 0;
		for (j = 0; j < n; j++)
		{
			V			c = cross(w[i], w[j]);

			if (separated_along(c, a, na, b, nb) || separated_along(cross(w[i], c), a, na, b, nb))
				return 0;
		}
	}
	return 1;
}

static int
rnd(int lo, int hi)
{
	return lo + rand() % (hi - lo + 1);
}

/* Element of k vertices from lattice points, mapped by x -> offset + scale * x (exact here). */
static GxElem
to_elem(const V *v, int k, double *buf, const double offset[3], double scale, const int *perm)
{
	int			i;

	for (i = 0; i < k; i++)
	{
		const V    *p = &v[perm[i]];

		buf[3 * i] = offset[0] + scale * (double) p->x;
		buf[3 * i + 1] = offset[1] + scale * (double) p->y;
		buf[3 * i + 2] = offset[2] + scale * (double) p->z;
	}
	return (GxElem) {buf, k};
}

static void
random_vertices(V *v, int k, int range)
{
	int			i;

	for (i = 0; i < k; i++)
	{
		v[i] = (V) {rnd(-range, range), rnd(-range, range), rnd(-range, range)};
		/* Often copy or align with an earlier vertex: degenerate elements. */
		if (i > 0 && rnd(0, 7) == 0)
			v[i] = v[rnd(0, i - 1)];
		else if (i > 1 && rnd(0, 7) == 0)
		{
			V			d = sub(v[1], v[0]);
			int			t = rnd(-2, 2);

			v[i] = (V) {v[0].x + t * d.x, v[0].y + t * d.y, v[0].z + t * d.z};
		}
	}
}

/* Places b in a's plane (z = 0 for both), a frequent source of coplanar cases. */
static void
flatten(V *v, int k)
{
	int			i;

	for (i = 0; i < k; i++)
		v[i].z = 0;
}

static void
hand_cases(void)
{
	double		t[9] = {0, 0, 0, 4, 0, 0, 0, 4, 0};
	double		s_cross[6] = {1, 1, -1, 1, 1, 1};
	double		s_touch[6] = {1, 1, 0, 1, 1, 5};	/* ends on the face */
	double		s_edge[6] = {2, 0, -1, 2, 0, 1};	/* through an edge */
	double		s_vertex[6] = {0, 0, 0, -1, -1, -1};	/* touches a vertex */
	double		s_above[6] = {1, 1, 1e-300, 1, 1, 1};	/* just above */
	double		s_inplane[6] = {-1, 1, 0, 5, 1, 0};	/* lying in the plane, crossing */
	double		s_inside[6] = {0.5, 0.5, 0, 1, 1, 0};	/* lying inside */
	double		s_outplane[6] = {3, 3, 0, 5, 5, 0};	/* in plane, outside */
	double		degen_tri[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};	/* collinear */
	double		point_tri[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};	/* repeated */
	double		u[9] = {1, 1, 0, 2, 1, 0, 1, 2, 0};	/* inside t, coplanar */
	double		p[3] = {1, 1, 1};
	GxElem		T = {t, 3};

	CHECK(gx_elem_intersects((GxElem) {s_cross, 2}, T));
	CHECK(gx_elem_intersects((GxElem) {s_touch, 2}, T));
	CHECK(gx_elem_intersects((GxElem) {s_edge, 2}, T));
	CHECK(gx_elem_intersects((GxElem) {s_vertex, 2}, T));
	CHECK(!gx_elem_intersects((GxElem) {s_above, 2}, T));
	CHECK(gx_elem_intersects((GxElem) {s_inplane, 2}, T));
	CHECK(gx_elem_intersects((GxElem) {s_inside, 2}, T));
	CHECK(!gx_elem_intersects((GxElem) {s_outplane, 2}, T));
	CHECK(gx_elem_intersects((GxElem) {degen_tri, 3}, T));	/* touches t at the origin */
	CHECK(gx_elem_intersects((GxElem) {point_tri, 3}, (GxElem) {p, 1}));
	CHECK(gx_elem_intersects((GxElem) {point_tri, 3}, (GxElem) {degen_tri, 3}));
	CHECK(gx_elem_intersects((GxElem) {u, 3}, T));
	CHECK(gx_elem_intersects(T, (GxElem) {u, 3}));
}

int
main(int argc, char **argv)
{
	unsigned	seed = argc > 2 ? (unsigned) atoi(argv[2]) : 20261123u;
	static const double offsets[3][3] = {{0, 0, 0}, {500000, 7000000, -350}, {-1e9, 3e9, 1e9}};
	static const double scales[3] = {1, 0x1p-20, 0x1p+20};
	int			n,
				agree = 0,
				hits = 0;

	printf("test_primitives: seed %u\n", seed);
	srand(seed);
	hand_cases();
	for (n = 0; n < 60000; n++)
	{
		V			a[3] = {{0}},
					b[3] = {{0}};
		int			ka = rnd(1, 3),
					kb = rnd(1, 3);
		int			range = rnd(0, 3) ? 2 : 6;
		int			expect,
					o;
		int			ident[3] = {0, 1, 2},
					rot[3] = {1, 2, 0},
					rev[3] = {2, 1, 0};

		random_vertices(a, ka, range);
		random_vertices(b, kb, range);
		if (rnd(0, 2) == 0)
		{
			flatten(a, ka);
			flatten(b, kb);
		}
		expect = oracle(a, ka, b, kb);
		hits += expect;
		for (o = 0; o < 3; o++)
		{
			double		ba[9],
						bb[9];
			const int  *pa = (ka == 3 && o == 1) ? rot : (o == 2 && ka > 1) ? rev + (3 - ka) : ident;
			GxElem		ea = to_elem(a, ka, ba, offsets[o], scales[o], pa);
			GxElem		eb = to_elem(b, kb, bb, offsets[o], scales[o], ident);
			int			r1 = gx_elem_intersects(ea, eb);
			int			r2 = gx_elem_intersects(eb, ea);

			CHECK_MSG(r1 == expect && r2 == expect,
					  "case %d (kinds %d,%d, variant %d): got %d/%d, oracle %d; "
					  "a=(%ld %ld %ld)(%ld %ld %ld)(%ld %ld %ld) b=(%ld %ld %ld)(%ld %ld %ld)(%ld %ld %ld)",
					  n, ka, kb, o, r1, r2, expect,
					  (long) a[0].x, (long) a[0].y, (long) a[0].z, (long) a[1].x, (long) a[1].y, (long) a[1].z,
					  (long) a[2].x, (long) a[2].y, (long) a[2].z, (long) b[0].x, (long) b[0].y, (long) b[0].z,
					  (long) b[1].x, (long) b[1].y, (long) b[1].z, (long) b[2].x, (long) b[2].y, (long) b[2].z);
			agree += r1 == expect;
		}
	}
	printf("test_primitives: %d random configurations (%d intersecting), %d agreements with the oracle\n",
		   n, hits, agree);
	return gx_test_report("test_primitives");
}
