/* gx_pg_batch.c: the PostgreSQL side of batch runs (see gx_pg_batch.h). */
#include "postgres.h"
#include "miscadmin.h"

#include "gx_pg.h"
#include "gx_pg_batch.h"
#include "gx_settings.h"

void
gx_pg_side_init(GxPgSide *s)
{
	gx_batch_side_init(&s->side);
	s->ids = NULL;
	s->srids = NULL;
}

size_t
gx_pg_estimate_elements(Datum geom)
{
	GxSerialized *g = (GxSerialized *) PG_DETOAST_DATUM_SLICE(geom, 0, sizeof(GxSerialized) + sizeof(GxNode));
	const GxNode *n = gx_body(g);
	size_t		elements = 0;

	if (VARSIZE(g) >= sizeof(GxSerialized) + sizeof(GxNode))
		switch (n->type)
		{
			case GX_POINT:
			case GX_TRIANGLE:
			case GX_TIN:
			case GX_POLYHEDRALSURFACE:
				elements = n->count;
				break;
			case GX_LINESTRING:
				elements = n->count > 1 ? n->count - 1 : 0;
				break;
		}
	if ((Pointer) g != DatumGetPointer(geom))
		pfree(g);
	return elements;
}

void
gx_pg_batch_run(const GxPgSide *a, const GxPgSide *b, bool ignore_srid, GxPairs *out, GxBatchStats *st)
{
	GxBatchOptions opt;
	GxError		err = {GX_OK, ""};

	gx_settings_batch_options(&opt);
	opt.ignore_srid = ignore_srid;
	if (gx_batch_intersect(&a->side, &b->side, &opt, out, st, &err))
		return;
	if (err.code == GX_ERR_CANCELLED)
	{
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gpuexact batch due to user request")));
	}
	gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
}
