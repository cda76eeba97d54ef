/*
 * gx_intercepts.c: the intervals of a polyline inside or on a solid (gx_intercepts.h). Parameters along a
 * segment a -> b are exact rationals (GMP); every decision is a sign of a determinant of the doubles. A
 * segment that only crosses the surface through triangles' interiors, at parameters whose truncations to
 * doubles are distinct, has its pieces ordered by those doubles (gx_plane_crossing_trunc) with no point
 * located. Lengths along the line are exact and rounded once (length_at).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_measure.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_projection.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "geom/gx_box.h"
#include "operation/gx_intercepts.h"

/*
 * Where one segment meets the surface: [lo, hi] of its parameter, lo == hi for a point; a crossing when the
 * segment passes through the triangle's interior from one side of its plane to the other. A crossing may
 * be held as u, its parameter truncated to a double (u <= t < the next double), lo and hi left unset until
 * exact_events.
 */
typedef struct Event
{
	mpq_t		lo,
				hi;
	bool		crossing;
	bool		exact;			/* lo and hi hold the event; else u and tri do */
	double		u;
	const double *tri;
} Event;

/*
 * One segment a -> b at a time, its events: ev[0 .. n), of the ev[0 .. ready) whose rationals stay
 * initialized from segment to segment (their limbs allocated once per line, not per event).
 */
typedef struct Segment
{
	const GxSolidIndex *s;
	const double *a,
			   *b;
	Event	   *ev;
	size_t		n,
				ready,
				cap;
	bool		nomem;
	bool		exact_only;		/* every event as rationals: their points are wanted */
	GxLocation	start;			/* the side of a, off the surface, when the segment before found it; else GX_LOC_FAILED */
	bool		have_len2;		/* len2 holds this segment's squared length */
	mpq_t		zero,
				one,
				len2,			/* |b - a|^2, exact */
				c0;				/* the length before a, as a rational */
} Segment;

static void
segment_init(Segment *sg, const GxSolidIndex *s)
{
	memset(sg, 0, sizeof(*sg));
	sg->s = s;
	sg->start = GX_LOC_FAILED;
	mpq_inits(sg->zero, sg->one, sg->len2, sg->c0, NULL);
	mpq_set_ui(sg->one, 1, 1);
}

/* The segment's events dropped, for the next segment. */
static void
segment_clear(Segment *sg)
{
	sg->n = 0;
	sg->have_len2 = false;
}

static void
segment_free(Segment *sg)
{
	for (size_t e = 0; e < sg->ready; e++)
		mpq_clears(sg->ev[e].lo, sg->ev[e].hi, NULL);
	free(sg->ev);
	mpq_clears(sg->zero, sg->one, sg->len2, sg->c0, NULL);
}

static Event *
new_event(Segment *sg)
{
	if (!gx_grow_malloc((void **) &sg->ev, &sg->cap, sg->n + 1, sizeof(Event), SIZE_MAX / sizeof(Event)))
	{
		sg->nomem = true;
		return NULL;
	}
	if (sg->n == sg->ready)
	{
		mpq_inits(sg->ev[sg->n].lo, sg->ev[sg->n].hi, NULL);
		sg->ready++;
	}
	return &sg->ev[sg->n++];
}

/*
 * A point event where the segment crosses the plane of triangle t (its ends strictly on either side), or
 * at its end at (0 or 1) when t is NULL.
 */
static void
point_event(Segment *sg, const double *t, int at, bool crossing)
{
	Event	   *e = new_event(sg);

	if (e == NULL)
		return;
	e->crossing = crossing;
	e->exact = true;
	if (t != NULL && crossing && !sg->exact_only && gx_plane_crossing_trunc(t, sg->a, sg->b, &e->u))
	{
		e->exact = false;
		e->tri = t;
		return;
	}
	if (t == NULL)
		mpq_set_ui(e->lo, (unsigned long) at, 1);
	else if (!gx_plane_crossing(t, sg->a, sg->b, e->lo))
	{
		sg->n--;				/* not seen: the ends' strict signs make the plane crossed */
		return;
	}
	mpq_set(e->hi, e->lo);
}

static void
swap_events(Event *x, Event *y)
{
	Event		t = *x;

	*x = *y;
	*y = t;
}

