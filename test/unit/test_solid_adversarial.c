/*
 * test_solid_adversarial.c: solids (gx_solid.h, gx_intercepts.h) on shapes the voxel test does not make,
 * against an oracle of their own: unions of convex polytopes (octahedra, a random tetrahedron, a
 * tetrakis hexahedron) minus convex cavities, under exact transforms (a unimodular shear, axes permuted
 * and negated, an offset, a power-of-two scale per axis reaching the overflow and underflow ranges). A
 * point's place is decided from its signs against every face plane, computed with GMP rationals from the
 * coordinates (nothing of the library's predicates); a segment's pieces by exact Cyrus-Beck clipping.
 * Shapes: shells touching at a vertex, a cavity touching its outer shell at a vertex, a cavity all of
 * whose vertices lie on the outer shell. Points: vertices, edge midpoints, points one ulp off them,
 * random points; segments through vertices, along edges, in face planes; rational points of segments.
 * Each shell's orientation after gx_makesolid: the exact sign of its signed volume. And every error path
 * of gx_makesolid, the index and intercepts under an allocator that fails at each call in turn: whatever
 * was allocated is freed, and nothing is allocated inside a parallel region (gx_alloc is palloc there).
 * Cones whose triangles all fan out from an apex (every triangle's box reaching the axis): a double pyramid
 * of 200 000 triangles, and a pyramid of 10 000 whose base fans out from its centre, are solids; with a rim
 * vertex moved across the axis, or the lower apex moved out so that its fan pokes through the upper one,
 * they are not.
 */
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch.h"
#include "gx_test.h"
#include "operation/gx_intercepts.h"
#include "operation/gx_solid_make.h"

#define MAXV 16
#define MAXF 32
#define MAXP 4
#define MAXI 16


/* A convex polytope: vertices, triangular faces, a point strictly inside; a cavity or an outer piece. */
typedef struct Piece
{
	double		v[MAXV][3];
	int			nv;
	int			f[MAXF][3];
	int			nf;
	double		center[3];
	bool		cavity;
} Piece;

typedef struct Shape
{
	Piece		p[MAXP];
	int			np;
	const char *name;
} Shape;

/* ---- the oracle: exact determinants of rational points ---- */

typedef mpq_t QPoint[3];

static void
qpoint_init_d(QPoint q, const double *d)
{
	for (int k = 0; k < 3; k++)
	{
		mpq_init(q[k]);
		mpq_set_d(q[k], d[k]);
	}
}

static void
qpoint_clear(QPoint q)
{
	for (int k = 0; k < 3; k++)
		mpq_clear(q[k]);
}

/* a + t (b - a) */
static void
qpoint_on_segment(QPoint q, const double *a, const double *b, mpq_srcptr t)
{
	mpq_t		d;

	mpq_init(d);
	for (int k = 0; k < 3; k++)
	{
		mpq_init(q[k]);
		mpq_set_d(q[k], b[k]);
		mpq_set_d(d, a[k]);
		mpq_sub(q[k], q[k], d);
		mpq_mul(q[k], q[k], t);
		mpq_add(q[k], q[k], d);
	}
	mpq_clear(d);
}

/* det | a-d ; b-d ; c-d | with d rational */
static void
qdet(const double *a, const double *b, const double *c, QPoint d, mpq_t r)
{
	mpq_t		m[3][3],
				s,
				u;
	const double *row[3] = {a, b, c};

	mpq_inits(s, u, NULL);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++)
		{
			mpq_init(m[i][k]);
			mpq_set_d(m[i][k], row[i][k]);
			mpq_sub(m[i][k], m[i][k], d[k]);
		}
	mpq_set_ui(r, 0, 1);
	for (int k = 0; k < 3; k++)
	{
		int			k1 = (k + 1) % 3,
					k2 = (k + 2) % 3;

		mpq_mul(s, m[1][k1], m[2][k2]);
		mpq_mul(u, m[1][k2], m[2][k1]);
		mpq_sub(s, s, u);
		mpq_mul(s, s, m[0][k]);
		mpq_add(r, r, s);
	}
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++)
			mpq_clear(m[i][k]);
	mpq_clears(s, u, NULL);
}

static int
qorient(const double *a, const double *b, const double *c, QPoint d)
{
	mpq_t		r;
	int			sign;

	mpq_init(r);
	qdet(a, b, c, d, r);
	sign = mpq_sgn(r);
	mpq_clear(r);
	return sign;
}

/* The same determinant with d a double point. */
static void
qvalue(const double *a, const double *b, const double *c, const double *d, mpq_t r)
{
	QPoint		q;

	qpoint_init_d(q, d);
	qdet(a, b, c, q, r);
	qpoint_clear(q);
}

/* Sign of face f's plane at q, positive on the inner side. */
static int
inward(const Piece *p, int f, QPoint q)
{
	QPoint		c;
	int			s,
				in;

	qpoint_init_d(c, p->center);
	in = qorient(p->v[p->f[f][0]], p->v[p->f[f][1]], p->v[p->f[f][2]], c);
	s = qorient(p->v[p->f[f][0]], p->v[p->f[f][1]], p->v[p->f[f][2]], q);
	qpoint_clear(c);
	return s * in;
}

