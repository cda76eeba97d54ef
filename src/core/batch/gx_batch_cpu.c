/*
 * gx_batch_cpu.c: the batch engine's CPU path, with OpenMP. The smaller side is gridded first; of the
 * larger side only the elements whose box reaches an occupied cell are kept and gridded (the others
 * have no candidate pair, so the counts are those of the plain two-grid method). Then cells in
 * parallel: each candidate pair is box-culled, kept only in its reference cell, and tested with the
 * exact ladder. In a distance batch the boxes of side a are grown by the distance and the pairs are tested
 * with gx_elem_dwithin. No PostgreSQL call and no gx_alloc in the worker threads (plain malloc).
 * Against a kept side with an index (gx_side_index.h), an intersection batch probes the index's grid
 * instead when the probes would visit fewer entries than PROBE_ENTRIES_PER_ELEMENT times the elements that
 * gridding both sides handles: each element of the other side looks at the cells its box covers, and tests
 * the kept elements there (each pair in its reference cell only), so the kept side is not gridded again and
 * the work follows the other side. With both sides kept, the side whose probes visit fewer entries probes.
 * A point probing solids only is left to the volume pass (gx_batch_solid.c), which locates it in each solid
 * whose box holds it, on the surface included: its probes would find the same pairs again.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_elements.h"
#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "batch/gx_batch_internal.h"
#include "batch/gx_side_index.h"
#include "index/gx_grid.h"

/* One side in the grid: its boxes and, when only some elements were kept, their element numbers. */
typedef struct Gridded
{
	const GxBatchSide *side;
	size_t		n;
	GxBox3D    *boxes;
	uint32_t   *elem;			/* elem[k] = element of entry k; NULL: entry k is element k */
	GxGrid		grid;
} Gridded;

static void
gridded_free(Gridded *g)
{
	gx_grid_free(&g->grid);
	gx_free(g->boxes);
	gx_free(g->elem);
}

/* Every element of s, its box grown by grow, gridded. */
static bool
grid_all(Gridded *g, const GxBatchSide *s, double grow, const GxBox3D *extent, const int dim[3],
		 const GxCancel *cancel, GxError *err)
{
	size_t		i;

	g->side = s;
	g->n = s->n;
	g->boxes = gx_alloc((s->n ? s->n : 1) * sizeof(GxBox3D));
	if (g->boxes == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for %zu element boxes", s->n);
		return false;
	}
	#pragma omp parallel for schedule(static) if (s->n > 65536)
	for (i = 0; i < s->n; i++)
		g->boxes[i] = gx_batch_elem_box_grown(s, i, grow);
	return gx_grid_build(&g->grid, extent, dim, g->boxes, g->n, cancel, err);
}

/* Box of element i of s grown by grow: the one its index keeps, if it has one. */
static inline GxBox3D
elem_box(const GxBatchSide *s, size_t i, double grow)
{
	if (s->index == NULL)
		return gx_batch_elem_box_grown(s, i, grow);
	return grow > 0 ? gx_box_expand(&s->index->elem_box[i], grow) : s->index->elem_box[i];
}

/* grid_reaching for a side with an index: its grid finds the elements near the occupied cells. */
static bool
grid_reaching_indexed(Gridded *g, const GxBatchSide *s, double grow, const GxGrid *other, const int dim[3],
					  const GxCancel *cancel, GxError *err)
{
	if (!gx_side_index_reaching(s, grow, other, &g->elem, &g->n, cancel, err))
		return false;
	if ((g->boxes = gx_alloc((g->n ? g->n : 1) * sizeof(GxBox3D))) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory selecting the elements of a batch");
		return false;
	}
	for (size_t k = 0; k < g->n; k++)
		g->boxes[k] = elem_box(s, g->elem[k], grow);
	return gx_grid_build(&g->grid, &other->box, dim, g->boxes, g->n, cancel, err);
}

#define MAX_THREADS 256

/*
 * The elements of s (boxes grown by grow) that reach an occupied cell of other, gridded. Parallel in three
 * steps over fixed per-thread ranges: mark and count, prefix sum of the counts, fill. Threads use malloc only.
 */
