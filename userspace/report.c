// SPDX-License-Identifier: GPL-2.0
/* The comparison table in the layout of the kernel test robot's reports. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "zsbench.h"

static const struct zsb_result *find(const struct zsb_results *rs,
				     const char *metric, const char *impl)
{
	for (int i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].metric, metric) && !strcmp(rs->r[i].impl, impl))
			return &rs->r[i];
	return NULL;
}

static int find_impl(const struct zsb_results *rs, const char *impl)
{
	for (int i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].impl, impl))
			return 1;
	return 0;
}

static int is_fill(const struct zsb_result *r)
{
	return r->unit == ZSB_UNIT_FILL_COUNT;
}

static double val(const struct zsb_result *r)
{
	return is_fill(r) ? r->fill_count : r->mean;
}

static double sd(const struct zsb_result *r)
{
	return is_fill(r) ? 0 : r->stddev;
}

/* value column: number and sigma, 10 + 1 + 5 display columns */
static void cell(char *buf, size_t len, const struct zsb_result *r)
{
	char num[32], sig[16];

	if (r->unsupported) {
		snprintf(buf, len, "%10s %5s", r->error[0] ? r->error : "unsupp", "");
		return;
	}
	zsb_fmt_num(num, sizeof(num), val(r));
	zsb_fmt_sigma(sig, sizeof(sig), val(r), sd(r));
	/* a fill cut short by --fill-max: at least that many */
	snprintf(buf, len, "%s%*s %s", r->fill_capped ? ">=" : "",
		 r->fill_capped ? 8 : 10, num, sig);
}

/* the notes of a run's records (a capped fill, a stall, an error), if any */
static void notes(FILE *f, const struct zsb_results *rs, const char *tag)
{
	int n = 0;

	for (int i = 0; i < rs->n; i++) {
		const struct zsb_result *r = &rs->r[i];

		if (!r->note[0])
			continue;
		if (!n++)
			fprintf(f, "\nnotes%s:\n", tag);
		fprintf(f, "  %s [%s]: %s\n", r->metric, r->impl, r->note);
	}
}

static void row(FILE *f, const struct zsb_result *b, const struct zsb_result *c,
		const char *label)
{
	char bc[64], cc[64], ch[32];

	cell(bc, sizeof(bc), b);
	cell(cc, sizeof(cc), c);
	if (b->unsupported || c->unsupported)
		snprintf(ch, sizeof(ch), "n/a");
	else
		zsb_fmt_change(ch, sizeof(ch), val(b), val(c));
	fprintf(f, "%s %10s %s  %s\n", bc, ch, cc, label ? label : c->metric);
}

static void extra_row(FILE *f, const struct zsb_result *b, const struct zsb_result *c,
		      double bv, double cv, const char *suffix, const char *tag)
{
	char bn[32], cn[32], ch[32], m[128];

	zsb_fmt_num(bn, sizeof(bn), bv);
	zsb_fmt_num(cn, sizeof(cn), cv);
	zsb_fmt_change(ch, sizeof(ch), bv, cv);
	snprintf(m, sizeof(m), "%s", c->metric);
	{
		char *dot = strrchr(m, '.');

		if (dot)
			*dot = 0;
	}
	(void)b;
	fprintf(f, "%10s %5s %10s %10s %5s  %s.%s%s\n", bn, "", ch, cn, "", m, suffix,
		tag ? tag : "");
}

/* The LKP-style column heads of a table of NAME_B against NAME_C. */
static void table_head(FILE *f, const char *name_b, const char *name_c)
{
	fprintf(f, "%16.16s %27.27s\n", name_b, name_c);
	fprintf(f, "---------------- ---------------------------\n");
	fprintf(f, "         %%stddev     %%change         %%stddev\n");
	fprintf(f, "             \\          |                \\  \n");
}

/*
 * The rows under a metric's own: fill counts, io-wq workers, the ENOSPC
 * rate and, with STALLED and where the records have them, stalled stress-ng
 * instances.
 */
