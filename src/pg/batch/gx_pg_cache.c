/*
 * gx_pg_cache.c: the backend's geometry cache (core gx_geom_cache) under the batch sides of joins and
 * gx_intersecting_pairs. A side whose geometries are all out-of-line TOAST values is kept flattened under
 * the list of their TOAST identities (database, TOAST relation, value id, and a transaction that wrote the
 * value: toast_key): a repeated join neither detoasts nor flattens it again. An updated value is a new
 * TOAST value; a value id that comes back after the OID counter wrapped around belongs to a value written
 * by other transactions; so an entry cannot go stale. A side of values all stored inline is kept under an
 * identity of its bytes (content_keys); a side mixing both is built afresh every time.
 */
#include "postgres.h"
#include "access/detoast.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/toast_internals.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "base/gx_clock.h"
#include "base/gx_threads.h"
#include "batch/gx_geom_cache.h"
#include "batch/gx_pg_cache.h"
#include "batch/gx_pg_values.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "service/gx_service.h"

#define PARALLEL_BYTES (1 << 20)	/* sides of less than this (as stored, decompressed) are flattened on one thread */
/*
 * About how many bytes a kept side takes per byte of its stored values (decompressed): the flattened
 * elements and their index (boxes, grid, each solid's point location index). A side that would not fit the
 * cache is flattened for its query alone, without an index, and evicts nothing.
 */
#define KEPT_PER_STORED_BYTE 2.5

static GxCache *cache;
static MemoryContext cache_cxt;

/* The backend's cache, made on first use; NULL when the setting turns it off. */
static GxCache *
backend_cache(void)
{
	size_t		limit = (size_t) gx_cache_host_mb * 1024 * 1024;

	if (cache == NULL && limit > 0)
	{
		cache_cxt = AllocSetContextCreate(TopMemoryContext, "gpuexact geometry cache", ALLOCSET_DEFAULT_SIZES);
		cache = gx_cache_create(limit, NULL);
	}
	if (cache)
		gx_cache_set_limit(cache, limit);
	return limit > 0 ? cache : NULL;
}

/*
 * Reads the first chunk of each value while a side's keys are made: the TOAST relation of the values kept
 * open, with one index scan started again for each value (a scan begun and ended per value costs several
 * times more).
 */
typedef struct ToastProbe
{
	Oid			relid;
	Relation	rel;
	Relation   *indexes;
	int			nindexes;
	int			valid;
	SnapshotData snapshot;
	IndexScanDesc scan;
	TupleTableSlot *slot;
} ToastProbe;

static void
probe_close(ToastProbe *p)
{
	if (p->rel)
	{
		index_endscan(p->scan);
		ExecDropSingleTupleTableSlot(p->slot);
		toast_close_indexes(p->indexes, p->nindexes, AccessShareLock);
		table_close(p->rel, AccessShareLock);
	}
	p->rel = NULL;
}

uint64		gx_pg_toast_probes;
uint64		gx_pg_sides_laid_out;

/* The raw xmin of the first chunk of TOAST value valueid: the transaction that stored it. */
static TransactionId
first_chunk_xmin(ToastProbe *p, Oid toastrelid, Oid valueid)
{
	ScanKeyData key;
	TransactionId xmin = InvalidTransactionId;

	gx_pg_toast_probes++;
	if (p->rel == NULL || p->relid != toastrelid)
	{
		probe_close(p);
		p->rel = table_open(toastrelid, AccessShareLock);
		p->relid = toastrelid;
		p->valid = toast_open_indexes(p->rel, AccessShareLock, &p->indexes, &p->nindexes);
		init_toast_snapshot(&p->snapshot);
		p->slot = table_slot_create(p->rel, NULL);
		p->scan = index_beginscan(p->rel, p->indexes[p->valid], &p->snapshot, 1, 0);
	}
	ScanKeyInit(&key, (AttrNumber) 1, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(valueid));
	index_rescan(p->scan, &key, 1, NULL, 0);
	if (index_getnext_slot(p->scan, ForwardScanDirection, p->slot))
	{
		bool		should_free;
		HeapTuple	tup = ExecFetchSlotHeapTuple(p->slot, false, &should_free);

		xmin = HeapTupleHeaderGetRawXmin(tup->t_data);
		if (should_free)
			heap_freetuple(tup);
	}
	return xmin;
}

