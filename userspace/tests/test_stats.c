// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics and their formatting, against lkp-tests' ncompare: population
 * sigma, sigma% printed truncated and only above 2%, %change of the means.
 * The 2023 report (seeds/002) lists the six runs per side it compared and
 * prints "12433266  -99.8%  22893 ± 3%": its sigma is on the child side,
 * the parent's 0.79% is left blank.
 */
#include "zsbench.h"
#include "tap.h"

enum fmt_kind { SIGMA, CHANGE, NUM };

/* A formatting case: zsb_fmt_<kind> of X (and Y) must print WANT. */
struct fmt_case {
	enum fmt_kind kind;
	double x, y;
	const char *want, *name;
};

static const struct fmt_case cases[] = {
	{ SIGMA, 100, 2, "     ",
	  "sigma of exactly 2% is blank" },
	{ SIGMA, 100, 2.99, "\xc2\xb1  2%",
	  "sigma 2.99% prints 2%" },
	{ SIGMA, 105881, 10588.1, "\xc2\xb1 10%",
	  "sigma 10%" },
	{ SIGMA, -100, 50, "     ",
	  "sigma of a negative mean is blank" },
	{ CHANGE, 105881, 3693772, "+3388.6%",
	  "%change +3388.6% (seeds/000)" },
	{ CHANGE, 16, 983041, "+6.1e+06%",
	  "%change from 100000% on: 2 significant digits" },
	{ CHANGE, 0, 0, "+0.0%",
	  "%change from 0 to 0" },
	{ CHANGE, 0, 5, "+5e+102%",
	  "%change from 0: against 1e-100" },
	{ CHANGE, 7, 7, "+0.0%",
	  "%change of equal values" },
	{ NUM, 1.171e8, 0, "1.171e+08",
	  "mean above 1e8: %.4g" },
	{ NUM, 1e8, 0, "100000000",
	  "mean of exactly 1e8: integer" },
	{ NUM, 999.999, 0, "1000.00",
	  "mean under 1000: two decimals" },
	{ NUM, 1000.9, 0, "1000",
	  "mean from 1000: truncated" },
	{ NUM, 16, 0, "16.00",
	  "small integral mean: two decimals" },
	{ NUM, -2500.7, 0, "-2500",
	  "negative mean truncated toward zero" },
};

static void fmt(char *b, size_t len, const struct fmt_case *c)
{
	switch (c->kind) {
	case SIGMA:
		zsb_fmt_sigma(b, len, c->x, c->y);
		break;
	case CHANGE:
		zsb_fmt_change(b, len, c->x, c->y);
		break;
	case NUM:
		zsb_fmt_num(b, len, c->x);
		break;
	}
}

int main(void)
{
	/* 2 4 4 4 5 5 7 9: mean 5, squares sum 32, population var 32/8 */
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	/* the runs of the 2023 robot report, as it lists them (seeds/002) */
	double parent[] = { 12444442.19, 12599010.87, 12416009.38, 12494132.89,
			    12286766.76, 12359235.82 };
	double child[] = { 24055.57, 23235.46, 22142.13, 23782.13, 21732.13, 22415.46 };
	double one[] = { 42 };
	/* 0.1 * 10: a plain sum gives 0.9999999999999999, Ruby's Array#sum 1.0 */
	double tenth[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	char b[64];

	tap_near(zsb_mean(v, 8), 5.0, 1e-12, "mean of 8 values");
	tap_near(zsb_stddev(v, 8), 2.0, 1e-12, "population stddev of 8 values: 2");
	tap_near(zsb_stddev(one, 1), 0, 0, "stddev of one value is 0");
	tap_near(zsb_mean(one, 0), 0, 0, "mean of nothing is 0");
	tap_ok(zsb_mean(tenth, 10) == 0.1, "compensated sum, as Ruby's Array#sum");
	tap_near(zsb_pct_change(100, 150), 50.0, 1e-12, "%change +50");
	tap_near(zsb_pct_change(200, 50), -75.0, 1e-12, "%change -75");
	tap_near(zsb_mean(parent, 6), 12433266.318333, 1e-5, "robot parent mean 12433266");
	tap_near(zsb_mean(child, 6), 22893.813333, 1e-5, "robot child mean 22893");
	tap_near(zsb_sigma_pct(zsb_mean(child, 6), zsb_stddev(child, 6)), 3.740043, 1e-6,
		 "robot child sigma 3.74% (population)");
	zsb_fmt_num(b, sizeof(b), zsb_mean(parent, 6));
	tap_str(b, "12433266", "robot parent mean printed 12433266");
	zsb_fmt_num(b, sizeof(b), zsb_mean(child, 6));
	tap_str(b, "22893", "robot child mean printed 22893 (truncated)");
	zsb_fmt_change(b, sizeof(b), zsb_mean(parent, 6), zsb_mean(child, 6));
	tap_str(b, "-99.8%", "robot %change -99.8%");
	zsb_fmt_sigma(b, sizeof(b), zsb_mean(child, 6), zsb_stddev(child, 6));
	tap_str(b, "\xc2\xb1  3%", "robot child sigma printed \xc2\xb1  3% (3.74 truncated)");
	zsb_fmt_sigma(b, sizeof(b), zsb_mean(parent, 6), zsb_stddev(parent, 6));
	tap_str(b, "     ", "robot parent sigma 0.79%: blank");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt(b, sizeof(b), &cases[i]);
		tap_str(b, cases[i].want, cases[i].name);
	}
	return tap_done();
}