static GxLocation
piece_locate(const Piece *p, QPoint q)
{
	bool		zero = false;

	for (int f = 0; f < p->nf; f++)
	{
		int			s = inward(p, f, q);

		if (s < 0)
			return GX_LOC_OUTSIDE;
		zero |= s == 0;
	}
	return zero ? GX_LOC_BOUNDARY : GX_LOC_INSIDE;
}

/* The closed set: the outer pieces' union minus the cavities' interiors. */
static GxLocation
shape_locate(const Shape *sh, QPoint q)
{
	GxLocation	best = GX_LOC_OUTSIDE;

	for (int i = 0; i < sh->np; i++)
	{
		GxLocation	l = piece_locate(&sh->p[i], q);

		if (sh->p[i].cavity && l == GX_LOC_INSIDE)
			return GX_LOC_OUTSIDE;
		if (sh->p[i].cavity && l == GX_LOC_BOUNDARY)
			return GX_LOC_BOUNDARY;
	}
	for (int i = 0; i < sh->np; i++)
		if (!sh->p[i].cavity)
		{
			GxLocation	l = piece_locate(&sh->p[i], q);

			if (l == GX_LOC_INSIDE)
				return GX_LOC_INSIDE;
			if (l == GX_LOC_BOUNDARY)
				best = GX_LOC_BOUNDARY;
		}
	return best;
}

static GxLocation
shape_locate_d(const Shape *sh, const double *p)
{
	QPoint		q;
	GxLocation	l;

	qpoint_init_d(q, p);
	l = shape_locate(sh, q);
	qpoint_clear(q);
	return l;
}

/* Closed intervals of t in [0, 1]. */
typedef struct QIntervals
{
	mpq_t		lo[MAXI],
				hi[MAXI];
	int			n;
} QIntervals;

static void
qi_init(QIntervals *s)
{
	for (int i = 0; i < MAXI; i++)
		mpq_inits(s->lo[i], s->hi[i], NULL);
	s->n = 0;
}

static void
qi_clear(QIntervals *s)
{
	for (int i = 0; i < MAXI; i++)
		mpq_clears(s->lo[i], s->hi[i], NULL);
}

static void
qi_add(QIntervals *s, mpq_srcptr lo, mpq_srcptr hi)
{
	if (mpq_cmp(lo, hi) > 0 || s->n == MAXI)
		return;
	mpq_set(s->lo[s->n], lo);
	mpq_set(s->hi[s->n], hi);
	s->n++;
}

/* Exact Cyrus-Beck: [lo, hi] of the segment in the closed piece; false when empty. */
static bool
clip(const Piece *p, const double *a, const double *b, mpq_t lo, mpq_t hi)
{
	mpq_t		va,
				vb,
				t;
	bool		empty = false;

	mpq_inits(va, vb, t, NULL);
	mpq_set_ui(lo, 0, 1);
	mpq_set_ui(hi, 1, 1);
	for (int f = 0; f < p->nf && !empty; f++)
	{
		const double *x = p->v[p->f[f][0]],
				   *y = p->v[p->f[f][1]],
				   *z = p->v[p->f[f][2]];
		QPoint		c;
		int			in;

		qpoint_init_d(c, p->center);
		in = qorient(x, y, z, c);
		qpoint_clear(c);
		qvalue(x, y, z, a, va);
		qvalue(x, y, z, b, vb);
		if (in < 0)
		{
			mpq_neg(va, va);
			mpq_neg(vb, vb);
		}
		if (mpq_sgn(va) < 0 && mpq_sgn(vb) < 0)
			empty = true;
		else if (mpq_sgn(va) < 0 || mpq_sgn(vb) < 0)
		{
			mpq_sub(t, va, vb);
			mpq_div(t, va, t);
			if (mpq_sgn(va) < 0 && mpq_cmp(t, lo) > 0)
				mpq_set(lo, t);
			if (mpq_sgn(vb) < 0 && mpq_cmp(t, hi) < 0)
				mpq_set(hi, t);
		}
	}
	empty |= mpq_cmp(lo, hi) > 0;
	mpq_clears(va, vb, t, NULL);
	return !empty;
}

