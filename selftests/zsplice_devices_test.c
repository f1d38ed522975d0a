// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: the plain file operations of /dev/zsplice and /dev/fullsplice
 * (read, readv, write, lseek, mmap, io_uring read, RWF_NOWAIT), the
 * per-file ioctls, the module parameters and the statistics files in
 * debugfs, with every errno they promise, and the zsplice:splice_read
 * tracepoint's format as libtraceevent reads it.  In target mode (ZSPLICE_ZERO=
 * /dev/zero) the ioctl, parameter and statistics fixtures skip.
 */
#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <liburing.h>

#include "zsplice_util.h"
#include "kselftest_harness.h"

FIXTURE(dev) {
	int fd;
	bool full;
};

ZS_DEVICE_VARIANTS(dev);

FIXTURE_SETUP(dev)
{
	self->full = variant->full;
	self->fd = open(zs_dev_path(variant->full), O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", zs_dev_path(variant->full),
				      strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

TEST_F(dev, node_is_chardev_0666)
{
	struct stat st;

	ASSERT_EQ(0, stat(zs_dev_path(self->full), &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0666, st.st_mode & 07777);
}

TEST_F(dev, read_zeros)
{
	static const size_t sizes[] = { 1, 7, 4095, 4096, 4097, 65536, 65537,
					1 << 20, (1 << 20) + 3 };
	size_t max = (1 << 20) + 3, i;
	char *buf = malloc(max + 1);

	ASSERT_NE(NULL, buf);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(buf, 0xa5, max + 1);
		/* odd start address: not page aligned */
		ASSERT_EQ((ssize_t)sizes[i] - (i & 1),
			  read(self->fd, buf + (i & 1), sizes[i] - (i & 1)));
		EXPECT_EQ(-1, zs_nonzero(buf + (i & 1), sizes[i] - (i & 1)))
			TH_LOG("size %zu", sizes[i]);
		EXPECT_EQ((char)0xa5, buf[(i & 1) + sizes[i] - (i & 1)]);
	}
	EXPECT_EQ(0, read(self->fd, buf, 0));
	free(buf);
}

TEST_F(dev, read_nonblock)
{
	int fd = open(zs_dev_path(self->full), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char buf[8192];

	ASSERT_LE(0, fd);
	memset(buf, 1, sizeof(buf));
	EXPECT_EQ((ssize_t)sizeof(buf), read(fd, buf, sizeof(buf)));
	EXPECT_EQ(-1, zs_nonzero(buf, sizeof(buf)));
	close(fd);
}

TEST_F(dev, readv_zeros)
{
	char a[100], b[5000], c[70000];
	struct iovec iov[4] = {
		{ a, sizeof(a) }, { NULL, 0 }, { b, sizeof(b) }, { c, sizeof(c) },
	};

	memset(a, 1, sizeof(a));
	memset(b, 1, sizeof(b));
	memset(c, 1, sizeof(c));
	ASSERT_EQ((ssize_t)(sizeof(a) + sizeof(b) + sizeof(c)), readv(self->fd, iov, 4));
	EXPECT_EQ(-1, zs_nonzero(a, sizeof(a)));
	EXPECT_EQ(-1, zs_nonzero(b, sizeof(b)));
	EXPECT_EQ(-1, zs_nonzero(c, sizeof(c)));
	/* preadv at an offset, like /dev/zero */
	memset(a, 1, sizeof(a));
	EXPECT_EQ((ssize_t)sizeof(a), preadv(self->fd, iov, 1, 12345));
	EXPECT_EQ(-1, zs_nonzero(a, sizeof(a)));
}

TEST_F(dev, read_bad_pointer_efault)
{
	errno = 0;
	EXPECT_EQ(-1, syscall(SYS_read, self->fd, NULL, 4096));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, syscall(SYS_read, self->fd, (void *)8, 100));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(dev, read_partial_fault)
{
	/* one good page then an unmapped one: the good part is returned */
	char *p = mmap(NULL, 2 * ZS_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	memset(p, 1, ZS_PAGE);
	ASSERT_EQ(0, munmap(p + ZS_PAGE, ZS_PAGE));
	EXPECT_EQ(ZS_PAGE, read(self->fd, p, 2 * ZS_PAGE));
	EXPECT_EQ(-1, zs_nonzero(p, ZS_PAGE));
	munmap(p, ZS_PAGE);
}

TEST_F(dev, write)
{
	char buf[70000];
	struct iovec iov[2] = { { buf, 100 }, { buf, sizeof(buf) } };
	ssize_t n;

	memset(buf, 0x77, sizeof(buf));
	errno = 0;
	n = write(self->fd, buf, sizeof(buf));
	if (self->full) {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(ENOSPC, errno);
		errno = 0;
		EXPECT_EQ(-1, writev(self->fd, iov, 2));
		EXPECT_EQ(ENOSPC, errno);
		errno = 0;
		EXPECT_EQ(-1, write(self->fd, buf, 1));
		EXPECT_EQ(ENOSPC, errno);
	} else {
		EXPECT_EQ((ssize_t)sizeof(buf), n);
		EXPECT_EQ((ssize_t)sizeof(buf) + 100, writev(self->fd, iov, 2));
		EXPECT_EQ(1, write(self->fd, buf, 1));
		EXPECT_EQ(0, write(self->fd, buf, 0));
		/* reading afterwards still gives zeros */
		EXPECT_EQ(100, read(self->fd, buf, 100));
		EXPECT_EQ(-1, zs_nonzero(buf, 100));
	}
}

TEST_F(dev, lseek_stays_zero)
{
	char buf[4096];

	EXPECT_EQ(0, lseek(self->fd, 1000, SEEK_SET));
	EXPECT_EQ(0, lseek(self->fd, 0, SEEK_CUR));
	EXPECT_EQ(0, lseek(self->fd, 5, SEEK_CUR));
	EXPECT_EQ(0, lseek(self->fd, 100, SEEK_END));
	EXPECT_EQ(sizeof(buf), read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(0, lseek(self->fd, 0, SEEK_CUR));
	if (!self->full) {
		EXPECT_EQ(sizeof(buf), write(self->fd, buf, sizeof(buf)));
		EXPECT_EQ(0, lseek(self->fd, 0, SEEK_CUR));
	}
}

/* pread/pwrite behave exactly as on the kernel's own /dev/zero, /dev/full */
TEST_F(dev, pread_pwrite_like_mainline)
{
	int ref = open(self->full ? "/dev/full" : "/dev/zero", O_RDWR | O_CLOEXEC);
	char a[512], b[512];
	ssize_t ra, rb;
	int ea, eb;

	ASSERT_LE(0, ref);
	memset(a, 1, sizeof(a));
	errno = 0;
	ra = pread(self->fd, a, sizeof(a), 1 << 20);
	ea = errno;
	errno = 0;
	rb = pread(ref, b, sizeof(b), 1 << 20);
	eb = errno;
	EXPECT_EQ(rb, ra);
	EXPECT_EQ(eb, ea);
	if (ra > 0)
		EXPECT_EQ(-1, zs_nonzero(a, ra));
	errno = 0;
	ra = pwrite(self->fd, a, sizeof(a), 77);
	ea = errno;
	errno = 0;
	rb = pwrite(ref, b, sizeof(b), 77);
	eb = errno;
	EXPECT_EQ(rb, ra);
	EXPECT_EQ(eb, ea);
	close(ref);
}

/*
 * RWF_NOWAIT: /dev/zsplice has FMODE_NOWAIT like /dev/zero (preadv2 and
 * pwritev2 work); /dev/fullsplice has not, like /dev/full: EOPNOTSUPP.
 * Compared with the kernel's own device in the same run.
 */
TEST_F(dev, rwf_nowait_like_mainline)
{
	int ref = open(zs_ref_path(self->full), O_RDWR | O_CLOEXEC);
	char a[8192], b[8192];
	struct iovec ia = { a, sizeof(a) }, ib = { b, sizeof(b) };
	ssize_t ra, rb;
	int ea, eb, w;

	ASSERT_LE(0, ref);
	for (w = 0; w < 2; w++) {
		memset(a, 1, sizeof(a));
		errno = 0;
		ra = w ? pwritev2(self->fd, &ia, 1, -1, RWF_NOWAIT)
		       : preadv2(self->fd, &ia, 1, -1, RWF_NOWAIT);
		ea = errno;
		errno = 0;
		rb = w ? pwritev2(ref, &ib, 1, -1, RWF_NOWAIT)
		       : preadv2(ref, &ib, 1, -1, RWF_NOWAIT);
		eb = errno;
		TH_LOG("%s RWF_NOWAIT: %s %zd (%s), %s %zd (%s)", w ? "pwritev2" : "preadv2",
		       zs_dev_path(self->full), ra, ra < 0 ? strerror(ea) : "ok",
		       zs_ref_path(self->full), rb, rb < 0 ? strerror(eb) : "ok");
		if (rb < 0) {
			EXPECT_EQ(-1, ra);
			EXPECT_EQ(eb, ea);
		} else {
			/* a NOWAIT read may be short, as on /dev/zero */
			EXPECT_LT(0, ra) TH_LOG("%s", strerror(ea));
			EXPECT_GE((ssize_t)sizeof(a), ra);
			if (!w && ra > 0)
				EXPECT_EQ(-1, zs_nonzero(a, ra));
		}
		if (self->full) {
			EXPECT_EQ(-1, ra);
			EXPECT_EQ(EOPNOTSUPP, ea);
		}
	}
	close(ref);
}

TEST_F(dev, mmap_private)
{
	size_t len = 64 * ZS_PAGE;
	char *p, *q;

	errno = 0;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, self->fd, 0);
	if (self->full) {
		EXPECT_EQ(MAP_FAILED, p);
		EXPECT_EQ(ENODEV, errno);
		return;
	}
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(-1, zs_nonzero(p, len));
	memset(p, 0x3c, len);
	q = mmap(NULL, len, PROT_READ, MAP_PRIVATE, self->fd, 0);
	ASSERT_NE(MAP_FAILED, q);
	/* a private write is not seen by another private mapping */
	EXPECT_EQ(-1, zs_nonzero(q, len));
	EXPECT_EQ(0x3c, p[len - 1]);
	/* nor by the device's reads */
	{
		char buf[4096];

		memset(buf, 1, sizeof(buf));
		EXPECT_EQ(4096, read(self->fd, buf, sizeof(buf)));
		EXPECT_EQ(-1, zs_nonzero(buf, sizeof(buf)));
	}
	munmap(p, len);
	munmap(q, len);
}

TEST_F(dev, mmap_shared)
{
	size_t len = 16 * ZS_PAGE;
	volatile char *p;
	int status;
	pid_t pid;

	errno = 0;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	if (self->full) {
		EXPECT_EQ(MAP_FAILED, p);
		EXPECT_EQ(ENODEV, errno);
		return;
	}
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(-1, zs_nonzero((void *)p, len));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		p[0] = 0x11;
		p[len - 1] = 0x22;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0x11, p[0]);
	EXPECT_EQ(0x22, p[len - 1]);
	/* a new shared mapping is a new object: zeros */
	{
		char *q = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, 0);

		ASSERT_NE(MAP_FAILED, q);
		EXPECT_EQ(-1, zs_nonzero(q, len));
		munmap(q, len);
	}
	munmap((void *)p, len);
}

static int count_iou_workers(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[300], comm[64];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		if (zs_read_file(path, comm, sizeof(comm)) > 0 &&
		    !strncmp(comm, "iou-wrk", 7))
			n++;
	}
	closedir(d);
	return n;
}

/*
 * FMODE_NOWAIT: io_uring reads of /dev/zsplice complete inline, never in
 * io-wq workers.  /dev/fullsplice has no FMODE_NOWAIT, as /dev/full: its
 * reads may be punted to io-wq (logged, not asserted); data is checked.
 */
TEST_F(dev, io_uring_read_inline)
{
	enum { QD = 32, BS = 65536, ROUNDS = 8 };
	struct io_uring ring;
	char *bufs;
	int r, i, ret;

	ret = io_uring_queue_init(QD, &ring, 0);
	if (ret == -ENOSYS || ret == -EPERM)
		SKIP(return, "io_uring unavailable: %s", strerror(-ret));
	ASSERT_EQ(0, ret);
	bufs = malloc((size_t)QD * BS);
	ASSERT_NE(NULL, bufs);
	for (r = 0; r < ROUNDS; r++) {
		memset(bufs, 0x6b, (size_t)QD * BS);
		for (i = 0; i < QD; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			ASSERT_NE(NULL, sqe);
			io_uring_prep_read(sqe, self->fd, bufs + (size_t)i * BS, BS, 0);
			sqe->user_data = i;
		}
		ASSERT_EQ(QD, io_uring_submit(&ring));
		for (i = 0; i < QD; i++) {
			struct __kernel_timespec ts = { .tv_sec = 20 };
			struct io_uring_cqe *cqe;

			/* fail, do not hang, when a completion never comes */
			ASSERT_EQ(0, io_uring_wait_cqe_timeout(&ring, &cqe, &ts));
			/* IOCB_NOWAIT reads may be short, as on /dev/zero */
			EXPECT_LT(0, cqe->res);
			EXPECT_GE(BS, cqe->res);
			if (cqe->res > 0)
				EXPECT_EQ(-1, zs_nonzero(bufs + cqe->user_data * BS, cqe->res));
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	if (self->full) {
		TH_LOG("%s: %d io-wq worker(s), as /dev/full (no FMODE_NOWAIT)",
		       zs_dev_path(true), count_iou_workers());
	} else {
		EXPECT_EQ(0, count_iou_workers()) TH_LOG("io-wq workers were used");
	}
	io_uring_queue_exit(&ring);
	free(bufs);
}

/* ---------------------------------------------------------------- ioctl */

FIXTURE(ioc) {
	int fd;
};

ZS_DEVICE_VARIANTS(ioc);

FIXTURE_SETUP(ioc)
{
	if (zs_host_mode())
		SKIP(return, ZS_NEEDS_MODULE("the per-file ioctls"));
	self->fd = open(zs_dev_path(variant->full), O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(ioc)
{
	if (!zs_host_mode()) {
		close(self->fd);
		zs_set_param_impl(ZS_DEFAULT_IMPL);
	}
}

static int get_impl(int fd)
{
	__u32 v = 0xdeadbeef;

	if (ioctl(fd, ZSPLICE_GET_IMPL, &v))
		return -errno;
	return v;
}

TEST_F(ioc, set_get_clear)
{
	__u32 v;
	int param = zs_get_param_impl();

	ASSERT_LE(0, param);
	EXPECT_EQ(param, get_impl(self->fd));
	for (v = 0; v < ZSPLICE_IMPL_COUNT; v++) {
		EXPECT_EQ(0, ioctl(self->fd, ZSPLICE_SET_IMPL, &v));
		EXPECT_EQ((int)v, get_impl(self->fd));
	}
	EXPECT_EQ(0, ioctl(self->fd, ZSPLICE_CLEAR_IMPL));
	EXPECT_EQ(param, get_impl(self->fd));
	/* clearing twice is fine */
	EXPECT_EQ(0, ioctl(self->fd, ZSPLICE_CLEAR_IMPL));
	EXPECT_EQ(param, get_impl(self->fd));
}

TEST_F(ioc, set_invalid_einval_unchanged)
{
	static const __u32 bad[] = { ZSPLICE_IMPL_COUNT, ZSPLICE_IMPL_COUNT + 1,
				     0x7fffffff, 0x80000000, 0xffffffff };
	__u32 v = ZSPLICE_IMPL_COPY;
	unsigned int i;

	ASSERT_EQ(0, ioctl(self->fd, ZSPLICE_SET_IMPL, &v));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = bad[i];
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, ZSPLICE_SET_IMPL, &v));
		EXPECT_EQ(EINVAL, errno) TH_LOG("value %#x", bad[i]);
		EXPECT_EQ(ZSPLICE_IMPL_COPY, get_impl(self->fd));
	}
	/* an invalid value on a file with no override leaves it following the param */
	ASSERT_EQ(0, ioctl(self->fd, ZSPLICE_CLEAR_IMPL));
	v = ZSPLICE_IMPL_COUNT;
	EXPECT_EQ(-1, ioctl(self->fd, ZSPLICE_SET_IMPL, &v));
	ASSERT_EQ(0, zs_set_param_impl(ZSPLICE_IMPL_FOLIO));
	EXPECT_EQ(ZSPLICE_IMPL_FOLIO, get_impl(self->fd));
}

TEST_F(ioc, unknown_ioctl_enotty)
{
	static const unsigned long bad[] = {
		_IO(ZSPLICE_IOC_MAGIC, 0), _IO(ZSPLICE_IOC_MAGIC, 4),
		_IO(ZSPLICE_IOC_MAGIC, 0xff), _IOW(ZSPLICE_IOC_MAGIC, 1, __u64),
		_IOR(ZSPLICE_IOC_MAGIC, 2, __u64), _IOW(ZSPLICE_IOC_MAGIC, 3, __u32),
		_IOW(ZSPLICE_IOC_MAGIC + 1, 1, __u32), 0x5401 /* TCGETS */,
	};
	char buf[64] = { 0 };
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, bad[i], buf));
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", bad[i]);
	}
	EXPECT_EQ(zs_get_param_impl(), get_impl(self->fd));
}

