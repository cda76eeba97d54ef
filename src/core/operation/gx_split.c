/*
 * gx_split.c: a solid split by an open surface (gx_split.h). The solid's triangles that the surface meets are
 * cut along it facet by facet, by the surface's facets, as the booleans cut them (gx_split_facets, which also
 * gives the surface's pieces inside the solid). A piece's side is read where it borders a cut, from the
 * surface's facets that made the cut: one (the side of its plane), or two folded along the line where they
 * join (the side of the wedge they make); a piece lying on the surface is on the side away from its outward
 * normal. Sides are carried across the solid's edges that are no cut (pieces joined by their rounded edges,
 * union-find): two sides joined mean the surface does not cut the solid through. The surface's pieces
 * strictly inside the solid close both parts.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "algorithm/gx_cut.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_projection.h"
#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "operation/gx_boolean.h"
#include "operation/gx_facets.h"
#include "operation/gx_split.h"

#define CANCEL_EVERY 64
#define RAY_TRIES 16			/* vertices of a shell the surface misses tried for a ray */

/* A piece of a solid's triangle: a union-find node with its side (1 positive, -1 negative, 0 not known). */
typedef struct Piece
{
	size_t		parent;
	signed char side;
	bool		met;			/* the surface meets it (or a piece joined to it) */
	int			tries;			/* rays tried from it (a shell no cut reached) */
} Piece;

/* A stretch of a solid triangle's edge that is no cut: its ends (rounded, in order), the piece along it. */
typedef struct Stretch
{
	double		p[6];
	size_t		piece;
} Stretch;

typedef struct Split
{
	const double *stri;			/* the surface's triangles */
	size_t		ns;
	long	   *across;			/* surface triangle i's edge k (from vertex k to k + 1): the triangle across */
	GxSolidIndex sidx;			/* the surface's triangles, searched by box */
	const GxOverlayOptions *opt;
	Piece	   *pc;
	size_t		npc,
				pccap;
	Stretch    *st;
	size_t		nst,
				stcap;
	double	   *tri;			/* the solid's pieces' triangles, 9 doubles each */
	size_t	   *tpiece,			/* the piece of each */
				ntri,
				tricap,
				tpcap;
	bool	   *done;			/* per triangle of the solid: cut with its facet */
} Split;

/* The surface's adjacency into sp->across (gx_facets_adjacency). */
static bool
surface_adjacency(Split *sp, GxError *err)
{
	if ((sp->across = malloc(3 * sp->ns * sizeof(long) + 1)) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a surface's edges");
		return false;
	}
	return gx_facets_adjacency(sp->stri, sp->ns, sp->across, err);
}

static size_t
find(Split *sp, size_t x)
{
	while (sp->pc[x].parent != x)
	{
		sp->pc[x].parent = sp->pc[sp->pc[x].parent].parent;
		x = sp->pc[x].parent;
	}
	return x;
}

static void
no_separation(const double *p, GxError *err)
{
	gx_error_set(err, GX_ERR_INVALID, "the surface does not cut the solid through: its two sides meet near "
				 "(%.17g %.17g %.17g) (a surface must end outside the solid or on its surface)", p[0], p[1], p[2]);
}

/* Piece x is on side s (s 0: nothing known); false (err set) when it was known on the other side. */
static bool
set_side(Split *sp, size_t x, int s, const double *at, GxError *err)
{
	x = find(sp, x);
	if (s == 0 || sp->pc[x].side == s)
		return true;
	if (sp->pc[x].side != 0)
	{
		no_separation(at, err);
		return false;
	}
	sp->pc[x].side = (signed char) s;
	return true;
}

/* Joins the pieces x and y, which border each other along a stretch at at. */
static bool
unite(Split *sp, size_t x, size_t y, const double *at, GxError *err)
{
	x = find(sp, x);
	y = find(sp, y);
	if (x == y)
		return true;
	sp->pc[y].parent = x;
	sp->pc[x].met = sp->pc[x].met || sp->pc[y].met;
	return set_side(sp, x, sp->pc[y].side, at, err);
}

