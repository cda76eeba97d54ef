/*
 * gx_compress.h: stored values compressed as PostgreSQL's TOAST compresses them (pglz or lz4), on any
 * thread: a compressed value handed to PostgreSQL is stored as it is, so values made by worker threads
 * need no compression in the backend.
 */
#ifndef GX_COMPRESS_H
#define GX_COMPRESS_H

#include "postgres.h"

/*
 * v (a varlena with a 4-byte header, uncompressed) compressed with method (TOAST_PGLZ_COMPRESSION or
 * TOAST_LZ4_COMPRESSION: default_toast_compression, read by the backend), in PostgreSQL's inline
 * compressed form: malloc'd, or NULL when v is small enough to be stored inline or compression does not
 * make it smaller (v is then stored as it is). Calls no PostgreSQL function: any thread may run it.
 */
struct varlena *gx_pg_compress(const struct varlena *v, char method);

#endif
