// SPDX-License-Identifier: GPL-2.0
/*
 * soak_badinput: every errno the zsplice driver promises, provoked.
 *
 * One TAP result per row of the table below: the call, the errno it must
 * fail with, and, where state could change, a check that it did not.
 * The load-time rows (folio_order=0 and 10) unload the module, try the bad
 * loads, and load it again with its defaults; they need ZSPLICE_KO.
 * Needs root and the module loaded.
 */
#include <sys/mman.h>
#include <sys/uio.h>

#include "soak.h"

#define PIPE_SZ	(64 * 1024)

static char msg[256];

/* Return -errno of a call that returned < 0, or 0 when it succeeded. */
#define ERR(call) ((call) < 0 ? -errno : 0)

static bool want(int got, int want_err)
{
	snprintf(msg, sizeof(msg), "got %s", got ? strerror(-got) : "success");
	return got == -want_err;
}

static bool t_sysfs_bad_name(void)
{
	int before = zs_get_param_impl(), got;

	got = zs_write_file(SK_PARAM, "bogus");
	if (!want(got, EINVAL))
		return false;
	got = zs_write_file(SK_PARAM, "zeropages");
	if (!want(got, EINVAL))
		return false;
	if (zs_get_param_impl() != before) {
		snprintf(msg, sizeof(msg), "splice_impl changed");
		return false;
	}
	return true;
}

