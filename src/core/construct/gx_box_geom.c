/*
 * gx_box_geom.c: a box as a geometry of its own dimension: a solid of 12 triangles (checked and oriented as
 * gx_makesolid does), a flat box's rectangle as 2 triangles, a line, a point.
 */
#include "base/gx_alloc.h"
#include "construct/gx_construct.h"
#include "geom/gx_box.h"
#include "operation/gx_solid_make.h"

/* The faces of the unit cube as quads of corner numbers: bit 0 of a corner is x max, bit 1 y max, bit 2 z max. */
static const int cube_quads[6][4] = {
	{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}
};

/* Corner c of box as 3 doubles. */
static void
corner(const GxBox3D *box, int c, double *p)
{
	for (int d = 0; d < 3; d++)
		p[d] = (c >> d) & 1 ? GX_BOX_HI(box, d) : GX_BOX_LO(box, d);
}

/* Writes the two triangles (q0 q1 q2) and (q0 q2 q3) of the quad of corners q. */
static void
quad(GxBuilder *b, const GxBox3D *box, const int *q)
{
	static const int tri[6] = {0, 1, 2, 0, 2, 3};
	double		p[3];

	for (int i = 0; i < 6; i++)
	{
		corner(box, q[tri[i]], p);
		gx_builder_coord(b, p[0], p[1], p[2]);
	}
}

GxSerialized *
gx_box_geom(const GxBox3D *box, int32_t srid, size_t *size, GxError *err)
{
	GxBuilder	b;
	GxSerialized *surface,
			   *solid;
	size_t		node;
	int			axes[3],
				naxes = 0;

	gx_builder_init(&b, err);
	if (gx_box_is_empty(box))
	{
		gx_builder_end(&b, gx_builder_begin(&b, GX_GEOMETRYCOLLECTION), 0);
		return gx_builder_finish(&b, srid, size);
	}
	for (int d = 0; d < 3; d++)
		if (GX_BOX_HI(box, d) > GX_BOX_LO(box, d))
			axes[naxes++] = d;
	if (naxes == 0)
	{
		node = gx_builder_begin(&b, GX_POINT);
		gx_builder_coord(&b, box->xmin, box->ymin, box->zmin);
		gx_builder_end(&b, node, 1);
	}
	else if (naxes == 1)
	{
		node = gx_builder_begin(&b, GX_LINESTRING);
		gx_builder_coord(&b, box->xmin, box->ymin, box->zmin);
		gx_builder_coord(&b, box->xmax, box->ymax, box->zmax);
		gx_builder_end(&b, node, 2);
	}
	else if (naxes == 2)
	{
		/* the corners at the minimum of the flat axis, counter-clockwise in the order of the two others */
		int			u = 1 << axes[0],
					v = 1 << axes[1];
		int			q[4] = {0, u, u | v, v};

		node = gx_builder_begin(&b, GX_TIN);
		quad(&b, box, q);
		gx_builder_end(&b, node, 2);
	}
	else
	{
		node = gx_builder_begin(&b, GX_POLYHEDRALSURFACE);
		for (int f = 0; f < 6; f++)
			quad(&b, box, cube_quads[f]);
		gx_builder_end(&b, node, 12);
		surface = gx_builder_finish(&b, srid, size);
		if (surface == NULL)
			return NULL;
		solid = gx_solid_from(surface, NULL, size, err);
		gx_free(surface);
		return solid;
	}
	return gx_builder_finish(&b, srid, size);
}
