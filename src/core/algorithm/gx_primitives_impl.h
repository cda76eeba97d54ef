/*
 * gx_primitives_impl.h: the exact element-element intersection tests, written once for the CPU
 * (gx_primitives.c, exact ladder) and the GPU (cuda/, filter and expansion rungs only).
 * Menezes 2021, sections 3.3.5 and 4.2.4, made complete for touching, coplanar and degenerate configurations:
 *  - point on segment: collinear in all three axis projections and inside the segment's box;
 *  - coplanar work is done in an axis projection that is one-to-one on the common plane (one where some
 *    orient2d of the points is non-zero); when every projection is degenerate the points are collinear
 *    and the test reduces to interval overlap, decided by boxes;
 *  - segment against triangle: the segment's endpoints against the triangle's plane (orient3d), then
 *    the line through the segment against the three edges (orient3d signs must not disagree);
 *  - triangle against triangle: early rejection by planes, then the six edge-against-triangle tests:
 *    two closed triangles meet iff an edge of one meets the other;
 *  - a degenerate triangle (collinear vertices) is the segment between its extreme vertices.
 * Points are 3 doubles; segments 2 points (6 contiguous doubles); triangles 3 points (9 doubles).
 *
 * The includer defines GXP_ORIENT3D(a, b, c, d) and GXP_ORIENT2D(a, b, c, drop), returning -1, 0, +1 or
 * GX_UNDECIDED. Every test returns 0 (disjoint), 1 (intersecting) or GX_UNDECIDED (a sign it needed was
 * undecided: the caller decides the pair again with the full ladder).
 */
#ifndef GX_PRIMITIVES_IMPL_H
#define GX_PRIMITIVES_IMPL_H

#include "algorithm/gx_orient.h"
#include "base/gx_hd.h"

#define GXP(t, i) ((t) + 3 * (i))
#define GXP_AXIS_UNDECIDED (-2)

/* s = sign, leaving the calling test with GX_UNDECIDED if the sign is undecided. */
#define GXP_SIGN(s, call) \
	do { (s) = (call); if ((s) == GX_UNDECIDED) return GX_UNDECIDED; } while (0)
/* r = a sub-test's answer, ending the calling test unless it is 0 (a disjunction's terms). */
#define GXP_ANY(call) \
	do { int r_ = (call); if (r_ != 0) return r_; } while (0)

/* Is p inside the closed box spanned by a and b? */
GX_HD int
gxp_in_box(const double *p, const double *a, const double *b)
{
	for (int i = 0; i < 3; i++)
	{
		double		lo = a[i] < b[i] ? a[i] : b[i];
		double		hi = a[i] < b[i] ? b[i] : a[i];

		if (p[i] < lo || p[i] > hi)
			return 0;
	}
	return 1;
}

/* Do the boxes of n1 points at a and n2 points at b overlap? */
GX_HD int
gxp_boxes_overlap(const double *a, int n1, const double *b, int n2)
{
	for (int k = 0; k < 3; k++)
	{
		double		alo = a[k],
					ahi = a[k],
					blo = b[k],
					bhi = b[k];

		for (int i = 1; i < n1; i++)
		{
			alo = GXP(a, i)[k] < alo ? GXP(a, i)[k] : alo;
			ahi = GXP(a, i)[k] > ahi ? GXP(a, i)[k] : ahi;
		}
		for (int i = 1; i < n2; i++)
		{
			blo = GXP(b, i)[k] < blo ? GXP(b, i)[k] : blo;
			bhi = GXP(b, i)[k] > bhi ? GXP(b, i)[k] : bhi;
		}
		if (ahi < blo || bhi < alo)
			return 0;
	}
	return 1;
}

GX_HD int
gxp_collinear(const double *a, const double *b, const double *c)
{
	int			s;

	GXP_SIGN(s, GXP_ORIENT2D(a, b, c, 2));
	if (s != 0)
		return 0;
	GXP_SIGN(s, GXP_ORIENT2D(a, b, c, 0));
	if (s != 0)
		return 0;
	GXP_SIGN(s, GXP_ORIENT2D(a, b, c, 1));
	return s == 0;
}

/* Lexicographic order of points; along a line it is the order of the line's parameter. */
GX_HD int
gxp_lex_less(const double *a, const double *b)
{
	if (a[0] != b[0])
		return a[0] < b[0];
	if (a[1] != b[1])
		return a[1] < b[1];
	return a[2] < b[2];
}

/*
 * Axis whose projection keeps triangle t non-degenerate, with the triangle's sign there;
 * -1 if t is degenerate, GXP_AXIS_UNDECIDED if a sign was undecided.
 */
GX_HD int
gxp_triangle_axis(const double *t, int *sign)
{
	const int	axes[3] = {2, 0, 1};

	for (int i = 0; i < 3; i++)
	{
		*sign = GXP_ORIENT2D(GXP(t, 0), GXP(t, 1), GXP(t, 2), axes[i]);
		if (*sign == GX_UNDECIDED)
			return GXP_AXIS_UNDECIDED;
		if (*sign != 0)
			return axes[i];
	}
	return -1;
}

