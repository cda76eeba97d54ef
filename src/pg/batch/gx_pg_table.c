/*
 * gx_pg_table.c: a join side kept as its whole table (see gx_pg_table.h).
 *
 * Why the visibility map tells a table's contents: a page is all-visible when every row on it is visible
 * to every transaction, running or to come; any insert, update or delete on the page clears its bit (in the
 * changing transaction, before it commits), and only VACUUM sets it again, logging it: the map page takes
 * that record's log position, which no earlier state had. So while a permanent table has the same number of
 * pages, every one all-visible, and its map pages' highest log position unchanged, every snapshot taken
 * since sees the same rows at the same TIDs, and that state names the contents in the caches (key).
 *
 * Where the bits do not follow the rows, the table is read from the plan: a table created or given new
 * files in the current transaction (COPY FREEZE may add frozen rows to an all-visible page without clearing
 * its bit), and every table while old_snapshot_threshold is set (VACUUM may then mark pages past old
 * snapshots, which a scan would refuse with "snapshot too old"). So is every table in a serializable
 * transaction, whose scans check each page for conflicts with concurrent writers.
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/heapam.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "access/xlog.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "storage/smgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "base/gx_clock.h"
#include "batch/gx_pg_table.h"
#include "gx_settings.h"
#include "service/gx_service.h"

/* The visibility map's layout (access/heap/visibilitymap.c): two bits per heap page, all-visible the low one. */
#define MAP_BYTES (BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define PAGES_PER_MAP_BYTE 4
#define PAGES_PER_MAP_PAGE (MAP_BYTES * PAGES_PER_MAP_BYTE)

uint64		gx_pg_table_sides_kept;
uint64		gx_pg_table_sides_read;

/* Reading a table of more than a quarter of the buffers goes through a ring, as a sequential scan does. */
static BufferAccessStrategy
scan_strategy(BlockNumber nblocks)
{
	return nblocks > (BlockNumber) NBuffers / 4 ? GetAccessStrategy(BAS_BULKREAD) : NULL;
}

/*
 * The key of the table's column as it stands, when its contents are named by its state: the number of
 * pages and the highest log position of its visibility map's pages and of its pages that the map does not
 * mark all-visible (each read under its lock). False when the table is not logged, or that position is none.
 *
 * Why that names the contents (with the rows of every page the map does not mark settled when they were
 * read, read_rows): every change to a page sets the page's log position to that of its record, later than
 * any position before; a change to an all-visible page clears its bit, and only VACUUM sets a bit again,
 * which sets the map page's position. So a change after the key was taken raises one of these positions
 * above it, and the key taken again differs.
 */
/* Pages not all-visible from which a join suggests VACUUM, once a session for each table (80 MB). */
#define UNVACUUMED_NOTICE_PAGES 10240

/*
 * A NOTICE, the first time in this session that a join reads the table with many pages that VACUUM has
 * not marked all-visible: each join reads those pages' headers to see whether the table changed.
 */
static void
suggest_vacuum(Relation rel, BlockNumber unmarked)
{
	static List *told = NIL;	/* the tables already named, in TopMemoryContext */
	MemoryContext old;

	if (unmarked < UNVACUUMED_NOTICE_PAGES || list_member_oid(told, RelationGetRelid(rel)))
		return;
	old = MemoryContextSwitchTo(TopMemoryContext);
	told = lappend_oid(told, RelationGetRelid(rel));
	MemoryContextSwitchTo(old);
	ereport(NOTICE,
			(errmsg("table \"%s\" has %u pages that VACUUM has not marked all-visible",
					RelationGetRelationName(rel), unmarked),
			 errdetail("A batched join keeps such a table, but checks those pages for changes each time it reads it."),
			 errhint("Run VACUUM %s once after loading it (gx-load does): joins over it then skip that check.",
					 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
												RelationGetRelationName(rel)))));
}

static bool
table_key(Relation rel, AttrNumber attno, GxCacheKey key[2])
{
	BlockNumber npages = RelationGetNumberOfBlocks(rel),
				mappages,
				have = 0;
	SMgrRelation smgr;
	XLogRecPtr	lsn = InvalidXLogRecPtr;
	BufferAccessStrategy strategy = NULL;
	BlockNumber unmarked = 0;

	if (npages == 0 || !RelationNeedsWAL(rel))
		return false;
	smgr = RelationGetSmgr(rel);
	mappages = (npages - 1) / PAGES_PER_MAP_PAGE + 1;
	if (smgrexists(smgr, VISIBILITYMAP_FORKNUM))
		have = Min(smgrnblocks(smgr, VISIBILITYMAP_FORKNUM), mappages);
	for (BlockNumber m = 0; m < mappages; m++)
	{
		Buffer		buf = m < have ? ReadBufferExtended(rel, VISIBILITYMAP_FORKNUM, m, RBM_NORMAL, NULL) : InvalidBuffer;
		BlockNumber first = m * PAGES_PER_MAP_PAGE,
					pages = Min(npages - first, PAGES_PER_MAP_PAGE);
		uint8	   *map = palloc0(MAP_BYTES);
		uint32		b;

		if (buf != InvalidBuffer)
		{
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			memcpy(map, PageGetContents(BufferGetPage(buf)), MAP_BYTES);
			lsn = Max(lsn, PageGetLSN(BufferGetPage(buf)));
			UnlockReleaseBuffer(buf);
		}
		/* the pages the map does not mark all-visible: their own positions */
		for (b = 0; b < pages / PAGES_PER_MAP_BYTE && (map[b] & 0x55) == 0x55; b++)
			;
		for (uint32 p = b * PAGES_PER_MAP_BYTE; p < pages; p++)
		{
			Buffer		heap;

			if ((map[p / PAGES_PER_MAP_BYTE] >> (2 * (p % PAGES_PER_MAP_BYTE)) & VISIBILITYMAP_ALL_VISIBLE) != 0)
				continue;
			if (strategy == NULL)
				strategy = scan_strategy(npages);
			unmarked++;
			if (p % 256 == 0)
				CHECK_FOR_INTERRUPTS();
			heap = ReadBufferExtended(rel, MAIN_FORKNUM, first + p, RBM_NORMAL, strategy);
			LockBuffer(heap, BUFFER_LOCK_SHARE);
			lsn = Max(lsn, PageGetLSN(BufferGetPage(heap)));
			UnlockReleaseBuffer(heap);
		}
		pfree(map);
	}
	if (strategy)
		FreeAccessStrategy(strategy);
	if (lsn == InvalidXLogRecPtr)
		return false;
	suggest_vacuum(rel, unmarked);
	/* k[1] 0 tells it from a TOAST value's identity (a TOAST relation), k[0] not 0 from a hash of bytes */
	key[0] = (GxCacheKey) {{MyDatabaseId, 0, RelationGetRelid(rel), rel->rd_node.relNode}};
	key[1] = (GxCacheKey) {{(uint32) attno, npages, (uint32) (lsn >> 32), (uint32) lsn}};
	return true;
}

