/*
 * gx_solid_index.c: point location in a solid (gx_solid.h). The triangles are gridded over (x, y); a
 * point is located by the parity of the crossings of a nearly vertical ray with them. The ray starts at
 * the point and ends at a double point q above (or below) the solid's box, slightly off the vertical so
 * that the grid cells it passes over stay few. Each crossing is decided by exact signs; a ray meeting an
 * edge or a vertex, or lying in a triangle's plane, is seen exactly and another q is tried.
 *
 * The located point may be a + t (b - a) with t rational: a determinant is affine in each of its points,
 * so its sign is that of (1 - t) det(a) + t det(b), decided from the two signs alone unless they differ.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_elements.h"
#include "algorithm/gx_orient.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_primitives.h"
#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "geom/gx_box.h"
#include "solid/gx_solid.h"
#include "solid/gx_solid_gaps.h"

#define MAX_RAYS 64
#define CANCEL_EVERY 65536		/* triangles boxed between two polls of the process's cancel flags */

/*
 * Each cell's triangles in ascending order, as a grid built on one thread has them (threads fill a large one
 * in any order): searches then visit triangles in one order, and what is made from them (the booleans' cuts)
 * is the same from run to run.
 */
static void
cells_in_order(GxGrid *g)
{
	size_t		ncells = (size_t) g->dim[0] * g->dim[1] * g->dim[2];

	#pragma omp parallel for schedule(dynamic, 1024) if (ncells > 65536)
	for (size_t c = 0; c < ncells; c++)
		for (size_t k = g->start[c] + 1; k < g->start[c + 1]; k++)
		{
			uint32_t	t = g->items[k];
			size_t		at = k;

			for (; at > g->start[c] && g->items[at - 1] > t; at--)
				g->items[at] = g->items[at - 1];
			g->items[at] = t;
		}
}

bool
gx_solid_index_build(GxSolidIndex *s, const double *tri, size_t n, GxError *err)
{
	int			dim[3] = {1, 1, 1};
	double		cells = n / 4.0 + 1,
				wx,
				wy;

	memset(s, 0, sizeof(*s));
	s->tri = tri;
	s->n = n;
	gx_box_set_empty(&s->box);
	s->boxes = gx_alloc((n ? n : 1) * sizeof(GxBox3D));
	if (!s->boxes)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the index of a solid of %zu triangles", n);
		return false;
	}
	for (size_t i = 0; i < n; i++)
	{
		if (i % CANCEL_EVERY == 0 && gx_cancel_requested(&gx_cancel_flags))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while indexing a solid of %zu triangles", n);
			gx_free(s->boxes);
			s->boxes = NULL;
			return false;
		}
		s->boxes[i] = gx_box_of_points(tri + 9 * i, 3);
		gx_box_extend(&s->box, &s->boxes[i]);
	}
	if (n == 0)
		return true;
	/* about four triangles per (x, y) cell, cells shaped like the box's footprint */
	wx = s->box.xmax - s->box.xmin;
	wy = s->box.ymax - s->box.ymin;
	if (wx > 0 && wy > 0)
	{
		dim[0] = (int) fmin(4096, fmax(1, sqrt(cells * wx / wy)));
		dim[1] = (int) fmin(4096, fmax(1, cells / dim[0]));
	}
	else if (wx > 0)
		dim[0] = (int) fmin(4096, cells);
	else if (wy > 0)
		dim[1] = (int) fmin(4096, cells);
	if (gx_grid_build(&s->grid, &s->box, dim, s->boxes, n, &gx_cancel_flags, err))
	{
		cells_in_order(&s->grid);
		if (gx_solid_gaps_build(s, err))
			return true;
		gx_grid_free(&s->grid);
	}
	/* the callers free nothing of an index that failed */
	gx_free(s->boxes);
	s->boxes = NULL;
	return false;
}

void
gx_solid_index_free(GxSolidIndex *s)
{
	gx_free(s->boxes);
	if (s->n)
	{
		gx_grid_free(&s->grid);
		gx_solid_gaps_free(s);
	}
	memset(s, 0, sizeof(*s));
}

