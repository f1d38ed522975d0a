// SPDX-License-Identifier: GPL-2.0
/*
 * The stress-ng engine: stress-ng --splice against /dev/zsplice, in two
 * profiles, one command runner; its metrics come from --yaml FILE.
 *
 * The child unshares its mount namespace, makes it private and
 * bind-mounts /dev/zsplice over /dev/zero before exec (nothing outside
 * sees the mount); the implementation is chosen with the module
 * parameter, as stress-ng opens /dev/zero itself.
 *
 * Plain (--workload stress-ng): stress-ng --splice N --timeout T
 * --metrics-brief per thread count and implementation, at most 3 runs of
 * --tool-duration.
 *
 * Both read stress-ng's figures from the document it writes with --yaml
 * (stressng-yaml.c), never from its text.
 *
 * LKP (--workload lkp-splice): the kernel test robot's run.  LKP ran
 * stress-ng V0.17.00 --splice with nr_threads=100% (64 instances), 60 s,
 * default --splice-bytes (64 KiB, which the stressor divides by the
 * instance count: 1 KiB per loop each).  Up to V0.17.00 every loop ends
 * with an undrained 1-byte splice from /dev/zero, so pipe1 grows until a
 * blocking splice sleeps in pipe_wait_writable until the alarm.  LKP's
 * command line (programs/stress-ng/run of 2023):
 *   stress-ng --timeout 60 --times --verify --metrics-brief --splice 64
 * Here the same with N instances (default nproc) each splicing B bytes per
 * loop (default 1 KiB, LKP's), T seconds (default 60); --splice-bytes N*B
 * is added only when N*B is not the stressor's 64 KiB default, and
 * --lkp-no-verify leaves --verify out (the record's note says so; the
 * metric stays, so compare pairs the two).  Shortly before the alarm
 * every stressor instance is looked at: /proc/PID/wchan, and through
 * pidfd_getfd() its pipe1 (the first pipe it made): slots (F_GETPIPE_SZ)
 * and bytes queued (FIONREAD), which for the 1-byte splice is the number
 * of loops it completed.  The capacity model is printed beside it.
 *
 * Which stress-ng: --stress-ng-bin, else $ZSB_STRESS_NG (e.g. the build
 * of lkp-tests), else for the LKP profile --lkp-stress-ng (default LKP's
 * V0.17.00 in zsplice's cache) when it is there, else stress-ng in PATH.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/zsplice.h>

#include "model.h"
#include "stressng-yaml.h"
#include "tool.h"
#include "zsbench.h"

#define LKP_TAG		"V0.17.00"
#define LKP_MAX_INST	256

/* the stressor's default --splice-bytes */
#define LKP_SPLICE_BYTES	65536ULL

/*
 * LKP's command line, up to --splice N: returns the number of arguments
 * put in argv (at most 8).
 */
int zsb_lkp_argv(char **argv, const char *path, const char *timeout, const char *n,
		 int no_verify)
{
	int i = 0;

	argv[i++] = (char *)path;
	argv[i++] = "--timeout";
	argv[i++] = (char *)timeout;
	argv[i++] = "--times";
	if (!no_verify)
		argv[i++] = "--verify";
	argv[i++] = "--metrics-brief";
	argv[i++] = "--splice";
	argv[i++] = (char *)n;
	return i;
}

int zsb_bind_zsplice(void *arg)
{
	(void)arg;
	return zsb_private_devs(0);
}

/* ---- which stress-ng ---- */

int zsb_stressng_version(const char *out, int *maj, int *min, int *pat)
{
	const char *v = out ? strstr(out, "version ") : NULL;

	if (!v || sscanf(v + 8, "%d.%d.%d", maj, min, pat) != 3)
		return -1;
	return 0;
}

/* the undrained 1-byte splice: from 2022 (or earlier) up to V0.17.00 */
int zsb_lkp_one_byte(int maj, int min, int pat)
{
	long v = (long)maj * 1000000 + min * 1000 + pat;

	return v <= 17000;
}

