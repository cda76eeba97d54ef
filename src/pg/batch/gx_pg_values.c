/*
 * gx_pg_values.c: a side's stored geometries read whole (gx_pg_values.h). TOAST access is this backend's
 * alone. Values that make much of their TOAST table are read by one pass over that table's pages, their
 * chunks copied into place as the pass meets them (a value fetched by itself costs an index search and a
 * page visit per chunk); others are fetched one by one. pglz decompression and unpacking are pure
 * functions, which helper threads run on each value as soon as it is read: the reading of a large side
 * costs about its fetching, not its fetching and then its decompression. The helpers are plain threads
 * with every signal blocked, and never call PostgreSQL.
 */
#include "postgres.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include "access/detoast.h"
#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/toast_compression.h"
#include "access/toast_internals.h"
#include "common/pg_lzcompress.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "batch/gx_pg_values.h"
#include "geom/gx_geom.h"
#include "geom/gx_pack.h"

/* The values fetched that need work (todo), and the helpers taking them in turn. */
typedef struct Pipeline
{
	struct varlena **raw;
	bool	   *compressed;
	bool	   *owned;
	size_t	   *todo;			/* indexes into raw of values to decompress or unpack */
	size_t		queued;			/* todo[0..queued) written by the backend */
	size_t		published;		/* todo[0..published) visible to the helpers (under lock) */
	size_t		next;			/* the next todo to take (under lock) */
	size_t		unpublished;	/* bytes of todo[published..queued) */
	bool		done;			/* every value fetched (under lock) */
	bool		stop;			/* an ERROR: take nothing more (under lock) */
	bool		corrupt;
	bool		keep_packed;	/* packed values stay packed, checked (gx_unpacked_size) */
	int			threads;
	pthread_mutex_t lock;
	pthread_cond_t more;
} Pipeline;

/*
 * A value read whole (not a TOAST pointer) as a helper takes it: *compressed when it is pglz-compressed,
 * left so for a helper; other compression (lz4) undone here, by PostgreSQL.
 */
static struct varlena *
readable(struct varlena *v, bool *compressed)
{
	*compressed = VARATT_IS_COMPRESSED(v) && VARDATA_COMPRESSED_GET_COMPRESS_METHOD(v) == TOAST_PGLZ_COMPRESSION_ID;
	return *compressed || !VARATT_IS_EXTENDED(v) ? v : (struct varlena *) PG_DETOAST_DATUM(PointerGetDatum(v));
}

/* A geometry's bytes, whole, fetched by itself (readable). */
static struct varlena *
fetch(Datum d, bool *compressed)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	return readable(VARATT_IS_EXTERNAL_ONDISK(v) ? detoast_external_attr(v) : v, compressed);
}

/* The pglz value v decompressed into a malloc'd value, or NULL if it is corrupt (or memory ran out). */
static struct varlena *
decompressed(const struct varlena *v)
{
	int32		rawsize = VARDATA_COMPRESSED_GET_EXTSIZE(v);
	struct varlena *out = malloc(rawsize + VARHDRSZ);

	if (out == NULL ||
		pglz_decompress((char *) v + VARHDRSZ_COMPRESSED, VARSIZE(v) - VARHDRSZ_COMPRESSED, VARDATA(out), rawsize,
						true) != rawsize)
	{
		free(out);
		return NULL;
	}
	SET_VARSIZE(out, rawsize + VARHDRSZ);
	return out;
}

/* The packed value v unpacked (gx_pack.h) into a malloc'd value, or NULL if it is corrupt. */
static struct varlena *
unpacked(const struct varlena *v)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	struct varlena *out;

	if (!gx_unpacked_size((const GxSerialized *) v, VARSIZE(v), &size, &err) || (out = malloc(size)) == NULL)
		return NULL;
	if (!gx_unpack_into((const GxSerialized *) v, VARSIZE(v), (GxSerialized *) out, &err))
	{
		free(out);
		return NULL;
	}
	SET_VARSIZE(out, size);
	return out;
}