static void extra_rows(FILE *f, const struct zsb_result *b, const struct zsb_result *c,
		       const char *tag, bool stalled)
{
	if (c->fill_count >= 0 && b->fill_count >= 0 && !is_fill(c))
		extra_row(f, b, c, b->fill_count, c->fill_count, "fill_count", tag);
	if (c->iowq_workers >= 0 && b->iowq_workers >= 0)
		extra_row(f, b, c, b->iowq_workers, c->iowq_workers, "iowq_workers", tag);
	if (c->enospc_per_sec > 0 || b->enospc_per_sec > 0)
		extra_row(f, b, c, b->enospc_per_sec, c->enospc_per_sec,
			  "enospc_per_sec", tag);
	if (stalled && c->instances_seen && b->instances_seen)
		extra_row(f, b, c, b->stalled, c->stalled, "stalled_instances", tag);
}

int zsb_add_unique(const char **list, int n, int max, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return n;
	if (n < max)
		list[n++] = s;
	return n;
}

void zsb_report(FILE *f, const struct zsb_results *rs, const char *baseline)
{
	const char *impls[64];
	int nimpl = 0;

	for (int i = 0; i < rs->n; i++)
		nimpl = zsb_add_unique(impls, nimpl, 64, rs->r[i].impl);
	if (rs->kernel[0])
		fprintf(f, "kernel: %s  runs: see records  duration: %gs per run\n",
			rs->kernel, rs->duration);
	if (rs->stress_ng_version[0])
		fprintf(f, "stress-ng: %s\n", rs->stress_ng_version);
	if (rs->fio_version[0])
		fprintf(f, "fio: %s\n", rs->fio_version);
	if (!find_impl(rs, baseline)) {
		fprintf(f, "\n(baseline %s not measured: absolute figures)\n\n", baseline);
		fprintf(f, "%10s %5s  %-14s %s\n", "mean", "\xcf\x83", "impl", "metric");
		for (int i = 0; i < rs->n; i++) {
			char c[64];

			cell(c, sizeof(c), &rs->r[i]);
			fprintf(f, "%s  %-14s %s\n", c, rs->r[i].impl, rs->r[i].metric);
		}
		notes(f, rs, "");
		fflush(f);
		return;
	}
	for (int k = 0; k < nimpl; k++) {
		int rows = 0;

		if (!strcmp(impls[k], baseline) || !strcmp(impls[k], ZSB_FLOOR_IMPL))
			continue;
		for (int i = 0; i < rs->n; i++) {
			const struct zsb_result *c = &rs->r[i], *b;

			if (strcmp(c->impl, impls[k]))
				continue;
			b = find(rs, c->metric, baseline);
			if (!b)
				continue;
			if (!rows++) {
				fprintf(f, "\n========================================"
					   "=================================================\n");
				fprintf(f, "baseline: %s   candidate: %s\n\n", baseline, impls[k]);
				table_head(f, baseline, impls[k]);
			}
			row(f, b, c, NULL);
			extra_rows(f, b, c, NULL, false);
		}
		if (!rows)
			fprintf(f, "\n(no records of %s to compare with baseline %s)\n",
				impls[k], baseline);
	}
	notes(f, rs, "");
	fflush(f);
}

/*
 * zsbench compare BASE.json CAND.json: the same table between two runs
 * (say a stock and a patched kernel), one row per (metric, implementation)
 * present in both, with the implementation in brackets after the metric.
 */
int zsb_compare(FILE *f, const struct zsb_results *base, const struct zsb_results *cand,
		const char *bname, const char *cname)
{
	int rows = 0, only_b = 0, only_c = 0;

	fprintf(f, "base: %s  kernel %s\n", bname, base->kernel[0] ? base->kernel : "?");
	fprintf(f, "cand: %s  kernel %s\n", cname, cand->kernel[0] ? cand->kernel : "?");
	for (int i = 0; i < cand->n; i++) {
		const struct zsb_result *c = &cand->r[i], *b = find(base, c->metric, c->impl);
		char label[160], tag[32];

		if (!b) {
			only_c++;
			continue;
		}
		if (!rows++) {
			fprintf(f, "\n");
			table_head(f, bname, cname);
		}
		snprintf(tag, sizeof(tag), " [%s]", c->impl);
		snprintf(label, sizeof(label), "%s%s", c->metric, tag);
		row(f, b, c, label);
		extra_rows(f, b, c, tag, true);
	}
	for (int i = 0; i < base->n; i++)
		only_b += !find(cand, base->r[i].metric, base->r[i].impl);
	if (!rows)
		fprintf(f, "\n(no record is in both files)\n");
	if (only_b || only_c)
		fprintf(f, "\n(%d records only in %s, %d only in %s)\n", only_b, bname, only_c,
			cname);
	notes(f, base, " in base");
	notes(f, cand, " in cand");
	fflush(f);
	return rows ? 0 : -1;
}