static int stressng_find(const struct zsb_opts *o, int lkp, struct zsb_stressng_bin *b)
{
	char *argv[] = { NULL, "--version", NULL }, *out = NULL;
	const char *env = getenv("ZSB_STRESS_NG");
	int st;

	memset(b, 0, sizeof(*b));
	if (o->stress_ng_bin) {
		snprintf(b->path, sizeof(b->path), "%s", o->stress_ng_bin);
	} else if (env && env[0]) {
		snprintf(b->path, sizeof(b->path), "%s", env);
	} else if (lkp && o->lkp_stress_ng && access(o->lkp_stress_ng, X_OK) == 0) {
		snprintf(b->path, sizeof(b->path), "%s", o->lkp_stress_ng);
	} else if (zsb_in_path("stress-ng")) {
		snprintf(b->path, sizeof(b->path), "stress-ng");
		if (lkp)
			fprintf(stderr, "zsbench: lkp-splice: LKP's stress-ng %s is not at %s "
				"(--lkp-stress-ng, --stress-ng-bin or ZSB_STRESS_NG); "
				"falling back to stress-ng in PATH\n", LKP_TAG,
				o->lkp_stress_ng ? o->lkp_stress_ng : "-");
	} else {
		fprintf(stderr, "zsbench: no stress-ng: none in PATH, and neither "
			"--stress-ng-bin nor ZSB_STRESS_NG%s\n",
			lkp ? " nor --lkp-stress-ng names one" : "");
		return -1;
	}
	argv[0] = b->path;
	st = zsb_tool_run(argv, NULL, NULL, 20, &out);
	if (st || zsb_stressng_version(out, &b->maj, &b->min, &b->pat)) {
		fprintf(stderr, "zsbench: %s --version failed (exit %d)\n", b->path, st);
		free(out);
		return -1;
	}
	out[strcspn(out, "\n")] = 0;
	snprintf(b->version_line, sizeof(b->version_line), "%s", out);
	free(out);
	snprintf(b->version, sizeof(b->version), "%d.%02d.%02d", b->maj, b->min, b->pat);
	b->one_byte = zsb_lkp_one_byte(b->maj, b->min, b->pat);
	if (b->maj == 0 && b->min == 17 && b->pat == 0)
		snprintf(b->label, sizeof(b->label), "V0.17.00, LKP's");
	else if (b->one_byte)
		snprintf(b->label, sizeof(b->label), "%s, NOT LKP's: same 1-byte splice",
			 b->version);
	else
		snprintf(b->label, sizeof(b->label), "%s, NOT LKP's: no 1-byte splice",
			 b->version);
	return 0;
}

/* ---- its metrics, from the --yaml document: both profiles ---- */

