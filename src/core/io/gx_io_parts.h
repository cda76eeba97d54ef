/*
 * gx_io_parts.h: what the OBJ and DXF readers collect (triangles, linestrings, points, in file order)
 * before writing it as one geometry: only triangles a TIN, only linestrings a MULTILINESTRING, only points
 * a MULTIPOINT, several kinds a GEOMETRYCOLLECTION of the TIN, then each LINESTRING, then each POINT.
 */
#ifndef GX_IO_PARTS_H
#define GX_IO_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "geom/gx_geom.h"

typedef struct GxIoParts
{
	double	   *tri;			/* 9 doubles a triangle */
	size_t		ntri,
				cap_tri;
	double	   *line;			/* the points of every linestring, one after another */
	size_t		nline_pts,
				cap_line;
	uint32_t   *lens;			/* points of each linestring */
	size_t		nlines,
				cap_lens;
	double	   *pts;
	size_t		npts,
				cap_pts;
	size_t		bytes;			/* size of the geometry they make, header included */
	GxError    *err;
} GxIoParts;

void		gx_io_parts_init(GxIoParts *p, GxError *err);
void		gx_io_parts_free(GxIoParts *p);

/*
 * Grows the array *data of *cap elements of elem bytes to hold count of them (doubling); 0 with err set
 * (GX_ERR_LIMIT beyond GX_MAX_SIZE bytes, GX_ERR_NOMEM) when it cannot. The readers' vertex lists use it too.
 */
int			gx_io_grow(void **data, size_t *cap, size_t count, size_t elem, GxError *err);

/*
 * Adds the polygon face v[0..n-1] (n >= 3): a triangle as it is (degenerate ones included); a larger face
 * as the triangles of gx_face_triangulate (the fan of a strictly convex one). When the face is not planar
 * or not simple, writes into msg (GX_IO_MSG bytes serve) why, naming it "<what> with <n> vertices", and
 * returns 0 (err stays unset); when memory runs out, sets err.
 */
int			gx_io_parts_face(GxIoParts *p, const double (*v)[3], size_t n, const char *what, char *msg, size_t size);

/* Adds the linestring v[0..n-1] (n >= 2). */
void		gx_io_parts_line(GxIoParts *p, const double (*v)[3], size_t n);

void		gx_io_parts_point(GxIoParts *p, const double v[3]);

static inline int
gx_io_parts_empty(const GxIoParts *p)
{
	return p->ntri == 0 && p->nlines == 0 && p->npts == 0;
}

/* Writes what was collected (not nothing) as described above, and frees it; NULL with err set on failure. */
GxSerialized *gx_io_parts_write(GxIoParts *p, size_t *size);

#endif
