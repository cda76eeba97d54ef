/* gx_wire.c: sending and receiving the service's messages, segments, and sides laid out in them (gx_wire.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wire/gx_wire.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t) 7)

bool
gx_wire_send(int sock, GxMsgType type, const void *payload, size_t len, int pass_fd)
{
	GxWireHeader h = {GX_WIRE_MAGIC, (uint32_t) type, len};
	struct iovec iov[2] = {{&h, sizeof(h)}, {(void *) payload, len}};
	char		control[CMSG_SPACE(sizeof(int))];
	struct msghdr m;
	size_t		total = sizeof(h) + len,
				sent = 0;

	memset(&m, 0, sizeof(m));
	m.msg_iov = iov;
	m.msg_iovlen = len ? 2 : 1;
	if (pass_fd >= 0)
	{
		struct cmsghdr *c;

		memset(control, 0, sizeof(control));
		m.msg_control = control;
		m.msg_controllen = sizeof(control);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
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

/* Reads exactly len bytes; the first read may carry a descriptor. */
static bool
read_full(int sock, void *buf, size_t len, int *fd)
{
	size_t		got = 0;

	while (got < len)
	{
		char		control[CMSG_SPACE(sizeof(int))];
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
				int			passed;

				memcpy(&passed, CMSG_DATA(c), sizeof(int));
				if (fd && *fd < 0)
					*fd = passed;
				else
					close(passed);
			}
		got += (size_t) r;
	}
	return true;
}

bool
gx_wire_recv(int sock, GxWireHeader *h, void **buf, size_t max, int *fd)
{
	bool		allocated = false;

	*fd = -1;
	if (!read_full(sock, h, sizeof(*h), fd) || h->magic != GX_WIRE_MAGIC || h->length > max ||
		h->length > GX_WIRE_MAX_PAYLOAD)
		goto fail;
	if (*buf == NULL)
	{
		*buf = malloc(h->length ? h->length : 1);
		allocated = true;
		if (*buf == NULL)
			goto fail;
	}
	if (h->length && !read_full(sock, *buf, h->length, fd))
		goto fail;
	return true;

fail:
	if (allocated)
	{
		free(*buf);
		*buf = NULL;
	}
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return false;
}

/*
 * Allocates the pages of [p, p + size) now, 1 MB per task on the caller's OpenMP threads: memory that runs
 * short is then an error here, not a SIGBUS when the segment is written. A kernel without
 * MADV_POPULATE_WRITE (before Linux 5.14) leaves them to be allocated as they are first written.
 */
static bool
populate(char *p, size_t size)
{
	const size_t chunk = 1 << 20;
	long		nchunks = (long) ((size + chunk - 1) / chunk),
				k;
	int			failed = 0;

	#pragma omp parallel for schedule(dynamic, 1) reduction(|:failed) if (nchunks > 4)
	for (k = 0; k < nchunks; k++)
	{
		size_t		at = (size_t) k * chunk;

		if (madvise(p + at, size - at < chunk ? size - at : chunk, MADV_POPULATE_WRITE) != 0 && errno != EINVAL)
			failed = 1;
	}
	return !failed;
}

void *
gx_wire_segment_create(size_t size, int *fd)
{
	void	   *p;

	*fd = memfd_create("gpuexact", MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	if (ftruncate(*fd, (off_t) (size ? size : 1)) != 0 ||
		(p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0)) == MAP_FAILED)
	{
		close(*fd);
		*fd = -1;
		return NULL;
	}
	if (!populate(p, size ? size : 1))
	{
		munmap(p, size ? size : 1);
		close(*fd);
		*fd = -1;
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

void *
gx_wire_segment_map(int fd, size_t size, bool parallel)
{
	void	   *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_SHARED | (parallel ? 0 : MAP_POPULATE),
						 fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* its pages exist (the maker allocated them): mapped now, not one by one as they are first read */
	if (parallel)
		populate(p, size ? size : 1);
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

void
gx_wire_side_room(GxBatchSide *room, char *seg, size_t off, size_t n)
{
	gx_batch_side_init(room);
	room->coords = (double *) (seg + off);
	room->kind = (uint8_t *) (seg + off + ALIGN8(n * 9 * sizeof(double)));
	room->geom = (uint32_t *) ((char *) room->kind + ALIGN8(n));
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
	w->kind_off = off + ALIGN8(s->n * 9 * sizeof(double));
	w->geom_off = w->kind_off + ALIGN8(s->n);
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
