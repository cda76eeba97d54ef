/*
 * gx_incircle.h: the exact incircle predicate in the (x, y) plane, in the ladder of gx_predicates.h: a
 * floating-point filter (Shewchuk's stage-A bound on rounded differences), expansions, then GMP.
 */
#ifndef GX_INCIRCLE_H
#define GX_INCIRCLE_H

/*
 * Sign of Shewchuk's incircle determinant of a, b, c, d (x and y of each, z ignored): positive when d lies
 * inside the circle through a, b, c taken counter-clockwise, negative outside, 0 on it.
 */
int			gx_incircle(const double *a, const double *b, const double *c, const double *d);

/* The GMP rung alone (the test oracle); and the expansion rung alone, 2 outside the range it holds exactly. */
int			gx_incircle_gmp(const double *a, const double *b, const double *c, const double *d);
int			gx_incircle_expansion(const double *a, const double *b, const double *c, const double *d);

#endif
