/*
 * gx_cut_impl.h: what the files of the cut share (gx_cut.c the triangulation, gx_cut_points.c its points and
 * the signs among them, gx_cut_sections.c the filtered sections of gx_cut_add_group): the cut's state and
 * their calls. Not for other callers: they use gx_cut.h.
 */
#ifndef GX_CUT_IMPL_H
#define GX_CUT_IMPL_H

#include <stdint.h>

#include "algorithm/gx_cut.h"
#include "algorithm/gx_ddi.h"
#include "algorithm/gx_plane_coords.h"
#include "algorithm/gx_plane_near.h"

typedef GxTU Point;

/* A point's (t, u) enclosed. */
typedef struct Near
{
	GxDDI		t,
				u;
} Near;

/* How a point's exact (t, u) is made when first needed. */
typedef enum Make
{
	MADE,						/* it is */
	CROSSING,					/* where edge x[0..3) x[3..6) crosses T's plane */
	CLIP						/* where the segment between the crossings of edges x[0..6) and x[6..12) crosses
								 * domain triangle dtri's edge dedge (T's: 0 where t = 0, 1 u = 0, 2 t + u = 1) */
} Make;

#define LINES 4					/* domain edges' lines remembered a point; more are forgotten (only the filter is lost) */

typedef struct Lazy
{
	double		x[12];
	size_t		dtri;
	uint32_t	line[LINES];	/* the domain edges' lines it lies on (c->line) */
	uint8_t		dedge,
				make,
				nline;
	bool		made;			/* its rationals are (always when MADE) */
} Lazy;

typedef struct Edge
{
	size_t		a,
				b,
				src;			/* the gx_cut_add call that made it, counted from 0 */
} Edge;

/* A triangle of the triangulation: nb[k] the one across the edge opposite v[k], -1 on T's edges. */
typedef struct Tri
{
	size_t		v[3];
	long		nb[3];
} Tri;

struct GxCut
{
	GxPlaneCoords f;			/* T's (t, u), the triangles lying in its plane */
	Point	   *dom;			/* the domain's triangles' corners, 3 each, counter-clockwise: T's first */
	double	   *domxyz;			/* their coordinates, 9 a triangle */
	size_t		ndom,
				domcap;
	Near	   *domnear;		/* the domain's corners enclosed */
	const double **line;		/* the domain edges' lines, by the ends of one edge on each, 2 a line */
	size_t		nline,
				linecap;
	GxPlaneNear pn;
	Point	   *pt;				/* exact where lazy says MADE */
	Near	   *near;			/* per point */
	Lazy	   *lazy;
	size_t		npt,
				ptcap,
				nearcap,
				lazycap;
	Edge	   *cut;			/* by their ends' points */
	size_t		ncut,
				cutcap;
	Tri		   *tri;
	size_t		ntri,
				tricap;
	Edge	   *con;			/* the split cuts, a < b, sorted */
	size_t		ncon,
				concap;
	size_t	   *piece,			/* per triangle */
			   *rep,			/* per piece: one of its triangles */
				npieces;
	size_t		limit,
				nadded;			/* gx_cut_add calls so far */
	const GxCancel *cancel;		/* gx_cut_build's: polled in every loop over points, cuts or flips */
	bool		exact,			/* no filter: every sign in rationals */
				nomem,
				over,
				cancelled;
};

/* An enclosure of q (radius 0 when q is a double). */
void		gx_cut_enclose(mpq_srcptr q, GxDDI *r);

/* Room for one more point or cut under the limit; else c->over set. */
bool		gx_cut_room(GxCut *c);

/* v = (b - a) x (x - a); w scratch. */
void		gx_cut_edge_value(const Point *a, const Point *b, const Point *x, mpq_ptr v, mpq_ptr w);

/* Domain triangle k's edge function e at x: T's t, u and 1 - t - u, another's (b - a) x (x - a); w scratch. */
void		gx_cut_dom_edge_value(const GxCut *c, size_t k, int e, const Point *x, mpq_ptr v, mpq_ptr w);

/* Point k, its rationals made as its Lazy says when they are not yet (c->f's scratch used). */
const Point *gx_cut_exact_pt(GxCut *c, size_t k);

/* Are ab and pq the same edge (the same coordinates)? */
bool		gx_cut_same_edge(const double *a, const double *b, const double *p, const double *q);

/* The ends of domain triangle k's edge e, as clip_to numbers them (T's: 0 where t = 0, 1 u = 0, 2 t + u = 1). */
void		gx_cut_dom_edge_ends(const GxCut *c, size_t k, int e, const double **a, const double **b);

/* The id of the line of domain triangle k's edge e (as clip_to numbers them); UINT32_MAX without memory. */
uint32_t	gx_cut_line_of(GxCut *c, size_t k, int e);

/* Point p lies on line id (gx_cut_line_of). */
void		gx_cut_on_line(GxCut *c, size_t p, uint32_t id);

/*
 * The index of the point enclosed by n and made as how says (its rationals t and u when how->made), added
 * when new; SIZE_MAX when out of room or memory.
 */
size_t		gx_cut_add_made(GxCut *c, const Near *n, const Lazy *how, mpq_srcptr t, mpq_srcptr u);

/* The index of point (t, u), added when new; SIZE_MAX when out of room or memory. */
size_t		gx_cut_add_point(GxCut *c, mpq_srcptr t, mpq_srcptr u);

/* A cut from point a to point b, made by the current gx_cut_add call (none when a == b or either failed). */
void		gx_cut_add_cut(GxCut *c, size_t a, size_t b);

/* The sign of (b - a) x (p - a) for points a, b and p: -1, 0 or 1. */
int			gx_cut_orient(GxCut *c, size_t a, size_t b, size_t p);

/* The sign of point x's t (coordinate 0) or u (1) less point y's. */
int			gx_cut_cmp_coord(GxCut *c, size_t x, size_t y, int k);

/* gx_cut_add_group from the enclosures (gx_cut_sections.c); false, with nothing added, when it cannot. */
bool		gx_cut_add_group_near(GxCut *c, const double *tri, const size_t *idx, size_t n);

#endif