/* The log position in a key. */
static XLogRecPtr
key_lsn(const GxCacheKey key[2])
{
	return (XLogRecPtr) key[1].k[2] << 32 | key[1].k[3];
}

/*
 * What this backend keeps of a table's side beside its geometries (which the geometry cache keeps under
 * the same key): its rows' TIDs and which rows have a geometry, and the values of the columns passed by
 * value that queries have read from its rows (KEPT_COLUMNS at most). Or, a marker (tids NULL), that the
 * side is not kept: its values would not fit the cache (raw_bytes), or its row locations the room below
 * (no_room); its rows are then read through the plan, without reading the table first each time. At most
 * TABLE_ENTRIES of them, their row locations and columns taking at most half the geometry cache's bound
 * (gpuexact.cache_host_mb) in all, least recently used out first.
 */
#define TABLE_ENTRIES 16

/* A column of the table (of a type passed by value) kept with an entry: its value in each row. */
#define KEPT_COLUMNS 8

typedef struct KeptColumn
{
	AttrNumber	attno;
	Datum	   *values;
	bool	   *nulls;
} KeptColumn;

typedef struct TableEntry
{
	MemoryContext cxt;			/* NULL: a free slot */
	GxCacheKey	key[2];
	bool		no_room;
	ItemPointerData *tids;
	int64	   *ids;
	size_t		nrows,
				ngeoms,
				raw_bytes;
	size_t		nruns;			/* runs of its TIDs (write_rows), once counted; else 0 */
	size_t		bytes;			/* its TIDs, row numbers and kept columns */
	KeptColumn	cols[KEPT_COLUMNS];
	int			ncols;
	uint64		used;
	int			pins;
	TransactionId wait_xid;		/* a marker of rows not settled: read again once this transaction is */
} TableEntry;

static TableEntry entries[TABLE_ENTRIES];
static uint64 entry_clock;

static TableEntry *
find_entry(const GxCacheKey key[2])
{
	for (int k = 0; k < TABLE_ENTRIES; k++)
		if (entries[k].cxt && memcmp(entries[k].key, key, 2 * sizeof(GxCacheKey)) == 0)
			return &entries[k];
	return NULL;
}

bool
gx_pg_table_kept(Oid relid, AttrNumber attno)
{
	for (int k = 0; k < TABLE_ENTRIES; k++)
		if (entries[k].cxt && entries[k].tids && entries[k].key[0].k[0] == MyDatabaseId &&
			entries[k].key[0].k[2] == relid && entries[k].key[1].k[0] == (uint32) attno)
			return true;
	return false;
}

/* The marker of the table's column whose rows were found not settled, or NULL. */
static TableEntry *
waiting_entry(Relation rel, AttrNumber attno)
{
	for (int k = 0; k < TABLE_ENTRIES; k++)
		if (entries[k].cxt && entries[k].tids == NULL && TransactionIdIsValid(entries[k].wait_xid) &&
			entries[k].key[0].k[0] == MyDatabaseId && entries[k].key[0].k[2] == RelationGetRelid(rel) &&
			entries[k].key[0].k[3] == rel->rd_node.relNode && entries[k].key[1].k[0] == (uint32) attno)
			return &entries[k];
	return NULL;
}

/*
 * The entry not in use that served least recently: a free slot first (or, holding, only among those that
 * hold row locations); NULL if none.
 */
static TableEntry *
oldest_entry(bool holding)
{
	TableEntry *e = NULL;

	for (int k = 0; k < TABLE_ENTRIES; k++)
		if (entries[k].pins == 0 && (!holding || entries[k].bytes > 0) &&
			(e == NULL || entries[k].cxt == NULL || (e->cxt != NULL && entries[k].used < e->used)))
			e = &entries[k];
	return e;
}

static void
forget_entry(TableEntry *e)
{
	if (e->cxt)
		MemoryContextDelete(e->cxt);
	memset(e, 0, sizeof(*e));
}

/*
 * Room for `bytes` more beside what the entries hold, in half the geometry cache's bound: older entries not
 * in use forgotten to make it. False when there is none.
 */
static bool
make_room(size_t bytes)
{
	size_t		bound = (size_t) gx_cache_host_mb * 1024 * 1024 / 2,
				held = 0;
	TableEntry *e;

	if (bytes > bound)
		return false;
	for (int k = 0; k < TABLE_ENTRIES; k++)
		held += entries[k].bytes;
	while (held + bytes > bound && (e = oldest_entry(true)) != NULL)
	{
		held -= e->bytes;
		forget_entry(e);
	}
	return held + bytes <= bound;
}

/*
 * A new entry under key: with data (the row locations, `bytes` of them, in context data, which it takes
 * over), older entries forgotten to make room for them; or a marker (data NULL, or no_room when the locations
 * alone exceed the bound). NULL when there is no room, or no slot, now (entries in use hold them).
 */
