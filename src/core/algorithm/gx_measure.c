/*
 * gx_measure.c: 3D lengths along polylines and areas of surfaces (compensated), and the point at a given
 * length along a line (exact, rounded once).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "algorithm/gx_measure.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"

/* Squares of components beyond this overflow or lose bits to underflow: those segments are scaled by 2^-k. */
#define SQUARE_SAFE_MAX	0x1p500
#define SQUARE_SAFE_MIN	0x1p-500

double
gx_segment_length(const double a[3], const double b[3])
{
	double		d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
	double		big = fmax(fabs(d[0]), fmax(fabs(d[1]), fabs(d[2])));
	int			k;

	if (big == 0 || isinf(big))
		return big;
	if (big < SQUARE_SAFE_MAX && big > SQUARE_SAFE_MIN)
		return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	/* exact scaling by a power of two keeps the error bound of the plain formula */
	frexp(big, &k);
	for (int i = 0; i < 3; i++)
		d[i] = ldexp(d[i], -k);
	return ldexp(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), k);
}

void
gx_segment_length2_exact(const double a[3], const double b[3], mpq_ptr out)
{
	mpq_t		d,
				x;

	mpq_inits(d, x, NULL);
	mpq_set_ui(out, 0, 1);
	for (int k = 0; k < 3; k++)
	{
		mpq_set_d(d, b[k]);
		mpq_set_d(x, a[k]);
		mpq_sub(d, d, x);
		mpq_mul(d, d, d);
		mpq_add(out, out, d);
	}
	mpq_clears(d, x, NULL);
}

double
gx_polyline_length(const double *xyz, size_t n)
{
	GxSum		s = {0, 0};

	for (size_t i = 1; i < n; i++)
		gx_sum_add(&s, gx_segment_length(xyz + 3 * (i - 1), xyz + 3 * i));
	return gx_sum_value(&s);
}

static bool
length_leaf(void *ctx, const GxNode *leaf)
{
	GxSum	   *s = ctx;
	const double *xyz = gx_node_coords(leaf);

	if (leaf->type == GX_LINESTRING)
		for (uint32_t i = 1; i < leaf->count; i++)
			gx_sum_add(s, gx_segment_length(xyz + 3 * (i - 1), xyz + 3 * i));
	return true;
}

double
gx_geom_length(const GxSerialized *g)
{
	GxSum		s = {0, 0};

	gx_node_walk(gx_body(g), length_leaf, &s);
	return gx_sum_value(&s);
}

/*
 * b - a as 2^k d, returning k, with the largest |d[i]| in [1/2, 1) (d zero when a == b). A difference beyond
 * DBL_MAX is taken as b/2 - a/2 (then both are at least DBL_MAX / 4 or so in size: halving them is exact, and
 * a small component loses at most half the smallest subnormal). Scaling by 2^-k is exact but for what
 * becomes subnormal, half of 2^-1074 at most: nothing next to the largest component, which is at least 1/2.
 */
static int
scaled_difference(const double *a, const double *b, double d[3])
{
	double		big = 0;
	int			k = 0,
				e;

	for (int i = 0; i < 3; i++)
		big = fmax(big, fabs(d[i] = b[i] - a[i]));
	if (isinf(big))
	{
		big = 0;
		k = 1;
		for (int i = 0; i < 3; i++)
			big = fmax(big, fabs(d[i] = b[i] / 2 - a[i] / 2));
	}
	if (big == 0)
		return 0;
	frexp(big, &e);
	for (int i = 0; i < 3; i++)
		d[i] = ldexp(d[i], -e);
	return k + e;
}

/*
 * Adds the areas of a leaf's triangles (other leaves have none): |u x v| / 2 of the sides u and v scaled to
 * components below 1 (gx_measure.h: no square overflows, none that matters underflows), scaled back once.
 */
static bool
area_leaf(void *ctx, const GxNode *leaf)
{
	GxSum	   *s = ctx;
	const double *c = gx_node_coords(leaf);

	if (leaf->type != GX_TRIANGLE && leaf->type != GX_TIN && leaf->type != GX_POLYHEDRALSURFACE)
		return true;
	for (uint32_t i = 0; i < leaf->count; i++, c += 9)
	{
		double		u[3],
					v[3];
		int			k = scaled_difference(c, c + 3, u) + scaled_difference(c, c + 6, v);
		double		n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};

		gx_sum_add(s, ldexp(0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), k));
	}
	return true;
}

