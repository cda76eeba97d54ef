/*
 * gx_pieces.c: one point in each piece of a triangle's open inside that segments cut it into (gx_pieces.h).
 * In T's coordinates (t, u), the point T0 + t (T1 - T0) + u (T2 - T0), the segments' ends and their
 * crossings are breakpoints of t. Between two consecutive breakpoints no segment ends or crosses another:
 * the segments spanning that slab keep their order in u all along it, and between two consecutive ones at
 * the slab's middle t lies a point of each piece the slab meets. A piece is open, so it meets some slab:
 * every piece gets a point, on no segment. The part of a slab between two consecutive segments is a
 * trapezoid, whose area is the slab's width times its height at the middle. Segments are clipped to T first,
 * so that none crosses T's edges inside a slab. All of it in rationals; memory from malloc (threads call this).
 */
#include <stdint.h>
#include <stdlib.h>

#include "algorithm/gx_pieces.h"
#include "algorithm/gx_plane_coords.h"
#include "base/gx_alloc.h"

/* A segment of T's plane, not vertical in (t, u): from (t0, u0) to (t1, u1), t0 < t1; u = a t + c. */
typedef struct Segment
{
	GxTU		p0,
				p1;
	mpq_t		ulo,
				uhi,
				a,
				c;
} Segment;

struct GxPieces
{
	GxPlaneCoords f;			/* T's (t, u), the triangles lying in its plane */
	Segment    *seg;
	size_t		nseg,
				segcap;
	__mpq_struct *bp;			/* breakpoints of t */
	size_t		nbp,
				bpcap;
	size_t		limit;			/* the most segments and breakpoints */
	bool		nomem,
				over;
};

GxPieces *
gx_pieces_new(const double *T, int drop)
{
	GxPieces   *pc = calloc(1, sizeof(GxPieces));

	if (pc == NULL)
		return NULL;
	gx_plane_coords_init(&pc->f, T, drop);
	pc->limit = SIZE_MAX / 512;
	return pc;
}

void
gx_pieces_limit(GxPieces *pc, size_t max_cuts)
{
	pc->limit = max_cuts;
}

/* Room for one more segment or breakpoint? */
static bool
within_limit(GxPieces *pc)
{
	if (pc->nseg + pc->nbp < pc->limit)
		return true;
	pc->over = true;
	return false;
}

static void
add_breakpoint(GxPieces *pc, mpq_srcptr t)
{
	if (!within_limit(pc))
		return;
	if (!gx_grow_malloc((void **) &pc->bp, &pc->bpcap, pc->nbp + 1, sizeof(__mpq_struct), SIZE_MAX / 64))
	{
		pc->nomem = true;
		return;
	}
	mpq_init(&pc->bp[pc->nbp]);
	mpq_set(&pc->bp[pc->nbp++], t);
}

/*
 * The part of segment pq inside T, its ends made breakpoints; a vertical part (or a point) is only its
 * breakpoint.
 */
static void
add_segment(GxPieces *pc, const GxTU *p, const GxTU *q)
{
	Segment    *s;
	GxTU		r[2];
	bool		inside;

	mpq_inits(r[0].t, r[0].u, r[1].t, r[1].u, NULL);
	inside = gx_tu_clip(p, q, r);
	for (int e = 0; e < 2 && inside; e++)
		add_breakpoint(pc, r[e].t);
	if (inside && mpq_cmp(r[0].t, r[1].t) != 0 && within_limit(pc))
	{
		int			first = mpq_cmp(r[0].t, r[1].t) > 0;	/* the end of smaller t */
		const GxTU *a = &r[first],
				   *b = &r[!first];

		if (!gx_grow_malloc((void **) &pc->seg, &pc->segcap, pc->nseg + 1, sizeof(Segment), SIZE_MAX / 512))
			pc->nomem = true;
		else
		{
			s = &pc->seg[pc->nseg++];
			mpq_inits(s->p0.t, s->p0.u, s->p1.t, s->p1.u, s->ulo, s->uhi, s->a, s->c, NULL);
			mpq_set(s->p0.t, a->t);
			mpq_set(s->p0.u, a->u);
			mpq_set(s->p1.t, b->t);
			mpq_set(s->p1.u, b->u);
			mpq_set(s->ulo, mpq_cmp(a->u, b->u) < 0 ? a->u : b->u);
			mpq_set(s->uhi, mpq_cmp(a->u, b->u) < 0 ? b->u : a->u);
			/* a = (u1 - u0) / (t1 - t0), c = u0 - a t0 */
			mpq_sub(s->a, b->u, a->u);
			mpq_sub(pc->f.w[0], b->t, a->t);
			mpq_div(s->a, s->a, pc->f.w[0]);
			mpq_mul(s->c, s->a, a->t);
			mpq_sub(s->c, a->u, s->c);
		}
	}
	gx_tu_clear(r, 2);
}

