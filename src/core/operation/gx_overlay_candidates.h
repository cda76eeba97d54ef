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
#include "solid/gx_solid.h"

/* Side s's triangle i (0: a, 1: b): the other's triangles list[s][start[s][i] .. start[s][i + 1]). */
typedef struct GxOverlayCandidates
{
	size_t	   *start[2];
	uint32_t   *list[2];
} GxOverlayCandidates;

/*
 * The candidates of solids a and b (their indexes, fewer than 2^32 triangles each), from a uniform grid over
 * their boxes' overlap. Memory from malloc (threads may call this). false with err set: memory, cancelled,
 * more than max_pairs pairs (GX_ERR_LIMIT; 0: no bound).
 */
bool		gx_overlay_candidates(const GxSolidIndex *a, const GxSolidIndex *b, const GxCancel *cancel,
								  size_t max_pairs, GxOverlayCandidates *out, GxError *err);
void		gx_overlay_candidates_free(GxOverlayCandidates *c);

#endif
