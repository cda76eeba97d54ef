/*
 * gx_service_client.c: a backend's side of the GPU service (gx_service.h, gx_wire.h). One connection per
 * backend, opened at its first batch and kept. A side made only of TOASTed values is named by its keys:
 * the service may hold it already, and then this backend neither detoasts nor flattens nor sends it.
 * While the service works, the backend waits in short polls: query cancel, statement_timeout and
 * termination set the segment's control word, which the engine polls; past gpuexact.service_timeout, or
 * when the service fails or disappears, the backend runs the batch on its own CPU (same answer).
 * PostgreSQL counts the descriptors the connection may hold (the socket, and the memfds of one segment
 * made or received at a time) among its own, so that its file cache leaves room for them.
 */
#include "postgres.h"

#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "miscadmin.h"
#include "storage/fd.h"
#include "portability/instr_time.h"

#include "base/gx_alloc.h"
#include "base/gx_clock.h"
#include "base/gx_threads.h"
#include "batch/gx_pg_cache.h"
#include "service/gx_service.h"
#include "operation/gx_intercepts.h"
#include "operation/gx_overlap_pairs.h"
#include "operation/gx_volume.h"
#include "wire/gx_wire.h"

#define POLL_MS 10
#define CANCEL_GRACE_MS 2000		/* how long a cancelled batch may take to say so */

#define PARALLEL_SEND_BYTES (4 << 20)	/* sides of less than this are written into the segment on one thread */

static int	sock = -1;
static int	counted_fds;		/* descriptors counted with PostgreSQL's for the connection */

/* The connection's descriptors no longer counted. */
static void
uncount_fds(void)
{
	for (; counted_fds > 0; counted_fds--)
		ReleaseExternalFD();
}

/* The socket's descriptor and a segment's counted; false when PostgreSQL has no room for them. */
static bool
count_fds(void)
{
	for (; counted_fds < 1 + GX_WIRE_MAX_FDS; counted_fds++)
		if (!AcquireExternalFD())
		{
			uncount_fds();
			return false;
		}
	return true;
}

static void
disconnect(void)
{
	if (sock >= 0)
		close(sock);
	sock = -1;
	uncount_fds();
}

static bool
connect_service(char *why, size_t whylen)
{
	struct sockaddr_un addr;
	struct ucred peer;
	socklen_t	len = sizeof(peer);

	if (sock >= 0)
		return true;
	if (!count_fds())
	{
		snprintf(why, whylen, "GPU service: no room for its file descriptors (max_files_per_process)");
		return false;
	}
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	gx_service_socket_path(addr.sun_path, sizeof(addr.sun_path));
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || connect(sock, (struct sockaddr *) &addr, sizeof(addr)) != 0)
	{
		snprintf(why, whylen, "GPU service not reachable (%m)");
		disconnect();
		return false;
	}
	/* the other end must be the cluster's own user: nobody else gets geometries or gives answers */
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0 || peer.uid != geteuid())
	{
		snprintf(why, whylen, "GPU service socket not owned by the server's user");
		disconnect();
		return false;
	}
	return true;
}

static bool
stop_requested(void)
{
	return QueryCancelPending || ProcDiePending;
}

/*
 * Waits for the service's next message. Sets control->cancel on cancel or termination (then gives the
 * service CANCEL_GRACE_MS to answer) and on the timeout. false, disconnected, when no answer came: the
 * caller then releases what it holds and checks for interrupts.
 */
