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
#include "functions/gx_pair_ids.h"
#include "functions/gx_query_rows.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "operation/gx_solid_make.h"
#include "service/gx_service.h"
#include "type/gx_compress.h"

PG_FUNCTION_INFO_V1(gx_makesolids_sql);

#define ROUND_ROWS 16384		/* rows read and made at once, at most */

/* One body's solid, made on a worker thread. */
typedef struct Made
{
	struct varlena *value;		/* malloc'd stored form (packed, compressed when that pays); NULL: failed */
	GxError		err;
	bool		too_large;		/* its text form would exceed GX_MAX_TEXT_BYTES */
} Made;

/* Solid s (size bytes, from gx_alloc, given up here) stored into m as gx_pg_datum stores it, then compressed. */
static void
store(GxSerialized *s, size_t size, char method, Made *m)
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
make(const GxSerialized *g, const GxBatchOptions *opt, char method, bool plain, Made *m)
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
		store(s, size, method, m);
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
		   char method, Made *made)
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

/*
 * One round: rows [from, to) of r read whole (into a context of the round's own), made solids on the
 * threads, and put into the result in query order; the first row that is no solid raises its ERROR, naming
 * its id. wide: the size of a body made with every thread.
 */
static void
round_rows(const GxQueryRows *r, size_t from, size_t to, size_t wide, const GxBatchOptions *opt, char method,
		   ReturnSetInfo *rsinfo)
{
	MemoryContext work = AllocSetContextCreate(CurrentMemoryContext, "gx_makesolids round", ALLOCSET_DEFAULT_SIZES),
				old = MemoryContextSwitchTo(work);
	size_t		n = to - from;
	struct varlena **raw = palloc0(n * sizeof(struct varlena *));
	bool	   *owned = palloc0(n * sizeof(bool));
	size_t	   *size = palloc(n * sizeof(size_t));
	Made	   *made = palloc0(n * sizeof(Made));

	for (size_t k = 0; k < n; k++)
		size[k] = gx_pg_values_bytes(&r->values[from + k], &r->present[from + k], 1);
	PG_TRY();
	{
		int			threads = gx_threads_begin(opt->threads, opt->thread_budget);
		bool		read = gx_pg_values_read(&r->values[from], &r->present[from], n, n, threads, false, raw, owned);

		gx_threads_end();
		if (!read)
			ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("stored gxgeom value is corrupt"),
							errdetail("Its compressed or packed form could not be read back.")));
		make_round(raw, size, n, wide, opt, method, made);
		if (gx_cancel_requested(&opt->cancel))
		{
			CHECK_FOR_INTERRUPTS();
			ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gx_makesolids due to user request")));
		}
		MemoryContextSwitchTo(old);
		for (size_t k = 0; k < n; k++)
		{
			Datum		values[2];
			bool		nulls[2] = {false, false};

			if (made[k].value == NULL)
			{
				char	   *where = psprintf("gx_makesolids: row with id %s: ", gx_pair_ids_text(&r->id, r->ids[from + k]));
				GxError		e = made[k].err;

				if (made[k].too_large)
					gx_pg_raise_too_large(where);
				snprintf(e.msg, sizeof(e.msg), "%s%s", where, made[k].err.msg);
				gx_pg_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
			}
			values[0] = gx_pair_ids_datum(&r->id, r->ids[from + k]);
			values[1] = PointerGetDatum(made[k].value);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			free(made[k].value);
			made[k].value = NULL;
		}
	}
	PG_FINALLY();
	{
		gx_threads_end();
		gx_alloc_plain(false);
		for (size_t k = 0; k < n; k++)
		{
			if (owned[k])
				free(raw[k]);
			free(made[k].value);
		}
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
	int			threads;

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
	threads = opt.threads > 0 ? Min(opt.threads, gx_threads_cores()) : gx_threads_cores();
	budget = (size_t) gx_join_batch_mb * 1024 * 1024 * threads;
	while (from < rows.n)
	{
		size_t		to = from,
					bytes = 0;

		for (; to < rows.n && to - from < ROUND_ROWS && (to == from || bytes < budget); to++)
			bytes += gx_pg_values_bytes(&rows.values[to], &rows.present[to], 1);
		round_rows(&rows, from, to, threads > 1 ? bytes / threads : 0, &opt, method, rsinfo);
		from = to;
	}
	return (Datum) 0;
}