TEST_F(ioc, bad_pointer_efault)
{
	__u32 v = ZSPLICE_IMPL_COPY;

	ASSERT_EQ(0, ioctl(self->fd, ZSPLICE_SET_IMPL, &v));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ZSPLICE_SET_IMPL, NULL));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ZSPLICE_SET_IMPL, (void *)16));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ZSPLICE_GET_IMPL, NULL));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, ZSPLICE_GET_IMPL, (void *)16));
	EXPECT_EQ(EFAULT, errno);
	/* a read-only page is not writable for GET */
	{
		void *ro = mmap(NULL, ZS_PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ASSERT_NE(MAP_FAILED, ro);
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, ZSPLICE_GET_IMPL, ro));
		EXPECT_EQ(EFAULT, errno);
		munmap(ro, ZS_PAGE);
	}
	EXPECT_EQ(ZSPLICE_IMPL_COPY, get_impl(self->fd));
}

TEST_F(ioc, override_is_per_file)
{
	int other = open(zs_dev_path(false), O_RDONLY | O_CLOEXEC);
	int other_full = open(zs_dev_path(true), O_RDONLY | O_CLOEXEC);
	__u32 v = ZSPLICE_IMPL_NONE;

	ASSERT_LE(0, other);
	ASSERT_LE(0, other_full);
	ASSERT_EQ(0, zs_set_param_impl(ZSPLICE_IMPL_ZEROPAGE));
	ASSERT_EQ(0, ioctl(self->fd, ZSPLICE_SET_IMPL, &v));
	EXPECT_EQ(ZSPLICE_IMPL_NONE, get_impl(self->fd));
	EXPECT_EQ(ZSPLICE_IMPL_ZEROPAGE, get_impl(other));
	EXPECT_EQ(ZSPLICE_IMPL_ZEROPAGE, get_impl(other_full));
	/* the override wins over a later parameter change; others follow it */
	ASSERT_EQ(0, zs_set_param_impl(ZSPLICE_IMPL_COPY));
	EXPECT_EQ(ZSPLICE_IMPL_NONE, get_impl(self->fd));
	EXPECT_EQ(ZSPLICE_IMPL_COPY, get_impl(other));
	EXPECT_EQ(ZSPLICE_IMPL_COPY, get_impl(other_full));
	/* and it governs splice: none gives EINVAL on this file only */
	{
		int p[2];

		ASSERT_EQ(0, zs_pipe(p, 0, O_NONBLOCK));
		errno = 0;
		EXPECT_EQ(-1, splice(self->fd, NULL, p[1], NULL, 100, 0));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(100, splice(other, NULL, p[1], NULL, 100, 0));
		close(p[0]);
		close(p[1]);
	}
	/* a dup shares the open file, and so the override */
	{
		int d = dup(self->fd);

		EXPECT_EQ(ZSPLICE_IMPL_NONE, get_impl(d));
		close(d);
	}
	/* a fresh open starts without an override */
	{
		int n = open(zs_dev_path(false), O_RDONLY | O_CLOEXEC);

		EXPECT_EQ(ZSPLICE_IMPL_COPY, get_impl(n));
		close(n);
	}
	close(other);
	close(other_full);
}

