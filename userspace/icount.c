// SPDX-License-Identifier: GPL-2.0
/*
 * --icount: fixed-count loops for a guest booted under QEMU
 * "-icount shift=0,sleep=off".  There guest time advances one nanosecond
 * per executed guest instruction (the vCPUs take turns on one host
 * thread), so the guest nanoseconds an operation takes are the
 * instructions it executed: the same figure on every boot, whatever the
 * host is doing.  Each measurement is a warm-up of the operation, then
 * --runs repetitions of one fixed count of operations; a record is the
 * cost per operation (ns_per_op) and the operations per guest second.
 *
 * zsbench checks the clock first: a loop of a known number of
 * instructions must take as many guest nanoseconds.  Elsewhere the same
 * loops run, labelled "fixed" (wall-clock ns) instead of "icount".
 *
 * One thread only: under -icount the vCPUs are serialised, so a second
 * thread adds nothing but its own instructions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

#include <linux/zsplice.h>

#include "zsbench.h"

/* guest seconds per repetition when --duration is not given */
#define IC_BUDGET_DEFAULT	0.02
/* the calibration loop: two instructions per iteration */
#define IC_CAL_LOOPS		10000000ULL
#define IC_CAL_INSNS		(2 * IC_CAL_LOOPS)
/* calibration loops to wait for the guest to settle, at most */
#define IC_SETTLE_TRIES		100

struct ic_fds {
	int dev, null, p[2];
	size_t size;
	char *buf;
};

struct ic_op {
	const char *name;	/* zsb_workload.name it measures */
	const char *variant;	/* NULL: every variant of that workload */
	int wflags;		/* O_RDONLY or O_WRONLY for the device */
	int (*prime)(struct ic_fds *f);
	int (*op)(struct ic_fds *f);
};

/* what the last run found, for the table (zsb_icount_report) */
static double ic_nspi = -1;	/* guest ns per instruction; -1: not measured here */
static int ic_runs, ic_tries;
static struct {
	char variant[48], impl[24];
	uint64_t count;
} ic_counts[2 * ZSB_MAX_SEL + 1];
static int ic_ncounts;

static uint64_t ic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* n bytes from the pipe to /dev/null */
static int ic_drain(struct ic_fds *f, size_t n)
{
	while (n) {
		ssize_t m = splice(f->p[0], NULL, f->null, NULL, n, 0);

		if (m <= 0)
			return m < 0 ? -errno : -EIO;
		n -= (size_t)m;
	}
	return 0;
}

/* splice-N: device -> pipe, pipe -> /dev/null (as wl_splice) */
static int ic_splice(struct ic_fds *f)
{
	ssize_t n = splice(f->dev, NULL, f->p[1], NULL, f->size, 0);

	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	return ic_drain(f, (size_t)n);
}

/* the floor: two bytes first, so that taking one leaves the buffer */
static int ic_floor_prime(struct ic_fds *f)
{
	return splice(f->dev, NULL, f->p[1], NULL, 2, 0) == 2 ? 0 : -(errno ?: EIO);
}

static int ic_floor(struct ic_fds *f)
{
	ssize_t n = splice(f->dev, NULL, f->p[1], NULL, 1, 0);

	if (n != 1)
		return n < 0 ? -errno : -EIO;
	return ic_drain(f, 1);
}

/* splice-write: write() into the pipe, splice pipe -> device */
static int ic_splice_write(struct ic_fds *f)
{
	ssize_t n = write(f->p[1], f->buf, f->size);
	size_t left;

	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	for (left = (size_t)n; left; left -= (size_t)n) {
		n = splice(f->p[0], NULL, f->dev, NULL, left, 0);
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
	}
	return 0;
}

/* sendfile-null: device -> /dev/null through the internal pipe */
static int ic_sendfile(struct ic_fds *f)
{
	ssize_t n = sendfile(f->null, f->dev, NULL, f->size);

	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	return 0;
}

static const struct ic_op ic_ops[] = {
	{ "splice", NULL, O_RDONLY, NULL, ic_splice },
	{ "floor", NULL, O_RDONLY, ic_floor_prime, ic_floor },
	{ "splice-write", NULL, O_WRONLY, NULL, ic_splice_write },
	{ "sendfile", "sendfile-null-64K", O_RDONLY, NULL, ic_sendfile },
};

