/*
 * gx_expansion.c: arithmetic on floating-point expansions (Shewchuk 1997, section 2): sum of two
 * expansions, product of an expansion by a double and by another expansion, all with zero
 * elimination. Must be compiled with -ffp-contract=off (see gx_expansion.h).
 */
#include <math.h>
#include <string.h>

#include "gx_expansion.h"

/* The smaller in magnitude of the next unconsumed components of e and f; advances past it. */
static inline double
take_smaller(int elen, const double *e, int *i, int flen, const double *f, int *j)
{
	if (*j == flen || (*i < elen && fabs(e[*i]) <= fabs(f[*j])))
		return e[(*i)++];
	return f[(*j)++];
}

int
gx_expansion_sum(int elen, const double *e, int flen, const double *f, double *h)
{
	int			i = 0,
				j = 0,
				hlen = 0;
	double		q,
				hh;

	/* g1 <= g2 <= ... in magnitude; Q2 + h1 = g2 + g1 needs only FAST-TWO-SUM. */
	q = take_smaller(elen, e, &i, flen, f, &j);
	if (i + j < elen + flen)
	{
		gx_fast_two_sum(take_smaller(elen, e, &i, flen, f, &j), q, &q, &hh);
		if (hh != 0)
			h[hlen++] = hh;
	}
	while (i + j < elen + flen)
	{
		gx_two_sum(q, take_smaller(elen, e, &i, flen, f, &j), &q, &hh);
		if (hh != 0)
			h[hlen++] = hh;
	}
	if (q != 0 || hlen == 0)
		h[hlen++] = q;
	return hlen;
}

int
gx_scale_expansion(int elen, const double *e, double b, double *h)
{
	int			hlen = 0;
	double		q,
				hh,
				product1,
				product0,
				sum;

	gx_two_product(e[0], b, &q, &hh);
	if (hh != 0)
		h[hlen++] = hh;
	for (int i = 1; i < elen; i++)
	{
		gx_two_product(e[i], b, &product1, &product0);
		gx_two_sum(q, product0, &sum, &hh);
		if (hh != 0)
			h[hlen++] = hh;
		gx_fast_two_sum(product1, sum, &q, &hh);
		if (hh != 0)
			h[hlen++] = hh;
	}
	if (q != 0 || hlen == 0)
		h[hlen++] = q;
	return hlen;
}

int
gx_expansion_product(int elen, const double *e, int flen, const double *f, double *h, double *work)
{
	double	   *scaled = work;
	double	   *sum = work + 2 * elen;
	int			hlen = gx_scale_expansion(elen, e, f[0], h);

	for (int i = 1; i < flen; i++)
	{
		int			slen = gx_scale_expansion(elen, e, f[i], scaled);

		hlen = gx_expansion_sum(hlen, h, slen, scaled, sum);
		memcpy(h, sum, (size_t) hlen * sizeof(double));
	}
	return hlen;
}
