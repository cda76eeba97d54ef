/*
 * gx_boolean.c: the booleans of two solids as solids (gx_boolean.h). The pairs of triangles whose boxes overlap
 * are found once (gx_overlay_candidates.h); each triangle of each solid that the other's surface misses is kept
 * or dropped whole, by one of its vertices located (once a vertex); one it meets is cut (algorithm/gx_cut.h) and
 * each of its pieces classified: by the side of the plane of the other's triangle whose cut bounds it (where
 * one crossing its plane through its inside does), else as in the overlay: covered by a triangle of the other
 * lying in its plane (with the same or the opposite orientation), or one of its points located. Of a solid
 * whose pieces outside the other are dropped, only the triangles whose boxes meet the other's box are looked
 * at. The result is checked as gx_makesolid checks a surface, the triangles kept unchanged vouched for.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut.h"
#include "algorithm/gx_plane_side.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_projection.h"
#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "operation/gx_boolean.h"
#include "operation/gx_overlay_candidates.h"
#include "operation/gx_places.h"
#include "operation/gx_solid_make.h"

#define CANCEL_EVERY 64

/* What one side's cutting shares. */
typedef struct Side
{
	const GxSolidIndex *other;
	const GxOverlayOptions *opt;
	const signed char *keep;
	const double *T;
	size_t	   *met,
				nmet,
				metcap;
	double	  **out;
	size_t	   *nout,
			   *cap;
	uint8_t   **kept;			/* per triangle out, 1 for one of the solid's own, unchanged (NULL: not told) */
	size_t	   *keptcap;
	bool		exact;			/* no filter: every decision from the exact rationals */
	const GxOverlayCandidates *cand;	/* the pairs whose boxes overlap, or NULL: searched per triangle */
	int			side;			/* this side's in cand */
} Side;

/* gx_boolean_met's search. */
typedef struct Met
{
	const GxSolidIndex *idx;
	const double *T;
	GxPlaneSide plane;			/* T's */
	size_t	  **met,
			   *n,
			   *cap;
	bool		nomem;
} Met;

static bool
collect_met(void *ctx, size_t i)
{
	Met		   *m = ctx;
	const double *tau = m->idx->tri + 9 * i;
	GxPlaneSide tp;
	int			s;

	/* a triangle wholly on one side of the other's plane misses it */
	if ((s = gx_plane_side(&m->plane, tau)) != 0 && gx_plane_side(&m->plane, tau + 3) == s &&
		gx_plane_side(&m->plane, tau + 6) == s)
		return true;
	gx_plane_side_init(&tp, tau);
	if ((s = gx_plane_side(&tp, m->T)) != 0 && gx_plane_side(&tp, m->T + 3) == s && gx_plane_side(&tp, m->T + 6) == s)
		return true;
	if (!gx_elements_intersect(m->T, 3, tau, 3))
		return true;
	if (!gx_grow_malloc((void **) m->met, m->cap, *m->n + 1, sizeof(size_t), SIZE_MAX / sizeof(size_t)))
	{
		m->nomem = true;
		return false;
	}
	(*m->met)[(*m->n)++] = i;
	return true;
}

/*
 * Where gx_solid_index_search visits triangle i of idx for a triangle T of box box: in the cell of the grid
 * holding the lower corner of their boxes' overlap, cells in order of rows then columns, a cell's triangles in
 * ascending order (gx_solid_index.c).
 */
static bool
visited_before(const GxSolidIndex *idx, const GxBox3D *box, size_t i, size_t j)
{
	int			yi = gx_grid_coord(&idx->grid, 1, fmax(box->ymin, idx->boxes[i].ymin)),
				yj = gx_grid_coord(&idx->grid, 1, fmax(box->ymin, idx->boxes[j].ymin)),
				xi,
				xj;

	if (yi != yj)
		return yi < yj;
	xi = gx_grid_coord(&idx->grid, 0, fmax(box->xmin, idx->boxes[i].xmin));
	xj = gx_grid_coord(&idx->grid, 0, fmax(box->xmin, idx->boxes[j].xmin));
	return xi != xj ? xi < xj : i < j;
}

/*
 * gx_boolean_met from the candidates of T (cand[0 .. ncand), whose boxes overlap T's): the same triangles in
 * the same order.
 */
