/*
 * test_triangulate.c: unit tests of gx_face_triangulate (polygon faces with holes) against independent
 * checks in integer arithmetic. Random polygons with holes on a lattice in (u, v): star-shaped rings (not
 * convex), combs, random rings (mostly self-crossing), with collinear runs and repeated vertices added,
 * lifted exactly onto a plane w = a u + b v + c (now and then one vertex off it) and written as doubles
 * under an axis permutation and an offset (UTM-sized among them). The oracle decides validity on the lattice
 * with another method (all pairs of edges, crossing counts). For an accepted polygon, the triangles must
 * use only input vertices (the very pointers), each of them at least once; have the orientation of the
 * outer ring; have interiors pairwise disjoint (separating axes); their doubled areas must sum to the
 * polygon's (shoelace, 128-bit); and sample points off every edge must be inside exactly one triangle when
 * inside the polygon, none otherwise. Then hand-made cases: a cube of six quads, a hole, UTM coordinates.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "gx_test.h"
#include "triangulate/gx_face.h"

#define MAX_RINGS	5
#define MAX_PTS		64
#define ROUNDS		6000

typedef __int128 wide;

typedef struct Poly
{
	long long	u[MAX_RINGS][MAX_PTS],
				v[MAX_RINGS][MAX_PTS];
	size_t		n[MAX_RINGS];
	size_t		nrings;
} Poly;

static wide
cross(long long au, long long av, long long bu, long long bv, long long cu, long long cv)
{
	return (wide) (bu - au) * (cv - av) - (wide) (bv - av) * (cu - au);
}

static int
sgn(wide x)
{
	return (x > 0) - (x < 0);
}

/* A star-shaped ring about (cu, cv): one vertex in each of k sectors, at a radius in [rmin, rmax]. */
static void
star(Poly *p, size_t r, long long cu, long long cv, double rmin, double rmax, size_t k)
{
	size_t		i;
	double		a,
				d;

	for (i = 0; i < k; i++)
	{
		a = 2 * M_PI * ((double) i + (double) gx_test_int(0, 1000) / 1001.0) / (double) k;
		d = rmin + (rmax - rmin) * (double) gx_test_int(0, 1000) / 1000.0;
		p->u[r][i] = cu + llround(d * cos(a));
		p->v[r][i] = cv + llround(d * sin(a));
	}
	p->n[r] = k;
}

/* A comb: teeth up from a base, the deepest non-convexity of simple polygons. */
static void
comb(Poly *p, size_t teeth)
{
	size_t		i,
				n = 0;

	p->u[0][n] = 0, p->v[0][n++] = 0;
	p->u[0][n] = 4 * (long long) teeth, p->v[0][n++] = 0;
	for (i = teeth; i-- > 0;)
	{
		p->u[0][n] = 4 * (long long) i + 3, p->v[0][n++] = 20 + gx_test_int(0, 5);
		p->u[0][n] = 4 * (long long) i + 2, p->v[0][n++] = 1 + gx_test_int(0, 3);
		p->u[0][n] = 4 * (long long) i + 1, p->v[0][n++] = 1 + gx_test_int(0, 3);
		p->u[0][n] = 4 * (long long) i, p->v[0][n++] = 20 + gx_test_int(0, 5);
	}
	p->n[0] = n - 1;			/* the last tooth's outer side ends at the start */
	p->nrings = 1;
}

/* Inserts midpoints of edges (collinear runs) and repeats of vertices into ring r, where room is left. */
static void
mutate(Poly *p, size_t r)
{
	size_t		i = (size_t) gx_test_int(0, (long long) p->n[r] - 1),
				j = (i + 1) % p->n[r],
				times = (size_t) gx_test_int(0, 3);

	while (times-- > 0 && p->n[r] + 1 < MAX_PTS)
	{
		memmove(&p->u[r][i + 1], &p->u[r][i], (p->n[r] - i) * sizeof(long long));
		memmove(&p->v[r][i + 1], &p->v[r][i], (p->n[r] - i) * sizeof(long long));
		p->n[r]++;
		j = j > i ? j + 1 : j;
		if (gx_test_int(0, 1) && (p->u[r][i] + p->u[r][j]) % 2 == 0 && (p->v[r][i] + p->v[r][j]) % 2 == 0)
		{
			p->u[r][i + 1] = (p->u[r][i] + p->u[r][j]) / 2;
			p->v[r][i + 1] = (p->v[r][i] + p->v[r][j]) / 2;
		}
	}
}