static TableEntry *
new_entry(const GxCacheKey key[2], MemoryContext data, size_t bytes)
{
	size_t		bound = (size_t) gx_cache_host_mb * 1024 * 1024 / 2;
	TableEntry *e;

	if (data && bytes > bound)
		data = NULL;
	if ((data && !make_room(bytes)) || (e = oldest_entry(false)) == NULL)
		return NULL;
	forget_entry(e);
	e->cxt = data ? data : AllocSetContextCreate(TopMemoryContext, "gpuexact kept table", ALLOCSET_SMALL_SIZES);
	MemoryContextSetParent(e->cxt, TopMemoryContext);
	memcpy(e->key, key, sizeof(e->key));
	e->no_room = data == NULL && bytes > bound;
	e->bytes = data ? bytes : 0;
	e->used = ++entry_clock;
	return e;
}

typedef struct EntryPin
{
	MemoryContextCallback cb;
	TableEntry *e;
} EntryPin;

static void
unpin_entry(void *arg)
{
	((EntryPin *) arg)->e->pins--;
}

/* Holds e until cxt is reset or deleted. */
static void
pin_entry(TableEntry *e, MemoryContext cxt)
{
	EntryPin   *pin = MemoryContextAlloc(cxt, sizeof(EntryPin));

	pin->e = e;
	pin->cb.func = unpin_entry;
	pin->cb.arg = pin;
	MemoryContextRegisterResetCallback(cxt, &pin->cb);
	e->pins++;
	e->used = ++entry_clock;
}

/* The rows of a table read under a snapshot: their TIDs, and copies of their geometries. */
typedef struct TableRows
{
	ItemPointerData *tids;
	Datum	   *geoms;
	bool	   *present;
	size_t		nrows,
				ngeoms,
				raw_bytes;
	/* read to be kept: false when a row was not settled, and then the newest transaction it waits for */
	bool		settled;
	TransactionId wait_xid;
} TableRows;

/*
 * Columns of a table being read into arrays, row by row: each row's value and whether it is NULL; a column
 * of a fixed length passed by reference (a box) has its values one after another in one array, to which
 * its Datums point once read (columns_end).
 */
typedef struct ColumnsRead
{
	KeptColumn	cols[KEPT_COLUMNS];
	char	   *fixed[KEPT_COLUMNS];
	int16		len[KEPT_COLUMNS];
	int			n;
	size_t		cap;
	MemoryContext cxt;
} ColumnsRead;

/* What the columns attnos[0 .. n) of desc take for nrows rows. */
static size_t
columns_bytes(TupleDesc desc, const AttrNumber *attnos, int n, size_t nrows)
{
	size_t		bytes = 0;

	for (int k = 0; k < n; k++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, attnos[k] - 1);

		bytes += nrows * (sizeof(Datum) + sizeof(bool) + (a->attbyval ? 0 : a->attlen));
	}
	return bytes;
}

/* Room for cap rows of the columns attnos[0 .. n) of desc, in cxt. */
static void
columns_begin(ColumnsRead *c, TupleDesc desc, const AttrNumber *attnos, int n, size_t cap, MemoryContext cxt)
{
	c->n = n;
	c->cap = Max(cap, 1);
	c->cxt = cxt;
	for (int k = 0; k < n; k++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, attnos[k] - 1);

		c->cols[k].attno = attnos[k];
		c->len[k] = a->attbyval ? 0 : a->attlen;
		c->cols[k].values = MemoryContextAllocHuge(cxt, c->cap * sizeof(Datum));
		c->cols[k].nulls = MemoryContextAllocHuge(cxt, c->cap * sizeof(bool));
		c->fixed[k] = c->len[k] > 0 ? MemoryContextAllocHuge(cxt, c->cap * c->len[k]) : NULL;
	}
}

/* The columns of row `row` (the arrays grown when full), from tuple. */
static void
columns_put(ColumnsRead *c, size_t row, HeapTuple tuple, TupleDesc desc)
{
	if (row == c->cap)
	{
		c->cap *= 2;
		for (int k = 0; k < c->n; k++)
		{
			c->cols[k].values = repalloc_huge(c->cols[k].values, c->cap * sizeof(Datum));
			c->cols[k].nulls = repalloc_huge(c->cols[k].nulls, c->cap * sizeof(bool));
			if (c->fixed[k])
				c->fixed[k] = repalloc_huge(c->fixed[k], c->cap * c->len[k]);
		}
	}
	for (int k = 0; k < c->n; k++)
	{
		Datum		d = heap_getattr(tuple, c->cols[k].attno, desc, &c->cols[k].nulls[row]);

		if (c->fixed[k] == NULL)
			c->cols[k].values[row] = d;
		else if (c->cols[k].nulls[row])
			memset(c->fixed[k] + row * c->len[k], 0, c->len[k]);
		else
			memcpy(c->fixed[k] + row * c->len[k], DatumGetPointer(d), c->len[k]);
	}
}

/* The Datums of the fixed-length columns pointed at their values, once nrows rows are read. */
static void
columns_end(ColumnsRead *c, size_t nrows)
{
	for (int k = 0; k < c->n; k++)
		if (c->fixed[k])
			for (size_t r = 0; r < nrows; r++)
				c->cols[k].values[r] = PointerGetDatum(c->fixed[k] + r * c->len[k]);
}

/*
 * Is a row of a page not marked all-visible settled, the same to every snapshot taken now or later (as
 * VACUUM judges a page all-visible), visible (*visible) or dead? If not, *wait the newest transaction it
 * waits for.
 */
static bool
row_settled(HeapTuple tuple, Buffer buffer, TransactionId oldest, bool *visible, TransactionId *wait)
{
	TransactionId xmin = HeapTupleHeaderGetXmin(tuple->t_data),
				xmax = HeapTupleHeaderGetUpdateXid(tuple->t_data);

	switch (HeapTupleSatisfiesVacuum(tuple, oldest, buffer))
	{
		case HEAPTUPLE_LIVE:
			*visible = true;
			if (TransactionIdPrecedes(xmin, oldest))
				return true;
			break;
		case HEAPTUPLE_DEAD:
			*visible = false;
			return true;
		default:
			break;
	}
	*wait = TransactionIdIsNormal(xmin) && TransactionIdFollows(xmin, *wait) ? xmin : *wait;
	*wait = TransactionIdIsNormal(xmax) && TransactionIdFollows(xmax, *wait) ? xmax : *wait;
	return false;
}

