/*
 * gx_solid_make.c: gx_makesolid's check that triangles bound a volume, and their orientation (gx_solid.h).
 *
 *   1. a triangle with a repeated vertex (zero area, as at the poles of many meshes) is dropped when it
 *      lies along an edge (or at a vertex) of the rest; any other degenerate triangle (three distinct
 *      collinear vertices: every 2D projection has a zero orientation) is refused;
 *   2. vertices identified by their exact coordinates (a hash table); every edge shared by exactly two
 *      triangles (the edges radix-sorted by their vertex ids);
 *   3. orientation propagated across edges (neighbours traverse their edge in opposite directions): the
 *      connected components are the shells, and one that cannot be oriented is not a surface of a volume;
 *   4. no two triangles meeting other than along their common edge or at common vertices
 *      (gx_solid_contacts.c: a grid over their boxes, or a hierarchy of boxes looked up by every edge where
 *      the boxes crowd, as around a cone's apex; or the batch engine's self-join on the GPU);
 *   5. each shell's orientation from the exact sign of its signed volume, and its depth (how many other
 *      shells enclose it) by point location: shells at even depth face outward, cavities inward.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_projection.h"
#include "base/gx_alloc.h"
#include "base/gx_format.h"
#include "base/gx_threads.h"
#include "batch/gx_batch.h"
#include "geom/gx_box.h"
#include "operation/gx_solid_contacts.h"
#include "operation/gx_solid_make.h"

#define V(tri, t, k)	((tri) + 9 * (size_t) (t) + 3 * (k))

/*
 * The distinct vertices: an open-addressing table (linear probing, at most half full) of the first slot
 * (3 * triangle + corner) holding each point; ids in the order of first appearance.
 */
typedef struct VertexTable
{
	const double *tri;
	uint32_t   *first;			/* per table entry: the slot, or UINT32_MAX when empty */
	uint32_t   *id;				/* per table entry: the vertex id */
	size_t		mask;
} VertexTable;

typedef struct EdgeRef
{
	uint32_t	u,
				v;				/* vertex ids, u < v */
	uint32_t	slot;			/* 3 * triangle + the corner the edge starts from */
	uint8_t		forward;		/* the triangle goes u -> v */
} EdgeRef;

/* A hash of a point's coordinates that equal points share (-0 and 0 alike). */
static uint64_t
point_hash(const double *c)
{
	uint64_t	h = 0x9E3779B97F4A7C15u;

	for (int k = 0; k < 3; k++)
	{
		double		v = c[k] + 0.0;	/* -0 becomes +0 */
		uint64_t	bits;

		memcpy(&bits, &v, sizeof(bits));
		h = (h ^ bits) * 0xBF58476D1CE4E5B9u;
		h ^= h >> 31;
	}
	return h;
}

/* The table entry of point c: its own, or the empty one where it would go. */
static size_t
vertex_entry(const VertexTable *vt, const double *c)
{
	size_t		e = point_hash(c) & vt->mask;

	while (vt->first[e] != UINT32_MAX)
	{
		const double *p = vt->tri + 3 * (size_t) vt->first[e];

		if (p[0] == c[0] && p[1] == c[1] && p[2] == c[2])
			break;
		e = (e + 1) & vt->mask;
	}
	return e;
}

/* Fills the table with the 3n vertices of tri and gives each slot its vertex id; false for memory. */
static bool
vertex_table_build(VertexTable *vt, const double *tri, size_t n, uint32_t *vid)
{
	size_t		size = 16,
				ids = 0;

	while (size < 6 * n)
		size *= 2;
	vt->tri = tri;
	vt->mask = size - 1;
	vt->first = gx_alloc(size * sizeof(uint32_t));
	vt->id = gx_alloc(size * sizeof(uint32_t));
	if (!vt->first || !vt->id)
		return false;
	memset(vt->first, 0xFF, size * sizeof(uint32_t));
	for (size_t i = 0; i < 3 * n; i++)
	{
		size_t		e = vertex_entry(vt, tri + 3 * i);

		if (vt->first[e] == UINT32_MAX)
		{
			vt->first[e] = (uint32_t) i;
			vt->id[e] = (uint32_t) ids++;
		}
		vid[i] = vt->id[e];
	}
	return true;
}

