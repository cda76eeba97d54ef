/* gx_wire.c: sending and receiving the service's messages, segments, and sides laid out in them (gx_wire.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire/gx_wire.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t) 7)

bool
gx_wire_send(int sock, GxMsgType type, const void *payload, size_t len, const GxWireFds *pass)
{
	GxWireHeader h = {GX_WIRE_MAGIC, (uint32_t) type, len};
	struct iovec iov[2] = {{&h, sizeof(h)}, {(void *) payload, len}};
	char		control[CMSG_SPACE(GX_WIRE_MAX_FDS * sizeof(int))];
	struct msghdr m;
	size_t		total = sizeof(h) + len,
				sent = 0;

	memset(&m, 0, sizeof(m));
	m.msg_iov = iov;
	m.msg_iovlen = len ? 2 : 1;
	if (pass && pass->n > 0)
	{
		struct cmsghdr *c;

		memset(control, 0, sizeof(control));
		m.msg_control = control;
		m.msg_controllen = CMSG_SPACE(pass->n * sizeof(int));
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(pass->n * sizeof(int));
		memcpy(CMSG_DATA(c), pass->fd, pass->n * sizeof(int));
	}
	while (sent < total)
	{
		ssize_t		r = sendmsg(sock, &m, MSG_NOSIGNAL);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		sent += (size_t) r;
		/* the descriptor went with the first bytes; move the iovecs past what was sent */
		m.msg_control = NULL;
		m.msg_controllen = 0;
		while (r > 0 && m.msg_iovlen > 0)
		{
			size_t		step = (size_t) r < m.msg_iov->iov_len ? (size_t) r : m.msg_iov->iov_len;

			m.msg_iov->iov_base = (char *) m.msg_iov->iov_base + step;
			m.msg_iov->iov_len -= step;
			r -= (ssize_t) step;
			if (m.msg_iov->iov_len == 0)
			{
				m.msg_iov++;
				m.msg_iovlen--;
			}
		}
	}
	return true;
}

/* Reads exactly len bytes; the first read may carry descriptors, kept in fds (those past its room closed). */
static bool
read_full(int sock, void *buf, size_t len, GxWireFds *fds)
{
	size_t		got = 0;

	while (got < len)
	{
		char		control[CMSG_SPACE(GX_WIRE_MAX_FDS * sizeof(int))];
		struct iovec iov = {(char *) buf + got, len - got};
		struct msghdr m;
		ssize_t		r;
		struct cmsghdr *c;

		memset(&m, 0, sizeof(m));
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = control;
		m.msg_controllen = sizeof(control);
		r = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			{
				size_t		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

				for (size_t k = 0; k < n; k++)
				{
					int			passed;

					memcpy(&passed, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
					if (fds && fds->n < GX_WIRE_MAX_FDS)
						fds->fd[fds->n++] = passed;
					else
						close(passed);
				}
			}
		got += (size_t) r;
	}
	return true;
}

void
gx_wire_fds_close(GxWireFds *fds)
{
	for (int k = 0; k < fds->n; k++)
		close(fds->fd[k]);
	fds->n = 0;
}

bool
gx_wire_recv(int sock, GxWireHeader *h, void **buf, size_t max, GxWireFds *fds)
{
	bool		allocated = false;

	fds->n = 0;
	if (!read_full(sock, h, sizeof(*h), fds) || h->magic != GX_WIRE_MAGIC || h->length > max ||
		h->length > GX_WIRE_MAX_PAYLOAD)
		goto fail;
	if (*buf == NULL)
	{
		*buf = malloc(h->length ? h->length : 1);
		allocated = true;
		if (*buf == NULL)
			goto fail;
	}
	if (h->length && !read_full(sock, *buf, h->length, fds))
		goto fail;
	return true;

fail:
	if (allocated)
	{
		free(*buf);
		*buf = NULL;
	}
	gx_wire_fds_close(fds);
	return false;
}

/* A segment of at least this many bytes a piece is made of several memfds (at most GX_WIRE_MAX_FDS). */
#define PIECE_MIN ((size_t) 64 << 20)
#define POPULATE_CHUNK ((size_t) 1 << 20)

static size_t
page_size(void)
{
	long		p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t) p : 4096;
}

/* The bytes of each of the n pieces of a segment of size bytes (the last one may be shorter). */
static size_t
piece_bytes(size_t size, int n)
{
	size_t		page = page_size(),
				piece = (size + (size_t) n - 1) / (size_t) n;

	return (piece + page - 1) / page * page;
}

/* The bytes of piece k (of pieces of `piece` bytes) of a segment of size bytes: the last may be shorter. */
static size_t
piece_len(size_t size, size_t piece, int k)
{
	size_t		at = (size_t) k * piece;

	return size - at < piece ? size - at : piece;
}

