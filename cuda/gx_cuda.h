/*
 * gx_cuda.h: the small C interface of gpuexact's CUDA engine (gpuexact_cuda.so, loaded with dlopen by
 * src/core/batch/gx_cuda_loader.c, so the extension runs where there is no GPU, driver or CUDA runtime).
 *
 * One job = the red-blue intersection of two element sets, all of it on the device: a uniform grid of
 * one side (count, scan, fill), the other side's elements probing it cell by cell, bounding-box culling with reference-cell
 * deduplication, the filtered element tests of src/core/algorithm/gx_primitives_impl.h (float interval pass where
 * FP64 is weak, then double filter and exact expansions), sort and unique of the geometry pairs.
 * Element pairs the device cannot decide come back for the CPU's exact ladder. A distance job (gx_dwithin)
 * grows side a's boxes and replaces the element tests by certified distance bounds.
 */
#ifndef GX_CUDA_H
#define GX_CUDA_H

#include <stddef.h>
#include <stdint.h>

#define GX_CUDA_ABI 9			/* bumped whenever these structs change */

/*
 * The point location grids of a side's solids (src/core/solid/gx_solid.h, GxSolidIndex): per geometry g, a
 * grid of dim[2g] x dim[2g + 1] columns over (x, y) starting at frame[4g], frame[4g + 1] with
 * frame[4g + 2], frame[4g + 3] cells per unit of length (the CPU grid's numbers); column c of g holds the
 * element indices items[start[cell0[g] + c] .. start[cell0[g] + c + 1]). A geometry that is not a solid
 * has dim 0 x 0.
 */
typedef struct GxCudaColumns
{
	size_t		ngeoms;
	const double *frame;
	const int32_t *dim;
	const uint64_t *cell0;
	size_t		ncells;			/* entries of start, less one */
	const uint64_t *start;
	size_t		nitems;
	const uint32_t *items;
} GxCudaColumns;

/* One side's elements: element i is kind[i] vertices (1 point, 2 segment, 3 triangle) at
 * coords[9i .. 9i+3*kind-1]; unused slots repeat the last vertex. geom[i] is its geometry's index.
 * columns: its solids' point location grids, kept with it by gx_cuda_side_upload (NULL: none). */
typedef struct GxCudaSide
{
	size_t		n;
	const double *coords;
	const uint8_t *kind;
	const uint32_t *geom;
	const GxCudaColumns *columns;
} GxCudaSide;

/* A side kept on a device between jobs (gx_cuda_side_upload): its arrays and element boxes. */
typedef struct GxCudaResident GxCudaResident;

typedef struct GxCudaJob
{
	GxCudaSide	a,
				b;
	double		extent[6];		/* xmin ymin zmin xmax ymax zmax: the grid's box (common extent) */
	int			dim[3];			/* grid cells per axis */
	int			device;			/* CUDA device ordinal */
	size_t		memory_cap;		/* bytes of device memory the job may use; 0 = 80% of free memory */
	int			float_pass;		/* 1 = float32 interval pass first, 0 = not, -1 = by the device's FP64 rate */
	const GxCudaResident *resident[2];	/* side a / b already on the device (same device), else NULL */
	volatile const int *cancel[2];	/* polled between kernels and chunks: either non-zero stops the job
									 * (GX_CUDA_CANCELLED); PostgreSQL: query cancel, termination */
	double		distance;		/* > 0: pairs within this distance (a's boxes grown by it; extent and dim
								 * already account for it), undecided ones for the CPU's exact test */
	int			element_pairs;	/* intersection jobs: pairs are of elements (a's element << 32 | b's element) */
} GxCudaJob;

typedef struct GxCudaResult
{
	uint64_t   *pairs;			/* distinct (geom_a << 32 | geom_b) found intersecting on the device, ascending
								 * (element pairs when the job asks) */
	size_t		npairs;
	uint32_t   *undecided;		/* element index pairs (a, b, a, b, ...) for the CPU's exact ladder */
	size_t		nundecided;
	/* counts */
	uint64_t	candidates;		/* sum over cells of |A in cell| * |B in cell| */
	uint64_t	bbox_survivors; /* boxes overlap, counted in their reference cell only */
	uint64_t	float_failures; /* pairs the float32 interval pass could not decide */
	uint64_t	double_failures;	/* pairs the double filter could not decide (went to expansions) */
	uint64_t	element_pairs;	/* intersecting element pairs decided on the device */
	/* phase times, milliseconds (device work timed with events) */
	double		t_upload,
				t_grid,
				t_cull,
				t_float,
				t_double,
				t_dedup,
				t_download;
	int			used_float_pass;
	int			chunks;			/* candidate ranges processed (1 unless memory forced more) */
	char		device_name[128];
} GxCudaResult;

enum
{
	GX_CUDA_OK = 0,
	GX_CUDA_NO_DEVICE,			/* no driver, no device, or bad ordinal */
	GX_CUDA_OUT_OF_MEMORY,
	GX_CUDA_CANCELLED,
	GX_CUDA_ERROR				/* any other CUDA error (message in err) */
};