/*
 * Reads every row of the table visible to t's snapshot, in physical order, into r, allocated in cxt: with
 * values, copies of them as stored (a TOAST pointer stays one), else r->geoms stays NULL; with a context for
 * them, the rows' TIDs there, else r->tids stays NULL; with cols (begun), their columns. Page by page, as a sequential scan sees them: on a page
 * marked all-visible every normal line pointer is a visible row; on another, each row's visibility is
 * checked under the snapshot, or, read to be kept (with locations), whether it is settled (row_settled):
 * the reading stops at the first that is not (r->settled false), whose rows are then read from the plan.
 */
static void
read_rows(GxPgTable *t, bool values, MemoryContext locations, MemoryContext cxt, TableRows *r, ColumnsRead *cols)
{
	size_t		cap = 1024,
				room = 0;
	char	   *arena = NULL;
	BlockNumber nblocks = RelationGetNumberOfBlocks(t->rel);
	BufferAccessStrategy strategy = scan_strategy(nblocks);
	TupleDesc	desc = RelationGetDescr(t->rel);
	int16		attlen = TupleDescAttr(desc, t->attno - 1)->attlen;
	MemoryContext old = MemoryContextSwitchTo(cxt);
	TransactionId oldest = locations ? GetOldestNonRemovableTransactionId(t->rel) : InvalidTransactionId;

	memset(r, 0, sizeof(*r));
	r->settled = true;
	r->wait_xid = InvalidTransactionId;
	r->tids = locations ? MemoryContextAllocHuge(locations, cap * sizeof(ItemPointerData)) : NULL;
	r->geoms = values ? palloc_extended(cap * sizeof(Datum), MCXT_ALLOC_HUGE) : NULL;
	r->present = palloc_extended(cap * sizeof(bool), MCXT_ALLOC_HUGE);
	for (BlockNumber block = 0; block < nblocks && r->settled; block++)
	{
		Buffer		buffer = ReadBufferExtended(t->rel, MAIN_FORKNUM, block, RBM_NORMAL, strategy);
		Page		page;
		bool		all_visible;
		OffsetNumber last;

		CHECK_FOR_INTERRUPTS();
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buffer);
		all_visible = PageIsAllVisible(page) && !t->snapshot->takenDuringRecovery;
		last = PageGetMaxOffsetNumber(page);
		for (OffsetNumber offset = FirstOffsetNumber; offset <= last; offset++)
		{
			ItemId		item = PageGetItemId(page, offset);
			HeapTupleData tuple;
			bool		isnull;
			Datum		d;

			if (!ItemIdIsNormal(item))
				continue;
			tuple.t_data = (HeapTupleHeader) PageGetItem(page, item);
			tuple.t_len = ItemIdGetLength(item);
			tuple.t_tableOid = RelationGetRelid(t->rel);
			ItemPointerSet(&tuple.t_self, block, offset);
			if (!all_visible && locations)
			{
				bool		visible;

				if (!row_settled(&tuple, buffer, oldest, &visible, &r->wait_xid))
				{
					r->settled = false;
					break;
				}
				if (!visible)
					continue;
			}
			else if (!all_visible && !HeapTupleSatisfiesVisibility(&tuple, t->snapshot, buffer))
				continue;
			d = heap_getattr(&tuple, t->attno, desc, &isnull);
			if (r->nrows == cap)
			{
				cap *= 2;
				if (locations)
					r->tids = repalloc_huge(r->tids, cap * sizeof(ItemPointerData));
				if (values)
					r->geoms = repalloc_huge(r->geoms, cap * sizeof(Datum));
				r->present = repalloc_huge(r->present, cap * sizeof(bool));
			}
			if (locations)
				r->tids[r->nrows] = tuple.t_self;
			if (cols)
				columns_put(cols, r->nrows, &tuple, desc);
			r->present[r->nrows] = !isnull;
			if (!isnull && values)
			{
				size_t		size = VARSIZE_ANY(DatumGetPointer(d));

				/* values copied one after another into large blocks, not one allocation each */
				if (room < MAXALIGN(size))
				{
					room = Max((size_t) 4 << 20, MAXALIGN(size));
					arena = MemoryContextAllocHuge(cxt, room);
				}
				memcpy(arena, DatumGetPointer(d), size);
				r->geoms[r->nrows] = PointerGetDatum(arena);
				arena += MAXALIGN(size);
				room -= MAXALIGN(size);
			}
			if (!isnull)
			{
				r->raw_bytes += attlen == -1 ? toast_raw_datum_size(d) : (size_t) Max(attlen, 0);
				r->ngeoms++;
			}
			r->nrows++;
		}
		UnlockReleaseBuffer(buffer);
	}
	if (strategy)
		FreeAccessStrategy(strategy);
	if (cols)
		columns_end(cols, r->nrows);
	MemoryContextSwitchTo(old);
}

/* The row numbers of the rows with a geometry, in cxt. */
static int64 *
geometry_rows(const TableRows *r, MemoryContext cxt)
{
	int64	   *ids = MemoryContextAllocHuge(cxt, Max(r->ngeoms, 1) * sizeof(int64));
	size_t		k = 0;

	for (size_t i = 0; i < r->nrows; i++)
		if (r->present[i])
			ids[k++] = (int64) i;
	return ids;
}

/* GxPgSide.load of a table's side: its values read again (the same rows, under the same snapshot). */
static void
load_values(GxPgSide *s, void *arg)
{
	GxPgTable  *t = arg;
	TableRows	r;

	read_rows(t, true, NULL, s->cxt, &r, NULL);
	if (r.nrows != s->nrows || r.ngeoms != s->ngeoms)
		elog(ERROR, "gpuexact: the rows of kept table \"%s\" changed under their snapshot",
			 RelationGetRelationName(t->rel));
	s->geoms = r.geoms;
	s->present = r.present;
}