static bool
met_of_candidates(const GxSolidIndex *idx, const double *T, const uint32_t *cand, size_t ncand, size_t **met,
				  size_t *n, size_t *cap)
{
	Met			m = {.idx = idx, .T = T, .met = met, .n = n, .cap = cap};
	GxBox3D		box = gx_box_of_points(T, 3);

	*n = 0;
	gx_plane_side_init(&m.plane, T);
	for (size_t k = 0; k < ncand && !m.nomem; k++)
		collect_met(&m, cand[k]);
	/* in the search's order (insertion sort: few meet one triangle) */
	for (size_t k = 1; k < *n; k++)
	{
		size_t		t = (*met)[k],
					at = k;

		for (; at > 0 && visited_before(idx, &box, t, (*met)[at - 1]); at--)
			(*met)[at] = (*met)[at - 1];
		(*met)[at] = t;
	}
	return !m.nomem;
}

bool
gx_boolean_met(const GxSolidIndex *idx, const double *T, size_t **met, size_t *n, size_t *cap)
{
	Met			m = {.idx = idx, .T = T, .met = met, .n = n, .cap = cap};
	GxBox3D		box = gx_box_of_points(T, 3);

	gx_plane_side_init(&m.plane, T);
	*n = 0;
	gx_solid_index_search(idx, &box, collect_met, &m);
	return !m.nomem;
}

/* Appends triangle abc (reversed: acb); kept: the solid's own triangle, unchanged. */
static bool
emit(Side *s, const double *a, const double *b, const double *c, bool reversed, bool kept)
{
	double	   *t;

	if (!gx_grow_malloc((void **) s->out, s->cap, *s->nout + 1, 9 * sizeof(double), SIZE_MAX / 128) ||
		(s->kept && !gx_grow_malloc((void **) s->kept, s->keptcap, *s->nout + 1, 1, SIZE_MAX / 128)))
		return false;
	if (s->kept)
		(*s->kept)[*s->nout] = kept;
	t = *s->out + 9 * (*s->nout)++;
	memcpy(t, a, 3 * sizeof(double));
	memcpy(t + 3, reversed ? c : b, 3 * sizeof(double));
	memcpy(t + 6, reversed ? b : c, 3 * sizeof(double));
	return true;
}

/* T cut by the triangles s->met: its chosen pieces appended. */
static bool
cut_and_keep(Side *s, int drop, GxError *err)
{
	GxCut	   *cut = gx_cut_new(s->T, drop);
	signed char *choice = NULL;
	bool		ok;
	mpq_t		t,
				u;

	if (cut == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
		return false;
	}
	if (s->opt->max_cuts)
		gx_cut_limit(cut, s->opt->max_cuts);
	if (s->exact)
		gx_cut_exact_only(cut);
	for (size_t k = 0; k < s->nmet; k++)
		gx_cut_add(cut, s->other->tri + 9 * s->met[k]);
	if (!(ok = gx_cut_build(cut, s->opt->cancel, err)))
	{
		gx_cut_free(cut);
		return false;
	}
	mpq_inits(t, u, NULL);
	choice = malloc(gx_cut_npieces(cut));
	ok = choice != NULL;
	for (size_t p = 0; ok && p < gx_cut_npieces(cut); p++)
	{
		int			side = s->exact ? 0 : gx_cut_piece_side(cut, p),
					cover = side ? 0 : gx_cut_piece_point(cut, p, t, u);
		GxPieceClass cls;

		if (side)
			cls = side > 0 ? GX_PIECE_OUTSIDE : GX_PIECE_INSIDE;
		else if (cover)
			cls = cover > 0 ? GX_PIECE_ON_SAME : GX_PIECE_ON_OPPOSITE;
		else
		{
			GxLocation	loc = gx_solid_locate_in_triangle(s->other, s->T, t, u);

			if (loc == GX_LOC_FAILED)
			{
				gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
				ok = false;
				break;
			}
			cls = loc == GX_LOC_INSIDE ? GX_PIECE_INSIDE : GX_PIECE_OUTSIDE;
		}
		choice[p] = s->keep[cls];
	}
	mpq_clears(t, u, NULL);
	if (!ok && err->code == GX_OK)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
	for (size_t k = 0; ok && k < gx_cut_ntriangles(cut); k++)
	{
		size_t		p;
		const size_t *v = gx_cut_triangle(cut, k, &p);
		double		xyz3[9];

		if (choice[p] == 0)
			continue;
		for (int m = 0; m < 3; m++)
			gx_cut_vertex(cut, v[m], xyz3 + 3 * m);
		if (!emit(s, xyz3, xyz3 + 3, xyz3 + 6, choice[p] < 0, false))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pieces of a boolean");
			ok = false;
		}
	}
	free(choice);
	gx_cut_free(cut);
	return ok;
}

