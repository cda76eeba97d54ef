/* gx_batch_side.c: flattening geometries into one side of a batch (element coordinates, kinds, owners). */
#include <string.h>

#include "gx_alloc.h"
#include "gx_batch.h"
#include "gx_elements.h"

void
gx_batch_side_init(GxBatchSide *s)
{
	memset(s, 0, sizeof(*s));
}

static bool
reserve(GxBatchSide *s, size_t extra, GxError *err)
{
	size_t		cap = s->cap ? s->cap : 1024;
	double	   *coords;
	uint8_t    *kind;
	uint32_t   *geom;

	if (s->n + extra <= s->cap)
		return true;
	if (s->n + extra > UINT32_MAX)
	{
		gx_error_set(err, GX_ERR_LIMIT, "too many elements in one batch side (more than %u)", UINT32_MAX);
		return false;
	}
	while (cap < s->n + extra)
		cap *= 2;
	coords = gx_realloc(s->coords, cap * 9 * sizeof(double));
	if (coords)
		s->coords = coords;
	kind = gx_realloc(s->kind, cap);
	if (kind)
		s->kind = kind;
	geom = gx_realloc(s->geom, cap * sizeof(uint32_t));
	if (geom)
		s->geom = geom;
	if (!coords || !kind || !geom)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a batch of %zu elements", cap);
		return false;
	}
	s->cap = cap;
	return true;
}

bool
gx_batch_side_add(GxBatchSide *s, const GxSerialized *g, GxError *err)
{
	GxElements	e;
	size_t		i;

	if (g->srid != 0 && s->srid != 0 && g->srid != s->srid)
	{
		gx_error_set(err, GX_ERR_SRID, "operation on mixed SRID geometries (%d and %d)", s->srid, g->srid);
		return false;
	}
	if (s->ngeoms == UINT32_MAX)
	{
		gx_error_set(err, GX_ERR_LIMIT, "too many geometries in one batch");
		return false;
	}
	if (g->srid != 0)
		s->srid = g->srid;
	if (!gx_elements_collect(g, NULL, &e, err))
		return false;
	if (!reserve(s, e.n, err))
	{
		gx_elements_free(&e);
		return false;
	}
	for (i = 0; i < e.n; i++)
	{
		double	   *c = s->coords + 9 * (s->n + i);
		int			v;

		for (v = 0; v < 3; v++)
			memcpy(c + 3 * v, e.elems[i].c + 3 * (v < e.elems[i].kind ? v : e.elems[i].kind - 1), 3 * sizeof(double));
		s->kind[s->n + i] = (uint8_t) e.elems[i].kind;
		s->geom[s->n + i] = s->ngeoms;
	}
	if (e.n > 0)
	{
		const GxBox3D *b = &g->box;

		if (s->n == 0)
			s->extent = *b;
		else
		{
			s->extent.xmin = b->xmin < s->extent.xmin ? b->xmin : s->extent.xmin;
			s->extent.ymin = b->ymin < s->extent.ymin ? b->ymin : s->extent.ymin;
			s->extent.zmin = b->zmin < s->extent.zmin ? b->zmin : s->extent.zmin;
			s->extent.xmax = b->xmax > s->extent.xmax ? b->xmax : s->extent.xmax;
			s->extent.ymax = b->ymax > s->extent.ymax ? b->ymax : s->extent.ymax;
			s->extent.zmax = b->zmax > s->extent.zmax ? b->zmax : s->extent.zmax;
		}
	}
	s->n += e.n;
	s->ngeoms++;
	gx_elements_free(&e);
	return true;
}

void
gx_batch_side_free(GxBatchSide *s)
{
	gx_free(s->coords);
	gx_free(s->kind);
	gx_free(s->geom);
	gx_batch_side_init(s);
}