static bool
await_reply(GxWireHeader *h, void *buf, size_t len, GxWireFds *fds, GxWireControl *control, char *why, size_t whylen)
{
	instr_time	start,
				now;
	double		waited,
				limit = gx_service_timeout_ms;
	bool		cancelled = false;

	INSTR_TIME_SET_CURRENT(start);
	for (;;)
	{
		struct pollfd p = {sock, POLLIN, 0};

		if (poll(&p, 1, POLL_MS) > 0)
		{
			if (gx_wire_recv(sock, h, &buf, len, fds))
			{
				if (h->length == len)
					return true;
				gx_wire_fds_close(fds);
			}
			snprintf(why, whylen, "GPU service connection lost");
			break;
		}
		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, start);
		waited = INSTR_TIME_GET_MILLISEC(now);
		if (!cancelled && stop_requested())
		{
			cancelled = true;
			limit = waited + CANCEL_GRACE_MS;
			if (control)
				control->cancel = 1;
			else
				break;
		}
		if (waited > limit)
		{
			if (control)
				control->cancel = 1;
			snprintf(why, whylen, "GPU service busy past gpuexact.service_timeout (%d ms)", gx_service_timeout_ms);
			break;
		}
	}
	disconnect();
	return false;
}

/*
 * Sends a message of type with its payload and waits for the answer want, reply_len bytes into reply (the
 * descriptors of a segment that comes along into fds, for the caller to close); false (why set, disconnected)
 * when it does not come, after a check for interrupts when the wait was cut short.
 */
static bool
ask(GxMsgType type, const void *payload, size_t len, GxMsgType want, void *reply, size_t reply_len, GxWireFds *fds,
	char *why, size_t whylen)
{
	GxWireHeader h;

	if (!gx_wire_send(sock, type, payload, len, NULL))
	{
		snprintf(why, whylen, "GPU service connection lost");
		disconnect();
		return false;
	}
	if (!await_reply(&h, reply, reply_len, fds, NULL, why, whylen))
	{
		CHECK_FOR_INTERRUPTS();
		return false;
	}
	if (h.type != want)
	{
		gx_wire_fds_close(fds);
		snprintf(why, whylen, "GPU service: unexpected answer");
		disconnect();
		return false;
	}
	return true;
}

/* Asks which sides the service holds; false (why set) when it cannot serve. */
static bool
lookup(GxPgSide *a, GxPgSide *b, GxWireLookupReply *r, char *why, size_t whylen)
{
	GxPgSide   *sides[2] = {a, b};
	GxWireLookup l;
	char	   *payload;
	size_t		len;
	GxWireFds	fds;
	int			k;
	bool		answered;

	for (k = 0; k < 2; k++)
		l.nkeys[k] = sides[k]->skeys ? sides[k]->nskeys : 0;
	len = sizeof(l) + (l.nkeys[0] + l.nkeys[1]) * sizeof(GxCacheKey);
	if (len > GX_WIRE_MAX_PAYLOAD)
		l.nkeys[0] = l.nkeys[1] = 0, len = sizeof(l);
	payload = palloc(len);
	memcpy(payload, &l, sizeof(l));
	for (k = 0; k < 2; k++)
		if (l.nkeys[k])
			memcpy(payload + sizeof(l) + (k ? l.nkeys[0] * sizeof(GxCacheKey) : 0), sides[k]->skeys,
				   l.nkeys[k] * sizeof(GxCacheKey));
	answered = ask(GX_MSG_LOOKUP, payload, len, GX_MSG_LOOKUP_REPLY, r, sizeof(*r), &fds, why, whylen);
	pfree(payload);
	if (!answered)
		return false;
	gx_wire_fds_close(&fds);
	if (!r->device_ok)
	{
		snprintf(why, whylen, "GPU: not available (%s)", r->device);
		return false;
	}
	return true;
}

/*
 * The result's n records of size bytes each, from the segment of fds (closed here whatever happens), into
 * a gx_alloc'd copy (the segment checked to be as long as the service says before it is read: a short one
 * is an error, not a bus error).
 */
static bool
take_result(GxWireFds *fds, uint64 n, size_t size, void **out, char *why, size_t whylen)
{
	void	   *records = NULL;
	size_t		bytes = n * size;

	if (n > 0 && (records = gx_wire_segment_map(fds, bytes, false)) == NULL)
	{
		gx_wire_fds_close(fds);
		snprintf(why, whylen, "GPU service: result not readable");
		return false;
	}
	gx_wire_fds_close(fds);
	PG_TRY();
	{
		*out = gx_alloc(Max(bytes, 1));
		if (n > 0)
			memcpy(*out, records, bytes);
	}
	PG_FINALLY();
	{
		if (records)
			munmap(records, bytes);
	}
	PG_END_TRY();
	return true;
}

