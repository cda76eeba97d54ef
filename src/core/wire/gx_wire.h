/*
 * gx_wire.h: the messages between backends and the GPU service (src/service), over a Unix stream socket.
 * A message is a header and a small payload; bulk data (flattened sides, pair lists) travels in a segment
 * of memfds whose descriptors ride along (SCM_RIGHTS), mapped by both ends. A batch segment begins with a
 * control word the backend sets to stop the service's work (query cancel, termination).
 *
 * A batch: LOOKUP (each side's cache keys, or none) -> LOOKUP_REPLY (which sides the service holds, now
 * pinned for this connection) -> BATCH (options; each side cached or laid out in the segment; whether to
 * cache it under its keys) -> RESULT (status, statistics, and a segment of records: pair keys, the pairs'
 * intercepts for gx_intercepts_pairs, the blocks' volumes in solids for gx_volume_pairs, or the pairs of solids
 * sharing a volume for gx_overlap_pairs). STATS and RESET
 * ask for the cache's figures (and empty it). ROWS (a side's keys) -> ROWS_REPLY (a segment of the bytes kept
 * with that side as its rows' locations, or none): how a backend of another session finds a table's side
 * that the service keeps without reading the table.
 */
#ifndef GX_WIRE_H
#define GX_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "batch/gx_batch.h"
#include "batch/gx_geom_cache.h"

#define GX_WIRE_MAGIC 0x47585336u	/* "GXS6" */
#define GX_WIRE_MAX_PAYLOAD (64u << 20)

typedef enum GxMsgType
{
	GX_MSG_LOOKUP = 1,
	GX_MSG_LOOKUP_REPLY,
	GX_MSG_BATCH,
	GX_MSG_RESULT,
	GX_MSG_STATS,				/* no payload: STATS_REPLY */
	GX_MSG_RESET,				/* no payload: empties the cache, then STATS_REPLY */
	GX_MSG_STATS_REPLY,			/* GxCacheStats */
	GX_MSG_ROWS,				/* payload: a side's keys; ROWS_REPLY */
	GX_MSG_ROWS_REPLY			/* GxWireRowsReply, and a segment of len bytes when len > 0 */
} GxMsgType;

typedef struct GxWireHeader
{
	uint32_t	magic;
	uint32_t	type;
	uint64_t	length;			/* payload bytes */
} GxWireHeader;

/* LOOKUP's payload: this, then nkeys[0] + nkeys[1] keys. */
typedef struct GxWireLookup
{
	uint64_t	nkeys[2];		/* 0: the side is not cacheable, it will come in the segment */
} GxWireLookup;

/* What is known of a side without its arrays. */
typedef struct GxWireSideInfo
{
	uint8_t		held;			/* LOOKUP_REPLY: the service holds it (pinned) */
	uint8_t		mixed_srid;
	uint8_t		unknown_srid;
	int32_t		srid;
	uint64_t	n,
				ngeoms;
	uint64_t	serial;			/* the held entry's number: each entry the service keeps gets a new one */
} GxWireSideInfo;

typedef struct GxWireLookupReply
{
	GxWireSideInfo side[2];
	uint8_t		device_ok;		/* the service has a usable GPU */
	char		device[128];	/* what it is, or why not */
} GxWireLookupReply;

/* A side in a batch segment: its arrays at these offsets (when not held by the service). */
typedef struct GxWireSide
{
	uint8_t		held;			/* use the side pinned by the LOOKUP */
	uint8_t		cache;			/* keep this side under the LOOKUP's keys */
	uint8_t		mixed_srid;
	uint8_t		unknown_srid;
	int32_t		srid;
	uint64_t	n,
				ngeoms;
	GxBox3D		extent;
	uint64_t	coords_off,
				kind_off,
				geom_off,
				solid_off;		/* per geometry solid flags, 0 when none is a solid */
	/*
	 * A side keyed by a hash of its bytes: those bytes (content_len of them, 0 when not sent), which a held
	 * side's must equal, and which a side to keep is kept with. A held side's are not sent when the
	 * backend knows that the held entry holds them.
	 */
	uint64_t	content_off,
				content_len;
	/*
	 * A side kept under a table's state: the bytes that locate its rows (rows_len of them, opaque to the
	 * service, 0 when not sent), kept with it and handed to a backend that asks (ROWS).
	 */
	uint64_t	rows_off,
				rows_len;
} GxWireSide;

typedef struct GxWireRowsReply
{
	uint64_t	len;			/* 0: the service holds no such side, or no rows with it */
} GxWireRowsReply;

