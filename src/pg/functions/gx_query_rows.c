/*
 * gx_query_rows.c: a pair function's query read into arrays (gx_query_rows.h), whole or a chunk at a time
 * from a portal, through a DestReceiver that sees each row where the executor left it: a TOAST pointer's row
 * version is still pinned in its buffer, so its xmin is read from the page.
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "tcop/pquery.h"
#include "utils/plancache.h"
#include "utils/portal.h"
#include "utils/syscache.h"

#include "batch/gx_pg_cache.h"
#include "functions/gx_query_rows.h"

#define CHECK_ROWS 1000

typedef struct Receiver
{
	DestReceiver pub;
	const char *fname,
			   *which;
	int16		typlen;
	bool		skip_nulls;
	MemoryContext keep;
	size_t		cap;
	GxQueryRows *r;
} Receiver;

static bool
receive(TupleTableSlot *slot, DestReceiver *self)
{
	Receiver   *rc = (Receiver *) self;
	GxQueryRows *r = rc->r;
	bool		idnull,
				valnull;
	Datum		id = slot_getattr(slot, 1, &idnull),
				val = slot_getattr(slot, 2, &valnull);
	MemoryContext old;

	if (idnull)
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						errmsg("%s: %s returned a NULL id", rc->fname, rc->which)));
	if ((r->n + 1) % CHECK_ROWS == 0)
		CHECK_FOR_INTERRUPTS();
	if (valnull && rc->skip_nulls)
		return true;
	old = MemoryContextSwitchTo(rc->keep);
	if (r->n == rc->cap)
	{
		rc->cap *= 2;
		r->ids = repalloc_huge(r->ids, rc->cap * sizeof(int64));
		r->values = repalloc_huge(r->values, rc->cap * sizeof(Datum));
		r->present = repalloc_huge(r->present, rc->cap * sizeof(bool));
		r->xmins = repalloc_huge(r->xmins, rc->cap * sizeof(TransactionId));
	}
	r->ids[r->n] = gx_pair_ids_add(&r->id, id, r->n, rc->keep);
	r->present[r->n] = !valnull;
	r->xmins[r->n] = valnull || rc->typlen != -1 ? InvalidTransactionId : gx_pg_stored_xmin(val);
	r->values[r->n] = valnull ? (Datum) 0 : datumCopy(val, false, rc->typlen);
	r->n++;
	MemoryContextSwitchTo(old);
	return true;
}

static void
startup(DestReceiver *self, int operation, TupleDesc desc)
{
}

static void
done(DestReceiver *self)
{
}

/* The query's columns (id, value), its ids started for the result's id type want. */
static void
check_columns(const Receiver *rc, TupleDesc desc, Oid valtype, const char *label, Oid want)
{
	if (desc->natts != 2)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
						errmsg("%s: %s must return 2 columns (id, %s), not %d", rc->fname, rc->which, label,
							   desc->natts)));
	gx_pair_ids_begin(&rc->r->id, TupleDescAttr(desc, 0)->atttypid, want, rc->fname, rc->which, rc->keep);
	if (TupleDescAttr(desc, 1)->atttypid != valtype)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
						errmsg("%s: %s's second column must be %s, not %s", rc->fname, rc->which,
							   format_type_be(valtype), format_type_be(TupleDescAttr(desc, 1)->atttypid))));
}

/*
 * Runs step(arg) as in a READ ONLY transaction: whatever the query does or calls, a write to a
 * non-temporary table, nextval on a non-temporary sequence or DDL raises 25006, and temporary tables may be
 * written (a data-modifying WITH or an INSERT ... RETURNING on one included), as PostgreSQL's own read-only
 * transactions decide; the ERROR then gets a hint saying why the transaction is read-only. SPI's read_only
 * mode is not used: it refuses any statement that is not a plain SELECT (0A000, "... is not allowed in a
 * non-volatile function"), temporary tables too, and the functions are VOLATILE.
 */
static void
read_only(const Receiver *rc, void (*step) (void *arg), void *arg)
{
	bool		was_read_only = XactReadOnly;

	XactReadOnly = true;
	PG_TRY();
	{
		step(arg);
	}
	PG_CATCH();
	{
		XactReadOnly = was_read_only;
		/* a write refused: PostgreSQL's own ERROR, with a hint saying why the transaction is read-only */
		if (geterrcode() == ERRCODE_READ_ONLY_SQL_TRANSACTION)
		{
			ErrorData  *e;

			MemoryContextSwitchTo(rc->keep);
			e = CopyErrorData();
			FlushErrorState();
			e->hint = psprintf("%s runs %s as in a READ ONLY transaction: it may write temporary tables only.",
							   rc->fname, rc->which);
			ReThrowError(e);
		}
		PG_RE_THROW();
	}
	PG_END_TRY();
	XactReadOnly = was_read_only;
}

