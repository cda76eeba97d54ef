/*
 * gx_elements.h: a geometry seen as its elements (points, segments, triangles), each a pointer to its
 * contiguous coordinates inside the serialized value (no copy), with element boxes and exact pair tests.
 */
#ifndef GX_ELEMENTS_H
#define GX_ELEMENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "geom/gx_box.h"
#include "geom/gx_geom.h"

typedef struct GxElem
{
	const double *c;			/* kind points of 3 doubles each */
	int			kind;			/* 1 point, 2 segment, 3 triangle */
} GxElem;

typedef struct GxElements
{
	GxElem	   *elems;
	size_t		n;
} GxElements;

/* Elements of g whose box overlaps clip (all of them when clip is NULL); false on allocation failure. */
bool		gx_elements_collect(const GxSerialized *g, const GxBox3D *clip, GxElements *out, GxError *err);
void		gx_elements_free(GxElements *e);

GxBox3D		gx_elem_box(GxElem e);

/* Exact test of two elements (gx_primitives.h), whatever their kinds. */
bool		gx_elem_intersects(GxElem a, GxElem b);

#endif
