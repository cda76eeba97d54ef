/*
 * gx_cut.h: a triangle T, or a facet of coplanar triangles with it (the domain), cut by the sections of other
 * triangles, triangulated along the cuts, exactly. Where gx_pieces.h gives one point of each piece, this gives
 * the pieces themselves: triangles whose vertices are every point where the cuts end or cross, on the
 * domain's edges as well as inside, so that two triangles sharing an edge (or a triangle and the one that cuts
 * it) are cut at the same points there, and the triangles kept of a surface join without T-junctions. The
 * edges inside the domain, and those inside a facet of the other surface added as one (gx_cut_add_group), are
 * no cuts: no point is made on them but where a cut ends or crosses. Vertices are exact rational points of
 * T's plane, in T's coordinates (t, u): the point T0 + t (T1 - T0) + u (T2 - T0). Memory from malloc (threads
 * may call this).
 */
#ifndef GX_CUT_H
#define GX_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <gmp.h>

#include "base/gx_error.h"
#include "base/gx_interrupt.h"

typedef struct GxCut GxCut;

/* T (3 vertices, not flat; drop its projection, gx_triangle_projection) uncut; NULL without memory. */
GxCut	   *gx_cut_new(const double *T, int drop);

/*
 * The domain cut grows by triangle tri (before any gx_cut_add): it lies in T's plane, faces as T, and shares
 * an edge with the domain so far (a facet of coplanar triangles cut as one polygon: the edges between them
 * are no cuts, and no point is made on them but where a cut ends or crosses).
 */
void		gx_cut_extend(GxCut *c, const double *tri);

/* At most max_cuts points and cuts in all: past it gx_cut_build fails with GX_ERR_LIMIT. */
void		gx_cut_limit(GxCut *c, size_t max_cuts);

/*
 * Every sign and order decided in rationals, without the filter of certified enclosures: the reference the
 * filtered cut must equal, bit for bit (the tests compare them).
 */
void		gx_cut_exact(GxCut *c);

/*
 * tau's section by T's plane cuts the domain: the part of it in the domain (a point, a segment, or tau's
 * three edges when tau lies in the plane: then tau covers the points inside it).
 */
void		gx_cut_add(GxCut *c, const double *tau);

/*
 * The same for a facet of the other surface: the n triangles tri + 9 idx[k], coplanar and joined by shared
 * edges, as one polygon: the collinear parts of their sections that overlap or touch make one cut (no point
 * where the facet's inner edges cross the plane), its edges shared inside the group are no cuts; each of its
 * triangles' vertices on the plane and in the domain is a point. One call, as gx_cut_edge counts them.
 */
void		gx_cut_add_group(GxCut *c, const double *tri, const size_t *idx, size_t n);

/*
 * Triangulates T along every cut (a constrained triangulation: the cuts, split where they meet, are edges of
 * it) and groups its triangles into pieces: those joined across edges that are not cuts. false with err
 * set: memory, the limit, or cancel set.
 */
bool		gx_cut_build(GxCut *c, const GxCancel *cancel, GxError *err);

size_t		gx_cut_ntriangles(const GxCut *c);
size_t		gx_cut_npieces(const GxCut *c);

/* Triangle k: its vertices (counter-clockwise in (t, u): oriented as T) and its piece. */
const size_t *gx_cut_triangle(const GxCut *c, size_t k, size_t *piece);

/*
 * A point of piece p on no cut, and whether a triangle in T's plane covers it: 1 one oriented as T, -1 one
 * oriented the other way, 0 none. The point is tri0 + t (tri1 - tri0) + u (tri2 - tri0) for *tri (9 doubles),
 * the domain triangle it lies in.
 */
int			gx_cut_piece_point(GxCut *c, size_t p, mpq_ptr t, mpq_ptr u, const double **tri);

/*
 * When T alone is the domain and no triangle lies in its plane (the point then covered by none, and in T):
 * mpq_get_d of gx_cut_piece_point's t and u, from the enclosures, where they decide it; false otherwise.
 */
bool		gx_cut_piece_near(GxCut *c, size_t p, double *t, double *u);

/*
 * Edge m of triangle k (from its vertex (m + 1) % 3 to its vertex (m + 2) % 3): *border when it lies on T's
 * edges; the cuts along it, as the gx_cut_add calls that made them (counted from 0), each once, into src
 * (at most max of them); their number is returned (0: the edge is no cut).
 */
size_t		gx_cut_edge(const GxCut *c, size_t k, int m, bool *border, size_t *src, size_t max);

/* The sign of gx_orient3d(tau0, tau1, tau2, v) for vertex v (a rational point), exactly. */
int			gx_cut_vertex_side(GxCut *c, size_t v, const double *tau);

/* Vertex v's coordinates, each the exact one rounded to the nearest double. */
void		gx_cut_vertex(GxCut *c, size_t v, double *xyz);

void		gx_cut_free(GxCut *c);

#endif