/* Sorted and merged (intervals that share a point become one). */
static void
qi_normalize(QIntervals *s)
{
	int			order[MAXI],
				m = 0;
	QIntervals	t;

	qi_init(&t);
	for (int i = 0; i < s->n; i++)
		order[i] = i;
	for (int i = 1; i < s->n; i++)
		for (int j = i; j > 0 && mpq_cmp(s->lo[order[j]], s->lo[order[j - 1]]) < 0; j--)
		{
			int			x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (int i = 0; i < s->n; i++)
	{
		int			k = order[i];

		if (m > 0 && mpq_cmp(s->lo[k], t.hi[m - 1]) <= 0)
		{
			if (mpq_cmp(s->hi[k], t.hi[m - 1]) > 0)
				mpq_set(t.hi[m - 1], s->hi[k]);
		}
		else
		{
			mpq_set(t.lo[m], s->lo[k]);
			mpq_set(t.hi[m], s->hi[k]);
			m++;
		}
	}
	for (int i = 0; i < m; i++)
	{
		mpq_set(s->lo[i], t.lo[i]);
		mpq_set(s->hi[i], t.hi[i]);
	}
	s->n = m;
	qi_clear(&t);
}

static bool
interior_at(const Piece *p, const double *a, const double *b, mpq_srcptr t)
{
	QPoint		q;
	bool		in;

	qpoint_on_segment(q, a, b, t);
	in = piece_locate(p, q) == GX_LOC_INSIDE;
	qpoint_clear(q);
	return in;
}

/* The segment's pieces in the shape. */
static void
shape_segment(const Shape *sh, const double *a, const double *b, QIntervals *out)
{
	mpq_t		lo,
				hi,
				mid;

	mpq_inits(lo, hi, mid, NULL);
	qi_init(out);
	for (int i = 0; i < sh->np; i++)
		if (!sh->p[i].cavity && clip(&sh->p[i], a, b, lo, hi))
			qi_add(out, lo, hi);
	qi_normalize(out);
	for (int i = 0; i < sh->np; i++)
		if (sh->p[i].cavity && clip(&sh->p[i], a, b, lo, hi))
		{
			QPoint		q;
			QIntervals	rest;

			/* the cavity's open interior along the segment: (lo, hi) when its midpoint is interior */
			mpq_add(mid, lo, hi);
			mpq_div_2exp(mid, mid, 1);
			qpoint_on_segment(q, a, b, mid);
			if (piece_locate(&sh->p[i], q) == GX_LOC_INSIDE)
			{
				/* an end of the segment strictly inside the cavity is removed with it */
				bool		lo_open = !interior_at(&sh->p[i], a, b, lo),
							hi_open = !interior_at(&sh->p[i], a, b, hi);

				qi_init(&rest);
				for (int k = 0; k < out->n; k++)
				{
					/* [l, h] minus the cavity's part of the segment */
					int			cl = mpq_cmp(out->lo[k], lo),
								ch = mpq_cmp(out->hi[k], hi);

					if (cl < 0 || (cl == 0 && lo_open))
						qi_add(&rest, out->lo[k], mpq_cmp(out->hi[k], lo) < 0 ? out->hi[k] : lo);
					if (ch > 0 || (ch == 0 && hi_open))
						qi_add(&rest, mpq_cmp(out->lo[k], hi) > 0 ? out->lo[k] : hi, out->hi[k]);
				}
				qi_normalize(&rest);
				out->n = rest.n;
				for (int k = 0; k < rest.n; k++)
				{
					mpq_set(out->lo[k], rest.lo[k]);
					mpq_set(out->hi[k], rest.hi[k]);
				}
				qi_clear(&rest);
			}
			qpoint_clear(q);
		}
	mpq_clears(lo, hi, mid, NULL);
}

/* ---- shapes ---- */

static void
octahedron(Piece *p, const double *c, const double *r)
{
	memset(p, 0, sizeof(*p));
	p->nv = 6;
	for (int k = 0; k < 6; k++)
	{
		memcpy(p->v[k], c, 3 * sizeof(double));
		p->v[k][k / 2] += k % 2 ? -r[k] : r[k];
	}
	for (int sx = 0; sx < 2; sx++)
		for (int sy = 2; sy < 4; sy++)
			for (int sz = 4; sz < 6; sz++)
			{
				p->f[p->nf][0] = sx;
				p->f[p->nf][1] = sy;
				p->f[p->nf][2] = sz;
				p->nf++;
			}
	memcpy(p->center, c, 3 * sizeof(double));
}

/* A multiple of 1/256 in [lo, hi). */
static double
dyadic(double lo, double hi)
{
	return lo + gx_test_below((unsigned) ((hi - lo) * 256)) / 256.0;
}

static void
random_octahedron(Piece *p, const double *c)
{
	double		r[6];

	for (int k = 0; k < 6; k++)
		r[k] = dyadic(1, 24);
	octahedron(p, c, r);
}

/* Cube [0, 4]^3 with a pyramid of height 1 on each face (convex), 14 vertices, 24 faces. */
static void
tetrakis(Piece *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 3; k++)
			p->v[i][k] = (i >> k) & 1 ? 4 : 0;
	p->nv = 8;
	for (int a = 0; a < 3; a++)
		for (int s = 0; s < 2; s++)
		{
			int			u = (a + 1) % 3,
						w = (a + 2) % 3,
						apex = p->nv++,
						corner[4];
			static const int cu[4] = {0, 1, 1, 0},
						cw[4] = {0, 0, 1, 1};

			p->v[apex][a] = s ? 5 : -1;
			p->v[apex][u] = p->v[apex][w] = 2;
			for (int j = 0; j < 4; j++)
				corner[j] = (s << a) | (cu[j] << u) | (cw[j] << w);
			for (int j = 0; j < 4; j++)
			{
				p->f[p->nf][0] = apex;
				p->f[p->nf][1] = corner[j];
				p->f[p->nf][2] = corner[(j + 1) % 4];
				p->nf++;
			}
		}
	p->center[0] = p->center[1] = p->center[2] = 2;
}

