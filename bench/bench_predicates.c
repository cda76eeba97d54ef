/*
 * bench_predicates.c: microbenchmark of orient3d, in nanoseconds per call, through the ladder (the
 * filter decides), through the expansion rung alone and through GMP alone, on the same inputs:
 * random non-degenerate centimetre-scale configurations at UTM offsets (where differences are exact,
 * by Sterbenz's lemma). It also times the ladder on exactly coplanar configurations at UTM offsets,
 * where the filter fails and expansions decide, and the expansion rung alone on nearly coplanar
 * configurations near the origin, where differences of rounded coordinates have 2 components.
 * Usage: bench_predicates [configurations].
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "algorithm/gx_predicates.h"

typedef int (*Orient3d) (const double *, const double *, const double *, const double *);

static uint64_t rng_state = UINT64_C(20240601);

/* splitmix64, uniform in [0, n) */
static int
rnd(int n)
{
	uint64_t	z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (int) ((z ^ (z >> 31)) % (uint64_t) n);
}

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static const double origin[3] = {0, 0, 0};
static const double utm[3] = {500000.0, 7000000.0, 250.0};

/*
 * n configurations of 4 points at `offset` on a lattice of `unit` metres (features up to 20 m);
 * coplanar ones take d = a + s (b - a) + t (c - a).
 */
static void
make_configs(double (*p)[4][3], int n, const double *offset, double unit, int coplanar)
{
	for (int i = 0; i < n; i++)
	{
		int			lat[4][3];
		int			s = rnd(5) - 2,
					t = rnd(5) - 2;

		for (int j = 0; j < 4; j++)
			for (int k = 0; k < 3; k++)
				lat[j][k] = rnd(2001);
		if (coplanar)
			for (int k = 0; k < 3; k++)
				lat[3][k] = lat[0][k] + s * (lat[1][k] - lat[0][k]) + t * (lat[2][k] - lat[0][k]);
		for (int j = 0; j < 4; j++)
			for (int k = 0; k < 3; k++)
				p[i][j][k] = offset[k] + lat[j][k] * unit;
	}
}

/* Best of 5 runs of f over the configurations, in ns per call. */
static double
time_orient3d(Orient3d f, double (*p)[4][3], int n, long *signsum)
{
	double		best = 0;

	for (int rep = 0; rep < 5; rep++)
	{
		double		t0 = now_ns();
		long		sum = 0;

		for (int i = 0; i < n; i++)
			sum += f(p[i][0], p[i][1], p[i][2], p[i][3]);
		t0 = (now_ns() - t0) / n;
		if (rep == 0 || t0 < best)
			best = t0;
		*signsum = sum;
	}
	return best;
}

int
main(int argc, char **argv)
{
	int			n = argc > 1 ? atoi(argv[1]) : 100000;
	double		(*p)[4][3] = malloc(sizeof(*p) * (size_t) (n > 0 ? n : 1));
	long		sfilter, sexp, sgmp, sladder;
	double		tfilter, texp, tgmp, tcoplanar;
	GxPredStats before;

	if (p == NULL || n <= 0)
		return 1;

	make_configs(p, n, utm, 0.01, 0);
	before = gx_pred_stats;
	tfilter = time_orient3d(gx_orient3d, p, n, &sfilter);
	texp = time_orient3d(gx_orient3d_expansion, p, n, &sexp);
	tgmp = time_orient3d(gx_orient3d_gmp, p, n, &sgmp);
	printf("orient3d, %d non-degenerate UTM configurations (filter undecided %llu of %llu):\n", n,
		   (unsigned long long) (gx_pred_stats.filter_failures - before.filter_failures),
		   (unsigned long long) (gx_pred_stats.orient3d - before.orient3d));
	printf("  ladder (filter)  %8.1f ns\n  expansion rung   %8.1f ns\n  GMP rung         %8.1f ns\n",
		   tfilter, texp, tgmp);
	printf("  GMP / expansion  %8.1f x   (sign sums %ld %ld %ld)\n", tgmp / texp, sfilter, sexp, sgmp);

	make_configs(p, n, utm, 1.0 / 128, 1);
	before = gx_pred_stats;
	tcoplanar = time_orient3d(gx_orient3d, p, n, &sladder);
	printf("orient3d ladder, coplanar UTM configurations on a 1/128 m lattice: %8.1f ns "
		   "(expansion decided %llu of %llu)\n", tcoplanar,
		   (unsigned long long) (gx_pred_stats.exact_expansion - before.exact_expansion),
		   (unsigned long long) (gx_pred_stats.orient3d - before.orient3d));

	make_configs(p, n, origin, 0.01, 1);
	texp = time_orient3d(gx_orient3d_expansion, p, n, &sexp);
	tgmp = time_orient3d(gx_orient3d_gmp, p, n, &sgmp);
	printf("orient3d, nearly coplanar configurations near the origin on a 0.01 m lattice:\n");
	printf("  expansion rung   %8.1f ns\n  GMP rung         %8.1f ns\n  GMP / expansion  %8.1f x\n",
		   texp, tgmp, tgmp / texp);
	free(p);
	return 0;
}
