/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the zsplice selftests.
 *
 * Environment:
 *   ZSPLICE_ZERO, ZSPLICE_FULL  target device paths (default /dev/zsplice,
 *       /dev/fullsplice; the older names ZSPLICE_DEV, ZSPLICE_FULL_DEV
 *       work too).  ZSPLICE_ZERO=/dev/zero ZSPLICE_FULL=/dev/full runs
 *       every test that does not need the module against the kernel's own
 *       devices ("target mode"); the rest skip, saying why.
 *   ZSPLICE_MAINLINE_IMPL  what the running kernel's /dev/zero does on
 *       splice_read: none, copy, zeropage or folio.  Default from the
 *       kernel version: none before 6.7 (no splice_read, EINVAL), copy
 *       from 6.7 (copy_splice_read).  A kernel carrying the mem.c series
 *       sets it (zeropage).  In target mode only the variants of that
 *       implementation run.
 *   ZSPLICE_KO  path of zsplice.ko, for the tests that reload the module.
 *
 * The module's statistics are in debugfs: /sys/kernel/debug/zsplice/<dev>/
 * stats and stats_reset, /sys/kernel/debug/zsplice/selfcheck.
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
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <linux/zsplice.h>

#include "zsplice_splats.h"

#define ZS_MOD_NAME	"zsplice"
#define ZS_PARAM_DIR	"/sys/module/zsplice/parameters/"
#define ZS_DEBUGFS	"/sys/kernel/debug"
#define ZS_DEBUG_DIR	ZS_DEBUGFS "/zsplice/"
#define ZS_SELFCHECK	ZS_DEBUG_DIR "selfcheck"
#define ZS_DEFAULT_IMPL	ZSPLICE_IMPL_FOLIO
#define ZS_DEFAULT_ORDER 9
#define ZS_PAGE		4096
/* Most bytes one pipe may hold from zsplice (ZS_PIPE_MAX_BYTES). */
#define ZS_PIPE_CAP	(1L << 30)

#define ZS_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Add variant DEV_IMPL (e.g. zsplice_FOLIO) to fixture F, whose variant
 * struct has "bool full" and "int impl".  Use after kselftest_harness.h.
 */
#define ZS_DEV_VARIANT(f, dev, isfull, im)				\
	FIXTURE_VARIANT_ADD(f, dev##_##im) {				\
		.full = isfull, .impl = ZSPLICE_IMPL_##im,		\
	}

#ifdef ZSPLICE_IMPL_NAMES
static const char * const zs_impl_names[ZSPLICE_IMPL_COUNT] = ZSPLICE_IMPL_NAMES;
#else
static const char * const zs_impl_names[] = {
	[ZSPLICE_IMPL_NONE] = "none",
	[ZSPLICE_IMPL_COPY] = "copy",
	[ZSPLICE_IMPL_ZEROPAGE] = "zeropage",
	[ZSPLICE_IMPL_FOLIO] = "folio",
};
#endif

static inline const char *zs_env2(const char *a, const char *b)
{
	const char *p = getenv(a);

	if (p && *p)
		return p;
	p = getenv(b);
	return p && *p ? p : NULL;
}

static inline const char *zs_dev_path(bool full)
{
	const char *p = full ? zs_env2("ZSPLICE_FULL", "ZSPLICE_FULL_DEV") :
			       zs_env2("ZSPLICE_ZERO", "ZSPLICE_DEV");

	return p ? p : full ? ZSPLICE_FULL_PATH : ZSPLICE_ZERO_PATH;
}

/* The running kernel's own device: what "like mainline" compares with. */
static inline const char *zs_ref_path(bool full)
{
	return full ? "/dev/full" : "/dev/zero";
}

/* Running kernel version as major * 1000 + minor (6012 for 6.12). */
static inline int zs_kernel_version(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &maj, &min) != 2)
		return 0;
	return maj * 1000 + min;
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

/* SKIP() arguments for a variant the target devices do not implement. */
#define ZS_IMPL_SKIP(full, impl)					\
	"%s implements %s only, not %s", zs_dev_path(full),		\
	zs_impl_names[zs_mainline_impl()], zs_impl_names[impl]

#define ZS_NEEDS_MODULE(what)						\
	"%s: only with the zsplice module (target is %s)", what, zs_dev_path(false)

/*
 * What the running kernel's /dev/zero and /dev/full do on splice_read:
 * ZSPLICE_MAINLINE_IMPL, else none before v6.7 (EINVAL), copy from v6.7
 * (copy_splice_read, 1b057bd800).
 */
static inline int zs_mainline_impl(void)
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

/*
 * kselftest convention: a program whose devices are absent (the module not
 * loaded, or a ZSPLICE_ZERO / ZSPLICE_FULL path that does not exist) skips
 * as a whole, KSFT_SKIP and "1..0 # SKIP", instead of failing every case.
 * The rig loads the module before the programs and fails its own load step
 * when that does not work, so this skip cannot hide a driver that did not
 * load there.  Placed once per program, like TEST_HARNESS_MAIN; needs
 * kselftest.h (kselftest_harness.h includes it).
 */