/* Whether the packed value v is readable (gx_unpacked_size checks every count and index). */
static bool
packed_ok(const struct varlena *v)
{
	GxError		err = {GX_OK, ""};
	size_t		size;

	return gx_unpacked_size((const GxSerialized *) v, VARSIZE(v), &size, &err);
}

/*
 * raw[k] made a value the core reads: decompressed, unpacked, or both, into a malloc'd value; with
 * keep_packed, a packed value decompressed only, once checked.
 */
static void
expand(Pipeline *p, size_t k)
{
	struct varlena *v = p->compressed[k] ? decompressed(p->raw[k]) : p->raw[k];
	bool		owned = p->compressed[k];

	/* a packed value is unpacked, or with keep_packed kept when readable (NULL when not) */
	if (v != NULL && (((GxSerialized *) v)->flags & GX_FLAG_PACKED) && !(p->keep_packed && packed_ok(v)))
	{
		struct varlena *u = p->keep_packed ? NULL : unpacked(v);

		if (owned)
			free(v);
		v = u;
		owned = true;
	}
	if (v == NULL)
	{
		__atomic_store_n(&p->corrupt, true, __ATOMIC_RELAXED);
		return;
	}
	p->raw[k] = v;
	p->owned[k] = owned;
}

/*
 * The next run of todo entries [*lo, *hi) once fetched: a share of those waiting, so that many small values
 * take few turns of the lock. false when every value is done, or on stop.
 */
static bool
take(Pipeline *p, size_t *lo, size_t *hi)
{
	size_t		share;

	pthread_mutex_lock(&p->lock);
	while (!p->stop && !p->done && p->next == p->published)
		pthread_cond_wait(&p->more, &p->lock);
	if (p->stop || p->next == p->published)
	{
		pthread_mutex_unlock(&p->lock);
		return false;
	}
	share = (p->published - p->next) / (2 * (size_t) p->threads);
	*lo = p->next;
	*hi = p->next += share > 0 ? share : 1;
	pthread_mutex_unlock(&p->lock);
	return true;
}

static void
work(Pipeline *p)
{
	size_t		lo,
				hi;

	while (take(p, &lo, &hi))
		for (size_t t = lo; t < hi; t++)
			expand(p, p->todo[t]);
}

static void *
helper_main(void *arg)
{
	work((Pipeline *) arg);
	return NULL;
}

/* Makes todo[0..queued) visible to the helpers, with done when every value is fetched, or stop. */
static void
publish(Pipeline *p, bool done, bool stop)
{
	pthread_mutex_lock(&p->lock);
	p->published = p->queued;
	p->unpublished = 0;
	p->done |= done;
	p->stop |= stop;
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->lock);
}

/* Hands value k, read, to the helpers when it needs their work; by the megabyte, not by the value. */
static void
queue(Pipeline *p, size_t k)
{
	if (p->compressed[k] || (((GxSerialized *) p->raw[k])->flags & GX_FLAG_PACKED))
	{
		p->todo[p->queued++] = k;
		p->unpublished += VARSIZE_ANY(p->raw[k]);
	}
	if (p->unpublished >= (1 << 20))
		publish(p, false, false);
}

uint64		gx_pg_toast_pass_values;

/* A value to be read by the pass over its TOAST table: where its chunks go, and how many are still due. */
typedef struct Wanted
{
	Oid			valueid;		/* InvalidOid: a free slot */
	size_t		k;
	int32		size;			/* its stored bytes (compressed or not) */
	int32		due;			/* chunks not yet met */
	size_t		first_chunk;	/* its chunks' place among all wanted chunks (Bulk.met) */
	size_t		at;				/* its place in the block of all wanted values */
	bool		compressed;
	struct varlena *out;
} Wanted;

typedef struct Bulk
{
	Oid			toastrelid;
	Wanted	   *slot;			/* open addressing by value id */
	size_t		mask;
	uint8	   *met;			/* a bit per wanted chunk: met already */
} Bulk;

