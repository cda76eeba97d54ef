/*
 * gx_boolean.c: the booleans of two solids as solids (gx_boolean.h). The pairs of triangles whose boxes overlap
 * are found once (gx_overlay_candidates.h), and whether they meet decided once for both solids; each triangle
 * of each solid that the other's surface misses is kept or dropped whole, by one of its vertices located (once
 * a vertex); those it meets are grouped into facets of coplanar triangles (gx_facets.h), each facet cut as one
 * polygon (algorithm/gx_cut.h) by the other's facets and each of its pieces classified as in the overlay:
 * covered by a triangle of the other lying in its plane (with the same or the opposite orientation), inside or
 * outside as a cut along one of its edges tells, or one of its points located. Of a solid whose pieces outside
 * the other are dropped, only the triangles whose boxes meet the other's box are looked at. Both steps run on
 * the threads in shares appended in order: the same result on any number of threads. The rounded result is
 * mended (gx_snap.h) and checked as gx_makesolid checks a surface, the triangles kept unchanged vouched for.
 * A split (gx_split.c) is cut the same way, its solid's facets handed back to it (gx_split_facets).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut.h"
#include "algorithm/gx_plane_side.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_projection.h"
#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "geom/gx_box.h"
#include "operation/gx_boolean.h"
#include "operation/gx_overlay_candidates.h"
#include "operation/gx_places.h"
#include "operation/gx_facets.h"
#include "operation/gx_snap.h"
#include "operation/gx_solid_make.h"

#define CANCEL_EVERY 64
#define FACET_TRIANGLES 16		/* triangles of one facet cut as one polygon, at most */
#define FACET_MET 64			/* and the triangles of the other surface they meet, counted for each */

/*
 * One side of the overlay: its triangles, those the other's surface meets (each with the triangles it meets),
 * their facets, and where its chosen pieces go.
 */
typedef struct Side
{
	const double *tri;
	size_t		n;
	const GxSolidIndex *self,	/* its index, or NULL */
			   *other;
	const GxOverlayOptions *opt;
	const signed char *keep;
	size_t	   *cut,			/* the triangles met, ncut of them */
			   *start,			/* cut[k] meets the other's met[start[k] .. start[k + 1]) */
			   *met,
				ncut,
				nmet,
				cutcap,
				startcap,
				metcap;
	size_t	   *facet;			/* per triangle: a triangle of its facet, SIZE_MAX when not met; NULL: each alone */
	double	  **out;
	size_t	   *nout,
			   *cap;
	uint8_t   **kept;			/* per triangle out, 1 for one of the solid's own, unchanged (NULL: not told) */
	size_t	   *keptcap;
	const GxOverlayCandidates *cand;	/* the pairs whose boxes overlap, or NULL: searched per triangle */
	uint8_t    *hit;			/* with cand, per pair: 1 the triangles meet, 0 not, HIT_UNKNOWN not tested yet */
	int			side;			/* this side's in cand */
} Side;

#define HIT_UNKNOWN 2

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

/*
 * Do triangles T (its plane given) and tau meet? gx_elements_intersect, its orientations from the planes' sides
 * (filtered once a plane): a triangle wholly on one side of the other's plane misses it.
 */
static bool
triangles_meet(const GxPlaneSide *plane, const double *T, const double *tau)
{
	GxPlaneSide tp;
	int			du[3],
				dt[3];

	for (int k = 0; k < 3; k++)
		du[k] = -gx_plane_side(plane, tau + 3 * k);
	if (du[0] * du[1] > 0 && du[1] * du[2] > 0)
		return false;
	gx_plane_side_init(&tp, tau);
	for (int k = 0; k < 3; k++)
		dt[k] = -gx_plane_side(&tp, T + 3 * k);
	return gx_triangles_intersect_signed(T, tau, du, dt);
}

/* Appends triangle i of m's index to m's list. */
static bool
append_met(Met *m, size_t i)
{
	if (!gx_grow_malloc((void **) m->met, m->cap, *m->n + 1, sizeof(size_t), SIZE_MAX / sizeof(size_t)))
	{
		m->nomem = true;
		return false;
	}
	(*m->met)[(*m->n)++] = i;
	return true;
}

static bool
collect_met(void *ctx, size_t i)
{
	Met		   *m = ctx;

	return !triangles_meet(&m->plane, m->T, m->idx->tri + 9 * i) || append_met(m, i);
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
 * gx_boolean_met from the candidates of T (cand[0 .. ncand), whose boxes overlap T's, their pairs pair[0 ..
 * ncand)): the same triangles in the same order. Each pair's verdict is read from hit where the other side
 * found it already, else found and written there.
 */
