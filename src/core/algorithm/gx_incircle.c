/*
 * gx_incircle.c: the exact incircle predicate (gx_incircle.h), ladder as gx_predicates.c's orientations: the
 * stage-A filter, then the determinant as an expansion of exact differences (a polynomial of degree 4, so
 * the differences are kept within [2^-180, 2^180], where no product underflows or overflows), then GMP.
 */
#include <gmp.h>
#include <math.h>

#include "algorithm/gx_expansion.h"
#include "algorithm/gx_incircle.h"
#include "algorithm/gx_orient.h"
#include "algorithm/gx_predicates.h"

#define GX_ICC_ERRBOUND_A ((10.0 + 96.0 * GX_EPS) * GX_EPS)
#define GX_FILTER4_LO 0x1p-240
#define GX_FILTER4_HI 0x1p240
#define GX_EXPANSION4_LO 0x1p-180
#define GX_EXPANSION4_HI 0x1p180

static int
incircle_filter(const double *a, const double *b, const double *c, const double *d)
{
	double		adx = a[0] - d[0],
				ady = a[1] - d[1],
				bdx = b[0] - d[0],
				bdy = b[1] - d[1],
				cdx = c[0] - d[0],
				cdy = c[1] - d[1];
	double		bdxcdy, cdxbdy, cdxady, adxcdy, adxbdy, bdxady, alift, blift, clift, det, permanent;

	if (!(gx_in_range(adx, GX_FILTER4_LO, GX_FILTER4_HI) && gx_in_range(ady, GX_FILTER4_LO, GX_FILTER4_HI) &&
		  gx_in_range(bdx, GX_FILTER4_LO, GX_FILTER4_HI) && gx_in_range(bdy, GX_FILTER4_LO, GX_FILTER4_HI) &&
		  gx_in_range(cdx, GX_FILTER4_LO, GX_FILTER4_HI) && gx_in_range(cdy, GX_FILTER4_LO, GX_FILTER4_HI)))
		return GX_UNDECIDED;
	bdxcdy = bdx * cdy;
	cdxbdy = cdx * bdy;
	alift = adx * adx + ady * ady;
	cdxady = cdx * ady;
	adxcdy = adx * cdy;
	blift = bdx * bdx + bdy * bdy;
	adxbdy = adx * bdy;
	bdxady = bdx * ady;
	clift = cdx * cdx + cdy * cdy;
	det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
	permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * alift + (fabs(cdxady) + fabs(adxcdy)) * blift +
		(fabs(adxbdy) + fabs(bdxady)) * clift;
	if (det > GX_ICC_ERRBOUND_A * permanent || -det > GX_ICC_ERRBOUND_A * permanent || permanent == 0)
		return gx_sign_of(det);
	return GX_UNDECIDED;
}

/* h = (x^2 + y^2) * (p q - r s): one term of the determinant (at most 2 * 16 * 16 components). */
static int
lifted_term(const GxDiff *x, const GxDiff *y, const GxDiff *p, const GxDiff *q, const GxDiff *r, const GxDiff *s,
			double *h)
{
	double		xx[8],
				yy[8],
				lift[16],
				minor[16],
				work[2 * 16 * 17];
	int			nxx = gx_expansion_product(x->len, x->c, x->len, x->c, xx, work),
				nyy = gx_expansion_product(y->len, y->c, y->len, y->c, yy, work),
				nlift = gx_expansion_sum(nxx, xx, nyy, yy, lift),
				nminor = gx_minor2(p, q, r, s, minor);

	return gx_expansion_product(nlift, lift, nminor, minor, h, work);
}

int
gx_incircle_expansion(const double *a, const double *b, const double *c, const double *d)
{
	GxDiff		ad[2],
				bd[2],
				cd[2];
	double		t1[512],
				t2[512],
				t3[512],
				t12[1024],
				det[1536];
	int			n1, n2, n3, n12;

	for (int k = 0; k < 2; k++)
		if (!gx_exact_diff(a[k], d[k], GX_EXPANSION4_LO, GX_EXPANSION4_HI, &ad[k]) ||
			!gx_exact_diff(b[k], d[k], GX_EXPANSION4_LO, GX_EXPANSION4_HI, &bd[k]) ||
			!gx_exact_diff(c[k], d[k], GX_EXPANSION4_LO, GX_EXPANSION4_HI, &cd[k]))
			return GX_UNDECIDED;
	/* alift (bdx cdy - cdx bdy) + blift (cdx ady - adx cdy) + clift (adx bdy - bdx ady) */
	n1 = lifted_term(&ad[0], &ad[1], &bd[0], &cd[1], &cd[0], &bd[1], t1);
	n2 = lifted_term(&bd[0], &bd[1], &cd[0], &ad[1], &ad[0], &cd[1], t2);
	n3 = lifted_term(&cd[0], &cd[1], &ad[0], &bd[1], &bd[0], &ad[1], t3);
	n12 = gx_expansion_sum(n1, t1, n2, t2, t12);
	return gx_expansion_sign(gx_expansion_sum(n12, t12, n3, t3, det), det);
}

int
gx_incircle_gmp(const double *a, const double *b, const double *c, const double *d)
{
	const double *p[3] = {a, b, c};
	mpq_t		dx[3],
				dy[3],
				lift[3],
				t,
				u,
				det;
	int			sign;

	mpq_inits(t, u, det, NULL);
	for (int i = 0; i < 3; i++)
	{
		mpq_inits(dx[i], dy[i], lift[i], NULL);
		mpq_set_d(dx[i], p[i][0]);
		mpq_set_d(t, d[0]);
		mpq_sub(dx[i], dx[i], t);
		mpq_set_d(dy[i], p[i][1]);
		mpq_set_d(t, d[1]);
		mpq_sub(dy[i], dy[i], t);
		mpq_mul(lift[i], dx[i], dx[i]);
		mpq_mul(t, dy[i], dy[i]);
		mpq_add(lift[i], lift[i], t);
	}
	for (int i = 0; i < 3; i++)
	{
		int			j = (i + 1) % 3,
					k = (i + 2) % 3;

		/* lift_i (dx_j dy_k - dx_k dy_j) */
		mpq_mul(t, dx[j], dy[k]);
		mpq_mul(u, dx[k], dy[j]);
		mpq_sub(t, t, u);
		mpq_mul(t, t, lift[i]);
		mpq_add(det, det, t);
	}
	sign = mpq_sgn(det);
	for (int i = 0; i < 3; i++)
		mpq_clears(dx[i], dy[i], lift[i], NULL);
	mpq_clears(t, u, det, NULL);
	return sign;
}

int
gx_incircle(const double *a, const double *b, const double *c, const double *d)
{
	int			s = incircle_filter(a, b, c, d);

	if (s != GX_UNDECIDED)
		return s;
	s = gx_incircle_expansion(a, b, c, d);
	return s != GX_UNDECIDED ? s : gx_incircle_gmp(a, b, c, d);
}