double
gx_geom_area(const GxSerialized *g)
{
	GxSum		s = {0, 0};

	gx_node_walk(gx_body(g), area_leaf, &s);
	return gx_sum_value(&s);
}

/*
 * The point of segment a -> b at length m - c0 >= 0 from a: each coordinate a + (m - c0) / |b - a| (b - a),
 * that is a + q sqrt(|b - a|^2) with q = (m - c0) (b - a) / |b - a|^2, rounded once; b where m - c0 >= |b - a|.
 */
static void
point_at_length(const double *a, const double *b, double m, double c0, double out[3])
{
	mpq_t		len2,
				s,
				q,
				p;

	mpq_inits(len2, s, q, p, NULL);
	gx_segment_length2_exact(a, b, len2);
	mpq_set_d(s, m);
	mpq_set_d(q, c0);
	mpq_sub(s, s, q);
	mpq_mul(q, s, s);
	if (mpq_cmp(q, len2) >= 0)
		memcpy(out, b, 3 * sizeof(double));
	else
		for (int k = 0; k < 3; k++)
		{
			mpq_set_d(q, b[k]);
			mpq_set_d(p, a[k]);
			mpq_sub(q, q, p);
			mpq_mul(q, q, s);
			mpq_div(q, q, len2);
			out[k] = gx_round_sum_sqrt(p, q, len2);
		}
	mpq_clears(len2, s, q, p, NULL);
}

bool
gx_polyline_locate(const double *xyz, size_t n, double m, double out[3], GxError *err)
{
	double		total = gx_polyline_length(xyz, n);
	GxSum		s = {0, 0};

	if (isinf(total))
	{
		gx_error_set(err, GX_ERR_INVALID, "the line is too long to measure in float8 (its length exceeds %g)", DBL_MAX);
		return false;
	}
	if (isnan(m))
	{
		gx_error_set(err, GX_ERR_INVALID, "the length is NaN");
		return false;
	}
	if (!(m >= 0 && m <= total))
	{
		gx_error_set(err, GX_ERR_INVALID, "length %.17g is outside [0, %.17g], the line's length",
					 m, total);
		return false;
	}
	/* the same sums, in the same order, as gx_polyline_length: m == total is met at the last vertex */
	for (size_t i = 0; i + 1 < n; i++)
	{
		const double *a = xyz + 3 * i;
		const double *b = a + 3;
		double		start = gx_sum_value(&s);
		double		len = gx_segment_length(a, b);

		if (m == start)
		{
			memcpy(out, a, 3 * sizeof(double));
			return true;
		}
		gx_sum_add(&s, len);
		if (m < gx_sum_value(&s))
		{
			point_at_length(a, b, m, start, out);
			return true;
		}
	}
	memcpy(out, xyz + 3 * (n - 1), 3 * sizeof(double));
	return true;
}

bool
gx_polyline_substring(const double *xyz, size_t n, double from, double to, double **out, size_t *nout,
					  GxError *err)
{
	double	   *p;
	size_t		k = 1;
	GxSum		s = {0, 0};

	if (!(from <= to) && !isnan(from) && !isnan(to))
	{
		gx_error_set(err, GX_ERR_INVALID, "from %.17g is greater than to %.17g", from, to);
		return false;
	}
	if ((p = gx_alloc((n + 2) * 3 * sizeof(double))) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a line");
		return false;
	}
	if (!gx_polyline_locate(xyz, n, from, p, err) || !gx_polyline_locate(xyz, n, to, p + 3 * (n + 1), err))
	{
		gx_free(p);
		return false;
	}
	/* the vertices strictly between, by the cumulative lengths gx_polyline_locate sums */
	for (size_t i = 1; i < n && from < to; i++)
	{
		gx_sum_add(&s, gx_segment_length(xyz + 3 * (i - 1), xyz + 3 * i));
		if (gx_sum_value(&s) > from && gx_sum_value(&s) < to)
			memcpy(p + 3 * k++, xyz + 3 * i, 3 * sizeof(double));
	}
	if (from < to)
		memmove(p + 3 * k++, p + 3 * (n + 1), 3 * sizeof(double));
	*out = p;
	*nout = k;
	return true;
}