/* a temporary file for --yaml: its path in buf, 0 or -1 */
static int yaml_file(char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(buf, len, "%s/zsbench-stress-ng.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	fd = mkstemp(buf);
	if (fd < 0) {
		fprintf(stderr, "zsbench: a file for stress-ng --yaml: %s\n", strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * The splice stressor's figures in the --yaml file at path, which this
 * removes; 0, or -1 with why in err.
 */
static int yaml_metrics(const char *path, double *ops, double *rate, char *err, size_t len)
{
	struct zsb_sng_metrics m;
	int rc = zsb_stressng_yaml_file(path, "splice", &m, err, len);

	unlink(path);
	if (rc)
		return -1;
	*ops = m.ops;
	*rate = m.rate;
	return 0;
}

/* ---- looking at the instances before the alarm ---- */

struct lkp_inst {
	int pid;
	char wchan[64];
	int slots;		/* pipe1's slots, 0 if unknown */
	long long queued;	/* pipe1's bytes (FIONREAD), -1 if unknown */
};

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

static int proc_ppid(int pid, char *comm, size_t clen)
{
	char path[64], buf[512], *open_p, *close_p;
	int ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)))
		return -1;
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || sscanf(close_p + 2, "%*c %d", &ppid) != 1)
		return -1;
	snprintf(comm, clen, "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	return ppid;
}

/* O_ACCMODE of @fd of @pid from fdinfo, -1 if unknown */
static int fd_accmode(int pid, int fd)
{
	char path[64], buf[256], *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	if (read_small(path, buf, sizeof(buf)))
		return -1;
	f = strstr(buf, "flags:");
	return f ? (int)(strtol(f + 6, NULL, 8) & 3) : -1;
}

/*
 * The read end of the stressor's pipe1: of the pipes whose both ends this
 * process holds (stdout and stderr are two write ends of one pipe, ours),
 * the one made first, i.e. with the lowest fd.  *npipes counts those pipes.
 */
static int first_pipe_fd(int pid, int *npipes)
{
	struct { int fd; unsigned long ino; int mode; } p[256];
	char dir[64], path[PATH_MAX], link[128];
	int n = 0, best = -1, best_min = INT_MAX;
	struct dirent *d;
	DIR *dp;

	*npipes = 0;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	dp = opendir(dir);
	if (!dp)
		return -1;
	while ((d = readdir(dp)) && n < 256) {
		ssize_t len;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = 0;
		if (sscanf(link, "pipe:[%lu]", &p[n].ino) != 1)
			continue;
		p[n].fd = atoi(d->d_name);
		p[n].mode = fd_accmode(pid, p[n].fd);
		n++;
	}
	closedir(dp);
	for (int i = 0; i < n; i++) {
		int rd = -1, wr = -1, lo = INT_MAX, dup = 0;

		for (int j = 0; j < n; j++) {
			if (p[j].ino != p[i].ino)
				continue;
			dup |= j < i;
			if (p[j].mode == O_RDONLY && rd < 0)
				rd = p[j].fd;
			if (p[j].mode == O_WRONLY && wr < 0)
				wr = p[j].fd;
			if (p[j].fd < lo)
				lo = p[j].fd;
		}
		if (dup || rd < 0 || wr < 0)
			continue;
		(*npipes)++;
		if (lo < best_min) {
			best_min = lo;
			best = rd;
		}
	}
	return best;
}

static void probe_pipe(struct lkp_inst *in, int fd)
{
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
	int pfd = (int)syscall(SYS_pidfd_open, in->pid, 0), got, q;

	if (pfd < 0)
		return;
	got = (int)syscall(SYS_pidfd_getfd, pfd, fd, 0);
	close(pfd);
	if (got < 0)
		return;
	q = fcntl(got, F_GETPIPE_SZ);
	if (q > 0)
		in->slots = q / 4096;
	if (ioctl(got, FIONREAD, &q) == 0)
		in->queued = q;
	close(got);
#else
	(void)in;
	(void)fd;
#endif
}

/* stressor instances: descendants of @root holding both ends of 4 pipes */
static int lkp_probe(int root, struct lkp_inst *ins, int max)
{
	int pids[1024], n = 0, found = 0;
	struct dirent *d;
	DIR *dp;

	pids[n++] = root;
	for (int pass = 0; pass < 3; pass++) {
		dp = opendir("/proc");
		if (!dp)
			return 0;
		while ((d = readdir(dp))) {
			int pid, ppid, known = 0;
			char comm[64];

			if (!isdigit((unsigned char)d->d_name[0]))
				continue;
			pid = atoi(d->d_name);
			ppid = proc_ppid(pid, comm, sizeof(comm));
			for (int i = 0; i < n; i++)
				known |= pids[i] == pid;
			if (known)
				continue;
			for (int i = 0; i < n && n < 1024; i++)
				if (pids[i] == ppid) {
					pids[n++] = pid;
					break;
				}
		}
		closedir(dp);
	}
	for (int i = 1; i < n && found < max; i++) {
		struct lkp_inst *in = &ins[found];
		char path[64];
		int np, fd = first_pipe_fd(pids[i], &np);

		if (fd < 0 || np < 4)
			continue;
		memset(in, 0, sizeof(*in));
		in->pid = pids[i];
		in->queued = -1;
		snprintf(path, sizeof(path), "/proc/%d/wchan", pids[i]);
		if (read_small(path, in->wchan, sizeof(in->wchan)) || !in->wchan[0])
			snprintf(in->wchan, sizeof(in->wchan), "%s", "-");
		probe_pipe(in, fd);
		found++;
	}
	return found;
}

/* ---- one run ---- */

struct lkp_run {
	double ops, rate;
	int ninst, stalled;
	struct lkp_inst inst[LKP_MAX_INST];
	char err[160];
	char held[96];
};

/* Shortly before the alarm: which instances sleep for pipe space. */
static void lkp_look(int pid, void *ctx)
{
	struct lkp_run *run = ctx;

	run->ninst = lkp_probe(pid, run->inst, LKP_MAX_INST);
	for (int i = 0; i < run->ninst; i++)
		run->stalled += !strcmp(run->inst[i].wchan, "pipe_wait_writable");
}

static int lkp_exec(const struct zsb_opts *o, const struct zsb_stressng_bin *b,
		    const struct zsb_impl *im, struct lkp_run *run)
{
	char nbuf[16], bbuf[32], tbuf[32], yaml[PATH_MAX], why[120];
	char *argv[16];
	int argc = 0;
	double T = o->lkp_time;
	double margin = T / 10 < 1 ? 1 : T / 10 > 3 ? 3 : T / 10;
	struct zsb_tool_probe look = { .after = T - margin, .fn = lkp_look, .ctx = run };
	char *buf = NULL;
	int status;

	memset(run, 0, sizeof(*run));
	snprintf(nbuf, sizeof(nbuf), "%d", o->lkp_instances);
	snprintf(tbuf, sizeof(tbuf), "%.0f", T);
	argc = zsb_lkp_argv(argv, b->path, tbuf, nbuf, o->lkp_no_verify);
	/* the stressor divides --splice-bytes (64 KiB by default) by the instances */
	if ((unsigned long long)o->lkp_bytes * o->lkp_instances != LKP_SPLICE_BYTES) {
		snprintf(bbuf, sizeof(bbuf), "%llu",
			 (unsigned long long)o->lkp_bytes * (unsigned long long)o->lkp_instances);
		argv[argc++] = "--splice-bytes";
		argv[argc++] = bbuf;
	}
	argv[argc] = NULL;
	if (yaml_file(yaml, sizeof(yaml)))
		return -1;
	zsb_progress_done();
	printf("lkp-splice %s:", im->name);
	for (int i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	argv[argc++] = "--yaml";
	argv[argc++] = yaml;
	argv[argc] = NULL;
	status = zsb_tool_run_probe(argv, zsb_impl_param(im) ? zsb_bind_zsplice : NULL, NULL,
				    T + 60 + T / 2, &buf, &look);
	if (status < 0 || !buf) {
		unlink(yaml);
		free(buf);
		return -1;
	}
	if (yaml_metrics(yaml, &run->ops, &run->rate, why, sizeof(why)))
		snprintf(run->err, sizeof(run->err), "exit %d, --yaml: %s", status, why);
	if (run->err[0])
		fprintf(stderr, "\nzsbench: lkp-splice (%s): %s; stress-ng said: %s\n", im->name,
			run->err, zsb_last_line(buf));
	free(buf);
	return run->err[0] ? -1 : 0;
}

/* ---- the workload ---- */

static void model_params(const struct zsb_opts *o, const struct zsb_stressng_bin *b, double rate,
			 struct zsb_cap_params *pa)
{
	pa->instances = o->lkp_instances;
	pa->seconds = o->lkp_time;
	pa->loop_rate = rate;
	pa->bytes = o->lkp_bytes < 1024 ? 1024 : o->lkp_bytes;
	pa->extra = b->one_byte ? 1 : 0;
}

static void held(char *buf, size_t len)
{
	unsigned long long fb = 0, zb = 0;
	int a = zsb_stat("zsplice", "folio_bytes", &fb);
	int c = zsb_stat("zsplice", "zeropage_bytes", &zb);

	if (a && c)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "folio_bytes %llu zeropage_bytes %llu", fb, zb);
}

static void lkp_print(const struct zsb_opts *o, const struct zsb_stressng_bin *b,
		      const struct zsb_impl *im, const struct lkp_run *run, double none_rate)
{
	struct zsb_cap_impl ci;
	struct zsb_cap_params pa;
	struct zsb_cap_prediction pr;
	int have_impl = !zsb_cap_impl_for(im->name, zsb_folio_order(o), &ci);
	int all_known = run->ninst == o->lkp_instances;
	double r = run->stalled == 0 && run->ninst == o->lkp_instances ?
		   run->rate / o->lkp_instances : none_rate;
	double given = 0;

	printf("\n%s: %.2f ops/s (%.0f ops), %d of %d instances asleep in pipe_wait_writable\n",
	       im->name, run->rate, run->ops, run->stalled, run->ninst);
	if (run->err[0]) {
		printf("  failed: %s\n", run->err);
		return;
	}
	printf("  memory held after: %s\n", run->held);
	model_params(o, b, r, &pa);
	for (int i = 0; i < run->ninst; i++) {
		const struct lkp_inst *in = &run->inst[i];
		char ml[64] = "";

		if (have_impl && in->slots > 0 && in->slots <= ZSB_CAP_MAX_SLOTS) {
			double cap = r > 0 ? r * o->lkp_time : 1e18;
			uint64_t lim = cap >= 1e18 ? UINT64_MAX : (uint64_t)cap + 1;
			int st;
			uint64_t l = zsb_cap_loops(&ci, (unsigned int)in->slots, pa.bytes,
						   pa.extra, lim, &st);

			if (st)
				snprintf(ml, sizeof(ml), "model: stalls after %llu loops",
					 (unsigned long long)l);
			else
				snprintf(ml, sizeof(ml), "model: no stall within %.0f s",
					 o->lkp_time);
			given += st ? (double)l : cap;
		} else {
			all_known = 0;
		}
		printf("  instance %d: %s, %d slots, %lld bytes queued; %s\n", in->pid,
		       strcmp(in->wchan, "0") ? in->wchan : "running", in->slots, in->queued,
		       ml);
	}
	if (!have_impl || r <= 0)
		return;
	zsb_cap_predict(&ci, &pa, &pr);
	printf("  model (r = %.0f loops/s): %.0f ops/s, P(stall) %.2f over random pipe sizes",
	       r, pr.ops_per_sec, pr.stall_fraction);
	if (all_known)
		printf("; %.0f ops/s for the sizes drawn", given / o->lkp_time);
	printf("\n");
}

static int lkp_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	struct zsb_stressng_bin b;
	struct lkp_run *runs;
	char mem[96];
	double none_rate = -1;
	int rc = 0, nrun = 0;
	const struct zsb_impl *ims[ZSB_MAX_SEL];

	if (stressng_find(o, 1, &b))
		return -1;
	for (int k = 0; k < o->nimpls; k++) {
		if (o->impls[k]->dev == ZSB_DEV_FULLSPLICE)
			continue;
		ims[nrun++] = o->impls[k];
	}
	runs = calloc((size_t)nrun, sizeof(*runs));
	if (!runs)
		return -1;
	snprintf(rs->lkp_stress_ng, sizeof(rs->lkp_stress_ng), "%.120s (%s)", b.path, b.label);
	held(mem, sizeof(mem));
	printf("\nlkp-splice: stress-ng %s: %s\n", b.label, b.path);
	printf("lkp-splice: --splice %d, %u bytes per loop each, %.0f s; memory held before: %s\n",
	       o->lkp_instances, o->lkp_bytes, o->lkp_time, mem);
	for (int k = 0; k < nrun && !zsb_stop_signal(); k++) {
		const struct zsb_impl *im = ims[k];
		struct lkp_run *run = &runs[k];
		struct zsb_result *r;

		if (zsb_impl_switch(im)) {
			rc = -1;
			continue;
		}
		zsb_progress("lkp-splice %-9s %.0f s", im->name, o->lkp_time);
		r = zsb_results_add(rs);
		snprintf(r->source, sizeof(r->source), "stress-ng");
		snprintf(r->workload, sizeof(r->workload), "lkp-splice");
		snprintf(r->variant, sizeof(r->variant), "lkp-splice-%u", o->lkp_bytes);
		snprintf(r->impl, sizeof(r->impl), "%s", im->name);
		r->unit = ZSB_UNIT_OPS_PER_SEC;
		snprintf(r->metric, sizeof(r->metric), "stress-ng-%s.splice.%dt.%uB.ops_per_sec",
			 b.version, o->lkp_instances, o->lkp_bytes);
		r->size = o->lkp_bytes;
		r->threads = o->lkp_instances;
		if (lkp_exec(o, &b, im, run)) {
			r->unsupported = 1;
			snprintf(r->error, sizeof(r->error), "failed");
			snprintf(r->note, sizeof(r->note), "%s", run->err);
			r->runs = 1;
			rc = -1;
			zsb_result_finish(r);
			continue;
		}
		r->vals[r->runs++] = run->rate;
		zsb_result_finish(r);
		held(run->held, sizeof(run->held));
		snprintf(r->note, sizeof(r->note), "stalled %d/%d; held after: %s%s", run->stalled,
			 run->ninst, run->held, o->lkp_no_verify ? "; without --verify" : "");
		r->stalled = run->stalled;
		r->instances_seen = run->ninst;
		if (!strcmp(im->name, "none"))
			none_rate = run->rate / o->lkp_instances;
	}
	zsb_progress_done();
	zsb_impl_restore();
	if (zsb_stop_signal()) {
		free(runs);
		return -1;
	}
	for (int k = 0; k < nrun; k++)
		lkp_print(o, &b, ims[k], &runs[k], none_rate);
	if (none_rate > 0)
		printf("\nmodel: r = the implementation's own loops/s when no instance stalled, "
		       "else none's (%.0f);\nP(stall) over stress-ng's random pipe sizes; "
		       "a stalled instance's queued bytes = its loops\n", none_rate);
	else
		printf("\nmodel: include 'none' in --impl for the loop rate of stalled runs\n");
	free(runs);
	return rc;
}

