/*
 * gx_cuda_internal.h: what the CUDA engine's translation units share: the device views of a side and of
 * the grid, the cell function (bit for bit the CPU's gx_grid_coord), warp-aggregated appends, and the
 * host-side launchers of each file's kernels (no relocatable device code: each kernel lives in the
 * file of its helpers, gx_cuda_api.cu only calls these launchers and CUB).
 * Everything here is compiled with -fmad=false: the cell function and the predicates must round
 * exactly as the CPU does.
 */
#ifndef GX_CUDA_INTERNAL_H
#define GX_CUDA_INTERNAL_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "base/gx_keys.h"		/* gx_pair_key */

#define GX_CUDA_BLOCK 256		/* threads per block of every kernel */

/* An element's closed box: lo[k] <= every vertex's coordinate k <= hi[k]. */
typedef struct __align__(16) GxDevBox
{
	double		lo[3],
				hi[3];
} GxDevBox;

/* One side on the device. fint (float pass only): an outward float interval per coordinate. */
typedef struct GxDevSide
{
	size_t		n;
	const double *coords;		/* 9 doubles per element */
	const uint8_t *kind;
	const uint32_t *geom;
	GxDevBox   *box;
	float2	   *fint;			/* 9 per element: (lo, hi) of coords - centre, rounded outwards */
} GxDevSide;

/* The uniform grid: the same numbers as the CPU's GxGrid (gx_grid.h). */
typedef struct GxDevGrid
{
	double		lo[3];			/* extent minimum */
	double		hi[3];			/* extent maximum (for skipping elements that miss it) */
	double		scale[3];		/* dim / (max - min), 0 along a flat axis */
	int			dim[3];
	size_t		ncells;
} GxDevGrid;

/*
 * The cell index of v along an axis starting at lo, with scale cells per unit and dim cells: gx_grid_coord
 * of src/core/index/gx_grid.h, evaluated identically.
 */
static __host__ __device__ __forceinline__ int
gx_dev_cell_of(double v, double lo, double scale, int dim)
{
	double		c = (v - lo) * scale;

	if (!(c > 0))
		return 0;
	return c >= dim ? dim - 1 : (int) c;
}

/* Cell index along axis k of v in grid g. */
static __host__ __device__ __forceinline__ int
gx_dev_coord(const GxDevGrid *g, int k, double v)
{
	return gx_dev_cell_of(v, g->lo[k], g->scale[k], g->dim[k]);
}

#ifdef __CUDACC__
/*
 * Warp-aggregated append: every lane of the (full, converged) warp calls it; lanes with flag set get
 * consecutive slots from *counter with one atomic per warp. Returns the lane's slot (undefined if !flag).
 */
static __device__ __forceinline__ unsigned long long
gx_warp_append(bool flag, unsigned long long *counter)
{
	unsigned	mask = __ballot_sync(0xffffffffu, flag);
	int			lane = threadIdx.x & 31;
	unsigned long long base = 0;

	if (mask == 0)
		return 0;
	if (lane == __ffs(mask) - 1)
		base = atomicAdd(counter, (unsigned long long) __popc(mask));
	base = __shfl_sync(0xffffffffu, base, __ffs(mask) - 1);
	return base + __popc(mask & ((1u << lane) - 1));
}

/*
 * The table of geometry pairs found (gx_cuda_found.cu): the bit of the pair (ga, gb) among nb geometries of
 * side b, and the pair's key from its bit; whether a bit is set; setting it, with whether it was set before.
 */
static __device__ __forceinline__ unsigned long long
gx_found_bit(unsigned long long ga, unsigned long long gb, unsigned long long nb)
{
	return ga * nb + gb;
}

static __host__ __device__ __forceinline__ unsigned long long
gx_found_key(unsigned long long bit, unsigned long long nb)
{
	return gx_pair_key((uint32_t) (bit / nb), (uint32_t) (bit % nb));
}

static __device__ __forceinline__ bool
gx_found_test(const unsigned *found, unsigned long long bit)
{
	return (found[bit >> 5] >> (bit & 31)) & 1u;
}

static __device__ __forceinline__ bool
gx_found_set(unsigned *found, unsigned long long bit)
{
	return (atomicOr(&found[bit >> 5], 1u << (bit & 31)) >> (bit & 31)) & 1u;
}
#endif

/* Blocks for n work items, grid-stride beyond a cap. */
static inline unsigned
gx_blocks(unsigned long long n)
{
	unsigned long long b = (n + GX_CUDA_BLOCK - 1) / GX_CUDA_BLOCK;

	return b == 0 ? 1 : b > 65535ull * 16 ? 65535u * 16 : (unsigned) b;
}