void
gx_pg_table_of_plan(GxPgTable *t, PlanState *plan, AttrNumber col, bool whole_anyway)
{
	Plan	   *p = plan->plan;
	TargetEntry *tle;
	Var		   *v;
	Relation	rel;

	memset(t, 0, sizeof(*t));
	if (!gx_keep_tables || !IsA(plan, SeqScanState) || p->qual != NIL || p->parallel_aware || col <= 0 ||
		col > list_length(p->targetlist) || !IsMVCCSnapshot(plan->state->es_snapshot))
		return;
	tle = list_nth(p->targetlist, col - 1);
	v = (Var *) tle->expr;
	if (!IsA(v, Var) || v->varattno <= 0 || v->varlevelsup != 0)
		return;
	rel = ((ScanState *) plan)->ss_currentRelation;
	/* a serializable transaction's scan checks each page for conflicts with writers: it must read them */
	if (IsolationIsSerializable())
		return;
	if (rel->rd_rel->relpersistence != RELPERSISTENCE_PERMANENT || rel->rd_tableam != GetHeapamTableAmRoutine() ||
		(rel->rd_rel->relkind != RELKIND_RELATION && rel->rd_rel->relkind != RELKIND_MATVIEW))
		return;
	/* the exceptions of the file's header */
	if (rel->rd_createSubid != InvalidSubTransactionId || rel->rd_newRelfilenodeSubid != InvalidSubTransactionId ||
		rel->rd_firstRelfilenodeSubid != InvalidSubTransactionId || old_snapshot_threshold >= 0)
		return;
	t->scan = (ScanState *) plan;
	t->rel = rel;
	t->attno = v->varattno;
	t->snapshot = plan->state->es_snapshot;
	t->whole_anyway = whole_anyway;
	t->values_slot = ExecInitExtraTupleSlot(plan->state, ExecGetResultType(plan), &TTSOpsVirtual);
}

/* Will this query's batches go to the GPU service (which may hold the side), not run in this backend? */
static bool
service_runs(void)
{
	GxBatchOptions opt;

	gx_settings_batch_options(&opt);
	return gx_service_started() && opt.device != GX_DEVICE_CPU;
}

/*
 * A table's side read now (its rows' locations, and the columns attnos[0 .. ncols) kept with them; with
 * geometries, their values too unless the GPU service may hold the side already, into r in cxt) and kept
 * under key, taken after the log's position start: the entry, or NULL when it is not kept (a row not
 * settled, a page changed meanwhile, its geometries would not fit the cache unless unbounded, no room for
 * its locations and columns).
 */
static TableEntry *
read_and_keep(GxPgTable *t, const GxCacheKey key[2], XLogRecPtr start, bool geometries, bool unbounded,
			  const AttrNumber *attnos, int ncols, MemoryContext cxt, TableRows *r)
{
	ColumnsRead cols;
	GxCacheKey	after[2];
	size_t		bytes;
	/* the locations read into a context of their own, which the entry takes over (freed with cxt if not) */
	MemoryContext data = AllocSetContextCreate(cxt, "gpuexact kept table", ALLOCSET_DEFAULT_SIZES);
	int64	   *ids = NULL;
	TableEntry *e;

	if (ncols > 0)
		columns_begin(&cols, RelationGetDescr(t->rel), attnos, ncols, 1024, data);
	read_rows(t, geometries && !service_runs(), data, cxt, r, ncols > 0 ? &cols : NULL);
	if (!r->settled)
	{
		/* remembered, so that the table is not read again for nothing until that transaction is settled */
		e = new_entry(key, NULL, 0);
		if (e)
			e->wait_xid = r->wait_xid;
		return NULL;
	}

	/*
	 * Kept only if no page changed since before the key was taken (the rows read are this snapshot's
	 * whatever happened): a change then would have a log position above start.
	 */
	if (!table_key(t->rel, t->attno, after) || memcmp(key, after, sizeof(after)) != 0 || key_lsn(after) > start)
		return NULL;
	/* the geometries' rows, for a side of them (gx_pg_table_rows needs none) */
	bytes = r->nrows * sizeof(ItemPointerData) + (geometries ? r->ngeoms * sizeof(int64) : 0) +
		columns_bytes(RelationGetDescr(t->rel), attnos, ncols, r->nrows);
	if (geometries && (unbounded || gx_pg_side_fits_cache(r->raw_bytes)))
		ids = geometry_rows(r, data);
	else if (geometries)
		data = NULL;
	e = new_entry(key, data, bytes);
	if (e == NULL)
		return NULL;
	e->raw_bytes = r->raw_bytes;
	if (e->bytes == 0)
		return NULL;			/* a marker: not kept */
	e->nrows = r->nrows;
	e->ngeoms = r->ngeoms;
	e->ids = ids;
	e->tids = r->tids;
	for (int k = 0; k < ncols; k++)
		e->cols[e->ncols++] = cols.cols[k];
	return e;
}

/*
 * The bytes that locate a kept side's rows, as the GPU service keeps them with the side for the backends of
 * other sessions (a new session then need not read the table for them): this head; the rows' TIDs as runs of
 * consecutive line pointers on one page (a table loaded and vacuumed has one run a page: 50 million rows in
 * a few MB); then the row numbers of the geometries unless every row has one.
 */
#define ROWS_PER_CHECK (1 << 20)

typedef struct RowsHead
{
	uint64		nrows,
				ngeoms,
				raw_bytes,
				nruns;
} RowsHead;

typedef struct TidRun
{
	uint32		block;
	uint16		first,
				count;
} TidRun;

static size_t
rows_bytes(const RowsHead *h)
{
	return MAXALIGN(sizeof(RowsHead)) + MAXALIGN(h->nruns * sizeof(TidRun)) +
		(h->ngeoms < h->nrows ? h->ngeoms * sizeof(int64) : 0);
}

/* Does tid follow prev on its page? */
static inline bool
tid_follows(const ItemPointerData *prev, const ItemPointerData *tid)
{
	return ItemPointerGetBlockNumberNoCheck(tid) == ItemPointerGetBlockNumberNoCheck(prev) &&
		ItemPointerGetOffsetNumberNoCheck(tid) == ItemPointerGetOffsetNumberNoCheck(prev) + 1;
}

