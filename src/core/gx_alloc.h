/* gx_alloc.h: the core library's allocator, replaceable (malloc by default, palloc inside PostgreSQL). */
#ifndef GX_ALLOC_H
#define GX_ALLOC_H

#include <stddef.h>

typedef struct GxAllocator
{
	void	   *(*alloc) (size_t size);		/* returns NULL on failure or never returns */
	void	   *(*realloc) (void *ptr, size_t size);
	void		(*free) (void *ptr);
} GxAllocator;

/* Installs an allocator for the calling process (not thread-safe: call once at load time). */
void		gx_set_allocator(const GxAllocator *a);

void	   *gx_alloc(size_t size);
void	   *gx_realloc(void *ptr, size_t size);
void		gx_free(void *ptr);

#endif