/* The segment's crossings held as doubles given their rationals (dropped, as by point_event, when unseen). */
static void
exact_events(Segment *sg)
{
	for (size_t e = 0; e < sg->n;)
	{
		Event	   *ev = &sg->ev[e];

		if (ev->exact)
			e++;
		else if (gx_plane_crossing(ev->tri, sg->a, sg->b, ev->lo))
		{
			mpq_set(ev->hi, ev->lo);
			ev->exact = true;
			e++;
		}
		else
			swap_events(ev, &sg->ev[--sg->n]);	/* the rationals stay unique to their slots */
	}
}

/*
 * Segment a b lies in the plane of triangle t: it is clipped by the three edges' half-planes in the
 * projection that drops axis `drop` (where the triangle has orientation sigma). Along the segment an
 * edge's orientation is (1 - u) fa + u fb, so each edge bounds u from below or above by fa / (fa - fb).
 */
bool
gx_segment_clip_coplanar(const double *a, const double *b, const double *t, int drop, int sigma, mpq_ptr lo,
						 mpq_ptr hi)
{
	mpq_t		fa,
				fb,
				u;
	bool		empty = false;

	mpq_inits(fa, fb, u, NULL);
	mpq_set_ui(lo, 0, 1);
	mpq_set_ui(hi, 1, 1);
	for (int k = 0; k < 3 && !empty; k++)
	{
		const double *p = t + 3 * k,
				   *q = t + 3 * ((k + 1) % 3);
		int			sa = sigma * gx_orient2d(p, q, a, drop),
					sb = sigma * gx_orient2d(p, q, b, drop);

		if (sa >= 0 && sb >= 0)
			continue;
		if (sa < 0 && sb < 0)
		{
			empty = true;
			continue;
		}
		gx_orient2d_value(p, q, a, drop, fa);
		gx_orient2d_value(p, q, b, drop, fb);
		mpq_sub(u, fa, fb);
		mpq_div(u, fa, u);
		if (sa >= 0 && mpq_cmp(u, hi) < 0)
			mpq_set(hi, u);
		else if (sa < 0 && mpq_cmp(u, lo) > 0)
			mpq_set(lo, u);
	}
	mpq_clears(fa, fb, u, NULL);
	return !empty && mpq_cmp(lo, hi) <= 0;
}

static void
coplanar_event(Segment *sg, const double *t, int drop, int sigma)
{
	mpq_t		lo,
				hi;

	mpq_inits(lo, hi, NULL);
	if (gx_segment_clip_coplanar(sg->a, sg->b, t, drop, sigma, lo, hi))
	{
		Event	   *e = new_event(sg);

		if (e)
		{
			mpq_set(e->lo, lo);
			mpq_set(e->hi, hi);
			e->crossing = false;
			e->exact = true;
		}
	}
	mpq_clears(lo, hi, NULL);
}

/* Where the segment meets triangle i, exactly. */
static bool
triangle_events(void *ctx, size_t i)
{
	Segment    *sg = ctx;
	const double *t = sg->s->tri + 9 * i;
	int			sa = gx_orient3d(t, t + 3, t + 6, sg->a),
				sb = gx_orient3d(t, t + 3, t + 6, sg->b);

	if (sa * sb > 0)
		return !sg->nomem;
	if (sa != 0 && sb != 0)
	{
		int			e[3] = {gx_orient3d(sg->a, sg->b, t, t + 3), gx_orient3d(sg->a, sg->b, t + 3, t + 6),
		gx_orient3d(sg->a, sg->b, t + 6, t)};

		if ((e[0] > 0 || e[1] > 0 || e[2] > 0) && (e[0] < 0 || e[1] < 0 || e[2] < 0))
			return true;
		point_event(sg, t, 0, e[0] != 0 && e[1] != 0 && e[2] != 0);
	}
	else if (sa == 0 && sb != 0)
	{
		if (gx_elements_intersect(sg->a, 1, t, 3))
			point_event(sg, NULL, 0, false);
	}
	else if (sb == 0 && sa != 0)
	{
		if (gx_elements_intersect(sg->b, 1, t, 3))
			point_event(sg, NULL, 1, false);
	}
	else
	{
		int			sigma,
					drop = gx_triangle_projection(t, &sigma);

		if (drop >= 0)
			coplanar_event(sg, t, drop, sigma);
	}
	return !sg->nomem;
}

