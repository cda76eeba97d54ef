/*
 * gx_module.c: the extension's entry point: core allocator on palloc, interrupt hook on CHECK_FOR_INTERRUPTS,
 * the thread budget's descriptors counted with PostgreSQL's.
 */
#include "postgres.h"

#include <pthread.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/memutils.h"

#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "base/gx_threads.h"
#include "geom/gx_pack.h"
#include "gx_pg.h"
#include "gx_settings.h"
#include "io/gx_io.h"
#include "join/gx_join.h"
#include "project/gx_project.h"
#include "service/gx_service.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static void *
pg_alloc(size_t size)
{
	return MemoryContextAllocHuge(CurrentMemoryContext, size);
}

static void *
pg_try_alloc(size_t size)
{
	return MemoryContextAllocExtended(CurrentMemoryContext, size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void *
pg_realloc(void *ptr, size_t size)
{
	return ptr ? repalloc_huge(ptr, size) : pg_alloc(size);
}

static void
pg_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

/* The thread the backend runs on (the postmaster's, inherited through fork). */
static pthread_t backend_thread;
static int	counted_token_fds;

/*
 * The thread budget's token files counted among PostgreSQL's descriptors (gx_threads_fds_hook), so that
 * its file cache leaves room for them; only on the backend's own thread, as fd.c is not thread-safe.
 */
static void
count_token_fds(int open_fds)
{
	if (!pthread_equal(pthread_self(), backend_thread))
		return;
	for (; counted_token_fds < open_fds; counted_token_fds++)
		ReserveExternalFD();
	for (; counted_token_fds > open_fds; counted_token_fds--)
		ReleaseExternalFD();
}

void
_PG_init(void)
{
	static const GxAllocator palloc_allocator = {pg_alloc, pg_realloc, pfree, pg_try_alloc};

	gx_set_allocator(&palloc_allocator);
	gx_check_interrupts = pg_interrupts;
	gx_cancel_flags.flag[0] = (volatile const int *) &QueryCancelPending;
	gx_cancel_flags.flag[1] = (volatile const int *) &ProcDiePending;
	backend_thread = pthread_self();
	gx_threads_fds_hook = count_token_fds;
	gx_settings_init();
	gx_join_init();
	gx_project_init();
	if (process_shared_preload_libraries_in_progress)
		gx_service_register();
}

/*
 * What to do about a surface that gx_makesolid (or a SOLID read from text) refuses: a hint chosen by its
 * message, which already names the edge or the triangles, with coordinates; NULL for other errors.
 */
static const char *
solid_hint(const char *msg)
{
	static const char *const hints[][2] = {
		{"belongs to one triangle only", "The surface has a hole along that edge: add the missing triangles so that every edge joins exactly two triangles."},
		{"non-manifold edge", "More than two triangles share that edge: split the surface there, or make each closed part a solid of its own."},
		{"cannot be oriented consistently", "The surface is one-sided at that edge and bounds no volume; rebuild it there. The triangles' winding need not agree: gx_makesolid orients them itself."},
		{"meet other than along a shared edge or vertex", "The surface crosses or touches itself there: move or remove one of the two triangles (numbered from 1, not counting triangles with a repeated vertex before them), or make each closed part a solid of its own."},
		{"three collinear vertices", "Remove that triangle, or move a vertex off the line through the other two."},
		{"does not lie along an edge of the surface", "A triangle with a repeated vertex is dropped only where it lies along an edge of the rest: remove it."},
	};

	for (size_t i = 0; i < lengthof(hints); i++)
		if (strstr(msg, hints[i][0]) != NULL)
			return hints[i][1];
	return NULL;
}

void
gx_pg_raise(const GxError *err, int parse_sqlstate)
{
	int			sqlstate;

	switch (err->code)
	{
		case GX_ERR_LIMIT:
			sqlstate = ERRCODE_PROGRAM_LIMIT_EXCEEDED;
			break;
		case GX_ERR_SRID:
		case GX_ERR_INVALID:
		case GX_ERR_ARG:
			sqlstate = ERRCODE_INVALID_PARAMETER_VALUE;
			break;
		case GX_ERR_RANGE:
			sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
			break;
		case GX_ERR_NOMEM:
			sqlstate = ERRCODE_OUT_OF_MEMORY;
			break;
		case GX_ERR_UNSUPPORTED:
			sqlstate = ERRCODE_FEATURE_NOT_SUPPORTED;
			break;
		case GX_ERR_CANCELLED:
			/* stopped on the flags of a cancel or a termination: PostgreSQL's own error for it */
			CHECK_FOR_INTERRUPTS();
			sqlstate = ERRCODE_QUERY_CANCELED;
			break;
		default:
			sqlstate = parse_sqlstate;
			break;
	}
	ereport(ERROR, (errcode(sqlstate), errmsg("%s", err->msg), solid_hint(err->msg) ? errhint("%s", solid_hint(err->msg)) : 0));
	pg_unreachable();
}

void
gx_pg_raise_in(const char *fname, const GxError *err, int parse_sqlstate)
{
	GxError		named = {err->code, ""};

	snprintf(named.msg, sizeof(named.msg), "%s: %s", fname, err->msg);
	gx_pg_raise(&named, parse_sqlstate);
}

bytea *
gx_pg_bytea(unsigned char *data, size_t len)
{
	bytea	   *b = palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), data, len);
	pfree(data);
	return b;
}

