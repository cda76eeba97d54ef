/*
 * gx_distance_filter_impl.h: certified floating-point bounds lo <= d2 <= hi on the squared distance of two
 * elements, shared by the CPU (gx_distance_filter.c) and the CUDA engine (cuda/gx_cuda_distance.cu), which
 * thus decide the very same pairs. Needs IEEE arithmetic without FMA contraction on both.
 *
 * 1. A candidate closest pair is found in plain double arithmetic (in coordinates relative to a vertex):
 *    edge against edge (the interior minimiser or endpoint against segment), vertex against triangle
 *    face, edge crossing a triangle. Nothing here needs to be right: it only proposes two points.
 * 2. The proposal is snapped to exact convex weights (multiples of 2^-52 summing to exactly 1), so the
 *    points x = sum w_i a_i and y = sum v_j b_j lie exactly on the two elements. Then
 *      hi: |x - y|^2, evaluated with a running error bound, is an upper bound of d2;
 *      lo: for n = x - y (any vector), d >= min over vertex pairs of n.(a_i - b_j) / |n| (a separating
 *          direction: both elements are the hulls of their vertices), evaluated with error bounds.
 * The running bound (Fv: value and a bound on its absolute error) is first-order error analysis made
 * rigorous: each operation adds u|result| (u = 2^-53), the error terms are computed with a safety factor
 * covering their own rounding, and 2^-1000 per operation covers underflow. An overflow gives inf or NaN,
 * which the bounds read as "no information" (lo = 0, hi = inf). Differences of input coordinates are
 * taken first, so large offsets (UTM) do not widen the bounds.
 */
#ifndef GX_DISTANCE_FILTER_IMPL_H
#define GX_DISTANCE_FILTER_IMPL_H

#include <math.h>
#include <stdbool.h>

#include "base/gx_hd.h"

#define FV_U 0x1p-53
#define FV_SAFETY (1 + 0x1p-48)
#define FV_TINY 0x1p-1000
#define SNAP 0x1p52

typedef struct Fv
{
	double		v;				/* computed value */
	double		e;				/* |v - exact| <= e */
} Fv;

GX_HD Fv
fv_make(double v, double e)
{
	Fv			f;

	f.v = v;
	f.e = e;
	return f;
}

GX_HD Fv
fv_diff(double a, double b)		/* a - b of exact doubles */
{
	double		v = a - b;

	return fv_make(v, fabs(v) * FV_U + FV_TINY);
}

GX_HD Fv
fv_add(Fv a, Fv b)
{
	double		v = a.v + b.v;

	return fv_make(v, (a.e + b.e + fabs(v) * FV_U) * FV_SAFETY + FV_TINY);
}

GX_HD Fv
fv_mul(Fv a, Fv b)
{
	double		v = a.v * b.v;

	return fv_make(v, (fabs(a.v) * b.e + fabs(b.v) * a.e + a.e * b.e + fabs(v) * FV_U) * FV_SAFETY + FV_TINY);
}

GX_HD Fv
fv_scale(Fv a, double s)		/* a times an exact double */
{
	double		v = a.v * s;

	return fv_make(v, (fabs(s) * a.e + fabs(v) * FV_U) * FV_SAFETY + FV_TINY);
}

/* ---- 1. the proposal, in plain doubles --------------------------------------------------------------- */

typedef struct Proposal
{
	double		wa[3],
				wb[3];			/* weights of the vertices of a and b */
	double		d2;				/* approximate squared distance; +inf before the first */
} Proposal;

typedef struct Local
{
	int			k;				/* vertices */
	double		v[3][3];		/* relative to the origin shared by both elements */
} Local;

