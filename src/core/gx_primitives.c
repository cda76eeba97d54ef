/*
 * gx_primitives.c: exact element-element intersection tests (seed 004 sections 3.3.5 and 4.2.4, made
 * complete for touching, coplanar and degenerate configurations).
 *
 * Plan of the tests:
 *  - point on segment: collinear in all three axis projections and inside the segment's box;
 *  - coplanar work is done in an axis projection that is one-to-one on the common plane (one where some
 *    orient2d of the points is non-zero); when every projection is degenerate the points are collinear
 *    and the test reduces to interval overlap, decided by boxes;
 *  - segment against triangle: the segment's endpoints against the triangle's plane (orient3d), then
 *    the line through the segment against the three edges (orient3d signs must not disagree);
 *  - triangle against triangle: early rejection by planes, then the six edge-against-triangle tests:
 *    two closed triangles meet iff an edge of one meets the other.
 */
#include "gx_predicates.h"
#include "gx_primitives.h"

#define P(t, i) ((t) + 3 * (i))

/* Is p inside the closed box spanned by a and b? */
static bool
in_box(const double *p, const double *a, const double *b)
{
	int			i;

	for (i = 0; i < 3; i++)
	{
		double		lo = a[i] < b[i] ? a[i] : b[i];
		double		hi = a[i] < b[i] ? b[i] : a[i];

		if (p[i] < lo || p[i] > hi)
			return false;
	}
	return true;
}

/* Do the boxes of n1 points at a and n2 points at b overlap? */
static bool
boxes_overlap(const double *a, int n1, const double *b, int n2)
{
	int			i,
				k;

	for (k = 0; k < 3; k++)
	{
		double		alo = a[k],
					ahi = a[k],
					blo = b[k],
					bhi = b[k];

		for (i = 1; i < n1; i++)
		{
			alo = P(a, i)[k] < alo ? P(a, i)[k] : alo;
			ahi = P(a, i)[k] > ahi ? P(a, i)[k] : ahi;
		}
		for (i = 1; i < n2; i++)
		{
			blo = P(b, i)[k] < blo ? P(b, i)[k] : blo;
			bhi = P(b, i)[k] > bhi ? P(b, i)[k] : bhi;
		}
		if (ahi < blo || bhi < alo)
			return false;
	}
	return true;
}

static bool
collinear(const double *a, const double *b, const double *c)
{
	return gx_orient2d(a, b, c, 2) == 0 && gx_orient2d(a, b, c, 0) == 0 && gx_orient2d(a, b, c, 1) == 0;
}

/* Lexicographic order of points; along a line it is the order of the line's parameter. */
static bool
lex_less(const double *a, const double *b)
{
	if (a[0] != b[0])
		return a[0] < b[0];
	if (a[1] != b[1])
		return a[1] < b[1];
	return a[2] < b[2];
}

/* Axis whose projection keeps triangle t non-degenerate, with the triangle's sign there; -1 if t is degenerate. */
static int
triangle_axis(const double *t, int *sign)
{
	static const int axes[3] = {2, 0, 1};
	int			i;

	for (i = 0; i < 3; i++)
	{
		*sign = gx_orient2d(P(t, 0), P(t, 1), P(t, 2), axes[i]);
		if (*sign != 0)
			return axes[i];
	}
	return -1;
}

/* The segment (lo, hi) covered by a degenerate (collinear) triangle: its two extreme vertices. */
static void
degenerate_hull(const double *t, const double **lo, const double **hi)
{
	int			i;

	*lo = *hi = P(t, 0);
	for (i = 1; i < 3; i++)
	{
		if (lex_less(P(t, i), *lo))
			*lo = P(t, i);
		if (lex_less(*hi, P(t, i)))
			*hi = P(t, i);
	}
}

static bool
point_segment(const double *p, const double *a, const double *b)
{
	return in_box(p, a, b) && collinear(a, b, p);
}

/*
 * Segments pq and ab, all four points coplanar, in the projection dropping `axis` (assumed one-to-one on
 * their plane, or the points collinear). Touching and collinear overlap included.
 */
static bool
segment_segment_projected(const double *p, const double *q, const double *a, const double *b, int axis)
{
	int			o1 = gx_orient2d(p, q, a, axis);
	int			o2 = gx_orient2d(p, q, b, axis);
	int			o3 = gx_orient2d(a, b, p, axis);
	int			o4 = gx_orient2d(a, b, q, axis);

	if (o1 * o2 < 0 && o3 * o4 < 0)
		return true;
	return (o1 == 0 && in_box(a, p, q)) || (o2 == 0 && in_box(b, p, q)) ||
		(o3 == 0 && in_box(p, a, b)) || (o4 == 0 && in_box(q, a, b));
}

/* Point p, coplanar with non-degenerate triangle t, inside t (closed) in the projection dropping axis? */
static bool
point_triangle_projected(const double *p, const double *t, int axis, int sign)
{
	int			s0 = gx_orient2d(P(t, 0), P(t, 1), p, axis);
	int			s1 = gx_orient2d(P(t, 1), P(t, 2), p, axis);
	int			s2 = gx_orient2d(P(t, 2), P(t, 0), p, axis);

	return s0 != -sign && s1 != -sign && s2 != -sign;
}

