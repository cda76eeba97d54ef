/*
 * test_keys.c: sort-and-unique of pair keys (radix sort by 8- or 16-bit digits, already-sorted shortcut) against qsort; the lower
 * bound of keys in, between, before and after them against a linear search.
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_keys.h"
#include "gx_test.h"

static int
cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* Keys with few distinct high or low halves, as geometry pairs have. */
static void
check(size_t n, unsigned hi_range, unsigned lo_range, int presorted)
{
	GxKeys		k = {NULL, 0, 0};
	uint64_t   *ref = malloc(n * sizeof(uint64_t));
	size_t		i,
				m = 0;

	for (i = 0; i < n; i++)
	{
		uint64_t	key = ((uint64_t) (rand() % hi_range) << 32) | (uint32_t) (rand() % lo_range);

		ref[i] = key;
	}
	if (presorted)
		qsort(ref, n, sizeof(uint64_t), cmp);
	CHECK(gx_keys_append(&k, ref, n));
	qsort(ref, n, sizeof(uint64_t), cmp);
	for (i = 0; i < n; i++)
		if (m == 0 || ref[i] != ref[m - 1])
			ref[m++] = ref[i];
	gx_keys_sort_unique(&k);
	CHECK_MSG(k.n == m && (m == 0 || memcmp(k.v, ref, m * sizeof(uint64_t)) == 0),
			  "n %zu: %zu keys, expected %zu", n, k.n, m);
	for (i = 0; i < 200; i++)
	{
		uint64_t	key = m && i % 2 ? ref[rand() % m] + (uint64_t) (i % 4 == 1) : (uint64_t) rand() * rand();
		size_t		lin = 0;

		if (i == 0)
			key = 0;
		else if (i == 2)
			key = UINT64_MAX;
		while (lin < m && ref[lin] < key)
			lin++;
		CHECK_MSG(gx_keys_lower_bound(k.v, k.n, key) == lin, "n %zu: lower bound of %llu", n,
				  (unsigned long long) key);
	}
	gx_keys_free(&k);
	free(ref);
}

int
main(void)
{
	srand(11);
	check(0, 1, 1, 0);
	check(1, 1, 1, 0);
	check(1000, 3, 5, 0);
	/* small arrays (8-bit digits) over every digit, and each side of the switch to 16-bit ones */
	check(5000, 1u << 31, 1u << 31, 0);
	check(65535, 12000, 300000, 0);
	check(65536, 12000, 300000, 0);
	check(200000, 400, 200, 0);
	check(200000, 1u << 31, 1u << 31, 0);
	check(200000, 5000, 100000, 1);
	check(1000000, 1, 1u << 30, 0);
	return gx_test_report("test_keys");
}
