// SPDX-License-Identifier: GPL-2.0
/* The tools: reading fio's JSON, stress-ng's versions, module stats, last lines. */
#include "tool.h"
#include "zsbench.h"
#include "tap.h"

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
	int a, b, c;
	unsigned long long v = 0;

	{
		char out[] = "stress-ng: info: one\nstress-ng: error: two\n\n", one[] = "alone";
		char none[] = "";

		tap_str(zsb_last_line(out), "stress-ng: error: two",
			"the last line: trailing newlines cut");
		tap_str(zsb_last_line(one), "alone", "the last line of one without a newline");
		tap_str(zsb_last_line(none), "", "the last line of nothing");
	}
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
