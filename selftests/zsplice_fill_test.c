// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: how many small splices a fresh non-blocking pipe takes before
 * EAGAIN, per implementation and pipe size (4 KiB ... 1 MiB):
 *
 *   copy      one fresh page per slot:          slots
 *   zeropage  tail coalescing in 4 KiB pages:   (slots - 1) * 4096 / k + 1
 *   folio     tail coalescing in folios:        (slots - 1) * folio / k + 1
 *
 * for k-byte splices where k divides the buffer size (the splice core waits
 * for a free slot before calling splice_read, so the last slot takes one
 * splice).  k is 1 (the case the spec states) unless that would need more
 * than ZSPLICE_FILL_BUDGET calls (default 1100000: every zeropage case is
 * 1-byte), in which case k doubles until it fits, so the guest's slow TCG
 * CPU stays within the harness timeout: with the default 2 MiB folios a
 * 1-byte fill of a 1 MiB pipe would be 535 million calls.
 * ZSPLICE_FILL_BUDGET=0 forces k = 1 everywhere.  What the pipe holds is
 * read back and checked for the first 8 MiB; the rest (up to 510 MiB of
 * folio buffers) is spliced to /dev/null and counted.  For copy the
 * kernel's own /dev/zero (/dev/full) is filled the same way in the same
 * run and must give the same count (EINVAL before 6.7: no splice_read).
 */
#include "zsplice_util.h"
#include "kselftest_harness.h"

FIXTURE(fill) {
	int fd;
	int p[2];
};

FIXTURE_VARIANT(fill) {
	bool full;
	int impl;
	int pipe_size;
};

#define FILL(dev, isfull, im, kib)					\
	FIXTURE_VARIANT_ADD(fill, dev##_##im##_##kib##k) {		\
		.full = isfull, .impl = ZSPLICE_IMPL_##im,		\
		.pipe_size = (kib) * 1024,				\
	}

#define FILL_SIZES(dev, isfull, im)					\
	FILL(dev, isfull, im, 4); FILL(dev, isfull, im, 8);		\
	FILL(dev, isfull, im, 16); FILL(dev, isfull, im, 64);		\
	FILL(dev, isfull, im, 256); FILL(dev, isfull, im, 1024)

FILL_SIZES(zsplice, false, COPY);
FILL_SIZES(zsplice, false, ZEROPAGE);
FILL_SIZES(zsplice, false, FOLIO);
FILL_SIZES(fullsplice, true, COPY);
FILL_SIZES(fullsplice, true, ZEROPAGE);
FILL_SIZES(fullsplice, true, FOLIO);

FIXTURE_SETUP(fill)
{
	self->p[0] = self->p[1] = -1;
	ZS_OPEN_VARIANT(O_RDONLY);
	ASSERT_EQ(0, zs_pipe(self->p, variant->pipe_size, O_NONBLOCK))
		TH_LOG("F_SETPIPE_SZ %d: %s", variant->pipe_size, strerror(errno));
}

FIXTURE_TEARDOWN(fill)
{
	close(self->fd);
	close(self->p[0]);
	close(self->p[1]);
}

static long fill_budget(void)
{
	const char *b = getenv("ZSPLICE_FILL_BUDGET");

	return b ? atol(b) : 1100000;
}

TEST_F_TIMEOUT(fill, small_splice_count, 120)
{
	long slots = variant->pipe_size / ZS_PAGE;
	long unit, k = 1, expect, count = 0, budget = fill_budget();
	double t0;
	ssize_t n;

	switch (variant->impl) {
	case ZSPLICE_IMPL_COPY:
		unit = 1;	/* one slot per splice whatever its size */
		break;
	case ZSPLICE_IMPL_ZEROPAGE:
		unit = ZS_PAGE;
		break;
	default:
		unit = zs_folio_size();
		break;
	}
	if (unit > 1)
		while (budget > 0 && k < unit && (slots - 1) * (unit / k) + 1 > budget)
			k *= 2;
	expect = unit > 1 ? (slots - 1) * (unit / k) + 1 : slots;

	t0 = zs_now();
	while ((n = splice(self->fd, NULL, self->p[1], NULL, k, 0)) == k) {
		count++;
		if (count > expect + 16)
			break;
	}
	TH_LOG("%s %s pipe %d KiB: %ld splices of %ld byte(s) (expected %ld) in %.2f s",
	       zs_dev_name(variant->full), zs_impl_names[variant->impl],
	       variant->pipe_size / 1024, count, k, expect, zs_now() - t0);
	EXPECT_EQ(-1, n) TH_LOG("splice returned %zd", n);
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(expect, count);
	/* the pipe holds exactly what was spliced, all zeros */
	EXPECT_EQ(count * k, zs_pipe_bytes(self->p[0]));
	{
		long check = count * k < (8L << 20) ? count * k : 8L << 20;
		long rest = count * k - check;
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		EXPECT_EQ(0, zs_read_zeros(self->p[0], check));
		ASSERT_LE(0, null);
		EXPECT_EQ(rest, rest ? zs_splice_all(self->p[0], null, rest, 0) : 0);
		close(null);
	}
	EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	/* and once drained it takes the same again */
	if (expect <= 20000) {
		long again = 0;

		while (splice(self->fd, NULL, self->p[1], NULL, k, 0) == k && again <= expect)
			again++;
		EXPECT_EQ(expect, again);
		EXPECT_EQ(0, zs_read_zeros(self->p[0], again * k));
	}
	/* copy is mainline's copy_splice_read: the same count from the kernel's own device */
	if (variant->impl == ZSPLICE_IMPL_COPY) {
		int ref = open(zs_ref_path(variant->full), O_RDONLY | O_CLOEXEC), q[2];
		long rc = 0;

		ASSERT_LE(0, ref);
		ASSERT_EQ(0, zs_pipe(q, variant->pipe_size, O_NONBLOCK));
		while ((n = splice(ref, NULL, q[1], NULL, k, 0)) == k && rc <= expect)
			rc++;
		TH_LOG("%s, same pipe: %ld splices (%s)", zs_ref_path(variant->full), rc,
		       n < 0 ? strerror(errno) : "ok");
		if (zs_mainline_impl() == ZSPLICE_IMPL_COPY) {
			EXPECT_EQ(count, rc);
		} else if (zs_mainline_impl() == ZSPLICE_IMPL_NONE) {
			EXPECT_EQ(0, rc);
			EXPECT_EQ(EINVAL, errno);
		}
		close(q[0]);
		close(q[1]);
		close(ref);
	}
}

ZS_SKIP_WITHOUT_DEVICES

TEST_HARNESS_MAIN
