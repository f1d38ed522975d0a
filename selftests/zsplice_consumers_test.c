// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: every consumer of the pipe buffers that splice_read produces
 * must see zeros, for the zeropage and folio implementations (and copy, as
 * the reference): read(), splice to /dev/null, pipe-to-pipe splice, tee,
 * splice and sendfile into a tmpfs file and an ext4 file, sendfile and
 * splice into a TCP socket on 127.0.0.1, io_uring splice, vmsplice out of
 * the pipe.  Buffers are made with odd offsets and lengths (a 1-byte splice
 * first, then tail-coalesced ones) so partial buffers are exercised.
 * After each test the module's pipe reference counters return to 0.
 */
#include <sched.h>
#include <arpa/inet.h>
#include <linux/loop.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <liburing.h>

#include "zsplice_util.h"
#include "kselftest_harness.h"

#define N_BYTES	(300000 + 4097 + 1)

FIXTURE(con) {
	int fd;
	int p[2];
	long long zrefs, frefs;
};

ZS_SPLICE_VARIANTS(con);

/* Splice n bytes from the device into pipe wfd: 1 byte, 4097, then the rest. */
static int fill(int fd, int wfd, long n)
{
	long done = 0;

	while (done < n) {
		long want = done == 0 ? 1 : done == 1 ? 4097 : n - done;
		ssize_t r;

		if (want > n - done)
			want = n - done;
		r = splice(fd, NULL, wfd, NULL, want, 0);
		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

/*
 * Wait for the module's pipe references to drop back to what they were
 * before the test (0 unless an earlier test leaked; true if they do).
 */
static bool refs_settle(long long zbase, long long fbase)
{
	int i;

	if (zs_host_mode() || !zs_module_loaded())
		return true;
	for (i = 0; i < 200; i++) {
		zs_net_flush();
		if (zs_stat(false, "zeropage_pipe_refs") <= zbase &&
		    zs_stat(false, "folio_pipe_refs") <= fbase)
			return true;
		zs_msleep(10);
	}
	return false;
}

FIXTURE_SETUP(con)
{
	self->p[0] = self->p[1] = -1;
	self->zrefs = zs_stat(false, "zeropage_pipe_refs");
	self->frefs = zs_stat(false, "folio_pipe_refs");
	if (self->zrefs > 0 || self->frefs > 0)
		TH_LOG("at start: zeropage_pipe_refs %lld folio_pipe_refs %lld (not 0: leaked before)",
		       self->zrefs, self->frefs);
	ZS_OPEN_VARIANT(O_RDONLY);
	ASSERT_EQ(0, zs_pipe(self->p, 1 << 20, 0));
	ASSERT_EQ(0, fill(self->fd, self->p[1], N_BYTES));
	ASSERT_EQ(N_BYTES, zs_pipe_bytes(self->p[0]));
}

FIXTURE_TEARDOWN(con)
{
	close(self->fd);
	close(self->p[0]);
	close(self->p[1]);
	/* no references left behind by any consumer, sockets included */
	if (self->fd >= 0)
		EXPECT_TRUE(refs_settle(self->zrefs, self->frefs))
			TH_LOG("leaked: zeropage_pipe_refs %lld folio_pipe_refs %lld",
			       zs_stat(false, "zeropage_pipe_refs"),
			       zs_stat(false, "folio_pipe_refs"));
}

TEST_F(con, read_odd_chunks)
{
	long left = N_BYTES;

	while (left) {
		char buf[6007];
		long want = left < (long)sizeof(buf) ? left : (long)sizeof(buf);

		memset(buf, 0x99, sizeof(buf));
		ASSERT_EQ(want, read(self->p[0], buf, want));
		ASSERT_EQ(-1, zs_nonzero(buf, want)) TH_LOG("at %ld", N_BYTES - left);
		left -= want;
	}
}

TEST_F(con, splice_to_devnull)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	long left = N_BYTES;

	ASSERT_LE(0, null);
	/* a partial buffer first, then the rest */
	ASSERT_EQ(1000, splice(self->p[0], NULL, null, NULL, 1000, 0));
	left -= 1000;
	while (left) {
		ssize_t r = splice(self->p[0], NULL, null, NULL, left, 0);

		ASSERT_LT(0, r);
		left -= r;
	}
	EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	close(null);
}

TEST_F(con, pipe_to_pipe)
{
	int q[2];
	long moved = 0;

	ASSERT_EQ(0, zs_pipe(q, 1 << 20, 0));
	/* 777-byte moves split buffers: the source keeps the rest */
	while (moved < N_BYTES) {
		long want = N_BYTES - moved < 777 ? N_BYTES - moved : 777;

		ASSERT_EQ(want, splice(self->p[0], NULL, q[1], NULL, want, 0));
		moved += want;
		if (moved > 100000)
			break;
	}
	/* then the rest in one go */
	while (moved < N_BYTES) {
		ssize_t r = splice(self->p[0], NULL, q[1], NULL, N_BYTES - moved, 0);

		ASSERT_LT(0, r);
		moved += r;
	}
	EXPECT_EQ(N_BYTES, zs_pipe_bytes(q[0]));
	EXPECT_EQ(0, zs_read_zeros(q[0], N_BYTES));
	close(q[0]);
	close(q[1]);
}

TEST_F(con, tee)
{
	int q[2], r[2];

	ASSERT_EQ(0, zs_pipe(q, 1 << 20, 0));
	ASSERT_EQ(0, zs_pipe(r, 1 << 20, 0));
	/* partial tee, then whole */
	ASSERT_EQ(5000, tee(self->p[0], q[1], 5000, 0));
	ASSERT_EQ(N_BYTES, tee(self->p[0], r[1], N_BYTES, 0));
	EXPECT_EQ(N_BYTES, zs_pipe_bytes(self->p[0]));
	EXPECT_EQ(0, zs_read_zeros(q[0], 5000));
	/* tee of a tee */
	ASSERT_EQ(N_BYTES, tee(r[0], q[1], N_BYTES, 0));
	EXPECT_EQ(0, zs_read_zeros(r[0], N_BYTES));
	EXPECT_EQ(0, zs_read_zeros(self->p[0], N_BYTES));
	EXPECT_EQ(0, zs_read_zeros(q[0], N_BYTES));
	close(q[0]);
	close(q[1]);
	close(r[0]);
	close(r[1]);
}

TEST_F(con, vmsplice_out)
{
	static char a[100000], b[300000];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	long got = 0;

	memset(a, 0x33, sizeof(a));
	memset(b, 0x33, sizeof(b));
	while (got < N_BYTES) {
		struct iovec v[2];
		ssize_t r;
		int cnt = 0;

		if (got < (long)sizeof(a)) {
			v[cnt].iov_base = a + got;
			v[cnt++].iov_len = sizeof(a) - got;
			v[cnt++] = iov[1];
		} else {
			v[cnt].iov_base = b + got - sizeof(a);
			v[cnt++].iov_len = sizeof(b) - (got - sizeof(a));
		}
		r = vmsplice(self->p[0], v, cnt, 0);
		ASSERT_LT(0, r) TH_LOG("vmsplice: %s", strerror(errno));
		got += r;
	}
	EXPECT_EQ(N_BYTES, got);
	EXPECT_EQ(0, zs_pipe_bytes(self->p[0]));
	EXPECT_EQ(-1, zs_nonzero(a, sizeof(a)));
	EXPECT_EQ(-1, zs_nonzero(b, N_BYTES - sizeof(a)));
	EXPECT_EQ(0x33, b[N_BYTES - sizeof(a)]);
}

/* Pipe -> file at an odd offset over 0xff bytes; check what lands. */
static void file_consumer(struct __test_metadata *_metadata, int fd, int rfd,
			  int wfd, const char *dir)
{
	long size = 2 * N_BYTES + 10000, off = 1234, i;
	char path[256], *buf = malloc(size);
	loff_t o;
	long left;
	int f;
	unsigned int flags[2] = { 0, SPLICE_F_MOVE };

	ASSERT_NE(NULL, buf);
	snprintf(path, sizeof(path), "%s/zsplice_consumer.XXXXXX", dir);
	f = mkstemp(path);
	ASSERT_LE(0, f) TH_LOG("mkstemp in %s: %s", dir, strerror(errno));
	unlink(path);
	memset(buf, 0xff, size);
	ASSERT_EQ(size, pwrite(f, buf, size, 0));
	ASSERT_EQ(0, fsync(f));
	for (i = 0; i < 2; i++) {
		/* pipe already holds N_BYTES for the first round; refill for the second */
		if (i)
			ASSERT_EQ(0, fill(fd, wfd, N_BYTES));
		o = off + i * N_BYTES;
		left = N_BYTES;
		while (left) {
			ssize_t r = splice(rfd, NULL, f, &o, left, flags[i]);

			ASSERT_LT(0, r) TH_LOG("splice to file: %s", strerror(errno));
			left -= r;
		}
	}
	/* sendfile straight into the file past that, leaving the last 100 bytes */
	o = 2 * N_BYTES + off;
	ASSERT_EQ(o, lseek(f, o, SEEK_SET));
	left = size - o - 100;
	while (left) {
		ssize_t r = sendfile(f, fd, NULL, left);

		ASSERT_LT(0, r) TH_LOG("sendfile to file: %s", strerror(errno));
		left -= r;
	}
	ASSERT_EQ(0, fsync(f));
	/* drop clean page cache where possible so we also read back from disk */
	posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED);
	memset(buf, 0x11, size);
	ASSERT_EQ(size, pread(f, buf, size, 0));
	for (i = 0; i < size; i++) {
		char want = (i < off || i >= size - 100) ? (char)0xff : 0;

		if (buf[i] != want) {
			ASSERT_EQ(want, buf[i]) TH_LOG("file byte %ld", i);
		}
	}
	/* and back out of the file through a pipe */
	{
		int q[2];

		ASSERT_EQ(0, zs_pipe(q, 1 << 20, 0));
		o = off;
		ASSERT_EQ(200000, splice(f, &o, q[1], NULL, 200000, 0));
		EXPECT_EQ(0, zs_read_zeros(q[0], 200000));
		close(q[0]);
		close(q[1]);
	}
	close(f);
	free(buf);
}