/* Counters kept on the device (one array, reset per use). */
enum
{
	GX_CNT_SURVIVORS = 0,		/* pairs kept by the cull pass (may exceed the buffer: overflow) */
	GX_CNT_NEXT,				/* pairs a predicate pass left undecided for the next one */
	GX_CNT_KEYS,				/* intersecting pairs' keys appended */
	GX_CNT_UNDECIDED,			/* pairs for the CPU */
	GX_CNT_UNIQUE,				/* distinct keys after sort/unique */
	GX_CNT_N
};

/* A gridded side: per cell c, its elements items[start[c] .. start[c + 1]). */
typedef struct GxDevCells
{
	unsigned long long *start;	/* ncells + 1 offsets */
	uint32_t   *items;
} GxDevCells;

/* gx_cuda_grid.cu */
cudaError_t gx_launch_boxes(GxDevSide *s, cudaStream_t st);
cudaError_t gx_launch_grid_count(const GxDevGrid *g, const GxDevSide *s, unsigned long long *count, cudaStream_t st);
cudaError_t gx_launch_grid_fill(const GxDevGrid *g, const GxDevSide *s, const GxDevCells *cells, unsigned *cursor,
								cudaStream_t st);

/*
 * Probing a gridded side: per probing element, the cells its box covers and its candidate pairs (the gridded
 * side's items in those cells), as a pair (cells, candidates) into count[i]; then, from their exclusive scan
 * (start), the entries: element, cell, and the inclusive end of their candidates; then the entry of the
 * first candidate of every block of GX_CUDA_BLOCK candidates.
 */
cudaError_t gx_launch_probe_count(const GxDevGrid *g, const GxDevSide *s, const unsigned long long *grid_start,
								  ulonglong2 *count, cudaStream_t st);
cudaError_t gx_launch_probe_fill(const GxDevGrid *g, const GxDevSide *s, const ulonglong2 *start,
								 const unsigned long long *grid_start, uint32_t *elem, unsigned long long *cell,
								 unsigned long long *cand_end, cudaStream_t st);
cudaError_t gx_launch_block_entries(unsigned long long nentries, const unsigned long long *cand_end,
									uint32_t *first, cudaStream_t st);

/*
 * gx_cuda_pairs.cu: candidates [c0, c0 + len) of the probe's entries culled. Entry e pairs element elem[e] of
 * the probing side with each of the gridded side's items in cell cell[e]; cand_end is the candidates'
 * inclusive scan over the entries, block_entry[b] the entry of candidate GX_CUDA_BLOCK * b.
 */
typedef struct GxDevCandidates
{
	GxDevGrid	g;
	const GxDevBox *box_probe,
			   *box_grid;
	bool		probe_is_a;		/* pairs are (probing, gridded) elements, else (gridded, probing) */
	GxDevCells	grid;			/* the gridded side's cells */
	unsigned long long nentries;
	const uint32_t *elem;
	const unsigned long long *cell;
	const unsigned long long *cand_end;
	unsigned long long total;	/* candidates: cand_end[nentries - 1] */
	const uint32_t *block_entry;
} GxDevCandidates;

cudaError_t gx_launch_cull(const GxDevCandidates *c, unsigned long long c0, unsigned long long len,
						   uint2 *out, unsigned long long cap, unsigned long long *counter, cudaStream_t st);

/* gx_cuda_predicates.cu */
typedef enum
{
	GX_PASS_FLOAT,				/* float32 intervals only: undecided pairs go to next */
	GX_PASS_FILTER,				/* double semi-static filter only: undecided pairs go to next */
	GX_PASS_EXACT				/* filter, then exact expansions: undecided pairs go to the CPU (next) */
} GxPass;

cudaError_t gx_launch_float_intervals(GxDevSide *s, const double centre[3], cudaStream_t st);

/*
 * Tests pairs in[0, n): keys of intersecting pairs (of their geometries, or of the elements when element_pairs)
 * are appended to keys (counter[GX_CNT_KEYS]), undecided pairs to next (counter[GX_CNT_NEXT]). Both buffers
 * hold at least n entries. With found (gx_cuda_found.cu; geometry pairs only, nb of them per geometry of a),
 * an intersecting pair sets its geometries' bit instead of writing its key (it is still counted), and the
 * pairs of geometries already found are passed over.
 */
cudaError_t gx_launch_predicates(GxPass pass, const GxDevSide *a, const GxDevSide *b, const uint2 *in,
								 unsigned long long n, bool element_pairs, unsigned *found, unsigned long long nb,
								 unsigned long long *keys, uint2 *next, unsigned long long *counters,
								 cudaStream_t st);

