/*
 * gx_face_polygon.h: a polygon in its axis projection, as the parts of the triangulation share it: its
 * vertices less consecutive repeats, the projection, and the message of a refusal. gx_face.c (plane and
 * projection) calls the simplicity checks (gx_face_simple.c) and the ears (gx_face_ears.c); both use the
 * projected orientations and messages of gx_face_polygon.c.
 */
#ifndef GX_FACE_POLYGON_H
#define GX_FACE_POLYGON_H

#include <stddef.h>

#include "triangulate/gx_face.h"

/* One vertex of a ring, and where it was in the input (for messages). */
typedef struct GxFaceVertex
{
	const double *p;
	size_t		ring;
	size_t		point;			/* 0-based in its input ring */
} GxFaceVertex;

typedef struct GxFacePolygon
{
	GxFaceVertex *v;			/* every ring's vertices, consecutive repeats left out, ring after ring */
	size_t	   *start;			/* ring r is v[start[r]] .. v[start[r + 1] - 1]; nrings + 1 entries */
	size_t		nrings;
	int			drop;			/* the axis projection (gx_orient2d's drop), one-to-one on the plane */
	int			cu,				/* the two kept coordinates, in gx_orient2d's order */
				cv;
	char	   *msg;
	size_t		size;
} GxFacePolygon;

/* Exact equality of two points (-0 equals 0). */
static inline int
gx_face_same(const double *a, const double *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* The vertex after v[i] in its ring. */
static inline size_t
gx_face_next(const GxFacePolygon *f, size_t i)
{
	return i + 1 < f->start[f->v[i].ring + 1] ? i + 1 : f->start[f->v[i].ring];
}

/* orient2d of three points in the projection. */
int			gx_face_orient(const GxFacePolygon *f, const double *a, const double *b, const double *c);

/* Whether p lies on the closed segment ab, the three being coplanar. */
int			gx_face_on_segment(const GxFacePolygon *f, const double *p, const double *a, const double *b);

/* Writes "is not simple: <fmt...>" into f->msg. */
void		gx_face_refuse(GxFacePolygon *f, const char *fmt,...) __attribute__((format(printf, 2, 3)));

/* Writes "point 3 (x y z)", or "point 3 of ring 2 (x y z)" when the polygon has holes, into buf (>= 100). */
void		gx_face_point_name(const GxFacePolygon *f, const GxFaceVertex *v, char *buf, size_t size);

/* The sign (+1 or -1) of the orientation of ring r in the projection; the ring is simple. */
int			gx_face_ring_orientation(const GxFacePolygon *f, size_t r);

/* 1 when the rings are simple as gx_face_triangulate requires; else 0 with f->msg set; -1 when memory runs out. */
int			gx_face_check_simple(GxFacePolygon *f);

/*
 * Triangulates the simple polygon f into tri (room for 3 * (vertices + 2 * holes - 2) pointers), in the
 * orientation of the outer ring; returns the count of triangles, -1 when memory runs out, or -2 with
 * f->msg set when no ear is found (a simple polygon always has one: this only guards the loop).
 */
long		gx_face_ears(GxFacePolygon *f, const double **tri);

#endif
