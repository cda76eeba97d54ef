/*
 * gx_predicates_gmp.c: the orientation determinants of gx_predicates.h evaluated exactly with GMP: the
 * last rung of the ladder, and the oracle of the tests. The doubles of one determinant are integers times
 * a common power of two (the least of their last bits' weights), so the determinant is an integer
 * polynomial times a power of two, computed in mpz (no fractions to reduce) and given as an mpq.
 * The mpz temporaries are the calling thread's own, kept between calls (their limbs allocated once, not at
 * every call: half the cost of a value) and freed when the thread ends. GMP aborts on a non-finite double;
 * such coordinates (which the parsers reject) give 0 here instead.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <gmp.h>

#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"

/* The weight 2^e of the last bit of the 53-bit significand of v (finite, non-zero): e = exponent - 53. */
static inline int
last_bit(double v)
{
	int			ex;

	(void) frexp(v, &ex);
	return ex - 53;
}

/* The least last-bit weight of the n doubles v (0 when all are zero). */
static int
least_weight(const double *v, int n)
{
	int			e = 0;
	bool		any = false;

	for (int k = 0; k < n; k++)
		if (v[k] != 0)
		{
			int			w = last_bit(v[k]);

			e = any && e < w ? e : w;
			any = true;
		}
	return e;
}

/* z = v / 2^e, an integer when e is at most v's last-bit weight. */
static void
to_integer(mpz_ptr z, double v, int e)
{
	int			ex;
	double		f = frexp(v, &ex);

	mpz_set_d(z, ldexp(f, 53));
	if (v != 0)
		mpz_mul_2exp(z, z, (mp_bitcnt_t) (ex - 53 - e));
}

#define SCRATCH 28

/* A thread's temporaries. */
typedef struct Scratch
{
	mpz_t		z[SCRATCH];
} Scratch;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static bool scratch_keyed;

static void
scratch_free(void *p)
{
	Scratch    *s = p;

	for (int k = 0; k < SCRATCH; k++)
		mpz_clear(s->z[k]);
	free(s);
}

static void
scratch_key_make(void)
{
	scratch_keyed = pthread_key_create(&scratch_key, scratch_free) == 0;
}

/* The calling thread's temporaries; else (no key or memory) those of *local, initialized here (*own set). */
static Scratch *
scratch(Scratch *local, bool *own)
{
	Scratch    *s;

	pthread_once(&scratch_once, scratch_key_make);
	s = scratch_keyed ? pthread_getspecific(scratch_key) : NULL;
	if (s == NULL && scratch_keyed && (s = malloc(sizeof(Scratch))) != NULL)
	{
		for (int k = 0; k < SCRATCH; k++)
			mpz_init(s->z[k]);
		if (pthread_setspecific(scratch_key, s) != 0)
		{
			scratch_free(s);
			s = NULL;
		}
	}
	*own = s == NULL;
	if (*own)
	{
		s = local;
		for (int k = 0; k < SCRATCH; k++)
			mpz_init(s->z[k]);
	}
	return s;
}

static void
scratch_done(Scratch *s, bool own)
{
	if (own)
		for (int k = 0; k < SCRATCH; k++)
			mpz_clear(s->z[k]);
}

/* det = z * 2^e */
static void
scaled(mpq_ptr det, mpz_srcptr z, long e)
{
	mpq_set_z(det, z);
	if (e >= 0)
		mpq_mul_2exp(det, det, (mp_bitcnt_t) e);
	else
		mpq_div_2exp(det, det, (mp_bitcnt_t) -e);
}

/*
 * out = the determinant of the rows p[r] - d (r = 0, 1, 2: adz (bdx cdy - cdx bdy) + bdz (cdx ady - adx cdy)
 * + cdz (adx bdy - bdx ady)), for points given as integers at one scale (3 mpz each); w: 11 temporaries.
 */
static void
det_of(mpz_ptr out, mpz_ptr const p[3][3], mpz_ptr const d[3], mpz_t *w)
{
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < 3; k++)
			mpz_sub(w[3 * r + k], p[r][k], d[k]);
	mpz_set_ui(out, 0);
	for (int r = 0; r < 3; r++)
	{
		mpz_mul(w[9], w[3 * ((r + 1) % 3)], w[3 * ((r + 2) % 3) + 1]);
		mpz_mul(w[10], w[3 * ((r + 2) % 3)], w[3 * ((r + 1) % 3) + 1]);
		mpz_sub(w[9], w[9], w[10]);
		mpz_addmul(out, w[3 * r + 2], w[9]);
	}
}

/*
 * The n doubles v as integers at one scale 2^e (*e) into z[0 .. n), the scratch's; false when one is not
 * finite (z untouched).
 */
static bool
values_at_one_scale(const double *v, int n, mpz_ptr const *z, int *e)
{
	for (int k = 0; k < n; k++)
		if (!isfinite(v[k]))
			return false;
	*e = least_weight(v, n);
	for (int k = 0; k < n; k++)
		to_integer(z[k], v[k], *e);
	return true;
}

/*
 * The n points pts[i] (3 doubles each) as integers at one scale 2^e (*e) into the scratch: z[i][k] is
 * s->z[3 i + k]. false when a coordinate is not finite.
 */
static bool
points_at_one_scale(const double *const *pts, int n, Scratch *s, mpz_ptr z[][3], int *e)
{
	double		v[15];

	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
		{
			v[3 * i + k] = pts[i][k];
			z[i][k] = s->z[3 * i + k];
		}
	return values_at_one_scale(v, 3 * n, &z[0][0], e);
}