/*
 * The batch's segment of size bytes, its pages allocated on the cluster's thread budget when large; NULL
 * (why says why) when there is none. *ms: the time it took.
 */
static char *
make_segment(size_t size, GxWireFds *fds, const GxBatchOptions *opt, double *ms, char *why, size_t whylen)
{
	double		t0 = gx_now_ms();
	char	   *seg;
	int			e;

	gx_threads_begin(size >= PARALLEL_SEND_BYTES ? opt->threads : 1, opt->thread_budget);
	seg = gx_wire_segment_create(size, fds);
	e = errno;
	gx_threads_end();
	*ms = gx_now_ms() - t0;
	errno = e;
	if (seg == NULL)
		snprintf(why, whylen, "GPU service: no shared segment of %zu bytes (%m)", size);
	return seg;
}

/* The batch's segment unmapped, and the sides laid out in it (placed) without arrays again. */
static void
let_go(char *seg, size_t size, GxPgSide *const *sides, const bool *placed)
{
	munmap(seg, size);
	for (int k = 0; k < 2; k++)
		if (placed[k])
			gx_pg_side_forget(sides[k]);
}

/*
 * Runs the batch's job in the service: true with its RESULT in *r and the result segment in fds; false when
 * this backend must run it (why says why). Raises on cancel. A large side not made yet is laid out in the
 * batch's segment directly, with no copy.
 */
