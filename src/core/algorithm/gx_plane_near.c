/*
 * gx_plane_near.c: enclosures of (t, u) in a triangle's plane in certified double-doubles (gx_plane_near.h),
 * by the formulas of gx_plane_coords.c: Cramer's rule in T's projection, the crossing's lambda from the two
 * determinants of orient3d.
 */
#include "algorithm/gx_plane_near.h"

/* a - b of two doubles, exact. */
static GxDDI
diff(double a, double b)
{
	GxDDI		r = {0, 0, 0};

	gx_two_diff(a, b, &r.hi, &r.lo);
	return r;
}

/* x y - z w */
static GxDDI
cross2(const GxDDI *x, const GxDDI *y, const GxDDI *z, const GxDDI *w)
{
	GxDDI		p,
				q;

	gx_ddi_mul(&p, x, y);
	gx_ddi_mul(&q, z, w);
	gx_ddi_sub(&p, &p, &q);
	return p;
}

void
gx_plane_near_init(GxPlaneNear *pn, const double *T, int drop)
{
	pn->T = T;
	pn->i = (drop + 1) % 3;
	pn->j = (drop + 2) % 3;
	for (int k = 0; k < 2; k++)
	{
		pn->e[k][0] = diff(T[3 * (k + 1) + pn->i], T[pn->i]);
		pn->e[k][1] = diff(T[3 * (k + 1) + pn->j], T[pn->j]);
	}
	pn->det = cross2(&pn->e[0][0], &pn->e[1][1], &pn->e[0][1], &pn->e[1][0]);
}

/* (t, u) of point p of the plane: t = (d x e2) / det, u = (e1 x d) / det, d = p - T0 in the projection. */
static void
of_point(const GxPlaneNear *pn, const double *p, GxDDI *t, GxDDI *u)
{
	GxDDI		d0 = diff(p[pn->i], pn->T[pn->i]),
				d1 = diff(p[pn->j], pn->T[pn->j]),
				x;

	x = cross2(&d0, &pn->e[1][1], &d1, &pn->e[1][0]);
	gx_ddi_div(t, &x, &pn->det);
	x = cross2(&pn->e[0][0], &d1, &pn->e[0][1], &d0);
	gx_ddi_div(u, &x, &pn->det);
}

/* det(T0 - o, T1 - o, T2 - o), as gx_orient3d_value. */
static GxDDI
orient_value(const double *T, const double *o)
{
	GxDDI		r[3][3],
				m,
				s,
				x;

	for (int k = 0; k < 3; k++)
		for (int a = 0; a < 3; a++)
			r[k][a] = diff(T[3 * k + a], o[a]);
	m = cross2(&r[1][1], &r[2][2], &r[1][2], &r[2][1]);
	gx_ddi_mul(&s, &r[0][0], &m);
	m = cross2(&r[1][2], &r[2][0], &r[1][0], &r[2][2]);
	gx_ddi_mul(&x, &r[0][1], &m);
	gx_ddi_add(&s, &s, &x);
	m = cross2(&r[1][0], &r[2][1], &r[1][1], &r[2][0]);
	gx_ddi_mul(&x, &r[0][2], &m);
	gx_ddi_add(&s, &s, &x);
	return s;
}

void
gx_near_of_crossing(const GxPlaneNear *pn, const double *a, const double *b, GxDDI *t, GxDDI *u)
{
	GxDDI		va = orient_value(pn->T, a),
				vb = orient_value(pn->T, b),
				lambda,
				tb,
				ub;

	/* the crossing a + lambda (b - a), lambda = va / (va - vb); the projection is affine */
	gx_ddi_sub(&vb, &va, &vb);
	gx_ddi_div(&lambda, &va, &vb);
	of_point(pn, a, t, u);
	of_point(pn, b, &tb, &ub);
	gx_ddi_sub(&tb, &tb, t);
	gx_ddi_mul(&tb, &tb, &lambda);
	gx_ddi_add(t, t, &tb);
	gx_ddi_sub(&ub, &ub, u);
	gx_ddi_mul(&ub, &ub, &lambda);
	gx_ddi_add(u, u, &ub);
}
