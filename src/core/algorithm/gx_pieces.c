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
#include <stdlib.h>

#include "algorithm/gx_pieces.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "base/gx_alloc.h"

/* A segment of T's plane, not vertical in (t, u): from (t0, u0) to (t1, u1), t0 < t1; u = a t + c. */
typedef struct Segment
{
	mpq_t		t0,
				u0,
				t1,
				u1,
				ulo,
				uhi,
				a,
				c;
} Segment;

struct GxPieces
{
	const double *T;
	int			i,
				j;				/* the projection's axes */
	mpq_t		e[2][2],		/* T1 - T0 and T2 - T0 there */
				det,			/* their cross product */
				w[4];
	Segment    *seg;
	size_t		nseg,
				segcap;
	__mpq_struct *bp;			/* breakpoints of t */
	size_t		nbp,
				bpcap;
	__mpq_struct *cover;		/* 6 per triangle lying in T's plane: (t, u) of its vertices */
	size_t		ncover,
				covercap;
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
	pc->T = T;
	pc->limit = SIZE_MAX / 512;
	pc->i = (drop + 1) % 3;
	pc->j = (drop + 2) % 3;
	mpq_inits(pc->det, pc->w[0], pc->w[1], pc->w[2], pc->w[3], NULL);
	for (int k = 0; k < 2; k++)
		for (int a = 0; a < 2; a++)
		{
			mpq_init(pc->e[k][a]);
			mpq_set_d(pc->e[k][a], T[3 * (k + 1) + (a ? pc->j : pc->i)]);
			mpq_set_d(pc->w[0], T[a ? pc->j : pc->i]);
			mpq_sub(pc->e[k][a], pc->e[k][a], pc->w[0]);
		}
	mpq_mul(pc->det, pc->e[0][0], pc->e[1][1]);
	mpq_mul(pc->w[0], pc->e[0][1], pc->e[1][0]);
	mpq_sub(pc->det, pc->det, pc->w[0]);
	return pc;
}

