// SPDX-License-Identifier: GPL-2.0
/*
 * Programs people run against /dev/zero: pv, pv --no-splice, GNU cat and
 * dd, uutils' cat.  Each is a row of the table below: how to find its
 * binary, its arguments with {dev} for the device, and the size it asks
 * for a call.  One runner for all: for every implementation splice_impl
 * is set (the program opens the device itself), the program writes into
 * a pipe that zsbench splices to /dev/null until --program-bytes arrived,
 * then the pipe is closed and the program killed and reaped.  The figure
 * is GiB/s, under --icount guest ns (instructions) per GiB, of the bytes
 * after the first MiB: the start-up (fork, exec, the first pipe fills) is
 * a few million instructions whatever the byte count, which would
 * otherwise make the figure depend on --program-bytes.  A run of less
 * than 2 MiB is timed from the fork.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"
#include "zsbench.h"

#define KB	1024UL
#define GIB	1073741824.0
/* seconds without a byte from the program before it is killed */
#define PROG_STALL	60
/* the most the consumer asks for a call */
#define PROG_CHUNK	(1UL << 20)

const struct zsb_program zsb_programs[] = {
	{ "pv", "program-pv", "pv", "ZSB_PV", NULL, { "-q", "{dev}" }, 64 * KB,
	  "pv DEV: splice() of 64 KiB a call into its output pipe" },
	{ "pv-nosplice", "program-pv-nosplice", "pv", "ZSB_PV", NULL,
	  { "-q", "--no-splice", "{dev}" }, 64 * KB,
	  "pv --no-splice DEV: read() and write(), the control" },
	{ "gnu-cat", "program-gnu-cat", "cat", "ZSB_GNU_CAT", "coreutils", { "{dev}" },
	  128 * KB, "GNU cat DEV: read() and write() of 128 KiB" },
	{ "dd", "program-dd", "dd", "ZSB_GNU_DD", "coreutils",
	  { "if={dev}", "bs=64K", "status=none" }, 64 * KB,
	  "GNU dd if=DEV bs=64K: read() and write()" },
	{ "uutils-cat", "program-uutils-cat", "coreutils", "ZSB_UUTILS", NULL,
	  { "cat", "{dev}" }, 128 * KB,
	  "uutils coreutils cat DEV: splice() of 128 KiB a call" },
};
const size_t zsb_nprograms = sizeof(zsb_programs) / sizeof(zsb_programs[0]);

const struct zsb_program *zsb_program_find(const char *variant)
{
	for (size_t i = 0; i < zsb_nprograms; i++)
		if (!strcmp(zsb_programs[i].variant, variant))
			return &zsb_programs[i];
	return NULL;
}

int zsb_program_argv(const struct zsb_program *p, const char *bin, const char *dev,
		     struct zsb_prog_argv *a)
{
	size_t used = 0;
	int n = 0;

	for (int i = -1; i < ZSB_PROG_MAXARGS && (i < 0 || p->args[i]); i++) {
		const char *t = i < 0 ? bin : p->args[i], *at = i < 0 ? NULL : strstr(t, "{dev}");
		int len;

		if (at)
			len = snprintf(a->buf + used, sizeof(a->buf) - used, "%.*s%s%s",
				       (int)(at - t), t, dev, at + 5);
		else
			len = snprintf(a->buf + used, sizeof(a->buf) - used, "%s", t);
		if (len < 0 || (size_t)len >= sizeof(a->buf) - used)
			return -1;
		a->argv[n++] = a->buf + used;
		used += (size_t)len + 1;
	}
	a->argv[n] = NULL;
	return n;
}