GX_HD double
dot(const double *a, const double *b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

GX_HD void
sub(double *r, const double *a, const double *b)
{
	for (int k = 0; k < 3; k++)
		r[k] = a[k] - b[k];
}

GX_HD double
clamp01(double t)
{
	return t > 0 ? (t < 1 ? t : 1) : 0;	/* NaN gives 0 */
}

GX_HD void
weighted(double *x, const Local *e, const double *w)
{
	for (int k = 0; k < 3; k++)
		x[k] = w[0] * e->v[0][k] + w[1] * e->v[1][k] + w[2] * e->v[2][k];
}

GX_HD void
consider(Proposal *p, const Local *a, const Local *b, const double *wa, const double *wb)
{
	double		x[3],
				y[3],
				d[3],
				d2;

	weighted(x, a, wa);
	weighted(y, b, wb);
	sub(d, x, y);
	d2 = dot(d, d);
	if (d2 < p->d2)
	{
		for (int i = 0; i < 3; i++)
		{
			p->wa[i] = wa[i];
			p->wb[i] = wb[i];
		}
		p->d2 = d2;
	}
}

/* Weights {1 - t at i, t at j} of a point on edge (i, j) of an element. */
GX_HD void
edge_weights(double *w, int i, int j, double t)
{
	w[0] = w[1] = w[2] = 0;
	w[i] += 1 - t;
	w[j] += t;
}

/* Parameter of the point of segment ab nearest to p. */
GX_HD double
segment_param(const double *p, const double *a, const double *b)
{
	double		ab[3],
				ap[3];

	sub(ab, b, a);
	sub(ap, p, a);
	return clamp01(dot(ap, ab) / dot(ab, ab));
}

/* Barycentric weights of the projection of p onto triangle t's plane; false if outside or degenerate. */
GX_HD bool
face_weights(const double *p, const Local *t, double *w)
{
	double		ab[3],
				ac[3],
				ap[3],
				d00,
				d01,
				d11,
				d20,
				d21,
				den;

	sub(ab, t->v[1], t->v[0]);
	sub(ac, t->v[2], t->v[0]);
	sub(ap, p, t->v[0]);
	d00 = dot(ab, ab);
	d01 = dot(ab, ac);
	d11 = dot(ac, ac);
	d20 = dot(ap, ab);
	d21 = dot(ap, ac);
	den = d00 * d11 - d01 * d01;
	w[1] = (d11 * d20 - d01 * d21) / den;
	w[2] = (d00 * d21 - d01 * d20) / den;
	w[0] = 1 - w[1] - w[2];
	return den > 0 && w[0] >= 0 && w[1] >= 0 && w[2] >= 0;
}

GX_HD void
edge_edge(Proposal *p, const Local *a, int i, int j, const Local *b, int k, int l, bool swapped)
{
	const double *pp = a->v[i],
			   *q = a->v[j],
			   *ea = b->v[k],
			   *eb = b->v[l];
	double		d1[3],
				d2[3],
				r[3],
				wa[3],
				wb[3];
	double		aa,
				bb,
				cc,
				ee,
				ff,
				den,
				s,
				t;

	sub(d1, q, pp);
	sub(d2, eb, ea);
	sub(r, pp, ea);
	aa = dot(d1, d1);
	bb = dot(d1, d2);
	cc = dot(d1, r);
	ee = dot(d2, d2);
	ff = dot(d2, r);
	den = aa * ee - bb * bb;
	s = (bb * ff - cc * ee) / den;
	t = (aa * ff - bb * cc) / den;
	if (den > 0 && s >= 0 && s <= 1 && t >= 0 && t <= 1)
	{
		edge_weights(wa, i, j, s);
		edge_weights(wb, k, l, t);
		swapped ? consider(p, b, a, wb, wa) : consider(p, a, b, wa, wb);
	}
	for (int end = 0; end < 2; end++)
	{
		edge_weights(wa, i, j, end);
		edge_weights(wb, k, l, segment_param(end ? q : pp, ea, eb));
		swapped ? consider(p, b, a, wb, wa) : consider(p, a, b, wa, wb);
		edge_weights(wa, i, j, segment_param(end ? eb : ea, pp, q));
		edge_weights(wb, k, l, end);
		swapped ? consider(p, b, a, wb, wa) : consider(p, a, b, wa, wb);
	}
}

/* The vertices of a against the face of triangle b, and the edges of a crossing it. */
GX_HD void
against_face(Proposal *p, const Local *a, const Local *b, bool swapped)
{
	double		n[3],
				u[3],
				v[3],
				x[3],
				wa[3],
				wb[3];
	double		h[3];

	sub(u, b->v[1], b->v[0]);
	sub(v, b->v[2], b->v[0]);
	n[0] = u[1] * v[2] - u[2] * v[1];
	n[1] = u[2] * v[0] - u[0] * v[2];
	n[2] = u[0] * v[1] - u[1] * v[0];
	for (int i = 0; i < a->k; i++)
	{
		sub(x, a->v[i], b->v[0]);
		h[i] = dot(x, n);
		if (face_weights(a->v[i], b, wb))
		{
			edge_weights(wa, i, i, 0);
			swapped ? consider(p, b, a, wb, wa) : consider(p, a, b, wa, wb);
		}
	}
	for (int i = 0; i + 1 < a->k || (a->k == 3 && i < 3); i++)
	{
		int			j = (i + 1) % a->k;
		double		t = h[i] / (h[i] - h[j]);

		if (h[i] * h[j] < 0 && t >= 0 && t <= 1)
		{
			for (int c = 0; c < 3; c++)
				x[c] = a->v[i][c] + t * (a->v[j][c] - a->v[i][c]);
			if (face_weights(x, b, wb))
			{
				edge_weights(wa, i, j, t);
				swapped ? consider(p, b, a, wb, wa) : consider(p, a, b, wa, wb);
			}
		}
	}
}

/* Edges of an element of k vertices: (0,0) for a point, (0,1) for a segment, three for a triangle. */
GX_HD int
edges(int k, int e[3][2])
{
	for (int i = 0; i < 3; i++)
	{
		e[i][0] = i % k;
		e[i][1] = (i + 1) % k;
	}
	return k == 3 ? 3 : 1;
}

GX_HD Proposal
propose(const Local *a, const Local *b)
{
	Proposal	p;
	int			ea[3][2],
				eb[3][2],
				na = edges(a->k, ea),
				nb = edges(b->k, eb);

	for (int i = 0; i < 3; i++)
		p.wa[i] = p.wb[i] = i == 0;
	p.d2 = INFINITY;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			edge_edge(&p, a, ea[i][0], ea[i][1], b, eb[j][0], eb[j][1], false);
	if (b->k == 3)
		against_face(&p, a, b, false);
	if (a->k == 3)
		against_face(&p, b, a, true);
	return p;
}

/* ---- 2. the certificate -------------------------------------------------------------------------------- */

/* Element params snapped to multiples of 2^-52: weights w[0] = 1 - s - t, w[1] = s, w[2] = t, exactly. */
GX_HD void
snap(double *w, int k)
{
	double		s = k >= 2 ? clamp01(nearbyint(w[1] * SNAP) / SNAP) : 0;
	double		t = k == 3 ? clamp01(nearbyint(w[2] * SNAP) / SNAP) : 0;

	if (s + t > 1)
		t = 1 - s;
	w[0] = 1 - s - t;
	w[1] = s;
	w[2] = t;
}

GX_HD double
down(double x)
{
	return nextafter(x, -HUGE_VAL);
}

GX_HD double
up(double x)
{
	return nextafter(x, HUGE_VAL);
}

/* The bounds *lo <= d2 <= *hi for the element of ka vertices at ac and the one of kb vertices at bc. */
GX_HD void
gx_dist2_bounds(const double *ac, int ka, const double *bc, int kb, double *lo, double *hi)
{
	const double *o = bc;		/* origin: the first vertex of b */
	Local		a,
				b;
	Proposal	p;
	Fv			d[3],
				h,
				nn;
	double		n[3],
				gmin = INFINITY,
				x;

	a.k = ka;
	b.k = kb;
	for (int i = 0; i < 3; i++)
	{
		sub(a.v[i], ac + 3 * (i < ka ? i : 0), o);
		sub(b.v[i], bc + 3 * (i < kb ? i : 0), o);
	}
	p = propose(&a, &b);
	snap(p.wa, ka);
	snap(p.wb, kb);

	/* x - y = sum w_i (a_i - o) - sum v_j (b_j - o), exactly, since both weight sums are exactly 1 */
	for (int k = 0; k < 3; k++)
	{
		d[k] = fv_make(0, 0);
		for (int i = 0; i < ka; i++)
			d[k] = fv_add(d[k], fv_scale(fv_diff(ac[3 * i + k], o[k]), p.wa[i]));
		for (int j = 1; j < kb; j++)
			d[k] = fv_add(d[k], fv_scale(fv_diff(bc[3 * j + k], o[k]), -p.wb[j]));
		n[k] = d[k].v;
	}
	h = fv_add(fv_add(fv_mul(d[0], d[0]), fv_mul(d[1], d[1])), fv_mul(d[2], d[2]));
	x = up(h.v + h.e);
	*hi = x <= INFINITY ? x : INFINITY;

	/* d >= n.(a_i - b_j) / |n| for the vertex pair minimising it */
	for (int i = 0; i < ka; i++)
		for (int j = 0; j < kb; j++)
		{
			Fv			g = {0, 0};

			for (int k = 0; k < 3; k++)
				g = fv_add(g, fv_scale(fv_diff(ac[3 * i + k], bc[3 * j + k]), n[k]));
			x = down(g.v - g.e);
			gmin = x < gmin ? x : gmin;
		}
	*lo = 0;
	if (gmin > 0)
	{
		nn = fv_add(fv_add(fv_mul(fv_make(n[0], 0), fv_make(n[0], 0)), fv_mul(fv_make(n[1], 0), fv_make(n[1], 0))),
					fv_mul(fv_make(n[2], 0), fv_make(n[2], 0)));
		x = down(down(gmin * gmin) / up(nn.v + nn.e));
		*lo = x > 0 ? x : 0;
	}
}

/*
 * Is the first vertex of each element within sqrt(d2_lo) of the other's? An upper bound of d2 that settles
 * most near pairs in a few operations: a sum of three squares of differences of doubles, at most 5 roundings
 * of positive terms, within a factor 1 + 6u of exact, which 2^-48 covers (results near underflow are not
 * trusted: squares of differences of about 1e-160 vanish). Only the first vertices are read.
 */
GX_HD bool
gx_dist2_near(const double *ac, const double *bc, double d2_lo)
{
	double		dx = ac[0] - bc[0],
				dy = ac[1] - bc[1],
				dz = ac[2] - bc[2],
				s = dx * dx + dy * dy + dz * dz;

	/* the same vertex (a zero difference of doubles is exact); squares that underflow prove nothing */
	return (dx == 0 && dy == 0 && dz == 0) || (s > 0x1p-900 && s * (1 + 0x1p-48) <= d2_lo);
}

/*
 * The rest of the filter, for a pair gx_dist2_near did not settle: the gap between the elements' boxes (a
 * lower bound settling most far pairs, computed like gx_dist2_near's sum), then the certified bounds.
 * 1 (within), 0 (not), or -1 (left open, for exact arithmetic).
 */
GX_HD int
gx_dist2_decide(const double *ac, int ka, const double *bc, int kb, double d2_lo, double d2_hi)
{
	double		s = 0,
				lo,
				hi;

	for (int k = 0; k < 3; k++)
	{
		double		alo = ac[k],
					ahi = ac[k],
					blo = bc[k],
					bhi = bc[k],
					gap;

		for (int v = 1; v < 3; v++)
		{
			double		x = ac[3 * (v < ka ? v : 0) + k],
						y = bc[3 * (v < kb ? v : 0) + k];

			alo = x < alo ? x : alo;
			ahi = x > ahi ? x : ahi;
			blo = y < blo ? y : blo;
			bhi = y > bhi ? y : bhi;
		}
		gap = blo > ahi ? blo - ahi : alo > bhi ? alo - bhi : 0;
		s += gap * gap;
	}
	if (s > 0x1p-900 && s * (1 - 0x1p-48) > d2_hi)
		return 0;
	gx_dist2_bounds(ac, ka, bc, kb, &lo, &hi);
	return hi <= d2_lo ? 1 : lo > d2_hi ? 0 : -1;
}

/* The whole filter for "d2 <= d^2", d2_lo <= d^2 <= d2_hi (d^2 rounded both ways): 1, 0, or -1 (open). */
GX_HD int
gx_dist2_within(const double *ac, int ka, const double *bc, int kb, double d2_lo, double d2_hi)
{
	return gx_dist2_near(ac, bc, d2_lo) ? 1 : gx_dist2_decide(ac, ka, bc, kb, d2_lo, d2_hi);
}

#endif