/*
 * The identity of an out-of-line TOAST value: database, TOAST relation, value id, and a transaction that
 * wrote it: xmin, the raw xmin of the row version the pointer was read from, when the caller knows it, else
 * the one that stored its first chunk (a probe of the TOAST table). A value id alone can come back: once
 * the OID counter wraps around, a new value may get the id of one deleted and vacuumed away, which needs
 * every row version pointing to the old one dead and gone first: the new value is stored, and pointed to,
 * by other transactions (short of the transaction counter wrapping around as well). Row versions share a
 * value only along one row's updates. Returns the value's uncompressed size.
 */
static size_t
toast_key(ToastProbe *p, Datum d, TransactionId xmin, GxCacheKey *key)
{
	struct varatt_external ext;

	VARATT_EXTERNAL_GET_POINTER(ext, (struct varlena *) DatumGetPointer(d));
	key->k[0] = MyDatabaseId;
	key->k[1] = ext.va_toastrelid;
	key->k[2] = ext.va_valueid;
	key->k[3] = TransactionIdIsValid(xmin) ? xmin : first_chunk_xmin(p, ext.va_toastrelid, ext.va_valueid);
	return (size_t) ext.va_rawsize;
}

TransactionId
gx_pg_stored_xmin(Datum d)
{
	char	   *p = DatumGetPointer(d);
	Page		page;
	OffsetNumber max;

	if (p == NULL || p < BufferBlocks || p >= BufferBlocks + (Size) NBuffers * BLCKSZ ||
		!VARATT_IS_EXTERNAL_ONDISK(p))
		return InvalidTransactionId;
	/* the pinned page it lies in: a heap page (no special space), whose items do not move while pinned */
	page = (Page) (BufferBlocks + (Size) ((p - BufferBlocks) / BLCKSZ) * BLCKSZ);
	if (PageGetSpecialSize(page) != 0)
		return InvalidTransactionId;
	max = PageGetMaxOffsetNumber(page);
	for (OffsetNumber off = FirstOffsetNumber; off <= max; off++)
	{
		ItemId		item = PageGetItemId(page, off);
		char	   *tuple;

		if (!ItemIdIsNormal(item) || ItemIdGetOffset(item) < SizeOfPageHeaderData ||
			ItemIdGetOffset(item) + ItemIdGetLength(item) > BLCKSZ)
			continue;
		tuple = (char *) page + ItemIdGetOffset(item);
		if (p >= tuple + ((HeapTupleHeader) tuple)->t_hoff && p < tuple + ItemIdGetLength(item))
			return HeapTupleHeaderGetRawXmin((HeapTupleHeader) tuple);
	}
	return InvalidTransactionId;
}

/*
 * Headers of TOASTed geometries by TOAST identity: reading one means fetching and decompressing the value's
 * first chunk, which a query checking every row's type (the pair functions) would pay each time. Bounded:
 * emptied when full.
 */
#define HEAD_BYTES (sizeof(GxSerialized) + sizeof(GxNode))
#define HEADS_MAX 262144

typedef struct HeadEntry
{
	GxCacheKey	key;
	char		head[HEAD_BYTES];
} HeadEntry;

static HTAB *heads;