int zsb_program_bin(const struct zsb_program *p, const struct zsb_opts *o, char *path,
		    size_t len, char *why, size_t wl)
{
	const char *given = getenv(p->env), *from = p->env;
	char *out = NULL, *argv[] = { path, "--version", NULL };
	int st;

	if (!strcmp(p->env, "ZSB_UUTILS") && o->uutils) {
		given = o->uutils;
		from = "--uutils";
	}
	if (given && *given) {
		/* a name without a slash is a file here, not one to look up in PATH */
		snprintf(path, len, "%s%s", strchr(given, '/') ? "" : "./", given);
		if (access(path, X_OK)) {
			snprintf(why, wl, "%s=%s: %s", from, given, strerror(errno));
			return -1;
		}
	} else if (zsb_path_find(p->bin, path, len)) {
		snprintf(why, wl, "%s not found in PATH (or set $%s%s)", p->bin, p->env,
			 strcmp(p->env, "ZSB_UUTILS") ? "" : " or --uutils");
		return -1;
	}
	if (!p->version_has)
		return 0;
	st = zsb_tool_run(argv, NULL, NULL, 10, &out);
	if (out)
		out[strcspn(out, "\n")] = 0;
	/* GNU's: "cat (GNU coreutils) 9.1", "dd (coreutils) 9.1"; not uutils' */
	if (st || !out || !strstr(out, p->version_has) || strstr(out, "uutils")) {
		snprintf(why, wl, "%s is not GNU's (--version: %.40s; set $%s)", path,
			 out && !st ? out : "failed", p->env);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

/* the last line of the program's stderr, in r->err */
static void last_line(int fd, struct zsb_prog_run *r)
{
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	off_t end = lseek(fd, 0, SEEK_END);

	if (end > (off_t)sizeof(buf) - 1)
		n = pread(fd, buf, sizeof(buf) - 1, end - (off_t)sizeof(buf) + 1);
	if (n <= 0)
		return;
	buf[n] = 0;
	snprintf(r->err, sizeof(r->err), "%.*s", (int)sizeof(r->err) - 1, zsb_last_line(buf));
}

/*
 * Splice from the pipe's read end @in to /dev/null until @want bytes came;
 * waits in zsb_wait(), where SIGINT and SIGTERM arrive.  0 or -errno.
 */
static int drain(int in, int null, uint64_t want, uint64_t t0, struct zsb_prog_run *r)
{
	while (r->bytes < want) {
		uint64_t left = want - r->bytes;
		ssize_t n = splice(in, NULL, null, NULL, left < PROG_CHUNK ? left : PROG_CHUNK,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			r->bytes += (uint64_t)n;
			if (!r->start_bytes && want >= 2 * ZSB_PROG_START &&
			    r->bytes >= ZSB_PROG_START) {
				r->start_bytes = r->bytes;
				r->start_ns = zsb_ns() - t0;
			}
			continue;
		}
		if (n == 0)
			return 0;	/* the program ended */
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -errno;
		n = zsb_wait(in, PROG_STALL);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (zsb_stop_signal())
			return -EINTR;
		if (n == 0)
			return -ETIMEDOUT;
	}
	return 0;
}

int zsb_program_once(char *const argv[], uint64_t want, struct zsb_prog_run *r)
{
	int p[2], null = open("/dev/null", O_WRONLY | O_CLOEXEC), err, status = 0, e;
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	uint64_t t0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	err = memfd_create("zsbench-program-stderr", MFD_CLOEXEC);
	if (null < 0 || in < 0 || err < 0 || pipe2(p, O_CLOEXEC)) {
		e = -errno;
		goto out;
	}
	t0 = zsb_ns();
	pid = zsb_spawn(argv, in, p[1], err, NULL, NULL);
	if (pid < 0) {
		e = -errno;
		zsb_close_fds(p, 2);
		goto out;
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	e = drain(p[0], null, want, t0, r);
	r->ns = zsb_ns() - t0;
	close(p[0]);
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) :
		    128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	if (!e && r->bytes < want) {
		last_line(err, r);
		e = -EPIPE;
	}
out:
	if (in >= 0)
		close(in);
	if (null >= 0)
		close(null);
	if (err >= 0)
		close(err);
	return e;
}

static struct zsb_result *new_rec(struct zsb_results *rs, const struct zsb_program *p,
				  const struct zsb_impl *im, const char *src, enum zsb_unit u)
{
	struct zsb_result *r = zsb_results_add(rs);

	snprintf(r->source, sizeof(r->source), "%s", src);
	snprintf(r->workload, sizeof(r->workload), "program");
	snprintf(r->variant, sizeof(r->variant), "%s", p->variant);
	snprintf(r->impl, sizeof(r->impl), "%s", im->name);
	snprintf(r->metric, sizeof(r->metric), "%s.%s.1t.%s", src, p->variant,
		 zsb_unit_name(u));
	r->unit = u;
	r->size = p->size;
	r->threads = 1;
	r->fill_count = -1;
	r->iowq_workers = -1;
	return r;
}

/* the runs of one program on one implementation, splice_impl set around them */
static int run_on(const struct zsb_opts *o, const struct zsb_program *p,
		  struct zsb_prog_argv *a, const struct zsb_impl *im, const char *src,
		  struct zsb_results *rs)
{
	int icount = strcmp(src, "zsbench") != 0, rc = 0;
	struct zsb_result *r = new_rec(rs, p, im, src,
				       icount ? ZSB_UNIT_NS_PER_GIB : ZSB_UNIT_GIB_PER_SEC);
	double bps = 0;

	if (zsb_impl_switch(im)) {
		snprintf(r->error, sizeof(r->error), "splice_impl");
		r->unsupported = r->runs = 1;
		zsb_result_finish(r);
		return -1;
	}
	for (int run = 0; run < o->runs && !zsb_stop_signal(); run++) {
		struct zsb_prog_run pr;
		double bytes, ns;
		int e;

		zsb_progress("%s %-13s %-20s run %d/%d", src, im->name, p->variant, run + 1,
			     o->runs);
		e = zsb_program_once(a->argv, o->program_bytes, &pr);
		if (e == -EINTR && zsb_stop_signal())
			break;
		if (e || pr.ns <= pr.start_ns) {
			const char *en = strerrorname_np(-e);

			snprintf(r->error, sizeof(r->error), "%s", en ? en : "?");
			snprintf(r->note, sizeof(r->note), "%s: %llu of %llu bytes, status %d%s%s",
				 p->variant, (unsigned long long)pr.bytes,
				 (unsigned long long)o->program_bytes, pr.status,
				 pr.err[0] ? ": " : "", pr.err);
			fprintf(stderr, "\nzsbench: %s on %s: %s\n", p->variant, im->name, r->note);
			r->unsupported = 1;
			r->runs = 1;
			rc = -1;
			break;
		}
		bytes = (double)(pr.bytes - pr.start_bytes);
		ns = (double)(pr.ns - pr.start_ns);
		r->vals[r->runs++] = icount ? ns * GIB / bytes : bytes / ns * 1e9 / GIB;
		bps += bytes / ns * 1e9;
	}
	zsb_impl_restore();
	if (!r->runs) {
		r->unsupported = r->runs = 1;
		snprintf(r->error, sizeof(r->error), "stopped");
	}
	if (!r->unsupported)
		r->bytes_per_sec_mean = bps / r->runs;
	zsb_result_finish(r);
	return rc;
}

int zsb_program_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	const char *src = o->icount ? zsb_icount_source(rs) : "zsbench";
	int rc = 0;

	for (int i = 0; i < o->nprogs && !zsb_stop_signal(); i++) {
		const struct zsb_program *p = o->progs[i];
		char bin[4096], why[256];

		if (zsb_program_bin(p, o, bin, sizeof(bin), why, sizeof(why))) {
			zsb_progress_done();
			fprintf(stderr, "zsbench: skipping %s: %s\n", p->variant, why);
			continue;
		}
		for (int k = 0; k < o->nimpls && !zsb_stop_signal(); k++) {
			const struct zsb_impl *im = o->impls[k];
			struct zsb_prog_argv a;

			if (im->dev == ZSB_DEV_FULLSPLICE)
				continue;
			if (zsb_program_argv(p, bin, zsb_impl_path(im), &a) < 0) {
				fprintf(stderr, "zsbench: %s: arguments too long\n", p->variant);
				return -1;
			}
			rc |= run_on(o, p, &a, im, src, rs);
		}
	}
	zsb_progress_done();
	return rc;
}
