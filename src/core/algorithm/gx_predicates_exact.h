/*
 * gx_predicates_exact.h: the exact values (not only the signs) of the orientation determinants of
 * gx_predicates.h, as GMP rationals. Solids and intercepts need them: a point on a segment at a rational
 * parameter t enters a determinant affinely, so det(..., a + t (b - a), ...) = (1 - t) det(..., a, ...) +
 * t det(..., b, ...) is decided from two determinants of doubles.
 */
#ifndef GX_PREDICATES_EXACT_H
#define GX_PREDICATES_EXACT_H

#include <stdbool.h>
#include <gmp.h>

/* det is set to the determinant of gx_orient3d / gx_orient2d; false (det untouched) on non-finite input. */
bool		gx_orient3d_value(const double *a, const double *b, const double *c, const double *d, mpq_ptr det);
bool		gx_orient2d_value(const double *a, const double *b, const double *c, int drop, mpq_ptr det);

/*
 * u = orient3d(t, a) / (orient3d(t, a) - orient3d(t, b)) for the triangle at t (9 doubles): the parameter
 * of a + u (b - a) in the triangle's plane, exactly, computed at one scale for the five points (no
 * fraction reduced but the last). false (u untouched) on non-finite input or a segment parallel to the plane.
 */
bool		gx_plane_crossing(const double *t, const double *a, const double *b, mpq_ptr u);

#endif
