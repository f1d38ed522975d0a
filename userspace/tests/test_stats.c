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
	zsb_fmt_sigma(b, sizeof(b), 100, 2);
	tap_str(b, "     ", "sigma of exactly 2% is blank");
	zsb_fmt_sigma(b, sizeof(b), 100, 2.99);
	tap_str(b, "\xc2\xb1  2%", "sigma 2.99% prints 2%");
	zsb_fmt_sigma(b, sizeof(b), 105881, 10588.1);
	tap_str(b, "\xc2\xb1 10%", "sigma 10%");
	zsb_fmt_sigma(b, sizeof(b), -100, 50);
	tap_str(b, "     ", "sigma of a negative mean is blank");
	zsb_fmt_change(b, sizeof(b), 105881, 3693772);
	tap_str(b, "+3388.6%", "%change +3388.6% (seeds/000)");
	zsb_fmt_change(b, sizeof(b), 16, 983041);
	tap_str(b, "+6.1e+06%", "%change from 100000% on: 2 significant digits");
	zsb_fmt_change(b, sizeof(b), 0, 0);
	tap_str(b, "+0.0%", "%change from 0 to 0");
	zsb_fmt_change(b, sizeof(b), 0, 5);
	tap_str(b, "+5e+102%", "%change from 0: against 1e-100");
	zsb_fmt_change(b, sizeof(b), 7, 7);
	tap_str(b, "+0.0%", "%change of equal values");
	zsb_fmt_num(b, sizeof(b), 1.171e8);
	tap_str(b, "1.171e+08", "mean above 1e8: %.4g");
	zsb_fmt_num(b, sizeof(b), 1e8);
	tap_str(b, "100000000", "mean of exactly 1e8: integer");
	zsb_fmt_num(b, sizeof(b), 999.999);
	tap_str(b, "1000.00", "mean under 1000: two decimals");
	zsb_fmt_num(b, sizeof(b), 1000.9);
	tap_str(b, "1000", "mean from 1000: truncated");
	zsb_fmt_num(b, sizeof(b), 16);
	tap_str(b, "16.00", "small integral mean: two decimals");
	zsb_fmt_num(b, sizeof(b), -2500.7);
	tap_str(b, "-2500", "negative mean truncated toward zero");
	return tap_done();
}
