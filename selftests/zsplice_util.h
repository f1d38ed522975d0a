/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the zsplice selftests (and the soak programs): the
 * declarations; the code is zsplice_util.c, linked into every test.
 *
 * Environment:
 *   ZSPLICE_ZERO, ZSPLICE_FULL  target device paths (default /dev/zsplice,
 *       /dev/fullsplice).  ZSPLICE_ZERO=/dev/zero ZSPLICE_FULL=/dev/full runs
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
 * Fixture variants, after kselftest_harness.h.  Most tests run once per
 * device and splice_read that splices:
 *
 *	ZS_SPLICE_VARIANTS(f);
 *
 * declares FIXTURE_VARIANT(f) { bool full; int impl; } and its variants
 * zsplice_COPY, zsplice_ZEROPAGE, zsplice_FOLIO, fullsplice_COPY,
 * fullsplice_ZEROPAGE and fullsplice_FOLIO.  ZS_VARIANT_STRUCT,
 * ZS_DEV_VARIANTS and ZS_DEV_VARIANT are its parts, for a test that adds
 * NONE; ZS_DEVICE_VARIANTS(f) is one variant per device only.
 */
#define ZS_VARIANT_STRUCT(f)						\
	FIXTURE_VARIANT(f) {						\
		bool full;						\
		int impl;						\
	}

/* Variant DEV_IMPL (e.g. zsplice_FOLIO) of fixture f. */
#define ZS_DEV_VARIANT(f, dev, isfull, im)				\
	FIXTURE_VARIANT_ADD(f, dev##_##im) {				\
		.full = isfull, .impl = ZSPLICE_IMPL_##im,		\
	}

/* The variants of one device: COPY, ZEROPAGE, FOLIO. */
#define ZS_DEV_VARIANTS(f, dev, isfull)					\
	ZS_DEV_VARIANT(f, dev, isfull, COPY);				\
	ZS_DEV_VARIANT(f, dev, isfull, ZEROPAGE);			\
	ZS_DEV_VARIANT(f, dev, isfull, FOLIO)

#define ZS_SPLICE_VARIANTS(f)						\
	ZS_VARIANT_STRUCT(f);						\
	ZS_DEV_VARIANTS(f, zsplice, false);				\
	ZS_DEV_VARIANTS(f, fullsplice, true)

/* Once per device, for the tests that do not splice: zsplice, fullsplice. */
#define ZS_DEVICE_VARIANTS(f)						\
	FIXTURE_VARIANT(f) {						\
		bool full;						\
	};								\
	FIXTURE_VARIANT_ADD(f, zsplice) { .full = false };		\
	FIXTURE_VARIANT_ADD(f, fullsplice) { .full = true }

/* "none", "copy", "zeropage", "folio": the splice_impl parameter's values. */
extern const char * const zs_impl_names[ZSPLICE_IMPL_COUNT];

const char *zs_dev_path(bool full);

/* The running kernel's own device: what "like mainline" compares with. */
const char *zs_ref_path(bool full);

/* Running kernel version as major * 1000 + minor (6012 for 6.12). */
int zs_kernel_version(void);

/* The misc device name, for /sys/class/misc/<name>/. */
const char *zs_dev_name(bool full);

/* True when the tests run against something other than the module. */
bool zs_host_mode(void);

/* SKIP() arguments for a variant the target devices do not implement. */
#define ZS_IMPL_SKIP(full, impl)					\
	"%s implements %s only, not %s", zs_dev_path(full),		\
	zs_impl_names[zs_mainline_impl()], zs_impl_names[impl]

/*
 * In the FIXTURE_SETUP of a ZS_SPLICE_VARIANTS fixture: open the variant's
 * device with FLAGS into self->fd, skipping an implementation the target
 * devices lack.
 */
#define ZS_OPEN_VARIANT(flags) do {					\
	self->fd = zs_open_impl(variant->full, flags, variant->impl);	\
	if (self->fd < 0 && errno == EOPNOTSUPP)			\
		SKIP(return, ZS_IMPL_SKIP(variant->full, variant->impl)); \
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s",			\
				      zs_dev_path(variant->full),	\
				      strerror(errno));			\
} while (0)

#define ZS_NEEDS_MODULE(what)						\
	"%s: only with the zsplice module (target is %s)", what, zs_dev_path(false)

/* In a FIXTURE_SETUP: skip unless the module is loaded and we are root. */
#define ZS_REQUIRE_LOADED_MODULE(what) do {				\
	if (zs_host_mode())						\
		SKIP(return, ZS_NEEDS_MODULE(what));			\
	if (!zs_module_loaded())					\
		SKIP(return, "zsplice module not loaded");		\
	if (geteuid())							\
		SKIP(return, "needs root");				\
} while (0)

/*
 * What the running kernel's /dev/zero and /dev/full do on splice_read:
 * ZSPLICE_MAINLINE_IMPL, else none before v6.7 (EINVAL), copy from v6.7
 * (copy_splice_read, 1b057bd800).
 */
int zs_mainline_impl(void);

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

bool zs_module_loaded(void);
double zs_now(void);
void zs_msleep(unsigned int ms);

/* Set @fd's per-file implementation (ZSPLICE_SET_IMPL): 0 or -errno. */
int zs_set_impl(int fd, unsigned int impl);

/*
 * Open @path and, when @impl >= 0, set its per-file implementation: the
 * fd, or -1 with errno from open or the ioctl.  No host-mode fallback (the
 * soak programs always test the module); zs_open_impl() has one.
 */
