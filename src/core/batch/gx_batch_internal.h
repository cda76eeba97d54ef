/* gx_batch_internal.h: the batch engine's paths (CPU, GPU, volumes), which its driver (gx_batch.c) calls. */
#ifndef GX_BATCH_INTERNAL_H
#define GX_BATCH_INTERNAL_H

#include "base/gx_clock.h"
#include "base/gx_keys.h"
#include "batch/gx_batch_options.h"
#include "batch/gx_batch_side.h"

/*
 * The key a path gives the intersecting pair of element ea of a and element eb of b: the pair of the
 * elements with opt->element_pairs, else of their geometries.
 */
static inline uint64_t
gx_batch_result_key(const GxBatchSide *a, uint32_t ea, const GxBatchSide *b, uint32_t eb, bool element_pairs)
{
	return element_pairs ? gx_pair_key(ea, eb) : gx_pair_key(a->geom[ea], b->geom[eb]);
}

/*
 * Whether the points of a side batched against `solids` are left to the volume pass (gx_batch_solid.c): it
 * locates a point in every solid whose box holds it, exactly and on the surface too, so an intersection
 * pass would find nothing more for them (not when element pairs or distances are asked for).
 */
static inline bool
gx_batch_points_to_volumes(const GxBatchSide *solids, const GxBatchOptions *opt)
{
	return opt->distance == 0 && !opt->element_pairs && gx_batch_side_all_solids(solids);
}

/*
 * The CPU path on `threads` threads: appends intersecting geometry-pair keys (with duplicates; element-pair
 * keys with opt->element_pairs) to keys and adds its counts and times to st. false with err on cancel or memory.
 */
bool		gx_batch_cpu(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
						 const GxBatchOptions *opt, int threads, GxKeys *keys, GxBatchStats *st, GxError *err);

/*
 * The GPU path (cuda/ through gx_cuda_loader.c), appending keys as the CPU path does. Returns 1 on success;
 * 0 when the GPU could not run the job and 2 when it ran out of device memory (st->fallback says why: the
 * caller splits side a or runs the CPU path); -1 on cancel or host memory failure (err set).
 */
int			gx_batch_gpu(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
						 const GxBatchOptions *opt, GxKeys *keys, GxBatchStats *st, GxError *err);

/*
 * Point location on the GPU in the solids of side k (0: a, 1: b) of the batch, kept on the device with
 * their columns (opt->device_side[k]): answer[i] for points[3i..] in solid geometry solid[i] is 0 outside,
 * 1 inside (or on), 2 left for the CPU. Returns 1 on success; 0 when the GPU cannot (the caller locates the
 * points itself); -1 on cancel (err set).
 */
int			gx_batch_gpu_locate(const GxBatchOptions *opt, int k, const double *points, const uint32_t *solid,
								size_t n, uint8_t *answer, GxError *err);

/*
 * The volumes of solids (gx_batch_solid.c): adds to keys (sorted, distinct) the pairs of a geometry lying
 * inside a solid of the other side without meeting its surface, and of a point on a solid's surface (which
 * the probes leave to it, gx_batch_cpu.c); keys stay sorted and distinct.
 */
bool		gx_batch_solid_pairs(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt,
								 GxKeys *keys, GxBatchStats *st, GxError *err);

#endif