static bool
run(GxPgSide *a, GxPgSide *b, const GxBatchOptions *opt, GxWireJob job, uint64 max_cuts, GxWireResult *r,
	GxWireFds *fds, GxBatchStats *st, char *why, size_t whylen)
{
	GxPgSide   *sides[2] = {a, b};
	GxPgRead	reads[2];
	bool		placed[2] = {false, false};
	GxWireLookupReply info;
	GxWireBatch batch;
	GxWireHeader h;
	GxWireControl *control;
	char	   *seg;
	size_t		size = MAXALIGN(sizeof(GxWireControl)),
				size_all,
				elements = 0,
				content_len[2] = {0, 0},
				rows_len[2] = {0, 0};
	GxWireFds	segfds;
	int			k;
	bool		ok;
	double		t_segment;

	if (!gx_service_started() || opt->device == GX_DEVICE_CPU)
		return false;
	if (!connect_service(why, whylen) || !lookup(a, b, &info, why, whylen))
		return false;
	memset(&batch, 0, sizeof(batch));
	for (k = 0; k < 2; k++)
	{
		GxPgSide   *s = sides[k];

		if (info.side[k].held)
		{
			batch.side[k].held = 1;
			s->side.srid = info.side[k].srid;
			s->side.mixed_srid = info.side[k].mixed_srid;
			s->side.unknown_srid = info.side[k].unknown_srid;
			elements += info.side[k].n;
		}
		else if (!s->built && !s->laid_out_elsewhere && s->raw_bytes >= PARALLEL_SEND_BYTES &&
				 !gx_pg_side_cached(s))
		{
			/*
			 * a large side is laid out in the segment itself (below), not flattened here and copied there;
			 * once only in a query (its next batch makes it here, should the service not hold it then)
			 */
			gx_pg_side_read(s, &reads[k]);
			placed[k] = true;
			elements += reads[k].elements;
			size += gx_wire_side_bytes_for(reads[k].elements, s->ngeoms);
		}
		else
		{
			gx_pg_side_materialize(s);
			elements += s->side.n;
			size += gx_wire_side_bytes(&s->side);
		}
		/* a side under a hash of its bytes sends them, unless the held entry is known to hold them */
		if (s->content)
		{
			uint64		known;

			gx_pg_side_content(s, &content_len[k], &known);
			if (info.side[k].held && known != 0 && info.side[k].serial == known)
				content_len[k] = 0;
			size += MAXALIGN(content_len[k]);
		}
		/* a table's side to keep takes its rows' locations along, for other sessions (gx_service_rows) */
		if (!info.side[k].held && s->skeys && s->rows_write)
		{
			rows_len[k] = s->rows_len;
			size += MAXALIGN(rows_len[k]);
		}
	}
	size_all = size;
	if ((opt->device == GX_DEVICE_AUTO && elements < opt->gpu_min_elements) ||
		(seg = make_segment(size, &segfds, opt, &t_segment, why, whylen)) == NULL)
	{
		/* run here: the sides read for the segment laid out in this backend */
		for (k = 0; k < 2; k++)
			if (placed[k])
				gx_pg_side_lay_out(sides[k], &reads[k], NULL);
		return false;
	}
	control = (GxWireControl *) seg;
	control->cancel = 0;
	/* the large sides laid out in place, the segment let go on an ERROR */
	PG_TRY();
	{
		for (k = 0, size = MAXALIGN(sizeof(GxWireControl)); k < 2; k++)
			if (!batch.side[k].held)
			{
				GxBatchSide room;

				if (placed[k])
				{
					gx_wire_side_room(&room, seg, size, reads[k].elements);
					gx_pg_side_lay_out(sides[k], &reads[k], &room);
				}
				size += gx_wire_side_bytes(&sides[k]->side);
			}
	}
	PG_CATCH();
	{
		let_go(seg, size_all, sides, placed);
		gx_wire_fds_close(&segfds);
		PG_RE_THROW();
	}
	PG_END_TRY();
	/* written on the cluster's thread budget when large (nothing from here to the send raises an ERROR) */
	gx_threads_begin(size_all >= PARALLEL_SEND_BYTES ? opt->threads : 1, opt->thread_budget);
	for (k = 0, size = MAXALIGN(sizeof(GxWireControl)); k < 2; k++)
		if (!batch.side[k].held)
		{
			double		t0 = gx_now_ms();

			gx_wire_side_put(&batch.side[k], seg, size, &sides[k]->side);
			size += gx_wire_side_bytes(&sides[k]->side);
			sides[k]->send_ms += gx_now_ms() - t0 + t_segment;
			t_segment = 0;
		}
	for (k = 0; k < 2; k++)
	{
		batch.side[k].cache = sides[k]->skeys != NULL;
		if (content_len[k] > 0)
		{
			double		t0 = gx_now_ms();

			batch.side[k].content_off = size;
			batch.side[k].content_len = content_len[k];
			gx_pg_side_content_write(sides[k], seg + size);
			size += MAXALIGN(content_len[k]);
			sides[k]->send_ms += gx_now_ms() - t0;
		}
		if (rows_len[k] > 0)
		{
			double		t0 = gx_now_ms();

			batch.side[k].rows_off = size;
			batch.side[k].rows_len = rows_len[k];
			sides[k]->rows_write(sides[k], seg + size);
			size += MAXALIGN(rows_len[k]);
			sides[k]->send_ms += gx_now_ms() - t0;
		}
	}
	gx_threads_end();
	gx_wire_options_put(&batch, opt);
	batch.job = (uint8_t) job;
	batch.max_cuts = max_cuts;
	Assert(size == size_all);
	batch.segment_size = size_all;
	ok = gx_wire_send(sock, GX_MSG_BATCH, &batch, sizeof(batch), &segfds);
	gx_wire_fds_close(&segfds);
	/* the values laid out in the segment let go while the service works */
	for (k = 0; k < 2; k++)
		if (placed[k])
			gx_pg_read_free(&reads[k]);
	if (!ok)
	{
		let_go(seg, size_all, sides, placed);
		snprintf(why, whylen, "GPU service connection lost");
		disconnect();
		return false;
	}
	ok = await_reply(&h, r, sizeof(*r), fds, control, why, whylen);
	let_go(seg, size_all, sides, placed);
	if (!ok)
	{
		CHECK_FOR_INTERRUPTS();
		return false;
	}
	if (r->code == GX_ERR_CANCELLED)
	{
		gx_wire_fds_close(fds);
		CHECK_FOR_INTERRUPTS();
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gpuexact batch due to user request")));
	}
	if (r->code != GX_OK || fds->n == 0)
	{
		gx_wire_fds_close(fds);
		snprintf(why, whylen, "GPU service: %s", r->msg);
		return false;
	}
	*st = r->stats;
	snprintf(st->device, sizeof(st->device), "%s, in the GPU service", r->stats.device);
	for (k = 0; k < 2; k++)
		if (sides[k]->content)
			gx_pg_side_content_held(sides[k], r->serial[k]);
	return true;
}

