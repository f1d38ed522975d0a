// SPDX-License-Identifier: GPL-2.0
/*
 * Mean, standard deviation, %change and their formatting, computed and
 * printed as lkp-tests' ncompare does (lib/statistics.rb, lib/compare.rb),
 * so that a zsbench table and an ncompare table of the same runs agree to
 * the character:
 *   mean   the sum (Ruby's Array#sum: Kahan-Babuska compensated) over N;
 *   sigma  the population standard deviation: sqrt(1/N * sum((v - mean)^2));
 *   sigma% 100 * sigma / mean, printed truncated ("%d") and only above 2;
 *   change 100 * (avg - avg0) / avg0, with avg0 = 1e-100 when it is 0,
 *          printed "%+.1f%%" under 100000, "%+.2g%%" from there;
 *   a mean is printed "%.2f" under 1000, "%.4g" above 1e8, else truncated.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "zsbench.h"

/* Ruby's Array#sum over floats: Kahan-Babuska compensated summation */
static double kb_sum(const double *v, int n)
{
	double f = 0, c = 0;

	for (int i = 0; i < n; i++) {
		double t = f + v[i];

		if (fabs(f) >= fabs(v[i]))
			c += (f - t) + v[i];
		else
			c += (v[i] - t) + f;
		f = t;
	}
	return f + c;
}

double zsb_mean(const double *v, int n)
{
	if (n <= 0)
		return 0;
	return kb_sum(v, n) / n;
}

/* population sigma; 0 for fewer than two values (ncompare prints none) */
double zsb_stddev(const double *v, int n)
{
	double m = zsb_mean(v, n), s = 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(1.0 / n * s);
}

/*
 * ncompare divides by 1e-100 for a mean of 0; 0 -> 0 (which would give
 * -100%) never reaches it, as dump-stat drops a stat that is 0 in every
 * run, so here it is no change.
 */
double zsb_pct_change(double base, double cand)
{
	if (base == 0 && cand == 0)
		return 0;
	if (base == 0)
		base = 1e-100;
	return 100.0 * (cand - base) / base;
}

/* sigma as a percentage of the mean; the sigma itself for a mean of 0 */
double zsb_sigma_pct(double mean, double sd)
{
	return mean != 0 ? 100 * sd / mean : sd;
}

/* Ruby's "%d" of a Float: truncated toward zero */
static long long ruby_int(double v)
{
	return (long long)trunc(v);
}

void zsb_fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a < 1000)
		snprintf(buf, len, "%.2f", v);
	else if (a > 100000000)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%lld", ruby_int(v));
}

/* "±  3%" (5 columns) above 2%, blanks otherwise */
void zsb_fmt_sigma(char *buf, size_t len, double mean, double sd)
{
	double p = zsb_sigma_pct(mean, sd);

	if (p > 2)
		snprintf(buf, len, "\xc2\xb1%3lld%%", ruby_int(p));
	else
		snprintf(buf, len, "%5s", "");
}

void zsb_fmt_change(char *buf, size_t len, double base, double cand)
{
	double c = zsb_pct_change(base, cand);

	snprintf(buf, len, fabs(c) < 100000 ? "%+.1f%%" : "%+.2g%%", c);
}

struct zsb_result *zsb_results_add(struct zsb_results *rs)
{
	if (rs->n == rs->cap) {
		int cap = rs->cap ? rs->cap * 2 : 64;
		struct zsb_result *r = realloc(rs->r, (size_t)cap * sizeof(*r));

		if (!r)
			abort();
		rs->r = r;
		rs->cap = cap;
	}
	memset(&rs->r[rs->n], 0, sizeof(rs->r[0]));
	rs->r[rs->n].fill_count = -1;
	rs->r[rs->n].iowq_workers = -1;
	return &rs->r[rs->n++];
}

void zsb_result_finish(struct zsb_result *r)
{
	r->mean = zsb_mean(r->vals, r->runs);
	r->stddev = zsb_stddev(r->vals, r->runs);
}

const struct zsb_unit_info zsb_units[ZSB_NUNITS] = {
	[ZSB_UNIT_OPS_PER_SEC] = { "ops_per_sec", "operations per second", 1 },
	[ZSB_UNIT_FILL_COUNT] = { "fill_count", "calls until the pipe is full", 0 },
	[ZSB_UNIT_READ_IOPS] = { "read_iops", "read I/O operations per second", 1 },
	[ZSB_UNIT_READ_BW_MBPS] = { "read_bw_MBps", "read bandwidth, MB per second", 1 },
	[ZSB_UNIT_NS_PER_OP] = { "ns_per_op", "ns per operation (source icount: "
				 "instructions)", 0 },
	[ZSB_UNIT_GIB_PER_SEC] = { "gib_per_sec", "GiB per second", 1 },
	[ZSB_UNIT_NS_PER_GIB] = { "ns_per_gib", "ns per GiB (source icount: instructions)", 0 },
};

const char *zsb_unit_name(enum zsb_unit u)
{
	return (unsigned int)u < ZSB_NUNITS ? zsb_units[u].name : "?";
}

int zsb_unit_parse(const char *name)
{
	for (int i = 0; i < ZSB_NUNITS; i++)
		if (!strcmp(zsb_units[i].name, name))
			return i;
	return -1;
}