bool
gx_solid_index_copy(GxSolidIndex *dst, const GxSolidIndex *src, GxError *err)
{
	GxSolidIndex c = *src;
	size_t		nboxes = src->n ? src->n : 1;	/* as gx_solid_index_build allocates them */

	c.boxes = gx_alloc_try(nboxes * sizeof(GxBox3D));
	if (c.boxes != NULL && (src->n == 0 || gx_grid_copy(&c.grid, &src->grid)))
	{
		if (src->n == 0 || gx_solid_gaps_copy(&c, src))
		{
			memcpy(c.boxes, src->boxes, nboxes * sizeof(GxBox3D));
			*dst = c;
			return true;
		}
		gx_grid_free(&c.grid);
	}
	gx_free(c.boxes);
	gx_error_set(err, GX_ERR_NOMEM, "out of memory for the index of a solid of %zu triangles", src->n);
	return false;
}

size_t
gx_solid_index_bytes(const GxSolidIndex *s)
{
	return s->n ? s->n * sizeof(GxBox3D) + gx_grid_bytes(&s->grid) + gx_solid_gaps_bytes(s) : 0;
}

bool
gx_solid_index_search(const GxSolidIndex *s, const GxBox3D *box, bool (*visit) (void *ctx, size_t i), void *ctx)
{
	int			lo[3],
				hi[3];

	if (s->n == 0 || !gx_box_overlaps(&s->box, box))
		return true;
	gx_grid_range(&s->grid, box, lo, hi);
	for (int j = lo[1]; j <= hi[1]; j++)
		for (int i = lo[0]; i <= hi[0]; i++)
		{
			size_t		c = gx_grid_cell(&s->grid, i, j, 0);

			for (size_t k = s->grid.start[c]; k < s->grid.start[c + 1]; k++)
			{
				uint32_t	t = s->grid.items[k];

				/* a triangle spanning several cells is visited in one of them */
				if (!gx_box_overlaps(&s->boxes[t], box) || !gx_grid_is_reference_cell(&s->grid, &s->boxes[t], box, i, j, 0))
					continue;
				if (!visit(ctx, t))
					return false;
			}
		}
	return true;
}

/* gx_solid_index_near's list. */
typedef struct Near
{
	size_t	  **list,
			   *n,
			   *cap;
	bool		nomem;
} Near;

static bool
near_visit(void *ctx, size_t i)
{
	Near	   *nr = ctx;

	if (!gx_grow_malloc((void **) nr->list, nr->cap, *nr->n + 1, sizeof(size_t), SIZE_MAX / sizeof(size_t)))
	{
		nr->nomem = true;
		return false;
	}
	(*nr->list)[(*nr->n)++] = i;
	return true;
}

static int
cmp_size(const void *x, const void *y)
{
	size_t		a = *(const size_t *) x,
				b = *(const size_t *) y;

	return (a > b) - (a < b);
}

bool
gx_solid_index_near(const GxSolidIndex *s, const GxBox3D *box, size_t **list, size_t *n, size_t *cap)
{
	Near		nr = {list, n, cap, false};

	*n = 0;
	if (s->n && gx_box_contains(box, &s->box))
	{
		/* all of them */
		if (!gx_grow_malloc((void **) list, cap, s->n, sizeof(size_t), SIZE_MAX / sizeof(size_t)))
			return false;
		for (size_t i = 0; i < s->n; i++)
			(*list)[i] = i;
		*n = s->n;
		return true;
	}
	if (s->n && gx_box_overlaps(&s->box, box))
	{
		int			lo[3],
					hi[3];

		gx_grid_range(&s->grid, box, lo, hi);
		if ((size_t) (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * 4 >= (size_t) s->grid.dim[0] * s->grid.dim[1])
		{
			/* a quarter of the columns or more: every box looked at, in order */
			for (size_t i = 0; i < s->n; i++)
				if (gx_box_overlaps(&s->boxes[i], box) && !near_visit(&nr, i))
					return false;
			return true;
		}
	}
	gx_solid_index_search(s, box, near_visit, &nr);
	if (nr.nomem)
		return false;
	qsort(*list, *n, sizeof(size_t), cmp_size);
	return true;
}

/*
 * The point a + t (b - a) + u (c - a): t NULL means the point a, u NULL a point of the segment ab, else a
 * point of the triangle abc.
 */
typedef struct SegPoint
{
	const double *a,
			   *b,
			   *c;
	mpq_srcptr	t,
				u;
	double		x[3];			/* a double near the point, and how far the point may be from it per axis */
	double		slack;
	void		(*exact) (void *ctx);	/* when set, t and u are made by exact(ctx) when first needed ... */
	void	   *ctx;
	double		td,
				ud;				/* ... and these are mpq_get_d of them */
} SegPoint;

/*
 * A filter for a determinant in which the rational point P enters: D(P) = s (P - r) . (u x v), with r, u,
 * v from doubles. Evaluated at the double x near P, D(x) is within 8 eps of the permanent (Shewchuk's
 * orient3d bound covers the rounded differences), and D(P) within slack * |u x v|_1 of D(x). Returns the
 * sign when the bounds settle it, else 2.
 */
static int
near_sign(const SegPoint *p, double s, const double *r, const double *u, const double *v)
{
	const double eps = 1.1102230246251565e-16;
	double		n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]},
				m[3] = {fabs(u[1] * v[2]) + fabs(u[2] * v[1]), fabs(u[2] * v[0]) + fabs(u[0] * v[2]),
		fabs(u[0] * v[1]) + fabs(u[1] * v[0])},
				d = 0,
				perm = 0,
				moved = 0,
				offset = 0;

	for (int k = 0; k < 3; k++)
	{
		double		dk = p->x[k] - r[k];

		d += dk * n[k];
		perm += fabs(dk) * m[k];
		moved += m[k];
		offset += fabs(dk);
	}
	/*
	 * Doubled margins cover the rounding of the bounds themselves. A product of u and v that underflows
	 * is off by up to half the smallest subnormal, then scaled by dk (or slack): an absolute error that
	 * grows with the offset (coordinates of very different scales per axis).
	 */
	if (fabs(d) > 2 * (8 * eps * perm + p->slack * moved * (1 + 8 * eps) + DBL_TRUE_MIN * (offset + 3 * p->slack + 2)))
		return (d > 0) == (s > 0) ? 1 : -1;
	return 2;
}