TEST_F(con, tmpfs_file)
{
	file_consumer(_metadata, self->fd, self->p[0], self->p[1], "/dev/shm");
}

/* ext4 on a loop device over an image in /tmp, made by whatever mkfs exists */
static int find_mkfs(char *cmd, size_t len, const char *img)
{
	static const char * const tries[] = {
		"mkfs.ext4 -q -F %s", "mke2fs -q -F -t ext4 %s", "mke2fs -F %s",
		"mkfs.ext2 -F %s",
	};
	unsigned int i;

	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		char c[512];
		int ret;

		snprintf(c, sizeof(c), tries[i], img);
		snprintf(cmd, len, "%s >/dev/null 2>&1", c);
		ret = system(cmd);
		if (WIFEXITED(ret) && WEXITSTATUS(ret) == 0) {
			snprintf(cmd, len, "%s", c);
			return 0;
		}
	}
	return -1;
}

TEST_F_TIMEOUT(con, ext4_file, 60)
{
	char img[] = "/tmp/zsplice_ext4.XXXXXX", mnt[] = "/tmp/zsplice_mnt.XXXXXX";
	char cmd[600], loopdev[64];
	int imgfd, ctl, loopfd = -1, n = -1, i;

	if (geteuid())
		SKIP(return, "needs root to mount");
	if (system("modprobe loop >/dev/null 2>&1; modprobe ext4 >/dev/null 2>&1")) {
		/* built in, or no modprobe: try anyway */
	}
	imgfd = mkstemp(img);
	ASSERT_LE(0, imgfd);
	ASSERT_EQ(0, ftruncate(imgfd, 32 << 20));
	close(imgfd);
	if (find_mkfs(cmd, sizeof(cmd), img)) {
		unlink(img);
		SKIP(return, "no mkfs.ext4/mke2fs/mkfs.ext2 in PATH");
	}
	TH_LOG("made filesystem with: %s", cmd);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		unlink(img);
		SKIP(return, "no /dev/loop-control (loop module): %s", strerror(errno));
	}
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	ASSERT_LE(0, n);
	snprintf(loopdev, sizeof(loopdev), "/dev/loop%d", n);
	for (i = 0; i < 200 && loopfd < 0; i++) {
		loopfd = open(loopdev, O_RDWR | O_CLOEXEC);
		if (loopfd < 0)
			zs_msleep(10);
	}
	ASSERT_LE(0, loopfd) TH_LOG("%s: %s", loopdev, strerror(errno));
	imgfd = open(img, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, imgfd);
	ASSERT_EQ(0, ioctl(loopfd, LOOP_SET_FD, imgfd));
	close(imgfd);
	ASSERT_NE(NULL, mkdtemp(mnt));
	if (mount(loopdev, mnt, "ext4", 0, NULL)) {
		int e = errno;

		ioctl(loopfd, LOOP_CLR_FD, 0);
		rmdir(mnt);
		unlink(img);
		if (e == ENODEV)
			SKIP(return, "ext4 not available in this kernel");
		ASSERT_EQ(0, e) TH_LOG("mount ext4: %s", strerror(e));
	}
	file_consumer(_metadata, self->fd, self->p[0], self->p[1], mnt);
	EXPECT_EQ(0, umount(mnt));
	ioctl(loopfd, LOOP_CLR_FD, 0);
	close(loopfd);
	close(ctl);
	rmdir(mnt);
	unlink(img);
}

