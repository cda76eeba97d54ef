/*
 * gx_overlay_candidates.h: the pairs of triangles of two solids whose boxes overlap (all that may meet), found
 * once and listed per triangle on both sides, for the overlay's filter (gx_overlay_filter.c).
 */
#ifndef GX_OVERLAY_CANDIDATES_H
#define GX_OVERLAY_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/gx_interrupt.h"
#include "operation/gx_overlay.h"
#include "solid/gx_solid.h"

/*
 * Side s's triangle i (0: a, 1: b): the other's triangles list[s][start[s][i] .. start[s][i + 1]), each
 * entry's pair (a number below npairs, the same on both sides) at pair[s][...].
 */
typedef struct GxOverlayCandidates
{
	size_t	   *start[2];
	uint32_t   *list[2],
			   *pair[2];
	size_t		npairs;
} GxOverlayCandidates;

/*
 * The candidates of solids a and b (their indexes, fewer than 2^32 triangles each), from a uniform grid over
 * their boxes' overlap, on opt's threads (cancelled by its flags); the same pairs in the same order on any
 * number. Memory from malloc (threads may call this). false with err set: memory, cancelled, more than
 * max_pairs pairs (GX_ERR_LIMIT; 0: no bound).
 */
bool		gx_overlay_candidates(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt,
								  size_t max_pairs, GxOverlayCandidates *out, GxError *err);

/*
 * The candidates of solids of na and nb triangles from their pairs given: pairs[2k] a's triangle and
 * pairs[2k + 1] b's, k < n (every pair whose boxes overlap, each once, in any order; found on the GPU,
 * gx_cuda_overlap_candidates). false when memory runs out. Memory from malloc (threads may call this).
 */
bool		gx_overlay_candidates_of_pairs(size_t na, size_t nb, const uint32_t *pairs, size_t n,
										   GxOverlayCandidates *out);
void		gx_overlay_candidates_free(GxOverlayCandidates *c);

#endif
