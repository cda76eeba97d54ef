/*
 * gx_places.h: where points lie in a solid, once located, keyed by their coordinates, so that a vertex
 * shared by several triangles is located once (the overlay's filter and the booleans: vertices of triangles
 * that nothing of the other solid meets, whose points all lie on one side of its surface). Memory from malloc.
 */
#ifndef GX_PLACES_H
#define GX_PLACES_H

#include <stdbool.h>
#include <stddef.h>

#include "solid/gx_solid.h"

typedef struct GxPlaces
{
	const double **at;			/* the point, NULL for a free slot */
	signed char *loc;			/* GX_LOC_INSIDE or GX_LOC_OUTSIDE */
	size_t		mask;
} GxPlaces;

/* Room for the 3 n vertices of n triangles; false without memory (then gx_places_free it all the same). */
bool		gx_places_init(GxPlaces *pl, size_t n);
void		gx_places_free(GxPlaces *pl);

/* p's place (GX_LOC_FAILED when unknown). */
GxLocation	gx_places_get(const GxPlaces *pl, const double *p);

/* Records p's place (inside or outside); p must stay where it is. */
void		gx_places_put(GxPlaces *pl, const double *p, GxLocation loc);

#endif