/*
 * Sign of orient3d with the point in argument `slot` and x, y, z in the others, in order: sa, sb and sc are
 * its signs with a, b and c in the point's place (orient3d is affine in each argument).
 */
static int
affine_sign(const SegPoint *p, int sa, int sb, int sc, const double *x, const double *y, const double *z,
			int slot)
{
	mpq_t		va,
				vb,
				w;
	int			sign;
	const double *others[3] = {x, y, z},
			   *args[4];

	if (p->t == NULL || (sa == sb && (p->u == NULL || sa == sc)))
		return sa;
	if (p->u == NULL && sa == 0)
		return mpq_sgn(p->t) > 0 ? sb : 0;
	if (p->u == NULL && sb == 0)
		return mpq_cmp_ui(p->t, 1, 1) < 0 ? sa : 0;
	/* in floating point first, at the double near the point */
	{
		const double *r = slot == 3 ? x : z,
				   *o = slot == 3 ? x : z;
		double		u[3],
					v[3];
		int			f;

		/* slot 3: det[x - P; y - P; z - P] = -(P - x) . ((y - x) x (z - x)); slot 0: (P - z) . ((x - z) x (y - z)) */
		for (int k = 0; k < 3; k++)
		{
			u[k] = (slot == 3 ? y : x)[k] - o[k];
			v[k] = (slot == 3 ? z : y)[k] - o[k];
		}
		f = near_sign(p, slot == 3 ? -1 : 1, r, u, v);
		if (f != 2)
			return f;
	}
	/* va + t (vb - va) + u (vc - va) */
	if (p->exact)
		p->exact(p->ctx);
	mpq_inits(va, vb, w, NULL);
	for (int k = 0, m = 0; k < 4; k++)
		args[k] = k == slot ? p->a : others[m++];
	gx_orient3d_value(args[0], args[1], args[2], args[3], va);
	args[slot] = p->b;
	gx_orient3d_value(args[0], args[1], args[2], args[3], vb);
	mpq_sub(vb, vb, va);
	mpq_mul(vb, vb, p->t);
	mpq_add(w, va, vb);
	if (p->u)
	{
		args[slot] = p->c;
		gx_orient3d_value(args[0], args[1], args[2], args[3], vb);
		mpq_sub(vb, vb, va);
		mpq_mul(vb, vb, p->u);
		mpq_add(w, w, vb);
	}
	sign = mpq_sgn(w);
	mpq_clears(va, vb, w, NULL);
	return sign;
}

/* orient3d(x, y, z, P) */
static int
side_of_plane(const SegPoint *p, const double *x, const double *y, const double *z)
{
	int			sa = gx_orient3d(x, y, z, p->a);

	return affine_sign(p, sa, p->t ? gx_orient3d(x, y, z, p->b) : sa, p->u ? gx_orient3d(x, y, z, p->c) : sa,
					   x, y, z, 3);
}

