// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: splice and sendfile semantics of /dev/zsplice and
 * /dev/fullsplice under every implementation (selected per open file with
 * ZSPLICE_SET_IMPL): data, lengths, splice_write, the errnos (EINVAL under
 * none, EINVAL for bad flags, ESPIPE for pipe-side offsets, EAGAIN on a
 * full non-blocking pipe, ENOSPC on fullsplice), device-side offsets as on
 * the kernel's own /dev/zero, and a huge sendfile interrupted by a signal.
 */
#include <signal.h>
#include <sys/sendfile.h>
#include <sys/time.h>
#include <sys/uio.h>

#include "zsplice_util.h"
#include "kselftest_harness.h"

FIXTURE(sp) {
	int fd;
	int p[2];
	bool full;
	int impl;
};

FIXTURE_VARIANT(sp) {
	bool full;
	int impl;
};

#define SP_VARIANT(dev, isfull, im)	ZS_DEV_VARIANT(sp, dev, isfull, im)

SP_VARIANT(zsplice, false, NONE);
SP_VARIANT(zsplice, false, COPY);
SP_VARIANT(zsplice, false, ZEROPAGE);
SP_VARIANT(zsplice, false, FOLIO);
SP_VARIANT(fullsplice, true, NONE);
SP_VARIANT(fullsplice, true, COPY);
SP_VARIANT(fullsplice, true, ZEROPAGE);
SP_VARIANT(fullsplice, true, FOLIO);

FIXTURE_SETUP(sp)
{
	self->full = variant->full;
	self->impl = variant->impl;
	self->p[0] = self->p[1] = -1;
	self->fd = zs_open_impl(variant->full, O_RDWR, variant->impl);
	if (self->fd < 0 && errno == EOPNOTSUPP)
		SKIP(return, "%s: no per-file implementation %s", zs_dev_path(variant->full),
		     zs_impl_names[variant->impl]);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", zs_dev_path(variant->full),
				      strerror(errno));
	ASSERT_EQ(0, zs_pipe(self->p, 1 << 20, O_NONBLOCK));
}

FIXTURE_TEARDOWN(sp)
{
	close(self->fd);
	close(self->p[0]);
	close(self->p[1]);
}

TEST_F(sp, splice_read_lengths)
{
	static const size_t lens[] = { 1, 2, 100, 4095, 4096, 4097, 8191, 65535,
				       65536, 65537, 200000 };
	unsigned int i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		ssize_t n;

		errno = 0;
		n = splice(self->fd, NULL, self->p[1], NULL, lens[i], 0);
		if (self->impl == ZSPLICE_IMPL_NONE) {
			EXPECT_EQ(-1, n);
			EXPECT_EQ(EINVAL, errno);
			continue;
		}
		ASSERT_EQ((ssize_t)lens[i], n) TH_LOG("len %zu: %s", lens[i], strerror(errno));
		EXPECT_EQ((int)lens[i], zs_pipe_bytes(self->p[0]));
		EXPECT_EQ(0, zs_read_zeros(self->p[0], lens[i])) TH_LOG("len %zu", lens[i]);
		EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	}
}

/* several splices accumulate; drained in odd-sized reads, all zeros */
TEST_F(sp, splice_read_accumulate)
{
	size_t total = 0;
	int i;

	if (self->impl == ZSPLICE_IMPL_NONE)
		SKIP(return, "none: covered by splice_read_lengths");
	for (i = 1; i <= 40; i++) {
		ASSERT_EQ(i * 97, splice(self->fd, NULL, self->p[1], NULL, i * 97, 0));
		total += i * 97;
	}
	EXPECT_EQ((int)total, zs_pipe_bytes(self->p[0]));
	while (total) {
		char buf[333];
		size_t want = total < sizeof(buf) ? total : sizeof(buf);

		memset(buf, 0xee, sizeof(buf));
		ASSERT_EQ((ssize_t)want, read(self->p[0], buf, want));
		ASSERT_EQ(-1, zs_nonzero(buf, want));
		total -= want;
	}
}

