/*
 * test_face.c: unit tests of gx_face_shape (planar, strictly convex faces) against an independent oracle:
 * random lattice polygons in (u, v), lifted exactly onto a plane w = a u + b v + c (now and then one vertex
 * off it) and written as doubles under a random axis permutation, scale and offset. The oracle works on the
 * lattice in 128-bit integers with another method: a normal vector, and the supporting-line test (every
 * other vertex strictly on one common side of every edge). Then hand-made cases at the limits of floating
 * point. argv[1] is not used.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gx_test.h"
#include "triangulate/gx_face.h"

#define MAX_N		12
#define ROUNDS		40000

typedef __int128 wide;

/* A polygon of the lattice, the plane it lies on, and one vertex lifted by lift (0: none). */
typedef struct Lattice
{
	long long	u[MAX_N + 2],
				v[MAX_N + 2],
				w[MAX_N + 2];
	size_t		n;
} Lattice;

/* The difference of vertices b and a of p as a vector of 3 wide integers. */
static void
diff(const Lattice *p, size_t b, size_t a, wide d[3])
{
	d[0] = p->u[b] - p->u[a];
	d[1] = p->v[b] - p->v[a];
	d[2] = p->w[b] - p->w[a];
}

static void
cross3(const wide a[3], const wide b[3], wide c[3])
{
	c[0] = a[1] * b[2] - a[2] * b[1];
	c[1] = a[2] * b[0] - a[0] * b[2];
	c[2] = a[0] * b[1] - a[1] * b[0];
}