const GxSerialized *
gx_pg_side_head(const GxPgSide *s, size_t k, Datum d)
{
	HeadEntry  *e;
	bool		found;

	if (s->keys == NULL || s->content != NULL)
		return gx_pg_header(d);
	if (heads == NULL || hash_get_num_entries(heads) >= HEADS_MAX)
	{
		HASHCTL		ctl = {.keysize = sizeof(GxCacheKey), .entrysize = sizeof(HeadEntry), .hcxt = TopMemoryContext};

		if (heads)
			hash_destroy(heads);
		heads = hash_create("gpuexact geometry headers", 1024, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	e = hash_search(heads, &s->keys[k], HASH_ENTER, &found);
	if (!found)
		memcpy(e->head, gx_pg_header(d), HEAD_BYTES);
	return (const GxSerialized *) e->head;
}

/* Unpins a cache entry when the memory context of its user is reset or deleted (errors included). */
typedef struct Pin
{
	MemoryContextCallback cb;
	const GxCachedSide *entry;
} Pin;

static void
unpin(void *arg)
{
	Pin		   *pin = arg;

	if (cache)
		gx_cache_unpin(cache, pin->entry);
}

/* Makes s use entry's arrays (not copied), held until `pins` is reset. */
static void
borrow(GxPgSide *s, const GxCachedSide *entry, MemoryContext pins)
{
	Pin		   *pin = MemoryContextAlloc(pins, sizeof(Pin));

	pin->entry = entry;
	pin->cb.func = unpin;
	pin->cb.arg = pin;
	MemoryContextRegisterResetCallback(pins, &pin->cb);
	s->side = entry->side;
	s->srids = entry->srids;
	s->entry = entry;
}

/* The values the helpers made (malloc'd), freed with the working context that lists them. */
typedef struct OwnedValues
{
	struct varlena **raw;
	bool	   *owned;
	size_t		count;
} OwnedValues;

static void
free_owned(void *arg)
{
	OwnedValues *o = arg;

	for (size_t k = 0; k < o->count; k++)
		if (o->owned[k])
			free(o->raw[k]);
}

/*
 * Reads the given datums' values whole into r (gx_pg_values.h), in a working context of its own under the
 * current one, within the cluster's thread budget, and counts the elements they make.
 */
static void
read_values(GxPgRead *r, const Datum *geoms, const bool *present, size_t n, size_t count)
{
	MemoryContext old;
	MemoryContextCallback *cb;
	OwnedValues *o;
	GxBatchOptions opt;
	int			threads;
	volatile bool ok = false;

	r->work = AllocSetContextCreate(CurrentMemoryContext, "gpuexact flatten", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(r->work);
	r->raw = palloc0(Max(count, 1) * sizeof(struct varlena *));
	r->count = count;
	r->elements = 0;
	o = palloc(sizeof(OwnedValues));
	o->raw = r->raw;
	o->owned = palloc0(Max(count, 1) * sizeof(bool));
	o->count = count;
	cb = palloc(sizeof(MemoryContextCallback));
	cb->func = free_owned;
	cb->arg = o;
	MemoryContextRegisterResetCallback(r->work, cb);
	gx_settings_batch_options(&opt);
	/* threads only for a side worth them: no team woken for a batch of small inline values */
	threads = gx_threads_begin(gx_pg_values_bytes(geoms, present, n) >= PARALLEL_BYTES ? opt.threads : 1,
							   opt.thread_budget);
	PG_TRY();
	{
		ok = gx_pg_values_read(geoms, present, n, count, threads, true, r->raw, o->owned);
		if (ok)
			r->elements = gx_batch_side_count_many((const GxSerialized *const *) r->raw, count);
	}
	PG_FINALLY();
	{
		gx_threads_end();
		MemoryContextSwitchTo(old);
	}
	PG_END_TRY();
	if (!ok)
		ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("stored gxgeom value is corrupt"),
						errdetail("Its compressed or packed form could not be read back.")));
}

/*
 * The values of r laid out into v, ids in order, in parallel within the cluster's thread budget: into room's
 * arrays when given (they hold r->elements; r's values stay for gx_pg_read_free), else into arrays
 * allocated in cxt (r's values let go).
 */
static void
lay_out(GxCachedSide *v, GxPgRead *r, const GxBatchSide *room, MemoryContext cxt)
{
	GxError		err = {GX_OK, ""};
	MemoryContext old;
	GxBatchOptions opt;
	volatile bool ok = false;

	memset(v, 0, sizeof(*v));
	if (room)
		v->side = *room;
	else
		gx_batch_side_init(&v->side);
	v->srids = MemoryContextAllocHuge(cxt, Max(r->count, 1) * sizeof(int32));
	for (size_t k = 0; k < r->count; k++)
		v->srids[k] = ((GxSerialized *) r->raw[k])->srid;
	gx_settings_batch_options(&opt);
	gx_threads_begin(r->elements * 9 * sizeof(double) >= PARALLEL_BYTES ? opt.threads : 1, opt.thread_budget);
	old = MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		ok = gx_batch_side_add_many(&v->side, (const GxSerialized *const *) r->raw, r->count, &err);
	}
	PG_FINALLY();
	{
		gx_threads_end();
		MemoryContextSwitchTo(old);
	}
	PG_END_TRY();
	if (room == NULL)
		gx_pg_read_free(r);
	if (!ok)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
}

