// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: the Dirty Pipe class (CVE-2022-0847).  A write() into a pipe
 * whose tail buffer came from splice_read must never land in the shared
 * zero page/folio: it goes into a new anonymous buffer.  Covered: splice
 * then write (many lengths, and after the ring wrapped with our buffers),
 * tee then write, pipe-to-pipe then write, SPLICE_F_MOVE into a file then
 * overwrite the file (pwrite and a shared mapping).  Afterwards the pipe
 * reads zeros followed by the written bytes and fresh splices from the
 * device, under every implementation, are still all zeros.
 *
 * Each case runs pinned to one CPU and ends by reading the module's
 * /sys/kernel/debug/zsplice/selfcheck (every allocated zero page and folio
 * scanned with memchr_inv), so a corruption fails inside the case that
 * caused it.  In target mode (ZSPLICE_ZERO=/dev/zero) there is no
 * selfcheck; the cases still run and check the data.
 */
#include <sys/mman.h>

#include "zsplice_util.h"
#include "kselftest_harness.h"

static const char marker[] = "DIRTYPIPE!";
#define MLEN ((int)sizeof(marker) - 1)

FIXTURE(dp) {
	int fd;
	int kmsg;
	int cpu;
};

ZS_SPLICE_VARIANTS(dp);

/*
 * The module's self-check: every zero page and folio still all zero.
 * Called at the end of every case, so that the case that wrote into one
 * is the one that fails.
 */
#define SELFCHECK()	ZS_EXPECT_SELFCHECK(__func__)

FIXTURE_SETUP(dp)
{
	self->cpu = sched_getcpu();
	ASSERT_EQ(0, zs_pin_cpu(self->cpu > 0 ? self->cpu : 0));
	if (!zs_host_mode())
		ASSERT_NE(-2, zs_selfcheck((char[256]){ 0 }, 256)) TH_LOG("no " ZS_SELFCHECK);
	self->kmsg = zs_kmsg_open();
	ZS_OPEN_VARIANT(O_RDONLY);
}

/*
 * Fresh splices from both devices under every implementation we can select,
 * and plain reads, are all zeros.
 */
static void device_still_zero(struct __test_metadata *_metadata)
{
	int full, impl;

	for (full = 0; full < 2; full++) {
		for (impl = ZSPLICE_IMPL_COPY; impl < ZSPLICE_IMPL_COUNT; impl++) {
			int fd = zs_open_impl(full, O_RDONLY, impl);
			int p[2];
			ssize_t n;
			char buf[4096];

			if (fd < 0)
				continue;
			ASSERT_EQ(0, zs_pipe(p, 1 << 20, O_NONBLOCK));
			/* one byte first: coalescing paths (any count is legal after) */
			ASSERT_EQ(1, splice(fd, NULL, p[1], NULL, 1, 0));
			n = splice(fd, NULL, p[1], NULL, 1 << 20, 0);
			ASSERT_LT(0, n);
			EXPECT_EQ(0, zs_read_zeros(p[0], n + 1))
				TH_LOG("%s %s: fresh splice not zero", zs_dev_name(full),
				       zs_impl_names[impl]);
			memset(buf, 1, sizeof(buf));
			ASSERT_EQ(4096, read(fd, buf, sizeof(buf)));
			EXPECT_EQ(-1, zs_nonzero(buf, sizeof(buf)));
			close(p[0]);
			close(p[1]);
			close(fd);
		}
	}
}

FIXTURE_TEARDOWN(dp)
{
	char rec[8192];

	if (self->fd < 0)
		return;
	device_still_zero(_metadata);
	ZS_EXPECT_SELFCHECK("teardown");
	close(self->fd);
	EXPECT_FALSE(zs_kmsg_splat(self->kmsg, rec, sizeof(rec))) TH_LOG("kernel: %s", rec);
}

