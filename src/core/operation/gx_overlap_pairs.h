/*
 * gx_overlap_pairs.h: the pairs of two sets of solids that share a positive volume, with that volume exact
 * and rounded once (the overlay of each candidate pair, gx_overlay.h), on the CPU's threads.
 */
#ifndef GX_OVERLAP_PAIRS_H
#define GX_OVERLAP_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "batch/gx_batch_options.h"
#include "batch/gx_batch_side.h"
#include "operation/gx_pair_lists.h"
#include "solid/gx_solid.h"

/* Solid a of the first set and solid b of the second, with the volume they share. */
typedef GxPairVolume GxOverlapPair;

/*
 * Every (a, b), solid a of a[0..na) and solid b of b[0..nb) (point location indexes; n == 0 for EMPTY),
 * whose common volume is exactly positive, sorted by a then b; *out is malloc'd (free it). The candidates are
 * the pairs whose boxes overlap with a positive volume (a grid over b's boxes); their overlays are shared out
 * among opt->threads threads (gx_threads_begin with opt->thread_budget); opt->cancel is polled. A pair whose two
 * solids are, bit for bit, those of another pair the other way round (a query against itself) takes its volume.
 * max_cuts bounds
 * the cuts of one triangle (gx_overlay.h; 0: none). false with err set: cancelled, a triangle cut past
 * max_cuts (GX_ERR_LIMIT), memory, or a point no ray could locate.
 */
bool		gx_overlap_pairs(const GxSolidIndex *a, size_t na, const GxSolidIndex *b, size_t nb,
							 const GxBatchOptions *opt, size_t max_cuts, GxOverlapPair **out, size_t *nout,
							 GxError *err);

/* What a run of gx_overlap_pairs_of_sides did (for benchmarks and tests). */
typedef struct GxOverlapStats
{
	uint64_t	candidates,		/* pairs of solids whose boxes overlap with a volume */
				same,			/* of which the same solid twice, bit for bit */
				mirrored,		/* that took the volume of the pair the other way round */
				computed,		/* overlays computed on the CPU alone */
				gpu_volumes,	/* same solids' volumes the GPU rounded */
				gpu_pairs,		/* overlays whose candidate pairs of triangles the GPU found */
				gpu_triangle_pairs; /* those candidates */
} GxOverlapStats;

/*
 * The solids' indexes of batch side s (solid k is geometry k; n 0 for EMPTY): its index's when it has them
 * (*built NULL), else built here on the threads with malloc (*built, to free with gx_side_solids_free), of
 * the solids k with needed[k] only unless needed is NULL (the others n 0); NULL with err set on cancel or
 * memory.
 */
const GxSolidIndex *gx_side_solids(const GxBatchSide *s, const bool *needed, const GxBatchOptions *opt,
								   GxSolidIndex **built, GxError *err);
void		gx_side_solids_free(GxSolidIndex *built, size_t n);

/*
 * gx_overlap_pairs of the geometries of batch sides a and b, each a solid or EMPTY (solid k is geometry k):
 * with the solids' indexes of a side's index (gx_side_index.h) when it has them, else indexes made for the
 * call on the threads (the cancel polled between solids) and freed after. Where both sides are kept on the GPU
 * (opt->device_side[0] and [1], b with its solids' columns), the GPU rounds the volumes of the pairs of the
 * same solid and finds the candidate pairs of triangles of the others (cuda/gx_cuda_overlap.cu); the same
 * list, bit for bit. st (or NULL) gets what was done.
 */
bool		gx_overlap_pairs_of_sides(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt,
									  size_t max_cuts, GxOverlapPair **out, size_t *nout, GxOverlapStats *st,
									  GxError *err);

/*
 * The same with the sides' solids' indexes given (sa and sb as gx_side_solids makes them for every solid): a
 * caller that keeps them to make the pairs' common parts next.
 */
bool		gx_overlap_pairs_of_indexes(const GxBatchSide *a, const GxSolidIndex *sa, const GxBatchSide *b,
										const GxSolidIndex *sb, const GxBatchOptions *opt, size_t max_cuts,
										GxOverlapPair **out, size_t *nout, GxOverlapStats *st, GxError *err);

#endif
