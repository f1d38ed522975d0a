// SPDX-License-Identifier: GPL-2.0
/* Runs one (implementation, workload, threads) combination R times. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "zsbench.h"

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

void zsb_begin(struct zsb_wctx *c)
{
	if (c->begun)
		return;
	c->begun = 1;
	pthread_barrier_wait(&start_barrier);
}

struct worker {
	pthread_t th;
	struct zsb_wctx c;
	volatile int done;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->c.wl->fn(&w->c);
	zsb_begin(&w->c);
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

static void sleep_for(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
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

/* one timed run; returns ops/s and fills the aggregates */
static double run_once(const struct zsb_opts *o, const struct zsb_impl *im,
		       const struct zsb_workload *wl, int threads,
		       struct zsb_result *r, int *unsupported, int *err,
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
	*unsupported = ops == 0 && nerr > 0;
	r->bytes_per_sec_mean += (double)bytes / (t1 - t0);
	r->enospc_per_sec += (double)enospc / (t1 - t0);
	free(w);
	return (double)ops / (t1 - t0);
}

int zsb_run_one(const struct zsb_opts *o, const struct zsb_impl *im,
		const struct zsb_workload *wl, int threads, struct zsb_result *r,
		int idx, int total)
{
	char note[96] = "", szb[16];
	int unsupported = 0, err = 0;

	install_kick();
	snprintf(r->source, sizeof(r->source), "zsbench");
	snprintf(r->workload, sizeof(r->workload), "%s", wl->name);
	snprintf(r->variant, sizeof(r->variant), "%s", wl->variant);
	snprintf(r->impl, sizeof(r->impl), "%s", im->name);
	r->size = wl->size;
	r->threads = threads;
	r->fill_count = -1;
	r->iowq_workers = (!strcmp(wl->name, "uring")) ? 0 : -1;
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
		r->vals[run] = run_once(o, im, wl, threads, r, &unsupported,
					&err, note, sizeof(note));
		r->runs = run + 1;
		if (unsupported)
			break;
	}
	r->bytes_per_sec_mean /= r->runs;
	r->enospc_per_sec /= r->runs;
	if (unsupported) {
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
	return 0;
}
