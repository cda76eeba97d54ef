/*
 * gx_predicates_gmp.c: the orientation determinants of gx_predicates.h evaluated in GMP rationals
 * (every finite double is an exact mpq): the last rung of the ladder, and the oracle of the tests.
 * Temporaries live on the call's stack, so it is thread-safe. GMP aborts on a non-finite double;
 * such coordinates (which the parsers reject) give 0 here instead.
 */
#include <math.h>
#include <gmp.h>

#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"

/* r = p - q */
static void
diff_d(mpq_ptr r, double p, double q, mpq_ptr tmp)
{
	mpq_set_d(r, p);
	mpq_set_d(tmp, q);
	mpq_sub(r, r, tmp);
}

/* r = p * q - s * t */
static void
minor2(mpq_ptr r, mpq_srcptr p, mpq_srcptr q, mpq_srcptr s, mpq_srcptr t, mpq_ptr tmp)
{
	mpq_mul(r, p, q);
	mpq_mul(tmp, s, t);
	mpq_sub(r, r, tmp);
}

bool
gx_orient3d_value(const double *a, const double *b, const double *c, const double *d, mpq_ptr det)
{
	mpq_t		ad[3],
				bd[3],
				cd[3],
				m,
				tmp;

	for (int k = 0; k < 3; k++)
		if (!isfinite(a[k]) || !isfinite(b[k]) || !isfinite(c[k]) || !isfinite(d[k]))
			return false;

	mpq_inits(ad[0], ad[1], ad[2], bd[0], bd[1], bd[2], cd[0], cd[1], cd[2], m, tmp, NULL);
	for (int k = 0; k < 3; k++)
	{
		diff_d(ad[k], a[k], d[k], tmp);
		diff_d(bd[k], b[k], d[k], tmp);
		diff_d(cd[k], c[k], d[k], tmp);
	}

	/* adz (bdx cdy - cdx bdy) + bdz (cdx ady - adx cdy) + cdz (adx bdy - bdx ady) */
	minor2(m, bd[0], cd[1], cd[0], bd[1], tmp);
	mpq_mul(det, ad[2], m);
	minor2(m, cd[0], ad[1], ad[0], cd[1], tmp);
	mpq_mul(m, bd[2], m);
	mpq_add(det, det, m);
	minor2(m, ad[0], bd[1], bd[0], ad[1], tmp);
	mpq_mul(m, cd[2], m);
	mpq_add(det, det, m);

	mpq_clears(ad[0], ad[1], ad[2], bd[0], bd[1], bd[2], cd[0], cd[1], cd[2], m, tmp, NULL);
	return true;
}

int
gx_orient3d_gmp(const double *a, const double *b, const double *c, const double *d)
{
	mpq_t		det;
	int			sign;

	mpq_init(det);
	sign = gx_orient3d_value(a, b, c, d, det) ? mpq_sgn(det) : 0;
	mpq_clear(det);
	return sign;
}

bool
gx_orient2d_value(const double *a, const double *b, const double *c, int drop, mpq_ptr det)
{
	int			i = (drop + 1) % 3,
				j = (drop + 2) % 3;
	mpq_t		acx,
				acy,
				bcx,
				bcy,
				tmp;

	if (!isfinite(a[i]) || !isfinite(a[j]) || !isfinite(b[i]) || !isfinite(b[j]) ||
		!isfinite(c[i]) || !isfinite(c[j]))
		return false;

	mpq_inits(acx, acy, bcx, bcy, tmp, NULL);
	diff_d(acx, a[i], c[i], tmp);
	diff_d(acy, a[j], c[j], tmp);
	diff_d(bcx, b[i], c[i], tmp);
	diff_d(bcy, b[j], c[j], tmp);
	minor2(det, acx, bcy, acy, bcx, tmp);
	mpq_clears(acx, acy, bcx, bcy, tmp, NULL);
	return true;
}

int
gx_orient2d_gmp(const double *a, const double *b, const double *c, int drop)
{
	mpq_t		det;
	int			sign;

	mpq_init(det);
	sign = gx_orient2d_value(a, b, c, drop, det) ? mpq_sgn(det) : 0;
	mpq_clear(det);
	return sign;
}
