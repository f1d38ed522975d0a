// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads: one small function each.  A function sets up its own fds,
 * calls zsb_begin() once, then loops until *c->stop, counting in c.
 * A call failing with EINVAL on the splice path marks the combination
 * unsupported (c->err).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "zsbench.h"

void zsb_begin(struct zsb_wctx *c);	/* runner.c */

#define KB 1024UL
#define MB (1024UL * 1024UL)

static void set_pipe_size(int fd, size_t want)
{
	if (want < 4096)
		return;
	(void)fcntl(fd, F_SETPIPE_SZ, (int)want);
}

/* open the device; on failure note it in c and return -1 */
static int dev_open(struct zsb_wctx *c, int flags)
{
	int fd = zsb_impl_open(c->impl, flags);

	if (fd < 0) {
		c->err = -fd;
		snprintf(c->note, sizeof(c->note), "open %s: %s",
			 zsb_impl_path(c->impl), strerror(-fd));
		return -1;
	}
	return fd;
}

/* empty a pipe into /dev/null, n bytes */
static int drain(int rfd, int nullfd, size_t n)
{
	while (n > 0) {
		ssize_t m = splice(rfd, NULL, nullfd, NULL, n, 0);

		if (m <= 0)
			return -1;
		n -= (size_t)m;
	}
	return 0;
}

/* device -> pipe -> /dev/null, size bytes per splice */
static int wl_splice(struct zsb_wctx *c)
{
	int p[2], dev, null;
	size_t sz = c->wl->size;

	dev = dev_open(c, O_RDONLY);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (dev < 0 || null < 0 || pipe2(p, O_CLOEXEC) < 0)
		return -1;
	set_pipe_size(p[1], sz);
	zsb_begin(c);
	while (!*c->stop) {
		ssize_t n = splice(dev, NULL, p[1], NULL, sz, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			c->err = errno;
			break;
		}
		if (drain(p[0], null, (size_t)n) < 0)
			break;
		c->ops++;
		c->bytes += (uint64_t)n;
	}
	close(p[0]);
	close(p[1]);
	close(dev);
	close(null);
	return 0;
}

/*
 * The floor: the cheapest splice pair there is.  One byte from the device
 * into a pipe whose tail buffer is one of ours with room (it coalesces: no
 * new slot, no page reference), one byte from the pipe to /dev/null (the
 * front is that same buffer: it shrinks, nothing is released).  Run with
 * the folio implementation, whose 2 MiB tail takes 2 M loops to fill.
 * Every fast-path rate is reported as a fraction of this.
 */
static int wl_floor(struct zsb_wctx *c)
{
	int p[2], dev, null;

	dev = dev_open(c, O_RDONLY);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (dev < 0 || null < 0 || pipe2(p, O_CLOEXEC) < 0)
		return -1;
	/* two bytes, so that taking one leaves the buffer in place */
	if (splice(dev, NULL, p[1], NULL, 2, 0) != 2) {
		c->err = errno ? errno : EIO;
		goto out;
	}
	zsb_begin(c);
	while (!*c->stop) {
		ssize_t n = splice(dev, NULL, p[1], NULL, 1, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			c->err = errno;
			break;
		}
		if (drain(p[0], null, 1) < 0)
			break;
		c->ops++;
		c->bytes++;
	}
out:
	close(p[0]);
	close(p[1]);
	close(dev);
	close(null);
	return 0;
}

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

static void loop_pipes(int a[2], int b[2], int *on, uint32_t *s)
{
	if (!*on)
		return;
	if (splice(a[0], NULL, b[1], NULL, 4096, rnd_flags(s)) < 0 ||
	    splice(b[0], NULL, a[1], NULL, 4096, rnd_flags(s)) < 0)
		*on = 0;
}

/*
 * Replica of the splice stressor loop of stress-ng 0.15.06 (written from
 * its description): device -> pipe1 -> pipe2 -> /dev/null with splice_bytes
 * = 64 KiB / instances, random pipe sizes of 64..256 KiB, the offset (ESPIPE)
 * probes, a 0-length and an invalid-flags splice, the trailing 1-byte
 * splice into pipe1 (which stays there with copy_splice_read), splice to
 * itself, and a 4 KiB ping-pong between pipe3 and pipe4.  When the first
 * splice fails with EINVAL it falls back to write() for good.
 */
