// SPDX-License-Identifier: GPL-2.0
/*
 * fill: 1-byte splices into a fresh non-blocking pipe until EAGAIN; one
 * op is one fill, its figure the count (copy 16 in a 64 KiB pipe).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "zsbench.h"

struct fill_st {
	int dev;
};

static int fill_open(struct zsb_wctx *c)
{
	struct fill_st *s = c->priv;

	s->dev = zsb_dev_open(c, O_RDONLY);
	return s->dev < 0 ? s->dev : 0;
}

static long fill_op(struct zsb_wctx *c)
{
	struct fill_st *s = c->priv;
	uint64_t n = 0;
	int p[2], err = 0;

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	zsb_pipe_size(p[1], c->fill_pipe);
	for (;;) {
		ssize_t r;

		/* 2 MiB folios: 31 M splices for 16 slots, minutes under TCG */
		if (n == c->fill_max) {
			c->fill_capped = 1;
			snprintf(c->note, sizeof(c->note),
				 "fill stopped at --fill-max %llu: the pipe holds more",
				 (unsigned long long)n);
			break;
		}
		r = splice(s->dev, NULL, p[1], NULL, 1, SPLICE_F_NONBLOCK);
		if (r == 1) {
			n++;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN)
			err = errno;
		break;
	}
	close(p[0]);
	close(p[1]);
	if (err)
		return -err;
	if (c->fill_count && c->fill_count != n && n != c->fill_max)
		snprintf(c->note, sizeof(c->note), "fill count varies: %llu then %llu",
			 (unsigned long long)c->fill_count, (unsigned long long)n);
	c->fill_count = n;
	return (long)n;
}

static void fill_close(struct zsb_wctx *c)
{
	struct fill_st *s = c->priv;

	zsb_close_fds(&s->dev, 1);
}

const struct zsb_engine zsb_eng_fill = {
	"fill", sizeof(struct fill_st), fill_open, fill_op, fill_close,
};