/* The segment (lo, hi) covered by a degenerate (collinear) triangle: its two extreme vertices. */
GX_HD void
gxp_degenerate_hull(const double *t, const double **lo, const double **hi)
{
	*lo = *hi = GXP(t, 0);
	for (int i = 1; i < 3; i++)
	{
		if (gxp_lex_less(GXP(t, i), *lo))
			*lo = GXP(t, i);
		if (gxp_lex_less(*hi, GXP(t, i)))
			*hi = GXP(t, i);
	}
}

GX_HD int
gxp_point_segment(const double *p, const double *a, const double *b)
{
	return gxp_in_box(p, a, b) ? gxp_collinear(a, b, p) : 0;
}

/*
 * Coplanar segments pq and ab from the four orientations o1 = (p,q,a), o2 = (p,q,b), o3 = (a,b,p),
 * o4 = (a,b,q) in a projection one-to-one on their plane (or with the points collinear).
 * Touching and collinear overlap included.
 */
GX_HD int
gxp_segments_from_signs(const double *p, const double *q, const double *a, const double *b,
						int o1, int o2, int o3, int o4)
{
	if (o1 * o2 < 0 && o3 * o4 < 0)
		return 1;
	return (o1 == 0 && gxp_in_box(a, p, q)) || (o2 == 0 && gxp_in_box(b, p, q)) ||
		(o3 == 0 && gxp_in_box(p, a, b)) || (o4 == 0 && gxp_in_box(q, a, b));
}

/* The four orientations of gxp_segments_from_signs in the projection dropping `axis`. */
#define GXP_SEGMENT_SIGNS(p, q, a, b, axis, o1, o2, o3, o4) \
	do { \
		GXP_SIGN(o1, GXP_ORIENT2D(p, q, a, axis)); \
		GXP_SIGN(o2, GXP_ORIENT2D(p, q, b, axis)); \
		GXP_SIGN(o3, GXP_ORIENT2D(a, b, p, axis)); \
		GXP_SIGN(o4, GXP_ORIENT2D(a, b, q, axis)); \
	} while (0)

/* Segments pq and ab, coplanar, in the projection dropping `axis` (one-to-one on their plane). */
GX_HD int
gxp_segment_segment_projected(const double *p, const double *q, const double *a, const double *b, int axis)
{
	int			o1,
				o2,
				o3,
				o4;

	GXP_SEGMENT_SIGNS(p, q, a, b, axis, o1, o2, o3, o4);
	return gxp_segments_from_signs(p, q, a, b, o1, o2, o3, o4);
}

/* Point p, coplanar with non-degenerate triangle t, inside t (closed) in the projection dropping axis? */
GX_HD int
gxp_point_triangle_projected(const double *p, const double *t, int axis, int sign)
{
	int			s0,
				s1,
				s2;

	GXP_SIGN(s0, GXP_ORIENT2D(GXP(t, 0), GXP(t, 1), p, axis));
	GXP_SIGN(s1, GXP_ORIENT2D(GXP(t, 1), GXP(t, 2), p, axis));
	GXP_SIGN(s2, GXP_ORIENT2D(GXP(t, 2), GXP(t, 0), p, axis));
	return s0 != -sign && s1 != -sign && s2 != -sign;
}

GX_HD int
gxp_segment_segment(const double *p, const double *q, const double *a, const double *b)
{
	const int	axes[3] = {2, 0, 1};
	int			s;

	GXP_SIGN(s, GXP_ORIENT3D(p, q, a, b));
	if (s != 0)
		return 0;
	/*
	 * Coplanar: decide in the first projection where the four points are not all collinear. If they are
	 * collinear every sign is 0 everywhere, and the test becomes: an endpoint of one lies in the other.
	 */
	for (int i = 0; i < 3; i++)
	{
		int			o1,
					o2,
					o3,
					o4;

		GXP_SEGMENT_SIGNS(p, q, a, b, axes[i], o1, o2, o3, o4);
		if (o1 != 0 || o2 != 0 || o3 != 0 || o4 != 0 || i == 2)
			return gxp_segments_from_signs(p, q, a, b, o1, o2, o3, o4);
	}
	return 0;					/* not reached */
}

/* Point p against triangle t, given op = orient3d(t, p). */
GX_HD int
gxp_point_triangle_signed(const double *p, const double *t, int op)
{
	int			sign;
	int			axis;
	const double *lo,
			   *hi;

	if (op != 0)
		return 0;
	axis = gxp_triangle_axis(t, &sign);
	if (axis == GXP_AXIS_UNDECIDED)
		return GX_UNDECIDED;
	if (axis >= 0)
		return gxp_point_triangle_projected(p, t, axis, sign);
	gxp_degenerate_hull(t, &lo, &hi);
	return gxp_point_segment(p, lo, hi);
}

