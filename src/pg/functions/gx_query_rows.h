/*
 * gx_query_rows.h: the rows (id, value) of a pair function's query, read through SPI as its executor hands
 * them over: the ids for the result (gx_pair_ids.h), the values copied, and for each TOAST pointer the xmin
 * of the stored row it was read from (gx_pg_stored_xmin), which identifies the value without a TOAST probe.
 */
#ifndef GX_QUERY_ROWS_H
#define GX_QUERY_ROWS_H

#include "postgres.h"
#include "fmgr.h"
#include "nodes/execnodes.h"

#include "functions/gx_pair_ids.h"

typedef struct GxQueryRows
{
	GxPairIds	id;
	int64	   *ids;			/* per row, kept as gx_pair_ids_add gives them */
	Datum	   *values;
	bool	   *present;		/* the value is not NULL */
	TransactionId *xmins;		/* InvalidTransactionId where not known */
	size_t		n;
} GxQueryRows;

/* The OID of type name (gxgeom, gxbox3d) in the schema of the function called (this extension's). */
Oid			gx_query_rows_type(FunctionCallInfo fcinfo, const char *name);

/*
 * Runs query (through SPI, connected here, as one query of a READ ONLY transaction: whatever it calls, a
 * write raises 25006, as in PostgreSQL's read-only transactions) into r, allocated in keep. Its columns must
 * be an id (never NULL), then a value of type valtype, named `label` in messages; fname and which name the
 * function and the query. Rows whose value is NULL are left out when skip_nulls, else kept with present
 * false.
 */
void		gx_query_rows_read(const char *query, const char *fname, const char *which, Oid valtype,
							   const char *label, Oid want, bool skip_nulls, MemoryContext keep, GxQueryRows *r);

/*
 * The same query read a chunk of rows at a time, from a portal (SPI connected by gx_query_cursor_open until
 * gx_query_cursor_close, both in the same function call; the functions run between them may use SPI too).
 * Each fetch runs as in a READ ONLY transaction, as gx_query_rows_read does.
 */
typedef struct GxQueryCursor GxQueryCursor;

GxQueryCursor *gx_query_cursor_open(const char *query, const char *fname, const char *which, Oid valtype,
									const char *label, Oid want, bool skip_nulls, MemoryContext keep);

/* The ids' conversion, started when the cursor was opened (for rows read some other way). */
GxPairIds  *gx_query_cursor_ids(GxQueryCursor *c);

/* The plan's top node, run by the portal (NULL for a query that runs whole at its first fetch). */
PlanState  *gx_query_cursor_plan(GxQueryCursor *c);

/*
 * The next rows of the query, up to n (fewer at its end), numbered from 0, in cxt (the caller resets it
 * between chunks), or NULL when none are left: the cursor's own, valid until the next fetch.
 */
const GxQueryRows *gx_query_cursor_fetch(GxQueryCursor *c, size_t n, MemoryContext cxt);

void		gx_query_cursor_close(GxQueryCursor *c);

#endif