/* What a batch asks for, and what its RESULT's records are. */
typedef enum GxWireJob
{
	GX_JOB_PAIRS,				/* the intersecting (or near) pairs: pair keys */
	GX_JOB_INTERCEPTS,			/* side a's lines in side b's solids: GxPairInterval records */
	GX_JOB_VOLUMES,				/* side a's boxes (their diagonals) in side b's solids: GxVolumePair records */
	GX_JOB_OVERLAPS				/* side a's solids sharing a volume with side b's: GxOverlapPair records */
} GxWireJob;

typedef struct GxWireBatch
{
	GxWireSide	side[2];
	int32_t		grid_resolution;
	int32_t		float_pass;
	int32_t		cuda_device;
	uint8_t		ignore_srid;
	uint8_t		strict_srid;
	uint8_t		job;			/* GxWireJob */
	uint64_t	gpu_memory_cap;
	uint64_t	segment_size;
	double		distance;		/* > 0: a gx_dwithin batch */
	uint64_t	max_cuts;		/* GX_JOB_OVERLAPS: the most cuts of one triangle (0: no bound) */
} GxWireBatch;

/* The first bytes of a batch segment. */
typedef struct GxWireControl
{
	volatile int32_t cancel;
} GxWireControl;

typedef struct GxWireResult
{
	int32_t		code;			/* GxErrorCode; GX_OK: the pairs are in the segment that comes along */
	char		msg[256];
	GxBatchStats stats;
	uint64_t	npairs;			/* records of the batch's job (GxWireJob) */
	uint64_t	serial[2];		/* the entry each side is held or was kept as, 0 if neither */
} GxWireResult;

/*
 * The memfds of a segment: a large one is made of several (pieces of 64 MB or more), each a file of its own,
 * because threads allocating the pages of one file contend for it (1.45 GB took 0.3 s on 4 threads and on 16
 * alike).
 */
#define GX_WIRE_MAX_FDS 16
typedef struct GxWireFds
{
	int			n;
	int			fd[GX_WIRE_MAX_FDS];
} GxWireFds;

void		gx_wire_fds_close(GxWireFds *fds);

/* Sends a message, with the descriptors pass (or NULL). false on any failure (the peer is gone). */
bool		gx_wire_send(int sock, GxMsgType type, const void *payload, size_t len, const GxWireFds *pass);

/*
 * Receives a message of at most max payload bytes into buf (malloc'd if *buf is NULL, then the caller
 * frees it); fds gets the descriptors passed along (n 0 when none). false on failure or a malformed message.
 */
bool		gx_wire_recv(int sock, GxWireHeader *h, void **buf, size_t max, GxWireFds *fds);

/*
 * A shared segment of size bytes (its memfds in fds), mapped read-write at one address, its pages allocated
 * (several threads at once for a large one, on the caller's OpenMP threads); NULL on failure, ENOMEM when
 * memory is short.
 */
void	   *gx_wire_segment_create(size_t size, GxWireFds *fds);
/*
 * Maps a segment of size bytes received from the peer (its memfds), its pages mapped at once (parallel: on
 * the caller's OpenMP threads, for a large one); NULL on failure or pieces that do not make that size.
 */
void	   *gx_wire_segment_map(const GxWireFds *fds, size_t size, bool parallel);

/* Aligned size of a side's arrays in a segment: of side s, or of a side of n elements and ngeoms geometries. */
size_t		gx_wire_side_bytes(const GxBatchSide *s);
size_t		gx_wire_side_bytes_for(size_t n, size_t ngeoms);
/*
 * Makes room an empty side whose arrays (for n elements, room->cap) lie in segment seg at offset off, where
 * gx_wire_side_put would copy them: a side laid out there (gx_batch_side_add_many) is put without a copy.
 */
void		gx_wire_side_room(GxBatchSide *room, char *seg, size_t off, size_t n);
/* The batch options that travel (the service supplies its own device, library and cancel flag). */
void		gx_wire_options_put(GxWireBatch *b, const GxBatchOptions *opt);
void		gx_wire_options_get(GxBatchOptions *opt, const GxWireBatch *b);

/*
 * Copies side s into segment seg at offset off (room: gx_wire_side_bytes) and describes it in w; on the
 * caller's OpenMP threads (gx_threads_begin). Arrays already in place (gx_wire_side_room) are not copied.
 */
void		gx_wire_side_put(GxWireSide *w, char *seg, size_t off, const GxBatchSide *s);
/* The side w describes, viewed in place in seg of size bytes; false if the offsets do not fit. */
bool		gx_wire_side_view(GxBatchSide *s, const GxWireSide *w, const char *seg, size_t size);

#endif
