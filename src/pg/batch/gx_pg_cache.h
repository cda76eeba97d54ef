/*
 * gx_pg_cache.h: batch sides made from rows, and the backend's geometry cache under them: a side of TOASTed
 * values is kept flattened between queries under their TOAST identities, a side of values stored inline
 * (short lines, points) under the identity this backend gave to its bytes.
 */
#ifndef GX_PG_CACHE_H
#define GX_PG_CACHE_H

#include "postgres.h"

#include "batch/gx_batch.h"
#include "batch/gx_geom_cache.h"

/*
 * A batch side made from rows: geometry k of the side came from row ids[k]. The side's arrays are made
 * only when needed (gx_pg_side_materialize): the GPU service may hold the side already, under the keys of
 * its TOASTed values. srid and mixed_srid of `side` are known before (from the service's answer).
 */
typedef struct GxPgSide
{
	GxBatchSide side;			/* arrays valid once built */
	bool		built;
	bool		laid_out_elsewhere;	/* laid out once in a GPU service's segment: made in cxt from then on */
	size_t		ngeoms;			/* geometries (rows with a geometry) */
	int64	   *ids;
	int32	   *srids;			/* per geometry, once built */
	/* what it is made from */
	const Datum *geoms;
	const bool *present;
	size_t		nrows;
	GxCacheKey *keys;			/* its identity in the backend's cache (gx_pg_cache.c), or NULL when none */
	size_t		nkeys;
	GxCacheKey *skeys;			/* its identity in the GPU service's cache: keys, or a hash of its bytes */
	size_t		nskeys;
	struct ContentMemo *content;	/* a side of inline values: where its bytes are remembered; else NULL */
	uint32		content_serial; /* that memo's number for them (it may be given to other bytes later) */
	size_t		content_len;	/* how many bytes they make */
	size_t		raw_bytes;		/* with keys: its values' uncompressed sizes, summed */
	MemoryContext cxt;			/* where it lives: its arrays, or its hold on cached ones, go with it */
	/* a side of given identity whose values are not at hand (geoms NULL): reads them when they are needed */
	void		(*load) (struct GxPgSide *s, void *arg);
	void	   *load_arg;
	/* a side its caller makes (gx_volume_pairs' blocks), known by skeys alone: make(s, make_arg) makes s->side */
	void		(*make) (struct GxPgSide *s, void *arg);
	void	   *make_arg;
	const GxCachedSide *entry;	/* the backend cache's entry whose arrays it uses, or NULL */
	/*
	 * A table's side (gx_pg_table.c): writes the rows_len bytes that locate its rows, which the GPU service
	 * keeps with it for other sessions; NULL when none. Called where no ERROR may be raised.
	 */
	void		(*rows_write) (const struct GxPgSide *s, char *dst);
	size_t		rows_len;
	/* where the time went, for EXPLAIN (the caller adds them up and may zero them) */
	double		read_ms;		/* identifying its values (their TOAST keys), making its arrays: fetching,
								 * decompressing, unpacking, flattening */
	double		send_ms;		/* writing them into the GPU service's segment (its making included) */
} GxPgSide;

void		gx_pg_side_init(GxPgSide *s);

/*
 * Makes s the side of the n gxgeom Datums geoms[i] with present[i] (ids i, in order), which must stay
 * valid while s is used; nothing is detoasted yet. s lives in cxt: its arrays, when made, are allocated
 * there, or come from the backend's geometry cache (gx_pg_cache.c) if its geometries are all TOASTed
 * values or all inline, held until cxt is reset. xmins (or NULL): per row, the raw xmin of the stored row version the
 * TOAST pointer was read from, when known (else InvalidTransactionId): it stands for the transaction
 * that stored the value in the value's identity, and spares a probe of the TOAST table.
 */
void		gx_pg_side_prepare(GxPgSide *s, const Datum *geoms, const bool *present, const TransactionId *xmins,
							   size_t n, MemoryContext cxt);
