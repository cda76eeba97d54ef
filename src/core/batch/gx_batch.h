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

#include "gx_geom.h"
#include "gx_interrupt.h"

/* One side of a batch: its geometries flattened into elements (see cuda/gx_cuda.h for the layout). */
typedef struct GxBatchSide
{
	size_t		n;				/* elements */
	size_t		cap;
	double	   *coords;			/* 9 doubles per element; unused vertex slots repeat the last vertex */
	uint8_t    *kind;			/* 1 point, 2 segment, 3 triangle */
	uint32_t   *geom;			/* index of the element's geometry in this side */
	uint32_t	ngeoms;
	int32_t		srid;			/* the first non-zero SRID of the side's geometries (0 if none) */
	bool		mixed_srid;		/* geometries with different non-zero SRIDs were added */
	GxBox3D		extent;			/* of all elements (meaningless while n == 0) */
	uint8_t    *solid;			/* per geometry, 1 for a solid (gx_solid.h); NULL when there is none */
	size_t		solid_cap;		/* geometries the array covers (those past it are not solids) */
} GxBatchSide;

void		gx_batch_side_init(GxBatchSide *s);
/* Appends g's elements as geometry number s->ngeoms (which it then increments). EMPTY adds none. */
bool		gx_batch_side_add(GxBatchSide *s, const GxSerialized *g, GxError *err);
/* gx_batch_side_add of g[0..n) in turn, with the elements laid out in parallel (OpenMP) for large ones. */
bool		gx_batch_side_add_many(GxBatchSide *s, const GxSerialized *const *g, size_t n, GxError *err);
void		gx_batch_side_free(GxBatchSide *s);

typedef enum GxDevice
{
	GX_DEVICE_AUTO,				/* the GPU when there is one and the batch is large enough */
	GX_DEVICE_GPU,				/* the GPU whenever it works (falls back to the CPU if it fails) */
	GX_DEVICE_CPU
} GxDevice;

typedef struct GxBatchOptions
{
	GxDevice	device;
	size_t		gpu_min_elements;	/* AUTO: batches with fewer elements (both sides) run on the CPU */
	int			grid_resolution;	/* cells along the extent's longest axis; 0 = chosen from the data */
	size_t		gpu_memory_cap;		/* bytes; 0 = 80% of the device's free memory */
	int			cuda_device;
	int			float_pass;			/* -1 = by the device's FP64 rate, 0 = off, 1 = on */
	const char *cuda_library;		/* path of gpuexact_cuda.so */
	int			threads;			/* CPU threads; 0 = one per core (never more than there are cores) */
	const char *thread_budget;		/* directory of the budget shared with other processes, or NULL */
	GxCancel	cancel;				/* a flag set stops the run (GX_ERR_CANCELLED) within milliseconds */
	bool		ignore_srid;		/* pairs whatever their SRIDs: the caller checks them row by row */
	bool		gpu_only;			/* no CPU fallback: a GPU failure is GX_ERR_DEVICE (the GPU service) */
	const void *device_side[2];		/* side a / b already on the GPU (GxCudaResident of cuda_device), or NULL */
	double		distance;			/* > 0: pairs within this distance (gx_dwithin); 0: intersecting */
} GxBatchOptions;

/* Sensible defaults (AUTO device, data-driven grid). */
void		gx_batch_options_default(GxBatchOptions *o);

typedef struct GxBatchStats
{
	char		device[224];		/* what ran: "GPU 0: NVIDIA H100 ..." or "CPU, 2 threads" */
	char		fallback[320];		/* why the GPU was not used or gave up, if it was asked for */
	int			grid_dim[3];
	int			chunks;
	uint64_t	elements_a,
				elements_b;
	uint64_t	candidates;			/* sum over cells of |A in cell| * |B in cell| */
	uint64_t	bbox_survivors;		/* pairs whose boxes overlap (each counted once) */
	uint64_t	float_failures;		/* GPU: pairs the float32 interval pass left open */
	uint64_t	double_failures;	/* GPU: pairs the double filter left open; CPU: predicates */
	uint64_t	exact_decisions;	/* GPU: pairs re-decided on the CPU; CPU: predicates decided exactly */
	uint64_t	element_pairs;		/* intersecting element pairs */
	uint64_t	geometry_pairs;		/* distinct intersecting geometry pairs */
	uint64_t	volume_pairs;		/* of which found inside a solid, missing its surface */
	double		t_upload,
				t_grid,
				t_cull,
				t_float,
				t_double,
				t_exact,
				t_dedup,
				t_download,
				t_total;			/* milliseconds */
} GxBatchStats;

/* Result: distinct pairs (a_index << 32 | b_index), ascending. */
typedef struct GxPairs
{
	uint64_t   *keys;
	size_t		n;
} GxPairs;

/* Is there a pair (a in a, b in b) with different non-zero SRIDs (SRID 0 goes with any)? */
bool		gx_batch_srids_conflict(const GxBatchSide *a, const GxBatchSide *b);

/*
 * Runs the batch; keys are gx_alloc'd. A solid is its volume, as in gx_intersects: after the surfaces'
 * pairs, a geometry lying inside a solid of the other side is paired with it (on the CPU). With
 * opt->distance > 0 the pairs are those gx_dwithin(a, b, distance) finds (the boxes of side a grown by the
 * distance, the element pairs decided by gx_distance.h: on the GPU its certified bounds, the pairs they
 * leave open exactly on the CPU).
 * Returns false with err set (memory, cancel, or mixed SRIDs: some
 * a and b with different non-zero SRIDs, as gx_intersects would raise for that pair, unless ignore_srid).
 */
bool		gx_batch_intersect(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt,
							   GxPairs *out, GxBatchStats *stats, GxError *err);

#endif
