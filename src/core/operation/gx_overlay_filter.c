/*
 * gx_overlay_filter.c: the overlay's volumes rounded once (gx_overlay_volumes, gx_overlay.h), from certified
 * double-doubles (algorithm/gx_ddi.h) wherever they decide, bit for bit equal to the rational path's.
 *
 * The pairs of triangles that may meet are found once (gx_overlay_candidates.h). A triangle T that the other
 * surface cuts in general position (no vertex of T on the plane of a triangle tau of the other that meets T,
 * no vertex of tau on T's plane) needs no pieces. In T's coordinates (t, u) (T0 + t (T1 - T0) + u (T2 - T0)),
 * the part R of T inside the other solid has, by Green's theorem, twice the area the integral of t du - u dt
 * along its boundary, counter-clockwise: each segment from p to q where a tau crosses T, oriented with the
 * other's inside on its left, adds p x q; T's edges through (0, 0) add nothing; the parts of its edge from T1
 * to T2 inside add their length in parameter. A tau's segment lies on the line of direction nT x ntau (the
 * normals), which has ntau's side, the other's outside, on its right. Along that line the segment is the
 * overlap of T's interval and tau's: it starts where the line enters both, at the later entry, and ends at the
 * earlier exit. The line enters tau across an edge from above T's plane to below it, and enters T across an
 * edge from below tau's plane to above it; an entry point lies inside the other triangle, or the other's entry
 * comes later. The crossing of segment pq with the plane through a, b lies left of ab exactly when
 * orient3d(a, b, p, q) has the sign of p's side; it lies on T's boundary when one of those is 0 and no other is
 * of the wrong sign (an edge of tau meeting an edge of T), and the intervals are closed. All of those are
 * exact signs (gx_predicates.h); the points where the segments end and the areas are certified double-doubles.
 * T1T2's parts inside: where it crosses a tau (leaving the other's inside when T1 lies below tau's plane;
 * through an edge of the other, each of its two triangles counts half, so that crossing it counts once and
 * touching it none) and whether T2 is inside (located, once for each point).
 *
 * A triangle of the other with T's three vertices covers T (the other's surface meets T nowhere else). Any
 * other cut triangle's areas come from its rational pieces (gx_overlay_cut_areas), converted. The sums are
 * certified double-doubles; a volume whose enclosure straddles a rounding boundary (or is not certainly zero or
 * of one sign) sends the whole overlay to the rational path (gx_overlay_sums), as do more candidate pairs than
 * the bound on cuts gives memory for; shortcuts past that bound are left to the pieces, which report it.
 *
 * Only the pieces of the classes that the volumes asked for add up are summed: for a ∩ b alone, a triangle whose
 * box misses the other solid's box lies outside it and is passed over, and a whole triangle's det is computed
 * only when its class counts. Two solids with the same triangles, bit for bit (one solid against itself), skip
 * the overlay: every triangle is on the other's surface, oriented the same way, so their intersection and union
 * are the sum over the triangles of det / 2, and their difference 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_ddi.h"
#include "algorithm/gx_orient.h"
#include "algorithm/gx_plane_side.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_projection.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "operation/gx_overlay.h"
#include "operation/gx_overlay_candidates.h"
#include "operation/gx_overlay_dd.h"
#include "operation/gx_places.h"
#include "operation/gx_volume.h"

#define CANCEL_EVERY 64			/* triangles between two polls of the cancel flags */

/* a x b for 2D points. */
static inline GxDDI
cross2(const GxDDI *a, const GxDDI *b)
{
	return gx_ddv_sub(gx_ddv_mul(a[0], b[1]), gx_ddv_mul(a[1], b[0]));
}

/* n = (b - a) x (c - a). */
static void
normal_of(const double *a, const double *b, const double *c, GxDDI *n)
{
	GxDDI		u[3],
				v[3];

	for (int k = 0; k < 3; k++)
	{
		u[k] = gx_ddv_sub_d(b[k], a[k]);
		v[k] = gx_ddv_sub_d(c[k], a[k]);
	}
	for (int k = 0; k < 3; k++)
		n[k] = gx_ddv_sub(gx_ddv_mul(u[(k + 1) % 3], v[(k + 2) % 3]), gx_ddv_mul(u[(k + 2) % 3], v[(k + 1) % 3]));
}