/* The tetrahedron of alternate cube corners (0,0,0), (4,4,0), (4,0,4), (0,4,4). */
static void
inscribed_tetrahedron(Piece *p)
{
	static const int corner[4] = {0, 3, 5, 6};

	memset(p, 0, sizeof(*p));
	p->nv = 4;
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 3; k++)
			p->v[i][k] = (corner[i] >> k) & 1 ? 4 : 0;
	for (int f = 0; f < 4; f++)
		for (int j = 0, m = 0; j < 4; j++)
			if (j != f)
				p->f[f][m++] = j;
	p->nf = 4;
	p->center[0] = p->center[1] = p->center[2] = 2;
	p->cavity = true;
}

/* Exact: a unimodular shear, axes permuted and negated, a power-of-two scale per axis, an offset. */
typedef struct Transform
{
	int			perm[3],
				neg[3],
				shear;
	int			exp[3];
	double		offset[3];
} Transform;

static void
apply(const Transform *t, double *x)
{
	double		y[3],
				z[3];

	for (int k = 0; k < 3; k++)
		y[k] = t->neg[k] ? -x[t->perm[k]] : x[t->perm[k]];
	/* [1 1 0; 0 1 1; 0 0 1] */
	z[0] = t->shear ? y[0] + y[1] : y[0];
	z[1] = t->shear ? y[1] + y[2] : y[1];
	z[2] = y[2];
	for (int k = 0; k < 3; k++)
		x[k] = ldexp(z[k] + t->offset[k], t->exp[k]);
}

static void
transform_shape(Shape *sh, const Transform *t)
{
	for (int i = 0; i < sh->np; i++)
	{
		for (int v = 0; v < sh->p[i].nv; v++)
			apply(t, sh->p[i].v[v]);
		apply(t, sh->p[i].center);
	}
}

static void
random_transform(Transform *t, int exp_lo, int exp_hi, bool mixed)
{
	static const double offsets[4][3] = {{0, 0, 0}, {500000.25, 7000000.5, 250}, {-3.5, 1e6, -2e6},
	{1e6, -1e6, 4194304}};
	int			o = gx_test_below(4),
				e = exp_lo + (int) gx_test_below((unsigned) (exp_hi - exp_lo + 1));

	for (int k = 0; k < 3; k++)
		t->perm[k] = k;
	for (int k = 2; k > 0; k--)
	{
		int			j = gx_test_below(k + 1),
					x = t->perm[k];

		t->perm[k] = t->perm[j];
		t->perm[j] = x;
	}
	for (int k = 0; k < 3; k++)
	{
		t->neg[k] = gx_test_below(2);
		t->exp[k] = mixed ? (gx_test_below(2) ? exp_lo : exp_hi) : e;
		t->offset[k] = offsets[o][k];
	}
	t->shear = gx_test_below(2);
}

/* The shape's faces as a TIN, faces and their vertices in random order. */
static GxSerialized *
shape_tin(const Shape *sh, size_t *ntri)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size,
				n = 0,
				order[MAXP * MAXF];

	for (int i = 0; i < sh->np; i++)
		for (int f = 0; f < sh->p[i].nf; f++)
			order[n++] = (size_t) i * MAXF + f;
	for (size_t k = n - 1; k > 0; k--)
	{
		size_t		j = gx_test_below((unsigned) k + 1),
					x = order[k];

		order[k] = order[j];
		order[j] = x;
	}
	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	for (size_t k = 0; k < n; k++)
	{
		const Piece *p = &sh->p[order[k] / MAXF];
		const int  *f = p->f[order[k] % MAXF];
		int			r = gx_test_below(3),
					flip = gx_test_below(2);

		for (int j = 0; j < 3; j++)
		{
			const double *v = p->v[f[flip ? (r + 3 - j) % 3 : (r + j) % 3]];

			gx_builder_coord(&b, v[0], v[1], v[2]);
		}
	}
	gx_builder_end(&b, node, (uint32_t) n);
	*ntri = n;
	return gx_builder_finish(&b, 0, &size);
}

/* The piece whose face has the vertices of triangle t, or -1. */
static int
piece_of(const Shape *sh, const double *t)
{
	for (int i = 0; i < sh->np; i++)
		for (int f = 0; f < sh->p[i].nf; f++)
		{
			int			hits = 0;

			for (int j = 0; j < 3; j++)
				for (int m = 0; m < 3; m++)
					hits += memcmp(t + 3 * j, sh->p[i].v[sh->p[i].f[f][m]], 3 * sizeof(double)) == 0;
			if (hits == 3)
				return i;
		}
	return -1;
}

/* Each shell of the solid faces outward (exact signed volume > 0), each cavity inward. */
static void
check_orientation(const Shape *sh, const GxSerialized *solid)
{
	size_t		n;
	const double *tri = gx_solid_triangles(solid, &n);
	mpq_t		vol[MAXP],
				v;

	mpq_init(v);
	for (int i = 0; i < sh->np; i++)
		mpq_init(vol[i]);
	/* about the first vertex */
	for (size_t t = 0; t < n; t++)
	{
		int			i = piece_of(sh, tri + 9 * t);

		CHECK_MSG(i >= 0, "%s: triangle %zu of the solid is no face of the shape", sh->name, t);
		if (i < 0)
			continue;
		qvalue(tri + 9 * t, tri + 9 * t + 3, tri + 9 * t + 6, tri, v);
		mpq_add(vol[i], vol[i], v);
	}
	for (int i = 0; i < sh->np; i++)
	{
		CHECK_MSG(mpq_sgn(vol[i]) == (sh->p[i].cavity ? -1 : 1), "%s: shell %d (%s) oriented %s", sh->name, i,
				  sh->p[i].cavity ? "a cavity" : "outer", mpq_sgn(vol[i]) > 0 ? "outward" : "inward");
		mpq_clear(vol[i]);
	}
	mpq_clear(v);
}