/* orient3d(P, q, x, y) */
static int
side_of_edge(const SegPoint *p, const double *q, const double *x, const double *y)
{
	int			sa = gx_orient3d(p->a, q, x, y);

	return affine_sign(p, sa, p->t ? gx_orient3d(p->b, q, x, y) : sa, p->u ? gx_orient3d(p->c, q, x, y) : sa,
					   q, x, y, 0);
}

typedef struct Ray
{
	const GxSolidIndex *s;
	SegPoint	p;
	double		q[3];
	unsigned	crossings;
	bool		degenerate;
	/* counted per shell instead (gx_solid_ray_shells): triangle i is shell_of[i]; those of skip are ignored */
	const uint32_t *shell_of;
	uint32_t	skip;
	uint32_t   *per_shell;
	bool		halve;			/* every coordinate halved first (a solid spanning the doubles' range) */
	bool		inexact;		/* a coordinate that halving does not keep exact was met */
} Ray;

/* x / 2 for each of n coordinates, into out: false where that is not exact (odd multiples of 2^-1074). */
static bool
halved(const double *x, int n, double *out)
{
	for (int k = 0; k < n; k++)
	{
		out[k] = x[k] / 2;
		if (out[k] * 2 != x[k])
			return false;
	}
	return true;
}

/* Does the ray P -> q cross triangle i through its interior (counted), miss it, or meet it degenerately? */
static bool
ray_visit(void *ctx, size_t i)
{
	Ray		   *r = ctx;
	const double *t = r->s->tri + 9 * i;
	double		half[9];
	int			sp,
				sq,
				e[3];
	bool		pos = false,
				neg = false,
				zero = false;

	if (r->shell_of && r->shell_of[i] == r->skip)
		return true;
	if (r->halve)
	{
		if (!halved(t, 9, half))
		{
			r->inexact = true;
			return false;
		}
		t = half;
	}
	sp = side_of_plane(&r->p, t, t + 3, t + 6);
	sq = gx_orient3d(t, t + 3, t + 6, r->q);
	if (sp == 0 && sq == 0)
	{
		/* the ray lies in the triangle's plane, and its box meets the triangle's: try another ray */
		r->degenerate = true;
		return false;
	}
	/* P is off the boundary and q outside the box: touching the plane only there is no crossing */
	if (sp == 0 || sq == 0 || sp == sq)
		return true;
	e[0] = side_of_edge(&r->p, r->q, t, t + 3);
	e[1] = side_of_edge(&r->p, r->q, t + 3, t + 6);
	e[2] = side_of_edge(&r->p, r->q, t + 6, t);
	for (int k = 0; k < 3; k++)
	{
		pos |= e[k] > 0;
		neg |= e[k] < 0;
		zero |= e[k] == 0;
	}
	if (pos && neg)
		return true;
	if (zero)
	{
		r->degenerate = true;
		return false;
	}
	if (r->per_shell)
		r->per_shell[r->shell_of[i]]++;
	else
		r->crossings++;
	return true;
}

/*
 * A double point near P (P itself when t is NULL), and how far P may be from it: (1 - t - u) a + t b + u c,
 * weights in [0, 1], neither overflows nor, but for a few units of the last place of the subnormals
 * (DBL_MIN covers them), loses more than a few rounding errors of the largest vertex.
 */
static void
approximate(const SegPoint *p, double x[3], double *slack)
{
	double		t = p->exact ? p->td : p->t ? mpq_get_d(p->t) : 0,
				u = p->exact ? p->ud : p->u ? mpq_get_d(p->u) : 0;

	*slack = 0;
	for (int k = 0; k < 3; k++)
	{
		double		c = p->u ? p->c[k] : 0;

		x[k] = p->t ? (1 - t - u) * p->a[k] + t * p->b[k] + u * c : p->a[k];
		if (p->t)
			*slack = fmax(*slack, 1e-12 * fmax(fmax(fabs(p->a[k]), fabs(p->b[k])), fabs(c)) + DBL_MIN);
	}
}