/* n . (p - a): p's height over the plane through a of normal n, scaled. */
static GxDDI
height(const GxDDI *n, const double *a, const double *p)
{
	GxDDI		h = gx_ddv_mul(n[0], gx_ddv_sub_d(p[0], a[0]));

	h = gx_ddv_add(h, gx_ddv_mul(n[1], gx_ddv_sub_d(p[1], a[1])));
	return gx_ddv_add(h, gx_ddv_mul(n[2], gx_ddv_sub_d(p[2], a[2])));
}

/* q as a certified double-double. */
static GxDDI
ddi_of_mpq(mpq_srcptr q, mpq_ptr w)
{
	GxDDI		r;
	double		hi = mpq_get_d(q),
				lo;

	mpq_set_d(w, hi);
	mpq_sub(w, q, w);
	lo = mpq_get_d(w);			/* truncated: |w - lo| < ulp(lo) */
	gx_fast_two_sum(hi, lo, &r.hi, &r.lo);
	r.rad = (fabs(lo) * 0x1p-52 + 0x1p-1074) * GX_DDI_UP;
	return r;
}

/*
 * T in its own coordinates, scaled by D = e1 x e2 (its projection's doubled area): p' = (t D, u D), the
 * projection dropping axis drop, e1 = T1 - T0 and e2 = T2 - T0 there; n its normal.
 */
typedef struct Frame
{
	const double *T;
	int			i,
				j;
	GxDDI		e[2][2],
				D,
				n[3];
	GxPlaneSide plane;
} Frame;

static void
frame_init(Frame *f, const double *T, int drop)
{
	f->T = T;
	f->i = (drop + 1) % 3;
	f->j = (drop + 2) % 3;
	for (int k = 0; k < 2; k++)
	{
		f->e[k][0] = gx_ddv_sub_d(T[3 * (k + 1) + f->i], T[f->i]);
		f->e[k][1] = gx_ddv_sub_d(T[3 * (k + 1) + f->j], T[f->j]);
	}
	f->D = cross2(f->e[0], f->e[1]);
	normal_of(T, T + 3, T + 6, f->n);
	gx_plane_side_init(&f->plane, T);
}

/* p' for a point p (Cramer's rule: t D = d x e2, u D = e1 x d, d = p - T0). */
static void
scaled_coords(const Frame *f, const double *p, GxDDI *out)
{
	GxDDI		d[2] = {gx_ddv_sub_d(p[f->i], f->T[f->i]), gx_ddv_sub_d(p[f->j], f->T[f->j])};

	out[0] = cross2(d, f->e[1]);
	out[1] = cross2(f->e[0], d);
}

/* T's vertex k scaled: (0, 0), (D, 0), (0, D). */
static void
vertex_coords(const Frame *f, int k, GxDDI *out)
{
	GxDDI		zero = {0, 0, 0};

	out[0] = k == 1 ? f->D : zero;
	out[1] = k == 2 ? f->D : zero;
}

/* One tau against T: the exact signs, decided as they are needed. */
typedef struct Pair
{
	const Frame *f;
	const double *tau;
	int			at[3],			/* tau's vertices above T's plane (+1) or below (-1) */
				ag[3],			/* T's vertices above tau's plane or below */
				o[3][3];		/* orient3d(T's edge f, tau's edge e), 2 while unknown */
	bool		has_n;
	GxDDI		n[3];			/* tau's normal */
} Pair;

static int
edge_orient(Pair *p, int f, int e)
{
	if (p->o[f][e] == 2)
		p->o[f][e] = gx_orient3d(p->f->T + 3 * f, p->f->T + 3 * ((f + 1) % 3), p->tau + 3 * e,
								 p->tau + 3 * ((e + 1) % 3));
	return p->o[f][e];
}

/*
 * Whether the crossing of tau's edge e with T's plane lies inside T: 1, 0, or -1 when on its boundary. On the
 * line of one of T's edges (a zero) it is outside when beyond another.
 */
static int
x_inside(Pair *p, int e)
{
	bool		zero = false;

	for (int f = 0; f < 3; f++)
	{
		int			s = edge_orient(p, f, e);

		if (s != 0 && s != p->at[e])
			return 0;
		zero |= s == 0;
	}
	return zero ? -1 : 1;
}

