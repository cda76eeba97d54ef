/*
 * gx_gocad_write.c: writes a geometry as GOCAD ASCII (gx_io_objects.h): its triangles as a TSurf, its
 * linestrings as a PLine, its points as a VSet, numbers as shortest round-trip decimals.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io_objects.h"
#include "io/gx_io_parts.h"

/* What the leaves of g hold, gathered by kind. */
typedef struct Gathered
{
	double	   *tri;			/* 9 doubles a triangle */
	size_t		ntri,
				cap_tri;
	GxTextOut	lines;			/* the PLine's ILINE blocks, written as they come */
	size_t		vertex;			/* PLine vertex ids so far */
	GxTextOut	points;			/* the VSet's VRTX records */
	size_t		npoints;
	GxError    *err;
} Gathered;

static void
put_vrtx(GxTextOut *t, size_t id, const double *c)
{
	int			k;

	gx_text_printf(t, "VRTX %zu", id);
	for (k = 0; k < 3; k++)
	{
		gx_text_put(t, " ", 1);
		gx_text_put_double(t, c[k]);
	}
	gx_text_put(t, "\n", 1);
}

static bool
gather_leaf(void *ctx, const GxNode *leaf)
{
	Gathered   *g = ctx;
	const double *c = gx_node_coords(leaf);
	uint32_t	i;

	if (leaf->type == GX_POINT)
		for (i = 0; i < leaf->count; i++)
			put_vrtx(&g->points, ++g->npoints, c);
	else if (leaf->type == GX_LINESTRING && leaf->count > 0)
	{
		gx_text_put_str(&g->lines, "ILINE\n");
		for (i = 0; i < leaf->count; i++)
			put_vrtx(&g->lines, g->vertex + 1 + i, c + 3 * (size_t) i);
		for (i = 1; i < leaf->count; i++)
			gx_text_printf(&g->lines, "SEG %zu %zu\n", g->vertex + i, g->vertex + i + 1);
		g->vertex += leaf->count;
	}
	else if (leaf->type != GX_LINESTRING && leaf->count > 0 &&
			 gx_io_grow((void **) &g->tri, &g->cap_tri, 9 * (g->ntri + leaf->count), sizeof(double), g->err))
	{
		memcpy(g->tri + 9 * g->ntri, c, 9 * sizeof(double) * leaf->count);
		g->ntri += leaf->count;
	}
	return g->err->code == GX_OK;
}

/* "GOCAD <type> 1", the header naming it, the coordinate system. */
static void
put_object_head(GxTextOut *t, const char *type, const char *name)
{
	size_t		i;

	gx_text_printf(t, "GOCAD %s 1\nHEADER {\nname: ", type);
	for (i = 0; name[i] != '\0'; i++)
		gx_text_put(t, (unsigned char) name[i] < 0x20 || name[i] == '}' || name[i] == '{' ? " " : name + i, 1);
	gx_text_put_str(t, "\n}\nGOCAD_ORIGINAL_COORDINATE_SYSTEM\nNAME Default\nAXIS_NAME \"X\" \"Y\" \"Z\"\n"
					"AXIS_UNIT \"m\" \"m\" \"m\"\nZPOSITIVE Elevation\nEND_ORIGINAL_COORDINATE_SYSTEM\n");
}

/* The TSurf: each distinct vertex once (ids from 1), then the triangles. */
static void
put_tsurf(GxTextOut *t, const Gathered *g, const char *name)
{
	uint32_t   *ids = gx_alloc(3 * g->ntri * sizeof(uint32_t));
	size_t	   *order = NULL;
	size_t		n = gx_io_vertex_ids(g->tri, 3 * g->ntri, ids, &order, g->err),
				i;

	put_object_head(t, "TSurf", name);
	gx_text_put_str(t, "TFACE\n");
	for (i = 0; i < n; i++)
		put_vrtx(t, i + 1, g->tri + 3 * order[i]);
	for (i = 0; i < g->ntri && n > 0; i++)
		gx_text_printf(t, "TRGL %u %u %u\n", ids[3 * i] + 1, ids[3 * i + 1] + 1, ids[3 * i + 2] + 1);
	gx_text_put_str(t, "END\n");
	gx_free(ids);
	gx_free(order);
}

char *
gx_to_gocad(const GxSerialized *g, const char *name, size_t *len, GxError *err)
{
	Gathered	ga;
	GxTextOut	t = {0};
	char	   *out;

	memset(&ga, 0, sizeof(ga));
	ga.err = err;
	gx_node_walk(gx_body(g), gather_leaf, &ga);
	if (err->code == GX_OK && ga.ntri == 0 && ga.vertex == 0 && ga.npoints == 0)
		gx_error_set(err, GX_ERR_INVALID, "an EMPTY geometry has nothing to write as GOCAD");
	if (err->code == GX_OK && ga.ntri > 0)
		put_tsurf(&t, &ga, name);
	if (err->code == GX_OK && ga.vertex > 0)
	{
		put_object_head(&t, "PLine", name);
		gx_text_put(&t, ga.lines.data, ga.lines.len);
		gx_text_put_str(&t, "END\n");
	}
	if (err->code == GX_OK && ga.npoints > 0)
	{
		put_object_head(&t, "VSet", name);
		gx_text_put(&t, ga.points.data, ga.points.len);
		gx_text_put_str(&t, "END\n");
	}
	if (ga.lines.failed || ga.points.failed)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory writing GOCAD");
	gx_free(ga.tri);
	gx_free(ga.lines.data);
	gx_free(ga.points.data);
	if (err->code != GX_OK)
	{
		gx_free(t.data);
		return NULL;
	}
	out = gx_text_finish(&t, len, err, "the GOCAD text");
	return out;
}