/* more than fits: partial count, everything returned is zeros */
TEST_F(sp, splice_read_more_than_fits)
{
	int q[2];
	ssize_t n;

	ASSERT_EQ(0, zs_pipe(q, 65536, O_NONBLOCK));
	errno = 0;
	n = splice(self->fd, NULL, q[1], NULL, 4 << 20, 0);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno);
	} else {
		ASSERT_LT(0, n);
		EXPECT_GE((ssize_t)16 * zs_folio_size(), n);
		if (self->impl != ZSPLICE_IMPL_FOLIO)
			EXPECT_EQ(65536, n);
		EXPECT_EQ(n, zs_pipe_bytes(q[0]));
		EXPECT_EQ(0, zs_read_zeros(q[0], n));
	}
	close(q[0]);
	close(q[1]);
}

TEST_F(sp, splice_len_zero)
{
	EXPECT_EQ(0, splice(self->fd, NULL, self->p[1], NULL, 0, 0));
	EXPECT_EQ(0, splice(self->p[0], NULL, self->fd, NULL, 0, 0));
	EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
}

TEST_F(sp, splice_bad_flags_einval)
{
	static const unsigned int bad[] = { 0x10, 0x20, 0x100, 0x80000000u, ~0u };
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, splice(self->fd, NULL, self->p[1], NULL, 100, bad[i]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("flags %#x", bad[i]);
	}
	EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	/* all valid flags together are fine */
	if (self->impl != ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(100, splice(self->fd, NULL, self->p[1], NULL, 100,
				      SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE |
				      SPLICE_F_GIFT));
		EXPECT_EQ(0, zs_read_zeros(self->p[0], 100));
	}
}

TEST_F(sp, splice_pipe_offset_espipe)
{
	loff_t off = 0;
	char buf[100] = { 0 };

	errno = 0;
	EXPECT_EQ(-1, splice(self->fd, NULL, self->p[1], &off, 100, 0));
	EXPECT_EQ(ESPIPE, errno);
	ASSERT_EQ(100, write(self->p[1], buf, 100));
	errno = 0;
	EXPECT_EQ(-1, splice(self->p[0], &off, self->fd, NULL, 100, 0));
	EXPECT_EQ(ESPIPE, errno);
	EXPECT_EQ(100, zs_pipe_bytes(self->p[0]));
}

/* an offset on the device side: exactly what the kernel's /dev/zero (/dev/full) does */
TEST_F(sp, splice_device_offset_like_mainline)
{
	int ref = open(self->full ? "/dev/full" : "/dev/zero", O_RDWR | O_CLOEXEC);
	loff_t o1 = 4096, o2 = 4096;
	ssize_t a, b;
	int ea, eb;
	char buf[100] = { 0 };

	ASSERT_LE(0, ref);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		errno = 0;
		EXPECT_EQ(-1, splice(self->fd, &o1, self->p[1], NULL, 100, 0));
		EXPECT_EQ(EINVAL, errno);
		close(ref);
		return;
	}
	errno = 0;
	a = splice(self->fd, &o1, self->p[1], NULL, 100, 0);
	ea = errno;
	if (a > 0)
		EXPECT_EQ(0, zs_read_zeros(self->p[0], a));
	errno = 0;
	b = splice(ref, &o2, self->p[1], NULL, 100, 0);
	eb = errno;
	if (b > 0)
		EXPECT_EQ(0, zs_read_zeros(self->p[0], b));
	EXPECT_EQ(b, a);
	EXPECT_EQ(eb, ea);
	EXPECT_EQ(o2, o1);
	TH_LOG("device-side offset: mainline %zd (%s), off -> %lld", b, strerror(eb),
	       (long long)o2);
	/*
	 * splice_write with an offset: as /dev/zero for zsplice; fullsplice has
	 * a splice_write (ENOSPC) where /dev/full has none (EINVAL).
	 */
	ASSERT_EQ(100, write(self->p[1], buf, 100));
	o1 = o2 = 8192;
	errno = 0;
	a = splice(self->p[0], NULL, self->fd, &o1, 50, 0);
	ea = errno;
	if (self->full) {
		EXPECT_EQ(-1, a);
		EXPECT_EQ(ENOSPC, ea);
	} else {
		errno = 0;
		b = splice(self->p[0], NULL, ref, &o2, 50, 0);
		eb = errno;
		EXPECT_EQ(b, a);
		EXPECT_EQ(eb, ea);
	}
	close(ref);
}