/*
 * gx_overlay_pieces, or gx_overlay_pieces_exact when exact. self: the index of the triangles, or NULL; with it,
 * when the pieces outside the other are dropped, only the triangles whose boxes meet the other's box are
 * looked at (the others lie outside it): a large solid against a small one. cand: the pairs of triangles whose
 * boxes overlap, this side's side of them, or NULL to search the other's index for each triangle.
 */
static bool
pieces(const double *tri, size_t n, const GxSolidIndex *self, const GxSolidIndex *other, const signed char *keep,
	   const GxOverlayOptions *opt, bool exact, const GxOverlayCandidates *cand, int side, double **out,
	   uint8_t **kept, size_t *keptcap, size_t *nout, size_t *cap, GxError *err)
{
	Side		s = {.other = other, .opt = opt, .keep = keep, .out = out, .nout = nout, .cap = cap, .kept = kept,
	.keptcap = keptcap, .exact = exact};
	bool		ok = true;
	size_t	   *near = NULL,
				nnear = 0,
				nearcap = 0;
	GxPlaces	pl;

	if (self && keep[GX_PIECE_OUTSIDE] == 0)
	{
		if (!gx_solid_index_near(self, &other->box, &near, &nnear, &nearcap))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
			return false;
		}
		n = nnear;
	}
	if (!gx_places_init(&pl, n))
	{
		gx_places_free(&pl);
		free(near);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		return false;
	}
	for (size_t k = 0; ok && k < n; k++)
	{
		size_t		i = near ? near[k] : k;
		const double *T = tri + 9 * i;
		GxBox3D		box = gx_box_of_points(T, 3);
		int			sigma,
					drop;

		if (k % CANCEL_EVERY == 0 && gx_cancel_requested(opt->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
			ok = false;
			break;
		}
		if ((drop = gx_triangle_projection(T, &sigma)) < 0)
			continue;			/* a flat triangle bounds nothing */
		s.T = T;
		if (!(cand ? met_of_candidates(other, T, cand->list[side] + cand->start[side][i],
									   cand->start[side][i + 1] - cand->start[side][i], &s.met, &s.nmet, &s.metcap)
			  : gx_boolean_met(other, T, &s.met, &s.nmet, &s.metcap)))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
			ok = false;
		}
		else if (s.nmet == 0)
		{
			/* wholly inside or outside, and no vertex of T on the other's surface: located once a vertex */
			GxLocation	loc = gx_box_overlaps(&box, &other->box) ? GX_LOC_FAILED : GX_LOC_OUTSIDE;
			int			k;

			for (k = 0; k < 3 && loc == GX_LOC_FAILED; k++)
				loc = gx_places_get(&pl, T + 3 * k);
			if (loc == GX_LOC_FAILED && ((loc = gx_solid_locate(other, T)) == GX_LOC_INSIDE || loc == GX_LOC_OUTSIDE))
				for (k = 0; k < 3; k++)
					gx_places_put(&pl, T + 3 * k, loc);
			if (loc == GX_LOC_FAILED || loc == GX_LOC_BOUNDARY)
			{
				gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
				ok = false;
			}
			else if ((k = keep[loc == GX_LOC_INSIDE ? GX_PIECE_INSIDE : GX_PIECE_OUTSIDE]) != 0 &&
					 !emit(&s, T, T + 3, T + 6, k < 0, true))
			{
				gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pieces of a boolean");
				ok = false;
			}
		}
		else
			ok = cut_and_keep(&s, drop, err);
	}
	free(s.met);
	free(near);
	gx_places_free(&pl);
	return ok;
}

bool
gx_overlay_pieces(const double *tri, size_t n, const GxSolidIndex *other, const signed char *keep,
				  const GxOverlayOptions *opt, double **out, size_t *nout, size_t *cap, GxError *err)
{
	return pieces(tri, n, NULL, other, keep, opt, false, NULL, 0, out, NULL, NULL, nout, cap, err);
}

bool
gx_overlay_pieces_exact(const double *tri, size_t n, const GxSolidIndex *other, const signed char *keep,
						const GxOverlayOptions *opt, double **out, size_t *nout, size_t *cap, GxError *err)
{
	return pieces(tri, n, NULL, other, keep, opt, true, NULL, 0, out, NULL, NULL, nout, cap, err);
}

