/*
 * gx_service.c: gpuexact-service, the one process of a cluster that owns the GPU (its CUDA context made
 * once, at start). PostgreSQL's supervising background worker (src/pg/service/gx_service_worker.c) starts it and
 * starts it again when it dies; it is a program of its own, outside PostgreSQL's shared memory, so that
 * its death, even by a signal, touches no backend. Backends connect to its Unix socket (gx_wire.h); a
 * thread serves each connection; up to MAX_GPU_JOBS batches run on the GPU at once (each on its own
 * stream). Sides made of stored values stay in its host cache (gx_geom_cache.h), shared by every session,
 * and, within DEVICE_MB, on the GPU too, so that a repeated join uploads only its other side.
 *
 * Usage: gpuexact-service SOCKET CUDA_LIBRARY CUDA_DEVICE CACHE_MB gpu|cpu|auto DEVICE_MB (-1: a quarter of the GPU)
 * With "cpu" the service runs batches on its own CPU threads (no GPU needed): one cache and one set of
 * threads for all sessions; also how the service is tested on machines without a GPU. With "auto" it does so
 * when it finds no GPU.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/gx_alloc.h"
#include "base/gx_clock.h"
#include "batch/gx_batch.h"
#include "batch/gx_cuda_loader.h"
#include "batch/gx_geom_cache.h"
#include "batch/gx_side_index.h"
#include "operation/gx_intercepts.h"
#include "operation/gx_overlap_pairs.h"
#include "operation/gx_volume.h"
#include "wire/gx_wire.h"

#define MAX_GPU_JOBS 8
#define JOB_MEMORY_CAP ((size_t) 6 << 30)	/* a batch's device memory when its session sets no cap */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* the cache and the device copies */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t slot_free = PTHREAD_COND_INITIALIZER;
static int	gpu_jobs;			/* batches running on the GPU now */
static GxCache *cache;
static const GxCudaApi *api;
static const char *cuda_library;
static int	cuda_device;
static bool cpu_engine;
static int	device_ok;
static char device[128];
static size_t device_limit,		/* bytes of cached sides the GPU may hold */
			device_bytes;
static uint64_t next_serial;	/* the last number given to a kept side (under lock), from the start time */

/* A batch segment, mapped once, shared by the batch and the cached sides that were sent in it. */
typedef struct Mapping
{
	void	   *addr;
	size_t		size;
	int			refs;
} Mapping;

static void
mapping_release(Mapping *m)
{
	if (--m->refs == 0)
	{
		munmap(m->addr, m->size);
		free(m);
	}
}

/*
 * What a cached side keeps (GxCachedSide.extra): its arrays stay where the backend wrote them, in the
 * segment of the batch that sent it (no copy), and it may have a copy on the GPU.
 */
typedef struct Held
{
	Mapping    *map;
	GxCudaResident *device_side;
	size_t		device_side_bytes;
	bool		device_failed;	/* its upload failed: it stays on the host */
	uint64_t	serial;			/* this entry's number (GxWireSideInfo.serial) */
	const char *content;		/* a side kept under a hash of its bytes: the bytes, in map; else NULL */
	size_t		content_len;
	const char *rows;			/* a table's side: the bytes that locate its rows, in map; else NULL */
	size_t		rows_len;
} Held;

/* The cache's free hook (under lock). */
static void
free_held(GxCachedSide *v)
{
	Held	   *h = v->extra;

	if (h->device_side)
	{
		device_bytes -= h->device_side_bytes;
		api->side_free(h->device_side);
	}
	gx_side_index_free(&v->side);
	mapping_release(h->map);
	free(h);
	v->extra = NULL;
}

/* The GPU copy of a cached side, made now if the GPU has room within DEVICE_MB; NULL if none (under lock). */
static const void *
device_copy(GxCachedSide *v)
{
	GxCudaSide	s = {v->side.n, v->side.coords, v->side.kind, v->side.geom, NULL};
	GxCudaColumns columns;
	Held	   *h = v->extra;
	size_t		bytes = v->side.n * (9 * sizeof(double) + 1 + sizeof(uint32_t) + 48);
	char		err[256];
	int			rc;

	if (h->device_side || h->device_failed || cpu_engine || api == NULL || device_bytes + bytes > device_limit)
		return h->device_side;
	/* its solids' point location grids go with it: the GPU locates points in them (gx_batch_solid.c) */
	if (v->side.solid && v->side.index && v->side.index->solid && gx_side_index_columns(&v->side, &columns))
		s.columns = &columns;
	rc = api->side_upload(cuda_device, &s, &h->device_side, &h->device_side_bytes, err, sizeof(err));
	if (s.columns)
		gx_side_index_columns_free(&columns);
	if (rc != GX_CUDA_OK)
	{
		fprintf(stderr, "gpuexact-service: a cached side stays on the host: %s\n", err);
		h->device_side = NULL;
		h->device_failed = true;
		return NULL;
	}
	device_bytes += h->device_side_bytes;
	return h->device_side;
}

