// SPDX-License-Identifier: GPL-2.0
/*
 * contention: N threads splice from a zero device into a pipe and on to a
 * consumer that takes page references, for the refcount cache line that
 * buffers of one shared zero page (or folio) make all CPUs share, where
 * copy_splice_read() gives every splice private pages.
 *
 * Usage: contention SRC SINK THREADS SECONDS [BYTES]
 *   SRC      the device spliced from (/dev/zero, /dev/zsplice, ...)
 *   SINK     tcp            a loopback TCP connection per thread, drained
 *                           by read() in a thread of its own
 *            odirect:PATH   PATH.<thread> opened O_DIRECT (a file on a
 *                           real file system, or a block device: then
 *                           PATH itself, each thread its own 64 MiB)
 *   BYTES    bytes per splice (default 65536; a multiple of 4096)
 * Prints one line: "SRC SINK threads N bytes B seconds S MBps X".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SPAN	(64L << 20)	/* O_DIRECT bytes per thread before rewinding */

static const char *src, *sink;
static size_t bytes = 65536;
static double seconds;
static atomic_long total;
static atomic_int stop;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *drain(void *arg)
{
	static __thread char buf[1 << 16];
	int fd = (int)(long)arg;

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/* A loopback TCP connection: returns the sending end, drains the other. */
static int tcp_sink(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int l, c, a;
	pthread_t t;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (void *)&sa, sizeof(sa)) || listen(l, 1) ||
	    getsockname(l, (void *)&sa, &len))
		die("tcp listen");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&sa, sizeof(sa)))
		die("tcp connect");
	a = accept(l, NULL, NULL);
	if (a < 0)
		die("tcp accept");
	close(l);
	if (pthread_create(&t, NULL, drain, (void *)(long)a))
		die("pthread_create");
	pthread_detach(t);
	return c;
}

static int odirect_sink(long id, loff_t *base)
{
	const char *path = sink + strlen("odirect:");
	struct stat st;
	char name[4096];
	int fd;

	if (!stat(path, &st) && S_ISBLK(st.st_mode)) {
		*base = id * SPAN;
		fd = open(path, O_WRONLY | O_DIRECT);
	} else {
		*base = 0;
		snprintf(name, sizeof(name), "%s.%ld", path, id);
		fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
	}
	if (fd < 0)
		die(path);
	return fd;
}

static void *worker(void *arg)
{
	long id = (long)arg, moved = 0;
	int in = open(src, O_RDONLY), p[2], out;
	loff_t base = 0, off = 0;
	int odirect = !strncmp(sink, "odirect:", 8);

	if (in < 0)
		die(src);
	if (pipe(p))
		die("pipe");
	out = odirect ? odirect_sink(id, &base) : tcp_sink();
	while (!atomic_load(&stop)) {
		ssize_t n = splice(in, NULL, p[1], NULL, bytes, 0), m;

		if (n <= 0)
			die("splice from the source");
		while (n > 0) {
			loff_t pos = base + off;

			m = splice(p[0], NULL, out, odirect ? &pos : NULL, n, 0);
			if (m <= 0)
				die("splice to the sink");
			n -= m;
			moved += m;
			if (odirect)
				off = (off + m) % SPAN;
		}
	}
	atomic_fetch_add(&total, moved);
	close(out);
	close(in);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *t;
	double t0, t1;
	long i, n;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: %s SRC tcp|odirect:PATH THREADS SECONDS [BYTES]\n", argv[0]);
		return 2;
	}
	src = argv[1];
	sink = argv[2];
	n = atol(argv[3]);
	seconds = atof(argv[4]);
	if (argc == 6)
		bytes = strtoul(argv[5], NULL, 0);
	if (n < 1 || n > 4096 || seconds <= 0 || !bytes || bytes % 4096 ||
	    (strcmp(sink, "tcp") && strncmp(sink, "odirect:", 8))) {
		fprintf(stderr, "contention: bad arguments (THREADS 1-4096, SECONDS > 0, BYTES a multiple of 4096)\n");
		return 2;
	}
	t = calloc(n, sizeof(*t));
	if (!t)
		die("calloc");
	t0 = now();
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			die("pthread_create");
	while (now() - t0 < seconds)
		usleep(10000);
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	t1 = now();
	printf("%s %s threads %ld bytes %zu seconds %.2f MBps %.1f\n", src, sink, n,
	       bytes, t1 - t0, atomic_load(&total) / (t1 - t0) / 1e6);
	return 0;
}