TEST_F(sp, splice_full_pipe_eagain)
{
	int q[2];
	ssize_t n;
	int guard = 0;

	if (self->impl == ZSPLICE_IMPL_NONE)
		SKIP(return, "none: no splice");
	ASSERT_EQ(0, zs_pipe(q, 16384, O_NONBLOCK));
	/* fill with large splices */
	while ((n = splice(self->fd, NULL, q[1], NULL, 1 << 20, 0)) > 0)
		ASSERT_GT(1000, ++guard);
	EXPECT_EQ(-1, n);
	EXPECT_EQ(EAGAIN, errno);
	errno = 0;
	EXPECT_EQ(-1, splice(self->fd, NULL, q[1], NULL, 1, 0));
	EXPECT_EQ(EAGAIN, errno);
	n = zs_pipe_bytes(q[0]);
	EXPECT_LT(0, n);
	EXPECT_EQ(0, zs_read_zeros(q[0], n));
	close(q[0]);
	close(q[1]);

	/* blocking pipe, SPLICE_F_NONBLOCK */
	ASSERT_EQ(0, zs_pipe(q, 4096, 0));
	ASSERT_LT(0, splice(self->fd, NULL, q[1], NULL, 4096, SPLICE_F_NONBLOCK));
	errno = 0;
	EXPECT_EQ(-1, splice(self->fd, NULL, q[1], NULL, 1, SPLICE_F_NONBLOCK));
	EXPECT_EQ(EAGAIN, errno);
	close(q[0]);
	close(q[1]);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* a blocking splice into a full pipe waits, and a signal interrupts it */
TEST_F(sp, splice_full_blocking_pipe_eintr)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 200000 } };
	int q[2];

	if (self->impl == ZSPLICE_IMPL_NONE)
		SKIP(return, "none: no splice");
	ASSERT_EQ(0, zs_pipe(q, 4096, 0));
	ASSERT_LT(0, splice(self->fd, NULL, q[1], NULL, 1 << 20, 0));
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	errno = 0;
	EXPECT_EQ(-1, splice(self->fd, NULL, q[1], NULL, 100, 0));
	EXPECT_EQ(EINTR, errno);
	close(q[0]);
	close(q[1]);
}

TEST_F(sp, splice_write)
{
	char buf[70000];
	int n = 0;
	ssize_t r;

	memset(buf, 0x41, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), write(self->p[1], buf, sizeof(buf)));
	errno = 0;
	r = splice(self->p[0], NULL, self->fd, NULL, sizeof(buf), 0);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ((int)sizeof(buf), zs_pipe_bytes(self->p[0]));
	} else if (self->full) {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(ENOSPC, errno);
		EXPECT_EQ((int)sizeof(buf), zs_pipe_bytes(self->p[0]));
	} else {
		/* consumes what the pipe holds, maybe in more than one call */
		while (r > 0 && (n += r) < (int)sizeof(buf))
			r = splice(self->p[0], NULL, self->fd, NULL, sizeof(buf) - n, 0);
		EXPECT_EQ((int)sizeof(buf), n);
		EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	}
	/* the device's data is still zeros afterwards */
	memset(buf, 1, 4096);
	ASSERT_EQ(4096, read(self->fd, buf, 4096));
	EXPECT_EQ(-1, zs_nonzero(buf, 4096));
}

/* device -> pipe -> device: splice_write of our own buffers */
TEST_F(sp, splice_roundtrip)
{
	ssize_t n;

	if (self->impl == ZSPLICE_IMPL_NONE)
		SKIP(return, "none: no splice");
	ASSERT_EQ(300000, splice(self->fd, NULL, self->p[1], NULL, 300000, 0));
	errno = 0;
	n = splice(self->p[0], NULL, self->fd, NULL, 300000, 0);
	if (self->full) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(ENOSPC, errno);
		EXPECT_EQ(0, zs_read_zeros(self->p[0], 300000));
	} else {
		EXPECT_EQ(300000, n);
		EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	}
}