/*
 * A kept side's index (gx_side_index.h), built once for every batch that uses it, where batches use it: on
 * the CPU engine (its probes), and for a side with solids (their point location indexes serve the volume
 * pass, and go to the GPU as the columns it locates points in). A side of surfaces that the GPU runs needs
 * none: the GPU grids it, and building it would take as long as the whole first batch. Then the side's GPU
 * copy when to_device (device_copy; under lock).
 */
static const void *
index_and_copy(GxCachedSide *v, bool to_device)
{
	GxError		ignored = {GX_OK, ""};

	if (cpu_engine || v->side.solid)
		gx_side_index_build(&v->side, &ignored);
	return to_device ? device_copy(v) : NULL;
}

/*
 * At most MAX_GPU_JOBS batches on the GPU at once: takes a slot, waiting while the batch's cancel word
 * stays clear; false if it was set first.
 */
static bool
gpu_slot_take(volatile const int32_t *cancel)
{
	bool		taken = false;

	pthread_mutex_lock(&slots_lock);
	while (!*cancel)
	{
		struct timespec until;

		if (gpu_jobs < MAX_GPU_JOBS)
		{
			gpu_jobs++;
			taken = true;
			break;
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 10 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000)
		{
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&slot_free, &slots_lock, &until);
	}
	pthread_mutex_unlock(&slots_lock);
	return taken;
}

static void
gpu_slot_give(void)
{
	pthread_mutex_lock(&slots_lock);
	gpu_jobs--;
	pthread_cond_signal(&slot_free);
	pthread_mutex_unlock(&slots_lock);
}

/* One connection's state between its LOOKUP and its BATCH. */
typedef struct Conn
{
	int			sock;
	GxCacheKey *keys[2];
	uint64_t	nkeys[2];
	const GxCachedSide *held[2];
} Conn;

static void
release(Conn *c)
{
	int			k;

	pthread_mutex_lock(&lock);
	for (k = 0; k < 2; k++)
		if (c->held[k])
			gx_cache_unpin(cache, c->held[k]);
	pthread_mutex_unlock(&lock);
	for (k = 0; k < 2; k++)
	{
		free(c->keys[k]);
		c->keys[k] = NULL;
		c->held[k] = NULL;
		c->nkeys[k] = 0;
	}
}

static bool
lookup(Conn *c, const GxWireLookup *l, size_t len)
{
	GxWireLookupReply r;
	const GxCacheKey *keys = (const GxCacheKey *) (l + 1);
	int			k;

	release(c);
	if (len < sizeof(*l) || l->nkeys[0] > len / sizeof(GxCacheKey) || l->nkeys[1] > len / sizeof(GxCacheKey) ||
		sizeof(*l) + (l->nkeys[0] + l->nkeys[1]) * sizeof(GxCacheKey) != len)
		return false;
	memset(&r, 0, sizeof(r));
	pthread_mutex_lock(&lock);
	for (k = 0; k < 2; k++)
	{
		c->nkeys[k] = l->nkeys[k];
		c->keys[k] = malloc((l->nkeys[k] ? l->nkeys[k] : 1) * sizeof(GxCacheKey));
		if (c->keys[k] == NULL)
			c->nkeys[k] = 0;
		else
			memcpy(c->keys[k], keys + (k ? l->nkeys[0] : 0), l->nkeys[k] * sizeof(GxCacheKey));
		c->held[k] = c->nkeys[k] ? gx_cache_get(cache, c->keys[k], c->nkeys[k]) : NULL;
		if (c->held[k])
		{
			const GxBatchSide *s = &c->held[k]->side;

			r.side[k].held = 1;
			r.side[k].srid = s->srid;
			r.side[k].mixed_srid = s->mixed_srid;
			r.side[k].unknown_srid = s->unknown_srid;
			r.side[k].n = s->n;
			r.side[k].ngeoms = s->ngeoms;
			r.side[k].serial = ((const Held *) c->held[k]->extra)->serial;
		}
	}
	pthread_mutex_unlock(&lock);
	r.device_ok = (uint8_t) device_ok;
	memcpy(r.device, device, sizeof(r.device));
	return gx_wire_send(c->sock, GX_MSG_LOOKUP_REPLY, &r, sizeof(r), NULL);
}

