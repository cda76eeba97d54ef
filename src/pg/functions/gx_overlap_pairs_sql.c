/*
 * gx_overlap_pairs_sql.c: gx_overlap_pairs(a_query, b_query [, id_type]): (a_id, b_id, volume) for every pair
 * of solids of the two queries sharing an exactly positive volume, rounded once (operation/gx_overlap_pairs.h),
 * in the GPU service where there is one (the GPU's part on the GPU where it keeps the sides there), else on this
 * backend's share of the cluster's threads; gx_intersection_pairs: (a_id, b_id, geom), the same pairs
 * with their common part as a solid (operation/gx_boolean.h), built on this backend's threads from the solids'
 * indexes, ROUND_PAIRS per thread at a time, each stored (packed, compressed) where it was made as
 * gx_makesolids stores its solids; the backend puts them in the result in order. The queries are read as the
 * other pair functions' are (gx_pairs_srf.h: READ ONLY, ids, SRIDs); every geometry must be a solid or EMPTY.
 * Memory: no triangle may be cut past what work_mem holds, as in gx_intersection_volume.
 */
#include "postgres.h"
#include "access/toast_compression.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "functions/gx_makesolids.h"
#include "functions/gx_overlay_sql.h"
#include "functions/gx_pairs_srf.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "operation/gx_boolean.h"
#include "operation/gx_overlap_pairs.h"
#include "service/gx_service.h"

PG_FUNCTION_INFO_V1(gx_overlap_pairs_sql);
PG_FUNCTION_INFO_V1(gx_intersection_pairs_sql);

#define ROUND_PAIRS 16			/* common parts made per thread before they go into the result */

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
 * The common parts of pairs[0 .. n) as solids into made[0 .. n), on the threads: each from the solids' indexes
 * (sa, sb), with a's SRID (srids), under gx_alloc_plain, stored where it was made. Nothing here raises: a cancel
 * leaves the rest unmade.
 */
static void
make_common_parts(const GxSolidIndex *sa, const GxSolidIndex *sb, const int32 *srids, const GxOverlapPair *pairs,
				  size_t n, const GxBatchOptions *opt, GxMade *made)
{
	GxOverlayOptions ov = {gx_overlay_max_cuts(), &opt->cancel, false, 0, NULL};
	char		method = (char) default_toast_compression;
	int			threads = gx_threads_begin(opt->threads, opt->thread_budget);

	#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
	for (size_t k = 0; k < n; k++)
	{
		GxSerialized *s;
		size_t		size;

		if (gx_cancel_requested(&opt->cancel))
			continue;
		gx_alloc_plain(true);
		s = gx_boolean_of_indexes(&sa[pairs[k].a], &sb[pairs[k].b], GX_BOOL_INTERSECTION, srids[pairs[k].a], &ov,
								  &size, &made[k].err);
		if (s != NULL)
			gx_made_store(s, size, method, &made[k]);
		gx_alloc_plain(false);
	}
	gx_threads_end();
}

/*
 * The pairs' common parts into the result, made a round at a time; an ERROR naming the first pair (in order)
 * whose part could not be made.
 */
