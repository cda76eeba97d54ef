/*
 * gx_snap.h: a boolean's surface, its new vertices rounded to doubles, mended where the rounding laid a
 * vertex on the line of an edge it was beside (a sliver thinner than the rounding): such a triangle, its
 * three vertices now collinear, has no area; it is dropped and its neighbour across its longest edge split at
 * its middle vertex. The surface is the same set of points, triangulated without the flat triangle.
 */
#ifndef GX_SNAP_H
#define GX_SNAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The n triangles at tri (9 doubles each, consistently oriented, each edge shared by two), mended in place (n
 * stays): each triangle with three distinct collinear vertices (p, q, m: m between p and q, the triangle runs
 * p -> q) and the one triangle across q -> p, (q, p, d), become (q, m, d) and (m, p, d); again while such
 * triangles are found and mended (a mended neighbour may be flat itself). Triangles with a repeated vertex are
 * left as they are (gx_solid_make drops those along an edge). false when memory ran out; a flat triangle
 * that could not be mended (no one triangle across its longest edge) is left for gx_solid_make to name.
 */
bool		gx_snap_flat(double *tri, size_t n);

#endif
