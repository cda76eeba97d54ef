/* gx_alloc.h: the core library's allocator, replaceable (malloc by default, palloc inside PostgreSQL). */
#ifndef GX_ALLOC_H
#define GX_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct GxAllocator
{
	void	   *(*alloc) (size_t size);		/* returns NULL on failure or never returns */
	void	   *(*realloc) (void *ptr, size_t size);
	void		(*free) (void *ptr);
	void	   *(*try_alloc) (size_t size);	/* NULL on failure, always; NULL: alloc serves */
} GxAllocator;

/* Installs an allocator for the calling process (not thread-safe: call once at load time). */
void		gx_set_allocator(const GxAllocator *a);

/* May threads other than the one that installed it call gx_alloc? True of the default (malloc). */
bool		gx_alloc_in_threads(void);

/*
 * In the calling thread only: gx_alloc, gx_realloc and gx_free call malloc, realloc and free while on (for
 * worker threads running code that allocates, under a host whose allocator is not thread-safe); what is
 * allocated while on is freed while on, or with free.
 */
void		gx_alloc_plain(bool on);

/* Is gx_alloc_plain on in the calling thread? */
bool		gx_alloc_is_plain(void);

void	   *gx_alloc(size_t size);

/* gx_alloc that returns NULL when memory runs out, never raising (for cleanup the caller must do itself). */
void	   *gx_alloc_try(size_t size);
void	   *gx_realloc(void *ptr, size_t size);
void		gx_free(void *ptr);

/*
 * Grows the array *data of *cap elements of elem bytes to hold count of them, doubling from 16, never past
 * max elements; false when count exceeds max or memory runs out (the array stays as it was).
 */
bool		gx_grow(void **data, size_t *cap, size_t count, size_t elem, size_t max);

/* The same with malloc and realloc: for worker threads, where gx_alloc may not be called. */
bool		gx_grow_malloc(void **data, size_t *cap, size_t count, size_t elem, size_t max);

#endif
