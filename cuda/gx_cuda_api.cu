/*
 * gx_cuda_api.cu: the entry points of gx_cuda.h and the job's orchestration: device choice, memory
 * accounting under the job's cap, upload, one side's grid (count, CUB scan, fill; or the grid a resident side
 * keeps), the other side's probe of it (entries, candidate scan, block table), the chunk loop
 * (cull, float/filter/exact passes, CUB sort + unique of the keys, download), event timing, cancellation
 * and cleanup. Nothing here touches CUDA before an entry point is called (no global constructors), and
 * every error path frees what the job allocated (Job's destructor) and returns a code with a message.
 *
 * Chunking: survivors of the cull pass go to a buffer of `slots` pairs sized from the memory left after
 * the inputs and the grid. The candidate index space is processed in ranges [c0, c0 + len): first the
 * whole of it; when a range's survivors overflow the buffer, the range is shortened in proportion
 * (90% of slots / survivors) and culled again; each completed range is one chunk, whose keys are sorted
 * and made unique on the device and downloaded (several chunks' pairs are merged on the host).
 */
#define CCCL_DISABLE_NVTX
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <initializer_list>
#include <mutex>
#include <math.h>
#include <new>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "base/gx_keys.h"
#include "gx_cuda.h"
#include "gx_cuda_internal.h"

#define GX_EXPORT extern "C" __attribute__((visibility("default")))

#define MAX_SLOTS (1ull << 28)	/* survivors per chunk at most (8 GiB of chunk buffers) */
#define MIN_SLOTS 4096ull		/* fewer than this (or than the candidates) is out of memory */
#define SLOT_BYTES (5 * sizeof(unsigned long long))	/* survivors, next, keys, keys' alt, undecided */
#define MAX_DEVICES 64

struct GxCudaResident
{
	int			device;
	size_t		n;
	double	   *coords;
	uint8_t    *kind;
	uint32_t   *geom;
	GxDevBox   *box;
	size_t		bytes;
	/* its solids' column grids (gx_cuda_locate), when it came with them */
	size_t		col_ngeoms;
	double	   *col_frame;
	int32_t    *col_dim;
	unsigned long long *col_cell0,
			   *col_start;
	uint32_t   *col_items;
	/*
	 * The side's grid as the first job to claim it built it: a later job whose grid is the same (the same
	 * join again: same extent, same cells) uses it instead of building its own. Set once, read-only after,
	 * freed with the side.
	 */
	std::mutex	grid_lock;
	bool		grid_claimed;	/* a job is building it, or has */
	bool		grid_kept;
	GxDevGrid	grid;
	GxDevCells	grid_cells;
};

/* Do two grids have the same extent and cells (every double compared by value)? */
static bool
same_grid(const GxDevGrid *x, const GxDevGrid *y)
{
	for (int k = 0; k < 3; k++)
		if (x->lo[k] != y->lo[k] || x->hi[k] != y->hi[k] || x->scale[k] != y->scale[k] || x->dim[k] != y->dim[k])
			return false;
	return x->ncells == y->ncells;
}

namespace
{

/*
 * A job's stream and events. Those of a finished job are kept for the next job on the device: creating and
 * destroying them takes the driver's locks, and 8 concurrent jobs waited up to 1.2 ms a job on them
 * (measured on the H100).
 */
#define TIMING_EVENTS 8

struct JobStreams
{
	cudaStream_t stream;
	cudaEvent_t ev[TIMING_EVENTS];	/* phase timing */
	cudaEvent_t stage_ev[2];	/* copy out of staging buffer i done (made when first needed) */
};

static std::mutex streams_lock;
static std::vector<JobStreams> idle_streams[MAX_DEVICES];

static void stage_release(int i);
static void keep_pool_memory(int device);

/* A failure: code and message, carried up to the entry point. */
struct Fail
{
	int			code;
};

class Job
{
public:
	Job(const GxCudaJob *job, GxCudaResult *res, char *err, size_t errlen)
		: job_(job), res_(res), err_(err), errlen_(errlen)
	{
	}

	~Job()
	{
		for (GxCudaResident *r : claimed_)
			if (r)
			{
				std::lock_guard<std::mutex> hold(r->grid_lock);

				r->grid_claimed = r->grid_kept;
			}
		for (void *p : blocks_)
			cudaFreeAsync(p, stream_);
		if (stream_ && complete_events() && cudaStreamSynchronize(stream_) == cudaSuccess &&
			cudaGetLastError() == cudaSuccess)
		{
			/* idle and sound: kept for the next job */
			std::lock_guard<std::mutex> hold(streams_lock);

			JobStreams	js;

			js.stream = stream_;
			memcpy(js.ev, ev_, sizeof(ev_));
			js.stage_ev[0] = stage_ev_[0];
			js.stage_ev[1] = stage_ev_[1];
			idle_streams[job_->device].push_back(js);
			stream_ = nullptr;
		}
		if (stage_ >= 0)
			stage_release(stage_);
		for (cudaEvent_t &e : ev_)
			if (e && stream_)
				cudaEventDestroy(e);
		for (cudaEvent_t &e : stage_ev_)
			if (e && stream_)
				cudaEventDestroy(e);
		if (stream_)
			cudaStreamDestroy(stream_);
		free(pairs_buf_);
		cudaGetLastError();		/* leave no error behind for the caller's next call */
	}

	int			run();

private:
	const GxCudaJob *job_;
	GxCudaResult *res_;
	char	   *err_;
	size_t		errlen_;
	cudaStream_t stream_ = nullptr;
	cudaEvent_t ev_[TIMING_EVENTS] = {};
	unsigned	ev_busy_ = 0;	/* bit i: ev_[i] is recorded and its time not yet read */
	int			open_ = -1;		/* the event tic() recorded */
	struct Phase
	{
		int			start,
					end;
		double	   *acc;
	};
	std::vector<Phase> phases_;	/* timed phases whose end the device may not have reached */
	cudaEvent_t stage_ev_[2] = {nullptr, nullptr};	/* copy out of staging buffer i done */
	std::vector<void *> blocks_;
	int			stage_ = -1;	/* the pair of pinned staging buffers this job holds */
	size_t		cap_ = 0,
				used_ = 0;
	uint64_t   *pairs_buf_ = nullptr;	/* the result's pairs, handed over to it at the end */
	size_t		npairs_ = 0,
				pairs_cap_ = 0;
	std::vector<uint32_t> undecided_;
	GxCudaResident *claimed_[2] = {nullptr, nullptr};	/* resident sides whose grid this job builds to keep */

	[[noreturn]] void fail(int code, const char *fmt, ...)
	{
		va_list		ap;

		va_start(ap, fmt);
		if (err_ && errlen_)
			vsnprintf(err_, errlen_, fmt, ap);
		va_end(ap);
		throw Fail{code};
	}

	void		check(cudaError_t e, const char *what)
	{
		if (e == cudaSuccess)
			return;
		cudaGetLastError();
		if (e == cudaErrorMemoryAllocation)
			fail(GX_CUDA_OUT_OF_MEMORY, "out of device memory (%s)", what);
		fail(GX_CUDA_ERROR, "CUDA error in %s: %s", what, cudaGetErrorString(e));
	}

	/* Whether every timing event was made (a failed cudaEventCreate leaves the set unfit to keep). */
	bool		complete_events() const
	{
		for (cudaEvent_t e : ev_)
			if (e == nullptr)
				return false;
		return true;
	}

	/* The stream and events of an earlier job on the device, else new ones. */
	void		take_streams()
	{
		{
			std::lock_guard<std::mutex> hold(streams_lock);
			std::vector<JobStreams> &idle = idle_streams[job_->device];

			if (!idle.empty())
			{
				JobStreams	js = idle.back();

				idle.pop_back();
				stream_ = js.stream;
				memcpy(ev_, js.ev, sizeof(ev_));
				stage_ev_[0] = js.stage_ev[0];
				stage_ev_[1] = js.stage_ev[1];
				return;
			}
		}
		check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
		for (cudaEvent_t &e : ev_)
			check(cudaEventCreate(&e), "cudaEventCreate");
	}