static Wanted *
wanted_slot(Bulk *b, Oid valueid)
{
	size_t		h = ((size_t) valueid * 0x9E3779B1u) & b->mask;

	while (b->slot[h].valueid != InvalidOid && b->slot[h].valueid != valueid)
		h = (h + 1) & b->mask;
	return &b->slot[h];
}

#define PREFAULT_CHUNK ((size_t) 2 << 20)
#define HUGE_BLOCK ((size_t) 64 << 20)

/*
 * The pages of [p, p + len) allocated now (huge pages where the kernel gives them on request), on `threads`
 * threads, so that the pass copies its chunks into memory that is there: on one thread, the page faults of
 * the values' first writes took a fair share of the pass. Where the kernel cannot (before Linux 5.14), or
 * memory is short, the pass allocates them as it writes, as before.
 */
static void
prefault(char *p, size_t len, int threads)
{
	uintptr_t	lo = ((uintptr_t) p + 4095) & ~(uintptr_t) 4095,
				hi = ((uintptr_t) p + len) & ~(uintptr_t) 4095;
	long		chunks,
				c;

	if (hi <= lo)
		return;
	/* only a block the allocator mapped by itself (past glibc's largest mmap threshold) asks for huge pages */
	if (len >= HUGE_BLOCK)
		madvise((void *) lo, hi - lo, MADV_HUGEPAGE);
	chunks = (long) ((hi - lo + PREFAULT_CHUNK - 1) / PREFAULT_CHUNK);
	#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
	for (c = 0; c < chunks; c++)
	{
		uintptr_t	at = lo + (uintptr_t) c * PREFAULT_CHUNK;

		(void) madvise((void *) at, hi - at < PREFAULT_CHUNK ? hi - at : PREFAULT_CHUNK, MADV_POPULATE_WRITE);
	}
}

/*
 * The TOAST table whose pass pays, with its values among geoms registered in b: one holding at least half
 * the side's values, whose bytes make a quarter of its pages or more. false when none does. The values'
 * bytes go in one block, allocated ahead on `threads` threads.
 */
static bool
bulk_plan(Bulk *b, const Datum *geoms, const bool *present, size_t n, size_t count, int threads)
{
	Oid			relid = InvalidOid;
	size_t		votes = 0,
				external = 0,
				bytes = 0,
				size = 16,
				chunks = 0,
				total = 0,
				k = 0;
	Relation	rel;
	BlockNumber pages;
	char	   *block;

	/* the majority TOAST table (Boyer-Moore vote), then whether it holds half of them */
	for (size_t i = 0; i < n; i++)
		if (present[i] && VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(geoms[i])))
		{
			struct varatt_external e;

			VARATT_EXTERNAL_GET_POINTER(e, DatumGetPointer(geoms[i]));
			external++;
			if (votes == 0)
				relid = e.va_toastrelid;
			votes = e.va_toastrelid == relid ? votes + 1 : votes - 1;
		}
	if (external < 2)
		return false;
	for (size_t i = 0; i < n; i++)
		if (present[i] && VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(geoms[i])))
		{
			struct varatt_external e;

			VARATT_EXTERNAL_GET_POINTER(e, DatumGetPointer(geoms[i]));
			if (e.va_toastrelid == relid)
				bytes += VARATT_EXTERNAL_GET_EXTSIZE(e);
			else
				external--;
		}
	rel = table_open(relid, AccessShareLock);
	pages = RelationGetNumberOfBlocks(rel);
	table_close(rel, AccessShareLock);
	if (2 * external < count || (double) bytes < 0.25 * pages * BLCKSZ)
		return false;
	while (size < 2 * count)
		size *= 2;
	b->toastrelid = relid;
	b->slot = palloc0(size * sizeof(Wanted));
	b->mask = size - 1;
	for (size_t i = 0; i < n; i++)
		if (present[i])
		{
			struct varlena *v = (struct varlena *) DatumGetPointer(geoms[i]);
			struct varatt_external e;
			Wanted	   *w;

			if (VARATT_IS_EXTERNAL_ONDISK(v))
			{
				VARATT_EXTERNAL_GET_POINTER(e, v);
				if (e.va_toastrelid == relid && VARATT_EXTERNAL_GET_EXTSIZE(e) > 0 &&
					(w = wanted_slot(b, e.va_valueid))->valueid == InvalidOid)
				{
					int32		size = VARATT_EXTERNAL_GET_EXTSIZE(e);

					w->valueid = e.va_valueid;
					w->k = k;
					w->size = size;
					w->due = (size - 1) / TOAST_MAX_CHUNK_SIZE + 1;
					w->first_chunk = chunks;
					chunks += w->due;
					w->at = total;
					total += MAXALIGN(size + VARHDRSZ);
					/* the compressed flag, for when the value has its place */
					w->compressed = VARATT_EXTERNAL_IS_COMPRESSED(e);
				}
			}
			k++;
		}
	b->met = palloc0(chunks / 8 + 1);
	block = MemoryContextAllocHuge(CurrentMemoryContext, Max(total, 1));
	prefault(block, total, threads);
	for (size_t h = 0; h <= b->mask; h++)
		if (b->slot[h].valueid != InvalidOid)
		{
			Wanted	   *w = &b->slot[h];

			w->out = (struct varlena *) (block + w->at);
			if (w->compressed)
				SET_VARSIZE_COMPRESSED(w->out, w->size + VARHDRSZ);
			else
				SET_VARSIZE(w->out, w->size + VARHDRSZ);
		}
	return true;
}

