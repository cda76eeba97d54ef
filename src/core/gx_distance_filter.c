/*
 * gx_distance_filter.c: gx_elem_dist2_bounds, the certified bounds of gx_distance_filter_impl.h (shared
 * with the CUDA engine) on the CPU.
 */
#include "gx_distance.h"
#include "gx_distance_filter_impl.h"

void
gx_elem_dist2_bounds(GxElem ea, GxElem eb, double *lo, double *hi)
{
	gx_dist2_bounds(ea.c, ea.kind, eb.c, eb.kind, lo, hi);
}