/* ----------------------------------------------------- module parameters */

FIXTURE(param) {
	int dummy;
};

FIXTURE_SETUP(param)
{
	ZS_REQUIRE_LOADED_MODULE("module parameters");
}

FIXTURE_TEARDOWN(param)
{
	if (zs_module_loaded())
		zs_set_param_impl(ZS_DEFAULT_IMPL);
}

TEST_F(param, splice_impl_default_and_format)
{
	char buf[64];
	struct stat st;

	ASSERT_EQ(0, stat(ZS_PARAM_DIR "splice_impl", &st));
	EXPECT_EQ(0644, st.st_mode & 0777);
	ASSERT_LT(0, zs_read_file(ZS_PARAM_DIR "splice_impl", buf, sizeof(buf)));
	EXPECT_STREQ("folio\n", buf);
}

TEST_F(param, splice_impl_set_each)
{
	char buf[64], want[64];
	int i;

	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++) {
		ASSERT_EQ(0, zs_set_param_impl(i)) TH_LOG("%s", zs_impl_names[i]);
		ASSERT_LT(0, zs_read_file(ZS_PARAM_DIR "splice_impl", buf, sizeof(buf)));
		snprintf(want, sizeof(want), "%s\n", zs_impl_names[i]);
		EXPECT_STREQ(want, buf);
	}
	/* "echo copy" writes a trailing newline: accepted */
	ASSERT_EQ(0, zs_write_file(ZS_PARAM_DIR "splice_impl", "copy\n"));
	EXPECT_EQ(ZSPLICE_IMPL_COPY, zs_get_param_impl());
}

