// SPDX-License-Identifier: GPL-2.0
/*
 * The core: runs the engines' ops in loops it owns.
 *
 * Timed loops: every (workload, threads, implementation) combination
 * --runs times for --duration seconds, one engine instance per thread,
 * started together; the figure is ops/s.
 *
 * Fixed-count loops (--icount), for a guest booted under QEMU
 * "-icount shift=0,sleep=off": there guest time advances one nanosecond
 * per executed guest instruction, so the guest nanoseconds an op takes are
 * the instructions it executed, the same on every boot.  Each measurement
 * is a warm-up of a quarter of the budget (at least 8 ops), which sets the
 * count, then --runs repetitions of that count; the records are ns per op
 * and ops per guest second.  The clock is checked first: a loop of a known
 * number of instructions must take as many guest nanoseconds; elsewhere
 * the same loops run, labelled "fixed" (wall-clock ns) instead of
 * "icount".  One thread only: -icount serialises the vCPUs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/zsplice.h>

#include "zsbench.h"

/* guest seconds per repetition of --icount when --duration is not given */
#define IC_BUDGET_DEFAULT	0.02
/* the calibration loop: two instructions per iteration */
#define IC_CAL_INSNS		(2 * ZSB_CAL_LOOPS)
/* calibration loops to wait for the guest to settle, at most */
#define IC_SETTLE_TRIES		100

int zsb_quiet;
static pthread_barrier_t start_barrier;
static int progress_shown;

double zsb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int zsb_nproc(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

void zsb_progress(const char *fmt, ...)
{
	static int tty = -1;
	va_list ap;

	if (zsb_quiet)
		return;
	if (tty < 0)
		tty = isatty(2);
	if (tty)
		fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!tty) {
		fputc('\n', stderr);
		fflush(stderr);
		return;
	}
	fflush(stderr);
	progress_shown = 1;
}

void zsb_progress_done(void)
{
	if (progress_shown && !zsb_quiet && isatty(2))
		fputs("\r\033[K", stderr);
	progress_shown = 0;
}

const char *zsb_size_str(size_t sz, char *buf, size_t len)
{
	if (sz >= 1024 * 1024 && !(sz % (1024 * 1024)))
		snprintf(buf, len, "%zuM", sz / (1024 * 1024));
	else if (sz >= 1024 && !(sz % 1024))
		snprintf(buf, len, "%zuK", sz / 1024);
	else
		snprintf(buf, len, "%zu", sz);
	return buf;
}

/* ---- engine helpers ---- */

int zsb_dev_open(struct zsb_wctx *c, int flags)
{
	int fd = zsb_impl_open(c->impl, flags);

	if (fd < 0)
		snprintf(c->note, sizeof(c->note), "open %s: %s", zsb_impl_path(c->impl),
			 strerror(-fd));
	return fd;
}

void zsb_pipe_size(int fd, size_t want)
{
	if (want >= 4096)
		(void)fcntl(fd, F_SETPIPE_SZ, (int)want);
}

/* an engine's state starts zeroed: 0 is an fd it never opened */
void zsb_close_fds(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] > 0)
			close(fds[i]);
}

/* a fresh engine instance on c; 0, or -errno with c->err set */
static int eng_open(struct zsb_wctx *c)
{
	int e;

	c->priv = calloc(1, c->wl->eng->priv_size ? c->wl->eng->priv_size : 1);
	if (!c->priv)
		e = -ENOMEM;
	else
		e = c->wl->eng->open(c);
	if (e && !c->err)
		c->err = -e;
	return e;
}

static void eng_close(struct zsb_wctx *c)
{
	if (c->priv)
		c->wl->eng->close(c);
	free(c->priv);
	c->priv = NULL;
}

static int applies(const struct zsb_workload *w, const struct zsb_impl *im, int threads)
{
	if (w->flags & WL_FLOOR)
		return 0;
	if (im->dev == ZSB_DEV_FULLSPLICE && !(w->flags & WL_FULL_OK))
		return 0;
	if ((w->flags & WL_SINGLE) && threads != 1)
		return 0;
	return 1;
}

