// SPDX-License-Identifier: GPL-2.0
/*
 * drain: the consumer of mem-check's program workloads.
 *
 *   drain BYTES PROGRAM [ARG...]
 *
 * Runs PROGRAM with its standard output on a pipe, splices BYTES from that
 * pipe to /dev/null, then closes the pipe (PROGRAM gets SIGPIPE or EPIPE)
 * and reaps it.  Prints one line:
 *
 *   bytes N ns T GiBps G
 *
 * T is CLOCK_MONOTONIC from the fork to the last byte: wall time, or under
 * QEMU -icount guest instructions of everything that ran meanwhile.  The
 * consumer costs the same on every kernel (a splice from a pipe to
 * /dev/null frees the buffers), so differences are the producer's.
 * Exit status 0 when BYTES arrived, 1 when PROGRAM ended first or a call
 * failed, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v == 0)
		return -1;
	*out = v;
	return 0;
}

static pid_t start(int pfd[2], char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		if (dup2(pfd[1], STDOUT_FILENO) < 0)
			_exit(126);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "drain: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Splice @want bytes from @in to @out; return what arrived. */
static uint64_t move(int in, int out, uint64_t want)
{
	uint64_t got = 0;

	while (got < want) {
		uint64_t left = want - got;
		ssize_t n = splice(in, NULL, out, NULL,
				   left < (1U << 20) ? left : (1U << 20),
				   SPLICE_F_MOVE);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				perror("drain: splice");
			break;
		}
		got += n;
	}
	return got;
}

int main(int argc, char **argv)
{
	uint64_t want, got, t0, ns;
	int pfd[2], null, status;
	pid_t pid;

	if (argc < 3 || parse_bytes(argv[1], &want)) {
		fprintf(stderr, "usage: drain BYTES PROGRAM [ARG...]\n");
		return 2;
	}
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || pipe2(pfd, O_CLOEXEC)) {
		perror("drain");
		return 1;
	}
	t0 = now_ns();
	pid = start(pfd, argv + 2);
	if (pid < 0) {
		perror("drain: fork");
		return 1;
	}
	close(pfd[1]);
	got = move(pfd[0], null, want);
	ns = now_ns() - t0;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("bytes %llu ns %llu GiBps %.3f\n", (unsigned long long)got,
	       (unsigned long long)ns,
	       ns ? got / (double)ns * 1e9 / (1U << 30) : 0.0);
	if (got < want) {
		fprintf(stderr, "drain: %s ended after %llu of %llu bytes\n",
			argv[2], (unsigned long long)got,
			(unsigned long long)want);
		return 1;
	}
	return 0;
}
