/* gx_pg_batch.c: the PostgreSQL side of batch runs (see gx_pg_batch.h). */
#include "postgres.h"
#include "miscadmin.h"

#include "batch/gx_pg_batch.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "operation/gx_intercepts.h"
#include "service/gx_service.h"

/* An engine error as the ERROR it is: cancel as PostgreSQL's own, the others with their SQLSTATE. */
static void
raise_engine_error(const GxError *err)
{
	if (err->code == GX_ERR_CANCELLED)
	{
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gpuexact batch due to user request")));
	}
	gx_pg_raise(err, ERRCODE_DATA_EXCEPTION);
}

/* The batch in this backend, after the service could not run it (why, shown by EXPLAIN). */
static void
run_here(GxPgSide *a, GxPgSide *b, GxBatchOptions *opt, const char *why, GxPairs *out, GxBatchStats *st)
{
	GxError		err = {GX_OK, ""};

	gx_pg_side_materialize(a);
	gx_pg_side_materialize(b);
	gx_pg_side_index(a);
	gx_pg_side_index(b);
	/* the GPU is the service's: this backend never makes a CUDA context of its own when there is one */
	if (gx_service_started())
		opt->device = GX_DEVICE_CPU;
	if (!gx_batch_intersect(&a->side, &b->side, opt, out, st, &err))
		raise_engine_error(&err);
	if (why[0])
		snprintf(st->fallback, sizeof(st->fallback), "%s", why);
}

void
gx_pg_batch_run(GxPgSide *a, GxPgSide *b, bool ignore_srid, double distance, GxPairs *out, GxBatchStats *st)
{
	GxBatchOptions opt;
	char		why[sizeof(st->fallback)] = "";

	gx_settings_batch_options(&opt);
	opt.ignore_srid = ignore_srid;
	opt.distance = distance;
	if (!gx_service_run(a, b, &opt, out, st, why, sizeof(why)))
		run_here(a, b, &opt, why, out, st);
}

void
gx_pg_intercepts_run(GxPgSide *lines, GxPgSide *solids, GxPairInterval **out, size_t *n, GxBatchStats *st)
{
	GxBatchOptions opt;
	GxPairs		pairs;
	GxPairInterval *v;
	GxError		err = {GX_OK, ""};
	char		why[sizeof(st->fallback)] = "";

	gx_settings_batch_options(&opt);
	opt.element_pairs = true;
	if (gx_service_intercepts(lines, solids, &opt, out, n, st, why, sizeof(why)))
		return;
	run_here(lines, solids, &opt, why, &pairs, st);
	/* the solids' indexes are the cached side's, when this backend keeps it */
	if (!gx_intercepts_of_pairs(&lines->side, &solids->side, pairs.keys, pairs.n, pairs.elements, pairs.nelements,
								opt.threads, opt.thread_budget, &opt.cancel, &v, n, &err))
		raise_engine_error(&err);
	*out = palloc_extended(Max(*n, 1) * sizeof(GxPairInterval), MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	if (*out && *n)
		memcpy(*out, v, *n * sizeof(GxPairInterval));
	free(v);
	if (*out == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory computing intercepts")));
}