static bool
reply_error(Conn *c, GxErrorCode code, const char *msg)
{
	GxWireResult r;

	memset(&r, 0, sizeof(r));
	r.code = code;
	snprintf(r.msg, sizeof(r.msg), "%s", msg);
	return gx_wire_send(c->sock, GX_MSG_RESULT, &r, sizeof(r), NULL);
}

/*
 * gx_volume_pairs's job: the volumes of the solids of side s inside the blocks of side boxes (their
 * diagonals), the solids' indexes those of the kept side (else made for this job), filtered on the GPU
 * when the side is kept there (opt->device_side[1]).
 */
static bool
volumes(const GxBatchSide *boxes, GxBatchSide *s, const GxBatchOptions *opt, GxVolumePair **out, size_t *n,
		GxError *err)
{
	GxBox3D    *bx = malloc((boxes->n ? boxes->n : 1) * sizeof(GxBox3D));
	bool		ok;

	if (bx == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for %zu blocks", boxes->n);
		return false;
	}
	gx_batch_side_boxes(boxes, bx);
	ok = gx_volume_pairs_of_side(bx, boxes->n, s, opt, out, n, err);
	free(bx);
	return ok;
}

static bool
batch(Conn *c, const GxWireBatch *b, GxWireFds *segfds)
{
	GxBatchSide sides[2];
	GxBatchOptions opt;
	GxWireResult r;
	GxPairs		pairs = {NULL, 0, NULL, 0};
	GxError		err = {GX_OK, ""};
	Mapping    *map;
	char	   *seg = NULL;
	void	   *out;
	GxWireFds	outfds;
	int			k;
	bool		ok = true,
				sent;
	double		t_resident = 0;	/* making GPU copies of sides cached now: upload time of this batch */
	GxPairInterval *records = NULL;
	GxVolumePair *volume_records = NULL;
	size_t		nrecords = 0,
				bytes;

	if (b->segment_size < sizeof(GxWireControl) ||
		(seg = gx_wire_segment_map(segfds, b->segment_size, true)) == NULL)
	{
		gx_wire_fds_close(segfds);
		return reply_error(c, GX_ERR_NOMEM, "no batch segment");
	}
	gx_wire_fds_close(segfds);
	if ((map = malloc(sizeof(Mapping))) == NULL)
	{
		munmap(seg, b->segment_size);
		return reply_error(c, GX_ERR_NOMEM, "out of memory");
	}
	map->addr = seg;
	map->size = b->segment_size;
	map->refs = 1;
	for (k = 0; k < 2 && ok; k++)
	{
		const GxWireSide *w = &b->side[k];

		ok = w->content_len <= b->segment_size && w->content_off <= b->segment_size - w->content_len &&
			w->rows_len <= b->segment_size && w->rows_off <= b->segment_size - w->rows_len;
		if (ok && w->held)
			ok = c->held[k] != NULL && (sides[k] = c->held[k]->side, true);
		else if (ok)
			ok = gx_wire_side_view(&sides[k], w, seg, b->segment_size);
	}
	if (!ok)
	{
		mapping_release(map);
		return reply_error(c, GX_ERR_PARSE, "malformed batch");
	}
	/* a side held under a hash of its bytes is the sender's only if the bytes are the same */
	for (k = 0; k < 2; k++)
	{
		const Held *h = b->side[k].held ? c->held[k]->extra : NULL;

		if (h && h->content && b->side[k].content_len > 0 &&
			(h->content_len != b->side[k].content_len ||
			 memcmp(h->content, seg + b->side[k].content_off, h->content_len) != 0))
		{
			mapping_release(map);
			return reply_error(c, GX_ERR_INVALID, "the side kept under this hash holds other geometries");
		}
	}
	gx_batch_options_default(&opt);
	opt.device = cpu_engine ? GX_DEVICE_CPU : GX_DEVICE_GPU;
	opt.gpu_only = !cpu_engine;
	gx_wire_options_get(&opt, b);
	if (opt.gpu_memory_cap == 0)
		opt.gpu_memory_cap = JOB_MEMORY_CAP;
	opt.cuda_library = cuda_library;
	opt.cancel.flag[0] = (volatile const int *) &((GxWireControl *) seg)->cancel;
	opt.element_pairs = b->job == GX_JOB_INTERCEPTS;
	memset(&r, 0, sizeof(r));
	pthread_mutex_lock(&lock);
	for (k = 0; k < 2; k++)
	{
		if (!b->side[k].held && b->side[k].cache && c->nkeys[k] > 0)
		{
			/*
			 * kept where it is, in the segment, which stays mapped as long as the entry lives: the entry
			 * is charged the whole segment (the other side's arrays and the pair list's room included)
			 */
			GxCachedSide v = {sides[k], NULL, calloc(1, sizeof(Held)), map->size};

			if (v.extra)
			{
				Held	   *h = v.extra;

				h->map = map;
				h->serial = ++next_serial;
				if (b->side[k].content_len > 0)
				{
					h->content = seg + b->side[k].content_off;
					h->content_len = b->side[k].content_len;
				}
				if (b->side[k].rows_len > 0)
				{
					h->rows = seg + b->side[k].rows_off;
					h->rows_len = b->side[k].rows_len;
				}
				map->refs++;
				c->held[k] = gx_cache_put(cache, c->keys[k], c->nkeys[k], &v);
			}
		}
		/* gx_volume_pairs' blocks are read as boxes alone: neither indexed nor copied to the GPU */
		if (c->held[k] && !(b->job == GX_JOB_VOLUMES && k == 0))
		{
			double		t0 = gx_now_ms();

			opt.device_side[k] = index_and_copy((GxCachedSide *) c->held[k], b->cuda_device == cuda_device);
			sides[k].index = c->held[k]->side.index;
			t_resident += gx_now_ms() - t0;
		}
	}
	pthread_mutex_unlock(&lock);
	if (cpu_engine || gpu_slot_take(&((GxWireControl *) seg)->cancel))
	{
		if (b->job == GX_JOB_VOLUMES)
			ok = volumes(&sides[0], &sides[1], &opt, &volume_records, &nrecords, &err);
		else if (b->job == GX_JOB_OVERLAPS)
			ok = gx_overlap_pairs_of_sides(&sides[0], &sides[1], &opt, b->max_cuts, &volume_records, &nrecords, NULL,
										   &err);
		else
			ok = gx_batch_intersect(&sides[0], &sides[1], &opt, &pairs, &r.stats, &err);
		r.stats.t_upload += t_resident;
		r.stats.t_total += t_resident;
		if (!cpu_engine)
			gpu_slot_give();
	}
	else
	{
		ok = false;
		err.code = GX_ERR_CANCELLED;
		snprintf(err.msg, sizeof(err.msg), "batch cancelled");
	}
	if (ok && ((GxWireControl *) seg)->cancel)
	{
		err.code = GX_ERR_CANCELLED;
		snprintf(err.msg, sizeof(err.msg), "batch cancelled");
		gx_free(pairs.keys);
		gx_free(pairs.elements);
		ok = false;
	}
	/* gx_intercepts_pairs: the pairs' intercepts, while the sides are mapped (the solids indexed when held) */
	if (ok && b->job == GX_JOB_INTERCEPTS)
	{
		ok = gx_intercepts_of_pairs(&sides[0], &sides[1], pairs.keys, pairs.n, pairs.elements, pairs.nelements, 0,
									NULL, &opt.cancel, &records, &nrecords, &err);
		gx_free(pairs.keys);
		gx_free(pairs.elements);
		pairs.keys = NULL;
	}
	pthread_mutex_lock(&lock);
	mapping_release(map);
	pthread_mutex_unlock(&lock);
	if (!ok)
		return reply_error(c, err.code, err.msg);
	r.npairs = b->job == GX_JOB_PAIRS ? pairs.n : nrecords;
	for (k = 0; k < 2; k++)
		r.serial[k] = c->held[k] ? ((const Held *) c->held[k]->extra)->serial : 0;
	bytes = b->job == GX_JOB_INTERCEPTS ? nrecords * sizeof(GxPairInterval) :
		b->job == GX_JOB_VOLUMES || b->job == GX_JOB_OVERLAPS ? nrecords * sizeof(GxVolumePair) :
		pairs.n * sizeof(uint64_t);
	out = gx_wire_segment_create(bytes, &outfds);
	if (out == NULL)
	{
		gx_free(pairs.keys);
		free(records);
		free(volume_records);
		return reply_error(c, GX_ERR_NOMEM, "no memory for the result segment");
	}
	if (bytes > 0)
		memcpy(out, b->job == GX_JOB_INTERCEPTS ? (void *) records :
			   b->job == GX_JOB_VOLUMES || b->job == GX_JOB_OVERLAPS ? (void *) volume_records : (void *) pairs.keys,
			   bytes);
	munmap(out, bytes ? bytes : 1);
	gx_free(pairs.keys);
	free(records);
	free(volume_records);
	sent = gx_wire_send(c->sock, GX_MSG_RESULT, &r, sizeof(r), &outfds);
	gx_wire_fds_close(&outfds);
	return sent;
}

