// SPDX-License-Identifier: GPL-2.0
/*
 * soak_fuzz: a deterministic fuzzer of the two devices, beside trinity.
 *
 * trinity chooses its file descriptors at random, and under TCG in a short
 * run it sometimes never picks one of ours.  This one only has ours: every
 * operation takes a device or one of a few pipes, and the arguments come
 * from a seeded xorshift stream over interesting values (0, 1, page and
 * slot boundaries, huge, negative, invalid flags), so a seed names one
 * sequence of calls and reproduces it.  Nothing but zeros ever enters a
 * pipe (device splices, zero writes, zero vmsplices), so everything read
 * back from a pipe, a device or a mapping must be zero.
 *
 * Usage: soak_fuzz [-s SEED] [-n OPS] [-t SECONDS] [ZERO_DEV [FULL_DEV]]
 * Runs OPS operations or until SECONDS passed, whichever comes first
 * (default 200000 ops, 30 s), unprivileged or not.  KTAP results:
 *   1  operations ran (and at least a tenth reached a device successfully)
 *   2  every byte read back was zero
 *   3  every failure had an errno from the defined set
 * and "# SOAK-FUZZ ops=N device_calls=M", M the read/write/splice calls
 * that moved bytes to or from a device, each of which the driver's
 * statistics count.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "soak.h"

#define NR_PIPES	4
#define NR_DEVFDS	8
#define BUF_MAX		(2 << 20)

struct fuzz {
	uint64_t rnd;
	int dev[NR_DEVFDS];		/* even: zero device, odd: full device */
	int pipe[NR_PIPES][2];
	int null;
	char *buf;			/* BUF_MAX bytes */
	struct iovec iov[IOV_MAX + 1];
	long ops, device_calls, nonzero, bad_errno;
	char first_bad[160];
};

static const char *devpath[2] = { SK_ZERO_DEV, SK_FULL_DEV };

static uint64_t rnd(struct fuzz *f, uint64_t n)
{
	return n ? sk_rand(&f->rnd) % n : 0;
}

/* A length: boundaries mostly, sometimes anything up to BUF_MAX. */
static size_t fz_len(struct fuzz *f)
{
	static const size_t v[] = { 0, 1, 2, 7, 4095, 4096, 4097, 65535, 65536,
				    65537, 1 << 20, BUF_MAX };

	if (rnd(f, 4) == 0)
		return rnd(f, BUF_MAX + 1);
	return v[rnd(f, ZS_ARRAY_SIZE(v))];
}

/* A length for calls that do not touch our buffer (splice, sendfile). */
static size_t fz_big_len(struct fuzz *f)
{
	switch (rnd(f, 8)) {
	case 0: return SIZE_MAX;
	case 1: return (size_t)INT_MAX + 1;
	case 2: return 16 << 20;
	default: return fz_len(f);
	}
}

static loff_t fz_off(struct fuzz *f)
{
	static const loff_t v[] = { 0, 1, 4096, -1, LLONG_MAX, LLONG_MIN, 1LL << 40 };

	return v[rnd(f, ZS_ARRAY_SIZE(v))];
}

static unsigned int fz_splice_flags(struct fuzz *f)
{
	unsigned int fl = SPLICE_F_NONBLOCK;

	if (rnd(f, 2))
		fl |= SPLICE_F_MORE;
	if (rnd(f, 4) == 0)
		fl |= SPLICE_F_MOVE | SPLICE_F_GIFT;
	if (rnd(f, 16) == 0)
		fl |= 1u << (4 + rnd(f, 28));	/* an undefined bit */
	return fl;
}

static int fz_devfd(struct fuzz *f, bool *full)
{
	int i = rnd(f, NR_DEVFDS);

	*full = i & 1;
	return f->dev[i];
}

/* The failure errnos the devices, pipes and splice core may give. */
static bool errno_defined(int e)
{
	switch (e) {
	case EINVAL: case EAGAIN: case EFAULT: case EBADF: case ENOSPC:
	case ENOMEM: case EINTR: case ESPIPE: case ENOTTY: case EOPNOTSUPP:
	case EXDEV: case EACCES: case EPERM: case EPIPE: case EOVERFLOW:
	case EFBIG: case EBUSY: case ENODEV: case EISDIR:
		return true;
	default:
		return false;
	}
}

/* Account one call: @ret < 0 with errno; @dev when it went to a device. */
static void fz_done(struct fuzz *f, const char *what, long ret, bool dev)
{
	int e = errno;

	f->ops++;
	if (ret >= 0) {
		/* bytes moved: the call certainly reached the driver */
		if (dev && ret > 0)
			f->device_calls++;
		return;
	}
	if (errno_defined(e))
		return;
	if (!f->bad_errno++)
		snprintf(f->first_bad, sizeof(f->first_bad), "%s (op %ld): errno %d (%s)",
			 what, f->ops, e, strerror(e));
}