/* The segment's pieces mapped one after another at one address; NULL on failure. */
static char *
map_pieces(const GxWireFds *fds, size_t size)
{
	size_t		piece = piece_bytes(size, fds->n);
	char	   *base = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (base == MAP_FAILED)
		return NULL;
	for (int k = 0; k < fds->n; k++)
		if (mmap(base + (size_t) k * piece, piece_len(size, piece, k), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
				 fds->fd[k], 0) == MAP_FAILED)
		{
			munmap(base, size);
			return NULL;
		}
	return base;
}

/*
 * Allocates the pages of the segment at p now, 1 MB per task on the caller's OpenMP threads when parallel, the tasks
 * taking the pieces in turn (threads filling one file contend for it; filling different ones, they do
 * not): memory that runs short is then an error here, not a SIGBUS when the segment is written. A kernel
 * without MADV_POPULATE_WRITE (before Linux 5.14) leaves them to be allocated as they are first written.
 */
static bool
populate(char *p, size_t size, int n, bool parallel)
{
	size_t		piece = piece_bytes(size, n),
				per_piece = (piece + POPULATE_CHUNK - 1) / POPULATE_CHUNK;
	long		tasks = (long) per_piece * n,
				k;
	int			failed = 0;

	#pragma omp parallel for schedule(dynamic, 1) reduction(|:failed) if (parallel && size > 4 * POPULATE_CHUNK)
	for (k = 0; k < tasks; k++)
	{
		size_t		at = (size_t) (k % n) * piece + (size_t) (k / n) * POPULATE_CHUNK,
					end = (size_t) (k % n) * piece + piece;

		end = end < size ? end : size;
		if (at < end && madvise(p + at, end - at < POPULATE_CHUNK ? end - at : POPULATE_CHUNK, MADV_POPULATE_WRITE) != 0 &&
			errno != EINVAL)
			failed = 1;
	}
	return !failed;
}

void *
gx_wire_segment_create(size_t size, GxWireFds *fds)
{
	size_t		total = size ? size : 1,
				piece;
	int			n = total / PIECE_MIN < 2 ? 1 : total / PIECE_MIN > GX_WIRE_MAX_FDS ? GX_WIRE_MAX_FDS :
		(int) (total / PIECE_MIN);
	char	   *p = NULL;
	int			e;

	piece = piece_bytes(total, n);
	fds->n = 0;
	for (int k = 0; k < n; k++)
	{
		int			fd = (size_t) k * piece < total ? memfd_create("gpuexact", MFD_CLOEXEC) : -1;

		if (fd < 0)
			goto fail;
		fds->fd[fds->n++] = fd;
		if (ftruncate(fd, (off_t) piece_len(total, piece, k)) != 0)
			goto fail;
	}
	if ((p = map_pieces(fds, total)) == NULL)
		goto fail;
	if (!populate(p, total, n, true))
	{
		munmap(p, total);
		gx_wire_fds_close(fds);
		errno = ENOMEM;
		return NULL;
	}
	return p;
fail:
	e = errno;
	gx_wire_fds_close(fds);
	errno = e;
	return NULL;
}

void *
gx_wire_segment_map(const GxWireFds *fds, size_t size, bool parallel)
{
	size_t		total = size ? size : 1,
				piece;
	char	   *p;

	if (fds->n < 1 || fds->n > GX_WIRE_MAX_FDS)
		return NULL;
	piece = piece_bytes(total, fds->n);
	if ((size_t) (fds->n - 1) * piece >= total)
		return NULL;
	/*
	 * each piece as long as the maker's, which the size decides: a short one would be a bus error when read,
	 * and pieces of another size a segment of another size (its bytes at other offsets)
	 */
	for (int k = 0; k < fds->n; k++)
	{
		struct stat st;
		size_t		len = piece_len(total, piece, k);

		if (fstat(fds->fd[k], &st) != 0 || (uint64_t) st.st_size < len ||
			(k + 1 < fds->n && (uint64_t) st.st_size != len))
			return NULL;
	}
	if ((p = map_pieces(fds, total)) == NULL)
		return NULL;
	/* its pages exist (the maker allocated them): mapped now, not one by one as they are first read */
	populate(p, total, fds->n, parallel);
	return p;
}

size_t
gx_wire_side_bytes_for(size_t n, size_t ngeoms)
{
	return ALIGN8(n * 9 * sizeof(double)) + ALIGN8(n) + ALIGN8(n * sizeof(uint32_t)) + ALIGN8(ngeoms);
}

size_t
gx_wire_side_bytes(const GxBatchSide *s)
{
	return gx_wire_side_bytes_for(s->n, s->ngeoms);
}

