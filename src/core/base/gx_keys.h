/* gx_keys.h: growable arrays of 64-bit pair keys (malloc-based: safe in worker threads), sort and unique. */
#ifndef GX_KEYS_H
#define GX_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/gx_hd.h"

/* The key of the pair (a, b): a in the high 32 bits, so keys sort by a, then b (also in the CUDA kernels). */
GX_HD uint64_t
gx_pair_key(uint32_t a, uint32_t b)
{
	return ((uint64_t) a << 32) | b;
}

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
/* The first of v[0 .. n) (ascending) not below key: n when none. */
size_t		gx_keys_lower_bound(const uint64_t *v, size_t n, uint64_t key);
void		gx_keys_free(GxKeys *k);

#endif