/* The runs of e's TIDs (counted once, kept with the entry). */
static size_t
tid_runs(TableEntry *e)
{
	if (e->nruns == 0)
		for (size_t i = 0; i < e->nrows; i++)
			e->nruns += i == 0 || !tid_follows(&e->tids[i - 1], &e->tids[i]);
	return e->nruns;
}

/* GxPgSide.rows_write of a table's side: its entry's rows, as rows_bytes lays them out. */
static void
write_rows(const GxPgSide *s, char *dst)
{
	const TableEntry *e = ((const GxPgTable *) s->load_arg)->entry;
	RowsHead	head = {e->nrows, e->ngeoms, e->raw_bytes, e->nruns};
	TidRun	   *run = (TidRun *) (dst + MAXALIGN(sizeof(RowsHead))) - 1;

	memcpy(dst, &head, sizeof(head));
	for (size_t i = 0; i < e->nrows; i++)
		if (i > 0 && tid_follows(&e->tids[i - 1], &e->tids[i]))
			run->count++;
		else
			*++run = (TidRun) {ItemPointerGetBlockNumberNoCheck(&e->tids[i]),
				ItemPointerGetOffsetNumberNoCheck(&e->tids[i]), 1};
	if (e->ngeoms < e->nrows)
		memcpy(dst + rows_bytes(&head) - e->ngeoms * sizeof(int64), e->ids, e->ngeoms * sizeof(int64));
}

/*
 * The entry of a table's side under key made from the rows the GPU service keeps with it (write_rows), in
 * cxt until kept; NULL when the service holds none, or they would not fit (unbounded: see table_entry).
 * The key names the table's contents, so they are the rows this snapshot sees, as if read now.
 */
static TableEntry *
entry_of_service(const GxCacheKey key[2], bool unbounded, MemoryContext cxt)
{
	size_t		len;
	const char *rows = gx_service_rows(key, 2, &len);
	RowsHead	head;
	TableEntry *e = NULL;

	if (rows == NULL)
		return NULL;
	PG_TRY();
	{
		memcpy(&head, rows, Min(len, sizeof(head)));
		if (len >= sizeof(head) && head.ngeoms <= head.nrows && head.nruns <= head.nrows &&
			len == rows_bytes(&head) && (unbounded || gx_pg_side_fits_cache(head.raw_bytes)))
		{
			MemoryContext data = AllocSetContextCreate(cxt, "gpuexact kept table", ALLOCSET_DEFAULT_SIZES);
			const TidRun *runs = (const TidRun *) (rows + MAXALIGN(sizeof(RowsHead)));
			const int64 *given = (const int64 *) (rows + len - head.ngeoms * sizeof(int64));
			ItemPointerData *tids = MemoryContextAllocHuge(data, Max(head.nrows, 1) * sizeof(ItemPointerData));
			int64	   *ids = MemoryContextAllocHuge(data, Max(head.ngeoms, 1) * sizeof(int64));
			size_t		n = 0;

			/* cancel heard every million rows or so */
			for (size_t r = 0; r < head.nruns; r++)
			{
				if (n + runs[r].count > head.nrows)
					elog(ERROR, "gpuexact: the GPU service's rows of a kept table do not add up");
				if (r % (ROWS_PER_CHECK / 64) == 0)
					CHECK_FOR_INTERRUPTS();
				for (uint16 k = 0; k < runs[r].count; k++, n++)
					ItemPointerSet(&tids[n], runs[r].block, runs[r].first + k);	/* a macro: n once */
			}
			if (n != head.nrows)
				elog(ERROR, "gpuexact: the GPU service's rows of a kept table do not add up");
			for (size_t i = 0; i < head.ngeoms; i++)
			{
				if (i % ROWS_PER_CHECK == 0)
					CHECK_FOR_INTERRUPTS();
				ids[i] = head.ngeoms < head.nrows ? given[i] : (int64) i;
			}
			e = new_entry(key, data, head.nrows * sizeof(ItemPointerData) + head.ngeoms * sizeof(int64));
			if (e && e->bytes > 0)
			{
				e->nrows = head.nrows;
				e->ngeoms = head.ngeoms;
				e->raw_bytes = head.raw_bytes;
				e->nruns = head.nruns;
				e->tids = tids;
				e->ids = ids;
			}
			else
				e = NULL;
		}
	}
	PG_FINALLY();
	{
		gx_service_rows_free((void *) rows, len);
	}
	PG_END_TRY();
	return e;
}

/*
 * What the geometry column may take, before reading it: the table's pages, or less when ANALYZE has measured
 * the column (its average stored width times the rows), as for a block model whose rows hold other columns
 * too. What was read decides in the end (read_and_keep).
 */
static size_t
column_bytes(const GxPgTable *t)
{
	size_t		pages = (size_t) RelationGetNumberOfBlocks(t->rel) * BLCKSZ;
	int32		width = get_attavgwidth(RelationGetRelid(t->rel), t->attno);
	double		rows = t->rel->rd_rel->reltuples;

	return width > 0 && rows >= 0 ? Min(pages, (size_t) (width * rows)) : pages;
}

/*
 * The entry of t's table as it stands, found kept (t->kept) or read now and kept (into r, in cxt), pinned
 * until cxt goes; NULL when it cannot be (the rows are then read from the plan). geometries: the entry's
 * column is the side's geometries, which go to the geometry caches and must fit them (unless unbounded);
 * else only its rows' locations are kept. The columns attnos[0 .. ncols) are read with the rows, when read.
 */