GxSerialized *
gx_pg_header(Datum d)
{
	return (GxSerialized *) PG_DETOAST_DATUM_SLICE(d, 0, sizeof(GxSerialized) + sizeof(GxNode));
}

void
gx_pg_raise_too_large(const char *where)
{
	ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("%sgeometry too large: its text form would exceed %d MB", where,
						   GX_MAX_TEXT_BYTES / 1000000),
					errdetail("Every stored value must survive text output (COPY, pg_dump)."),
					errhint("Split it into several values, e.g. TINs of a few million triangles each.")));
}

GxSerialized *
gx_pg_stored_form(GxSerialized *g, size_t *size, bool *too_large, GxError *err)
{
	GxSerialized *packed = NULL;
	size_t		packed_size;

	*too_large = !gx_wkt_fits(g, *size, GX_MAX_TEXT_BYTES);
	if (!*too_large)
		packed = gx_pack(g, *size, &packed_size, err);
	if (*too_large || err->code != GX_OK)
	{
		gx_free(g);
		return NULL;
	}
	if (packed)
	{
		gx_free(g);
		g = packed;
		*size = packed_size;
	}
	SET_VARSIZE(g, *size);
	return g;
}

Datum
gx_pg_datum(GxSerialized *g, size_t size)
{
	GxError		err = {GX_OK, ""};
	bool		too_large;

	g = gx_pg_stored_form(g, &size, &too_large, &err);
	if (too_large)
		gx_pg_raise_too_large("");
	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_OUT_OF_MEMORY);
	PG_RETURN_POINTER(g);
}

GxSerialized *
gx_pg_geom(Datum d)
{
	GxSerialized *v = (GxSerialized *) PG_DETOAST_DATUM(d),
			   *g;
	GxError		err = {GX_OK, ""};
	size_t		size;

	if (!(v->flags & GX_FLAG_PACKED))
		return v;
	if ((g = gx_unpack(v, VARSIZE(v), &size, &err)) == NULL)
		gx_pg_raise(&err, ERRCODE_DATA_CORRUPTED);
	SET_VARSIZE(g, size);
	if ((Pointer) v != DatumGetPointer(d))
		pfree(v);				/* a copy of this call's own */
	return g;
}

int32
gx_pg_check_srid(int32 srid)
{
	if (srid < 0 || srid > GX_SRID_MAX)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("SRID %d out of range [0, %d]", srid, GX_SRID_MAX)));
	return srid;
}
