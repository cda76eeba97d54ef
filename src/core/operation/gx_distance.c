/*
 * gx_distance.c: distance between geometries: gx_dwithin and gx_closest (exact; see gx_distance.h).
 *
 * A solid (gx_solid.h) is its volume: a geometry that keeps away from its surface is at distance 0 from it
 * when it lies inside, which one vertex of each of its elements settles (exact point location), else at
 * the distance of the surface.
 *
 * Element pairs are enumerated only where their boxes come within a radius r of each other: brute force
 * for few pairs, else a uniform grid (gx_grid.h) over the boxes of the side with fewer elements grown by
 * r (gx_box_expand rounds outward, so no pair within r is lost), the other side streaming through it,
 * each pair visited in one reference cell only.
 *  - gx_dwithin: r = d. Each pair's filter bounds (gx_distance_filter.c) decide most pairs; a pair certified
 *    within d ends the search; the pairs left open are decided exactly (GMP) at the end.
 *  - gx_closest: r grows from a guess until some pair is certified within r (then every closer pair has
 *    boxes within r and was seen), or an intersecting pair is found (distance 0: the search ends there).
 *    Pairs whose lower bound exceeds the best upper bound are dropped; the rest are solved exactly in order
 *    of their lower bounds until none can beat the best exact answer.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "index/gx_grid.h"
#include "operation/gx_distance.h"
#include "operation/gx_intersects.h"
#include "solid/gx_solid.h"

#define BRUTE_FORCE_PAIRS 256		/* below this many pairs a grid does not pay */
#define GRID_CELLS_PER_ELEMENT 2.0
#define FIRST_RADIUS_SHARE 0x1p-20	/* gx_closest's first radius: this share of the extent's diagonal */
#define RADIUS_GROWTH 8.0

/* Visits a candidate pair (i of side a, j of side b); false stops the enumeration. */
typedef bool (*PairVisit) (void *ctx, size_t i, size_t j);

static bool
nomem(GxError *err, size_t n)
{
	gx_error_set(err, GX_ERR_NOMEM, "out of memory for %zu distance candidates", n);
	return false;
}

/* Every pair whose boxes come within r (r >= 0) is visited once, until a visit returns false. */
static bool
near_pairs(const GxElements *a, const GxElements *b, double r, PairVisit visit, void *ctx, GxError *err)
{
	bool		flip = a->n < b->n;	/* the indexed side is the smaller one */
	const GxElements *ix = flip ? a : b,
			   *st = flip ? b : a;
	GxBox3D    *boxes,
				extent;
	GxGrid		grid;
	int			dim[3];
	bool		go = true;

	if ((double) a->n * b->n <= BRUTE_FORCE_PAIRS)
	{
		for (size_t i = 0; i < a->n && go; i++)
		{
			GxBox3D		ba = gx_elem_box(a->elems[i]);

			ba = gx_box_expand(&ba, r);
			for (size_t j = 0; j < b->n && go; j++)
			{
				GxBox3D		bb = gx_elem_box(b->elems[j]);

				go = !gx_box_overlaps(&ba, &bb) || visit(ctx, i, j);
			}
		}
		return true;
	}
	boxes = gx_alloc(ix->n * sizeof(GxBox3D));
	if (boxes == NULL)
		return nomem(err, ix->n);
	gx_box_set_empty(&extent);
	for (size_t f = 0; f < ix->n; f++)
	{
		GxBox3D		box = gx_elem_box(ix->elems[f]);

		boxes[f] = gx_box_expand(&box, r);
		gx_box_extend(&extent, &boxes[f]);
	}
	gx_grid_choose_dims(&extent, GRID_CELLS_PER_ELEMENT * ix->n, dim);
	if (!gx_grid_build(&grid, &extent, dim, boxes, ix->n, NULL, err))
	{
		gx_free(boxes);
		return false;
	}
	for (size_t i = 0; i < st->n && go; i++)
	{
		GxBox3D		eb = gx_elem_box(st->elems[i]);
		int			lo[3],
					hi[3];

		gx_maybe_interrupt(i);
		if (!gx_box_overlaps(&eb, &grid.box))
			continue;
		gx_grid_range(&grid, &eb, lo, hi);
		for (int z = lo[2]; z <= hi[2] && go; z++)
			for (int y = lo[1]; y <= hi[1] && go; y++)
				for (int x = lo[0]; x <= hi[0] && go; x++)
				{
					size_t		cell = gx_grid_cell(&grid, x, y, z);

					for (size_t c = grid.start[cell]; c < grid.start[cell + 1] && go; c++)
					{
						uint32_t	f = grid.items[c];

						if (gx_box_overlaps(&eb, &boxes[f]) &&
							gx_grid_is_reference_cell(&grid, &eb, &boxes[f], x, y, z))
							go = flip ? visit(ctx, f, i) : visit(ctx, i, f);
					}
				}
	}
	gx_grid_free(&grid);
	gx_free(boxes);
	return true;
}

