/*
 * gx_pglz.h: bytes written in PostgreSQL's pglz stream format (the default TOAST compression), by a
 * compressor that any thread may run: stored values compressed on worker threads are taken by PostgreSQL
 * as they are.
 */
#ifndef GX_PGLZ_H
#define GX_PGLZ_H

#include <stddef.h>
#include <stdint.h>

/*
 * Compresses src[0..n) into dst (at most cap bytes): a sequence of control bytes, each followed by eight
 * items (bit k set: item k is a back reference; clear: a literal byte); a back reference is two bytes,
 * the offset's high 4 bits and the length - 3 (15: a third byte holds the length - 18), then the offset's
 * low 8 bits (offsets 1 to 4095, lengths 3 to 273, overlapping the output as a byte by byte copy would).
 * Returns the bytes written, or 0 when the stream would exceed cap (the caller keeps src uncompressed).
 */
size_t		gx_pglz_compress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap);

#endif
