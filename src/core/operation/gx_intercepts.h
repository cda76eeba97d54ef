/*
 * gx_intercepts.h: the intervals of a polyline that lie inside or on a closed solid (gx_solid.h), as
 * lengths along the line from its first vertex: drill-hole intercepts.
 *
 * Each segment meets the surface at breakpoints: crossings of a triangle's plane inside the triangle
 * (t = det(a) / (det(a) - det(b)), a rational of the doubles), ends lying on a triangle, and stretches
 * where the segment lies in a triangle's plane (the segment clipped exactly by the triangle's edges).
 * Breakpoints are sorted exactly; each open gap between two is wholly inside or outside, and is located
 * from its midpoint (a rational point of the segment: gx_solid_locate_off_boundary). Only the final
 * lengths are rounded: t to the nearest double, times the segment's length, plus the length before it; and
 * the end points of each interval, a + t (b - a) computed exactly, each coordinate rounded to nearest.
 */
#ifndef GX_INTERCEPTS_H
#define GX_INTERCEPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/gx_interrupt.h"
#include "solid/gx_solid.h"

typedef struct GxInterval
{
	double		from,
				to;				/* metres along the line; from == to for a single touching point */
	double		from_point[3],
				to_point[3];	/* where it starts and ends: the exact points, each coordinate rounded once */
	size_t		from_segment,
				to_segment;		/* the segments (0 = first) holding them: the vertices between are the line's */
} GxInterval;

/*
 * The maximal intervals, ordered, of the polyline of npoints points (3 doubles each) inside or on the
 * solid: *out gx_alloc'd (NULL when none), *n their count. false with err set (memory; no usable ray).
 */
bool		gx_intercepts(const GxSolidIndex *s, const double *line, size_t npoints, GxInterval **out, size_t *n,
						  GxError *err);

/*
 * One polyline against one solid, for gx_intercepts_many; out and n are its results. The triangles each
 * segment meets are found in the solid's index, or, when hits is not NULL, are those hits lists: element
 * pairs of a batch (segment << 32 | triangle, ascending), where segment i of the line is first_segment + i
 * and triangle t of the solid first_triangle + t; pairs with another solid's triangles are passed over.
 */
typedef struct GxInterceptJob
{
	const GxSolidIndex *solid;
	const double *line;
	size_t		npoints;
	const uint64_t *hits;
	size_t		nhits,
				first_segment,
				first_triangle;
	bool		lengths_only;	/* the intervals' from_point and to_point are not wanted (left zero) */
	GxInterval *out;			/* malloc'd (free it), NULL when none */
	size_t		n;
} GxInterceptJob;

/*
 * gx_intercepts of every job, shared out among up to threads threads (gx_threads_begin with budget_dir).
 * false with err set, every job's out freed, on the first failure (memory, no usable ray) or on cancel.
 */
bool		gx_intercepts_many(GxInterceptJob *jobs, size_t n, int threads, const char *budget_dir,
							   const GxCancel *cancel, GxError *err);

/* An intercept of a batch pair: the pair's key (line geometry << 32 | solid geometry) and the interval. */
typedef struct GxPairInterval
{
	uint64_t	key;
	double		from,
				to;
} GxPairInterval;

struct GxBatchSide;

/*
 * The intercepts of the batch pairs keys[0 .. n) (as gx_batch_intersect gives them: a LINESTRING geometry of
 * lines, a solid geometry of solids; keys are sorted here, by solid), each line rebuilt from its side's
 * segments, each solid's index the side's own (a kept side's) or built solid by solid; on up to threads
 * threads (budget_dir as gx_threads_begin). The triangles each segment meets are the batch's element pairs
 * elements[0 .. nelements) when given (GxPairs.elements), else found in the solids' indexes. *out malloc'd
 * (free it), by solid, then line, then along the line. false with err set (memory, no usable ray, cancel).
 */
bool		gx_intercepts_of_pairs(const struct GxBatchSide *lines, const struct GxBatchSide *solids, uint64_t *keys,
								   size_t n, const uint64_t *elements, size_t nelements, int threads,
								   const char *budget_dir, const GxCancel *cancel, GxPairInterval **out, size_t *nout,
								   GxError *err);

/* Whether segment a b lies wholly in the closed volume of solid s: 1, 0, or -1 with err set (memory; no usable ray). */
int			gx_segment_in_solid(const GxSolidIndex *s, const double *a, const double *b, GxError *err);

/*
 * Segment a b lying in the plane of triangle t: its parameters [lo, hi] in the triangle, exactly (drop: an
 * axis whose projection keeps the triangle's orientation, sigma that orientation); false when it misses.
 */
bool		gx_segment_clip_coplanar(const double *a, const double *b, const double *t, int drop, int sigma,
									 mpq_ptr lo, mpq_ptr hi);

#endif
