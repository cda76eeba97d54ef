/*
 * gx_overlay.c: the exact overlay of two solids' surfaces and the volumes of their booleans (gx_overlay.h).
 * A triangle that the other surface misses lies wholly inside or outside the other solid: one of its vertices
 * is located (none when the boxes miss each other). A triangle it meets is cut into trapezoids
 * (gx_pieces.h), each located at its middle point or found on the other's surface in its plane.
 */
#include <stdlib.h>

#include "algorithm/gx_pieces.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_projection.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "operation/gx_overlay.h"
#include "operation/gx_volume.h"

#define CANCEL_EVERY 64			/* triangles, or trapezoids, between two polls of the cancel flags */

void
gx_overlay_sums_init(GxOverlaySums *s)
{
	for (int k = 0; k < 2; k++)
		for (int c = 0; c < GX_PIECE_CLASSES; c++)
			mpq_init(s->sum[k][c]);
}

void
gx_overlay_sums_clear(GxOverlaySums *s)
{
	for (int k = 0; k < 2; k++)
		for (int c = 0; c < GX_PIECE_CLASSES; c++)
			mpq_clear(s->sum[k][c]);
}

void
gx_overlay_cut_init(GxOverlayCut *c, const GxSolidIndex *other, const GxOverlayOptions *opt)
{
	*c = (GxOverlayCut) {.other = other, .opt = opt};
	for (int k = 0; k < GX_PIECE_CLASSES; k++)
		mpq_init(c->area[k]);
}

void
gx_overlay_cut_clear(GxOverlayCut *c)
{
	for (int k = 0; k < GX_PIECE_CLASSES; k++)
		mpq_clear(c->area[k]);
	free(c->met);
	c->met = NULL;
}

bool
gx_overlay_cut_collect(GxOverlayCut *c, size_t i)
{
	if (!gx_elements_intersect(c->T, 3, c->other->tri + 9 * i, 3))
		return true;
	if (!gx_grow_malloc((void **) &c->met, &c->cap, c->nmet + 1, sizeof(size_t), SIZE_MAX / sizeof(size_t)))
	{
		c->nomem = true;
		return false;
	}
	c->met[c->nmet++] = i;
	return true;
}

static bool
collect_met(void *ctx, size_t i)
{
	return gx_overlay_cut_collect(ctx, i);
}

int
gx_overlay_cut_whole(GxOverlayCut *c, const GxBox3D *box, GxError *err)
{
	GxLocation	loc = gx_box_overlaps(box, &c->other->box) ? gx_solid_locate(c->other, c->T) : GX_LOC_OUTSIDE;

	if (loc == GX_LOC_FAILED || loc == GX_LOC_BOUNDARY)
	{
		gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
		return -2;
	}
	return loc == GX_LOC_INSIDE ? GX_PIECE_INSIDE : GX_PIECE_OUTSIDE;
}

int
gx_overlay_cut_meet(GxOverlayCut *c, const GxSolidIndex *self, size_t i, GxError *err)
{
	c->T = self->tri + 9 * i;
	c->nmet = 0;
	gx_solid_index_search(c->other, &self->boxes[i], collect_met, c);
	if (c->nomem)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		return -2;
	}
	/* with none met: wholly inside or outside, and no vertex of T on the other's surface */
	return c->nmet > 0 ? -1 : gx_overlay_cut_whole(c, &self->boxes[i], err);
}

/* A trapezoid of T: its class, from the cover or its point's location in the other solid. */
static int
classify_trapezoid(void *ctx, mpq_srcptr t, mpq_srcptr u, mpq_srcptr area, int cover, GxError *err)
{
	GxOverlayCut *c = ctx;
	GxPieceClass cls;

	if (++c->visits % CANCEL_EVERY == 0 && gx_cancel_requested(c->opt->cancel))
	{
		gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
		return -1;
	}
	if (cover)
		cls = cover > 0 ? GX_PIECE_ON_SAME : GX_PIECE_ON_OPPOSITE;
	else
	{
		GxLocation	loc = gx_solid_locate_in_triangle(c->other, c->T, t, u);

		if (loc == GX_LOC_FAILED)
		{
			gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
			return -1;
		}
		cls = loc == GX_LOC_INSIDE ? GX_PIECE_INSIDE : GX_PIECE_OUTSIDE;
	}
	mpq_add(c->area[cls], c->area[cls], area);
	return 1;
}

