/*
 * gx_distance_exact.c: the exact closest pair of two elements, in GMP rationals.
 *
 * Elements are first reduced exactly to what they cover: a zero-length segment to its point, a triangle
 * with collinear vertices to the segment between its extreme vertices (gx_primitives_impl.h). Then the
 * closest pair of two convex sets is found among closed feature pairs, each with a closed-form answer:
 *  - point-segment: the projection parameter clamped to [0, 1];
 *  - point-triangle: the projection onto the plane when it falls inside (three exact sign tests), else the
 *    closest of the three edges;
 *  - segment-segment: the unconstrained minimiser of |P + s(Q-P) - A - t(B-A)|^2 when the segments are
 *    not parallel and it lies in [0,1]^2, else the best of the four endpoint-segment pairs (a convex
 *    function on a square takes its minimum on the boundary unless the unique interior one exists);
 *  - segment-triangle: the point where the segment crosses the plane when that lies inside the triangle
 *    (distance 0), else the best of the two endpoints against the triangle and the segment against the
 *    three edges;
 *  - triangle-triangle: the best of the six edges against the other triangle (two closed triangles meet
 *    iff an edge of one meets the other, so intersecting triangles give 0 at a common point).
 * Every candidate is offered with its two points; the squared distance is computed from them.
 * "Within d" is the filter of gx_distance_filter.c first, then this exact squared distance against d * d.
 */
#include <math.h>
#include <stdbool.h>

#include "algorithm/gx_elem_distance.h"
#include "algorithm/gx_predicates.h"

#define GXP_ORIENT3D gx_orient3d
#define GXP_ORIENT2D gx_orient2d
#include "algorithm/gx_primitives_impl.h"

typedef mpq_t Vec[3];

/* The best pair so far; `swap` is set while the sub-problem has its two sides the other way round. */
typedef struct Best
{
	GxClosest  *c;
	bool		have;
	bool		swap;
	mpq_t		d2,
				t;
} Best;

static void
vec_init(Vec v)
{
	mpq_inits(v[0], v[1], v[2], NULL);
}

static void
vec_clear(Vec v)
{
	mpq_clears(v[0], v[1], v[2], NULL);
}

static void
vec_set_d(Vec v, const double *p)
{
	for (int k = 0; k < 3; k++)
		mpq_set_d(v[k], p[k]);
}

static void
vec_sub(Vec r, const Vec a, const Vec b)
{
	for (int k = 0; k < 3; k++)
		mpq_sub(r[k], a[k], b[k]);
}

/* r = a . b (t is scratch) */
static void
vec_dot(mpq_ptr r, const Vec a, const Vec b, mpq_ptr t)
{
	mpq_mul(r, a[0], b[0]);
	for (int k = 1; k < 3; k++)
	{
		mpq_mul(t, a[k], b[k]);
		mpq_add(r, r, t);
	}
}

/* r = a x b (r distinct from a and b; t is scratch) */
static void
vec_cross(Vec r, const Vec a, const Vec b, mpq_ptr t)
{
	for (int k = 0; k < 3; k++)
	{
		int			i = (k + 1) % 3,
					j = (k + 2) % 3;

		mpq_mul(r[k], a[i], b[j]);
		mpq_mul(t, a[j], b[i]);
		mpq_sub(r[k], r[k], t);
	}
}

/* r = a + s d (r distinct from d; t is scratch) */
static void
vec_axpy(Vec r, const Vec a, mpq_srcptr s, const Vec d, mpq_ptr t)
{
	for (int k = 0; k < 3; k++)
	{
		mpq_mul(t, s, d[k]);
		mpq_add(r[k], a[k], t);
	}
}

static void
vec_copy(Vec r, const Vec a)
{
	for (int k = 0; k < 3; k++)
		mpq_set(r[k], a[k]);
}