static bool
new_piece(Split *sp)
{
	if (!gx_grow_malloc((void **) &sp->pc, &sp->pccap, sp->npc + 1, sizeof(Piece), SIZE_MAX / 64))
		return false;
	sp->pc[sp->npc] = (Piece) {sp->npc, 0, false, 0};
	sp->npc++;
	return true;
}

static bool
add_triangle(Split *sp, const double *xyz, size_t piece)
{
	if (!gx_grow_malloc((void **) &sp->tri, &sp->tricap, sp->ntri + 1, 9 * sizeof(double), SIZE_MAX / 128) ||
		!gx_grow_malloc((void **) &sp->tpiece, &sp->tpcap, sp->ntri + 1, sizeof(size_t), SIZE_MAX / 64))
		return false;
	memcpy(sp->tri + 9 * sp->ntri, xyz, 9 * sizeof(double));
	sp->tpiece[sp->ntri++] = piece;
	return true;
}

static bool
add_stretch(Split *sp, const double *a, const double *b, size_t piece)
{
	bool		swap = gx_point_cmp(a, b) > 0;
	Stretch    *s;

	if (!gx_grow_malloc((void **) &sp->st, &sp->stcap, sp->nst + 1, sizeof(Stretch), SIZE_MAX / 64))
		return false;
	s = &sp->st[sp->nst++];
	memcpy(s->p, swap ? b : a, 3 * sizeof(double));
	memcpy(s->p + 3, swap ? a : b, 3 * sizeof(double));
	s->piece = piece;
	return true;
}

static int
cmp_stretch(const void *x, const void *y)
{
	const Stretch *s = x,
			   *t = y;
	int			c = gx_point_cmp(s->p, t->p);

	return c ? c : gx_point_cmp(s->p + 3, t->p + 3);
}

/* Surface triangles x of group gx and y of group gy of fc that share an edge; false when none do. */
static bool
adjacent(const Split *sp, const GxFacetCut *fc, size_t gx, size_t gy, size_t *x, size_t *y)
{
	for (size_t i = fc->start[gx]; i < fc->start[gx + 1]; i++)
		for (size_t j = fc->start[gy]; j < fc->start[gy + 1]; j++)
			for (int k = 0; k < 3; k++)
				if (sp->across[3 * fc->others[i] + k] == (long) fc->others[j])
				{
					*x = fc->others[i];
					*y = fc->others[j];
					return true;
				}
	return false;
}

/*
 * The side of the surface near a cut made by the surface's groups g[0 .. n) of fc (one facet, or two folded
 * along the line where they join), seen from vertex w of the cut: 1 positive, -1 negative, 0 on the plane of
 * the only one. -2 when two groups make the cut that share no edge (the surface meets itself).
 */
static int
side_near(Split *sp, const GxFacetCut *fc, size_t w, const size_t *g, size_t n)
{
	size_t		tau[2] = {fc->others[fc->start[g[0]]], 0};
	const double *t0,
			   *t1,
			   *far = NULL;
	int			s0,
				s1,
				c;

	if (n == 1)
		return -gx_cut_vertex_side(fc->cut, w, sp->stri + 9 * tau[0]);
	if (!adjacent(sp, fc, g[0], g[1], &tau[0], &tau[1]))
		return -2;
	t0 = sp->stri + 9 * tau[0];
	t1 = sp->stri + 9 * tau[1];
	s0 = -gx_cut_vertex_side(fc->cut, w, t0);
	for (int k = 0; k < 3; k++)
		if (gx_point_cmp(t1 + 3 * k, t0) && gx_point_cmp(t1 + 3 * k, t0 + 3) && gx_point_cmp(t1 + 3 * k, t0 + 6))
			far = t1 + 3 * k;
	if (far == NULL)
		return -2;				/* a triangle repeated reversed */
	s1 = -gx_cut_vertex_side(fc->cut, w, t1);
	c = -gx_orient3d(t0, t0 + 3, t0 + 6, far);
	/* a ridge (t1 bends to t0's negative side): the positive side is either half-space's; a valley: both's */
	if (c < 0)
		return s0 > 0 || s1 > 0 ? 1 : -1;
	if (c > 0)
		return s0 < 0 || s1 < 0 ? -1 : 1;
	return s0 ? s0 : s1;
}