TEST_F(param, splice_impl_unknown_einval_unchanged)
{
	static const char * const bad[] = {
		"", "\n", "zero", "zeropages", "COPY", "fol", "4", "2", "none copy",
		"copyx", "-1", "zeropage\nfolio",
	};
	unsigned int i;

	ASSERT_EQ(0, zs_set_param_impl(ZSPLICE_IMPL_FOLIO));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = zs_write_file(ZS_PARAM_DIR "splice_impl", bad[i]);

		/* an empty write may be a no-op (0 bytes) rather than an error */
		if (!*bad[i]) {
			EXPECT_TRUE(err == 0 || err == -EINVAL);
		} else {
			EXPECT_EQ(-EINVAL, err) TH_LOG("\"%s\"", bad[i]);
		}
		EXPECT_EQ(ZSPLICE_IMPL_FOLIO, zs_get_param_impl()) TH_LOG("\"%s\"", bad[i]);
	}
}

TEST_F(param, folio_order_default)
{
	char buf[32];
	struct stat st;

	ASSERT_LT(0, zs_read_file(ZS_PARAM_DIR "folio_order", buf, sizeof(buf)));
	EXPECT_EQ(ZS_DEFAULT_ORDER, atoi(buf));
	/* load-time only: not writable at runtime */
	ASSERT_EQ(0, stat(ZS_PARAM_DIR "folio_order", &st));
	EXPECT_EQ(0444, st.st_mode & 0777);
	EXPECT_EQ(2 << 20, zs_folio_size());
	EXPECT_EQ(2 << 20, zs_stat(false, "folio_size"));
}

