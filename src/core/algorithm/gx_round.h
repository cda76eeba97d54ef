/*
 * gx_round.h: correctly rounded conversions of exact GMP rationals to double (round to nearest, ties to
 * even, subnormals and overflow included): the value itself, its square root, and a sum p + q sqrt(r).
 * mpq_get_d truncates, and rounding the rational first and taking the square root then would round twice;
 * these round once.
 */
#ifndef GX_ROUND_H
#define GX_ROUND_H

#include <gmp.h>

/* The double nearest to q. */
double		gx_mpq_get_d_nearest(mpq_srcptr q);

/* The double nearest to sqrt(q), for q >= 0. */
double		gx_mpq_sqrt_nearest(mpq_srcptr q);

/*
 * The double nearest to p + q sqrt(r), for r >= 0 (ties to even, +-inf beyond the largest double as in
 * IEEE 754): lengths along a segment and points at a length on it, rounded once.
 */
double		gx_round_sum_sqrt(mpq_srcptr p, mpq_srcptr q, mpq_srcptr r);

/*
 * The double nearest to the exact sum of a[i] * b[i] over i < n (n <= GX_DOT_MAX; finite doubles), ties to
 * even, +-inf beyond the largest double: a transform's coordinate rounded once. An exact zero gives +0.
 */
#define GX_DOT_MAX 8
double		gx_dot_nearest(const double *a, const double *b, int n);

#endif
