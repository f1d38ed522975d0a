// SPDX-License-Identifier: GPL-2.0
/*
 * splice-N: device -> pipe sized to fit, pipe -> /dev/null, N bytes a splice.
 *
 * floor: the cheapest splice pair there is.  One byte from the device into
 * a pipe whose tail buffer is one of ours with room (it coalesces: no new
 * slot, no page reference), one byte from the pipe to /dev/null (the front
 * is that same buffer: it shrinks, nothing is released).  Run with the
 * folio implementation, whose 2 MiB tail takes 2 M loops to fill.  Every
 * fast-path rate is reported as a fraction of this.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "zsbench.h"

struct splice_st {
	int fd[4];		/* device, /dev/null, pipe read and write ends */
	size_t size;
};

enum { DEV, NUL, PR, PW };

/*
 * n bytes from the pipe to /dev/null.  Here, where the compiler can inline
 * it: --icount counts every instruction of the op, the loop's own too.
 */
static inline __attribute__((always_inline)) int drain(struct splice_st *s, size_t n)
{
	while (n) {
		ssize_t m = splice(s->fd[PR], NULL, s->fd[NUL], NULL, n, 0);

		if (m <= 0)
			return m < 0 ? -errno : -EIO;
		n -= (size_t)m;
	}
	return 0;
}

static int splice_open(struct zsb_wctx *c)
{
	struct splice_st *s = c->priv;
	int p[2];

	s->fd[DEV] = zsb_dev_open(c, O_RDONLY);
	if (s->fd[DEV] < 0)
		return s->fd[DEV];
	s->fd[NUL] = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (s->fd[NUL] < 0 || pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	s->fd[PR] = p[0];
	s->fd[PW] = p[1];
	s->size = c->wl->size;
	zsb_pipe_size(p[1], s->size);
	return 0;
}

static long splice_op(struct zsb_wctx *c)
{
	struct splice_st *s = c->priv;
	ssize_t n = splice(s->fd[DEV], NULL, s->fd[PW], NULL, s->size, 0);
	int e;

	if (n < 0)
		return -errno;
	e = drain(s, (size_t)n);
	return e ? e : n;
}

static void splice_close(struct zsb_wctx *c)
{
	struct splice_st *s = c->priv;

	zsb_close_fds(s->fd, 4);
}

const struct zsb_engine zsb_eng_splice = {
	"splice", sizeof(struct splice_st), splice_open, splice_op, splice_close,
};

/* two bytes first, so that taking one leaves the buffer in place */
static int floor_open(struct zsb_wctx *c)
{
	struct splice_st *s = c->priv;
	int e = splice_open(c);

	if (e)
		return e;
	if (splice(s->fd[DEV], NULL, s->fd[PW], NULL, 2, 0) != 2)
		return -(errno ? errno : EIO);
	return 0;
}

static long floor_op(struct zsb_wctx *c)
{
	struct splice_st *s = c->priv;
	ssize_t n = splice(s->fd[DEV], NULL, s->fd[PW], NULL, 1, 0);

	if (n != 1)
		return n < 0 ? -errno : -EIO;
	n = drain(s, 1);
	return n ? n : 1;
}

const struct zsb_engine zsb_eng_floor = {
	"floor", sizeof(struct splice_st), floor_open, floor_op, splice_close,
};