static bool
grid_reaching(Gridded *g, const GxBatchSide *s, double grow, const GxGrid *other, const int dim[3],
			  const GxCancel *cancel, GxError *err)
{
	uint8_t    *reach;
	size_t		offset[MAX_THREADS + 1] = {0};
	bool		ok;

	g->side = s;
	g->n = 0;
	if (s->index && gx_side_index_query_cost(s, other) < (double) s->n)
		return grid_reaching_indexed(g, s, grow, other, dim, cancel, err);
	reach = malloc(s->n ? s->n : 1);
	ok = reach != NULL;
	if (ok)
	{
		#pragma omp parallel num_threads(omp_get_max_threads() < MAX_THREADS ? omp_get_max_threads() : MAX_THREADS)
		{
			int			t = omp_get_thread_num(),
						nt = omp_get_num_threads();
			size_t		lo = s->n * t / nt,
						hi = s->n * (t + 1) / nt,
						i,
						k = 0;

			for (i = lo; i < hi; i++)
			{
				GxBox3D		b = elem_box(s, i, grow);

				reach[i] = !gx_cancel_requested(cancel) && gx_grid_box_reaches_occupied(other, &b);
				k += reach[i];
			}
			offset[t + 1] = k;
			#pragma omp barrier
			/* the backend's own thread allocates (gx_alloc may be palloc) */
			#pragma omp master
			{
				int			u;

				for (u = 1; u <= nt; u++)
					offset[u] += offset[u - 1];
				g->n = offset[nt];
				g->elem = gx_alloc((g->n ? g->n : 1) * sizeof(uint32_t));
				g->boxes = gx_alloc((g->n ? g->n : 1) * sizeof(GxBox3D));
			}
			#pragma omp barrier
			if (g->elem && g->boxes)
				for (i = lo, k = offset[t]; i < hi; i++)
					if (reach[i])
					{
						g->elem[k] = (uint32_t) i;
						g->boxes[k++] = elem_box(s, i, grow);
					}
		}
		ok = g->elem != NULL && g->boxes != NULL;
	}
	free(reach);
	if (!ok)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory selecting the elements of a batch");
		return false;
	}
	if (gx_cancel_requested(cancel))
	{
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		return false;
	}
	return gx_grid_build(&g->grid, &other->box, dim, g->boxes, g->n, cancel, err);
}

/*
 * In a distance batch most element pairs of a geometry pair found within the distance are within it too:
 * each thread remembers recently found geometry pairs (a direct-mapped table of keys) and skips their
 * element pairs; so do all threads together, through a bit per pair of geometries when the table fits in
 * SHARED_FOUND_MAX_BITS (as the GPU engine does).
 */
#define SHARED_FOUND_MAX_BITS (1ull << 29)
#define FOUND_SLOTS_LOG2 12

static inline uint64_t *
found_slot(uint64_t *found, uint64_t key)
{
	return &found[(key * 0x9E3779B97F4A7C15u) >> (64 - FOUND_SLOTS_LOG2)];
}

typedef struct CellCounts
{
	uint64_t	candidates,
				survivors,
				element_pairs;
} CellCounts;

static inline uint32_t
element_of(const Gridded *g, uint32_t entry)
{
	return g->elem ? g->elem[entry] : entry;
}

/*
 * All candidate pairs of cell (x, y, z); keys of intersecting pairs (within distance, if > 0, skipping the
 * geometry pairs in the thread's table `found`) go to out. Returns 0, or 1 when cancel was set (polled for
 * every outer element, so even one huge cell stops quickly), 2 when memory ran out.
 */
/* The shared bit of geometry pair (ga, gb), nb geometries on side b: set (by this thread or another)? */
static inline bool
shared_found(const uint32_t *bits, uint64_t nb, uint64_t key)
{
	uint64_t	bit = (key >> 32) * nb + (uint32_t) key;

	return bits && (__atomic_load_n(&bits[bit >> 5], __ATOMIC_RELAXED) >> (bit & 31)) & 1u;
}