/* A height strictly above (dir 1) or below (dir -1) the box, finite; NaN when no double is. */
static double
beyond_box(const GxBox3D *b, int dir)
{
	double		edge = dir > 0 ? b->zmax : b->zmin,
				h = (b->zmax - b->zmin) + fabs(b->zmax) + fabs(b->zmin) + 1,
				z = edge + dir * h;

	if (!isfinite(z))
		z = edge / 2 + dir * (DBL_MAX / 2);
	return dir * (z - edge) > 0 ? z : NAN;
}

/*
 * Parity of the crossings of some non-degenerate ray from P; with shells (shell_of not NULL), the
 * crossings with each shell into per_shell[0 .. nshells) instead, those of shell skip ignored.
 */
static GxLocation
cast_counting(const GxSolidIndex *s, const SegPoint *p, const uint32_t *shell_of, uint32_t skip,
			  uint32_t *per_shell, size_t nshells)
{
	double		x[3],
				slack,
				cw[2],
				half[9];
	uint64_t	seed = 0x9E3779B97F4A7C15ull;
	GxBox3D		space = s->box;	/* the solid's box, in the coordinates the rays are cast in */
	SegPoint	hp;
	bool		halve = isnan(beyond_box(&s->box, 1)) && isnan(beyond_box(&s->box, -1));

	/*
	 * A solid whose heights span every double leaves no finite height for a ray to end beyond it: then
	 * every coordinate is halved, which keeps each sign (orientations are homogeneous) where it is exact.
	 */
	if (halve)
	{
		double		lo[3] = {s->box.xmin, s->box.ymin, s->box.zmin},
					hi[3] = {s->box.xmax, s->box.ymax, s->box.zmax};

		hp = *p;
		if (!halved(p->a, 3, half) || (p->b && !halved(p->b, 3, half + 3)) || (p->c && !halved(p->c, 3, half + 6)))
			return GX_LOC_FAILED;
		hp.a = half;
		hp.b = p->b ? half + 3 : NULL;
		hp.c = p->c ? half + 6 : NULL;
		p = &hp;
		for (int k = 0; k < 3; k++)
		{
			lo[k] /= 2;
			hi[k] /= 2;
		}
		space = gx_box_of_points(lo, 1);
		space.xmax = hi[0];
		space.ymax = hi[1];
		space.zmax = hi[2];
	}
	approximate(p, x, &slack);
	if (per_shell)
		memset(per_shell, 0, nshells * sizeof(uint32_t));
	if (!(x[0] + slack >= space.xmin && x[0] - slack <= space.xmax && x[1] + slack >= space.ymin &&
		  x[1] - slack <= space.ymax && x[2] + slack >= space.zmin && x[2] - slack <= space.zmax))
		return GX_LOC_OUTSIDE;
	/* half cell widths, without overflow on a box wider than the largest double */
	cw[0] = space.xmax / s->grid.dim[0] / 2 - space.xmin / s->grid.dim[0] / 2;
	cw[1] = space.ymax / s->grid.dim[1] / 2 - space.ymin / s->grid.dim[1] / 2;
	for (int attempt = 0; attempt < MAX_RAYS; attempt++)
	{
		Ray			r = {s, *p, {0, 0, 0}, 0, false, shell_of, skip, per_shell, halve, false};
		GxBox3D		box;

		if (per_shell)
			memset(per_shell, 0, nshells * sizeof(uint32_t));
		memcpy(r.p.x, x, sizeof(x));
		r.p.slack = slack;
		for (int k = 0; k < 2; k++)
		{
			double		u;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			u = ((double) (seed >> 11) / 9007199254740992.0 - 0.5);	/* in [-1/2, 1/2): a quarter cell each way */
			r.q[k] = x[k] + u * (cw[k] > 0 ? cw[k] : 1);
		}
		r.q[2] = beyond_box(&space, attempt % 2 == 0 ? 1 : -1);
		if (isnan(r.q[2]) || !isfinite(r.q[0]) || !isfinite(r.q[1]))
			continue;
		box = gx_box_of_points(r.q, 1);
		box.xmin = fmin(box.xmin, x[0] - slack);
		box.ymin = fmin(box.ymin, x[1] - slack);
		box.zmin = fmin(box.zmin, x[2] - slack);
		box.xmax = fmax(box.xmax, x[0] + slack);
		box.ymax = fmax(box.ymax, x[1] + slack);
		box.zmax = fmax(box.zmax, x[2] + slack);
		if (halve)
		{
			/* the triangles to visit, in the stored coordinates: within the solid's box */
			box.xmin = fmax(2 * box.xmin, s->box.xmin);
			box.ymin = fmax(2 * box.ymin, s->box.ymin);
			box.zmin = fmax(2 * box.zmin, s->box.zmin);
			box.xmax = fmin(2 * box.xmax, s->box.xmax);
			box.ymax = fmin(2 * box.ymax, s->box.ymax);
			box.zmax = fmin(2 * box.zmax, s->box.zmax);
		}
		gx_solid_index_search(s, &box, ray_visit, &r);
		if (r.inexact)
			return GX_LOC_FAILED;
		if (!r.degenerate)
			return r.crossings % 2 ? GX_LOC_INSIDE : GX_LOC_OUTSIDE;
	}
	return GX_LOC_FAILED;
}