void
gx_pieces_add(GxPieces *pc, const double *tau)
{
	int			nzero,
				n;
	GxTU		p[3];

	n = gx_plane_section(&pc->f, tau, p, &nzero, &pc->nomem);
	for (int k = 0; k < nzero; k++)
		add_breakpoint(pc, p[k].t);
	if (n == 2)
		add_segment(pc, &p[0], &p[1]);
	else if (n == 3)
		for (int k = 0; k < 3; k++)
			add_segment(pc, &p[k], &p[(k + 1) % 3]);
	gx_tu_clear(p, n);
}

static int
cmp_mpq(const void *a, const void *b)
{
	return mpq_cmp((mpq_srcptr) a, (mpq_srcptr) b);
}

static int
cmp_start(const void *a, const void *b)
{
	return mpq_cmp(((const Segment *) a)->p0.t, ((const Segment *) b)->p0.t);
}

/*
 * Where segments a and b cross at one point inside both (not at an end, a breakpoint already): its t, a
 * breakpoint.
 */
static void
add_crossing(GxPieces *pc, const Segment *a, const Segment *b, mpq_ptr s, mpq_ptr t)
{
	if (!gx_tu_cross(&pc->f, &a->p0, &a->p1, &b->p0, &b->p1, s))
		return;
	gx_tu_along(t, NULL, &b->p0, &b->p1, s);
	add_breakpoint(pc, t);
}

/* The breakpoints where segments cross: pairs overlapping in t (sorted by start) and in u. */
static void
add_crossings(GxPieces *pc)
{
	mpq_t		s,
				t;

	mpq_inits(s, t, NULL);
	qsort(pc->seg, pc->nseg, sizeof(Segment), cmp_start);
	for (size_t x = 0; x < pc->nseg; x++)
		for (size_t y = x + 1; y < pc->nseg && mpq_cmp(pc->seg[y].p0.t, pc->seg[x].p1.t) < 0; y++)
			if (mpq_cmp(pc->seg[y].ulo, pc->seg[x].uhi) <= 0 && mpq_cmp(pc->seg[x].ulo, pc->seg[y].uhi) <= 0)
				add_crossing(pc, &pc->seg[x], &pc->seg[y], s, t);
	mpq_clears(s, t, NULL);
}

