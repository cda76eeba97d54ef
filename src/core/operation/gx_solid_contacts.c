/*
 * gx_solid_contacts.c: step 4 of gx_makesolid: no two triangles of a closed surface meet other than along
 * the edge or at the vertices they share (gx_solid_contacts.h).
 *
 * Which pairs may not meet, and how each is tested (pair_allowed): one common vertex - neither edge
 * opposite it meets the other triangle (if the two met elsewhere, the ray from the common vertex through
 * such a point leaves one of them through its opposite edge inside the other); a common edge - the third
 * vertices are not coplanar on the same side; none - no contact at all.
 *
 * On the CPU no pair of triangles is enumerated beyond the two of each edge: a pair sharing at most one
 * vertex meets where it may not exactly when an edge of one of them, neither of whose ends is a vertex of
 * the other, meets the other (two triangles that meet have an edge of one meeting the other, and with a
 * common vertex the ray argument above gives an opposite edge). So every edge is looked up in a hierarchy of
 * boxes over the triangles (triangles in Morton order, LEAF to a leaf, a complete binary tree above them),
 * with a test of the segment against each box that leaves out only boxes it surely misses, and skipping
 * every box whose triangles all share one of the edge's ends: where many triangles fan out from one vertex
 * (a cone's apex) their boxes all overlap, but the edges from that vertex skip them as a whole, and the
 * others reach only the triangles they pass near. Where a box holds an end of the edge (no box test can
 * part them: a flat base's spokes against the apex's fan, whose boxes all hold the base's centre), the
 * node's slab does: the interval of d . x over its triangles' vertices, d the normal of its middle triangle,
 * widened by the rounding; a segment wholly on one side of it meets none of them. The pairs found are the same as when every pair of
 * overlapping boxes is tested, so the first in index order is too. Pairs of triangles the caller vouches for
 * (kept) are not tested: none of them is at fault, so the first pair at fault is the same.
 */
#include <math.h>
#include <string.h>

#include "algorithm/gx_predicates.h"
#include "algorithm/gx_primitives.h"
#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "geom/gx_box.h"
#include "index/gx_grid.h"
#include "operation/gx_solid_contacts.h"

#define V(tri, t, k)	((tri) + 9 * (size_t) (t) + 3 * (k))
#define LEAF 8
#define NO_VERTEX UINT32_MAX
#define GRID_ENTRIES 16			/* the grid's entries per triangle, at most */
#define GRID_PAIRS 256			/* pairs in the grid's cells per triangle, at most */

/* Step 4 for one pair: true when triangles i and j meet only where they share vertices and an edge. */
static bool
pair_allowed(const double *tri, const uint32_t *vid, uint32_t i, uint32_t j)
{
	int			shared = 0,
				si[3],
				sj[3];

	for (int p = 0; p < 3; p++)
		for (int q = 0; q < 3; q++)
			if (vid[3 * i + p] == vid[3 * j + q])
			{
				si[shared] = p;
				sj[shared] = q;
				shared++;
			}
	if (shared == 0)
		return !gx_elements_intersect(V(tri, i, 0), 3, V(tri, j, 0), 3);
	if (shared == 3)
		return false;
	if (shared == 1)
	{
		int			p = si[0],
					q = sj[0];
		double		ei[6],
					ej[6];

		/* the edges opposite the common vertex */
		memcpy(ei, V(tri, i, (p + 1) % 3), 3 * sizeof(double));
		memcpy(ei + 3, V(tri, i, (p + 2) % 3), 3 * sizeof(double));
		memcpy(ej, V(tri, j, (q + 1) % 3), 3 * sizeof(double));
		memcpy(ej + 3, V(tri, j, (q + 2) % 3), 3 * sizeof(double));
		return !gx_elements_intersect(ei, 2, V(tri, j, 0), 3) && !gx_elements_intersect(ej, 2, V(tri, i, 0), 3);
	}
	else
	{
		const double *u = V(tri, i, si[0]),
				   *w = V(tri, i, si[1]),
				   *ti = V(tri, i, 3 - si[0] - si[1]),
				   *tj = V(tri, j, 3 - sj[0] - sj[1]);

		if (gx_orient3d(u, w, ti, tj) != 0)
			return true;
		for (int drop = 0; drop < 3; drop++)
		{
			int			a = gx_orient2d(u, w, ti, drop);

			if (a != 0)
				return a != gx_orient2d(u, w, tj, drop);
		}
		return false;
	}
}

