/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the zsplice selftests.
 *
 * Environment:
 *   ZSPLICE_DEV, ZSPLICE_FULL_DEV  device paths (default /dev/zsplice,
 *       /dev/fullsplice).  Pointing them at /dev/zero and /dev/full runs
 *       the device-independent parts against mainline ("host mode"): the
 *       mainline devices behave as the "copy" implementation.
 *   ZSPLICE_KO  path of zsplice.ko, for the tests that reload the module.
 */
#ifndef ZSPLICE_UTIL_H
#define ZSPLICE_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <linux/zsplice.h>

#define ZS_MOD_NAME	"zsplice"
#define ZS_PARAM_DIR	"/sys/module/zsplice/parameters/"
#define ZS_DEFAULT_IMPL	ZSPLICE_IMPL_ZEROPAGE
#define ZS_PAGE		4096

/*
 * Add variant DEV_IMPL (e.g. zsplice_FOLIO) to fixture F, whose variant
 * struct has "bool full" and "int impl".  Use after kselftest_harness.h.
 */
#define ZS_DEV_VARIANT(f, dev, isfull, im)				\
	FIXTURE_VARIANT_ADD(f, dev##_##im) {				\
		.full = isfull, .impl = ZSPLICE_IMPL_##im,		\
	}

static const char * const zs_impl_names[] = {
	[ZSPLICE_IMPL_NONE] = "none",
	[ZSPLICE_IMPL_COPY] = "copy",
	[ZSPLICE_IMPL_ZEROPAGE] = "zeropage",
	[ZSPLICE_IMPL_FOLIO] = "folio",
};

static inline const char *zs_dev_path(bool full)
{
	const char *p = getenv(full ? "ZSPLICE_FULL_DEV" : "ZSPLICE_DEV");

	if (p && *p)
		return p;
	return full ? ZSPLICE_FULL_PATH : ZSPLICE_ZERO_PATH;
}

/* The misc device name, for /sys/class/misc/<name>/. */
static inline const char *zs_dev_name(bool full)
{
	return full ? "fullsplice" : "zsplice";
}

/* True when the tests run against something other than the module. */
static inline bool zs_host_mode(void)
{
	return strcmp(zs_dev_path(false), ZSPLICE_ZERO_PATH) != 0;
}

static inline bool zs_module_loaded(void)
{
	return access("/sys/module/" ZS_MOD_NAME, F_OK) == 0;
}

static inline double zs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void zs_msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Open a device and, when impl >= 0, set its per-file implementation.
 * Returns the fd, or -1 with errno set.  In host mode the mainline devices
 * have no ioctl; they count as "copy" (errno EOPNOTSUPP for anything else).
 */
static inline int zs_open_impl(bool full, int flags, int impl)
{
	int fd = open(zs_dev_path(full), flags | O_CLOEXEC);
	__u32 v = impl;

	if (fd < 0 || impl < 0)
		return fd;
	if (ioctl(fd, ZSPLICE_SET_IMPL, &v) == 0)
		return fd;
	if (zs_host_mode() && impl == ZSPLICE_IMPL_COPY) {
		errno = 0;
		return fd;
	}
	close(fd);
	errno = EOPNOTSUPP;
	return -1;
}

/* Read a whole small file into buf (NUL terminated); returns length or -errno. */
static inline int zs_read_file(const char *path, char *buf, size_t size)
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

/* Write a string to a sysfs file in one write(); returns 0 or -errno. */
static inline int zs_write_file(const char *path, const char *s)
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

/* Current module parameter splice_impl as an enum value, -1 if unknown. */
static inline int zs_get_param_impl(void)
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

static inline int zs_set_param_impl(int impl)
{
	return zs_write_file(ZS_PARAM_DIR "splice_impl", zs_impl_names[impl]);
}

/*
 * The number after "<key><sep>" on a line of a small text file (a stats
 * file: sep ' '; /proc/meminfo: sep ':').  -1 when the file or the key is
 * missing.
 */
static inline long long zs_file_key(const char *path, const char *key, char sep)
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

/*
 * One counter from /sys/class/misc/<dev>/stats ("name value" per line).
 * Returns -1 when the file or the key is missing.
 */
