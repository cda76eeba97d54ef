/*
 * gx_batch_side.c: flattening geometries into one side of a batch (element coordinates, kinds, owners), and
 * the boxes and exact pair tests of a side's elements.
 */
#include <stdlib.h>
#include <omp.h>
#include <string.h>

#include "algorithm/gx_elem_distance.h"
#include "algorithm/gx_primitives.h"
#include "base/gx_alloc.h"
#include "batch/gx_batch_side.h"
#include "batch/gx_side_index.h"
#include "geom/gx_box.h"
#include "geom/gx_pack.h"

void
gx_batch_side_init(GxBatchSide *s)
{
	memset(s, 0, sizeof(*s));
}

/* Room for extra more elements; grows by doubling unless exact (then to exactly that size). */
static bool
grow(GxBatchSide *s, size_t extra, bool exact, GxError *err)
{
	size_t		cap = exact ? s->n + extra : s->cap ? s->cap : 1024;
	double	   *coords;
	uint8_t    *kind;
	uint32_t   *geom;

	if (s->n + extra <= s->cap)
		return true;
	if (s->n + extra > UINT32_MAX)
	{
		gx_error_set(err, GX_ERR_LIMIT, "too many elements in one batch side (more than %u)", UINT32_MAX);
		return false;
	}
	while (cap < s->n + extra)
		cap *= 2;
	/* the arrays are never empty, so that realloc always has something to give back */
	cap = cap ? cap : 1;
	coords = gx_realloc(s->coords, cap * 9 * sizeof(double));
	if (coords)
		s->coords = coords;
	kind = gx_realloc(s->kind, cap);
	if (kind)
		s->kind = kind;
	geom = gx_realloc(s->geom, cap * sizeof(uint32_t));
	if (geom)
		s->geom = geom;
	if (!coords || !kind || !geom)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a batch of %zu elements", cap);
		return false;
	}
	s->cap = cap;
	return true;
}

/* Appends element kind k (its 3 slots copied from the k vertices at c, the last one repeated). */
static void
put_element(GxBatchSide *s, const double *c, int k)
{
	double	   *dst = s->coords + 9 * s->n;
	int			v;

	for (v = 0; v < 3; v++)
		memcpy(dst + 3 * v, c + 3 * (v < k ? v : k - 1), 3 * sizeof(double));
	s->kind[s->n] = (uint8_t) k;
	s->geom[s->n++] = s->ngeoms;
}

/* The next count elements, their coordinates written, made triangles of the side's current geometry. */
static void
claim_triangles(GxBatchSide *s, uint32_t count)
{
	memset(s->kind + s->n, 3, count);
	for (uint32_t i = 0; i < count; i++)
		s->geom[s->n + i] = s->ngeoms;
	s->n += count;
}

/* Appends the elements of one leaf node (room already reserved). */
static bool
put_leaf(void *ctx, const GxNode *n)
{
	GxBatchSide *s = ctx;
	const double *c = gx_node_coords(n);
	uint32_t	i;

	switch (n->type)
	{
		case GX_POINT:
			if (n->count == 1)
				put_element(s, c, 1);
			break;
		case GX_LINESTRING:
			for (i = 0; i + 1 < n->count; i++)
				put_element(s, c + 3 * i, 2);
			break;
		default:
			/* Triangles are stored as the engine lays elements out: one copy for all of them. */
			memcpy(s->coords + 9 * s->n, c, (size_t) n->count * 9 * sizeof(double));
			claim_triangles(s, n->count);
			break;
	}
	return true;
}

/* A geometry of SRID srid joins the side. */
static void
note_srid(GxBatchSide *s, int32_t srid)
{
	if (srid == 0)
		s->unknown_srid = true;
	else if (s->srid != 0 && srid != s->srid)
		s->mixed_srid = true;
	else if (srid != 0)
		s->srid = srid;
}

/* Counts the elements of one leaf node (as put_leaf lays them out). */
static bool
count_leaf(void *ctx, const GxNode *n)
{
	size_t	   *count = ctx;

	*count += n->type == GX_POINT ? (n->count == 1) : n->type == GX_LINESTRING ? (n->count > 1 ? n->count - 1 : 0) :
		n->count;
	return true;
}

