/*
 * gx_solid_contacts.h: step 4 of gx_makesolid (gx_solid_make.c): no two triangles of a closed surface may
 * meet other than along the edge or at the vertices they share.
 */
#ifndef GX_SOLID_CONTACTS_H
#define GX_SOLID_CONTACTS_H

#include "batch/gx_batch.h"

/*
 * The n triangles at tri (9 doubles each), with their 3n vertex ids vid (equal points, equal ids) and their
 * neighbours nb (nb[3t + k]: the other triangle of the edge from corner k to k + 1; every edge has two):
 * false with err naming the first pair in index order that meets where it may not, with coordinates. The
 * batch engine's self-join when opt asks for the GPU, else a hierarchy of boxes on the CPU. kept (NULL: none):
 * per triangle, 1 where the caller knows that two such triangles meet only where they may; those pairs are
 * not tested.
 */
bool		gx_solid_contacts(const double *tri, size_t n, const uint32_t *vid, const uint32_t *nb,
							  const uint8_t *kept, const GxBatchOptions *opt, GxError *err);

/* "(x y z)" of a point, for messages: each the shortest decimal that reads back to the same double. */
const char *gx_solid_point_text(char *buf, const double *c);

#endif