int
gx_pieces_visit_areas(GxPieces *pc, GxPieceAreaVisit visit, void *ctx, GxError *err)
{
	__mpq_struct *us;
	size_t		nu = 0;
	GxTU		m;			/* a point of the trapezoid: the middle of the slab and of its part there */
	mpq_t		top,
				width,
				area;
	int			result = 1;

	/* T's own edges: t = 0 and t = 1 are breakpoints; u = 0 and u = 1 - t bound every slab below */
	mpq_init(m.t);
	mpq_set_ui(m.t, 0, 1);
	add_breakpoint(pc, m.t);
	mpq_set_ui(m.t, 1, 1);
	add_breakpoint(pc, m.t);
	add_crossings(pc);
	if (pc->over)
	{
		mpq_clear(m.t);
		gx_error_set(err, GX_ERR_LIMIT, "a triangle is cut by more than %zu segments and crossings", pc->limit);
		return -1;
	}
	us = malloc((pc->nseg + 2) * sizeof(__mpq_struct));
	if (pc->nomem || us == NULL)
	{
		free(us);
		mpq_clear(m.t);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
		return -1;
	}
	mpq_inits(m.u, top, width, area, NULL);
	for (size_t q = 0; q < pc->nseg + 2; q++)
		mpq_init(&us[q]);
	qsort(pc->bp, pc->nbp, sizeof(__mpq_struct), cmp_mpq);
	for (size_t k = 0; result == 1 && k + 1 < pc->nbp; k++)
	{
		const __mpq_struct *lo = &pc->bp[k],
				   *hi = &pc->bp[k + 1];

		if (mpq_sgn(lo) < 0 || mpq_cmp_ui(hi, 1, 1) > 0 || mpq_equal(lo, hi))
			continue;
		/* the middle of the slab, u there on every segment spanning it, and T's edges u = 0, u = 1 - t */
		mpq_add(m.t, lo, hi);
		mpq_div_2exp(m.t, m.t, 1);
		mpq_sub(width, hi, lo);
		mpq_set_ui(top, 1, 1);
		mpq_sub(top, top, m.t);
		mpq_set_ui(&us[0], 0, 1);
		mpq_set(&us[1], top);
		nu = 2;
		for (size_t s = 0; s < pc->nseg; s++)
			if (mpq_cmp(pc->seg[s].p0.t, lo) <= 0 && mpq_cmp(pc->seg[s].p1.t, hi) >= 0)
			{
				mpq_mul(&us[nu], pc->seg[s].a, m.t);
				mpq_add(&us[nu], &us[nu], pc->seg[s].c);
				nu++;
			}
		qsort(us, nu, sizeof(__mpq_struct), cmp_mpq);
		for (size_t q = 0; result == 1 && q + 1 < nu; q++)
		{
			if (mpq_sgn(&us[q]) < 0 || mpq_cmp(&us[q + 1], top) > 0 || mpq_equal(&us[q], &us[q + 1]))
				continue;
			mpq_add(m.u, &us[q], &us[q + 1]);
			mpq_div_2exp(m.u, m.u, 1);
			mpq_sub(area, &us[q + 1], &us[q]);
			mpq_mul(area, area, width);
			result = visit(ctx, m.t, m.u, area, gx_plane_covered(&pc->f, &m), err);
		}
	}
	for (size_t q = 0; q < pc->nseg + 2; q++)
		mpq_clear(&us[q]);
	free(us);
	mpq_clears(m.t, m.u, top, width, area, NULL);
	return result;
}

/* gx_pieces_visit's visitor, called for the trapezoids no triangle in T's plane covers. */
typedef struct Uncovered
{
	GxPieceVisit visit;
	void	   *ctx;
} Uncovered;

static int
visit_uncovered(void *ctx, mpq_srcptr t, mpq_srcptr u, mpq_srcptr area, int cover, GxError *err)
{
	Uncovered  *un = ctx;

	(void) area;
	return cover ? 1 : un->visit(un->ctx, t, u, err);
}

int
gx_pieces_visit(GxPieces *pc, GxPieceVisit visit, void *ctx, GxError *err)
{
	Uncovered	un = {visit, ctx};

	return gx_pieces_visit_areas(pc, visit_uncovered, &un, err);
}

void
gx_pieces_free(GxPieces *pc)
{
	if (pc == NULL)
		return;
	for (size_t s = 0; s < pc->nseg; s++)
	{
		Segment    *g = &pc->seg[s];

		mpq_clears(g->p0.t, g->p0.u, g->p1.t, g->p1.u, g->ulo, g->uhi, g->a, g->c, NULL);
	}
	for (size_t k = 0; k < pc->nbp; k++)
		mpq_clear(&pc->bp[k]);
	gx_plane_coords_clear(&pc->f);
	free(pc->seg);
	free(pc->bp);
	free(pc);
}
