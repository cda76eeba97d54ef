/*
 * gx_solid_sql.c: solids in SQL: gx_makesolid, gx_issolid, gx_locate and gx_intercepts (src/core
 * gx_solid.h, gx_intercepts.h). The solid argument of gx_locate and gx_intercepts stays indexed between
 * calls: the solids stored out of line that a call site meets, many at once; any other while it is the
 * same value, as gx_intersects keeps its prepared geometries.
 */
#include "postgres.h"
#include "access/detoast.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "gx_pg.h"
#include "gx_settings.h"
#include "operation/gx_intercepts.h"
#include "operation/gx_intersects.h"
#include "operation/gx_solid_make.h"
#include "service/gx_service.h"

PG_FUNCTION_INFO_V1(gx_makesolid);
PG_FUNCTION_INFO_V1(gx_issolid);
PG_FUNCTION_INFO_V1(gx_locate);
PG_FUNCTION_INFO_V1(gx_intercepts_sql);

Datum
gx_makesolid(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0),
			   *s;
	GxBatchOptions opt;
	GxError		err = {GX_OK, ""};
	size_t		size;

	if (g->flags & GX_FLAG_SOLID)
		PG_RETURN_POINTER(g);
	gx_settings_batch_options(&opt);
	/* the GPU is the service's: this backend makes no CUDA context of its own when there is one */
	if (gx_service_started())
		opt.device = GX_DEVICE_CPU;
	s = gx_solid_from(g, &opt, &size, &err);
	if (s == NULL)
	{
		if (err.code == GX_ERR_CANCELLED)
		{
			CHECK_FOR_INTERRUPTS();
			ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gx_makesolid due to user request")));
		}
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	}
	return gx_pg_datum(s, size);
}

Datum
gx_issolid(PG_FUNCTION_ARGS)
{
	GxSerialized *g = (GxSerialized *) PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(0), 0, sizeof(GxSerialized));

	PG_RETURN_BOOL((g->flags & GX_FLAG_SOLID) != 0);
}

#define SITE_ENTRIES 64

/* A solid stored out of line, indexed for point location. */
typedef struct SolidEntry
{
	Oid			toastrelid,
				valueid;		/* InvalidOid: a free entry */
	MemoryContext cxt;			/* its triangles and index */
	GxSolidIndex index;
	size_t		bytes;
	uint64		used;			/* the call that used it last */
	bool		ready;			/* indexed (else being made by the call that used it last) */
} SolidEntry;

/*
 * What a call site of gx_locate, gx_intercepts, gx_contains or the booleans keeps (fn_extra): the solids
 * stored out of line (TOAST) that it met, indexed, least recently used out first beyond SITE_ENTRIES or
 * gpuexact.cache_host_mb (a LATERAL join meets the same ore bodies over and over, in no order), never one
 * that the current call uses; any other solid is kept by gx_relate.c's prepared argument while it is the
 * same value.
 */
typedef struct SolidSite
{
	SolidEntry	e[SITE_ENTRIES];
	size_t		bytes;
	uint64		clock;
	void	   *relate;			/* gx_relate.c's fn_extra for this call site */
} SolidSite;

static SolidSite *
site_of(FunctionCallInfo fcinfo)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(SolidSite));
	return fcinfo->flinfo->fn_extra;
}

static void
entry_drop(SolidSite *site, SolidEntry *e)
{
	site->bytes -= e->bytes;
	if (e->cxt)
		MemoryContextDelete(e->cxt);
	memset(e, 0, sizeof(*e));
}

/* The site's entry of out-of-line value ext, or NULL. */
static SolidEntry *
entry_of(SolidSite *site, const struct varatt_external *ext)
{
	for (int k = 0; k < SITE_ENTRIES; k++)
		if (site->e[k].valueid == ext->va_valueid && site->e[k].toastrelid == ext->va_toastrelid)
			return &site->e[k];
	return NULL;
}

/*
 * A free entry for value ext, taken for the current call: the least recently used entries go until its
 * triangles and index (about twice the value's bytes) fit, none the current call uses.
 */
static SolidEntry *
entry_take(FunctionCallInfo fcinfo, SolidSite *site, const struct varatt_external *ext)
{
	size_t		budget = (size_t) gx_cache_host_mb * 1024 * 1024,
				bytes = (size_t) ext->va_rawsize * 2;
	SolidEntry *slot = NULL;

	for (;;)
	{
		SolidEntry *lru = NULL;
		size_t		free_entries = 0;

		for (int k = 0; k < SITE_ENTRIES; k++)
			if (site->e[k].valueid == InvalidOid)
				free_entries++;
			else if (site->e[k].used != site->clock && (lru == NULL || site->e[k].used < lru->used))
				lru = &site->e[k];
		if (lru == NULL || (free_entries > 0 && site->bytes + bytes <= budget))
			break;
		entry_drop(site, lru);
	}
	for (int k = 0; k < SITE_ENTRIES && !slot; k++)
		if (site->e[k].valueid == InvalidOid)
			slot = &site->e[k];
	slot->toastrelid = ext->va_toastrelid;
	slot->valueid = ext->va_valueid;
	slot->used = site->clock;
	slot->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "gx solid index", ALLOCSET_DEFAULT_SIZES);
	return slot;
}

/*
 * gx_pg.h. Every solid the site lacks is detoasted first (into its entry's memory), then each is indexed where
 * it lies, so that a cancel is heard between the detoastings, which PostgreSQL makes in one piece each, and
 * while indexing.
 */