	void		cancelled()
	{
		if ((job_->cancel[0] && *job_->cancel[0]) || (job_->cancel[1] && *job_->cancel[1]))
			fail(GX_CUDA_CANCELLED, "cancelled");
	}

	template <typename T> T *alloc(size_t count, const char *what)
	{
		size_t		bytes = (count ? count : 1) * sizeof(T);
		void	   *p = nullptr;

		if (bytes / sizeof(T) < count || used_ + bytes > cap_ || used_ + bytes < used_)
			fail(GX_CUDA_OUT_OF_MEMORY, "device memory cap of %zu bytes reached (%s: %zu more bytes, %zu in use)",
				 cap_, what, bytes, used_);
		check(cudaMallocAsync(&p, bytes, stream_), what);
		blocks_.push_back(p);
		used_ += bytes;
		sizes_.push_back(bytes);
		return static_cast<T *>(p);
	}

	/*
	 * Block p is no longer the job's: a caller keeps it past the job (detach), or it is freed now (release).
	 * False if the job holds no such block.
	 */
	bool		detach(void *p)
	{
		for (size_t i = 0; i < blocks_.size(); i++)
			if (blocks_[i] == p)
			{
				used_ -= sizes_[i];
				blocks_.erase(blocks_.begin() + i);
				sizes_.erase(sizes_.begin() + i);
				return true;
			}
		return false;
	}

	void		release(void *p)
	{
		if (detach(p))
			cudaFreeAsync(p, stream_);
	}

	std::vector<size_t> sizes_;

	/*
	 * Event timing of one phase on the job's stream, added to *acc (ms) once the device has passed its end:
	 * timing never waits for the device (settle reads the times at the job's own waits).
	 */
	int			timing_event()
	{
		if (ev_busy_ == (1u << TIMING_EVENTS) - 1)
			settle(true);
		for (int i = 0;; i++)
			if (!(ev_busy_ & (1u << i)))
			{
				ev_busy_ |= 1u << i;
				return i;
			}
	}
	void		tic()
	{
		open_ = timing_event();
		check(cudaEventRecord(ev_[open_], stream_), "cudaEventRecord");
	}
	void		toc(double *acc)
	{
		int			end = timing_event();

		check(cudaEventRecord(ev_[end], stream_), "cudaEventRecord");
		phases_.push_back(Phase{open_, end, acc});
		open_ = -1;
	}
	/* Adds the times of the phases the device has finished (all of them, waiting for them, when wait). */
	void		settle(bool wait)
	{
		size_t		k = 0;

		for (const Phase &p : phases_)
		{
			cudaError_t e = wait ? cudaEventSynchronize(ev_[p.end]) : cudaEventQuery(ev_[p.end]);
			float		ms = 0;

			if (e == cudaErrorNotReady)
			{
				cudaGetLastError();
				phases_[k++] = p;
				continue;
			}
			check(e, "timing a phase");
			check(cudaEventElapsedTime(&ms, ev_[p.start], ev_[p.end]), "cudaEventElapsedTime");
			*p.acc += ms;
			ev_busy_ &= ~((1u << p.start) | (1u << p.end));
		}
		phases_.resize(k);
	}

	/*
	 * A CUB scan on the job's stream with temporary memory of its own: scan(temp, bytes) is called once with
	 * no temporary, for its size, then with it.
	 */
	template <typename Scan> void scan_with_temp(Scan scan, const char *what)
	{
		size_t		bytes = 0;
		void	   *temp;

		check(scan(nullptr, bytes), "scan size");
		temp = alloc<char>(bytes, "scan temporary");
		check(scan(temp, bytes), what);
		release(temp);
	}

	/* Counters d[0 .. n - 1] from the device (the stream has finished everything before). */
	void		read_counters(const unsigned long long *d, unsigned long long *v, int n)
	{
		check(cudaMemcpyAsync(v, d, n * sizeof(*v), cudaMemcpyDeviceToHost, stream_), "reading a counter");
		check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
		settle(false);
	}
	unsigned long long read_u64(const unsigned long long *d)
	{
		unsigned long long v = 0;

		read_counters(d, &v, 1);
		return v;
	}

	void		staged_copy(void *dst, const void *src, size_t bytes);
	void		device_facts(int device, cudaDeviceProp *prop, bool *fp64_weak);
	void		download_keys(const unsigned long long *keys, unsigned long long n);
	void		download_found(const unsigned *found, unsigned long long words, unsigned long long nb);
	void		reserve_pairs(unsigned long long n);
	unsigned long long size_slots(unsigned long long total, bool table, size_t *sort_bytes);
	void		upload(GxDevSide *d, const GxCudaSide *s, const char *name);
	void		use_resident(GxDevSide *d, const GxCudaResident *r);
	/*
	 * Side k may keep its grid for later jobs when it is resident and its boxes are its own (not grown for a
	 * distance).
	 */
	bool		keepable(int k) const
	{
		return job_->resident[k] != nullptr && !(k == 0 && job_->distance > 0);
	}
	int			grid_side(const GxDevGrid *g, const GxDevSide *a, const GxDevSide *b);
	GxDevCells	side_grid(const GxDevGrid *g, GxDevSide *s, int k);
	void		keep_grid(const GxDevGrid *g, int k, const GxDevCells *cells);
	GxDevCells	build_grid(const GxDevGrid *g, GxDevSide *s);
	unsigned long long probe(const GxDevGrid *g, const GxDevSide *s, GxDevCandidates *c);
};

/*
 * Host-to-device copies go through two pinned staging buffers: the host threads fill one while the device
 * reads the other, which beats the driver's own path for pageable memory. The process keeps the pairs it
 * made in a pool; a job holds one pair at a time, so concurrent jobs (the GPU service's sessions) never
 * share one. Where pinned memory cannot be had, the plain copy is used.
 */
#define STAGE_BYTES ((size_t) 16 << 20)
#define STAGE_PAIRS 16
static std::mutex stage_lock;
static void *stage_bufs[STAGE_PAIRS][2];
static bool stage_busy[STAGE_PAIRS];

/* A free pair of staging buffers (made if need be), or -1. */
static int
stage_acquire()
{
	std::lock_guard<std::mutex> hold(stage_lock);

	for (int i = 0; i < STAGE_PAIRS; i++)
	{
		if (stage_busy[i])
			continue;
		if (stage_bufs[i][0] == nullptr &&
			(cudaHostAlloc(&stage_bufs[i][0], STAGE_BYTES, cudaHostAllocPortable) != cudaSuccess ||
			 cudaHostAlloc(&stage_bufs[i][1], STAGE_BYTES, cudaHostAllocPortable) != cudaSuccess))
		{
			cudaGetLastError();
			if (stage_bufs[i][0])
				cudaFreeHost(stage_bufs[i][0]);
			stage_bufs[i][0] = stage_bufs[i][1] = nullptr;
			return -1;
		}
		stage_busy[i] = true;
		return i;
	}
	return -1;
}

static void
stage_release(int i)
{
	std::lock_guard<std::mutex> hold(stage_lock);

	stage_busy[i] = false;
}

/*
 * Jobs allocate from the device's stream-ordered pool (cudaMallocAsync), which keeps up to POOL_KEEP
 * bytes between jobs instead of giving them back at every synchronisation: no cudaMalloc/cudaFree, which
 * synchronise the whole device, between concurrent jobs.
 */
#define POOL_KEEP ((uint64_t) 2 << 30)

static void
keep_pool_memory(int device)
{
	cudaMemPool_t pool;
	uint64_t	keep = POOL_KEEP;

	if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess)
		cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
	cudaGetLastError();
}

/*
 * bytes from host src to device dst on stream, through the staging pair buf (the host's threads fill one
 * buffer while the device reads the other; ev[b]: the device is done with buffer b). The first error.
 */