void
gx_pg_read_free(GxPgRead *r)
{
	if (r->work)
		MemoryContextDelete(r->work);
	r->work = NULL;
}

/*
 * A side of values stored inline (no TOAST identity) is known by its bytes: this backend remembers the
 * bytes of the last such sides (per row: whether it has a geometry, then the value's size and bytes), up to
 * CONTENT_MEMOS of them and CONTENT_MEMO_BYTES in all: the batches of a large side of points (a block
 * model) are remembered together, and come back one after another query after query, which a few memos
 * replaced in turn would all miss. It gives each an identity in its own cache that no other side has had:
 * its serial number in this backend. A side with the same bytes as one remembered gets that side's
 * identity; the bytes are compared, so an identity never stands for two contents. In the GPU service's cache, shared by the
 * cluster's sessions, such a side goes under a hash of its bytes, which the service checks against the
 * bytes of the side it keeps under that hash (sent along, unless the service's entry is one this backend
 * knows to hold them: ContentMemo.service_serial).
 */
#define CONTENT_MEMOS 64
#define CONTENT_MEMO_BYTES ((size_t) 256 << 20)
#define CONTENT_MAX_BYTES ((size_t) 64 << 20)

typedef struct ContentMemo
{
	char	   *bytes;			/* NULL: unused */
	size_t		len;
	uint64		hash;
	uint32		serial;
	uint64		used;			/* when it last served, for replacing the oldest */
	uint64		service_serial; /* the GPU service's entry known to hold these bytes, or 0 */
} ContentMemo;

static ContentMemo memos[CONTENT_MEMOS];
static size_t memo_bytes;		/* what they keep, in all */
static MemoryContext memo_cxt;
static uint32 content_serial;
static uint64 content_clock;

/* One step of a streaming 64-bit hash of the side's bytes (not for security: the service compares bytes). */
static inline uint64
hash_step(uint64 h, uint64 w)
{
	h = (h ^ w) * UINT64CONST(0x9E3779B97F4A7C15);
	return (h << 31) | (h >> 33);
}

static uint64
hash_bytes64(uint64 h, const char *p, size_t n)
{
	uint64		w = 0;

	for (; n >= 8; p += 8, n -= 8)
	{
		memcpy(&w, p, 8);
		h = hash_step(h, w);
	}
	w = 0;
	memcpy(&w, p, n);
	return hash_step(h, w ^ ((uint64) n << 56));
}

/* The side's bytes' length and hash. */
static size_t
content_length(const Datum *geoms, const bool *present, size_t n, uint64 *hash)
{
	size_t		len = n;
	uint64		h = UINT64CONST(0x243F6A8885A308D3);

	for (size_t i = 0; i < n; i++)
	{
		h = hash_step(h, present[i]);
		if (present[i])
		{
			uint32		size = VARSIZE_ANY(DatumGetPointer(geoms[i]));

			len += sizeof(uint32) + size;
			h = hash_bytes64(h, DatumGetPointer(geoms[i]), size);
		}
	}
	h ^= h >> 29;
	h *= UINT64CONST(0xBF58476D1CE4E5B9);
	*hash = h ^ (h >> 32);
	return len;
}