/*
 * Makes s a side whose identity is given: keys[0..nkeys) name its contents in the backend's cache and in the
 * GPU service's alike (a kept table's: gx_pg_table.h). Its geometries are ngeoms of nrows rows, geometry k
 * of row ids[k] (ids must stay valid while s is used), raw_bytes their values' uncompressed sizes summed.
 * Its values, when its arrays must be made and no cache holds them, are read by load(s, load_arg), which
 * sets s->geoms and s->present to the same rows.
 */
void		gx_pg_side_prepare_given(GxPgSide *s, const GxCacheKey *keys, size_t nkeys, int64 *ids, size_t ngeoms,
									 size_t nrows, size_t raw_bytes, void (*load) (GxPgSide *s, void *arg),
									 void *load_arg, MemoryContext cxt);

/*
 * The raw xmin of the stored row version that TOAST pointer d lies in, while that row is a scan's current
 * row (its page pinned in a shared buffer): the transaction that wrote the row, which stands for the one
 * that stored the value in the value's identity. InvalidTransactionId when d is not such a pointer (a
 * copy, a value computed or inline, a temporary table's).
 */
TransactionId gx_pg_stored_xmin(Datum d);

/* Would the backend's cache keep a side whose values take raw_bytes (uncompressed)? */
bool		gx_pg_side_fits_cache(size_t raw_bytes);

/* Makes s's arrays (and srids), in its context or borrowed from the cache. */
void		gx_pg_side_materialize(GxPgSide *s);

/*
 * Making s's arrays in two steps, for a side laid out where the caller says (the GPU service's segment):
 * gx_pg_side_read reads its values whole (fetched, decompressed, unpacked or checked) into r and counts the
 * elements they make (r->elements); gx_pg_side_lay_out lays them out into room's arrays (room for
 * r->elements: gx_wire_side_room), and r's values stay until gx_pg_read_free (the caller frees them while
 * the service works), else as gx_pg_side_materialize would, which lets r's values go. Arrays in room are
 * the caller's: gx_pg_side_forget drops them before their room goes, and s is made again when next needed.
 * r's memory belongs to the memory context current at the read, so an ERROR frees it too.
 */
typedef struct GxPgRead
{
	MemoryContext work;			/* the values, and those the helpers made freed with it */
	struct varlena **raw;
	size_t		count;
	size_t		elements;
} GxPgRead;

/* Does the backend's cache hold s's arrays (so that making them reads nothing)? */
bool		gx_pg_side_cached(const GxPgSide *s);
void		gx_pg_side_read(GxPgSide *s, GxPgRead *r);
void		gx_pg_side_lay_out(GxPgSide *s, GxPgRead *r, const GxBatchSide *room);
void		gx_pg_read_free(GxPgRead *r);
void		gx_pg_side_forget(GxPgSide *s);

/*
 * Gives a side borrowed from the cache its index (gx_side_index.h), made once and kept with the entry, for
 * a batch run in this backend: a side only sent to the GPU service is never indexed here.
 */
void		gx_pg_side_index(GxPgSide *s);

/*
 * A side of inline values (s->content != NULL) in the GPU service: the length of its bytes, which the service
 * compares with those of the side it keeps under the same hash, and the service's entry (its serial number)
 * known to hold these very bytes, 0 when none is; the bytes written to dst; and, once the service keeps them
 * as entry serial, the note of it.
 */
void		gx_pg_side_content(const GxPgSide *s, size_t *len, uint64 *serial);
void		gx_pg_side_content_write(const GxPgSide *s, char *dst);
void		gx_pg_side_content_held(const GxPgSide *s, uint64 serial);

/*
 * The header of geometry k of s, whose value is d (its flags, SRID, box and top-level type: gx_pg_header),
 * remembered under the value's TOAST identity for the next query, which then reads nothing from the TOAST
 * table.
 */
const GxSerialized *gx_pg_side_head(const GxPgSide *s, size_t k, Datum d);

/* How many TOAST values this backend identified with a probe of their TOAST table (gx_stats). */
extern uint64 gx_pg_toast_probes;
/* How many sides this backend laid out in the GPU service's segment directly (gx_stats). */
extern uint64 gx_pg_sides_laid_out;

/* This backend's cache figures; with reset, its entries are dropped first. */
GxCacheStats gx_pg_cache_stats(bool reset);

#endif
