/*
 * gx_side_index.h: what a batch side kept between batches (a cache's) carries besides its elements, so that
 * a batch against it costs what its other side reaches, not the whole side: the boxes of its elements and
 * geometries, a grid over the elements, and each solid's point location index (gx_solid.h). The batch
 * engine computes the same per batch for a side without one.
 */
#ifndef GX_SIDE_INDEX_H
#define GX_SIDE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../cuda/gx_cuda.h"
#include "batch/gx_batch_side.h"
#include "index/gx_grid.h"
#include "solid/gx_solid.h"

typedef struct GxSideIndex
{
	GxBox3D    *elem_box;		/* per element */
	size_t	   *first;			/* per geometry g, its elements first[g] .. first[g + 1] */
	GxBox3D    *geom_box;		/* per geometry (empty for EMPTY) */
	GxGrid		grid;			/* over elem_box, a few elements per cell */
	GxSolidIndex *solid;		/* per geometry, each solid's (n == 0 for the others); NULL without solids */
	size_t		bytes;
} GxSideIndex;

/* Builds s->index (freed with the side, gx_batch_side_free). On the owner's thread (gx_alloc). */
bool		gx_side_index_build(GxBatchSide *s, GxError *err);
void		gx_side_index_free(GxBatchSide *s);

/*
 * The point location index of geometry g of s (a solid), whose elements start at first[g]; and the freeing
 * of an array of such indexes, one per geometry (those never built have n == 0).
 */
bool		gx_side_solid_index_build(const GxBatchSide *s, const size_t *first, uint32_t g, GxSolidIndex *idx,
									  GxError *err);
void		gx_side_solid_indexes_free(GxSolidIndex *idx, uint32_t ngeoms);

/*
 * The indexes of the solids g of s with want[g] into idx[g], in parallel; *bytes what they hold. Where only
 * the calling thread may call the allocator (palloc), each is built with malloc on a worker thread, then
 * copied here into the allocator's memory: the copy costs a small part of the build. On failure (err set)
 * none is left built. *bytes (when not NULL) grows by what they hold.
 */
bool		gx_side_solid_indexes_build(const GxBatchSide *s, const size_t *first, const uint8_t *want,
										GxSolidIndex *idx, size_t *bytes, GxError *err);

/*
 * The point location grids of an indexed side's solids in the CUDA engine's form (GxCudaColumns, kept on
 * the device with the side for gx_cuda_locate), its arrays gx_alloc'd; false when memory runs out.
 */
bool		gx_side_index_columns(const GxBatchSide *s, GxCudaColumns *c);
void		gx_side_index_columns_free(GxCudaColumns *c);

/* Per geometry first elements and boxes of any side (of its index when it has one: then not to be freed). */
bool		gx_side_ranges(const GxBatchSide *s, size_t **first, GxBox3D **geom_box, GxError *err);
void		gx_side_ranges_free(const GxBatchSide *s, size_t *first, GxBox3D *geom_box);

/*
 * About how many elements gx_side_index_reaching would look at for grid (queries from its occupied cells);
 * when it is more than the side's elements, looking at each element's box is cheaper.
 */
double		gx_side_index_query_cost(const GxBatchSide *s, const GxGrid *grid);

/*
 * The elements of an indexed side whose boxes, grown by grow, reach an occupied cell of grid (in no
 * particular order): *elem gx_alloc'd, *n of them. Found through the side's grid from the occupied cells,
 * then each checked as gx_grid_box_reaches_occupied does. false with err on memory or cancel.
 */
bool		gx_side_index_reaching(const GxBatchSide *s, double grow, const GxGrid *grid, uint32_t **elem, size_t *n,
								   const GxCancel *cancel, GxError *err);

#endif