/* Compares the side's bytes with out (write false) or writes them there; false at the first difference. */
static bool
content_walk(char *out, const Datum *geoms, const bool *present, size_t n, bool write)
{
	for (size_t i = 0; i < n; i++)
	{
		char		flag = present[i];
		uint32		size;

		if (write)
			*out = flag;
		else if (*out != flag)
			return false;
		out++;
		if (!present[i])
			continue;
		size = VARSIZE_ANY(DatumGetPointer(geoms[i]));
		if (write)
		{
			memcpy(out, &size, sizeof(size));
			memcpy(out + sizeof(size), DatumGetPointer(geoms[i]), size);
		}
		else if (memcmp(out, &size, sizeof(size)) != 0 ||
				 memcmp(out + sizeof(size), DatumGetPointer(geoms[i]), size) != 0)
			return false;
		out += sizeof(size) + size;
	}
	return true;
}

/*
 * The memo that served least recently: among those in use when in_use (there is one while memo_bytes is not
 * 0), else among all, a free one first.
 */
static ContentMemo *
oldest_memo(bool in_use)
{
	ContentMemo *oldest = NULL;

	for (int k = 0; k < CONTENT_MEMOS; k++)
		if ((!in_use || memos[k].bytes) && (oldest == NULL || memos[k].used < oldest->used))
			oldest = &memos[k];
	return oldest;
}

/* Memo m made free. */
static void
memo_forget(ContentMemo *m)
{
	if (m->bytes == NULL)
		return;
	pfree(m->bytes);
	memo_bytes -= m->len;
	memset(m, 0, sizeof(*m));
}

/* Sets s's keys to the identities of its bytes (see above); none when they are too many to remember. */
static void
content_keys(GxPgSide *s)
{
	uint64		hash;
	size_t		len = content_length(s->geoms, s->present, s->nrows, &hash);
	ContentMemo *m = NULL;

	if (len > CONTENT_MAX_BYTES)
		return;
	for (int k = 0; k < CONTENT_MEMOS && m == NULL; k++)
		if (memos[k].bytes && memos[k].len == len && memos[k].hash == hash &&
			content_walk(memos[k].bytes, s->geoms, s->present, s->nrows, false))
			m = &memos[k];
	if (m == NULL)
	{
		if (memo_cxt == NULL)
			memo_cxt = AllocSetContextCreate(TopMemoryContext, "gpuexact side contents", ALLOCSET_DEFAULT_SIZES);
		/* the oldest memo's slot, then older memos forgotten until the bytes fit */
		m = oldest_memo(false);
		memo_forget(m);
		while (memo_bytes + len > CONTENT_MEMO_BYTES)
			memo_forget(oldest_memo(true));
		m->bytes = MemoryContextAllocHuge(memo_cxt, Max(len, 1));
		memo_bytes += len;
		content_walk(m->bytes, s->geoms, s->present, s->nrows, true);
		m->len = len;
		m->hash = hash;
		m->serial = ++content_serial;
		m->service_serial = 0;
	}
	m->used = ++content_clock;
	s->content = m;
	s->content_serial = m->serial;
	s->content_len = len;
	s->nkeys = s->nskeys = 2;
	s->keys = MemoryContextAlloc(s->cxt, 4 * sizeof(GxCacheKey));
	s->skeys = s->keys + 2;
	/* a database id is never 0: no TOAST identity starts so; k[1] tells the backend's from the hash */
	s->keys[0] = (GxCacheKey) {{0, (uint32) MyProcPid, (uint32) ((uint64) MyStartTimestamp >> 32),
	(uint32) MyStartTimestamp}};
	s->keys[1] = (GxCacheKey) {{0, m->serial, (uint32) s->ngeoms, 0}};
	s->skeys[0] = (GxCacheKey) {{0, 0, (uint32) (hash >> 32), (uint32) hash}};
	s->skeys[1] = (GxCacheKey) {{0, (uint32) s->ngeoms, (uint32) ((uint64) len >> 32), (uint32) len}};
	s->raw_bytes = gx_pg_values_bytes(s->geoms, s->present, s->nrows);
}