static int
cmp_mpq(const void *x, const void *y)
{
	return mpq_cmp(*(const mpq_srcptr *) x, *(const mpq_srcptr *) y);
}

/* Output: intervals in metres, merged across the vertices the polyline's segments share. */
typedef struct Output
{
	GxInterval *v;
	size_t		n,
				cap;
	bool		open_at_vertex;	/* the last interval reaches the vertex the next segment starts from */
	bool		points;			/* the intervals' end points are wanted (else left zero) */
} Output;

/* The point a + t (b - a) of the segment, computed exactly, each coordinate rounded to nearest. */
static void
point_at(mpq_srcptr t, const double *a, const double *b, double *out)
{
	mpq_t		x,
				y;

	if (mpq_sgn(t) == 0 || mpq_cmp_ui(t, 1, 1) == 0)
	{
		memcpy(out, mpq_sgn(t) == 0 ? a : b, 3 * sizeof(double));
		return;
	}
	mpq_inits(x, y, NULL);
	for (int k = 0; k < 3; k++)
	{
		mpq_set_d(x, b[k]);
		mpq_set_d(y, a[k]);
		mpq_sub(x, x, y);
		mpq_mul(x, x, t);
		mpq_add(x, x, y);
		out[k] = gx_mpq_get_d_nearest(x);
	}
	mpq_clears(x, y, NULL);
}

/*
 * A piece of segment `segment` at lengths from and to, which starts at the segment's start (at_start) or
 * ends at its end (at_end): the interval it begins, or the last one when that reached this segment's start
 * (*merged); its points left zero. NULL for memory.
 */
static GxInterval *
piece(Output *o, size_t segment, bool at_start, bool at_end, double from, double to, bool *merged)
{
	GxInterval *v;

	*merged = at_start && o->open_at_vertex && o->n > 0;
	if (*merged)
		v = &o->v[o->n - 1];
	else
	{
		if (!gx_grow_malloc((void **) &o->v, &o->cap, o->n + 1, sizeof(GxInterval), SIZE_MAX / sizeof(GxInterval)))
			return NULL;
		v = &o->v[o->n++];
		v->from = from;
		v->from_segment = segment;
		memset(v->from_point, 0, sizeof(v->from_point));
	}
	v->to = to;
	v->to_segment = segment;
	memset(v->to_point, 0, sizeof(v->to_point));
	o->open_at_vertex = at_end;
	return v;
}

/* A piece of segment `segment` (a -> b) from parameter t0 to t1, at lengths from and to. */
static bool
emit(Output *o, size_t segment, const double *a, const double *b, mpq_srcptr t0, mpq_srcptr t1, double from,
	 double to)
{
	bool		merged;
	GxInterval *v = piece(o, segment, mpq_sgn(t0) == 0, mpq_cmp_ui(t1, 1, 1) == 0, from, to, &merged);

	if (v == NULL)
		return false;
	if (o->points && !merged)
		point_at(t0, a, b, v->from_point);
	if (o->points)
		point_at(t1, a, b, v->to_point);
	return true;
}

/*
 * Metres along the line at the rational parameter t of the segment a -> b, which starts at length c0 and
 * ends at c1 (the vertices' lengths, as gx_length sums them): c0 + t |b - a| computed exactly and rounded
 * once (gx_round_sum_sqrt, with t |b - a| = t sqrt(|b - a|^2)), never beyond c1. So an exact depth that is
 * a double comes out exact.
 */
static double
length_at(Segment *sg, mpq_srcptr t, double c0, double c1)
{
	if (mpq_sgn(t) == 0)
		return c0;
	if (mpq_cmp_ui(t, 1, 1) == 0)
		return c1;
	if (!sg->have_len2)
	{
		gx_segment_length2_exact(sg->a, sg->b, sg->len2);
		sg->have_len2 = true;
	}
	mpq_set_d(sg->c0, c0);
	return fmin(c1, gx_round_sum_sqrt(sg->c0, t, sg->len2));
}

/* Breakpoints that fit on the stack; a segment meeting more triangles takes them from malloc. */
#define FEW_BREAKPOINTS 18

/*
 * The breakpoints of segment sg (0, 1, the events' ends), sorted and distinct, as pointers to its rationals:
 * into room when they fit (FEW_BREAKPOINTS), else malloc'd; NULL for memory.
 */
