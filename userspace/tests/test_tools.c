// SPDX-License-Identifier: GPL-2.0
/* The tools: reading fio's JSON, stress-ng's --yaml, versions, module stats. */
#include "tool.h"
#include "zsbench.h"
#include "tap.h"

/*
 * Debian's 0.15.06 on this host (6.18, /dev/zero), 2026-12-07:
 * stress-ng --splice 2 --timeout 2 --times --verify --metrics-brief --yaml F
 * (LKP's command line); its table said
 * "splice  555388  2.00  0.56  3.42  277682.70  139527.16".
 */
static const char yaml_lkp[] =
"---\n"
"system-info:\n"
"      stress-ng-version: 0.15.06\n"
"      run-by: root\n"
"      date-yyyy-mm-dd: 2026:12:07\n"
"      time-hh-mm-ss: 16:15:42\n"
"      epoch-secs: 1796660142\n"
"      hostname: vm\n"
"      sysname: Linux\n"
"      nodename: vm\n"
"      release: 6.18.44-fc-v1300\n"
"      version: '#1 SMP PREEMPT_DYNAMIC @0'\n"
"      machine: x86_64\n"
"      compiler: 'gcc 12.2.0'\n"
"      uptime: 5546\n"
"      totalram: 25276182528\n"
"      freeram: 19603886080\n"
"      sharedram: 12853248\n"
"      bufferram: 365924352\n"
"      totalswap: 0\n"
"      freeswap: 0\n"
"      pagesize: 4096\n"
"      cpus: 2\n"
"      cpus-online: 2\n"
"      ticks-per-second: 100\n"
"\n"
"metrics:\n"
"    - stressor: splice\n"
"      bogo-ops: 555388\n"
"      bogo-ops-per-second-usr-sys-time: 139527.160023\n"
"      bogo-ops-per-second-real-time: 277682.695545\n"
"      wall-clock-time: 2.000081\n"
"      user-time: 0.558458\n"
"      system-time: 3.422043\n"
"      cpu-usage-per-instance: 99.508474\n"
"      max-rss: 2500\n"
"      mb-per-sec-splice-rate: 30056.827268\n"
"\n"
"times:\n"
"      run-time: 2.001936\n"
"      available-cpu-time: 4.003872\n"
"      user-time: 0.550000\n"
"      system-time: 3.420000\n"
"      total-time: 3.970000\n"
"      user-time-percent: 13.736702\n"
"      system-time-percent: 85.417308\n"
"      total-time-percent: 99.154009\n"
"      load-average-1-minute: 0.619141\n"
"      load-average-5-minute: 0.769531\n"
"      load-average-15-minute: 0.939453\n"
"...\n";

/* the same stress-ng, --splice 1 --pipe 1 --timeout 1: from "metrics:" on */
static const char yaml_two[] =
"metrics:\n"
"    - stressor: splice\n"
"      bogo-ops: 117990\n"
"      bogo-ops-per-second-usr-sys-time: 118826.778172\n"
"      bogo-ops-per-second-real-time: 117986.511858\n"
"      wall-clock-time: 1.000030\n"
"      user-time: 0.091721\n"
"      system-time: 0.901237\n"
"      cpu-usage-per-instance: 99.292865\n"
"      max-rss: 2548\n"
"      mb-per-sec-splice-rate: 42188.951209\n"
"\n"
"    - stressor: pipe\n"
"      bogo-ops: 325559\n"
"      bogo-ops-per-second-usr-sys-time: 329480.810082\n"
"      bogo-ops-per-second-real-time: 325361.423585\n"
"      wall-clock-time: 1.000607\n"
"      user-time: 0.143081\n"
"      system-time: 0.845016\n"
"      cpu-usage-per-instance: 98.749734\n"
"      max-rss: 2412\n"
"      mb-per-sec-pipe-write-rate: 159.048728\n"
"\n"
"...\n";

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

	tap_ok(zsb_stressng_yaml(yaml_lkp, "splice", &ops, &rate) == 0 && ops == 555388 &&
	       rate == 277682.695545, "--yaml: bogo-ops 555388, real-time ops/s 277682.695545");
	tap_ok(zsb_stressng_yaml(yaml_two, "splice", &ops, &rate) == 0 && ops == 117990 &&
	       rate == 117986.511858, "--yaml: the splice entry of two stressors");
	tap_ok(zsb_stressng_yaml(yaml_two, "pipe", &ops, &rate) == 0 && ops == 325559,
	       "--yaml: the pipe entry, after the splice one");
	tap_ok(zsb_stressng_yaml(yaml_lkp, "vm", &ops, &rate) == -1, "--yaml: no such stressor");
	tap_ok(zsb_stressng_yaml(strstr(yaml_lkp, "times:"), "splice", &ops, &rate) == -1,
	       "--yaml: no metrics section, no figure");
	{
		/* a stressor that failed: its entry has no figures */
		static const char empty[] = "---\nmetrics:\n    - stressor: splice\n\n...\n";

		tap_ok(zsb_stressng_yaml(empty, "splice", &ops, &rate) == -1,
		       "--yaml: an entry without figures");
	}
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