/* Does s's memo still remember its bytes (not given to another side's since)? */
static bool
memo_is_ours(const GxPgSide *s)
{
	return s->content->bytes != NULL && s->content->serial == s->content_serial;
}

void
gx_pg_side_content(const GxPgSide *s, size_t *len, uint64 *serial)
{
	*len = s->content_len;
	*serial = memo_is_ours(s) ? s->content->service_serial : 0;
}

void
gx_pg_side_content_write(const GxPgSide *s, char *dst)
{
	content_walk(dst, s->geoms, s->present, s->nrows, true);
}

void
gx_pg_side_content_held(const GxPgSide *s, uint64 serial)
{
	if (memo_is_ours(s))
		s->content->service_serial = serial;
}

void
gx_pg_side_prepare(GxPgSide *s, const Datum *geoms, const bool *present, const TransactionId *xmins, size_t n,
				   MemoryContext cxt)
{
	bool		keyed = backend_cache() != NULL || gx_service_started(),
				external = true,
				inline_only = true;
	ToastProbe	probe = {InvalidOid, NULL, NULL, 0, 0};
	size_t		i;
	double		t0 = gx_now_ms();

	gx_pg_side_init(s);
	s->geoms = geoms;
	s->present = present;
	s->nrows = n;
	s->cxt = cxt;
	for (i = 0; i < n; i++)
		if (present[i])
		{
			s->ngeoms++;
			external &= VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(geoms[i]));
			inline_only &= !VARATT_IS_EXTERNAL(DatumGetPointer(geoms[i]));
		}
	s->ids = MemoryContextAlloc(cxt, Max(s->ngeoms, 1) * sizeof(int64));
	/* a side is keyed when all its values are out-of-line TOAST values, or all are inline */
	if (keyed && s->ngeoms > 0 && external)
	{
		s->keys = s->skeys = MemoryContextAlloc(cxt, s->ngeoms * sizeof(GxCacheKey));
		s->nkeys = s->nskeys = s->ngeoms;
	}
	else if (keyed && s->ngeoms > 0 && inline_only)
		content_keys(s);
	for (i = 0, s->ngeoms = 0; i < n; i++)
		if (present[i])
		{
			s->ids[s->ngeoms] = (int64) i;
			if (s->keys && external)
				s->raw_bytes += toast_key(&probe, geoms[i], xmins ? xmins[i] : InvalidTransactionId,
										  &s->keys[s->ngeoms]);
			s->ngeoms++;
		}
	probe_close(&probe);
	s->read_ms = gx_now_ms() - t0;
}

void
gx_pg_side_prepare_given(GxPgSide *s, const GxCacheKey *keys, size_t nkeys, int64 *ids, size_t ngeoms,
						 size_t nrows, size_t raw_bytes, void (*load) (GxPgSide *s, void *arg), void *load_arg,
						 MemoryContext cxt)
{
	gx_pg_side_init(s);
	s->cxt = cxt;
	s->nrows = nrows;
	s->ngeoms = ngeoms;
	s->ids = ids;
	s->keys = s->skeys = MemoryContextAlloc(cxt, nkeys * sizeof(GxCacheKey));
	memcpy(s->keys, keys, nkeys * sizeof(GxCacheKey));
	s->nkeys = s->nskeys = nkeys;
	s->raw_bytes = raw_bytes;
	s->load = load;
	s->load_arg = load_arg;
}

/* s's values read whole into r, after reading its rows if they are not at hand. */
static void
read_side(GxPgSide *s, GxPgRead *r)
{
	if (s->geoms == NULL)
		s->load(s, s->load_arg);
	read_values(r, s->geoms, s->present, s->nrows, s->ngeoms);
}

/*
 * Makes s's arrays (and srids): borrowed from the backend's cache (laid out there first when missing), or
 * laid out in s's context; from r's values when they were read already (NULL: read when needed).
 */