static mpq_srcptr *
breakpoints(const Segment *sg, mpq_srcptr *room, size_t *count)
{
	size_t		nb = 0,
				m = 1;
	mpq_srcptr *bp = 2 * sg->n + 2 <= FEW_BREAKPOINTS ? room : malloc((2 * sg->n + 2) * sizeof(mpq_srcptr));

	if (!bp)
		return NULL;
	bp[nb++] = sg->zero;
	bp[nb++] = sg->one;
	for (size_t e = 0; e < sg->n; e++)
	{
		bp[nb++] = sg->ev[e].lo;
		bp[nb++] = sg->ev[e].hi;
	}
	qsort(bp, nb, sizeof(mpq_srcptr), cmp_mpq);
	for (size_t k = 1; k < nb; k++)
		if (mpq_cmp(bp[k], bp[m - 1]) != 0)
			bp[m++] = bp[k];
	*count = m;
	return bp;
}

static void
breakpoints_free(mpq_srcptr *bp, const mpq_srcptr *room)
{
	if (bp != room)
		free(bp);
}

/* Does event e cover [lo, hi] (hold t, for lo = hi = t)? */
static bool
event_covers(const Event *e, mpq_srcptr lo, mpq_srcptr hi)
{
	return mpq_cmp(e->lo, lo) <= 0 && mpq_cmp(e->hi, hi) >= 0;
}

/* Does an event hold the segment's end t (0 or 1)? */
static bool
end_on_surface(const Segment *sg, int t)
{
	for (size_t e = 0; e < sg->n; e++)
		if (t == 0 ? mpq_sgn(sg->ev[e].lo) == 0 : mpq_cmp_ui(sg->ev[e].hi, 1, 1) == 0)
			return true;
	return false;
}

/* The side of the segment's start a, off the surface: the one the segment before found, else located. */
static GxLocation
start_side(const Segment *sg)
{
	return sg->start != GX_LOC_FAILED ? sg->start : gx_solid_locate(sg->s, sg->a);
}

/*
 * Whether the open gap (lo, hi) between two consecutive breakpoints is in the solid: covered by an event
 * (it lies on the surface), else located. A gap that starts at the segment's start a, or ends at its end b,
 * off the surface, is where that double point is: nothing of the surface lies between them, so the side the
 * segment before found for a, or the vertical ray of gx_solid_locate, decides, with signs of doubles. Else,
 * or when that ray is not usable, the gap is located from its (rational) midpoint. 1, 0, or -1 when no ray
 * was usable.
 */
static int
gap_inside(const Segment *sg, mpq_srcptr lo, mpq_srcptr hi)
{
	GxLocation	loc;
	mpq_t		mid;

	for (size_t e = 0; e < sg->n; e++)
		if (event_covers(&sg->ev[e], lo, hi))
			return 1;
	for (int end = 0; end < 2; end++)
		if ((end == 0 ? mpq_sgn(lo) == 0 : mpq_cmp_ui(hi, 1, 1) == 0) && !end_on_surface(sg, end))
		{
			loc = end == 0 ? start_side(sg) : gx_solid_locate(sg->s, sg->b);
			if (loc == GX_LOC_INSIDE || loc == GX_LOC_OUTSIDE)
				return loc == GX_LOC_INSIDE;
		}
	mpq_init(mid);
	mpq_add(mid, lo, hi);
	mpq_div_2exp(mid, mid, 1);
	loc = gx_solid_locate_off_boundary(sg->s, sg->a, sg->b, mid);
	mpq_clear(mid);
	return loc == GX_LOC_FAILED ? -1 : loc == GX_LOC_INSIDE;
}

/*
 * Does the segment cross the surface at breakpoint t through one triangle's interior, no other event holding
 * t? Then the gaps on either side of t lie on either side of the (closed) surface.
 */
static bool
single_crossing(const Segment *sg, mpq_srcptr t)
{
	int			held = 0;
	bool		crossing = false;

	for (size_t e = 0; e < sg->n && held < 2; e++)
		if (event_covers(&sg->ev[e], t, t))
		{
			held++;
			crossing = sg->ev[e].crossing;
		}
	return held == 1 && crossing;
}