/* ------------------------------------------------------------ statistics */

static const char * const dev_keys[] = {
	"read_calls", "read_bytes", "write_calls", "write_bytes",
	"splice_write_calls", "splice_write_bytes",
};

static const char * const impl_keys[] = { "calls", "bytes", "slots", "coalesced_bytes" };

static const char * const global_keys[] = {
	"zeropage_pages", "zeropage_pipe_refs", "folio_folios", "folio_pipe_refs",
	"folio_size", "zeropage_bytes", "folio_bytes", "folio_fallbacks",
};

FIXTURE(stats) {
	int fd;
	bool full;
};

ZS_DEVICE_VARIANTS(stats);

FIXTURE_SETUP(stats)
{
	if (zs_host_mode())
		SKIP(return, ZS_NEEDS_MODULE("statistics"));
	if (!zs_module_loaded())
		SKIP(return, "zsplice module not loaded");
	if (!zs_debugfs())
		SKIP(return, "no " ZS_DEBUG_DIR " (debugfs not mountable?)");
	self->full = variant->full;
	self->fd = open(zs_dev_path(variant->full), O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(stats)
{
	if (zs_module_loaded()) {
		close(self->fd);
		zs_set_param_impl(ZS_DEFAULT_IMPL);
	}
}

TEST_F(stats, files_and_keys)
{
	char path[128], key[64];
	struct stat st;
	unsigned int i, j;

	zs_stats_path(path, sizeof(path), self->full, "stats");
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0, st.st_mode & 0222) TH_LOG("stats is writable");
	zs_stats_path(path, sizeof(path), self->full, "stats_reset");
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_NE(0, st.st_mode & 0200);
	ASSERT_EQ(0, stat(ZS_SELFCHECK, &st));
	/* the old sysfs file is gone */
	snprintf(path, sizeof(path), "/sys/class/misc/%s/stats", zs_dev_name(self->full));
	EXPECT_NE(0, access(path, F_OK));
	for (i = 0; i < sizeof(dev_keys) / sizeof(dev_keys[0]); i++)
		EXPECT_LE(0, zs_stat(self->full, dev_keys[i])) TH_LOG("%s", dev_keys[i]);
	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++) {
		for (j = 0; j < 4; j++) {
			snprintf(key, sizeof(key), "splice_%s_%s", zs_impl_names[i], impl_keys[j]);
			EXPECT_LE(0, zs_stat(self->full, key)) TH_LOG("%s", key);
		}
	}
	for (i = 0; i < sizeof(global_keys) / sizeof(global_keys[0]); i++)
		EXPECT_LE(0, zs_stat(self->full, global_keys[i])) TH_LOG("%s", global_keys[i]);
}

