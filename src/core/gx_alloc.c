/* gx_alloc.c: allocator indirection of the core library. */
#include <stdlib.h>

#include "gx_alloc.h"

static GxAllocator allocator = {malloc, realloc, free};

void
gx_set_allocator(const GxAllocator *a)
{
	allocator = *a;
}

void *
gx_alloc(size_t size)
{
	return allocator.alloc(size ? size : 1);
}

void *
gx_realloc(void *ptr, size_t size)
{
	return allocator.realloc(ptr, size ? size : 1);
}

void
gx_free(void *ptr)
{
	if (ptr)
		allocator.free(ptr);
}