static inline long long zs_stat(bool full, const char *key)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/misc/%s/stats", zs_dev_name(full));
	return zs_file_key(path, key, ' ');
}

static inline int zs_stats_reset(bool full, const char *what)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/misc/%s/stats_reset", zs_dev_name(full));
	return zs_write_file(path, what);
}

/* Size in bytes of one folio buffer of the folio implementation. */
static inline long zs_folio_size(void)
{
	char buf[32];
	long long v = zs_stat(false, "folio_size");

	if (v > 0)
		return v;
	if (zs_read_file(ZS_PARAM_DIR "folio_order", buf, sizeof(buf)) > 0)
		return 4096L << atoi(buf);
	return 4096L << 4;
}

/* Index of the first nonzero byte, or -1 if all zero. */
static inline long zs_nonzero(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return i;
	return -1;
}

/* Pipe with capacity size (0: leave default), flags for pipe2. */
static inline int zs_pipe(int fds[2], int size, int flags)
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

/*
 * Read exactly len bytes from fd, checking they are all zero.
 * Returns 0 on success, -1 on short read/error, or 1 + offset of a
 * nonzero byte.
 */
static inline long zs_read_zeros(int fd, size_t len)
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

/* Bytes queued in a pipe. */
static inline int zs_pipe_bytes(int fd)
{
	int n = -1;

	if (ioctl(fd, FIONREAD, &n))
		return -1;
	return n;
}

/* ---- kernel log: look for splats produced during a test ---- */

/* Open /dev/kmsg positioned at its end; -1 if unavailable. */
static inline int zs_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * Scan new kernel log records for signs of a splat; copies the first
 * offending record into out.  Returns true if one was found.  Closes fd.
 */
static inline bool zs_kmsg_splat(int fd, char *out, size_t outlen)
{
	static const char * const bad[] = {
		"BUG:", "WARNING:", "Oops", "general protection", "refcount_t",
		"list_del corruption", "Bad page", "kernel BUG", "UBSAN", "KASAN",
		"page dumped because", "stack segment", "RIP:", "Call Trace",
	};
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

/* ---- module load / unload ---- */

static inline const char *zs_ko_path(void)
{
	const char *p = getenv("ZSPLICE_KO");

	return p && *p ? p : NULL;
}

/* finit_module(ZSPLICE_KO, params), not waiting for the nodes: 0 or -errno. */
static inline int zs_mod_insert(const char *params)
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

/* Load the module with params; returns 0 or -errno.  Waits for the nodes. */
static inline int zs_mod_load(const char *params)
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

/* One delete_module(O_NONBLOCK) attempt: 0 or -errno. */
static inline int zs_mod_delete(void)
{
	if (syscall(SYS_delete_module, ZS_MOD_NAME, O_NONBLOCK))
		return -errno;
	return 0;
}

/*
 * Unload, retrying every poll_ms while busy (EBUSY/EAGAIN) for up to
 * timeout_ms, counting the busy refusals in *busy when busy is not NULL.
 * Returns 0 or the last -errno.
 */
static inline int zs_mod_unload_poll(int timeout_ms, int poll_ms, unsigned long *busy)
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

/* Unload, retrying while busy for up to timeout_ms; returns 0 or -errno. */
static inline int zs_mod_unload(int timeout_ms)
{
	return zs_mod_unload_poll(timeout_ms, 20, NULL);
}

/*
 * Let every CPU run its network receive softirq once.  Since 6.x the
 * network stack frees many skbs on the CPU that allocated them
 * (skb_attempt_defer_free()): after a TCP transfer, skbs whose fragments
 * reference our zero pages can wait on an idle CPU's defer list until that
 * CPU next runs net_rx_action().  A loopback datagram sent from each CPU
 * raises that softirq there, so page references that sockets no longer
 * need are dropped before a test counts them.
 */
static inline void zs_net_flush(void)
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

/* Make sure the module is loaded with default parameters. */
static inline int zs_mod_restore_default(void)
{
	if (zs_module_loaded()) {
		char buf[32];

		if (zs_read_file(ZS_PARAM_DIR "folio_order", buf, sizeof(buf)) > 0 &&
		    atoi(buf) != 4) {
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

#endif /* ZSPLICE_UTIL_H */
