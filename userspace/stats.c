// SPDX-License-Identifier: GPL-2.0
/* Mean, sample standard deviation, %change and their LKP-style formatting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "zsbench.h"

double zsb_mean(const double *v, int n)
{
	double s = 0;

	if (n <= 0)
		return 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

double zsb_stddev(const double *v, int n)
{
	double m = zsb_mean(v, n), s = 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (n - 1));
}

double zsb_pct_change(double base, double cand)
{
	if (base == 0)
		return cand == 0 ? 0 : INFINITY;
	return (cand - base) / base * 100.0;
}

int zsb_sigma_pct(double mean, double sd)
{
	if (mean == 0)
		return -1;
	return (int)lround(fabs(sd / mean) * 100.0);
}

void zsb_fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a >= 1e8)
		snprintf(buf, len, "%.3e", v);
	else if (a >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", trunc(v));	/* LKP truncates (Ruby's %d) */
	else
		snprintf(buf, len, "%.2f", v);
}

/* LKP leaves the column empty for a stddev under 1% */
void zsb_fmt_sigma(char *buf, size_t len, double mean, double sd)
{
	int p = zsb_sigma_pct(mean, sd);

	if (p < 1)
		snprintf(buf, len, "%5s", "");
	else
		snprintf(buf, len, "\xc2\xb1%3d%%", p);
}

void zsb_fmt_change(char *buf, size_t len, double base, double cand)
{
	double c = zsb_pct_change(base, cand);

	if (isinf(c))
		snprintf(buf, len, "%s", "n/a");
	else
		snprintf(buf, len, "%+.1f%%", c);
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
