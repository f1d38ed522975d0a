// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-class: a replica of the splice stressor loop of stress-ng 0.15.06
 * (written from its description): device -> pipe1 -> pipe2 -> /dev/null
 * with splice_bytes = 64 KiB / instances, random pipe sizes of 64..256 KiB,
 * the offset (ESPIPE) probes, a 0-length and an invalid-flags splice, the
 * trailing 1-byte splice into pipe1 (which stays there with
 * copy_splice_read), splice to itself, and a 4 KiB ping-pong between pipe3
 * and pipe4.  When the first splice fails with EINVAL it falls back to
 * write() for good.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zsbench.h"

#define KB 1024UL

struct pc_st {
	int fd[10];		/* device, /dev/null, pipes 1 to 4 */
	size_t sb;		/* splice_bytes of one instance */
	uint32_t seed;
	int use_splice, use_loop;
	char *buf;
};

enum { DEV, NUL, P1 = 2, P2 = 4, P3 = 6, P4 = 8 };

/* xorshift32, fixed seed per thread, so pipe sizes and flags repeat */
static uint32_t rnd(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

static unsigned int rnd_flags(uint32_t *s)
{
	unsigned int f = 0;

	if (rnd(s) & 1)
		f |= SPLICE_F_MOVE;
	if (rnd(s) & 1)
		f |= SPLICE_F_MORE;
	return f;
}

static int pc_open(struct zsb_wctx *c)
{
	struct pc_st *s = c->priv;
	char b4[4096];
	int fl;

	s->sb = 64 * KB / (size_t)(c->nthreads > 0 ? c->nthreads : 1);
	if (s->sb < KB)
		s->sb = KB;
	s->seed = 0x5eed1234u + (uint32_t)c->thread * 7919u;
	s->use_splice = 1;
	s->fd[DEV] = zsb_dev_open(c, O_RDONLY);
	if (s->fd[DEV] < 0)
		return s->fd[DEV];
	s->buf = calloc(1, s->sb);
	s->fd[NUL] = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (!s->buf || s->fd[NUL] < 0)
		return -ENOMEM;
	for (int i = P1; i <= P4; i += 2)
		if (pipe2(&s->fd[i], O_CLOEXEC))
			return -errno;
	for (int i = P1; i <= P4 + 1; i++)
		zsb_pipe_size(s->fd[i], (1 + (rnd(&s->seed) & 3)) * 64 * KB);
	/* prime pipe3 with 4 KiB, non-blocking */
	memset(b4, 0xa5, sizeof(b4));
	fl = fcntl(s->fd[P3 + 1], F_GETFL);
	fcntl(s->fd[P3 + 1], F_SETFL, fl | O_NONBLOCK);
	s->use_loop = write(s->fd[P3 + 1], b4, sizeof(b4)) == (ssize_t)sizeof(b4);
	fcntl(s->fd[P3 + 1], F_SETFL, fl);
	return 0;
}

static void loop_pipes(struct pc_st *s)
{
	if (!s->use_loop)
		return;
	if (splice(s->fd[P3], NULL, s->fd[P4 + 1], NULL, 4096, rnd_flags(&s->seed)) < 0 ||
	    splice(s->fd[P4], NULL, s->fd[P3 + 1], NULL, 4096, rnd_flags(&s->seed)) < 0)
		s->use_loop = 0;
}

static long pc_op(struct zsb_wctx *c)
{
	struct pc_st *s = c->priv;
	int dev = s->fd[DEV], null = s->fd[NUL], w1 = s->fd[P1 + 1];
	ssize_t r = -1;
	long moved;
	loff_t oi, oo;

	if (s->use_splice) {
		r = splice(dev, NULL, w1, NULL, s->sb, rnd_flags(&s->seed));
		if (r < 0 && errno != EINVAL)
			return -errno;
		if (r < 0) {
			s->use_splice = 0;
			snprintf(c->note, sizeof(c->note), "splice EINVAL: write() fallback");
		}
	}
	if (!s->use_splice) {
		size_t left = s->sb;

		while (left > 0) {
			r = write(w1, s->buf, left);
			if (r < 0)
				return -errno;
			left -= (size_t)r;
		}
	}
	r = splice(s->fd[P1], NULL, s->fd[P2 + 1], NULL, s->sb, rnd_flags(&s->seed));
	if (r < 0)
		return -errno;
	moved = r;
	r = splice(s->fd[P2], NULL, null, NULL, s->sb, rnd_flags(&s->seed));
	if (r < 0)
		return -errno;
	moved += r;

	oi = 1;
	oo = 1;
	(void)splice(s->fd[P1], &oi, w1, &oo, 4096, rnd_flags(&s->seed));
	oo = 1;
	(void)splice(dev, NULL, w1, &oo, s->sb, rnd_flags(&s->seed));
	oi = 1;
	(void)splice(s->fd[P1], &oi, null, NULL, s->sb, rnd_flags(&s->seed));
	(void)splice(dev, NULL, w1, NULL, 0, rnd_flags(&s->seed));
	(void)splice(dev, NULL, w1, NULL, 1, ~0U);
	/* the 1-byte splice of 2023: one page and one slot with copy */
	(void)splice(dev, NULL, w1, NULL, 1, 0);
	oi = 0;
	oo = 0;
	(void)splice(w1, &oi, w1, &oo, 4096, rnd_flags(&s->seed));
	loop_pipes(s);
	loop_pipes(s);
	return moved;
}

static void pc_close(struct zsb_wctx *c)
{
	struct pc_st *s = c->priv;

	zsb_close_fds(s->fd, 10);
	free(s->buf);
}

const struct zsb_engine zsb_eng_pipe_class = {
	"pipe-class", sizeof(struct pc_st), pc_open, pc_op, pc_close,
};