static void fz_check_zero(struct fuzz *f, const char *what, const void *p, long n)
{
	if (n > 0 && !sk_is_zero(p, n)) {
		if (!f->nonzero++)
			sk_diag("non-zero bytes from %s (op %ld)", what, f->ops);
	}
}

static int fz_pipe_fd(struct fuzz *f, int end)
{
	return f->pipe[rnd(f, NR_PIPES)][end];
}

static void op_read(struct fuzz *f)
{
	bool full;
	int fd = fz_devfd(f, &full);
	size_t len = fz_len(f);
	ssize_t n;

	switch (rnd(f, 3)) {
	case 0:
		n = read(fd, f->buf, len);
		fz_done(f, "read", n, true);
		break;
	case 1:
		n = pread(fd, f->buf, len, fz_off(f));
		fz_done(f, "pread", n, true);
		break;
	default: {
		int cnt = rnd(f, 6) == 0 ? IOV_MAX + 1 : 1 + rnd(f, 16), i;
		size_t each = len / (cnt > 16 ? IOV_MAX : cnt) + 1;

		for (i = 0; i < cnt; i++) {
			f->iov[i].iov_base = f->buf;
			f->iov[i].iov_len = i < 16 ? each : 0;
		}
		n = readv(fd, f->iov, cnt);
		fz_done(f, "readv", n, true);
		break;
	}
	}
	fz_check_zero(f, full ? "a read of the full device" : "a read of the zero device",
		      f->buf, n > BUF_MAX ? BUF_MAX : n);
}

static void op_write(struct fuzz *f)
{
	bool full;
	int fd = fz_devfd(f, &full);
	ssize_t n;

	memset(f->buf, 0, 4096);
	if (rnd(f, 2))
		n = write(fd, f->buf, rnd(f, 4097));
	else
		n = pwrite(fd, f->buf, rnd(f, 4097), fz_off(f));
	fz_done(f, "write", n, true);
}

static void op_splice_in(struct fuzz *f)
{
	bool full;
	int fd = fz_devfd(f, &full);
	loff_t off = fz_off(f);
	ssize_t n;

	n = splice(fd, rnd(f, 4) ? NULL : &off, fz_pipe_fd(f, 1), NULL, fz_big_len(f),
		   fz_splice_flags(f));
	fz_done(f, "splice from a device", n, true);
}

static void op_splice_out(struct fuzz *f)
{
	bool full;
	int fd = fz_devfd(f, &full);
	ssize_t n;

	n = splice(fz_pipe_fd(f, 0), NULL, fd, NULL, fz_big_len(f), fz_splice_flags(f));
	fz_done(f, "splice into a device", n, true);
}

static void op_pipe(struct fuzz *f)
{
	int p = rnd(f, NR_PIPES), q = rnd(f, NR_PIPES);
	ssize_t n;

	switch (rnd(f, 6)) {
	case 0:
		n = tee(f->pipe[p][0], f->pipe[q][1], fz_big_len(f), fz_splice_flags(f));
		fz_done(f, "tee", n, false);
		break;
	case 1:
		n = splice(f->pipe[p][0], NULL, f->pipe[q][1], NULL, fz_big_len(f),
			   fz_splice_flags(f));
		fz_done(f, "splice pipe to pipe", n, false);
		break;
	case 2: {
		struct iovec v = { .iov_base = f->buf, .iov_len = rnd(f, 65537) };

		memset(f->buf, 0, v.iov_len);
		n = vmsplice(f->pipe[p][1], &v, 1, fz_splice_flags(f) & ~SPLICE_F_GIFT);
		fz_done(f, "vmsplice", n, false);
		break;
	}
	case 3: {
		static const int sizes[] = { 4096, 8192, 65536, 1 << 20, 3 };

		n = fcntl(f->pipe[p][0], F_SETPIPE_SZ, sizes[rnd(f, ZS_ARRAY_SIZE(sizes))]);
		fz_done(f, "F_SETPIPE_SZ", n, false);
		break;
	}
	default:
		n = read(f->pipe[p][0], f->buf, fz_len(f));
		fz_done(f, "read of a pipe", n, false);
		fz_check_zero(f, "a pipe", f->buf, n);
		break;
	}
}

static void op_sendfile(struct fuzz *f)
{
	bool full;
	int fd = fz_devfd(f, &full);
	loff_t off = fz_off(f);
	ssize_t n;

	n = sendfile(rnd(f, 2) ? f->null : fz_pipe_fd(f, 1), fd, rnd(f, 2) ? NULL : &off,
		     rnd(f, 2) ? fz_len(f) : fz_big_len(f) & ((16 << 20) - 1));
	fz_done(f, "sendfile", n, true);
}