static cudaError_t
stage_through(void *const buf[2], cudaEvent_t ev[2], cudaStream_t stream, void *dst, const void *src, size_t bytes)
{
	cudaError_t e = cudaSuccess;

	for (int b = 0; b < 2 && e == cudaSuccess; b++)
		if (ev[b] == nullptr)
			e = cudaEventCreateWithFlags(&ev[b], cudaEventDisableTiming);
	for (size_t off = 0, b = 0; off < bytes && e == cudaSuccess; off += STAGE_BYTES, b ^= 1)
	{
		size_t		len = std::min(STAGE_BYTES, bytes - off);
		const char *from = static_cast<const char *>(src) + off;
		char	   *to = static_cast<char *>(buf[b]);
		long		pieces = (long) ((len + (1 << 20) - 1) >> 20);

		if ((e = cudaEventSynchronize(ev[b])) != cudaSuccess)
			break;
		#pragma omp parallel for schedule(static) if (pieces > 1)
		for (long p = 0; p < pieces; p++)
		{
			size_t		at = (size_t) p << 20;

			memcpy(to + at, from + at, std::min((size_t) 1 << 20, len - at));
		}
		if ((e = cudaMemcpyAsync(static_cast<char *>(dst) + off, to, len, cudaMemcpyHostToDevice, stream)) ==
			cudaSuccess)
			e = cudaEventRecord(ev[b], stream);
	}
	return e;
}

void
Job::staged_copy(void *dst, const void *src, size_t bytes)
{
	if (stage_ < 0)
		stage_ = stage_acquire();
	if (stage_ < 0)
	{
		check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_), "upload");
		return;
	}
	check(stage_through(stage_bufs[stage_], stage_ev_, stream_, dst, src, bytes), "upload");
}

/*
 * A device's properties and FP64 rate, asked of the driver once per process (cudaGetDeviceProperties
 * costs about a millisecond, and every job needs them); the stream-ordered pool set up with them.
 */
void
Job::device_facts(int device, cudaDeviceProp *prop, bool *fp64_weak)
{
	static cudaDeviceProp props[MAX_DEVICES];
	static bool weak[MAX_DEVICES],
				known[MAX_DEVICES];
	std::lock_guard<std::mutex> hold(stage_lock);

	if (device >= MAX_DEVICES)
		fail(GX_CUDA_NO_DEVICE, "CUDA device %d beyond the %d this engine serves", device, MAX_DEVICES);
	if (!known[device])
	{
		int			ratio = 0;

		check(cudaGetDeviceProperties(&props[device], device), "cudaGetDeviceProperties");
		check(cudaDeviceGetAttribute(&ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio, device),
			  "cudaDeviceGetAttribute");
		weak[device] = ratio > 2;
		keep_pool_memory(device);
		check(gx_warm_predicates(stream_), "loading the kernels");
		check(cudaStreamSynchronize(stream_), "loading the kernels");
		known[device] = true;
	}
	*prop = props[device];
	*fp64_weak = weak[device];
}

/*
 * Appends n keys from the device to the result, in pieces with cancel polled between them (a result of
 * 10^8 pairs takes a second to come over), straight into the result's own array: no zero-filled buffer.
 */
#define DOWNLOAD_PIECE ((unsigned long long) 8 << 20)

void
Job::download_keys(const unsigned long long *keys, unsigned long long n)
{
	size_t		at = npairs_;

	if (n == 0)
		return;
	reserve_pairs(n);
	for (unsigned long long off = 0; off < n; off += DOWNLOAD_PIECE)
	{
		unsigned long long len = std::min(DOWNLOAD_PIECE, n - off);

		cancelled();
		check(cudaMemcpyAsync(pairs_buf_ + at + off, keys + off, len * sizeof(uint64_t), cudaMemcpyDeviceToHost,
							  stream_), "download");
		check(cudaStreamSynchronize(stream_), "download");
	}
	settle(false);
	npairs_ += n;
}

/* Room in the result for n more pairs. */
void
Job::reserve_pairs(unsigned long long n)
{
	if (npairs_ + n > pairs_cap_)
	{
		size_t		cap = std::max<size_t>(npairs_ + n, 2 * pairs_cap_);
		uint64_t   *p = (uint64_t *) realloc(pairs_buf_, cap * sizeof(uint64_t));

		if (p == nullptr)
			fail(GX_CUDA_ERROR, "out of host memory for %zu pairs", cap);
		pairs_buf_ = p;
		pairs_cap_ = cap;
	}
}

/*
 * The keys of the found table's geometry pairs (gx_cuda_found.cu), ascending, into the result: written on the
 * device where the memory left holds them, else read here from the table itself.
 */
void
Job::download_found(const unsigned *found, unsigned long long words, unsigned long long nb)
{
	unsigned long long runs = gx_found_runs(words);
	unsigned long long *count = alloc<unsigned long long>(runs + 1, "found pair counts");
	unsigned long long *offset = alloc<unsigned long long>(runs + 1, "found pair offsets");
	unsigned long long n,
			   *keys;

	tic();
	check(gx_launch_found_count(found, words, count, stream_), "found count kernel");
	scan_with_temp([&](void *temp, size_t &bytes) {
		return cub::DeviceScan::ExclusiveSum(temp, bytes, count, offset, (size_t) runs + 1, stream_);
	}, "found scan");
	toc(&res_->t_dedup);
	n = read_u64(offset + runs);
	release(count);
	cancelled();
	tic();
	if (n <= (cap_ > used_ ? cap_ - used_ : 0) / sizeof(unsigned long long))
	{
		keys = alloc<unsigned long long>(n, "found pair keys");
		check(gx_launch_found_keys(found, words, nb, offset, keys, stream_), "found keys kernel");
		download_keys(keys, n);
	}
	else
	{
		std::vector<unsigned> table(words);

		check(cudaMemcpyAsync(table.data(), found, words * sizeof(unsigned), cudaMemcpyDeviceToHost, stream_),
			  "download");
		check(cudaStreamSynchronize(stream_), "download");
		settle(false);
		reserve_pairs(n);
		for (unsigned long long w = 0; w < words; w++)
			for (unsigned bits = table[w]; bits; bits &= bits - 1)
			{
				unsigned long long bit = 32 * w + (unsigned long long) __builtin_ctz(bits);

				pairs_buf_[npairs_++] = gx_found_key(bit, nb);
			}
	}
	toc(&res_->t_download);
}

void
Job::upload(GxDevSide *d, const GxCudaSide *s, const char *name)
{
	double	   *coords;
	uint8_t    *kind;
	uint32_t   *geom;

	memset(d, 0, sizeof(*d));
	d->n = s->n;
	if (s->n == 0)
		return;
	if (!s->coords || !s->kind || !s->geom)
		fail(GX_CUDA_ERROR, "side %s has %zu elements but no arrays", name, s->n);
	coords = alloc<double>(9 * s->n, "coordinates");
	kind = alloc<uint8_t>(s->n, "kinds");
	geom = alloc<uint32_t>(s->n, "geometry indices");
	d->box = alloc<GxDevBox>(s->n, "element boxes");
	staged_copy(coords, s->coords, 9 * s->n * sizeof(double));
	staged_copy(kind, s->kind, s->n);
	staged_copy(geom, s->geom, s->n * sizeof(uint32_t));
	d->coords = coords;
	d->kind = kind;
	d->geom = geom;
}

void
Job::use_resident(GxDevSide *d, const GxCudaResident *r)
{
	if (r->device != job_->device)
		fail(GX_CUDA_ERROR, "resident side of device %d in a job on device %d", r->device, job_->device);
	memset(d, 0, sizeof(*d));
	d->n = r->n;
	d->coords = r->coords;
	d->kind = r->kind;
	d->geom = r->geom;
	d->box = r->box;
}

/* Count, scan and fill one side's grid. */
GxDevCells
Job::build_grid(const GxDevGrid *g, GxDevSide *s)
{
	GxDevCells	cells;
	unsigned   *cursor;
	unsigned long long entries;

	cells.start = alloc<unsigned long long>(g->ncells + 1, "grid offsets");
	check(cudaMemsetAsync(cells.start, 0, (g->ncells + 1) * sizeof(unsigned long long), stream_), "cudaMemset");
	check(gx_launch_grid_count(g, s, cells.start, stream_), "grid count kernel");
	scan_with_temp([&](void *temp, size_t &bytes) {
		return cub::DeviceScan::ExclusiveSum(temp, bytes, cells.start, (size_t) g->ncells + 1, stream_);
	}, "grid scan");
	entries = read_u64(cells.start + g->ncells);
	cancelled();
	cells.items = alloc<uint32_t>(entries, "grid items");
	cursor = alloc<unsigned>(g->ncells, "grid cursors");
	check(cudaMemsetAsync(cursor, 0, g->ncells * sizeof(unsigned), stream_), "cudaMemset");
	check(gx_launch_grid_fill(g, s, &cells, cursor, stream_), "grid fill kernel");
	release(cursor);
	return cells;
}