/*
 * The pieces of segment sg inside or on the solid, in metres: each gap between two breakpoints is in or
 * out (the side opposite the gap before across a single crossing, else gap_inside); a breakpoint is in when
 * an event holds it or a gap beside it is in. The end b, when no event holds it, is off the surface and on
 * the side of the last gap: sg->start for the next segment.
 */
static int
segment_pieces(Segment *sg, size_t segment, Output *o, double c0, double c1)
{
	size_t		nb;
	mpq_srcptr	room[FEW_BREAKPOINTS],
				start = NULL,
			   *bp = breakpoints(sg, room, &nb);
	bool		few_gaps[FEW_BREAKPOINTS],
			   *gap_in,
				open = false;
	int			result = 1;

	gap_in = !bp ? NULL : nb <= FEW_BREAKPOINTS ? few_gaps : malloc(nb);
	if (!gap_in)
	{
		if (bp)
			breakpoints_free(bp, room);
		return 0;
	}
	for (size_t k = 0; k + 1 < nb && result > 0; k++)
	{
		int			in = k > 0 && single_crossing(sg, bp[k]) ? !gap_in[k - 1] : gap_inside(sg, bp[k], bp[k + 1]);

		if (in < 0)
			result = -1;
		gap_in[k] = in > 0;
	}
	for (size_t k = 0; k < nb && result > 0; k++)
	{
		bool		in = (k > 0 && gap_in[k - 1]) || (k + 1 < nb && gap_in[k]);

		for (size_t e = 0; e < sg->n && !in; e++)
			in = event_covers(&sg->ev[e], bp[k], bp[k]);
		if (in && !open)
		{
			start = bp[k];
			open = true;
		}
		/* a piece ends at an included breakpoint whose next gap is out (or at the segment's end) */
		if (open && (k + 1 == nb || !gap_in[k]))
		{
			if (!emit(o, segment, sg->a, sg->b, start, bp[k], length_at(sg, start, c0, c1),
					  length_at(sg, bp[k], c0, c1)))
				result = 0;
			open = false;
		}
		if (!in && k + 1 == nb)
			o->open_at_vertex = false;
	}
	sg->start = result > 0 && nb >= 2 && !end_on_surface(sg, 1) ? (gap_in[nb - 2] ? GX_LOC_INSIDE : GX_LOC_OUTSIDE) :
		GX_LOC_FAILED;
	breakpoints_free(bp, room);
	if (gap_in != few_gaps)
		free(gap_in);
	return result;
}

static int
cmp_u(const void *x, const void *y)
{
	double		a = ((const Event *) x)->u,
				b = ((const Event *) y)->u;

	return (a > b) - (a < b);
}

/*
 * segment_pieces for a segment whose events are all crossings held as doubles, at distinct u once sorted:
 * u_1 <= t_1 < next(u_1) <= u_2 <= t_2 ..., so the crossings lie in that order, apart, strictly inside the
 * segment, each the single crossing at its breakpoint. When the side of its start is known off the surface
 * (start_side) and only lengths are wanted, the gaps alternate from that side and every crossing is in:
 * no gap needs locating. Each crossing's length is length_at its rational. 1, 0 for memory, or -1 when
 * this does not apply (nothing emitted: then exact_events and segment_pieces).
 */
