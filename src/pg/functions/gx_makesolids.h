/*
 * gx_makesolids.h: bodies made solids a round at a time on the backend's threads, each solid packed and
 * compressed where it was made: gx_makesolids and the batched projection of gx_makesolid (project/) share it.
 */
#ifndef GX_MAKESOLIDS_H
#define GX_MAKESOLIDS_H

#include "postgres.h"

#include "batch/gx_batch.h"

/* One body's solid, made on a worker thread. */
typedef struct GxMade
{
	struct varlena *value;		/* malloc'd stored form (packed, compressed when that pays); NULL: failed */
	GxError		err;
	bool		too_large;		/* its text form would exceed GX_MAX_TEXT_BYTES */
} GxMade;

/*
 * Solid s (size bytes, from gx_alloc, given up here) stored into m as gx_pg_datum stores it, then compressed
 * with method: what a worker thread does with a solid it made (under gx_alloc_plain), calling no PostgreSQL
 * function.
 */
void		gx_made_store(GxSerialized *s, size_t size, char method, GxMade *m);

/*
 * The bodies values[0..n) (none NULL, TOASTed or not) made solids into made[0..n) (zeroed by the caller),
 * compressed with method; a solid given stays as it is. The caller frees the values (gx_made_free), also on
 * an ERROR (cancel, a TOAST error).
 */
void		gx_made_round(const Datum *values, size_t n, const GxBatchOptions *opt, char method, GxMade *made);

/* The ERROR of a body that could not be made: its message after where. */
void		gx_made_raise(const GxMade *m, const char *where) pg_attribute_noreturn();

/* Frees made[0..n)'s values. */
void		gx_made_free(GxMade *made, size_t n);

/* The geometry bytes of a round: gpuexact.join_batch_mb for each thread opt allows. */
size_t		gx_made_round_bytes(const GxBatchOptions *opt);

#endif
