/*
 * gx_open_box.h: whether a closed triangle meets the interior of an axis-aligned box, exactly.
 *
 * The open box and the closed triangle are disjoint exactly when a plane separates them weakly (the
 * triangle on one closed side, the box on the other), and then one such plane has the normal of a facet of
 * their Minkowski difference: a box face, the triangle's plane, or an edge crossed with a box axis
 * (Gottschalk's separating axes). Along an edge crossed with axis j the question is two-dimensional, in the
 * projection that drops j, and there, by the same theorem in the plane, a box side or the line of one of the
 * triangle's edges separates them: so the triangle's edges are tested as lines with the projected box on
 * their outer side. Every test is an exact orientation sign (gx_predicates.h) or a comparison of doubles.
 * Degenerate triangles (segments, points) are handled: a zero edge or normal separates nothing.
 */
#ifndef GX_OPEN_BOX_H
#define GX_OPEN_BOX_H

#include <stdbool.h>

#include "geom/gx_geom.h"

/* Whether triangle t (9 doubles) has a point strictly inside box (a flat box has no inside). */
bool		gx_triangle_meets_open_box(const double *t, const GxBox3D *box);

#endif
