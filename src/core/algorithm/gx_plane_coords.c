/*
 * gx_plane_coords.c: coordinates (t, u) in a triangle's plane, in rationals (gx_plane_coords.h). A point's
 * (t, u) by Cramer's rule in T's projection; T's edge functions t, u and 1 - t - u, affine along a segment,
 * bound the part of it inside T. Memory from malloc (threads call this).
 */
#include <stdlib.h>

#include "algorithm/gx_plane_coords.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "base/gx_alloc.h"

void
gx_plane_coords_init(GxPlaneCoords *pc, const double *T, int drop)
{
	pc->T = T;
	pc->i = (drop + 1) % 3;
	pc->j = (drop + 2) % 3;
	pc->cover = NULL;
	pc->ncover = pc->covercap = 0;
	mpq_inits(pc->det, pc->w[0], pc->w[1], pc->w[2], pc->w[3], NULL);
	for (int k = 0; k < 2; k++)
		for (int a = 0; a < 2; a++)
		{
			mpq_init(pc->e[k][a]);
			mpq_set_d(pc->e[k][a], T[3 * (k + 1) + (a ? pc->j : pc->i)]);
			mpq_set_d(pc->w[0], T[a ? pc->j : pc->i]);
			mpq_sub(pc->e[k][a], pc->e[k][a], pc->w[0]);
		}
	mpq_mul(pc->det, pc->e[0][0], pc->e[1][1]);
	mpq_mul(pc->w[0], pc->e[0][1], pc->e[1][0]);
	mpq_sub(pc->det, pc->det, pc->w[0]);
}

void
gx_plane_coords_clear(GxPlaneCoords *pc)
{
	gx_tu_clear(pc->cover, 3 * pc->ncover);
	free(pc->cover);
	for (int k = 0; k < 2; k++)
		mpq_clears(pc->e[k][0], pc->e[k][1], NULL);
	mpq_clears(pc->det, pc->w[0], pc->w[1], pc->w[2], pc->w[3], NULL);
}

void
gx_tu_clear(GxTU *p, int n)
{
	for (int k = 0; k < n; k++)
		mpq_clears(p[k].t, p[k].u, NULL);
}

/* gx_plane_coords.h: Cramer's rule in the projection. */
void
gx_tu_of_point(GxPlaneCoords *pc, const double *p, GxTU *r)
{
	mpq_set_d(pc->w[0], p[pc->i]);
	mpq_set_d(pc->w[1], pc->T[pc->i]);
	mpq_sub(pc->w[0], pc->w[0], pc->w[1]);
	mpq_set_d(pc->w[1], p[pc->j]);
	mpq_set_d(pc->w[2], pc->T[pc->j]);
	mpq_sub(pc->w[1], pc->w[1], pc->w[2]);
	/* t = (d x e2) / det, u = (e1 x d) / det, d = p - T0 */
	mpq_mul(pc->w[2], pc->w[0], pc->e[1][1]);
	mpq_mul(pc->w[3], pc->w[1], pc->e[1][0]);
	mpq_sub(r->t, pc->w[2], pc->w[3]);
	mpq_div(r->t, r->t, pc->det);
	mpq_mul(pc->w[2], pc->e[0][0], pc->w[1]);
	mpq_mul(pc->w[3], pc->e[0][1], pc->w[0]);
	mpq_sub(r->u, pc->w[2], pc->w[3]);
	mpq_div(r->u, r->u, pc->det);
}

void
gx_tu_along(mpq_ptr rt, mpq_ptr ru, const GxTU *p, const GxTU *q, mpq_srcptr s)
{
	mpq_sub(rt, q->t, p->t);
	mpq_mul(rt, rt, s);
	mpq_add(rt, rt, p->t);
	if (ru == NULL)
		return;
	mpq_sub(ru, q->u, p->u);
	mpq_mul(ru, ru, s);
	mpq_add(ru, ru, p->u);
}

/* gx_plane_coords.h: in integers at one scale, two fractions reduced. */
void
gx_tu_of_crossing(GxPlaneCoords *pc, const double *a, const double *b, GxTU *r)
{
	/* only non-finite input fails (the parsers reject it): then a's own (t, u) */
	if (!gx_plane_crossing_tu(pc->T, pc->i, pc->j, a, b, r->t, r->u))
		gx_tu_of_point(pc, a, r);
}

int
gx_plane_section(GxPlaneCoords *pc, const double *tau, GxTU p[3], int *nzero, bool *nomem)
{
	int			side[3],
				pos = 0,
				neg = 0,
				n = 0;

	for (int k = 0; k < 3; k++)
	{
		side[k] = gx_orient3d(pc->T, pc->T + 3, pc->T + 6, tau + 3 * k);
		pos += side[k] > 0;
		neg += side[k] < 0;
	}
	for (int k = 0; k < 3; k++)
		if (side[k] == 0)
		{
			mpq_inits(p[n].t, p[n].u, NULL);
			gx_tu_of_point(pc, tau + 3 * k, &p[n]);
			n++;
		}
	*nzero = n;
	/* tau crosses the plane: its section ends where its edges cross it (or at its vertex on it) */
	if (pos > 0 && neg > 0)
		for (int k = 0; k < 3; k++)
		{
			int			j = (k + 1) % 3;

			if (side[k] * side[j] >= 0)
				continue;
			mpq_inits(p[n].t, p[n].u, NULL);
			gx_tu_of_crossing(pc, tau + 3 * k, tau + 3 * j, &p[n]);
			n++;
		}
	if (n == 3 && gx_tu_orient(pc, &p[0], &p[1], &p[2]) != 0)
	{
		if (!gx_grow_malloc((void **) &pc->cover, &pc->covercap, 3 * (pc->ncover + 1), sizeof(GxTU),
							SIZE_MAX / 512))
			*nomem = true;
		else
		{
			for (int k = 0; k < 3; k++)
			{
				GxTU	   *x = &pc->cover[3 * pc->ncover + k];

				mpq_inits(x->t, x->u, NULL);
				mpq_set(x->t, p[k].t);
				mpq_set(x->u, p[k].u);
			}
			pc->ncover++;
		}
	}
	return n;
}

