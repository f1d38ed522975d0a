// SPDX-License-Identifier: GPL-2.0
/* sendfile-{null,tmpfs,tcp}-N: sendfile() N bytes from the device to /dev/null,
 * a tmpfs file (truncated every 64 MiB) or a loopback TCP socket. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "zsbench.h"

#define TMPFS_WRAP	(64UL * 1024 * 1024)

enum sf_target { SF_NULL, SF_TMPFS, SF_TCP };

struct sf_st {
	int fd[3];		/* device, target, TCP receiver */
	uint64_t off;
	pthread_t reader;
	int reading;
};

static void *tcp_reader(void *arg)
{
	int fd = *(int *)arg;
	static __thread char buf[256 * 1024];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

static int tcp_pair(int *snd, int *rcv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), rc = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0)
		return -1;
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &al))
		goto out;
	*snd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*snd < 0 || connect(*snd, (struct sockaddr *)&a, sizeof(a)))
		goto out;
	*rcv = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	rc = *rcv < 0 ? -1 : 0;
out:
	close(l);
	return rc;
}

static int sf_open(struct zsb_wctx *c, enum sf_target t)
{
	struct sf_st *s = c->priv;

	s->fd[0] = zsb_dev_open(c, O_RDONLY);
	if (s->fd[0] < 0)
		return s->fd[0];
	if (t == SF_NULL) {
		s->fd[1] = open("/dev/null", O_WRONLY | O_CLOEXEC);
	} else if (t == SF_TMPFS) {
		char tmpl[] = "/dev/shm/zsbench.XXXXXX";

		s->fd[1] = mkostemp(tmpl, O_CLOEXEC);
		if (s->fd[1] >= 0)
			unlink(tmpl);
	} else if (tcp_pair(&s->fd[1], &s->fd[2]) == 0) {
		s->reading = !pthread_create(&s->reader, NULL, tcp_reader, &s->fd[2]);
	}
	if (s->fd[1] < 0 || (t == SF_TCP && !s->reading)) {
		snprintf(c->note, sizeof(c->note), "sendfile target setup failed");
		return -EIO;
	}
	return 0;
}

static int sf_open_null(struct zsb_wctx *c)
{
	return sf_open(c, SF_NULL);
}

static int sf_open_tmpfs(struct zsb_wctx *c)
{
	return sf_open(c, SF_TMPFS);
}

static int sf_open_tcp(struct zsb_wctx *c)
{
	return sf_open(c, SF_TCP);
}

static long sf_op(struct zsb_wctx *c)
{
	struct sf_st *s = c->priv;
	ssize_t n = sendfile(s->fd[1], s->fd[0], NULL, c->wl->size);

	return n < 0 ? -errno : n;
}

static long sf_op_tmpfs(struct zsb_wctx *c)
{
	struct sf_st *s = c->priv;
	long n = sf_op(c);

	if (n > 0 && (s->off += (uint64_t)n) >= TMPFS_WRAP) {
		(void)ftruncate(s->fd[1], 0);
		(void)lseek(s->fd[1], 0, SEEK_SET);
		s->off = 0;
	}
	return n;
}

static void sf_close(struct zsb_wctx *c)
{
	struct sf_st *s = c->priv;

	if (s->reading) {
		shutdown(s->fd[1], SHUT_RDWR);
		pthread_join(s->reader, NULL);
	}
	zsb_close_fds(s->fd, 3);
}

const struct zsb_engine zsb_eng_sendfile_null = {
	"sendfile", sizeof(struct sf_st), sf_open_null, sf_op, sf_close,
};
const struct zsb_engine zsb_eng_sendfile_tmpfs = {
	"sendfile", sizeof(struct sf_st), sf_open_tmpfs, sf_op_tmpfs, sf_close,
};
const struct zsb_engine zsb_eng_sendfile_tcp = {
	"sendfile", sizeof(struct sf_st), sf_open_tcp, sf_op, sf_close,
};