static TableEntry *
table_entry(GxPgTable *t, bool geometries, bool unbounded, const AttrNumber *attnos, int ncols, MemoryContext cxt,
			TableRows *r)
{
	GxCacheKey	key[2];
	TableEntry *e;
	XLogRecPtr	start;

	t->entry = NULL;
	t->col_values = NULL;
	t->col_nulls = NULL;
	if (t->rel == NULL || gx_cache_host_mb == 0)
		return NULL;
	/* rows found not settled: read from the plan until their transaction is */
	e = waiting_entry(t->rel, t->attno);
	if (e && !TransactionIdPrecedes(e->wait_xid, GetOldestNonRemovableTransactionId(t->rel)))
		return NULL;
	if (e)
		forget_entry(e);
	start = GetXLogInsertRecPtr();
	if (!table_key(t->rel, t->attno, key))
		return NULL;
	e = find_entry(key);
	/* a marker: not kept (but a side too large for this backend may be kept for the service now) */
	if (e && e->tids == NULL && (e->no_room || !unbounded || e->pins > 0))
		return NULL;
	if (e && e->tids == NULL)
	{
		forget_entry(e);
		e = NULL;
	}
	/* an entry kept for the service, as an inner side, may be too large for a side run here in one batch */
	if (e && geometries && !unbounded && !gx_pg_side_fits_cache(e->raw_bytes))
		return NULL;
	/* an entry of rows alone has no geometries' rows */
	if (e && geometries && e->ids == NULL)
		return NULL;
	t->kept = e != NULL;
	t->in_service = false;
	/* a side the GPU service keeps, with its rows: as if kept here (only its answer's rows are fetched) */
	if (e == NULL && geometries && service_runs() &&
		(e = entry_of_service(key, unbounded, cxt)) != NULL)
		t->kept = t->in_service = true;
	if (e == NULL)
	{
		/* weighed before it is read (a kept side, by what it holds, above) */
		if (geometries && !unbounded && !gx_pg_side_fits_cache(column_bytes(t)))
			return NULL;
		e = read_and_keep(t, key, start, geometries, unbounded, attnos, ncols, cxt, r);
		if (e == NULL)
			return NULL;
		gx_pg_table_sides_read++;
	}
	else
		gx_pg_table_sides_kept++;
	pin_entry(e, cxt);
	t->tids = e->tids;
	t->nrows = e->nrows;
	t->entry = e;
	return e;
}

bool
gx_pg_table_side(GxPgTable *t, GxPgSide *s, MemoryContext cxt)
{
	TableRows	r;
	TableEntry *e;
	double		t0 = gx_now_ms();
	bool		to_service = service_runs();
	/* a side read whole anyway, which the GPU service keeps, need not fit this backend's cache */
	bool		unbounded = t->whole_anyway && to_service;

	r.geoms = NULL;
	if ((e = table_entry(t, true, unbounded, NULL, 0, cxt, &r)) == NULL)
		return false;
	gx_pg_side_prepare_given(s, e->key, 2, e->ids, e->ngeoms, e->nrows, e->raw_bytes, load_values, t, cxt);
	if (to_service)
	{
		RowsHead	head = {e->nrows, e->ngeoms, e->raw_bytes, tid_runs(e)};

		s->rows_write = write_rows;
		s->rows_len = rows_bytes(&head);
	}
	if (!t->kept && r.geoms)
	{
		s->geoms = r.geoms;
		s->present = r.present;
	}
	s->read_ms = gx_now_ms() - t0;
	return true;
}

/*
 * The table's columns of the plan's row's columns in needed, into attnos: their number, or -1 when one of
 * them cannot be kept (not a column of the table, of a type neither passed by value nor of a fixed length,
 * or more than KEPT_COLUMNS).
 */
static int
needed_columns(const GxPgTable *t, const Bitmapset *needed, AttrNumber *attnos)
{
	List	   *tlist = t->scan->ps.plan->targetlist;
	TupleDesc	desc = RelationGetDescr(t->rel);
	int			n = 0,
				c = -1;

	if (bms_is_member(0, needed))
		return -1;
	while ((c = bms_next_member(needed, c)) >= 0)
	{
		Var		   *v = c <= list_length(tlist) ? (Var *) ((TargetEntry *) list_nth(tlist, c - 1))->expr : NULL;

		if (n == KEPT_COLUMNS || v == NULL || !IsA(v, Var) || v->varattno <= 0 || v->varlevelsup != 0 ||
			!(TupleDescAttr(desc, v->varattno - 1)->attbyval || TupleDescAttr(desc, v->varattno - 1)->attlen > 0))
			return -1;
		attnos[n++] = v->varattno;
	}
	return n;
}

bool
gx_pg_table_rows(GxPgTable *t, const Bitmapset *needed, MemoryContext cxt)
{
	AttrNumber	attnos[KEPT_COLUMNS];
	TableRows	r;
	int			n;

	if (t->rel == NULL || (n = needed_columns(t, needed, attnos)) < 0)
		return false;
	return table_entry(t, false, false, attnos, n, cxt, &r) != NULL && gx_pg_table_columns(t, needed, cxt);
}

/* The tuple at tid on the page of buffer (pinned, and locked for reading); an ERROR if it is gone. */
static void
tuple_on_page(Relation rel, Buffer buffer, const ItemPointerData *tid, HeapTuple tuple)
{
	Page		page = BufferGetPage(buffer);
	ItemId		item = ItemPointerGetOffsetNumber(tid) <= PageGetMaxOffsetNumber(page) ?
		PageGetItemId(page, ItemPointerGetOffsetNumber(tid)) : NULL;

	if (item == NULL || !ItemIdIsNormal(item))
		elog(ERROR, "gpuexact: a row of kept table \"%s\" is gone", RelationGetRelationName(rel));
	tuple->t_data = (HeapTupleHeader) PageGetItem(page, item);
	tuple->t_len = ItemIdGetLength(item);
	tuple->t_self = *tid;
	tuple->t_tableOid = RelationGetRelid(rel);
}

/*
 * The tuple at tid, read in place from its page, which *buffer keeps pinned (read now unless it is the page
 * pinned already, the other one let go). Every row of a kept side is visible to the snapshot (its pages were
 * all-visible after the snapshot was taken), and a row's item does not move while its page is pinned.
 */
static void
tuple_at(Relation rel, const ItemPointerData *tid, Buffer *buffer, HeapTuple tuple)
{
	if (*buffer == InvalidBuffer || BufferGetBlockNumber(*buffer) != ItemPointerGetBlockNumber(tid))
		*buffer = ReleaseAndReadBuffer(*buffer, rel, ItemPointerGetBlockNumber(tid));
	LockBuffer(*buffer, BUFFER_LOCK_SHARE);
	tuple_on_page(rel, *buffer, tid, tuple);
	LockBuffer(*buffer, BUFFER_LOCK_UNLOCK);
}