/*
 * The side to grid, which the other probes: one whose resident side keeps this grid already; else one that
 * can keep the grid it builds; else the larger (the smaller probes).
 */
int
Job::grid_side(const GxDevGrid *g, const GxDevSide *a, const GxDevSide *b)
{
	int			score[2] = {0, 0};

	for (int k = 0; k < 2; k++)
		if (keepable(k))
		{
			GxCudaResident *r = const_cast<GxCudaResident *>(job_->resident[k]);
			std::lock_guard<std::mutex> hold(r->grid_lock);

			score[k] = r->grid_kept && same_grid(&r->grid, g) ? 2 : !r->grid_claimed ? 1 : 0;
		}
	if (score[0] != score[1])
		return score[0] > score[1] ? 0 : 1;
	return a->n > b->n ? 0 : 1;
}

/*
 * Side k's grid: the one its resident side keeps, when it is this grid; else built now, and claimed for
 * keeping when the resident side keeps none yet and side k's boxes are its own.
 */
GxDevCells
Job::side_grid(const GxDevGrid *g, GxDevSide *s, int k)
{
	if (keepable(k))
	{
		GxCudaResident *r = const_cast<GxCudaResident *>(job_->resident[k]);
		std::lock_guard<std::mutex> hold(r->grid_lock);

		if (r->grid_kept && same_grid(&r->grid, g))
			return r->grid_cells;
		if (!r->grid_claimed)
		{
			r->grid_claimed = true;
			claimed_[k] = r;
		}
	}
	return build_grid(g, s);
}

/* Hands the grid this job claimed for side k over to its resident side; the job's stream has finished it. */
void
Job::keep_grid(const GxDevGrid *g, int k, const GxDevCells *cells)
{
	GxCudaResident *r = claimed_[k];

	if (!r)
		return;

	std::lock_guard<std::mutex> hold(r->grid_lock);

	detach(cells->start);
	detach(cells->items);
	r->grid = *g;
	r->grid_cells = *cells;
	r->grid_kept = true;
	claimed_[k] = nullptr;
}

/* Sums of pairs, for the probe's scan of its counts. */
struct AddPairs
{
	__device__ __forceinline__ ulonglong2 operator()(const ulonglong2 &x, const ulonglong2 &y) const
	{
		return make_ulonglong2(x.x + y.x, x.y + y.y);
	}
};

/*
 * Side s probes the grid c->grid: its entries (element, cell, end of its candidates) and the block table into
 * c; returns the number of candidates.
 */
unsigned long long
Job::probe(const GxDevGrid *g, const GxDevSide *s, GxDevCandidates *c)
{
	ulonglong2 *count = alloc<ulonglong2>(s->n + 1, "probe counts");
	unsigned long long totals[2];

	check(cudaMemsetAsync(count + s->n, 0, sizeof(ulonglong2), stream_), "cudaMemset");
	check(gx_launch_probe_count(g, s, c->grid.start, count, stream_), "probe count kernel");
	scan_with_temp([&](void *temp, size_t &bytes) {
		return cub::DeviceScan::ExclusiveScan(temp, bytes, count, AddPairs(), make_ulonglong2(0, 0), s->n + 1,
											  stream_);
	}, "probe scan");
	read_counters(reinterpret_cast<const unsigned long long *>(count + s->n), totals, 2);
	cancelled();
	if (totals[0] > 0xffffffffull)
		fail(GX_CUDA_OUT_OF_MEMORY, "%llu cells probed", totals[0]);
	c->nentries = totals[0];
	c->total = totals[1];
	c->block_entry = nullptr;
	if (c->total == 0)
	{
		release(count);
		return 0;
	}

	uint32_t   *elem = alloc<uint32_t>(c->nentries, "probe entries");
	unsigned long long *cell = alloc<unsigned long long>(c->nentries, "probe entries");
	unsigned long long *cand_end = alloc<unsigned long long>(c->nentries, "probe entries");
	uint32_t   *first = alloc<uint32_t>((c->total + GX_CUDA_BLOCK - 1) / GX_CUDA_BLOCK, "block table");

	check(gx_launch_probe_fill(g, s, count, c->grid.start, elem, cell, cand_end, stream_), "probe fill kernel");
	release(count);
	check(gx_launch_block_entries(c->nentries, cand_end, first, stream_), "block table kernel");
	c->elem = elem;
	c->cell = cell;
	c->cand_end = cand_end;
	c->block_entry = first;
	return c->total;
}

/*
 * Survivor slots for the chunks within the memory left, at most MAX_SLOTS and total: each holds a survivor, an
 * undecided pair and a pair for the CPU, and without the table of pairs found also two keys, which need
 * *sort_bytes of sort and unique temporary besides.
 */
unsigned long long
Job::size_slots(unsigned long long total, bool table, size_t *sort_bytes)
{
	size_t		left = cap_ > used_ ? cap_ - used_ : 0,
				per = table ? 3 * sizeof(uint2) : SLOT_BYTES;
	unsigned long long slots = std::min<unsigned long long>(std::min<unsigned long long>(total, MAX_SLOTS),
														   left / per);
	unsigned long long *ull_null = nullptr;

	*sort_bytes = 0;
	for (;;)
	{
		if (!table)
		{
			size_t		sb = 0,
						ub = 0;
			cub::DoubleBuffer<unsigned long long> db0(nullptr, nullptr);

			check(cub::DeviceRadixSort::SortKeys(nullptr, sb, db0, (int64_t) std::max(slots, 1ull), 0, 64, stream_),
				  "sort size");
			check(cub::DeviceSelect::Unique(nullptr, ub, ull_null, ull_null, ull_null,
											(int64_t) std::max(slots, 1ull), stream_), "unique size");
			*sort_bytes = std::max(sb, ub) + 256;
		}
		if (slots == 0 || slots * per + *sort_bytes <= left)
			return slots;
		slots = slots * 15 / 16;
	}
}