static int wl_pipe_class(struct zsb_wctx *c)
{
	int dev, null, p1[2], p2[2], p3[2], p4[2], use_splice = 1, use_loop;
	size_t sb = 64 * KB / (size_t)(c->nthreads > 0 ? c->nthreads : 1);
	uint32_t seed = 0x5eed1234u + (uint32_t)c->thread * 7919u;
	char *buf;
	int *pp[4] = { p1, p2, p3, p4 };

	if (sb < KB)
		sb = KB;
	buf = calloc(1, sb);
	dev = dev_open(c, O_RDONLY);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (!buf || dev < 0 || null < 0 || pipe2(p1, O_CLOEXEC) ||
	    pipe2(p2, O_CLOEXEC) || pipe2(p3, O_CLOEXEC) || pipe2(p4, O_CLOEXEC))
		return -1;
	for (int i = 0; i < 4; i++)
		for (int e = 0; e < 2; e++)
			set_pipe_size(pp[i][e], (1 + (rnd(&seed) & 3)) * 64 * KB);
	/* prime pipe3 with 4 KiB, non-blocking */
	{
		char b4[4096];
		int fl = fcntl(p3[1], F_GETFL);

		memset(b4, 0xa5, sizeof(b4));
		fcntl(p3[1], F_SETFL, fl | O_NONBLOCK);
		use_loop = write(p3[1], b4, sizeof(b4)) == (ssize_t)sizeof(b4);
		fcntl(p3[1], F_SETFL, fl);
	}
	zsb_begin(c);
	while (!*c->stop) {
		ssize_t r;
		loff_t oi, oo;

		if (use_splice) {
			r = splice(dev, NULL, p1[1], NULL, sb, rnd_flags(&seed));
			if (r < 0) {
				if (errno == EINVAL) {
					use_splice = 0;
					snprintf(c->note, sizeof(c->note),
						 "splice EINVAL: write() fallback");
					continue;
				}
				break;
			}
		} else {
			size_t left = sb;

			r = 0;
			while (left > 0 && r >= 0) {
				r = write(p1[1], buf, left);
				if (r > 0)
					left -= (size_t)r;
			}
			if (r < 0)
				break;
		}
		r = splice(p1[0], NULL, p2[1], NULL, sb, rnd_flags(&seed));
		if (r < 0)
			break;
		c->bytes += (uint64_t)r;
		r = splice(p2[0], NULL, null, NULL, sb, rnd_flags(&seed));
		if (r < 0)
			break;
		c->bytes += (uint64_t)r;

		oi = 1;
		oo = 1;
		(void)splice(p1[0], &oi, p1[1], &oo, 4096, rnd_flags(&seed));
		oo = 1;
		(void)splice(dev, NULL, p1[1], &oo, sb, rnd_flags(&seed));
		oi = 1;
		(void)splice(p1[0], &oi, null, NULL, sb, rnd_flags(&seed));
		(void)splice(dev, NULL, p1[1], NULL, 0, rnd_flags(&seed));
		(void)splice(dev, NULL, p1[1], NULL, 1, ~0U);
		/* the 1-byte splice of 2023: one page and one slot with copy */
		(void)splice(dev, NULL, p1[1], NULL, 1, 0);
		oi = 0;
		oo = 0;
		(void)splice(p1[1], &oi, p1[1], &oo, 4096, rnd_flags(&seed));
		loop_pipes(p3, p4, &use_loop, &seed);
		loop_pipes(p3, p4, &use_loop, &seed);
		c->ops++;
	}
	for (int i = 0; i < 4; i++) {
		close(pp[i][0]);
		close(pp[i][1]);
	}
	free(buf);
	close(dev);
	close(null);
	return 0;
}

/* 1-byte splices into a fresh non-blocking pipe until EAGAIN */
static int wl_fill(struct zsb_wctx *c)
{
	int dev = dev_open(c, O_RDONLY), first = 1;

	if (dev < 0)
		return -1;
	zsb_begin(c);
	while (first || !*c->stop) {
		int p[2];
		uint64_t n = 0;

		if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
			break;
		set_pipe_size(p[1], c->fill_pipe);
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
			r = splice(dev, NULL, p[1], NULL, 1, SPLICE_F_NONBLOCK);
			if (r == 1) {
				n++;
				continue;
			}
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && errno != EAGAIN)
				c->err = errno;
			break;
		}
		close(p[0]);
		close(p[1]);
		if (c->err)
			break;
		if (c->fill_count && c->fill_count != n && n != c->fill_max)
			snprintf(c->note, sizeof(c->note),
				 "fill count varies: %llu then %llu",
				 (unsigned long long)c->fill_count,
				 (unsigned long long)n);
		c->fill_count = n;
		c->ops++;
		c->bytes += n;
		first = 0;
	}
	close(dev);
	return 0;
}

