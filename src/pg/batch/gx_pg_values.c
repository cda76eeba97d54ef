/*
 * gx_pg_values.c: a side's stored geometries read whole (gx_pg_values.h). TOAST access is this backend's
 * alone, so it fetches the values one by one; pglz decompression and unpacking are pure functions, which
 * helper threads run on the values already fetched, at the same time: the reading of a large side costs
 * about its fetching, not its fetching and then its decompression. The helpers are plain threads with
 * every signal blocked, and never call PostgreSQL.
 */
#include "postgres.h"

#include <pthread.h>
#include <signal.h>

#include "access/detoast.h"
#include "access/toast_compression.h"
#include "common/pg_lzcompress.h"
#include "fmgr.h"
#include "miscadmin.h"

#include "batch/gx_pg_values.h"
#include "geom/gx_geom.h"
#include "geom/gx_pack.h"

/* The values fetched that need work (todo), and the helpers taking them in turn. */
typedef struct Pipeline
{
	struct varlena **raw;
	const bool *compressed;
	bool	   *owned;
	size_t	   *todo;			/* indexes into raw of values to decompress or unpack */
	size_t		queued;			/* todo[0..queued) written by the backend */
	size_t		published;		/* todo[0..published) visible to the helpers (under lock) */
	size_t		next;			/* the next todo to take (under lock) */
	bool		done;			/* every value fetched (under lock) */
	bool		stop;			/* an ERROR: take nothing more (under lock) */
	bool		corrupt;
	int			threads;
	pthread_mutex_t lock;
	pthread_cond_t more;
} Pipeline;

/*
 * A geometry's bytes, whole; *compressed when they are pglz-compressed, left so for a helper. Other
 * compression (lz4) is undone here, by PostgreSQL.
 */
static struct varlena *
fetch(Datum d, bool *compressed)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	*compressed = false;
	if (VARATT_IS_EXTERNAL_ONDISK(v))
		v = detoast_external_attr(v);
	if (VARATT_IS_COMPRESSED(v) && VARDATA_COMPRESSED_GET_COMPRESS_METHOD(v) == TOAST_PGLZ_COMPRESSION_ID)
		*compressed = true;
	else if (VARATT_IS_EXTENDED(v))
		v = (struct varlena *) PG_DETOAST_DATUM(PointerGetDatum(v));
	return v;
}

/* The pglz value v decompressed into a malloc'd value, or NULL if it is corrupt (or memory ran out). */
static struct varlena *
decompressed(const struct varlena *v)
{
	int32		rawsize = VARDATA_COMPRESSED_GET_EXTSIZE(v);
	struct varlena *out = malloc(rawsize + VARHDRSZ);

	if (out == NULL ||
		pglz_decompress((char *) v + VARHDRSZ_COMPRESSED, VARSIZE(v) - VARHDRSZ_COMPRESSED, VARDATA(out), rawsize,
						true) != rawsize)
	{
		free(out);
		return NULL;
	}
	SET_VARSIZE(out, rawsize + VARHDRSZ);
	return out;
}

/* The packed value v unpacked (gx_pack.h) into a malloc'd value, or NULL if it is corrupt. */
static struct varlena *
unpacked(const struct varlena *v)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	struct varlena *out;

	if (!gx_unpacked_size((const GxSerialized *) v, VARSIZE(v), &size, &err) || (out = malloc(size)) == NULL)
		return NULL;
	if (!gx_unpack_into((const GxSerialized *) v, VARSIZE(v), (GxSerialized *) out, &err))
	{
		free(out);
		return NULL;
	}
	SET_VARSIZE(out, size);
	return out;
}

/* raw[k] made a value the core reads: decompressed, unpacked, or both, into a malloc'd value. */
static void
expand(Pipeline *p, size_t k)
{
	struct varlena *v = p->compressed[k] ? decompressed(p->raw[k]) : p->raw[k];
	bool		owned = p->compressed[k];

	if (v != NULL && (((GxSerialized *) v)->flags & GX_FLAG_PACKED))
	{
		struct varlena *u = unpacked(v);

		if (owned)
			free(v);
		v = u;
		owned = true;
	}
	if (v == NULL)
	{
		__atomic_store_n(&p->corrupt, true, __ATOMIC_RELAXED);
		return;
	}
	p->raw[k] = v;
	p->owned[k] = owned;
}