TEST_F(sp, sendfile_to_devnull)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ssize_t n;
	off_t off = 0;

	ASSERT_LE(0, null);
	errno = 0;
	n = sendfile(null, self->fd, NULL, 3 << 20);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno);
	} else {
		EXPECT_EQ(3 << 20, n);
		EXPECT_EQ(12345, sendfile(null, self->fd, NULL, 12345));
		/* with an offset, as /dev/zero allows (FMODE_PREAD); the offset need not move */
		EXPECT_EQ(5000, sendfile(null, self->fd, &off, 5000));
	}
	close(null);
}

/* sendfile into a pipe is splice_read too: data must be zeros */
TEST_F(sp, sendfile_to_pipe)
{
	ssize_t n;

	errno = 0;
	n = sendfile(self->p[1], self->fd, NULL, 100000);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno);
		return;
	}
	ASSERT_EQ(100000, n);
	EXPECT_EQ(0, zs_read_zeros(self->p[0], 100000));
}

static volatile sig_atomic_t alarms;

static void count_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * A 2 GiB sendfile to /dev/null returns a partial count promptly on a
 * signal.  The first SIGALRM is due after 1 ms, then one every millisecond,
 * so the signal comes while even the fastest implementation still has most
 * of the 2 GiB to go (folio moves 2 GiB in well under a second here, copy
 * needs minutes under TCG).
 */
TEST_F(sp, sendfile_2g_interrupted)
{
	struct sigaction sa = { .sa_handler = count_alarm };	/* no SA_RESTART */
	struct itimerval it = {
		.it_interval = { 0, 1000 },
		.it_value = { 0, 1000 },
	}, off = { 0 };
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	const double first = 0.001;
	double t0, dt;
	int e, tries;
	ssize_t n;

	ASSERT_LE(0, null);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	/*
	 * A signal that lands before the first byte moved gives EINTR, which
	 * is right but not what this tests: try again (a loaded TCG host can
	 * stall the vCPU for over a millisecond).
	 */
	for (tries = 0; tries < 5; tries++) {
		alarms = 0;
		t0 = zs_now();
		ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
		errno = 0;
		n = sendfile(null, self->fd, NULL, 2UL << 30);
		e = errno;
		dt = zs_now() - t0;
		setitimer(ITIMER_REAL, &off, NULL);
		TH_LOG("sendfile returned %zd (%s) after %.3f s, first signal at %.3f s, %d alarm(s)",
		       n, n < 0 ? strerror(e) : "ok", dt, first, (int)alarms);
		if (!(n < 0 && e == EINTR))
			break;
	}
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, e);
	} else {
		EXPECT_LE(1, alarms);
		EXPECT_LT(0, n) TH_LOG("%s", strerror(e));
		EXPECT_GT((ssize_t)0x7ffff000, n) TH_LOG("not interrupted by the signal");
		/* within a second of the signal */
		EXPECT_GT(first + 1.0, dt);
	}
	close(null);
}

/* a huge read() also stops on a signal with the partial count */
TEST_F(sp, read_1g_interrupted)
{
	struct sigaction sa = { .sa_handler = count_alarm };
	struct itimerval it = { .it_value = { 0, 20000 } };
	static char buf[1 << 20];
	struct iovec iov[1024];
	double t0, dt;
	ssize_t n;
	int i;

	if (self->impl != ZSPLICE_IMPL_COPY)
		SKIP(return, "read does not depend on the implementation");
	for (i = 0; i < 1024; i++) {
		iov[i].iov_base = buf;
		iov[i].iov_len = sizeof(buf);
	}
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	alarms = 0;
	t0 = zs_now();
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	n = readv(self->fd, iov, 1024);
	dt = zs_now() - t0;
	TH_LOG("readv returned %zd after %.3f s, %d alarm(s)", n, dt, (int)alarms);
	EXPECT_EQ(1, alarms);
	EXPECT_LT(0, n);
	/* all of it only if it was done about when the signal came */
	if (n == 1L << 30)
		EXPECT_GT(0.15, dt);
	EXPECT_GT(1.1, dt);
}

TEST_HARNESS_MAIN
