// SPDX-License-Identifier: GPL-2.0
/* read-N: read() N bytes from the device. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zsbench.h"

struct read_st {
	int dev;
	char *buf;
};

static int read_open(struct zsb_wctx *c)
{
	struct read_st *s = c->priv;

	s->dev = zsb_dev_open(c, O_RDONLY);
	if (s->dev < 0)
		return s->dev;
	s->buf = malloc(c->wl->size);
	if (!s->buf)
		return -ENOMEM;
	memset(s->buf, 1, c->wl->size);
	return 0;
}

static long read_op(struct zsb_wctx *c)
{
	struct read_st *s = c->priv;
	ssize_t n = read(s->dev, s->buf, c->wl->size);

	return n < 0 ? -errno : n;
}

static void read_close(struct zsb_wctx *c)
{
	struct read_st *s = c->priv;

	zsb_close_fds(&s->dev, 1);
	free(s->buf);
}

const struct zsb_engine zsb_eng_read = {
	"read", sizeof(struct read_st), read_open, read_op, read_close,
};
