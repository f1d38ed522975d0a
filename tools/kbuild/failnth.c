// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: fault-injection sweep of the zsplice module's load path and of
 * its first splice, with the kernel's per-task fail-nth (failslab and
 * fail_page_alloc with CONFIG_FAULT_INJECTION; check-debug.sh turns off
 * their ignore-gfp-wait and min-order filters so GFP_KERNEL and order-0
 * allocations count).  Writing N to /proc/thread-self/fail-nth makes the
 * task's N-th injectable allocation fail; reading it back gives 0 once the
 * fault was injected.  For N = 1, 2, ... until a run completes without
 * reaching its N-th allocation:
 *
 *   load   finit_module(MODULE) with fault N (the file is opened first, so
 *          only the kernel's module loader and the module's init count).
 *          A failed load must leave nothing: /dev/zsplice, /dev/fullsplice,
 *          /sys/module/zsplice and /sys/kernel/debug/zsplice absent.  A load
 *          that succeeds although the fault was injected (an allocation
 *          with a fallback) is unloaded and counted as tolerated.
 *   splice the module loaded without faults, then the first splice of
 *          64 KiB from /dev/zsplice into a pipe with fault N (the zero
 *          pages/folios are allocated lazily on a CPU's first splice): the
 *          splice must return data (fallback) or fail with ENOMEM, and
 *          the module must unload.
 *
 * TAP output: one result per injection point; the last lines say how many
 * points were exercised.  Usage: failnth load|splice MODULE.ko [PARAMS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define MAX_POINTS 5000

static int set_nth(int n)
{
	char s[16];
	int fd = open("/proc/thread-self/fail-nth", O_RDWR), len, ret;

	if (fd < 0)
		return -1;
	len = snprintf(s, sizeof(s), "%d", n);
	ret = write(fd, s, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

static int get_nth(void)
{
	char s[16] = "";
	int fd = open("/proc/thread-self/fail-nth", O_RDONLY);

	if (fd < 0 || read(fd, s, sizeof(s) - 1) < 0)
		return -1;
	close(fd);
	return atoi(s);
}

static const char *const leftovers[] = {
	"/dev/zsplice", "/dev/fullsplice", "/sys/module/zsplice",
	"/sys/kernel/debug/zsplice",
};

/* Which of leftovers[] exist, as a string; "" when none. */
static const char *left_behind(void)
{
	static char buf[256];
	struct stat st;
	size_t i;

	buf[0] = 0;
	for (i = 0; i < sizeof(leftovers) / sizeof(leftovers[0]); i++)
		if (!stat(leftovers[i], &st)) {
			strcat(buf, " ");
			strcat(buf, leftovers[i]);
		}
	return buf;
}

static int unload(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!syscall(SYS_delete_module, "zsplice", O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
		usleep(100000);
	}
	return -1;
}

/* Load with fault @n; returns 0/-errno and sets *injected. */
static int load_nth(int modfd, const char *params, int n, int *injected)
{
	int ret, err;

	if (n && set_nth(n))
		return -EIO;
	ret = syscall(SYS_finit_module, modfd, params, 0);
	err = errno;
	*injected = n ? get_nth() == 0 : 0;
	set_nth(0);
	return ret ? -err : 0;
}

int main(int argc, char **argv)
{
	const char *mode, *path, *params;
	int modfd, n, done = 0, points = 0, failed_ok = 0, tolerated = 0;
	int bad = 0, t = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: failnth load|splice MODULE.ko [PARAMS]\n");
		return 2;
	}
	mode = argv[1];
	path = argv[2];
	params = argc > 3 ? argv[3] : "";
	modfd = open(path, O_RDONLY | O_CLOEXEC);
	if (modfd < 0) {
		perror(path);
		return 2;
	}
	if (access("/proc/thread-self/fail-nth", W_OK)) {
		printf("1..0 # SKIP no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)\n");
		return 0;
	}
	unload();
	printf("TAP version 13\n");

	for (n = 1; !done && n <= MAX_POINTS; n++) {
		int injected = 0, ret;
		const char *left;

		if (!strcmp(mode, "load")) {
			ret = load_nth(modfd, params, n, &injected);
			if (!injected) {
				done = 1;
				printf("# fault %d: not reached, load %s\n", n,
				       ret ? strerror(-ret) : "succeeded");
				if (ret) {
					printf("not ok %d - load without a fault failed: %s\n",
					       ++t, strerror(-ret));
					bad++;
				}
				unload();
				break;
			}
			points++;
			if (!ret) {
				tolerated++;
				if (unload()) {
					printf("not ok %d - fault %d: load succeeded, unload failed\n",
					       ++t, n);
					bad++;
				} else {
					printf("ok %d - fault %d: tolerated, load succeeded\n",
					       ++t, n);
				}
				continue;
			}
			left = left_behind();
			if (*left) {
				printf("not ok %d - fault %d: load failed (%s) but left%s\n",
				       ++t, n, strerror(-ret), left);
				bad++;
				unload();
			} else {
				printf("ok %d - fault %d: load failed with %s, nothing registered\n",
				       ++t, n, strerror(-ret));
				failed_ok++;
			}
		} else {
			int fd, p[2];
			ssize_t s;

			ret = load_nth(modfd, params, 0, &injected);
			if (ret) {
				printf("not ok %d - load without a fault failed: %s\n",
				       ++t, strerror(-ret));
				bad++;
				break;
			}
			fd = open("/dev/zsplice", O_RDONLY | O_CLOEXEC);
			if (fd < 0 || pipe2(p, O_CLOEXEC) ||
			    fcntl(p[1], F_SETPIPE_SZ, 1 << 20) < 0) {
				printf("not ok %d - open /dev/zsplice or pipe: %s\n",
				       ++t, strerror(errno));
				bad++;
				break;
			}
			set_nth(n);
			s = splice(fd, NULL, p[1], NULL, 65536, SPLICE_F_NONBLOCK);
			ret = errno;
			injected = get_nth() == 0;
			set_nth(0);
			close(fd);
			close(p[0]);
			close(p[1]);
			if (unload()) {
				printf("not ok %d - fault %d: module did not unload\n", ++t, n);
				bad++;
				break;
			}
			if (!injected) {
				done = 1;
				printf("# fault %d: not reached, splice returned %zd\n", n, s);
				break;
			}
			points++;
			if (s > 0) {
				tolerated++;
				printf("ok %d - fault %d: first splice returned %zd (fallback)\n",
				       ++t, n, s);
			} else if (s < 0 && ret == ENOMEM) {
				failed_ok++;
				printf("ok %d - fault %d: first splice failed with ENOMEM\n",
				       ++t, n);
			} else {
				bad++;
				printf("not ok %d - fault %d: first splice returned %zd (%s)\n",
				       ++t, n, s, s < 0 ? strerror(ret) : "");
			}
		}
	}
	if (!done) {
		printf("not ok %d - more than %d injection points\n", ++t, MAX_POINTS);
		bad++;
	}
	printf("# %s: %d injection points exercised: %d failed cleanly, %d tolerated, %d bad\n",
	       mode, points, failed_ok, tolerated, bad);
	printf("1..%d\n", t);
	return bad ? 1 : 0;
}