static bool t_ioctl_bad_value(void)
{
	static const __u32 bad[] = { ZSPLICE_IMPL_COUNT, 17, 0xffffffffu };
	int fd = zs_open_path_impl(SK_ZERO_DEV, O_RDONLY, ZSPLICE_IMPL_FOLIO);
	unsigned int i;
	__u32 v;
	bool ok = fd >= 0;

	for (i = 0; ok && i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = bad[i];
		ok = want(ERR(ioctl(fd, ZSPLICE_SET_IMPL, &v)), EINVAL);
	}
	if (ok && (ioctl(fd, ZSPLICE_GET_IMPL, &v) || v != ZSPLICE_IMPL_FOLIO)) {
		snprintf(msg, sizeof(msg), "per-file implementation changed to %u", v);
		ok = false;
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

static bool t_ioctl_unknown(void)
{
	static const unsigned long cmds[] = {
		_IO(ZSPLICE_IOC_MAGIC, 0x42), _IOW(ZSPLICE_IOC_MAGIC, 1, __u64),
		_IOR(ZSPLICE_IOC_MAGIC, 2, __u16), _IO('T', 0x7f), 0x12345678,
	};
	bool ok = true;
	unsigned int i;
	int d;

	for (d = 0; ok && d < 2; d++) {
		int fd = open(d ? SK_FULL_DEV : SK_ZERO_DEV, O_RDONLY | O_CLOEXEC);
		__u64 arg = 0;

		for (i = 0; ok && i < sizeof(cmds) / sizeof(cmds[0]); i++)
			ok = want(ERR(ioctl(fd, cmds[i], &arg)), ENOTTY);
		close(fd);
	}
	return ok;
}

static bool t_ioctl_efault(void)
{
	int fd = open(SK_ZERO_DEV, O_RDONLY | O_CLOEXEC);
	bool ok;

	ok = want(ERR(ioctl(fd, ZSPLICE_SET_IMPL, (void *)8)), EFAULT) &&
	     want(ERR(ioctl(fd, ZSPLICE_GET_IMPL, NULL)), EFAULT) &&
	     want(ERR(ioctl(fd, ZSPLICE_GET_IMPL, (void *)-4096L)), EFAULT);
	close(fd);
	return ok;
}

static bool t_full_write(void)
{
	int fd = open(SK_FULL_DEV, O_WRONLY | O_CLOEXEC);
	char b[16] = { 0 };
	struct iovec iov = { b, sizeof(b) };
	bool ok;

	ok = want(ERR(write(fd, b, sizeof(b))), ENOSPC) &&
	     want(ERR(writev(fd, &iov, 1)), ENOSPC) &&
	     want(ERR(pwrite(fd, b, 1, 0)), ENOSPC);
	close(fd);
	return ok;
}

static bool t_full_splice_write(void)
{
	int impl, fd, p[2];
	bool ok = true;

	for (impl = ZSPLICE_IMPL_COPY; ok && impl < ZSPLICE_IMPL_COUNT; impl++) {
		fd = zs_open_path_impl(SK_FULL_DEV, O_WRONLY, impl);
		if (fd < 0 || pipe(p))
			return false;
		if (write(p[1], "\0\0\0\0", 4) != 4)
			return false;
		/* no splice_write, as /dev/full: the splice core says EINVAL */
		ok = want(ERR(splice(p[0], NULL, fd, NULL, 4, 0)), EINVAL);
		close(p[0]);
		close(p[1]);
		close(fd);
	}
	return ok;
}

static bool t_splice_none(void)
{
	int d, p[2];
	bool ok = true;

	for (d = 0; ok && d < 2; d++) {
		int fd = zs_open_path_impl(d ? SK_FULL_DEV : SK_ZERO_DEV, O_RDWR, ZSPLICE_IMPL_NONE);

		if (fd < 0 || pipe(p))
			return false;
		ok = want(ERR(splice(fd, NULL, p[1], NULL, 4096, 0)), EINVAL);
		if (ok && write(p[1], "\0", 1) == 1)
			ok = want(ERR(splice(p[0], NULL, fd, NULL, 1, 0)), EINVAL);
		close(p[0]);
		close(p[1]);
		close(fd);
	}
	/* and through the module parameter */
	if (ok) {
		int before = zs_get_param_impl();
		int fd = open(SK_ZERO_DEV, O_RDONLY | O_CLOEXEC);

		if (pipe(p) || zs_set_param_impl(ZSPLICE_IMPL_NONE))
			return false;
		ok = want(ERR(splice(fd, NULL, p[1], NULL, 4096, 0)), EINVAL);
		zs_set_param_impl(before);
		close(p[0]);
		close(p[1]);
		close(fd);
	}
	return ok;
}

static bool t_mmap_full(void)
{
	int fd = open(SK_FULL_DEV, O_RDWR | O_CLOEXEC);
	void *a = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	void *b;
	bool ok;

	ok = want(a == MAP_FAILED ? -errno : 0, ENODEV);
	b = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok = ok && want(b == MAP_FAILED ? -errno : 0, ENODEV);
	if (a != MAP_FAILED)
		munmap(a, 8192);
	if (b != MAP_FAILED)
		munmap(b, 8192);
	close(fd);
	return ok;
}

static bool t_bad_flags(void)
{
	static const unsigned int flags[] = { 0x10, 0x80, 0x80000000u };
	int impl, p[2];
	unsigned int i;
	bool ok = true;

	for (impl = ZSPLICE_IMPL_COPY; ok && impl < ZSPLICE_IMPL_COUNT; impl++) {
		int fd = zs_open_path_impl(SK_ZERO_DEV, O_RDWR, impl);

		if (fd < 0 || pipe(p))
			return false;
		for (i = 0; ok && i < sizeof(flags) / sizeof(flags[0]); i++)
			ok = want(ERR(splice(fd, NULL, p[1], NULL, 4096, flags[i])), EINVAL);
		close(p[0]);
		close(p[1]);
		close(fd);
	}
	return ok;
}

static bool t_espipe(void)
{
	int fd = zs_open_path_impl(SK_ZERO_DEV, O_RDWR, ZSPLICE_IMPL_ZEROPAGE), p[2];
	loff_t off = 0;
	bool ok;

	if (fd < 0 || pipe(p))
		return false;
	ok = want(ERR(splice(fd, NULL, p[1], &off, 4096, 0)), ESPIPE);
	if (ok && write(p[1], "\0", 1) == 1)
		ok = want(ERR(splice(p[0], &off, fd, NULL, 1, 0)), ESPIPE);
	close(p[0]);
	close(p[1]);
	close(fd);
	return ok;
}

static bool t_eagain(void)
{
	int impl, d, p[2];
	bool ok = true;

	for (impl = ZSPLICE_IMPL_COPY; ok && impl < ZSPLICE_IMPL_COUNT; impl++) {
		for (d = 0; ok && d < 2; d++) {
			int fd = zs_open_path_impl(d ? SK_FULL_DEV : SK_ZERO_DEV, O_RDONLY, impl);
			long total = 0;
			ssize_t n;
			int i;

			if (fd < 0 || pipe2(p, O_NONBLOCK))
				return false;
			fcntl(p[1], F_SETPIPE_SZ, PIPE_SZ);
			/* 2 MiB folios: tens of MiB and thousands of calls */
			for (i = 0; i < 1000000; i++) {
				n = splice(fd, NULL, p[1], NULL, 65536, 0);
				if (n <= 0)
					break;
				total += n;
			}
			ok = want(n < 0 ? -errno : 0, EAGAIN);
			/* SPLICE_F_NONBLOCK on a blocking pipe as well */
			if (ok) {
				fcntl(p[1], F_SETFL, 0);
				ok = want(ERR(splice(fd, NULL, p[1], NULL, 1, SPLICE_F_NONBLOCK)),
					  EAGAIN);
			}
			if (!ok)
				snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
					 " (%s, %ld bytes in)", zs_impl_names[impl], total);
			close(p[0]);
			close(p[1]);
			close(fd);
		}
	}
	return ok;
}

static bool t_stats_reset(void)
{
	static const char *const bad[] = { "2", "0", "abc", "-1" };
	unsigned int i;
	int d;

	for (d = 0; d < 2; d++) {
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if (!want(zs_stats_reset(d, bad[i]), EINVAL)) {
				snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
					 " writing \"%s\"", bad[i]);
				return false;
			}
	}
	return true;
}

