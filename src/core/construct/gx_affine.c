/*
 * gx_affine.c: geometries with their points mapped (gx_map_points: affine maps here, coordinate systems
 * through PROJ in the SQL layer), a solid checked again afterwards: rounding can fold a thin part over, and a
 * singular map flattens it. Affine maps (gx_translate, gx_scale, gx_rotatez, gx_affine) give each output
 * coordinate the exact value of its expression over the input doubles rounded once (gx_dot_nearest).
 */
#include <math.h>

#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "construct/gx_construct.h"
#include "operation/gx_solid_make.h"

typedef struct MapWalk
{
	GxPointMap	map;
	void	   *ctx;
	const char *fname;
	GxError    *err;
} MapWalk;

static bool
map_leaf(void *ctx, const GxNode *leaf)
{
	MapWalk    *w = ctx;
	double	   *c = (double *) gx_node_coords(leaf);
	long		n = gx_leaf_doubles(leaf->type, leaf->count);

	if (n == 0)
		return true;
	if (!w->map(w->ctx, c, (size_t) n / 3, w->err))
		return false;
	for (long i = 0; i < n; i++)
		if (!isfinite(c[i]))
		{
			gx_error_set(w->err, GX_ERR_RANGE, "%s: a point is mapped beyond the range of float8 (or to no "
						 "point): coordinate %ld of a %s", w->fname, i + 1, gx_type_name(leaf->type));
			return false;
		}
	return true;
}

GxSerialized *
gx_map_points(const GxSerialized *g, GxPointMap map, void *ctx, int32_t srid, const char *fname, size_t *size,
			  GxError *err)
{
	MapWalk		w = {map, ctx, fname, err};
	GxBuilder	b;
	GxSerialized *out,
			   *solid;
	GxError		why = {GX_OK, ""};

	gx_builder_init(&b, err);
	gx_builder_node(&b, gx_body(g));
	if (b.data == NULL || err->code != GX_OK ||
		!gx_node_walk((const GxNode *) (b.data + sizeof(GxSerialized)), map_leaf, &w))
	{
		gx_builder_discard(&b);
		return NULL;
	}
	out = gx_builder_finish(&b, srid, size);
	if (out == NULL || !(g->flags & GX_FLAG_SOLID))
		return out;
	solid = gx_solid_from(out, NULL, size, &why);
	gx_free(out);
	if (solid == NULL)
		gx_error_set(err, why.code == GX_ERR_NOMEM ? GX_ERR_NOMEM : GX_ERR_INVALID,
					 "%s: the moved solid is no valid solid after rounding: %s", fname, why.msg);
	return solid;
}

/* One point: each coordinate the exact sum of its terms, rounded once. */
static bool
affine_points(void *ctx, double *c, size_t n, GxError *err)
{
	const GxAffine *t = ctx;

	(void) err;
	for (size_t i = 0; i < n; i++, c += 3)
	{
		double		in[3] = {c[0], c[1], c[2]};

		for (int k = 0; k < 3; k++)
		{
			double		a[6],
						b[6];

			for (int j = 0; j < 3; j++)
			{
				a[j] = t->m[k][j];
				b[j] = in[j];
				a[3 + j] = t->ca[k][j];
				b[3 + j] = t->cb[k][j];
			}
			c[k] = gx_dot_nearest(a, b, 6);
		}
	}
	return true;
}

GxSerialized *
gx_affine(const GxSerialized *g, const GxAffine *t, const char *fname, size_t *size, GxError *err)
{
	static const char *const part[3] = {"matrix", "offset", "offset"};
	const double *entries[3] = {&t->m[0][0], &t->ca[0][0], &t->cb[0][0]};

	for (int s = 0; s < 3; s++)
		for (int i = 0; i < 9; i++)
			if (!isfinite(entries[s][i]))
			{
				gx_error_set(err, GX_ERR_ARG, "%s: %s entry %g is not a finite number", fname, part[s],
							 entries[s][i]);
				return NULL;
			}
	return gx_map_points(g, affine_points, (void *) t, g->srid, fname, size, err);
}