bool
gx_overlay_cut_areas(GxOverlayCut *c, int drop, GxError *err)
{
	GxPieces   *pc = gx_pieces_new(c->T, drop);
	int			r;

	for (int k = 0; k < GX_PIECE_CLASSES; k++)
		mpq_set_ui(c->area[k], 0, 1);
	if (pc == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
		return false;
	}
	if (c->opt->max_cuts)
		gx_pieces_limit(pc, c->opt->max_cuts);
	for (size_t k = 0; k < c->nmet; k++)
		gx_pieces_add(pc, c->other->tri + 9 * c->met[k]);
	r = gx_pieces_visit_areas(pc, classify_trapezoid, c, err);
	gx_pieces_free(pc);
	return r == 1;
}

/*
 * Side s's triangles (index self) against the other solid, into out->sum[s]; o: the reference point. whole
 * sums det over the triangles met by nothing, by class (their area is 1/2).
 */
static bool
overlay_side(const GxSolidIndex *self, const GxSolidIndex *other, int s, const double *o,
			 const GxOverlayOptions *opt, GxOverlaySums *out, GxError *err)
{
	GxOverlayCut c;
	mpq_t		det,
				whole[GX_PIECE_CLASSES];
	bool		ok = true;

	gx_overlay_cut_init(&c, other, opt);
	mpq_init(det);
	for (int k = 0; k < GX_PIECE_CLASSES; k++)
		mpq_init(whole[k]);
	for (size_t i = 0; ok && i < self->n; i++)
	{
		const double *T = self->tri + 9 * i;
		int			sigma,
					drop,
					cls;

		if (i % CANCEL_EVERY == 0 && gx_cancel_requested(opt->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
			ok = false;
			break;
		}
		if ((drop = gx_triangle_projection(T, &sigma)) < 0)
			continue;			/* a flat triangle bounds no volume */
		gx_orient3d_value(T, T + 3, T + 6, o, det);
		if ((cls = gx_overlay_cut_meet(&c, self, i, err)) == -2)
			ok = false;
		else if (cls >= 0)
			mpq_add(whole[cls], whole[cls], det);
		else
		{
			ok = gx_overlay_cut_areas(&c, drop, err);
			for (int k = 0; ok && k < GX_PIECE_CLASSES; k++)
				if (mpq_sgn(c.area[k]) != 0)
				{
					mpq_mul(c.area[k], c.area[k], det);
					mpq_add(out->sum[s][k], out->sum[s][k], c.area[k]);
				}
		}
	}
	for (int k = 0; k < GX_PIECE_CLASSES; k++)
	{
		mpq_div_2exp(whole[k], whole[k], 1);
		mpq_add(out->sum[s][k], out->sum[s][k], whole[k]);
		mpq_clear(whole[k]);
	}
	mpq_clear(det);
	gx_overlay_cut_clear(&c);
	return ok;
}

bool
gx_overlay_sums(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt, GxOverlaySums *out,
				GxError *err)
{
	const double *o = a->tri;

	for (int k = 0; k < 2; k++)
		for (int c = 0; c < GX_PIECE_CLASSES; c++)
			mpq_set_ui(out->sum[k][c], 0, 1);
	return overlay_side(a, b, 0, o, opt, out, err) && overlay_side(b, a, 1, o, opt, out, err);
}

void
gx_overlay_volume(const GxOverlaySums *s, GxBooleanOp op, mpq_t v)
{
	switch (op)
	{
		case GX_BOOL_INTERSECTION:
			mpq_add(v, s->sum[0][GX_PIECE_INSIDE], s->sum[1][GX_PIECE_INSIDE]);
			mpq_add(v, v, s->sum[0][GX_PIECE_ON_SAME]);
			break;
		case GX_BOOL_UNION:
			mpq_add(v, s->sum[0][GX_PIECE_OUTSIDE], s->sum[1][GX_PIECE_OUTSIDE]);
			mpq_add(v, v, s->sum[0][GX_PIECE_ON_SAME]);
			break;
		case GX_BOOL_DIFFERENCE:
			mpq_sub(v, s->sum[0][GX_PIECE_OUTSIDE], s->sum[1][GX_PIECE_INSIDE]);
			mpq_add(v, v, s->sum[0][GX_PIECE_ON_OPPOSITE]);
			break;
	}
	/* each piece adds det A / 3 */
	{
		mpq_t		three;

		mpq_init(three);
		mpq_set_ui(three, 3, 1);
		mpq_div(v, v, three);
		mpq_clear(three);
	}
}

static bool
check_solid(const GxSerialized *g, GxError *err)
{
	if (!(g->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)))
	{
		gx_error_set(err, GX_ERR_INVALID, "a %s that is not a solid: apply gx_makesolid first",
					 gx_type_name(gx_body(g)->type));
		return false;
	}
	return true;
}

