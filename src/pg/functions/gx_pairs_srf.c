/*
 * gx_pairs_srf.c: gx_intersecting_pairs(a_query, b_query): reads both sides through SPI (caller's
 * privileges; gx_query_rows.h), runs one batch, returns (a_id, b_id) of intersecting rows;
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

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "batch/gx_pg_batch.h"
#include "functions/gx_pair_ids.h"
#include "functions/gx_pairs_srf.h"
#include "functions/gx_query_rows.h"
#include "gx_pg.h"
#include "operation/gx_intercepts.h"

PG_FUNCTION_INFO_V1(gx_intersecting_pairs);
PG_FUNCTION_INFO_V1(gx_dwithin_pairs);
PG_FUNCTION_INFO_V1(gx_intercepts_pairs);

/*
 * Runs query and makes its rows side s (allocated in context keep, cached sides pinned until it is reset),
 * its ids in *sid. *rows (if not NULL) gets each geometry's row position.
 */
static void
read_side(const char *query, const char *fname, const char *which, Oid geomtype, Oid want, GxPgSide *s,
		  GxPairIds *sid, MemoryContext keep, int64 **rows)
{
	GxQueryRows r;
	MemoryContext old;

	gx_query_rows_read(query, fname, which, geomtype, "geom", want, false, keep, &r);
	*sid = r.id;
	old = MemoryContextSwitchTo(keep);
	gx_pg_side_prepare(s, r.values, r.present, r.xmins, r.n, keep);
	MemoryContextSwitchTo(old);
	if (rows)
	{
		*rows = MemoryContextAlloc(keep, Max(s->ngeoms, 1) * sizeof(int64));
		memcpy(*rows, s->ids, s->ngeoms * sizeof(int64));
	}
	/* the side numbers rows by position: give them the query's ids */
	for (size_t k = 0; k < s->ngeoms; k++)
		s->ids[k] = r.ids[s->ids[k]];
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

/* Where a side's SRIDs were first seen: geometry at of SRID srid, then one of another SRID, one of SRID 0. */
typedef struct SridsSeen
{
	int32		srid,
				other;
	size_t		at,
				other_at,
				unknown_at;
	bool		unknown;
} SridsSeen;

static SridsSeen
srids_seen(const GxPgSide *s, const int64 *rows)
{
	SridsSeen	v = {0};

	for (size_t k = 0; k < s->ngeoms; k++)
	{
		int32		srid = gx_pg_side_head(s, k, s->geoms[rows[k]])->srid;

		if (srid == 0 && !v.unknown)
			v.unknown = true, v.unknown_at = k;
		else if (srid != 0 && v.srid == 0)
			v.srid = srid, v.at = k;
		else if (srid != 0 && srid != v.srid && v.other == 0)
			v.other = srid, v.other_at = k;
	}
	return v;
}

/*
 * The batch refuses two sides whose geometries have different known SRIDs (or, under
 * gpuexact.strict_srid, SRID 0 against a known one): the ERROR names two of those geometries by their rows'
 * ids, and which query each came from.
 */
static void
check_srids(const char *fname, const GxPgSide *a, const GxPairIds *aid, const int64 *arows, const GxPgSide *b,
			const GxPairIds *bid, const int64 *brows, bool lines)
{
	SridsSeen	sa = srids_seen(a, arows),
				sb = srids_seen(b, brows);
	const char *qa = lines ? "lines_query" : "a_query",
			   *qb = lines ? "solids_query" : "b_query";
	const char *q[2] = {qa, qb};
	int32		srid[2];
	char	   *id[2];
	int			side[2] = {0, 1};

	if (gx_strict_srid && sa.unknown && sb.srid != 0)
		srid[0] = 0, id[0] = id_text(a, aid, sa.unknown_at), srid[1] = sb.srid, id[1] = id_text(b, bid, sb.at);
	else if (gx_strict_srid && sb.unknown && sa.srid != 0)
		srid[0] = sa.srid, id[0] = id_text(a, aid, sa.at), srid[1] = 0, id[1] = id_text(b, bid, sb.unknown_at);
	else if (sa.srid == 0 || sb.srid == 0)
		return;
	else if (sa.srid != sb.srid)
		srid[0] = sa.srid, id[0] = id_text(a, aid, sa.at), srid[1] = sb.srid, id[1] = id_text(b, bid, sb.at);
	else if (sa.other != 0)
		srid[0] = sa.srid, id[0] = id_text(a, aid, sa.at), srid[1] = sa.other, id[1] = id_text(a, aid, sa.other_at),
			side[1] = 0;
	else if (sb.other != 0)
		srid[0] = sb.srid, id[0] = id_text(b, bid, sb.at), srid[1] = sb.other, id[1] = id_text(b, bid, sb.other_at),
			side[0] = 1;
	else
		return;
	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("%s: operation on mixed SRID geometries: SRID %d (%s, id %s) and SRID %d (%s, id %s)", fname,
						   (int) srid[0], q[side[0]], id[0], (int) srid[1], q[side[1]], id[1])));
}

/* gx_pairs_srf.h */
void
gx_pairs_read_sides(const char *fname, FunctionCallInfo fcinfo, GxPgSide *a, GxPgSide *b, GxPairIds *aid,
					GxPairIds *bid, int64 **arows, int64 **brows, bool lines)
{
	char	   *a_query = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *b_query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	Oid			geomtype = gx_query_rows_type(fcinfo, "gxgeom");
	MemoryContext keep = CurrentMemoryContext;

	gx_pg_side_init(a);
	gx_pg_side_init(b);
	read_side(a_query, fname, lines ? "lines_query" : "a_query", geomtype, gx_pair_ids_result_type(fcinfo), a, aid,
			  keep, arows);
	read_side(b_query, fname, lines ? "solids_query" : "b_query", geomtype, gx_pair_ids_result_type(fcinfo), b, bid,
			  keep, brows);
	check_srids(fname, a, aid, *arows, b, bid, *brows, lines);
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
	int64	   *arows,
			   *brows;
	size_t		i;

	InitMaterializedSRF(fcinfo, 0);
	if (null_argument(fcinfo, distance > 0 ? 3 : 2))
		return (Datum) 0;
	gx_pairs_read_sides(fname, fcinfo, &a, &b, &aid, &bid, &arows, &brows, false);
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
	gx_pairs_read_sides("gx_intercepts_pairs", fcinfo, &a, &b, &aid, &bid, &arows, &brows, true);
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
