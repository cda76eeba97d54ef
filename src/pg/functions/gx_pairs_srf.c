/*
 * gx_pairs_srf.c: gx_intersecting_pairs(a_query, b_query): reads both sides through SPI (caller's
 * privileges, fetched in chunks), runs one batch, returns (a_id, b_id) of intersecting rows;
 * gx_dwithin_pairs(a_query, b_query, d), the same for the rows within distance d (gx_dwithin, on the CPU);
 * and gx_intercepts_pairs(lines_query, solids_query), the batch followed by each pair's intercepts. The queries
 * run as in a READ ONLY transaction: whatever they call, a write to a non-temporary table, a sequence or
 * the catalog raises an ERROR (25006), as in PostgreSQL's read-only transactions.
 * Each query yields (id, geom), id never NULL; rows whose geom is NULL are skipped (like a join on
 * gx_intersects, which is STRICT). The ids come back as the result's id columns are typed: bigint, from
 * smallint, integer or bigint ids; or, in the variants given an id type (NULL::text, ...), that type, from ids
 * of any type converted through their text form (an integer id as it is when the type is one).
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/syscache.h"

#include "batch/gx_pg_batch.h"
#include "functions/gx_pair_ids.h"
#include "gx_pg.h"
#include "operation/gx_intercepts.h"

PG_FUNCTION_INFO_V1(gx_intersecting_pairs);
PG_FUNCTION_INFO_V1(gx_dwithin_pairs);
PG_FUNCTION_INFO_V1(gx_intercepts_pairs);

#define FETCH_ROWS 1000

/* The OID of gxgeom, in the schema of this function. */
static Oid
gxgeom_type(FunctionCallInfo fcinfo)
{
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);

	return GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("gxgeom"), ObjectIdGetDatum(nsp));
}

/* The query's columns (id, geom), its ids started for the result's id type want. */
static void
check_columns(TupleDesc desc, const char *fname, const char *which, Oid geomtype, Oid want, GxPairIds *ids,
			  MemoryContext keep)
{
	if (desc->natts != 2)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
						errmsg("%s: %s must return 2 columns (id, geom), not %d", fname, which, desc->natts)));
	gx_pair_ids_begin(ids, TupleDescAttr(desc, 0)->atttypid, want, fname, which, keep);
	if (TupleDescAttr(desc, 1)->atttypid != geomtype)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
						errmsg("%s: %s's second column must be gxgeom, not %s",
							   fname, which, format_type_be(TupleDescAttr(desc, 1)->atttypid))));
}

/*
 * A query's rows as its executor hands them over: the id, the geometry copied into keep, and the xmin of the
 * stored row a TOAST pointer was read from (gx_pg_stored_xmin, which needs the row where the scan left it).
 */
typedef struct SideRows
{
	DestReceiver pub;
	const char *fname,
			   *which;
	Oid			geomtype,
				want;
	GxPairIds  *sid;
	MemoryContext keep;
	size_t		n,
				cap;
	int64	   *ids;
	Datum	   *geoms;
	bool	   *present;
	TransactionId *xmins;
} SideRows;

static bool
rows_receive(TupleTableSlot *slot, DestReceiver *self)
{
	SideRows   *r = (SideRows *) self;
	bool		idnull,
				geomnull;
	Datum		id = slot_getattr(slot, 1, &idnull),
				geom = slot_getattr(slot, 2, &geomnull);
	MemoryContext old;

	if (idnull)
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						errmsg("%s: %s returned a NULL id", r->fname, r->which)));
	old = MemoryContextSwitchTo(r->keep);
	if (r->n == r->cap)
	{
		r->cap *= 2;
		r->ids = repalloc_huge(r->ids, r->cap * sizeof(int64));
		r->geoms = repalloc_huge(r->geoms, r->cap * sizeof(Datum));
		r->present = repalloc_huge(r->present, r->cap * sizeof(bool));
		r->xmins = repalloc_huge(r->xmins, r->cap * sizeof(TransactionId));
	}
	r->ids[r->n] = gx_pair_ids_add(r->sid, id, r->n, r->keep);
	r->present[r->n] = !geomnull;
	r->xmins[r->n] = geomnull ? InvalidTransactionId : gx_pg_stored_xmin(geom);
	r->geoms[r->n] = geomnull ? (Datum) 0 : datumCopy(geom, false, -1);
	MemoryContextSwitchTo(old);
	if (++r->n % FETCH_ROWS == 0)
		CHECK_FOR_INTERRUPTS();
	return true;
}

