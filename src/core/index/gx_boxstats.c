/*
 * gx_boxstats.c: box statistics for selectivity estimates (see gx_boxstats.h): building the centre
 * histogram and the probability that boxes of two sets overlap.
 *
 * Coordinates are handled halved where they are subtracted (centre = lo/2 + hi/2, spans hi/2 - lo/2), so
 * that no difference overflows even at the ends of the double range.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "index/gx_boxstats.h"

static double
centre(const GxBox3D *b, int d)
{
	return GX_BOX_LO(b, d) / 2 + GX_BOX_HI(b, d) / 2;
}

static double
width(const GxBox3D *b, int d)
{
	double		w = GX_BOX_HI(b, d) - GX_BOX_LO(b, d);

	return isfinite(w) ? w : DBL_MAX;
}

/* Cell of coordinate c on an axis of n cells over the centres [lo, hi]. */
static int
cell_of(double c, double lo, double hi, int n)
{
	double		hs = hi / 2 - lo / 2;
	double		t = hs > 0 ? (c / 2 - lo / 2) / hs * n : 0;

	if (!(t > 0))
		return 0;
	return t >= n ? n - 1 : (int) t;
}

/*
 * Cells per axis: the budget is shared so that cells are about as long on every axis with an extent.
 * Axes go from the shortest: an axis with no extent gets one cell, an axis too short for one cell gets
 * one, and what is left goes to the longer axes. In logarithms, so no product of spans overflows.
 */
static void
grid_shape(const double span[3], int budget, int n[3])
{
	int			order[3] = {0, 1, 2};
	double		left = budget;
	int			i,
				j,
				k;

	for (i = 1; i < 3; i++)
		for (j = i; j > 0 && span[order[j]] < span[order[j - 1]]; j--)
		{
			k = order[j];
			order[j] = order[j - 1];
			order[j - 1] = k;
		}
	for (k = 0; k < 3; k++)
	{
		int			d = order[k];
		double		logsum = 0,
					cells;

		n[d] = 1;
		if (!(span[d] > 0))
			continue;
		for (j = k; j < 3; j++)
			logsum += log(span[order[j]]);
		cells = exp(log(span[d]) + (log(left) - logsum) / (3 - k));
		if (cells > GX_BOXSTATS_MAX_AXIS_CELLS)
			cells = GX_BOXSTATS_MAX_AXIS_CELLS;
		if (cells >= 2)
			n[d] = (int) cells;
		left /= n[d];
	}
}

size_t
gx_boxstats_build(const GxBox3D *boxes, size_t nboxes, size_t nempty, double *out)
{
	double	   *lo = out + 5,
			   *hi = out + 8,
			   *w = out + 11,
			   *cells = out + GX_BOXSTATS_HEADER;
	double		span[3];
	int			n[3];
	size_t		budget = nboxes / GX_BOXSTATS_BOXES_PER_CELL,
				ncells,
				i;
	int			d;

	memset(out, 0, GX_BOXSTATS_HEADER * sizeof(double));
	out[0] = GX_BOXSTATS_VERSION;
	out[1] = nboxes + nempty > 0 ? (double) nempty / (double) (nboxes + nempty) : 0;
	if (nboxes == 0)
		return GX_BOXSTATS_HEADER;

	for (d = 0; d < 3; d++)
	{
		lo[d] = hi[d] = centre(&boxes[0], d);
		for (i = 0; i < nboxes; i++)
		{
			double		c = centre(&boxes[i], d);

			lo[d] = c < lo[d] ? c : lo[d];
			hi[d] = c > hi[d] ? c : hi[d];
			w[d] += width(&boxes[i], d) / (double) nboxes;
		}
		if (!(w[d] <= DBL_MAX))
			w[d] = DBL_MAX;
		span[d] = hi[d] / 2 - lo[d] / 2;
	}
	grid_shape(span, (int) (budget < 1 ? 1 : budget > GX_BOXSTATS_MAX_CELLS ? GX_BOXSTATS_MAX_CELLS : budget), n);
	for (d = 0; d < 3; d++)
		out[2 + d] = n[d];

	ncells = (size_t) n[0] * n[1] * n[2];
	memset(cells, 0, ncells * sizeof(double));
	for (i = 0; i < nboxes; i++)
	{
		int			c[3];

		for (d = 0; d < 3; d++)
			c[d] = cell_of(centre(&boxes[i], d), lo[d], hi[d], n[d]);
		cells[c[0] + n[0] * (c[1] + (size_t) n[1] * c[2])] += 1;
	}
	for (i = 0; i < ncells; i++)
		cells[i] /= (double) nboxes;
	return GX_BOXSTATS_HEADER + ncells;
}

