/*
 * gx_plane_near.c: enclosures of (t, u) in a triangle's plane in certified double-doubles (gx_plane_near.h),
 * by the formulas of gx_plane_coords.c: Cramer's rule in T's projection, the crossing's lambda from the two
 * determinants of orient3d.
 */
#include "algorithm/gx_ddi_values.h"
#include "algorithm/gx_plane_near.h"

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
		pn->e[k][0] = gx_ddv_sub_d(T[3 * (k + 1) + pn->i], T[pn->i]);
		pn->e[k][1] = gx_ddv_sub_d(T[3 * (k + 1) + pn->j], T[pn->j]);
	}
	pn->det = cross2(&pn->e[0][0], &pn->e[1][1], &pn->e[0][1], &pn->e[1][0]);
}

/* (t, u) of point p of the plane: t = (d x e2) / det, u = (e1 x d) / det, d = p - T0 in the projection. */
static void
of_point(const GxPlaneNear *pn, const double *p, GxDDI *t, GxDDI *u)
{
	GxDDI		d0 = gx_ddv_sub_d(p[pn->i], pn->T[pn->i]),
				d1 = gx_ddv_sub_d(p[pn->j], pn->T[pn->j]),
				x;

	x = cross2(&d0, &pn->e[1][1], &d1, &pn->e[1][0]);
	gx_ddi_div(t, &x, &pn->det);
	x = cross2(&pn->e[0][0], &d1, &pn->e[0][1], &d0);
	gx_ddi_div(u, &x, &pn->det);
}

void
gx_near_of_crossing(const GxPlaneNear *pn, const double *a, const double *b, GxDDI *t, GxDDI *u)
{
	GxDDI		va = gx_ddv_det(pn->T, a),
				vb = gx_ddv_det(pn->T, b),
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