static void
rows_startup(DestReceiver *self, int operation, TupleDesc desc)
{
}

static void
rows_done(DestReceiver *self)
{
}

/*
 * Runs query and makes its rows side s (allocated in context keep, cached sides pinned until it is reset).
 * *rows (if not NULL) gets each geometry's row position.
 */
static void
read_side(const char *query, const char *fname, const char *which, Oid geomtype, Oid want, GxPgSide *s,
		  GxPairIds *sid, MemoryContext keep, int64 **rows)
{
	SPIPlanPtr	plan = SPI_prepare(query, 0, NULL);
	SideRows	r = {{rows_receive, rows_startup, rows_done, rows_done, DestNone}, fname, which, geomtype, want, sid,
	keep, 0, FETCH_ROWS};
	SPIExecuteOptions options = {.read_only = true, .must_return_tuples = true, .dest = &r.pub};
	MemoryContext old = MemoryContextSwitchTo(keep);
	size_t		k;
	int64	   *ids;

	r.ids = palloc(r.cap * sizeof(int64));
	r.geoms = palloc(r.cap * sizeof(Datum));
	r.present = palloc(r.cap * sizeof(bool));
	r.xmins = palloc(r.cap * sizeof(TransactionId));
	MemoryContextSwitchTo(old);
	if (plan == NULL)
		elog(ERROR, "%s: SPI_prepare failed for %s: %s", fname, which, SPI_result_code_string(SPI_result));
	if (!SPI_is_cursor_plan(plan))
		ereport(ERROR, (errcode(ERRCODE_INVALID_CURSOR_DEFINITION),
						errmsg("%s: %s must be one query that returns rows", fname, which)));
	check_columns(((CachedPlanSource *) linitial(SPI_plan_get_plan_sources(plan)))->resultDesc, fname, which,
				  geomtype, want, sid, keep);
	SPI_execute_plan_extended(plan, &options);
	ids = r.ids;
	old = MemoryContextSwitchTo(keep);
	gx_pg_side_prepare(s, r.geoms, r.present, r.xmins, r.n, keep);
	MemoryContextSwitchTo(old);
	if (rows)
	{
		*rows = MemoryContextAlloc(keep, Max(s->ngeoms, 1) * sizeof(int64));
		memcpy(*rows, s->ids, s->ngeoms * sizeof(int64));
	}
	/* the side numbers rows by position: give them the query's ids */
	for (k = 0; k < s->ngeoms; k++)
		s->ids[k] = ids[s->ids[k]];
}

/* The id of side geometry k, as the result's id type and as text. */
static Datum
id_datum(const GxPgSide *s, const GxPairIds *sid, size_t k)
{
	return gx_pair_ids_datum(sid, s->ids[k]);
}

static char *
id_text(const GxPgSide *s, const GxPairIds *sid, size_t k)
{
	return gx_pair_ids_text(sid, s->ids[k]);
}

/*
 * Whether one of the first n arguments is NULL: the variants that take an id type are not STRICT (the type
 * is given as a NULL of it), and answer no rows for a NULL query or distance, as the STRICT ones do.
 */
static bool
null_argument(FunctionCallInfo fcinfo, int n)
{
	for (int k = 0; k < n; k++)
		if (PG_ARGISNULL(k))
			return true;
	return false;
}

/* Reads both queries as in a READ ONLY transaction. */
static void
read_sides(const char *fname, FunctionCallInfo fcinfo, GxPgSide *a, GxPgSide *b, GxPairIds *aid, GxPairIds *bid,
		   int64 **arows, int64 **brows)
{
	char	   *a_query = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *b_query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	Oid			geomtype = gxgeom_type(fcinfo);
	MemoryContext keep = CurrentMemoryContext;
	bool		was_read_only;

	gx_pg_side_init(a);
	gx_pg_side_init(b);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "%s: SPI_connect failed", fname);
	was_read_only = XactReadOnly;
	XactReadOnly = true;
	PG_TRY();
	{
		read_side(a_query, fname, arows ? "lines_query" : "a_query", geomtype, gx_pair_ids_result_type(fcinfo), a, aid,
				  keep, arows);
		read_side(b_query, fname, brows ? "solids_query" : "b_query", geomtype, gx_pair_ids_result_type(fcinfo), b, bid,
				  keep, brows);
	}
	PG_FINALLY();
	{
		XactReadOnly = was_read_only;
	}
	PG_END_TRY();
	SPI_finish();
}