static int tcp_pair(int *cli, int *srv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (l < 0)
		return -1;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(l, (void *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (void *)&a, &al))
		return -1;
	*cli = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*cli < 0 || connect(*cli, (void *)&a, sizeof(a)))
		return -1;
	*srv = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	close(l);
	return *srv < 0 ? -1 : 0;
}

static long recv_zeros(int s, long n)
{
	static char buf[65536];
	long got = 0;

	while (got < n) {
		ssize_t r = recv(s, buf, sizeof(buf), 0);

		if (r <= 0)
			return -1;
		if (zs_nonzero(buf, r) >= 0)
			return -2;
		got += r;
	}
	return got;
}

/* mode 0: sendfile device -> socket; mode 1: splice the pipe's buffers -> socket */
static void tcp_consumer(struct __test_metadata *_metadata, int fd, int p[2], int mode)
{
	long total = mode ? N_BYTES : 3 << 20;
	int cli, srv, status;
	pid_t pid;

	if (tcp_pair(&cli, &srv))
		SKIP(return, "no TCP on 127.0.0.1: %s", strerror(errno));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		long sent = 0;

		close(srv);
		while (sent < total) {
			ssize_t r = mode ? splice(p[0], NULL, cli, NULL, total - sent, SPLICE_F_MORE)
					 : sendfile(cli, fd, NULL, total - sent);

			if (r <= 0)
				_exit(1);
			sent += r;
		}
		close(cli);
		_exit(0);
	}
	close(cli);
	EXPECT_EQ(total, recv_zeros(srv, total));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	/* the peer closed: EOF */
	{
		char c;

		EXPECT_EQ(0, recv(srv, &c, 1, 0));
	}
	close(srv);
}