/* Loads with a bad folio_order fail with EINVAL; the module then works. */
static int load_rows(void)
{
	char buf[65536];
	int ret, fd, p[2];
	ssize_t n, r;
	bool ok;

	if (!getenv("ZSPLICE_KO")) {
		sk_skip("folio_order=0 at load: EINVAL (ZSPLICE_KO not set)");
		sk_skip("folio_order=10 at load: EINVAL (ZSPLICE_KO not set)");
		sk_skip("module usable after the bad loads (ZSPLICE_KO not set)");
		return 0;
	}
	ret = sk_unload_retry(10000, NULL);
	if (ret && ret != -ENOENT)
		sk_diag("rmmod before the load rows: %s", strerror(-ret));
	sk_result(want(zs_mod_insert("folio_order=0"), EINVAL) && !zs_module_loaded(),
		  "folio_order=0 at load: EINVAL, %s", msg);
	sk_result(want(zs_mod_insert("folio_order=10"), EINVAL) && !zs_module_loaded(),
		  "folio_order=10 at load: EINVAL, %s", msg);
	ret = zs_mod_insert("");
	ok = ret == 0 && sk_wait_devices(10000);
	fd = zs_open_path_impl(SK_ZERO_DEV, O_RDONLY, ZSPLICE_IMPL_FOLIO);
	if (ok && fd >= 0 && pipe(p) == 0) {
		n = splice(fd, NULL, p[1], NULL, sizeof(buf), 0);
		r = n > 0 ? read(p[0], buf, sizeof(buf)) : -1;
		ok = n == sizeof(buf) && r == n && sk_is_zero(buf, r);
		close(p[0]);
		close(p[1]);
	} else {
		ok = false;
	}
	if (fd >= 0)
		close(fd);
	sk_result(ok, "module loads with defaults after the bad loads and splices zeros (%s)",
		  ret ? strerror(-ret) : "ok");
	return 0;
}

static const struct {
	const char *name;
	bool (*fn)(void);
} table[] = {
	{ "EINVAL: unknown name written to splice_impl, value unchanged", t_sysfs_bad_name },
	{ "EINVAL: ZSPLICE_SET_IMPL >= ZSPLICE_IMPL_COUNT, file unchanged", t_ioctl_bad_value },
	{ "ENOTTY: unknown ioctls on both devices", t_ioctl_unknown },
	{ "EFAULT: ZSPLICE_SET_IMPL/GET_IMPL with bad pointers", t_ioctl_efault },
	{ "ENOSPC: write/writev/pwrite to /dev/fullsplice", t_full_write },
	{ "EINVAL: splice into /dev/fullsplice (copy, zeropage, folio), as /dev/full", t_full_splice_write },
	{ "EINVAL: splice either way under none (ioctl and parameter)", t_splice_none },
	{ "ENODEV: mmap of /dev/fullsplice (private, shared)", t_mmap_full },
	{ "EINVAL: invalid splice flags (0x10, 0x80, 0x80000000), every implementation", t_bad_flags },
	{ "ESPIPE: offset on the pipe side of splice", t_espipe },
	{ "EAGAIN: nonblocking full pipe, every implementation, both devices", t_eagain },
	{ "EINVAL: stats_reset with 2, 0, abc, -1", t_stats_reset },
};
#define NROWS (sizeof(table) / sizeof(table[0]))

int main(void)
{
	unsigned int i;

	sk_plan(NROWS + 3);
	if (!zs_module_loaded() && getenv("ZSPLICE_KO")) {
		zs_mod_insert("");
		sk_wait_devices(10000);
	}
	for (i = 0; i < NROWS; i++) {
		bool ok;

		msg[0] = 0;
		ok = table[i].fn();
		sk_result(ok, "%s%s%s", table[i].name, ok ? "" : ": ", ok ? "" : msg);
	}
	load_rows();
	return sk_exit();
}