/* ---- checks ---- */

static const char *
loc_name(GxLocation l)
{
	return l == GX_LOC_INSIDE ? "inside" : l == GX_LOC_BOUNDARY ? "boundary" : l == GX_LOC_OUTSIDE ? "outside" : "failed";
}

static void
check_point(const Shape *sh, const GxSolidIndex *idx, const double *p, const char *what)
{
	GxLocation	want = shape_locate_d(sh, p),
				got = gx_solid_locate(idx, p);

	CHECK_MSG(got == want, "%s: %s (%.17g %.17g %.17g): located %s, oracle %s", sh->name, what, p[0], p[1], p[2],
			  loc_name(got), loc_name(want));
}

/* A rational point a + t (b - a) off the surface. */
static void
check_rational(const Shape *sh, const GxSolidIndex *idx, const double *a, const double *b, mpq_srcptr t)
{
	QPoint		q;
	GxLocation	want,
				got;

	qpoint_on_segment(q, a, b, t);
	want = shape_locate(sh, q);
	qpoint_clear(q);
	if (want == GX_LOC_BOUNDARY)
		return;
	got = gx_solid_locate_off_boundary(idx, a, b, t);
	CHECK_MSG(got == want, "%s: (%.17g %.17g %.17g) + %s * ((%.17g %.17g %.17g) - it): located %s, oracle %s",
			  sh->name, a[0], a[1], a[2], mpq_get_str(NULL, 10, t), b[0], b[1], b[2], loc_name(got), loc_name(want));
}

static void
check_segment(const Shape *sh, const GxSolidIndex *idx, const double *a, const double *b)
{
	QIntervals	want;
	GxInterval *iv = NULL;
	size_t		n = 0;
	GxError		err = {GX_OK, ""};
	double		line[6],
				dx = b[0] - a[0],
				dy = b[1] - a[1],
				dz = b[2] - a[2],
				len = hypot(hypot(dx, dy), dz),	/* neither overflows nor underflows */
				tol = 8 * 2.220446049250313e-16 * len + 8 * DBL_TRUE_MIN;	/* subnormal lengths round absolutely */
	bool		same;

	memcpy(line, a, 3 * sizeof(double));
	memcpy(line + 3, b, 3 * sizeof(double));
	shape_segment(sh, a, b, &want);
	same = gx_intercepts(idx, line, 2, &iv, &n, &err) && n == (size_t) want.n;
	for (int k = 0; same && k < want.n; k++)
		same = fabs(iv[k].from - mpq_get_d(want.lo[k]) * len) <= tol &&
			fabs(iv[k].to - mpq_get_d(want.hi[k]) * len) <= tol &&
			(mpq_cmp(want.lo[k], want.hi[k]) != 0 || iv[k].from == iv[k].to);
	CHECK_MSG(same, "%s: segment (%.17g %.17g %.17g)-(%.17g %.17g %.17g): %zu intervals, oracle %d (%s)", sh->name,
			  a[0], a[1], a[2], b[0], b[1], b[2], n, want.n, err.msg);
	if (!same && getenv("GX_DEBUG"))
	{
		for (size_t k = 0; k < n; k++)
			fprintf(stderr, "  got [%.17g, %.17g]\n", iv[k].from, iv[k].to);
		for (int k = 0; k < want.n; k++)
			fprintf(stderr, "  want [%.17g, %.17g] of %.17g\n", mpq_get_d(want.lo[k]) * len, mpq_get_d(want.hi[k]) * len, len);
	}
	gx_free(iv);
	qi_clear(&want);
}

/*
 * A polyline: each segment's pieces by the oracle, in metres from the first vertex; a piece reaching a
 * vertex joins the next segment's piece that starts there.
 */
static void
check_polyline(const Shape *sh, const GxSolidIndex *idx, const double *pts, int npts)
{
	GxInterval	want[4 * MAXI],
			   *iv = NULL;
	size_t		n = 0,
				nwant = 0;
	double		c0 = 0,
				tol = 0;
	bool		open = false,
				same;
	GxError		err = {GX_OK, ""};

	for (int i = 0; i + 1 < npts; i++)
	{
		const double *a = pts + 3 * i,
				   *b = a + 3;
		double		len = hypot(hypot(b[0] - a[0], b[1] - a[1]), b[2] - a[2]);
		QIntervals	q;

		shape_segment(sh, a, b, &q);
		for (int k = 0; k < q.n && nwant < 4 * MAXI; k++)
		{
			double		from = c0 + mpq_get_d(q.lo[k]) * len,
						to = c0 + mpq_get_d(q.hi[k]) * len;

			if (open && mpq_sgn(q.lo[k]) == 0)
				want[nwant - 1].to = to;
			else
				want[nwant++] = (GxInterval) {.from = from, .to = to};
			open = mpq_cmp_ui(q.hi[k], 1, 1) == 0;
		}
		if (q.n == 0)
			open = false;
		c0 += len;
		qi_clear(&q);
	}
	tol = 16 * 2.220446049250313e-16 * c0 + 16 * DBL_TRUE_MIN;
	same = gx_intercepts(idx, pts, (size_t) npts, &iv, &n, &err) && n == nwant;
	for (size_t k = 0; same && k < n; k++)
		same = fabs(iv[k].from - want[k].from) <= tol && fabs(iv[k].to - want[k].to) <= tol;
	CHECK_MSG(same, "%s: polyline of %d points from (%.17g %.17g %.17g): %zu intervals, oracle %zu (%s)", sh->name,
			  npts, pts[0], pts[1], pts[2], n, nwant, err.msg);
	gx_free(iv);
}

