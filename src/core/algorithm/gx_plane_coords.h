/*
 * gx_plane_coords.h: coordinates (t, u) in the plane of a triangle T, the point T0 + t (T1 - T0) +
 * u (T2 - T0), all in rationals: the section of another triangle by T's plane, a segment clipped to T, two
 * segments' crossing, the triangles lying in T's plane that cover a point. What cutting T into pieces needs,
 * shared by the pieces measured for containment and the overlay (gx_pieces.c) and the triangulation along
 * cuts (gx_cut.c).
 */
#ifndef GX_PLANE_COORDS_H
#define GX_PLANE_COORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <gmp.h>

/* A point of T's plane in (t, u). */
typedef struct GxTU
{
	mpq_t		t,
				u;
} GxTU;

typedef struct GxPlaneCoords
{
	const double *T;
	int			i,
				j;				/* the projection's axes */
	mpq_t		e[2][2],		/* T1 - T0 and T2 - T0 there */
				det,			/* their cross product */
				w[4];			/* scratch, the callers' too */
	GxTU	   *cover;			/* the corners of the triangles lying in T's plane (not flat), 3 each */
	size_t		ncover,
				covercap;
} GxPlaneCoords;

/* T: 3 vertices, not flat; drop its projection (gx_triangle_projection). */
void		gx_plane_coords_init(GxPlaneCoords *pc, const double *T, int drop);
void		gx_plane_coords_clear(GxPlaneCoords *pc);

/*
 * The section of triangle tau by T's plane: tau's *nzero vertices on it, then where tau's edges cross it,
 * into p (initialised here; the caller clears them with gx_tu_clear). Returns how many: 1 a point, 2 a
 * segment (p[0] to p[1]), 3 when tau lies in the plane (its edges the segments), and then tau is kept as
 * covering its inside unless it is flat; false in *nomem when memory ran out keeping it.
 */
int			gx_plane_section(GxPlaneCoords *pc, const double *tau, GxTU p[3], int *nzero, bool *nomem);

void		gx_tu_clear(GxTU *p, int n);

/* (t, u) of p, a point of T's plane, into r (initialised). */
void		gx_tu_of_point(GxPlaneCoords *pc, const double *p, GxTU *r);

/* (t, u) where segment ab, its ends strictly on either side of T's plane, crosses it, into r (initialised). */
void		gx_tu_of_crossing(GxPlaneCoords *pc, const double *a, const double *b, GxTU *r);

/* r = p + s (q - p); r's u left alone when ru is NULL. */
void		gx_tu_along(mpq_ptr rt, mpq_ptr ru, const GxTU *p, const GxTU *q, mpq_srcptr s);

/*
 * The part of segment pq (a point when q == p) inside T (t >= 0, u >= 0, t + u <= 1): false when none is,
 * else its ends in r (initialised by the caller), from p's side.
 */
bool		gx_tu_clip(const GxTU *p, const GxTU *q, GxTU r[2]);

/* Sign of the cross product (q - p) x (r - p). */
int			gx_tu_orient(GxPlaneCoords *pc, const GxTU *p, const GxTU *q, const GxTU *r);

/*
 * Do segments a0a1 and b0b1 cross at one point inside both (not at an end)? Then s, where: b0 + s (b1 - b0).
 */
bool		gx_tu_cross(GxPlaneCoords *pc, const GxTU *a0, const GxTU *a1, const GxTU *b0, const GxTU *b1,
						mpq_ptr s);

/* The same s for segments known to cross so (their orientations decided elsewhere). */
void		gx_tu_crossing(GxPlaneCoords *pc, const GxTU *a0, const GxTU *a1, const GxTU *b0, const GxTU *b1,
						   mpq_ptr s);

/*
 * Is p, on no segment, in a covering triangle (closed: p may lie on an edge of one whose edge is no segment)?
 * 1 in one oriented as T, -1 in one oriented the other way, 0 in none.
 */
int			gx_plane_covered(GxPlaneCoords *pc, const GxTU *p);

#endif
