/*
 * gx_intercepts_pairs.c: the intercepts of a batch's pairs (gx_intercepts.h), where the lines and the solids
 * are batch sides: what gx_intercepts_pairs computes after its batch, in a backend or in the GPU service
 * (which holds the solids already, indexed). Each line is rebuilt from its side's segments (a LINESTRING's,
 * in order, each segment ending where the next begins), and meets the triangles the batch paired its
 * segments with (its element pairs); each solid's point location index is the side's own
 * when it has one (a kept side), else built here for a run of solids (up to CHUNK_TRIANGLES triangles) and
 * freed after their lines: memory stays bounded, and the threads start once per run, not per solid.
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_keys.h"
#include "batch/gx_side_index.h"
#include "operation/gx_intercepts.h"

#define CHUNK_TRIANGLES (1 << 21)

static int
cmp_by_solid(const void *x, const void *y)
{
	uint64_t	a = *(const uint64_t *) x,
				b = *(const uint64_t *) y;
	uint32_t	sa = (uint32_t) a,
				sb = (uint32_t) b;

	return sa != sb ? (sa < sb ? -1 : 1) : (a < b ? -1 : a > b);
}

/* The points of line g of side s (its segments first[g] .. first[g + 1]), into pts (room: segments + 1). */
static size_t
line_points(const GxBatchSide *s, const size_t *first, uint32_t g, double *pts)
{
	size_t		n = 0;

	for (size_t e = first[g]; e < first[g + 1]; e++)
	{
		if (e == first[g])
			memcpy(pts + 3 * n++, s->coords + 9 * e, 3 * sizeof(double));
		memcpy(pts + 3 * n++, s->coords + 9 * e + 3, 3 * sizeof(double));
	}
	return n;
}

bool
gx_intercepts_of_pairs(const GxBatchSide *lines, const GxBatchSide *solids, uint64_t *keys, size_t n,
					   const uint64_t *elements, size_t nelements, int threads, const char *budget_dir,
					   const GxCancel *cancel, GxPairInterval **out, size_t *nout, GxError *err)
{
	size_t	   *lfirst = NULL,
			   *sfirst = NULL,
				count = 0,
				cap = 0;
	GxBox3D    *lbox = NULL,
			   *sbox = NULL;
	GxInterceptJob *jobs = NULL;
	double	  **pts = NULL;
	GxPairInterval *v = NULL;
	bool		cached = solids->index != NULL && solids->index->solid != NULL,
				ok;

	*out = NULL;
	*nout = 0;
	qsort(keys, n, sizeof(uint64_t), cmp_by_solid);
	ok = gx_side_ranges(lines, &lfirst, &lbox, err) && gx_side_ranges(solids, &sfirst, &sbox, err);
	if (ok && n > 0)
	{
		jobs = malloc(n * sizeof(GxInterceptJob));
		pts = calloc(n, sizeof(double *));
		ok = jobs && pts;
		if (!ok)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory computing intercepts");
	}
	for (size_t i = 0, next; ok && i < n; i = next)
	{
		GxSolidIndex *own = NULL;
		size_t		nown = 0,
					built = 0,
					triangles = 0;
		bool		ran = false;

		/*
		 * every pair at once when the side holds its solids' indexes, else the pairs of a run of solids, each
		 * indexed here (own[], in the order of the keys)
		 */
		for (next = i; next < n && (cached || next == i || (uint32_t) keys[next] == (uint32_t) keys[next - 1] ||
									triangles < CHUNK_TRIANGLES); next++)
			if (!cached && (next == i || (uint32_t) keys[next] != (uint32_t) keys[next - 1]))
			{
				uint32_t	s = (uint32_t) keys[next];

				triangles += sfirst[s + 1] - sfirst[s];
				nown++;
			}
		if (!cached && (own = calloc(nown, sizeof(GxSolidIndex))) == NULL)
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory computing intercepts");
			ok = false;
			break;
		}
		/* (an index that failed to build is not freed) */
		for (size_t k = i; ok && !cached && k < next; k++)
			if ((k == i || (uint32_t) keys[k] != (uint32_t) keys[k - 1]) &&
				(ok = gx_side_solid_index_build(solids, sfirst, (uint32_t) keys[k], &own[built], err)))
				built++;
		for (size_t k = i, m = 0; ok && k < next; k++)
		{
			uint32_t	l = (uint32_t) (keys[k] >> 32);

			if (!cached && k > i && (uint32_t) keys[k] != (uint32_t) keys[k - 1])
				m++;
			jobs[k - i].solid = cached ? &solids->index->solid[(uint32_t) keys[k]] : &own[m];
			jobs[k - i].lengths_only = true;	/* a pair's interval is its lengths */
			jobs[k - i].hits = NULL;
			jobs[k - i].nhits = 0;
			jobs[k - i].first_segment = lfirst[l];
			jobs[k - i].first_triangle = sfirst[(uint32_t) keys[k]];
			if (elements)
			{
				/* the pairs of the line's segments: from its first segment's to the next line's */
				size_t		h = gx_keys_lower_bound(elements, nelements, (uint64_t) lfirst[l] << 32);

				jobs[k - i].hits = elements + h;
				jobs[k - i].nhits = gx_keys_lower_bound(elements, nelements, (uint64_t) lfirst[l + 1] << 32) - h;
			}
			pts[k] = malloc((lfirst[l + 1] - lfirst[l] + 1) * 3 * sizeof(double));
			ok = pts[k] != NULL;
			if (ok)
			{
				jobs[k - i].line = pts[k];
				jobs[k - i].npoints = line_points(lines, lfirst, l, pts[k]);
			}
			else
				gx_error_set(err, GX_ERR_NOMEM, "out of memory computing intercepts");
		}
		ran = ok && gx_intercepts_many(jobs, next - i, threads, budget_dir, cancel, err);
		ok = ran;
		for (size_t k = i; ok && k < next; k++)
		{
			const GxInterceptJob *job = &jobs[k - i];

			if (!gx_grow_malloc((void **) &v, &cap, count + job->n, sizeof(GxPairInterval),
								SIZE_MAX / sizeof(GxPairInterval)))
			{
				gx_error_set(err, GX_ERR_NOMEM, "out of memory computing intercepts");
				ok = false;
			}
			for (size_t m = 0; ok && m < job->n; m++)
				v[count++] = (GxPairInterval) {keys[k], job->out[m].from, job->out[m].to};
		}
		for (size_t k = i; k < next; k++)
		{
			if (ran)
				free(jobs[k - i].out);
			free(pts[k]);
			pts[k] = NULL;
		}
		for (size_t m = 0; m < built; m++)
			gx_solid_index_free(&own[m]);
		free(own);
	}
	free(jobs);
	free(pts);
	gx_side_ranges_free(lines, lfirst, lbox);
	gx_side_ranges_free(solids, sfirst, sbox);
	if (!ok)
	{
		free(v);
		return false;
	}
	*out = v;
	*nout = count;
	return true;
}