void
gx_pg_stored_solids(FunctionCallInfo fcinfo, const Datum *values, int n, const GxSolidIndex **index)
{
	SolidSite  *site = site_of(fcinfo);
	SolidEntry *e[2];
	GxSerialized *volatile g[2] = {NULL, NULL};

	Assert(n <= 2);
	site->clock++;
	PG_TRY();
	{
		for (int k = 0; k < n; k++)
		{
			struct varatt_external ext;

			VARATT_EXTERNAL_GET_POINTER(ext, (struct varlena *) DatumGetPointer(values[k]));
			if ((e[k] = entry_of(site, &ext)) != NULL)
				e[k]->used = site->clock;
			else
			{
				MemoryContext old;

				e[k] = entry_take(fcinfo, site, &ext);
				old = MemoryContextSwitchTo(e[k]->cxt);
				g[k] = gx_pg_geom(values[k]);
				MemoryContextSwitchTo(old);
				CHECK_FOR_INTERRUPTS();
			}
		}
		for (int k = 0; k < n; k++)
			if (!e[k]->ready)
			{
				GxError		err = {GX_OK, ""};
				MemoryContext old = MemoryContextSwitchTo(e[k]->cxt);
				const double *tri;
				size_t		nt;
				bool		ok;

				tri = gx_solid_triangles(g[k], &nt);
				ok = gx_solid_index_build(&e[k]->index, tri, nt, &err);
				MemoryContextSwitchTo(old);
				if (!ok)
					gx_pg_raise(&err, ERRCODE_INTERNAL_ERROR);
				e[k]->ready = true;
				e[k]->bytes = MemoryContextMemAllocated(e[k]->cxt, true);
				site->bytes += e[k]->bytes;
			}
	}
	PG_CATCH();
	{
		/* the entries not made: dropped */
		for (int k = 0; k < SITE_ENTRIES; k++)
			if (site->e[k].valueid != InvalidOid && !site->e[k].ready)
				entry_drop(site, &site->e[k]);
		PG_RE_THROW();
	}
	PG_END_TRY();
	for (int k = 0; k < n; k++)
		index[k] = &e[k]->index;
}

/*
 * The indexed solid of argument 1, after the checks shared by gx_locate and gx_intercepts (made on the
 * solid's header alone: a solid kept by the site is not detoasted again).
 */
static const GxSolidIndex *
solid_arg(FunctionCallInfo fcinfo, const char *fname, const GxSerialized *first, GxType want)
{
	GxSerialized *head = gx_pg_header(PG_GETARG_DATUM(1));

	if (gx_srids_conflict(first->srid, head->srid, gx_strict_srid))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("operation on mixed SRID geometries (%d and %d)", first->srid, head->srid)));
	if (gx_body(first)->type != want)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: the first argument must be a %s, not a %s", fname, gx_type_name(want),
							   gx_type_name(gx_body(first)->type))));
	if (!(head->flags & GX_FLAG_SOLID))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: the second argument is a %s, not a solid", fname, gx_type_name(gx_body(head)->type)),
						errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
	return gx_pg_solid_arg(fcinfo, 1);
}

const GxSolidIndex *
gx_pg_solid_arg(FunctionCallInfo fcinfo, int argnum)
{
	Datum		value = PG_GETARG_DATUM(argnum);
	SolidSite  *site = site_of(fcinfo);
	const GxPrepared *p;
	const GxSolidIndex *index;

	if (VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(value)))
	{
		gx_pg_stored_solids(fcinfo, &value, 1, &index);
		return index;
	}
	/* gx_relate.c keeps its own state in fn_extra: lent it for the call */
	fcinfo->flinfo->fn_extra = site->relate;
	PG_TRY();
	{
		p = gx_pg_prepared_arg(fcinfo, argnum);
	}
	PG_FINALLY();
	{
		site->relate = fcinfo->flinfo->fn_extra;
		fcinfo->flinfo->fn_extra = site;
	}
	PG_END_TRY();
	Assert(p->solid != NULL);
	return p->solid;
}

Datum
gx_locate(PG_FUNCTION_ARGS)
{
	GxSerialized *pt = PG_GETARG_GXGEOM(0);
	const GxSolidIndex *solid = solid_arg(fcinfo, "gx_locate", pt, GX_POINT);
	GxLocation	loc;

	if (pt->flags & GX_FLAG_EMPTY)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("gx_locate: the point is EMPTY")));
	loc = gx_solid_locate(solid, gx_node_coords(gx_body(pt)));
	if (loc == GX_LOC_FAILED)
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
						errmsg("gx_locate: no ray from the point avoided the solid's edges")));
	PG_RETURN_TEXT_P(cstring_to_text(loc == GX_LOC_INSIDE ? "inside" : loc == GX_LOC_BOUNDARY ? "boundary" : "outside"));
}

Datum
gx_intercepts_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxSerialized *line = PG_GETARG_GXGEOM(0);
	const GxSolidIndex *solid;
	GxInterval *iv;
	GxError		err = {GX_OK, ""};
	size_t		n;

	InitMaterializedSRF(fcinfo, 0);
	solid = solid_arg(fcinfo, "gx_intercepts", line, GX_LINESTRING);
	if (!gx_intercepts(solid, gx_node_coords(gx_body(line)), gx_body(line)->count, &iv, &n, &err))
		gx_pg_raise(&err, ERRCODE_INTERNAL_ERROR);
	for (size_t i = 0; i < n; i++)
	{
		Datum		values[3] = {Float8GetDatum(iv[i].from), Float8GetDatum(iv[i].to),
			gx_pg_intercept_piece(line, &iv[i])};
		bool		nulls[3] = {false, false, false};

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
