/* gx_geom_cache.c: the geometry cache (see gx_geom_cache.h): a chained hash table and an LRU list. */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_geom_cache.h"
#include "batch/gx_side_index.h"

#define BUCKETS 4096

typedef struct Entry
{
	struct Entry *next_in_bucket;
	struct Entry *newer,
			   *older;			/* LRU list */
	uint64_t	hash;
	size_t		nkeys;
	GxCacheKey *keys;
	GxCachedSide value;
	size_t		bytes;
	int			pins;
	bool		stale;			/* replaced or reset while pinned: freed at its last unpin */
} Entry;

struct GxCache
{
	Entry	   *bucket[BUCKETS];
	Entry	   *newest,
			   *oldest;
	size_t		max_bytes;
	GxCacheFreeHook on_free;
	GxCacheStats stats;
};

static uint64_t
hash_keys(const GxCacheKey *keys, size_t n)
{
	uint64_t	h = 1469598103934665603ULL;
	size_t		i;
	int			j;

	for (i = 0; i < n; i++)
		for (j = 0; j < 4; j++)
			h = (h ^ keys[i].k[j]) * 1099511628211ULL;
	return h ^ n;
}

GxCache *
gx_cache_create(size_t max_bytes, GxCacheFreeHook on_free)
{
	GxCache    *c = calloc(1, sizeof(GxCache));

	if (c)
	{
		c->max_bytes = max_bytes;
		c->on_free = on_free;
	}
	return c;
}

static void
lru_unlink(GxCache *c, Entry *e)
{
	if (e->newer)
		e->newer->older = e->older;
	else
		c->newest = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		c->oldest = e->newer;
	e->newer = e->older = NULL;
}

static void
lru_push_newest(GxCache *c, Entry *e)
{
	e->older = c->newest;
	e->newer = NULL;
	if (c->newest)
		c->newest->newer = e;
	c->newest = e;
	if (c->oldest == NULL)
		c->oldest = e;
}

static void
entry_free(GxCache *c, Entry *e)
{
	if (c->on_free)
		c->on_free(&e->value);
	else
	{
		gx_batch_side_free(&e->value.side);
		gx_free(e->value.srids);
	}
	free(e->keys);
	free(e);
}

/* Takes e out of the table and the LRU list; frees it now or, when pinned, at its last unpin. */
static void
entry_drop(GxCache *c, Entry *e)
{
	Entry	  **p = &c->bucket[e->hash % BUCKETS];

	while (*p != e)
		p = &(*p)->next_in_bucket;
	*p = e->next_in_bucket;
	lru_unlink(c, e);
	c->stats.entries--;
	c->stats.bytes -= e->bytes;
	if (e->pins > 0)
		e->stale = true;
	else
		entry_free(c, e);
}

/* Frees least recently used unpinned entries until the bytes fit the bound. */
static void
evict(GxCache *c)
{
	Entry	   *e = c->oldest;

	while (e != NULL && c->stats.bytes > c->max_bytes)
	{
		Entry	   *newer = e->newer;

		if (e->pins == 0)
			entry_drop(c, e);
		e = newer;
	}
}

void
gx_cache_set_limit(GxCache *c, size_t max_bytes)
{
	c->max_bytes = max_bytes;
	evict(c);
}

static Entry *
find(GxCache *c, const GxCacheKey *keys, size_t n, uint64_t h)
{
	Entry	   *e;

	for (e = c->bucket[h % BUCKETS]; e != NULL; e = e->next_in_bucket)
		if (e->hash == h && e->nkeys == n && memcmp(e->keys, keys, n * sizeof(GxCacheKey)) == 0)
			return e;
	return NULL;
}

/* The Entry that holds value v. */
static Entry *
entry_of(const GxCachedSide *v)
{
	return (Entry *) ((char *) v - offsetof(Entry, value));
}

const GxCachedSide *
gx_cache_get(GxCache *c, const GxCacheKey *keys, size_t n)
{
	const GxCachedSide *v = gx_cache_pin(c, keys, n);

	if (v)
		c->stats.hits++;
	else
		c->stats.misses++;
	return v;
}

const GxCachedSide *
gx_cache_pin(GxCache *c, const GxCacheKey *keys, size_t n)
{
	Entry	   *e = find(c, keys, n, hash_keys(keys, n));

	if (e == NULL)
		return NULL;
	e->pins++;
	lru_unlink(c, e);
	lru_push_newest(c, e);
	return &e->value;
}

bool
gx_cache_holds(GxCache *c, const GxCacheKey *keys, size_t n)
{
	return find(c, keys, n, hash_keys(keys, n)) != NULL;
}

const GxCachedSide *
gx_cache_put(GxCache *c, const GxCacheKey *keys, size_t n, GxCachedSide *v)
{
	uint64_t	h = hash_keys(keys, n);
	Entry	   *e = calloc(1, sizeof(Entry));
	Entry	   *old = find(c, keys, n, h);

	if (e == NULL || (e->keys = malloc((n ? n : 1) * sizeof(GxCacheKey))) == NULL)
	{
		free(e);
		if (c->on_free)
			c->on_free(v);
		else
		{
			gx_batch_side_free(&v->side);
			gx_free(v->srids);
		}
		return NULL;
	}
	if (old)
		entry_drop(c, old);
	memcpy(e->keys, keys, n * sizeof(GxCacheKey));
	e->nkeys = n;
	e->hash = h;
	e->value = *v;
	e->bytes = sizeof(Entry) + n * sizeof(GxCacheKey) + (v->held_bytes ? v->held_bytes :
		v->side.cap * (9 * sizeof(double) + 1 + sizeof(uint32_t)) + v->side.ngeoms * sizeof(int32_t) +
		(v->side.index ? v->side.index->bytes : 0));
	e->pins = 1;
	e->next_in_bucket = c->bucket[h % BUCKETS];
	c->bucket[h % BUCKETS] = e;
	lru_push_newest(c, e);
	c->stats.entries++;
	c->stats.bytes += e->bytes;
	evict(c);
	return &e->value;
}

bool
gx_cache_index(GxCache *c, const GxCachedSide *v, GxError *err)
{
	Entry	   *e = entry_of(v);
	GxBatchSide side = e->value.side;
	size_t		bytes;

	if (side.index)
		return true;
	/* made on a copy: an allocator that does not return (palloc's ERROR) leaves the entry without one */
	if (!gx_side_index_build(&side, err))
		return false;
	if (side.index == NULL)
		return true;			/* an empty side has none */
	e->value.side.index = side.index;
	bytes = e->value.held_bytes ? 0 : side.index->bytes;
	e->bytes += bytes;
	c->stats.bytes += bytes;
	evict(c);
	return true;
}

void
gx_cache_unpin(GxCache *c, const GxCachedSide *v)
{
	Entry	   *e = entry_of(v);

	if (--e->pins > 0)
		return;
	if (e->stale)
		entry_free(c, e);
	else
		evict(c);
}

void
gx_cache_reset(GxCache *c)
{
	Entry	   *e = c->oldest;

	while (e != NULL)
	{
		Entry	   *newer = e->newer;

		entry_drop(c, e);
		e = newer;
	}
	c->stats.hits = c->stats.misses = 0;
}

GxCacheStats
gx_cache_stats(const GxCache *c)
{
	return c->stats;
}
