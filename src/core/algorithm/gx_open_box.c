/*
 * gx_open_box.c: does a closed triangle meet the interior of a box (gx_open_box.h)? The separating planes
 * are tried in turn: the box's faces, the triangle's plane, and in each axis-dropping projection the
 * triangle's edge lines.
 */
#include <math.h>

#include "algorithm/gx_open_box.h"
#include "algorithm/gx_predicates.h"

/* The box's corner number c (bit k: max along axis k). */
static void
corner(const GxBox3D *box, int c, double *p)
{
	p[0] = c & 1 ? box->xmax : box->xmin;
	p[1] = c & 2 ? box->ymax : box->ymin;
	p[2] = c & 4 ? box->zmax : box->zmin;
}

/* Does a box face's plane separate them: the triangle wholly at or beyond one face? */
static bool
face_separates(const double *t, const double *lo, const double *hi)
{
	for (int k = 0; k < 3; k++)
	{
		double		tmin = fmin(t[k], fmin(t[3 + k], t[6 + k])),
					tmax = fmax(t[k], fmax(t[3 + k], t[6 + k]));

		if (tmax <= lo[k] || tmin >= hi[k])
			return true;
	}
	return false;
}

/* Does the triangle's plane separate them: every corner on one closed side? (A degenerate one has none.) */
static bool
plane_separates(const double *t, const GxBox3D *box)
{
	int			below = 0,
				above = 0;

	if (gx_orient2d(t, t + 3, t + 6, 0) == 0 && gx_orient2d(t, t + 3, t + 6, 1) == 0 &&
		gx_orient2d(t, t + 3, t + 6, 2) == 0)
		return false;
	for (int c = 0; c < 8; c++)
	{
		double		p[3];
		int			s;

		corner(box, c, p);
		s = gx_orient3d(t, t + 3, t + 6, p);
		below |= s < 0;
		above |= s > 0;
	}
	return !(below && above);
}

/*
 * In the projection that drops axis j, does the line of edge ab (c the third vertex) have the projected box
 * on its outer closed side (either side when the projected triangle is flat)?
 */
static bool
edge_line_separates(const double *a, const double *b, const double *c, int j, const GxBox3D *box)
{
	int			k1 = (j + 1) % 3,
				k2 = (j + 2) % 3,
				inner = gx_orient2d(a, b, c, j),
				neg = 0,
				pos = 0;

	if (a[k1] == b[k1] && a[k2] == b[k2])
		return false;			/* the edge projects to a point */
	for (int q = 0; q < 4; q++)
	{
		double		p[3];
		int			s;

		/* the four corners that differ in k1 and k2 (the dropped coordinate is ignored) */
		corner(box, (q & 1 ? 1 << k1 : 0) | (q & 2 ? 1 << k2 : 0), p);
		s = gx_orient2d(a, b, p, j);
		neg |= s < 0;
		pos |= s > 0;
	}
	if (inner > 0)
		return !pos;
	if (inner < 0)
		return !neg;
	return !(neg && pos);
}

bool
gx_triangle_meets_open_box(const double *t, const GxBox3D *box)
{
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};

	if (!(lo[0] < hi[0] && lo[1] < hi[1] && lo[2] < hi[2]))
		return false;
	if (face_separates(t, lo, hi) || plane_separates(t, box))
		return false;
	for (int j = 0; j < 3; j++)
		for (int i = 0; i < 3; i++)
			if (edge_line_separates(t + 3 * i, t + 3 * ((i + 1) % 3), t + 3 * ((i + 2) % 3), j, box))
				return false;
	return true;
}
