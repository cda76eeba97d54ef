/*
 * gx_overlay_candidates.c: the pairs of triangles of two solids whose boxes overlap (gx_overlay_candidates.h).
 * a's triangles go into a grid over the overlap of the solids' boxes; each of b's looks in the cells its box
 * covers, a pair counted in the one cell holding the lower corner of the boxes' overlap. Of a solid reaching
 * beyond that overlap only the triangles meeting it are taken, found by its index: a large solid (a pit)
 * against a small one costs what the small one's surroundings do.
 */
#include <stdlib.h>

#include "base/gx_alloc.h"
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

/* The pairs v[0 .. 2 n) as lists per triangle of side s (the index at s of each pair; n_s of them) into out. */
static bool
lists_of(const uint32_t *v, size_t n, int s, size_t n_s, GxOverlayCandidates *out)
{
	size_t	   *start = calloc(n_s + 2, sizeof(size_t));
	uint32_t   *list = malloc((n ? n : 1) * sizeof(uint32_t));

	out->start[s] = start;
	out->list[s] = list;
	if (start == NULL || list == NULL)
		return false;
	for (size_t k = 0; k < n; k++)
		start[v[2 * k + s] + 2]++;
	for (size_t i = 2; i < n_s + 2; i++)
		start[i] += start[i - 1];
	/* start[i + 1] counts the pairs before triangle i's end as they are filled */
	for (size_t k = 0; k < n; k++)
		list[start[v[2 * k + s] + 1]++] = v[2 * k + !s];
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
	*out = (GxOverlayCandidates) {{NULL, NULL}, {NULL, NULL}};
	if (lists_of(pairs, n, 0, na, out) && lists_of(pairs, n, 1, nb, out))
		return true;
	gx_overlay_candidates_free(out);
	return false;
}

bool
gx_overlay_candidates(const GxSolidIndex *a, const GxSolidIndex *b, const GxCancel *cancel, size_t max_pairs,
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

	*out = (GxOverlayCandidates) {{NULL, NULL}, {NULL, NULL}};
	if (gx_box_overlaps(&a->box, &b->box))
	{
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
		if (!gx_grid_build(&g, &common, dim, abox, na, cancel, err))
		{
			gx_alloc_plain(was);
			ok = false;
			goto done;
		}
		for (size_t k = 0; ok && k < nb; k++)
		{
			size_t		j = blist ? blist[k] : k;
			const GxBox3D *bj = &b->boxes[j];
			int			lo[3],
						hi[3];

			if (k % CANCEL_EVERY == 0 && gx_cancel_requested(cancel))
			{
				gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
				ok = false;
				break;
			}
			if (!gx_box_overlaps(bj, &common))
				continue;
			gx_grid_range(&g, bj, lo, hi);
			for (int z = lo[2]; ok && z <= hi[2]; z++)
				for (int y = lo[1]; ok && y <= hi[1]; y++)
					for (int x = lo[0]; ok && x <= hi[0]; x++)
					{
						size_t		cell = gx_grid_cell(&g, x, y, z);

						for (size_t q = g.start[cell]; q < g.start[cell + 1]; q++)
						{
							uint32_t	i = (uint32_t) (alist ? alist[g.items[q]] : g.items[q]);

							if (!gx_box_overlaps(&a->boxes[i], bj) ||
								!gx_grid_is_reference_cell(&g, &a->boxes[i], bj, x, y, z))
								continue;
							if (max_pairs && p.n == max_pairs)
							{
								gx_error_set(err, GX_ERR_LIMIT, "more than %zu pairs of triangles may meet",
											 max_pairs);
								ok = false;
								break;
							}
							if (!gx_grow_malloc((void **) &p.v, &p.cap, 2 * (p.n + 1), sizeof(uint32_t),
												SIZE_MAX / 8))
							{
								gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
								ok = false;
								break;
							}
							p.v[2 * p.n] = i;
							p.v[2 * p.n++ + 1] = (uint32_t) j;
						}
					}
		}
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
		c->start[s] = NULL;
		c->list[s] = NULL;
	}
}
