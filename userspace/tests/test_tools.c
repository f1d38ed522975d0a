// SPDX-License-Identifier: GPL-2.0
/* The tools: reading fio's JSON, stress-ng's output as LKP does, versions, module stats. */
#include "zsbench.h"
#include "tap.h"

/* Debian's 0.15.06, 2 instances, /dev/zero of 6.18 (host, 2026-12-02) */
static const char out_0_15[] =
"stress-ng: info:  [16883] setting to a 3 second run per stressor\n"
"stress-ng: info:  [16883] dispatching hogs: 1 splice\n"
"stress-ng: metrc: [16883] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s\n"
"stress-ng: metrc: [16883]                           (secs)    (secs)    (secs)   (real time) (usr+sys time)\n"
"stress-ng: metrc: [16883] splice            31777      3.00      0.03      0.09     10578.66      262296.84\n"
"stress-ng: metrc: [16883] miscellaneous metrics:\n"
"stress-ng: metrc: [16883] splice               351.16 MB per sec splice rate (geometic mean of 1 instances)\n"
"stress-ng: info:  [16883] successful run completed in 3.03s\n";

/* the table without its header is not read (LKP skips to the header) */
static const char out_nohdr[] =
"stress-ng: metrc: [1] splice            31777      3.00      0.03      0.09     10578.66      262296.84\n";

/* extended --metrics lines have 12 fields: LKP warns and skips them */
static const char out_ext[] =
"stress-ng: metrc: [9]                           (secs)    (secs)    (secs)   (real time) (usr+sys time)\n"
"stress-ng: metrc: [9] splice  100  1.00  0.01  0.02  100.00  3333.33  1.5  2048\n";

/* fio 3.33's JSON, cut down, after a warning line fio printed first */
static const char fio_out[] =
"fio: file hash not empty on exit\n"
"{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\n"
"      \"jobname\" : \"seqread-4k\",\n"
"      \"read\" : {\n        \"io_bytes\" : 4096,\n        \"bw\" : 1234567,\n"
"        \"iops\" : 308641.75,\n        \"runtime\" : 1000\n      },\n"
"      \"write\" : { \"bw\" : 7, \"iops\" : 8 }\n    }\n  ]\n}\n";

static const char stats[] =
"read_calls 3\nsplice_folio_bytes 77\nfolio_bytes 4194304\nzeropage_bytes 8192\n"
"folio_fallbacks 0\n";

int main(void)
{
	double ops = -1, rate = -1;
	int a, b, c;
	unsigned long long v = 0;

	tap_ok(zsb_stressng_parse(out_0_15, &ops, &rate) == 0 && ops == 31777 && rate == 10578.66,
	       "0.15.06 table: ops 31777, ops/s (real time) 10578.66");
	tap_ok(zsb_stressng_parse(out_nohdr, &ops, &rate) == -1, "no header, no figure");
	tap_ok(zsb_stressng_parse(out_ext, &ops, &rate) == -1, "12-field lines are not LKP's");
	{
		double iops = 0, bw = 0;

		tap_ok(zsb_fio_parse(fio_out, &iops, &bw) == 0 && iops == 308641.75 &&
		       bw == 1234567, "fio JSON: jobs[0].read iops and bw, after a warning");
		tap_ok(zsb_fio_parse("{ \"jobs\" : [ ] }", &iops, &bw) == -1, "fio JSON: no job");
		tap_ok(zsb_fio_parse("{ \"jobs\" : [ { \"read\" : { \"iops\" : \"x\" } } ] }",
				     &iops, &bw) == -1, "fio JSON: iops not a number");
		tap_ok(zsb_fio_parse("fio: no JSON at all\n", &iops, &bw) == -1, "fio: no JSON");
	}
	tap_ok(zsb_stressng_version("stress-ng, version 0.17.00 (gcc 12.2.0, x86_64 Linux 6.12)",
			       &a, &b, &c) == 0 && a == 0 && b == 17 && c == 0,
	       "version 0.17.00");
	tap_ok(zsb_stressng_version("stress-ng, version 0.15.06 (gcc 12.2.0)", &a, &b, &c) == 0 &&
	       b == 15 && c == 6, "version 0.15.06");
	tap_ok(zsb_stressng_version("nothing", &a, &b, &c) == -1, "no version");
	tap_ok(zsb_lkp_one_byte(0, 17, 0), "V0.17.00 has the 1-byte splice");
	tap_ok(zsb_lkp_one_byte(0, 15, 6), "0.15.06 has the 1-byte splice");
	tap_ok(!zsb_lkp_one_byte(0, 17, 1), "V0.17.01 does not");
	tap_ok(!zsb_lkp_one_byte(0, 22, 0), "V0.22.00 does not");
	tap_ok(zsb_stat_parse(stats, "folio_bytes", &v) == 0 && v == 4194304,
	       "stats: folio_bytes, not splice_folio_bytes");
	tap_ok(zsb_stat_parse(stats, "zeropage_bytes", &v) == 0 && v == 8192,
	       "stats: zeropage_bytes");
	tap_ok(zsb_stat_parse(stats, "folio", &v) == -1, "stats: a prefix is no name");
	tap_ok(zsb_stat_parse(stats, "folio_fallbacks", &v) == 0 && v == 0,
	       "stats: last line");
	{
		/* LKP's 2023 line, programs/stress-ng/run: stress-ng $default_option --splice 64 */
		char *argv[12], line[256] = "";
		int n = zsb_lkp_argv(argv, "stress-ng", "60", "64", 0);

		for (int i = 0; i < n; i++)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s",
				 i ? " " : "", argv[i]);
		tap_str(line, "stress-ng --timeout 60 --times --verify --metrics-brief --splice 64",
			"LKP's command line");
		n = zsb_lkp_argv(argv, "stress-ng", "60", "64", 1);
		tap_ok(n == 7 && !strcmp(argv[4], "--metrics-brief"), "--lkp-no-verify drops --verify");
	}
	return tap_done();
}
