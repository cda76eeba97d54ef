/*
 * gx_overlay_sql.c: the booleans of two solids in SQL: gx_intersection_volume(a, b), the exact volume of
 * their common part rounded once (src/core/operation/gx_overlay.h), the booleans as solids, and gx_split, a
 * solid's parts on either side of a surface. A solid stored out of line stays indexed between calls (the call
 * site's solids, gx_pg_stored_solids): a pit met by every ore body is read and indexed once. Memory: no triangle
 * may be cut by more segments and crossings than work_mem holds (about 1 kB each); cancel polls the backend's
 * flags.
 */
#include "postgres.h"
#include "access/detoast.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "base/gx_alloc.h"
#include "functions/gx_overlay_sql.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "operation/gx_boolean.h"
#include "operation/gx_split.h"
#include "type/gx_box3d.h"

PG_FUNCTION_INFO_V1(gx_intersection_volume_sql);

#define CUT_BYTES 1024			/* a segment's rationals, or a crossing's, with room for their digits */

/* 22023 unless both are solids (or EMPTY) of SRIDs that go together. */
static void
check_pair(const char *fname, const GxSerialized *a, const GxSerialized *b)
{
	const GxSerialized *g[2] = {a, b};

	if (gx_srids_conflict(a->srid, b->srid, gx_strict_srid))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("operation on mixed SRID geometries (%d and %d)", a->srid, b->srid)));
	for (int k = 0; k < 2; k++)
		if (!(g[k]->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)))
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("%s: the %s argument is a %s, not a solid", fname, k ? "second" : "first",
								   gx_type_name(gx_body(g[k])->type)),
							errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
}

/*
 * Arguments 0 and 1 into g[0], g[1], each a solid or EMPTY (or anything, for check_pair to refuse): a solid
 * stored out of line as its header alone with its index kept by the call site (index[k]), any other value whole
 * (index[k] NULL).
 */
static void
solid_args(FunctionCallInfo fcinfo, GxSerialized **g, const GxSolidIndex **index)
{
	Datum		stored[2];
	int			which[2],
				n = 0;
	const GxSolidIndex *made[2];

	for (int k = 0; k < 2; k++)
	{
		Datum		v = PG_GETARG_DATUM(k);

		index[k] = NULL;
		g[k] = NULL;
		if (VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(v)))
		{
			GxSerialized *head = gx_pg_header(v);

			if ((head->flags & GX_FLAG_SOLID) && !(head->flags & GX_FLAG_EMPTY))
			{
				g[k] = head;
				which[n] = k;
				stored[n++] = v;
			}
		}
	}
	if (n > 0)
		gx_pg_stored_solids(fcinfo, stored, n, made);
	for (int j = 0; j < n; j++)
		index[which[j]] = made[j];
	for (int k = 0; k < 2; k++)
		if (g[k] == NULL)
			g[k] = PG_GETARG_GXGEOM(k);
}

/* gx_overlay_sql.h */
size_t
gx_overlay_max_cuts(void)
{
	return (size_t) work_mem * 1024 / CUT_BYTES;
}

/* gx_overlay_sql.h */
void
gx_overlay_options(GxOverlayOptions *opt, GxCancel *cancel)
{
	GxBatchOptions bo;

	/* the threads and the cluster's budget of the batches (gpuexact.cpu_threads) */
	gx_settings_batch_options(&bo);
	cancel->flag[0] = (volatile const int *) &QueryCancelPending;
	cancel->flag[1] = (volatile const int *) &ProcDiePending;
	opt->max_cuts = gx_overlay_max_cuts();
	opt->cancel = cancel;
	opt->exact_cuts = false;
	opt->threads = bo.threads;
	opt->thread_budget = bo.thread_budget;
}

/* gx_overlay_sql.h */
void
gx_overlay_raise(const char *fname, const GxError *err)
{
	if (err->code == GX_ERR_CANCELLED)
		CHECK_FOR_INTERRUPTS();
	if (err->code == GX_ERR_LIMIT)
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						errmsg("%s: %s, more than work_mem (%d kB) holds", fname, err->msg, work_mem),
						errhint("The surfaces cross each other very many times; raise work_mem to go on.")));
	gx_pg_raise_in(fname, err, ERRCODE_INVALID_PARAMETER_VALUE);
}

Datum
gx_intersection_volume_sql(PG_FUNCTION_ARGS)
{
	const GxSolidIndex *idx[2];
	GxSerialized *g[2];
	GxOverlayOptions opt;
	GxCancel	cancel;
	GxError		err = {GX_OK, ""};
	double		v;

	solid_args(fcinfo, g, idx);
	check_pair("gx_intersection_volume", g[0], g[1]);
	gx_overlay_options(&opt, &cancel);
	if (!gx_boolean_volume(g[0], idx[0], g[1], idx[1], GX_BOOL_INTERSECTION, &opt, &v, &err))
		gx_overlay_raise("gx_intersection_volume", &err);
	PG_RETURN_FLOAT8(v);
}