static void
make_polygon(Poly *p)
{
	size_t		h,
				r,
				i;

	memset(p, 0, sizeof(*p));
	switch (gx_test_int(0, 5))
	{
		case 0:
			comb(p, (size_t) gx_test_int(1, 12));
			break;
		case 1:
			p->nrings = (size_t) gx_test_int(1, 2);
			for (r = 0; r < p->nrings; r++)
			{
				p->n[r] = (size_t) gx_test_int(3, 9);
				for (i = 0; i < p->n[r]; i++)
					p->u[r][i] = gx_test_int(-6, 6), p->v[r][i] = gx_test_int(-6, 6);
			}
			break;
		default:
			star(p, 0, 0, 0, 60, 120, (size_t) gx_test_int(3, 40));
			p->nrings = 1 + (size_t) gx_test_int(0, MAX_RINGS - 1);
			for (h = 1; h < p->nrings; h++)	/* small stars about points in the kernel, rarely overlapping */
				star(p, h, gx_test_int(-30, 30), gx_test_int(-30, 30), 2, gx_test_int(3, 14),
					 (size_t) gx_test_int(3, 12));
			break;
	}
	for (r = 0; r < p->nrings; r++)
	{
		if (gx_test_int(0, 2) == 0)
			mutate(p, r);
		if (gx_test_int(0, 1))			/* either orientation */
			for (i = 0; i < p->n[r] / 2; i++)
			{
				long long	t = p->u[r][i];

				p->u[r][i] = p->u[r][p->n[r] - 1 - i], p->u[r][p->n[r] - 1 - i] = t;
				t = p->v[r][i];
				p->v[r][i] = p->v[r][p->n[r] - 1 - i], p->v[r][p->n[r] - 1 - i] = t;
			}
	}
}

/* The ring r less consecutive repeats, into u, v; returns its size. */
static size_t
distinct(const Poly *p, size_t r, long long *u, long long *v)
{
	size_t		i,
				n = 0;

	for (i = 0; i < p->n[r]; i++)
		if (n == 0 || u[n - 1] != p->u[r][i] || v[n - 1] != p->v[r][i])
			u[n] = p->u[r][i], v[n++] = p->v[r][i];
	while (n > 1 && u[n - 1] == u[0] && v[n - 1] == v[0])
		n--;
	return n;
}

static int
on_segment(long long pu, long long pv, long long au, long long av, long long bu, long long bv)
{
	return cross(au, av, bu, bv, pu, pv) == 0 && pu >= (au < bu ? au : bu) && pu <= (au < bu ? bu : au) &&
		pv >= (av < bv ? av : bv) && pv <= (av < bv ? bv : av);
}

static int
segments_meet(const long long *s, const long long *t)
{
	int			o1 = sgn(cross(s[0], s[1], s[2], s[3], t[0], t[1])),
				o2 = sgn(cross(s[0], s[1], s[2], s[3], t[2], t[3])),
				o3 = sgn(cross(t[0], t[1], t[2], t[3], s[0], s[1])),
				o4 = sgn(cross(t[0], t[1], t[2], t[3], s[2], s[3]));

	return (o1 * o2 < 0 && o3 * o4 < 0) || on_segment(t[0], t[1], s[0], s[1], s[2], s[3]) ||
		on_segment(t[2], t[3], s[0], s[1], s[2], s[3]) || on_segment(s[0], s[1], t[0], t[1], t[2], t[3]) ||
		on_segment(s[2], s[3], t[0], t[1], t[2], t[3]);
}

/* Even-odd: is (qu, qv) (scaled by 8 like the ring) inside the ring? The point is on no edge. */
static int
inside(const long long *u, const long long *v, size_t n, long long qu, long long qv)
{
	size_t		i;
	int			in = 0;

	for (i = 0; i < n; i++)
	{
		long long	au = 8 * u[i], av = 8 * v[i], bu = 8 * u[(i + 1) % n], bv = 8 * v[(i + 1) % n];

		if ((av > qv) != (bv > qv) && sgn(cross(au, av, bu, bv, qu, qv)) == (bv > av ? 1 : -1))
			in = !in;
	}
	return in;
}

