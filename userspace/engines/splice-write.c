// SPDX-License-Identifier: GPL-2.0
/* splice-write: write() into a pipe, splice pipe -> device (discard; ENOSPC on fullsplice). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "zsbench.h"

struct sw_st {
	int fd[3];		/* device, pipe read and write ends */
	size_t pending;		/* bytes in the pipe */
	char *buf;
};

static int sw_open(struct zsb_wctx *c)
{
	struct sw_st *s = c->priv;
	int p[2];

	s->fd[0] = zsb_dev_open(c, O_WRONLY);
	if (s->fd[0] < 0)
		return s->fd[0];
	s->buf = calloc(1, c->wl->size);
	if (!s->buf || pipe2(p, O_CLOEXEC) < 0)
		return -ENOMEM;
	s->fd[1] = p[0];
	s->fd[2] = p[1];
	zsb_pipe_size(p[1], c->wl->size);
	return 0;
}

/* fill the pipe when it is empty, then one splice; ENOSPC counts as an op */
static long sw_op(struct zsb_wctx *c)
{
	struct sw_st *s = c->priv;
	ssize_t n;

	if (!s->pending) {
		n = write(s->fd[2], s->buf, c->wl->size);
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		s->pending = (size_t)n;
	}
	n = splice(s->fd[1], NULL, s->fd[0], NULL, s->pending, 0);
	if (n < 0) {
		if (errno != ENOSPC)
			return -errno;
		c->enospc++;
		return 0;
	}
	s->pending -= (size_t)n;
	return n;
}

static void sw_close(struct zsb_wctx *c)
{
	struct sw_st *s = c->priv;

	zsb_close_fds(s->fd, 3);
	free(s->buf);
}

const struct zsb_engine zsb_eng_splice_write = {
	"splice-write", sizeof(struct sw_st), sw_open, sw_op, sw_close,
};
