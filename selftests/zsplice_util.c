// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the zsplice selftests: see zsplice_util.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "zsplice_util.h"
#include "zsplice_splats.h"

#ifdef ZSPLICE_IMPL_NAMES
const char * const zs_impl_names[ZSPLICE_IMPL_COUNT] = ZSPLICE_IMPL_NAMES;
#else
const char * const zs_impl_names[ZSPLICE_IMPL_COUNT] = {
	[ZSPLICE_IMPL_NONE] = "none",
	[ZSPLICE_IMPL_COPY] = "copy",
	[ZSPLICE_IMPL_ZEROPAGE] = "zeropage",
	[ZSPLICE_IMPL_FOLIO] = "folio",
};
#endif

const char *zs_dev_path(bool full)
{
	const char *p = getenv(full ? "ZSPLICE_FULL" : "ZSPLICE_ZERO");

	return p && *p ? p : full ? ZSPLICE_FULL_PATH : ZSPLICE_ZERO_PATH;
}

const char *zs_ref_path(bool full)
{
	return full ? "/dev/full" : "/dev/zero";
}

int zs_kernel_version(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &maj, &min) != 2)
		return 0;
	return maj * 1000 + min;
}

const char *zs_dev_name(bool full)
{
	return full ? "fullsplice" : "zsplice";
}

bool zs_host_mode(void)
{
	return strcmp(zs_dev_path(false), ZSPLICE_ZERO_PATH) != 0;
}

int zs_mainline_impl(void)
{
	const char *e = getenv("ZSPLICE_MAINLINE_IMPL");
	int i;

	if (e && *e) {
		for (i = 0; i < ZSPLICE_IMPL_COUNT; i++)
			if (!strcmp(e, zs_impl_names[i]))
				return i;
	}
	return zs_kernel_version() >= 6007 ? ZSPLICE_IMPL_COPY : ZSPLICE_IMPL_NONE;
}

bool zs_module_loaded(void)
{
	return access("/sys/module/" ZS_MOD_NAME, F_OK) == 0;
}

double zs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void zs_msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int zs_set_impl(int fd, unsigned int impl)
{
	__u32 v = impl;

	return ioctl(fd, ZSPLICE_SET_IMPL, &v) ? -errno : 0;
}

int zs_open_path_impl(const char *path, int flags, int impl)
{
	int fd = open(path, flags | O_CLOEXEC), err;

	if (fd >= 0 && impl >= 0) {
		err = zs_set_impl(fd, impl);
		if (err) {
			close(fd);
			errno = -err;
			return -1;
		}
	}
	return fd;
}

int zs_open_impl(bool full, int flags, int impl)
{
	int fd = open(zs_dev_path(full), flags | O_CLOEXEC);

	if (fd < 0 || impl < 0)
		return fd;
	if (zs_set_impl(fd, impl) == 0)
		return fd;
	if (zs_host_mode() && impl == zs_mainline_impl()) {
		errno = 0;
		return fd;
	}
	close(fd);
	errno = EOPNOTSUPP;
	return -1;
}

int zs_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	buf[n] = 0;
	close(fd);
	return n;
}

int zs_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(s))
		err = -EIO;
	close(fd);
	return err;
}

int zs_get_param_impl(void)
{
	char buf[64];
	int i;

	if (zs_read_file(ZS_PARAM_DIR "splice_impl", buf, sizeof(buf)) <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++)
		if (!strcmp(buf, zs_impl_names[i]))
			return i;
	return -1;
}

int zs_set_param_impl(int impl)
{
	return zs_write_file(ZS_PARAM_DIR "splice_impl", zs_impl_names[impl]);
}

long long zs_file_key(const char *path, const char *key, char sep)
{
	char line[256];
	long long val = -1;
	size_t klen = strlen(key);
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == sep) {
			val = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

bool zs_debugfs(void)
{
	if (access(ZS_DEBUG_DIR, F_OK) == 0)
		return true;
	if (access(ZS_DEBUGFS "/bdi", F_OK) != 0)
		mount("debugfs", ZS_DEBUGFS, "debugfs", 0, NULL);
	return access(ZS_DEBUG_DIR, F_OK) == 0;
}

void zs_stats_path(char *path, size_t len, bool full, const char *file)
{
	zs_debugfs();
	snprintf(path, len, ZS_DEBUG_DIR "%s/%s", zs_dev_name(full), file);
}

long long zs_stat(bool full, const char *key)
{
	char path[128];

	zs_stats_path(path, sizeof(path), full, "stats");
	return zs_file_key(path, key, ' ');
}

int zs_stats_reset(bool full, const char *what)
{
	char path[128];

	zs_stats_path(path, sizeof(path), full, "stats_reset");
	return zs_write_file(path, what);
}

long zs_selfcheck(char *out, size_t outlen)
{
	char buf[4096];
	long n;
	int r;

	zs_debugfs();
	r = zs_read_file(ZS_SELFCHECK, buf, sizeof(buf));
	if (r < 0) {
		snprintf(out, outlen, "%s: %s", ZS_SELFCHECK, strerror(-r));
		return -2;
	}
	if (sscanf(buf, "ok %ld", &n) == 1 && !strchr(buf, 'c'))
		return n;
	snprintf(out, outlen, "%s", buf);
	return -1;
}

ssize_t zs_splice_all(int in, int out, size_t len, unsigned int flags)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = splice(in, NULL, out, NULL, len - done, flags);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return done ? (ssize_t)done : r;
		done += r;
	}
	return done;
}