static wide
dot3(const wide a[3], const wide b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/*
 * Oracle, in (u, v, w): not convex when the first three vertices are collinear; not planar when a vertex
 * is off their plane (normal nrm); else convex when every other vertex lies strictly on one common side of
 * every edge, sides measured along nrm.
 */
static GxFaceShape
oracle(const Lattice *p)
{
	wide		e1[3],
				e2[3],
				nrm[3],
				d[3],
				c[3];
	int			side = 0;
	size_t		i,
				j;
	wide		s;

	diff(p, 1, 0, e1);
	diff(p, 2, 0, e2);
	cross3(e1, e2, nrm);
	if (nrm[0] == 0 && nrm[1] == 0 && nrm[2] == 0)
		return GX_FACE_NOT_CONVEX;
	for (i = 3; i < p->n; i++)
	{
		diff(p, i, 0, d);
		if (dot3(nrm, d) != 0)
			return GX_FACE_NOT_PLANAR;
	}
	for (i = 0; i < p->n; i++)
		for (j = 0; j < p->n; j++)
		{
			if (j == i || j == (i + 1) % p->n)
				continue;
			diff(p, (i + 1) % p->n, i, e1);
			diff(p, j, i, e2);
			cross3(e1, e2, c);
			s = dot3(nrm, c);
			if (s == 0 || (side != 0 && (s > 0) != (side > 0)))
				return GX_FACE_NOT_CONVEX;
			side = s > 0 ? 1 : -1;
		}
	return GX_FACE_CONVEX;
}

/* Andrew's monotone chain: the strict convex hull of n random lattice points, counter-clockwise. */
static void
hull_polygon(Lattice *p, size_t n, long long range)
{
	long long	pu[64],
				pv[64];
	size_t		i,
				j,
				k = 0,
				lower;
	long long	tu,
				tv;
	Lattice		h;

	for (i = 0; i < n; i++)
	{
		pu[i] = gx_test_int(-range, range);
		pv[i] = gx_test_int(-range, range);
	}
	for (i = 1; i < n; i++)		/* insertion sort by (u, v) */
		for (j = i; j > 0 && (pu[j] < pu[j - 1] || (pu[j] == pu[j - 1] && pv[j] < pv[j - 1])); j--)
		{
			tu = pu[j], tv = pv[j];
			pu[j] = pu[j - 1], pv[j] = pv[j - 1];
			pu[j - 1] = tu, pv[j - 1] = tv;
		}
	memset(&h, 0, sizeof(h));
	for (i = 0; i < n; i++)
	{
		while (k >= 2 && (h.u[k - 1] - h.u[k - 2]) * (pv[i] - h.v[k - 2]) - (h.v[k - 1] - h.v[k - 2]) * (pu[i] - h.u[k - 2]) <= 0)
			k--;
		if (k < MAX_N)
			h.u[k] = pu[i], h.v[k++] = pv[i];
	}
	lower = k + 1;
	for (i = n - 1; i-- > 0;)
	{
		while (k >= lower && (h.u[k - 1] - h.u[k - 2]) * (pv[i] - h.v[k - 2]) - (h.v[k - 1] - h.v[k - 2]) * (pu[i] - h.u[k - 2]) <= 0)
			k--;
		if (k < MAX_N)
			h.u[k] = pu[i], h.v[k++] = pv[i];
	}
	h.n = k > 1 ? k - 1 : k;	/* the last point repeats the first */
	*p = h;
}

/* Random polygons, some convex (hulls, rotated or reversed), some mutated, some random. */
static void
make_polygon(Lattice *p)
{
	long long	range = gx_test_int(0, 3) == 0 ? 3 : 20;
	size_t		i,
				a,
				b;
	long long	t;

	if (gx_test_int(0, 4) == 0)
	{
		p->n = (size_t) gx_test_int(3, MAX_N);
		for (i = 0; i < p->n; i++)
			p->u[i] = gx_test_int(-range, range), p->v[i] = gx_test_int(-range, range);
		return;
	}
	do
		hull_polygon(p, (size_t) gx_test_int(3, 40), range);
	while (p->n < 3);
	for (a = (size_t) gx_test_int(0, (long long) p->n - 1); a > 0; a--)	/* rotate the start */
	{
		p->u[p->n] = p->u[0], p->v[p->n] = p->v[0];
		memmove(p->u, p->u + 1, p->n * sizeof(p->u[0]));
		memmove(p->v, p->v + 1, p->n * sizeof(p->v[0]));
	}
	if (gx_test_int(0, 1))				/* reverse: clockwise */
		for (a = 0, b = p->n - 1; a < b; a++, b--)
		{
			t = p->u[a], p->u[a] = p->u[b], p->u[b] = t;
			t = p->v[a], p->v[a] = p->v[b], p->v[b] = t;
		}
	a = (size_t) gx_test_int(0, (long long) p->n - 1);
	b = (size_t) gx_test_int(0, (long long) p->n - 1);
	switch (gx_test_int(0, 5))
	{
		case 0:					/* swap two vertices */
			t = p->u[a], p->u[a] = p->u[b], p->u[b] = t;
			t = p->v[a], p->v[a] = p->v[b], p->v[b] = t;
			break;
		case 1:					/* a vertex repeated, or the midpoint of an edge inserted (collinear) */
			if (p->n < MAX_N)
			{
				if (gx_test_int(0, 1))
					for (i = 0; i < p->n; i++)
						p->u[i] *= 2, p->v[i] *= 2;
				memmove(p->u + a + 1, p->u + a, (p->n - a) * sizeof(p->u[0]));
				memmove(p->v + a + 1, p->v + a, (p->n - a) * sizeof(p->v[0]));
				p->n++;
				if (p->u[a] % 2 == 0 && p->v[a] % 2 == 0)	/* scaled: the midpoint is on the lattice */
				{
					p->u[a + 1] = (p->u[a] + p->u[(a + 2) % p->n]) / 2;
					p->v[a + 1] = (p->v[a] + p->v[(a + 2) % p->n]) / 2;
				}
			}
			break;
		case 2:					/* a vertex moved anywhere */
			p->u[a] = gx_test_int(-range, range), p->v[a] = gx_test_int(-range, range);
			break;
		default:				/* left convex */
			break;
	}
}

/* Lifts p onto w = a u + b v + c, perhaps one vertex off it; writes doubles under a permutation, scale, offset. */
static void
lift(Lattice *p, double (*out)[3])
{
	long long	a = gx_test_int(-5, 5),
				b = gx_test_int(-5, 5),
				c = gx_test_int(-100, 100);
	int			perm = (int) gx_test_int(0, 5);
	static const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	static const double scale_offset[5][2] = {{1, 0}, {1, 0x1p40}, {0x1p-30, 0x1p10}, {0x1p20, -0x1p20}, {0x1p-500, 0x1p-470}};
	int			k = (int) gx_test_int(0, 4);
	size_t		i;
	size_t		off = p->n >= 4 && gx_test_int(0, 3) == 0 ? (size_t) gx_test_int(0, (long long) p->n - 1) : SIZE_MAX;
	long long	uvw[3];

	for (i = 0; i < p->n; i++)
	{
		p->w[i] = a * p->u[i] + b * p->v[i] + c + (i == off ? (gx_test_int(0, 1) ? 1 : -1) : 0);
		uvw[0] = p->u[i], uvw[1] = p->v[i], uvw[2] = p->w[i];
		out[i][axes[perm][0]] = (double) uvw[0] * scale_offset[k][0] + scale_offset[k][1];
		out[i][axes[perm][1]] = (double) uvw[1] * scale_offset[k][0] + scale_offset[k][1];
		out[i][axes[perm][2]] = (double) uvw[2] * scale_offset[k][0] + scale_offset[k][1];
	}
}

static void
test_random(void)
{
	Lattice		p;
	double		v[MAX_N + 2][3];
	long		convex = 0,
				not_convex = 0,
				not_planar = 0,
				bad = 0;
	int			round;
	GxFaceShape want,
				got;
	size_t		at;

	for (round = 0; round < ROUNDS; round++)
	{
		memset(&p, 0, sizeof(p));
		make_polygon(&p);
		lift(&p, v);
		want = oracle(&p);
		at = SIZE_MAX;
		got = gx_face_shape((const double (*)[3]) v, p.n, &at);
		if (got != want || (got != GX_FACE_CONVEX && at >= p.n))
		{
			if (bad++ < 5)
				fprintf(stderr, "round %d: n %zu: shape %d, oracle %d, at %zu\n", round, p.n, (int) got, (int) want, at);
		}
		convex += want == GX_FACE_CONVEX;
		not_convex += want == GX_FACE_NOT_CONVEX;
		not_planar += want == GX_FACE_NOT_PLANAR;
	}
	CHECK_MSG(bad == 0, "%ld of %d polygons decided against the oracle", bad, ROUNDS);
	CHECK_MSG(convex > ROUNDS / 5 && not_convex > ROUNDS / 5 && not_planar > ROUNDS / 20,
			  "too few of a kind: %ld convex, %ld not convex, %ld not planar", convex, not_convex, not_planar);
}

/* Cases a floating-point test with a tolerance gets wrong, and shapes the random ones rarely make. */
static void
test_cases(void)
{
	const double t = 0x1p-60;
	const double big = 0x1p52;
	double		square[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
	double		tiny_turn[4][3] = {{0, 0, 0}, {1, 0, 0}, {2, t, 0}, {1, 1, 0}};
	double		flat_turn[4][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}};
	double		tiny_off[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, t}};
	double		far_square[4][3] = {{big, big, 1}, {big + 1, big, 1}, {big + 1, big + 1, 1}, {big, big + 1, 1}};
	double		far_off[4][3] = {{big, big, 1}, {big + 1, big, 1}, {big + 1, big + 1, 1}, {big, big + 1, 1 + 0x1p-52}};
	double		pentagram[5][3];
	double		tilted[6][3];
	size_t		at;
	int			i;

	CHECK(gx_face_shape((const double (*)[3]) square, 4, &at) == GX_FACE_CONVEX);
	CHECK(gx_face_shape((const double (*)[3]) tiny_turn, 4, &at) == GX_FACE_CONVEX);
	CHECK(gx_face_shape((const double (*)[3]) flat_turn, 4, &at) == GX_FACE_NOT_CONVEX && at == 1);
	CHECK(gx_face_shape((const double (*)[3]) tiny_off, 4, &at) == GX_FACE_NOT_PLANAR && at == 3);
	CHECK(gx_face_shape((const double (*)[3]) far_square, 4, &at) == GX_FACE_CONVEX);
	CHECK(gx_face_shape((const double (*)[3]) far_off, 4, &at) == GX_FACE_NOT_PLANAR && at == 3);
	/* every turn of a pentagram goes the same way, yet it winds twice */
	for (i = 0; i < 5; i++)
	{
		pentagram[i][0] = round(1000 * cos(4 * M_PI * i / 5));
		pentagram[i][1] = round(1000 * sin(4 * M_PI * i / 5));
		pentagram[i][2] = 7;
	}
	CHECK(gx_face_shape((const double (*)[3]) pentagram, 5, &at) == GX_FACE_NOT_CONVEX);
	/* a hexagon on the plane x + y + z = 1, whose vertical projection is the one-to-one one */
	for (i = 0; i < 6; i++)
	{
		tilted[i][0] = round(1000 * cos(2 * M_PI * i / 6));
		tilted[i][1] = round(1000 * sin(2 * M_PI * i / 6));
		tilted[i][2] = 1 - tilted[i][0] - tilted[i][1];
	}
	CHECK(gx_face_shape((const double (*)[3]) tilted, 6, &at) == GX_FACE_CONVEX);
	tilted[4][2] = nextafter(tilted[4][2], 0);
	CHECK(gx_face_shape((const double (*)[3]) tilted, 6, &at) == GX_FACE_NOT_PLANAR && at == 4);
}

int
main(void)
{
	test_random();
	test_cases();
	return gx_test_report("test_face");
}