#define ZS_SKIP_WITHOUT_DEVICES						\
	static void __attribute__((constructor)) zs_skip_without_devices(void) \
	{								\
		const char *zero = zs_dev_path(false);			\
		const char *full = zs_dev_path(true);			\
									\
		if (access(zero, F_OK) == 0 && access(full, F_OK) == 0)	\
			return;						\
		ksft_print_header();					\
		ksft_exit_skip("%s or %s does not exist: modprobe %s, "	\
			       "or ZSPLICE_ZERO=/dev/zero ZSPLICE_FULL=/dev/full " \
			       "for the kernel's own devices\n",	\
			       zero, full, ZS_MOD_NAME);		\
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

/* Set @fd's per-file implementation (ZSPLICE_SET_IMPL): 0 or -errno. */
static inline int zs_set_impl(int fd, unsigned int impl)
{
	__u32 v = impl;

	return ioctl(fd, ZSPLICE_SET_IMPL, &v) ? -errno : 0;
}

/*
 * Open @path and, when @impl >= 0, set its per-file implementation: the
 * fd, or -1 with errno from open or the ioctl.  No host-mode fallback (the
 * soak programs always test the module); zs_open_impl() has one.
 */
static inline int zs_open_path_impl(const char *path, int flags, int impl)
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

/*
 * Open a device and, when impl >= 0, set its per-file implementation.
 * Returns the fd, or -1 with errno set.  In target mode the devices have
 * no ioctl: they implement zs_mainline_impl() only (errno EOPNOTSUPP for
 * anything else).
 */
static inline int zs_open_impl(bool full, int flags, int impl)
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

/* Mount debugfs if it is not (needs root); true when the zsplice dir is there. */
static inline bool zs_debugfs(void)
{
	if (access(ZS_DEBUG_DIR, F_OK) == 0)
		return true;
	if (access(ZS_DEBUGFS "/bdi", F_OK) != 0)
		mount("debugfs", ZS_DEBUGFS, "debugfs", 0, NULL);
	return access(ZS_DEBUG_DIR, F_OK) == 0;
}

static inline void zs_stats_path(char *path, size_t len, bool full, const char *file)
{
	zs_debugfs();
	snprintf(path, len, ZS_DEBUG_DIR "%s/%s", zs_dev_name(full), file);
}

/*
 * One counter from /sys/kernel/debug/zsplice/<dev>/stats ("name value" per
 * line).  Returns -1 when the file or the key is missing.
 */
static inline long long zs_stat(bool full, const char *key)
{
	char path[128];

	zs_stats_path(path, sizeof(path), full, "stats");
	return zs_file_key(path, key, ' ');
}

static inline int zs_stats_reset(bool full, const char *what)
{
	char path[128];

	zs_stats_path(path, sizeof(path), full, "stats_reset");
	return zs_write_file(path, what);
}

/*
 * Read /sys/kernel/debug/zsplice/selfcheck: the number of zero pages and
 * folios scanned when it says "ok <n>", else -1 with the file's text (the
 * "corrupt ..." lines) in out, or -2 when it cannot be read.
 */
static inline long zs_selfcheck(char *out, size_t outlen)
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

/*
 * In a kselftest case: fail the case (not abort it) when the module's
 * self-check finds a zero page or folio that is not all zeros, so that the
 * case that wrote into one is the one that fails.  Nothing in host mode
 * (the kernel's own /dev/zero has no self-check).  A macro, because the
 * harness's EXPECT_* need the case's _metadata.
 */
#define ZS_EXPECT_SELFCHECK(where) do {					\
	char _zs_sc[4096];						\
									\
	if (!zs_host_mode())						\
		EXPECT_LE(0, zs_selfcheck(_zs_sc, sizeof(_zs_sc)))	\
			TH_LOG("%s: selfcheck: %s", where, _zs_sc);	\
} while (0)

/*
 * splice() until len bytes moved (short counts are legal: copy_splice_read
 * may return a page at a time), an error, or EOF.  Returns the bytes
 * moved, or -1 with errno when the first call fails.
 */
static inline ssize_t zs_splice_all(int in, int out, size_t len, unsigned int flags)
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

/* Move the calling thread to one CPU; 0 or -1. */
static inline int zs_pin_cpu(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

/*
 * Sum over /proc/zoneinfo, in kB, after folding the per-CPU vm statistics
 * (/proc/sys/vm/stat_refresh, root): every pageset's count (free pages
 * waiting in per-CPU lists), plus the zones' nr_free_pages when
 * @with_free.  -1 when /proc/zoneinfo cannot be read.
 */
static inline long long zs_zoneinfo_kb(bool with_free)
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

/*
 * Free memory in kB counting the pages that wait in per-CPU lists: the
 * zones' nr_free_pages plus every pageset's count.  MemAvailable misses
 * pages on per-CPU lists: a freed 2 MiB folio can sit there for many
 * seconds, and an allocation from them moves nothing.
 */
static inline long long zs_free_kb(void)
{
	return zs_zoneinfo_kb(true);
}

/* A /proc/meminfo value in kB, -1 if missing. */
static inline long long zs_meminfo(const char *key)
{
	return zs_file_key("/proc/meminfo", key, ':');
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
	return 4096L << ZS_DEFAULT_ORDER;
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

#endif /* ZSPLICE_UTIL_H */
