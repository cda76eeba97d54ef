/*
 * gx_test_solids.h: test solids and TINs made of triangle soups (boxes, any triangles), where points lie in
 * them and their exact volumes: shared by the tests of the booleans and of the split.
 */
#ifndef GX_TEST_SOLIDS_H
#define GX_TEST_SOLIDS_H

#include <gmp.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "gx_test.h"
#include "gx_test_tris.h"
#include "operation/gx_solid_make.h"
#include "operation/gx_volume.h"

typedef struct Soup
{
	double		v[9 * 256];
	size_t		n;
} Soup;

static inline void
tri3(Soup *s, const double *a, const double *b, const double *c)
{
	memcpy(s->v + 9 * s->n, a, 3 * sizeof(double));
	memcpy(s->v + 9 * s->n + 3, b, 3 * sizeof(double));
	memcpy(s->v + 9 * s->n + 6, c, 3 * sizeof(double));
	s->n++;
}

/* The box [lo, hi]: two triangles a face, outward (gx_solid_from orients them anyway). */
static inline void
box(Soup *s, const double *lo, const double *hi)
{
	box_triangles(lo, hi, false, s->v + 9 * s->n);
	s->n += 12;
}

/* The TIN of the soup's triangles (gx_alloc'd). */
static inline GxSerialized *
tin(const Soup *s)
{
	GxBuilder	b;
	GxError		err = {GX_OK, ""};
	size_t		size,
				node;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	for (size_t i = 0; i < 3 * s->n; i++)
		gx_builder_coord(&b, s->v[3 * i], s->v[3 * i + 1], s->v[3 * i + 2]);
	gx_builder_end(&b, node, (uint32_t) s->n);
	return gx_builder_finish(&b, 0, &size);
}

/* A serialized solid of the soup (gx_alloc'd). */
static inline GxSerialized *
solid(const Soup *s)
{
	GxError		err = {GX_OK, ""};
	GxSerialized *g = tin(s),
			   *out;
	size_t		size;

	out = gx_solid_from(g, NULL, &size, &err);
	CHECK_MSG(out != NULL, "a test solid: %s", err.msg);
	gx_free(g);
	return out;
}

/* A random point of bb: the centre of one of 100000^3 cells. */
static inline void
random_point(const GxBox3D *bb, double *p)
{
	p[0] = bb->xmin + (bb->xmax - bb->xmin) * (gx_test_below(100000) + 0.5) / 100000;
	p[1] = bb->ymin + (bb->ymax - bb->ymin) * (gx_test_below(100000) + 0.5) / 100000;
	p[2] = bb->zmin + (bb->zmax - bb->zmin) * (gx_test_below(100000) + 0.5) / 100000;
}

/* Where p is in g (EMPTY: outside). */
static inline GxLocation
locate(const GxSerialized *g, const double *p)
{
	GxSolidIndex ix;
	GxError		err = {GX_OK, ""};
	GxLocation	loc;
	size_t		n;
	const double *t;

	if (g->flags & GX_FLAG_EMPTY)
		return GX_LOC_OUTSIDE;
	t = gx_solid_triangles(g, &n);
	if (!gx_solid_index_build(&ix, t, n, &err))
		return GX_LOC_FAILED;
	loc = gx_solid_locate(&ix, p);
	gx_solid_index_free(&ix);
	return loc;
}

/* The exact volume of a serialized solid (0 for EMPTY). */
static inline void
volume_of(const GxSerialized *g, mpq_t v)
{
	GxVolumeWork w;
	size_t		n = 0;
	const double *t;

	mpq_set_ui(v, 0, 1);
	if (g->flags & GX_FLAG_EMPTY)
		return;
	t = gx_solid_triangles(g, &n);
	gx_volume_work_init(&w);
	gx_volume_exact(t, n, &w, v);
	gx_volume_work_clear(&w);
}

/* Is p within d of a's or b's surface, as seen by nudging it by d along each axis? */
static inline bool
near_surface(const GxSerialized *a, const GxSerialized *b, const double *p, double d)
{
	GxLocation	la = locate(a, p),
				lb = locate(b, p);

	for (int k = 0; k < 6; k++)
	{
		double		q[3] = {p[0], p[1], p[2]};

		q[k / 2] += k % 2 ? -d : d;
		if (locate(a, q) != la || locate(b, q) != lb)
			return true;
	}
	return false;
}

#endif