TEST_F(con, tcp_sendfile)
{
	tcp_consumer(_metadata, self->fd, self->p, 0);
}

TEST_F(con, tcp_splice_from_pipe)
{
	tcp_consumer(_metadata, self->fd, self->p, 1);
}

/*
 * A socket's bytes spliced into a pipe first (skb_splice_bits() builds
 * nosteal buffers whose private field it never sets), then the device's:
 * the device's bytes must land after the socket's, never inside the
 * socket's buffer, and read back as zeros.  The socket holds more
 * non-zero bytes than are spliced, so a device splice that wrongly
 * extended the socket's buffer would expose them.
 */
TEST_F(con, socket_then_device)
{
	enum { SENT = 4096, HLEN = 12 };
	char out[SENT], buf[HLEN + 4097];
	int cli, srv, q[2];
	ssize_t got, n;

	if (tcp_pair(&cli, &srv))
		SKIP(return, "no TCP on 127.0.0.1: %s", strerror(errno));
	ASSERT_EQ(0, zs_pipe(q, 0, 0));
	memset(out, 0xaa, sizeof(out));
	ASSERT_EQ(SENT, send(cli, out, SENT, 0));
	ASSERT_EQ(HLEN, splice(srv, NULL, q[1], NULL, HLEN, 0));
	ASSERT_EQ(1, splice(self->fd, NULL, q[1], NULL, 1, 0));
	ASSERT_EQ(4096, zs_splice_all(self->fd, q[1], 4096, 0));
	EXPECT_EQ(HLEN + 4097, zs_pipe_bytes(q[0]));
	memset(buf, 0x55, sizeof(buf));
	for (got = 0; got < (ssize_t)sizeof(buf); got += n) {
		n = read(q[0], buf + got, sizeof(buf) - got);
		ASSERT_LT(0, n);
	}
	EXPECT_EQ(0, memcmp(buf, out, HLEN));
	EXPECT_EQ(-1, zs_nonzero(buf + HLEN, 4097));
	close(q[0]);
	close(q[1]);
	close(cli);
	close(srv);
}