enum sf_target { SF_NULL, SF_TMPFS, SF_TCP };

static void *tcp_reader(void *arg)
{
	int fd = *(int *)arg;
	static __thread char buf[256 * 1024];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

static int tcp_pair(int *snd, int *rcv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &al))
		return -1;
	*snd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*snd < 0 || connect(*snd, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	*rcv = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	close(l);
	return *rcv < 0 ? -1 : 0;
}

static int sendfile_to(struct zsb_wctx *c, enum sf_target t)
{
	int dev = dev_open(c, O_RDONLY), out = -1, rcv = -1;
	size_t sz = c->wl->size;
	uint64_t off = 0;
	pthread_t th;

	if (dev < 0)
		return -1;
	if (t == SF_NULL) {
		out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	} else if (t == SF_TMPFS) {
		char tmpl[] = "/dev/shm/zsbench.XXXXXX";

		out = mkostemp(tmpl, O_CLOEXEC);
		if (out >= 0)
			unlink(tmpl);
	} else if (tcp_pair(&out, &rcv) == 0) {
		if (pthread_create(&th, NULL, tcp_reader, &rcv)) {
			close(rcv);
			rcv = -1;
		}
	}
	if (out < 0 || (t == SF_TCP && rcv < 0)) {
		snprintf(c->note, sizeof(c->note), "sendfile target setup failed");
		c->err = EIO;
		close(dev);
		return -1;
	}
	zsb_begin(c);
	while (!*c->stop) {
		ssize_t n = sendfile(out, dev, NULL, sz);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			c->err = errno;
			break;
		}
		c->ops++;
		c->bytes += (uint64_t)n;
		if (t == SF_TMPFS && (off += (uint64_t)n) >= 64 * MB) {
			(void)ftruncate(out, 0);
			(void)lseek(out, 0, SEEK_SET);
			off = 0;
		}
	}
	if (t == SF_TCP) {
		shutdown(out, SHUT_RDWR);
		pthread_join(th, NULL);
		close(rcv);
	}
	close(out);
	close(dev);
	return 0;
}

static int wl_sendfile_null(struct zsb_wctx *c)
{
	return sendfile_to(c, SF_NULL);
}

static int wl_sendfile_tmpfs(struct zsb_wctx *c)
{
	return sendfile_to(c, SF_TMPFS);
}

static int wl_sendfile_tcp(struct zsb_wctx *c)
{
	return sendfile_to(c, SF_TCP);
}

static int wl_read(struct zsb_wctx *c)
{
	int dev = dev_open(c, O_RDONLY);
	size_t sz = c->wl->size;
	char *buf = malloc(sz);

	if (dev < 0 || !buf)
		return -1;
	memset(buf, 1, sz);
	zsb_begin(c);
	while (!*c->stop) {
		ssize_t n = read(dev, buf, sz);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			c->err = errno;
			break;
		}
		c->ops++;
		c->bytes += (uint64_t)n;
	}
	free(buf);
	close(dev);
	return 0;
}

/* io-wq workers of this process show up as tasks named iou-wrk-<tid> */
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
		if (read(fd, comm, sizeof(comm) - 1) > 0 &&
		    !strncmp(comm, "iou-wrk", 7))
			n++;
		close(fd);
	}
	closedir(d);
	return n;
}

#define URING_QD 8

static int wl_uring(struct zsb_wctx *c)
{
	struct io_uring ring;
	int dev = dev_open(c, O_RDONLY), ret, inflight = 0;
	size_t sz = c->wl->size;
	char *buf = malloc(sz * URING_QD);
	uint64_t done = 0;

	if (dev < 0 || !buf)
		return -1;
	ret = io_uring_queue_init(URING_QD, &ring, 0);
	if (ret < 0) {
		c->err = -ret;
		snprintf(c->note, sizeof(c->note), "io_uring_queue_init: %s",
			 strerror(-ret));
		free(buf);
		close(dev);
		return -1;
	}
	zsb_begin(c);
	while (!*c->stop || inflight) {
		struct io_uring_cqe *cqe;

		while (!*c->stop && inflight < URING_QD) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				break;
			io_uring_prep_read(sqe, dev, buf + sz * (size_t)inflight,
					   (unsigned int)sz, 0);
			inflight++;
		}
		io_uring_submit(&ring);
		ret = io_uring_wait_cqe(&ring, &cqe);
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			break;
		if (cqe->res < 0 && !c->err && cqe->res != -EINTR)
			c->err = -cqe->res;
		else if (cqe->res >= 0) {
			c->ops++;
			c->bytes += (uint64_t)cqe->res;
		}
		io_uring_cqe_seen(&ring, cqe);
		inflight--;
		if ((++done & 1023) == 1) {
			int w = count_iowq();

			if (w > c->iowq_workers)
				c->iowq_workers = w;
		}
		if (c->err)
			break;
	}
	{
		int w = count_iowq();

		if (w > c->iowq_workers)
			c->iowq_workers = w;
	}
	io_uring_queue_exit(&ring);
	free(buf);
	close(dev);
	return 0;
}

