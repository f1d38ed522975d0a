// SPDX-License-Identifier: GPL-2.0
/*
 * zero-send: send BYTES from /dev/zero to a TCP receiver with sendfile(),
 * which splices /dev/zero into the socket (its pages become skb frags).
 * mem-check points it at the kernel's tcp_mmap selftest in server mode,
 * whose TCP_ZEROCOPY_RECEIVE then says how much of it could be mapped.
 *
 *   zero-send PORT BYTES [MSS]     (to 127.0.0.1:PORT; MSS sets TCP_MAXSEG)
 *
 * Exit status 0 when every byte was sent, 1 on a failed call, 2 on a
 * usage error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

static long long number(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	return errno || end == s || *end || v <= 0 ? -1 : v;
}

static int connect_to(int port, int mss)
{
	struct sockaddr_in sa = {
		.sin_family	= AF_INET,
		.sin_port	= htons(port),
		.sin_addr	= { htonl(INADDR_LOOPBACK) },
	};
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	if (mss > 0 &&
	    setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss)))
		goto fail;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}

int main(int argc, char **argv)
{
	long long port, bytes, mss = 0, sent = 0;
	int zero, sock;

	if (argc < 3 || argc > 4 || (port = number(argv[1])) < 0 ||
	    port > 65535 || (bytes = number(argv[2])) < 0 ||
	    (argc == 4 && (mss = number(argv[3])) < 0)) {
		fprintf(stderr, "usage: zero-send PORT BYTES [MSS]\n");
		return 2;
	}
	zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (zero < 0) {
		perror("zero-send: /dev/zero");
		return 1;
	}
	sock = connect_to(port, mss);
	if (sock < 0) {
		perror("zero-send: connect");
		return 1;
	}
	while (sent < bytes) {
		long long left = bytes - sent;
		ssize_t n = sendfile(sock, zero, NULL,
				     left < (1 << 20) ? left : (1 << 20));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror("zero-send: sendfile");
			return 1;
		}
		sent += n;
	}
	close(sock);
	return 0;
}
