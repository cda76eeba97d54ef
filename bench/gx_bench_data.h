/* gx_bench_data.h: workloads for the batch engine's benchmarks and device tests. */
#ifndef GX_BENCH_DATA_H
#define GX_BENCH_DATA_H

#include "batch/gx_batch.h"

/*
 * A mining dataset at UTM coordinates (zone 33N): drill holes from collars on a 25 m grid, with azimuth,
 * dip and downhole deviation, 10-20 m segments; ore bodies as closed, non-convex triangulated surfaces of
 * several sizes at 30-300 m depth. scale 1 is about the size of Menezes 2021's (section 3.4): 400 holes,
 * ~7 800 segments (A) against ~1 000 000 triangles in 200 bodies (B); both grow linearly with scale.
 */
void		gx_bench_mining(double scale, unsigned seed, GxBatchSide *holes, GxBatchSide *bodies);
/* The same with each ore body made a solid (gx_solid.h). */
void		gx_bench_mining_solids(double scale, unsigned seed, GxBatchSide *holes, GxBatchSide *bodies);
/* One ore body of 4 n^2 triangles and radius about r, as a TIN (SRID 32633), gx_alloc'd. */
GxSerialized *gx_bench_ore_body(unsigned seed, double r, int n);

/*
 * A stockpile as a double pyramid of ntri triangles (ntri / 2 rim vertices on a circle of radius 100 m, an
 * apex 60 m above and one 60 m below its centre), every triangle fanning out from an apex, as a TIN (SRID
 * 32633), gx_alloc'd; flat: the lower apex at the rim's centre (a cone on a flat base fanning out from its
 * centre). planted: one rim vertex moved across the axis to twice the radius, so that two of its apex
 * triangles poke through the far side (not a solid).
 */
GxSerialized *gx_bench_cone(int ntri, bool flat, bool planted);

/*
 * A triangle mesh (from an STL file) refined `levels` times by 1-to-4 midpoint subdivision, as side a,
 * and the same mesh translated by `shift` (fractions of its box's sides) as side b (as Menezes 2021 intersects
 * a mesh with its translated copy), each side cut into TIN geometries of 256 source triangles (4 096
 * triangles at 2 levels), like the rows of a mesh table. false if the file cannot be read.
 */
bool		gx_bench_mesh_pair(const char *stl_path, int levels, double shift, GxBatchSide *a, GxBatchSide *b);

/*
 * n segments running north-south and n running east-west through one small region of the plane z = 0:
 * every one of the n * n pairs crosses (a worst case for output size, used to time cancellation).
 */
void		gx_bench_crossing(int n, GxBatchSide *a, GxBatchSide *b);

#endif