bool
gx_boxstats_decode(const double *v, size_t len, GxBoxStats *s)
{
	size_t		ncells = 1,
				i;
	int			d;

	if (len < GX_BOXSTATS_HEADER || v[0] != GX_BOXSTATS_VERSION || !(v[1] >= 0 && v[1] <= 1))
		return false;
	s->empty_frac = v[1];
	for (d = 0; d < 3; d++)
	{
		if (!(v[2 + d] >= 0 && v[2 + d] <= GX_BOXSTATS_MAX_AXIS_CELLS) || v[2 + d] != (int) v[2 + d])
			return false;
		s->n[d] = (int) v[2 + d];
		s->lo[d] = v[5 + d];
		s->hi[d] = v[8 + d];
		s->width[d] = v[11 + d];
		if (!(isfinite(s->lo[d]) && isfinite(s->hi[d]) && s->lo[d] <= s->hi[d] && s->width[d] >= 0 &&
			  s->width[d] <= DBL_MAX))
			return false;
		ncells *= (size_t) s->n[d];
	}
	if (ncells == 0 && (s->n[0] | s->n[1] | s->n[2]) != 0)
		return false;
	if (len != GX_BOXSTATS_HEADER + ncells)
		return false;
	s->cells = v + GX_BOXSTATS_HEADER;
	for (i = 0; i < ncells; i++)
		if (!(s->cells[i] >= 0 && s->cells[i] <= 1))
			return false;
	return true;
}

void
gx_boxstats_of_box(const GxBox3D *b, GxBoxStats *s, double *cell)
{
	int			d;

	s->empty_frac = 0;
	for (d = 0; d < 3; d++)
	{
		s->n[d] = 1;
		s->lo[d] = s->hi[d] = centre(b, d);
		s->width[d] = width(b, d);
	}
	*cell = 1;
	s->cells = cell;
}

/* ---- Overlap probability -------------------------------------------------------------------------------- */

/* |[x - h, x + h] and [b0, b1]| / (b1 - b0), for b1 > b0: in [0, 1]. */
static double
covered(double x, double h, double b0, double b1)
{
	double		len = fmin(x + h, b1) - fmax(x - h, b0);

	return len > 0 ? fmin(len / (b1 - b0), 1) : 0;
}

