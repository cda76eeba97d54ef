/*
 * gx_cuda_predicates.cu: the element tests on the device (Menezes 2021, section 4.2.4) with the orientation
 * ladder split into passes, each a kernel over a list of element pairs:
 *   float pass  (GX_PASS_FLOAT):  float32 interval arithmetic only, on coordinates translated to the
 *                                 extent's centre with outward rounding (computed once per coordinate);
 *   filter pass (GX_PASS_FILTER): gx_orient*_filter (double, Shewchuk's stage A) only;
 *   exact pass  (GX_PASS_EXACT):  the filter, then gx_orient*_exact_expansion (exact expansions, FMA
 *                                 two-product), else GX_UNDECIDED: the pair goes to the CPU.
 * A pass decides a pair only if every sign its test needed was certified; the pairs it leaves undecided
 * go to the next pass, so a pass's undecided count is the failures count of that rung (in pairs).
 *
 * The tests come from src/core/algorithm/gx_primitives_impl.h, included once per pass inside its own namespace with
 * GXP_ORIENT3D/GXP_ORIENT2D bound to that pass's rung. The rungs are __noinline__ so the large tests stay
 * compact; the expansions' big local arrays exist only in the exact pass.
 */
#include <math.h>

#include "algorithm/gx_orient.h"
#include "base/gx_hd.h"
#include "gx_cuda_internal.h"
#include "gx_cuda_rungs.cuh"

/* ---------------------------------------------------------------------------------------------------- */
/* Float32 interval rung                                                                                  */
/* ---------------------------------------------------------------------------------------------------- */

/* Where the float pass finds the intervals of a coordinate given its address in either side's coords. */
struct GxFloatMap
{
	const double *ca,
			   *cb;
	const float2 *fa,
			   *fb;
	unsigned long long na_bytes;	/* bytes of side a's coordinates */
};

__shared__ GxFloatMap s_fmap;	/* per block; written by the float kernel's first thread */

typedef struct
{
	float		lo,
				hi;
} GxFI;

#ifdef __CUDA_ARCH__
static __device__ __forceinline__ const float2 *
fmap(const double *p)
{
	unsigned long long off = (unsigned long long) ((uintptr_t) p - (uintptr_t) s_fmap.ca);

	if (off < s_fmap.na_bytes)
		return s_fmap.fa + off / sizeof(double);
	return s_fmap.fb + ((uintptr_t) p - (uintptr_t) s_fmap.cb) / sizeof(double);
}

static __device__ __forceinline__ GxFI
fi_sub(float2 a, float2 b)
{
	GxFI		r = {__fsub_rd(a.x, b.y), __fsub_ru(a.y, b.x)};

	return r;
}

static __device__ __forceinline__ GxFI
fi_subi(GxFI a, GxFI b)
{
	GxFI		r = {__fsub_rd(a.lo, b.hi), __fsub_ru(a.hi, b.lo)};

	return r;
}

static __device__ __forceinline__ GxFI
fi_add(GxFI a, GxFI b)
{
	GxFI		r = {__fadd_rd(a.lo, b.lo), __fadd_ru(a.hi, b.hi)};

	return r;
}

/*
 * Interval product. Lower bounds are never +inf and upper bounds never -inf (directed rounding of a finite
 * overflow gives FLT_MAX on the inner side), so only inf * 0 can make a NaN: the whole line then.
 */
static __device__ __forceinline__ GxFI
fi_mul(GxFI a, GxFI b)
{
	float		l1 = __fmul_rd(a.lo, b.lo),
				l2 = __fmul_rd(a.lo, b.hi),
				l3 = __fmul_rd(a.hi, b.lo),
				l4 = __fmul_rd(a.hi, b.hi);
	float		h1 = __fmul_ru(a.lo, b.lo),
				h2 = __fmul_ru(a.lo, b.hi),
				h3 = __fmul_ru(a.hi, b.lo),
				h4 = __fmul_ru(a.hi, b.hi);
	GxFI		r;

	if (isnan(l1) || isnan(l2) || isnan(l3) || isnan(l4))
	{
		r.lo = -INFINITY;
		r.hi = INFINITY;
		return r;
	}
	r.lo = fminf(fminf(l1, l2), fminf(l3, l4));
	r.hi = fmaxf(fmaxf(h1, h2), fmaxf(h3, h4));
	return r;
}

/* Certified sign of an interval; an interval holding 0 (even [0, 0]) is undecided. */
static __device__ __forceinline__ int
fi_sign(GxFI d)
{
	if (d.lo > 0)
		return 1;
	if (d.hi < 0)
		return -1;
	return GX_UNDECIDED;
}
#endif

