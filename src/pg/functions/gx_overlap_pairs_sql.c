/*
 * gx_overlap_pairs_sql.c: gx_overlap_pairs(a_query, b_query [, id_type]): (a_id, b_id, volume) for every pair
 * of solids of the two queries sharing an exactly positive volume, rounded once (operation/gx_overlap_pairs.h),
 * in the GPU service where there is one (the GPU's part on the GPU where it keeps the sides there), else on this
 * backend's share of the cluster's threads; gx_intersection_pairs: (a_id, b_id, geom), the same pairs
 * with their common part as a solid (operation/gx_boolean.h), built one after the other in the backend. The
 * queries are read as the other pair functions' are (gx_pairs_srf.h: READ ONLY, ids, SRIDs); every geometry
 * must be a solid or EMPTY. Memory: no triangle may be cut past what work_mem holds, as in
 * gx_intersection_volume.
 */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "base/gx_threads.h"
#include "functions/gx_overlay_sql.h"
#include "functions/gx_pairs_srf.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "operation/gx_boolean.h"
#include "operation/gx_overlap_pairs.h"
#include "service/gx_service.h"

PG_FUNCTION_INFO_V1(gx_overlap_pairs_sql);
PG_FUNCTION_INFO_V1(gx_intersection_pairs_sql);

/* 22023 unless every geometry of side s (rows rows) is a solid or EMPTY. */
static void
check_solids(const char *fname, const GxPgSide *s, const GxPairIds *sid, const int64 *rows, const char *which)
{
	for (size_t k = 0; k < s->ngeoms; k++)
	{
		const GxSerialized *h = gx_pg_side_head(s, k, s->geoms[rows[k]]);

		if (!(h->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)))
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("%s: %s returned a %s that is not a solid (id %s)", fname, which,
								   gx_type_name(gx_body(h)->type), gx_pair_ids_text(sid, s->ids[k])),
							errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
	}
}

/*
 * The common part of the solids of pair p as a solid Datum; an ERROR naming the pair's ids when it cannot
 * be built.
 */
static Datum
pair_intersection(const char *fname, const GxPgSide *a, const GxPgSide *b, const GxPairIds *aid,
				  const GxPairIds *bid, const int64 *arows, const int64 *brows, const GxOverlapPair *p)
{
	GxSerialized *ga = gx_pg_geom(a->geoms[arows[p->a]]),
			   *gb = gx_pg_geom(b->geoms[brows[p->b]]),
			   *s;
	GxOverlayOptions opt;
	GxCancel	cancel;
	GxError		err = {GX_OK, ""};
	size_t		size;

	gx_overlay_options(&opt, &cancel);
	if ((s = gx_boolean_solid(ga, gb, GX_BOOL_INTERSECTION, &opt, &size, &err)) == NULL)
		gx_overlay_raise(psprintf("%s: the pair (a_id %s, b_id %s)", fname, gx_pair_ids_text(aid, a->ids[p->a]),
								  gx_pair_ids_text(bid, b->ids[p->b])), &err);
	return gx_pg_datum(s, size);
}

/* gx_overlap_pairs, or with geoms gx_intersection_pairs. */
static Datum
overlap_pairs(FunctionCallInfo fcinfo, const char *fname, bool geoms)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxPgSide	a,
				b;
	GxPairIds	aid,
				bid;
	int64	   *arows,
			   *brows;
	GxBatchOptions opt;
	GxOverlapPair *pairs = NULL;
	size_t		npairs = 0;
	GxError		err = {GX_OK, ""};
	char		why[256];
	volatile bool ok = false;
	bool		in_service;

	InitMaterializedSRF(fcinfo, 0);
	/* the variant given an id type is not STRICT (the type comes as a NULL of it) */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum) 0;
	gx_pairs_read_sides(fname, fcinfo, &a, &b, &aid, &bid, &arows, &brows, false);
	check_solids(fname, &a, &aid, arows, "a_query");
	check_solids(fname, &b, &bid, brows, "b_query");
	if (a.ngeoms == 0 || b.ngeoms == 0)
		return (Datum) 0;
	gx_settings_batch_options(&opt);
	/* in the GPU service where there is one (it keeps the sides, on the GPU too), else here */
	in_service = gx_service_overlaps(&a, &b, &opt, gx_overlay_max_cuts(), &pairs, &npairs, why, sizeof(why));
	if (!in_service)
	{
		/* the sides' arrays, and their solids' indexes where the backend's cache keeps them */
		gx_pg_side_materialize(&a);
		gx_pg_side_materialize(&b);
		gx_pg_side_index(&a);
		gx_pg_side_index(&b);
		gx_threads_begin(opt.threads, opt.thread_budget);
		PG_TRY();
		{
			ok = gx_overlap_pairs_of_sides(&a.side, &b.side, &opt, gx_overlay_max_cuts(), &pairs, &npairs, NULL,
										   &err);
		}
		PG_FINALLY();
		{
			gx_threads_end();
		}
		PG_END_TRY();
		if (!ok)
			gx_overlay_raise(fname, &err);
	}
	PG_TRY();
	{
		MemoryContext row = AllocSetContextCreate(CurrentMemoryContext, "gx_intersection_pairs row",
												  ALLOCSET_DEFAULT_SIZES),
					was;

		for (size_t i = 0; i < npairs; i++)
		{
			Datum		values[3];
			bool		nulls[3] = {false, false, false};

			was = MemoryContextSwitchTo(row);
			values[0] = gx_pair_ids_datum(&aid, a.ids[pairs[i].a]);
			values[1] = gx_pair_ids_datum(&bid, b.ids[pairs[i].b]);
			values[2] = geoms ? pair_intersection(fname, &a, &b, &aid, &bid, arows, brows, &pairs[i])
				: Float8GetDatum(pairs[i].volume);
			MemoryContextSwitchTo(was);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			MemoryContextReset(row);
			if (geoms || (i & 0xFFFF) == 0)
				CHECK_FOR_INTERRUPTS();
		}
	}
	PG_FINALLY();
	{
		if (in_service)
			pfree(pairs);
		else
			free(pairs);
	}
	PG_END_TRY();
	return (Datum) 0;
}

Datum
gx_overlap_pairs_sql(PG_FUNCTION_ARGS)
{
	return overlap_pairs(fcinfo, "gx_overlap_pairs", false);
}

Datum
gx_intersection_pairs_sql(PG_FUNCTION_ARGS)
{
	return overlap_pairs(fcinfo, "gx_intersection_pairs", true);
}
