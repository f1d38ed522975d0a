// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: splice and sendfile semantics of /dev/zsplice and
 * /dev/fullsplice under every implementation (selected per open file with
 * ZSPLICE_SET_IMPL): data, lengths, splice_write, the errnos (EINVAL under
 * none, EINVAL for bad flags, ESPIPE for pipe-side offsets, EAGAIN on a
 * full non-blocking pipe, EINVAL for a splice into fullsplice as into
 * /dev/full), device-side offsets as on the kernel's own /dev/zero.
 * Signals: zsplice_signal_test.
 *
 * A splice may legally return less than asked (copy_splice_read fills a
 * page at a time when the page allocator hands out single pages, e.g.
 * with page_owner=on): every test loops or accepts a short count.
 */
#include <signal.h>
#include <sys/sendfile.h>
#include <sys/time.h>

#include "zsplice_util.h"
#include "kselftest_harness.h"

FIXTURE(sp) {
	int fd;
	int p[2];
	bool full;
	int impl;
};

/* The splice variants and NONE (EINVAL, as /dev/zero before v6.7). */
ZS_VARIANT_STRUCT(sp);
ZS_DEV_VARIANT(sp, zsplice, false, NONE);
ZS_DEV_VARIANTS(sp, zsplice, false);
ZS_DEV_VARIANT(sp, fullsplice, true, NONE);
ZS_DEV_VARIANTS(sp, fullsplice, true);

FIXTURE_SETUP(sp)
{
	self->full = variant->full;
	self->impl = variant->impl;
	self->p[0] = self->p[1] = -1;
	ZS_OPEN_VARIANT(O_RDWR);
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
		/* a short count is legal: the rest comes with more calls */
		ASSERT_LT(0, n) TH_LOG("len %zu: %s", lens[i], strerror(errno));
		ASSERT_GE((ssize_t)lens[i], n);
		if (n < (ssize_t)lens[i])
			n += zs_splice_all(self->fd, self->p[1], lens[i] - n, 0);
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
		ASSERT_EQ(i * 97, zs_splice_all(self->fd, self->p[1], i * 97, 0));
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

/*
 * More than fits: the splice core clamps each call to the free slots times
 * PAGE_SIZE, so a 16-slot pipe takes 65536 bytes in the first call (fewer
 * is legal for copy).  Splicing on until EAGAIN, the pipe holds exactly:
 * copy and zeropage 16 pages; folio 15 full folios plus one page (the last
 * free slot is filled by one call clamped to a page, then the pipe is full).
 */
TEST_F(sp, splice_read_more_than_fits)
{
	long fs = zs_folio_size(), want, total = 0, calls = 0;
	int q[2];
	ssize_t n;

	ASSERT_EQ(0, zs_pipe(q, 65536, O_NONBLOCK));
	errno = 0;
	n = splice(self->fd, NULL, q[1], NULL, 4 << 20, 0);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno);
		goto out;
	}
	ASSERT_LT(0, n);
	if (self->impl == ZSPLICE_IMPL_COPY) {
		EXPECT_GE(65536, n);
	} else {
		EXPECT_EQ(65536, n);
	}
	total = n;
	while ((n = splice(self->fd, NULL, q[1], NULL, 4 << 20, 0)) > 0) {
		total += n;
		ASSERT_GT(100000, ++calls);
	}
	EXPECT_EQ(EAGAIN, errno);
	want = self->impl == ZSPLICE_IMPL_FOLIO ? 15 * fs + ZS_PAGE : 65536;
	EXPECT_EQ(want, total) TH_LOG("%s: %ld calls after the first", zs_impl_names[self->impl],
				      calls);
	EXPECT_EQ(total, zs_pipe_bytes(q[0]));
	EXPECT_EQ(0, zs_read_zeros(q[0], total));