/* Whether the crossing of T's edge f with tau's plane lies inside tau: 1, 0, or -1, as x_inside. */
static int
y_inside(Pair *p, int f)
{
	bool		zero = false;

	for (int e = 0; e < 3; e++)
	{
		int			s = edge_orient(p, f, e);

		if (s != 0 && s != p->ag[f])
			return 0;
		zero |= s == 0;
	}
	return zero ? -1 : 1;
}

/* out = the crossing of tau's edge e with T's plane, scaled. */
static void
x_point(Pair *p, int e, GxDDI *out)
{
	const double *a = p->tau + 3 * e,
			   *b = p->tau + 3 * ((e + 1) % 3);
	GxDDI		ha = height(p->f->n, p->f->T, a),
				lambda = gx_ddv_div(ha, gx_ddv_sub(ha, height(p->f->n, p->f->T, b))),
				pa[2],
				pb[2];

	scaled_coords(p->f, a, pa);
	scaled_coords(p->f, b, pb);
	for (int k = 0; k < 2; k++)
		out[k] = gx_ddv_add(pa[k], gx_ddv_mul(lambda, gx_ddv_sub(pb[k], pa[k])));
}

/* The parameter of the crossing of T's edge f with tau's plane along it. */
static GxDDI
y_param(Pair *p, int f)
{
	const double *T = p->f->T;
	GxDDI		ga,
				gb;

	if (!p->has_n)
	{
		normal_of(p->tau, p->tau + 3, p->tau + 6, p->n);
		p->has_n = true;
	}
	ga = height(p->n, p->tau, T + 3 * f);
	gb = height(p->n, p->tau, T + 3 * ((f + 1) % 3));
	return gx_ddv_div(ga, gx_ddv_sub(ga, gb));
}

/* out = the crossing of T's edge f with tau's plane, scaled. */
static void
y_point(Pair *p, int f, GxDDI *out)
{
	GxDDI		mu = y_param(p, f),
				a[2],
				b[2];

	vertex_coords(p->f, f, a);
	vertex_coords(p->f, (f + 1) % 3, b);
	for (int k = 0; k < 2; k++)
		out[k] = gx_ddv_add(a[k], gx_ddv_mul(mu, gx_ddv_sub(b[k], a[k])));
}

/*
 * The end of tau's segment in T where the line enters (enter) or leaves both, scaled into out: 1, or 0 when the
 * line's intervals in T and tau do not overlap. The intervals are closed: an entry on the other triangle's
 * boundary is the later one.
 */
static int
segment_end(Pair *p, bool enter, GxDDI *out)
{
	int			e = -1,
				f = -1;

	/* the line enters tau across an edge from above T's plane to below, and T from below tau's to above */
	for (int k = 0; k < 3; k++)
	{
		if (p->at[k] != p->at[(k + 1) % 3] && (p->at[k] > 0) == enter)
			e = k;
		if (p->ag[k] != p->ag[(k + 1) % 3] && (p->ag[k] < 0) == enter)
			f = k;
	}
	if (x_inside(p, e) != 0)
		x_point(p, e, out);
	else if (y_inside(p, f) != 0)
		y_point(p, f, out);
	else
		return 0;
	return 1;
}

/*
 * Whether tau meets T, in general position: 1 after adding its segment's p x q to *cross and T1T2's crossing
 * of it to *m (minus its parameter entering the other's inside, plus leaving it); 0 when they do not meet; -1
 * when they are not in general position (they may meet or not).
 */
