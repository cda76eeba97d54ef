/*
 * gx_volume_sql.c: volumes and areas in SQL: gx_volume(solid), gx_volume(solid, box), gx_area(geom), the
 * gx_extent aggregate, and gx_volume_pairs(boxes_query, solids_query), the block model's proportions: the
 * volume of every block inside every solid, exact then rounded once (src/core/operation/gx_volume.h).
 */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "algorithm/gx_measure.h"
#include "base/gx_threads.h"
#include "geom/gx_box.h"
#include "functions/gx_pair_ids.h"
#include "functions/gx_query_rows.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "batch/gx_pg_cache.h"
#include "operation/gx_volume.h"
#include "service/gx_service.h"
#include "type/gx_box3d.h"

PG_FUNCTION_INFO_V1(gx_volume_sql);
PG_FUNCTION_INFO_V1(gx_volume_box_sql);
PG_FUNCTION_INFO_V1(gx_area_sql);
PG_FUNCTION_INFO_V1(gx_extent_add);
PG_FUNCTION_INFO_V1(gx_extent_combine);
PG_FUNCTION_INFO_V1(gx_volume_pairs_sql);

/* Solids and EMPTY have a volume; any other geometry is refused. */
static inline bool
has_volume(const GxSerialized *g)
{
	return (g->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)) != 0;
}

/* 22023 with msg, and the hint that makes a solid. */
static void
raise_not_solid(const char *msg)
{
	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", msg),
					errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
}

/* gx_volume's first argument. */
static void
check_solid_arg(const GxSerialized *g)
{
	if (!has_volume(g))
		raise_not_solid(psprintf("gx_volume: a %s that is not a solid has no volume", gx_type_name(gx_body(g)->type)));
}

Datum
gx_volume_sql(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	GxError		err = {GX_OK, ""};
	double		v;

	check_solid_arg(g);
	if (!gx_volume(g, &v, &err))
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	PG_RETURN_FLOAT8(v);
}

Datum
gx_volume_box_sql(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	GxBox3D    *box = PG_GETARG_GXBOX3D_P(1);
	GxError		err = {GX_OK, ""};
	double		v;

	check_solid_arg(g);
	if (gx_box_is_empty(box))
		PG_RETURN_FLOAT8(0);
	if (!gx_volume_in_box(g, NULL, box, &v, &err))
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	PG_RETURN_FLOAT8(v);
}

Datum
gx_area_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(gx_geom_area(PG_GETARG_GXGEOM(0)));
}

/* gx_extent's transition: the state box grown by the geometry's (cached in its header); NULL until a box. */
Datum
gx_extent_add(PG_FUNCTION_ARGS)
{
	GxBox3D		box,
			   *state;

	if (PG_ARGISNULL(1) || !gx_datum_get_box(PG_GETARG_DATUM(1), &box))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if (PG_ARGISNULL(0))
	{
		state = palloc(sizeof(GxBox3D));
		*state = box;
		PG_RETURN_POINTER(state);
	}
	if (AggCheckCallContext(fcinfo, NULL))
		state = PG_GETARG_GXBOX3D_P(0);		/* the aggregate's own copy: grown in place */
	else
	{
		state = palloc(sizeof(GxBox3D));
		*state = *PG_GETARG_GXBOX3D_P(0);
	}
	gx_box_extend(state, &box);
	PG_RETURN_POINTER(state);
}

/* gx_extent's combine (parallel aggregation): the union of two partial boxes (STRICT: a NULL side is skipped). */
Datum
gx_extent_combine(PG_FUNCTION_ARGS)
{
	GxBox3D    *out = palloc(sizeof(GxBox3D));

	*out = *PG_GETARG_GXBOX3D_P(0);
	gx_box_extend(out, PG_GETARG_GXBOX3D_P(1));
	PG_RETURN_POINTER(out);
}

/*
 * The volumes in the GPU service: the solids as batch side s (keyed by their TOAST identities, so that the
 * service keeps them, indexed and on the GPU), the boxes as a side of their diagonals. false when the
 * service cannot (this backend computes them).
 */