/* Elements of both geometries (only those whose boxes come within r of the other's box, unless r < 0). */
static bool
collect_pair(const GxSerialized *a, const GxSerialized *b, double r, GxElements *ea, GxElements *eb,
			 GxError *err)
{
	GxBox3D		near_a = gx_box_expand(&a->box, r),
				near_b = gx_box_expand(&b->box, r);

	if (!gx_elements_collect(a, r < 0 ? NULL : &near_b, ea, err))
		return false;
	if (!gx_elements_collect(b, r < 0 ? NULL : &near_a, eb, err))
	{
		gx_elements_free(ea);
		return false;
	}
	return true;
}

/*
 * A vertex of elements ex (of a geometry that misses solid s's surface) inside s: 1 with *p set, 0 when
 * there is none (s not a solid), -1 with err set (no usable ray).
 */
static int
vertex_inside(const GxSerialized *s, const GxElements *ex, const double **p, GxError *err)
{
	GxSolidIndex idx;
	size_t		n;
	const double *tri;
	int			found = 0;

	if (!(s->flags & GX_FLAG_SOLID))
		return 0;
	tri = gx_solid_triangles(s, &n);
	if (!gx_solid_index_build(&idx, tri, n, err))
		return -1;
	for (size_t i = 0; i < ex->n && found == 0; i++)
	{
		const double *v = ex->elems[i].c;
		GxLocation	loc = gx_box_contains(&s->box, &(GxBox3D) {v[0], v[1], v[2], v[0], v[1], v[2]}) ?
			gx_solid_locate(&idx, v) : GX_LOC_OUTSIDE;

		if (loc == GX_LOC_FAILED)
		{
			gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
			found = -1;
		}
		else if (loc != GX_LOC_OUTSIDE)
		{
			*p = v;
			found = 1;
		}
	}
	gx_solid_index_free(&idx);
	return found;
}

/* Does a lie inside solid b, or b inside solid a (either missing the other's surface)? 1, 0, -1. */
static int
inside_other(const GxSerialized *a, const GxElements *ea, const GxSerialized *b, const GxElements *eb,
			 const double **p, GxError *err)
{
	int			r = vertex_inside(b, ea, p, err);

	return r != 0 ? r : vertex_inside(a, eb, p, err);
}

/* ---- gx_dwithin ------------------------------------------------------------------------------------- */

typedef struct Within
{
	const GxElements *a,
			   *b;
	double		d2_lo,
				d2_hi;			/* d^2 rounded down and up */
	bool		found;
	size_t	   *open;			/* pairs the filter left open: i, j, i, j, ... */
	size_t		nopen,
				cap;
	bool		nomem;
} Within;

static bool
within_visit(void *ctx, size_t i, size_t j)
{
	Within	   *w = ctx;
	int			r = gx_elem_dwithin_filter(w->a->elems[i], w->b->elems[j], w->d2_lo, w->d2_hi);

	if (r == 1)
	{
		w->found = true;
		return false;
	}
	if (r == 0)
		return true;
	if (!gx_grow((void **) &w->open, &w->cap, w->nopen + 2, sizeof(size_t), SIZE_MAX / sizeof(size_t)))
	{
		w->nomem = true;
		return false;
	}
	w->open[w->nopen++] = i;
	w->open[w->nopen++] = j;
	return true;
}