/* (t, u) of p, a point of T's plane: Cramer's rule in the projection. */
static void
coords_of(GxPieces *pc, const double *p, mpq_ptr t, mpq_ptr u)
{
	mpq_set_d(pc->w[0], p[pc->i]);
	mpq_set_d(pc->w[1], pc->T[pc->i]);
	mpq_sub(pc->w[0], pc->w[0], pc->w[1]);
	mpq_set_d(pc->w[1], p[pc->j]);
	mpq_set_d(pc->w[2], pc->T[pc->j]);
	mpq_sub(pc->w[1], pc->w[1], pc->w[2]);
	/* t = (d x e2) / det, u = (e1 x d) / det, d = p - T0 */
	mpq_mul(pc->w[2], pc->w[0], pc->e[1][1]);
	mpq_mul(pc->w[3], pc->w[1], pc->e[1][0]);
	mpq_sub(t, pc->w[2], pc->w[3]);
	mpq_div(t, t, pc->det);
	mpq_mul(pc->w[2], pc->e[0][0], pc->w[1]);
	mpq_mul(pc->w[3], pc->e[0][1], pc->w[0]);
	mpq_sub(u, pc->w[2], pc->w[3]);
	mpq_div(u, u, pc->det);
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

/* (t, u) where segment ab, its ends strictly on either side of T's plane, crosses it. */
static void
crossing_coords(GxPieces *pc, const double *a, const double *b, mpq_ptr t, mpq_ptr u)
{
	mpq_t		lambda,
				tb,
				ub;

	mpq_inits(lambda, tb, ub, NULL);
	gx_plane_crossing(pc->T, a, b, lambda);
	coords_of(pc, a, t, u);
	coords_of(pc, b, tb, ub);
	/* the projection is affine: (t, u) = (1 - lambda) (ta, ua) + lambda (tb, ub) */
	mpq_sub(tb, tb, t);
	mpq_mul(tb, tb, lambda);
	mpq_add(t, t, tb);
	mpq_sub(ub, ub, u);
	mpq_mul(ub, ub, lambda);
	mpq_add(u, u, ub);
	mpq_clears(lambda, tb, ub, NULL);
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
 * The part of the segment from (ta, ua) to (tb, ub) inside T (t >= 0, u >= 0, t + u <= 1), its ends made
 * breakpoints; a vertical part (or a point) is only its breakpoint.
 */
static void
add_segment(GxPieces *pc, mpq_srcptr ta, mpq_srcptr ua, mpq_srcptr tb, mpq_srcptr ub)
{
	Segment    *s;
	mpq_t		f[2],
				lo,
				hi,
				p[2][2];
	bool		empty = false;

	mpq_inits(f[0], f[1], lo, hi, p[0][0], p[0][1], p[1][0], p[1][1], NULL);
	/* each of T's edge functions t, u, 1 - t - u is affine along the segment: a bound on s in [0, 1] */
	mpq_set_ui(hi, 1, 1);
	for (int k = 0; k < 3 && !empty; k++)
	{
		for (int e = 0; e < 2; e++)
		{
			mpq_srcptr	t = e ? tb : ta,
						u = e ? ub : ua;

			if (k == 0)
				mpq_set(f[e], t);
			else if (k == 1)
				mpq_set(f[e], u);
			else
			{
				mpq_set_ui(f[e], 1, 1);
				mpq_sub(f[e], f[e], t);
				mpq_sub(f[e], f[e], u);
			}
		}
		if (mpq_sgn(f[0]) < 0 && mpq_sgn(f[1]) < 0)
			empty = true;
		else if (mpq_sgn(f[0]) < 0 || mpq_sgn(f[1]) < 0)
		{
			bool		entering = mpq_sgn(f[0]) < 0;

			mpq_sub(f[1], f[0], f[1]);
			mpq_div(f[0], f[0], f[1]);	/* s where it crosses 0 */
			if (entering ? mpq_cmp(f[0], lo) > 0 : mpq_cmp(f[0], hi) < 0)
				mpq_set(entering ? lo : hi, f[0]);
		}
	}
	empty = empty || mpq_cmp(lo, hi) > 0;
	for (int e = 0; e < 2 && !empty; e++)
	{
		/* p[e] = a + s (b - a), s = lo or hi */
		mpq_sub(p[e][0], tb, ta);
		mpq_mul(p[e][0], p[e][0], e ? hi : lo);
		mpq_add(p[e][0], p[e][0], ta);
		mpq_sub(p[e][1], ub, ua);
		mpq_mul(p[e][1], p[e][1], e ? hi : lo);
		mpq_add(p[e][1], p[e][1], ua);
		add_breakpoint(pc, p[e][0]);
	}
	if (!empty && mpq_cmp(p[0][0], p[1][0]) != 0 && within_limit(pc))
	{
		int			first = mpq_cmp(p[0][0], p[1][0]) > 0;	/* the end of smaller t */
		mpq_ptr		t0 = p[first][0],
					u0 = p[first][1],
					t1 = p[!first][0],
					u1 = p[!first][1];

		if (!gx_grow_malloc((void **) &pc->seg, &pc->segcap, pc->nseg + 1, sizeof(Segment), SIZE_MAX / 512))
			pc->nomem = true;
		else
		{
			s = &pc->seg[pc->nseg++];
			mpq_inits(s->t0, s->u0, s->t1, s->u1, s->ulo, s->uhi, s->a, s->c, NULL);
			mpq_set(s->t0, t0);
			mpq_set(s->u0, u0);
			mpq_set(s->t1, t1);
			mpq_set(s->u1, u1);
			mpq_set(s->ulo, mpq_cmp(u0, u1) < 0 ? u0 : u1);
			mpq_set(s->uhi, mpq_cmp(u0, u1) < 0 ? u1 : u0);
			/* a = (u1 - u0) / (t1 - t0), c = u0 - a t0 */
			mpq_sub(s->a, u1, u0);
			mpq_sub(pc->w[0], t1, t0);
			mpq_div(s->a, s->a, pc->w[0]);
			mpq_mul(s->c, s->a, t0);
			mpq_sub(s->c, u0, s->c);
		}
	}
	mpq_clears(f[0], f[1], lo, hi, p[0][0], p[0][1], p[1][0], p[1][1], NULL);
}

/* Sign of the cross product (q - p) x (r - p) in (t, u). */
static int
orient_tu(GxPieces *pc, mpq_srcptr pt, mpq_srcptr pu, mpq_srcptr qt, mpq_srcptr qu, mpq_srcptr rt, mpq_srcptr ru)
{
	mpq_sub(pc->w[0], qt, pt);
	mpq_sub(pc->w[1], ru, pu);
	mpq_mul(pc->w[0], pc->w[0], pc->w[1]);
	mpq_sub(pc->w[1], qu, pu);
	mpq_sub(pc->w[2], rt, pt);
	mpq_mul(pc->w[1], pc->w[1], pc->w[2]);
	return mpq_cmp(pc->w[0], pc->w[1]);
}

void
gx_pieces_add(GxPieces *pc, const double *tau)
{
	int			nzero = 0,
				side[3],
				pos = 0,
				neg = 0;
	mpq_t		tu[3][2];

	for (int k = 0; k < 3; k++)
	{
		side[k] = gx_orient3d(pc->T, pc->T + 3, pc->T + 6, tau + 3 * k);
		pos += side[k] > 0;
		neg += side[k] < 0;
	}
	for (int k = 0; k < 3; k++)
		if (side[k] == 0)
		{
			mpq_inits(tu[nzero][0], tu[nzero][1], NULL);
			coords_of(pc, tau + 3 * k, tu[nzero][0], tu[nzero][1]);
			add_breakpoint(pc, tu[nzero][0]);
			nzero++;
		}
	if (pos > 0 && neg > 0)
	{
		/* tau crosses the plane: its section ends where its edges cross it (or at its vertex on it) */
		for (int k = 0; k < 3; k++)
		{
			int			j = (k + 1) % 3;

			if (side[k] * side[j] >= 0)
				continue;
			mpq_inits(tu[nzero][0], tu[nzero][1], NULL);
			crossing_coords(pc, tau + 3 * k, tau + 3 * j, tu[nzero][0], tu[nzero][1]);
			nzero++;
		}
		add_segment(pc, tu[0][0], tu[0][1], tu[1][0], tu[1][1]);
	}
	else if (nzero == 2)
		add_segment(pc, tu[0][0], tu[0][1], tu[1][0], tu[1][1]);
	if (nzero == 3)
	{
		for (int k = 0; k < 3; k++)
			add_segment(pc, tu[k][0], tu[k][1], tu[(k + 1) % 3][0], tu[(k + 1) % 3][1]);
		if (orient_tu(pc, tu[0][0], tu[0][1], tu[1][0], tu[1][1], tu[2][0], tu[2][1]) != 0)
		{
			if (!gx_grow_malloc((void **) &pc->cover, &pc->covercap, 6 * (pc->ncover + 1), sizeof(__mpq_struct),
								SIZE_MAX / 64))
				pc->nomem = true;
			else
			{
				for (int k = 0; k < 3; k++)
				{
					mpq_init(&pc->cover[6 * pc->ncover + 2 * k]);
					mpq_init(&pc->cover[6 * pc->ncover + 2 * k + 1]);
					mpq_set(&pc->cover[6 * pc->ncover + 2 * k], tu[k][0]);
					mpq_set(&pc->cover[6 * pc->ncover + 2 * k + 1], tu[k][1]);
				}
				pc->ncover++;
			}
		}
	}
	for (int k = 0; k < nzero; k++)
		mpq_clears(tu[k][0], tu[k][1], NULL);
}

/*
 * Does point (t, u), on no segment, lie inside a covering triangle? 1 in one oriented as T, -1 in one
 * oriented the other way, 0 in none.
 */
static int
covered(GxPieces *pc, mpq_srcptr t, mpq_srcptr u)
{
	for (size_t f = 0; f < pc->ncover; f++)
	{
		const __mpq_struct *v = &pc->cover[6 * f];
		int			o = orient_tu(pc, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
					in = 1;

		for (int k = 0; in && k < 3; k++)
			in = (o > 0) == (orient_tu(pc, &v[2 * k], &v[2 * k + 1], &v[2 * ((k + 1) % 3)],
										&v[2 * ((k + 1) % 3) + 1], t, u) > 0);
		if (in)
			return o > 0 ? 1 : -1;
	}
	return 0;
}

static int
cmp_mpq(const void *a, const void *b)
{
	return mpq_cmp((mpq_srcptr) a, (mpq_srcptr) b);
}

static int
cmp_start(const void *a, const void *b)
{
	return mpq_cmp(((const Segment *) a)->t0, ((const Segment *) b)->t0);
}

/*
 * Where segments a and b cross at one point inside both (not at an end, which is a breakpoint already): its
 * t, a breakpoint. The orientations are affine along b: the crossing is at b0 + s (b1 - b0), s = o0 / (o0 - o1).
 */
static void
add_crossing(GxPieces *pc, const Segment *a, const Segment *b, mpq_ptr o0, mpq_ptr o1)
{
	int			s0 = orient_tu(pc, a->t0, a->u0, a->t1, a->u1, b->t0, b->u0),
				s1 = orient_tu(pc, a->t0, a->u0, a->t1, a->u1, b->t1, b->u1);

	if (s0 * s1 >= 0 ||
		orient_tu(pc, b->t0, b->u0, b->t1, b->u1, a->t0, a->u0) * orient_tu(pc, b->t0, b->u0, b->t1, b->u1, a->t1, a->u1) >= 0)
		return;
	/* o = (a1 - a0) x (p - a0) at p = b0 and b1 */
	for (int k = 0; k < 2; k++)
	{
		mpq_ptr		o = k ? o1 : o0;

		mpq_sub(pc->w[0], a->t1, a->t0);
		mpq_sub(pc->w[1], k ? b->u1 : b->u0, a->u0);
		mpq_mul(o, pc->w[0], pc->w[1]);
		mpq_sub(pc->w[0], a->u1, a->u0);
		mpq_sub(pc->w[1], k ? b->t1 : b->t0, a->t0);
		mpq_mul(pc->w[0], pc->w[0], pc->w[1]);
		mpq_sub(o, o, pc->w[0]);
	}
	mpq_sub(o1, o0, o1);
	mpq_div(o0, o0, o1);		/* s */
	mpq_sub(o1, b->t1, b->t0);
	mpq_mul(o0, o0, o1);
	mpq_add(o0, o0, b->t0);
	add_breakpoint(pc, o0);
}

/* The breakpoints where segments cross: pairs overlapping in t (sorted by start) and in u. */
static void
add_crossings(GxPieces *pc)
{
	mpq_t		o0,
				o1;

	mpq_inits(o0, o1, NULL);
	qsort(pc->seg, pc->nseg, sizeof(Segment), cmp_start);
	for (size_t x = 0; x < pc->nseg; x++)
		for (size_t y = x + 1; y < pc->nseg && mpq_cmp(pc->seg[y].t0, pc->seg[x].t1) < 0; y++)
			if (mpq_cmp(pc->seg[y].ulo, pc->seg[x].uhi) <= 0 && mpq_cmp(pc->seg[x].ulo, pc->seg[y].uhi) <= 0)
				add_crossing(pc, &pc->seg[x], &pc->seg[y], o0, o1);
	mpq_clears(o0, o1, NULL);
}

int
gx_pieces_visit_areas(GxPieces *pc, GxPieceAreaVisit visit, void *ctx, GxError *err)
{
	__mpq_struct *us;
	size_t		nu = 0;
	mpq_t		tm,
				um,
				top,
				width,
				area;
	int			result = 1;

	/* T's own edges: t = 0 and t = 1 are breakpoints; u = 0 and u = 1 - t bound every slab below */
	mpq_init(tm);
	mpq_set_ui(tm, 0, 1);
	add_breakpoint(pc, tm);
	mpq_set_ui(tm, 1, 1);
	add_breakpoint(pc, tm);
	add_crossings(pc);
	if (pc->over)
	{
		mpq_clear(tm);
		gx_error_set(err, GX_ERR_LIMIT, "a triangle is cut by more than %zu segments and crossings", pc->limit);
		return -1;
	}
	us = malloc((pc->nseg + 2) * sizeof(__mpq_struct));
	if (pc->nomem || us == NULL)
	{
		free(us);
		mpq_clear(tm);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
		return -1;
	}
	mpq_inits(um, top, width, area, NULL);
	for (size_t q = 0; q < pc->nseg + 2; q++)
		mpq_init(&us[q]);
	qsort(pc->bp, pc->nbp, sizeof(__mpq_struct), cmp_mpq);
	for (size_t k = 0; result == 1 && k + 1 < pc->nbp; k++)
	{
		const __mpq_struct *lo = &pc->bp[k],
				   *hi = &pc->bp[k + 1];

		if (mpq_sgn(lo) < 0 || mpq_cmp_ui(hi, 1, 1) > 0 || mpq_equal(lo, hi))
			continue;
		/* the middle of the slab, u there on every segment spanning it, and T's edges u = 0, u = 1 - tm */
		mpq_add(tm, lo, hi);
		mpq_div_2exp(tm, tm, 1);
		mpq_sub(width, hi, lo);
		mpq_set_ui(top, 1, 1);
		mpq_sub(top, top, tm);
		mpq_set_ui(&us[0], 0, 1);
		mpq_set(&us[1], top);
		nu = 2;
		for (size_t s = 0; s < pc->nseg; s++)
			if (mpq_cmp(pc->seg[s].t0, lo) <= 0 && mpq_cmp(pc->seg[s].t1, hi) >= 0)
			{
				mpq_mul(&us[nu], pc->seg[s].a, tm);
				mpq_add(&us[nu], &us[nu], pc->seg[s].c);
				nu++;
			}
		qsort(us, nu, sizeof(__mpq_struct), cmp_mpq);
		for (size_t q = 0; result == 1 && q + 1 < nu; q++)
		{
			if (mpq_sgn(&us[q]) < 0 || mpq_cmp(&us[q + 1], top) > 0 || mpq_equal(&us[q], &us[q + 1]))
				continue;
			mpq_add(um, &us[q], &us[q + 1]);
			mpq_div_2exp(um, um, 1);
			mpq_sub(area, &us[q + 1], &us[q]);
			mpq_mul(area, area, width);
			result = visit(ctx, tm, um, area, covered(pc, tm, um), err);
		}
	}
	for (size_t q = 0; q < pc->nseg + 2; q++)
		mpq_clear(&us[q]);
	free(us);
	mpq_clears(tm, um, top, width, area, NULL);
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

		mpq_clears(g->t0, g->u0, g->t1, g->u1, g->ulo, g->uhi, g->a, g->c, NULL);
	}
	for (size_t k = 0; k < pc->nbp; k++)
		mpq_clear(&pc->bp[k]);
	for (size_t k = 0; k < 6 * pc->ncover; k++)
		mpq_clear(&pc->cover[k]);
	for (int k = 0; k < 2; k++)
		mpq_clears(pc->e[k][0], pc->e[k][1], NULL);
	mpq_clears(pc->det, pc->w[0], pc->w[1], pc->w[2], pc->w[3], NULL);
	free(pc->seg);
	free(pc->bp);
	free(pc->cover);
	free(pc);
}