/*
 * The next run of todo entries [*lo, *hi) once fetched: a share of those waiting, so that many small values
 * take few turns of the lock. false when every value is done, or on stop.
 */
static bool
take(Pipeline *p, size_t *lo, size_t *hi)
{
	size_t		share;

	pthread_mutex_lock(&p->lock);
	while (!p->stop && !p->done && p->next == p->published)
		pthread_cond_wait(&p->more, &p->lock);
	if (p->stop || p->next == p->published)
	{
		pthread_mutex_unlock(&p->lock);
		return false;
	}
	share = (p->published - p->next) / (2 * (size_t) p->threads);
	*lo = p->next;
	*hi = p->next += share > 0 ? share : 1;
	pthread_mutex_unlock(&p->lock);
	return true;
}

static void
work(Pipeline *p)
{
	size_t		lo,
				hi;

	while (take(p, &lo, &hi))
		for (size_t t = lo; t < hi; t++)
			expand(p, p->todo[t]);
}

static void *
helper_main(void *arg)
{
	work((Pipeline *) arg);
	return NULL;
}

/* Makes todo[0..queued) visible to the helpers, with done when every value is fetched, or stop. */
static void
publish(Pipeline *p, bool done, bool stop)
{
	pthread_mutex_lock(&p->lock);
	p->published = p->queued;
	p->done |= done;
	p->stop |= stop;
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->lock);
}

size_t
gx_pg_values_bytes(const Datum *geoms, const bool *present, size_t n)
{
	size_t		bytes = 0;

	for (size_t i = 0; i < n; i++)
		if (present[i])
		{
			struct varlena *v = (struct varlena *) DatumGetPointer(geoms[i]);

			if (VARATT_IS_EXTERNAL_ONDISK(v))
			{
				struct varatt_external e;

				VARATT_EXTERNAL_GET_POINTER(e, v);
				bytes += e.va_rawsize;
			}
			else
				bytes += VARATT_IS_COMPRESSED(v) ? VARDATA_COMPRESSED_GET_EXTSIZE(v) : VARSIZE_ANY(v);
		}
	return bytes;
}

bool
gx_pg_values_read(const Datum *geoms, const bool *present, size_t n, size_t count, int threads,
				  struct varlena **raw, bool *owned)
{
	Pipeline	p;
	pthread_t  *helpers = palloc(Max(threads, 1) * sizeof(pthread_t));
	bool	   *compressed = palloc0(Max(count, 1) * sizeof(bool));
	int			nhelpers = 0;
	size_t		k = 0,
				since = 0;
	sigset_t	all,
				old;

	memset(&p, 0, sizeof(p));
	p.raw = raw;
	p.compressed = compressed;
	p.owned = owned;
	p.todo = palloc(Max(count, 1) * sizeof(size_t));
	p.threads = Max(threads, 1);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.more, NULL);
	/* the helpers take no signal: PostgreSQL's handlers are for this thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (nhelpers < threads - 1 && pthread_create(&helpers[nhelpers], NULL, helper_main, &p) == 0)
		nhelpers++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	PG_TRY();
	{
		for (size_t i = 0; i < n; i++)
			if (present[i])
			{
				raw[k] = fetch(geoms[i], &compressed[k]);
				if (compressed[k] || (((GxSerialized *) raw[k])->flags & GX_FLAG_PACKED))
				{
					p.todo[p.queued++] = k;
					since += VARSIZE_ANY(raw[k]);
				}
				/* handed over by the megabyte, not by the value: many small values take few locks */
				if (since >= (1 << 20))
				{
					publish(&p, false, false);
					since = 0;
				}
				k++;
				CHECK_FOR_INTERRUPTS();
			}
		publish(&p, true, false);
		work(&p);
	}
	PG_FINALLY();
	{
		publish(&p, true, true);
		while (nhelpers > 0)
			pthread_join(helpers[--nhelpers], NULL);
		pthread_cond_destroy(&p.more);
		pthread_mutex_destroy(&p.lock);
	}
	PG_END_TRY();
	pfree(helpers);
	pfree(compressed);
	pfree(p.todo);
	return !p.corrupt;
}