/* Is some open pair exactly within d? */
static bool
open_pairs_within(const Within *w, double d)
{
	bool		found = false;

	for (size_t k = 0; k < w->nopen && !found; k += 2)
		found = gx_elem_dwithin_exact(w->a->elems[w->open[k]], w->b->elems[w->open[k + 1]], d);
	return found;
}

int
gx_dwithin(const GxSerialized *a, const GxSerialized *b, double d, GxError *err)
{
	GxElements	ea,
				eb;
	Within		w = {.a = &ea, .b = &eb};
	GxBox3D		near_a;
	bool		ok;

	if (!gx_srids_match(a, b, err))
		return -1;
	if ((a->flags | b->flags) & GX_FLAG_EMPTY || !(d >= 0))
		return 0;
	if (isinf(d))
		return 1;
	near_a = gx_box_expand(&a->box, d);
	if (!gx_box_overlaps(&near_a, &b->box))
		return 0;
	if (!collect_pair(a, b, d, &ea, &eb, err))
		return -1;
	w.d2_lo = nextafter(d * d, -INFINITY);
	w.d2_hi = nextafter(d * d, INFINITY);
	ok = near_pairs(&ea, &eb, d, within_visit, &w, err);
	if (ok && w.nomem)
		ok = nomem(err, w.cap);
	if (ok && !w.found)
		w.found = open_pairs_within(&w, d);
	if (ok && !w.found)
	{
		const double *p;
		int			r = inside_other(a, &ea, b, &eb, &p, err);

		ok = r >= 0;
		w.found = r == 1;
	}
	gx_free(w.open);
	gx_elements_free(&ea);
	gx_elements_free(&eb);
	return ok ? w.found : -1;
}

/* ---- gx_closest ------------------------------------------------------------------------------------- */

typedef struct Candidate
{
	size_t		i,
				j;
	double		lo,
				hi;
} Candidate;

typedef struct Nearest
{
	const GxElements *a,
			   *b;
	Candidate  *c;
	size_t		n,
				cap;
	double		best_hi;		/* the least upper bound seen */
	bool		touching;		/* an intersecting pair was found: it is the only candidate */
	bool		nomem;
} Nearest;

static bool
nearest_visit(void *ctx, size_t i, size_t j)
{
	Nearest    *s = ctx;
	Candidate	c = {i, j, 0, 0};

	gx_elem_dist2_bounds(s->a->elems[i], s->b->elems[j], &c.lo, &c.hi);
	if (c.lo > s->best_hi)
		return true;
	if (c.lo == 0 && gx_elem_intersects(s->a->elems[i], s->b->elems[j]))
	{
		/* distance 0 is the least there is: this pair alone is solved (for a common point) */
		s->n = 0;
		c.hi = 0;
		s->touching = true;
	}
	if (!gx_grow((void **) &s->c, &s->cap, s->n + 1, sizeof(Candidate), SIZE_MAX / sizeof(Candidate)))
	{
		s->nomem = true;
		return false;
	}
	s->c[s->n++] = c;
	s->best_hi = c.hi < s->best_hi ? c.hi : s->best_hi;
	return !s->touching;
}

/* By lower bound, then upper bound, then indices (a deterministic order). */
static int
candidate_cmp(const void *x, const void *y)
{
	const Candidate *p = x,
			   *q = y;

	if (p->lo != q->lo)
		return p->lo < q->lo ? -1 : 1;
	if (p->hi != q->hi)
		return p->hi < q->hi ? -1 : 1;
	if (p->i != q->i)
		return p->i < q->i ? -1 : 1;
	return p->j < q->j ? -1 : p->j > q->j;
}