TEST_F(stats, read_write_counters)
{
	char buf[10000];
	long long rc = zs_stat(self->full, "read_calls");
	long long rb = zs_stat(self->full, "read_bytes");
	long long wc = zs_stat(self->full, "write_calls");
	long long wb = zs_stat(self->full, "write_bytes");

	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(123, read(self->fd, buf, 123));
	EXPECT_EQ(rc + 2, zs_stat(self->full, "read_calls"));
	EXPECT_EQ(rb + (long long)sizeof(buf) + 123, zs_stat(self->full, "read_bytes"));
	if (!self->full) {
		ASSERT_EQ(777, write(self->fd, buf, 777));
		EXPECT_EQ(wc + 1, zs_stat(self->full, "write_calls"));
		EXPECT_EQ(wb + 777, zs_stat(self->full, "write_bytes"));
	} else {
		EXPECT_EQ(-1, write(self->fd, buf, 777));
		EXPECT_LE(wc, zs_stat(self->full, "write_calls"));
		EXPECT_EQ(wb, zs_stat(self->full, "write_bytes"));
	}
}

TEST_F(stats, splice_write_counters)
{
	long long c = zs_stat(self->full, "splice_write_calls");
	long long b = zs_stat(self->full, "splice_write_bytes");
	char buf[3000] = { 1 };
	int p[2];

	ASSERT_EQ(0, zs_pipe(p, 0, 0));
	ASSERT_EQ(3000, write(p[1], buf, sizeof(buf)));
	if (self->full) {
		/* no splice_write, as /dev/full: EINVAL before the driver is called */
		errno = 0;
		EXPECT_EQ(-1, splice(p[0], NULL, self->fd, NULL, 3000, 0));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(c, zs_stat(self->full, "splice_write_calls"));
		EXPECT_EQ(b, zs_stat(self->full, "splice_write_bytes"));
	} else {
		EXPECT_EQ(3000, splice(p[0], NULL, self->fd, NULL, 3000, 0));
		EXPECT_EQ(c + 1, zs_stat(self->full, "splice_write_calls"));
		EXPECT_EQ(b + 3000, zs_stat(self->full, "splice_write_bytes"));
	}
	close(p[0]);
	close(p[1]);
}

/* calls/bytes/slots/coalesced for each implementation, and the other device untouched */
TEST_F(stats, splice_read_counters)
{
	int impl;

	for (impl = ZSPLICE_IMPL_NONE; impl < ZSPLICE_IMPL_COUNT; impl++) {
		long long v0[4], v1[4], o0, o1;
		char key[64];
		int p[2], fd, j;
		bool coalesce = impl >= ZSPLICE_IMPL_ZEROPAGE;

		for (j = 0; j < 4; j++) {
			snprintf(key, sizeof(key), "splice_%s_%s", zs_impl_names[impl], impl_keys[j]);
			v0[j] = zs_stat(self->full, key);
		}
		snprintf(key, sizeof(key), "splice_%s_bytes", zs_impl_names[impl]);
		o0 = zs_stat(!self->full, key);
		fd = zs_open_impl(self->full, O_RDONLY, impl);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, zs_pipe(p, 0, O_NONBLOCK));
		if (impl == ZSPLICE_IMPL_NONE) {
			EXPECT_EQ(-1, splice(fd, NULL, p[1], NULL, 100, 0));
		} else {
			EXPECT_EQ(100, splice(fd, NULL, p[1], NULL, 100, 0));
			EXPECT_EQ(100, splice(fd, NULL, p[1], NULL, 100, 0));
		}
		for (j = 0; j < 4; j++) {
			snprintf(key, sizeof(key), "splice_%s_%s", zs_impl_names[impl], impl_keys[j]);
			v1[j] = zs_stat(self->full, key);
		}
		snprintf(key, sizeof(key), "splice_%s_bytes", zs_impl_names[impl]);
		o1 = zs_stat(!self->full, key);
		if (impl == ZSPLICE_IMPL_NONE) {
			EXPECT_EQ(v0[1], v1[1]);
			EXPECT_EQ(v0[2], v1[2]);
		} else {
			EXPECT_EQ(v0[0] + 2, v1[0]) TH_LOG("%s calls", zs_impl_names[impl]);
			EXPECT_EQ(v0[1] + 200, v1[1]) TH_LOG("%s bytes", zs_impl_names[impl]);
			EXPECT_EQ(v0[2] + (coalesce ? 1 : 2), v1[2])
				TH_LOG("%s slots", zs_impl_names[impl]);
			EXPECT_EQ(v0[3] + (coalesce ? 100 : 0), v1[3])
				TH_LOG("%s coalesced", zs_impl_names[impl]);
		}
		EXPECT_EQ(o0, o1) TH_LOG("other device's counters moved");
		close(p[0]);
		close(p[1]);
		close(fd);
	}
}