/* A point near p: one ulp off in each coordinate, each way at random (or not at all). */
static void
nudge(const double *p, double *q)
{
	for (int k = 0; k < 3; k++)
	{
		int			r = gx_test_below(3);

		q[k] = r == 0 ? p[k] : nextafter(p[k], r == 1 ? INFINITY : -INFINITY);
	}
}

static void
midpoint(const double *a, const double *b, double *m)
{
	for (int k = 0; k < 3; k++)
		m[k] = a[k] / 2 + b[k] / 2;
}

/* Some vertex, or an edge's midpoint (exact for these shapes unless deep in the subnormals), of the shape. */
static void
special_point(const Shape *sh, double *p)
{
	const Piece *pc = &sh->p[gx_test_below(sh->np)];
	const int  *f = pc->f[gx_test_below(pc->nf)];
	int			j = gx_test_below(3);

	switch (gx_test_below(3))
	{
		case 0:
			memcpy(p, pc->v[f[j]], 3 * sizeof(double));
			break;
		case 1:
			midpoint(pc->v[f[j]], pc->v[f[(j + 1) % 3]], p);
			break;
		default:
			/* across the piece: a vertex and the midpoint of its opposite edge */
			{
				double		m[3];

				midpoint(pc->v[f[(j + 1) % 3]], pc->v[f[(j + 2) % 3]], m);
				midpoint(pc->v[f[j]], m, p);
			}
	}
}

static void
random_point(const GxSerialized *solid, double *p)
{
	const GxBox3D *b = &solid->box;
	double		lo[3] = {b->xmin, b->ymin, b->zmin},
				hi[3] = {b->xmax, b->ymax, b->zmax};

	for (int k = 0; k < 3; k++)
	{
		double		u = gx_test_below(1 << 20) / (double) (1 << 20) * 1.2 - 0.1;

		p[k] = lo[k] * (1 - u) + hi[k] * u;
		if (!isfinite(p[k]))
			p[k] = lo[k] / 2 + hi[k] / 2;
	}
}

static void
any_point(const Shape *sh, const GxSerialized *solid, double *p)
{
	double		q[3];

	switch (gx_test_below(3))
	{
		case 0:
			random_point(solid, p);
			break;
		case 1:
			special_point(sh, p);
			break;
		default:
			special_point(sh, q);
			nudge(q, p);
	}
}

/* The solid of the shape must be made; then every check, rounds times. */
static void
check_shape(Shape *sh, int rounds)
{
	size_t		ntri,
				size;
	GxError		err = {GX_OK, ""};
	GxSerialized *tin = shape_tin(sh, &ntri),
			   *solid = tin ? gx_solid_from(tin, NULL, &size, &err) : NULL;
	GxSolidIndex idx;
	size_t		n;
	const double *tri;

	CHECK_MSG(solid != NULL, "%s: gx_makesolid refused it: %s", sh->name, err.msg);
	gx_free(tin);
	if (solid == NULL)
		return;
	check_orientation(sh, solid);
	tri = gx_solid_triangles(solid, &n);
	CHECK(n == ntri);
	CHECK(gx_solid_index_build(&idx, tri, n, &err));
	for (int r = 0; r < rounds; r++)
	{
		double		a[3],
					b[3];
		mpq_t		t;

		any_point(sh, solid, a);
		check_point(sh, &idx, a, "point");
		any_point(sh, solid, b);
		if (gx_test_below(8) == 0)
			memcpy(b, a, sizeof(b));	/* zero length */
		check_segment(sh, &idx, a, b);
		mpq_init(t);
		mpq_set_ui(t, 1 + gx_test_below(1000), 1001);
		mpq_canonicalize(t);
		check_rational(sh, &idx, a, b, t);
		mpq_clear(t);
		if (r % 4 == 0)
		{
			/* there and back, then on: the line revisits its first vertex */
			double		line[12];

			memcpy(line, a, sizeof(a));
			memcpy(line + 3, b, sizeof(b));
			memcpy(line + 6, a, sizeof(a));
			any_point(sh, solid, line + 9);
			check_polyline(sh, &idx, line, 4);
		}
	}
	gx_solid_index_free(&idx);
	gx_free(solid);
}

/* ---- shapes under transforms ---- */

static void
shape_octahedron(Shape *sh)
{
	double		c[3] = {0, 0, 0};

	sh->np = 1;
	sh->name = "octahedron";
	random_octahedron(&sh->p[0], c);
}

