/*
 * gx_volume.h: the exact volume of a solid, whole or inside an axis-aligned box, rounded once.
 *
 * A vertical line meets a closed, consistently oriented surface in crossings that alternate between
 * entering (normal pointing down) and leaving (normal pointing up), so the length of the line inside the
 * solid and within [zmin, zmax] is the sum over crossings of sign(n_z) * (clamp(z, zmin, zmax) - zmin).
 * Integrated over the box's (x, y) rectangle, the volume inside the box is the sum over triangles of
 * the integral, over the triangle's projection clipped to the rectangle, of clamp(z, zmin, zmax) - zmin,
 * signed by the projection's orientation. Each integral is that of a piecewise linear function over convex
 * pieces with rational vertices: the pieces below zmin give 0, those between zmin and zmax the linear z -
 * zmin, those above the constant zmax - zmin. Everything is exact (GMP rationals): no decision is taken,
 * so faces, edges and vertices of the solid on the box's planes need no special case. Without a box the
 * volume is the sum of the triangles' signed prisms down to z = 0. The result is rounded once to the
 * nearest double (gx_round.h).
 */
#ifndef GX_VOLUME_H
#define GX_VOLUME_H

#include <stdbool.h>
#include <stdint.h>
#include <gmp.h>

#include "base/gx_interrupt.h"
#include "batch/gx_batch.h"
#include "operation/gx_pair_lists.h"
#include "operation/gx_volume_filter.h"
#include "solid/gx_solid.h"

/* Scratch of one thread: rationals for the exact path (clipped polygons and sums), and the filter's. */
typedef struct GxVolumeWork
{
	mpq_t		poly[3][12][3];	/* clipped polygons: at most 9 vertices each */
	mpq_t		t,
				u,
				v,
				f,
				sum;
	GxVolumeFilterWork filter;
	bool		unlocated;		/* a box's corner could not be located in its solid: its volume is not known */
} GxVolumeWork;

/* How the volumes of boxes were found, counted per thread: the tests check that each way is taken. */
typedef struct GxVolumeStats
{
	uint64_t	located;		/* the surface misses the box: one point located */
	uint64_t	filtered;		/* certified and rounded by the filter */
	uint64_t	filtered_gpu;	/* by the filter on the GPU */
	uint64_t	open_box_empty; /* near zero, and no triangle meets the open box: 0 */
	uint64_t	exact;			/* in rationals */
} GxVolumeStats;

extern _Thread_local GxVolumeStats gx_volume_stats;

void		gx_volume_work_init(GxVolumeWork *w);
void		gx_volume_work_clear(GxVolumeWork *w);

/* The exact volume of the n triangles at tri (a closed, oriented surface: a solid's), into out. */
void		gx_volume_exact(const double *tri, size_t n, GxVolumeWork *w, mpq_t out);

/* The box's own volume, exact, into out (w's temporaries used). */
void		gx_box_volume_exact(const GxBox3D *box, GxVolumeWork *w, mpq_t out);

/*
 * The exact volume of the part of the solid indexed by s that lies inside box (finite, min <= max), into
 * out. A box that meets no triangle is wholly inside or outside: one corner is located.
 */
void		gx_volume_in_box_exact(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w, mpq_t out);

/*
 * The same volume, correctly rounded, by the fastest way that is certain: one located corner when the
 * surface misses the box; else the filter (gx_volume_filter.h); a filtered value that may be 0 is 0 when
 * no triangle meets the open box (the box then lies wholly inside or outside, and its own volume is larger);
 * else the exact rationals. The result is > 0 when the exact volume is at least half the smallest subnormal
 * (2^-1075); a positive volume below that rounds to 0.
 */
double		gx_volume_in_box_nearest(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w);

/*
 * The volume of a solid (GX_FLAG_SOLID), correctly rounded; 0 for EMPTY. false with err set when g is not
 * a solid.
 */
bool		gx_volume(const GxSerialized *g, double *out, GxError *err);

/*
 * The volume of the part of solid inside box, correctly rounded. index: the solid's, or NULL to build one.
 * false with err set when g is not a solid, the box is not finite, or memory runs out.
 */
bool		gx_volume_in_box(const GxSerialized *g, const GxSolidIndex *index, const GxBox3D *box, double *out,
							 GxError *err);

/* A box of a block model (a) and a solid (b) with part of its volume in it (0 when it rounds below 2^-1075). */
typedef GxPairVolume GxVolumePair;

/*
 * Every (box, solid) whose exact shared volume is positive, with that volume rounded once (to 0 when it is
 * below half the smallest subnormal: such a pair is listed all the same), sorted by box
 * then solid; *out is malloc'd (free it). Boxes must be finite with min <= max. The boxes are shared out
 * among opt->threads threads (gx_threads_begin with opt->thread_budget); when the solids are side 1 of a
 * batch kept on the GPU with their columns (opt->device_side[1]: solid k is its geometry k), the boxes
 * their surfaces reach are filtered there, and what it cannot round is decided here. false with err set
 * on cancel or memory.
 */
bool		gx_volume_pairs(const GxBox3D *boxes, size_t nboxes, const GxSolidIndex *solids, size_t nsolids,
							const GxBatchOptions *opt, GxVolumePair **out, size_t *nout, GxError *err);

/*
 * gx_volume_pairs of the geometries of batch side s, each a solid or EMPTY (solid k is geometry k), with the
 * solids' point location indexes of the side's index (gx_side_index.h), or of one made for the call and
 * freed after. Also false when a geometry with elements is not a solid.
 */
bool		gx_volume_pairs_of_side(const GxBox3D *boxes, size_t nboxes, GxBatchSide *s, const GxBatchOptions *opt,
									GxVolumePair **out, size_t *nout, GxError *err);

#endif