static __host__ __device__ __noinline__ int
gxf_orient3d(const double *a, const double *b, const double *c, const double *d)
{
#ifdef __CUDA_ARCH__
	const float2 *fa = fmap(a),
			   *fb = fmap(b),
			   *fc = fmap(c),
			   *fd = fmap(d);
	float2		pd0 = fd[0],
				pd1 = fd[1],
				pd2 = fd[2];
	GxFI		adx = fi_sub(fa[0], pd0),
				ady = fi_sub(fa[1], pd1),
				adz = fi_sub(fa[2], pd2);
	GxFI		bdx = fi_sub(fb[0], pd0),
				bdy = fi_sub(fb[1], pd1),
				bdz = fi_sub(fb[2], pd2);
	GxFI		cdx = fi_sub(fc[0], pd0),
				cdy = fi_sub(fc[1], pd1),
				cdz = fi_sub(fc[2], pd2);
	GxFI		m1 = fi_subi(fi_mul(bdx, cdy), fi_mul(cdx, bdy));
	GxFI		m2 = fi_subi(fi_mul(cdx, ady), fi_mul(adx, cdy));
	GxFI		m3 = fi_subi(fi_mul(adx, bdy), fi_mul(bdx, ady));

	return fi_sign(fi_add(fi_add(fi_mul(adz, m1), fi_mul(bdz, m2)), fi_mul(cdz, m3)));
#else
	return GX_UNDECIDED;
#endif
}

static __host__ __device__ __noinline__ int
gxf_orient2d(const double *a, const double *b, const double *c, int drop)
{
#ifdef __CUDA_ARCH__
	int			i = (drop + 1) % 3,
				j = (drop + 2) % 3;
	const float2 *fa = fmap(a),
			   *fb = fmap(b),
			   *fc = fmap(c);
	GxFI		acx = fi_sub(fa[i], fc[i]),
				acy = fi_sub(fa[j], fc[j]);
	GxFI		bcx = fi_sub(fb[i], fc[i]),
				bcy = fi_sub(fb[j], fc[j]);

	return fi_sign(fi_subi(fi_mul(acx, bcy), fi_mul(acy, bcx)));
#else
	return GX_UNDECIDED;
#endif
}

/* ---------------------------------------------------------------------------------------------------- */
/* Double rungs                                                                                           */
/* ---------------------------------------------------------------------------------------------------- */

static __host__ __device__ __noinline__ int
gxd_orient3d_filter(const double *a, const double *b, const double *c, const double *d)
{
	return gx_orient3d_filter(a, b, c, d);
}

static __host__ __device__ __noinline__ int
gxd_orient2d_filter(const double *a, const double *b, const double *c, int drop)
{
	return gx_orient2d_filter(a, b, c, drop);
}

/* gxd_orient3d_exact, gxd_orient2d_exact: gx_cuda_rungs.cuh */

/* ---------------------------------------------------------------------------------------------------- */
/* The element tests, once per rung                                                                      */
/* ---------------------------------------------------------------------------------------------------- */

#define GXP_ORIENT3D gxf_orient3d
#define GXP_ORIENT2D gxf_orient2d
namespace gx_float
{
#include "algorithm/gx_primitives_impl.h"
}
#undef GX_PRIMITIVES_IMPL_H
#undef GXP_ORIENT3D
#undef GXP_ORIENT2D

#define GXP_ORIENT3D gxd_orient3d_filter
#define GXP_ORIENT2D gxd_orient2d_filter
namespace gx_filter
{
#include "algorithm/gx_primitives_impl.h"
}
#undef GX_PRIMITIVES_IMPL_H
#undef GXP_ORIENT3D
#undef GXP_ORIENT2D

#define GXP_ORIENT3D gxd_orient3d_exact
#define GXP_ORIENT2D gxd_orient2d_exact
namespace gx_exact
{
#include "algorithm/gx_primitives_impl.h"
}
#undef GXP_ORIENT3D
#undef GXP_ORIENT2D

template <int PASS>
static __device__ __forceinline__ int
test_pair(const double *a, int ka, const double *b, int kb)
{
	if (PASS == GX_PASS_FLOAT)
		return gx_float::gxp_elements(a, ka, b, kb);
	if (PASS == GX_PASS_FILTER)
		return gx_filter::gxp_elements(a, ka, b, kb);
	return gx_exact::gxp_elements(a, ka, b, kb);
}