static inline void
shared_set(uint32_t *bits, uint64_t nb, uint64_t key)
{
	uint64_t	bit = (key >> 32) * nb + (uint32_t) key;

	if (bits)
		__atomic_fetch_or(&bits[bit >> 5], 1u << (bit & 31), __ATOMIC_RELAXED);
}

static int
test_cell(const Gridded *ga, const Gridded *gb, size_t cell, int x, int y, int z, double distance,
		  bool element_pairs, uint64_t *found, uint32_t *shared, uint64_t nb, const GxCancel *cancel, GxKeys *out,
		  CellCounts *cc)
{
	const GxGrid *a = &ga->grid,
			   *b = &gb->grid;
	size_t		i,
				j;

	cc->candidates += (uint64_t) (a->start[cell + 1] - a->start[cell]) * (b->start[cell + 1] - b->start[cell]);
	for (i = a->start[cell]; i < a->start[cell + 1]; i++)
	{
		uint32_t	ka = a->items[i];
		uint32_t	ea = element_of(ga, ka);

		if (gx_cancel_requested(cancel))
			return 1;
		for (j = b->start[cell]; j < b->start[cell + 1]; j++)
		{
			uint32_t	kb = b->items[j];
			uint32_t	eb;
			uint64_t	key;

			if (!gx_box_overlaps(&ga->boxes[ka], &gb->boxes[kb]) ||
				!gx_grid_is_reference_cell(a, &ga->boxes[ka], &gb->boxes[kb], x, y, z))
				continue;
			cc->survivors++;
			eb = element_of(gb, kb);
			key = gx_pair_key(ga->side->geom[ea], gb->side->geom[eb]);
			if (distance > 0 ? *found_slot(found, key) != key && !shared_found(shared, nb, key) &&
				gx_batch_elems_within(ga->side, ea, gb->side, eb, distance) :
				gx_batch_elems_intersect(ga->side, ea, gb->side, eb))
			{
				cc->element_pairs++;
				if (distance > 0)
				{
					*found_slot(found, key) = key;
					shared_set(shared, nb, key);
				}
				if (!gx_keys_push(out, gx_batch_result_key(ga->side, ea, gb->side, eb, element_pairs)))
					return 2;
			}
		}
	}
	return 0;
}

/* A worker thread's pairs and counts added to the batch's (in a critical section); false for memory. */
static bool
merge_thread(GxKeys *keys, GxKeys *local, const CellCounts *cc, CellCounts *total, GxPredStats *preds)
{
	bool		ok = gx_keys_append(keys, local->v, local->n);

	total->candidates += cc->candidates;
	total->survivors += cc->survivors;
	total->element_pairs += cc->element_pairs;
	gx_pred_stats_add(preds, &gx_pred_stats);
	gx_keys_free(local);
	return ok;
}

/*
 * The batch's counts into st and the caller's counters (whichever thread did the work), and stop's error
 * (1 cancelled, 2 out of memory); false when stopped.
 */
static bool
report(GxBatchStats *st, const CellCounts *total, const GxPredStats *preds, double ms, int stop, GxError *err)
{
	gx_pred_stats_add(&gx_pred_stats, preds);
	st->t_double += ms;
	st->candidates += total->candidates;
	st->bbox_survivors += total->survivors;
	st->element_pairs += total->element_pairs;
	st->double_failures += preds->filter_failures;
	st->exact_decisions += preds->exact_expansion + preds->exact_gmp;
	if (stop == 1)
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
	else if (stop == 2)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory collecting intersecting pairs");
	return !stop;
}

/*
 * A probe visits an index entry (a box test) for a small part of what gridding an element costs (counted,
 * placed, its cell's pairs enumerated): 2 million points probing 200 solids' index (13 million entries)
 * took 136 ms where gridding both sides (2.9 million elements) took 207 ms.
 */
#define PROBE_ENTRIES_PER_ELEMENT 8

/*
 * The index entries that probing k's index with the elements of q visits: the cells a query box covers,
 * judged on a sample of q, times the entries per cell.
 */