#ifdef __cplusplus
extern "C"
{
#endif

/* ABI check for the loader. */
int			gx_cuda_abi(void);

/*
 * Name, FP64:FP32 throughput ratio class and global memory (bytes; memory may be NULL) of a device;
 * GX_CUDA_NO_DEVICE if none. Never aborts.
 */
int			gx_cuda_device_info(int device, char *name, size_t namelen, int *fp64_weak, size_t *memory);

/* Runs a job; on any error every device and host buffer it made is freed and res holds nothing. */
int			gx_cuda_intersect(const GxCudaJob *job, GxCudaResult *res, char *err, size_t errlen);

/* Frees the arrays of a result (malloc'd by the library). */
void		gx_cuda_free_result(GxCudaResult *res);

/*
 * Copies side s to device `device` for later jobs (GxCudaJob.resident), with its element boxes; *bytes
 * gets the device memory it holds. Jobs may use it concurrently; free it when none does.
 */
int			gx_cuda_side_upload(int device, const GxCudaSide *s, GxCudaResident **out, size_t *bytes,
								char *err, size_t errlen);
void		gx_cuda_side_free(GxCudaResident *r);

/*
 * Point location in the solids of a side kept on the device with its columns: for query i, where
 * points[3i..3i+2] lies in solid geometry solid[i], by the vertical ray of gx_solid_locate: answer[i] = 0
 * outside, 1 inside, 2 not decided here (a sign was zero, or beyond the device's filter and expansions: the
 * CPU locates it). cancel as in GxCudaJob, polled before the kernel runs.
 */
int			gx_cuda_locate(const GxCudaResident *solids, const double *points, const uint32_t *solid, size_t n,
						   uint8_t *answer, volatile const int *const cancel[2], char *err, size_t errlen);

/*
 * The volume filter (src/core/operation/gx_volume_dd.h) in the solids of a side kept on the device with its
 * columns: for query i, the solid geometry solid[i] inside box boxes[6i .. 6i+5] (xmin ymin zmin xmax ymax
 * zmax), its column reaching from the box to z = reach[i], down when down[i] (the solid's bottom) or up
 * (its top), as the CPU's filter takes it: verdict[i] 0 when value[i] is the volume correctly rounded, 1
 * when the volume may be 0 (its enclosure below the box's), 2 undecided (the CPU decides these). cancel as
 * in GxCudaJob, polled before the kernel runs.
 */
int			gx_cuda_volumes(const GxCudaResident *solids, const double *boxes, const double *reach,
							const uint8_t *down, const uint32_t *solid, size_t n, uint8_t *verdict, double *value,
							volatile const int *const cancel[2], char *err, size_t errlen);

/*
 * The candidates of the overlay of npairs pairs of solids (src/core/operation/gx_overlap_pairs.c): pair p pairs
 * the a_count[p] triangles of kept side a from element a_first[p] with the solid geometry b_solid[p] of kept side
 * b (kept with its columns), of box b_box[6p .. 6p+5] (xmin ymin zmin xmax ymax zmax), whose triangles start at
 * element b_first[p]. Its candidates, every pair of a triangle of each whose closed boxes overlap, once (those
 * the CPU's gx_overlay_candidates finds, in another order), are (*pairs)[2k], a's triangle, and
 * (*pairs)[2k + 1], b's (each numbered from its solid's first), for start[p] <= k < start[p + 1] (start: npairs
 * + 1 entries, given); *pairs is malloc'd by the library, to free with free. cancel as in GxCudaJob, polled
 * between kernels.
 */
int			gx_cuda_overlap_candidates(const GxCudaResident *a, const GxCudaResident *b, const uint64_t *a_first,
									   const uint32_t *a_count, const uint32_t *b_solid, const uint64_t *b_first,
									   const double *b_box, size_t npairs, uint64_t *start, uint32_t **pairs,
									   volatile const int *const cancel[2], char *err, size_t errlen);

/*
 * The volumes of n solids of kept side s, solid q the count[q] triangles from element first[q], summed as the
 * CPU sums a solid's own volume (its triangles' prisms, src/core/operation/gx_overlay_dd.h): value[q] rounded
 * once and sign[q] its sign, or sign[q] = 2 where the device could not decide (the CPU decides those). cancel as
 * in GxCudaJob, polled before the kernel runs.
 */
int			gx_cuda_solid_volumes(const GxCudaResident *s, const uint64_t *first, const uint32_t *count, size_t n,
								  double *value, int8_t *sign, volatile const int *const cancel[2], char *err,
								  size_t errlen);

/* Makes ready what `jobs` concurrent jobs on `device` will need (pinned staging buffers), ahead of them. */
int			gx_cuda_prepare(int device, int jobs);

#ifdef __cplusplus
}
#endif

#endif