static long long wait_stat(bool full, const char *key, long long want)
{
	long long v = -1;
	int i;

	for (i = 0; i < 100; i++) {
		zs_net_flush();
		v = zs_stat(full, key);
		if (v == want)
			break;
		zs_msleep(10);
	}
	return v;
}

/* references held by pipes rise while a pipe holds buffers, fall to 0 after */
TEST_F(stats, pipe_refs_follow_pipes)
{
	static const struct { int impl; const char *key; } c[] = {
		{ ZSPLICE_IMPL_ZEROPAGE, "zeropage_pipe_refs" },
		{ ZSPLICE_IMPL_FOLIO, "folio_pipe_refs" },
	};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		int fd = zs_open_impl(self->full, O_RDONLY, c[i].impl);
		long long base, held;
		int p[2], q[2];

		ASSERT_LE(0, fd);
		base = wait_stat(self->full, c[i].key, 0);
		EXPECT_EQ(0, base) TH_LOG("%s not 0 at start", c[i].key);
		ASSERT_EQ(0, zs_pipe(p, 1 << 20, O_NONBLOCK));
		ASSERT_EQ(0, zs_pipe(q, 1 << 20, O_NONBLOCK));
		ASSERT_EQ(1 << 19, splice(fd, NULL, p[1], NULL, 1 << 19, 0));
		held = zs_stat(self->full, c[i].key);
		EXPECT_LT(base, held) TH_LOG("%s", c[i].key);
		/* the counter is module-wide: the other device sees it too */
		EXPECT_EQ(held, zs_stat(!self->full, c[i].key));
		/* tee takes more references */
		ASSERT_EQ(1 << 19, tee(p[0], q[1], 1 << 19, 0));
		EXPECT_LT(held, zs_stat(self->full, c[i].key)) TH_LOG("%s after tee", c[i].key);
		close(fd);
		/* still held with the device closed */
		EXPECT_LT(base, zs_stat(self->full, c[i].key));
		close(p[0]);
		close(p[1]);
		EXPECT_LT(base, zs_stat(self->full, c[i].key));
		ASSERT_EQ(0, zs_read_zeros(q[0], 1 << 19));
		EXPECT_EQ(base, wait_stat(self->full, c[i].key, base)) TH_LOG("%s leak", c[i].key);
		close(q[0]);
		close(q[1]);
		EXPECT_EQ(0, wait_stat(self->full, c[i].key, 0)) TH_LOG("%s leak", c[i].key);
	}
	/* allocated on first use: now there are some, and the bytes match */
	EXPECT_LT(0, zs_stat(self->full, "zeropage_pages"));
	EXPECT_LT(0, zs_stat(self->full, "folio_folios"));
	EXPECT_EQ(zs_stat(self->full, "zeropage_pages") * ZS_PAGE,
		  zs_stat(self->full, "zeropage_bytes"));
	EXPECT_EQ(zs_stat(self->full, "folio_folios") * zs_stat(self->full, "folio_size"),
		  zs_stat(self->full, "folio_bytes"));
}

TEST_F(stats, reset)
{
	char buf[100];
	int p[2], fd;
	long long other;

	ASSERT_EQ(100, read(self->fd, buf, 100));
	fd = zs_open_impl(self->full, O_RDONLY, ZSPLICE_IMPL_COPY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, zs_pipe(p, 0, O_NONBLOCK));
	ASSERT_EQ(10, splice(fd, NULL, p[1], NULL, 10, 0));
	close(fd);
	EXPECT_LT(0, zs_stat(self->full, "read_calls"));
	ASSERT_EQ(100, read(self->fd, buf, 100));
	/* the other device keeps its counters */
	{
		int ofd = open(zs_dev_path(!self->full), O_RDONLY | O_CLOEXEC);

		ASSERT_LE(0, ofd);
		ASSERT_EQ(100, read(ofd, buf, 100));
		close(ofd);
	}
	other = zs_stat(!self->full, "read_calls");
	ASSERT_EQ(0, zs_stats_reset(self->full, "1"));
	EXPECT_EQ(0, zs_stat(self->full, "read_calls"));
	EXPECT_EQ(0, zs_stat(self->full, "read_bytes"));
	EXPECT_EQ(0, zs_stat(self->full, "splice_copy_calls"));
	EXPECT_EQ(0, zs_stat(self->full, "splice_copy_bytes"));
	EXPECT_EQ(0, zs_stat(self->full, "splice_copy_slots"));
	EXPECT_EQ(other, zs_stat(!self->full, "read_calls"));
	/* "echo 1" */
	ASSERT_EQ(100, read(self->fd, buf, 100));
	EXPECT_EQ(0, zs_stats_reset(self->full, "1\n"));
	EXPECT_EQ(0, zs_stat(self->full, "read_calls"));
	close(p[0]);
	close(p[1]);
}