/* Segment pq against triangle t, given op and oq, the orient3d of p and q against t's plane. */
GX_HD int
gxp_segment_triangle_signed(const double *p, const double *q, const double *t, int op, int oq)
{
	const double *a = GXP(t, 0),
			   *b = GXP(t, 1),
			   *c = GXP(t, 2);
	int			s1,
				s2,
				s3;

	if (op * oq > 0)
		return 0;
	if (op == 0 && oq == 0)
	{
		int			sign;
		int			axis = gxp_triangle_axis(t, &sign);
		const double *lo,
				   *hi;

		if (axis == GXP_AXIS_UNDECIDED)
			return GX_UNDECIDED;
		if (axis < 0)
		{
			gxp_degenerate_hull(t, &lo, &hi);
			return gxp_segment_segment(p, q, lo, hi);
		}
		GXP_ANY(gxp_point_triangle_projected(p, t, axis, sign));
		GXP_ANY(gxp_point_triangle_projected(q, t, axis, sign));
		GXP_ANY(gxp_segment_segment_projected(p, q, a, b, axis));
		GXP_ANY(gxp_segment_segment_projected(p, q, b, c, axis));
		return gxp_segment_segment_projected(p, q, c, a, axis);
	}
	/* The segment meets the (non-degenerate) plane in one point: is it inside the triangle? */
	GXP_SIGN(s1, GXP_ORIENT3D(p, q, a, b));
	GXP_SIGN(s2, GXP_ORIENT3D(p, q, b, c));
	GXP_SIGN(s3, GXP_ORIENT3D(p, q, c, a));
	return !((s1 > 0 || s2 > 0 || s3 > 0) && (s1 < 0 || s2 < 0 || s3 < 0));
}

GX_HD int
gxp_point_triangle(const double *p, const double *t)
{
	int			op;

	if (!gxp_boxes_overlap(p, 1, t, 3))
		return 0;
	GXP_SIGN(op, GXP_ORIENT3D(GXP(t, 0), GXP(t, 1), GXP(t, 2), p));
	return gxp_point_triangle_signed(p, t, op);
}

GX_HD int
gxp_segment_triangle(const double *s, const double *t)
{
	int			op,
				oq;

	if (!gxp_boxes_overlap(s, 2, t, 3))
		return 0;
	GXP_SIGN(op, GXP_ORIENT3D(GXP(t, 0), GXP(t, 1), GXP(t, 2), GXP(s, 0)));
	GXP_SIGN(oq, GXP_ORIENT3D(GXP(t, 0), GXP(t, 1), GXP(t, 2), GXP(s, 1)));
	return gxp_segment_triangle_signed(GXP(s, 0), GXP(s, 1), t, op, oq);
}

/*
 * Triangles t and u, given du, the orient3d of u's vertices against t's plane, and dt, those of t's against
 * u's, whose boxes overlap and neither of which lies wholly on one side of the other's plane.
 */
GX_HD int
gxp_triangle_triangle_signed(const double *t, const double *u, const int *du, const int *dt)
{
	for (int i = 0; i < 3; i++)
	{
		int			j = (i + 1) % 3;

		GXP_ANY(gxp_segment_triangle_signed(GXP(t, i), GXP(t, j), u, dt[i], dt[j]));
		GXP_ANY(gxp_segment_triangle_signed(GXP(u, i), GXP(u, j), t, du[i], du[j]));
	}
	return 0;
}

GX_HD int
gxp_triangle_triangle(const double *t, const double *u)
{
	int			du[3],
				dt[3];

	if (!gxp_boxes_overlap(t, 3, u, 3))
		return 0;
	/* Vertices of u against the plane of t, and of t against the plane of u. */
	for (int i = 0; i < 3; i++)
		GXP_SIGN(du[i], GXP_ORIENT3D(GXP(t, 0), GXP(t, 1), GXP(t, 2), GXP(u, i)));
	if (du[0] * du[1] > 0 && du[1] * du[2] > 0)
		return 0;
	for (int i = 0; i < 3; i++)
		GXP_SIGN(dt[i], GXP_ORIENT3D(GXP(u, 0), GXP(u, 1), GXP(u, 2), GXP(t, i)));
	if (dt[0] * dt[1] > 0 && dt[1] * dt[2] > 0)
		return 0;
	return gxp_triangle_triangle_signed(t, u, du, dt);
}

/* Two elements of kinds 1 (point), 2 (segment) or 3 (triangle), in either order. */
GX_HD int
gxp_elements(const double *a, int ka, const double *b, int kb)
{
	if (ka > kb)
	{
		const double *t = a;
		int			k = ka;

		a = b;
		ka = kb;
		b = t;
		kb = k;
	}
	switch (ka * 4 + kb)
	{
		case 1 * 4 + 1:
			return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
		case 1 * 4 + 2:
			return gxp_point_segment(a, GXP(b, 0), GXP(b, 1));
		case 1 * 4 + 3:
			return gxp_point_triangle(a, b);
		case 2 * 4 + 2:
			return gxp_boxes_overlap(a, 2, b, 2) ? gxp_segment_segment(GXP(a, 0), GXP(a, 1), GXP(b, 0), GXP(b, 1)) : 0;
		case 2 * 4 + 3:
			return gxp_segment_triangle(a, b);
		default:
			return gxp_triangle_triangle(a, b);
	}
}

#endif