int
Job::run()
{
	int			ndev = 0;
	cudaDeviceProp prop;
	bool		fp64_weak;
	size_t		freemem = 0,
				totalmem = 0;
	GxDevSide	da,
				db;
	GxDevGrid	g;
	bool		use_float;

	memset(res_, 0, sizeof(*res_));
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev <= 0)
	{
		cudaGetLastError();
		fail(GX_CUDA_NO_DEVICE, "no CUDA device or driver");
	}
	if (job_->device < 0 || job_->device >= ndev)
		fail(GX_CUDA_NO_DEVICE, "no CUDA device %d (%d present)", job_->device, ndev);
	check(cudaSetDevice(job_->device), "cudaSetDevice");
	device_facts(job_->device, &prop, &fp64_weak);
	snprintf(res_->device_name, sizeof(res_->device_name), "%s", prop.name);
	use_float = job_->distance > 0 ? false : job_->float_pass < 0 ? fp64_weak : job_->float_pass != 0;
	res_->used_float_pass = use_float;
	res_->chunks = 0;

	/* The grid's numbers, exactly as gx_grid_build computes them. */
	memset(&g, 0, sizeof(g));
	g.ncells = 1;
	for (int k = 0; k < 3; k++)
	{
		double		d = job_->extent[k + 3] - job_->extent[k];

		if (job_->dim[k] < 1 || !(d >= 0) || !isfinite(d))
			fail(GX_CUDA_ERROR, "bad grid: extent [%g, %g] with %d cells along axis %d", job_->extent[k],
				 job_->extent[k + 3], job_->dim[k], k);
		g.lo[k] = job_->extent[k];
		g.hi[k] = job_->extent[k + 3];
		g.dim[k] = job_->dim[k];
		g.scale[k] = d > 0 ? job_->dim[k] / d : 0;
		g.ncells *= (size_t) job_->dim[k];
	}
	if (g.ncells > (1ull << 36))
		fail(GX_CUDA_OUT_OF_MEMORY, "grid of %zu cells", g.ncells);

	take_streams();
	/*
	 * The kernels are loaded and the exact pass's local memory reserved (device_facts, once per device)
	 * before what is free is measured, when the job has no cap of its own.
	 */
	if (job_->memory_cap)
		cap_ = job_->memory_cap;
	else
	{
		check(cudaMemGetInfo(&freemem, &totalmem), "cudaMemGetInfo");
		cap_ = (size_t) (0.8 * (double) freemem);
	}
	cancelled();

	/* Upload (a resident side is on the device already, boxes included). */
	tic();
	if (job_->resident[0])
		use_resident(&da, job_->resident[0]);
	else
		upload(&da, &job_->a, "a");
	if (job_->resident[1])
		use_resident(&db, job_->resident[1]);
	else
		upload(&db, &job_->b, "b");
	toc(&res_->t_upload);
	cancelled();
	if (da.n == 0 || db.n == 0)
	{
		res_->chunks = 1;
		settle(true);
		return GX_CUDA_OK;
	}
	if (da.n > 0xffffffffull || db.n > 0xffffffffull)
		fail(GX_CUDA_ERROR, "more than 2^32 elements on a side");

	/* Boxes and grids. */
	tic();
	if (!job_->resident[0])
		check(gx_launch_boxes(&da, stream_), "box kernel");
	if (!job_->resident[1])
		check(gx_launch_boxes(&db, stream_), "box kernel");
	if (job_->distance > 0)
	{
		/* side a's boxes grown (a copy: a resident side's own boxes stay as they are) */
		GxDevBox   *grown = alloc<GxDevBox>(da.n, "grown boxes");

		check(gx_launch_grow_boxes(da.box, da.n, job_->distance, grown, stream_), "grow kernel");
		da.box = grown;
	}
	if (use_float)
	{
		double		centre[3];

		for (int k = 0; k < 3; k++)
			centre[k] = 0.5 * job_->extent[k] + 0.5 * job_->extent[k + 3];
		da.fint = alloc<float2>(9 * da.n, "float intervals");
		db.fint = alloc<float2>(9 * db.n, "float intervals");
		check(gx_launch_float_intervals(&da, centre, stream_), "interval kernel");
		check(gx_launch_float_intervals(&db, centre, stream_), "interval kernel");
	}

	/* One side's grid (kept, or built now), probed by the other side. */
	int			gs = grid_side(&g, &da, &db);
	GxDevSide  *gside = gs ? &db : &da,
			   *pside = gs ? &da : &db;
	GxDevCandidates cc;

	cc.g = g;
	cc.box_probe = pside->box;
	cc.box_grid = gside->box;
	cc.probe_is_a = gs == 1;
	cc.grid = side_grid(&g, gside, gs);
	cancelled();

	unsigned long long total = probe(&g, pside, &cc);	/* the stream has finished the grid */

	toc(&res_->t_grid);
	keep_grid(&g, gs, &cc.grid);
	res_->candidates = total;
	cancelled();
	if (total == 0)
	{
		res_->chunks = 1;
		settle(true);
		return GX_CUDA_OK;
	}

	unsigned long long *counters = alloc<unsigned long long>(GX_CNT_N, "counters");

	/*
	 * A job of geometry pairs: a bit per pair of geometries, set once the pair is found (the geometry indices
	 * of a side ascend, so the last element's is the largest), when the table fits in 64 MB and it, the
	 * counts and the offsets that read it out take at most a quarter of the memory left, and the chunk buffers
	 * still get their least room.
	 */
	unsigned   *found = nullptr;
	unsigned long long nb_geoms = 0,
				found_words = 0;

	if (!job_->element_pairs && job_->a.geom && job_->b.geom)
	{
		unsigned long long na_geoms = (unsigned long long) job_->a.geom[job_->a.n - 1] + 1;

		nb_geoms = (unsigned long long) job_->b.geom[job_->b.n - 1] + 1;
		found_words = (na_geoms * nb_geoms + 31) / 32;
		if (na_geoms * nb_geoms <= (1ull << 29) &&
			found_words * sizeof(unsigned) + 2 * (gx_found_runs(found_words) + 1) * sizeof(unsigned long long) <=
			(cap_ > used_ ? (cap_ - used_) / 4 : 0))
		{
			found = alloc<unsigned>(found_words, "found geometry pairs");
			check(cudaMemsetAsync(found, 0, found_words * sizeof(unsigned), stream_), "cudaMemset");
		}
	}

	/* Chunk buffers: as many survivor slots as the memory left allows (keys and their sort only without the table). */
	size_t		sort_bytes = 0;
	unsigned long long slots = size_slots(total, found != nullptr, &sort_bytes);

	if (found && slots < std::min<unsigned long long>(total, MIN_SLOTS))
	{
		/* the table leaves too little room: the job goes on without it */
		release(found);
		found = nullptr;
		slots = size_slots(total, false, &sort_bytes);
	}
	if (slots < std::min<unsigned long long>(total, MIN_SLOTS))
		fail(GX_CUDA_OUT_OF_MEMORY, "device memory cap of %zu bytes leaves room for %llu candidate pairs",
			 cap_, slots);

	uint2	   *buf0 = alloc<uint2>(slots, "survivors");
	uint2	   *buf1 = alloc<uint2>(slots, "undecided pairs");
	uint2	   *undec = alloc<uint2>(slots, "pairs for the CPU");
	unsigned long long *keys = found ? nullptr : alloc<unsigned long long>(slots, "keys");
	unsigned long long *keys_alt = found ? nullptr : alloc<unsigned long long>(slots, "keys");
	void	   *sort_temp = found ? nullptr : alloc<char>(sort_bytes, "sort temporary");

	unsigned long long c0 = 0,
				len = total;
	std::vector<uint2> chunk_undec;
	while (c0 < total)
	{
		unsigned long long n;

		cancelled();
		len = std::min(len, total - c0);
		check(cudaMemsetAsync(counters, 0, GX_CNT_N * sizeof(unsigned long long), stream_), "cudaMemset");
		tic();
		check(gx_launch_cull(&cc, c0, len, buf0, slots, counters + GX_CNT_SURVIVORS, stream_), "cull kernel");
		toc(&res_->t_cull);
		n = read_u64(counters + GX_CNT_SURVIVORS);
		if (n > slots)
		{
			/* Overflow: a shorter range, in proportion. */
			double		f = 0.9 * (double) slots / (double) n;

			len = std::max<unsigned long long>(1, (unsigned long long) ((double) len * f));
			continue;
		}
		res_->bbox_survivors += n;

		/* Predicate passes: in -> keys + next. */
		uint2	   *in = buf0,
				   *other = buf1;

		if (job_->distance > 0)
		{
			/* the certified distance bounds: decided pairs to keys, the rest to the CPU */
			cancelled();
			tic();
			check(gx_launch_distance(&da, &db, in, n, job_->distance, found, nb_geoms, keys, undec, counters, stream_),
				  "distance pass");
			toc(&res_->t_double);
			res_->double_failures += read_u64(counters + GX_CNT_NEXT);
			n = 0;
		}
		if (use_float && n > 0)
		{
			cancelled();
			tic();
			check(gx_launch_predicates(GX_PASS_FLOAT, &da, &db, in, n, job_->element_pairs != 0, found, nb_geoms, keys,
									   other, counters, stream_), "float pass");
			toc(&res_->t_float);
			n = read_u64(counters + GX_CNT_NEXT);
			res_->float_failures += n;
			std::swap(in, other);
			check(cudaMemsetAsync(counters + GX_CNT_NEXT, 0, sizeof(unsigned long long), stream_), "cudaMemset");
		}
		cancelled();
		tic();
		if (n > 0)
		{
			check(gx_launch_predicates(GX_PASS_FILTER, &da, &db, in, n, job_->element_pairs != 0, found, nb_geoms, keys,
									   other, counters, stream_), "filter pass");
			n = read_u64(counters + GX_CNT_NEXT);
			res_->double_failures += n;
			std::swap(in, other);
			check(cudaMemsetAsync(counters + GX_CNT_NEXT, 0, sizeof(unsigned long long), stream_), "cudaMemset");
		}
		if (n > 0)
		{
			cancelled();
			check(gx_launch_predicates(GX_PASS_EXACT, &da, &db, in, n, job_->element_pairs != 0, found, nb_geoms, keys,
									   undec, counters, stream_), "exact pass");
		}
		toc(&res_->t_double);

		unsigned long long next_keys[2];

		static_assert(GX_CNT_KEYS == GX_CNT_NEXT + 1, "the counters read together");
		read_counters(counters + GX_CNT_NEXT, next_keys, 2);

		unsigned long long nkeys = next_keys[1];
		unsigned long long nundec = next_keys[0];
		unsigned long long nuniq = 0;
		unsigned long long *uniq = keys_alt;

		res_->element_pairs += nkeys;
		cancelled();

		/* Sort and unique this chunk's keys (none are written where the table of pairs found is kept). */
		bool		sorting = nkeys > 0 && !found;

		tic();
		if (sorting)
		{
			cub::DoubleBuffer<unsigned long long> dbk(keys, keys_alt);
			size_t		tb = sort_bytes;

			check(cub::DeviceRadixSort::SortKeys(sort_temp, tb, dbk, (int64_t) nkeys, 0, 64, stream_), "key sort");
			uniq = dbk.Alternate();
			tb = sort_bytes;
			check(cub::DeviceSelect::Unique(sort_temp, tb, dbk.Current(), uniq, counters + GX_CNT_UNIQUE,
											(int64_t) nkeys, stream_), "key unique");
		}
		toc(&res_->t_dedup);
		if (sorting)
			nuniq = read_u64(counters + GX_CNT_UNIQUE);

		/* Download. */
		tic();
		chunk_undec.resize(nundec);
		if (nundec)
			check(cudaMemcpyAsync(chunk_undec.data(), undec, nundec * sizeof(uint2), cudaMemcpyDeviceToHost, stream_),
				  "download");
		download_keys(uniq, nuniq);
		toc(&res_->t_download);
		for (const uint2 &p : chunk_undec)
		{
			undecided_.push_back(p.x);
			undecided_.push_back(p.y);
		}
		res_->chunks++;
		c0 += len;
		/* Next range: what the density seen so far says will fit, at most twice this one. */
		if (c0 < total)
		{
			unsigned long long kept = res_->bbox_survivors;
			double		fit = kept ? 0.9 * (double) slots * (double) c0 / (double) kept : 2.0 * (double) len;

			fit = std::min(fit, 2.0 * (double) len);
			len = std::max<unsigned long long>(1, (unsigned long long) fit);
		}
	}
	cancelled();
	if (found)
	{
		/* the chunk buffers make room for reading the table out */
		for (void *p : std::initializer_list<void *>{buf0, buf1, undec, keys, keys_alt, sort_temp})
			release(p);
		download_found(found, found_words, nb_geoms);
	}
	else if (res_->chunks > 1)
	{
		std::sort(pairs_buf_, pairs_buf_ + npairs_);
		npairs_ = (size_t) (std::unique(pairs_buf_, pairs_buf_ + npairs_) - pairs_buf_);
	}
	cancelled();
	settle(true);

	/* Hand the arrays over (malloc'd, freed by gx_cuda_free_result). */
	if (npairs_ > 0)
	{
		res_->pairs = pairs_buf_;
		res_->npairs = npairs_;
		pairs_buf_ = nullptr;
	}
	if (!undecided_.empty())
	{
		res_->undecided = (uint32_t *) malloc(undecided_.size() * sizeof(uint32_t));
		if (!res_->undecided)
			fail(GX_CUDA_ERROR, "out of host memory for %zu undecided pairs", undecided_.size() / 2);
		memcpy(res_->undecided, undecided_.data(), undecided_.size() * sizeof(uint32_t));
		res_->nundecided = undecided_.size() / 2;
	}
	return GX_CUDA_OK;
}

}								/* namespace */