static int
crossing_pieces(Segment *sg, size_t segment, Output *o, double c0, double c1)
{
	size_t		n = sg->n,
				nb = n + 2,
				start = 0;
	bool		before = false,
				after,
				open = false,
				merged;
	GxLocation	loc;

	if (o->points)
		return -1;
	for (size_t e = 0; e < n; e++)
		if (sg->ev[e].exact)
			return -1;
	qsort(sg->ev, n, sizeof(Event), cmp_u);	/* a permutation: each rational stays in one slot */
	for (size_t e = 1; e < n; e++)
		if (sg->ev[e - 1].u == sg->ev[e].u)
			return -1;
	loc = start_side(sg);
	if (loc != GX_LOC_INSIDE && loc != GX_LOC_OUTSIDE)
		return -1;
	for (size_t e = 0; e < n; e++)
	{
		if (!gx_plane_crossing(sg->ev[e].tri, sg->a, sg->b, sg->ev[e].lo))
			return -1;
		mpq_set(sg->ev[e].hi, sg->ev[e].lo);
		sg->ev[e].exact = true;
	}
	/* breakpoints k = 0, the crossings 1 .. n, then 1 (at nb - 1); before and after: are their gaps in? */
	after = loc == GX_LOC_INSIDE;
	for (size_t k = 0; k < nb; k++)
	{
		bool		last = k + 1 == nb,
					in;

		if (k > 0)
		{
			before = after;
			after = !before;	/* across crossing k (unused after the last breakpoint) */
		}
		in = k == 0 ? after : last ? before : true;	/* an end by its gap; a crossing always */
		if (in && !open)
		{
			start = k;
			open = true;
		}
		/* a piece ends at an included breakpoint whose next gap is out (or at the segment's end) */
		if (open && (last || !after))
		{
			double		from = start == 0 ? c0 : length_at(sg, sg->ev[start - 1].lo, c0, c1),
						to = last ? c1 : length_at(sg, sg->ev[k - 1].lo, c0, c1);

			if (piece(o, segment, start == 0, last, from, to, &merged) == NULL)
				return 0;
			open = false;
		}
		if (!in && last)
			o->open_at_vertex = false;
	}
	sg->start = before ? GX_LOC_INSIDE : GX_LOC_OUTSIDE;
	return 1;
}

/*
 * A segment that meets no triangle lies on one side of the surface, the side of its start a (found by the
 * segment before, or a double point located with signs of doubles): all of it is in, or none, and so is
 * its end b, for the next segment. 1, 0 for memory, or -1 when a could not be located so (segment_pieces
 * decides).
 */
static int
segment_off_surface(Segment *sg, size_t segment, Output *o, double c0, double c1)
{
	GxLocation	loc = start_side(sg);

	if (loc == GX_LOC_OUTSIDE)
	{
		o->open_at_vertex = false;
		sg->start = loc;
		return 1;
	}
	if (loc != GX_LOC_INSIDE)
		return -1;
	sg->start = loc;
	return emit(o, segment, sg->a, sg->b, sg->zero, sg->one, c0, c1);
}

int
gx_segment_in_solid(const GxSolidIndex *s, const double *a, const double *b, GxError *err)
{
	Segment		sg;
	GxBox3D		box = gx_box_of_points(a, 1),
				bbox = gx_box_of_points(b, 1);
	mpq_srcptr	room[FEW_BREAKPOINTS],
			   *bp = NULL;
	size_t		nb = 0;
	int			result = 1;

	segment_init(&sg, s);
	sg.exact_only = true;
	sg.a = a;
	sg.b = b;
	gx_box_extend(&box, &bbox);	/* a and b need not be consecutive in memory */
	if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2])
	{
		GxLocation	loc = gx_solid_locate(s, a);

		result = loc == GX_LOC_FAILED ? -1 : loc != GX_LOC_OUTSIDE;
	}
	else if (!gx_solid_index_search(s, &box, triangle_events, &sg) || (bp = breakpoints(&sg, room, &nb)) == NULL)
		result = -2;
	else
		for (size_t k = 0; k + 1 < nb && result == 1; k++)
			result = gap_inside(&sg, bp[k], bp[k + 1]);
	if (bp)
		breakpoints_free(bp, room);
	segment_free(&sg);
	if (result == -2)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory locating a segment in a solid");
	else if (result == -1)
		gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
	return result < 0 ? -1 : result;
}

/*
 * The events of segment i of job j (sg->a, sg->b) with the triangles its hits list, from *cursor on (the
 * hits of earlier segments passed over): false for memory.
 */
static bool
hit_events(const GxInterceptJob *j, size_t i, size_t *cursor, Segment *sg)
{
	uint64_t	segment = j->first_segment + i;

	while (*cursor < j->nhits && (j->hits[*cursor] >> 32) < segment)
		(*cursor)++;
	for (; *cursor < j->nhits && (j->hits[*cursor] >> 32) == segment; (*cursor)++)
	{
		uint64_t	t = (uint32_t) j->hits[*cursor];

		if (t >= j->first_triangle && t - j->first_triangle < j->solid->n &&
			!triangle_events(sg, (size_t) (t - j->first_triangle)))
			return false;
	}
	return true;
}