/* Candidate pair: x on the sub-problem's first side, y on its second. */
static void
offer(Best *b, const Vec x, const Vec y)
{
	Vec			d;

	vec_init(d);
	vec_sub(d, x, y);
	vec_dot(b->d2, d, d, b->t);
	vec_clear(d);
	if (b->have && mpq_cmp(b->d2, b->c->d2) >= 0)
		return;
	b->have = true;
	mpq_set(b->c->d2, b->d2);
	vec_copy(b->c->pa, b->swap ? y : x);
	vec_copy(b->c->pb, b->swap ? x : y);
}

static bool
is_zero(const Best *b)
{
	return b->have && mpq_sgn(b->c->d2) == 0;
}

/* Point p against segment ab (ab may have length 0). */
static void
point_segment(Best *b, const Vec p, const Vec a, const Vec sb)
{
	Vec			ab,
				ap,
				x;
	mpq_t		num,
				den;

	vec_init(ab);
	vec_init(ap);
	vec_init(x);
	mpq_inits(num, den, NULL);
	vec_sub(ab, sb, a);
	vec_sub(ap, p, a);
	vec_dot(num, ap, ab, b->t);
	vec_dot(den, ab, ab, b->t);
	if (mpq_sgn(num) <= 0)
		vec_copy(x, a);
	else if (mpq_cmp(num, den) >= 0)
		vec_copy(x, sb);
	else
	{
		mpq_div(num, num, den);
		vec_axpy(x, a, num, ab, b->t);
	}
	offer(b, p, x);
	vec_clear(ab);
	vec_clear(ap);
	vec_clear(x);
	mpq_clears(num, den, NULL);
}

/* Segment pq against point a: the same with the sides swapped. */
static void
segment_point(Best *b, const Vec p, const Vec q, const Vec a)
{
	b->swap = !b->swap;
	point_segment(b, a, p, q);
	b->swap = !b->swap;
}

/* Is x, projected along the normal n of triangle t, inside the closed triangle? */
static bool
inside_prism(const Vec x, Vec const *t, const Vec n, mpq_ptr scratch)
{
	Vec			e,
				w,
				c;
	mpq_t		s;
	bool		inside = true;

	vec_init(e);
	vec_init(w);
	vec_init(c);
	mpq_init(s);
	for (int i = 0; i < 3 && inside; i++)
	{
		vec_sub(e, t[(i + 1) % 3], t[i]);
		vec_sub(w, x, t[i]);
		vec_cross(c, e, w, scratch);
		vec_dot(s, c, n, scratch);
		inside = mpq_sgn(s) >= 0;
	}
	vec_clear(e);
	vec_clear(w);
	vec_clear(c);
	mpq_clear(s);
	return inside;
}

/* n = (t1 - t0) x (t2 - t0) */
static void
triangle_normal(Vec n, Vec const *t, mpq_ptr scratch)
{
	Vec			u,
				v;

	vec_init(u);
	vec_init(v);
	vec_sub(u, t[1], t[0]);
	vec_sub(v, t[2], t[0]);
	vec_cross(n, u, v, scratch);
	vec_clear(u);
	vec_clear(v);
}

/* Point p against non-degenerate triangle t. */
static void
point_triangle(Best *b, const Vec p, Vec const *t)
{
	Vec			n,
				ap,
				x;
	mpq_t		k,
				nn;

	vec_init(n);
	triangle_normal(n, t, b->t);
	if (inside_prism(p, t, n, b->t))
	{
		vec_init(ap);
		vec_init(x);
		mpq_inits(k, nn, NULL);
		vec_sub(ap, p, t[0]);
		vec_dot(k, ap, n, b->t);
		vec_dot(nn, n, n, b->t);
		mpq_div(k, k, nn);
		mpq_neg(k, k);
		vec_axpy(x, p, k, n, b->t);	/* p - ((p - t0) . n / n . n) n */
		offer(b, p, x);
		vec_clear(ap);
		vec_clear(x);
		mpq_clears(k, nn, NULL);
	}
	else
		for (int i = 0; i < 3; i++)
			point_segment(b, p, t[i], t[(i + 1) % 3]);
	vec_clear(n);
}

