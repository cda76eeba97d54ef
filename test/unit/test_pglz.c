/*
 * test_pglz.c: the pglz stream writer (gx_pglz.h) read back by PostgreSQL's own decoder (pglz_decompress of
 * libpgcommon, asked to check that the stream and the output end together) and by a reader written from the
 * format's description: round trips of incompressible, repetitive, periodic and packed-coordinate bytes,
 * every length and offset class, and streams that would not fit refused.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gx_test.h"
#include "io/gx_pglz.h"

/* PostgreSQL's decoder (common/pg_lzcompress.h): the bytes written, or -1 for a corrupt stream. */
extern int32_t pglz_decompress(const char *source, int32_t slen, char *dest, int32_t rawsize, bool check_complete);

/* Reads a stream back; the bytes written, or -1 when a reference points before the start or overflows. */
static long
read_back(const uint8_t *s, size_t n, uint8_t *out, size_t cap)
{
	size_t		i = 0,
				o = 0;

	while (i < n)
	{
		uint8_t		ctrl = s[i++];

		for (int bit = 0; bit < 8 && i < n; bit++)
			if (ctrl & (1 << bit))
			{
				size_t		len,
							off;

				if (i + 2 > n)
					return -1;
				len = (size_t) (s[i] & 0x0f) + 3;
				off = ((size_t) (s[i] & 0xf0) << 4) | s[i + 1];
				i += 2;
				if (len == 18)
				{
					if (i >= n)
						return -1;
					len += s[i++];
				}
				if (off == 0 || off > o || o + len > cap)
					return -1;
				for (size_t k = 0; k < len; k++, o++)
					out[o] = out[o - off];
			}
			else
			{
				if (o >= cap)
					return -1;
				out[o++] = s[i++];
			}
	}
	return (long) o;
}

/* Compresses and reads back src[0..n): true when it round trips (or is refused as not fitting). */
static bool
round_trip(const uint8_t *src, size_t n, size_t *written)
{
	uint8_t    *c = malloc(n + n / 8 + 64),
			   *back = malloc(n + 1);
	size_t		len = gx_pglz_compress(src, n, c, n + n / 8 + 64);
	bool		ok = len > 0 && read_back(c, len, back, n) == (long) n && memcmp(back, src, n) == 0;

	memset(back, 0, n);
	ok = ok && pglz_decompress((const char *) c, (int32_t) len, (char *) back, (int32_t) n, true) == (int32_t) n &&
		memcmp(back, src, n) == 0;

	*written = len;
	free(c);
	free(back);
	return ok;
}

int
main(void)
{
	size_t		n = 1 << 20,
				len;
	uint8_t    *buf = malloc(n);
	uint64_t	x = 88172645463325252ull;

	/* incompressible bytes: a stream about 1/8 longer, which still reads back */
	for (size_t i = 0; i < n; i++)
	{
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = (uint8_t) x;
	}
	CHECK(round_trip(buf, n, &len));
	CHECK(len > n);
	/* ... refused when the room is the input's size */
	{
		uint8_t    *c = malloc(n);

		CHECK(gx_pglz_compress(buf, n, c, n) == 0);
		free(c);
	}
	/* zeros: every reference the longest (273 bytes), overlapping its own output */
	memset(buf, 0, n);
	CHECK(round_trip(buf, n, &len));
	CHECK(len < n / 50);
	/* periods of every length up to past the window (4095): short and long references, far offsets */
	for (size_t period = 1; period <= 5000; period = period < 20 ? period + 1 : period * 3 / 2)
	{
		for (size_t i = 0; i < 20000; i++)
			buf[i] = (uint8_t) ((i % period) * 131 + (i % period) / 7);
		CHECK_MSG(round_trip(buf, 20000, &len), "period %zu", period);
	}
	/* packed coordinates: doubles of a UTM grid and their uint32 indices, as a stored solid holds them */
	{
		double	   *d = (double *) buf;
		uint32_t   *idx = (uint32_t *) (buf + 3 * 8 * 10000);

		for (int i = 0; i < 10000; i++)
		{
			d[3 * i] = 500000.0 + (i % 100) * 0.7;
			d[3 * i + 1] = 7000000.0 + (i / 100) * 0.3;
			d[3 * i + 2] = 1000.0 + (i % 13) * 1e-9;
		}
		for (int i = 0; i < 3 * 19000; i++)
			idx[i] = (uint32_t) (i / 3 + i % 3 * 100);
		len = 3 * 8 * 10000 + 4 * 3 * 19000;
		CHECK(round_trip(buf, len, &n));
		CHECK(n < len * 3 / 4);
	}
	/* every short length, and lengths around the 3-byte reference (17, 18, 273, 274) */
	for (size_t m = 1; m < 600; m++)
	{
		for (size_t i = 0; i < m; i++)
			buf[i] = (uint8_t) (i < m / 2 ? 'a' : 'a' + i % 3);
		CHECK_MSG(round_trip(buf, m, &len), "length %zu", m);
	}
	free(buf);
	return gx_test_report("test_pglz");
}
