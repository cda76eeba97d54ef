/*
 * gx_settings.c: gpuexact.* settings: where batches run (device, GPU threshold, device ordinal, memory cap,
 * float32 pass), the grid's resolution, the custom join's switch and batch size, the geometry cache's size.
 */
#include "postgres.h"

#include <limits.h>
#include <unistd.h>

#include "miscadmin.h"
#include "utils/guc.h"

#include "base/gx_threads.h"
#include "gx_settings.h"
#include "service/gx_service.h"

bool		gx_enable_join = true;
int			gx_join_batch_rows = 1000000;
int			gx_join_batch_mb = 32;
int			gx_cache_host_mb = 256;
bool		gx_keep_tables = true;
bool		gx_service_enabled = true;
int			gx_service_cache_mb = 4096;	/* set from the machine's memory (default_service_cache_mb) */
int			gx_service_device_mb = -1;
int			gx_service_timeout_ms = 30000;
int			gx_service_cpu = GX_SERVICE_CPU_AUTO;

static int	device = GX_DEVICE_AUTO;
static int	gpu_min_elements = 20000;
static int	grid_resolution = 0;
static int	gpu_memory_mb = 0;
static int	cuda_device = 0;
static int	float_pass = -1;
static int	cpu_threads = 0;

static const struct config_enum_entry device_options[] = {
	{"auto", GX_DEVICE_AUTO, false},
	{"gpu", GX_DEVICE_GPU, false},
	{"cpu", GX_DEVICE_CPU, false},
	{NULL, 0, false}
};

/* the service's engine: its GPU, its CPU, or its CPU where it finds no GPU */
static const struct config_enum_entry service_cpu_options[] = {
	{"auto", GX_SERVICE_CPU_AUTO, false},
	{"on", GX_SERVICE_CPU_ON, false},
	{"off", GX_SERVICE_CPU_OFF, false},
	{"true", GX_SERVICE_CPU_ON, true},
	{"false", GX_SERVICE_CPU_OFF, true},
	{"yes", GX_SERVICE_CPU_ON, true},
	{"no", GX_SERVICE_CPU_OFF, true},
	{"1", GX_SERVICE_CPU_ON, true},
	{"0", GX_SERVICE_CPU_OFF, true},
	{NULL, 0, false}
};

/* The machine's memory in MB: the bound of settings that size memory. */
static int
physical_memory_mb(void)
{
	double		mb = (double) sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);

	return mb < 1 ? 1 : mb > INT_MAX ? INT_MAX : (int) mb;
}

/*
 * The backend cache's default: an eighth of the machine's memory, at least 256 MB (all of it on a smaller
 * machine), so that a block model of tens of millions of rows (about 190 bytes a point kept, flattened and
 * indexed with its rows' locations) and the ore bodies of a mine stay kept between a session's queries on an
 * ordinary database server. Only what the session's joins read is held.
 */
static int
default_cache_host_mb(void)
{
	int			mb = physical_memory_mb() / 8;

	return mb < 256 ? Min(physical_memory_mb(), 256) : mb;
}

/*
 * The GPU service's cache default: a quarter of the machine's memory, at least 4 GB (but never more than half
 * of it), so that the ore bodies of a large mine (tens of millions of triangles, gigabytes flattened) and a
 * block model of 50 million points stay kept, along with the copy a table changed or vacuumed is read into
 * before its old one goes.
 */
static int
default_service_cache_mb(void)
{
	int			mb = physical_memory_mb() / 4;

	return Min(Max(mb, 4096), physical_memory_mb() / 2);
}

