/*
 * gx_batch_side.h: one side of a batch: its geometries flattened into elements (see cuda/gx_cuda.h for the
 * layout), and what the engines ask of its elements: boxes and exact pair tests.
 */
#ifndef GX_BATCH_SIDE_H
#define GX_BATCH_SIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geom/gx_box.h"
#include "geom/gx_geom.h"

typedef struct GxBatchSide
{
	size_t		n;				/* elements */
	size_t		cap;
	double	   *coords;			/* 9 doubles per element; unused vertex slots repeat the last vertex */
	uint8_t    *kind;			/* 1 point, 2 segment, 3 triangle */
	uint32_t   *geom;			/* index of the element's geometry in this side */
	uint32_t	ngeoms;
	int32_t		srid;			/* the first non-zero SRID of the side's geometries (0 if none) */
	bool		mixed_srid;		/* geometries with different non-zero SRIDs were added */
	bool		unknown_srid;	/* a geometry of SRID 0 was added */
	GxBox3D		extent;			/* of all elements (meaningless while n == 0) */
	uint8_t    *solid;			/* per geometry, 1 for a solid (gx_solid.h); NULL when there is none */
	size_t		solid_cap;		/* geometries the array covers (those past it are not solids) */
	struct GxSideIndex *index;	/* a kept side's boxes, grid and solid indexes (gx_side_index.h), or NULL */
} GxBatchSide;

void		gx_batch_side_init(GxBatchSide *s);
/*
 * Appends g's elements as geometry number s->ngeoms (which it then increments). EMPTY adds none. g may be
 * packed (gx_pack.h; accepted by gx_unpacked_size), as for gx_batch_side_add_many.
 */
bool		gx_batch_side_add(GxBatchSide *s, const GxSerialized *g, GxError *err);
/*
 * gx_batch_side_add of g[0..n) in turn, with the elements laid out in parallel (OpenMP) for large ones. A
 * value may also be packed (gx_pack.h; accepted by gx_unpacked_size): its surfaces are unpacked straight
 * into the side. A side whose arrays already have room for them (cap) keeps its arrays: they may be placed
 * by the caller (such as in a shared segment, gx_wire_side_room), and are then the caller's to free.
 */
bool		gx_batch_side_add_many(GxBatchSide *s, const GxSerialized *const *g, size_t n, GxError *err);
/* The elements gx_batch_side_add_many appends for g[0..n), packed or not (counted in parallel for many). */
size_t		gx_batch_side_count_many(const GxSerialized *const *g, size_t n);
void		gx_batch_side_free(GxBatchSide *s);

/*
 * An empty side s made the side of n boxes: element i is the diagonal of boxes[i], from its minimum corner
 * to its maximum, as geometry i (how gx_volume_pairs's blocks travel to the GPU service); and the boxes of
 * such a side back into out[0 .. s->n).
 */
bool		gx_batch_side_of_boxes(GxBatchSide *s, const GxBox3D *boxes, size_t n, GxError *err);
void		gx_batch_side_boxes(const GxBatchSide *s, GxBox3D *out);

/* Is every geometry of s a solid (and s has some)? Is every element of s a point? */
bool		gx_batch_side_all_solids(const GxBatchSide *s);
bool		gx_batch_side_all_points(const GxBatchSide *s);

/* Box of element i of a side. */
GxBox3D		gx_batch_elem_box(const GxBatchSide *s, size_t i);

/* Box of element i of s grown by grow >= 0 (gx_box_expand): side a's boxes in a distance batch. */
GxBox3D		gx_batch_elem_box_grown(const GxBatchSide *s, size_t i, double grow);

/*
 * The boxes of about GX_SIDE_SAMPLE elements of s, grown by grow, into out (room for GX_SIDE_SAMPLE): what
 * the engine estimates element sizes and grid entries from. Returns how many.
 */
#define GX_SIDE_SAMPLE 1024
size_t		gx_batch_side_sample(const GxBatchSide *s, double grow, GxBox3D *out);

/* Element i of side a against element j of side b, exactly (the CPU ladder). */
bool		gx_batch_elems_intersect(const GxBatchSide *a, size_t i, const GxBatchSide *b, size_t j);

/* Are element i of side a and element j of side b within distance d of each other? Exactly. */
bool		gx_batch_elems_within(const GxBatchSide *a, size_t i, const GxBatchSide *b, size_t j, double d);

#endif
