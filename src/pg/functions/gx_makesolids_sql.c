/*
 * gx_makesolids_sql.c: gx_makesolids(query): gx_makesolid of every row of a query at once, on the backend's
 * threads: one body to a thread (a body of many triangles with every thread, as gx_makesolid makes it),
 * each solid packed and compressed where it was made, so that storing the rows (CREATE TABLE AS, UPDATE
 * ... FROM) compresses nothing again. The bodies are read in rounds of gpuexact.join_batch_mb of geometry
 * per thread (and at most ROUND_ROWS rows), each round in memory of its own.
 */
#include "postgres.h"
#include "access/toast_compression.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "batch/gx_pg_values.h"
#include "functions/gx_makesolids.h"
#include "functions/gx_pair_ids.h"
#include "functions/gx_query_rows.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "operation/gx_solid_make.h"
#include "service/gx_service.h"
#include "type/gx_compress.h"

PG_FUNCTION_INFO_V1(gx_makesolids_sql);

#define ROUND_ROWS 16384		/* rows read and made at once, at most */

/* gx_makesolids.h */
void
gx_made_store(GxSerialized *s, size_t size, char method, GxMade *m)
{
	if ((s = gx_pg_stored_form(s, &size, &m->too_large, &m->err)) == NULL)
		return;
	if ((m->value = gx_pg_compress((struct varlena *) s, method)) == NULL && (m->value = malloc(size)) != NULL)
		memcpy(m->value, s, size);
	if (m->value == NULL)
		gx_error_set(&m->err, GX_ERR_NOMEM, "out of memory for a solid of %zu bytes", size);
	gx_free(s);
}

/*
 * Body g made a solid into m, with opt (a solid given stays as it is, as in gx_makesolid). plain: on a
 * worker thread, everything in malloc'd memory; else on the backend's thread, where an interrupt may
 * end the call.
 */
static void
make(const GxSerialized *g, const GxBatchOptions *opt, char method, bool plain, GxMade *m)
{
	GxSerialized *s;
	size_t		size = VARSIZE(g);

	gx_alloc_plain(plain);
	if (g->flags & GX_FLAG_SOLID)
	{
		if ((s = gx_alloc(size)) != NULL)
			memcpy(s, g, size);
		else
			gx_error_set(&m->err, GX_ERR_NOMEM, "out of memory for a solid of %zu bytes", size);
	}
	else
		s = gx_solid_from(g, opt, &size, &m->err);
	if (s != NULL)
		gx_made_store(s, size, method, m);
	gx_alloc_plain(false);
}

/* Orders row indices by decreasing size, for the threads to take the largest bodies first. */
static const size_t *sort_sizes;

static int
by_size_desc(const void *a, const void *b)
{
	size_t		x = sort_sizes[*(const size_t *) a],
				y = sort_sizes[*(const size_t *) b];

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * The bodies raw[0..n) (sizes size[0..n)) made solids into made[]: each one larger than wide bytes on this
 * thread (gx_solid_make then takes the threads it may), then the others a body to a thread, the largest
 * first. Nothing here raises an ERROR: a cancel is seen between bodies and in the grids.
 */
static void
make_round(struct varlena **raw, const size_t *size, size_t n, size_t wide, const GxBatchOptions *opt,
		   char method, GxMade *made)
{
	GxBatchOptions narrow = *opt;
	size_t	   *order = palloc(Max(n, 1) * sizeof(size_t)),
				nnarrow = 0;
	int			threads;

	narrow.threads = 1;
	narrow.thread_budget = NULL;
	narrow.device = GX_DEVICE_CPU;
	for (size_t k = 0; k < n; k++)
	{
		if (size[k] <= wide)
			order[nnarrow++] = k;
		else if (!gx_cancel_requested(&opt->cancel))
			make((GxSerialized *) raw[k], opt, method, false, &made[k]);
	}
	sort_sizes = size;
	qsort(order, nnarrow, sizeof(size_t), by_size_desc);
	threads = gx_threads_begin(opt->threads, opt->thread_budget);
	#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
	for (size_t i = 0; i < nnarrow; i++)
		if (!gx_cancel_requested(&opt->cancel))
			make((GxSerialized *) raw[order[i]], &narrow, method, true, &made[order[i]]);
	gx_threads_end();
	pfree(order);
}

void
gx_made_round(const Datum *values, size_t n, const GxBatchOptions *opt, char method, GxMade *made)
{
	struct varlena **raw = palloc0(Max(n, 1) * sizeof(struct varlena *));
	bool	   *owned = palloc0(Max(n, 1) * sizeof(bool)),
			   *present = palloc(Max(n, 1) * sizeof(bool));
	size_t	   *size = palloc(Max(n, 1) * sizeof(size_t)),
				bytes = 0;
	int			threads = opt->threads > 0 ? Min(opt->threads, gx_threads_cores()) : gx_threads_cores();

	for (size_t k = 0; k < n; k++)
	{
		present[k] = true;
		bytes += size[k] = gx_pg_values_bytes(&values[k], &present[k], 1);
	}
	PG_TRY();
	{
		bool		read;

		threads = gx_threads_begin(opt->threads, opt->thread_budget);
		read = gx_pg_values_read(values, present, n, n, threads, false, raw, owned);
		gx_threads_end();
		if (!read)
			ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("stored gxgeom value is corrupt"),
							errdetail("Its compressed or packed form could not be read back.")));
		/* a body of more than its share of the round's bytes is made with every thread */
		make_round(raw, size, n, threads > 1 ? bytes / threads : 0, opt, method, made);
	}
	PG_FINALLY();
	{
		gx_threads_end();
		gx_alloc_plain(false);
		for (size_t k = 0; k < n; k++)
			if (owned[k])
				free(raw[k]);
	}
	PG_END_TRY();
	pfree(raw);
	pfree(owned);
	pfree(present);
	pfree(size);
	if (gx_cancel_requested(&opt->cancel))
	{
		gx_made_free(made, n);
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gx_makesolid due to user request")));
	}
}