/* Gap between two boxes (0 if they overlap), in plain doubles: a first guess only. */
static double
box_gap(const GxBox3D *a, const GxBox3D *b)
{
	double		g2 = 0;

	for (int k = 0; k < 3; k++)
	{
		double		g = fmax(GX_BOX_LO(b, k) - GX_BOX_HI(a, k), GX_BOX_LO(a, k) - GX_BOX_HI(b, k));

		g2 += g > 0 ? g * g : 0;
	}
	return sqrt(g2);
}

/* Solves the candidates exactly, best first, into out. */
static void
solve_candidates(Nearest *s, GxClosest *out)
{
	GxClosest	c;
	mpq_t		lo;
	bool		have = false;

	qsort(s->c, s->n, sizeof(Candidate), candidate_cmp);
	gx_closest_init(&c);
	mpq_init(lo);
	for (size_t k = 0; k < s->n && s->c[k].lo <= s->best_hi; k++)
	{
		if (have)
		{
			mpq_set_d(lo, s->c[k].lo);
			if (mpq_cmp(lo, out->d2) >= 0)
				break;			/* sorted by lower bound: no later pair can be closer */
		}
		gx_elem_closest(s->a->elems[s->c[k].i], s->b->elems[s->c[k].j], &c);
		if (!have || mpq_cmp(c.d2, out->d2) < 0)
		{
			mpq_swap(c.d2, out->d2);
			for (int i = 0; i < 3; i++)
			{
				mpq_swap(c.pa[i], out->pa[i]);
				mpq_swap(c.pb[i], out->pb[i]);
			}
			have = true;
		}
	}
	mpq_clear(lo);
	gx_closest_clear(&c);
}

int
gx_closest(const GxSerialized *a, const GxSerialized *b, GxClosest *out, GxError *err)
{
	GxElements	ea,
				eb;
	Nearest		s = {.a = &ea, .b = &eb};
	GxBox3D		all = a->box;
	double		r,
				reach;
	bool		ok = true;

	if (!gx_srids_match(a, b, err))
		return -1;
	if ((a->flags | b->flags) & GX_FLAG_EMPTY)
		return 0;
	if (!collect_pair(a, b, -1, &ea, &eb, err))
		return -1;
	gx_box_extend(&all, &b->box);
	r = fmax(box_gap(&a->box, &b->box), FIRST_RADIUS_SHARE * hypot(hypot(all.xmax - all.xmin, all.ymax - all.ymin),
																   all.zmax - all.zmin));
	for (;;)
	{
		s.n = 0;
		s.best_hi = INFINITY;
		ok = near_pairs(&ea, &eb, r, nearest_visit, &s, err);
		if (ok && s.nomem)
			ok = nomem(err, s.cap);
		/* rounded up, the square root of an upper bound is one (and does not underflow as r * r would) */
		reach = nextafter(sqrt(s.best_hi), INFINITY);
		if (!ok || s.touching || isinf(r) || (s.n > 0 && reach <= r))
			break;
		/* nothing certified within r: grow it, to the best upper bound seen if there is one */
		r = s.n > 0 ? reach : fmax(r * RADIUS_GROWTH, DBL_MIN);
	}
	if (ok)
	{
		const double *p;
		int			r;

		gx_closest_init(out);
		solve_candidates(&s, out);
		/* the surfaces apart: one may still lie inside the other, a solid (distance 0 at that vertex) */
		r = mpq_sgn(out->d2) > 0 ? inside_other(a, &ea, b, &eb, &p, err) : 0;
		if (r == 1)
		{
			mpq_set_ui(out->d2, 0, 1);
			for (int k = 0; k < 3; k++)
			{
				mpq_set_d(out->pa[k], p[k]);
				mpq_set(out->pb[k], out->pa[k]);
			}
		}
		else if (r < 0)
		{
			gx_closest_clear(out);
			ok = false;
		}
	}
	gx_free(s.c);
	gx_elements_free(&ea);
	gx_elements_free(&eb);
	return ok ? 1 : -1;
}