static int
add_tau(const Frame *f, const double *tau, GxDDI *cross, GxDDI *m)
{
	Pair		p = {.f = f, .tau = tau};
	GxDDI		s[2],
				e[2];
	int			rs,
				re;

	GxPlaneSide tp;

	for (int k = 0; k < 3; k++)
	{
		if ((p.at[k] = gx_plane_side(&f->plane, tau + 3 * k)) == 0)
			return -1;
		for (int g = 0; g < 3; g++)
			p.o[k][g] = 2;
	}
	if (p.at[0] == p.at[1] && p.at[1] == p.at[2])
		return 0;
	gx_plane_side_init(&tp, tau);
	for (int k = 0; k < 3; k++)
		if ((p.ag[k] = gx_plane_side(&tp, f->T + 3 * k)) == 0)
			return -1;
	if (p.ag[0] == p.ag[1] && p.ag[1] == p.ag[2])
		return 0;
	rs = segment_end(&p, true, s);
	re = segment_end(&p, false, e);
	if (rs != re)
		return -1;				/* not reached */
	if (!rs)
		return 0;
	*cross = gx_ddv_add(*cross, cross2(s, e));
	if (p.ag[1] != p.ag[2])
	{
		int			in = y_inside(&p, 1);

		if (in)
		{
			GxDDI		mu = y_param(&p, 1);

			/* through the edge tau shares with its neighbour, which counts the other half */
			if (in < 0)
				mu = gx_ddv_mul(mu, (GxDDI) {0.5, 0, 0});
			*m = p.ag[1] > 0 ? gx_ddv_sub(*m, mu) : gx_ddv_add(*m, mu);
		}
	}
	return 1;
}

/* What the other's triangles cand[0 .. n) do to T. */
typedef enum Cuts
{
	CUTS_NONE,					/* none meets T */
	CUTS_GENERAL,				/* some do, all in general position: *twice set */
	CUTS_SPECIAL				/* some meets T, not in general position */
} Cuts;

/*
 * Twice the area in (t, u) of T's part inside the other solid when its cuts are in general position; *nmet:
 * how many meet it in general position.
 */
static Cuts
inside_area(const GxOverlayCut *c, int drop, const uint32_t *cand, size_t n, GxPlaces *pl, size_t *nmet,
			GxDDI *twice)
{
	Frame		f;
	GxDDI		cross = {0, 0, 0},
				m = {0, 0, 0},
				one = {1, 0, 0};
	GxLocation	loc;

	frame_init(&f, c->T, drop);
	*nmet = 0;
	for (size_t k = 0; k < n; k++)
	{
		const double *tau = c->other->tri + 9 * (size_t) cand[k];
		int			r = add_tau(&f, tau, &cross, &m);

		if (r < 0 && gx_elements_intersect(c->T, 3, tau, 3))
			return CUTS_SPECIAL;
		*nmet += r > 0;
	}
	if (*nmet == 0)
		return CUTS_NONE;
	if ((loc = gx_places_get(pl, c->T + 6)) == GX_LOC_FAILED)
	{
		loc = gx_solid_locate(c->other, c->T + 6);
		if (loc != GX_LOC_INSIDE && loc != GX_LOC_OUTSIDE)
			return CUTS_SPECIAL;
		gx_places_put(pl, c->T + 6, loc);
	}
	if (loc == GX_LOC_INSIDE)
		m = gx_ddv_add(m, one);
	*twice = gx_ddv_add(gx_ddv_div(cross, gx_ddv_mul(f.D, f.D)), m);
	return CUTS_GENERAL;
}

/*
 * Whether one of the other's triangles cand[0 .. n) has T's three vertices: 1 in T's order, -1 in the other,
 * 0 when none. It covers T, and no other triangle of the other's surface meets T's inside.
 */
static int
same_triangle(const GxOverlayCut *c, const uint32_t *cand, size_t n)
{
	const double *T = c->T;

	for (size_t k = 0; k < n; k++)
	{
		const double *tau = c->other->tri + 9 * (size_t) cand[k];

		for (int r = 0; r < 3; r++)
			if (tau[3 * r] == T[0] && tau[3 * r + 1] == T[1] && tau[3 * r + 2] == T[2])
			{
				const double *n1 = tau + 3 * ((r + 1) % 3),
						   *n2 = tau + 3 * ((r + 2) % 3);

				if (n1[0] == T[3] && n1[1] == T[4] && n1[2] == T[5] &&
					n2[0] == T[6] && n2[1] == T[7] && n2[2] == T[8])
					return 1;
				if (n2[0] == T[3] && n2[1] == T[4] && n2[2] == T[5] && n1[0] == T[6] && n1[1] == T[7] &&
					n1[2] == T[8])
					return -1;
			}
	}
	return 0;
}

