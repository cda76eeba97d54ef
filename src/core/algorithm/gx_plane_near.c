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

/*
 * The numerators of (t, u) of point p in T's projection: t = (d x e2) / det, u = (e1 x d) / det, d = p - T0
 * (for p off the plane, those of its projection).
 */
static void
numerators(const GxPlaneNear *pn, const double *p, GxDDI *x, GxDDI *y)
{
	GxDDI		d0 = gx_ddv_sub_d(p[pn->i], pn->T[pn->i]),
				d1 = gx_ddv_sub_d(p[pn->j], pn->T[pn->j]);

	*x = cross2(&d0, &pn->e[1][1], &d1, &pn->e[1][0]);
	*y = cross2(&pn->e[0][0], &d1, &pn->e[0][1], &d0);
}

/*
 * The crossing a + lambda (b - a), lambda = va / (va - vb) (va, vb: orient3d of a and b against T); the
 * projection being affine, t = (va xb - vb xa) / ((va - vb) det), and so u: two quotients.
 */
void
gx_near_of_crossing(const GxPlaneNear *pn, const double *a, const double *b, GxDDI *t, GxDDI *u)
{
	GxDDI		va = gx_ddv_det(pn->T, a),
				vb = gx_ddv_det(pn->T, b),
				xa,
				ya,
				xb,
				yb,
				den;

	numerators(pn, a, &xa, &ya);
	numerators(pn, b, &xb, &yb);
	den = gx_ddv_mul(gx_ddv_sub(va, vb), pn->det);
	*t = gx_ddv_div(gx_ddv_sub(gx_ddv_mul(va, xb), gx_ddv_mul(vb, xa)), den);
	*u = gx_ddv_div(gx_ddv_sub(gx_ddv_mul(va, yb), gx_ddv_mul(vb, ya)), den);
}