static void
make_arrays(GxPgSide *s, GxPgRead *r)
{
	GxCache    *c = backend_cache();
	bool		cached = c != NULL && s->keys != NULL && gx_pg_side_fits_cache(s->raw_bytes);
	const GxCachedSide *hit = cached ? gx_cache_get(c, s->keys, s->nkeys) : NULL;
	GxCachedSide v;
	GxPgRead	mine;

	s->built = true;
	if (hit == NULL)
	{
		if (r == NULL)
			read_side(s, r = &mine);
		lay_out(&v, r, NULL, cached ? cache_cxt : s->cxt);
		if (!cached)
		{
			s->side = v.side;
			s->srids = v.srids;
			return;
		}
		hit = gx_cache_put(c, s->keys, s->nkeys, &v);
		if (hit == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory in the geometry cache")));
	}
	else if (r != NULL)
		gx_pg_read_free(r);
	borrow(s, hit, s->cxt);
}

bool
gx_pg_side_cached(const GxPgSide *s)
{
	GxCache    *c = backend_cache();

	return c != NULL && s->keys != NULL && gx_cache_holds(c, s->keys, s->nkeys);
}

void
gx_pg_side_read(GxPgSide *s, GxPgRead *r)
{
	double		t0 = gx_now_ms();

	read_side(s, r);
	s->read_ms += gx_now_ms() - t0;
}

void
gx_pg_side_lay_out(GxPgSide *s, GxPgRead *r, const GxBatchSide *room)
{
	GxCachedSide v;
	double		t0 = gx_now_ms();

	if (room == NULL)
		make_arrays(s, r);
	else
	{
		lay_out(&v, r, room, s->cxt);
		s->side = v.side;
		s->srids = v.srids;
		s->built = true;
		gx_pg_sides_laid_out++;
	}
	s->read_ms += gx_now_ms() - t0;
}

void
gx_pg_side_forget(GxPgSide *s)
{
	GxBatchSide was = s->side;

	gx_batch_side_init(&s->side);
	s->side.srid = was.srid;
	s->side.mixed_srid = was.mixed_srid;
	s->side.unknown_srid = was.unknown_srid;
	s->side.extent = was.extent;
	s->built = false;
	s->laid_out_elsewhere = true;
}

bool
gx_pg_side_fits_cache(size_t raw_bytes)
{
	return backend_cache() != NULL &&
		KEPT_PER_STORED_BYTE * (double) raw_bytes <= (double) gx_cache_host_mb * 1024 * 1024;
}

void
gx_pg_side_materialize(GxPgSide *s)
{
	double		t0 = gx_now_ms();

	if (s->built)
		return;
	if (s->make)
	{
		s->make(s, s->make_arg);
		s->built = true;
	}
	else
		make_arrays(s, NULL);
	s->read_ms += gx_now_ms() - t0;
}

void
gx_pg_side_index(GxPgSide *s)
{
	GxError		err = {GX_OK, ""};
	GxBatchOptions opt;
	MemoryContext old;
	double		t0 = gx_now_ms();
	volatile bool ok = false;

	if (s->entry == NULL || s->side.index != NULL)
		return;
	gx_settings_batch_options(&opt);
	gx_threads_begin(opt.threads, opt.thread_budget);
	old = MemoryContextSwitchTo(cache_cxt);
	PG_TRY();
	{
		ok = gx_cache_index(cache, s->entry, &err);
	}
	PG_FINALLY();
	{
		gx_threads_end();
		MemoryContextSwitchTo(old);
	}
	PG_END_TRY();
	if (!ok)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	s->side.index = s->entry->side.index;
	s->read_ms += gx_now_ms() - t0;
}

void
gx_pg_side_init(GxPgSide *s)
{
	memset(s, 0, sizeof(*s));
	gx_batch_side_init(&s->side);
}

GxCacheStats
gx_pg_cache_stats(bool reset)
{
	GxCacheStats st = {0, 0, 0, 0};

	if (cache && reset)
		gx_cache_reset(cache);
	if (cache)
		st = gx_cache_stats(cache);
	return st;
}
