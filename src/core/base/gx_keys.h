/* gx_keys.h: growable arrays of 64-bit pair keys (malloc-based: safe in worker threads), sort and unique. */
#ifndef GX_KEYS_H
#define GX_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct GxKeys
{
	uint64_t   *v;
	size_t		n;
	size_t		cap;
} GxKeys;

/* Appends k; false when memory runs out (the array stays valid). */
bool		gx_keys_push(GxKeys *k, uint64_t key);
/* Appends all of src. */
bool		gx_keys_append(GxKeys *k, const uint64_t *src, size_t n);
/* Sorts ascending and drops duplicates. */
void		gx_keys_sort_unique(GxKeys *k);
void		gx_keys_free(GxKeys *k);

#endif