/* The oracle on the lattice: 1 when the polygon is simple with its holes inside, 0 otherwise, 2 when all on one line. */
static int
oracle(const Poly *p, long long (*u)[MAX_PTS], long long (*v)[MAX_PTS], size_t *n)
{
	size_t		r,
				s,
				i,
				j;
	int			collinear = 1;
	long long	e[4],
				f[4];

	for (r = 0; r < p->nrings; r++)
		n[r] = distinct(p, r, u[r], v[r]);
	/* all on one line (or one point): every pair of points on a line with the first */
	for (r = 0; r < p->nrings; r++)
		for (i = 0; i < n[r]; i++)
			for (s = 0; s < p->nrings; s++)
				for (j = 0; j < n[s]; j++)
					collinear &= cross(u[0][0], v[0][0], u[r][i], v[r][i], u[s][j], v[s][j]) == 0;
	if (collinear)
		return p->nrings == 1 ? 2 : 0;
	for (r = 0; r < p->nrings; r++)
		if (n[r] < 3)
			return 0;
	for (r = 0; r < p->nrings; r++)
		for (i = 0; i < n[r]; i++)
			for (s = r; s < p->nrings; s++)
				for (j = s == r ? i + 1 : 0; j < n[s]; j++)
				{
					e[0] = u[r][i], e[1] = v[r][i], e[2] = u[r][(i + 1) % n[r]], e[3] = v[r][(i + 1) % n[r]];
					f[0] = u[s][j], f[1] = v[s][j], f[2] = u[s][(j + 1) % n[s]], f[3] = v[s][(j + 1) % n[s]];
					if (s == r && (j == i + 1 || (i == 0 && j == n[r] - 1)))
					{
						/* adjacent: only the shared vertex w, no spike back along the same line */
						long long	wu = j == i + 1 ? f[0] : e[0], wv = j == i + 1 ? f[1] : e[1];
						long long	xu = j == i + 1 ? e[0] : f[0], xv = j == i + 1 ? e[1] : f[1];
						long long	yu = j == i + 1 ? f[2] : e[2], yv = j == i + 1 ? f[3] : e[3];

						if (cross(xu, xv, wu, wv, yu, yv) == 0 &&
							(wide) (xu - wu) * (yu - wu) + (wide) (xv - wv) * (yv - wv) > 0)
							return 0;
					}
					else if (segments_meet(e, f))
						return 0;
				}
	for (r = 1; r < p->nrings; r++)
	{
		if (!inside(u[0], v[0], n[0], 8 * u[r][0], 8 * v[r][0]))
			return 0;
		for (s = 1; s < p->nrings; s++)
			if (s != r && inside(u[s], v[s], n[s], 8 * u[r][0], 8 * v[r][0]))
				return 0;
	}
	return 1;
}

static wide
ring_area2(const long long *u, const long long *v, size_t n)
{
	wide		a = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		a += (wide) u[i] * v[(i + 1) % n] - (wide) u[(i + 1) % n] * v[i];
	return a;
}

/* The lattice point of an output vertex: which input vertex the pointer is; 0 if it is none. */
static int
locate(const Poly *p, double (*const *pts)[3], const double *q, long long *u, long long *v)
{
	size_t		r;

	for (r = 0; r < p->nrings; r++)
		if (q >= pts[r][0] && q < pts[r][p->n[r]] && (q - pts[r][0]) % 3 == 0)
		{
			*u = p->u[r][(q - pts[r][0]) / 3];
			*v = p->v[r][(q - pts[r][0]) / 3];
			return 1;
		}
	return 0;
}

/* Whether the open interiors of the counter-clockwise lattice triangles a and b are disjoint (a separating side). */
static int
disjoint(const long long (*a)[2], const long long (*b)[2])
{
	const long long (*t[2])[2] = {a, b};
	int			s,
				k,
				j;

	for (s = 0; s < 2; s++)
		for (k = 0; k < 3; k++)
		{
			for (j = 0; j < 3; j++)
				if (cross(t[s][k][0], t[s][k][1], t[s][(k + 1) % 3][0], t[s][(k + 1) % 3][1], t[1 - s][j][0], t[1 - s][j][1]) > 0)
					break;
			if (j == 3)
				return 1;
		}
	return 0;
}

