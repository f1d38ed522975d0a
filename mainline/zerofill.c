// SPDX-License-Identifier: GPL-2.0
/*
 * zerofill: how many 1-byte splices from a device (default /dev/zero) a
 * fresh non-blocking pipe of SIZE bytes (default 65536) takes before
 * EAGAIN, and whether the pipe then holds exactly that many zero bytes.
 * Prints "zerofill DEV SIZE COUNT ok|bad" and exits 0 only if the pipe
 * held count zero bytes.  A third argument CAP stops the fill after CAP
 * splices (2 MiB buffers take 31457281 one-byte splices for 64 KiB); the
 * line then ends in "capped".  Used by mainline/mem-guest.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/zero";
	int size = argc > 2 ? atoi(argv[2]) : 65536;
	long cap = argc > 3 ? atol(argv[3]) : 0;
	long count = 0, got = 0, bad = 0;
	char buf[65536];
	int p[2], fd, avail = -1;
	ssize_t n;

	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pipe2(p, O_NONBLOCK | O_CLOEXEC)) {
		perror(dev);
		return 2;
	}
	if (fcntl(p[1], F_SETPIPE_SZ, size) < 0) {
		perror("F_SETPIPE_SZ");
		return 2;
	}
	while ((!cap || count < cap) &&
	       (n = splice(fd, NULL, p[1], NULL, 1, SPLICE_F_NONBLOCK)) == 1)
		count++;
	if (cap && count == cap) {
		n = -1;
		errno = EAGAIN;
	}
	if (n != -1 || errno != EAGAIN) {
		fprintf(stderr, "zerofill: last splice returned %zd (%s)\n", n,
			n < 0 ? strerror(errno) : "short");
		bad = 1;
	}
	ioctl(p[0], FIONREAD, &avail);
	while ((n = read(p[0], buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			bad |= buf[i] != 0;
		got += n;
	}
	bad |= got != count || avail != count;
	printf("zerofill %s %d %ld %s (FIONREAD %d, read back %ld)%s\n", dev, size,
	       count, bad ? "bad" : "ok", avail, got,
	       cap && count == cap ? " capped" : "");
	return bad;
}