/* ---- the plain profile ---- */

static int plain_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	char tbuf[32], nbuf[16], yaml[PATH_MAX];
	int runs = o->runs < 3 ? o->runs : 3, rc = 0;

	struct zsb_stressng_bin b;

	if (stressng_find(o, 0, &b))
		return -1;
	snprintf(rs->stress_ng_version, sizeof(rs->stress_ng_version), "%s", b.version_line);
	snprintf(tbuf, sizeof(tbuf), "%.0fs", o->tool_duration < 1 ? 1 : o->tool_duration);
	for (int ti = 0; ti < o->nthreads && !zsb_stop_signal(); ti++) {
		for (int k = 0; k < o->nimpls && !zsb_stop_signal(); k++) {
			const struct zsb_impl *im = o->impls[k];
			struct zsb_result *r;
			char *argv[] = { b.path, "--splice", nbuf, "--timeout", tbuf,
					 "--metrics-brief", "--yaml", yaml, NULL };

			if (im->dev == ZSB_DEV_FULLSPLICE)
				continue;
			if (zsb_impl_switch(im)) {
				rc = -1;
				continue;
			}
			snprintf(nbuf, sizeof(nbuf), "%d", o->threads[ti]);
			r = zsb_results_add(rs);
			snprintf(r->source, sizeof(r->source), "stress-ng");
			snprintf(r->workload, sizeof(r->workload), "stress-ng-splice");
			snprintf(r->variant, sizeof(r->variant), "stress-ng-splice");
			snprintf(r->impl, sizeof(r->impl), "%s", im->name);
			r->unit = ZSB_UNIT_OPS_PER_SEC;
			snprintf(r->metric, sizeof(r->metric),
				 "stress-ng.splice.%dt.ops_per_sec", o->threads[ti]);
			r->size = 64 * 1024;
			r->threads = o->threads[ti];
			for (int run = 0; run < runs && !zsb_stop_signal(); run++) {
				char *out = NULL, why[120];
				int st, bad;
				double v, ops;

				zsb_progress("stress-ng --splice %s  %-9s run %d/%d", nbuf,
					     im->name, run + 1, runs);
				if (yaml_file(yaml, sizeof(yaml))) {
					rc = -1;
					break;
				}
				st = zsb_tool_run(argv, zsb_impl_param(im) ? zsb_bind_zsplice : NULL, NULL,
						  o->tool_duration + 20, &out);
				bad = yaml_metrics(yaml, &ops, &v, why, sizeof(why));
				if (st || bad) {
					/* a failed run's own last word first, then the YAML's */
					snprintf(r->error, sizeof(r->error), "exit %d", st);
					snprintf(r->note, sizeof(r->note), "%s%s%s%s",
						 st && out ? zsb_last_line(out) : "",
						 st && out && bad ? "; " : "", bad ? "--yaml: " : "",
						 bad ? why : "");
					fprintf(stderr, "\nzsbench: stress-ng (%s) failed (exit %d): %s\n",
						im->name, st, r->note);
					free(out);
					rc = -1;
					break;
				}
				r->vals[r->runs++] = v;
				free(out);
			}
			if (!r->runs) {
				r->unsupported = 1;
				r->runs = 1;
			}
			zsb_result_finish(r);
		}
	}
	zsb_impl_restore();
	return rc;
}

int zsb_stressng_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	int rc = 0;

	if (o->stress_ng && plain_run(o, rs))
		rc = -1;
	if (o->lkp_splice && !zsb_stop_signal() && lkp_run(o, rs))
		rc = -1;
	return rc;
}
