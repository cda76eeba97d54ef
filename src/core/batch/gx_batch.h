/*
 * gx_batch.h: the batch engine: red-blue intersection of two sets of geometries (Menezes 2021, chapter 4).
 * Every (a, b) with gx_intersects(a, b) true is found in one run, on the GPU (cuda/, loaded on demand)
 * or on the CPU (OpenMP), with identical pair lists: uniform grid over the common extent, candidate
 * pairs per cell, bounding-box culling (each pair counted in one reference cell), filtered element
 * tests, exact re-decision of what the filters leave open, deduplication to distinct geometry pairs.
 */
#ifndef GX_BATCH_H
#define GX_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "batch/gx_batch_options.h"
#include "batch/gx_batch_side.h"

/*
 * Result: distinct pairs (a_index << 32 | b_index), ascending. With opt->element_pairs, elements lists every
 * intersecting element pair (a's element << 32 | b's element), ascending: the pairs of keys that meet
 * through their surfaces, not those of a geometry inside a solid. Both gx_alloc'd.
 */
typedef struct GxPairs
{
	uint64_t   *keys;
	size_t		n;
	uint64_t   *elements;
	size_t		nelements;
} GxPairs;

/* Is there a pair (a in a, b in b) whose SRIDs conflict (gx_srids_conflict)? */
bool		gx_batch_srids_conflict(const GxBatchSide *a, const GxBatchSide *b, bool strict);

/*
 * Runs the batch; keys are gx_alloc'd. A solid is its volume, as in gx_intersects: after the surfaces'
 * pairs, a geometry lying inside a solid of the other side is paired with it (located on the GPU where
 * opt->device_side holds the solids' side with its columns, else, and for what the GPU leaves open, on the CPU). With
 * opt->distance > 0 the pairs are those gx_dwithin(a, b, distance) finds (the boxes of side a grown by the
 * distance, the element pairs decided by gx_distance.h: on the GPU its certified bounds, the pairs they
 * leave open exactly on the CPU).
 * Returns false with err set (memory, cancel, or mixed SRIDs: some a and b whose SRIDs conflict under
 * opt->strict_srid, as gx_intersects would raise for that pair, unless ignore_srid).
 */
bool		gx_batch_intersect(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt,
							   GxPairs *out, GxBatchStats *stats, GxError *err);

/*
 * The volume filter on the GPU (gx_cuda_volumes in cuda/gx_cuda.h) for solids of side k kept there with
 * their columns (opt->device_side[k]): verdict[i] (a GxVolumeVerdict of operation/gx_volume_filter.h) and
 * value[i] for the solid geometry solid[i] inside box boxes[6i..], its column reaching to reach[i], down or
 * up (down[i]). Returns 1 on success; 0 when the GPU cannot (the caller decides every query itself); -1 on
 * cancel (err set).
 */
int			gx_batch_gpu_volumes(const GxBatchOptions *opt, int k, const double *boxes, const double *reach,
								 const uint8_t *down, const uint32_t *solid, size_t n, uint8_t *verdict,
								 double *value, GxError *err);

/*
 * The GPU's part of gx_overlap_pairs (gx_cuda_overlap_candidates and gx_cuda_solid_volumes of cuda/gx_cuda.h),
 * on sides a and b kept there (opt->device_side[0] and [1]; b with its columns): the candidate pairs of
 * triangles of npairs pairs of solids, *pairs malloc'd (free it); and the volumes of n solids of side k, sign[i]
 * 2 where the GPU left one to the CPU. Each returns 1 on success; 0 when the GPU cannot (the caller does the
 * work itself); -1 on cancel (err set).
 */
int			gx_batch_gpu_overlap_candidates(const GxBatchOptions *opt, const uint64_t *a_first, const uint32_t *a_count,
											const uint32_t *b_solid, const uint64_t *b_first, const double *b_box,
											size_t npairs, uint64_t *start, uint32_t **pairs, GxError *err);
int			gx_batch_gpu_solid_volumes(const GxBatchOptions *opt, int k, const uint64_t *first, const uint32_t *count,
									   size_t n, double *value, int8_t *sign, GxError *err);

#endif