/*
 * The booleans as solids (src/core/operation/gx_boolean.h): gx_intersection, gx_union, gx_difference of two
 * solids, gx_intersection(surface, solid) and gx_intersection(solid, gxbox3d), under the same bounds.
 */
PG_FUNCTION_INFO_V1(gx_intersection_sql);
PG_FUNCTION_INFO_V1(gx_union_sql);
PG_FUNCTION_INFO_V1(gx_difference_sql);
PG_FUNCTION_INFO_V1(gx_intersection_box_sql);

static Datum
boolean_solid(FunctionCallInfo fcinfo, const char *fname, GxBooleanOp op)
{
	const GxSolidIndex *idx[2],
			   *ia,
			   *ib;
	GxSerialized *g[2],
			   *a,
			   *b,
			   *s;
	GxOverlayOptions opt;
	GxCancel	cancel;
	GxError		err = {GX_OK, ""};
	size_t		size;

	solid_args(fcinfo, g, idx);
	a = g[0];
	b = g[1];
	ia = idx[0];
	ib = idx[1];
	gx_overlay_options(&opt, &cancel);
	if (op == GX_BOOL_INTERSECTION && !(a->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)) &&
		(b->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)))
	{
		/* a surface's part in a solid */
		if (gx_srids_conflict(a->srid, b->srid, gx_strict_srid))
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("operation on mixed SRID geometries (%d and %d)", a->srid, b->srid)));
		s = gx_surface_in_solid(a, ib ? PG_GETARG_GXGEOM(1) : b, &opt, &size, &err);
	}
	else
	{
		check_pair(fname, a, b);
		s = gx_boolean_solid_indexed(a, ia, b, ib, op, &opt, &size, &err);
	}
	if (s == NULL)
		gx_overlay_raise(fname, &err);
	return gx_pg_datum(s, size);
}

Datum
gx_intersection_sql(PG_FUNCTION_ARGS)
{
	return boolean_solid(fcinfo, "gx_intersection", GX_BOOL_INTERSECTION);
}

Datum
gx_union_sql(PG_FUNCTION_ARGS)
{
	return boolean_solid(fcinfo, "gx_union", GX_BOOL_UNION);
}

Datum
gx_difference_sql(PG_FUNCTION_ARGS)
{
	return boolean_solid(fcinfo, "gx_difference", GX_BOOL_DIFFERENCE);
}

Datum
gx_intersection_box_sql(PG_FUNCTION_ARGS)
{
	GxSerialized *a = PG_GETARG_GXGEOM(0),
			   *s;
	GxBox3D    *box = PG_GETARG_GXBOX3D_P(1);
	GxOverlayOptions opt;
	GxCancel	cancel;
	GxError		err = {GX_OK, ""};
	size_t		size;

	if (!(a->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_intersection: the first argument is a %s, not a solid",
							   gx_type_name(gx_body(a)->type)),
						errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
	gx_overlay_options(&opt, &cancel);
	if ((s = gx_boolean_box(a, box, &opt, &size, &err)) == NULL)
		gx_overlay_raise("gx_intersection", &err);
	return gx_pg_datum(s, size);
}

/* gx_split(solid, surface): a row (side, part) for each side of the surface the solid has a part on. */
PG_FUNCTION_INFO_V1(gx_split_sql);

Datum
gx_split_sql(PG_FUNCTION_ARGS)
{
	static const char *const side[2] = {"negative", "positive"};
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxSerialized *solid = PG_GETARG_GXGEOM(0),
			   *surface = PG_GETARG_GXGEOM(1),
			   *part[2];
	GxOverlayOptions opt;
	GxCancel	cancel;
	GxError		err = {GX_OK, ""};
	size_t		size[2];

	InitMaterializedSRF(fcinfo, 0);
	if (!(solid->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_split: the first argument is a %s, not a solid", gx_type_name(gx_body(solid)->type)),
						errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
	if (gx_srids_conflict(solid->srid, surface->srid, gx_strict_srid))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("operation on mixed SRID geometries (%d and %d)", solid->srid, surface->srid)));
	gx_overlay_options(&opt, &cancel);
	if (!gx_split_solid(solid, surface, &opt, part, size, &err))
		gx_overlay_raise("gx_split", &err);
	/* the positive side first */
	for (int h = 1; h >= 0; h--)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};

		if (part[h]->flags & GX_FLAG_EMPTY)
		{
			gx_free(part[h]);
			continue;
		}
		values[0] = CStringGetTextDatum(side[h]);
		values[1] = gx_pg_datum(part[h], size[h]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
