/*
 * gx_io_polygon.c: polygon faces as the WKT and WKB readers read them (POLYGON, MULTIPOLYGON members,
 * POLYHEDRALSURFACE faces): the rings are collected, checked (closed, 4 points or more) and stored as the
 * triangles of gx_face_triangulate; a polygon of one ring of 4 points is its triangle, kept as it is.
 */
#include <stdio.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io_internal.h"
#include "io/gx_io_parts.h"
#include "triangulate/gx_face.h"

void
gx_io_polygon_init(GxIoPolygon *pg, GxError *err)
{
	memset(pg, 0, sizeof(*pg));
	pg->err = err;
}

void
gx_io_polygon_free(GxIoPolygon *pg)
{
	gx_free(pg->pts);
	gx_free(pg->ends);
	pg->pts = NULL;
	pg->ends = NULL;
}

int
gx_io_polygon_point(GxIoPolygon *pg, const double xyz[3])
{
	if (!gx_io_grow((void **) &pg->pts, &pg->cap_pts, pg->npts + 1, sizeof(*pg->pts), pg->err))
		return 0;
	memcpy(pg->pts[pg->npts++], xyz, sizeof(*pg->pts));
	return 1;
}

int
gx_io_polygon_end_ring(GxIoPolygon *pg)
{
	if (!gx_io_grow((void **) &pg->ends, &pg->cap_ends, pg->nrings + 1, sizeof(*pg->ends), pg->err))
		return 0;
	pg->ends[pg->nrings++] = pg->npts;
	return 1;
}

/* Checks that every ring has 4 points or more and is closed; fills ring[] (closing points left out). */
static int
check_rings(const GxIoPolygon *pg, GxFaceRing *ring, const char *what, char *msg, size_t size)
{
	size_t		r,
				from,
				n;

	for (r = 0; r < pg->nrings; r++)
	{
		from = r == 0 ? 0 : pg->ends[r - 1];
		n = pg->ends[r] - from;
		if (n < 4)
		{
			snprintf(msg, size, "%s: ring %zu has %zu points (at least 4)", what, r + 1, n);
			return 0;
		}
		if (memcmp(pg->pts[from], pg->pts[from + n - 1], sizeof(*pg->pts)) != 0)
		{
			snprintf(msg, size, "%s: ring %zu not closed", what, r + 1);
			return 0;
		}
		ring[r] = (GxFaceRing) {(const double (*)[3]) pg->pts + from, n - 1};
	}
	return 1;
}

long
gx_io_polygon_add(GxIoPolygon *pg, GxBuilder *b, const char *what, char *msg, size_t size)
{
	GxFaceRing *ring = gx_alloc((pg->nrings ? pg->nrings : 1) * sizeof(*ring));
	const double **tri = NULL;
	size_t		ntri = 0,
				i;
	char		why[GX_FACE_MSG];
	long		res = -1;
	GxFaceResult face = GX_FACE_OK;

	if (ring == NULL)
		gx_error_set(pg->err, GX_ERR_NOMEM, "out of memory reading %s", what);
	else if (check_rings(pg, ring, what, msg, size))
	{
		if (pg->nrings == 1 && ring[0].n == 3)
			ntri = 1;
		else if (pg->nrings > 0)
			face = gx_face_triangulate(ring, pg->nrings, &tri, &ntri, why, sizeof(why));
		if (face == GX_FACE_NOMEM)
			gx_error_set(pg->err, GX_ERR_NOMEM, "out of memory triangulating %s", what);
		else if (face == GX_FACE_INVALID)
			snprintf(msg, size, "%s %s", what, why);
		else
		{
			gx_builder_reserve(b, 9 * sizeof(double) * ntri);
			for (i = 0; i < 3 * ntri; i++)
			{
				const double *p = tri ? tri[i] : ring[0].v[i];

				gx_builder_coord(b, p[0], p[1], p[2]);
			}
			res = (long) ntri;
		}
	}
	gx_free(tri);
	gx_free(ring);
	pg->npts = pg->nrings = 0;
	return res;
}