/* The volume of a op b when a or b is EMPTY (n: its triangles' count, 0 for EMPTY). */
static void
volume_with_empty(const double *ta, size_t na, const double *tb, size_t nb, GxBooleanOp op, mpq_t v)
{
	GxVolumeWork w;

	mpq_set_ui(v, 0, 1);
	if (op == GX_BOOL_INTERSECTION || na == 0)
		return;
	gx_volume_work_init(&w);
	if (op == GX_BOOL_UNION && nb > 0)
		gx_volume_exact(tb, nb, &w, v);
	else
		gx_volume_exact(ta, na, &w, v);
	gx_volume_work_clear(&w);
}

bool
gx_boolean_volume(const GxSerialized *a, const GxSolidIndex *ia, const GxSerialized *b, const GxSolidIndex *ib,
				  GxBooleanOp op, const GxOverlayOptions *opt, double *out, GxError *err)
{
	GxSolidIndex own[2];
	const GxSolidIndex *idx[2] = {ia, ib};
	const GxSerialized *g[2] = {a, b};
	const double *tri[2] = {NULL, NULL};
	size_t		n[2] = {0, 0};
	bool		ok = true;

	*out = 0;
	if (!check_solid(a, err) || !check_solid(b, err))
		return false;
	for (int k = 0; k < 2; k++)
		if (!(g[k]->flags & GX_FLAG_EMPTY))
			tri[k] = gx_solid_triangles(g[k], &n[k]);
	if (op == GX_BOOL_INTERSECTION && n[0] && n[1] && !gx_box_overlaps(&a->box, &b->box))
		return true;			/* solids whose boxes miss each other have nothing in common */
	if (n[0] == 0 || n[1] == 0)
	{
		mpq_t		v;

		mpq_init(v);
		volume_with_empty(tri[0], n[0], tri[1], n[1], op, v);
		*out = gx_mpq_get_d_nearest(v);
		mpq_clear(v);
	}
	else
	{
		GxOverlayVolumes vol;

		for (int k = 0; ok && k < 2; k++)
			if (idx[k] == NULL)
			{
				ok = gx_solid_index_build(&own[k], tri[k], n[k], err);
				idx[k] = ok ? &own[k] : NULL;
			}
		if (ok && (ok = gx_overlay_volumes(idx[0], idx[1], opt, GX_BOOL_OP(op), &vol, err)))
			*out = vol.v[op];
		for (int k = 0; k < 2; k++)
			if (idx[k] == &own[k])
				gx_solid_index_free(&own[k]);
	}
	return ok;
}