/*
 * A facet of the solid cut along the surface (gx_split_facets' visit): its pieces, their triangles, their
 * sides where the cuts tell; its triangles marked done.
 */
static bool
cut_facet(void *ctx, const GxFacetCut *fc, GxError *err)
{
	Split	   *sp = ctx;
	GxCut	   *cut = fc->cut;
	size_t		base = sp->npc;
	signed char *covered = NULL;
	bool		ok;
	mpq_t		t,
				u;

	for (size_t k = 0; k < fc->ntri; k++)
		sp->done[fc->tri[k]] = true;
	mpq_inits(t, u, NULL);
	ok = (covered = malloc(gx_cut_npieces(cut) + 1)) != NULL;
	for (size_t p = 0; ok && p < gx_cut_npieces(cut); p++)
	{
		const double *within;
		int			cover = gx_cut_piece_point(cut, p, t, u, &within);

		/* on the surface: the solid lies on the side away from its outward normal */
		covered[p] = cover != 0;
		ok = new_piece(sp);
		if (ok)
			sp->pc[sp->npc - 1].met = true;
		if (ok && cover)
			sp->pc[sp->npc - 1].side = (signed char) -cover;
	}
	mpq_clears(t, u, NULL);
	if (!ok)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
	for (size_t k = 0; ok && k < gx_cut_ntriangles(cut); k++)
	{
		size_t		p,
					src[3];
		const size_t *v = gx_cut_triangle(cut, k, &p);
		double		xyz[9];

		for (int m = 0; m < 3; m++)
			gx_cut_vertex(cut, v[m], xyz + 3 * m);
		if (!add_triangle(sp, xyz, base + p))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pieces of a split");
			ok = false;
		}
		for (int m = 0; ok && m < 3; m++)
		{
			bool		border;
			size_t		n = gx_cut_edge(cut, k, m, &border, src, 3);
			const double *a = xyz + 3 * ((m + 1) % 3),
					   *b = xyz + 3 * ((m + 2) % 3);
			int			s;

			if (n == 0)
			{
				if (border && !add_stretch(sp, a, b, base + p))
				{
					gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pieces of a split");
					ok = false;
				}
				continue;
			}
			if (covered[p])
				continue;
			if (n > 2 || (s = side_near(sp, fc, v[m], src, n)) == -2)
			{
				gx_error_set(err, GX_ERR_INVALID, "the surface meets itself near (%.17g %.17g %.17g)", a[0], a[1], a[2]);
				ok = false;
			}
			else
				ok = set_side(sp, base + p, s, a, err);
		}
	}
	free(covered);
	return ok;
}

/*
 * Every triangle of the solid, its facets that the surface meets cut along it (gx_split_facets, which makes
 * the surface's pieces inside the solid, into sig), the others whole; pieces joined across uncut edges.
 */
static bool
cut_solid(Split *sp, const double *atri, size_t na, const GxSolidIndex *aidx, double **sig, size_t *nsig,
		  size_t *sigcap, GxError *err)
{
	if ((sp->done = calloc(na + 1, sizeof(bool))) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a solid's triangles");
		return false;
	}
	if (!gx_split_facets(atri, na, aidx, sp->stri, sp->ns, &sp->sidx, sp->opt, sig, nsig, sigcap, cut_facet, sp,
						 err))
		return false;
	for (size_t i = 0; i < na; i++)
	{
		const double *T = atri + 9 * i;
		int			sigma;

		if (sp->done[i] || gx_triangle_projection(T, &sigma) < 0)
			continue;
		if (!new_piece(sp) || !add_triangle(sp, T, sp->npc - 1) ||
			!add_stretch(sp, T, T + 3, sp->npc - 1) || !add_stretch(sp, T + 3, T + 6, sp->npc - 1) ||
			!add_stretch(sp, T + 6, T, sp->npc - 1))
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pieces of a split");
			return false;
		}
	}
	qsort(sp->st, sp->nst, sizeof(Stretch), cmp_stretch);
	for (size_t k = 1; k < sp->nst; k++)
		if (cmp_stretch(&sp->st[k - 1], &sp->st[k]) == 0 &&
			!unite(sp, sp->st[k - 1].piece, sp->st[k].piece, sp->st[k].p, err))
			return false;
	return true;
}