static const struct ic_op *ic_op_find(const struct zsb_workload *w)
{
	for (size_t i = 0; i < sizeof(ic_ops) / sizeof(ic_ops[0]); i++)
		if (!strcmp(ic_ops[i].name, w->name) &&
		    (!ic_ops[i].variant || !strcmp(ic_ops[i].variant, w->variant)))
			return &ic_ops[i];
	return NULL;
}

/* the workloads --icount runs when --workload is not given */
static const char *const ic_default_wls[] = {
	"splice-1", "splice-4K", "splice-64K", "splice-1M",
	"splice-write-64K", "sendfile-null-64K",
};

static const char *const ic_default_impls[] = { "devzero", "copy", "zeropage", "folio" };

int zsb_icount_opts(struct zsb_opts *o, char *err, size_t el)
{
	if (o->stress_ng || o->fio || o->lkp_splice || o->no_workloads) {
		snprintf(err, el, "--icount runs zsbench's own loops only (no stress-ng, fio, lkp-splice)");
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
	for (int i = 0; i < o->nwls; i++)
		if (!ic_op_find(o->wls[i])) {
			snprintf(err, el, "--icount has no fixed-count loop for '%s' "
				 "(splice-*, splice-write-*, sendfile-null-64K)", o->wls[i]->variant);
			return -1;
		}
	if (!o->nwls)
		for (size_t i = 0; i < sizeof(ic_default_wls) / sizeof(ic_default_wls[0]); i++)
			for (size_t k = 0; k < zsb_nworkloads; k++)
				if (!strcmp(zsb_workloads[k].variant, ic_default_wls[i]))
					o->wls[o->nwls++] = &zsb_workloads[k];
	if (!o->nimpls)
		for (size_t i = 0; i < sizeof(ic_default_impls) / sizeof(ic_default_impls[0]); i++)
			o->impls[o->nimpls++] = zsb_impl_find(ic_default_impls[i]);
	return 0;
}

/*
 * Guest ns per instruction: a loop of IC_CAL_INSNS instructions, timed.
 * 1.00 under -icount shift=0 (plus the few timer interrupts it takes);
 * on hardware a fraction of a nanosecond.  0 where the loop is not known.
 */
static double ic_calibrate(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	uint64_t n = IC_CAL_LOOPS, t0, t1;

	t0 = ic_ns();
#if defined(__x86_64__)
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#endif
	t1 = ic_ns();
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

	for (*tries = 1; *tries <= IC_SETTLE_TRIES; ++*tries) {
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

static void ic_close(struct ic_fds *f)
{
	int *fds[] = { &f->dev, &f->null, &f->p[0], &f->p[1] };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	free(f->buf);
}

static int ic_open(struct ic_fds *f, const struct zsb_impl *im, const struct ic_op *op,
		   size_t size)
{
	int fd;

	*f = (struct ic_fds){ .dev = -1, .null = -1, .p = { -1, -1 }, .size = size };
	fd = zsb_impl_open(im, op->wflags);
	if (fd < 0)
		return fd;
	f->dev = fd;
	f->null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (f->null < 0 || pipe2(f->p, O_CLOEXEC) < 0)
		return -errno;
	if (size >= 4096 && fcntl(f->p[1], F_SETPIPE_SZ, (int)size) < 0)
		return -errno;
	f->buf = calloc(1, size);
	if (!f->buf)
		return -ENOMEM;
	return op->prime ? op->prime(f) : 0;
}

/* run op n times; the guest ns it took, or 0 with *err set */
static uint64_t ic_loop(const struct ic_op *op, struct ic_fds *f, uint64_t n, int *err)
{
	uint64_t t0 = ic_ns(), i;

	for (i = 0; i < n; i++) {
		*err = op->op(f);
		if (*err)
			return 0;
	}
	return ic_ns() - t0;
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

static void ic_record(struct zsb_result *r, const char *src, const struct zsb_workload *w,
		      const char *impl, enum zsb_unit unit)
{
	snprintf(r->source, sizeof(r->source), "%s", src);
	snprintf(r->workload, sizeof(r->workload), "%s", w->name);
	snprintf(r->variant, sizeof(r->variant), "%s", w->variant);
	snprintf(r->impl, sizeof(r->impl), "%s", impl);
	snprintf(r->metric, sizeof(r->metric), "%s.%s.1t.%s", src, w->variant,
		 zsb_unit_name(unit));
	r->unit = unit;
	r->size = w->size;
	r->threads = 1;
}

static void ic_unsupported(struct zsb_result *r, int err)
{
	const char *en = strerrorname_np(err);

	r->unsupported = 1;
	r->runs = 1;
	r->vals[0] = 0;
	snprintf(r->error, sizeof(r->error), "%s", en ? en : "?");
	zsb_result_finish(r);
}

/*
 * One measurement: a warm-up of a quarter of the budget (at least 8
 * operations) sets the count, then o->runs repetitions of that count.
 */
static void ic_measure(const struct zsb_opts *o, const struct zsb_impl *im,
		       const struct zsb_workload *w, const char *src, const char *impl,
		       struct zsb_results *rs, uint64_t *count)
{
	const struct ic_op *op = ic_op_find(w);
	double budget = o->duration * 1e9;
	uint64_t warm = 0, took = 0, n;
	struct zsb_result *ns, *ops;
	struct ic_fds f;
	int err;

	/* two adjacent records; the second add may move the array */
	zsb_results_add(rs);
	ops = zsb_results_add(rs);
	ns = ops - 1;
	ic_record(ns, src, w, impl, ZSB_UNIT_NS_PER_OP);
	ic_record(ops, src, w, impl, ZSB_UNIT_OPS_PER_SEC);
	*count = 0;
	err = ic_open(&f, im, op, w->size);
	while (!err && (warm < 8 || (double)took < budget / 4)) {
		uint64_t t = ic_loop(op, &f, 1, &err);

		took += t;
		warm++;
	}
	if (err) {
		ic_close(&f);
		ic_unsupported(ns, -err);
		ic_unsupported(ops, -err);
		return;
	}
	n = ic_count(budget, (double)took / (double)warm);
	for (int run = 0; run < o->runs && !err; run++) {
		uint64_t t = ic_loop(op, &f, n, &err);

		ns->vals[run] = (double)t / (double)n;
		ops->vals[run] = t ? 1e9 * (double)n / (double)t : 0;
		ns->runs = ops->runs = run + 1;
	}
	ic_close(&f);
	if (err) {
		ic_unsupported(ns, -err);
		ic_unsupported(ops, -err);
		return;
	}
	*count = n;
	zsb_result_finish(ns);
	zsb_result_finish(ops);
}

static void ic_note_count(const struct zsb_results *rs, uint64_t count)
{
	const struct zsb_result *r = &rs->r[rs->n - 1];

	if (ic_ncounts >= (int)(sizeof(ic_counts) / sizeof(ic_counts[0])))
		return;
	snprintf(ic_counts[ic_ncounts].variant, sizeof(ic_counts[0].variant), "%s", r->variant);
	snprintf(ic_counts[ic_ncounts].impl, sizeof(ic_counts[0].impl), "%s", r->impl);
	ic_counts[ic_ncounts++].count = count;
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

int zsb_icount_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	const struct zsb_workload *floor = NULL;
	double nspi;
	const char *src;
	uint64_t count;
	int fast = 0, idx = 0, total;

	if (ic_pin())
		fprintf(stderr, "zsbench: --icount: cannot pin to one CPU: %m\n");
	src = ic_settle(&nspi, &ic_tries) ? ZSB_ICOUNT_SOURCE : ZSB_FIXED_SOURCE;
	ic_nspi = nspi;
	ic_runs = o->runs;
	if (strcmp(src, ZSB_ICOUNT_SOURCE))
		fprintf(stderr, "zsbench: --icount: %.3f ns per instruction after %d loop(s): "
			"not a settled guest under QEMU -icount shift=0; the figures are "
			"wall-clock ns (source \"%s\")\n", nspi, ic_tries, src);
	for (size_t i = 0; i < zsb_nworkloads; i++)
		if (zsb_workloads[i].flags & WL_FLOOR)
			floor = &zsb_workloads[i];
	for (int k = 0; k < o->nimpls; k++)
		fast |= o->impls[k]->kimpl == ZSPLICE_IMPL_ZEROPAGE ||
			o->impls[k]->kimpl == ZSPLICE_IMPL_FOLIO;
	if (o->no_floor)
		fast = 0;
	total = o->nwls * o->nimpls + fast;
	for (int w = 0; w < o->nwls; w++)
		for (int k = 0; k < o->nimpls; k++) {
			const struct zsb_impl *im = o->impls[k];

			if (im->dev == ZSB_DEV_FULLSPLICE && !(o->wls[w]->flags & WL_FULL_OK))
				continue;
			zsb_progress("[%d/%d] %s %-13s %s", ++idx, total, src, im->name,
				     o->wls[w]->variant);
			ic_measure(o, im, o->wls[w], src, im->name, rs, &count);
			ic_note_count(rs, count);
		}
	if (fast && floor) {
		zsb_progress("[%d/%d] %s floor", ++idx, total, src);
		ic_measure(o, zsb_impl_find("folio"), floor, src, ZSB_FLOOR_IMPL, rs, &count);
		ic_note_count(rs, count);
	}
	zsb_progress_done();
	return 0;
}

/* ---- the table ---- */

static int ic_source(const char *s)
{
	return !strcmp(s, ZSB_ICOUNT_SOURCE) || !strcmp(s, ZSB_FIXED_SOURCE);
}

static const struct zsb_result *ic_find(const struct zsb_results *rs, const char *variant,
					const char *impl, enum zsb_unit unit)
{
	for (int i = 0; i < rs->n; i++) {
		const struct zsb_result *r = &rs->r[i];

		if (ic_source(r->source) && r->unit == unit && !strcmp(r->variant, variant) &&
		    !strcmp(r->impl, impl))
			return r;
	}
	return NULL;
}

/* 1234567 -> "1,234,567" */
static const char *ic_num(char *buf, size_t len, double v)
{
	char t[32];
	size_t n, o = 0;

	snprintf(t, sizeof(t), "%.0f", v);
	n = strlen(t);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && t[i] != '-' && (n - i) % 3 == 0 && t[i - 1] != '-')
			buf[o++] = ',';
		buf[o++] = t[i];
	}
	buf[o] = 0;
	return buf;
}

static int ic_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The median of a record's repetitions: what the table shows and the perf
 * gate judges.  Whatever else the kernel runs meanwhile (RCU, workqueues)
 * only adds instructions, to one repetition now and then; the median
 * leaves such a repetition out where the mean would not.
 */
double zsb_icount_median(const struct zsb_result *r)
{
	double v[ZSB_MAX_RUNS];
	int n = r->runs;

	if (n <= 0)
		return 0;
	memcpy(v, r->vals, sizeof(v[0]) * (size_t)n);
	qsort(v, (size_t)n, sizeof(v[0]), ic_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* (max - min) / median of a record's repetitions, in % */
static double ic_spread(const struct zsb_result *r)
{
	double lo = r->vals[0], hi = r->vals[0], med = zsb_icount_median(r);

	for (int i = 1; i < r->runs; i++) {
		lo = r->vals[i] < lo ? r->vals[i] : lo;
		hi = r->vals[i] > hi ? r->vals[i] : hi;
	}
	return med > 0 ? 100 * (hi - lo) / med : 0;
}

static uint64_t ic_count_of(const char *variant, const char *impl)
{
	for (int i = 0; i < ic_ncounts; i++)
		if (!strcmp(ic_counts[i].variant, variant) && !strcmp(ic_counts[i].impl, impl))
			return ic_counts[i].count;
	return 0;
}

enum ic_block { IC_COST, IC_OPS, IC_FLOOR, IC_COUNT };

static void ic_cell(FILE *f, const struct zsb_results *rs, enum ic_block b,
		    const char *variant, const char *impl, const struct zsb_result *fl)
{
	const struct zsb_result *r = ic_find(rs, variant, impl,
					     b == IC_OPS ? ZSB_UNIT_OPS_PER_SEC : ZSB_UNIT_NS_PER_OP);
	char num[40], cell[64];

	if (!r) {
		fprintf(f, " %16s", "");
		return;
	}
	if (r->unsupported) {
		fprintf(f, " %16s", r->error[0] ? r->error : "unsupp");
		return;
	}
	switch (b) {
	case IC_COST:
	case IC_OPS:
		snprintf(cell, sizeof(cell), "%s %4.1f%%",
			 ic_num(num, sizeof(num), zsb_icount_median(r)), ic_spread(r));
		break;
	case IC_FLOOR:
		if (!fl || fl->unsupported || zsb_icount_median(fl) <= 0)
			snprintf(cell, sizeof(cell), "-");
		else
			snprintf(cell, sizeof(cell), "%.3f",
				 zsb_icount_median(r) / zsb_icount_median(fl));
		break;
	case IC_COUNT:
		if (ic_count_of(variant, impl))
			ic_num(cell, sizeof(cell), (double)ic_count_of(variant, impl));
		else
			snprintf(cell, sizeof(cell), "-");
		break;
	}
	fprintf(f, " %16s", cell);
}

/*
 * The cost table of --icount records: guest ns (instructions) per
 * operation, operations per guest second, the cost as a multiple of the
 * floor's, and the count of one repetition, one row per workload and one
 * column per implementation.  Nothing without such records.
 */
void zsb_icount_report(FILE *f, const struct zsb_results *rs)
{
	static const char *const heads[] = {
		"guest ns per operation (= instructions; lower is better): median, spread "
		"(max - min) / median",
		"operations per guest second: median, spread",
		"cost as a multiple of the floor's (the 1-byte splice pair into our tail buffer)",
		"operations per repetition (fixed for the run; set by the warm-up)",
	};
	const char *impls[ZSB_MAX_SEL], *variants[ZSB_MAX_SEL];
	const struct zsb_result *fl = NULL;
	int ni = 0, nv = 0, fixed = 0;

	for (int i = 0; i < rs->n; i++) {
		const struct zsb_result *r = &rs->r[i];

		if (!ic_source(r->source) || r->unit != ZSB_UNIT_NS_PER_OP)
			continue;
		fixed |= !strcmp(r->source, ZSB_FIXED_SOURCE);
		if (!strcmp(r->impl, ZSB_FLOOR_IMPL)) {
			fl = r;
			continue;
		}
		ni = zsb_add_unique(impls, ni, ZSB_MAX_SEL, r->impl);
		nv = zsb_add_unique(variants, nv, ZSB_MAX_SEL, r->variant);
	}
	if (!ni && !fl)
		return;
	fprintf(f, "\n================================================================="
		   "========================\n");
	if (fixed)
		fprintf(f, "fixed-count loops, WALL-CLOCK ns (not under QEMU -icount shift=0)\n");
	else
		fprintf(f, "fixed-count loops under QEMU -icount shift=0: 1 guest ns = 1 "
			"instruction executed\n");
	if (ic_nspi > 0)
		fprintf(f, "clock check: a loop of %llu instructions took %.4f ns per "
			"instruction (%d loop(s) to settle)\n", IC_CAL_INSNS, ic_nspi, ic_tries);
	fprintf(f, "one thread only: -icount serialises the vCPUs, so the thread axis is "
		"dropped\n");
	if (ic_runs)
		fprintf(f, "each figure: the median of %d repetitions after a warm-up (the JSON "
			"records have every one)\n", ic_runs);
	for (int b = IC_COST; b <= IC_COUNT; b++) {
		if ((b == IC_FLOOR && !fl) || (b == IC_COUNT && !ic_ncounts))
			continue;
		if (b == IC_COST && fixed)
			fprintf(f, "\nwall-clock ns per operation (lower is better): median, spread "
				"(max - min) / median\n%-18s", "workload");
		else
			fprintf(f, "\n%s\n%-18s", heads[b], "workload");
		for (int k = 0; k < ni; k++)
			fprintf(f, " %16s", impls[k]);
		fputc('\n', f);
		for (int v = 0; v < nv; v++) {
			fprintf(f, "%-18s", variants[v]);
			for (int k = 0; k < ni; k++)
				ic_cell(f, rs, b, variants[v], impls[k], fl);
			fputc('\n', f);
		}
		if (fl) {
			/* under the folio column, where it was measured */
			int col = 0;

			for (int k = 0; k < ni; k++)
				col = strcmp(impls[k], "folio") ? col : k;
			fprintf(f, "%-18s%*s", "floor", 17 * col, "");
			ic_cell(f, rs, b, fl->variant, ZSB_FLOOR_IMPL, fl);
			fputc('\n', f);
		}
	}
	fflush(f);
}