/* the floor is measured when a fast implementation is selected */
static const struct zsb_workload *floor_of(const struct zsb_opts *o)
{
	int fast = 0;

	for (int k = 0; k < o->nimpls; k++)
		fast |= o->impls[k]->kimpl == ZSPLICE_IMPL_ZEROPAGE ||
			o->impls[k]->kimpl == ZSPLICE_IMPL_FOLIO;
	if (!fast || o->no_floor)
		return NULL;
	for (size_t i = 0; i < zsb_nworkloads; i++)
		if (zsb_workloads[i].flags & WL_FLOOR)
			return &zsb_workloads[i];
	return NULL;
}

static void record(struct zsb_result *r, const char *src, const struct zsb_workload *wl,
		   const char *impl, int threads)
{
	snprintf(r->source, sizeof(r->source), "%s", src);
	snprintf(r->workload, sizeof(r->workload), "%s", wl->name);
	snprintf(r->variant, sizeof(r->variant), "%s", wl->variant);
	snprintf(r->impl, sizeof(r->impl), "%s", impl);
	r->size = wl->size;
	r->threads = threads;
	r->fill_count = -1;
	r->iowq_workers = -1;
}

static void unsupported(struct zsb_result *r, int err)
{
	const char *en = strerrorname_np(err);

	r->unsupported = 1;
	r->runs = 1;
	r->vals[0] = 0;
	snprintf(r->error, sizeof(r->error), "%s", en ? en : "?");
	zsb_result_finish(r);
}

/* ---- timed loops ---- */

struct worker {
	pthread_t th;
	struct zsb_wctx c;
	volatile int done;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct zsb_wctx *c = &w->c;
	long (*op)(struct zsb_wctx *) = c->wl->eng->op;
	int opened;

	zsb_signals_block(1);
	opened = !eng_open(c);
	pthread_barrier_wait(&start_barrier);
	while (opened && !*c->stop) {
		long n = op(c);

		if (n >= 0) {
			c->ops++;
			c->bytes += (uint64_t)n;
		} else if (n != -EINTR) {
			c->err = (int)-n;
			break;
		}
	}
	eng_close(c);
	w->done = 1;
	return NULL;
}

static void on_kick(int sig)
{
	(void)sig;
}