static bool
stats(Conn *c, bool reset)
{
	GxCacheStats st;

	release(c);
	pthread_mutex_lock(&lock);
	if (reset)
		gx_cache_reset(cache);
	st = gx_cache_stats(cache);
	pthread_mutex_unlock(&lock);
	return gx_wire_send(c->sock, GX_MSG_STATS_REPLY, &st, sizeof(st), NULL);
}

/*
 * ROWS: the bytes kept with the side of these keys as its rows' locations, copied into a segment of their
 * own (the side pinned meanwhile); a reply of length 0 when the service holds no such side or none with it.
 */
static bool
rows(Conn *c, const GxCacheKey *keys, size_t len)
{
	GxWireRowsReply r = {0};
	GxWireFds	fds = {0};
	const GxCachedSide *v;
	const Held *h;
	void	   *seg;
	bool		sent;

	release(c);
	if (len == 0 || len % sizeof(GxCacheKey) != 0)
		return false;
	pthread_mutex_lock(&lock);
	v = gx_cache_pin(cache, keys, len / sizeof(GxCacheKey));
	pthread_mutex_unlock(&lock);
	h = v ? v->extra : NULL;
	if (h && h->rows_len > 0 && (seg = gx_wire_segment_create(h->rows_len, &fds)) != NULL)
	{
		memcpy(seg, h->rows, h->rows_len);
		munmap(seg, h->rows_len);
		r.len = h->rows_len;
	}
	if (v)
	{
		pthread_mutex_lock(&lock);
		gx_cache_unpin(cache, v);
		pthread_mutex_unlock(&lock);
	}
	sent = gx_wire_send(c->sock, GX_MSG_ROWS_REPLY, &r, sizeof(r), r.len > 0 ? &fds : NULL);
	gx_wire_fds_close(&fds);
	return sent;
}