GX_EXPORT int
gx_cuda_abi(void)
{
	return GX_CUDA_ABI;
}

GX_EXPORT int
gx_cuda_device_info(int device, char *name, size_t namelen, int *fp64_weak, size_t *memory)
{
	int			n = 0,
				ratio = 0;
	cudaDeviceProp prop;

	try
	{
		if (cudaGetDeviceCount(&n) != cudaSuccess || device < 0 || device >= n)
		{
			cudaGetLastError();
			return GX_CUDA_NO_DEVICE;
		}
		if (cudaGetDeviceProperties(&prop, device) != cudaSuccess ||
			cudaDeviceGetAttribute(&ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio, device) != cudaSuccess)
		{
			cudaGetLastError();
			return GX_CUDA_ERROR;
		}
		if (name && namelen)
			snprintf(name, namelen, "%s", prop.name);
		if (fp64_weak)
			*fp64_weak = ratio > 2;
		if (memory)
			*memory = prop.totalGlobalMem;
		return GX_CUDA_OK;
	}
	catch (...)
	{
		return GX_CUDA_ERROR;
	}
}

GX_EXPORT void
gx_cuda_free_result(GxCudaResult *res)
{
	if (res == NULL)
		return;
	free(res->pairs);
	free(res->undecided);
	res->pairs = NULL;
	res->undecided = NULL;
	res->npairs = 0;
	res->nundecided = 0;
}

/*
 * Copies n bytes to a new device array *d (nothing to copy: a one-byte array); false with e set. A large
 * array goes through a pair of staging buffers of its own stream (the driver copies pageable memory at a
 * few GB/s, one buffer at a time).
 */
static bool
copy_to_device(void **d, const void *h, size_t n, cudaError_t *e)
{
	cudaStream_t stream = nullptr;
	cudaEvent_t ev[2] = {nullptr, nullptr};
	int			stage = n >= 2 * STAGE_BYTES ? stage_acquire() : -1;

	if ((*e = cudaMalloc(d, n ? n : 1)) != cudaSuccess || n == 0)
		;
	else if (stage < 0)
		*e = cudaMemcpy(*d, h, n, cudaMemcpyHostToDevice);
	else if ((*e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) == cudaSuccess &&
			 (*e = stage_through(stage_bufs[stage], ev, stream, *d, h, n)) == cudaSuccess)
		*e = cudaStreamSynchronize(stream);
	if (stage >= 0)
	{
		/* the buffers are free again once the stream is done with them (synchronized above, or now) */
		if (stream)
			cudaStreamSynchronize(stream);
		for (cudaEvent_t x : ev)
			if (x)
				cudaEventDestroy(x);
		if (stream)
			cudaStreamDestroy(stream);
		stage_release(stage);
	}
	return *e == cudaSuccess;
}

/* Keeps the columns of a side's solids with its copy r. */
static bool
upload_columns(GxCudaResident *r, const GxCudaColumns *c, cudaError_t *e)
{
	size_t		g = c->ngeoms;

	r->col_ngeoms = g;
	r->bytes += g * (4 * sizeof(double) + 2 * sizeof(int32_t) + sizeof(uint64_t)) +
		(c->ncells + 1) * sizeof(uint64_t) + c->nitems * sizeof(uint32_t);
	return copy_to_device((void **) &r->col_frame, c->frame, g * 4 * sizeof(double), e) &&
		copy_to_device((void **) &r->col_dim, c->dim, g * 2 * sizeof(int32_t), e) &&
		copy_to_device((void **) &r->col_cell0, c->cell0, g * sizeof(uint64_t), e) &&
		copy_to_device((void **) &r->col_start, c->start, (c->ncells + 1) * sizeof(uint64_t), e) &&
		copy_to_device((void **) &r->col_items, c->items, c->nitems * sizeof(uint32_t), e);
}

/* A failed call on a kept side: the error cleared and told, as the code the interface returns. */
static int
kept_side_failure(cudaError_t e, const char *what, char *err, size_t errlen)
{
	cudaGetLastError();
	snprintf(err, errlen, "%s: %s", what, cudaGetErrorString(e));
	return e == cudaErrorMemoryAllocation ? GX_CUDA_OUT_OF_MEMORY : GX_CUDA_ERROR;
}