static uint64_t
pair_key(uint32_t i, uint32_t j)
{
	return i < j ? ((uint64_t) i << 32) | j : ((uint64_t) j << 32) | i;
}

/* The message for triangles i and j meeting where they should not. */
static void
crossing_error(const double *tri, uint64_t key, GxError *err)
{
	uint32_t	i = (uint32_t) (key >> 32),
				j = (uint32_t) key;
	char		b[6][100];

	gx_error_set(err, GX_ERR_INVALID,
				 "not the surface of a volume: triangles %u and %u meet other than along a shared edge or vertex: "
				 "%s %s %s and %s %s %s", i + 1, j + 1, gx_solid_point_text(b[0], V(tri, i, 0)),
				 gx_solid_point_text(b[1], V(tri, i, 1)), gx_solid_point_text(b[2], V(tri, i, 2)),
				 gx_solid_point_text(b[3], V(tri, j, 0)), gx_solid_point_text(b[4], V(tri, j, 1)),
				 gx_solid_point_text(b[5], V(tri, j, 2)));
}

/*
 * Step 4 through the batch engine (the GPU's when opt has one): every pair sharing a point, then the
 * first pair (in index order) that may not. false with err set.
 */
static bool
contacts_batch(const double *tri, size_t n, const uint32_t *vid, const uint8_t *kept, const GxBatchOptions *opt,
			   GxError *err)
{
	GxBatchSide side;
	GxBatchOptions o = *opt;
	GxBatchStats st;
	GxPairs		pairs = {NULL, 0, NULL, 0};
	uint32_t   *geom = gx_alloc(n * sizeof(uint32_t));
	uint8_t    *kind = gx_alloc(n);
	size_t		first = SIZE_MAX;
	bool		ok;
	int			threads;

	if (!geom || !kind)
	{
		gx_free(geom);
		gx_free(kind);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory checking a solid of %zu triangles", n);
		return false;
	}
	gx_batch_side_init(&side);
	for (size_t i = 0; i < n; i++)
		geom[i] = (uint32_t) i;
	memset(kind, 3, n);
	side.n = side.cap = n;
	side.coords = (double *) tri;
	side.kind = kind;
	side.geom = geom;
	side.ngeoms = (uint32_t) n;
	side.extent = gx_box_of_points(tri, 3 * n);
	o.ignore_srid = true;
	ok = gx_batch_intersect(&side, &side, &o, &pairs, &st, err);
	gx_free(geom);
	gx_free(kind);
	if (!ok)
		return false;
	threads = gx_threads_begin(opt->threads, opt->thread_budget);
	#pragma omp parallel for schedule(dynamic, 4096) reduction(min:first) num_threads(threads)
	for (size_t k = 0; k < pairs.n; k++)
	{
		uint32_t	i = (uint32_t) (pairs.keys[k] >> 32),
					j = (uint32_t) pairs.keys[k];

		if (i < j && k < first && !(kept && kept[i] && kept[j]) && !pair_allowed(tri, vid, i, j))
			first = k;
	}
	gx_threads_end();
	if (first != SIZE_MAX)
		crossing_error(tri, pairs.keys[first], err);
	gx_free(pairs.keys);
	return first == SIZE_MAX;
}

/*
 * Step 4 on the CPU where the triangles' boxes are small and spread out (most meshes): a grid over the
 * boxes; each pair of overlapping boxes is looked at once, in its reference cell: the cell of the larger of
 * their lower corners, found from each box's first cell (cell coordinates are monotone in the coordinates).
 * Pairs sharing a vertex need no intersection test of their own, only pair_allowed's tests, which
 * floating-point filters mostly settle: cheaper than the batch engine, to which every touching pair is an
 * exact decision. 1 when no pair meets where it may not, 0 with err set, -1 (nothing done) when the boxes
 * crowd: more than GRID_ENTRIES entries of the grid, or GRID_PAIRS pairs in its cells, per triangle (at
 * 2.4 us a triangle, the tree is then the faster; the grid takes 1.2 us for a million-triangle ore body).
 */