bool
gx_orient3d_value(const double *a, const double *b, const double *c, const double *d, mpq_ptr det)
{
	const double *pts[4] = {a, b, c, d};
	Scratch		local,
			   *s;
	mpz_ptr		z[4][3];
	bool		own,
				ok;
	int			e;

	s = scratch(&local, &own);
	ok = points_at_one_scale(pts, 4, s, z, &e);
	if (ok)
	{
		det_of(s->z[26], z, z[3], &s->z[15]);
		scaled(det, s->z[26], 3L * e);
	}
	scratch_done(s, own);
	return ok;
}

/*
 * Segment ab against triangle t's plane, in s: the points as integers at one scale into z (t's three, a, b),
 * and orient3d(t, a) into s->z[26], orient3d(t, b) into s->z[27]; false when a coordinate is not finite.
 */
static bool
crossing_determinants(const double *t, const double *a, const double *b, Scratch *s, mpz_ptr z[5][3])
{
	const double *pts[5] = {t, t + 3, t + 6, a, b};
	int			e;

	if (!points_at_one_scale(pts, 5, s, z, &e))
		return false;
	det_of(s->z[26], z, z[3], &s->z[15]);
	det_of(s->z[27], z, z[4], &s->z[15]);
	return true;
}

bool
gx_plane_crossing(const double *t, const double *a, const double *b, mpq_ptr u)
{
	Scratch		local,
			   *s;
	mpz_ptr		z[5][3],
				va,
				vb;
	bool		own,
				ok;

	s = scratch(&local, &own);
	va = s->z[26];
	vb = s->z[27];
	/* at one scale both determinants carry the same power of two, which the ratio drops */
	ok = crossing_determinants(t, a, b, s, z);
	if (ok)
	{
		mpz_sub(vb, va, vb);
		ok = mpz_sgn(vb) != 0;
	}
	if (ok)
	{
		if (mpz_sgn(vb) < 0)
		{
			mpz_neg(va, va);
			mpz_neg(vb, vb);
		}
		mpq_set_num(u, va);
		mpq_set_den(u, vb);
		mpq_canonicalize(u);
	}
	scratch_done(s, own);
	return ok;
}

bool
gx_plane_crossing_tu(const double *T, int i, int j, const double *a, const double *b, mpq_ptr t, mpq_ptr u)
{
	Scratch		local,
			   *s;
	mpz_ptr		z[5][3],
				va,
				vb;
	mpz_t	   *w;
	bool		own,
				ok;

	s = scratch(&local, &own);
	va = s->z[26];
	vb = s->z[27];
	w = &s->z[15];
	ok = crossing_determinants(T, a, b, s, z);
	if (ok)
	{
		/* e1 = T1 - T0, e2 = T2 - T0, A = a - T0, B = b - T0 on axes i and j; D = e1 x e2 */
		for (int k = 0; k < 2; k++)
		{
			int			x = k ? j : i;

			mpz_sub(w[k], z[1][x], z[0][x]);
			mpz_sub(w[2 + k], z[2][x], z[0][x]);
			mpz_sub(w[4 + k], z[3][x], z[0][x]);
			mpz_sub(w[6 + k], z[4][x], z[0][x]);
		}
		mpz_mul(w[8], w[0], w[3]);
		mpz_submul(w[8], w[1], w[2]);
		/* t's numerator va (B x e2) - vb (A x e2), u's va (e1 x B) - vb (e1 x A) */
		mpz_mul(w[9], w[6], w[3]);
		mpz_submul(w[9], w[7], w[2]);
		mpz_mul(w[10], w[4], w[3]);
		mpz_submul(w[10], w[5], w[2]);
		mpz_mul(mpq_numref(t), va, w[9]);
		mpz_submul(mpq_numref(t), vb, w[10]);
		mpz_mul(w[9], w[0], w[7]);
		mpz_submul(w[9], w[1], w[6]);
		mpz_mul(w[10], w[0], w[5]);
		mpz_submul(w[10], w[1], w[4]);
		mpz_mul(mpq_numref(u), va, w[9]);
		mpz_submul(mpq_numref(u), vb, w[10]);
		/* both over (va - vb) D: every term carries the same power of two, which the ratios drop */
		mpz_sub(w[9], va, vb);
		mpz_mul(w[9], w[9], w[8]);
		ok = mpz_sgn(w[9]) != 0;
	}
	if (ok)
	{
		if (mpz_sgn(w[9]) < 0)
		{
			mpz_neg(w[9], w[9]);
			mpz_neg(mpq_numref(t), mpq_numref(t));
			mpz_neg(mpq_numref(u), mpq_numref(u));
		}
		mpz_set(mpq_denref(t), w[9]);
		mpz_set(mpq_denref(u), w[9]);
		mpq_canonicalize(t);
		mpq_canonicalize(u);
	}
	scratch_done(s, own);
	return ok;
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
				j = (drop + 2) % 3,
				e;
	double		v[6] = {a[i], a[j], b[i], b[j], c[i], c[j]};
	Scratch		local,
			   *s;
	mpz_ptr		z[6],
				t;
	bool		own,
				ok;

	s = scratch(&local, &own);
	for (int k = 0; k < 6; k++)
		z[k] = s->z[k];
	t = s->z[6];
	ok = values_at_one_scale(v, 6, z, &e);
	if (ok)
	{
		/* (a - c) x (b - c) */
		for (int k = 0; k < 4; k++)
			mpz_sub(z[k], z[k], z[4 + k % 2]);
		mpz_mul(t, z[1], z[2]);
		mpz_mul(z[0], z[0], z[3]);
		mpz_sub(z[0], z[0], t);
		scaled(det, z[0], 2L * e);
	}
	scratch_done(s, own);
	return ok;
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