/* The ray's search: the nearest surface triangle crossed by segment pq, inside it. */
typedef struct Ray
{
	const Split *sp;
	const double *p,
			   *q;
	mpq_t		best,
				u;
	int			side;			/* p's side at the nearest crossing, 0 none */
	bool		degenerate;
} Ray;

static bool
ray_visit(void *ctx, size_t i)
{
	Ray		   *r = ctx;
	const double *tau = r->sp->stri + 9 * i;
	int			op = gx_orient3d(tau, tau + 3, tau + 6, r->p),
				oq = gx_orient3d(tau, tau + 3, tau + 6, r->q),
				e[3],
				cmp;

	if (op * oq > 0)
		return true;
	if (op == 0 || oq == 0)
	{
		double		seg[6];

		memcpy(seg, r->p, 3 * sizeof(double));
		memcpy(seg + 3, r->q, 3 * sizeof(double));
		r->degenerate = gx_elements_intersect(seg, 2, tau, 3);
		return !r->degenerate;
	}
	for (int k = 0; k < 3; k++)
		e[k] = gx_orient3d(r->p, r->q, tau + 3 * k, tau + 3 * ((k + 1) % 3));
	if ((e[0] > 0 && e[1] > 0 && e[2] > 0) || (e[0] < 0 && e[1] < 0 && e[2] < 0))
	{
		gx_plane_crossing(tau, r->p, r->q, r->u);
		cmp = r->side ? mpq_cmp(r->u, r->best) : -1;
		if (cmp == 0)
			r->degenerate = true;
		else if (cmp < 0)
		{
			mpq_set(r->best, r->u);
			r->side = -op;
		}
		return !r->degenerate;
	}
	/* through an edge or a vertex of tau: another ray */
	r->degenerate = !((e[0] > 0 || e[1] > 0 || e[2] > 0) && (e[0] < 0 || e[1] < 0 || e[2] < 0));
	return !r->degenerate;
}

/*
 * The side of the surface that point p lies on, seen along the surface's mean normal n (dir 1) or against
 * it (dir -1): that of the first surface triangle the ray crosses inside. 0 when it crosses none or meets an
 * edge, a vertex or a triangle's plane on the way.
 */
static int
ray_side(const Split *sp, const double *p, const double *n, int dir)
{
	GxBox3D		box = sp->sidx.box;
	double		q[3],
				len,
				d2 = 0;
	Ray			r = {.sp = sp, .p = p, .q = q};
	int			side;

	gx_box_extend(&box, &(GxBox3D) {p[0], p[1], p[2], p[0], p[1], p[2]});
	len = 2 * (fabs(box.xmax - box.xmin) + fabs(box.ymax - box.ymin) + fabs(box.zmax - box.zmin)) + 1;
	for (int a = 0; a < 3; a++)
		d2 += n[a] * n[a];
	for (int a = 0; a < 3; a++)
		q[a] = p[a] + dir * len * n[a] / sqrt(d2);
	if (!isfinite(q[0] + q[1] + q[2]) || gx_point_cmp(p, q) == 0)
		return 0;
	box = gx_box_of_points(p, 1);
	gx_box_extend(&box, &(GxBox3D) {q[0], q[1], q[2], q[0], q[1], q[2]});
	mpq_inits(r.best, r.u, NULL);
	gx_solid_index_search(&sp->sidx, &box, ray_visit, &r);
	side = r.degenerate ? 0 : r.side;
	mpq_clears(r.best, r.u, NULL);
	return side;
}

