// SPDX-License-Identifier: GPL-2.0
/*
 * zeroout: zero a block device range with BLKZEROOUT and check it.
 *
 *   zeroout DEVICE MIB
 *
 * Fills the first MIB MiB of DEVICE with 0xa5 (O_DIRECT writes), zeroes
 * them with ioctl(BLKZEROOUT), reads them back with O_DIRECT and checks
 * that every byte is 0.  On a device without REQ_OP_WRITE_ZEROES
 * blkdev_issue_zeroout() falls back to __blkdev_issue_zero_pages(), which
 * writes largest_zero_folio(): the huge zero folio once the RFC's knob made
 * it persistent.  Prints one line:
 *
 *   zeroout: DEVICE MIB MiB zeroed, ok
 *
 * (or what differed).  Exit status 0 when the range reads back as zeroes,
 * 1 when a call failed or a byte was not 0, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define CHUNK	(1U << 20)

static int fail(const char *dev, const char *what)
{
	printf("zeroout: %s: %s: %s\n", dev, what, strerror(errno));
	return 1;
}

/* Write @mib MiB of @byte at the start of @fd, one MiB a call. */
static int fill(int fd, unsigned char *buf, unsigned long mib, int byte)
{
	unsigned long i;

	memset(buf, byte, CHUNK);
	for (i = 0; i < mib; i++)
		if (pwrite(fd, buf, CHUNK, (off_t)i * CHUNK) != (ssize_t)CHUNK)
			return -1;
	return fsync(fd);
}

/* The offset of the first byte that is not 0, or -1 when all are. */
static long long first_nonzero(int fd, unsigned char *buf, unsigned long mib)
{
	unsigned long i, j;

	for (i = 0; i < mib; i++) {
		if (pread(fd, buf, CHUNK, (off_t)i * CHUNK) != (ssize_t)CHUNK)
			return -2;
		for (j = 0; j < CHUNK; j++)
			if (buf[j])
				return (long long)i * CHUNK + j;
	}
	return -1;
}

int main(int argc, char **argv)
{
	unsigned long long range[2];
	unsigned char *buf;
	unsigned long mib;
	long long bad;
	char *end;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "Usage: zeroout DEVICE MIB\n");
		return 2;
	}
	errno = 0;
	mib = strtoul(argv[2], &end, 10);
	if (errno || *end || !mib || mib > 4096) {
		fprintf(stderr, "zeroout: MIB must be 1 to 4096, not %s\n", argv[2]);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_DIRECT);
	if (fd < 0)
		return fail(argv[1], "open");
	if (posix_memalign((void **)&buf, 4096, CHUNK)) {
		errno = ENOMEM;
		return fail(argv[1], "posix_memalign");
	}
	if (fill(fd, buf, mib, 0xa5))
		return fail(argv[1], "writing the pattern");
	range[0] = 0;
	range[1] = (unsigned long long)mib * CHUNK;
	if (ioctl(fd, BLKZEROOUT, range))
		return fail(argv[1], "BLKZEROOUT");
	bad = first_nonzero(fd, buf, mib);
	if (bad == -2)
		return fail(argv[1], "reading back");
	if (bad >= 0) {
		printf("zeroout: %s: byte %lld is 0x%02x after BLKZEROOUT, not 0\n",
		       argv[1], bad, buf[bad % CHUNK]);
		return 1;
	}
	printf("zeroout: %s %lu MiB zeroed, ok\n", argv[1], mib);
	free(buf);
	close(fd);
	return 0;
}