/* Is d, the side's value k, one the pass reads (not a second row of the same value, say)? */
static bool
in_pass(Bulk *b, Datum d, size_t k)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	struct varatt_external e;
	Wanted	   *w;

	if (!VARATT_IS_EXTERNAL_ONDISK(v))
		return false;
	VARATT_EXTERNAL_GET_POINTER(e, v);
	if (e.va_toastrelid != b->toastrelid)
		return false;
	w = wanted_slot(b, e.va_valueid);
	return w->valueid == e.va_valueid && w->k == k;
}

/* Marks chunk seq of w met; false if it was already. */
static bool
meet_chunk(Bulk *b, const Wanted *w, int32 seq)
{
	size_t		bit = w->first_chunk + (size_t) seq;
	bool		met = (b->met[bit / 8] >> (bit % 8)) & 1;

	b->met[bit / 8] |= 1 << (bit % 8);
	return !met;
}

/*
 * One pass over the TOAST table's pages (TOAST's own visibility rule, as a value's fetch), each chunk of a
 * wanted value copied into place, checked as PostgreSQL checks a fetch's.
 */
static void
bulk_read(Pipeline *p, Bulk *b)
{
	Relation	rel = table_open(b->toastrelid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);
	SnapshotData snapshot;
	TableScanDesc scan;
	HeapTuple	tuple;
	uint64		seen = 0;

	init_toast_snapshot(&snapshot);
	scan = table_beginscan(rel, &snapshot, 0, NULL);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		bool		isnull;
		Oid			valueid = DatumGetObjectId(fastgetattr(tuple, 1, desc, &isnull));
		Wanted	   *w = wanted_slot(b, valueid);
		int32		seq,
					last,
					expected,
					chunksize;
		struct varlena *chunk;
		char	   *data;

		if ((++seen & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		if (w->valueid != valueid)
			continue;
		seq = DatumGetInt32(fastgetattr(tuple, 2, desc, &isnull));
		chunk = (struct varlena *) DatumGetPointer(fastgetattr(tuple, 3, desc, &isnull));
		if (!VARATT_IS_EXTENDED(chunk))
		{
			chunksize = VARSIZE(chunk) - VARHDRSZ;
			data = VARDATA(chunk);
		}
		else if (VARATT_IS_SHORT(chunk))
		{
			chunksize = VARSIZE_SHORT(chunk) - VARHDRSZ_SHORT;
			data = VARDATA_SHORT(chunk);
		}
		else
			ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
							errmsg_internal("found toasted toast chunk for toast value %u in %s", valueid,
											RelationGetRelationName(rel))));
		last = (w->size - 1) / TOAST_MAX_CHUNK_SIZE;
		expected = seq < last ? TOAST_MAX_CHUNK_SIZE : w->size - seq * TOAST_MAX_CHUNK_SIZE;
		if (seq < 0 || seq > last || chunksize != expected || !meet_chunk(b, w, seq))
			ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
							errmsg_internal("unexpected chunk %d (%d bytes) of toast value %u in %s", seq, chunksize,
											valueid, RelationGetRelationName(rel))));
		memcpy(VARDATA(w->out) + (size_t) seq * TOAST_MAX_CHUNK_SIZE, data, chunksize);
		/* the value whose last chunk was just copied: read */
		if (--w->due == 0)
		{
			p->raw[w->k] = readable(w->out, &p->compressed[w->k]);
			queue(p, w->k);
			gx_pg_toast_pass_values++;
		}
	}
	table_endscan(scan);
	for (size_t h = 0; h <= b->mask; h++)
		if (b->slot[h].valueid != InvalidOid && b->slot[h].due != 0)
			ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
							errmsg_internal("missing chunks of toast value %u in %s", b->slot[h].valueid,
											RelationGetRelationName(rel))));
	table_close(rel, AccessShareLock);
}

