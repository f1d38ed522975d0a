// SPDX-License-Identifier: GPL-2.0
/*
 * zsbench exec: any program with /dev/zsplice as its /dev/zero.
 *
 * zsbench moves itself into a private mount namespace, bind-mounts
 * /dev/zsplice over /dev/zero (with --full /dev/fullsplice over
 * /dev/full: nothing outside sees either), sets splice_impl for --impl,
 * runs the command and waits for it.  SIGINT and SIGTERM go on to the
 * command (unless the terminal sent them to it already); when it has
 * ended, splice_impl is restored and zsbench exits with its status.  The
 * module's statistics before and after say what /dev/zsplice served.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/zsplice.h>

#include "zsbench.h"

#define STATS_LEN	8192

static int module_ready(int full)
{
	if (access("/sys/module/zsplice", F_OK)) {
		fprintf(stderr, "zsbench exec: the zsplice module is not loaded "
			"(modprobe zsplice)\n");
		return -1;
	}
	if (access(ZSPLICE_ZERO_PATH, F_OK) || (full && access(ZSPLICE_FULL_PATH, F_OK))) {
		fprintf(stderr, "zsbench exec: zsplice is loaded but %s is missing\n",
			access(ZSPLICE_ZERO_PATH, F_OK) ? ZSPLICE_ZERO_PATH : ZSPLICE_FULL_PATH);
		return -1;
	}
	return 0;
}

/* ---- the statistics ---- */

struct devstats {
	const char *dev;	/* "zsplice", "fullsplice" */
	int ok;			/* both read */
	char before[STATS_LEN], after[STATS_LEN];
};

/* after - before of one "name value" line of after (name: 64 bytes); 0 if before lacks it */
static long long line_delta(const struct devstats *d, const char *line, char *name,
			    unsigned long long *now)
{
	unsigned long long then;

	if (sscanf(line, "%63s %llu", name, now) != 2)
		return 0;
	if (zsb_stat_parse(d->before, name, &then))
		return 0;
	return (long long)(*now - then);
}

static long long delta(const struct devstats *d, const char *name)
{
	unsigned long long a, b;

	if (zsb_stat_parse(d->before, name, &b) || zsb_stat_parse(d->after, name, &a))
		return 0;
	return (long long)(a - b);
}

/* the splice_read calls and bytes of every implementation */
static void splice_sums(const struct devstats *d, long long *calls, long long *bytes)
{
	static const char *const names[] = ZSPLICE_IMPL_NAMES;
	char n[64];

	*calls = *bytes = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(n, sizeof(n), "splice_%s_calls", names[i]);
		*calls += delta(d, n);
		snprintf(n, sizeof(n), "splice_%s_bytes", names[i]);
		*bytes += delta(d, n);
	}
}

static void print_changed(const struct devstats *d)
{
	for (const char *l = d->after; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char name[64];
		unsigned long long now;
		long long dv = line_delta(d, l, name, &now);

		if (dv)
			fprintf(stderr, "  %-32s %+lld (now %llu)\n", name, dv, now);
	}
}

static void report(struct devstats *ds, int n, const struct zsb_opts *o)
{
	for (int i = 0; i < n; i++) {
		struct devstats *d = &ds[i];
		long long calls, bytes;

		d->ok = d->ok && !zsb_stats_read(d->dev, d->after, sizeof(d->after));
		if (!d->ok) {
			if (o->exec_stats)
				fprintf(stderr, "zsbench exec: no statistics of /dev/%s (debugfs: "
					"mount -t debugfs none /sys/kernel/debug)\n", d->dev);
			continue;
		}
		splice_sums(d, &calls, &bytes);
		fprintf(stderr, "zsbench exec: /dev/%s: %lld splice_read calls, %lld bytes; "
			"%lld reads, %lld bytes (module-wide)\n", d->dev, calls, bytes,
			delta(d, "read_calls"), delta(d, "read_bytes"));
		if (o->exec_stats)
			print_changed(d);
	}
}

/* ---- the command ---- */

static int status_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* its status; signals forwarded to it meanwhile */
static int wait_child(pid_t pid)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0), st = 0, fwd = 0;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (zsb_stop_signal() && !fwd) {
			if (!zsb_stop_from_tty())
				kill(pid, zsb_stop_signal());
			fwd = 1;
		}
		/* no pidfd (before 5.3): look again every 100 ms */
		zsb_wait(pfd, pfd >= 0 ? 3600 : 0.1);
	}
	if (pfd >= 0)
		close(pfd);
	return status_of(st);
}

static int run_child(char **argv)
{
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "zsbench exec: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		zsb_signals_default();
		execvp(argv[0], argv);
		fprintf(stderr, "zsbench exec: %s: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	return wait_child(pid);
}

int zsb_cmd_exec(const struct zsb_opts *o)
{
	struct devstats *ds = calloc(2, sizeof(*ds));
	int nd = o->exec_full ? 2 : 1, rc;

	if (!ds)
		return 1;
	zsb_signals_install();
	if (module_ready(o->exec_full) || zsb_private_devs(o->exec_full)) {
		free(ds);
		return 1;
	}
	ds[0].dev = "zsplice";
	ds[1].dev = "fullsplice";
	for (int i = 0; i < nd; i++)
		ds[i].ok = !zsb_stats_read(ds[i].dev, ds[i].before, sizeof(ds[i].before));
	if (o->exec_impl && zsb_impl_switch(o->exec_impl)) {
		free(ds);
		return 1;
	}
	rc = run_child(o->exec_argv);
	zsb_impl_restore();
	report(ds, nd, o);
	free(ds);
	return rc;
}