/* Segment pq against segment ab (either may have length 0). */
static void
segment_segment(Best *b, const Vec p, const Vec q, const Vec a, const Vec sb)
{
	Vec			d1,
				d2,
				r,
				x,
				y;
	mpq_t		aa,
				bb,
				cc,
				ee,
				ff,
				den,
				s,
				t;
	bool		interior = false;

	vec_init(d1);
	vec_init(d2);
	vec_init(r);
	mpq_inits(aa, bb, cc, ee, ff, den, s, t, NULL);
	vec_sub(d1, q, p);
	vec_sub(d2, sb, a);
	vec_sub(r, p, a);
	vec_dot(aa, d1, d1, b->t);
	vec_dot(bb, d1, d2, b->t);
	vec_dot(cc, d1, r, b->t);
	vec_dot(ee, d2, d2, b->t);
	vec_dot(ff, d2, r, b->t);
	/* den = aa ee - bb^2 >= 0, zero iff parallel (or a zero-length side) */
	mpq_mul(den, aa, ee);
	mpq_mul(s, bb, bb);
	mpq_sub(den, den, s);
	if (mpq_sgn(den) > 0)
	{
		/* s = (bb ff - cc ee) / den, t = (aa ff - bb cc) / den */
		mpq_mul(s, bb, ff);
		mpq_mul(b->t, cc, ee);
		mpq_sub(s, s, b->t);
		mpq_div(s, s, den);
		mpq_mul(t, aa, ff);
		mpq_mul(b->t, bb, cc);
		mpq_sub(t, t, b->t);
		mpq_div(t, t, den);
		interior = mpq_sgn(s) >= 0 && mpq_cmp_ui(s, 1, 1) <= 0 && mpq_sgn(t) >= 0 && mpq_cmp_ui(t, 1, 1) <= 0;
	}
	if (interior)
	{
		vec_init(x);
		vec_init(y);
		vec_axpy(x, p, s, d1, b->t);
		vec_axpy(y, a, t, d2, b->t);
		offer(b, x, y);
		vec_clear(x);
		vec_clear(y);
	}
	else
	{
		point_segment(b, p, a, sb);
		point_segment(b, q, a, sb);
		segment_point(b, p, q, a);
		segment_point(b, p, q, sb);
	}
	vec_clear(d1);
	vec_clear(d2);
	vec_clear(r);
	mpq_clears(aa, bb, cc, ee, ff, den, s, t, NULL);
}

/*
 * Segment pq against non-degenerate triangle t; dp, dq are the doubles of p and q, dt the 9 of t (for the
 * exact orientation signs).
 */
static void
segment_triangle(Best *b, const Vec p, const Vec q, Vec const *t, const double *dp, const double *dq,
				 const double *dt)
{
	int			op = gx_orient3d(GXP(dt, 0), GXP(dt, 1), GXP(dt, 2), dp);
	int			oq = gx_orient3d(GXP(dt, 0), GXP(dt, 1), GXP(dt, 2), dq);

	if (op * oq < 0)
	{
		/* p and q strictly on both sides of the plane: it crosses at p + h (q - p), h = hp / (hp - hq) */
		Vec			n,
					w,
					pq,
					x;
		mpq_t		hp,
					hq;
		bool		inside;

		vec_init(n);
		vec_init(w);
		vec_init(pq);
		vec_init(x);
		mpq_inits(hp, hq, NULL);
		triangle_normal(n, t, b->t);
		vec_sub(w, p, t[0]);
		vec_dot(hp, w, n, b->t);
		vec_sub(w, q, t[0]);
		vec_dot(hq, w, n, b->t);
		mpq_sub(hq, hp, hq);
		mpq_div(hp, hp, hq);
		vec_sub(pq, q, p);
		vec_axpy(x, p, hp, pq, b->t);
		inside = inside_prism(x, t, n, b->t);
		if (inside)
			offer(b, x, x);
		vec_clear(n);
		vec_clear(w);
		vec_clear(pq);
		vec_clear(x);
		mpq_clears(hp, hq, NULL);
		if (inside)
			return;
	}
	point_triangle(b, p, t);
	point_triangle(b, q, t);
	for (int i = 0; i < 3 && !is_zero(b); i++)
		segment_segment(b, p, q, t[i], t[(i + 1) % 3]);
}