/* put_leaf for a leaf of a packed value: a surface's triangles gathered from its distinct vertices. */
static bool
put_packed_leaf(void *ctx, const GxNode *n, const GxPackedSurface *surface)
{
	GxBatchSide *s = ctx;
	double	   *dst = s->coords + 9 * s->n;

	if (surface == NULL)
		return put_leaf(ctx, n);
	for (size_t i = 0; i < 3 * (size_t) n->count; i++)
		memcpy(dst + 3 * i, surface->vertices + 3 * (size_t) surface->index[i], 3 * sizeof(double));
	claim_triangles(s, n->count);
	return true;
}

static bool
count_packed_leaf(void *ctx, const GxNode *n, const GxPackedSurface *surface)
{
	(void) surface;
	return count_leaf(ctx, n);
}

/* The elements of geometry g, packed or not. */
static size_t
count_elements(const GxSerialized *g)
{
	size_t		count = 0;

	if (g->flags & GX_FLAG_PACKED)
		gx_packed_walk(g, count_packed_leaf, &count);
	else
		gx_node_walk(gx_body(g), count_leaf, &count);
	return count;
}

/* Lays out the elements of geometry g, packed or not, at s->n (room reserved). */
static void
put_elements(GxBatchSide *s, const GxSerialized *g)
{
	if (g->flags & GX_FLAG_PACKED)
		gx_packed_walk(g, put_packed_leaf, s);
	else
		gx_node_walk(gx_body(g), put_leaf, s);
}

/* Marks geometry number `number` a solid, growing the side's flags; false when memory runs out. */
static bool
note_solid(GxBatchSide *s, uint32_t number, GxError *err)
{
	size_t		known = s->solid_cap;

	if (!gx_grow((void **) &s->solid, &s->solid_cap, (size_t) number + 1, 1, (size_t) UINT32_MAX + 1))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a batch of %u geometries", number);
		return false;
	}
	/* the geometries the flags did not cover yet are not solids */
	memset(s->solid + known, 0, s->solid_cap - known);
	s->solid[number] = 1;
	return true;
}

/* The part of gx_batch_side_add that must come in order: SRID, extent and the solid flag. */
static bool
note_geometry(GxBatchSide *s, const GxSerialized *g, uint32_t number, bool first_elements, GxError *err)
{
	note_srid(s, g->srid);
	if (!(g->flags & GX_FLAG_EMPTY))
	{
		if (first_elements)
			s->extent = g->box;
		else
			gx_box_extend(&s->extent, &g->box);
	}
	return !(g->flags & GX_FLAG_SOLID) || note_solid(s, number, err);
}

bool
gx_batch_side_all_solids(const GxBatchSide *s)
{
	if (s->ngeoms == 0 || s->solid == NULL || s->solid_cap < s->ngeoms)
		return false;
	for (uint32_t g = 0; g < s->ngeoms; g++)
		if (!s->solid[g])
			return false;
	return true;
}

bool
gx_batch_side_all_points(const GxBatchSide *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->kind[i] != 1)
			return false;
	return true;
}

bool
gx_batch_side_add(GxBatchSide *s, const GxSerialized *g, GxError *err)
{
	if (s->ngeoms == UINT32_MAX)
	{
		gx_error_set(err, GX_ERR_LIMIT, "too many geometries in one batch");
		return false;
	}
	if (!grow(s, count_elements(g), false, err) || !note_geometry(s, g, s->ngeoms, s->n == 0, err))
		return false;
	put_elements(s, g);
	s->ngeoms++;
	return true;
}

size_t
gx_batch_side_count_many(const GxSerialized *const *g, size_t n)
{
	size_t		total = 0;
	long		k;

	#pragma omp parallel for schedule(dynamic, 64) reduction(+:total) if (n > 65536)
	for (k = 0; k < (long) n; k++)
		total += count_elements(g[k]);
	return total;
}

