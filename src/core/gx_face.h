/*
 * gx_face.h: polygon faces of more than three vertices (OBJ, DXF): the exact test that a face is planar and
 * strictly convex, the one shape whose fan triangulation (vertex 0 with every later edge) is decided
 * without constructing a point. General polygons wait for an exact triangulation.
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

#endif