static void op_misc(struct fuzz *f)
{
	bool full;
	int fd = fz_devfd(f, &full);
	uint32_t impl;
	long n;

	switch (rnd(f, 5)) {
	case 0:
		impl = rnd(f, 8) ? rnd(f, ZSPLICE_IMPL_COUNT) : (uint32_t)sk_rand(&f->rnd);
		n = ioctl(fd, ZSPLICE_SET_IMPL, &impl);
		fz_done(f, "ZSPLICE_SET_IMPL", n, false);
		break;
	case 1:
		n = ioctl(fd, rnd(f, 2) ? ZSPLICE_CLEAR_IMPL : ZSPLICE_GET_IMPL, &impl);
		fz_done(f, "ZSPLICE_GET/CLEAR_IMPL", n, false);
		break;
	case 2:
		n = ioctl(fd, (unsigned long)sk_rand(&f->rnd) & 0xffffffff, f->buf);
		fz_done(f, "ioctl", n, false);
		break;
	case 3:
		n = lseek(fd, fz_off(f), rnd(f, 6));
		fz_done(f, "lseek", n, false);
		break;
	default: {
		size_t len = 4096 << rnd(f, 10);
		int flags = rnd(f, 2) ? MAP_SHARED : MAP_PRIVATE;
		int prot = rnd(f, 2) ? PROT_READ : PROT_READ | PROT_WRITE;
		char *m = mmap(NULL, len, prot, flags, fd, 0);

		fz_done(f, "mmap", m == MAP_FAILED ? -1 : 0, false);
		if (m == MAP_FAILED)
			break;
		fz_check_zero(f, "a mapping", m, len);
		if (prot & PROT_WRITE)
			m[rnd(f, len)] = 0;
		munmap(m, len);
		break;
	}
	}
}

static void (*const ops[])(struct fuzz *) = {
	op_read, op_read, op_write, op_splice_in, op_splice_in, op_splice_in,
	op_splice_out, op_pipe, op_pipe, op_sendfile, op_misc,
};

static int fz_open(struct fuzz *f, const char *zero, const char *full)
{
	static const int modes[] = { O_RDONLY, O_RDWR, O_WRONLY | O_NONBLOCK, O_RDWR | O_NONBLOCK };
	int i;

	for (i = 0; i < NR_DEVFDS; i++) {
		f->dev[i] = open(i & 1 ? full : zero, modes[(i / 2) % 4] | O_CLOEXEC);
		if (f->dev[i] < 0) {
			sk_diag("open %s: %s", i & 1 ? full : zero, strerror(errno));
			return -1;
		}
	}
	for (i = 0; i < NR_PIPES; i++) {
		if (pipe2(f->pipe[i], O_NONBLOCK | O_CLOEXEC))
			return -1;
	}
	f->null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	/* readv's vectors may add up to a few bytes more than BUF_MAX */
	f->buf = malloc(BUF_MAX + 4096);
	return f->null >= 0 && f->buf ? 0 : -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static struct fuzz f;
	unsigned long long seed = 1;
	long max_ops = 200000;
	double secs = 30, t0;
	int c;

	while ((c = getopt(argc, argv, "s:n:t:")) != -1) {
		switch (c) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': max_ops = atol(optarg); break;
		case 't': secs = atof(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n OPS] [-t SECONDS] [ZERO_DEV [FULL_DEV]]\n",
				argv[0]);
			return 2;
		}
	}
	if (optind < argc)
		devpath[0] = argv[optind++];
	if (optind < argc)
		devpath[1] = argv[optind++];
	sk_plan(3);
	signal(SIGPIPE, SIG_IGN);
	f.rnd = seed ? seed : 1;
	if (fz_open(&f, devpath[0], devpath[1])) {
		sk_result(false, "open the devices and pipes");
		sk_skip("no data read");
		sk_skip("no errno seen");
		return sk_exit();
	}
	sk_diag("seed %llu, up to %ld ops or %.0f s, as uid %d, on %s and %s", seed, max_ops,
		secs, (int)getuid(), devpath[0], devpath[1]);
	t0 = now();
	while (f.ops < max_ops && ((f.ops & 255) || now() - t0 < secs))
		ops[rnd(&f, ZS_ARRAY_SIZE(ops))](&f);
	printf("# SOAK-FUZZ ops=%ld device_calls=%ld seconds=%.1f\n", f.ops, f.device_calls,
	       now() - t0);
	sk_result(f.ops > 0 && f.device_calls * 10 >= f.ops,
		  "%ld operations, %ld successful device calls", f.ops, f.device_calls);
	sk_result(!f.nonzero, "every byte read back was zero (%ld non-zero reads)", f.nonzero);
	if (f.bad_errno)
		sk_diag("first undefined errno: %s", f.first_bad);
	sk_result(!f.bad_errno, "every failure had a defined errno (%ld did not)", f.bad_errno);
	return sk_exit();
}
