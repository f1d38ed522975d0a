// SPDX-License-Identifier: GPL-2.0
/*
 * fionread: a pipe holding more than INT_MAX bytes, made with tee() from
 * two pipes filled by splice() from SRC (default /dev/zero), and the two
 * byte counts the pipe core keeps in an int on unpatched kernels:
 *
 *   FIONREAD         must be min(bytes in the pipe, INT_MAX), never negative
 *   splice(pipe -> pipe) of all of it
 *                    must return the byte count it moved (> INT_MAX)
 *
 * As root: raises /proc/sys/fs/pipe-max-size to 256 MiB, fills pipes a and b
 * of that size with FILL bytes each (default 1 GiB) by splice() from SRC,
 * tees both into pipe q, reads FIONREAD of q, splices q into pipe r.
 * That needs buffers of at least 32 KiB from SRC (65536 slots); a source
 * of 4 KiB buffers fills the pipe at 256 MiB, reported as a SKIP (exit 4).
 *
 * Prints "fionread SRC total N fionread F splice S ok|bad" and exits 0 only
 * if F == min(N, INT_MAX) and S == N.
 *
 * Usage: fionread [SRC [FILL_MIB]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#define PIPE_BYTES (256L << 20)

static int big_pipe(int p[2])
{
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC)) {
		perror("pipe2");
		return -1;
	}
	if (fcntl(p[1], F_SETPIPE_SZ, PIPE_BYTES) < 0) {
		perror("F_SETPIPE_SZ 256 MiB");
		return -1;
	}
	return 0;
}

/* Splice want bytes from src into pipe p; returns the bytes it took. */
static long fill(int src, int p[2], long want)
{
	long got = 0;
	ssize_t n;

	while (got < want) {
		n = splice(src, NULL, p[1], NULL, want - got, SPLICE_F_NONBLOCK);
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN)
				perror("splice from source");
			break;
		}
		got += n;
	}
	return got;
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/zero";
	long want = (argc > 2 ? atol(argv[2]) : 1024) << 20;
	int a[2], b[2], q[2], r[2], src, avail = -1;
	long fa, fb, ta, tb, total;
	ssize_t moved;
	FILE *f;

	f = fopen("/proc/sys/fs/pipe-max-size", "w");
	if (!f || fprintf(f, "%ld\n", PIPE_BYTES) < 0 || fclose(f)) {
		perror("/proc/sys/fs/pipe-max-size (root needed)");
		return 2;
	}
	src = open(dev, O_RDONLY | O_CLOEXEC);
	if (src < 0) {
		perror(dev);
		return 2;
	}
	if (big_pipe(a) || big_pipe(b) || big_pipe(q) || big_pipe(r))
		return 2;

	fa = fill(src, a, want);
	fb = fill(src, b, want);
	if (fa < want || fb < want) {
		printf("fionread %s filled %ld and %ld of %ld bytes: buffers too small # SKIP\n",
		       dev, fa, fb, want);
		return 4;
	}
	ta = tee(a[0], q[1], fa, SPLICE_F_NONBLOCK);
	tb = tee(b[0], q[1], fb, SPLICE_F_NONBLOCK);
	if (ta != fa || tb != fb) {
		printf("fionread %s tee returned %ld and %ld, want %ld and %ld bad\n",
		       dev, ta, tb, fa, fb);
		return 1;
	}
	total = ta + tb;
	ioctl(q[0], FIONREAD, &avail);
	moved = splice(q[0], NULL, r[1], NULL, total, SPLICE_F_NONBLOCK);
	printf("fionread %s total %ld fionread %d (want %d) splice %zd (want %ld) %s\n",
	       dev, total, avail, total > INT_MAX ? INT_MAX : (int)total, moved, total,
	       avail == (total > INT_MAX ? INT_MAX : total) && moved == total ? "ok" : "bad");
	return !(avail == (total > INT_MAX ? INT_MAX : total) && moved == total);
}
