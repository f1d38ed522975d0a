/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the zsplice soak programs: TAP output, sysfs access,
 * module load/unload through the raw syscalls, zero checks.
 */
#ifndef ZSPLICE_SOAK_H
#define ZSPLICE_SOAK_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <linux/zsplice.h>

#define SK_ZERO_DEV	"/dev/zsplice"
#define SK_FULL_DEV	"/dev/fullsplice"
#define SK_PARAM	"/sys/module/zsplice/parameters/splice_impl"
#define SK_MODDIR	"/sys/module/zsplice"

static const char * const sk_impl_names[ZSPLICE_IMPL_COUNT] = {
	"none", "copy", "zeropage", "folio",
};

/* ------------------------------------------------------------------ TAP */
static int sk_test_no;
static int sk_failed;

static inline void sk_plan(int n)
{
	printf("TAP version 13\n1..%d\n", n);
	fflush(stdout);
}

static inline void __attribute__((format(printf, 2, 3)))
sk_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	sk_test_no++;
	if (!ok)
		sk_failed++;
	printf("%sok %d - ", ok ? "" : "not ", sk_test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline void __attribute__((format(printf, 1, 2)))
sk_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline int sk_exit(void)
{
	return sk_failed ? 1 : 0;
}

/* ---------------------------------------------------------------- misc */
static inline double sk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void sk_msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* xorshift64*, per thread state */
static inline uint64_t sk_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* True when all @n bytes at @p are zero. */
static inline bool sk_is_zero(const void *p, size_t n)
{
	const unsigned char *c = p;
	const uint64_t *w;
	size_t i;

	while (n && ((uintptr_t)c & 7)) {
		if (*c++)
			return false;
		n--;
	}
	w = (const uint64_t *)c;
	for (i = 0; i < n / 8; i++)
		if (w[i])
			return false;
	c = (const unsigned char *)(w + n / 8);
	for (i = 0; i < n % 8; i++)
		if (c[i])
			return false;
	return true;
}

/* ---------------------------------------------------------------- sysfs */
/* Read a small file; returns length or -errno. */
static inline int sk_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = 0;
	close(fd);
	return n;
}

/* One write() of @s to @path: 0 or -errno. */
static inline int sk_write_file(const char *path, const char *s)
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

static inline int sk_get_param_impl(void)
{
	char buf[64];
	int i;

	if (sk_read_file(SK_PARAM, buf, sizeof(buf)) <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++)
		if (!strcmp(buf, sk_impl_names[i]))
			return i;
	return -1;
}

static inline int sk_set_param_impl(int impl)
{
	return sk_write_file(SK_PARAM, sk_impl_names[impl]);
}

/* One counter of /sys/class/misc/<dev>/stats, -1 when missing. */
static inline long long sk_stat(const char *dev, const char *key)
{
	char path[128], line[256];
	size_t klen = strlen(key);
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/%s/stats", dev);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			val = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

/* A /proc/meminfo field in kB, -1 when missing. */
static inline long long sk_meminfo(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long long val = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			val = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

/* ------------------------------------------------------------- modules */
static inline bool sk_module_loaded(void)
{
	return access(SK_MODDIR, F_OK) == 0;
}

/* finit_module(ZSPLICE_KO, params): 0 or -errno. */
static inline int sk_load(const char *params)
{
	const char *ko = getenv("ZSPLICE_KO");
	int fd, ret = 0;

	if (!ko || !*ko)
		return -ENOENT;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

/* delete_module("zsplice", O_NONBLOCK): 0 or -errno. */
static inline int sk_unload(void)
{
	if (syscall(SYS_delete_module, "zsplice", O_NONBLOCK))
		return -errno;
	return 0;
}

/*
 * Wait until both device nodes can be opened (devtmpfs creates them
 * asynchronously); true when they could within @ms.
 */
static inline bool sk_wait_devices(unsigned int ms)
{
	double end = sk_now() + ms / 1000.0;

	do {
		int a = open(SK_ZERO_DEV, O_RDONLY | O_CLOEXEC);
		int b = open(SK_FULL_DEV, O_RDONLY | O_CLOEXEC);

		if (a >= 0)
			close(a);
		if (b >= 0)
			close(b);
		if (a >= 0 && b >= 0)
			return true;
		sk_msleep(10);
	} while (sk_now() < end);
	return false;
}

/* Unload, retrying while busy, for up to @ms: 0 or the last -errno. */
static inline int sk_unload_retry(unsigned int ms, unsigned long *busy)
{
	double end = sk_now() + ms / 1000.0;
	int ret;

	for (;;) {
		ret = sk_unload();
		if (ret == 0 || ret == -ENOENT)
			return ret;
		if (ret != -EBUSY && ret != -EAGAIN)
			return ret;
		if (busy)
			(*busy)++;
		if (sk_now() > end)
			return ret;
		sk_msleep(5);
	}
}

/* Set the per-file implementation: 0 or -errno. */
static inline int sk_set_impl(int fd, unsigned int impl)
{
	__u32 v = impl;

	return ioctl(fd, ZSPLICE_SET_IMPL, &v) ? -errno : 0;
}

#endif /* ZSPLICE_SOAK_H */
