/*
 * gx_snap.h: a boolean's surface, its new vertices rounded to doubles, mended where the rounding broke it.
 * Where rounding laid a vertex on the line of an edge it was beside (a sliver thinner than the rounding), the
 * triangle, its three vertices now collinear, has no area: it is dropped and its neighbour across its longest
 * edge split at its middle vertex (the same surface); a sliver within a few spacings of its longest edge (which
 * rounding may have folded over, or laid through a neighbour) is mended the same way, when asked. Where new
 * vertices lie closer to others than the rounding can keep apart (features smaller than the doubles' spacing
 * fold over), they are moved onto them.
 */
#ifndef GX_SNAP_H
#define GX_SNAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The n triangles at tri (9 doubles each, consistently oriented, each edge shared by two), mended in place (n
 * stays): each triangle with three distinct collinear vertices (p, q, m: m between p and q, the triangle runs
 * p -> q) and the one triangle across q -> p, (q, p, d), become (q, m, d) and (m, p, d); again while such
 * triangles are found and mended (a mended neighbour may be flat itself). With tol > 0, so is each sliver (m,
 * its corner opposite its longest edge p -> q, within tol of that edge's line, in doubles), whose rounding may
 * have laid m past that line or through a neighbour: its other diagonal makes no sliver, and the surface moves
 * by no more than the sliver's thickness (where the two lay in one plane before rounding, the quadrilateral p,
 * d, q, m was convex, and it covers the same).
 * Triangles with a repeated vertex are left as they are (gx_solid_make drops those along an edge).
 * false when memory ran out; a flat triangle that could not be mended (no one triangle across its longest
 * edge) is left for gx_solid_make to name.
 */
bool		gx_snap_flat(double *tri, size_t n, double tol);

/*
 * The vertices of the n triangles at tri that are not vertices of the inputs (the in[k]: nin[k] triangles each),
 * within tol on every axis of another vertex, moved onto the nearest such (a vertex of the inputs where one is
 * that near; two vertices of the inputs are never joined): what rounding cannot separate made one point.
 * Returns how many triangles' corners moved, SIZE_MAX without memory.
 */
size_t		gx_snap_cluster(double *tri, size_t n, const double *const in[2], const size_t nin[2], double tol);

#endif