TEST_F(stats, reset_bad_input_einval)
{
	static const char * const bad[] = { "0", "2", "yes", "11", "-1", "1 1", "x" };
	char buf[100];
	unsigned int i;
	long long rc;

	ASSERT_EQ(100, read(self->fd, buf, 100));
	rc = zs_stat(self->full, "read_calls");
	ASSERT_LT(0, rc);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, zs_stats_reset(self->full, bad[i])) TH_LOG("\"%s\"", bad[i]);
		EXPECT_EQ(rc, zs_stat(self->full, "read_calls"));
	}
	/* read-only for users: the stats file itself can't be written */
	{
		char path[128];

		zs_stats_path(path, sizeof(path), self->full, "stats");
		EXPECT_NE(0, zs_write_file(path, "1"));
	}
}

/* ------------------------------------------------------------ tracepoint */

#define ZS_TRACEFS	"/sys/kernel/tracing"
#define ZS_EVENT	ZS_TRACEFS "/events/zsplice/splice_read"

/*
 * The value of one { VALUE, "name" } pair of __print_symbolic() in
 * @fmt, the way libtraceevent reads it: VALUE must be a number; an
 * identifier (an enum the kernel did not export with TRACE_DEFINE_ENUM)
 * leaves perf and trace-cmd unable to map the field.  -1: @name absent;
 * -2: present but not a number.
 */
static long symbolic_value(const char *fmt, const char *name)
{
	char quoted[64], *end;
	const char *q, *v;
	long val;

	snprintf(quoted, sizeof(quoted), "\"%s\" }", name);
	q = strstr(fmt, quoted);
	if (!q)
		return -1;
	for (v = q; v > fmt && *v != '{'; v--)
		;
	v++;
	while (*v == ' ')
		v++;
	val = strtol(v, &end, 0);
	if (end == v)
		return -2;
	while (*end == ' ')
		end++;
	return *end == ',' && end + 2 == q ? val : -2;
}

/*
 * zsplice:splice_read: its format file names every device and
 * implementation with a number libtraceevent can map, and the text trace
 * of one splice per implementation names them.
 */
TEST(trace_event_symbols_resolve)
{
	static const char * const devs[] = { "zsplice", "fullsplice" };
	char fmt[8192], line[512];
	int impl, fd, p[2];
	unsigned int i;
	FILE *f;
	bool seen[ZSPLICE_IMPL_COUNT] = { false };

	if (zs_host_mode())
		SKIP(return, ZS_NEEDS_MODULE("the zsplice:splice_read tracepoint"));
	if (access(ZS_EVENT "/format", R_OK))
		SKIP(return, "%s/format: %s (tracefs not mounted?)", ZS_EVENT, strerror(errno));
	ASSERT_LT(0, zs_read_file(ZS_EVENT "/format", fmt, sizeof(fmt)));
	TH_LOG("%s", strstr(fmt, "print fmt:") ?: fmt);
	for (i = 0; i < ZS_ARRAY_SIZE(devs); i++) {
		EXPECT_EQ((long)i, symbolic_value(fmt, devs[i]))
			TH_LOG("device %s", devs[i]);
	}
	for (impl = 0; impl < ZSPLICE_IMPL_COUNT; impl++) {
		EXPECT_EQ(impl, symbolic_value(fmt, zs_impl_names[impl]))
			TH_LOG("implementation %s", zs_impl_names[impl]);
	}

	ASSERT_EQ(0, zs_write_file(ZS_TRACEFS "/trace", ""));
	ASSERT_EQ(0, zs_write_file(ZS_EVENT "/enable", "1"));
	for (impl = 0; impl < ZSPLICE_IMPL_COUNT; impl++) {
		fd = zs_open_impl(false, O_RDONLY, impl);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, zs_pipe(p, 0, O_NONBLOCK));
		splice(fd, NULL, p[1], NULL, 1, 0);
		close(p[0]);
		close(p[1]);
		close(fd);
	}
	ASSERT_EQ(0, zs_write_file(ZS_EVENT "/enable", "0"));
	f = fopen(ZS_TRACEFS "/trace", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		for (impl = 0; impl < ZSPLICE_IMPL_COUNT; impl++) {
			char want[64];

			snprintf(want, sizeof(want), "dev=zsplice impl=%s len=1 ",
				 zs_impl_names[impl]);
			if (strstr(line, want))
				seen[impl] = true;
		}
	}
	fclose(f);
	for (impl = 0; impl < ZSPLICE_IMPL_COUNT; impl++) {
		EXPECT_TRUE(seen[impl])
			TH_LOG("no trace line for %s", zs_impl_names[impl]);
	}
}

ZS_SKIP_WITHOUT_DEVICES

TEST_HARNESS_MAIN