static int
double_cmp(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

/*
 * P(|x - y| <= h) for x uniform on [a0, a1] and y uniform on [b0, b1] (an interval of length 0 is a point).
 * With b an interval, P is the mean over x of covered(x), which is piecewise linear in x with breaks where
 * x - h or x + h crosses b0 or b1: the trapezoid rule over those pieces is exact, and every term is a
 * difference of nearby coordinates (no squares of large numbers, no cancellation).
 */
static double
axis_overlap(double a0, double a1, double b0, double b1, double h)
{
	double		la = a1 - a0,
				t[6],
				sum = 0;
	int			nt = 0,
				i;

	if (!(b1 > b0))
	{
		double		y = b0 - a0;

		if (!(la > 0))
			return fabs(y) <= h ? 1 : 0;
		return fmin(fmax(fmin(y + h, la) - fmax(y - h, 0), 0) / la, 1);
	}
	b0 -= a0;
	b1 -= a0;
	if (!(la > 0))
		return covered(0, h, b0, b1);
	t[nt++] = 0;
	t[nt++] = la;
	{
		double		cand[4] = {b0 - h, b1 - h, b0 + h, b1 + h};

		for (i = 0; i < 4; i++)
			if (cand[i] > 0 && cand[i] < la)
				t[nt++] = cand[i];
	}
	qsort(t, nt, sizeof(double), double_cmp);
	for (i = 0; i + 1 < nt; i++)
		sum += (t[i + 1] - t[i]) * (covered(t[i], h, b0, b1) + covered(t[i + 1], h, b0, b1)) / 2;
	return fmin(fmax(sum / la, 0), 1);
}

/* Bounds of cell i of s on axis d, halved. */
static void
cell_bounds(const GxBoxStats *s, int d, int i, double *lo, double *hi)
{
	double		base = s->lo[d] / 2,
				hs = s->hi[d] / 2 - s->lo[d] / 2;

	*lo = base + hs * i / s->n[d];
	*hi = i + 1 == s->n[d] ? s->hi[d] / 2 : base + hs * (i + 1) / s->n[d];
}

/*
 * The sum over every cell i of a and j of b of a's fraction in i, b's in j and the overlap probabilities of
 * their three axes. The axes' factors are separate, so the sum is taken one axis at a time: a's cells
 * against b's cells on x (t1), then on y (t2), then on z (t3), then weighed by b's fractions. Each step
 * costs at most a's or b's cells times 64, instead of a's cells times b's.
 */
double
gx_boxstats_overlap(const GxBoxStats *a, const GxBoxStats *b)
{
	const int  *an = a->n,
			   *bn = b->n;
	size_t		na = (size_t) an[0] * an[1] * an[2],
				nb = (size_t) bn[0] * bn[1] * bn[2],
				npair[3],
				n1 = (size_t) an[1] * an[2] * bn[0],
				n2 = (size_t) an[2] * bn[0] * bn[1];
	double	   *axis[3],
			   *t1,
			   *t2,
			   *t3,
				sum = 0;
	int			d,
				i,
				j;

	if (na == 0 || nb == 0)
		return 0;
	for (d = 0; d < 3; d++)
		npair[d] = (size_t) an[d] * bn[d];
	axis[0] = gx_alloc((npair[0] + npair[1] + npair[2] + n1 + n2 + nb) * sizeof(double));
	if (axis[0] == NULL)
		return -1;
	axis[1] = axis[0] + npair[0];
	axis[2] = axis[1] + npair[1];
	t1 = axis[2] + npair[2];
	t2 = t1 + n1;
	t3 = t2 + n2;

	/* axis[d][i * bn[d] + j]: the overlap probability on axis d of a's cell i and b's cell j */
	for (d = 0; d < 3; d++)
	{
		double		h = a->width[d] / 4 + b->width[d] / 4;	/* (width a + width b) / 2, halved */

		for (i = 0; i < an[d]; i++)
			for (j = 0; j < bn[d]; j++)
			{
				double		a0,
							a1,
							b0,
							b1;

				cell_bounds(a, d, i, &a0, &a1);
				cell_bounds(b, d, j, &b0, &b1);
				axis[d][(size_t) i * bn[d] + j] = axis_overlap(a0, a1, b0, b1, h);
			}
	}

	/* t1[(z * an[1] + y) * bn[0] + jx]: a's cells of row (y, z), against b's x cell jx */
	for (size_t yz = 0; yz < (size_t) an[1] * an[2]; yz++)
		for (j = 0; j < bn[0]; j++)
		{
			double		v = 0;

			for (i = 0; i < an[0]; i++)
				v += a->cells[yz * an[0] + i] * axis[0][(size_t) i * bn[0] + j];
			t1[yz * bn[0] + j] = v;
		}
	/* t2[(z * bn[1] + jy) * bn[0] + jx]: then against b's y cell jy */
	for (int z = 0; z < an[2]; z++)
		for (int jy = 0; jy < bn[1]; jy++)
			for (int jx = 0; jx < bn[0]; jx++)
			{
				double		v = 0;

				for (i = 0; i < an[1]; i++)
					v += t1[((size_t) z * an[1] + i) * bn[0] + jx] * axis[1][(size_t) i * bn[1] + jy];
				t2[((size_t) z * bn[1] + jy) * bn[0] + jx] = v;
			}
	/* t3[(jz * bn[1] + jy) * bn[0] + jx], b's own cell order: then against b's z cell jz */
	for (int jz = 0; jz < bn[2]; jz++)
		for (size_t jxy = 0; jxy < (size_t) bn[0] * bn[1]; jxy++)
		{
			double		v = 0;

			for (i = 0; i < an[2]; i++)
				v += t2[(size_t) i * bn[0] * bn[1] + jxy] * axis[2][(size_t) i * bn[2] + jz];
			t3[jz * (size_t) bn[0] * bn[1] + jxy] = v;
		}
	for (size_t k = 0; k < nb; k++)
		sum += b->cells[k] * t3[k];
	gx_free(axis[0]);
	return fmin(fmax(sum, 0), 1);
}
