/*
 * gx_places.c: where points lie in a solid, once located (gx_places.h): an open-addressing table (linear
 * probing) keyed by the points' coordinates, at most three quarters full.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "operation/gx_places.h"

bool
gx_places_init(GxPlaces *pl, size_t n)
{
	size_t		cap = 64;

	while (cap < 4 * n && cap < SIZE_MAX / 16)
		cap *= 2;
	pl->mask = cap - 1;
	pl->at = calloc(cap, sizeof(const double *));
	pl->loc = malloc(cap);
	return pl->at != NULL && pl->loc != NULL;
}

void
gx_places_free(GxPlaces *pl)
{
	free(pl->at);
	free(pl->loc);
}

/* p's slot: where it is, or the free one where it goes. */
static size_t
slot(const GxPlaces *pl, const double *p)
{
	uint64_t	b[3],
				h;
	size_t		i;

	memcpy(b, p, sizeof(b));
	h = b[0] * 0x9E3779B97F4A7C15u ^ b[1] * 0xC2B2AE3D27D4EB4Fu ^ b[2] * 0x165667B19E3779F9u;
	for (i = (size_t) (h ^ h >> 29) & pl->mask; pl->at[i] && memcmp(pl->at[i], p, 3 * sizeof(double)) != 0;
		 i = (i + 1) & pl->mask)
		;
	return i;
}

GxLocation
gx_places_get(const GxPlaces *pl, const double *p)
{
	size_t		i = slot(pl, p);

	return pl->at[i] ? (GxLocation) pl->loc[i] : GX_LOC_FAILED;
}

void
gx_places_put(GxPlaces *pl, const double *p, GxLocation loc)
{
	size_t		i = slot(pl, p);

	if (!pl->at[i])
	{
		pl->at[i] = p;
		pl->loc[i] = (signed char) loc;
	}
}