bool
gx_batch_side_add_many(GxBatchSide *s, const GxSerialized *const *g, size_t n, GxError *err)
{
	size_t	   *first = gx_alloc((n + 1) * sizeof(size_t));
	size_t		i,
				chunk;
	long		k;
	volatile bool cancelled = false;

	if (first == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a batch of %zu geometries", n);
		return false;
	}
	if ((uint64_t) s->ngeoms + n > UINT32_MAX)
	{
		gx_free(first);
		gx_error_set(err, GX_ERR_LIMIT, "too many geometries in one batch");
		return false;
	}
	/* geometries are handed to threads in chunks of about 1/64 of a thread's share: one each when few */
	chunk = n / (64 * (size_t) omp_get_max_threads()) + 1;
	first[0] = s->n;
	#pragma omp parallel for schedule(dynamic, chunk) if (n > 65536)
	for (k = 0; k < (long) n; k++)
		first[k + 1] = count_elements(g[k]);
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	if (!grow(s, first[n] - s->n, true, err))
	{
		gx_free(first);
		return false;
	}
	/* each geometry writes its own range of the arrays */
	#pragma omp parallel for schedule(dynamic, chunk) if (first[n] - first[0] > 65536)
	for (k = 0; k < (long) n; k++)
	{
		GxBatchSide at = *s;

		if (cancelled || (cancelled = gx_cancel_requested(&gx_cancel_flags)))
			continue;
		at.n = first[k];
		at.ngeoms = s->ngeoms + (uint32_t) k;
		put_elements(&at, g[k]);
	}
	if (cancelled)
	{
		gx_free(first);
		gx_error_set(err, GX_ERR_CANCELLED, "flattening a batch's geometries cancelled");
		return false;
	}
	for (i = 0; i < n; i++)
		if (!note_geometry(s, g[i], s->ngeoms + (uint32_t) i, first[i] == 0, err))
		{
			gx_free(first);
			return false;
		}
	s->n = first[n];
	s->ngeoms += (uint32_t) n;
	gx_free(first);
	return true;
}

bool
gx_batch_side_of_boxes(GxBatchSide *s, const GxBox3D *boxes, size_t n, GxError *err)
{
	if (!grow(s, n, true, err))
		return false;
	for (size_t i = 0; i < n; i++)
	{
		double	   *c = s->coords + 9 * s->n;

		memcpy(c, &boxes[i], sizeof(GxBox3D));
		memcpy(c + 6, c + 3, 3 * sizeof(double));
		s->kind[s->n] = 2;
		s->geom[s->n] = s->ngeoms;
		if (s->n == 0)
			s->extent = boxes[i];
		else
			gx_box_extend(&s->extent, &boxes[i]);
		s->n++;
		s->ngeoms++;
	}
	return true;
}

void
gx_batch_side_boxes(const GxBatchSide *s, GxBox3D *out)
{
	for (size_t i = 0; i < s->n; i++)
		memcpy(&out[i], s->coords + 9 * i, sizeof(GxBox3D));
}

void
gx_batch_side_free(GxBatchSide *s)
{
	gx_free(s->coords);
	gx_free(s->kind);
	gx_free(s->geom);
	gx_free(s->solid);
	gx_side_index_free(s);
	gx_batch_side_init(s);
}

GxBox3D
gx_batch_elem_box(const GxBatchSide *s, size_t i)
{
	GxElem		e = {s->coords + 9 * i, s->kind[i]};

	return gx_elem_box(e);
}

GxBox3D
gx_batch_elem_box_grown(const GxBatchSide *s, size_t i, double grow)
{
	GxBox3D		box = gx_batch_elem_box(s, i);

	return gx_box_expand(&box, grow);
}

/*
 * Every element of a small side, else runs of SAMPLE_RUN consecutive elements spread evenly over it. A run
 * reads memory in order, where single elements far apart would each miss the caches: 1.4-1.6 ms for a side
 * of 920 000 triangles on a 2-core VM, against about 0.1 ms for the runs.
 */
#define SAMPLE_RUN 16
_Static_assert(GX_SIDE_SAMPLE >= 2 * SAMPLE_RUN, "at least two runs");

size_t
gx_batch_side_sample(const GxBatchSide *s, double grow, GxBox3D *out)
{
	size_t		runs = GX_SIDE_SAMPLE / SAMPLE_RUN,
				n = 0;

	if (s->n <= GX_SIDE_SAMPLE)
	{
		for (size_t i = 0; i < s->n; i++)
			out[n++] = gx_batch_elem_box_grown(s, i, grow);
		return n;
	}
	for (size_t r = 0; r < runs; r++)
	{
		size_t		first = r * (s->n - SAMPLE_RUN) / (runs - 1);

		for (size_t k = 0; k < SAMPLE_RUN; k++)
			out[n++] = gx_batch_elem_box_grown(s, first + k, grow);
	}
	return n;
}

bool
gx_batch_elems_within(const GxBatchSide *a, size_t i, const GxBatchSide *b, size_t j, double d)
{
	GxElem		ea = {a->coords + 9 * i, a->kind[i]},
				eb = {b->coords + 9 * j, b->kind[j]};

	return gx_elem_dwithin(ea, eb, d);
}

bool
gx_batch_elems_intersect(const GxBatchSide *a, size_t i, const GxBatchSide *b, size_t j)
{
	return gx_elements_intersect(a->coords + 9 * i, a->kind[i], b->coords + 9 * j, b->kind[j]);
}
