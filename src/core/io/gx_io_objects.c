/* gx_io_objects.c: the list of named objects that the GOCAD and Surpac readers fill, JSON strings, and the distinct vertices their writers number (gx_io_objects.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* qsort_r */
#endif
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io_objects.h"
#include "io/gx_io_parts.h"

void
gx_io_objects_free(GxIoObjects *o)
{
	size_t		i;

	for (i = 0; i < o->n; i++)
	{
		gx_free(o->items[i].name);
		gx_free(o->items[i].properties);
		gx_free(o->items[i].geom);
	}
	gx_free(o->items);
	memset(o, 0, sizeof(*o));
}

int
gx_io_objects_add(GxIoObjects *o, char *name, char *properties, GxSerialized *geom, size_t size, GxError *err)
{
	GxIoObject *it;

	if (err->code != GX_OK || geom == NULL ||
		!gx_io_grow((void **) &o->items, &o->cap, o->n + 1, sizeof(o->items[0]), err))
	{
		gx_free(name);
		gx_free(properties);
		gx_free(geom);
		return 0;
	}
	it = &o->items[o->n++];
	it->name = name;
	it->properties = properties;
	it->geom = geom;
	it->size = size;
	return 1;
}

void
gx_text_put_json_string(GxTextOut *t, const char *s, size_t n)
{
	size_t		i;
	unsigned char c;

	gx_text_put(t, "\"", 1);
	for (i = 0; i < n; i++)
	{
		c = (unsigned char) s[i];
		if (c == '"' || c == '\\')
		{
			gx_text_put(t, "\\", 1);
			gx_text_put(t, s + i, 1);
		}
		else if (c < 0x20 || c == 0x7F)
			gx_text_printf(t, "\\u%04x", c);
		else
			gx_text_put(t, s + i, 1);
	}
	gx_text_put(t, "\"", 1);
}

/* Orders point indices by the bytes of their points (ctx: the points). */
static int
compare_points(const void *a, const void *b, void *ctx)
{
	const double *v = ctx;

	return memcmp(v + 3 * *(const size_t *) a, v + 3 * *(const size_t *) b, 3 * sizeof(double));
}

size_t
gx_io_vertex_ids(const double *v, size_t n, uint32_t *ids, size_t **order, GxError *err)
{
	size_t	   *idx = NULL,
				cap = 0,
				i,
				count = 0;

	if (n == 0 || !gx_io_grow((void **) &idx, &cap, n, sizeof(size_t), err))
		return 0;
	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(size_t), compare_points, (void *) v);
	for (i = 0; i < n; i++)
	{
		if (i > 0 && memcmp(v + 3 * idx[i], v + 3 * idx[i - 1], 3 * sizeof(double)) == 0)
		{
			ids[idx[i]] = (uint32_t) (count - 1);
			continue;
		}
		ids[idx[i]] = (uint32_t) count;
		idx[count++] = idx[i];
	}
	*order = idx;
	return count;
}
