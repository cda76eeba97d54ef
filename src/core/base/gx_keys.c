/* gx_keys.c: growable key arrays with sort (LSD radix, skipped when already sorted), unique and search. */
#include <stdlib.h>
#include <string.h>

#include "base/gx_keys.h"

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

static bool
is_sorted(const uint64_t *v, size_t n)
{
	size_t		i;

	for (i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return false;
	return true;
}

static int
cmp_key(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/*
 * LSD radix sort, skipping digits equal in every key; qsort if memory is short. Digits are 16 bits for large
 * arrays and 8 bits for small ones, whose passes would otherwise be spent clearing and summing the counts.
 */
static void
sort_keys(uint64_t *v, size_t n)
{
	int			bits = n < ((size_t) 1 << 16) ? 8 : 16;
	size_t		radix = (size_t) 1 << bits,
				mask = radix - 1;
	uint64_t   *tmp = malloc(n * sizeof(uint64_t));
	size_t	   *count = malloc((radix + 1) * sizeof(size_t));
	uint64_t	all_or = 0,
				all_and = ~(uint64_t) 0;
	size_t		i;
	int			shift;

	if (tmp == NULL || count == NULL)
	{
		free(tmp);
		free(count);
		qsort(v, n, sizeof(uint64_t), cmp_key);
		return;
	}
	for (i = 0; i < n; i++)
	{
		all_or |= v[i];
		all_and &= v[i];
	}
	for (shift = 0; shift < 64; shift += bits)
	{
		if ((((all_or ^ all_and) >> shift) & mask) == 0)
			continue;
		memset(count, 0, (radix + 1) * sizeof(size_t));
		for (i = 0; i < n; i++)
			count[((v[i] >> shift) & mask) + 1]++;
		for (i = 1; i <= radix; i++)
			count[i] += count[i - 1];
		for (i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & mask]++] = v[i];
		memcpy(v, tmp, n * sizeof(uint64_t));
	}
	free(tmp);
	free(count);
}

void
gx_keys_sort_unique(GxKeys *k)
{
	size_t		i,
				m = 0;

	if (!is_sorted(k->v, k->n))
		sort_keys(k->v, k->n);
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

size_t
gx_keys_lower_bound(const uint64_t *v, size_t n, uint64_t key)
{
	size_t		lo = 0,
				hi = n;

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
