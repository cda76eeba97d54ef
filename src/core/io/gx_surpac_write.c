/*
 * gx_surpac_write.c: writes a geometry as a Surpac string file, or its triangles as a DTM and its string file
 * (gx_io_objects.h), numbers as shortest round-trip decimals.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io_objects.h"
#include "io/gx_io_parts.h"

#define STR_HEAD	"gpuexact,,,\n0, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000\n"
#define SEPARATOR	"0, 0.000, 0.000, 0.000,\n"
#define STR_END		"0, 0.000, 0.000, 0.000, END\n"

typedef struct StrOut
{
	GxTextOut	t;
	long		string;
	size_t		triangles;		/* triangles met (refused in a string file) */
	size_t		segments;
} StrOut;

/* "string, y, x, z" */
static void
put_record(GxTextOut *t, long string, const double *c)
{
	gx_text_printf(t, "%ld, ", string);
	gx_text_put_double(t, c[1]);
	gx_text_put(t, ", ", 2);
	gx_text_put_double(t, c[0]);
	gx_text_put(t, ", ", 2);
	gx_text_put_double(t, c[2]);
	gx_text_put(t, "\n", 1);
}

static bool
put_leaf(void *ctx, const GxNode *leaf)
{
	StrOut	   *o = ctx;
	const double *c = gx_node_coords(leaf);
	uint32_t	i;

	if (leaf->type == GX_POINT || leaf->type == GX_LINESTRING)
	{
		for (i = 0; i < leaf->count; i++)
			put_record(&o->t, o->string, c + 3 * (size_t) i);
		if (leaf->count > 0)
		{
			gx_text_put_str(&o->t, SEPARATOR);
			o->segments++;
		}
	}
	else
		o->triangles += leaf->count;
	return !o->t.failed;
}

char *
gx_to_surpac(const GxSerialized *g, long string, size_t *len, GxError *err)
{
	StrOut		o;

	memset(&o, 0, sizeof(o));
	if (string < 1 || string > 32000)
	{
		gx_error_set(err, GX_ERR_ARG, "Surpac string number %ld out of range [1, 32000]", string);
		return NULL;
	}
	o.string = string;
	gx_text_put_str(&o.t, STR_HEAD);
	gx_node_walk(gx_body(g), put_leaf, &o);
	gx_text_put_str(&o.t, STR_END);
	if (o.triangles > 0 || o.segments == 0)
	{
		if (o.triangles > 0)
			gx_error_set(err, GX_ERR_INVALID, "a Surpac string file holds no triangles (%zu here): "
						 "write them as a DTM (gx_assurpac_dtm)", o.triangles);
		else
			gx_error_set(err, GX_ERR_INVALID, "an EMPTY geometry has nothing to write as a Surpac string file");
		gx_free(o.t.data);
		return NULL;
	}
	return gx_text_finish(&o.t, len, err, "the Surpac string file");
}

/* Gathers the triangles of g (9 doubles each) into *tri; the count of other elements in *others. */
typedef struct Triangles
{
	double	   *tri;
	size_t		ntri,
				cap;
	size_t		others;
	GxError    *err;
} Triangles;

static bool
gather_triangles(void *ctx, const GxNode *leaf)
{
	Triangles  *t = ctx;

	if (leaf->type == GX_POINT || leaf->type == GX_LINESTRING)
		t->others += leaf->count;
	else if (leaf->count > 0 &&
			 gx_io_grow((void **) &t->tri, &t->cap, 9 * (t->ntri + leaf->count), sizeof(double), t->err))
	{
		memcpy(t->tri + 9 * t->ntri, gx_node_coords(leaf), 9 * sizeof(double) * leaf->count);
		t->ntri += leaf->count;
	}
	return t->err->code == GX_OK;
}

int
gx_to_surpac_dtm(const GxSerialized *g, const char *name, char **str, size_t *slen, char **dtm, size_t *dlen,
				 GxError *err)
{
	Triangles	t;
	GxTextOut	s = {0},
				d = {0};
	uint32_t   *ids;
	size_t	   *order = NULL,
				n,
				i;

	memset(&t, 0, sizeof(t));
	t.err = err;
	gx_node_walk(gx_body(g), gather_triangles, &t);
	if (err->code == GX_OK && (t.others > 0 || t.ntri == 0))
		gx_error_set(err, GX_ERR_INVALID, t.others > 0 ?
					 "a Surpac DTM holds only triangles (this geometry has points or lines)" :
					 "a geometry without triangles has nothing to write as a Surpac DTM");
	if (err->code != GX_OK)
	{
		gx_free(t.tri);
		return 0;
	}
	ids = gx_alloc(3 * t.ntri * sizeof(uint32_t));
	n = gx_io_vertex_ids(t.tri, 3 * t.ntri, ids, &order, err);
	gx_text_put_str(&s, STR_HEAD);
	for (i = 0; i < n; i++)
		put_record(&s, 1, t.tri + 3 * order[i]);
	gx_text_put_str(&s, SEPARATOR STR_END);
	for (i = 0; name[i] != '\0'; i++)
		gx_text_put(&d, (unsigned char) name[i] < 0x20 || name[i] == ',' ? "_" : name + i, 1);
	gx_text_put_str(&d, ".str,0;algorithm=standard;fields=x,y\n" STR_END
					"OBJECT, 1,\nTRISOLATION, 1, neighbours=no,validated=false,closed=no\n");
	for (i = 0; i < t.ntri; i++)
		gx_text_printf(&d, "%zu, %u, %u, %u, 0, 0, 0,\n", i + 1, ids[3 * i] + 1, ids[3 * i + 1] + 1, ids[3 * i + 2] + 1);
	gx_text_put_str(&d, "END\n");
	gx_free(ids);
	gx_free(order);
	gx_free(t.tri);
	*str = gx_text_finish(&s, slen, err, "the Surpac string file");
	*dtm = gx_text_finish(&d, dlen, err, "the Surpac DTM");
	if (*str == NULL || *dtm == NULL)
	{
		gx_free(*str);
		gx_free(*dtm);
		return 0;
	}
	return 1;
}