/*
 * The triangles of side s into a new gx_alloc'd array (*n of them): the pieces on that side and the
 * surface's pieces inside the solid, reversed on the positive side.
 */
static double *
gather(Split *sp, int s, const double *sig, size_t nsig, size_t *n)
{
	double	   *out;

	*n = 0;
	for (size_t k = 0; k < sp->ntri; k++)
		*n += sp->pc[find(sp, sp->tpiece[k])].side == s;
	out = gx_alloc((*n + nsig + 1) * 9 * sizeof(double));
	*n = 0;
	for (size_t k = 0; k < sp->ntri; k++)
		if (sp->pc[find(sp, sp->tpiece[k])].side == s)
			memcpy(out + 9 * (*n)++, sp->tri + 9 * k, 9 * sizeof(double));
	for (size_t k = 0; k < nsig; k++, (*n)++)
	{
		const double *t = sig + 9 * k;

		memcpy(out + 9 * *n, t, 3 * sizeof(double));
		memcpy(out + 9 * *n + 3, s > 0 ? t + 6 : t + 3, 3 * sizeof(double));
		memcpy(out + 9 * *n + 6, s > 0 ? t + 3 : t + 6, 3 * sizeof(double));
	}
	return out;
}

/*
 * The side of each shell no cut reached: that of the part already made that contains it, or else the side a
 * ray from one of its vertices meets the surface on (along the surface's mean normal, up or down, or, for a
 * shell the surface touches, toward the middle of one of its triangles).
 */
static bool
place_unreached(Split *sp, const double *sig, size_t nsig, GxError *err)
{
	GxSolidIndex idx[2];
	double	   *soup[2] = {NULL, NULL},
				normal[3] = {0, 0, 0};
	size_t		nsoup[2];
	int			built = 0;
	bool		any = false,
				ok = true;

	for (size_t k = 0; k < sp->npc; k++)
		any = any || sp->pc[find(sp, k)].side != 0;
	for (; ok && built < 2; built++)
	{
		soup[built] = gather(sp, built ? 1 : -1, sig, nsig, &nsoup[built]);
		if (nsoup[built] > 0)
			ok = gx_solid_index_build(&idx[built], soup[built], nsoup[built], err);
	}
	if (!ok)
		built--;
	for (size_t i = 0; i < sp->ns; i++)
	{
		const double *t = sp->stri + 9 * i;

		for (int a = 0; a < 3; a++)
		{
			int			b = (a + 1) % 3,
						c = (a + 2) % 3;

			normal[a] += (t[3 + b] - t[b]) * (t[6 + c] - t[c]) - (t[3 + c] - t[c]) * (t[6 + b] - t[b]);
		}
	}
	if (normal[0] == 0 && normal[1] == 0 && normal[2] == 0)
		normal[2] = 1;
	for (size_t k = 0; ok && k < sp->ntri; k++)
	{
		size_t		x = find(sp, sp->tpiece[k]);
		int			s = 0;

		for (int v = 0; v < 3 && s == 0 && sp->pc[x].side == 0 && sp->pc[x].tries < RAY_TRIES; v++)
		{
			const double *p = sp->tri + 9 * k + 3 * v;
			GxLocation	loc[2] = {GX_LOC_OUTSIDE, GX_LOC_OUTSIDE};

			for (int h = 0; any && h < 2; h++)
				if (nsoup[h] > 0)
					loc[h] = gx_solid_locate(&idx[h], p);
			if (loc[0] == GX_LOC_INSIDE || loc[1] == GX_LOC_INSIDE)
				s = loc[1] == GX_LOC_INSIDE ? 1 : -1;
			else if (loc[0] == GX_LOC_OUTSIDE && loc[1] == GX_LOC_OUTSIDE)
			{
				sp->pc[x].tries++;
				if ((s = ray_side(sp, p, normal, 1)) == 0 && (s = ray_side(sp, p, normal, -1)) == 0 && sp->pc[x].met)
				{
					/* a shell the surface touches: toward a point inside a surface triangle (the normal may pass it by) */
					const double *t = sp->stri + 9 * ((size_t) (sp->pc[x].tries - 1) % sp->ns);
					double		d[3];

					for (int a = 0; a < 3; a++)
						d[a] = (t[a] + t[3 + a] + t[6 + a]) / 3 - p[a];
					s = ray_side(sp, p, d, 1);
				}
			}
		}
		if (s != 0)
			sp->pc[x].side = (signed char) s;
	}
	for (size_t k = 0; ok && k < sp->ntri; k++)
		if (sp->pc[find(sp, sp->tpiece[k])].side == 0)
		{
			const double *p = sp->tri + 9 * k;

			gx_error_set(err, GX_ERR_INVALID, "the surface does not reach the solid's shell through (%.17g %.17g %.17g), "
						 "nor does a ray from it meet the surface: it lies on neither side", p[0], p[1], p[2]);
			ok = false;
		}
	for (int h = 0; h < built; h++)
		if (nsoup[h] > 0)
			gx_solid_index_free(&idx[h]);
	for (int h = 0; h < 2; h++)
		if (soup[h])
			gx_free(soup[h]);
	return ok;
}

