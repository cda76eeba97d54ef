/*
 * gx_face.c: polygon faces (gx_face.h). The exact planar and strictly convex test: the first three
 * vertices, when not collinear, fix the plane (orient3d of every other vertex must be 0) and an axis
 * projection that is one-to-one on it (orient2d of the three not 0), which keeps every orientation's sign
 * up to one common factor. In that projection the polygon is strictly convex when every turn has the sign
 * s of the first, every vertex after v[1] lies strictly on the s side of the line v[0] v[1], and every fan
 * triangle v[0] v[i] v[i+1] has sign s: the last two make the vertices strictly monotone in angle about
 * v[0] within less than a half turn (a simple polygon, the union of its fan), the first makes it convex.
 * Then the general triangulation's entry: consecutive repeats left out, the plane of three non-collinear
 * vertices (a polygon on one line is its fan), the projection, the simplicity checks and the ears.
 */
#include <stdio.h>
#include <string.h>

#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "triangulate/gx_face_polygon.h"

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

/* Fills f->v and f->start from the rings, leaving out every vertex equal to the one kept before it. */
static void
collect(GxFacePolygon *f, const GxFaceRing *ring)
{
	size_t		r,
				i,
				n = 0;

	for (r = 0; r < f->nrings; r++)
	{
		f->start[r] = n;
		for (i = 0; i < ring[r].n; i++)
			if (n == f->start[r] || !gx_face_same(f->v[n - 1].p, ring[r].v[i]))
				f->v[n++] = (GxFaceVertex) {ring[r].v[i], r, i};
		while (n - f->start[r] > 1 && gx_face_same(f->v[n - 1].p, f->v[f->start[r]].p))
			n--;
	}
	f->start[f->nrings] = n;
}

/*
 * Finds three non-collinear vertices abc[0..2] among those other than skip (NULL: all), and the axis
 * projection *drop where they keep an orientation; 0 when those vertices lie on one line.
 */
static int
plane_without(const GxFacePolygon *f, const GxFaceVertex *skip, const GxFaceVertex **abc, int *drop)
{
	size_t		i = 0,
				n = f->start[f->nrings];

	while (i < n && &f->v[i] == skip)
		i++;
	if (i == n)
		return 0;
	abc[0] = &f->v[i];
	for (i++; i < n && (&f->v[i] == skip || gx_face_same(f->v[i].p, abc[0]->p)); i++)
		;
	if (i == n)
		return 0;
	abc[1] = &f->v[i];
	for (; i < n; i++)
		if (&f->v[i] != skip)
			for (*drop = 0; *drop < 3; (*drop)++)
				if (gx_orient2d(abc[0]->p, abc[1]->p, f->v[i].p, *drop) != 0)
				{
					abc[2] = &f->v[i];
					return 1;
				}
	return 0;
}

/* Finds the plane of the polygon as plane_without does, and sets the projection of f. */
static int
find_plane(GxFacePolygon *f, const GxFaceVertex **abc)
{
	if (!plane_without(f, NULL, abc, &f->drop))
		return 0;
	f->cu = (f->drop + 1) % 3;
	f->cv = (f->drop + 2) % 3;
	return 1;
}

/* The first vertex other than skip that is off the plane of abc, or NULL; *count counts all of them. */
static const GxFaceVertex *
off_plane(const GxFacePolygon *f, const GxFaceVertex *const *abc, const GxFaceVertex *skip, size_t *count)
{
	const GxFaceVertex *first = NULL;
	size_t		i;

	*count = 0;
	for (i = 0; i < f->start[f->nrings]; i++)
		if (&f->v[i] != skip && gx_orient3d(abc[0]->p, abc[1]->p, abc[2]->p, f->v[i].p) != 0)
		{
			if (first == NULL)
				first = &f->v[i];
			(*count)++;
		}
	return first;
}

/*
 * 1 when every vertex lies on the plane of abc; else 0 with f->msg naming the odd one out. When the plane
 * of abc leaves one vertex off, that one is; when it leaves several, one of a, b, c may be the vertex
 * without which the others are planar. When no single vertex is, the message names the first vertex off
 * the plane of abc.
 */
