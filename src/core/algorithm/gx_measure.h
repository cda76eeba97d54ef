/*
 * gx_measure.h: lengths along polylines in 3D and the point at a given length, with compensated summation.
 *
 * Error (u = 2^-53, the unit roundoff): a segment's length is within 3.5u of the exact length of its float8
 * segment (a difference, three squares, two additions and a square root, each rounded once; segments whose
 * squares would overflow or underflow are scaled by an exact power of two first). A sum of n segment lengths,
 * with Neumaier's compensated summation (the same as Sum2 of Ogita, Rump and Oishi, 2005), is within
 * u S + (n u)^2 S of their exact sum S, all terms being positive. So a length along a line is within
 * (4.5u + (n u)^2) of the exact length of the stored polyline, relative: 0.5 picometre on a kilometre.
 */
#ifndef GX_MEASURE_H
#define GX_MEASURE_H

#include <gmp.h>
#include <math.h>
#include <stddef.h>

#include "geom/gx_geom.h"

/* Neumaier's compensated sum: the value is sum + comp (or sum alone once it overflowed). */
typedef struct GxSum
{
	double		sum;
	double		comp;
} GxSum;

static inline void
gx_sum_add(GxSum *s, double x)
{
	double		t = s->sum + x;

	if (fabs(s->sum) >= fabs(x))
		s->comp += (s->sum - t) + x;
	else
		s->comp += (x - t) + s->sum;
	s->sum = t;
}

static inline double
gx_sum_value(const GxSum *s)
{
	return isinf(s->sum) ? s->sum : s->sum + s->comp;
}

/* Euclidean 3D distance from a to b. */
double		gx_segment_length(const double a[3], const double b[3]);

/* |b - a|^2, exactly. */
void		gx_segment_length2_exact(const double a[3], const double b[3], mpq_ptr out);

/* Length of a polyline of n vertices (xyz triples); 0 for n < 2. +Inf only when it exceeds DBL_MAX. */
double		gx_polyline_length(const double *xyz, size_t n);

/* Sum of the 3D lengths of every LINESTRING in g; points and triangles count 0, EMPTY gives 0. */
double		gx_geom_length(const GxSerialized *g);

/*
 * Sum of the 3D areas of every triangle in g (TINs, POLYHEDRALSURFACEs and solids, polygon faces as their
 * triangles); points and lines count 0, EMPTY gives 0. Each area is |(b - a) x (c - a)| / 2 in double
 * precision, the sides scaled by exact powers of two so that nothing overflows or underflows on the way
 * (sides longer than DBL_MAX included); with eps = 2^-53 its error is below 8 eps |b - a| |c - a| (the
 * differences, products, sums and square root each round once) for every triangle, plus, where the area
 * itself is below DBL_MIN (2.2e-308), half of 2^-1074 (it is rounded to a subnormal once); an area beyond
 * DBL_MAX is +Infinity. The compensated sum adds at most 2 eps of the total.
 */
double		gx_geom_area(const GxSerialized *g);

/*
 * The point at length m along a polyline of n >= 2 vertices, measured from its first vertex: at m = 0, at
 * m = the polyline's length, and at each vertex's cumulative length, that vertex exactly; between, on the
 * segment a -> b that starts at length c0 <= m, the exact point a + (m - c0) (b - a) / |b - a| with each
 * coordinate rounded once (b itself where m - c0 reaches |b - a|). Fails (GX_ERR_INVALID) for m outside
 * [0, length], m NaN, or a length beyond DBL_MAX. Returns false on failure.
 */
bool		gx_polyline_locate(const double *xyz, size_t n, double m, double out[3], GxError *err);

/*
 * The part of a polyline of n >= 2 vertices between lengths from and to (0 <= from <= to <= its length):
 * the point at from, the vertices whose cumulative lengths lie strictly between, and the point at to, the
 * end points placed as gx_polyline_locate places them (rounded constructions inside a segment, exact at
 * vertices). *out (3 doubles per point, gx_alloc'd) and *nout, 1 point when from == to. false with err set
 * as gx_polyline_locate, or for from > to or memory.
 */
bool		gx_polyline_substring(const double *xyz, size_t n, double from, double to, double **out, size_t *nout,
								  GxError *err);

#endif
