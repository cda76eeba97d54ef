/*
 * gx_distance_filter.c: gx_elem_dist2_bounds and gx_elem_dwithin_filter, the certified bounds and the
 * filter of gx_distance_filter_impl.h (shared with the CUDA engine) on the CPU.
 */
#include "algorithm/gx_distance_filter_impl.h"
#include "algorithm/gx_elem_distance.h"

void
gx_elem_dist2_bounds(GxElem ea, GxElem eb, double *lo, double *hi)
{
	gx_dist2_bounds(ea.c, ea.kind, eb.c, eb.kind, lo, hi);
}

int
gx_elem_dwithin_filter(GxElem a, GxElem b, double d2_lo, double d2_hi)
{
	return gx_dist2_within(a.c, a.kind, b.c, b.kind, d2_lo, d2_hi);
}
