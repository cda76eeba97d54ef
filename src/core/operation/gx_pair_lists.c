/* gx_pair_lists.c: pairs of indexes with a volume found on worker threads (gx_pair_lists.h). */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "operation/gx_pair_lists.h"

void
gx_pair_list_push(GxPairList *l, uint32_t a, uint32_t b, double volume)
{
	if (!gx_grow_malloc((void **) &l->v, &l->cap, l->n + 1, sizeof(GxPairVolume), SIZE_MAX / sizeof(GxPairVolume)))
	{
		l->nomem = true;
		return;
	}
	l->v[l->n++] = (GxPairVolume) {a, b, volume};
}

GxPairVolume *
gx_pair_lists_gather(const GxPairList *lists, int used, size_t *n, bool *nomem)
{
	GxPairVolume *all;

	*n = 0;
	for (int t = 0; t < used; t++)
		*n += lists[t].n;
	if ((all = malloc((*n + 1) * sizeof(GxPairVolume))) == NULL)
	{
		*nomem = true;
		return NULL;
	}
	*n = 0;
	for (int t = 0; t < used; t++)
	{
		memcpy(all + *n, lists[t].v, lists[t].n * sizeof(GxPairVolume));
		*n += lists[t].n;
	}
	return all;
}

static int
compare_pairs(const void *x, const void *y)
{
	const GxPairVolume *p = x,
			   *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

void
gx_pair_volumes_sort(GxPairVolume *v, size_t n)
{
	qsort(v, n, sizeof(GxPairVolume), compare_pairs);
}
