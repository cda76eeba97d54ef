/*
 * gx_volume_impl.h: the volume of a solid inside a box (gx_volume.h), written once over a number type and
 * included once per type: GMP rationals (gx_volume.c, exact) and certified double-doubles
 * (gx_volume_filter.c, the filter). Each triangle over the box's column has its projection clipped to the
 * box's rectangle (Sutherland-Hodgman), and six times the integral of clamp(z, zmin, zmax) - zmin over the
 * pieces is added to w->sum.
 *
 * The includer defines, before including:
 *   VOL(name)         the name of this instance's copy of name
 *   VOL_T, VOL_SRC    the number type (an array of one, like mpq_t) and its const pointer
 *   VOL_WORK          a work struct with poly[3][12][3], t, u, v, f, sum of VOL_T
 *   VOL_INIT(x), VOL_CLEAR(x), VOL_SET(r, a), VOL_SET_D(r, d), VOL_SET_UI(r, n), VOL_ADD(r, a, b),
 *   VOL_SUB(r, a, b), VOL_MUL(r, a, b), VOL_DIV(r, a, b), VOL_IS_ZERO(a)
 *   VOL_CMP(w, a, b)  the sign of a - b (an instance that cannot decide records it in w and says 0)
 * and may define VOL_FN, how its functions are declared (static by default; also __device__ for the GPU,
 * where the search of the solid's index, column_sum, is the kernel's own).
 */
#include <math.h>
#include <stdbool.h>

#include "geom/gx_box.h"
#include "solid/gx_solid.h"

#ifndef VOL_FN
#define VOL_FN static
#endif

typedef VOL_T VOL(Vertex)[3];

/* The box's bounds as numbers: lo[k], hi[k], height = zmax - zmin and its negative. */
typedef struct VOL(Bounds)
{
	VOL_T		lo[3],
				hi[3],
				height,
				neg_height;
} VOL(Bounds);

VOL_FN void
VOL(bounds_init)(VOL(Bounds) *b, const GxBox3D *box)
{
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};

	for (int k = 0; k < 3; k++)
	{
		VOL_INIT(b->lo[k]);
		VOL_INIT(b->hi[k]);
		VOL_SET_D(b->lo[k], lo[k]);
		VOL_SET_D(b->hi[k], hi[k]);
	}
	VOL_INIT(b->height);
	VOL_INIT(b->neg_height);
	VOL_SUB(b->height, b->hi[2], b->lo[2]);
	VOL_SUB(b->neg_height, b->lo[2], b->hi[2]);
}

VOL_FN void
VOL(bounds_clear)(VOL(Bounds) *b)
{
	for (int k = 0; k < 3; k++)
	{
		VOL_CLEAR(b->lo[k]);
		VOL_CLEAR(b->hi[k]);
	}
	VOL_CLEAR(b->height);
	VOL_CLEAR(b->neg_height);
}

/* out = the box's own volume. */
VOL_FN void
VOL(box_volume)(const VOL(Bounds) *b, VOL_T out, VOL_T tmp)
{
	VOL_SUB(out, b->hi[0], b->lo[0]);
	VOL_SUB(tmp, b->hi[1], b->lo[1]);
	VOL_MUL(out, out, tmp);
	VOL_MUL(out, out, b->height);
}

/* t = the z component of (b - a) x (c - a): twice the signed area of the projection of abc. */
VOL_FN void
VOL(cross_z)(VOL_T t, VOL_T u, VOL_T v, VOL(Vertex) a, VOL(Vertex) b, VOL(Vertex) c)
{
	VOL_SUB(u, b[0], a[0]);
	VOL_SUB(v, c[1], a[1]);
	VOL_MUL(t, u, v);
	VOL_SUB(u, b[1], a[1]);
	VOL_SUB(v, c[0], a[0]);
	VOL_MUL(u, u, v);
	VOL_SUB(t, t, u);
}

/*
 * Sutherland-Hodgman: the part of polygon in (n vertices) on the kept side of the plane coordinate[axis] =
 * bound (>= bound when ge, else <=), into out; returns its vertex count. Vertices on the plane are kept;
 * a crossing edge adds the point where it meets the plane.
 */
VOL_FN int
VOL(clip)(VOL_WORK *w, VOL(Vertex) *in, int n, VOL(Vertex) *out, int axis, VOL_SRC bound, bool ge)
{
	int			m = 0;

	for (int i = 0; i < n; i++)
	{
		VOL(Vertex) *p = &in[i],
				   *q = &in[(i + 1) % n];
		int			sp = VOL_CMP(w, (*p)[axis], bound),
					sq = VOL_CMP(w, (*q)[axis], bound);
		bool		pin = ge ? sp >= 0 : sp <= 0,
					qin = ge ? sq >= 0 : sq <= 0;

		if (pin)
		{
			for (int k = 0; k < 3; k++)
				VOL_SET(out[m][k], (*p)[k]);
			m++;
		}
		if (pin != qin && sp != 0 && sq != 0)
		{
			/* t = (bound - p) / (q - p); r = p + t (q - p) */
			VOL_SUB(w->t, bound, (*p)[axis]);
			VOL_SUB(w->u, (*q)[axis], (*p)[axis]);
			VOL_DIV(w->t, w->t, w->u);
			for (int k = 0; k < 3; k++)
			{
				if (k == axis)
				{
					VOL_SET(out[m][k], bound);
					continue;
				}
				VOL_SUB(w->u, (*q)[k], (*p)[k]);
				VOL_MUL(w->u, w->u, w->t);
				VOL_ADD(out[m][k], (*p)[k], w->u);
			}
			m++;
		}
	}
	return m;
}