/*
 * Sorts the edges by (u, v), ties in slot order: a stable radix sort of v then u, in digits of at most
 * 16 bits, as many as the largest id needs (so a small surface counts in few buckets). tmp holds as many
 * edges, count 65537 counters.
 */
static void
sort_edges(EdgeRef *er, EdgeRef *tmp, size_t *count, size_t ne, uint32_t max_id)
{
	int			bits = 1;

	while (bits < 32 && (max_id >> bits) != 0)
		bits++;
	for (int key = 0; key < 2; key++)
		for (int sh = 0; sh < bits; sh += 16)
		{
			int			width = bits - sh < 16 ? bits - sh : 16;
			uint32_t	mask = (1u << width) - 1;
			size_t		buckets = (size_t) 1 << width;

			memset(count, 0, (buckets + 1) * sizeof(size_t));
			for (size_t i = 0; i < ne; i++)
				count[(((key ? er[i].u : er[i].v) >> sh) & mask) + 1]++;
			for (size_t d = 0; d < buckets; d++)
				count[d + 1] += count[d];
			for (size_t i = 0; i < ne; i++)
				tmp[count[((key ? er[i].u : er[i].v) >> sh) & mask]++] = er[i];
			memcpy(er, tmp, ne * sizeof(EdgeRef));
		}
}

const char *
gx_solid_point_text(char *buf, const double *c)
{
	char		d[3][32];

	for (int k = 0; k < 3; k++)
		gx_format_double(c[k], d[k]);
	snprintf(buf, 100, "(%s %s %s)", d[0], d[1], d[2]);
	return buf;
}

/* Step 2 and 3: vertex ids, edge pairing, orientation flips and shells. */
typedef struct Topology
{
	uint32_t   *vid;			/* 3n vertex ids */
	uint8_t    *flip;			/* n: reverse this triangle */
	uint32_t   *shell;			/* n: its shell */
	uint32_t   *nb;				/* 3n: the other triangle of the edge from each corner */
	size_t		nshells;
} Topology;

/* A dropped triangle with a repeated vertex: its vertices and its number in the input. */
typedef struct Sliver
{
	double		v[9];
	size_t		number;
} Sliver;