/*
 * gx_cuda_found.cu: the found table's set bits per run of GX_FOUND_RUN words into count[0, runs) (count[runs]
 * = 0, for an exclusive scan that ends with their total); then the keys, ascending, from each run's offset.
 */
#define GX_FOUND_RUN 32

static inline unsigned long long
gx_found_runs(unsigned long long words)
{
	return (words + GX_FOUND_RUN - 1) / GX_FOUND_RUN;
}

cudaError_t gx_launch_found_count(const unsigned *found, unsigned long long words, unsigned long long *count,
								  cudaStream_t st);
cudaError_t gx_launch_found_keys(const unsigned *found, unsigned long long words, unsigned long long nb,
								 const unsigned long long *offset, unsigned long long *keys, cudaStream_t st);

/* Loads the module and reserves the exact pass's local memory before free memory is measured. */
cudaError_t gx_warm_predicates(cudaStream_t st);

/* gx_cuda_distance.cu: boxes grown by d (rounded outward); the distance pass (undecided pairs go to the CPU). */
cudaError_t gx_launch_grow_boxes(const GxDevBox *in, size_t n, double d, GxDevBox *out, cudaStream_t st);
cudaError_t gx_launch_distance(const GxDevSide *a, const GxDevSide *b, const uint2 *in, unsigned long long n,
							   double d, unsigned *found, unsigned long long nb, unsigned long long *keys,
							   uint2 *undecided, unsigned long long *counters, cudaStream_t st);

/* gx_cuda_locate.cu: a side's solids' column grids (GxCudaColumns) on the device, with the side's coordinates. */
typedef struct GxDevColumns
{
	size_t		ngeoms;
	const double *frame;
	const int32_t *dim;
	const unsigned long long *cell0;
	const unsigned long long *start;
	const uint32_t *items;
	const double *coords;
} GxDevColumns;

/* answer[i] for query i (points[3i..], solid[i]): 0 outside, 1 inside, 2 for the CPU. */
cudaError_t gx_launch_locate(const GxDevColumns *c, const double *points, const uint32_t *solid, size_t n,
							 uint8_t *answer, cudaStream_t st);

/*
 * verdict[i] (a GxVolumeVerdict) and value[i] for query i: the volume filter of the solid solid[i] inside
 * box boxes[6i..], its column reaching to z = reach[i], down (down[i]) or up (gx_volume_dd.h).
 */
cudaError_t gx_launch_volumes(const GxDevColumns *c, const double *boxes, const double *reach, const uint8_t *down,
							  const uint32_t *solid, size_t n, uint8_t *verdict, double *value, cudaStream_t st);

/*
 * gx_cuda_overlap.cu: candidate pairs of triangles of pairs of solids. Solid pair p (p < npairs) pairs a's
 * triangles a_first[p] .. a_first[p] + work[p + 1] - work[p] (elements of side a) with solid geometry b_solid[p]
 * of side b, of box b_box[6p ..] and first element b_first[p], through b's columns; work item w is pair p's
 * triangle w - work[p] (work: the exclusive scan of a's triangles per pair, work[npairs] the total).
 */
typedef struct GxDevOverlap
{
	const GxDevBox *box_a,
			   *box_b;
	GxDevColumns columns;		/* b's */
	size_t		npairs;
	const unsigned long long *work;
	const unsigned long long *a_first;
	const uint32_t *b_solid;
	const unsigned long long *b_first;
	const double *b_box;
} GxDevOverlap;

/* count[w]: work item w's candidates; then, from their exclusive scan offset, the candidates themselves. */
cudaError_t gx_launch_overlap_count(const GxDevOverlap *o, unsigned long long total, unsigned long long *count,
									cudaStream_t st);
cudaError_t gx_launch_overlap_fill(const GxDevOverlap *o, unsigned long long total, const unsigned long long *offset,
								   uint2 *out, cudaStream_t st);
/* start[p] = offset[work[p]] for p <= npairs. */
cudaError_t gx_launch_overlap_starts(const GxDevOverlap *o, const unsigned long long *offset,
									 unsigned long long *start, cudaStream_t st);

/*
 * value[q] and sign[q] (2 when undecided): the volume of the solid of triangles first[q] .. first[q] + count[q]
 * of coords, rounded once (gx_overlay_dd.h).
 */
cudaError_t gx_launch_own_volumes(const double *coords, const unsigned long long *first, const uint32_t *count,
								  size_t n, double *value, int8_t *sign, cudaStream_t st);

#endif