static GxLocation
cast(const GxSolidIndex *s, const SegPoint *p)
{
	return cast_counting(s, p, NULL, 0, NULL, 0);
}

bool
gx_solid_ray_shells(const GxSolidIndex *s, const double *a, const double *b, mpq_srcptr t, const uint32_t *shell_of,
					uint32_t skip, uint32_t *counts, size_t nshells)
{
	SegPoint	p = {a, b, NULL, t, NULL, {0, 0, 0}, 0, NULL, NULL, 0, 0};

	return cast_counting(s, &p, shell_of, skip, counts, nshells) != GX_LOC_FAILED;
}

typedef struct OnBoundary
{
	const GxSolidIndex *s;
	const double *p;
	bool		found;
} OnBoundary;

static bool
boundary_visit(void *ctx, size_t i)
{
	OnBoundary *b = ctx;

	b->found = gx_elements_intersect(b->p, 1, b->s->tri + 9 * i, 3);
	return !b->found;
}

/* The vertical ray up from a double point p: crossings counted, or where p was found to lie. */
typedef struct UpRay
{
	const GxSolidIndex *s;
	const double *p;
	size_t		column;			/* of the grid, holding p */
	unsigned	crossings;
	GxLocation	found;			/* GX_LOC_BOUNDARY, or GX_LOC_FAILED when the ray meets an edge's or a vertex's vertical */
	bool		stopped;
} UpRay;

/* Signs from the double filter inline, else the exact ladder: a located point makes many of them. */
static inline int
orient2d_xy(const double *a, const double *b, const double *c)
{
	int			s = gx_orient2d_filter(a, b, c, 2);

	return s != GX_UNDECIDED ? s : gx_orient2d(a, b, c, 2);
}

static inline int
orient3d_first_filter(const double *a, const double *b, const double *c, const double *d)
{
	int			s = gx_orient3d_filter(a, b, c, d);

	return s != GX_UNDECIDED ? s : gx_orient3d(a, b, c, d);
}

/*
 * Triangle i against the ray: in the (x, y) projection p must lie strictly inside the triangle (three
 * orient2d signs, all equal to the triangle's own orientation); then p lies on it (orient3d zero) or below
 * it, which is a crossing, when orient3d(t0, t1, t2, p) has that same sign (Shewchuk's convention: positive
 * below a triangle counter-clockwise seen from above). A zero orient2d means the ray may meet an edge, a
 * vertex or a vertical triangle: the general ray decides.
 */
static bool
up_visit(UpRay *r, size_t i)
{
	const double *t = r->s->tri + 9 * i;
	int			e0,
				e1,
				e2,
				o;

	e0 = orient2d_xy(r->p, t, t + 3);
	e1 = orient2d_xy(r->p, t + 3, t + 6);
	if (e0 * e1 < 0)
		return true;
	e2 = orient2d_xy(r->p, t + 6, t);
	if (e0 * e2 < 0 || e1 * e2 < 0)
		return true;
	if (e0 == 0 || e1 == 0 || e2 == 0)
	{
		r->found = GX_LOC_FAILED;
		r->stopped = true;
		return false;
	}
	o = orient3d_first_filter(t, t + 3, t + 6, r->p);
	if (o == 0)
	{
		r->found = GX_LOC_BOUNDARY;
		r->stopped = true;
		return false;
	}
	r->crossings += o == e0;
	return true;
}

/*
 * The vertical ray up from r->p over the one column of the grid that holds p: the triangles whose boxes the
 * ray's box (p, up to the solid's top) overlaps, as gx_solid_index_search finds them (in a single column
 * every overlapping triangle is listed once), without its calls per triangle.
 */
