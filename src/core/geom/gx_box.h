/*
 * gx_box.h: closed 3D axis-aligned boxes: of points, overlap, containment, union, intersection. The EMPTY
 * box (every min +inf, every max -inf) is the identity of gx_box_extend, and no predicate is true of it.
 */
#ifndef GX_BOX_H
#define GX_BOX_H

#include <stdbool.h>
#include <stddef.h>

#include "geom/gx_geom.h"

/* Bound d of a box, d = 0..2 for x, y, z (the six doubles are laid out xmin ymin zmin xmax ymax zmax). */
#define GX_BOX_LO(b, d)			(((const double *) &(b)->xmin)[d])
#define GX_BOX_HI(b, d)			(((const double *) &(b)->xmax)[d])

/* Box of the n (>= 1) points of 3 doubles at c. */
GxBox3D		gx_box_of_points(const double *c, size_t n);
void		gx_box_set_empty(GxBox3D *b);
bool		gx_box_is_empty(const GxBox3D *b);
bool		gx_box_equal(const GxBox3D *a, const GxBox3D *b);
/* Closed overlap: boxes sharing only a face, an edge or a corner overlap. Inline: the engines' inner loops. */
static inline bool
gx_box_overlaps(const GxBox3D *a, const GxBox3D *b)
{
	return a->xmin <= b->xmax && b->xmin <= a->xmax &&
		a->ymin <= b->ymax && b->ymin <= a->ymax &&
		a->zmin <= b->zmax && b->zmin <= a->zmax;
}
/* a contains b, boundaries included. */
bool		gx_box_contains(const GxBox3D *a, const GxBox3D *b);
/* Extends *dst to cover *src. */
void		gx_box_extend(GxBox3D *dst, const GxBox3D *src);
/*
 * b grown by d >= 0 on every side, rounded outward (each bound moves by at least d) and clamped to the
 * finite doubles; EMPTY stays EMPTY. Boxes within distance d of b overlap it.
 */
GxBox3D		gx_box_expand(const GxBox3D *b, double d);
/* The overlap of two overlapping boxes. */
GxBox3D		gx_box_intersection(const GxBox3D *a, const GxBox3D *b);

#endif