static void *
serve(void *arg)
{
	Conn		c;
	void	   *buf = NULL;

	memset(&c, 0, sizeof(c));
	c.sock = (int) (intptr_t) arg;
	for (;;)
	{
		GxWireHeader h;
		GxWireFds	fds;
		bool		ok;

		free(buf);
		buf = NULL;
		if (!gx_wire_recv(c.sock, &h, &buf, GX_WIRE_MAX_PAYLOAD, &fds))
			break;
		if (h.type == GX_MSG_LOOKUP)
			ok = lookup(&c, buf, h.length);
		else if (h.type == GX_MSG_ROWS)
			ok = rows(&c, buf, h.length);
		else if (h.type == GX_MSG_STATS || h.type == GX_MSG_RESET)
			ok = stats(&c, h.type == GX_MSG_RESET);
		else if (h.type == GX_MSG_BATCH && h.length == sizeof(GxWireBatch))
			ok = batch(&c, buf, &fds);
		else
			ok = false;
		if (h.type == GX_MSG_BATCH)
			release(&c);
		if (!(h.type == GX_MSG_BATCH && h.length == sizeof(GxWireBatch)))
			gx_wire_fds_close(&fds);
		if (!ok)
			break;
	}
	free(buf);
	release(&c);
	close(c.sock);
	return NULL;
}

/*
 * A first, tiny batch: the CUDA context and the engine's kernels are ready before any backend asks, and
 * the staging buffers of MAX_GPU_JOBS concurrent batches.
 */