/* Read len zeros then the marker from rfd. */
static void expect_zeros_then_marker(struct __test_metadata *_metadata, int rfd, long len)
{
	char m[MLEN + 1];

	ASSERT_EQ(len + MLEN, zs_pipe_bytes(rfd));
	EXPECT_EQ(0, zs_read_zeros(rfd, len)) TH_LOG("len %ld", len);
	memset(m, 0, sizeof(m));
	ASSERT_EQ(MLEN, read(rfd, m, MLEN));
	EXPECT_STREQ(marker, m);
	EXPECT_EQ(0, zs_pipe_bytes(rfd));
}

TEST_F(dp, splice_then_write)
{
	static const long lens[] = { 1, 2, 100, 4095, 4096, 4097, 8191, 65535, 65536,
				     65537, 131071 };
	unsigned int i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		int p[2];

		ASSERT_EQ(0, zs_pipe(p, 1 << 20, O_NONBLOCK));
		ASSERT_EQ(lens[i], zs_splice_all(self->fd, p[1], lens[i], 0));
		ASSERT_EQ(MLEN, write(p[1], marker, MLEN));
		expect_zeros_then_marker(_metadata, p[0], lens[i]);
		close(p[0]);
		close(p[1]);
	}
	SELFCHECK();
}

/* many small splices coalesced in the tail, then a write, repeated */
TEST_F(dp, coalesced_splices_then_writes)
{
	int p[2], i, j;

	ASSERT_EQ(0, zs_pipe(p, 1 << 20, O_NONBLOCK));
	/* copy takes a slot per splice: stay within 256 slots */
	for (i = 0; i < 20; i++) {
		for (j = 0; j < 10; j++)
			ASSERT_EQ(3, splice(self->fd, NULL, p[1], NULL, 3, 0));
		ASSERT_EQ(MLEN, write(p[1], marker, MLEN));
	}
	for (i = 0; i < 20; i++) {
		char m[MLEN + 1] = { 0 };

		EXPECT_EQ(0, zs_read_zeros(p[0], 30));
		ASSERT_EQ(MLEN, read(p[0], m, MLEN));
		EXPECT_STREQ(marker, m);
	}
	close(p[0]);
	close(p[1]);
	SELFCHECK();
}

/* the original bug: ring slots previously used by our buffers, then reused */
TEST_F(dp, wrapped_ring_then_write)
{
	int p[2], round;

	ASSERT_EQ(0, zs_pipe(p, 65536, O_NONBLOCK));
	for (round = 0; round < 4; round++) {
		ssize_t n;

		while ((n = splice(self->fd, NULL, p[1], NULL, 1 << 20, 0)) > 0)
			;
		ASSERT_EQ(EAGAIN, errno);
		n = zs_pipe_bytes(p[0]);
		ASSERT_EQ(0, zs_read_zeros(p[0], n));
		ASSERT_EQ(1, splice(self->fd, NULL, p[1], NULL, 1, 0));
		ASSERT_EQ(MLEN, write(p[1], marker, MLEN));
		expect_zeros_then_marker(_metadata, p[0], 1);
		/* a write first, then a splice, then another write */
		ASSERT_EQ(MLEN, write(p[1], marker, MLEN));
		ASSERT_EQ(10, splice(self->fd, NULL, p[1], NULL, 10, 0));
		ASSERT_EQ(MLEN, write(p[1], marker, MLEN));
		{
			char m[MLEN + 1] = { 0 };

			ASSERT_EQ(MLEN, read(p[0], m, MLEN));
			EXPECT_STREQ(marker, m);
		}
		expect_zeros_then_marker(_metadata, p[0], 10);
	}
	close(p[0]);
	close(p[1]);
	SELFCHECK();
}

