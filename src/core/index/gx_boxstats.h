/*
 * gx_boxstats.h: statistics of a set of 3D boxes, for the planner's selectivity estimates, and the
 * probability that a box drawn from one set overlaps a box drawn from another (or a given box).
 *
 * The model: the centres of the boxes follow a histogram on a grid over the extent of the centres, uniform
 * within each cell, and every box has the set's mean width on each axis. Two boxes overlap iff on every
 * axis their centres lie at most half the sum of their widths apart; the axes are independent within a
 * pair of cells. Flat or point-like sets (zero width or zero extent on an axis) are exact limits of the
 * model, not special cases.
 *
 * Encoded form (an array of doubles, as stored in pg_statistic):
 *   [0] GX_BOXSTATS_VERSION   [1] fraction of the values that are EMPTY
 *   [2..4] cells per axis     [5..7] lowest centre    [8..10] highest centre    [11..13] mean width
 *   [14..] fraction of the non-EMPTY boxes whose centre is in each cell, x fastest (they sum to 1)
 * A set with no non-EMPTY box has 0 cells on every axis and nothing after the header.
 */
#ifndef GX_BOXSTATS_H
#define GX_BOXSTATS_H

#include <stdbool.h>
#include <stddef.h>

#include "geom/gx_geom.h"

#define GX_BOXSTATS_VERSION		1
#define GX_BOXSTATS_HEADER		14
/* Cells: about ten sampled boxes a cell, at most 1000 in all and 64 on one axis (estimates stay cheap). */
#define GX_BOXSTATS_BOXES_PER_CELL 10
#define GX_BOXSTATS_MAX_CELLS	1000
#define GX_BOXSTATS_MAX_AXIS_CELLS 64

typedef struct GxBoxStats
{
	double		empty_frac;
	int			n[3];			/* cells per axis; all 0 when there is no box */
	double		lo[3],
				hi[3];			/* extent of the centres */
	double		width[3];		/* mean extent of the boxes */
	const double *cells;		/* n[0] * n[1] * n[2] fractions */
} GxBoxStats;

/*
 * Statistics of nboxes boxes (none EMPTY; finite bounds) and nempty EMPTY values, encoded into out, which
 * has room for GX_BOXSTATS_HEADER + GX_BOXSTATS_MAX_CELLS doubles. Returns the number of doubles written.
 */
size_t		gx_boxstats_build(const GxBox3D *boxes, size_t nboxes, size_t nempty, double *out);

/* Reads an encoded form (pointing into v); false if it is not one this version wrote. */
bool		gx_boxstats_decode(const double *v, size_t len, GxBoxStats *s);

/* The statistics of the single box b (not EMPTY); *cell holds its one cell. */
void		gx_boxstats_of_box(const GxBox3D *b, GxBoxStats *s, double *cell);

/*
 * Probability that a non-EMPTY box of a and a non-EMPTY box of b overlap, in [0, 1]; 0 if either has no
 * box. Uses scratch memory from gx_alloc; returns -1 if it cannot get it.
 */
double		gx_boxstats_overlap(const GxBoxStats *a, const GxBoxStats *b);

#endif