int zs_open_path_impl(const char *path, int flags, int impl);

/*
 * Open a device and, when impl >= 0, set its per-file implementation.
 * Returns the fd, or -1 with errno set.  In target mode the devices have
 * no ioctl: they implement zs_mainline_impl() only (errno EOPNOTSUPP for
 * anything else).
 */
int zs_open_impl(bool full, int flags, int impl);

/* Read a whole small file into buf (NUL terminated); returns length or -errno. */
int zs_read_file(const char *path, char *buf, size_t size);

/* Write a string to a sysfs file in one write(); returns 0 or -errno. */
int zs_write_file(const char *path, const char *s);

/* Current module parameter splice_impl as an enum value, -1 if unknown. */
int zs_get_param_impl(void);
int zs_set_param_impl(int impl);

/*
 * The number after "<key><sep>" on a line of a small text file (a stats
 * file: sep ' '; /proc/meminfo: sep ':').  -1 when the file or the key is
 * missing.
 */
long long zs_file_key(const char *path, const char *key, char sep);

/* Mount debugfs if it is not (needs root); true when the zsplice dir is there. */
bool zs_debugfs(void);
void zs_stats_path(char *path, size_t len, bool full, const char *file);

/*
 * One counter from /sys/kernel/debug/zsplice/<dev>/stats ("name value" per
 * line).  Returns -1 when the file or the key is missing.
 */
long long zs_stat(bool full, const char *key);
int zs_stats_reset(bool full, const char *what);

/*
 * Read /sys/kernel/debug/zsplice/selfcheck: the number of zero pages and
 * folios scanned when it says "ok <n>", else -1 with the file's text (the
 * "corrupt ..." lines) in out, or -2 when it cannot be read.
 */
long zs_selfcheck(char *out, size_t outlen);

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
ssize_t zs_splice_all(int in, int out, size_t len, unsigned int flags);

/* Move the calling thread to one CPU; 0 or -1. */
int zs_pin_cpu(int cpu);

/*
 * Sum over /proc/zoneinfo, in kB, after folding the per-CPU vm statistics
 * (/proc/sys/vm/stat_refresh, root): every pageset's count (free pages
 * waiting in per-CPU lists), plus the zones' nr_free_pages when
 * @with_free.  -1 when /proc/zoneinfo cannot be read.
 */
long long zs_zoneinfo_kb(bool with_free);

/*
 * Free memory in kB counting the pages that wait in per-CPU lists: the
 * zones' nr_free_pages plus every pageset's count.  MemAvailable misses
 * pages on per-CPU lists: a freed 2 MiB folio can sit there for many
 * seconds, and an allocation from them moves nothing.
 */
long long zs_free_kb(void);

/* A /proc/meminfo value in kB, -1 if missing. */
long long zs_meminfo(const char *key);

/* Size in bytes of one folio buffer of the folio implementation. */
long zs_folio_size(void);

/* Index of the first nonzero byte, or -1 if all zero. */
long zs_nonzero(const void *buf, size_t len);

/* Pipe with capacity size (0: leave default), flags for pipe2. */
int zs_pipe(int fds[2], int size, int flags);

/*
 * Read exactly len bytes from fd, checking they are all zero.
 * Returns 0 on success, -1 on short read/error, or 1 + offset of a
 * nonzero byte.
 */
long zs_read_zeros(int fd, size_t len);

/* Bytes queued in a pipe. */
int zs_pipe_bytes(int fd);

/* ---- kernel log: look for splats produced during a test ---- */

/* Open /dev/kmsg positioned at its end; -1 if unavailable. */
int zs_kmsg_open(void);

/*
 * Scan new kernel log records for signs of a splat; copies the first
 * offending record into out.  Returns true if one was found.  Closes fd.
 */
bool zs_kmsg_splat(int fd, char *out, size_t outlen);

/* ---- module load / unload ---- */

const char *zs_ko_path(void);

/* finit_module(ZSPLICE_KO, params), not waiting for the nodes: 0 or -errno. */
int zs_mod_insert(const char *params);

/* Load the module with params; returns 0 or -errno.  Waits for the nodes. */
int zs_mod_load(const char *params);

/* One delete_module(O_NONBLOCK) attempt: 0 or -errno. */
int zs_mod_delete(void);

/*
 * Unload, retrying every poll_ms while busy (EBUSY/EAGAIN) for up to
 * timeout_ms, counting the busy refusals in *busy when busy is not NULL.
 * Returns 0 or the last -errno.
 */
int zs_mod_unload_poll(int timeout_ms, int poll_ms, unsigned long *busy);

/* Unload, retrying while busy for up to timeout_ms; returns 0 or -errno. */
int zs_mod_unload(int timeout_ms);

/*
 * Let every CPU run its network receive softirq once.  Since 6.x the
 * network stack frees many skbs on the CPU that allocated them
 * (skb_attempt_defer_free()): after a TCP transfer, skbs whose fragments
 * reference our zero pages can wait on an idle CPU's defer list until that
 * CPU next runs net_rx_action().  A loopback datagram sent from each CPU
 * raises that softirq there, so page references that sockets no longer
 * need are dropped before a test counts them.
 */
void zs_net_flush(void);

/* Make sure the module is loaded with default parameters. */
int zs_mod_restore_default(void);

#endif /* ZSPLICE_UTIL_H */
