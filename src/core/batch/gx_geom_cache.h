/*
 * gx_geom_cache.h: geometries kept flattened between queries. An entry is a batch side (one geometry, or
 * the whole side of a join) under the list of its geometries' keys; a key names a stored value that never
 * changes under that name (PostgreSQL: database, TOAST relation, value id and the transaction that stored
 * it: an updated value is a new TOAST value, and a value id reused after OID wraparound is another
 * transaction's). Least recently used entries go first when the bytes exceed the bound; entries in
 * use are pinned and never freed under their user. Not thread-safe: one cache per process, or a lock.
 */
#ifndef GX_GEOM_CACHE_H
#define GX_GEOM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "batch/gx_batch.h"

typedef struct GxCacheKey
{
	uint32_t	k[4];
} GxCacheKey;

/* What an entry holds: the side, the SRID of each of its geometries, and whatever the owner attaches. */
typedef struct GxCachedSide
{
	GxBatchSide side;
	int32_t    *srids;
	void	   *extra;			/* e.g. the GPU service's copy on the device; released by the free hook */
	size_t		held_bytes;		/* host memory the entry keeps when more than its arrays (0: its arrays) */
} GxCachedSide;

/* Frees an entry's value, arrays included, for owners whose values are not plain gx_alloc'd arrays. */
typedef void (*GxCacheFreeHook) (GxCachedSide *v);

typedef struct GxCacheStats
{
	uint64_t	entries,
				bytes,
				hits,
				misses;
} GxCacheStats;

typedef struct GxCache GxCache;

/* A cache holding at most max_bytes (entries in use may exceed it until unpinned), its values freed by
 * on_free when not NULL. NULL if out of memory. */
GxCache    *gx_cache_create(size_t max_bytes, GxCacheFreeHook on_free);
void		gx_cache_set_limit(GxCache *c, size_t max_bytes);

/* The entry under keys[0..n), pinned; NULL on a miss. Counts a hit or a miss. */
const GxCachedSide *gx_cache_get(GxCache *c, const GxCacheKey *keys, size_t n);
/* The same, not counted: a look at what an entry keeps, not a use of its side. */
const GxCachedSide *gx_cache_pin(GxCache *c, const GxCacheKey *keys, size_t n);
/* Does the cache hold an entry under these keys? (No pin, no count, no change of its age.) */
bool		gx_cache_holds(GxCache *c, const GxCacheKey *keys, size_t n);

/*
 * Stores v (whose arrays the cache now owns and frees with the free hook, or else with gx_batch_side_free
 * and gx_free) under keys[0..n)
 * and returns it pinned; an older entry under the same keys is dropped when unpinned. NULL (v freed) when
 * the cache has no memory for its bookkeeping.
 */
const GxCachedSide *gx_cache_put(GxCache *c, const GxCacheKey *keys, size_t n, GxCachedSide *v);

/*
 * Gives the pinned entry v its side's index (gx_side_index.h) if it has none yet, counted in the entry's
 * bytes unless its owner gave held_bytes: a side is indexed when a batch that probes it runs, not when it
 * is stored. false with err set.
 */
bool		gx_cache_index(GxCache *c, const GxCachedSide *v, GxError *err);

void		gx_cache_unpin(GxCache *c, const GxCachedSide *v);

/* Drops every entry (one in use is freed at its last unpin) and zeroes the hit and miss counts. */
void		gx_cache_reset(GxCache *c);

GxCacheStats gx_cache_stats(const GxCache *c);

#endif