/* The class of T, which nothing of the other meets: a vertex's place when known, else T0 located. */
static int
whole_class(GxOverlayCut *c, const GxBox3D *box, GxPlaces *pl, GxError *err)
{
	int			cls;

	for (int k = 0; k < 3; k++)
	{
		GxLocation	loc = gx_places_get(pl, c->T + 3 * k);

		if (loc != GX_LOC_FAILED)
			return loc == GX_LOC_INSIDE ? GX_PIECE_INSIDE : GX_PIECE_OUTSIDE;
	}
	if ((cls = gx_overlay_cut_whole(c, box, err)) >= 0)
		for (int k = 0; k < 3; k++)
			gx_places_put(pl, c->T + 3 * k, cls == GX_PIECE_INSIDE ? GX_LOC_INSIDE : GX_LOC_OUTSIDE);
	return cls;
}

/* The classes of side s's pieces (GX_PIECE bits) that the volumes of the ops in the set ops add up. */
static unsigned
classes_needed(unsigned ops, int s)
{
	bool		i = ops & GX_BOOL_OP(GX_BOOL_INTERSECTION),
				u = ops & GX_BOOL_OP(GX_BOOL_UNION),
				d = ops & GX_BOOL_OP(GX_BOOL_DIFFERENCE);

	if (s == 0)
		return (i ? 1u << GX_PIECE_INSIDE : 0) | (u || d ? 1u << GX_PIECE_OUTSIDE : 0) |
			(i || u ? 1u << GX_PIECE_ON_SAME : 0) | (d ? 1u << GX_PIECE_ON_OPPOSITE : 0);
	return (i || d ? 1u << GX_PIECE_INSIDE : 0) | (u ? 1u << GX_PIECE_OUTSIDE : 0);
}

/* One side's pass over its triangles [k0, k1) (filter_side), with its own sums, counts and memory. */
typedef struct FilterShare
{
	GxDDI		sum[GX_PIECE_CLASSES];
	size_t		filtered,
				rational;
	GxError		err;
	bool		ok;
} FilterShare;

#define FILTER_SHARE 1024		/* a side's triangles a share at most: the shares are the same on any threads */

/* A triangle's candidates searched in the other's index (gx_solid_index_search's visit). */
typedef struct Found
{
	uint32_t   *list;
	size_t		n,
				cap;
	bool		nomem;
} Found;

static bool
found_add(void *ctx, size_t j)
{
	Found	   *f = ctx;

	if (!gx_grow_malloc((void **) &f->list, &f->cap, f->n + 1, sizeof(uint32_t), SIZE_MAX / 8))
	{
		f->nomem = true;
		return false;
	}
	f->list[f->n++] = (uint32_t) j;
	return true;
}

/*
 * Side s's triangles near[k] (k itself when near is NULL), k in [k0, k1), against the other solid, their det
 * times their pieces' areas by class into sh's sums, for the classes in need (GX_PIECE bits; a triangle adding
 * only to others is passed over); o: the reference point; cand: the candidates, or NULL: each triangle's
 * searched in the other's index; pl: the places of the points located so far (the thread's).
 */