void
gx_settings_init(void)
{
	DefineCustomEnumVariable("gpuexact.device", "Where batched intersections run: auto, gpu or cpu.",
							 "auto uses the GPU when one is usable and the batch is large enough; gpu uses it "
							 "whenever it works; either falls back to the CPU when the GPU fails.",
							 &device, GX_DEVICE_AUTO, device_options, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.gpu_min_elements", "Smallest batch (elements of both sides) sent to the GPU under device = auto.",
							NULL, &gpu_min_elements, 20000, 0, INT_MAX, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.grid_resolution", "Grid cells along the longest axis of a batch; 0 chooses from the data.",
							"The grid is coarsened when it would exceed 8 cells or about 64 cell entries per element.",
							&grid_resolution, 0, 0, 2048, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.gpu_memory_cap", "GPU memory a batch may use; 0 = 80% of the free memory.",
							NULL, &gpu_memory_mb, 0, 0, INT_MAX, PGC_USERSET, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.cuda_device", "CUDA device ordinal used for batches.",
							NULL, &cuda_device, 0, 0, 64, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.float_pass", "GPU float32 interval pass: -1 by the device's FP64 rate, 0 off, 1 on.",
							NULL, &float_pass, -1, -1, 1, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.cpu_threads", "Threads of the CPU batch engine; 0 = one per core.",
							"At most the number of cores; fewer when the system cannot start that many.",
							&cpu_threads, 0, 0, gx_threads_cores(), PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuexact.enable_join", "Plans joins on gx_intersects as one batched custom join.",
							 NULL, &gx_enable_join, true, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.join_batch_rows", "Outer rows gathered into one batch by the custom join, and boxes by gx_volume_pairs.",
							NULL, &gx_join_batch_rows, 1000000, 1, INT_MAX, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.join_batch_mb", "Geometry (uncompressed) of the outer rows gathered into one batch by the custom join.",
							"A batch ends at gpuexact.join_batch_rows rows or at this size, whichever comes first.",
							&gx_join_batch_mb, 32, 1, 1024 * 1024, PGC_USERSET, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuexact.strict_srid", "Geometries of SRID 0 (unknown) may not meet geometries of another SRID.",
							 "Off, SRID 0 goes with any SRID; on, such a pair raises the mixed SRID error, as in PostGIS.",
							 &gx_strict_srid, false, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuexact.cache_host_mb", "Memory of this backend's cache of flattened geometries; 0 turns it off.",
							"Sides of joins made only of TOASTed values are kept between queries, least recently used first out. "
							"By default 1/8 of the machine's memory, at least 256 MB.",
							&gx_cache_host_mb, default_cache_host_mb(), 0, physical_memory_mb(), PGC_USERSET, GUC_UNIT_MB,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuexact.keep_tables", "Keeps a join side that is a whole table between queries, while its rows are unchanged.",
							 "A side scanned whole, without a filter, from a table whose pages are all visible (after VACUUM) is read "
							 "once and kept, with its rows' locations, until a row of the table changes: a repeated join reads "
							 "only the rows of its answer.",
							 &gx_keep_tables, true, PGC_USERSET, 0, NULL, NULL, NULL);
	/* settings of the GPU service exist where it can: gpuexact in shared_preload_libraries */
	if (process_shared_preload_libraries_in_progress)
	{
		DefineCustomBoolVariable("gpuexact.service", "Runs the GPU service (gpuexact in shared_preload_libraries).",
								 "One process owns the GPU for the whole cluster; backends send it their batches.",
								 &gx_service_enabled, true, PGC_POSTMASTER, 0, NULL, NULL, NULL);
		DefineCustomIntVariable("gpuexact.service_cache_mb", "Host memory of the GPU service's cache of flattened sides.",
								NULL, &gx_service_cache_mb, default_service_cache_mb(), 0, physical_memory_mb(), PGC_POSTMASTER, GUC_UNIT_MB,
								NULL, NULL, NULL);
		DefineCustomIntVariable("gpuexact.service_device_mb", "GPU memory of the GPU service's cached sides.",
								"Cached sides within this bound stay on the GPU: a repeated join uploads only its other side. -1: a quarter of the GPU's memory.",
								&gx_service_device_mb, -1, -1, INT_MAX, PGC_POSTMASTER, GUC_UNIT_MB, NULL, NULL, NULL);
		DefineCustomEnumVariable("gpuexact.service_cpu", "Whether the GPU service runs batches on its CPU instead of a GPU.",
								 "auto: on its CPU when it finds no GPU, so that a machine without one still has one cache and one "
								 "set of threads for every session; on: always; off: never (backends then run their own batches "
								 "where there is no GPU).",
								 &gx_service_cpu, GX_SERVICE_CPU_AUTO, service_cpu_options, PGC_POSTMASTER, 0, NULL, NULL, NULL);
	}
	DefineCustomIntVariable("gpuexact.service_timeout", "How long a backend waits for the GPU service before running the batch itself.",
							NULL, &gx_service_timeout_ms, 30000, 1, INT_MAX, PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
	MarkGUCPrefixReserved("gpuexact");
}

void
gx_settings_batch_options(GxBatchOptions *o)
{
	static char cuda_library[MAXPGPATH];
	static char thread_budget[MAXPGPATH];

	gx_batch_options_default(o);
	snprintf(cuda_library, sizeof(cuda_library), "%s/gpuexact_cuda.so", pkglib_path);
	o->device = (GxDevice) device;
	o->gpu_min_elements = (size_t) gpu_min_elements;
	o->grid_resolution = grid_resolution;
	o->gpu_memory_cap = (size_t) gpu_memory_mb * 1024 * 1024;
	o->cuda_device = cuda_device;
	o->float_pass = float_pass;
	o->threads = cpu_threads;
	o->strict_srid = gx_strict_srid;
	/* every backend of the cluster draws its CPU threads from one budget of one per core */
	snprintf(thread_budget, sizeof(thread_budget), "%s/gpuexact_threads", DataDir);
	o->thread_budget = thread_budget;
	o->cuda_library = cuda_library;
	o->cancel.flag[0] = (volatile const int *) &QueryCancelPending;
	o->cancel.flag[1] = (volatile const int *) &ProcDiePending;
}
