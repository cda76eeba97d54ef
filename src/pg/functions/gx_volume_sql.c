/*
 * gx_volume_sql.c: volumes and areas in SQL: gx_volume(solid), gx_volume(solid, box), gx_area(geom), the
 * gx_extent aggregate, and gx_volume_pairs(boxes_query, solids_query), the block model's proportions: the
 * volume of every block inside every solid, exact then rounded once (src/core/operation/gx_volume.h).
 */
#include "postgres.h"
#include "fmgr.h"
#include "executor/executor.h"
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
#include "batch/gx_pg_table.h"
#include "batch/gx_side_index.h"
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
 * Where the boxes come from, a chunk of gpuexact.join_batch_rows rows at a time: the values kept with a
 * whole table (gx_pg_table.h) when boxes_query is a plain scan of one (its rows then read once, and never
 * again while the table stays as it is), else the query's cursor.
 */
typedef struct Boxes
{
	GxQueryCursor *cursor;
	GxPgTable	table;
	bool		kept;			/* from the table's kept columns */
	size_t		next;			/* the table's next row */
	size_t		chunk;			/* rows in a chunk */
	GxBatchSide side;			/* the chunks' boxes as a side, when sent, made again in the same arrays */
	MemoryContext cxt;			/* where those arrays are */
} Boxes;

/*
 * A chunk of boxes: those not EMPTY (they hold no volume; gxbox3d's input refuses other infinite bounds)
 * nor NULL, with their ids. From a kept table, rows [from, from + rows) of it, whose boxes are copied only
 * when needed (chunk_boxes): the GPU service may hold them already.
 */
typedef struct BoxChunk
{
	GxBox3D    *bx;				/* NULL until made */
	int64	   *ids;
	size_t		n;
	const GxPairIds *id;		/* the ids' conversion */
	Boxes	   *src;
	const Boxes *kept;			/* the table's, or NULL */
	size_t		from,
				rows;
} BoxChunk;

/* The chunk's boxes, copied from the kept table's the first time. */
static const GxBox3D *
chunk_boxes(BoxChunk *c)
{
	const Datum *box;
	const bool *null;
	size_t		k = 0;

	if (c->bx)
		return c->bx;
	box = c->kept->table.col_values[1] + c->from;
	null = c->kept->table.col_nulls[1] + c->from;
	c->bx = palloc_extended(Max(c->n, 1) * sizeof(GxBox3D), MCXT_ALLOC_HUGE);
	for (size_t i = 0; i < c->rows; i++)
		if (!null[i] && !gx_box_is_empty(DatumGetGxBox3DP(box[i])))
			c->bx[k++] = *DatumGetGxBox3DP(box[i]);
	Assert(k == c->n);
	return c->bx;
}

/*
 * GxPgSide.make of a chunk's boxes: the side of their diagonals, in the arrays of the chunk before (no new
 * memory to fault in for each chunk).
 */