/*
 * Adds to w->sum six times the integral over the projection of the polygon (n vertices, planar) of value
 * when constant, else of z - value, signed by the projection's orientation: over each fan triangle, its
 * signed area times the mean of the integrand at its vertices.
 */
VOL_FN void
VOL(add_integral)(VOL_WORK *w, VOL(Vertex) *p, int n, VOL_SRC value, bool constant)
{
	for (int i = 1; i + 1 < n; i++)
	{
		VOL(cross_z)(w->v, w->t, w->u, p[0], p[i], p[i + 1]);
		if (VOL_IS_ZERO(w->v))
			continue;
		if (constant)
		{
			VOL_SET_UI(w->t, 3);
			VOL_MUL(w->f, value, w->t);
		}
		else
		{
			VOL_ADD(w->f, p[0][2], p[i][2]);
			VOL_ADD(w->f, w->f, p[i + 1][2]);
			VOL_SET_UI(w->u, 3);
			VOL_MUL(w->t, value, w->u);
			VOL_SUB(w->f, w->f, w->t);
		}
		VOL_MUL(w->f, w->f, w->v);	/* 2 area * 3 mean: six times the integral */
		VOL_ADD(w->sum, w->sum, w->f);
	}
}

VOL_FN void
VOL(load_triangle)(VOL(Vertex) *p, const double *t)
{
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++)
			VOL_SET_D(p[i][k], t[3 * i + k]);
}

/*
 * Adds six times triangle t's share of the volume inside the box to w->sum. Upwards, the integrand is
 * clamp(z, zmin, zmax) - zmin: 0 below the box, the height above it. Downwards it is clamp(z, zmin, zmax) -
 * zmax, smaller by the height everywhere: the same sum over a closed surface, whose signed projected areas
 * add up to 0 over any column, but 0 above the box, so that only the triangles below the box's top count.
 */
VOL_FN void
VOL(add_triangle_in_box)(VOL_WORK *w, const double *t, const GxBox3D *box, const VOL(Bounds) *b, bool down)
{
	VOL(Vertex) *p = w->poly[0],
			   *q = w->poly[1],
			   *r = w->poly[2],
			   *swap;
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};
	double		zlo = fmin(t[2], fmin(t[5], t[8])),
				zhi = fmax(t[2], fmax(t[5], t[8]));
	int			n = 3;

	if (down ? zlo >= hi[2] : zhi <= lo[2])
		return;					/* wholly beyond the box on the side where the integrand is 0 */
	VOL(load_triangle)(p, t);
	/* the rectangle: a side is clipped only when the triangle crosses it */
	for (int k = 0; k < 2 && n >= 3; k++)
	{
		double		tmin = fmin(t[k], fmin(t[3 + k], t[6 + k])),
					tmax = fmax(t[k], fmax(t[3 + k], t[6 + k]));

		if (tmin < lo[k])
		{
			n = VOL(clip)(w, p, n, q, k, b->lo[k], true);
			swap = p, p = q, q = swap;
		}
		if (tmax > hi[k] && n >= 3)
		{
			n = VOL(clip)(w, p, n, q, k, b->hi[k], false);
			swap = p, p = q, q = swap;
		}
	}
	if (n < 3)
		return;
	if (zlo < lo[2])
	{
		/* below zmin the integrand is the constant -height downwards, 0 upwards */
		if (zhi <= lo[2])
		{
			VOL(add_integral)(w, p, n, b->neg_height, true);
			return;
		}
		if (down)
			VOL(add_integral)(w, r, VOL(clip)(w, p, n, r, 2, b->lo[2], false), b->neg_height, true);
		n = VOL(clip)(w, p, n, q, 2, b->lo[2], true);
		swap = p, p = q, q = swap;
	}
	if (zhi > hi[2])
	{
		/* above zmax it is the constant height upwards, 0 downwards */
		if (zlo >= hi[2])
		{
			VOL(add_integral)(w, p, n, b->height, true);
			return;
		}
		if (!down)
			VOL(add_integral)(w, r, VOL(clip)(w, p, n, r, 2, b->hi[2], true), b->height, true);
		n = VOL(clip)(w, p, n, q, 2, b->hi[2], false);
		swap = p, p = q, q = swap;
	}
	VOL(add_integral)(w, p, n, down ? b->hi[2] : b->lo[2], false);	/* within: z - zmin or z - zmax */
}

#ifndef __CUDACC__
typedef struct VOL(Column)
{
	VOL_WORK   *w;
	const GxBox3D *box;
	const VOL(Bounds) *b;
	const double *tri;
	bool		down;
} VOL(Column);

VOL_FN bool
VOL(column_visit)(void *ctx, size_t i)
{
	VOL(Column) *c = ctx;

	VOL(add_triangle_in_box)(c->w, c->tri + 9 * i, c->box, c->b, c->down);
	return true;
}

/*
 * Six times the volume of s inside box into w->sum: every triangle over the box's rectangle that reaches
 * into the column from the box to the solid's top, or to its bottom when that is nearer, adds its share.
 * (A box that no triangle's box reaches needs none of this: it lies wholly inside or wholly outside.)
 */
VOL_FN void
VOL(column_sum)(VOL_WORK *w, const GxSolidIndex *s, const GxBox3D *box, const VOL(Bounds) *b)
{
	GxBox3D		column = *box;
	VOL(Column) c = {w, box, b, s->tri, s->box.zmax - box->zmax > box->zmin - s->box.zmin};

	VOL_SET_UI(w->sum, 0);
	if (c.down)
		column.zmin = fmin(box->zmin, s->box.zmin);
	else
		column.zmax = fmax(box->zmax, s->box.zmax);
	gx_solid_index_search(s, &column, VOL(column_visit), &c);
}
#endif