static void
up_ray(UpRay *r)
{
	const GxSolidIndex *s = r->s;
	const double *p = r->p;
	size_t		c = r->column;

	for (size_t k = s->grid.start[c]; k < s->grid.start[c + 1]; k++)
	{
		const GxBox3D *b = &s->boxes[s->grid.items[k]];

		if (p[0] < b->xmin || p[0] > b->xmax || p[1] < b->ymin || p[1] > b->ymax || p[2] > b->zmax)
			continue;
		if (!up_visit(r, s->grid.items[k]))
			return;
	}
}

/* Where the double point p of the solid's box lies, by its rays. */
static GxLocation
locate_by_rays(const GxSolidIndex *s, const double *p, size_t column)
{
	OnBoundary	b = {s, p, false};
	GxBox3D		box = gx_box_of_points(p, 1);
	SegPoint	sp = {p, p, NULL, NULL, NULL, {0, 0, 0}, 0, NULL, NULL, 0, 0};
	UpRay		up = {s, p, column, 0, GX_LOC_OUTSIDE, false};

	/* the vertical ray first: it passes over one column of cells and needs 2D signs only */
	up_ray(&up);
	if (!up.stopped)
		return up.crossings % 2 ? GX_LOC_INSIDE : GX_LOC_OUTSIDE;
	if (up.found == GX_LOC_BOUNDARY)
		return GX_LOC_BOUNDARY;
	gx_solid_index_search(s, &box, boundary_visit, &b);
	return b.found ? GX_LOC_BOUNDARY : cast(s, &sp);
}

/* A point in a run of free bins of its column takes the run's side, found by the rays from the first point located there. */
GxLocation
gx_solid_locate(const GxSolidIndex *s, const double *p)
{
	GxBox3D		box = gx_box_of_points(p, 1);
	size_t		column;
	int			bin;
	GxLocation	loc;

	if (s->n == 0 || !gx_box_contains(&s->box, &box))
		return GX_LOC_OUTSIDE;
	column = gx_grid_cell(&s->grid, gx_grid_coord(&s->grid, 0, p[0]), gx_grid_coord(&s->grid, 1, p[1]), 0);
	loc = gx_solid_gap_side(s, column, p[2], &bin);
	if (loc != GX_LOC_FAILED)
		return loc;
	loc = locate_by_rays(s, p, column);
	if (bin >= 0 && (loc == GX_LOC_INSIDE || loc == GX_LOC_OUTSIDE))
		gx_solid_gap_learn(s, column, bin, loc);
	return loc;
}

GxLocation
gx_solid_locate_off_boundary(const GxSolidIndex *s, const double *a, const double *b, mpq_srcptr t)
{
	SegPoint	p = {a, b, NULL, t, NULL, {0, 0, 0}, 0, NULL, NULL, 0, 0};

	return cast(s, &p);
}

GxLocation
gx_solid_locate_in_triangle(const GxSolidIndex *s, const double *tri, mpq_srcptr t, mpq_srcptr u)
{
	SegPoint	p = {tri, tri + 3, tri + 6, t, u, {0, 0, 0}, 0, NULL, NULL, 0, 0};

	return cast(s, &p);
}

GxLocation
gx_solid_locate_in_triangle_lazy(const GxSolidIndex *s, const double *tri, double td, double ud, mpq_srcptr t,
								 mpq_srcptr u, void (*exact) (void *ctx), void *ctx)
{
	SegPoint	p = {tri, tri + 3, tri + 6, t, u, {0, 0, 0}, 0, exact, ctx, td, ud};

	return cast(s, &p);
}

bool
gx_solids_grid(GxGrid *grid, const GxSolidIndex *solids, size_t n, GxError *err)
{
	GxBox3D		extent,
			   *boxes;
	int			dim[3];
	bool		ok;

	memset(grid, 0, sizeof(*grid));
	gx_box_set_empty(&extent);
	for (size_t k = 0; k < n; k++)
		if (solids[k].n > 0)
			gx_box_extend(&extent, &solids[k].box);
	if (gx_box_is_empty(&extent))
		return true;
	if ((boxes = malloc(n * sizeof(GxBox3D) + 1)) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the boxes of %zu solids", n);
		return false;
	}
	for (size_t k = 0; k < n; k++)
		boxes[k] = solids[k].box;
	gx_grid_choose_dims(&extent, 4.0 * n, dim);
	ok = gx_grid_build(grid, &extent, dim, boxes, n, NULL, err);
	free(boxes);
	return ok;
}