/* The job's intervals (gx_intercepts), with malloc only (any thread may run it): j->out malloc'd. */
static bool
intercepts(GxInterceptJob *j, GxError *err)
{
	const GxSolidIndex *s = j->solid;
	const double *line = j->line;
	size_t		npoints = j->npoints,
				cursor = 0;
	Output		o = {NULL, 0, 0, false, !j->lengths_only};
	Segment		sg;
	GxSum		before = {0, 0};
	int			result = 1;

	segment_init(&sg, s);
	sg.exact_only = o.points;
	for (size_t i = 0; i + 1 < npoints && result > 0; i++)
	{
		const double *a = line + 3 * i,
				   *b = a + 3;
		double		c0 = gx_sum_value(&before);
		GxBox3D		box = gx_box_of_points(a, 2);

		/* the lengths before each vertex, as gx_length and gx_locate_along sum them */
		gx_sum_add(&before, gx_segment_length(a, b));
		sg.a = a;
		sg.b = b;
		if (j->hits ? !hit_events(j, i, &cursor, &sg) : !gx_solid_index_search(s, &box, triangle_events, &sg))
			result = 0;
		else if (sg.n > 0 || (result = segment_off_surface(&sg, i, &o, c0, gx_sum_value(&before))) < 0)
		{
			result = sg.n > 0 ? crossing_pieces(&sg, i, &o, c0, gx_sum_value(&before)) : -1;
			if (result < 0)
			{
				exact_events(&sg);
				result = segment_pieces(&sg, i, &o, c0, gx_sum_value(&before));
			}
		}
		segment_clear(&sg);
	}
	/* a one-point line: is that point in? */
	if (npoints == 1)
	{
		GxLocation	loc = gx_solid_locate(s, line);

		result = loc == GX_LOC_OUTSIDE || emit(&o, 0, line, line, sg.zero, sg.zero, 0, 0);
	}
	segment_free(&sg);
	if (result <= 0)
	{
		free(o.v);
		if (result == 0)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory computing intercepts");
		else
			gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
		return false;
	}
	for (size_t k = 0; k < o.n; k++)
		if (!isfinite(o.v[k].from) || !isfinite(o.v[k].to))
		{
			free(o.v);
			gx_error_set(err, GX_ERR_INVALID, "an intercept lies farther along the line than the largest double "
						 "(%g metres): its metres cannot be given", DBL_MAX);
			return false;
		}
	j->out = o.v;
	j->n = o.n;
	return true;
}

bool
gx_intercepts(const GxSolidIndex *s, const double *line, size_t npoints, GxInterval **out, size_t *n,
			  GxError *err)
{
	GxInterceptJob j = {s, line, npoints, NULL, 0, 0, 0, false, NULL, 0};
	GxInterval *v;

	if (!intercepts(&j, err))
		return false;
	v = j.out;
	*n = j.n;
	*out = NULL;
	if (*n > 0 && (*out = gx_alloc(*n * sizeof(GxInterval))) == NULL)
	{
		free(v);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory computing intercepts");
		return false;
	}
	if (*n > 0)
		memcpy(*out, v, *n * sizeof(GxInterval));
	free(v);
	return true;
}

bool
gx_intercepts_many(GxInterceptJob *jobs, size_t n, int threads, const char *budget_dir, const GxCancel *cancel,
				   GxError *err)
{
	int			used = gx_threads_begin(threads, budget_dir);
	volatile int failed = 0;
	long		j;

	for (size_t k = 0; k < n; k++)
	{
		jobs[k].out = NULL;
		jobs[k].n = 0;
	}
	#pragma omp parallel for schedule(dynamic, 1) num_threads(used)
	for (j = 0; j < (long) n; j++)
	{
		GxError		mine = {GX_OK, ""};

		if (failed)
			continue;
		if (gx_cancel_requested(cancel))
		{
			#pragma omp critical
			{
				if (!failed)
					gx_error_set(err, GX_ERR_CANCELLED, "intercepts cancelled");
				failed = 1;
			}
		}
		else if (!intercepts(&jobs[j], &mine))
		{
			#pragma omp critical
			{
				if (!failed)
					gx_error_set(err, mine.code, "%s", mine.msg);
				failed = 1;
			}
		}
	}
	gx_threads_end();
	if (failed)
		for (size_t k = 0; k < n; k++)
		{
			free(jobs[k].out);
			jobs[k].out = NULL;
			jobs[k].n = 0;
		}
	return !failed;
}
