/* gx_box.c: closed 3D axis-aligned boxes. */
#include <float.h>
#include <math.h>

#include "geom/gx_box.h"

GxBox3D
gx_box_of_points(const double *c, size_t n)
{
	GxBox3D		b = {c[0], c[1], c[2], c[0], c[1], c[2]};
	size_t		i;

	for (i = 1; i < n; i++)
	{
		const double *p = c + 3 * i;

		b.xmin = p[0] < b.xmin ? p[0] : b.xmin;
		b.ymin = p[1] < b.ymin ? p[1] : b.ymin;
		b.zmin = p[2] < b.zmin ? p[2] : b.zmin;
		b.xmax = p[0] > b.xmax ? p[0] : b.xmax;
		b.ymax = p[1] > b.ymax ? p[1] : b.ymax;
		b.zmax = p[2] > b.zmax ? p[2] : b.zmax;
	}
	return b;
}

void
gx_box_set_empty(GxBox3D *b)
{
	b->xmin = b->ymin = b->zmin = INFINITY;
	b->xmax = b->ymax = b->zmax = -INFINITY;
}

bool
gx_box_is_empty(const GxBox3D *b)
{
	return !(b->xmin <= b->xmax && b->ymin <= b->ymax && b->zmin <= b->zmax);
}

bool
gx_box_equal(const GxBox3D *a, const GxBox3D *b)
{
	return a->xmin == b->xmin && a->ymin == b->ymin && a->zmin == b->zmin &&
		a->xmax == b->xmax && a->ymax == b->ymax && a->zmax == b->zmax;
}

bool
gx_box_contains(const GxBox3D *a, const GxBox3D *b)
{
	return !gx_box_is_empty(a) && !gx_box_is_empty(b) &&
		a->xmin <= b->xmin && b->xmax <= a->xmax &&
		a->ymin <= b->ymin && b->ymax <= a->ymax &&
		a->zmin <= b->zmin && b->zmax <= a->zmax;
}

/* Plain comparisons, not fmin and fmax (library calls): boxes hold no NaN, and an empty box is infinite. */
void
gx_box_extend(GxBox3D *dst, const GxBox3D *src)
{
	dst->xmin = src->xmin < dst->xmin ? src->xmin : dst->xmin;
	dst->ymin = src->ymin < dst->ymin ? src->ymin : dst->ymin;
	dst->zmin = src->zmin < dst->zmin ? src->zmin : dst->zmin;
	dst->xmax = src->xmax > dst->xmax ? src->xmax : dst->xmax;
	dst->ymax = src->ymax > dst->ymax ? src->ymax : dst->ymax;
	dst->zmax = src->zmax > dst->zmax ? src->zmax : dst->zmax;
}

GxBox3D
gx_box_intersection(const GxBox3D *a, const GxBox3D *b)
{
	GxBox3D		r = {a->xmin > b->xmin ? a->xmin : b->xmin, a->ymin > b->ymin ? a->ymin : b->ymin,
		a->zmin > b->zmin ? a->zmin : b->zmin, a->xmax < b->xmax ? a->xmax : b->xmax,
	a->ymax < b->ymax ? a->ymax : b->ymax, a->zmax < b->zmax ? a->zmax : b->zmax};

	return r;
}

GxBox3D
gx_box_expand(const GxBox3D *b, double d)
{
	GxBox3D		r = *b;

	if (d == 0 || gx_box_is_empty(b))
		return r;
	for (int k = 0; k < 3; k++)
	{
		double		lo = nextafter(GX_BOX_LO(b, k) - d, -INFINITY);
		double		hi = nextafter(GX_BOX_HI(b, k) + d, INFINITY);

		((double *) &r.xmin)[k] = lo > -DBL_MAX ? lo : -DBL_MAX;
		((double *) &r.xmax)[k] = hi < DBL_MAX ? hi : DBL_MAX;
	}
	return r;
}
