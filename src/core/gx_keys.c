/* gx_keys.c: growable key arrays with sort and unique. */
#include <stdlib.h>
#include <string.h>

#include "gx_keys.h"

static bool
grow(GxKeys *k, size_t need)
{
	size_t		cap = k->cap ? k->cap : 256;
	uint64_t   *v;

	if (need <= k->cap)
		return true;
	while (cap < need)
		cap *= 2;
	v = realloc(k->v, cap * sizeof(uint64_t));
	if (v == NULL)
		return false;
	k->v = v;
	k->cap = cap;
	return true;
}

bool
gx_keys_push(GxKeys *k, uint64_t key)
{
	if (k->n == k->cap && !grow(k, k->n + 1))
		return false;
	k->v[k->n++] = key;
	return true;
}

bool
gx_keys_append(GxKeys *k, const uint64_t *src, size_t n)
{
	if (n == 0)
		return true;
	if (!grow(k, k->n + n))
		return false;
	memcpy(k->v + k->n, src, n * sizeof(uint64_t));
	k->n += n;
	return true;
}

static int
cmp_key(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

void
gx_keys_sort_unique(GxKeys *k)
{
	size_t		i,
				m = 0;

	qsort(k->v, k->n, sizeof(uint64_t), cmp_key);
	for (i = 0; i < k->n; i++)
		if (m == 0 || k->v[i] != k->v[m - 1])
			k->v[m++] = k->v[i];
	k->n = m;
}

void
gx_keys_free(GxKeys *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}