static bool
service_volumes(const GxBox3D *bx, size_t nb, GxPgSide *s, const GxBatchOptions *opt, GxVolumePair **out,
				size_t *n)
{
	GxPgSide	boxes;
	GxError		err = {GX_OK, ""};
	char		why[256];

	if (!gx_service_started() || opt->device == GX_DEVICE_CPU)
		return false;
	gx_pg_side_init(&boxes);
	boxes.built = true;
	boxes.cxt = CurrentMemoryContext;
	if (!gx_batch_side_of_boxes(&boxes.side, bx, nb, &err))
		gx_pg_raise(&err, ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	boxes.ngeoms = nb;
	return gx_service_volumes(&boxes, s, opt, out, n, why, sizeof(why));
}

/*
 * The volumes here, on side s: the solids' indexes kept with it when the backend's cache holds it, else made
 * for this call (in this backend's memory, on the cluster's thread budget); *out palloc'd.
 */
static void
local_volumes(const GxBox3D *bx, size_t nb, GxPgSide *s, const GxBatchOptions *opt, GxVolumePair **out, size_t *n)
{
	GxVolumePair *pairs;
	GxError		err = {GX_OK, ""};
	volatile bool ok = false;

	gx_pg_side_materialize(s);
	gx_pg_side_index(s);
	gx_threads_begin(opt->threads, opt->thread_budget);
	PG_TRY();
	{
		ok = gx_volume_pairs_of_side(bx, nb, &s->side, opt, &pairs, n, &err);
	}
	PG_FINALLY();
	{
		gx_threads_end();
	}
	PG_END_TRY();
	if (!ok)
	{
		if (err.code == GX_ERR_CANCELLED)
		{
			CHECK_FOR_INTERRUPTS();
			ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gx_volume_pairs due to user request")));
		}
		gx_pg_raise(&err, ERRCODE_OUT_OF_MEMORY);
	}
	*out = palloc_extended(Max(*n, 1) * sizeof(GxVolumePair), MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	if (*out && *n)
		memcpy(*out, pairs, *n * sizeof(GxVolumePair));
	free(pairs);
	if (*out == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory for the volumes of %zu blocks", nb)));
}

/*
 * gx_volume_pairs(boxes_query, solids_query): (a_id, b_id, volume) for every box of the first query that
 * shares a positive volume with a solid of the second, in (a_id row, b_id row) order. Both queries run as
 * in a READ ONLY transaction, as the other pair functions' do.
 */
Datum
gx_volume_pairs_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *boxes_query,
			   *solids_query;
	MemoryContext keep = CurrentMemoryContext;
	GxQueryRows boxes,
				solids;
	GxBox3D    *bx;
	GxBatchOptions opt;
	GxPgSide	side;
	GxVolumePair *pairs;
	size_t		npairs,
				nb = 0;

	InitMaterializedSRF(fcinfo, 0);
	/* the variant given an id type is not STRICT (the type comes as a NULL of it) */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum) 0;
	boxes_query = text_to_cstring(PG_GETARG_TEXT_PP(0));
	solids_query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	gx_query_rows_read(boxes_query, "gx_volume_pairs", "boxes_query", gx_query_rows_type(fcinfo, "gxbox3d"), "box",
					   gx_pair_ids_result_type(fcinfo), true, keep, &boxes);
	gx_query_rows_read(solids_query, "gx_volume_pairs", "solids_query", gx_query_rows_type(fcinfo, "gxgeom"), "geom",
					   gx_pair_ids_result_type(fcinfo), true, keep, &solids);

	/* the boxes, EMPTY ones left out (they hold no volume; gxbox3d's input refuses any other infinite bound) */
	bx = palloc(Max(boxes.n, 1) * sizeof(GxBox3D));
	for (size_t i = 0; i < boxes.n; i++)
	{
		GxBox3D    *b = DatumGetGxBox3DP(boxes.values[i]);

		if (gx_box_is_empty(b))
			continue;
		boxes.ids[nb] = boxes.ids[i];
		bx[nb++] = *b;
	}
	/* the solids as a batch side (for the service); every geometry a solid or EMPTY, by its header alone */
	gx_pg_side_prepare(&side, solids.values, solids.present, solids.xmins, solids.n, CurrentMemoryContext);
	for (size_t k = 0; k < solids.n; k++)
		if (!has_volume(gx_pg_side_head(&side, k, solids.values[k])))
			raise_not_solid(psprintf("gx_volume_pairs: solids_query returned a geometry that is not a solid (id %s)",
									 gx_pair_ids_text(&solids.id, solids.ids[k])));
	gx_settings_batch_options(&opt);
	if (!service_volumes(bx, nb, &side, &opt, &pairs, &npairs))
		local_volumes(bx, nb, &side, &opt, &pairs, &npairs);
	PG_TRY();
	{
		for (size_t i = 0; i < npairs; i++)
		{
			Datum		values[3] = {gx_pair_ids_datum(&boxes.id, boxes.ids[pairs[i].a]),
				gx_pair_ids_datum(&solids.id, solids.ids[pairs[i].b]),
			Float8GetDatum(pairs[i].volume)};
			bool		nulls[3] = {false, false, false};

			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			if ((i & 0xFFFF) == 0)
				CHECK_FOR_INTERRUPTS();
		}
	}
	PG_FINALLY();
	{
		pfree(pairs);
	}
	PG_END_TRY();
	return (Datum) 0;
}