/* Room for cap rows in r, in cxt, r emptied. */
static void
rows_begin(GxQueryRows *r, size_t cap, MemoryContext cxt)
{
	r->ids = MemoryContextAllocHuge(cxt, cap * sizeof(int64));
	r->values = MemoryContextAllocHuge(cxt, cap * sizeof(Datum));
	r->present = MemoryContextAllocHuge(cxt, cap * sizeof(bool));
	r->xmins = MemoryContextAllocHuge(cxt, cap * sizeof(TransactionId));
	r->n = 0;
}

/* The query prepared, its columns checked (step of read_only). */
typedef struct Prepare
{
	Receiver   *rc;
	const char *query;
	Oid			valtype,
				want;
	const char *label;
	SPIPlanPtr	plan;
} Prepare;

static void
prepare(void *arg)
{
	Prepare    *p = arg;
	Receiver   *rc = p->rc;

	p->plan = SPI_prepare(p->query, 0, NULL);
	if (p->plan == NULL)
		elog(ERROR, "%s: SPI_prepare failed for %s: %s", rc->fname, rc->which, SPI_result_code_string(SPI_result));
	if (!SPI_is_cursor_plan(p->plan))
		ereport(ERROR, (errcode(ERRCODE_INVALID_CURSOR_DEFINITION),
						errmsg("%s: %s must be one query that returns rows", rc->fname, rc->which)));
	check_columns(rc, ((CachedPlanSource *) linitial(SPI_plan_get_plan_sources(p->plan)))->resultDesc, p->valtype,
				  p->label, p->want);
}

static void
execute_all(void *arg)
{
	Prepare    *p = arg;
	SPIExecuteOptions options = {.read_only = false, .must_return_tuples = true, .dest = &p->rc->pub};

	prepare(p);
	SPI_execute_plan_extended(p->plan, &options);
}

void
gx_query_rows_read(const char *query, const char *fname, const char *which, Oid valtype, const char *label,
				   Oid want, bool skip_nulls, MemoryContext keep, GxQueryRows *r)
{
	Receiver	rc = {{receive, startup, done, done, DestNone}, fname, which, get_typlen(valtype), skip_nulls, keep,
	CHECK_ROWS, r};
	Prepare		p = {&rc, query, valtype, want, label, NULL};

	memset(r, 0, sizeof(*r));
	rows_begin(r, rc.cap, keep);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "%s: SPI_connect failed", fname);
	read_only(&rc, execute_all, &p);
	SPI_finish();
}

/* gx_query_rows.h */
struct GxQueryCursor
{
	Receiver	rc;
	GxQueryRows rows;
	Portal		portal;
	size_t		fetch;			/* rows asked for by the fetch under way */
	uint64		got;			/* rows it returned */
};

static void
open_cursor(void *arg)
{
	Prepare    *p = arg;
	GxQueryCursor *c = (GxQueryCursor *) p->rc;

	prepare(p);
	c->portal = SPI_cursor_open(NULL, p->plan, NULL, NULL, false);
}

GxQueryCursor *
gx_query_cursor_open(const char *query, const char *fname, const char *which, Oid valtype, const char *label,
					 Oid want, bool skip_nulls, MemoryContext keep)
{
	GxQueryCursor *c = MemoryContextAllocZero(keep, sizeof(GxQueryCursor));
	Receiver	rc = {{receive, startup, done, done, DestNone}, fname, which, get_typlen(valtype), skip_nulls, keep,
	0, &c->rows};
	Prepare		p = {&c->rc, query, valtype, want, label, NULL};

	c->rc = rc;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "%s: SPI_connect failed", fname);
	read_only(&c->rc, open_cursor, &p);
	return c;
}

GxPairIds *
gx_query_cursor_ids(GxQueryCursor *c)
{
	return &c->rows.id;
}

PlanState *
gx_query_cursor_plan(GxQueryCursor *c)
{
	return c->portal->queryDesc ? c->portal->queryDesc->planstate : NULL;
}

static void
fetch_rows(void *arg)
{
	GxQueryCursor *c = arg;

	c->got = PortalRunFetch(c->portal, FETCH_FORWARD, (long) c->fetch, &c->rc.pub);
}

const GxQueryRows *
gx_query_cursor_fetch(GxQueryCursor *c, size_t n, MemoryContext cxt)
{
	c->rc.keep = cxt;
	c->rc.cap = Max(Min(n, CHECK_ROWS * 64), 1);
	rows_begin(&c->rows, c->rc.cap, cxt);
	gx_pair_ids_restart(&c->rows.id);
	c->fetch = n;
	c->got = 0;
	if (c->portal)
		read_only(&c->rc, fetch_rows, c);
	if (c->got < n && c->portal)
	{
		SPI_cursor_close(c->portal);
		c->portal = NULL;
	}
	return c->got > 0 ? &c->rows : NULL;
}

void
gx_query_cursor_close(GxQueryCursor *c)
{
	if (c->portal)
		SPI_cursor_close(c->portal);
	c->portal = NULL;
	SPI_finish();
}

Oid
gx_query_rows_type(FunctionCallInfo fcinfo, const char *name)
{
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);

	return GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum(name), ObjectIdGetDatum(nsp));
}