/* The kept column attno of e, or NULL. */
static const KeptColumn *
kept_column(const TableEntry *e, AttrNumber attno)
{
	for (int k = 0; k < e->ncols; k++)
		if (e->cols[k].attno == attno)
			return &e->cols[k];
	return NULL;
}

/*
 * Keeps the columns attnos[0 .. n) of the table with e, read from its rows (by their TIDs, page by page);
 * false when they would not fit. A column of a fixed length passed by reference (a box) keeps its values one
 * after another in one array, each row's Datum pointing into it. Registered only once read whole (an error
 * meanwhile leaves them out).
 */
static bool
keep_columns(GxPgTable *t, TableEntry *e, const AttrNumber *attnos, int n)
{
	TupleDesc	desc = RelationGetDescr(t->rel);
	size_t		bytes = columns_bytes(desc, attnos, n, e->nrows);
	ColumnsRead cols;
	Buffer		buffer = InvalidBuffer;
	BufferAccessStrategy strategy;

	if (e->ncols + n > KEPT_COLUMNS || !make_room(bytes))
		return false;
	strategy = scan_strategy(RelationGetNumberOfBlocks(t->rel));
	columns_begin(&cols, desc, attnos, n, e->nrows, e->cxt);
	/* page by page, each read once through a ring as a sequential scan reads (the rows are in order) */
	for (size_t r = 0; r < e->nrows; r++)
	{
		BlockNumber block = ItemPointerGetBlockNumber(&e->tids[r]);
		HeapTupleData tuple;

		if (buffer == InvalidBuffer || BufferGetBlockNumber(buffer) != block)
		{
			if (buffer != InvalidBuffer)
				UnlockReleaseBuffer(buffer);
			CHECK_FOR_INTERRUPTS();
			buffer = ReadBufferExtended(t->rel, MAIN_FORKNUM, block, RBM_NORMAL, strategy);
			LockBuffer(buffer, BUFFER_LOCK_SHARE);
		}
		tuple_on_page(t->rel, buffer, &e->tids[r], &tuple);
		columns_put(&cols, r, &tuple, desc);
	}
	if (buffer != InvalidBuffer)
		UnlockReleaseBuffer(buffer);
	if (strategy)
		FreeAccessStrategy(strategy);
	columns_end(&cols, e->nrows);
	for (int k = 0; k < n; k++)
		e->cols[e->ncols++] = cols.cols[k];
	e->bytes += bytes;
	return true;
}

bool
gx_pg_table_columns(GxPgTable *t, const Bitmapset *needed, MemoryContext cxt)
{
	TableEntry *e = t->entry;
	TupleDesc	desc = RelationGetDescr(t->rel),
				row = t->values_slot->tts_tupleDescriptor;
	AttrNumber	attnos[KEPT_COLUMNS],
				missing[KEPT_COLUMNS];
	int			n,
				nmissing = 0,
				c = -1;

	if (e == NULL || (n = needed_columns(t, needed, attnos)) < 0)
		return false;
	for (int k = 0; k < n; k++)
		if (kept_column(e, attnos[k]) == NULL)
			missing[nmissing++] = attnos[k];
	if (nmissing > 0 && !keep_columns(t, e, missing, nmissing))
		return false;
	t->col_values = MemoryContextAllocZero(cxt, Max(row->natts, 1) * sizeof(Datum *));
	t->col_nulls = MemoryContextAllocZero(cxt, Max(row->natts, 1) * sizeof(bool *));
	t->col_names[0] = '\0';
	for (int k = 0; (c = bms_next_member(needed, c)) >= 0; k++)
	{
		const KeptColumn *kc = kept_column(e, attnos[k]);

		t->col_values[c - 1] = kc->values;
		t->col_nulls[c - 1] = kc->nulls;
		snprintf(t->col_names + strlen(t->col_names), sizeof(t->col_names) - strlen(t->col_names), "%s%s",
				 k ? ", " : "", NameStr(TupleDescAttr(desc, attnos[k] - 1)->attname));
	}
	return true;
}

/* Row `row` built from the kept columns (gx_pg_table_columns). */
static TupleTableSlot *
row_of_columns(GxPgTable *t, size_t row)
{
	TupleTableSlot *v = t->values_slot;

	ExecClearTuple(v);
	for (int c = 0; c < v->tts_tupleDescriptor->natts; c++)
	{
		v->tts_values[c] = t->col_values[c] ? t->col_values[c][row] : (Datum) 0;
		v->tts_isnull[c] = t->col_values[c] ? t->col_nulls[c][row] : true;
	}
	return ExecStoreVirtualTuple(v);
}

/*
 * Row `row`, built from the kept columns, or its tuple read in place (tuple_at), its page kept pinned while
 * the next rows lie on it (rows are asked for mostly in order).
 */
TupleTableSlot *
gx_pg_table_row(GxPgTable *t, size_t row)
{
	TupleTableSlot *slot = t->scan->ss_ScanTupleSlot;
	ExprContext *econtext = t->scan->ps.ps_ExprContext;

	if (t->col_values)
		return row_of_columns(t, row);
	tuple_at(t->rel, &t->tids[row], &t->buffer, &t->tuple);
	ExecStoreBufferHeapTuple(&t->tuple, slot, t->buffer);
	if (t->scan->ps.ps_ProjInfo == NULL)
		return slot;
	ResetExprContext(econtext);
	econtext->ecxt_scantuple = slot;
	return ExecProject(t->scan->ps.ps_ProjInfo);
}

const GxCacheKey *
gx_pg_table_key(const GxPgTable *t)
{
	return ((const TableEntry *) t->entry)->key;
}

void
gx_pg_table_release(GxPgTable *t)
{
	if (t->buffer != InvalidBuffer)
		ReleaseBuffer(t->buffer);
	t->buffer = InvalidBuffer;
}