/* Checks an accepted triangulation; returns a reason for the first failure, or NULL. */
static const char *
check_triangles(const Poly *p, double (*const *pts)[3], const double **tri, size_t ntri,
				long long (*u)[MAX_PTS], long long (*v)[MAX_PTS], const size_t *n)
{
	static long long t[MAX_RINGS * MAX_PTS * 2][3][2];
	wide		want = 0,
				sum = 0,
				a;
	int			orient = sgn(ring_area2(u[0], v[0], n[0]));
	size_t		i,
				j,
				r,
				k,
				hits;
	long long	qu,
				qv,
				lo[2] = {LLONG_MAX, LLONG_MAX},
				hi[2] = {LLONG_MIN, LLONG_MIN};
	int			in,
				on;

	for (r = 0; r < p->nrings; r++)
		want += (r == 0 ? 1 : -1) * (ring_area2(u[r], v[r], n[r]) < 0 ? -ring_area2(u[r], v[r], n[r]) : ring_area2(u[r], v[r], n[r]));
	for (i = 0; i < ntri; i++)
	{
		for (k = 0; k < 3; k++)
			if (!locate(p, pts, tri[3 * i + k], &t[i][k][0], &t[i][k][1]))
				return "a vertex that is not an input vertex";
		a = cross(t[i][0][0], t[i][0][1], t[i][1][0], t[i][1][1], t[i][2][0], t[i][2][1]);
		if (sgn(a) != orient)
			return "a triangle degenerate or not in the outer ring's orientation";
		sum += a < 0 ? -a : a;
		if (orient < 0)			/* counter-clockwise for the checks below */
		{
			long long	s0 = t[i][1][0], s1 = t[i][1][1];

			t[i][1][0] = t[i][2][0], t[i][1][1] = t[i][2][1];
			t[i][2][0] = s0, t[i][2][1] = s1;
		}
	}
	if (sum != want)
		return "areas do not add up";
	for (i = 0; i < ntri; i++)
		for (j = i + 1; j < ntri; j++)
			if (!disjoint((const long long (*)[2]) t[i], (const long long (*)[2]) t[j]))
				return "two triangles overlap";
	for (r = 0; r < p->nrings; r++)
		for (i = 0; i < n[r]; i++)
		{
			for (j = 0; j < 3 * ntri; j++)
				if (t[j / 3][j % 3][0] == u[r][i] && t[j / 3][j % 3][1] == v[r][i])
					break;
			if (j == 3 * ntri)
				return "an input vertex unused";
			lo[0] = u[r][i] < lo[0] ? u[r][i] : lo[0], hi[0] = u[r][i] > hi[0] ? u[r][i] : hi[0];
			lo[1] = v[r][i] < lo[1] ? v[r][i] : lo[1], hi[1] = v[r][i] > hi[1] ? v[r][i] : hi[1];
		}
	/* samples at 1/8 steps shifted off the lattice; those on an edge are skipped */
	for (qu = 8 * lo[0] + 3; qu < 8 * hi[0]; qu += 8 * (hi[0] - lo[0]) / 29 + 5)
		for (qv = 8 * lo[1] + 1; qv < 8 * hi[1]; qv += 8 * (hi[1] - lo[1]) / 31 + 3)
		{
			on = 0;
			in = inside(u[0], v[0], n[0], qu, qv);
			for (r = 0; r < p->nrings; r++)
			{
				for (i = 0; i < n[r]; i++)
					on |= on_segment(qu, qv, 8 * u[r][i], 8 * v[r][i], 8 * u[r][(i + 1) % n[r]], 8 * v[r][(i + 1) % n[r]]);
				if (r > 0 && inside(u[r], v[r], n[r], qu, qv))
					in = 0;
			}
			hits = 0;
			for (i = 0; i < ntri && !on; i++)
			{
				int			s[3];

				for (k = 0; k < 3; k++)
					s[k] = sgn(cross(8 * t[i][k][0], 8 * t[i][k][1], 8 * t[i][(k + 1) % 3][0], 8 * t[i][(k + 1) % 3][1], qu, qv));
				on |= s[0] == 0 || s[1] == 0 || s[2] == 0;
				hits += s[0] > 0 && s[1] > 0 && s[2] > 0;
			}
			if (!on && hits != (size_t) in)
				return "a sample point covered wrongly";
		}
	return NULL;
}