bool
gx_split_solid(const GxSerialized *solid, const GxSerialized *surface, const GxOverlayOptions *opt,
			   GxSerialized *part[2], size_t size[2], GxError *err)
{
	static const char *const what[2] = {"negative part", "positive part"};
	Split		sp = {.opt = opt};
	GxSolidIndex aidx;
	const double *atri = NULL;
	double	   *sig = NULL;
	size_t		na = 0,
				nsig = 0,
				sigcap = 0;
	bool		ok,
				sidx = false,
				aidx_built = false;

	part[0] = part[1] = NULL;
	if (!gx_boolean_check(solid, err) || !gx_boolean_surface(surface, &sp.stri, &sp.ns, err))
		return false;
	if (sp.ns == 0)
	{
		gx_error_set(err, GX_ERR_INVALID, "the surface is EMPTY");
		return false;
	}
	if (!(solid->flags & GX_FLAG_EMPTY))
		atri = gx_solid_triangles(solid, &na);
	ok = surface_adjacency(&sp, err);
	if (ok && na > 0)
	{
		ok = sidx = gx_solid_index_build(&sp.sidx, sp.stri, sp.ns, err);
		ok = ok && (aidx_built = gx_solid_index_build(&aidx, atri, na, err));
		ok = ok && cut_solid(&sp, atri, na, &aidx, &sig, &nsig, &sigcap, err);
	}
	if (ok)
	{
		bool		unknown = false;

		for (size_t k = 0; k < sp.npc; k++)
			unknown = unknown || sp.pc[find(&sp, k)].side == 0;
		if (unknown && nsig > 0 && sp.npc > 0)
		{
			bool		any = false;

			for (size_t k = 0; k < sp.npc; k++)
				any = any || sp.pc[find(&sp, k)].side != 0;
			if (!any)
			{
				/* the surface crosses the solid's inside without cutting its surface: it ends inside */
				no_separation(sig, err);
				ok = false;
			}
		}
		if (ok && unknown)
			ok = place_unreached(&sp, sig, nsig, err);
	}
	for (int h = 0; ok && h < 2; h++)
	{
		size_t		n;
		double	   *soup = gather(&sp, h ? 1 : -1, sig, nsig, &n);

		const double *in[2] = {atri, sp.stri};
		const size_t nin[2] = {na, sp.ns};

		part[h] = gx_boolean_make(soup, n, in, nin, solid->srid, what[h], opt, &size[h], err);
		gx_free(soup);
		ok = part[h] != NULL;
	}
	if (!ok && part[0])
	{
		gx_free(part[0]);
		part[0] = NULL;
	}
	if (aidx_built)
		gx_solid_index_free(&aidx);
	if (sidx)
		gx_solid_index_free(&sp.sidx);
	free(sp.across);
	free(sp.pc);
	free(sp.st);
	free(sp.tri);
	free(sp.tpiece);
	free(sp.done);
	free(sig);
	return ok;
}
