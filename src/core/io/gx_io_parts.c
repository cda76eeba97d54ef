/* gx_io_parts.c: collecting the triangles, linestrings and points of an OBJ or DXF file, and writing them (gx_io_parts.h). */
#include <stdio.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io_parts.h"
#include "triangulate/gx_face.h"

#define TRIANGLE_DOUBLES	9
#define POINT_BYTES			(3 * sizeof(double))

void
gx_io_parts_init(GxIoParts *p, GxError *err)
{
	memset(p, 0, sizeof(*p));
	p->err = err;
	p->bytes = sizeof(GxSerialized) + 2 * sizeof(GxNode);	/* the collection and one multi node or TIN */
}

void
gx_io_parts_free(GxIoParts *p)
{
	gx_free(p->tri);
	gx_free(p->line);
	gx_free(p->lens);
	gx_free(p->pts);
	p->tri = p->line = p->pts = NULL;
	p->lens = NULL;
}

int
gx_io_grow(void **data, size_t *cap, size_t count, size_t elem, GxError *err)
{
	if (count > GX_MAX_SIZE / elem)
	{
		gx_error_set(err, GX_ERR_LIMIT, "geometry too large (more than %zu bytes)", (size_t) GX_MAX_SIZE);
		return 0;
	}
	if (!gx_grow(data, cap, count, elem, GX_MAX_SIZE / elem))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory reading a geometry (%zu bytes)", count * elem);
		return 0;
	}
	return 1;
}

/* Counts bytes more of the geometry; 0 with err set when it would outgrow GX_MAX_SIZE. */
static int
take_bytes(GxIoParts *p, size_t bytes)
{
	if (p->err->code != GX_OK)
		return 0;
	if (bytes > GX_MAX_SIZE - p->bytes)
	{
		gx_error_set(p->err, GX_ERR_LIMIT, "geometry too large (more than %zu bytes)", (size_t) GX_MAX_SIZE);
		return 0;
	}
	p->bytes += bytes;
	return 1;
}

static void
add_triangle(GxIoParts *p, const double *a, const double *b, const double *c)
{
	double	   *t;

	if (!take_bytes(p, TRIANGLE_DOUBLES * sizeof(double)) ||
		!gx_io_grow((void **) &p->tri, &p->cap_tri, TRIANGLE_DOUBLES * (p->ntri + 1), sizeof(double), p->err))
		return;
	t = p->tri + TRIANGLE_DOUBLES * p->ntri++;
	memcpy(t, a, POINT_BYTES);
	memcpy(t + 3, b, POINT_BYTES);
	memcpy(t + 6, c, POINT_BYTES);
}

int
gx_io_parts_face(GxIoParts *p, const double (*v)[3], size_t n, const char *what, char *msg, size_t size)
{
	GxFaceRing	ring = {v, n};
	const double **tri = NULL;
	size_t		ntri = 0,
				i;
	char		why[GX_FACE_MSG];
	GxFaceResult res = n == 3 ? GX_FACE_OK : gx_face_triangulate(&ring, 1, &tri, &ntri, why, sizeof(why));

	if (res == GX_FACE_NOMEM)
		gx_error_set(p->err, GX_ERR_NOMEM, "out of memory triangulating a %s with %zu vertices", what, n);
	else if (res == GX_FACE_INVALID)
		snprintf(msg, size, "%s with %zu vertices %s", what, n, why);
	else if (n == 3)
		add_triangle(p, v[0], v[1], v[2]);
	else
		for (i = 0; i < ntri; i++)
			add_triangle(p, tri[3 * i], tri[3 * i + 1], tri[3 * i + 2]);
	gx_free(tri);
	return res != GX_FACE_INVALID;
}

void
gx_io_parts_line(GxIoParts *p, const double (*v)[3], size_t n)
{
	if (!take_bytes(p, sizeof(GxNode) + n * POINT_BYTES) ||
		!gx_io_grow((void **) &p->lens, &p->cap_lens, p->nlines + 1, sizeof(uint32_t), p->err) ||
		!gx_io_grow((void **) &p->line, &p->cap_line, 3 * (p->nline_pts + n), sizeof(double), p->err))
		return;
	memcpy(p->line + 3 * p->nline_pts, v, n * POINT_BYTES);
	p->nline_pts += n;
	p->lens[p->nlines++] = (uint32_t) n;
}

void
gx_io_parts_point(GxIoParts *p, const double v[3])
{
	if (!take_bytes(p, sizeof(GxNode) + POINT_BYTES) ||
		!gx_io_grow((void **) &p->pts, &p->cap_pts, 3 * (p->npts + 1), sizeof(double), p->err))
		return;
	memcpy(p->pts + 3 * p->npts++, v, POINT_BYTES);
}

/* Writes a node of type with the n points at v as its coordinates. */
static void
write_leaf(GxBuilder *b, GxType type, const double *v, size_t n, uint32_t count)
{
	size_t		node = gx_builder_begin(b, type);
	size_t		i;

	for (i = 0; i < n; i++)
		gx_builder_coord(b, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
	gx_builder_end(b, node, count);
}

GxSerialized *
gx_io_parts_write(GxIoParts *p, size_t *size)
{
	GxBuilder	b;
	int			kinds = (p->ntri > 0) + (p->nlines > 0) + (p->npts > 0);
	size_t		outer = 0;
	size_t		multi;
	size_t		i;
	size_t		at = 0;

	gx_builder_init(&b, p->err);
	gx_builder_reserve(&b, p->bytes - sizeof(GxSerialized));
	if (kinds > 1)
		outer = gx_builder_begin(&b, GX_GEOMETRYCOLLECTION);
	if (p->ntri > 0)
		write_leaf(&b, GX_TIN, p->tri, 3 * p->ntri, (uint32_t) p->ntri);
	if (p->nlines > 0)
	{
		multi = kinds == 1 ? gx_builder_begin(&b, GX_MULTILINESTRING) : 0;
		for (i = 0; i < p->nlines; at += p->lens[i++])
			write_leaf(&b, GX_LINESTRING, p->line + 3 * at, p->lens[i], p->lens[i]);
		if (kinds == 1)
			gx_builder_end(&b, multi, (uint32_t) p->nlines);
	}
	if (p->npts > 0)
	{
		multi = kinds == 1 ? gx_builder_begin(&b, GX_MULTIPOINT) : 0;
		for (i = 0; i < p->npts; i++)
			write_leaf(&b, GX_POINT, p->pts + 3 * i, 1, 1);
		if (kinds == 1)
			gx_builder_end(&b, multi, (uint32_t) p->npts);
	}
	if (kinds > 1)
		gx_builder_end(&b, outer, (uint32_t) ((p->ntri > 0) + p->nlines + p->npts));
	gx_io_parts_free(p);
	return gx_builder_finish(&b, 0, size);
}