out:
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
	int ref = open(zs_ref_path(self->full), O_RDWR | O_CLOEXEC);
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
	if (zs_mainline_impl() == ZSPLICE_IMPL_NONE) {
		close(ref);
		SKIP(return, "%s has no splice on this kernel: nothing to compare with",
		     zs_ref_path(self->full));
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
	/* splice_write with an offset: as /dev/zero, and as /dev/full (EINVAL) */
	ASSERT_EQ(100, write(self->p[1], buf, 100));
	o1 = o2 = 8192;
	errno = 0;
	a = splice(self->p[0], NULL, self->fd, &o1, 50, 0);
	ea = errno;
	errno = 0;
	b = splice(self->p[0], NULL, ref, &o2, 50, 0);
	eb = errno;
	EXPECT_EQ(b, a);
	EXPECT_EQ(eb, ea);
	if (self->full) {
		EXPECT_EQ(EINVAL, ea);
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

/* splice into the device: /dev/zsplice discards, /dev/fullsplice EINVAL like /dev/full */
TEST_F(sp, splice_write)
{
	char buf[70000];
	int n = 0;
	ssize_t r;

	memset(buf, 0x41, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), write(self->p[1], buf, sizeof(buf)));
	errno = 0;
	r = splice(self->p[0], NULL, self->fd, NULL, sizeof(buf), 0);
	if (self->impl == ZSPLICE_IMPL_NONE || self->full) {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ((int)sizeof(buf), zs_pipe_bytes(self->p[0]));
	} else {
		/* consumes what the pipe holds, maybe in more than one call */
		while (r > 0 && (n += r) < (int)sizeof(buf))
			r = splice(self->p[0], NULL, self->fd, NULL, sizeof(buf) - n, 0);
		EXPECT_EQ((int)sizeof(buf), n);
		EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	}
	if (self->full) {
		/* the kernel's /dev/full: the same */
		int ref = open(zs_ref_path(true), O_WRONLY | O_CLOEXEC);

		ASSERT_LE(0, ref);
		errno = 0;
		EXPECT_EQ(-1, splice(self->p[0], NULL, ref, NULL, 100, 0));
		EXPECT_EQ(EINVAL, errno);
		close(ref);
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
	ASSERT_EQ(300000, zs_splice_all(self->fd, self->p[1], 300000, 0));
	errno = 0;
	n = splice(self->p[0], NULL, self->fd, NULL, 300000, 0);
	if (self->full) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(0, zs_read_zeros(self->p[0], 300000));
	} else {
		if (n > 0 && n < 300000)
			n += zs_splice_all(self->p[0], self->fd, 300000 - n, 0);
		EXPECT_EQ(300000, n);
		EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	}
}

/* sendfile until len moved (a short count is legal); total or -1 */
static ssize_t sendfile_all(int out, int in, off_t *off, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = sendfile(out, in, off, len - done);

		if (r <= 0)
			return done ? (ssize_t)done : r;
		done += r;
	}
	return done;
}

TEST_F(sp, sendfile_to_devnull)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ssize_t n;
	off_t off = 0;

	ASSERT_LE(0, null);
	errno = 0;
	n = sendfile_all(null, self->fd, NULL, 3 << 20);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno);
	} else {
		EXPECT_EQ(3 << 20, n);
		EXPECT_EQ(12345, sendfile_all(null, self->fd, NULL, 12345));
		/* with an offset, as /dev/zero allows (FMODE_PREAD); the offset need not move */
		EXPECT_EQ(5000, sendfile_all(null, self->fd, &off, 5000));
	}
	close(null);
}

/* sendfile into a pipe is splice_read too: data must be zeros */
TEST_F(sp, sendfile_to_pipe)
{
	ssize_t n;

	errno = 0;
	n = sendfile_all(self->p[1], self->fd, NULL, 100000);
	if (self->impl == ZSPLICE_IMPL_NONE) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EINVAL, errno);
		return;
	}
	ASSERT_EQ(100000, n);
	EXPECT_EQ(0, zs_read_zeros(self->p[0], 100000));
}

ZS_SKIP_WITHOUT_DEVICES

TEST_HARNESS_MAIN
