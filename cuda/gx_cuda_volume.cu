/*
 * gx_cuda_volume.cu: the volume filter on the device, one thread per (box, solid) query: the column sum of
 * src/core/operation/gx_volume_dd.h over the triangles of the solid's column grid that the CPU's search
 * finds (gx_solid_index_search: the triangles whose boxes meet the column from the box to the solid's far
 * side, each once, in the cell of the minimum corner of the overlap), and the same verdict. A volume the
 * device rounds is the correctly rounded volume; the others go back to the CPU (gx_volume.c).
 */
#include "base/gx_hd.h"
#include "gx_cuda_internal.h"
#include "operation/gx_volume_dd.h"

static __device__ __forceinline__ bool
boxes_meet(const GxBox3D *a, const GxBox3D *b)
{
	return a->xmin <= b->xmax && b->xmin <= a->xmax && a->ymin <= b->ymax && b->ymin <= a->ymax &&
		a->zmin <= b->zmax && b->zmin <= a->zmax;
}

static __global__ void
volume_kernel(GxDevColumns c, const double *boxes, const double *reach, const uint8_t *down, const uint32_t *solid,
			  size_t n, uint8_t *verdict, double *value)
{
	for (size_t q = blockIdx.x * (size_t) blockDim.x + threadIdx.x; q < n; q += (size_t) gridDim.x * blockDim.x)
	{
		const double *x = boxes + 6 * q;
		GxBox3D		box = {x[0], x[1], x[2], x[3], x[4], x[5]},
					column = box;
		uint32_t	g = solid[q];
		int			nx,
					ny;
		const double *fr;
		GxVolumeFilterWork w;
		Bounds_dd	b;
		double		v = 0;

		if (g >= c.ngeoms || (nx = c.dim[2 * g]) == 0 || (ny = c.dim[2 * g + 1]) == 0)
		{
			verdict[q] = GX_VOLUME_UNDECIDED;
			continue;
		}
		fr = c.frame + 4 * g;
		if (down[q])
			column.zmin = fmin(box.zmin, reach[q]);
		else
			column.zmax = fmax(box.zmax, reach[q]);
		w.undecided = false;
		gx_ddi_set_d(w.sum, 0);
		bounds_init_dd(&b, &box);
		for (int j = gx_dev_cell_of(column.ymin, fr[1], fr[3], ny); j <= gx_dev_cell_of(column.ymax, fr[1], fr[3], ny); j++)
			for (int i = gx_dev_cell_of(column.xmin, fr[0], fr[2], nx); i <= gx_dev_cell_of(column.xmax, fr[0], fr[2], nx);
				 i++)
			{
				unsigned long long cell = c.cell0[g] + (unsigned long long) j * nx + i;

				for (unsigned long long k = c.start[cell]; k < c.start[cell + 1]; k++)
				{
					const double *t = c.coords + 9 * (size_t) c.items[k];
					GxBox3D		tb = {fmin(t[0], fmin(t[3], t[6])), fmin(t[1], fmin(t[4], t[7])),
						fmin(t[2], fmin(t[5], t[8])), fmax(t[0], fmax(t[3], t[6])), fmax(t[1], fmax(t[4], t[7])),
					fmax(t[2], fmax(t[5], t[8]))};

					/* a triangle spanning several cells counts in one of them */
					if (!boxes_meet(&tb, &column) ||
						gx_dev_cell_of(fmax(tb.xmin, column.xmin), fr[0], fr[2], nx) != i ||
						gx_dev_cell_of(fmax(tb.ymin, column.ymin), fr[1], fr[3], ny) != j)
						continue;
					add_triangle_in_box_dd(&w, t, &box, &b, down[q] != 0);
				}
			}
		verdict[q] = (uint8_t) volume_verdict_dd(&w, &box, &v);
		value[q] = v;
	}
}

cudaError_t
gx_launch_volumes(const GxDevColumns *c, const double *boxes, const double *reach, const uint8_t *down,
				  const uint32_t *solid, size_t n, uint8_t *verdict, double *value, cudaStream_t st)
{
	if (n == 0)
		return cudaSuccess;
	volume_kernel<<<gx_blocks(n), GX_CUDA_BLOCK, 0, st>>>(*c, boxes, reach, down, solid, n, verdict, value);
	return cudaGetLastError();
}