static int
check_planar(GxFacePolygon *f, const GxFaceVertex *const *abc)
{
	const GxFaceVertex *odd,
			   *plane[3] = {abc[0], abc[1], abc[2]};
	size_t		count,
				k;
	char		name[128],
				ring[32] = "";

	if ((odd = off_plane(f, abc, NULL, &count)) == NULL)
		return 1;
	for (k = 0; count > 1 && k < 3; k++)
	{
		const GxFaceVertex *other[3];
		size_t		others_off;
		int			drop;

		if (plane_without(f, abc[k], other, &drop) && off_plane(f, other, abc[k], &others_off) == NULL)
		{
			odd = abc[k];
			memcpy(plane, other, sizeof(plane));
			break;
		}
	}
	gx_face_point_name(f, odd, name, sizeof(name));
	if (plane[0]->ring != 0 || plane[1]->ring != 0 || plane[2]->ring != 0)
		snprintf(f->msg, f->size, "is not planar: its %s is off the plane of its other points", name);
	else
	{
		if (f->nrings > 1)
			snprintf(ring, sizeof(ring), " of ring 1");
		snprintf(f->msg, f->size, "is not planar: its %s is off the plane through its points %zu, %zu and %zu%s",
				 name, plane[0]->point + 1, plane[1]->point + 1, plane[2]->point + 1, ring);
	}
	return 0;
}

/* The fan v[0] v[i] v[i+1] of a ring, into tri; returns the count of triangles. */
static size_t
fan(const GxFaceRing *ring, const double **tri)
{
	size_t		i;

	for (i = 1; i + 1 < ring->n; i++)
	{
		tri[3 * (i - 1)] = ring->v[0];
		tri[3 * (i - 1) + 1] = ring->v[i];
		tri[3 * (i - 1) + 2] = ring->v[i + 1];
	}
	return ring->n - 2;
}

GxFaceResult
gx_face_triangulate(const GxFaceRing *ring, size_t nrings, const double ***tri, size_t *ntri, char *msg, size_t size)
{
	GxFacePolygon f = {.nrings = nrings, .msg = msg, .size = size};
	const GxFaceVertex *abc[3];
	size_t		total = 0,
				r,
				at;
	long		count = -2;
	int			simple;
	GxFaceResult res = GX_FACE_INVALID;

	for (r = 0; r < nrings; r++)
		total += ring[r].n;
	*tri = gx_alloc(3 * (total + 2 * nrings) * sizeof(**tri));
	f.v = gx_alloc(total * sizeof(*f.v));
	f.start = gx_alloc((nrings + 1) * sizeof(*f.start));
	if (*tri == NULL || f.v == NULL || f.start == NULL)
		res = GX_FACE_NOMEM;
	else if (nrings == 1 && gx_face_shape(ring[0].v, ring[0].n, &at) == GX_FACE_CONVEX)
	{
		*ntri = fan(&ring[0], *tri);
		res = GX_FACE_OK;
	}
	else
	{
		collect(&f, ring);
		if (!find_plane(&f, abc))
		{
			if (nrings > 1)
				snprintf(msg, size, "is not simple: it has holes but no area (all its points lie on one line)");
			else
			{
				*ntri = fan(&ring[0], *tri);
				res = GX_FACE_OK;
			}
		}
		else if (check_planar(&f, abc) && (simple = gx_face_check_simple(&f)) != 0)
		{
			count = simple < 0 ? -1 : gx_face_ears(&f, *tri);
			if (count >= 0)
				*ntri = (size_t) count;
			res = count >= 0 ? GX_FACE_OK : count == -1 ? GX_FACE_NOMEM : GX_FACE_INVALID;
		}
	}
	gx_free(f.v);
	gx_free(f.start);
	if (res != GX_FACE_OK)
	{
		gx_free(*tri);
		*tri = NULL;
	}
	return res;
}