/* Where the kind and geom arrays of a side of n elements whose coordinates are at off lie in a segment. */
static void
side_offsets(size_t off, size_t n, uint64_t *kind_off, uint64_t *geom_off)
{
	*kind_off = off + ALIGN8(n * 9 * sizeof(double));
	*geom_off = *kind_off + ALIGN8(n);
}

void
gx_wire_side_room(GxBatchSide *room, char *seg, size_t off, size_t n)
{
	uint64_t	kind_off,
				geom_off;

	side_offsets(off, n, &kind_off, &geom_off);
	gx_batch_side_init(room);
	room->coords = (double *) (seg + off);
	room->kind = (uint8_t *) (seg + kind_off);
	room->geom = (uint32_t *) (seg + geom_off);
	room->cap = n;
}

/* memcpy in chunks of 1 MB on the caller's OpenMP threads. */
static void
parallel_copy(char *dst, const void *src, size_t n)
{
	const size_t chunk = 1 << 20;
	long		k;

	#pragma omp parallel for schedule(dynamic, 1)
	for (k = 0; k < (long) ((n + chunk - 1) / chunk); k++)
	{
		size_t		at = (size_t) k * chunk;

		memcpy(dst + at, (const char *) src + at, n - at < chunk ? n - at : chunk);
	}
}

void
gx_wire_side_put(GxWireSide *w, char *seg, size_t off, const GxBatchSide *s)
{
	memset(w, 0, sizeof(*w));
	w->n = s->n;
	w->ngeoms = s->ngeoms;
	w->srid = s->srid;
	w->mixed_srid = s->mixed_srid;
	w->unknown_srid = s->unknown_srid;
	w->extent = s->extent;
	w->coords_off = off;
	side_offsets(off, s->n, &w->kind_off, &w->geom_off);
	if (s->coords != (double *) (seg + w->coords_off))
		parallel_copy(seg + w->coords_off, s->coords, s->n * 9 * sizeof(double));
	if (s->kind != (uint8_t *) (seg + w->kind_off))
		memcpy(seg + w->kind_off, s->kind, s->n);
	if (s->geom != (uint32_t *) (seg + w->geom_off))
		parallel_copy(seg + w->geom_off, s->geom, s->n * sizeof(uint32_t));
	if (s->solid)
	{
		size_t		known = s->solid_cap < s->ngeoms ? s->solid_cap : s->ngeoms;

		w->solid_off = w->geom_off + ALIGN8(s->n * sizeof(uint32_t));
		memcpy(seg + w->solid_off, s->solid, known);
		memset(seg + w->solid_off + known, 0, s->ngeoms - known);
	}
}

bool
gx_wire_side_view(GxBatchSide *s, const GxWireSide *w, const char *seg, size_t size)
{
	if (w->n > size / (9 * sizeof(double)) || w->coords_off > size - w->n * 9 * sizeof(double) ||
		w->kind_off > size - w->n || w->geom_off > size - w->n * sizeof(uint32_t) || w->ngeoms > UINT32_MAX ||
		(w->solid_off != 0 && (w->ngeoms > size || w->solid_off > size - w->ngeoms)) ||
		(w->coords_off | w->geom_off) % 8 != 0)
		return false;
	gx_batch_side_init(s);
	s->n = s->cap = w->n;
	s->ngeoms = (uint32_t) w->ngeoms;
	s->srid = w->srid;
	s->mixed_srid = w->mixed_srid;
	s->unknown_srid = w->unknown_srid;
	s->extent = w->extent;
	s->coords = (double *) (seg + w->coords_off);
	s->kind = (uint8_t *) (seg + w->kind_off);
	s->geom = (uint32_t *) (seg + w->geom_off);
	if (w->solid_off != 0)
	{
		s->solid = (uint8_t *) (seg + w->solid_off);
		s->solid_cap = w->ngeoms;
	}
	return true;
}

void
gx_wire_options_put(GxWireBatch *b, const GxBatchOptions *opt)
{
	b->grid_resolution = opt->grid_resolution;
	b->float_pass = opt->float_pass;
	b->cuda_device = opt->cuda_device;
	b->ignore_srid = opt->ignore_srid;
	b->strict_srid = opt->strict_srid;
	b->gpu_memory_cap = opt->gpu_memory_cap;
	b->distance = opt->distance;
}

void
gx_wire_options_get(GxBatchOptions *opt, const GxWireBatch *b)
{
	opt->grid_resolution = b->grid_resolution;
	opt->float_pass = b->float_pass;
	opt->cuda_device = b->cuda_device;
	opt->ignore_srid = b->ignore_srid;
	opt->strict_srid = b->strict_srid;
	opt->gpu_memory_cap = b->gpu_memory_cap;
	opt->distance = b->distance;
}
