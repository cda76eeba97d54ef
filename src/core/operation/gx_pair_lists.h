/*
 * gx_pair_lists.h: pairs of indexes with a volume (a block and a solid for gx_volume_pairs, two solids for
 * gx_overlap_pairs), found on worker threads: each thread's list in malloc'd memory (worker threads must not
 * use gx_alloc), then every thread's list as one, in (a, b) order.
 */
#ifndef GX_PAIR_LISTS_H
#define GX_PAIR_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct GxPairVolume
{
	uint32_t	a;
	uint32_t	b;
	double		volume;			/* correctly rounded; the exact volume is > 0 (even when this rounds to 0) */
} GxPairVolume;

/* One thread's pairs. */
typedef struct GxPairList
{
	GxPairVolume *v;
	size_t		n,
				cap;
	bool		nomem;			/* a pair could not be added */
} GxPairList;

/* Adds (a, b, volume) to l; sets l->nomem when memory runs out. */
void		gx_pair_list_push(GxPairList *l, uint32_t a, uint32_t b, double volume);

/* The pairs of lists[0..used) as one malloc'd list of *n, or NULL (*nomem set) when memory runs out. */
GxPairVolume *gx_pair_lists_gather(const GxPairList *lists, int used, size_t *n, bool *nomem);

/* Sorts v[0..n) by a, then b. */
void		gx_pair_volumes_sort(GxPairVolume *v, size_t n);

#endif