/* Two octahedra touching at a vertex. */
static void
shape_touching(Shape *sh)
{
	double		c[3] = {0, 0, 0},
				r[6],
				c2[3] = {0, 0, 0};

	sh->np = 2;
	sh->name = "two octahedra touching at a vertex";
	random_octahedron(&sh->p[0], c);
	for (int k = 0; k < 6; k++)
		r[k] = dyadic(1, 24);
	c2[0] = sh->p[0].v[0][0] + r[1];
	octahedron(&sh->p[1], c2, r);
}

/* An octahedron with an octahedral cavity half its size, or one touching it at a vertex. */
static void
shape_cavity(Shape *sh, bool touching)
{
	double		c[3] = {0, 0, 0},
				r[6],
				ci[3] = {0, 0, 0};

	sh->np = 2;
	sh->name = touching ? "cavity touching the outer shell at a vertex" : "octahedral cavity";
	random_octahedron(&sh->p[0], c);
	for (int k = 0; k < 6; k++)
		r[k] = sh->p[0].v[k][k / 2] * (k % 2 ? -0.5 : 0.5);
	if (touching)
	{
		/* the inner +x vertex is the outer one; the rest well inside */
		ci[0] = r[0];
		r[1] = r[0];
		for (int k = 2; k < 6; k++)
			r[k] /= 2;
	}
	octahedron(&sh->p[1], ci, r);
	sh->p[1].cavity = true;
}

/* A cavity all of whose vertices are vertices of the outer shell (its edges inside the volume). */
static void
shape_inscribed(Shape *sh)
{
	sh->np = 2;
	sh->name = "tetrakis hexahedron less its inscribed tetrahedron";
	tetrakis(&sh->p[0]);
	inscribed_tetrahedron(&sh->p[1]);
}

/* A tetrahedron of random doubles (all 53 bits) near the origin. */
static void
shape_tetrahedron(Shape *sh)
{
	Piece	   *p = &sh->p[0];

	sh->np = 1;
	sh->name = "random tetrahedron";
	memset(p, 0, sizeof(*p));
	for (;;)
	{
		double		o;

		for (int i = 0; i < 4; i++)
			for (int k = 0; k < 3; k++)
				p->v[i][k] = (i == k + 1 ? 10 : 0) + (gx_test_below(1u << 30) / 1073741824.0 +
												 gx_test_below(1u << 23) / 9007199254740992.0);
		for (int k = 0; k < 3; k++)
			p->center[k] = (p->v[0][k] + p->v[1][k] + p->v[2][k] + p->v[3][k]) / 4;
		o = 0;
		{
			QPoint		c;

			qpoint_init_d(c, p->center);
			o = qorient(p->v[1], p->v[2], p->v[3], c) * qorient(p->v[0], p->v[2], p->v[3], c);
			qpoint_clear(c);
		}
		if (o != 0)
			break;
	}
	p->nv = 4;
	for (int f = 0; f < 4; f++)
		for (int j = 0, m = 0; j < 4; j++)
			if (j != f)
				p->f[f][m++] = j;
	p->nf = 4;
}

typedef void (*MakeShape) (Shape *sh);

static void
make_cavity(Shape *sh)
{
	shape_cavity(sh, false);
}

static void
make_touching_cavity(Shape *sh)
{
	shape_cavity(sh, true);
}

static void
run(const char *scale, MakeShape make, int count, int exp_lo, int exp_hi, bool mixed, int rounds)
{
	for (int i = 0; i < count; i++)
	{
		Shape		sh;
		Transform	t;
		char		name[160];

		make(&sh);
		random_transform(&t, exp_lo, exp_hi, mixed);
		if (make == shape_tetrahedron)
			t.shear = 0;	/* its doubles use all their bits: the shear would round */
		transform_shape(&sh, &t);
		snprintf(name, sizeof(name), "%s, %s (scale 2^%d 2^%d 2^%d)", sh.name, scale, t.exp[0], t.exp[1], t.exp[2]);
		sh.name = name;
		check_shape(&sh, rounds);
	}
}

/* ---- allocation failures ---- */

static long live,
			calls,
			fail_at,
			in_parallel;

static void *
counting_alloc(size_t n)
{
	void	   *p;

	in_parallel += omp_in_parallel();
	if (++calls == fail_at)
		return NULL;
	p = malloc(n);
	live += p != NULL;
	return p;
}

static void *
counting_realloc(void *p, size_t n)
{
	void	   *q;

	in_parallel += omp_in_parallel();
	if (++calls == fail_at)
		return NULL;
	q = realloc(p, n);
	live += q != NULL && p == NULL;
	return q;
}

static void
counting_free(void *p)
{
	live--;
	free(p);
}

/* One run of gx_makesolid, the index and intercepts; true when all of it succeeded. */
static bool
solid_calls(const GxSerialized *tin, const GxBatchOptions *opt, GxError *err)
{
	size_t		size,
				n,
				niv;
	GxSerialized *solid = gx_solid_from(tin, opt, &size, err);
	GxSolidIndex idx;
	GxInterval *iv;
	bool		ok;
	const double *tri;
	double		line[9] = {-1, 0.5, 0.5, 9, 0.5, 0.5, 0.5, 0.5, 9};

	if (solid == NULL)
		return false;
	tri = gx_solid_triangles(solid, &n);
	ok = gx_solid_index_build(&idx, tri, n, err);
	if (ok)
	{
		ok = gx_intercepts(&idx, line, 3, &iv, &niv, err);
		if (ok)
			gx_free(iv);
		gx_solid_index_free(&idx);
	}
	gx_free(solid);
	return ok;
}