static bool
segment_segment(const double *p, const double *q, const double *a, const double *b)
{
	static const int axes[3] = {2, 0, 1};
	int			i;

	if (gx_orient3d(p, q, a, b) != 0)
		return false;
	/* Coplanar: find a projection in which the four points are not all collinear. */
	for (i = 0; i < 3; i++)
	{
		int			k = axes[i];

		if (gx_orient2d(p, q, a, k) != 0 || gx_orient2d(p, q, b, k) != 0 ||
			gx_orient2d(a, b, p, k) != 0 || gx_orient2d(a, b, q, k) != 0)
			return segment_segment_projected(p, q, a, b, k);
	}
	/* All four points collinear: the segments overlap iff an endpoint of one lies in the other. */
	return in_box(a, p, q) || in_box(b, p, q) || in_box(p, a, b) || in_box(q, a, b);
}

/* Point p against triangle t, given op = orient3d(t, p). */
static bool
point_triangle_signed(const double *p, const double *t, int op)
{
	int			sign;
	int			axis;
	const double *lo,
			   *hi;

	if (op != 0)
		return false;
	axis = triangle_axis(t, &sign);
	if (axis >= 0)
		return point_triangle_projected(p, t, axis, sign);
	degenerate_hull(t, &lo, &hi);
	return point_segment(p, lo, hi);
}

/* Segment pq against triangle t, given op and oq, the orient3d of p and q against t's plane. */
static bool
segment_triangle_signed(const double *p, const double *q, const double *t, int op, int oq)
{
	const double *a = P(t, 0),
			   *b = P(t, 1),
			   *c = P(t, 2);
	int			s1,
				s2,
				s3;

	if (op * oq > 0)
		return false;
	if (op == 0 && oq == 0)
	{
		int			sign;
		int			axis = triangle_axis(t, &sign);
		const double *lo,
				   *hi;

		if (axis < 0)
		{
			degenerate_hull(t, &lo, &hi);
			return segment_segment(p, q, lo, hi);
		}
		return point_triangle_projected(p, t, axis, sign) || point_triangle_projected(q, t, axis, sign) ||
			segment_segment_projected(p, q, a, b, axis) ||
			segment_segment_projected(p, q, b, c, axis) ||
			segment_segment_projected(p, q, c, a, axis);
	}
	/* The segment meets the (non-degenerate) plane in one point: is it inside the triangle? */
	s1 = gx_orient3d(p, q, a, b);
	s2 = gx_orient3d(p, q, b, c);
	s3 = gx_orient3d(p, q, c, a);
	return !((s1 > 0 || s2 > 0 || s3 > 0) && (s1 < 0 || s2 < 0 || s3 < 0));
}

bool
gx_point_point(const double *p, const double *q)
{
	return p[0] == q[0] && p[1] == q[1] && p[2] == q[2];
}

bool
gx_point_segment(const double *p, const double *s)
{
	return point_segment(p, P(s, 0), P(s, 1));
}

bool
gx_point_triangle(const double *p, const double *t)
{
	return boxes_overlap(p, 1, t, 3) &&
		point_triangle_signed(p, t, gx_orient3d(P(t, 0), P(t, 1), P(t, 2), p));
}

bool
gx_segment_segment(const double *s, const double *u)
{
	return boxes_overlap(s, 2, u, 2) && segment_segment(P(s, 0), P(s, 1), P(u, 0), P(u, 1));
}

bool
gx_segment_triangle(const double *s, const double *t)
{
	const double *a = P(t, 0),
			   *b = P(t, 1),
			   *c = P(t, 2);

	return boxes_overlap(s, 2, t, 3) &&
		segment_triangle_signed(P(s, 0), P(s, 1), t, gx_orient3d(a, b, c, P(s, 0)), gx_orient3d(a, b, c, P(s, 1)));
}

bool
gx_triangle_triangle(const double *t, const double *u)
{
	int			du[3],
				dt[3];
	int			i;

	if (!boxes_overlap(t, 3, u, 3))
		return false;
	/* Vertices of u against the plane of t, and of t against the plane of u. */
	for (i = 0; i < 3; i++)
		du[i] = gx_orient3d(P(t, 0), P(t, 1), P(t, 2), P(u, i));
	if (du[0] * du[1] > 0 && du[1] * du[2] > 0)
		return false;
	for (i = 0; i < 3; i++)
		dt[i] = gx_orient3d(P(u, 0), P(u, 1), P(u, 2), P(t, i));
	if (dt[0] * dt[1] > 0 && dt[1] * dt[2] > 0)
		return false;
	for (i = 0; i < 3; i++)
	{
		int			j = (i + 1) % 3;

		if (segment_triangle_signed(P(t, i), P(t, j), u, dt[i], dt[j]) ||
			segment_triangle_signed(P(u, i), P(u, j), t, du[i], du[j]))
			return true;
	}
	return false;
}