/* Which pieces of a (side 0) and b (side 1) bound a op b. */
static void
choose(GxBooleanOp op, signed char keep[2][GX_PIECE_CLASSES])
{
	memset(keep, 0, 2 * GX_PIECE_CLASSES);
	switch (op)
	{
		case GX_BOOL_INTERSECTION:
			keep[0][GX_PIECE_INSIDE] = keep[1][GX_PIECE_INSIDE] = keep[0][GX_PIECE_ON_SAME] = 1;
			break;
		case GX_BOOL_UNION:
			keep[0][GX_PIECE_OUTSIDE] = keep[1][GX_PIECE_OUTSIDE] = keep[0][GX_PIECE_ON_SAME] = 1;
			break;
		case GX_BOOL_DIFFERENCE:
			keep[0][GX_PIECE_OUTSIDE] = keep[0][GX_PIECE_ON_OPPOSITE] = 1;
			keep[1][GX_PIECE_INSIDE] = -1;
			break;
	}
}

static const char *const op_name[] = {"intersection", "union", "difference"};

/* Do two solids (of n[0] and n[1] triangles, boxes a and b) have nothing in common for op, by their boxes? */
static bool
nothing_in_common(GxBooleanOp op, const size_t *n, const GxBox3D *a, const GxBox3D *b)
{
	return op == GX_BOOL_INTERSECTION && n[0] && n[1] && !gx_box_overlaps(a, b);
}

/* gx_boolean_make, kept as gx_solid_make_kept takes it (NULL: none). */
static GxSerialized *
make(double *tri, uint8_t *kept, size_t n, int32_t srid, const char *what, size_t *size, GxError *err)
{
	GxBatchOptions bo;
	GxBuilder	b;
	GxSerialized *out;
	size_t		node,
				shells;

	if (n > 0)
	{
		GxError		why = {GX_OK, ""};

		gx_batch_options_default(&bo);
		bo.device = GX_DEVICE_CPU;
		if (!gx_solid_make_kept(tri, &n, kept, &bo, &shells, &why))
		{
			gx_error_set(err, why.code, "the %s's surface, its new vertices rounded to doubles, is no valid solid: %s",
						 what, why.msg);
			return NULL;
		}
	}
	gx_builder_init(&b, err);
	gx_builder_reserve(&b, n * 9 * sizeof(double) + 64);
	node = gx_builder_begin(&b, GX_POLYHEDRALSURFACE);
	for (size_t i = 0; i < 3 * n; i++)
		gx_builder_coord(&b, tri[3 * i], tri[3 * i + 1], tri[3 * i + 2]);
	gx_builder_end(&b, node, (uint32_t) n);
	out = gx_builder_finish(&b, srid, size);
	if (out && n > 0)
		out->flags |= GX_FLAG_SOLID;
	return out;
}

GxSerialized *
gx_boolean_make(double *tri, size_t n, int32_t srid, const char *what, size_t *size, GxError *err)
{
	return make(tri, NULL, n, srid, what, size, err);
}

/*
 * a op b for the triangles of two solids (n 0: EMPTY), as gx_boolean_solid; given: their indexes, or NULL (or
 * a NULL index) to build them here.
 */