/* Whether the vertices of p but (off_r, off_i) all lie on one line. */
static int
others_collinear(const Poly *p, size_t off_r, size_t off_i)
{
	long long	pt[2 * MAX_RINGS * MAX_PTS];
	size_t		r,
				i,
				m = 0,
				j;

	for (r = 0; r < p->nrings; r++)
		for (i = 0; i < p->n[r]; i++)
			if (r != off_r || i != off_i)
				pt[m++] = p->u[r][i], pt[m++] = p->v[r][i];
	for (i = 2; i < m; i += 2)
		for (j = i + 2; j < m; j += 2)
			if (cross(pt[0], pt[1], pt[i], pt[i + 1], pt[j], pt[j + 1]) != 0)
				return 0;
	return 1;
}

/*
 * Lifts the lattice polygon onto a plane into doubles; now and then one vertex off it (*off set) when the
 * others span the plane.
 */
static void
lift(const Poly *p, double (*const *pts)[3], int *off)
{
	long long	a = gx_test_int(-4, 4),
				b = gx_test_int(-4, 4),
				c = gx_test_int(-100, 100),
				w;
	int			perm = (int) gx_test_int(0, 5);
	static const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	static const double offsets[4][3] = {{0, 0, 0}, {500000, 7000000, 350}, {-0x1p40, 0x1p30, 1}, {0.5, 0.25, -0.125}};
	int			k = (int) gx_test_int(0, 3);
	size_t		r,
				i,
				off_r = (size_t) gx_test_int(0, (long long) p->nrings - 1),
				off_i = (size_t) gx_test_int(0, (long long) p->n[off_r] - 1);

	*off = gx_test_int(0, 5) == 0 && !others_collinear(p, off_r, off_i);
	for (r = 0; r < p->nrings; r++)
		for (i = 0; i < p->n[r]; i++)
		{
			w = a * p->u[r][i] + b * p->v[r][i] + c + (*off && r == off_r && i == off_i);
			pts[r][i][axes[perm][0]] = (double) p->u[r][i] + offsets[k][0];
			pts[r][i][axes[perm][1]] = (double) p->v[r][i] + offsets[k][1];
			pts[r][i][axes[perm][2]] = (double) w + offsets[k][2];
		}
}

static void
test_random(void)
{
	static double store[MAX_RINGS][MAX_PTS + 1][3];
	double		(*pts[MAX_RINGS])[3];
	long long	u[MAX_RINGS][MAX_PTS],
				v[MAX_RINGS][MAX_PTS];
	size_t		n[MAX_RINGS],
				ntri,
				r;
	GxFaceRing	ring[MAX_RINGS];
	Poly		p;
	const double **tri;
	char		msg[GX_FACE_MSG];
	int			round,
				want,
				off;
	long		counts[4] = {0},
				bad = 0,
				holes = 0;
	GxFaceResult got;
	const char *why;

	for (r = 0; r < MAX_RINGS; r++)
		pts[r] = store[r];
	for (round = 0; round < ROUNDS; round++)
	{
		make_polygon(&p);
		lift(&p, pts, &off);
		want = oracle(&p, u, v, n);
		if (off)
			want = 3;
		for (r = 0; r < p.nrings; r++)
			ring[r] = (GxFaceRing) {(const double (*)[3]) pts[r], p.n[r]};
		got = gx_face_triangulate(ring, p.nrings, &tri, &ntri, msg, sizeof(msg));
		why = NULL;
		if (got != (want == 1 || want == 2 ? GX_FACE_OK : GX_FACE_INVALID))
			why = "accepted or refused against the oracle";
		else if (want == 3 && strncmp(msg, "is not planar: ", 15) != 0)
			why = "refused, but not as not planar";
		else if (want == 0 && strncmp(msg, "is not simple: ", 15) != 0)
			why = "refused, but not as not simple";
		else if (want == 2 && ntri != p.n[0] - 2)
			why = "a polygon on one line not kept as its fan";
		else if (want == 1)
			why = check_triangles(&p, pts, tri, ntri, u, v, n);
		if (why != NULL && bad++ < 5)
			fprintf(stderr, "round %d: %zu rings, oracle %d, result %d (%s): %s\n", round, p.nrings, want, (int) got,
					got == GX_FACE_OK ? "" : msg, why);
		counts[want]++;
		holes += want == 1 && p.nrings > 1;
		gx_free(tri);
	}
	CHECK_MSG(bad == 0, "%ld of %d polygons wrong", bad, ROUNDS);
	CHECK_MSG(counts[0] > ROUNDS / 10 && counts[1] > ROUNDS / 3 && counts[3] > ROUNDS / 20 && holes > ROUNDS / 10,
			  "too few of a kind: %ld not simple, %ld simple (%ld with holes), %ld on a line, %ld not planar",
			  counts[0], counts[1], holes, counts[2], counts[3]);
}

