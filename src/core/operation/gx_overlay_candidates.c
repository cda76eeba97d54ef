/*
 * gx_overlay_candidates.c: the pairs of triangles of two solids whose boxes overlap (gx_overlay_candidates.h).
 * a's triangles go into a grid over the overlap of the solids' boxes; each of b's looks in the cells its box
 * covers, each of a's counted once (a stamp of the last of b's that saw it), its pairs sorted by a's. b's
 * triangles are shared out among threads in shares whose pairs are appended in order. Of a solid reaching
 * beyond that overlap only the triangles meeting it are taken, found by its index: a large solid (a pit)
 * against a small one costs what the small one's surroundings do.
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "geom/gx_box.h"
#include "index/gx_grid.h"
#include "operation/gx_overlay_candidates.h"

#define CANCEL_EVERY 256		/* b's triangles between two polls of the cancel flags */

typedef struct Pairs
{
	uint32_t   *v;				/* a's, then b's index */
	size_t		n,
				cap;
} Pairs;

/*
 * The pairs v[0 .. 2 n) as lists per triangle of side s (the index at s of each pair; n_s of them) into out,
 * with each entry's pair number.
 */
static bool
lists_of(const uint32_t *v, size_t n, int s, size_t n_s, GxOverlayCandidates *out)
{
	size_t	   *start = calloc(n_s + 2, sizeof(size_t));
	uint32_t   *list = malloc((n ? n : 1) * sizeof(uint32_t)),
			   *pair = malloc((n ? n : 1) * sizeof(uint32_t));

	out->start[s] = start;
	out->list[s] = list;
	out->pair[s] = pair;
	out->npairs = n;
	if (start == NULL || list == NULL || pair == NULL || n > UINT32_MAX)
		return false;
	for (size_t k = 0; k < n; k++)
		start[v[2 * k + s] + 2]++;
	for (size_t i = 2; i < n_s + 2; i++)
		start[i] += start[i - 1];
	/* start[i + 1] counts the pairs before triangle i's end as they are filled */
	for (size_t k = 0; k < n; k++)
	{
		size_t		at = start[v[2 * k + s] + 1]++;

		list[at] = v[2 * k + !s];
		pair[at] = (uint32_t) k;
	}
	return true;
}

/*
 * The triangles of s whose boxes meet common, as *list (NULL: all of them, when its box lies inside) and their
 * boxes as *boxes (s's own, or a malloc'd copy in the list's order); false without memory.
 */
static bool
near_common(const GxSolidIndex *s, const GxBox3D *common, size_t **list, size_t *n, GxBox3D **boxes)
{
	size_t		cap = 0;

	*list = NULL;
	*n = s->n;
	*boxes = s->boxes;
	if (gx_box_contains(common, &s->box))
		return true;
	if (!gx_solid_index_near(s, common, list, n, &cap) || (*boxes = malloc((*n ? *n : 1) * sizeof(GxBox3D))) == NULL)
		return false;
	for (size_t k = 0; k < *n; k++)
		(*boxes)[k] = s->boxes[(*list)[k]];
	return true;
}

bool
gx_overlay_candidates_of_pairs(size_t na, size_t nb, const uint32_t *pairs, size_t n, GxOverlayCandidates *out)
{
	*out = (GxOverlayCandidates) {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, 0};
	if (lists_of(pairs, n, 0, na, out) && lists_of(pairs, n, 1, nb, out))
		return true;
	gx_overlay_candidates_free(out);
	return false;
}

/* One search's state, shared by its threads. */
typedef struct Search
{
	const GxSolidIndex *a,
			   *b;
	const GxGrid *g;
	const GxBox3D *common;
	const size_t *alist,
			   *blist;
	size_t		na;				/* a's entries in the grid */
	const GxCancel *cancel;
	size_t		max_pairs,
				found;			/* pairs found so far by every share */
} Search;

/* Two pairs of one of b's triangles, by a's. */
static int
cmp_pair(const void *x, const void *y)
{
	uint32_t	i = *(const uint32_t *) x,
				j = *(const uint32_t *) y;

	return (i > j) - (i < j);
}

/* n pairs of one of b's triangles by a's: by insertion when few (a dozen is usual), else qsort. */
static void
sort_pairs(uint32_t *v, size_t n)
{
	if (n > 32)
	{
		qsort(v, n, 2 * sizeof(uint32_t), cmp_pair);
		return;
	}
	for (size_t k = 1; k < n; k++)
	{
		uint32_t	i = v[2 * k],
					j = v[2 * k + 1];
		size_t		at = k;

		for (; at > 0 && v[2 * (at - 1)] > i; at--)
		{
			v[2 * at] = v[2 * (at - 1)];
			v[2 * at + 1] = v[2 * (at - 1) + 1];
		}
		v[2 * at] = i;
		v[2 * at + 1] = j;
	}
}

/*
 * The pairs of b's triangles blist[k] (k itself without a list), k in [k0, k1), into p, each triangle's in
 * ascending order of a's (the same pairs in the same order however the grid is made); false with err set.
 */