static void install_kick(void)
{
	static int done;
	struct sigaction sa;

	if (done)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_kick;	/* no SA_RESTART: blocking calls see EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	done = 1;
}

/* s seconds, or less when SIGINT or SIGTERM came */
static void sleep_for(double s)
{
	double end = zsb_now() + s;

	while (!zsb_stop_signal() && zsb_now() < end)
		zsb_wait(-1, end - zsb_now());
}

/* one timed run; returns ops/s and fills the aggregates */
static double run_once(const struct zsb_opts *o, const struct zsb_impl *im,
		       const struct zsb_workload *wl, int threads,
		       struct zsb_result *r, int *unsup, int *err,
		       char *note, size_t notelen)
{
	struct worker *w = calloc((size_t)threads, sizeof(*w));
	volatile int stop = 0;
	double t0, t1;
	uint64_t ops = 0, bytes = 0, enospc = 0;
	int nerr = 0;

	if (!w)
		return 0;
	pthread_barrier_init(&start_barrier, NULL, (unsigned int)threads + 1);
	for (int i = 0; i < threads; i++) {
		w[i].c.impl = im;
		w[i].c.wl = wl;
		w[i].c.thread = i;
		w[i].c.nthreads = threads;
		w[i].c.stop = &stop;
		w[i].c.fill_pipe = o->fill_pipe;
		w[i].c.fill_max = o->fill_max;
		pthread_create(&w[i].th, NULL, worker_main, &w[i]);
	}
	pthread_barrier_wait(&start_barrier);
	t0 = zsb_now();
	sleep_for(o->duration);
	stop = 1;
	for (;;) {
		int alive = 0;

		for (int i = 0; i < threads; i++)
			if (!w[i].done) {
				alive++;
				pthread_kill(w[i].th, SIGUSR1);
			}
		if (!alive)
			break;
		sleep_for(0.01);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(w[i].th, NULL);
	t1 = zsb_now();
	pthread_barrier_destroy(&start_barrier);
	for (int i = 0; i < threads; i++) {
		struct zsb_wctx *c = &w[i].c;

		ops += c->ops;
		bytes += c->bytes;
		enospc += c->enospc;
		if (c->err) {
			nerr++;
			*err = c->err;
		}
		if (wl->flags & WL_FILL) {
			r->fill_count = (double)c->fill_count;
			r->fill_capped |= c->fill_capped;
		}
		if (r->iowq_workers >= 0 && c->iowq_workers > r->iowq_workers)
			r->iowq_workers = c->iowq_workers;
		if (c->note[0] && !note[0])
			snprintf(note, notelen, "%s", c->note);
	}
	*unsup = ops == 0 && nerr > 0;
	r->bytes_per_sec_mean += (double)bytes / (t1 - t0);
	r->enospc_per_sec += (double)enospc / (t1 - t0);
	free(w);
	return (double)ops / (t1 - t0);
}

static void run_timed(const struct zsb_opts *o, const struct zsb_impl *im,
		      const struct zsb_workload *wl, int threads, const char *impl,
		      struct zsb_result *r, int idx, int total)
{
	char note[96] = "", szb[16];
	int unsup = 0, err = 0;

	install_kick();
	record(r, "zsbench", wl, impl, threads);
	if (wl->eng == &zsb_eng_uring)
		r->iowq_workers = 0;
	if (wl->flags & WL_FILL) {
		r->unit = ZSB_UNIT_FILL_COUNT;
		snprintf(r->metric, sizeof(r->metric), "zsbench.fill.%s.fill_count",
			 zsb_size_str(o->fill_pipe, szb, sizeof(szb)));
	} else {
		r->unit = ZSB_UNIT_OPS_PER_SEC;
		snprintf(r->metric, sizeof(r->metric), "zsbench.%s.%dt.ops_per_sec",
			 wl->variant, threads);
	}
	for (int run = 0; run < o->runs; run++) {
		double left = (double)(total - idx) * o->runs * o->duration -
			      run * o->duration;

		zsb_progress("[%d/%d] %-13s %-18s threads=%d run %d/%d  ~%.0fs left",
			     idx + 1, total, im->name, wl->variant, threads,
			     run + 1, o->runs, left);
		r->vals[run] = run_once(o, im, wl, threads, r, &unsup, &err, note, sizeof(note));
		r->runs = run + 1;
		if (unsup || zsb_stop_signal())
			break;
	}
	r->bytes_per_sec_mean /= r->runs;
	r->enospc_per_sec /= r->runs;
	if (unsup) {
		r->unsupported = 1;
		r->runs = 1;
		r->vals[0] = 0;
	}
	if (err) {
		const char *en = strerrorname_np(err);

		snprintf(r->error, sizeof(r->error), "%s", en ? en : "?");
	}
	snprintf(r->note, sizeof(r->note), "%s", note);
	zsb_result_finish(r);
}

/* ---- fixed-count loops ---- */

uint64_t zsb_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Guest ns per instruction: a loop of IC_CAL_INSNS instructions, timed.
 * 1.00 under -icount shift=0 (plus the few timer interrupts it takes);
 * on hardware a fraction of a nanosecond.  0 where the loop is not known.
 */
static double ic_calibrate(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	uint64_t n = ZSB_CAL_LOOPS, t0, t1;

	t0 = zsb_ns();
#if defined(__x86_64__)
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#endif
	t1 = zsb_ns();
	return (double)(t1 - t0) / (double)IC_CAL_INSNS;
#else
	return 0;
#endif
}

/*
 * Wait until nothing else runs: right after boot the kernel's own
 * asynchronous work (crypto self-tests, workqueues) takes turns with us on
 * the CPU, and every instruction it executes meanwhile is guest time.
 * Settled is two calibration loops in a row within 1 % of one ns per
 * instruction, 50 ms apart (asleep, so that the others can finish).
 * Returns 1 when settled; *nspi is the last figure, *tries the loops.
 * Elsewhere (hardware: well under 1 ns per instruction) it returns 0 at once.
 */
static int ic_settle(double *nspi, int *tries)
{
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	int good = 0;

	for (*tries = 1; *tries <= IC_SETTLE_TRIES && !zsb_stop_signal(); ++*tries) {
		*nspi = ic_calibrate();
		good = *nspi > 0.99 && *nspi < 1.01 ? good + 1 : 0;
		if (good == 2)
			return 1;
		if (*nspi < 0.5)
			return 0;
		nanosleep(&pause, NULL);
	}
	return 0;
}

static int ic_pin(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* n ops; the guest ns they took, or 0 with *err set */
static uint64_t fixed_loop(struct zsb_wctx *c, uint64_t n, int *err)
{
	long (*op)(struct zsb_wctx *) = c->wl->eng->op;
	uint64_t t0 = zsb_ns(), i;

	for (i = 0; i < n; i++) {
		long r = op(c);

		if (r < 0) {
			*err = (int)-r;
			return 0;
		}
	}
	return zsb_ns() - t0;
}

/* two significant digits, at least 8: the count of one repetition */
static uint64_t ic_count(double budget_ns, double cost)
{
	double c = cost > 0 ? budget_ns / cost : 8, p = 1;

	while (c / p >= 100)
		p *= 10;
	c = (double)(uint64_t)(c / p) * p;
	return c < 8 ? 8 : (uint64_t)c;
}

static void fixed_record(struct zsb_result *r, const char *src, const struct zsb_workload *w,
			 const char *impl, enum zsb_unit unit)
{
	record(r, src, w, impl, 1);
	snprintf(r->metric, sizeof(r->metric), "%s.%s.1t.%s", src, w->variant,
		 zsb_unit_name(unit));
	r->unit = unit;
}

static void run_fixed(const struct zsb_opts *o, const struct zsb_impl *im,
		      const struct zsb_workload *w, const char *src, const char *impl,
		      struct zsb_results *rs)
{
	double budget = o->duration * 1e9;
	uint64_t warm = 0, took = 0, n;
	struct zsb_result *ns, *ops;
	struct zsb_wctx c = {
		.impl = im, .wl = w, .nthreads = 1, .fill_pipe = o->fill_pipe,
		.fill_max = o->fill_max,
	};
	int err = 0;

	/* two adjacent records; the second add may move the array */
	zsb_results_add(rs);
	ops = zsb_results_add(rs);
	ns = ops - 1;
	fixed_record(ns, src, w, impl, ZSB_UNIT_NS_PER_OP);
	fixed_record(ops, src, w, impl, ZSB_UNIT_OPS_PER_SEC);
	if (eng_open(&c))
		err = c.err;
	while (!err && (warm < 8 || (double)took < budget / 4)) {
		took += fixed_loop(&c, 1, &err);
		warm++;
	}
	n = ic_count(budget, warm ? (double)took / (double)warm : 0);
	for (int run = 0; run < o->runs && !err && !zsb_stop_signal(); run++) {
		uint64_t t = fixed_loop(&c, n, &err);

		ns->vals[run] = (double)t / (double)n;
		ops->vals[run] = t ? 1e9 * (double)n / (double)t : 0;
		ns->runs = ops->runs = run + 1;
	}
	eng_close(&c);
	if (err) {
		unsupported(ns, err);
		unsupported(ops, err);
		return;
	}
	ns->count = ops->count = n;
	zsb_result_finish(ns);
	zsb_result_finish(ops);
}

/* check and complete the options of --icount; -1 with a message in err */
int zsb_icount_opts(struct zsb_opts *o, char *err, size_t el)
{
	static const char *const impls[] = { "devzero", "copy", "zeropage", "folio" };
	static const char *const wls[] = {
		"splice-1", "splice-4K", "splice-64K", "splice-1M",
		"splice-write-64K", "sendfile-null-64K",
	};

	if (o->stress_ng || o->fio || o->lkp_splice) {
		snprintf(err, el, "--icount runs zsbench's own loops only, and the "
			 "programs (no stress-ng, fio, lkp-splice)");
		return -1;
	}
	if (o->nthreads > 1 || (o->nthreads == 1 && o->threads[0] != 1)) {
		snprintf(err, el, "--icount runs one thread (-icount serialises the vCPUs)");
		return -1;
	}
	o->threads[0] = 1;
	o->nthreads = 1;
	if (!o->duration)
		o->duration = IC_BUDGET_DEFAULT;
	if (!o->nwls && !o->no_workloads) {
		for (size_t i = 0; i < sizeof(wls) / sizeof(wls[0]); i++)
			o->wls[o->nwls++] = zsb_workload_find(wls[i]);
		for (size_t i = 0; i < zsb_nprograms; i++)
			o->progs[o->nprogs++] = &zsb_programs[i];
	}
	if (!o->nimpls)
		for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++)
			o->impls[o->nimpls++] = zsb_impl_find(impls[i]);
	return 0;
}

const char *zsb_icount_source(struct zsb_results *rs)
{
	static const char *src;

	if (src)
		return src;
	if (ic_pin())
		fprintf(stderr, "zsbench: --icount: cannot pin to one CPU: %m\n");
	src = ic_settle(&rs->clock_nspi, &rs->clock_tries) ? ZSB_ICOUNT_SOURCE :
							      ZSB_FIXED_SOURCE;
	if (strcmp(src, ZSB_ICOUNT_SOURCE))
		fprintf(stderr, "zsbench: --icount: %.3f ns per instruction after %d loop(s): "
			"not a settled guest under QEMU -icount shift=0; the figures are "
			"wall-clock ns (source \"%s\")\n", rs->clock_nspi, rs->clock_tries, src);
	return src;
}

static void run_icount(const struct zsb_opts *o, struct zsb_results *rs)
{
	const struct zsb_workload *floor = floor_of(o);
	const char *src;
	int idx = 0, total = 0;

	src = zsb_icount_source(rs);
	rs->fixed_runs = o->runs;
	for (int w = 0; w < o->nwls; w++)
		for (int k = 0; k < o->nimpls; k++)
			total += applies(o->wls[w], o->impls[k], 1);
	total += floor != NULL;
	for (int w = 0; w < o->nwls; w++)
		for (int k = 0; k < o->nimpls; k++) {
			const struct zsb_impl *im = o->impls[k];

			if (!applies(o->wls[w], im, 1) || zsb_stop_signal())
				continue;
			zsb_progress("[%d/%d] %s %-13s %s", ++idx, total, src, im->name,
				     o->wls[w]->variant);
			run_fixed(o, im, o->wls[w], src, im->name, rs);
		}
	if (floor && !zsb_stop_signal()) {
		zsb_progress("[%d/%d] %s floor", ++idx, total, src);
		run_fixed(o, zsb_impl_find("folio"), floor, src, ZSB_FLOOR_IMPL, rs);
	}
	zsb_progress_done();
}

/* zsbench's own workloads over the selection, timed or (--icount) fixed-count */
void zsb_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	const struct zsb_workload *floor = floor_of(o);
	int total = 0, idx = 0;

	if (o->icount) {
		run_icount(o, rs);
		return;
	}
	for (int w = 0; w < o->nwls; w++)
		for (int t = 0; t < o->nthreads; t++)
			for (int k = 0; k < o->nimpls; k++)
				total += applies(o->wls[w], o->impls[k], o->threads[t]);
	total += floor ? o->nthreads : 0;
	for (int w = 0; w < o->nwls; w++)
		for (int t = 0; t < o->nthreads; t++)
			for (int k = 0; k < o->nimpls; k++) {
				if (!applies(o->wls[w], o->impls[k], o->threads[t]) ||
				    zsb_stop_signal())
					continue;
				run_timed(o, o->impls[k], o->wls[w], o->threads[t],
					  o->impls[k]->name, zsb_results_add(rs), idx++, total);
			}
	for (int t = 0; floor && t < o->nthreads && !zsb_stop_signal(); t++)
		run_timed(o, zsb_impl_find("folio"), floor, o->threads[t], ZSB_FLOOR_IMPL,
			  zsb_results_add(rs), idx++, total);
}