void
gx_made_raise(const GxMade *m, const char *where)
{
	GxError		e = m->err;

	if (m->too_large)
		gx_pg_raise_too_large(where);
	snprintf(e.msg, sizeof(e.msg), "%s%s", where, m->err.msg);
	gx_pg_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
}

void
gx_made_free(GxMade *made, size_t n)
{
	for (size_t k = 0; k < n; k++)
	{
		free(made[k].value);
		made[k].value = NULL;
	}
}

size_t
gx_made_round_bytes(const GxBatchOptions *opt)
{
	int			threads = opt->threads > 0 ? Min(opt->threads, gx_threads_cores()) : gx_threads_cores();

	return (size_t) gx_join_batch_mb * 1024 * 1024 * threads;
}

/*
 * One round: rows [from, to) of r made solids (in a context of the round's own) and put into the result in
 * query order; the first row that is no solid raises its ERROR, naming its id.
 */
static void
round_rows(const GxQueryRows *r, size_t from, size_t to, const GxBatchOptions *opt, char method,
		   ReturnSetInfo *rsinfo)
{
	MemoryContext work = AllocSetContextCreate(CurrentMemoryContext, "gx_makesolids round", ALLOCSET_DEFAULT_SIZES),
				old = MemoryContextSwitchTo(work);
	size_t		n = to - from;
	GxMade	   *made = palloc0(n * sizeof(GxMade));

	PG_TRY();
	{
		gx_made_round(&r->values[from], n, opt, method, made);
		MemoryContextSwitchTo(old);
		for (size_t k = 0; k < n; k++)
		{
			Datum		values[2];
			bool		nulls[2] = {false, false};

			if (made[k].value == NULL)
				gx_made_raise(&made[k], psprintf("gx_makesolids: row with id %s: ",
												 gx_pair_ids_text(&r->id, r->ids[from + k])));
			values[0] = gx_pair_ids_datum(&r->id, r->ids[from + k]);
			values[1] = PointerGetDatum(made[k].value);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			free(made[k].value);
			made[k].value = NULL;
		}
	}
	PG_FINALLY();
	{
		gx_made_free(made, n);
		MemoryContextSwitchTo(old);
		MemoryContextDelete(work);
	}
	PG_END_TRY();
}

/*
 * gx_makesolids(query [, id_type]): (id, solid) for every row (id, geom) of the query whose geom is not
 * NULL, in the query's order; the query runs as in a READ ONLY transaction, as the pair functions' do.
 */
Datum
gx_makesolids_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext keep = CurrentMemoryContext;
	GxQueryRows rows;
	GxBatchOptions opt;
	char	   *query;
	char		method = (char) default_toast_compression;
	size_t		budget,
				from = 0;

	InitMaterializedSRF(fcinfo, 0);
	/* the variant given an id type is not STRICT (the type comes as a NULL of it) */
	if (PG_ARGISNULL(0))
		return (Datum) 0;
	query = text_to_cstring(PG_GETARG_TEXT_PP(0));
	gx_query_rows_read(query, "gx_makesolids", "query", gx_query_rows_type(fcinfo, "gxgeom"), "geom",
					   gx_pair_ids_result_type(fcinfo), true, keep, &rows);

	gx_settings_batch_options(&opt);
	/* the GPU is the service's: this backend makes no CUDA context of its own when there is one */
	if (gx_service_started())
		opt.device = GX_DEVICE_CPU;
	budget = gx_made_round_bytes(&opt);
	while (from < rows.n)
	{
		size_t		to = from,
					bytes = 0;

		for (; to < rows.n && to - from < ROUND_ROWS && (to == from || bytes < budget); to++)
			bytes += gx_pg_values_bytes(&rows.values[to], &rows.present[to], 1);
		round_rows(&rows, from, to, &opt, method, rsinfo);
		from = to;
	}
	return (Datum) 0;
}