static void
make_box_side(GxPgSide *s, void *arg)
{
	BoxChunk   *c = arg;
	GxBatchSide *side = &c->src->side;
	GxError		err = {GX_OK, ""};
	MemoryContext old = MemoryContextSwitchTo(c->src->cxt);
	bool		ok;

	side->n = side->ngeoms = 0;
	ok = gx_batch_side_of_boxes(side, chunk_boxes(c), c->n, &err);
	MemoryContextSwitchTo(old);
	if (!ok)
		gx_pg_raise(&err, ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	s->side = *side;
}

/*
 * The volumes in the GPU service: the solids as batch side s (keyed by their TOAST identities, so that the
 * service keeps them, indexed and on the GPU), the boxes as a side of their diagonals. A chunk of a kept
 * table is named by the table's state, the chunk's first row and its number of rows: the service keeps it
 * too, for every session, and a later call sends nothing but that name. false when the service cannot (this
 * backend computes them).
 */
static bool
service_volumes(BoxChunk *c, GxPgSide *s, const GxBatchOptions *opt, GxVolumePair **out, size_t *n)
{
	GxPgSide	boxes;
	GxCacheKey	keys[3];
	char		why[256];

	if (!gx_service_started() || opt->device == GX_DEVICE_CPU)
		return false;
	gx_pg_side_init(&boxes);
	boxes.cxt = CurrentMemoryContext;
	boxes.ngeoms = c->n;
	boxes.make = make_box_side;
	boxes.make_arg = c;
	if (c->kept)
	{
		memcpy(keys, gx_pg_table_key(&c->kept->table), 2 * sizeof(GxCacheKey));
		keys[2] = (GxCacheKey) {{(uint32) c->from, (uint32) ((uint64) c->from >> 32), (uint32) c->rows,
			(uint32) ((uint64) c->rows >> 32)}};
		boxes.skeys = keys;
		boxes.nskeys = 3;
	}
	return gx_service_volumes(&boxes, s, opt, out, n, why, sizeof(why));
}

/*
 * The volumes here, on side s: the solids' indexes kept with it when the backend's cache holds it, else made
 * once for the call into *own (in s's context; the caller frees it); *out palloc'd.
 */
static void
local_volumes(BoxChunk *c, GxPgSide *s, const GxBatchOptions *opt, bool *own, GxVolumePair **out, size_t *n)
{
	const GxBox3D *bx = chunk_boxes(c);
	size_t		nb = c->n;
	GxVolumePair *pairs;
	GxError		err = {GX_OK, ""};
	volatile bool ok = false;

	gx_pg_side_materialize(s);
	gx_pg_side_index(s);
	gx_threads_begin(opt->threads, opt->thread_budget);
	PG_TRY();
	{
		MemoryContext old = MemoryContextSwitchTo(s->cxt);

		ok = true;
		if (s->side.index == NULL && s->side.n > 0)
			ok = *own = gx_side_index_build(&s->side, &err);
		MemoryContextSwitchTo(old);
		ok = ok && gx_volume_pairs_of_side(bx, nb, &s->side, opt, &pairs, n, &err);
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

static void
boxes_open(Boxes *b, const char *query, FunctionCallInfo fcinfo, MemoryContext keep)
{
	PlanState  *plan;
	Bitmapset  *both = bms_add_member(bms_make_singleton(1), 2);

	memset(b, 0, sizeof(*b));
	b->chunk = (size_t) gx_join_batch_rows;
	gx_batch_side_init(&b->side);
	b->cxt = keep;
	b->cursor = gx_query_cursor_open(query, "gx_volume_pairs", "boxes_query", gx_query_rows_type(fcinfo, "gxbox3d"),
									 "box", gx_pair_ids_result_type(fcinfo), true, keep);
	plan = gx_query_cursor_plan(b->cursor);
	/* ids kept with a table are of a type passed by value (integers): no table is read for others */
	if (plan == NULL || !TupleDescAttr(ExecGetResultType(plan), 0)->attbyval)
		return;
	gx_pg_table_of_plan(&b->table, plan, 2, false);
	b->kept = gx_pg_table_rows(&b->table, both, keep);
}

/* The next chunk of boxes, in the current memory context; false at the end. */
static bool
boxes_next(Boxes *b, MemoryContext cxt, BoxChunk *c)
{
	const GxQueryRows *r;

	memset(c, 0, sizeof(*c));
	c->src = b;
	if (b->kept)
	{
		const Datum *id = b->table.col_values[0] + b->next,
				   *box = b->table.col_values[1] + b->next;
		const bool *idnull = b->table.col_nulls[0] + b->next,
				   *boxnull = b->table.col_nulls[1] + b->next;
		GxPairIds  *ids = gx_query_cursor_ids(b->cursor);

		if (b->next == b->table.nrows)
			return false;
		CHECK_FOR_INTERRUPTS();
		c->kept = b;
		c->from = b->next;
		c->rows = Min(b->chunk, b->table.nrows - b->next);
		b->next += c->rows;
		c->ids = palloc_extended(Max(c->rows, 1) * sizeof(int64), MCXT_ALLOC_HUGE);
		c->id = ids;
		gx_pair_ids_restart(ids);
		for (size_t i = 0; i < c->rows; i++)
		{
			if (idnull[i])
				ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
								errmsg("gx_volume_pairs: boxes_query returned a NULL id")));
			if (boxnull[i] || gx_box_is_empty(DatumGetGxBox3DP(box[i])))
				continue;
			c->ids[c->n] = gx_pair_ids_add(ids, id[i], c->n, cxt);
			c->n++;
		}
		return true;
	}
	if ((r = gx_query_cursor_fetch(b->cursor, b->chunk, cxt)) == NULL)
		return false;
	c->bx = palloc_extended(Max(r->n, 1) * sizeof(GxBox3D), MCXT_ALLOC_HUGE);
	c->ids = r->ids;
	c->id = &r->id;
	for (size_t i = 0; i < r->n; i++)
	{
		GxBox3D    *box = DatumGetGxBox3DP(r->values[i]);

		if (gx_box_is_empty(box))
			continue;
		c->ids[c->n] = r->ids[i];
		c->bx[c->n++] = *box;
	}
	return true;
}

/*
 * gx_volume_pairs(boxes_query, solids_query): (a_id, b_id, volume) for every box of the first query that
 * shares a positive volume with a solid of the second, in (a_id row, b_id row) order. Both queries run as
 * in a READ ONLY transaction, as the other pair functions' do. The solids are read whole, the boxes a chunk
 * at a time (Boxes), each chunk's volumes computed (in the GPU service, or here) and returned before the next
 * is read: memory is bounded by the chunk, whatever the number of boxes.
 */
Datum
gx_volume_pairs_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *boxes_query,
			   *solids_query;
	MemoryContext keep = CurrentMemoryContext,
				chunk_cxt;
	GxQueryRows solids;
	Boxes		boxes;
	BoxChunk	c;
	GxBatchOptions opt;
	GxPgSide	side;
	volatile bool own_index = false;

	InitMaterializedSRF(fcinfo, 0);
	/* the variant given an id type is not STRICT (the type comes as a NULL of it) */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum) 0;
	boxes_query = text_to_cstring(PG_GETARG_TEXT_PP(0));
	solids_query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	boxes_open(&boxes, boxes_query, fcinfo, keep);
	gx_query_rows_read(solids_query, "gx_volume_pairs", "solids_query", gx_query_rows_type(fcinfo, "gxgeom"), "geom",
					   gx_pair_ids_result_type(fcinfo), true, keep, &solids);
	/* the solids as a batch side (for the service); every geometry a solid or EMPTY, by its header alone */
	gx_pg_side_prepare(&side, solids.values, solids.present, solids.xmins, solids.n, keep);
	for (size_t k = 0; k < solids.n; k++)
		if (!has_volume(gx_pg_side_head(&side, k, solids.values[k])))
			raise_not_solid(psprintf("gx_volume_pairs: solids_query returned a geometry that is not a solid (id %s)",
									 gx_pair_ids_text(&solids.id, solids.ids[k])));
	gx_settings_batch_options(&opt);
	chunk_cxt = AllocSetContextCreate(keep, "gx_volume_pairs chunk", ALLOCSET_DEFAULT_SIZES);
	PG_TRY();
	{
		MemoryContext old = MemoryContextSwitchTo(chunk_cxt);

		while (boxes_next(&boxes, chunk_cxt, &c))
		{
			GxVolumePair *pairs;
			size_t		npairs;

			if (!service_volumes(&c, &side, &opt, &pairs, &npairs))
				local_volumes(&c, &side, &opt, (bool *) &own_index, &pairs, &npairs);
			for (size_t i = 0; i < npairs; i++)
			{
				Datum		values[3] = {gx_pair_ids_datum(c.id, c.ids[pairs[i].a]),
					gx_pair_ids_datum(&solids.id, solids.ids[pairs[i].b]),
				Float8GetDatum(pairs[i].volume)};
				bool		nulls[3] = {false, false, false};

				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
				if ((i & 0xFFFF) == 0)
					CHECK_FOR_INTERRUPTS();
			}
			MemoryContextReset(chunk_cxt);
		}
		MemoryContextSwitchTo(old);
	}
	PG_FINALLY();
	{
		if (own_index)
			gx_side_index_free(&side.side);
	}
	PG_END_TRY();
	gx_query_cursor_close(boxes.cursor);
	MemoryContextDelete(chunk_cxt);
	return (Datum) 0;
}
