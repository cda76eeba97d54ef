/*
 * gx_pg_table.h: a join side that is a whole table's geometry column, kept between queries while the table's
 * pages stay all-visible. Such a table (loaded, then vacuumed: a block model, a set of ore bodies) is
 * known by its visibility map: every page all-visible, and the map's pages' log positions, which any change
 * to a row moves (it clears a page's bit, and setting it again is logged anew). A query then finds the side,
 * and the row identifiers (TIDs) of its geometries, without reading a row: only the rows of its answer are
 * fetched, and not even those when the query reads only columns passed by value or of a fixed length,
 * which are kept with the side once read. gx_volume_pairs keeps a table of blocks the same way, its rows'
 * ids and boxes without a geometry side (gx_pg_table_rows).
 */
#ifndef GX_PG_TABLE_H
#define GX_PG_TABLE_H

#include "postgres.h"

#include "batch/gx_pg_cache.h"
#include "nodes/execnodes.h"
#include "access/htup.h"
#include "storage/buf.h"
#include "storage/itemptr.h"

typedef struct GxPgTable
{
	ScanState  *scan;			/* the plan's scan of the table (never run when the side is the table's) */
	Relation	rel;
	AttrNumber	attno;			/* the geometry column, in the table */
	Snapshot	snapshot;
	const ItemPointerData *tids;	/* per row of the side, once made */
	size_t		nrows;
	bool		whole_anyway;	/* the plan's rows would be read whole too (a join's inner side) */
	bool		kept;			/* the side came from an earlier query (for EXPLAIN) */
	bool		in_service;		/* of another session: the GPU service kept it, with its rows */
	Buffer		buffer;			/* the page of the row last fetched, pinned, or InvalidBuffer */
	HeapTupleData tuple;		/* that row, which the scan's slot points to */
	void	   *entry;			/* what keeps the side (pinned with it), once made */
	/* the rows built from kept columns (gx_pg_table_columns) instead of fetched: */
	TupleTableSlot *values_slot;	/* a slot of the plan's row type */
	const Datum **col_values;	/* per column of the plan's row: its value per row, or NULL (not read); NULL: fetched */
	const bool **col_nulls;
	char		col_names[64];	/* the table's columns kept, for EXPLAIN */
} GxPgTable;

/*
 * Sets up t for the side of this plan (whose row's column col is the geometry), when it can be its table's:
 * a plain scan of a whole permanent heap table, without a filter, whose column col is a column of the table,
 * under an MVCC snapshot, with gpuexact.keep_tables on; else t->rel is NULL (and gx_pg_table_side false).
 * whole_anyway: the caller would read the plan's rows whole as well (a join's inner side), so that, with the
 * GPU service keeping the side, it need not fit this backend's cache.
 */
void		gx_pg_table_of_plan(GxPgTable *t, PlanState *plan, AttrNumber col, bool whole_anyway);

/*
 * Makes s the side of t's table, whole (ids: row numbers in the table's physical order), when its pages are
 * all-visible and its values fit the backend's cache (see whole_anyway): found kept, or read now (and kept).
 * False when it cannot be (read the plan's rows instead). s lives in cxt.
 */
bool		gx_pg_table_side(GxPgTable *t, GxPgSide *s, MemoryContext cxt);

/*
 * The same for a table whose column col is not a side's geometries (gx_volume_pairs' boxes): only its rows'
 * locations are kept, with the columns of the plan's row in needed (read with the rows, when they are read),
 * as gx_pg_table_columns keeps them, and within its bound. False when they cannot be (the plan's rows are
 * then read).
 */
bool		gx_pg_table_rows(GxPgTable *t, const Bitmapset *needed, MemoryContext cxt);

/*
 * After gx_pg_table_side or gx_pg_table_rows: when every column of the plan's row in `needed` (numbered from
 * 1; attribute 0, the whole row, needs them all) is a column of the table of a type passed by value (ids,
 * codes, grades) or of a fixed length (gxbox3d), their values are kept with the side, read once
 * (KEPT_COLUMNS at most), so that gx_pg_table_row builds a row from them without fetching it, the plan's
 * other columns NULL, and t->col_values and t->col_nulls give them by row. False when rows are fetched
 * instead (another column is needed, or the values would not fit beside the other kept sides, in half of
 * gpuexact.cache_host_mb). cxt: the side's.
 */
bool		gx_pg_table_columns(GxPgTable *t, const Bitmapset *needed, MemoryContext cxt);

/* The key that names the table's state (two of them), after gx_pg_table_side or gx_pg_table_rows. */
const GxCacheKey *gx_pg_table_key(const GxPgTable *t);

/* Row `row` of the side, as the plan's scan would have returned it (its columns the query reads, at least). */
TupleTableSlot *gx_pg_table_row(GxPgTable *t, size_t row);

/*
 * For the planner's costs: does this backend keep column attno of table relid (as it last read it)? The
 * table may have changed since; a join then reads it again.
 */
bool		gx_pg_table_kept(Oid relid, AttrNumber attno);

/* Lets go of the page the last row was fetched from (at the end of the scan, or before a rescan). */
void		gx_pg_table_release(GxPgTable *t);

/* How many sides were found kept, and read and kept, in this backend (gx_stats). */
extern uint64 gx_pg_table_sides_kept;
extern uint64 gx_pg_table_sides_read;

#endif