GX_EXPORT int
gx_cuda_side_upload(int device, const GxCudaSide *s, GxCudaResident **out, size_t *bytes, char *err, size_t errlen)
{
	GxCudaResident *r = new (std::nothrow) GxCudaResident();
	GxDevSide	d;
	cudaError_t e = cudaSuccess;
	size_t		n = s->n ? s->n : 1;
	int			rc;

	*out = nullptr;
	if (r == nullptr)
	{
		snprintf(err, errlen, "out of host memory");
		return GX_CUDA_ERROR;
	}
	r->device = device;
	r->n = s->n;
	r->bytes = n * (9 * sizeof(double) + 1 + sizeof(uint32_t) + sizeof(GxDevBox));
	if ((e = cudaSetDevice(device)) != cudaSuccess ||
		!copy_to_device((void **) &r->coords, s->coords, s->n * 9 * sizeof(double), &e) ||
		!copy_to_device((void **) &r->kind, s->kind, s->n, &e) ||
		!copy_to_device((void **) &r->geom, s->geom, s->n * sizeof(uint32_t), &e) ||
		(e = cudaMalloc(&r->box, n * sizeof(GxDevBox))) != cudaSuccess ||
		(s->columns && !upload_columns(r, s->columns, &e)))
		goto failed;
	memset(&d, 0, sizeof(d));
	d.n = s->n;
	d.coords = r->coords;
	d.kind = r->kind;
	d.geom = r->geom;
	d.box = r->box;
	if (s->n && ((e = gx_launch_boxes(&d, 0)) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess))
		goto failed;
	*out = r;
	*bytes = r->bytes;
	return GX_CUDA_OK;

failed:
	rc = kept_side_failure(e, "keeping a side on the device", err, errlen);
	gx_cuda_side_free(r);
	return rc;
}

/* The column grids of a kept side, for the kernels that use them; false (err set) when it has none. */
static bool
columns_of(const GxCudaResident *solids, GxDevColumns *c, char *err, size_t errlen)
{
	if (solids == nullptr || solids->col_frame == nullptr)
	{
		snprintf(err, errlen, "the side was kept without its solids' columns");
		return false;
	}
	c->ngeoms = solids->col_ngeoms;
	c->frame = solids->col_frame;
	c->dim = solids->col_dim;
	c->cell0 = solids->col_cell0;
	c->start = solids->col_start;
	c->items = solids->col_items;
	c->coords = solids->coords;
	return true;
}

static bool
cancelled(volatile const int *const cancel[2])
{
	return (cancel[0] && *cancel[0]) || (cancel[1] && *cancel[1]);
}

GX_EXPORT int
gx_cuda_locate(const GxCudaResident *solids, const double *points, const uint32_t *solid, size_t n,
			   uint8_t *answer, volatile const int *const cancel[2], char *err, size_t errlen)
{
	GxDevColumns c;
	double	   *d_points = nullptr;
	uint32_t   *d_solid = nullptr;
	uint8_t    *d_answer = nullptr;
	cudaStream_t st = cudaStreamPerThread;
	cudaError_t e = cudaSuccess;
	int			rc = GX_CUDA_OK;

	if (!columns_of(solids, &c, err, errlen))
		return GX_CUDA_ERROR;
	if (cancelled(cancel))
		return GX_CUDA_CANCELLED;
	if ((e = cudaSetDevice(solids->device)) != cudaSuccess ||
		!copy_to_device((void **) &d_points, points, n * 3 * sizeof(double), &e) ||
		!copy_to_device((void **) &d_solid, solid, n * sizeof(uint32_t), &e) ||
		(e = cudaMalloc(&d_answer, n ? n : 1)) != cudaSuccess ||
		(e = gx_launch_locate(&c, d_points, d_solid, n, d_answer, st)) != cudaSuccess ||
		(n && (e = cudaMemcpyAsync(answer, d_answer, n, cudaMemcpyDeviceToHost, st)) != cudaSuccess) ||
		(e = cudaStreamSynchronize(st)) != cudaSuccess)
		rc = kept_side_failure(e, "locating points in solids", err, errlen);
	cudaFree(d_points);
	cudaFree(d_solid);
	cudaFree(d_answer);
	return rc;
}

GX_EXPORT int
gx_cuda_volumes(const GxCudaResident *solids, const double *boxes, const double *reach, const uint8_t *down,
				const uint32_t *solid, size_t n, uint8_t *verdict, double *value, volatile const int *const cancel[2],
				char *err, size_t errlen)
{
	GxDevColumns c;
	double	   *d_boxes = nullptr,
			   *d_reach = nullptr,
			   *d_value = nullptr;
	uint8_t    *d_down = nullptr,
			   *d_verdict = nullptr;
	uint32_t   *d_solid = nullptr;
	cudaStream_t st = cudaStreamPerThread;
	cudaError_t e = cudaSuccess;
	int			rc = GX_CUDA_OK;

	if (!columns_of(solids, &c, err, errlen))
		return GX_CUDA_ERROR;
	if (cancelled(cancel))
		return GX_CUDA_CANCELLED;
	if ((e = cudaSetDevice(solids->device)) != cudaSuccess ||
		!copy_to_device((void **) &d_boxes, boxes, n * 6 * sizeof(double), &e) ||
		!copy_to_device((void **) &d_reach, reach, n * sizeof(double), &e) ||
		!copy_to_device((void **) &d_down, down, n, &e) ||
		!copy_to_device((void **) &d_solid, solid, n * sizeof(uint32_t), &e) ||
		(e = cudaMalloc(&d_verdict, n ? n : 1)) != cudaSuccess ||
		(e = cudaMalloc(&d_value, (n ? n : 1) * sizeof(double))) != cudaSuccess ||
		(e = gx_launch_volumes(&c, d_boxes, d_reach, d_down, d_solid, n, d_verdict, d_value, st)) != cudaSuccess ||
		(n && (e = cudaMemcpyAsync(verdict, d_verdict, n, cudaMemcpyDeviceToHost, st)) != cudaSuccess) ||
		(n && (e = cudaMemcpyAsync(value, d_value, n * sizeof(double), cudaMemcpyDeviceToHost, st)) != cudaSuccess) ||
		(e = cudaStreamSynchronize(st)) != cudaSuccess)
		rc = kept_side_failure(e, "volumes of solids in boxes", err, errlen);
	cudaFree(d_boxes);
	cudaFree(d_reach);
	cudaFree(d_down);
	cudaFree(d_solid);
	cudaFree(d_verdict);
	cudaFree(d_value);
	return rc;
}

