/*
 * gx_face.c: the exact planar and strictly convex test of a polygon face (gx_face.h). The first three
 * vertices, when not collinear, fix the plane (orient3d of every other vertex must be 0) and an axis
 * projection that is one-to-one on it (orient2d of the three not 0), which keeps every orientation's sign
 * up to one common factor. In that projection the polygon is strictly convex when every turn has the sign
 * s of the first, every vertex after v[1] lies strictly on the s side of the line v[0] v[1], and every fan
 * triangle v[0] v[i] v[i+1] has sign s: the last two make the vertices strictly monotone in angle about
 * v[0] within less than a half turn (a simple polygon, the union of its fan), the first makes it convex.
 */
#include "gx_face.h"
#include "gx_predicates.h"

GxFaceShape
gx_face_shape(const double (*v)[3], size_t n, size_t *at)
{
	int			drop;
	int			s = 0;
	size_t		i;

	for (drop = 0; drop < 3; drop++)
		if ((s = gx_orient2d(v[0], v[1], v[2], drop)) != 0)
			break;
	*at = 1;
	if (s == 0)
		return GX_FACE_NOT_CONVEX;
	for (i = 3; i < n; i++)
		if (gx_orient3d(v[0], v[1], v[2], v[i]) != 0)
		{
			*at = i;
			return GX_FACE_NOT_PLANAR;
		}
	for (i = 0; i < n; i++)
	{
		*at = i;
		if (gx_orient2d(v[i == 0 ? n - 1 : i - 1], v[i], v[(i + 1) % n], drop) != s ||
			(i >= 2 && gx_orient2d(v[0], v[1], v[i], drop) != s) ||
			(i >= 2 && gx_orient2d(v[0], v[i - 1], v[i], drop) != s))
			return GX_FACE_NOT_CONVEX;
	}
	return GX_FACE_CONVEX;
}
