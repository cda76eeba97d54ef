/*
 * gx_test_tris.h: triangle soups for tests, in C and C++: a growing array of triangles (9 doubles each), a
 * quad, the 12 triangles of a box, outward or inward (a cavity), and the 8 of a jittered octahedron. Shared by the unit tests of volumes,
 * the overlay and its pairs, and the CGAL oracle (test/oracle), which keeps its own container.
 */
#ifndef GX_TEST_TRIS_H
#define GX_TEST_TRIS_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gx_test.h"

typedef struct Tris
{
	double	   *v;
	size_t		n,
				cap;
} Tris;

static inline void
add_tri(Tris *t, const double *a, const double *b, const double *c)
{
	if (t->n == t->cap)
	{
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = (double *) realloc(t->v, t->cap * 9 * sizeof(double));
	}
	memcpy(t->v + 9 * t->n, a, 3 * sizeof(double));
	memcpy(t->v + 9 * t->n + 3, b, 3 * sizeof(double));
	memcpy(t->v + 9 * t->n + 6, c, 3 * sizeof(double));
	t->n++;
}

/* Quad abcd (counter-clockwise seen from outside) as two triangles. */
static inline void
add_quad(Tris *t, const double *a, const double *b, const double *c, const double *d)
{
	add_tri(t, a, b, c);
	add_tri(t, a, c, d);
}

/* The box [lo, hi] as 12 triangles into tri (12 * 9 doubles), outward (inward for a cavity). */
static inline void
box_triangles(const double *lo, const double *hi, bool inward, double *tri)
{
	/* each face: the axis, its side, and its corners counter-clockwise seen from outside */
	for (int ax = 0; ax < 3; ax++)
		for (int side = 0; side < 2; side++)
		{
			int			i = (ax + 1) % 3,
						j = (ax + 2) % 3;
			double		q[4][3];
			const int	ci[4] = {0, 1, 1, 0},
						cj[4] = {0, 0, 1, 1};
			double	   *f = tri + 18 * (2 * ax + side);

			for (int k = 0; k < 4; k++)
			{
				int			kk = (side == 0) != inward ? 3 - k : k;

				q[k][ax] = side ? hi[ax] : lo[ax];
				q[k][i] = ci[kk] ? hi[i] : lo[i];
				q[k][j] = cj[kk] ? hi[j] : lo[j];
			}
			/* triangles q0 q1 q2 and q0 q2 q3 */
			memcpy(f, q[0], 3 * sizeof(double));
			memcpy(f + 3, q[1], 3 * sizeof(double));
			memcpy(f + 6, q[2], 3 * sizeof(double));
			memcpy(f + 9, q[0], 3 * sizeof(double));
			memcpy(f + 12, q[2], 3 * sizeof(double));
			memcpy(f + 15, q[3], 3 * sizeof(double));
		}
}

static inline void
add_box(Tris *t, const double *lo, const double *hi, bool inward)
{
	double		tri[12 * 9];

	box_triangles(lo, hi, inward, tri);
	for (int k = 0; k < 12; k++)
		add_tri(t, tri + 9 * k, tri + 9 * k + 3, tri + 9 * k + 6);
}

/*
 * The octahedron of centre c and radius r, its vertices jittered by up to jitter / 2 (gx_test_rand), outward:
 * 8 triangles into tri (8 * 9 doubles).
 */
static inline void
octahedron_triangles(const double *c, double r, double jitter, double *tri)
{
	double		v[6][3];

	for (int k = 0; k < 6; k++)
	{
		memcpy(v[k], c, 3 * sizeof(double));
		v[k][k / 2] += (k % 2 ? -r : r);
		for (int d = 0; d < 3; d++)
			v[k][d] += jitter * ((double) (gx_test_rand() % 1024) / 1024 - 0.5);
	}
	for (int sx = 0; sx < 2; sx++)
		for (int sy = 0; sy < 2; sy++)
			for (int sz = 0; sz < 2; sz++)
			{
				const double *a = v[sx],
						   *b = v[2 + sy],
						   *cc = v[4 + sz];
				double	   *f = tri + 9 * (4 * sx + 2 * sy + sz);
				bool		odd = (sx + sy + sz) % 2;

				/* outward: (b - a) x (c - a) points away; odd sign count flips the order */
				memcpy(f, a, 3 * sizeof(double));
				memcpy(f + 3, odd ? cc : b, 3 * sizeof(double));
				memcpy(f + 6, odd ? b : cc, 3 * sizeof(double));
			}
}

static inline void
add_octahedron(Tris *t, const double *c, double r, double jitter)
{
	double		tri[8 * 9];

	octahedron_triangles(c, r, jitter, tri);
	for (int k = 0; k < 8; k++)
		add_tri(t, tri + 9 * k, tri + 9 * k + 3, tri + 9 * k + 6);
}

#endif
