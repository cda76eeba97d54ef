/* gx_batch_internal.h: pieces of the batch engine shared by its driver and its CPU and GPU paths. */
#ifndef GX_BATCH_INTERNAL_H
#define GX_BATCH_INTERNAL_H

#include "gx_batch.h"
#include "gx_keys.h"

/* Milliseconds on a monotonic clock. */
double		gx_now_ms(void);

/* Box of element i of a side. */
GxBox3D		gx_batch_elem_box(const GxBatchSide *s, size_t i);

/* Box of element i of s grown by grow >= 0 (gx_box_expand): side a's boxes in a distance batch. */
GxBox3D		gx_batch_elem_box_grown(const GxBatchSide *s, size_t i, double grow);

/* Element i of side a against element j of side b, exactly (the CPU ladder). */
bool		gx_batch_elems_intersect(const GxBatchSide *a, size_t i, const GxBatchSide *b, size_t j);

/* Are element i of side a and element j of side b within distance d of each other? Exactly. */
bool		gx_batch_elems_within(const GxBatchSide *a, size_t i, const GxBatchSide *b, size_t j, double d);

static inline uint64_t
gx_pair_key(uint32_t a, uint32_t b)
{
	return ((uint64_t) a << 32) | b;
}

/*
 * The CPU path on `threads` threads: appends intersecting geometry-pair keys (with duplicates) to keys
 * and adds its counts and times to st. false with err on cancel or memory.
 */
bool		gx_batch_cpu(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
						 const GxBatchOptions *opt, int threads, GxKeys *keys, GxBatchStats *st, GxError *err);

/*
 * The GPU path (cuda/ through gx_cuda_loader.c). Returns 1 on success; 0 when the GPU could not run the
 * job and 2 when it ran out of device memory (st->fallback says why: the caller splits side a or runs the
 * CPU path); -1 on cancel or host memory failure (err set).
 */
int			gx_batch_gpu(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
						 const GxBatchOptions *opt, GxKeys *keys, GxBatchStats *st, GxError *err);

/*
 * The volumes of solids (gx_batch_solid.c): adds to keys (sorted, distinct) the pairs of a geometry lying
 * inside a solid of the other side without meeting its surface; keys stay sorted and distinct.
 */
bool		gx_batch_solid_pairs(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt,
								 GxKeys *keys, GxBatchStats *st, GxError *err);

#endif