static void
filter_range(const GxSolidIndex *self, const GxSolidIndex *other, int s, const GxOverlayCandidates *cand,
			 const size_t *near, size_t k0, size_t k1, const double *o, const GxOverlayOptions *opt, unsigned need,
			 GxPlaces *pl, FilterShare *sh)
{
	GxOverlayCut c;
	const GxDDI half = {0.5, 0, 0};
	GxDDI	   *sum = sh->sum;
	GxError    *err = &sh->err;
	mpq_t		detq,
				w;
	bool		ok = true;
	Found		found = {NULL, 0, 0, false};

	gx_overlay_cut_init(&c, other, opt);
	mpq_inits(detq, w, NULL);
	for (size_t k = k0; ok && k < k1; k++)
	{
		size_t		i = near ? near[k] : k;
		const double *T = self->tri + 9 * i;
		const uint32_t *list;
		size_t		nlist,
					nmet;
		int			sigma,
					drop,
					cls,
					same;
		GxDDI		twice;
		Cuts		cuts;

		if (k % CANCEL_EVERY == 0 && gx_cancel_requested(opt->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
			ok = false;
			break;
		}
		if ((drop = gx_triangle_projection(T, &sigma)) < 0)
			continue;			/* a flat triangle bounds no volume */
		if (cand)
		{
			list = cand->list[s] + cand->start[s][i];
			nlist = cand->start[s][i + 1] - cand->start[s][i];
		}
		else
		{
			found.n = 0;
			gx_solid_index_search(other, &self->boxes[i], found_add, &found);
			if (found.nomem)
			{
				gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
				ok = false;
				break;
			}
			list = found.list;
			nlist = found.n;
		}
		c.T = T;
		/* both shortcuts within the bound on cuts, 3 a triangle of the other: past it the rational pieces say */
		if (!(opt->max_cuts && 3 * nlist + 2 > opt->max_cuts) && (same = same_triangle(&c, list, nlist)) != 0)
		{
			cls = same > 0 ? GX_PIECE_ON_SAME : GX_PIECE_ON_OPPOSITE;
			if (need & 1u << cls)
				sum[cls] = gx_ddv_add(sum[cls], gx_ddv_mul(gx_ddv_det(T, o), half));
			continue;
		}
		cuts = nlist == 0 ? CUTS_NONE : inside_area(&c, drop, list, nlist, pl, &nmet, &twice);
		if (cuts == CUTS_GENERAL && opt->max_cuts && 3 * nmet + 2 > opt->max_cuts)
			cuts = CUTS_SPECIAL;
		if (cuts == CUTS_NONE)
		{
			if ((cls = whole_class(&c, &self->boxes[i], pl, err)) < 0)
				ok = false;
			else if (need & 1u << cls)
				sum[cls] = gx_ddv_add(sum[cls], gx_ddv_mul(gx_ddv_det(T, o), half));
		}
		else if (cuts == CUTS_GENERAL)
		{
			GxDDI		det = gx_ddv_det(T, o),
						in = gx_ddv_mul(gx_ddv_mul(det, twice), half);

			sum[GX_PIECE_INSIDE] = gx_ddv_add(sum[GX_PIECE_INSIDE], in);
			sum[GX_PIECE_OUTSIDE] = gx_ddv_add(sum[GX_PIECE_OUTSIDE], gx_ddv_sub(gx_ddv_mul(det, half), in));
			sh->filtered++;
		}
		else
		{
			c.nmet = 0;
			for (size_t k = 0; k < nlist; k++)
				gx_overlay_cut_collect(&c, list[k]);
			if (c.nomem)
			{
				gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
				ok = false;
			}
			else if ((ok = gx_overlay_cut_areas(&c, drop, err)))
			{
				gx_orient3d_value(T, T + 3, T + 6, o, detq);
				for (int k = 0; k < GX_PIECE_CLASSES; k++)
					if (need & 1u << k && mpq_sgn(c.area[k]) != 0)
					{
						mpq_mul(c.area[k], c.area[k], detq);
						sum[k] = gx_ddv_add(sum[k], ddi_of_mpq(c.area[k], w));
					}
				sh->rational++;
			}
		}
	}
	mpq_clears(detq, w, NULL);
	gx_overlay_cut_clear(&c);
	free(found.list);
	sh->ok = ok;
}

/*
 * Side s's triangles against the other solid (filter_range; near: the triangles to look at, nnear of them, NULL
 * for all), their sums added to sum: in shares of FILTER_SHARE triangles on opt's threads, added in order, so
 * that the enclosures are the same on any number of threads.
 */
static bool
filter_side(const GxSolidIndex *self, const GxSolidIndex *other, int s, const GxOverlayCandidates *cand,
			const size_t *near, size_t nnear, const double *o, const GxOverlayOptions *opt, unsigned need,
			GxDDI *sum, GxOverlayVolumes *out, GxError *err)
{
	size_t		n = near ? nnear : self->n,
				nshares = (n + FILTER_SHARE - 1) / FILTER_SHARE;
	FilterShare *share = calloc(nshares + 1, sizeof(FilterShare));
	int			threads = nshares > 1 ? gx_threads_begin(opt->threads, opt->thread_budget) : 1;
	bool		ok = share != NULL;

	if (!ok)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
	else
	{
		#pragma omp parallel num_threads(threads)
		{
			bool		was = gx_alloc_is_plain();
			GxPlaces	pl;		/* a thread's: a point located once in all its shares */
			bool		room;

			/* every allocation of a share from malloc (threads call this) */
			gx_alloc_plain(true);
			room = gx_places_init(&pl, n);
			#pragma omp for schedule(dynamic, 1)
			for (size_t k = 0; k < nshares; k++)
			{
				share[k].err = (GxError) {GX_OK, ""};
				if (!room)
					gx_error_set(&share[k].err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
				else
					filter_range(self, other, s, cand, near, k * FILTER_SHARE,
								 (k + 1) * FILTER_SHARE < n ? (k + 1) * FILTER_SHARE : n, o, opt, need, &pl,
								 &share[k]);
				share[k].ok = room && share[k].ok;
			}
			gx_places_free(&pl);
			gx_alloc_plain(was);
		}
		for (size_t k = 0; ok && k < nshares; k++)
		{
			if (!(ok = share[k].ok))
				*err = share[k].err;
			for (int c = 0; ok && c < GX_PIECE_CLASSES; c++)
				sum[c] = gx_ddv_add(sum[c], share[k].sum[c]);
			out->filtered += share[k].filtered;
			out->rational += share[k].rational;
		}
	}
	if (nshares > 1)
		gx_threads_end();
	free(share);
	return ok;
}

/* The volume v / 3 rounded and its sign into out's slot op: false when the enclosure cannot decide them. */
static bool
round_volume(GxDDI v, int op, GxOverlayVolumes *out)
{
	return gx_overlay_round(v, &out->v[op], &out->sign[op]);
}

/* The rational path's volumes of the ops in the set ops. */
static bool
exact_volumes(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt, unsigned ops,
			  GxOverlayVolumes *out, GxError *err)
{
	GxOverlaySums s;
	mpq_t		v;
	bool		ok;

	gx_overlay_sums_init(&s);
	mpq_init(v);
	if ((ok = gx_overlay_sums(a, b, opt, &s, err)))
		for (int op = 0; op < 3; op++)
			if (ops & GX_BOOL_OP(op))
			{
				gx_overlay_volume(&s, (GxBooleanOp) op, v);
				out->v[op] = gx_mpq_get_d_nearest(v);
				out->sign[op] = mpq_sgn(v);
			}
	mpq_clear(v);
	gx_overlay_sums_clear(&s);
	out->exact_sums = true;
	return ok;
}

/* Whether a and b have the same triangles, bit for bit, in the same order. */
static bool
same_solid(const GxSolidIndex *a, const GxSolidIndex *b)
{
	return a->n == b->n && memcmp(&a->box, &b->box, sizeof(GxBox3D)) == 0 &&
		(a->tri == b->tri || memcmp(a->tri, b->tri, 9 * a->n * sizeof(double)) == 0);
}

/*
 * The volumes of a solid a with itself (b the same triangles): a ∩ a and a ∪ a are a's own volume, a \ a has
 * none. The own volume from the triangles' prisms (gx_overlay_dd.h), in the certified double-doubles the overlay
 * sums det / 2 in: the same exact value as the overlay's, where every piece of a triangle lies on the other's
 * surface, oriented the same way. In rationals where the filter cannot round it.
 */
static bool
same_volumes(const GxSolidIndex *a, const GxOverlayOptions *opt, unsigned ops, GxOverlayVolumes *out,
			 GxError *err)
{
	const GxDDI half = {0.5, 0, 0};
	GxDDI		sum = {0, 0, 0};

	for (size_t i = 0; i < a->n; i++)
	{
		if (i % (16 * CANCEL_EVERY) == 0 && gx_cancel_requested(opt->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
			return false;
		}
		sum = gx_ddv_add(sum, gx_overlay_prism(a->tri + 9 * i, a->tri));
	}
	sum = gx_ddv_mul(sum, half);
	for (int op = 0; op < 2; op++)
		if (ops & GX_BOOL_OP(op) && !round_volume(sum, op, out))
		{
			GxVolumeWork vw;
			mpq_t		v;

			gx_volume_work_init(&vw);
			mpq_init(v);
			gx_volume_exact(a->tri, a->n, &vw, v);
			out->v[op] = gx_mpq_get_d_nearest(v);
			out->sign[op] = mpq_sgn(v);
			mpq_clear(v);
			gx_volume_work_clear(&vw);
			out->exact_sums = true;
		}
	return true;
}

/*
 * gx_overlay_volumes, the pairs of triangles that may meet found here, or given (ngiven pairs at pairs, as
 * gx_overlay_volumes_of_pairs takes them).
 */
static bool
overlay_volumes(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt, unsigned ops,
				bool given, const uint32_t *pairs, size_t ngiven, GxOverlayVolumes *out, GxError *err)
{
	GxDDI		sum[2][GX_PIECE_CLASSES] = {{{0, 0, 0}}},
				v[3];
	GxOverlayCandidates cand;
	GxError		cerr = {GX_OK, ""};
	const double *o = a->tri;
	/* the pairs' lists (24 bytes a pair) within the memory the cut bound allows (about 1 kB a cut) */
	size_t		max_pairs = opt->max_cuts * (size_t) 40;
	size_t	   *near[2] = {NULL, NULL},
				nnear[2] = {0, 0},
				cap[2] = {0, 0};
	unsigned	need[2] = {classes_needed(ops, 0), classes_needed(ops, 1)};
	bool		ok,
				paired = false,
				decided = true;

	*out = (GxOverlayVolumes) {{0, 0, 0}, {0, 0, 0}, 0, 0, false};
	if (same_solid(a, b))
		return same_volumes(a, opt, ops, out, err);
	if (a->n > UINT32_MAX || b->n > UINT32_MAX)
		return exact_volumes(a, b, opt, ops, out, err);
	/* the candidates listed once within the memory the bound allows, else each triangle's searched */
	if (given && !(max_pairs && ngiven > max_pairs) &&
		!(paired = gx_overlay_candidates_of_pairs(a->n, b->n, pairs, ngiven, &cand)))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
		return false;
	}
	if (!given && !(paired = gx_overlay_candidates(a, b, opt, max_pairs, &cand, &cerr)) &&
		cerr.code != GX_ERR_LIMIT)
	{
		gx_error_set(err, cerr.code, "%s", cerr.msg);
		return false;
	}
	/*
	 * a side whose pieces outside the other count for none of the ops: only its triangles whose boxes meet the
	 * other's box (from its index), the others lying outside it
	 */
	ok = true;
	for (int k = 0; ok && k < 2; k++)
		if (!(need[k] & 1u << GX_PIECE_OUTSIDE) &&
			!(ok = gx_solid_index_near(k ? b : a, k ? &a->box : &b->box, &near[k], &nnear[k], &cap[k])))
			gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting solids' triangles");
	/* with none near (near NULL then), nothing of that side is looked at */
	for (int k = 0; ok && k < 2; k++)
		if (need[k] & 1u << GX_PIECE_OUTSIDE || near[k])
			ok = filter_side(k ? b : a, k ? a : b, k, paired ? &cand : NULL, near[k], nnear[k], o, opt, need[k],
							 sum[k], out, err);
	if (paired)
		gx_overlay_candidates_free(&cand);
	free(near[0]);
	free(near[1]);
	if (!ok)
		return false;
	v[GX_BOOL_INTERSECTION] = gx_ddv_add(gx_ddv_add(sum[0][GX_PIECE_INSIDE], sum[1][GX_PIECE_INSIDE]),
										sum[0][GX_PIECE_ON_SAME]);
	v[GX_BOOL_UNION] = gx_ddv_add(gx_ddv_add(sum[0][GX_PIECE_OUTSIDE], sum[1][GX_PIECE_OUTSIDE]),
								 sum[0][GX_PIECE_ON_SAME]);
	v[GX_BOOL_DIFFERENCE] = gx_ddv_add(gx_ddv_sub(sum[0][GX_PIECE_OUTSIDE], sum[1][GX_PIECE_INSIDE]),
									  sum[0][GX_PIECE_ON_OPPOSITE]);
	for (int op = 0; decided && op < 3; op++)
		decided = !(ops & GX_BOOL_OP(op)) || round_volume(v[op], op, out);
	return decided || exact_volumes(a, b, opt, ops, out, err);
}

bool
gx_overlay_volumes(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt, unsigned ops,
				   GxOverlayVolumes *out, GxError *err)
{
	return overlay_volumes(a, b, opt, ops, false, NULL, 0, out, err);
}

bool
gx_overlay_volumes_of_pairs(const GxSolidIndex *a, const GxSolidIndex *b, const GxOverlayOptions *opt, unsigned ops,
							const uint32_t *pairs, size_t npairs, GxOverlayVolumes *out, GxError *err)
{
	return overlay_volumes(a, b, opt, ops, true, pairs, npairs, out, err);
}
