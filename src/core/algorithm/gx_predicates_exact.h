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

/*
 * Where segment ab crosses the plane of the triangle at T (9 doubles), in the triangle's coordinates seen on
 * axes i and j (a projection that keeps it not flat): the point T0 + t (T1 - T0) + u (T2 - T0), exactly, at
 * one scale for the five points (two fractions reduced, at the end). false (t and u left in an unspecified
 * state) on non-finite input, a segment parallel to the plane or a flat projection.
 */
bool		gx_plane_crossing_tu(const double *T, int i, int j, const double *a, const double *b, mpq_ptr t,
								 mpq_ptr u);

/*
 * The same u for a segment whose ends lie strictly on either side of the plane (0 < u < 1), truncated
 * toward zero to a double: *q <= u < the next double, as mpq_get_d gives gx_plane_crossing's u. From
 * floating-point expansions, without GMP; false when they cannot hold it exactly (a coordinate outside
 * [2^-150, 2^150] other than 0, or u below 2^-300) or their estimate does not settle within a few steps
 * (or rounds to 1): then gx_plane_crossing.
 */
bool		gx_plane_crossing_trunc(const double *t, const double *a, const double *b, double *q);

#endif