static bool
met_of_candidates(const GxSolidIndex *idx, const double *T, const uint32_t *cand, const uint32_t *pair,
				  size_t ncand, uint8_t *hit, size_t **met, size_t *n, size_t *cap)
{
	Met			m = {.idx = idx, .T = T, .met = met, .n = n, .cap = cap};
	GxBox3D		box = gx_box_of_points(T, 3);

	*n = 0;
	gx_plane_side_init(&m.plane, T);
	for (size_t k = 0; k < ncand && !m.nomem; k++)
	{
		uint8_t    *h = &hit[pair[k]];

		if (*h == HIT_UNKNOWN)
			*h = triangles_meet(&m.plane, T, idx->tri + 9 * (size_t) cand[k]);
		if (*h)
			append_met(&m, cand[k]);
	}
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

/*
 * Each triangle near[q] (q itself when near is NULL) for q in [q0, q1) that the other's surface misses kept or
 * dropped whole, by one of its vertices located (once a vertex, in pl); those it meets listed, with the
 * triangles they meet.
 */
static bool
meet_range(Side *s, const size_t *near, size_t q0, size_t q1, GxPlaces *pl, GxError *err)
{
	size_t	   *m = NULL,
				nm = 0,
				mcap = 0;
	bool		ok = true;

	for (size_t q = q0; ok && q < q1; q++)
	{
		size_t		i = near ? near[q] : q;
		const double *T = s->tri + 9 * i;
		GxBox3D		box = gx_box_of_points(T, 3);
		int			sigma;

		if (q % CANCEL_EVERY == 0 && gx_cancel_requested(s->opt->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
			ok = false;
			break;
		}
		if (gx_triangle_projection(T, &sigma) < 0)
			continue;			/* a flat triangle bounds nothing */
		if (!(s->cand ? met_of_candidates(s->other, T, s->cand->list[s->side] + s->cand->start[s->side][i],
										  s->cand->pair[s->side] + s->cand->start[s->side][i],
										  s->cand->start[s->side][i + 1] - s->cand->start[s->side][i], s->hit, &m,
										  &nm, &mcap)
			  : gx_boolean_met(s->other, T, &m, &nm, &mcap)))
			ok = false;
		else if (nm == 0 && s->keep[GX_PIECE_INSIDE] == 0 && s->keep[GX_PIECE_OUTSIDE] == 0)
			continue;			/* nothing of it is kept: its place is not asked */
		else if (nm == 0)
		{
			/* wholly inside or outside, and no vertex of T on the other's surface: located once a vertex */
			GxLocation	loc = gx_box_overlaps(&box, &s->other->box) ? GX_LOC_FAILED : GX_LOC_OUTSIDE;
			int			k;

			for (k = 0; k < 3 && loc == GX_LOC_FAILED; k++)
				loc = gx_places_get(pl, T + 3 * k);
			if (loc == GX_LOC_FAILED &&
				((loc = gx_solid_locate(s->other, T)) == GX_LOC_INSIDE || loc == GX_LOC_OUTSIDE))
				for (k = 0; k < 3; k++)
					gx_places_put(pl, T + 3 * k, loc);
			if (loc == GX_LOC_FAILED || loc == GX_LOC_BOUNDARY)
			{
				gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
				ok = false;
			}
			else if ((k = s->keep[loc == GX_LOC_INSIDE ? GX_PIECE_INSIDE : GX_PIECE_OUTSIDE]) != 0)
				ok = emit(s, T, T + 3, T + 6, k < 0, true);
		}
		else if (!gx_grow_malloc((void **) &s->cut, &s->cutcap, s->ncut + 1, sizeof(size_t), SIZE_MAX / 16) ||
				 !gx_grow_malloc((void **) &s->start, &s->startcap, s->ncut + 2, sizeof(size_t), SIZE_MAX / 16) ||
				 !gx_grow_malloc((void **) &s->met, &s->metcap, s->nmet + nm, sizeof(size_t), SIZE_MAX / 16))
			ok = false;
		else
		{
			s->start[s->ncut] = s->nmet;
			s->cut[s->ncut++] = i;
			memcpy(s->met + s->nmet, m, nm * sizeof(size_t));
			s->nmet += nm;
			s->start[s->ncut] = s->nmet;
		}
	}
	free(m);
	if (!ok && err->code == GX_OK)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
	return ok;
}

/*
 * A share of one side's work on a thread: a copy of the side emitting into its own triangles (and listing its
 * own triangles met), appended to the side's in the order of the shares: the result does not depend on the
 * threads.
 */
typedef struct Share
{
	Side		s;
	double	   *out;
	uint8_t    *kept;
	size_t		nout,
				cap,
				keptcap;
	GxError		err;
	bool		ok,
				lists;			/* its own lists of triangles met (meet's), else s's read */
} Share;

/* A share's triangles at least (fewer in all: one thread does it all): to look at, and to cut */
#define SHARE_MEET 256
#define SHARE_CUT 16

/*
 * The threads for n triangles' work of s, shared out in *nshares shares of least triangles at least (1
 * thread: none made); lists: each share lists the triangles met itself, else it reads s's.
 */
static int
shares_begin(const Side *s, size_t n, size_t least, bool lists, Share **share, size_t *nshares)
{
	int			threads = n >= 2 * least ? gx_threads_begin(s->opt->threads, s->opt->thread_budget) : 1;

	*share = NULL;
	*nshares = 0;
	if (threads < 2)
	{
		if (n >= 2 * least)
			gx_threads_end();
		return 1;
	}
	*nshares = n / least < (size_t) 8 * threads ? n / least : (size_t) 8 * threads;
	if ((*share = calloc(*nshares, sizeof(Share))) == NULL)
	{
		gx_threads_end();
		*nshares = 0;
		return 1;
	}
	for (size_t k = 0; k < *nshares; k++)
	{
		Share	   *sh = &(*share)[k];

		sh->s = *s;
		sh->s.out = &sh->out;
		sh->s.nout = &sh->nout;
		sh->s.cap = &sh->cap;
		sh->s.kept = s->kept ? &sh->kept : NULL;
		sh->s.keptcap = &sh->keptcap;
		if ((sh->lists = lists))
		{
			sh->s.cut = sh->s.start = sh->s.met = NULL;
			sh->s.ncut = sh->s.nmet = sh->s.cutcap = sh->s.startcap = sh->s.metcap = 0;
		}
		sh->err = (GxError) {GX_OK, ""};
		sh->ok = true;
	}
	return threads;
}

/*
 * The shares' triangles (and triangles met, with lists) appended to s in order, their memory freed; false
 * with err set as the first share that failed set it.
 */
static bool
shares_end(Side *s, Share *share, size_t nshares, GxError *err)
{
	bool		ok = true;

	for (size_t k = 0; k < nshares; k++)
	{
		Share	   *sh = &share[k];

		if (ok && !sh->ok)
		{
			*err = sh->err;
			ok = false;
		}
		if (ok && sh->nout > 0 &&
			(!gx_grow_malloc((void **) s->out, s->cap, *s->nout + sh->nout, 9 * sizeof(double), SIZE_MAX / 128) ||
			 (s->kept && !gx_grow_malloc((void **) s->kept, s->keptcap, *s->nout + sh->nout, 1, SIZE_MAX / 128))))
			ok = false;
		else if (ok && sh->nout > 0)
		{
			memcpy(*s->out + 9 * *s->nout, sh->out, 9 * sh->nout * sizeof(double));
			if (s->kept)
				memcpy(*s->kept + *s->nout, sh->kept, sh->nout);
			*s->nout += sh->nout;
		}
		if (ok && sh->lists && sh->s.ncut > 0 &&
			(!gx_grow_malloc((void **) &s->cut, &s->cutcap, s->ncut + sh->s.ncut, sizeof(size_t), SIZE_MAX / 16) ||
			 !gx_grow_malloc((void **) &s->start, &s->startcap, s->ncut + sh->s.ncut + 1, sizeof(size_t),
							 SIZE_MAX / 16) ||
			 !gx_grow_malloc((void **) &s->met, &s->metcap, s->nmet + sh->s.nmet, sizeof(size_t), SIZE_MAX / 16)))
			ok = false;
		else if (ok && sh->lists && sh->s.ncut > 0)
		{
			for (size_t c = 0; c < sh->s.ncut; c++)
			{
				s->cut[s->ncut + c] = sh->s.cut[c];
				s->start[s->ncut + c] = s->nmet + sh->s.start[c];
			}
			memcpy(s->met + s->nmet, sh->s.met, sh->s.nmet * sizeof(size_t));
			s->ncut += sh->s.ncut;
			s->nmet += sh->s.nmet;
			s->start[s->ncut] = s->nmet;
		}
		if (!ok && err->code == GX_OK)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		free(sh->out);
		free(sh->kept);
		if (sh->lists)
		{
			free(sh->s.cut);
			free(sh->s.start);
			free(sh->s.met);
		}
	}
	free(share);
	gx_threads_end();
	return ok;
}

/*
 * Each triangle of s that the other's surface misses kept or dropped whole, those it meets listed
 * (meet_range), on the threads. With s's index, when its pieces outside the other are dropped, only the
 * triangles whose boxes meet the other's box are looked at (the others lie outside it): a large solid against
 * a small one.
 */
static bool
meet(Side *s, GxError *err)
{
	size_t	   *near = NULL,
				nnear = s->n,
				nearcap = 0,
				nshares;
	Share	   *share;
	int			threads;
	bool		ok = true;

	if (s->self && s->keep[GX_PIECE_OUTSIDE] == 0 &&
		!gx_solid_index_near(s->self, &s->other->box, &near, &nnear, &nearcap))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		return false;
	}
	threads = shares_begin(s, nnear, SHARE_MEET, true, &share, &nshares);
	if (threads < 2)
	{
		GxPlaces	pl;

		if (!(ok = gx_places_init(&pl, nnear)))
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		ok = ok && meet_range(s, near, 0, nnear, &pl, err);
		gx_places_free(&pl);
		free(near);
		return ok;
	}
	#pragma omp parallel num_threads(threads)
	{
		bool		was = gx_alloc_is_plain();
		GxPlaces	pl;			/* a thread's: a vertex located once in all its shares */
		bool		room;

		gx_alloc_plain(true);
		room = gx_places_init(&pl, nnear);
		#pragma omp for schedule(dynamic, 1)
		for (size_t k = 0; k < nshares; k++)
		{
			Share	   *sh = &share[k];

			if (!(sh->ok = room))
				gx_error_set(&sh->err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
			else
				sh->ok = meet_range(&sh->s, near, nnear * k / nshares, nnear * (k + 1) / nshares, &pl, &sh->err);
		}
		gx_places_free(&pl);
		gx_alloc_plain(was);
	}
	free(near);
	return shares_end(s, share, nshares, err);
}

/* The facets of s's triangles met (coplanar neighbours, FACET_TRIANGLES and FACET_MET at most), into s->facet. */
static bool
find_facets(Side *s, GxError *err)
{
	double	   *t = malloc(9 * s->ncut * sizeof(double) + 1);
	size_t	   *w = malloc(2 * s->ncut * sizeof(size_t) + 1);
	bool		ok = t && w && (s->facet = malloc(s->n * sizeof(size_t) + 1)) != NULL;

	if (!ok)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a solid's facets");
	for (size_t k = 0; ok && k < s->ncut; k++)
	{
		memcpy(t + 9 * k, s->tri + 9 * s->cut[k], 9 * sizeof(double));
		w[k] = s->start[k + 1] - s->start[k];
	}
	ok = ok && gx_facets(t, s->ncut, w, FACET_TRIANGLES, FACET_MET, w + s->ncut, err);
	for (size_t i = 0; ok && i < s->n; i++)
		s->facet[i] = SIZE_MAX;
	for (size_t k = 0; ok && k < s->ncut; k++)
		s->facet[s->cut[k]] = s->cut[w[s->ncut + k]];
	free(t);
	free(w);
	return ok;
}

/* The facet of triangle i of s (i itself when s is NULL or its triangles are each alone). */
static size_t
facet_of(const Side *s, size_t i)
{
	return s && s->facet ? s->facet[i] : i;
}

/* A triangle (a number) and its facet. */
typedef struct Member
{
	size_t		facet,
				k;
} Member;

static int
cmp_member(const void *x, const void *y)
{
	const Member *p = x,
			   *q = y;

	if (p->facet != q->facet)
		return p->facet < q->facet ? -1 : 1;
	return p->k < q->k ? -1 : p->k > q->k;
}

/* A piece's point whose rationals are made only when the location needs them. */
typedef struct PieceExact
{
	GxCut	   *cut;
	size_t		p;
	mpq_ptr		t,
				u;
	bool		made;
} PieceExact;

static void
piece_exact(void *ctx)
{
	PieceExact *pe = ctx;
	const double *within;

	if (!pe->made)
		gx_cut_piece_point(pe->cut, pe->p, pe->t, pe->u, &within);
	pe->made = true;
}

/*
 * A facet of s, its met triangles s->cut[mine[0 .. nmine)], cut by the other's triangles it meets (by their
 * facets o, each as one polygon, one gx_cut_add_group each; o NULL: each alone): the built cut, NULL with err
 * set. The other's triangles of group g are others[gstart[g] .. gstart[g + 1]) (*ngroups of them). pairs,
 * others: scratch, room for s->nmet each; gstart: for s->nmet + 1.
 */
static GxCut *
facet_cut(Side *s, const Side *o, const size_t *mine, size_t nmine, Member *pairs, size_t *others,
		  size_t *gstart, size_t *ngroups, GxError *err)
{
	const double *T = s->tri + 9 * s->cut[mine[0]];
	int			sigma,
				drop = gx_triangle_projection(T, &sigma);
	GxCut	   *cut = gx_cut_new(T, drop);
	size_t		npairs = 0,
				n = 0;

	if (cut == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
		return NULL;
	}
	if (s->opt->exact_cuts)
		gx_cut_exact(cut);
	if (s->opt->max_cuts)
		gx_cut_limit(cut, s->opt->max_cuts * nmine);
	for (size_t k = 0; k < nmine; k++)
	{
		size_t		c = mine[k];

		if (k > 0)
			gx_cut_extend(cut, s->tri + 9 * s->cut[c]);
		for (size_t j = s->start[c]; j < s->start[c + 1]; j++)
			pairs[npairs++] = (Member) {facet_of(o, s->met[j]), s->met[j]};
	}
	/* the other's triangles met, each once, by facet: each facet one gx_cut_add_group */
	qsort(pairs, npairs, sizeof(Member), cmp_member);
	*ngroups = 0;
	for (size_t x = 0, y; x < npairs; x = y)
	{
		gstart[(*ngroups)++] = n;
		for (y = x; y < npairs && pairs[y].facet == pairs[x].facet; y++)
			if (y == x || pairs[y].k != pairs[y - 1].k)
				others[n++] = pairs[y].k;
		gx_cut_add_group(cut, s->other->tri, others + gstart[*ngroups - 1], n - gstart[*ngroups - 1]);
	}
	gstart[*ngroups] = n;
	if (!gx_cut_build(cut, s->opt->cancel, err))
	{
		gx_cut_free(cut);
		return NULL;
	}
	return cut;
}

/*
 * The pieces of a facet's cut whose side of the other's surface a cut along their edges tells, into cls
 * (GX_PIECE_INSIDE or GX_PIECE_OUTSIDE; the others left as they are), when no group of the other lies in T's
 * plane (no piece covered). A triangle of piece p with an edge along the cut of one group alone (a facet of the
 * other crossing T's plane, from its inside) lies, near that edge, where its third vertex lies: below the
 * facet's plane, on the other's inside, or above it. Groups g are others[gstart[g] .. gstart[g + 1]).
 */
static void
pieces_by_cuts(const Side *s, const double *T, GxCut *cut, const size_t *others, const size_t *gstart,
			   size_t ngroups, signed char *cls)
{
	GxPlaneSide plane;

	gx_plane_side_init(&plane, T);
	for (size_t g = 0; g < ngroups; g++)
	{
		const double *tau = s->other->tri + 9 * others[gstart[g]];

		if (gx_plane_side(&plane, tau) == 0 && gx_plane_side(&plane, tau + 3) == 0 &&
			gx_plane_side(&plane, tau + 6) == 0)
			return;				/* a facet of the other in T's plane: its pieces covered, located otherwise */
	}
	for (size_t k = 0; k < gx_cut_ntriangles(cut); k++)
	{
		size_t		p,
					src[2];
		const size_t *v = gx_cut_triangle(cut, k, &p);

		for (int m = 0; m < 3 && cls[p] < 0; m++)
		{
			bool		border;
			int			side;

			if (gx_cut_edge(cut, k, m, &border, src, 2) != 1)
				continue;
			side = gx_cut_vertex_side(cut, v[m], s->other->tri + 9 * others[gstart[src[0]]]);
			if (side != 0)
				cls[p] = side > 0 ? GX_PIECE_INSIDE : GX_PIECE_OUTSIDE;
		}
	}
}

/*
 * A facet of s cut (facet_cut), each piece classified (covered by a triangle of the other lying in its plane,
 * told by a cut along one of its edges, or one of its points located) and the chosen ones appended.
 */
static bool
cut_facet(Side *s, const Side *o, const size_t *mine, size_t nmine, Member *pairs, size_t *others,
		  size_t *gstart, GxError *err)
{
	const double *T = s->tri + 9 * s->cut[mine[0]];
	size_t		ngroups;
	GxCut	   *cut = facet_cut(s, o, mine, nmine, pairs, others, gstart, &ngroups, err);
	signed char *choice = NULL,
			   *told = NULL;
	bool		ok;
	mpq_t		t,
				u;

	if (cut == NULL)
		return false;
	mpq_inits(t, u, NULL);
	choice = malloc(gx_cut_npieces(cut) + 1);
	told = malloc(gx_cut_npieces(cut) + 1);
	ok = choice != NULL && told != NULL;
	if (ok)
	{
		memset(told, -1, gx_cut_npieces(cut));
		pieces_by_cuts(s, T, cut, others, gstart, ngroups, told);
	}
	for (size_t p = 0; ok && p < gx_cut_npieces(cut); p++)
	{
		const double *within = T;
		PieceExact	pe = {cut, p, t, u, false};
		double		td,
					ud;
		bool		near;
		int			cover;
		GxPieceClass cls;

		if (told[p] >= 0)
		{
			choice[p] = s->keep[told[p]];
			continue;
		}
		near = gx_cut_piece_near(cut, p, &td, &ud);
		cover = near ? 0 : gx_cut_piece_point(cut, p, t, u, &within);
		if (cover)
			cls = cover > 0 ? GX_PIECE_ON_SAME : GX_PIECE_ON_OPPOSITE;
		else
		{
			GxLocation	loc = near ? gx_solid_locate_in_triangle_lazy(s->other, T, td, ud, t, u, piece_exact, &pe) :
				gx_solid_locate_in_triangle(s->other, within, t, u);

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
	free(told);
	gx_cut_free(cut);
	return ok;
}

/*
 * The facets of s in groups [g0, g1) cut (their triangles m[group[g] .. group[g + 1]), numbers into s->cut):
 * their pieces chosen (visit NULL), or each cut handed to visit.
 */
static bool
cut_groups(Side *s, const Side *o, const Member *m, const size_t *group, size_t g0, size_t g1, GxFacetVisit visit,
		   void *ctx, GxError *err)
{
	size_t		nmet = 0;
	Member	   *pairs;
	size_t	   *others,
			   *gstart;
	bool		ok;

	for (size_t x = group[g0]; x < group[g1]; x++)
		nmet += s->start[m[x].k + 1] - s->start[m[x].k];
	pairs = malloc(nmet * sizeof(Member) + 1);
	others = malloc(nmet * sizeof(size_t) + 1);
	gstart = malloc((nmet + 1) * sizeof(size_t));
	if (!(ok = pairs && others && gstart))
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
	for (size_t g = g0; ok && g < g1; g++)
	{
		size_t		mine[FACET_TRIANGLES],
					nmine = 0;

		if (g % CANCEL_EVERY == 0 && gx_cancel_requested(s->opt->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
			ok = false;
			break;
		}
		for (size_t y = group[g]; y < group[g + 1]; y++)
			mine[nmine++] = m[y].k;
		if (visit == NULL)
			ok = cut_facet(s, o, mine, nmine, pairs, others, gstart, err);
		else
		{
			GxFacetCut	fc = {.ntri = nmine, .others = others, .start = gstart};
			size_t		tri[FACET_TRIANGLES];

			if ((fc.cut = facet_cut(s, o, mine, nmine, pairs, others, gstart, &fc.ngroups, err)) == NULL)
				ok = false;
			else
			{
				for (size_t k = 0; k < nmine; k++)
					tri[k] = s->cut[mine[k]];
				fc.tri = tri;
				ok = visit(ctx, &fc, err);
				gx_cut_free(fc.cut);
			}
		}
	}
	free(pairs);
	free(others);
	free(gstart);
	return ok;
}

/*
 * Every facet of s cut by the other's surface (o: the other's facets, or NULL: each of its triangles alone):
 * its pieces chosen (visit NULL), on the threads, or the cut handed to visit, in order.
 */
static bool
cut_facets(Side *s, const Side *o, GxFacetVisit visit, void *ctx, GxError *err)
{
	Member	   *m = malloc(s->ncut * sizeof(Member) + 1);
	size_t	   *group = malloc((s->ncut + 1) * sizeof(size_t)),
				ngroups = 0,
				nshares = 0;
	Share	   *share = NULL;
	int			threads = 1;
	bool		ok = m && group;

	if (!ok)
	{
		free(m);
		free(group);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		return false;
	}
	for (size_t k = 0; k < s->ncut; k++)
		m[k] = (Member) {facet_of(s, s->cut[k]), k};
	if (s->facet)
		qsort(m, s->ncut, sizeof(Member), cmp_member);
	for (size_t x = 0; x < s->ncut; x++)
		if (x == 0 || m[x].facet != m[x - 1].facet)
			group[ngroups++] = x;
	group[ngroups] = s->ncut;
	if (visit == NULL)
		threads = shares_begin(s, s->ncut, SHARE_CUT, false, &share, &nshares);
	if (threads < 2)
		ok = cut_groups(s, o, m, group, 0, ngroups, visit, ctx, err);
	else
	{
		#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
		for (size_t k = 0; k < nshares; k++)
		{
			bool		was = gx_alloc_is_plain();

			gx_alloc_plain(true);
			share[k].ok = cut_groups(&share[k].s, o, m, group, ngroups * k / nshares, ngroups * (k + 1) / nshares,
									 NULL, NULL, &share[k].err);
			gx_alloc_plain(was);
		}
		ok = shares_end(s, share, nshares, err);
	}
	free(m);
	free(group);
	return ok;
}

static void
side_free(Side *s)
{
	free(s->cut);
	free(s->start);
	free(s->met);
	free(s->facet);
}

bool
gx_overlay_pieces(const double *tri, size_t n, const GxSolidIndex *other, const signed char *keep,
				  const GxOverlayOptions *opt, double **out, size_t *nout, size_t *cap, GxError *err)
{
	Side		s = {.tri = tri, .n = n, .other = other, .opt = opt, .keep = keep, .out = out, .nout = nout,
	.cap = cap};
	bool		ok = meet(&s, err) && cut_facets(&s, NULL, NULL, NULL, err);

	side_free(&s);
	return ok;
}

bool
gx_split_facets(const double *atri, size_t na, const GxSolidIndex *aidx, const double *stri, size_t ns,
				const GxSolidIndex *sidx, const GxOverlayOptions *opt, double **out, size_t *nout, size_t *cap,
				GxFacetVisit visit, void *ctx, GxError *err)
{
	static const signed char inside[GX_PIECE_CLASSES] = {0, 1, 0, 0},
				none[GX_PIECE_CLASSES] = {0, 0, 0, 0};
	Side		side[2] = {
		{.tri = stri, .n = ns, .self = sidx, .other = aidx, .opt = opt, .keep = inside, .out = out, .nout = nout,
		.cap = cap},
		{.tri = atri, .n = na, .self = aidx, .other = sidx, .opt = opt, .keep = none, .out = out, .nout = nout,
		.cap = cap}
	};
	bool		ok = meet(&side[0], err) && meet(&side[1], err) && find_facets(&side[0], err) &&
		find_facets(&side[1], err) && cut_facets(&side[0], &side[1], NULL, NULL, err) &&
		cut_facets(&side[1], &side[0], visit, ctx, err);

	side_free(&side[0]);
	side_free(&side[1]);
	return ok;
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

/* The largest spacing of doubles among the coordinates of the n triangles at tri. */
static double
largest_ulp(const double *tri, size_t n)
{
	double		m = 0;

	for (size_t i = 0; i < 9 * n; i++)
		m = fmax(m, fabs(tri[i]));
	return nextafter(m, INFINITY) - m;
}

/* Has every one of the n triangles at tri no area (a repeated vertex, or three collinear)? */
static bool
all_flat(const double *tri, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!gx_triangle_flat(tri + 9 * i))
			return false;
	return true;
}

/*
 * gx_boolean_make, with kept as gx_solid_make_kept takes it (NULL: none): a triangle kept that mending or
 * snapping changed is vouched for no longer.
 */
static GxSerialized *
make(double *tri, const uint8_t *kept, size_t n, const double *const in[2], const size_t nin[2], int32_t srid,
	 const char *what, const GxOverlayOptions *opt, size_t *size, GxError *err)
{
	/*
	 * in turn, new vertices moved onto others within near[k][0], and slivers within near[k][1] of their longest
	 * edge mended, times the coordinates' largest spacing
	 */
	static const double near[][2] = {{0, 0}, {1, 0}, {4, 0}, {1, 1}, {4, 4}};
	GxBatchOptions bo;
	GxBuilder	b;
	GxSerialized *out;
	GxError		first = {GX_OK, ""};
	double	   *rounded = NULL;
	uint8_t    *still = NULL;
	size_t		node,
				shells,
				nkept = n;
	bool		ok = n == 0;

	gx_batch_options_default(&bo);
	bo.device = GX_DEVICE_CPU;
	bo.threads = opt->threads;
	bo.thread_budget = opt->thread_budget;
	if (opt->cancel)
		bo.cancel = *opt->cancel;
	if (n > 0 && ((rounded = gx_alloc(9 * n * sizeof(double))) == NULL ||
				  (kept && (still = gx_alloc(n)) == NULL)))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a solid of %zu triangles", n);
		return NULL;
	}
	if (n > 0)
		memcpy(rounded, tri, 9 * n * sizeof(double));
	for (size_t k = 0; !ok && k < sizeof(near) / sizeof(near[0]); k++)
	{
		GxError		why = {GX_OK, ""};
		size_t		moved = 0;
		double		ulp = largest_ulp(rounded, n);

		memcpy(tri, rounded, 9 * n * sizeof(double));
		nkept = n;
		if (k > 0 && (moved = gx_snap_cluster(tri, n, in, nin, near[k][0] * ulp)) == 0 && near[k][1] == 0)
			continue;
		if (moved == SIZE_MAX || !gx_snap_flat(tri, n, near[k][1] * ulp))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory mending the %s's surface", what);
			gx_free(rounded);
			if (still)
				gx_free(still);
			return NULL;
		}
		if (k == 0 && all_flat(tri, n))
		{
			/* thinner than the rounding everywhere: no area, no volume left */
			ok = true;
			nkept = 0;
			break;
		}
		for (size_t i = 0; still && i < n; i++)
			still[i] = kept[i] && memcmp(tri + 9 * i, rounded + 9 * i, 9 * sizeof(double)) == 0;
		ok = gx_solid_make_kept(tri, &nkept, still, &bo, &shells, &why);
		if (k == 0)
			first = why;
		if (!ok && (why.code == GX_ERR_CANCELLED || why.code == GX_ERR_NOMEM))
		{
			/* nothing learnt of the surface: no other rung tried */
			first = why;
			break;
		}
	}
	gx_free(rounded);
	if (still)
		gx_free(still);
	if (!ok && (first.code == GX_ERR_CANCELLED || first.code == GX_ERR_NOMEM))
	{
		*err = first;
		return NULL;
	}
	if (!ok)
	{
		gx_error_set(err, first.code, "the %s's surface, its new vertices rounded to doubles, is no valid solid: %s",
					 what, first.msg);
		return NULL;
	}
	n = nkept;
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
gx_boolean_make(double *tri, size_t n, const double *const in[2], const size_t nin[2], int32_t srid,
				const char *what, const GxOverlayOptions *opt, size_t *size, GxError *err)
{
	return make(tri, NULL, n, in, nin, srid, what, opt, size, err);
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
		uint8_t    *hit = NULL;
		GxOverlayCandidates cand;
		GxError		cerr = {GX_OK, ""};

		for (int k = 0; ok && k < 2; k++)
			if (given && given[k])
				idx[k] = given[k];
			else if ((ok = built[k] = gx_solid_index_build(&own[k], tri[k], n[k], err)))
				idx[k] = &own[k];
		/*
		 * the pairs whose boxes overlap found once (their lists and verdicts, 25 bytes a pair, within the memory
		 * the cut bound allows, about 1 kB a cut), else searched
		 */
		if (ok && n[0] <= UINT32_MAX && n[1] <= UINT32_MAX &&
			!(paired = gx_overlay_candidates(idx[0], idx[1], opt, opt->max_cuts * (size_t) 40, &cand, &cerr)) &&
			cerr.code != GX_ERR_LIMIT)
		{
			gx_error_set(err, cerr.code, "%s", cerr.msg);
			ok = false;
		}
		/* a pair's verdict, found by one side, read by the other */
		if (ok && paired && (hit = malloc(cand.npairs + 1)) == NULL)
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
			ok = false;
		}
		if (ok)
		{
			/* both sides' facets first: each is cut by the other's, each facet as one polygon */
			Side		side[2];

			if (hit)
				memset(hit, HIT_UNKNOWN, cand.npairs);
			for (int k = 0; k < 2; k++)
				side[k] = (Side) {.tri = tri[k], .n = n[k], .self = idx[k], .other = idx[1 - k], .opt = opt,
				.keep = keep[k], .out = &out, .nout = &nout, .cap = &cap, .kept = &kept, .keptcap = &keptcap,
				.cand = paired ? &cand : NULL, .hit = hit, .side = k};
			ok = meet(&side[0], err) && meet(&side[1], err) && find_facets(&side[0], err) &&
				find_facets(&side[1], err) && cut_facets(&side[0], &side[1], NULL, NULL, err) &&
				cut_facets(&side[1], &side[0], NULL, NULL, err);
			side_free(&side[0]);
			side_free(&side[1]);
		}
		if (paired)
			gx_overlay_candidates_free(&cand);
		free(hit);
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
	s = make(copy, kept, nout, tri, n, srid, op_name[op], opt, size, err);
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