/* An element reduced to what it covers: a point, a segment of length > 0, or a non-degenerate triangle. */
typedef struct Reduced
{
	int			kind;
	const double *v[3];
} Reduced;

static bool
same_point(const double *a, const double *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static Reduced
reduce(GxElem e)
{
	Reduced		r = {e.kind, {e.c, e.c + 3, e.c + 6}};

	if (e.kind == 3 && gxp_collinear(e.c, e.c + 3, e.c + 6))
	{
		gxp_degenerate_hull(e.c, &r.v[0], &r.v[1]);
		r.kind = 2;
	}
	if (r.kind == 2 && same_point(r.v[0], r.v[1]))
		r.kind = 1;
	return r;
}

void
gx_closest_init(GxClosest *c)
{
	mpq_init(c->d2);
	vec_init(c->pa);
	vec_init(c->pb);
}

void
gx_closest_clear(GxClosest *c)
{
	mpq_clear(c->d2);
	vec_clear(c->pa);
	vec_clear(c->pb);
}

void
gx_elem_closest(GxElem ea, GxElem eb, GxClosest *out)
{
	Reduced		ra = reduce(ea),
				rb = reduce(eb);
	Vec			a[3],
				b[3];
	Best		best = {.c = out};

	mpq_inits(best.d2, best.t, NULL);
	if (ra.kind > rb.kind)
	{
		Reduced		tmp = ra;

		ra = rb;
		rb = tmp;
		best.swap = true;
	}
	for (int i = 0; i < 3; i++)
	{
		vec_init(a[i]);
		vec_init(b[i]);
		if (i < ra.kind)
			vec_set_d(a[i], ra.v[i]);
		if (i < rb.kind)
			vec_set_d(b[i], rb.v[i]);
	}
	switch (ra.kind * 4 + rb.kind)
	{
		case 1 * 4 + 1:
			offer(&best, a[0], b[0]);
			break;
		case 1 * 4 + 2:
			point_segment(&best, a[0], b[0], b[1]);
			break;
		case 1 * 4 + 3:
			point_triangle(&best, a[0], (Vec const *) b);
			break;
		case 2 * 4 + 2:
			segment_segment(&best, a[0], a[1], b[0], b[1]);
			break;
		case 2 * 4 + 3:
			segment_triangle(&best, a[0], a[1], (Vec const *) b, ra.v[0], ra.v[1], rb.v[0]);
			break;
		default:
			/* the six edges against the other triangle; the sides swap for the edges of b */
			for (int i = 0; i < 3 && !is_zero(&best); i++)
				segment_triangle(&best, a[i], a[(i + 1) % 3], (Vec const *) b, ra.v[i], ra.v[(i + 1) % 3], rb.v[0]);
			best.swap = !best.swap;
			for (int i = 0; i < 3 && !is_zero(&best); i++)
				segment_triangle(&best, b[i], b[(i + 1) % 3], (Vec const *) a, rb.v[i], rb.v[(i + 1) % 3], ra.v[0]);
	}
	for (int i = 0; i < 3; i++)
	{
		vec_clear(a[i]);
		vec_clear(b[i]);
	}
	mpq_clears(best.d2, best.t, NULL);
}

bool
gx_elem_dwithin_exact(GxElem a, GxElem b, double d)
{
	GxClosest	c;
	mpq_t		dd;
	bool		within;

	gx_closest_init(&c);
	mpq_init(dd);
	mpq_set_d(dd, d);
	mpq_mul(dd, dd, dd);
	gx_elem_closest(a, b, &c);
	within = mpq_cmp(c.d2, dd) <= 0;
	mpq_clear(dd);
	gx_closest_clear(&c);
	return within;
}

bool
gx_elem_dwithin(GxElem a, GxElem b, double d)
{
	int			r = gx_elem_dwithin_filter(a, b, nextafter(d * d, -INFINITY), nextafter(d * d, INFINITY));

	return r >= 0 ? r == 1 : gx_elem_dwithin_exact(a, b, d);
}