static void
warm_up(int cuda_device)
{
	static const double point[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
	uint8_t		kind = 1;
	uint32_t	geom = 0;
	GxBatchSide a;
	GxBatchOptions opt;
	GxBatchStats st;
	GxPairs		pairs = {NULL, 0, NULL, 0};
	GxError		err = {GX_OK, ""};

	gx_batch_side_init(&a);
	a.n = a.cap = 1;
	a.ngeoms = 1;
	a.coords = (double *) point;
	a.kind = &kind;
	a.geom = &geom;
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_GPU;
	opt.gpu_only = true;
	opt.cuda_device = cuda_device;
	opt.cuda_library = cuda_library;
	if (gx_batch_intersect(&a, &a, &opt, &pairs, &st, &err))
		gx_free(pairs.keys);
	else
		fprintf(stderr, "gpuexact-service: warm-up batch: %s\n", err.msg);
	api->prepare(cuda_device, MAX_GPU_JOBS);
}

static int
listen_on(const char *path)
{
	struct sockaddr_un addr;
	int			s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	if (s < 0 || strlen(path) >= sizeof(addr.sun_path))
		return -1;
	strcpy(addr.sun_path, path);
	unlink(path);
	if (bind(s, (struct sockaddr *) &addr, sizeof(addr)) != 0 || listen(s, 128) != 0)
	{
		close(s);
		return -1;
	}
	return s;
}

int
main(int argc, char **argv)
{
	int			s,
				fp64_weak;
	long long	device_mb;
	size_t		device_memory = 0;

	if (argc != 7)
	{
		fprintf(stderr, "usage: gpuexact-service SOCKET CUDA_LIBRARY CUDA_DEVICE CACHE_MB gpu|cpu|auto DEVICE_MB\n");
		return 2;
	}
	cuda_library = argv[2];
	cuda_device = atoi(argv[3]);
	cpu_engine = strcmp(argv[5], "cpu") == 0;
	device_mb = atoll(argv[6]);
	device_limit = device_mb > 0 ? (size_t) device_mb << 20 : 0;
	signal(SIGPIPE, SIG_IGN);
	umask(077);
	cache = gx_cache_create((size_t) strtoull(argv[4], NULL, 10) << 20, free_held);
	/* kept sides' numbers: a service started later (a second later at least) numbers above this one's */
	next_serial = (uint64_t) time(NULL) << 32;
	/* the CUDA context is made now, once for the cluster, not at a backend's first batch */
	if (cpu_engine)
	{
		device_ok = 1;
		snprintf(device, sizeof(device), "CPU engine of the service");
	}
	else
	{
		api = gx_cuda_load(cuda_library, device, sizeof(device));
		device_ok = api != NULL &&
			api->device_info(cuda_device, device, sizeof(device), &fp64_weak, &device_memory) == GX_CUDA_OK;
		/* DEVICE_MB -1: a quarter of the GPU's memory for kept sides, the rest for the batches */
		if (device_ok && device_mb < 0)
			device_limit = device_memory / 4;
		if (api != NULL && !device_ok)
			snprintf(device, sizeof(device), "no CUDA device or driver");
		if (device_ok)
			warm_up(cuda_device);
		else if (strcmp(argv[5], "auto") == 0)
		{
			char		why[sizeof(device)];

			snprintf(why, sizeof(why), "%s", device);
			cpu_engine = true;
			device_ok = 1;
			snprintf(device, sizeof(device), "CPU engine of the service (no GPU: %.88s)", why);
		}
	}
	s = listen_on(argv[1]);
	if (cache == NULL || s < 0)
	{
		fprintf(stderr, "gpuexact-service: cannot listen on %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (cpu_engine)
		fprintf(stderr, "gpuexact-service: listening on %s, GPU: %s\n", argv[1], device);
	else
		fprintf(stderr, "gpuexact-service: listening on %s, GPU: %s (cached sides kept there: up to %zu MB)\n",
				argv[1], device, device_limit >> 20);
	for (;;)
	{
		int			c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		pthread_t	t;

		if (c < 0)
		{
			if (errno == EMFILE || errno == ENFILE)
				usleep(10000);		/* out of descriptors: a moment for connections to end */
			if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE)
				continue;
			return 1;
		}
		if (pthread_create(&t, NULL, serve, (void *) (intptr_t) c) != 0)
			close(c);
		else
			pthread_detach(t);
	}
}
