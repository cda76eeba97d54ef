/* gx_alloc.c: allocator indirection of the core library. */
#include <stdbool.h>
#include <stdlib.h>

#include "base/gx_alloc.h"

static GxAllocator allocator = {malloc, realloc, free, NULL};
static bool replaced;
static __thread bool plain;		/* this thread uses malloc whatever is installed */

void
gx_set_allocator(const GxAllocator *a)
{
	allocator = *a;
	replaced = true;
}

bool
gx_alloc_in_threads(void)
{
	return !replaced;
}

void
gx_alloc_plain(bool on)
{
	plain = on;
}

bool
gx_alloc_is_plain(void)
{
	return plain;
}

void *
gx_alloc(size_t size)
{
	return plain ? malloc(size ? size : 1) : allocator.alloc(size ? size : 1);
}

void *
gx_alloc_try(size_t size)
{
	if (plain || allocator.try_alloc == NULL)
		return gx_alloc(size);
	return allocator.try_alloc(size ? size : 1);
}

void *
gx_realloc(void *ptr, size_t size)
{
	return plain ? realloc(ptr, size ? size : 1) : allocator.realloc(ptr, size ? size : 1);
}

void
gx_free(void *ptr)
{
	if (ptr)
		plain ? free(ptr) : allocator.free(ptr);
}

/* gx_grow and gx_grow_malloc: the capacity doubled from 16, through the allocator given. */
static bool
grow(void **data, size_t *cap, size_t count, size_t elem, size_t max, bool plain)
{
	size_t		want = *cap ? *cap : 16;
	void	   *grown;

	if (count <= *cap)
		return true;
	if (count > max)
		return false;
	while (want < count)
		want = want > max / 2 ? max : 2 * want;
	if (plain)
		grown = *data ? realloc(*data, want * elem) : malloc(want * elem);
	else
		grown = *data ? gx_realloc(*data, want * elem) : gx_alloc(want * elem);
	if (grown == NULL)
		return false;
	*data = grown;
	*cap = want;
	return true;
}

bool
gx_grow(void **data, size_t *cap, size_t count, size_t elem, size_t max)
{
	return grow(data, cap, count, elem, max, false);
}

bool
gx_grow_malloc(void **data, size_t *cap, size_t count, size_t elem, size_t max)
{
	return grow(data, cap, count, elem, max, true);
}
