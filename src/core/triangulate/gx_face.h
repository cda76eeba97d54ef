/*
 * gx_face.h: polygon faces (POLYGON, MULTIPOLYGON and POLYHEDRALSURFACE faces, OBJ and DXF faces) turned
 * into the triangles gpuexact stores, decided with exact predicates only: the planar, strictly convex test
 * (whose fan needs no further work), and the triangulation of any planar simple polygon with holes.
 */
#ifndef GX_FACE_H
#define GX_FACE_H

#include <stddef.h>

typedef enum GxFaceShape
{
	GX_FACE_CONVEX,				/* planar and strictly convex: the fan covers it exactly */
	GX_FACE_NOT_PLANAR,			/* a vertex is off the plane of the first three */
	GX_FACE_NOT_CONVEX			/* a turn that is not strict or not in the common direction, or a self-overlap */
} GxFaceShape;

/*
 * The shape of the polygon v[0..n-1] (n >= 3, in order, either orientation), decided with exact orient3d
 * and orient2d. When it is not GX_FACE_CONVEX, *at is the 0-based vertex at fault.
 */
GxFaceShape gx_face_shape(const double (*v)[3], size_t n, size_t *at);

/* One ring of a polygon: its n vertices in order, without the closing repeat of the first. */
typedef struct GxFaceRing
{
	const double (*v)[3];
	size_t		n;
} GxFaceRing;

typedef enum GxFaceResult
{
	GX_FACE_OK,
	GX_FACE_INVALID,			/* not planar, or not simple: the message says where */
	GX_FACE_NOMEM
} GxFaceResult;

/* Room for the message of gx_face_triangulate. */
#define GX_FACE_MSG 256

/*
 * Triangulates the polygon with outer ring ring[0] and holes ring[1..nrings-1] (nrings >= 1, every n >= 3).
 * It must be planar (every vertex on the plane of three non-collinear ones, exact orient3d) and simple in
 * an axis projection one-to-one on that plane (exact orient2d): no ring crosses or touches itself or another
 * ring (repeated consecutive vertices and collinear runs are allowed), every hole lies inside the outer ring
 * and outside the other holes. A polygon whose vertices all lie on one line has no area: without holes it
 * is kept as the segment (or point) it covers, as the fan of degenerate triangles from its first vertex.
 *
 * On GX_FACE_OK, *tri (allocated with gx_alloc, the caller frees it) holds 3 * *ntri pointers to the input
 * vertices, three a triangle, in the orientation of the outer ring; the triangles cover the polygon's closed
 * point set exactly and overlap only along their sides. On GX_FACE_INVALID, msg says why, starting "is not
 * planar: ..." or "is not simple: ...", naming the point at fault with its coordinates.
 */
GxFaceResult gx_face_triangulate(const GxFaceRing *ring, size_t nrings, const double ***tri, size_t *ntri,
								 char *msg, size_t size);

#endif