static int
contacts_grid(const double *tri, size_t n, const uint32_t *vid, const uint8_t *kept, const GxBatchOptions *opt,
			  GxError *err)
{
	GxBox3D    *boxes = gx_alloc(n * sizeof(GxBox3D)),
				extent = gx_box_of_points(tri, 3 * n);
	int		   (*first_cell)[3] = gx_alloc(n * sizeof(*first_cell));
	GxGrid		grid;
	int			dim[3],
				threads;
	uint64_t	first = UINT64_MAX;
	size_t		ncells,
				entries = 0;
	double		pairs = 0;
	volatile int stop = 0;

	if (!boxes || !first_cell)
	{
		gx_free(boxes);
		gx_free(first_cell);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory checking a solid of %zu triangles", n);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		boxes[i] = gx_box_of_points(V(tri, i, 0), 3);
	gx_grid_choose_dims(&extent, (double) n, dim);
	/* the grid's entries, counted before it is made (gx_grid_range needs only its box and scale) */
	gx_grid_frame(&grid, &extent, dim);
	for (size_t i = 0; i < n && entries <= GRID_ENTRIES * n; i++)
	{
		int			hi[3];

		gx_grid_range(&grid, &boxes[i], first_cell[i], hi);
		entries += (size_t) (hi[0] - first_cell[i][0] + 1) * (hi[1] - first_cell[i][1] + 1) *
			(hi[2] - first_cell[i][2] + 1);
	}
	if (entries > GRID_ENTRIES * n)
	{
		gx_free(boxes);
		gx_free(first_cell);
		return -1;
	}
	if (!gx_grid_build(&grid, &extent, dim, boxes, n, &opt->cancel, err))
	{
		gx_free(boxes);
		gx_free(first_cell);
		return 0;
	}
	ncells = (size_t) dim[0] * dim[1] * dim[2];
	for (size_t c = 0; c < ncells; c++)
		pairs += 0.5 * (double) (grid.start[c + 1] - grid.start[c]) * (double) (grid.start[c + 1] - grid.start[c]);
	if (pairs > GRID_PAIRS * (double) n)
	{
		gx_grid_free(&grid);
		gx_free(boxes);
		gx_free(first_cell);
		return -1;
	}
	threads = gx_threads_begin(opt->threads, opt->thread_budget);
	#pragma omp parallel for schedule(dynamic, 64) reduction(min:first) num_threads(threads) if (n > 2048)
	for (size_t c = 0; c < ncells; c++)
	{
		int			cell[3] = {(int) (c % dim[0]), (int) ((c / dim[0]) % dim[1]), (int) (c / ((size_t) dim[0] * dim[1]))};

		if (stop || ((c & 255) == 0 && gx_cancel_requested(&opt->cancel) && (stop = 1)))
			continue;
		for (size_t p = grid.start[c]; p < grid.start[c + 1]; p++)
		{
			uint32_t	i = grid.items[p];
			const int  *fi = first_cell[i];

			for (size_t q = p + 1; q < grid.start[c + 1]; q++)
			{
				uint32_t	j = grid.items[q],
							lo = i < j ? i : j,
							hi = i < j ? j : i;
				const int  *fj = first_cell[j];
				uint64_t	key = ((uint64_t) lo << 32) | hi;

				if (key < first && !(kept && kept[i] && kept[j]) && (fi[0] > fj[0] ? fi[0] : fj[0]) == cell[0] &&
					(fi[1] > fj[1] ? fi[1] : fj[1]) == cell[1] && (fi[2] > fj[2] ? fi[2] : fj[2]) == cell[2] &&
					gx_box_overlaps(&boxes[i], &boxes[j]) && !pair_allowed(tri, vid, lo, hi))
					first = key;
			}
		}
	}
	gx_threads_end();
	gx_grid_free(&grid);
	gx_free(boxes);
	gx_free(first_cell);
	if (stop)
	{
		gx_error_set(err, GX_ERR_CANCELLED, "cancelled while checking a solid");
		return 0;
	}
	if (first != UINT64_MAX)
		crossing_error(tri, first, err);
	return first == UINT64_MAX;
}

/* The hierarchy: node 1 the root, node i's children 2i and 2i + 1, leaf l node leaves + l (a power of 2). */
typedef struct Tree
{
	uint32_t   *order;			/* the triangles in Morton order of their boxes' centres */
	GxBox3D    *box;			/* per node; empty past the last leaf */
	uint32_t   *common;			/* per node: a vertex every triangle under it has, or NO_VERTEX */
	uint32_t   *least;			/* per node: the least triangle under it (UINT32_MAX: none) */
	double	   *slab;			/* per node: a direction d (3) and bounds lo, hi of d . x over its vertices */
	size_t		leaves,
				n;
	double		scale;			/* the largest magnitude of a coordinate; cross tests only in a safe range */
} Tree;

typedef struct MortonItem
{
	uint64_t	code;
	uint32_t	t;
} MortonItem;

/* 21 bits spread to every third bit of 63. */
static uint64_t
spread(uint64_t v)
{
	v &= 0x1FFFFF;
	v = (v | v << 32) & 0x1F00000000FFFFu;
	v = (v | v << 16) & 0x1F0000FF0000FFu;
	v = (v | v << 8) & 0x100F00F00F00F00Fu;
	v = (v | v << 4) & 0x10C30C30C30C30C3u;
	v = (v | v << 2) & 0x1249249249249249u;
	return v;
}

static uint64_t
morton(const GxBox3D *extent, const double *t)
{
	const double lo[3] = {extent->xmin, extent->ymin, extent->zmin},
				hi[3] = {extent->xmax, extent->ymax, extent->zmax};
	uint64_t	code = 0;

	for (int k = 0; k < 3; k++)
	{
		double		a = fmin(fmin(t[k], t[3 + k]), t[6 + k]),
					b = fmax(fmax(t[k], t[3 + k]), t[6 + k]),
					f = (a * 0.5 + b * 0.5 - lo[k]) / (hi[k] - lo[k]) * 2097151.0;

		code |= spread(f > 0 && f < 2097152.0 ? (uint64_t) f : f >= 2097152.0 ? 2097151 : 0) << k;
	}
	return code;
}

static void
box_join(GxBox3D *d, const GxBox3D *a, const GxBox3D *b)
{
	d->xmin = fmin(a->xmin, b->xmin);
	d->ymin = fmin(a->ymin, b->ymin);
	d->zmin = fmin(a->zmin, b->zmin);
	d->xmax = fmax(a->xmax, b->xmax);
	d->ymax = fmax(a->ymax, b->ymax);
	d->zmax = fmax(a->zmax, b->zmax);
}

/* A vertex of triangle t that each of the triangles at ts[0..k) has too, or NO_VERTEX. */
static uint32_t
common_vertex(const uint32_t *vid, const uint32_t *ts, size_t k)
{
	for (int c = 0; c < 3; c++)
	{
		uint32_t	v = vid[3 * (size_t) ts[0] + c];
		size_t		i = 1;

		while (i < k && (vid[3 * (size_t) ts[i]] == v || vid[3 * (size_t) ts[i] + 1] == v ||
						 vid[3 * (size_t) ts[i] + 2] == v))
			i++;
		if (i == k)
			return v;
	}
	return NO_VERTEX;
}

/*
 * d . x for direction d (components at most 1 in magnitude) and a point x, and a bound on its rounding error
 * (the terms' magnitudes times more than 3 units in the last place, and underflow).
 */
static double
dot_err(const double *d, const double *x, double *err)
{
	*err = (fabs(d[0] * x[0]) + fabs(d[1] * x[1]) + fabs(d[2] * x[2])) * 1e-15 + 1e-300;
	return d[0] * x[0] + d[1] * x[1] + d[2] * x[2];
}

/*
 * Node i's slab: the normal of its middle triangle scaled to components of at most 1 in magnitude, and the
 * interval of d . x over its triangles' vertices, widened by the rounding of each; the whole line (never
 * parting anything) when that triangle is flat in doubles.
 */
static void
node_slab(Tree *tr, const double *tri, size_t i)
{
	double	   *sl = tr->slab + 5 * i,
				e[2][3],
				m = 0;
	size_t		lo = i,
				hi = i,
				from,
				to;
	const double *t;

	while (lo < tr->leaves)
	{
		lo = 2 * lo;
		hi = 2 * hi + 1;
	}
	from = (lo - tr->leaves) * LEAF;
	to = (hi - tr->leaves + 1) * LEAF < tr->n ? (hi - tr->leaves + 1) * LEAF : tr->n;
	sl[0] = sl[1] = sl[2] = 0;
	sl[3] = -INFINITY;
	sl[4] = INFINITY;
	if (from >= to || !(tr->scale < 1e150))
		return;					/* nothing under it, or coordinates whose products could overflow */
	t = V(tri, tr->order[from + (to - from) / 2], 0);
	for (int k = 0; k < 3; k++)
	{
		e[0][k] = t[3 + k] - t[k];
		e[1][k] = t[6 + k] - t[k];
	}
	for (int k = 0; k < 3; k++)
	{
		sl[k] = e[0][(k + 1) % 3] * e[1][(k + 2) % 3] - e[0][(k + 2) % 3] * e[1][(k + 1) % 3];
		m = fmax(m, fabs(sl[k]));
	}
	if (!(m > 0 && m < INFINITY))
		return;
	for (int k = 0; k < 3; k++)
		sl[k] /= m;
	sl[3] = INFINITY;
	sl[4] = -INFINITY;
	for (size_t q = from; q < to; q++)
		for (int v = 0; v < 3; v++)
		{
			double		err,
						x = dot_err(sl, V(tri, tr->order[q], v), &err);

			sl[3] = fmin(sl[3], x - err);
			sl[4] = fmax(sl[4], x + err);
		}
}

/* Does box b hold point p? */
static bool
holds(const GxBox3D *b, const double *p)
{
	return p[0] >= b->xmin && p[0] <= b->xmax && p[1] >= b->ymin && p[1] <= b->ymax && p[2] >= b->zmin &&
		p[2] <= b->zmax;
}

/* Does node i's slab leave segment p-q wholly on one side (then no triangle under it meets the segment)? */
static bool
slab_parts(const Tree *tr, size_t i, const double *p, const double *q)
{
	const double *sl = tr->slab + 5 * i;
	double		ep,
				eq,
				xp = dot_err(sl, p, &ep),
				xq = dot_err(sl, q, &eq);

	return (xp + ep < sl[3] && xq + eq < sl[3]) || (xp - ep > sl[4] && xq - eq > sl[4]);
}

/* The hierarchy over the n triangles; false for memory. */
static bool
tree_build(Tree *tr, const double *tri, size_t n, const uint32_t *vid, int threads)
{
	GxBox3D		extent = gx_box_of_points(tri, 3 * n);
	size_t		leaves = 1,
				nleaves = (n + LEAF - 1) / LEAF;
	MortonItem *item = gx_alloc(n * sizeof(MortonItem)),
			   *tmp = gx_alloc(n * sizeof(MortonItem));
	size_t	   *count = gx_alloc(65537 * sizeof(size_t));
	bool		ok;

	while (leaves < nleaves)
		leaves *= 2;
	tr->leaves = leaves;
	tr->n = n;
	tr->order = gx_alloc(n * sizeof(uint32_t));
	tr->box = gx_alloc(2 * leaves * sizeof(GxBox3D));
	tr->common = gx_alloc(2 * leaves * sizeof(uint32_t));
	tr->least = gx_alloc(2 * leaves * sizeof(uint32_t));
	tr->slab = gx_alloc(2 * leaves * 5 * sizeof(double));
	tr->scale = fmax(fmax(fmax(fabs(extent.xmin), fabs(extent.xmax)), fmax(fabs(extent.ymin), fabs(extent.ymax))),
					 fmax(fabs(extent.zmin), fabs(extent.zmax)));
	ok = item && tmp && count && tr->order && tr->box && tr->common && tr->least && tr->slab;
	if (ok)
	{
		#pragma omp parallel for schedule(static) num_threads(threads) if (n > 65536)
		for (size_t t = 0; t < n; t++)
			item[t] = (MortonItem) {morton(&extent, V(tri, t, 0)), (uint32_t) t};
		/* a stable radix sort of the 63-bit codes, 16 bits at a time */
		for (int sh = 0; sh < 64; sh += 16)
		{
			memset(count, 0, 65537 * sizeof(size_t));
			for (size_t i = 0; i < n; i++)
				count[((item[i].code >> sh) & 0xFFFF) + 1]++;
			for (size_t d = 0; d < 65536; d++)
				count[d + 1] += count[d];
			for (size_t i = 0; i < n; i++)
				tmp[count[(item[i].code >> sh) & 0xFFFF]++] = item[i];
			memcpy(item, tmp, n * sizeof(MortonItem));
		}
		for (size_t i = 0; i < n; i++)
			tr->order[i] = item[i].t;
		#pragma omp parallel for schedule(static) num_threads(threads) if (n > 65536)
		for (size_t l = 0; l < leaves; l++)
		{
			GxBox3D    *b = &tr->box[leaves + l];
			size_t		from = l * LEAF,
						to = from + LEAF < n ? from + LEAF : n;

			gx_box_set_empty(b);
			tr->common[leaves + l] = NO_VERTEX;
			tr->least[leaves + l] = UINT32_MAX;
			if (from >= n)
				continue;
			for (size_t i = from; i < to; i++)
			{
				GxBox3D		tb = gx_box_of_points(V(tri, tr->order[i], 0), 3);

				box_join(b, b, &tb);
				if (tr->order[i] < tr->least[leaves + l])
					tr->least[leaves + l] = tr->order[i];
			}
			tr->common[leaves + l] = common_vertex(vid, tr->order + from, to - from);
		}
		for (size_t i = leaves - 1; i >= 1; i--)
		{
			const GxBox3D *a = &tr->box[2 * i],
					   *b = &tr->box[2 * i + 1];

			box_join(&tr->box[i], a, b);
			tr->least[i] = tr->least[2 * i] < tr->least[2 * i + 1] ? tr->least[2 * i] : tr->least[2 * i + 1];
			tr->common[i] = gx_box_is_empty(b) ? tr->common[2 * i] :
				tr->common[2 * i] == tr->common[2 * i + 1] ? tr->common[2 * i] : NO_VERTEX;
		}
		#pragma omp parallel for schedule(dynamic, 256) num_threads(threads) if (n > 65536)
		for (size_t i = 1; i < 2 * leaves; i++)
			node_slab(tr, tri, i);
	}
	gx_free(item);
	gx_free(tmp);
	gx_free(count);
	return ok;
}

static void
tree_free(Tree *tr)
{
	gx_free(tr->order);
	gx_free(tr->box);
	gx_free(tr->common);
	gx_free(tr->least);
	gx_free(tr->slab);
}

static bool
box_inside(const GxBox3D *a, const GxBox3D *b)
{
	return a->xmin >= b->xmin && a->ymin >= b->ymin && a->zmin >= b->zmin && a->xmax <= b->xmax &&
		a->ymax <= b->ymax && a->zmax <= b->zmax;
}

/*
 * Does segment p-q, whose box overlaps box b, meet b? false only when it surely does not: one of the three
 * axes across the segment's direction separates them by more than the rounding of the test
 * could make up (2^-40 of the magnitudes involved; products of coordinates kept far from overflow and
 * underflow by the caller, else only the boxes are compared).
 */
static bool
segment_meets_box(const double *p, const double *q, const GxBox3D *b, bool cross, double scale)
{
	const double tol = 9.094947017729282e-13;	/* 2^-40 */
	double		c[3],
				h[3],
				m[3],
				d[3];

	if (!cross)
		return true;
	c[0] = b->xmin * 0.5 + b->xmax * 0.5;
	c[1] = b->ymin * 0.5 + b->ymax * 0.5;
	c[2] = b->zmin * 0.5 + b->zmax * 0.5;
	h[0] = b->xmax * 0.5 - b->xmin * 0.5;
	h[1] = b->ymax * 0.5 - b->ymin * 0.5;
	h[2] = b->zmax * 0.5 - b->zmin * 0.5;
	for (int k = 0; k < 3; k++)
	{
		m[k] = p[k] * 0.5 + q[k] * 0.5 - c[k];
		d[k] = q[k] - p[k];
	}
	for (int k = 0; k < 3; k++)
	{
		int			i = (k + 1) % 3,
					j = (k + 2) % 3;
		double		a = m[i] * d[j],
					e = m[j] * d[i],
					r = h[i] * fabs(d[j]) + h[j] * fabs(d[i]);

		/* the axis e_k x d: the segment's centre's projection against the box's radius */
		if (fabs(a - e) > r + tol * (fabs(a) + fabs(e) + r + 4 * scale * (fabs(d[i]) + fabs(d[j]))) + 1e-300)
			return false;
	}
	return true;
}

/* An edge looked up: its ends (vertex ids u, w; points seg), its box, its two triangles t < o. */
typedef struct Edge
{
	uint32_t	t,
				o,
				u,
				w;
	double		seg[6];
	GxBox3D		box;
} Edge;

/*
 * The edges ed[0..ne) (a leaf's, at most 3 LEAF) against the tree at once, each only where its own tests let
 * it go: the least key of a pair (t or o of an edge, j) whose triangle j has neither end of the edge and
 * meets it, when less than best; else best.
 */
static uint64_t
edge_contacts(const Tree *tr, const double *tri, const uint32_t *vid, const uint8_t *kept, const Edge *ed, int ne,
			  uint64_t best)
{
	struct
	{
		size_t		node;
		uint32_t	mask;
	}			stack[2 * 64];
	size_t		top = 0;
	GxBox3D		all = ed[0].box;
	bool		cross = tr->scale > 1e-140 && tr->scale < 1e150;

	for (int e = 1; e < ne; e++)
		box_join(&all, &all, &ed[e].box);
	stack[top].node = 1;
	stack[top++].mask = (UINT32_C(1) << ne) - 1;
	while (top > 0)
	{
		size_t		node = stack[--top].node;
		uint32_t	mask = stack[top].mask,
					keep = 0;
		const GxBox3D *b = &tr->box[node];

		if (!gx_box_overlaps(&all, b))
			continue;
		for (uint32_t bits = mask; bits != 0; bits &= bits - 1)
		{
			const Edge *x = &ed[__builtin_ctz(bits)];

			/* a pair (t or o, j) below best needs t or j at most best's first triangle (t < o) */
			if ((x->t <= (best >> 32) || tr->least[node] <= (best >> 32)) &&
				gx_box_overlaps(&x->box, b) && tr->common[node] != x->u && tr->common[node] != x->w &&
				(box_inside(&x->box, b) || segment_meets_box(x->seg, x->seg + 3, b, cross, tr->scale)) &&
				(!(holds(b, x->seg) || holds(b, x->seg + 3)) || !slab_parts(tr, node, x->seg, x->seg + 3)))
				keep |= bits & -bits;
		}
		if (keep == 0)
			continue;
		if (node < tr->leaves)
		{
			stack[top].node = 2 * node + 1;
			stack[top++].mask = keep;
			stack[top].node = 2 * node;
			stack[top++].mask = keep;
			continue;
		}
		for (size_t i = (node - tr->leaves) * LEAF; i < (node - tr->leaves + 1) * LEAF && i < tr->n; i++)
		{
			uint32_t	j = tr->order[i];
			const uint32_t *vj = vid + 3 * (size_t) j;
			GxBox3D		tb = gx_box_of_points(V(tri, j, 0), 3);

			if (!gx_box_overlaps(&all, &tb))
				continue;
			for (uint32_t bits = keep; bits != 0; bits &= bits - 1)
			{
				const Edge *x = &ed[__builtin_ctz(bits)];
				uint64_t	key = pair_key(x->t, j) < pair_key(x->o, j) ? pair_key(x->t, j) : pair_key(x->o, j);

				/* an edge of a kept triangle meets a kept one only where it may */
				if (kept && kept[j] && (kept[x->t] || kept[x->o]))
					continue;
				if (gx_box_overlaps(&x->box, &tb) && key < best && vj[0] != x->u && vj[1] != x->u &&
					vj[2] != x->u && vj[0] != x->w && vj[1] != x->w && vj[2] != x->w &&
					gx_elements_intersect(x->seg, 2, V(tri, j, 0), 3))
					best = key;
			}
		}
	}
	return best;
}

/*
 * Step 4 on the CPU: each edge's two triangles, then each edge against the tree (see the top), the edges
 * of a leaf's triangles together.
 */
static bool
contacts_tree(const double *tri, size_t n, const uint32_t *vid, const uint32_t *nb, const uint8_t *kept,
			  const GxBatchOptions *opt, GxError *err)
{
	Tree		tr = {NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
	uint64_t	best = UINT64_MAX;
	volatile int stop = 0;
	int			threads = gx_threads_begin(opt->threads, opt->thread_budget);
	size_t		nleaves = (n + LEAF - 1) / LEAF;

	if (!tree_build(&tr, tri, n, vid, threads))
	{
		gx_threads_end();
		tree_free(&tr);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory checking a solid of %zu triangles", n);
		return false;
	}
	#pragma omp parallel for schedule(dynamic, 64) reduction(min:best) num_threads(threads) if (n > 2048)
	for (size_t l = 0; l < nleaves; l++)
	{
		Edge		ed[3 * LEAF];
		int			ne = 0;

		if (stop || ((l & 63) == 0 && gx_cancel_requested(&opt->cancel) && (stop = 1)))
			continue;
		for (size_t i = l * LEAF; i < (l + 1) * LEAF && i < n; i++)
		{
			uint32_t	t = tr.order[i];

			for (int k = 0; k < 3; k++)
			{
				Edge	   *x = &ed[ne];

				x->t = t;
				x->o = nb[3 * (size_t) t + k];
				if (x->t > x->o)
					continue;
				if (pair_key(x->t, x->o) < best && !(kept && kept[x->t] && kept[x->o]) &&
					!pair_allowed(tri, vid, x->t, x->o))
					best = pair_key(x->t, x->o);
				x->u = vid[3 * (size_t) t + k];
				x->w = vid[3 * (size_t) t + (k + 1) % 3];
				memcpy(x->seg, V(tri, t, k), 3 * sizeof(double));
				memcpy(x->seg + 3, V(tri, t, (k + 1) % 3), 3 * sizeof(double));
				x->box = gx_box_of_points(x->seg, 2);
				ne++;
			}
		}
		if (ne > 0)
			best = edge_contacts(&tr, tri, vid, kept, ed, ne, best);
	}
	gx_threads_end();
	tree_free(&tr);
	if (stop)
	{
		gx_error_set(err, GX_ERR_CANCELLED, "cancelled while checking a solid");
		return false;
	}
	if (best != UINT64_MAX)
		crossing_error(tri, best, err);
	return best == UINT64_MAX;
}

bool
gx_solid_contacts(const double *tri, size_t n, const uint32_t *vid, const uint32_t *nb, const uint8_t *kept,
				  const GxBatchOptions *opt, GxError *err)
{
	int			grid;

	if (opt->device == GX_DEVICE_GPU)
		return contacts_batch(tri, n, vid, kept, opt, err);
	grid = contacts_grid(tri, n, vid, kept, opt, err);
	return grid < 0 ? contacts_tree(tri, n, vid, nb, kept, opt, err) : grid == 1;
}
