/*
 * gx_pglz.c: the pglz stream format written (gx_pglz.h): greedy matching through a hash table of the
 * last position of each 3-byte sequence, every position entered, no state outside the call.
 */
#include <string.h>

#include "io/gx_pglz.h"

#define WINDOW		4095		/* the farthest back reference */
#define MIN_MATCH	3
#define MAX_MATCH	273
#define HASH_BITS	13

static inline uint32_t
hash3(const uint8_t *p)
{
	uint32_t	v = (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16;

	return (v * 2654435761u) >> (32 - HASH_BITS);
}

size_t
gx_pglz_compress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	uint32_t	last[1 << HASH_BITS];	/* position + 1 of the last sequence of each hash; 0: none */
	uint8_t    *ctrl = NULL;
	size_t		out = 0,
				i = 0;
	int			item = 8;		/* items under the current control byte */

	memset(last, 0, sizeof(last));
	while (i < n)
	{
		size_t		len = 0,
					off = 0;

		if (item == 8)
		{
			if (out + 1 + 8 * 3 > cap)	/* room for a control byte and its eight longest items */
				return 0;
			ctrl = dst + out++;
			*ctrl = 0;
			item = 0;
		}
		if (i + MIN_MATCH <= n)
		{
			uint32_t	h = hash3(src + i);
			size_t		cand = last[h];

			last[h] = (uint32_t) (i + 1);
			if (cand > 0 && i - (cand - 1) <= WINDOW)
			{
				const uint8_t *a = src + cand - 1;
				size_t		most = n - i < MAX_MATCH ? n - i : MAX_MATCH;

				while (len < most && a[len] == src[i + len])
					len++;
				off = i - (cand - 1);
			}
		}
		if (len >= MIN_MATCH)
		{
			*ctrl |= (uint8_t) (1 << item);
			if (len > 17)
			{
				dst[out++] = (uint8_t) (((off & 0xf00) >> 4) | 0x0f);
				dst[out++] = (uint8_t) (off & 0xff);
				dst[out++] = (uint8_t) (len - 18);
			}
			else
			{
				dst[out++] = (uint8_t) (((off & 0xf00) >> 4) | (len - 3));
				dst[out++] = (uint8_t) (off & 0xff);
			}
			for (size_t k = i + 1; k < i + len && k + MIN_MATCH <= n; k++)
				last[hash3(src + k)] = (uint32_t) (k + 1);
			i += len;
		}
		else
			dst[out++] = src[i++];
		item++;
	}
	return out;
}