static void
check_allocation_failures(void)
{
	static const GxAllocator counting = {counting_alloc, counting_realloc, counting_free, NULL},
				plain = {malloc, realloc, free, NULL};
	Shape		sh;
	size_t		ntri;
	GxSerialized *tin;
	GxBatchOptions opt;

	shape_cavity(&sh, true);
	tin = shape_tin(&sh, &ntri);
	gx_batch_options_default(&opt);
	for (int device = 0; device < 2; device++)
	{
		long		total;
		GxError		err = {GX_OK, ""};

		opt.device = device ? GX_DEVICE_GPU : GX_DEVICE_CPU;
		gx_set_allocator(&counting);
		calls = live = in_parallel = 0;
		fail_at = -1;
		CHECK(solid_calls(tin, &opt, &err));
		total = calls;
		CHECK_MSG(live == 0, "device %d: %ld allocations left after a successful run", device, live);
		for (fail_at = 1; fail_at <= total; fail_at++)
		{
			calls = live = 0;
			err.code = GX_OK;
			CHECK_MSG(!solid_calls(tin, &opt, &err) && err.code == GX_ERR_NOMEM,
					  "device %d: allocation %ld of %ld failed: %s", device, fail_at, total, err.msg);
			CHECK_MSG(live == 0, "device %d: allocation %ld of %ld failed: %ld left allocated", device, fail_at,
					  total, live);
		}
		gx_set_allocator(&plain);
		CHECK_MSG(in_parallel == 0, "device %d: %ld allocations inside a parallel region", device, in_parallel);
	}
	free(tin);
}

/*
 * A cone of 2m triangles around the z axis into tri: the apex fan (0 0 60) over m rim vertices on the unit
 * circle scaled by 100 at z = 0, closed by a fan from (0 0 base_z) (a double pyramid for base_z < 0, a flat
 * base for 0). cross: rim vertex m / 3 moved across the axis to twice the radius.
 */
static void
cone(double *tri, size_t m, double base_z, bool cross)
{
	for (size_t i = 0; i < m; i++)
		for (int fan = 0; fan < 2; fan++)
		{
			double	   *t = tri + 9 * (2 * i + fan);

			t[0] = t[1] = 0;
			t[2] = fan ? base_z : 60;
			for (int k = 1; k < 3; k++)
			{
				size_t		v = (i + (fan ? 2 - k : k - 1)) % m;
				double		a = 2 * M_PI * (double) v / (double) m,
							r = cross && v == m / 3 ? -200 : 100;

				t[3 * k] = r * cos(a);
				t[3 * k + 1] = r * sin(a);
				t[3 * k + 2] = 0;
			}
		}
}

static void
check_cones(void)
{
	size_t		m = 100000;
	double	   *tri = malloc(2 * m * 9 * sizeof(double));
	GxBatchOptions opt;

	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	for (int shape = 0; shape < 2; shape++)
		for (int bad = 0; bad < 3; bad++)
		{
			size_t		n,
						shells = 0;
			GxError		err = {GX_OK, ""};
			bool		made;

			cone(tri, shape == 0 ? m : m / 20, shape == 0 ? -60 : 0, bad == 1);
			n = shape == 0 ? 2 * m : m / 10;
			/* bad 2: the lower apex moved out to the side, its fan poking through the upper one */
			for (size_t i = 0; bad == 2 && i < n / 2; i++)
			{
				tri[9 * (2 * i + 1)] = 150;
				tri[9 * (2 * i + 1) + 2] = 30;
			}
			made = gx_solid_make(tri, &n, &opt, &shells, &err);
			CHECK_MSG(made == (bad == 0) && (!made || shells == 1), "cone %d, bad %d: %s", shape, bad, err.msg);
			CHECK_MSG(bad == 0 || strstr(err.msg, "meet other than along a shared edge or vertex"), "cone %d, bad %d: %s",
					  shape, bad, err.msg);
		}
	free(tri);
}

int
main(void)
{
	static const MakeShape shapes[] = {shape_octahedron, shape_touching, make_cavity, make_touching_cavity,
	shape_inscribed, shape_tetrahedron};

	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
	{
		run("unit scale", shapes[s], 6, 0, 0, false, 150);
		run("small scales", shapes[s], 2, -40, -1, false, 60);
		run("huge", shapes[s], 2, 960, 990, false, 60);
		run("near overflow", shapes[s], 3, 1000, 1001, false, 60);
		run("tiny", shapes[s], 2, -1045, -1030, false, 60);
		run("mixed scales", shapes[s], 3, -540, 600, true, 60);
		run("extreme mixed scales", shapes[s], 20, -545, 600, true, 40);
		run("extreme mixed scales", shapes[s], 20, -530, 700, true, 5);
	}
	check_allocation_failures();
	check_cones();
	return gx_test_report("test_solid_adversarial");
}