/*
 * --format=lkp: the "key: value" lines LKP's result parsers print (and its
 * compare tools read), one per supported record: the metric with the
 * implementation inserted before its unit, e.g.
 *   zsbench.splice-64K.1t.folio.ops_per_sec: 81234.56
 * plus .stalled_instances for lkp-splice and .fill_count where measured.
 */
static void lkp_key(FILE *f, const struct zsb_result *r, const char *unit, double v)
{
	char m[128];
	size_t n = strlen(r->metric), u = strlen(zsb_unit_name(r->unit));

	snprintf(m, sizeof(m), "%s", r->metric);
	/* drop ".<unit>" from the end of the metric name */
	if (n > u + 1 && m[n - u - 1] == '.' && !strcmp(m + n - u, zsb_unit_name(r->unit)))
		m[n - u - 1] = 0;
	fprintf(f, "%s.%s.%s: %.2f\n", m, r->impl, unit, v);
}

void zsb_format_lkp(FILE *f, const struct zsb_results *rs)
{
	for (int i = 0; i < rs->n; i++) {
		const struct zsb_result *r = &rs->r[i];

		if (r->unsupported)
			continue;
		lkp_key(f, r, zsb_unit_name(r->unit), zsb_result_value(r));
		if (r->instances_seen)
			lkp_key(f, r, "stalled_instances", r->stalled);
	}
	fflush(f);
}

static int fast_impl(const char *impl)
{
	return strstr(impl, "zeropage") || strstr(impl, "folio");
}

/*
 * Every fast-path rate of zsbench's own workloads as a fraction of the
 * floor (the same thread count), next to its ratio to the baseline.  The
 * ratio to copy depends on the machine; the fraction of the floor says how
 * much is left to win.
 */
void zsb_report_floor(FILE *f, const struct zsb_results *rs, const char *baseline)
{
	int rows = 0;

	for (int i = 0; i < rs->n; i++) {
		const struct zsb_result *c = &rs->r[i], *fl = NULL, *b;
		char ratio[32] = "-";

		if (!fast_impl(c->impl) || c->unsupported || c->unit != ZSB_UNIT_OPS_PER_SEC ||
		    strcmp(c->source, "zsbench"))
			continue;
		for (int j = 0; j < rs->n; j++)
			if (!strcmp(rs->r[j].impl, ZSB_FLOOR_IMPL) &&
			    rs->r[j].threads == c->threads && !rs->r[j].unsupported)
				fl = &rs->r[j];
		if (!fl || fl->mean <= 0)
			continue;
		b = find(rs, c->metric, baseline);
		if (b && !b->unsupported && b->mean > 0)
			snprintf(ratio, sizeof(ratio), "%.1fx", c->mean / b->mean);
		if (!rows++) {
			fprintf(f, "\nFloor-relative: the floor is the 1-byte splice pair that "
				"coalesces into our\ntail buffer (no new slot, no page "
				"reference); 1.00 = as fast as that\n\n");
			fprintf(f, "%12s %8s %8s  %-14s %s\n", "ops/s", "x base", "floor", "impl",
				"metric");
		}
		fprintf(f, "%12.0f %8s %8.2f  %-14s %s\n", c->mean, ratio, c->mean / fl->mean,
			c->impl, c->metric);
	}
	if (rows) {
		for (int j = 0; j < rs->n; j++)
			if (!strcmp(rs->r[j].impl, ZSB_FLOOR_IMPL) && !rs->r[j].unsupported)
				fprintf(f, "floor, %d thread(s): %.0f ops/s\n", rs->r[j].threads,
					rs->r[j].mean);
		fprintf(f, "(x = ratio to %s)\n", baseline);
	}
	fflush(f);
}