int zs_pin_cpu(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

long long zs_zoneinfo_kb(bool with_free)
{
	char line[256];
	long long v, pages = 0;
	FILE *f;

	zs_write_file("/proc/sys/vm/stat_refresh", "1");
	f = fopen("/proc/zoneinfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if ((with_free && sscanf(line, " nr_free_pages %lld", &v) == 1) ||
		    sscanf(line, " count: %lld", &v) == 1)
			pages += v;
	}
	fclose(f);
	return pages * (ZS_PAGE / 1024);
}

long long zs_free_kb(void)
{
	return zs_zoneinfo_kb(true);
}

long long zs_meminfo(const char *key)
{
	return zs_file_key("/proc/meminfo", key, ':');
}

long zs_folio_size(void)
{
	char buf[32];
	long long v = zs_stat(false, "folio_size");

	if (v > 0)
		return v;
	if (zs_read_file(ZS_PARAM_DIR "folio_order", buf, sizeof(buf)) > 0)
		return 4096L << atoi(buf);
	return 4096L << ZS_DEFAULT_ORDER;
}

long zs_nonzero(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return i;
	return -1;
}

int zs_pipe(int fds[2], int size, int flags)
{
	if (pipe2(fds, flags | O_CLOEXEC))
		return -1;
	if (size && fcntl(fds[0], F_SETPIPE_SZ, size) != size) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		errno = e ? e : EINVAL;
		return -1;
	}
	return 0;
}

long zs_read_zeros(int fd, size_t len)
{
	char buf[16384];
	size_t done = 0;

	while (done < len) {
		size_t want = len - done < sizeof(buf) ? len - done : sizeof(buf);
		ssize_t n;
		long bad;

		memset(buf, 0x5a, want);
		n = read(fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		bad = zs_nonzero(buf, n);
		if (bad >= 0)
			return 1 + done + bad;
		done += n;
	}
	return 0;
}

int zs_pipe_bytes(int fd)
{
	int n = -1;

	if (ioctl(fd, FIONREAD, &n))
		return -1;
	return n;
}

int zs_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

bool zs_kmsg_splat(int fd, char *out, size_t outlen)
{
	/* The one list, shared with the rig (zsplice_splats.h). */
	static const char * const bad[] = { ZS_SPLATS_INIT };
	char rec[8192];
	bool found = false;
	unsigned int i;

	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = 0;
		for (i = 0; !found && i < sizeof(bad) / sizeof(bad[0]); i++) {
			if (strstr(rec, bad[i])) {
				found = true;
				snprintf(out, outlen, "%s", rec);
			}
		}
	}
	close(fd);
	return found;
}

const char *zs_ko_path(void)
{
	const char *p = getenv("ZSPLICE_KO");

	return p && *p ? p : NULL;
}

int zs_mod_insert(const char *params)
{
	const char *ko = zs_ko_path();
	int fd, ret = 0;

	if (!ko)
		return -ENOENT;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

int zs_mod_load(const char *params)
{
	int ret = zs_mod_insert(params), i;

	if (ret)
		return ret;
	for (i = 0; i < 200; i++) {
		if (access(ZSPLICE_ZERO_PATH, F_OK) == 0 &&
		    access(ZSPLICE_FULL_PATH, F_OK) == 0)
			return 0;
		zs_msleep(10);
	}
	return -ETIMEDOUT;
}

int zs_mod_delete(void)
{
	if (syscall(SYS_delete_module, ZS_MOD_NAME, O_NONBLOCK))
		return -errno;
	return 0;
}

int zs_mod_unload_poll(int timeout_ms, int poll_ms, unsigned long *busy)
{
	double end = zs_now() + timeout_ms / 1000.0;
	int ret;

	for (;;) {
		ret = zs_mod_delete();
		if (ret != -EBUSY && ret != -EAGAIN)
			return ret;
		if (busy)
			(*busy)++;
		if (zs_now() > end)
			return ret;
		zs_msleep(poll_ms);
	}
}

int zs_mod_unload(int timeout_ms)
{
	return zs_mod_unload_poll(timeout_ms, 20, NULL);
}

void zs_net_flush(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	cpu_set_t old, one;
	char c = 0;
	int s, cpu;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		return;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(s, (struct sockaddr *)&a, &alen)) {
		close(s);
		return;
	}
	for (cpu = 0; cpu < ncpu && cpu < CPU_SETSIZE; cpu++) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		if (sendto(s, &c, 1, 0, (struct sockaddr *)&a, sizeof(a)) == 1)
			recv(s, &c, 1, 0);
	}
	sched_setaffinity(0, sizeof(old), &old);
	close(s);
}

int zs_mod_restore_default(void)
{
	if (zs_module_loaded()) {
		char buf[32];

		if (zs_read_file(ZS_PARAM_DIR "folio_order", buf, sizeof(buf)) > 0 &&
		    atoi(buf) != ZS_DEFAULT_ORDER) {
			int err = zs_mod_unload(5000);

			if (err)
				return err;
		} else {
			return zs_get_param_impl() == ZS_DEFAULT_IMPL ? 0 :
				zs_set_param_impl(ZS_DEFAULT_IMPL);
		}
	}
	return zs_mod_load("");
}