GX_EXPORT int
gx_cuda_overlap_candidates(const GxCudaResident *a, const GxCudaResident *b, const uint64_t *a_first,
						   const uint32_t *a_count, const uint32_t *b_solid, const uint64_t *b_first, const double *b_box,
						   size_t npairs, uint64_t *start, uint32_t **pairs, volatile const int *const cancel[2],
						   char *err, size_t errlen)
{
	GxDevOverlap o;
	unsigned long long *work = nullptr,
			   *d_work = nullptr,
			   *d_a_first = nullptr,
			   *d_b_first = nullptr,
			   *count = nullptr,
			   *d_start = nullptr,
				total = 0;
	uint32_t   *d_b_solid = nullptr;
	double	   *d_b_box = nullptr;
	uint2	   *d_pairs = nullptr;
	void	   *temp = nullptr;
	size_t		temp_bytes = 0;
	cudaStream_t st = cudaStreamPerThread;
	cudaError_t e = cudaSuccess;
	int			rc = GX_CUDA_OK;

	*pairs = nullptr;
	memset(&o, 0, sizeof(o));
	if (a == nullptr || !columns_of(b, &o.columns, err, errlen))
		return GX_CUDA_ERROR;
	if (a->device != b->device)
	{
		snprintf(err, errlen, "the two sides are kept on different devices");
		return GX_CUDA_ERROR;
	}
	if (cancelled(cancel))
		return GX_CUDA_CANCELLED;
	if ((work = (unsigned long long *) malloc((npairs + 1) * sizeof(unsigned long long))) == nullptr)
	{
		snprintf(err, errlen, "out of host memory");
		return GX_CUDA_OUT_OF_MEMORY;
	}
	work[0] = 0;
	for (size_t p = 0; p < npairs; p++)
		work[p + 1] = work[p] + a_count[p];
	o.box_a = a->box;
	o.box_b = b->box;
	o.npairs = npairs;
	if ((e = cudaSetDevice(a->device)) != cudaSuccess ||
		!copy_to_device((void **) &d_work, work, (npairs + 1) * sizeof(unsigned long long), &e) ||
		!copy_to_device((void **) &d_a_first, a_first, npairs * sizeof(uint64_t), &e) ||
		!copy_to_device((void **) &d_b_solid, b_solid, npairs * sizeof(uint32_t), &e) ||
		!copy_to_device((void **) &d_b_first, b_first, npairs * sizeof(uint64_t), &e) ||
		!copy_to_device((void **) &d_b_box, b_box, npairs * 6 * sizeof(double), &e) ||
		(e = cudaMalloc(&count, (work[npairs] + 1) * sizeof(unsigned long long))) != cudaSuccess ||
		(e = cudaMalloc(&d_start, (npairs + 1) * sizeof(unsigned long long))) != cudaSuccess)
		goto failed;
	o.work = d_work;
	o.a_first = d_a_first;
	o.b_solid = d_b_solid;
	o.b_first = d_b_first;
	o.b_box = d_b_box;
	/* each work item's count, their exclusive scan in place (the last entry, 0, becomes the total) */
	if ((e = cudaMemsetAsync(count + work[npairs], 0, sizeof(unsigned long long), st)) != cudaSuccess ||
		(e = gx_launch_overlap_count(&o, work[npairs], count, st)) != cudaSuccess ||
		(e = cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, count, count, (size_t) work[npairs] + 1, st)) !=
		cudaSuccess ||
		(e = cudaMalloc(&temp, temp_bytes ? temp_bytes : 1)) != cudaSuccess ||
		(e = cub::DeviceScan::ExclusiveSum(temp, temp_bytes, count, count, (size_t) work[npairs] + 1, st)) !=
		cudaSuccess ||
		(e = gx_launch_overlap_starts(&o, count, d_start, st)) != cudaSuccess ||
		(e = cudaMemcpyAsync(start, d_start, (npairs + 1) * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
							 st)) != cudaSuccess ||
		(e = cudaStreamSynchronize(st)) != cudaSuccess)
		goto failed;
	if (cancelled(cancel))
	{
		rc = GX_CUDA_CANCELLED;
		goto done;
	}
	total = start[npairs];
	if ((*pairs = (uint32_t *) malloc((total ? total : 1) * 2 * sizeof(uint32_t))) == nullptr)
	{
		snprintf(err, errlen, "out of host memory for %llu pairs of triangles", total);
		rc = GX_CUDA_OUT_OF_MEMORY;
		goto done;
	}
	if ((e = cudaMalloc(&d_pairs, (total ? total : 1) * sizeof(uint2))) != cudaSuccess ||
		(e = gx_launch_overlap_fill(&o, work[npairs], count, d_pairs, st)) != cudaSuccess ||
		(total && (e = cudaMemcpyAsync(*pairs, d_pairs, total * sizeof(uint2), cudaMemcpyDeviceToHost, st)) !=
		 cudaSuccess) ||
		(e = cudaStreamSynchronize(st)) != cudaSuccess)
		goto failed;
	goto done;

failed:
	rc = kept_side_failure(e, "candidate pairs of triangles of solids", err, errlen);
done:
	if (rc != GX_CUDA_OK)
	{
		free(*pairs);
		*pairs = nullptr;
	}
	free(work);
	cudaFree(d_work);
	cudaFree(d_a_first);
	cudaFree(d_b_solid);
	cudaFree(d_b_first);
	cudaFree(d_b_box);
	cudaFree(count);
	cudaFree(d_start);
	cudaFree(temp);
	cudaFree(d_pairs);
	return rc;
}

GX_EXPORT int
gx_cuda_solid_volumes(const GxCudaResident *s, const uint64_t *first, const uint32_t *count, size_t n, double *value,
					  int8_t *sign, volatile const int *const cancel[2], char *err, size_t errlen)
{
	unsigned long long *d_first = nullptr;
	uint32_t   *d_count = nullptr;
	double	   *d_value = nullptr;
	int8_t	   *d_sign = nullptr;
	cudaStream_t st = cudaStreamPerThread;
	cudaError_t e = cudaSuccess;
	int			rc = GX_CUDA_OK;

	if (s == nullptr)
	{
		snprintf(err, errlen, "no side kept on the device");
		return GX_CUDA_ERROR;
	}
	if (cancelled(cancel))
		return GX_CUDA_CANCELLED;
	if ((e = cudaSetDevice(s->device)) != cudaSuccess ||
		!copy_to_device((void **) &d_first, first, n * sizeof(uint64_t), &e) ||
		!copy_to_device((void **) &d_count, count, n * sizeof(uint32_t), &e) ||
		(e = cudaMalloc(&d_value, (n ? n : 1) * sizeof(double))) != cudaSuccess ||
		(e = cudaMalloc(&d_sign, n ? n : 1)) != cudaSuccess ||
		(e = gx_launch_own_volumes(s->coords, d_first, d_count, n, d_value, d_sign, st)) != cudaSuccess ||
		(n && (e = cudaMemcpyAsync(value, d_value, n * sizeof(double), cudaMemcpyDeviceToHost, st)) != cudaSuccess) ||
		(n && (e = cudaMemcpyAsync(sign, d_sign, n, cudaMemcpyDeviceToHost, st)) != cudaSuccess) ||
		(e = cudaStreamSynchronize(st)) != cudaSuccess)
		rc = kept_side_failure(e, "volumes of solids", err, errlen);
	cudaFree(d_first);
	cudaFree(d_count);
	cudaFree(d_value);
	cudaFree(d_sign);
	return rc;
}

GX_EXPORT void
gx_cuda_side_free(GxCudaResident *r)
{
	if (r == nullptr)
		return;
	cudaSetDevice(r->device);
	cudaFree(r->coords);
	cudaFree(r->kind);
	cudaFree(r->geom);
	cudaFree(r->box);
	cudaFree(r->col_frame);
	cudaFree(r->col_dim);
	cudaFree(r->col_cell0);
	cudaFree(r->col_start);
	cudaFree(r->col_items);
	if (r->grid_kept)
	{
		cudaFree(r->grid_cells.start);
		cudaFree(r->grid_cells.items);
	}
	cudaGetLastError();
	delete r;
}

GX_EXPORT int
gx_cuda_prepare(int device, int jobs)
{
	int			held[STAGE_PAIRS],
				n = 0;

	if (cudaSetDevice(device) != cudaSuccess)
	{
		cudaGetLastError();
		return GX_CUDA_NO_DEVICE;
	}
	while (n < jobs && n < STAGE_PAIRS && (held[n] = stage_acquire()) >= 0)
		n++;
	for (int i = 0; i < n; i++)
		stage_release(held[i]);
	return n == jobs ? GX_CUDA_OK : GX_CUDA_OUT_OF_MEMORY;
}

GX_EXPORT int
gx_cuda_intersect(const GxCudaJob *job, GxCudaResult *res, char *err, size_t errlen)
{
	int			rc;

	if (err && errlen)
		err[0] = '\0';
	if (job == NULL || res == NULL)
	{
		if (err && errlen)
			snprintf(err, errlen, "no job or no result");
		return GX_CUDA_ERROR;
	}
	memset(res, 0, sizeof(*res));
	try
	{
		Job			j(job, res, err, errlen);

		rc = j.run();
	}
	catch (const Fail &f)
	{
		rc = f.code;
	}
	catch (const std::bad_alloc &)
	{
		if (err && errlen)
			snprintf(err, errlen, "out of host memory");
		rc = GX_CUDA_ERROR;
	}
	catch (...)
	{
		if (err && errlen)
			snprintf(err, errlen, "unexpected C++ exception in the CUDA engine");
		rc = GX_CUDA_ERROR;
	}
	if (rc != GX_CUDA_OK)
	{
		gx_cuda_free_result(res);
		memset(res, 0, sizeof(*res));
	}
	return rc;
}