/* ---- the table of --icount ---- */


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
		if (r->count)
			ic_num(cell, sizeof(cell), (double)r->count);
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
	int ni = 0, nv = 0, fixed = 0, counts = 0;

	for (int i = 0; i < rs->n; i++) {
		const struct zsb_result *r = &rs->r[i];

		if (!ic_source(r->source) || r->unit != ZSB_UNIT_NS_PER_OP)
			continue;
		fixed |= !strcmp(r->source, ZSB_FIXED_SOURCE);
		counts |= r->count > 0;
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
	if (rs->clock_nspi > 0)
		fprintf(f, "clock check: a loop of %llu instructions took %.4f ns per "
			"instruction (%d loop(s) to settle)\n", 2 * ZSB_CAL_LOOPS, rs->clock_nspi,
			rs->clock_tries);
	fprintf(f, "one thread only: -icount serialises the vCPUs, so the thread axis is "
		"dropped\n");
	if (rs->fixed_runs)
		fprintf(f, "each figure: the median of %d repetitions after a warm-up (the JSON "
			"records have every one)\n", rs->fixed_runs);
	for (int b = IC_COST; b <= IC_COUNT; b++) {
		if ((b == IC_FLOOR && !fl) || (b == IC_COUNT && !counts))
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

/* ---- the programs' table ---- */

static const struct zsb_result *prog_find(const struct zsb_results *rs, const char *variant,
					  const char *impl)
{
	for (int i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].workload, "program") && !strcmp(rs->r[i].variant, variant) &&
		    !strcmp(rs->r[i].impl, impl))
			return &rs->r[i];
	return NULL;
}

/* the figure of a program's record: the mean, under --icount the median */
static double prog_val(const struct zsb_result *r)
{
	return r->unit == ZSB_UNIT_NS_PER_GIB ? zsb_icount_median(r) : r->mean;
}

static void prog_cell(FILE *f, const struct zsb_result *r, const struct zsb_result *dz,
		      int ratio)
{
	char num[40];

	if (!r)
		snprintf(num, sizeof(num), "%s", "");
	else if (r->unsupported)
		snprintf(num, sizeof(num), "%s", r->error[0] ? r->error : "unsupp");
	else if (ratio && (!dz || dz->unsupported || prog_val(dz) <= 0))
		snprintf(num, sizeof(num), "-");
	else if (ratio)
		snprintf(num, sizeof(num), "%.2f", prog_val(r) / prog_val(dz));
	else if (r->unit == ZSB_UNIT_NS_PER_GIB)
		ic_num(num, sizeof(num), prog_val(r));
	else
		snprintf(num, sizeof(num), "%.4g", prog_val(r));
	fprintf(f, " %14s", num);
}

/*
 * The programs: one row per program, one column per implementation, the
 * figure (GiB/s, or under --icount the median ns per GiB) and then the
 * same as a multiple of /dev/zero's.  Nothing without program records.
 */
void zsb_report_programs(FILE *f, const struct zsb_results *rs)
{
	const char *impls[ZSB_MAX_SEL], *variants[ZSB_MAX_SEL];
	int ni = 0, nv = 0, per_gib = 0;

	for (int i = 0; i < rs->n; i++) {
		if (strcmp(rs->r[i].workload, "program"))
			continue;
		per_gib |= rs->r[i].unit == ZSB_UNIT_NS_PER_GIB;
		ni = zsb_add_unique(impls, ni, ZSB_MAX_SEL, rs->r[i].impl);
		nv = zsb_add_unique(variants, nv, ZSB_MAX_SEL, rs->r[i].variant);
	}
	if (!nv)
		return;
	fprintf(f, "\n================================================================="
		   "========================\n");
	for (int ratio = 0; ratio <= 1; ratio++) {
		if (!ratio)
			fprintf(f, "programs into a pipe zsbench drains: %s\n",
				per_gib ? "ns per GiB (under -icount: instructions; median; "
					  "lower is better)" : "GiB/s (mean; higher is better)");
		else
			fprintf(f, "\nthe same as a multiple of devzero's (/dev/zero)\n");
		fprintf(f, "%-20s", "program");
		for (int k = 0; k < ni; k++)
			fprintf(f, " %14s", impls[k]);
		fputc('\n', f);
		for (int v = 0; v < nv; v++) {
			const struct zsb_result *dz = prog_find(rs, variants[v], "devzero");

			fprintf(f, "%-20s", variants[v]);
			for (int k = 0; k < ni; k++)
				prog_cell(f, prog_find(rs, variants[v], impls[k]), dz, ratio);
			fputc('\n', f);
		}
	}
	fflush(f);
}