static bool
search_range(Search *sr, size_t k0, size_t k1, Pairs *p, GxError *err)
{
	const GxGrid *g = sr->g;
	uint32_t   *seen = calloc(sr->na + 1, sizeof(uint32_t));	/* per entry of a: the last of b's that saw it */

	if (seen == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		return false;
	}
	for (size_t k = k0; k < k1; k++)
	{
		size_t		j = sr->blist ? sr->blist[k] : k,
					was = p->n,
					total;
		uint32_t	stamp = (uint32_t) (k - k0 + 1);
		const GxBox3D *bj = &sr->b->boxes[j];
		int			lo[3],
					hi[3];

		if ((k - k0) % CANCEL_EVERY == 0 && gx_cancel_requested(sr->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
			free(seen);
			return false;
		}
		if (!gx_box_overlaps(bj, sr->common))
			continue;
		gx_grid_range(g, bj, lo, hi);
		for (int z = lo[2]; z <= hi[2]; z++)
			for (int y = lo[1]; y <= hi[1]; y++)
				for (int x = lo[0]; x <= hi[0]; x++)
				{
					size_t		cell = gx_grid_cell(g, x, y, z);

					for (size_t q = g->start[cell]; q < g->start[cell + 1]; q++)
					{
						uint32_t	e = g->items[q],
									i = (uint32_t) (sr->alist ? sr->alist[e] : e);

						if (seen[e] == stamp || !gx_box_overlaps(&sr->a->boxes[i], bj))
							continue;
						seen[e] = stamp;
						if (!gx_grow_malloc((void **) &p->v, &p->cap, 2 * (p->n + 1), sizeof(uint32_t), SIZE_MAX / 8))
						{
							gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
							free(seen);
							return false;
						}
						p->v[2 * p->n] = i;
						p->v[2 * p->n++ + 1] = (uint32_t) j;
					}
				}
		sort_pairs(p->v + 2 * was, p->n - was);
		/* the bound on the pairs of every share together, counted a triangle of b at a time */
		#pragma omp atomic capture
		total = sr->found += p->n - was;
		if (sr->max_pairs && total > sr->max_pairs)
		{
			gx_error_set(err, GX_ERR_LIMIT, "more than %zu pairs of triangles may meet", sr->max_pairs);
			free(seen);
			return false;
		}
	}
	free(seen);
	return true;
}

#define SHARE_TRIANGLES 1024	/* b's triangles searched in one share at least */

/*
 * The pairs of b's nb triangles (blist) against the grid, on the threads: shares of b's triangles, their pairs
 * appended in order (the same list on any number of threads). false with err set.
 */
static bool
search(Search *sr, size_t nb, const GxOverlayOptions *opt, Pairs *p, GxError *err)
{
	bool		began = nb >= 2 * SHARE_TRIANGLES;
	int			threads = began ? gx_threads_begin(opt->threads, opt->thread_budget) : 1;
	size_t		nshares = threads < 2 ? 1 : nb / SHARE_TRIANGLES < (size_t) 4 * threads ? nb / SHARE_TRIANGLES :
		(size_t) 4 * threads;
	Pairs	   *share = calloc(nshares, sizeof(Pairs));
	GxError    *serr = calloc(nshares, sizeof(GxError));
	bool		ok = share && serr;

	if (!ok)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
	else if (nshares == 1)
		ok = search_range(sr, 0, nb, p, err);
	else
	{
		#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
		for (size_t k = 0; k < nshares; k++)
			search_range(sr, nb * k / nshares, nb * (k + 1) / nshares, &share[k], &serr[k]);
		for (size_t k = 0; ok && k < nshares; k++)
			if (serr[k].code != GX_OK)
			{
				*err = serr[k];
				ok = false;
			}
		if (ok && !gx_grow_malloc((void **) &p->v, &p->cap, 2 * sr->found + 1, sizeof(uint32_t), SIZE_MAX / 8))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
			ok = false;
		}
		for (size_t k = 0; ok && k < nshares; k++)
		{
			memcpy(p->v + 2 * p->n, share[k].v, 2 * share[k].n * sizeof(uint32_t));
			p->n += share[k].n;
		}
	}
	for (size_t k = 0; share && k < nshares; k++)
		free(share[k].v);
	free(share);
	free(serr);
	if (began)
		gx_threads_end();
	return ok;
}

bool
gx_overlay_candidates(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt, size_t max_pairs,
					  GxOverlayCandidates *out, GxError *err)
{
	Pairs		p = {NULL, 0, 0};
	GxGrid		g;
	GxBox3D		common,
			   *abox = NULL,
			   *bbox = NULL;
	size_t	   *alist = NULL,
			   *blist = NULL,
				na = 0,
				nb = 0;
	int			dim[3];
	bool		ok = true,
				was = gx_alloc_is_plain();

	*out = (GxOverlayCandidates) {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, 0};
	if (gx_box_overlaps(&a->box, &b->box))
	{
		Search		sr;

		common = gx_box_intersection(&a->box, &b->box);
		if (!near_common(a, &common, &alist, &na, &abox) || !near_common(b, &common, &blist, &nb, &bbox))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
			ok = false;
			goto done;
		}
		/* the grid in malloc's memory, as everything here (threads may call this) */
		gx_alloc_plain(true);
		/* about a cell per triangle in the overlap: those the boxes' overlap holds, often a few of each solid's */
		gx_grid_choose_dims(&common, (double) (na + nb), dim);
		if (!gx_grid_build(&g, &common, dim, abox, na, opt->cancel, err))
		{
			gx_alloc_plain(was);
			ok = false;
			goto done;
		}
		sr = (Search) {a, b, &g, &common, alist, blist, na, opt->cancel, max_pairs, 0};
		ok = search(&sr, nb, opt, &p, err);
		gx_grid_free(&g);
		gx_alloc_plain(was);

	}
	if (ok && !gx_overlay_candidates_of_pairs(a->n, b->n, p.v, p.n, out))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		ok = false;
	}
done:
	free(alist);
	free(blist);
	if (abox != a->boxes)
		free(abox);
	if (bbox != b->boxes)
		free(bbox);
	free(p.v);
	return ok;
}

void
gx_overlay_candidates_free(GxOverlayCandidates *c)
{
	for (int s = 0; s < 2; s++)
	{
		free(c->start[s]);
		free(c->list[s]);
		free(c->pair[s]);
		c->start[s] = NULL;
		c->list[s] = NULL;
		c->pair[s] = NULL;
	}
}