/* Triangulates one ring (or rings) and returns the count of triangles, -1 when refused (message into msg). */
static long
triangulate(const GxFaceRing *ring, size_t nrings, char *msg)
{
	const double **tri;
	size_t		ntri;
	long		res;

	res = gx_face_triangulate(ring, nrings, &tri, &ntri, msg, GX_FACE_MSG) == GX_FACE_OK ? (long) ntri : -1;
	gx_free(tri);
	return res;
}

/* A cube of six quads, a square with a square hole at UTM coordinates, a hole touching the outer ring. */
static void
test_cases(void)
{
	static const double cube[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
	static const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
	double		q[4][3];
	double		outer[4][3] = {{500000, 7000000, 100}, {500010, 7000000, 100}, {500010, 7000010, 110}, {500000, 7000010, 110}};
	double		hole[4][3] = {{500002, 7000002, 102}, {500002, 7000008, 108}, {500008, 7000008, 108}, {500008, 7000002, 102}};
	double		touching[4][3] = {{500000, 7000002, 102}, {500002, 7000008, 108}, {500008, 7000008, 108}, {500008, 7000002, 102}};
	double		bowtie[4][3] = {{0, 0, 0}, {2, 2, 0}, {2, 0, 0}, {0, 2, 0}};
	double		line[5][3] = {{0, 0, 5}, {1, 1, 5}, {3, 3, 5}, {2, 2, 5}, {1, 1, 5}};
	GxFaceRing	rings[2];
	char		msg[GX_FACE_MSG];
	int			f,
				k;
	long		total = 0;

	for (f = 0; f < 6; f++)
	{
		for (k = 0; k < 4; k++)
			memcpy(q[k], cube[faces[f][k]], sizeof(q[k]));
		rings[0] = (GxFaceRing) {(const double (*)[3]) q, 4};
		total += triangulate(rings, 1, msg);
	}
	CHECK(total == 12);
	rings[0] = (GxFaceRing) {(const double (*)[3]) outer, 4};
	rings[1] = (GxFaceRing) {(const double (*)[3]) hole, 4};
	CHECK(triangulate(rings, 2, msg) == 8);
	outer[2][2] = nextafter(outer[2][2], 0);	/* one ulp off the plane */
	CHECK_MSG(triangulate(rings, 2, msg) == -1 && strcmp(msg, "is not planar: its point 3 of ring 1 (500010 7000010 109.99999999999999) is off the plane through its points 1, 2 and 4 of ring 1") == 0, "%s", msg);
	outer[2][2] = 110;
	rings[1] = (GxFaceRing) {(const double (*)[3]) touching, 4};
	CHECK(triangulate(rings, 2, msg) == -1 && strncmp(msg, "is not simple: its edge from point 4 of ring 1", 46) == 0);
	rings[0] = (GxFaceRing) {(const double (*)[3]) bowtie, 4};
	CHECK(triangulate(rings, 1, msg) == -1 && strncmp(msg, "is not simple: ", 15) == 0);
	rings[0] = (GxFaceRing) {(const double (*)[3]) line, 5};
	CHECK(triangulate(rings, 1, msg) == 3);
}

int
main(void)
{
	gx_test_seed(UINT64_C(0x2545F4914F6CDD1D));
	test_random();
	test_cases();
	return gx_test_report("test_triangulate");
}