/*
 * One io_uring splice, waited for at most 30 s: a completion that never
 * comes fails the test instead of hanging it.  The result, or -ETIME.
 */
static int uring_splice(struct io_uring *ring, int in, int64_t off_in, int out,
			int64_t off_out, unsigned int len)
{
	struct __kernel_timespec ts = { .tv_sec = 30 };
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	io_uring_prep_splice(sqe, in, off_in, out, off_out, len, 0);
	if (io_uring_submit(ring) != 1)
		return -EIO;
	ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
	if (ret)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

/* Move len bytes with io_uring splices (short counts are legal). */
static long uring_splice_all(struct io_uring *ring, int in, int out, int64_t off_out,
			     long len)
{
	long done = 0;

	while (done < len) {
		int r = uring_splice(ring, in, -1, out, off_out < 0 ? -1 : off_out + done,
				     len - done);

		if (r <= 0)
			return r < 0 ? r : done;
		done += r;
	}
	return done;
}

TEST_F(con, io_uring_splice)
{
	struct io_uring ring;
	char path[] = "/dev/shm/zsplice_uring.XXXXXX";
	int q[2], f, ret;

	ret = io_uring_queue_init(8, &ring, 0);
	if (ret == -ENOSYS || ret == -EPERM)
		SKIP(return, "io_uring unavailable: %s", strerror(-ret));
	ASSERT_EQ(0, ret);
	/* non-blocking: a pipe that runs dry fails with EAGAIN, never hangs */
	ASSERT_EQ(0, zs_pipe(q, 1 << 20, O_NONBLOCK));
	/* device -> pipe */
	EXPECT_EQ(200001, uring_splice_all(&ring, self->fd, q[1], -1, 200001));
	/* pipe (our buffers) -> pipe */
	EXPECT_EQ(100000, uring_splice_all(&ring, self->p[0], q[1], -1, 100000));
	ASSERT_EQ(300001, zs_pipe_bytes(q[0]));
	/* pipe -> file at an offset */
	f = mkstemp(path);
	ASSERT_LE(0, f);
	unlink(path);
	ASSERT_EQ(300001, uring_splice_all(&ring, q[0], f, 4096, 300001));
	{
		static char buf[300001];

		memset(buf, 7, sizeof(buf));
		ASSERT_EQ((ssize_t)sizeof(buf), pread(f, buf, sizeof(buf), 4096));
		EXPECT_EQ(-1, zs_nonzero(buf, sizeof(buf)));
	}
	/* remaining source-pipe bytes to /dev/null through io_uring */
	{
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		ASSERT_LE(0, null);
		EXPECT_EQ(N_BYTES - 100000,
			  uring_splice_all(&ring, self->p[0], null, -1, N_BYTES - 100000));
		close(null);
	}
	close(f);
	close(q[0]);
	close(q[1]);
	io_uring_queue_exit(&ring);
}

ZS_SKIP_WITHOUT_DEVICES

TEST_HARNESS_MAIN