static void
put_common_parts(const char *fname, ReturnSetInfo *rsinfo, const GxPgSide *a, const GxPgSide *b,
				 const GxPairIds *aid, const GxPairIds *bid, const GxSolidIndex *sa, const GxSolidIndex *sb,
				 const GxOverlapPair *pairs, size_t npairs, const GxBatchOptions *opt)
{
	size_t		round = ROUND_PAIRS * (size_t) Max(1, opt->threads > 0 ? Min(opt->threads, gx_threads_cores()) :
												   gx_threads_cores());
	GxMade	   *made = palloc0(Min(round, Max(npairs, 1)) * sizeof(GxMade));
	MemoryContext row = AllocSetContextCreate(CurrentMemoryContext, "gx_intersection_pairs row",
											  ALLOCSET_DEFAULT_SIZES);

	for (size_t from = 0; from < npairs; from += round)
	{
		size_t		n = Min(round, npairs - from);

		memset(made, 0, n * sizeof(GxMade));
		PG_TRY();
		{
			make_common_parts(sa, sb, a->srids, pairs + from, n, opt, made);
			CHECK_FOR_INTERRUPTS();
			for (size_t k = 0; k < n; k++)
			{
				const GxOverlapPair *p = &pairs[from + k];
				Datum		values[3];
				bool		nulls[3] = {false, false, false};
				MemoryContext was;

				if (made[k].value == NULL)
				{
					char	   *pair = psprintf("%s: the pair (a_id %s, b_id %s)", fname,
												gx_pair_ids_text(aid, a->ids[p->a]), gx_pair_ids_text(bid, b->ids[p->b]));

					if (made[k].too_large)
						gx_made_raise(&made[k], psprintf("%s: ", pair));
					gx_overlay_raise(pair, &made[k].err);
				}
				was = MemoryContextSwitchTo(row);
				values[0] = gx_pair_ids_datum(aid, a->ids[p->a]);
				values[1] = gx_pair_ids_datum(bid, b->ids[p->b]);
				values[2] = PointerGetDatum(made[k].value);
				MemoryContextSwitchTo(was);
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
				MemoryContextReset(row);
			}
		}
		PG_FINALLY();
		{
			gx_made_free(made, n);
		}
		PG_END_TRY();
	}
	MemoryContextDelete(row);
	pfree(made);
}

/*
 * The solids of side s (read from the query rows rows) that the pairs use on their side `which` (0: a, 1: b),
 * as a side of their own, sub, in the current context, its geometry j the pairs' j-th solid of s in order
 * with its id; the pairs renumbered to it. The common parts that the GPU service's pairs ask for are made
 * from these alone: 163 ore bodies flattened here rather than the 2 000 of the query.
 */
static void
pairs_side(const GxPgSide *s, const int64 *rows, GxOverlapPair *pairs, size_t npairs, int which, GxPgSide *sub)
{
	uint32	   *to = palloc0(Max(s->ngeoms, 1) * sizeof(uint32));	/* 1 + its number in sub, 0: not used */
	Datum	   *geoms;
	bool	   *present;
	uint32		m = 0;

	for (size_t i = 0; i < npairs; i++)
		to[which ? pairs[i].b : pairs[i].a] = 1;
	for (size_t k = 0; k < s->ngeoms; k++)
		if (to[k])
			to[k] = ++m;
	geoms = palloc(Max(m, 1) * sizeof(Datum));
	present = palloc(Max(m, 1) * sizeof(bool));
	for (size_t k = 0; k < s->ngeoms; k++)
		if (to[k])
		{
			geoms[to[k] - 1] = s->geoms[rows[k]];
			present[to[k] - 1] = true;
		}
	gx_pg_side_prepare(sub, geoms, present, NULL, m, CurrentMemoryContext);
	for (size_t k = 0; k < s->ngeoms; k++)
		if (to[k])
			sub->ids[to[k] - 1] = s->ids[k];
	for (size_t i = 0; i < npairs; i++)
	{
		if (which)
			pairs[i].b = to[pairs[i].b] - 1;
		else
			pairs[i].a = to[pairs[i].a] - 1;
	}
	pfree(to);
}