static double
probe_entries(const GxBatchSide *q, const GxBatchSide *k)
{
	const GxGrid *g = &k->index->grid;
	size_t		ncells = (size_t) g->dim[0] * g->dim[1] * g->dim[2],
				sampled;
	double		cells = 0,
				per_cell = ncells ? (double) g->start[ncells] / ncells : 0;
	GxBox3D		box[GX_SIDE_SAMPLE];

	sampled = gx_batch_side_sample(q, 0, box);
	for (size_t i = 0; i < sampled; i++)
	{
		int			lo[3],
					hi[3];

		gx_grid_range(g, &box[i], lo, hi);
		cells += (double) (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
	}
	return sampled > 0 ? (double) q->n * (cells / sampled) * per_cell : 0;
}

/*
 * The probes of one element i of q (box b) into k's index; keys of intersecting pairs to out (of the element
 * pairs when element_pairs).
 */
static bool
probe_element(const GxBatchSide *q, size_t i, const GxBatchSide *k, bool q_is_a, bool element_pairs, GxKeys *out,
			  CellCounts *cc)
{
	const GxGrid *g = &k->index->grid;
	const GxBox3D *kbox = k->index->elem_box;
	GxBox3D		b = gx_batch_elem_box(q, i);
	int			lo[3],
				hi[3];

	if (!gx_box_overlaps(&b, &g->box))
		return true;
	gx_grid_range(g, &b, lo, hi);
	for (int z = lo[2]; z <= hi[2]; z++)
		for (int y = lo[1]; y <= hi[1]; y++)
			for (int x = lo[0]; x <= hi[0]; x++)
			{
				size_t		cell = gx_grid_cell(g, x, y, z);

				cc->candidates += g->start[cell + 1] - g->start[cell];
				for (size_t j = g->start[cell]; j < g->start[cell + 1]; j++)
				{
					uint32_t	e = g->items[j];
					size_t		ea = q_is_a ? i : e,
								eb = q_is_a ? e : i;
					const GxBatchSide *a = q_is_a ? q : k,
							   *bs = q_is_a ? k : q;

					if (!gx_box_overlaps(&b, &kbox[e]) || !gx_grid_is_reference_cell(g, &b, &kbox[e], x, y, z))
						continue;
					cc->survivors++;
					if (gx_batch_elems_intersect(a, ea, bs, eb))
					{
						cc->element_pairs++;
						if (!gx_keys_push(out, gx_batch_result_key(a, (uint32_t) ea, bs, (uint32_t) eb, element_pairs)))
							return false;
					}
				}
			}
	return true;
}

/* An intersection batch of q against the indexed side k, by probes (see the top of this file). */
static bool
probe_batch(const GxBatchSide *q, const GxBatchSide *k, bool q_is_a, const GxBatchOptions *opt, int threads,
			GxKeys *keys, GxBatchStats *st, GxError *err)
{
	CellCounts	total = {0, 0, 0};
	GxPredStats preds = {0, 0, 0, 0, 0};
	volatile int stop = 0;			/* 1 cancelled, 2 out of memory */
	double		t0 = gx_now_ms();
	bool		points_to_volumes = gx_batch_points_to_volumes(k, opt);
	long		i;

	#pragma omp parallel num_threads(threads)
	{
		GxKeys		local = {NULL, 0, 0};
		CellCounts	cc = {0, 0, 0};
		GxPredStats before = gx_pred_stats;

		memset(&gx_pred_stats, 0, sizeof(gx_pred_stats));
		#pragma omp for schedule(dynamic, 256)
		for (i = 0; i < (long) q->n; i++)
		{
			if (stop || (points_to_volumes && q->kind[i] == 1))
				continue;
			if (gx_cancel_requested(&opt->cancel))
				stop = 1;
			else if (!probe_element(q, (size_t) i, k, q_is_a, opt->element_pairs, &local, &cc))
				stop = 2;
		}
		#pragma omp critical
		{
			if (!merge_thread(keys, &local, &cc, &total, &preds))
				stop = 2;
		}
		gx_pred_stats = before;
	}
	return report(st, &total, &preds, gx_now_ms() - t0, stop, err);
}

bool
gx_batch_cpu(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
			 const GxBatchOptions *opt, int threads, GxKeys *keys, GxBatchStats *st, GxError *err)
{
	Gridded		ga,
				gb;
	Gridded    *small = a->n <= b->n ? &ga : &gb;
	Gridded    *large = a->n <= b->n ? &gb : &ga;
	size_t		ncells = (size_t) dim[0] * dim[1] * dim[2];
	CellCounts	total = {0, 0, 0};
	GxPredStats preds = {0, 0, 0, 0, 0};
	volatile int stop = 0;			/* 1 cancelled, 2 out of memory */
	bool		ok = false;
	double		t0 = gx_now_ms(),
				t1;
	long		c;

	uint32_t   *shared = NULL;

	memset(&ga, 0, sizeof(ga));
	memset(&gb, 0, sizeof(gb));
	if (opt->distance == 0 && (a->index || b->index))
	{
		double		by_a = b->index ? probe_entries(a, b) : INFINITY,
					by_b = a->index ? probe_entries(b, a) : INFINITY;

		if (fmin(by_a, by_b) < (double) PROBE_ENTRIES_PER_ELEMENT * (double) (a->n + b->n))
			return by_a <= by_b ? probe_batch(a, b, true, opt, threads, keys, st, err) :
				probe_batch(b, a, false, opt, threads, keys, st, err);
	}
	/* a missing table only costs time */
	if (opt->distance > 0 && (uint64_t) a->ngeoms * b->ngeoms <= SHARED_FOUND_MAX_BITS)
		shared = calloc(((uint64_t) a->ngeoms * b->ngeoms + 31) / 32 + 1, sizeof(uint32_t));
	if (!grid_all(small, a->n <= b->n ? a : b, a->n <= b->n ? opt->distance : 0, extent, dim, &opt->cancel, err) ||
		!grid_reaching(large, a->n <= b->n ? b : a, a->n <= b->n ? 0 : opt->distance, &small->grid, dim,
					   &opt->cancel, err))
		goto done;
	t1 = gx_now_ms();
	st->t_grid += t1 - t0;

	#pragma omp parallel num_threads(threads)
	{
		GxKeys		local = {NULL, 0, 0};
		CellCounts	cc = {0, 0, 0};
		GxPredStats before = gx_pred_stats;
		uint64_t   *found = opt->distance > 0 ? malloc(sizeof(uint64_t) << FOUND_SLOTS_LOG2) : NULL;

		/* UINT64_MAX is no pair's key (geometry indices stay below UINT32_MAX) */
		if (found)
			memset(found, 0xFF, sizeof(uint64_t) << FOUND_SLOTS_LOG2);
		else if (opt->distance > 0)
			stop = 2;

		/* each thread counts from zero, then gets its own counters back (the caller's, on its thread) */
		memset(&gx_pred_stats, 0, sizeof(gx_pred_stats));
		#pragma omp for schedule(dynamic, 64)
		for (c = 0; c < (long) ncells; c++)
		{
			size_t		cell = (size_t) c;

			int			status;

			if (stop || small->grid.start[cell] == small->grid.start[cell + 1] ||
				large->grid.start[cell] == large->grid.start[cell + 1])
				continue;
			status = test_cell(&ga, &gb, cell, (int) (cell % dim[0]), (int) (cell / dim[0] % dim[1]),
							   (int) (cell / ((size_t) dim[0] * dim[1])), opt->distance, opt->element_pairs, found,
							   shared, b->ngeoms, &opt->cancel, &local, &cc);
			if (status)
				stop = status;
		}
		#pragma omp critical
		{
			if (!merge_thread(keys, &local, &cc, &total, &preds))
				stop = 2;
		}
		gx_pred_stats = before;
		free(found);
	}
	ok = report(st, &total, &preds, gx_now_ms() - t1, stop, err);
done:
	free(shared);
	gridded_free(&ga);
	gridded_free(&gb);
	return ok;
}