static GxSerialized *
construct(const double *const *tri, const size_t *n, const GxSolidIndex *const *given, GxBooleanOp op, int32_t srid,
		  const GxOverlayOptions *opt, size_t *size, GxError *err)
{
	size_t		nout = 0,
				cap = 0,
				keptcap = 0;
	signed char keep[2][GX_PIECE_CLASSES];
	GxSolidIndex own[2];
	const GxSolidIndex *idx[2];
	double	   *out = NULL,
			   *copy;
	uint8_t    *kept = NULL;	/* per triangle of out: one of a solid's own, unchanged (their pairs need no check) */
	bool		ok = true;
	GxSerialized *s;

	choose(op, keep);
	if (n[0] == 0 || n[1] == 0)
	{
		/* with EMPTY: a ∩ b is EMPTY, a ∪ b the other, a \ b is a */
		int			k = n[0] ? 0 : 1;

		if (op == GX_BOOL_INTERSECTION || n[k] == 0 || (op == GX_BOOL_DIFFERENCE && k == 1))
			k = -1;
		if (k >= 0 && ((out = malloc(n[k] * 9 * sizeof(double))) == NULL || (kept = malloc(n[k])) == NULL))
		{
			free(out);
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for a solid of %zu triangles", n[k]);
			return NULL;
		}
		if (k >= 0)
		{
			memcpy(out, tri[k], n[k] * 9 * sizeof(double));
			memset(kept, 1, n[k]);
			nout = n[k];
		}
	}
	else
	{
		bool		built[2] = {false, false},
					paired = false;
		GxOverlayCandidates cand;
		GxError		cerr = {GX_OK, ""};

		for (int k = 0; ok && k < 2; k++)
			if (given && given[k])
				idx[k] = given[k];
			else if ((ok = built[k] = gx_solid_index_build(&own[k], tri[k], n[k], err)))
				idx[k] = &own[k];
		/* the pairs whose boxes overlap found once (within the memory the cut bound allows), else searched */
		if (ok && n[0] <= UINT32_MAX && n[1] <= UINT32_MAX &&
			!(paired = gx_overlay_candidates(idx[0], idx[1], opt->cancel, opt->max_cuts * (size_t) 64, &cand, &cerr)) &&
			cerr.code != GX_ERR_LIMIT)
		{
			gx_error_set(err, cerr.code, "%s", cerr.msg);
			ok = false;
		}
		ok = ok && pieces(tri[0], n[0], idx[0], idx[1], keep[0], opt, false, paired ? &cand : NULL, 0, &out, &kept,
						  &keptcap, &nout, &cap, err)
			&& pieces(tri[1], n[1], idx[1], idx[0], keep[1], opt, false, paired ? &cand : NULL, 1, &out, &kept,
					  &keptcap, &nout, &cap, err);
		if (paired)
			gx_overlay_candidates_free(&cand);
		for (int k = 0; k < 2; k++)
			if (built[k])
				gx_solid_index_free(&own[k]);
	}
	if (!ok)
	{
		free(out);
		free(kept);
		return NULL;
	}
	/* gx_solid_make works in place, in the caller's allocator */
	copy = gx_alloc((nout ? nout : 1) * 9 * sizeof(double));
	if (nout)
		memcpy(copy, out, nout * 9 * sizeof(double));
	free(out);
	s = make(copy, kept, nout, srid, op_name[op], size, err);
	gx_free(copy);
	free(kept);
	return s;
}

bool
gx_boolean_check(const GxSerialized *g, GxError *err)
{
	if (!(g->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY)))
	{
		gx_error_set(err, GX_ERR_INVALID, "a %s that is not a solid: apply gx_makesolid first",
					 gx_type_name(gx_body(g)->type));
		return false;
	}
	return true;
}

/* The triangles of a solid, none when EMPTY. */
static const double *
solid_triangles(const GxSerialized *g, size_t *n)
{
	*n = 0;
	return g->flags & GX_FLAG_EMPTY ? NULL : gx_solid_triangles(g, n);
}

GxSerialized *
gx_boolean_of_indexes(const GxSolidIndex *a, const GxSolidIndex *b, GxBooleanOp op, int32_t srid,
					  const GxOverlayOptions *opt, size_t *size, GxError *err)
{
	const GxSolidIndex *idx[2] = {a, b};
	const double *tri[2] = {a->tri, b->tri};
	size_t		n[2] = {a->n, b->n};

	if (nothing_in_common(op, n, &a->box, &b->box))
		n[0] = 0;
	return construct(tri, n, idx, op, srid, opt, size, err);
}

GxSerialized *
gx_boolean_solid(const GxSerialized *a, const GxSerialized *b, GxBooleanOp op, const GxOverlayOptions *opt,
				 size_t *size, GxError *err)
{
	return gx_boolean_solid_indexed(a, NULL, b, NULL, op, opt, size, err);
}

GxSerialized *
gx_boolean_solid_indexed(const GxSerialized *a, const GxSolidIndex *ia, const GxSerialized *b,
						 const GxSolidIndex *ib, GxBooleanOp op, const GxOverlayOptions *opt, size_t *size,
						 GxError *err)
{
	const GxSolidIndex *idx[2] = {ia, ib};
	const GxSerialized *g[2] = {a, b};
	const double *tri[2];
	size_t		n[2];

	if (!gx_boolean_check(a, err) || !gx_boolean_check(b, err))
		return NULL;
	for (int k = 0; k < 2; k++)
	{
		/* an indexed solid's triangles are its index's: its value may be its header alone */
		tri[k] = idx[k] ? idx[k]->tri : solid_triangles(g[k], &n[k]);
		if (idx[k])
			n[k] = idx[k]->n;
	}
	if (nothing_in_common(op, n, &a->box, &b->box))
		n[0] = 0;
	return construct(tri, n, idx, op, a->srid, opt, size, err);
}