TEST_F(dp, tee_then_write)
{
	int a[2], b[2];

	ASSERT_EQ(0, zs_pipe(a, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(0, zs_pipe(b, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(5001, zs_splice_all(self->fd, a[1], 5001, 0));
	ASSERT_EQ(5001, tee(a[0], b[1], 5001, 0));
	ASSERT_EQ(MLEN, write(b[1], marker, MLEN));
	ASSERT_EQ(MLEN, write(a[1], marker, MLEN));
	expect_zeros_then_marker(_metadata, b[0], 5001);
	expect_zeros_then_marker(_metadata, a[0], 5001);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	SELFCHECK();
}

TEST_F(dp, pipe_to_pipe_then_write)
{
	int a[2], b[2];

	ASSERT_EQ(0, zs_pipe(a, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(0, zs_pipe(b, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(9000, zs_splice_all(self->fd, a[1], 9000, 0));
	/* a partial move leaves the source's buffer split */
	ASSERT_EQ(333, splice(a[0], NULL, b[1], NULL, 333, 0));
	ASSERT_EQ(MLEN, write(b[1], marker, MLEN));
	ASSERT_EQ(MLEN, write(a[1], marker, MLEN));
	expect_zeros_then_marker(_metadata, b[0], 333);
	expect_zeros_then_marker(_metadata, a[0], 9000 - 333);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	SELFCHECK();
}

TEST_F(dp, move_into_file_then_overwrite)
{
	long len = 256 * 1024;
	char path[] = "/dev/shm/zsplice_dp.XXXXXX";
	unsigned char *buf = malloc(len), *map;
	loff_t off = 0;
	int p[2], f;
	long left = len;

	ASSERT_NE(NULL, buf);
	f = mkstemp(path);
	ASSERT_LE(0, f);
	unlink(path);
	ASSERT_EQ(0, zs_pipe(p, 1 << 20, 0));
	ASSERT_EQ(len, zs_splice_all(self->fd, p[1], len, 0));
	while (left) {
		ssize_t r = splice(p[0], NULL, f, &off, left, SPLICE_F_MOVE);

		ASSERT_LT(0, r);
		left -= r;
	}
	memset(buf, 0xaa, len);
	ASSERT_EQ(len, pwrite(f, buf, len, 0));
	device_still_zero(_metadata);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	ASSERT_NE(MAP_FAILED, map);
	memset(map, 0xbb, len);
	ASSERT_EQ(0, msync(map, len, MS_SYNC));
	device_still_zero(_metadata);
	/* and the file really holds what was written */
	ASSERT_EQ(len, pread(f, buf, len, 0));
	EXPECT_EQ(0xbb, buf[0]);
	EXPECT_EQ(0xbb, buf[len - 1]);
	/* splice the file back out and write after it */
	off = 0;
	ASSERT_LT(0, splice(f, &off, p[1], NULL, 4096, 0));
	ASSERT_EQ(MLEN, write(p[1], marker, MLEN));
	ASSERT_LT(100, read(p[0], buf, 4096));
	EXPECT_EQ(0xbb, buf[100]);
	munmap(map, len);
	close(f);
	close(p[0]);
	close(p[1]);
	free(buf);
	SELFCHECK();
}

/* gift user pages into the pipe after our buffers; vmsplice does not touch ours */
TEST_F(dp, vmsplice_after_splice)
{
	static char page[4096] __attribute__((aligned(4096)));
	struct iovec iov = { page, sizeof(page) };
	int p[2];

	memset(page, 0x5c, sizeof(page));
	ASSERT_EQ(0, zs_pipe(p, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(100, splice(self->fd, NULL, p[1], NULL, 100, 0));
	ASSERT_EQ(4096, vmsplice(p[1], &iov, 1, SPLICE_F_GIFT));
	ASSERT_EQ(MLEN, write(p[1], marker, MLEN));
	EXPECT_EQ(0, zs_read_zeros(p[0], 100));
	{
		char buf[4096];

		ASSERT_EQ(4096, read(p[0], buf, 4096));
		EXPECT_EQ(0x5c, buf[0]);
	}
	close(p[0]);
	close(p[1]);
	SELFCHECK();
}

ZS_SKIP_WITHOUT_DEVICES

TEST_HARNESS_MAIN
