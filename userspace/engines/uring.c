// SPDX-License-Identifier: GPL-2.0
/*
 * uring-N: io_uring reads of N bytes, 8 in flight; one op is one
 * completion.  Counts the io-wq workers of this process (tasks named
 * iou-wrk-<tid>) now and then and at the end.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zsbench.h"

#define URING_QD 8

struct uring_st {
	int dev;
	int ring_ok;
	int inflight;
	uint64_t done;
	struct io_uring ring;
	char *buf;
};

static int count_iowq(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[300], comm[32] = "";
		int fd;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/proc/self/task/%s/comm", e->d_name);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, comm, sizeof(comm) - 1) > 0 && !strncmp(comm, "iou-wrk", 7))
			n++;
		close(fd);
	}
	closedir(d);
	return n;
}

static void note_iowq(struct zsb_wctx *c)
{
	int w = count_iowq();

	if (w > c->iowq_workers)
		c->iowq_workers = w;
}

static int uring_open(struct zsb_wctx *c)
{
	struct uring_st *s = c->priv;
	int ret;

	s->dev = zsb_dev_open(c, O_RDONLY);
	if (s->dev < 0)
		return s->dev;
	s->buf = malloc(c->wl->size * URING_QD);
	if (!s->buf)
		return -ENOMEM;
	ret = io_uring_queue_init(URING_QD, &s->ring, 0);
	if (ret < 0) {
		snprintf(c->note, sizeof(c->note), "io_uring_queue_init: %s", strerror(-ret));
		return ret;
	}
	s->ring_ok = 1;
	return 0;
}

/* reap one completion: bytes, -EINTR to retry, or -errno */
static long reap(struct zsb_wctx *c)
{
	struct uring_st *s = c->priv;
	struct io_uring_cqe *cqe;
	int ret = io_uring_wait_cqe(&s->ring, &cqe);
	long res;

	if (ret < 0)
		return ret;
	res = cqe->res;
	io_uring_cqe_seen(&s->ring, cqe);
	s->inflight--;
	if ((++s->done & 1023) == 1)
		note_iowq(c);
	return res;
}

static long uring_op(struct zsb_wctx *c)
{
	struct uring_st *s = c->priv;
	size_t sz = c->wl->size;

	while (s->inflight < URING_QD) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

		if (!sqe)
			break;
		io_uring_prep_read(sqe, s->dev, s->buf + sz * (size_t)s->inflight,
				   (unsigned int)sz, 0);
		s->inflight++;
	}
	io_uring_submit(&s->ring);
	return reap(c);
}

/* the reads still in flight complete, and count */
static void uring_close(struct zsb_wctx *c)
{
	struct uring_st *s = c->priv;

	while (s->ring_ok && s->inflight && !c->err) {
		long r = reap(c);

		if (r >= 0) {
			c->ops++;
			c->bytes += (uint64_t)r;
		} else if (r != -EINTR) {
			break;
		}
	}
	if (s->ring_ok) {
		note_iowq(c);
		io_uring_queue_exit(&s->ring);
	}
	zsb_close_fds(&s->dev, 1);
	free(s->buf);
}

const struct zsb_engine zsb_eng_uring = {
	"uring", sizeof(struct uring_st), uring_open, uring_op, uring_close,
};
