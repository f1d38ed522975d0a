// SPDX-License-Identifier: GPL-2.0
/* Statistics and their LKP formatting against hand-computed values. */
#include "zsbench.h"
#include "tap.h"

int main(void)
{
	/* 2 4 4 4 5 5 7 9: mean 5, squares sum 32, sample var 32/7 */
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	/* the parent runs of the 2023 robot report (seeds/002) */
	double parent[] = { 12444442.19, 12599010.87, 12416009.38, 12494132.89,
			    12286766.76, 12359235.82 };
	double child[] = { 24055.57, 23235.46, 22142.13, 23782.13, 21732.13, 22415.46 };
	double one[] = { 42 };
	char b[64];

	tap_near(zsb_mean(v, 8), 5.0, 1e-12, "mean of 8 values");
	tap_near(zsb_stddev(v, 8), 2.138089935299395, 1e-12, "sample stddev of 8 values");
	tap_near(zsb_stddev(one, 1), 0, 0, "stddev of one value is 0");
	tap_near(zsb_mean(one, 0), 0, 0, "mean of nothing is 0");
	tap_near(zsb_pct_change(100, 150), 50.0, 1e-12, "%change +50");
	tap_near(zsb_pct_change(200, 50), -75.0, 1e-12, "%change -75");
	tap_near(zsb_mean(parent, 6), 12433266.318333, 1e-5, "robot parent mean 12433266");
	tap_near(zsb_mean(child, 6), 22893.813333, 1e-5, "robot child mean 22893");
	zsb_fmt_change(b, sizeof(b), zsb_mean(parent, 6), zsb_mean(child, 6));
	tap_str(b, "-99.8%", "robot %change -99.8%");
	zsb_fmt_sigma(b, sizeof(b), zsb_mean(child, 6), zsb_stddev(child, 6));
	tap_str(b, "\xc2\xb1  4%", "robot child sigma (sample) 4%");
	zsb_fmt_sigma(b, sizeof(b), zsb_mean(parent, 6), zsb_stddev(parent, 6));
	tap_str(b, "\xc2\xb1  1%", "parent sigma 1%");
	zsb_fmt_sigma(b, sizeof(b), 100, 0.4);
	tap_str(b, "     ", "sigma under 1% is blank");
	zsb_fmt_sigma(b, sizeof(b), 105881, 10588.1);
	tap_str(b, "\xc2\xb1 10%", "sigma 10%");
	tap_ok(zsb_sigma_pct(0, 1) == -1, "sigma of mean 0 undefined");
	zsb_fmt_change(b, sizeof(b), 105881, 3693772);
	tap_str(b, "+3388.6%", "%change +3388.6% (seeds/000)");
	zsb_fmt_change(b, sizeof(b), 0, 5);
	tap_str(b, "n/a", "%change from 0 is n/a");
	zsb_fmt_change(b, sizeof(b), 7, 7);
	tap_str(b, "+0.0%", "%change of equal values");
	zsb_fmt_num(b, sizeof(b), 12433266.3);
	tap_str(b, "12433266", "number below 1e8 as integer");
	zsb_fmt_num(b, sizeof(b), 1.171e8);
	tap_str(b, "1.171e+08", "number from 1e8 in e-notation");
	zsb_fmt_num(b, sizeof(b), 21.625);
	tap_str(b, "21.62", "small number with 2 decimals");
	zsb_fmt_num(b, sizeof(b), 16);
	tap_str(b, "16", "integral small number");
	return tap_done();
}