GxSerialized *
gx_boolean_box(const GxSerialized *a, const GxBox3D *box, const GxOverlayOptions *opt, size_t *size,
			   GxError *err)
{
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};
	double		bt[12 * 9];
	const double *tri[2];
	size_t		n[2] = {0, 0};

	if (!gx_boolean_check(a, err))
		return NULL;
	tri[0] = solid_triangles(a, &n[0]);
	tri[1] = bt;
	if (lo[0] < hi[0] && lo[1] < hi[1] && lo[2] < hi[2])
	{
		/* each face: its corners counter-clockwise seen from outside, two triangles */
		for (int ax = 0; ax < 3; ax++)
			for (int side = 0; side < 2; side++)
			{
				const int	ci[4] = {0, 1, 1, 0},
							cj[4] = {0, 0, 1, 1};
				int			i = (ax + 1) % 3,
							j = (ax + 2) % 3;
				double		q[4][3];

				for (int k = 0; k < 4; k++)
				{
					int			kk = side ? k : 3 - k;

					q[k][ax] = side ? hi[ax] : lo[ax];
					q[k][i] = ci[kk] ? hi[i] : lo[i];
					q[k][j] = cj[kk] ? hi[j] : lo[j];
				}
				for (int t = 0; t < 2; t++)
				{
					memcpy(bt + 9 * n[1], q[0], sizeof(q[0]));
					memcpy(bt + 9 * n[1] + 3, q[1 + t], sizeof(q[0]));
					memcpy(bt + 9 * n[1] + 6, q[2 + t], sizeof(q[0]));
					n[1]++;
				}
			}
	}
	return construct(tri, n, NULL, GX_BOOL_INTERSECTION, a->srid, opt, size, err);
}

bool
gx_boolean_surface(const GxSerialized *surface, const double **tri, size_t *n, GxError *err)
{
	const GxNode *body = gx_body(surface);

	*tri = NULL;
	*n = 0;
	if (surface->flags & GX_FLAG_EMPTY)
		return true;
	if (body->type != GX_TIN && body->type != GX_POLYHEDRALSURFACE && body->type != GX_TRIANGLE)
	{
		gx_error_set(err, GX_ERR_INVALID, "a %s is not a surface of triangles (a TIN, a POLYHEDRALSURFACE or "
					 "a TRIANGLE)", gx_type_name(body->type));
		return false;
	}
	*tri = gx_node_coords(body);
	*n = body->count;
	return true;
}

GxSerialized *
gx_surface_in_solid(const GxSerialized *surface, const GxSerialized *solid, const GxOverlayOptions *opt,
					size_t *size, GxError *err)
{
	/* the surface's pieces in the solid's closed volume, those on its boundary too */
	const signed char keep[GX_PIECE_CLASSES] = {0, 1, 1, 1};
	const double *tri;
	size_t		n,
				nout = 0,
				cap = 0,
				node;
	double	   *out = NULL;
	GxSolidIndex idx;
	GxBuilder	b;
	bool		ok = true;

	if (!gx_boolean_check(solid, err) || !gx_boolean_surface(surface, &tri, &n, err))
		return NULL;
	if (n > 0 && !(solid->flags & GX_FLAG_EMPTY))
	{
		size_t		ns;
		const double *st = gx_solid_triangles(solid, &ns);

		if (!gx_solid_index_build(&idx, st, ns, err))
			return NULL;
		ok = gx_overlay_pieces(tri, n, &idx, keep, opt, &out, &nout, &cap, err);
		gx_solid_index_free(&idx);
	}
	if (!ok)
	{
		free(out);
		return NULL;
	}
	gx_builder_init(&b, err);
	gx_builder_reserve(&b, nout * 9 * sizeof(double) + 64);
	node = gx_builder_begin(&b, GX_TIN);
	for (size_t i = 0; i < 3 * nout; i++)
		gx_builder_coord(&b, out[3 * i], out[3 * i + 1], out[3 * i + 2]);
	gx_builder_end(&b, node, (uint32_t) nout);
	free(out);
	return gx_builder_finish(&b, surface->srid, size);
}