template <int PASS>
__global__ void __launch_bounds__(GX_CUDA_BLOCK)
pred_kernel(GxDevSide a, GxDevSide b, const uint2 *__restrict__ in, unsigned long long n, bool element_pairs,
			unsigned *found, unsigned long long nb, unsigned long long *keys, uint2 *next,
			unsigned long long *counters)
{
	if (PASS == GX_PASS_FLOAT)
	{
		if (threadIdx.x == 0)
		{
			s_fmap.ca = a.coords;
			s_fmap.cb = b.coords;
			s_fmap.fa = a.fint;
			s_fmap.fb = b.fint;
			s_fmap.na_bytes = 9ull * a.n * sizeof(double);
		}
		__syncthreads();
	}
	for (unsigned long long base = (unsigned long long) blockIdx.x * blockDim.x; base < n;
		 base += (unsigned long long) gridDim.x * blockDim.x)
	{
		unsigned long long i = base + threadIdx.x;
		uint2		p = make_uint2(0, 0);
		int			r = 0;

		unsigned long long bit = 0;

		if (i < n)
		{
			p = in[i];
			if (found)
				bit = gx_found_bit(a.geom[p.x], b.geom[p.y], nb);
			if (!found || !gx_found_test(found, bit))
				r = test_pair<PASS>(a.coords + 9 * (size_t) p.x, a.kind[p.x], b.coords + 9 * (size_t) p.y,
									b.kind[p.y]);
			if (found && r == 1)
				gx_found_set(found, bit);
		}
		{
			/* counted either way: the element pairs decided intersecting on the device */
			unsigned long long slot = gx_warp_append(r == 1, &counters[GX_CNT_KEYS]);

			if (r == 1 && !found)
				keys[slot] = element_pairs ? gx_pair_key(p.x, p.y) : gx_pair_key(a.geom[p.x], b.geom[p.y]);
		}
		{
			unsigned long long slot = gx_warp_append(r == GX_UNDECIDED, &counters[GX_CNT_NEXT]);

			if (r == GX_UNDECIDED)
				next[slot] = p;
		}
	}
}

/* Outward float intervals of (coordinate - centre), per coordinate; the whole line if not finite. */
__global__ void
intervals_kernel(size_t n9, const double *__restrict__ coords, double c0, double c1, double c2, float2 *out)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n9; i += (size_t) gridDim.x * blockDim.x)
	{
		int			k = (int) (i % 3);
		double		c = k == 0 ? c0 : k == 1 ? c1 : c2;
		double		v = coords[i];
		float		lo = __double2float_rd(__dsub_rd(v, c));
		float		hi = __double2float_ru(__dsub_ru(v, c));

		if (!isfinite(lo) || !isfinite(hi))
		{
			lo = -INFINITY;
			hi = INFINITY;
		}
		out[i] = make_float2(lo, hi);
	}
}

cudaError_t
gx_launch_float_intervals(GxDevSide *s, const double centre[3], cudaStream_t st)
{
	if (s->n == 0)
		return cudaSuccess;
	intervals_kernel<<<gx_blocks(9ull * s->n), GX_CUDA_BLOCK, 0, st>>>(9 * s->n, s->coords, centre[0], centre[1],
																	  centre[2], s->fint);
	return cudaGetLastError();
}

cudaError_t
gx_launch_predicates(GxPass pass, const GxDevSide *a, const GxDevSide *b, const uint2 *in,
					 unsigned long long n, bool element_pairs, unsigned *found, unsigned long long nb,
					 unsigned long long *keys, uint2 *next, unsigned long long *counters, cudaStream_t st)
{
	unsigned	blocks = gx_blocks(n);

	if (n == 0)
		return cudaSuccess;
	switch (pass)
	{
		case GX_PASS_FLOAT:
			pred_kernel<GX_PASS_FLOAT><<<blocks, GX_CUDA_BLOCK, 0, st>>>(*a, *b, in, n, element_pairs, found, nb,
																			 keys, next, counters);
			break;
		case GX_PASS_FILTER:
			pred_kernel<GX_PASS_FILTER><<<blocks, GX_CUDA_BLOCK, 0, st>>>(*a, *b, in, n, element_pairs, found, nb,
																			 keys, next, counters);
			break;
		default:
			pred_kernel<GX_PASS_EXACT><<<blocks, GX_CUDA_BLOCK, 0, st>>>(*a, *b, in, n, element_pairs, found, nb,
																			 keys, next, counters);
			break;
	}
	return cudaGetLastError();
}

cudaError_t
gx_warm_predicates(cudaStream_t st)
{
	GxDevSide	none = {0, NULL, NULL, NULL, NULL, NULL};

	pred_kernel<GX_PASS_FLOAT><<<1, GX_CUDA_BLOCK, 0, st>>>(none, none, NULL, 0, false, NULL, 0, NULL, NULL, NULL);
	pred_kernel<GX_PASS_FILTER><<<1, GX_CUDA_BLOCK, 0, st>>>(none, none, NULL, 0, false, NULL, 0, NULL, NULL, NULL);
	pred_kernel<GX_PASS_EXACT><<<1, GX_CUDA_BLOCK, 0, st>>>(none, none, NULL, 0, false, NULL, 0, NULL, NULL, NULL);
	return cudaGetLastError();
}