size_t
gx_pg_values_bytes(const Datum *geoms, const bool *present, size_t n)
{
	size_t		bytes = 0;

	for (size_t i = 0; i < n; i++)
		if (present[i])
			bytes += toast_raw_datum_size(geoms[i]);
	return bytes;
}

bool
gx_pg_values_read(const Datum *geoms, const bool *present, size_t n, size_t count, int threads, bool keep_packed,
				  struct varlena **raw, bool *owned)
{
	Pipeline	p;
	pthread_t  *helpers = palloc(Max(threads, 1) * sizeof(pthread_t));
	bool	   *compressed = palloc0(Max(count, 1) * sizeof(bool));
	int			nhelpers = 0;
	size_t		k = 0;
	sigset_t	all,
				old;

	memset(&p, 0, sizeof(p));
	p.raw = raw;
	p.compressed = compressed;
	p.owned = owned;
	p.keep_packed = keep_packed;
	p.todo = palloc(Max(count, 1) * sizeof(size_t));
	p.threads = Max(threads, 1);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.more, NULL);
	/* the helpers take no signal: PostgreSQL's handlers are for this thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (nhelpers < threads - 1 && pthread_create(&helpers[nhelpers], NULL, helper_main, &p) == 0)
		nhelpers++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	PG_TRY();
	{
		Bulk		b = {InvalidOid, NULL, 0, NULL};
		bool		bulk = bulk_plan(&b, geoms, present, n, count, threads);

		for (size_t i = 0; i < n; i++)
			if (present[i])
			{
				if (bulk && in_pass(&b, geoms[i], k))
				{
					k++;
					continue;
				}
				raw[k] = fetch(geoms[i], &compressed[k]);
				queue(&p, k);
				k++;
				CHECK_FOR_INTERRUPTS();
			}
		if (bulk)
			bulk_read(&p, &b);
		publish(&p, true, false);
		work(&p);
	}
	PG_FINALLY();
	{
		publish(&p, true, true);
		while (nhelpers > 0)
			pthread_join(helpers[--nhelpers], NULL);
		pthread_cond_destroy(&p.more);
		pthread_mutex_destroy(&p.lock);
	}
	PG_END_TRY();
	pfree(helpers);
	pfree(compressed);
	pfree(p.todo);
	return !p.corrupt;
}