/* gx_overlap_pairs, or with geoms gx_intersection_pairs. */
static Datum
overlap_pairs(FunctionCallInfo fcinfo, const char *fname, bool geoms)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxPgSide	a,
				b,
				pa,
				pb;
	GxPgSide   *ga = &a,		/* the sides the common parts are made from */
			   *gb = &b;
	GxPairIds	aid,
				bid;
	int64	   *arows,
			   *brows;
	GxBatchOptions opt;
	GxOverlapPair *pairs = NULL;
	size_t		npairs = 0;
	GxSolidIndex *built[2] = {NULL, NULL};
	const GxSolidIndex *sa = NULL,
			   *sb = NULL;
	GxError		err = {GX_OK, ""};
	char		why[256];
	volatile bool ok = false;
	bool		in_service;
	GxSolidIndex *volatile held[2] = {NULL, NULL};

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
	}
	else if (geoms && npairs > 0)
	{
		pairs_side(&a, arows, pairs, npairs, 0, &pa);
		pairs_side(&b, brows, pairs, npairs, 1, &pb);
		gx_pg_side_materialize(ga = &pa);
		gx_pg_side_materialize(gb = &pb);
		gx_pg_side_index(ga);
		gx_pg_side_index(gb);
	}
	if (!in_service)
	{
		/* every solid's index (the cache's, or made now), for the volumes and then the common parts */
		gx_threads_begin(opt.threads, opt.thread_budget);
		PG_TRY();
		{
			ok = (sa = gx_side_solids(&a.side, NULL, &opt, &built[0], &err)) != NULL;
			held[0] = built[0];
			ok = ok && (sb = gx_side_solids(&b.side, NULL, &opt, &built[1], &err)) != NULL;
			held[1] = built[1];
			ok = ok && gx_overlap_pairs_of_indexes(&a.side, sa, &b.side, sb, &opt, gx_overlay_max_cuts(), &pairs,
												   &npairs, NULL, &err);
		}
		PG_FINALLY();
		{
			gx_threads_end();
			for (int k = 0; k < 2 && !ok; k++)
				if (held[k])
				{
					gx_side_solids_free(held[k], (k ? &b : &a)->side.ngeoms);
					held[k] = NULL;
				}
		}
		PG_END_TRY();
		if (!ok)
			gx_overlay_raise(fname, &err);
	}
	PG_TRY();
	{
		if (geoms && npairs > 0)
		{
			if (in_service)
			{
				/* the indexes of the pairs' solids (the cache's, or made now), kept for the common parts */
				bool	   *needed[2] = {palloc0(Max(ga->ngeoms, 1) * sizeof(bool)),
				palloc0(Max(gb->ngeoms, 1) * sizeof(bool))};

				for (size_t i = 0; i < npairs; i++)
					needed[0][pairs[i].a] = needed[1][pairs[i].b] = true;
				gx_threads_begin(opt.threads, opt.thread_budget);
				ok = (sa = gx_side_solids(&ga->side, needed[0], &opt, &built[0], &err)) != NULL;
				held[0] = built[0];
				ok = ok && (sb = gx_side_solids(&gb->side, needed[1], &opt, &built[1], &err)) != NULL;
				held[1] = built[1];
				gx_threads_end();
				if (!ok)
					gx_overlay_raise(fname, &err);
			}
			put_common_parts(fname, rsinfo, ga, gb, &aid, &bid, sa, sb, pairs, npairs, &opt);
		}
		else if (!geoms)
		{
			MemoryContext row = AllocSetContextCreate(CurrentMemoryContext, "gx_overlap_pairs row",
													  ALLOCSET_DEFAULT_SIZES),
						was;

			for (size_t i = 0; i < npairs; i++)
			{
				Datum		values[3];
				bool		nulls[3] = {false, false, false};

				was = MemoryContextSwitchTo(row);
				values[0] = gx_pair_ids_datum(&aid, a.ids[pairs[i].a]);
				values[1] = gx_pair_ids_datum(&bid, b.ids[pairs[i].b]);
				values[2] = Float8GetDatum(pairs[i].volume);
				MemoryContextSwitchTo(was);
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
				MemoryContextReset(row);
				if ((i & 0xFFFF) == 0)
					CHECK_FOR_INTERRUPTS();
			}
		}
	}
	PG_FINALLY();
	{
		if (in_service)
			pfree(pairs);
		else
			free(pairs);
		if (held[0])
			gx_side_solids_free(held[0], ga->side.ngeoms);
		if (held[1])
			gx_side_solids_free(held[1], gb->side.ngeoms);
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