bool
gx_service_run(GxPgSide *a, GxPgSide *b, const GxBatchOptions *opt, GxPairs *out, GxBatchStats *st,
			   char *why, size_t whylen)
{
	GxWireResult r;
	GxWireFds	fds;

	if (!run(a, b, opt, GX_JOB_PAIRS, 0, &r, &fds, st, why, whylen) ||
		!take_result(&fds, r.npairs, sizeof(uint64), (void **) &out->keys, why, whylen))
		return false;
	out->n = r.npairs;
	return true;
}

bool
gx_service_intercepts(GxPgSide *lines, GxPgSide *solids, const GxBatchOptions *opt, GxPairInterval **out,
					  size_t *n, GxBatchStats *st, char *why, size_t whylen)
{
	GxWireResult r;
	GxWireFds	fds;

	if (!run(lines, solids, opt, GX_JOB_INTERCEPTS, 0, &r, &fds, st, why, whylen) ||
		!take_result(&fds, r.npairs, sizeof(GxPairInterval), (void **) out, why, whylen))
		return false;
	*n = r.npairs;
	return true;
}

bool
gx_service_volumes(GxPgSide *boxes, GxPgSide *solids, const GxBatchOptions *opt, GxVolumePair **out, size_t *n,
				   char *why, size_t whylen)
{
	GxWireResult r;
	GxBatchStats st;
	GxWireFds	fds;

	if (!run(boxes, solids, opt, GX_JOB_VOLUMES, 0, &r, &fds, &st, why, whylen) ||
		!take_result(&fds, r.npairs, sizeof(GxVolumePair), (void **) out, why, whylen))
		return false;
	*n = r.npairs;
	return true;
}

bool
gx_service_overlaps(GxPgSide *a, GxPgSide *b, const GxBatchOptions *opt, size_t max_cuts, GxOverlapPair **out,
					size_t *n, char *why, size_t whylen)
{
	GxWireResult r;
	GxBatchStats st;
	GxWireFds	fds;

	if (!run(a, b, opt, GX_JOB_OVERLAPS, max_cuts, &r, &fds, &st, why, whylen) ||
		!take_result(&fds, r.npairs, sizeof(GxOverlapPair), (void **) out, why, whylen))
		return false;
	*n = r.npairs;
	return true;
}

bool
gx_service_cache_stats(bool reset, GxCacheStats *st)
{
	char		why[256];
	GxWireFds	fds;

	if (!gx_service_started() || !connect_service(why, sizeof(why)) ||
		!ask(reset ? GX_MSG_RESET : GX_MSG_STATS, NULL, 0, GX_MSG_STATS_REPLY, st, sizeof(*st), &fds, why,
			 sizeof(why)))
		return false;
	gx_wire_fds_close(&fds);
	return true;
}

void *
gx_service_rows(const GxCacheKey *keys, size_t nkeys, size_t *len)
{
	GxWireRowsReply r;
	char		why[256];
	GxWireFds	fds;
	void	   *rows = NULL;

	*len = 0;
	if (!gx_service_started() || !connect_service(why, sizeof(why)) ||
		!ask(GX_MSG_ROWS, keys, nkeys * sizeof(GxCacheKey), GX_MSG_ROWS_REPLY, &r, sizeof(r), &fds, why,
			 sizeof(why)))
		return NULL;
	if (r.len > 0 && (rows = gx_wire_segment_map(&fds, r.len, false)) != NULL)
		*len = r.len;
	gx_wire_fds_close(&fds);
	return rows;
}

void
gx_service_rows_free(void *rows, size_t len)
{
	if (rows)
		munmap(rows, len);
}