/* The (a_id, b_id) of the pairs of the two queries that intersect, or lie within distance > 0. */
static Datum
pairs_srf(FunctionCallInfo fcinfo, const char *fname, double distance)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxPgSide	a,
				b;
	GxPairIds		aid,
				bid;
	GxPairs		pairs;
	GxBatchStats st;
	size_t		i;

	InitMaterializedSRF(fcinfo, 0);
	if (null_argument(fcinfo, distance > 0 ? 3 : 2))
		return (Datum) 0;
	read_sides(fname, fcinfo, &a, &b, &aid, &bid, NULL, NULL);
	gx_pg_batch_run(&a, &b, false, distance, &pairs, &st);
	for (i = 0; i < pairs.n; i++)
	{
		Datum		values[2] = {id_datum(&a, &aid, pairs.keys[i] >> 32), id_datum(&b, &bid, (uint32) pairs.keys[i])};
		bool		nulls[2] = {false, false};

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return (Datum) 0;
}

Datum
gx_intersecting_pairs(PG_FUNCTION_ARGS)
{
	return pairs_srf(fcinfo, "gx_intersecting_pairs", 0);
}

/* Negative d: no pair; d = 0: the intersecting pairs; NaN and infinities are refused as by gx_dwithin. */
Datum
gx_dwithin_pairs(PG_FUNCTION_ARGS)
{
	double		d;

	if (null_argument(fcinfo, 3))
	{
		InitMaterializedSRF(fcinfo, 0);
		return (Datum) 0;
	}
	d = PG_GETARG_FLOAT8(2);
	if (!isfinite(d))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_dwithin_pairs: distance must be a finite number, not %g", d)));
	if (d < 0)
	{
		InitMaterializedSRF(fcinfo, 0);
		return (Datum) 0;
	}
	return pairs_srf(fcinfo, "gx_dwithin_pairs", d);
}

/*
 * The batch pairs every line with the solids it meets (surface or volume); then the pairs' intercepts
 * (gx_pg_intercepts_run: in the GPU service, which keeps the solids indexed, or here). Every solids_query
 * row must be a solid and every lines_query row a LINESTRING.
 */
Datum
gx_intercepts_pairs(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxPgSide	a,
				b;
	GxPairIds		aid,
				bid;
	int64	   *arows,
			   *brows;
	GxBatchStats st;
	GxPairInterval *iv;
	size_t		n;

	InitMaterializedSRF(fcinfo, 0);
	if (null_argument(fcinfo, 2))
		return (Datum) 0;
	read_sides("gx_intercepts_pairs", fcinfo, &a, &b, &aid, &bid, &arows, &brows);
	for (size_t k = 0; k < b.ngeoms; k++)
	{
		const GxSerialized *h = gx_pg_side_head(&b, k, b.geoms[brows[k]]);

		if (!(h->flags & GX_FLAG_SOLID) && !(h->flags & GX_FLAG_EMPTY))
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("gx_intercepts_pairs: solids_query returned a geometry that is not a solid (id %s)",
								   id_text(&b, &bid, k)),
							errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
	}
	for (size_t k = 0; k < a.ngeoms; k++)
	{
		const GxSerialized *h = gx_pg_side_head(&a, k, a.geoms[arows[k]]);

		if (gx_body(h)->type != GX_LINESTRING)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("gx_intercepts_pairs: lines_query returned a %s, not a LINESTRING (id %s)",
								   gx_type_name(gx_body(h)->type), id_text(&a, &aid, k))));
	}
	gx_pg_intercepts_run(&a, &b, &iv, &n, &st);
	for (size_t k = 0; k < n; k++)
	{
		Datum		values[4] = {id_datum(&a, &aid, (uint32) (iv[k].key >> 32)), id_datum(&b, &bid, (uint32) iv[k].key),
		Float8GetDatum(iv[k].from), Float8GetDatum(iv[k].to)};
		bool		nulls[4] = {false, false, false, false};

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if ((k & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return (Datum) 0;
}