/* pipe -> device: discard on zsplice, ENOSPC on fullsplice */
static int wl_splice_write(struct zsb_wctx *c)
{
	int dev = dev_open(c, O_WRONLY), p[2];
	size_t sz = c->wl->size, pending = 0;
	char *buf = calloc(1, sz);

	if (dev < 0 || !buf || pipe2(p, O_CLOEXEC) < 0)
		return -1;
	set_pipe_size(p[1], sz);
	zsb_begin(c);
	while (!*c->stop) {
		ssize_t n;

		if (!pending) {
			n = write(p[1], buf, sz);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			pending = (size_t)n;
		}
		n = splice(p[0], NULL, dev, NULL, pending, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOSPC) {
				c->enospc++;
				c->ops++;
				continue;
			}
			c->err = errno;
			break;
		}
		pending -= (size_t)n;
		c->ops++;
		c->bytes += (uint64_t)n;
	}
	close(p[0]);
	close(p[1]);
	free(buf);
	close(dev);
	return 0;
}

const struct zsb_workload zsb_workloads[] = {
	{ "splice", "splice-1", 1, wl_splice, 0, 1,
	  "splice 1 byte device -> pipe, pipe -> /dev/null" },
	{ "splice", "splice-4K", 4 * KB, wl_splice, 0, 1,
	  "splice 4 KiB device -> pipe, pipe -> /dev/null" },
	{ "splice", "splice-64K", 64 * KB, wl_splice, WL_FULL_OK, 1,
	  "splice 64 KiB device -> pipe, pipe -> /dev/null" },
	{ "splice", "splice-1M", MB, wl_splice, 0, 1,
	  "splice 1 MiB device -> 1 MiB pipe, pipe -> /dev/null" },
	{ "pipe-class", "pipe-class", 64 * KB, wl_pipe_class, 0, 1,
	  "stress-ng 0.15.06's splice stressor loop, 1-byte splice included" },
	{ "fill", "fill", 1, wl_fill, WL_FILL | WL_SINGLE | WL_FULL_OK, 1,
	  "1-byte splices into an empty pipe until EAGAIN: the count" },
	{ "sendfile", "sendfile-null-64K", 64 * KB, wl_sendfile_null, 0, 1,
	  "sendfile 64 KiB device -> /dev/null" },
	{ "sendfile", "sendfile-tmpfs-64K", 64 * KB, wl_sendfile_tmpfs, 0, 1,
	  "sendfile 64 KiB device -> a tmpfs file" },
	{ "sendfile", "sendfile-tcp-64K", 64 * KB, wl_sendfile_tcp, 0, 1,
	  "sendfile 64 KiB device -> a loopback TCP socket" },
	{ "read", "read-4K", 4 * KB, wl_read, WL_FULL_OK, 1,
	  "read() 4 KiB from the device" },
	{ "read", "read-1M", MB, wl_read, 0, 1,
	  "read() 1 MiB from the device" },
	{ "uring", "uring-4K", 4 * KB, wl_uring, WL_FULL_OK, 1,
	  "io_uring reads of 4 KiB, counting io-wq workers" },
	{ "uring", "uring-2M", 2 * MB, wl_uring, 0, 0,
	  "io_uring reads of 2 MiB, counting io-wq workers" },
	{ "splice-write", "splice-write-64K", 64 * KB, wl_splice_write, WL_FULL_OK, 1,
	  "splice 64 KiB pipe -> device (discard; EINVAL on fullsplice)" },
	{ "floor", "floor", 1, wl_floor, WL_FLOOR, 0,
	  "1-byte splice pair coalescing into our tail: no slot, no page ref" },
};
const size_t zsb_nworkloads = sizeof(zsb_workloads) / sizeof(zsb_workloads[0]);