static bool
same_point(const double *a, const double *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* The id of the vertex at c, or -1 when the surface has none there. */
static long
vertex_id(const VertexTable *vt, const double *c)
{
	size_t		e = vertex_entry(vt, c);

	return vt->first[e] == UINT32_MAX ? -1 : (long) vt->id[e];
}

/* Does the surface have the edge u-v (er sorted by vertex ids)? */
static bool
has_edge(const EdgeRef *er, size_t ne, uint32_t u, uint32_t v)
{
	size_t		lo = 0,
				hi = ne;

	if (u > v)
	{
		uint32_t	t = u;

		u = v;
		v = t;
	}
	while (lo < hi)
	{
		size_t		mid = (lo + hi) / 2;

		if (er[mid].u < u || (er[mid].u == u && er[mid].v < v))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ne && er[lo].u == u && er[lo].v == v;
}

/* Each dropped sliver lies along an edge, or at a vertex, of the surface. */
static bool
slivers_on_edges(const VertexTable *vt, const EdgeRef *er, size_t n, const Sliver *sl, size_t nsl, GxError *err)
{
	char		b[3][100];

	for (size_t k = 0; k < nsl; k++)
	{
		const double *p = sl[k].v,
				   *q = same_point(p, p + 3) ? p + 6 : p + 3;
		long		u = vertex_id(vt, p),
					w = vertex_id(vt, q);

		if (u < 0 || w < 0 || (u != w && !has_edge(er, 3 * n, (uint32_t) u, (uint32_t) w)))
		{
			gx_error_set(err, GX_ERR_INVALID, "not the surface of a volume: triangle %zu %s %s %s has a repeated "
						 "vertex and does not lie along an edge of the surface", sl[k].number + 1,
						 gx_solid_point_text(b[0], p), gx_solid_point_text(b[1], p + 3), gx_solid_point_text(b[2], p + 6));
			return false;
		}
	}
	return true;
}

static bool
topology(const double *tri, size_t n, const Sliver *sl, size_t nsl, Topology *tp, GxError *err)
{
	VertexTable vt = {tri, NULL, NULL, 0};
	EdgeRef    *er = gx_alloc(3 * n * sizeof(EdgeRef)),
			   *tmp = gx_alloc(3 * n * sizeof(EdgeRef));
	size_t	   *count = gx_alloc(65537 * sizeof(size_t));
	uint32_t   *nb = tp->nb = gx_alloc(3 * n * sizeof(uint32_t)),
			   *queue = gx_alloc(n * sizeof(uint32_t));
	uint8_t    *same = gx_alloc(3 * n);
	bool		ok = false;
	char		b1[100],
				b2[100];
	size_t		i;
	uint32_t	max_id = 0;

	tp->vid = gx_alloc(3 * n * sizeof(uint32_t));
	tp->flip = gx_alloc(n);
	tp->shell = gx_alloc(n * sizeof(uint32_t));
	tp->nshells = 0;
	if (!er || !tmp || !count || !nb || !queue || !same || !tp->vid || !tp->flip || !tp->shell ||
		!vertex_table_build(&vt, tri, n, tp->vid))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory checking a solid of %zu triangles", n);
		goto done;
	}
	for (i = 0; i < 3 * n; i++)
	{
		uint32_t	a = tp->vid[i],
					b = tp->vid[i % 3 == 2 ? i - 2 : i + 1];

		er[i] = (EdgeRef) {a < b ? a : b, a < b ? b : a, (uint32_t) i, a < b};
		max_id = a > max_id ? a : max_id;
	}
	sort_edges(er, tmp, count, 3 * n, max_id);
	for (i = 0; i < 3 * n;)
	{
		size_t		j = i;

		while (j < 3 * n && er[j].u == er[i].u && er[j].v == er[i].v)
			j++;
		if (j - i != 2)
		{
			const double *c = tri + 3 * er[i].slot,
					   *d = tri + 3 * (er[i].slot % 3 == 2 ? er[i].slot - 2 : er[i].slot + 1);

			gx_error_set(err, GX_ERR_INVALID, "not a closed surface: the edge %s-%s %s", gx_solid_point_text(b1, c), gx_solid_point_text(b2, d),
						 j - i == 1 ? "belongs to one triangle only (an open boundary)" :
						 "is shared by more than two triangles (a non-manifold edge)");
			goto done;
		}
		nb[er[i].slot] = er[i + 1].slot / 3;
		nb[er[i + 1].slot] = er[i].slot / 3;
		same[er[i].slot] = same[er[i + 1].slot] = er[i].forward == er[i + 1].forward;
		i = j;
	}
	if (!slivers_on_edges(&vt, er, n, sl, nsl, err))
		goto done;
	/* orientation spreads across edges, breadth first; each component is a shell */
	memset(tp->flip, 2, n);
	for (i = 0; i < n; i++)
	{
		size_t		head = 0,
					tail = 0;

		if (tp->flip[i] != 2)
			continue;
		tp->flip[i] = 0;
		tp->shell[i] = (uint32_t) tp->nshells;
		queue[tail++] = (uint32_t) i;
		while (head < tail)
		{
			uint32_t	t = queue[head++];

			for (int k = 0; k < 3; k++)
			{
				uint32_t	o = nb[3 * t + k];
				uint8_t		want = tp->flip[t] ^ same[3 * t + k];

				if (tp->flip[o] == 2)
				{
					tp->flip[o] = want;
					tp->shell[o] = (uint32_t) tp->nshells;
					queue[tail++] = o;
				}
				else if (tp->flip[o] != want)
				{
					gx_error_set(err, GX_ERR_INVALID,
								 "not the surface of a volume: it cannot be oriented consistently (a one-sided "
								 "surface) at the edge %s-%s", gx_solid_point_text(b1, V(tri, t, k)), gx_solid_point_text(b2, V(tri, t, (k + 1) % 3)));
					goto done;
				}
			}
		}
		tp->nshells++;
	}
	ok = true;
done:
	gx_free(vt.first);
	gx_free(vt.id);
	gx_free(er);
	gx_free(tmp);
	gx_free(count);
	gx_free(queue);
	gx_free(same);
	return ok;
}

/*
 * Sign of the signed volume of shell `shell` (its triangles flipped as tp says): the sign of the sum of
 * orient3d(a, b, c, o), positive when the triangles face outward. Summed in floating point with a bound
 * of its error (each term within 16 eps of its permanent, as Shewchuk's orient3d filter; the sum within
 * n eps of the sum of magnitudes; products that underflow are off by absolute amounts, which the bound
 * also holds); exactly when the bound does not separate the sum from zero.
 */
static int
volume_sign(const double *tri, size_t n, const Topology *tp, uint32_t shell, const double *o)
{
	const double eps = 1.1102230246251565e-16;
	double		sum = 0,
				magnitude = 0,
				bound = 0;
	size_t		count = 0;
	int			sign;
	mpq_t		acc,
				v;

	for (size_t t = 0; t < n; t++)
	{
		const double *a = V(tri, t, 0),
				   *b = V(tri, t, tp->flip[t] ? 2 : 1),
				   *c = V(tri, t, tp->flip[t] ? 1 : 2);
		double		ax = a[0] - o[0], ay = a[1] - o[1], az = a[2] - o[2],
					bx = b[0] - o[0], by = b[1] - o[1], bz = b[2] - o[2],
					cx = c[0] - o[0], cy = c[1] - o[1], cz = c[2] - o[2],
					det;

		if (tp->shell[t] != shell)
			continue;
		det = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
		bound += 16 * eps * (fabs(ax) * (fabs(by * cz) + fabs(bz * cy)) + fabs(ay) * (fabs(bz * cx) + fabs(bx * cz)) +
							 fabs(az) * (fabs(bx * cy) + fabs(by * cx)));
		/* a product that underflows is off by up to half the smallest subnormal, then scaled by a, b or c */
		bound += DBL_TRUE_MIN * (fabs(ax) + fabs(ay) + fabs(az) + 4);
		sum += det;
		magnitude += fabs(det);
		count++;
	}
	bound = 2 * (bound + (count + 2) * eps * magnitude);
	if (fabs(sum) > bound)
		return sum > 0 ? 1 : -1;
	mpq_inits(acc, v, NULL);
	for (size_t t = 0; t < n; t++)
		if (tp->shell[t] == shell)
		{
			gx_orient3d_value(V(tri, t, 0), V(tri, t, tp->flip[t] ? 2 : 1), V(tri, t, tp->flip[t] ? 1 : 2), o, v);
			mpq_add(acc, acc, v);
		}
	sign = mpq_sgn(acc);
	mpq_clears(acc, v, NULL);
	return sign;
}

/*
 * Step 5: how many other shells enclose each shell. One index over every triangle; from the midpoint of an
 * edge of shell s (on s, and on no other shell: shells meet only at shared vertices), one ray counts its
 * crossings with each other shell, and s lies inside those crossed an odd number of times. One ray per
 * shell, whatever their number.
 */
static bool
shell_depths(const double *tri, size_t n, const Topology *tp, const GxBatchOptions *opt, uint32_t *depth,
			 GxError *err)
{
	GxSolidIndex idx;
	size_t	   *first = gx_alloc(tp->nshells * sizeof(size_t));
	uint32_t   *counts = gx_alloc(tp->nshells * sizeof(uint32_t));
	bool		ok = first && counts;
	mpq_t		half;

	if (!ok)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory orienting a solid");
	for (size_t s = 0; ok && s < tp->nshells; s++)
	{
		first[s] = SIZE_MAX;
		depth[s] = 0;
	}
	for (size_t t = 0; ok && t < n; t++)
		if (first[tp->shell[t]] == SIZE_MAX)
			first[tp->shell[t]] = t;
	if (ok && tp->nshells > 1)
	{
		ok = gx_solid_index_build(&idx, tri, n, err);
		mpq_init(half);
		mpq_set_ui(half, 1, 2);
		for (size_t s = 0; ok && s < tp->nshells; s++)
		{
			if (gx_cancel_requested(&opt->cancel))
			{
				gx_error_set(err, GX_ERR_CANCELLED, "cancelled while orienting a solid");
				ok = false;
			}
			else if (!gx_solid_ray_shells(&idx, V(tri, first[s], 0), V(tri, first[s], 1), half, tp->shell,
										  (uint32_t) s, counts, tp->nshells))
			{
				gx_error_set(err, GX_ERR_INVALID, "could not locate a shell of the solid (no ray avoided its edges)");
				ok = false;
			}
			for (size_t j = 0; ok && j < tp->nshells; j++)
				depth[s] += j != s && counts[j] % 2 == 1;
		}
		mpq_clear(half);
		if (idx.boxes)
			gx_solid_index_free(&idx);
	}
	gx_free(first);
	gx_free(counts);
	return ok;
}

bool
gx_solid_make(double *tri, size_t *np, const GxBatchOptions *opt, size_t *shells, GxError *err)
{
	return gx_solid_make_kept(tri, np, NULL, opt, shells, err);
}

bool
gx_solid_make_kept(double *tri, size_t *np, uint8_t *kept, const GxBatchOptions *opt, size_t *shells, GxError *err)
{
	Topology	tp = {NULL, NULL, NULL, NULL, 0};
	uint32_t   *depth = NULL;
	int		   *sign = NULL;
	Sliver	   *sl = NULL;
	size_t		n = 0,
				nsl = 0;
	bool		ok = false;
	char		b[3][100];

	if (*np > UINT32_MAX / 3)
	{
		gx_error_set(err, GX_ERR_LIMIT, "too many triangles for one solid (%zu)", *np);
		return false;
	}
	/* triangles with a repeated vertex set aside, the others packed in order */
	for (size_t t = 0; t < *np; t++)
	{
		const double *v = V(tri, t, 0);

		if (same_point(v, v + 3) || same_point(v + 3, v + 6) || same_point(v + 6, v))
		{
			if (sl == NULL && (sl = gx_alloc((*np - t) * sizeof(Sliver))) == NULL)
			{
				gx_error_set(err, GX_ERR_NOMEM, "out of memory checking a solid of %zu triangles", *np);
				return false;
			}
			memcpy(sl[nsl].v, v, sizeof(sl[nsl].v));
			sl[nsl++].number = t;
			continue;
		}
		if (gx_triangle_flat(v))
		{
			gx_error_set(err, GX_ERR_INVALID, "not the surface of a volume: triangle %zu %s %s %s is degenerate "
						 "(three collinear vertices)", t + 1, gx_solid_point_text(b[0], v), gx_solid_point_text(b[1], v + 3), gx_solid_point_text(b[2], v + 6));
			gx_free(sl);
			return false;
		}
		memmove((double *) V(tri, n, 0), v, 9 * sizeof(double));
		if (kept)
			kept[n] = kept[t];
		n++;
	}
	*np = n;
	if (n == 0)
	{
		gx_error_set(err, GX_ERR_INVALID, "an empty surface bounds no volume");
		gx_free(sl);
		return false;
	}
	if (!topology(tri, n, sl, nsl, &tp, err) || !gx_solid_contacts(tri, n, tp.vid, tp.nb, kept, opt, err))
		goto done;
	depth = gx_alloc(tp.nshells * sizeof(uint32_t));
	sign = gx_alloc(tp.nshells * sizeof(int));
	if (!depth || !sign)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory orienting a solid");
		goto done;
	}
	if (!shell_depths(tri, n, &tp, opt, depth, err))
		goto done;
	for (size_t s = 0; s < tp.nshells; s++)
	{
		const double *o = NULL;

		for (size_t t = 0; t < n && !o; t++)
			if (tp.shell[t] == s)
				o = V(tri, t, 0);
		sign[s] = volume_sign(tri, n, &tp, (uint32_t) s, o);
	}
	/* outer shells (even depth) face outward: positive signed volume; cavities the other way */
	for (size_t t = 0; t < n; t++)
	{
		uint32_t	s = tp.shell[t];
		bool		want_positive = depth[s] % 2 == 0;

		if (tp.flip[t] ^ (want_positive != (sign[s] > 0)))
		{
			double		swap[3];

			memcpy(swap, V(tri, t, 1), sizeof(swap));
			memcpy((double *) V(tri, t, 1), V(tri, t, 2), sizeof(swap));
			memcpy((double *) V(tri, t, 2), swap, sizeof(swap));
		}
	}
	*shells = tp.nshells;
	ok = true;
done:
	gx_free(tp.vid);
	gx_free(tp.flip);
	gx_free(tp.shell);
	gx_free(tp.nb);
	gx_free(depth);
	gx_free(sign);
	gx_free(sl);
	return ok;
}
