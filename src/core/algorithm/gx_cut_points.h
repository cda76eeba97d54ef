/*
 * gx_cut_points.h: the points where a triangle T is cut (gx_cut.c), in T's coordinates (t, u), filtered.
 *
 * A point is kept as what it is made of, from the input doubles: a corner of T, a vertex of another triangle
 * lying in T's plane, where an edge of another triangle crosses the plane, the end of a segment clipped at an
 * edge of T, or where two segments cross. It carries a certified double-double enclosure of (t, u)
 * (algorithm/gx_ddi.h) and the lines it was made on (T's edges, the segments'). Each predicate below decides
 * from the enclosures, or from what the points are made of (the same vertex, the same edge crossing; three
 * points made on one line), and makes a point's exact rationals (gx_plane_coords.h, from the same construction)
 * only when neither can: every answer is the one the exact rationals give. Memory from malloc (threads call
 * this); a point is named by its index, which stays valid while more are made.
 */
#ifndef GX_CUT_POINTS_H
#define GX_CUT_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

typedef struct GxCutPoints GxCutPoints;

#define GX_CPT_NO_LINE UINT32_MAX
#define GX_CPT_FIRST_LINE 3		/* line ids below are T's edges: 0 where t = 0, 1 where u = 0, 2 where t + u = 1 */

/* T (3 vertices, not flat; drop its projection, gx_triangle_projection); NULL without memory. */
GxCutPoints *gx_cpt_new(const double *T, int drop);
void		gx_cpt_free(GxCutPoints *P);

/* Every predicate decided from the exact rationals alone, no filter: the reference the filters are tested on. */
void		gx_cpt_exact_only(GxCutPoints *P);

/* Whether memory ran out making a point (its index is then SIZE_MAX). */
bool		gx_cpt_nomem(const GxCutPoints *P);

/* T's corner k: (0, 0), (1, 0), (0, 1). */
size_t		gx_cpt_corner(GxCutPoints *P, int k);

/*
 * The section of triangle tau by T's plane, as gx_plane_section: tau's *nzero vertices on it, then where its
 * edges cross it, into p; returns how many (0 when tau misses the plane); with 3 (tau in the plane, not flat)
 * tau covers the points inside it.
 */
int			gx_cpt_section(GxCutPoints *P, const double *tau, size_t p[3], int *nzero);

/* How many triangles lying in T's plane cover points (gx_cpt_section's of 3). */
size_t		gx_cpt_ncover(const GxCutPoints *P);

/* Point p lies on line `line` (GX_CPT_FIRST_LINE and up: the caller's segments; GX_CPT_NO_LINE: none). */
void		gx_cpt_on_line(GxCutPoints *P, size_t p, uint32_t line);

/*
 * The part of segment pq (a point when q == p) inside T, as gx_tu_clip: false when none is, else its ends
 * into r (p or q themselves where they lie in T).
 */
bool		gx_cpt_clip(GxCutPoints *P, size_t p, size_t q, size_t r[2]);

/* Are a and b the same point? Then a is known to lie on b's lines too. */
bool		gx_cpt_same(GxCutPoints *P, size_t a, size_t b);

/* The sign of (q - p) x (r - p). */
int			gx_cpt_orient(GxCutPoints *P, size_t p, size_t q, size_t r);

/*
 * Do segments a0a1 and b0b1 cross at one point inside both (not at an end)? Then *x, a new point: where.
 */
bool		gx_cpt_cross(GxCutPoints *P, size_t a0, size_t a1, size_t b0, size_t b1, size_t *x);

/* Is p strictly between a and b, on segment ab? */
bool		gx_cpt_between(GxCutPoints *P, size_t a, size_t b, size_t p);

/* |p - a| against |q - a| (in |t| + |u|): -1, 0 or 1. */
int			gx_cpt_closer(GxCutPoints *P, size_t a, size_t p, size_t q);

/*
 * The centroid of points v[0 .. 3) exactly, into t and u, and whether a triangle in T's plane covers it: 1 one
 * oriented as T, -1 one oriented the other way, 0 none (gx_plane_covered).
 */
int			gx_cpt_centroid(GxCutPoints *P, const size_t *v, mpq_ptr t, mpq_ptr u);

/* The sign of gx_orient3d(tau0, tau1, tau2, p) for point p. */
int			gx_cpt_side(GxCutPoints *P, size_t p, const double *tau);

/* p's coordinates, each the exact one rounded to the nearest double (+0 for zero). */
void		gx_cpt_round(GxCutPoints *P, size_t p, double *xyz);

#endif
