/* gx_pg_batch.c: the PostgreSQL side of batch runs (see gx_pg_batch.h). */
#include "postgres.h"
#include "miscadmin.h"

#include "batch/gx_pg_batch.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "service/gx_service.h"

void
gx_pg_batch_run(GxPgSide *a, GxPgSide *b, bool ignore_srid, double distance, GxPairs *out, GxBatchStats *st)
{
	GxBatchOptions opt;
	GxError		err = {GX_OK, ""};
	char		why[sizeof(st->fallback)] = "";

	gx_settings_batch_options(&opt);
	opt.ignore_srid = ignore_srid;
	opt.distance = distance;
	if (gx_service_run(a, b, &opt, out, st, why, sizeof(why)))
		return;
	gx_pg_side_materialize(a);
	gx_pg_side_materialize(b);
	/* the GPU is the service's: this backend never makes a CUDA context of its own when there is one */
	if (gx_service_started())
		opt.device = GX_DEVICE_CPU;
	if (gx_batch_intersect(&a->side, &b->side, &opt, out, st, &err))
	{
		if (why[0])
			snprintf(st->fallback, sizeof(st->fallback), "%s", why);
		return;
	}
	if (err.code == GX_ERR_CANCELLED)
	{
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gpuexact batch due to user request")));
	}
	gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
}
