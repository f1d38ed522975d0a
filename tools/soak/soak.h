/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the zsplice soak programs: KTAP output (kselftest.h), random
 * numbers, zero checks, and the few places where the soak differs from the selftests'
 * zsplice_util.h (sysfs, stats, module load/unload), which it builds on.
 * Unlike the selftests, the soak always uses the module's device nodes
 * (no ZSPLICE_ZERO/ZSPLICE_FULL target mode).
 */
#ifndef ZSPLICE_SOAK_H
#define ZSPLICE_SOAK_H

#include <stdarg.h>
#include <stdint.h>

#include "zsplice_util.h"
#include "kselftest.h"

#define SK_ZERO_DEV	ZSPLICE_ZERO_PATH
#define SK_FULL_DEV	ZSPLICE_FULL_PATH
#define SK_PARAM	ZS_PARAM_DIR "splice_impl"

/* ----------------------------------------------------------------- KTAP */
/*
 * Results through the kernel's kselftest.h (its header sets stdout line
 * buffered, so each result reaches the guest console as it comes).  The
 * messages take no trailing newline.
 */
static inline void sk_plan(int n)
{
	ksft_print_header();
	ksft_set_plan(n);
}

#define sk_result(ok, fmt, ...) ksft_test_result(ok, fmt "\n", ##__VA_ARGS__)
#define sk_skip(fmt, ...) ksft_test_result_skip(fmt "\n", ##__VA_ARGS__)
#define sk_diag(fmt, ...) ksft_print_msg(fmt "\n", ##__VA_ARGS__)

/* The exit status: KSFT_FAIL when any result failed, after the totals. */
static inline int sk_exit(void)
{
	ksft_print_cnts();
	return ksft_get_fail_cnt() ? KSFT_FAIL : KSFT_PASS;
}

/* ---------------------------------------------------------------- misc */
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

/* ---------------------------------------------------------- sysfs, proc */
/* A /proc/meminfo field in kB, -1 when missing. */
static inline long long sk_meminfo(const char *key)
{
	return zs_file_key("/proc/meminfo", key, ':');
}

/* zeropage_pipe_refs + folio_pipe_refs of /dev/zsplice, -1 if unreadable. */
static inline long long sk_pipe_refs(void)
{
	long long a = zs_stat(false, "zeropage_pipe_refs");
	long long b = zs_stat(false, "folio_pipe_refs");

	return a < 0 || b < 0 ? -1 : a + b;
}

/* sk_pipe_refs(), polled every 100 ms for up to 5 s until it is 0. */
static inline long long sk_pipe_refs_settled(void)
{
	long long refs;
	int i;

	for (i = 0; i < 50 && (refs = sk_pipe_refs()) != 0; i++)
		zs_msleep(100);
	return refs;
}

/* ------------------------------------------------------------- modules */
/*
 * Load with zs_mod_insert(), then this: it waits until both device nodes
 * can be opened (devtmpfs creates them asynchronously), not only exist as
 * zs_mod_load() checks, and for as long as the caller says.  True when
 * they could within @ms.
 */
static inline bool sk_wait_devices(unsigned int ms)
{
	double end = zs_now() + ms / 1000.0;

	do {
		int a = open(SK_ZERO_DEV, O_RDONLY | O_CLOEXEC);
		int b = open(SK_FULL_DEV, O_RDONLY | O_CLOEXEC);

		if (a >= 0)
			close(a);
		if (b >= 0)
			close(b);
		if (a >= 0 && b >= 0)
			return true;
		zs_msleep(10);
	} while (zs_now() < end);
	return false;
}

/*
 * Unload, retrying while busy, for up to @ms: 0 or the last -errno.  The
 * soak polls every 5 ms (zs_mod_unload: 20 ms) and counts the busy
 * refusals in *@busy.
 */
static inline int sk_unload_retry(unsigned int ms, unsigned long *busy)
{
	return zs_mod_unload_poll(ms, 5, busy);
}

#endif /* ZSPLICE_SOAK_H */