bool
gx_tu_clip(const GxTU *p, const GxTU *q, GxTU r[2])
{
	mpq_t		f[2],
				lo,
				hi;
	bool		empty = false;

	mpq_inits(f[0], f[1], lo, hi, NULL);
	/* each of T's edge functions t, u, 1 - t - u is affine along pq: a bound on s in [0, 1] */
	mpq_set_ui(hi, 1, 1);
	for (int k = 0; k < 3 && !empty; k++)
	{
		for (int e = 0; e < 2; e++)
		{
			const GxTU *x = e ? q : p;

			if (k == 0)
				mpq_set(f[e], x->t);
			else if (k == 1)
				mpq_set(f[e], x->u);
			else
			{
				mpq_set_ui(f[e], 1, 1);
				mpq_sub(f[e], f[e], x->t);
				mpq_sub(f[e], f[e], x->u);
			}
		}
		if (mpq_sgn(f[0]) < 0 && mpq_sgn(f[1]) < 0)
			empty = true;
		else if (mpq_sgn(f[0]) < 0 || mpq_sgn(f[1]) < 0)
		{
			bool		entering = mpq_sgn(f[0]) < 0;

			mpq_sub(f[1], f[0], f[1]);
			mpq_div(f[0], f[0], f[1]);	/* s where it crosses 0 */
			if (entering ? mpq_cmp(f[0], lo) > 0 : mpq_cmp(f[0], hi) < 0)
				mpq_set(entering ? lo : hi, f[0]);
		}
	}
	empty = empty || mpq_cmp(lo, hi) > 0;
	for (int e = 0; e < 2 && !empty; e++)
		gx_tu_along(r[e].t, r[e].u, p, q, e ? hi : lo);
	mpq_clears(f[0], f[1], lo, hi, NULL);
	return !empty;
}

int
gx_tu_orient(GxPlaneCoords *pc, const GxTU *p, const GxTU *q, const GxTU *r)
{
	mpq_sub(pc->w[0], q->t, p->t);
	mpq_sub(pc->w[1], r->u, p->u);
	mpq_mul(pc->w[0], pc->w[0], pc->w[1]);
	mpq_sub(pc->w[1], q->u, p->u);
	mpq_sub(pc->w[2], r->t, p->t);
	mpq_mul(pc->w[1], pc->w[1], pc->w[2]);
	return mpq_cmp(pc->w[0], pc->w[1]);
}

bool
gx_tu_cross(GxPlaneCoords *pc, const GxTU *a0, const GxTU *a1, const GxTU *b0, const GxTU *b1, mpq_ptr s)
{
	if (gx_tu_orient(pc, a0, a1, b0) * gx_tu_orient(pc, a0, a1, b1) >= 0 ||
		gx_tu_orient(pc, b0, b1, a0) * gx_tu_orient(pc, b0, b1, a1) >= 0)
		return false;
	gx_tu_crossing(pc, a0, a1, b0, b1, s);
	return true;
}

void
gx_tu_crossing(GxPlaneCoords *pc, const GxTU *a0, const GxTU *a1, const GxTU *b0, const GxTU *b1, mpq_ptr s)
{
	/* o = (a1 - a0) x (p - a0) is affine along b: o0 at b0 in s, o1 at b1 in w[3]; s = o0 / (o0 - o1) */
	for (int k = 0; k < 2; k++)
	{
		const GxTU *p = k ? b1 : b0;
		mpq_ptr		o = k ? pc->w[3] : s;

		mpq_sub(pc->w[0], a1->t, a0->t);
		mpq_sub(pc->w[1], p->u, a0->u);
		mpq_mul(o, pc->w[0], pc->w[1]);
		mpq_sub(pc->w[0], a1->u, a0->u);
		mpq_sub(pc->w[1], p->t, a0->t);
		mpq_mul(pc->w[0], pc->w[0], pc->w[1]);
		mpq_sub(o, o, pc->w[0]);
	}
	mpq_sub(pc->w[3], s, pc->w[3]);
	mpq_div(s, s, pc->w[3]);
}

int
gx_plane_covered(GxPlaneCoords *pc, const GxTU *p)
{
	for (size_t f = 0; f < pc->ncover; f++)
	{
		const GxTU *v = &pc->cover[3 * f];
		int			o = gx_tu_orient(pc, &v[0], &v[1], &v[2]),
					in = 1;

		/* closed: p may lie on an edge of a triangle of a coplanar facet inside it (no cut there) */
		for (int k = 0; in && k < 3; k++)
		{
			int			side = gx_tu_orient(pc, &v[k], &v[(k + 1) % 3], p);

			in = o > 0 ? side >= 0 : side <= 0;
		}
		if (in)
			return o > 0 ? 1 : -1;
	}
	return 0;
}
