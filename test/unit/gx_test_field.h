/*
 * gx_test_field.h: height fields over a grid as TINs (topography, a fault), shared by the split's tests: the
 * field's nodes, its triangles counter-clockwise seen from above (its positive side is above), and its height
 * at a point, as its triangles interpolate it.
 */
#ifndef GX_TEST_FIELD_H
#define GX_TEST_FIELD_H

#include <math.h>
#include <stdbool.h>

#include "gx_test_solids.h"

/* A height field over the grid xs x ys (h[i + nx j] at (xs[i], ys[j])): a grid of nodes. */
typedef struct Field
{
	double		xs[8],
				ys[8],
				h[64];
	int			nx,
				ny;
} Field;

static inline void
node(const Field *f, int i, int j, double z0, double *p)
{
	p[0] = f->xs[i];
	p[1] = f->ys[j];
	p[2] = isnan(z0) ? f->h[i + f->nx * j] : z0;
}

/* The field's triangles, counter-clockwise seen from above (reversed: clockwise), at height z0 (NAN: h). */
static inline void
field_triangles(Soup *s, const Field *f, double z0, bool reversed)
{
	for (int i = 0; i + 1 < f->nx; i++)
		for (int j = 0; j + 1 < f->ny; j++)
		{
			double		a[3],
						b[3],
						c[3],
						d[3];

			node(f, i, j, z0, a);
			node(f, i + 1, j, z0, b);
			node(f, i + 1, j + 1, z0, c);
			node(f, i, j + 1, z0, d);
			tri3(s, a, reversed ? c : b, reversed ? b : c);
			tri3(s, a, reversed ? d : c, reversed ? c : d);
		}
}

/*
 * The field's height at (x, y) in the grid, in doubles: on the triangle of cell (i, j) that holds it, (a, b, c)
 * below the cell's diagonal from a to c, (a, c, d) above it. NAN outside the grid.
 */
static inline double
field_height(const Field *f, double x, double y)
{
	int			i = 0,
				j = 0;
	double		s,
				t,
				ha,
				hb,
				hc,
				hd;

	if (x < f->xs[0] || x > f->xs[f->nx - 1] || y < f->ys[0] || y > f->ys[f->ny - 1])
		return NAN;
	while (i + 2 < f->nx && x > f->xs[i + 1])
		i++;
	while (j + 2 < f->ny && y > f->ys[j + 1])
		j++;
	s = (x - f->xs[i]) / (f->xs[i + 1] - f->xs[i]);
	t = (y - f->ys[j]) / (f->ys[j + 1] - f->ys[j]);
	ha = f->h[i + f->nx * j];
	hb = f->h[i + 1 + f->nx * j];
	hc = f->h[i + 1 + f->nx * (j + 1)];
	hd = f->h[i + f->nx * (j + 1)];
	return t <= s ? ha + s * (hb - ha) + t * (hc - hb) : ha + s * (hc - hd) + t * (hd - ha);
}

#endif
