// SPDX-License-Identifier: GPL-2.0
/*
 * Reading stress-ng's --yaml document (stressng-yaml.c): what 0.15.06
 * wrote on this project's machines, the shape of V0.17's and V0.21's
 * writers, and documents it must refuse with a reason and no figure.
 */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>

#include "stressng-yaml.h"
#include "tap.h"

/*
 * The fixture tests/stress-ng-0.15.06-splice.yaml is the file Debian
 * bookworm's stress-ng 0.15.06 wrote on a bookworm host (splicing the
 * kernel's /dev/zero) for zsbench's plain command line, with system-info's
 * fields that name a machine (run-by, date and time, hostname, nodename,
 * release, version, uptime, RAM) replaced by placeholders; metrics unedited:
 *   stress-ng --splice 2 --timeout 2s --metrics-brief --yaml FILE
 * Its table said "splice  93869  2.00  0.86  1.17  46989.52  46263.49".
 */
#define FIXTURE		"stress-ng-0.15.06-splice.yaml"
#define FIXTURE_OPS	93869
#define FIXTURE_RATE	46989.521593

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

/* the same stress-ng, --splice 1 --pipe 1 --timeout 1; system-info cut out */
static const char yaml_two[] =
"---\n"
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

/*
 * The same stress-ng, --splice 1 --timeout 1s --metrics-brief --sn: the
 * figures in %e; system-info cut out.
 */
static const char yaml_sn[] =
"---\n"
"metrics:\n"
"    - stressor: splice\n"
"      bogo-ops: 40217\n"
"      bogo-ops-per-second-usr-sys-time: 4.524610e+04\n"
"      bogo-ops-per-second-real-time: 4.022947e+04\n"
"      wall-clock-time: 9.996901e-01\n"
"      user-time: 3.866300e-01\n"
"      system-time: 5.022200e-01\n"
"      cpu-usage-per-instance: 8.891256e+01\n"
"      max-rss: 2548\n"
"      mb-per-sec-splice-rate: 2.586520e+04\n"
"\n"
"...\n";

/*
 * V0.17's shape, not captured (no V0.17 binary on this host): written
 * from the format strings of V0.17.00 and V0.17.08 (stress-ng.c
 * stress_metrics_dump() and stress_times_dump(), core-helper.c's
 * system-info writer), which are 0.15.06's: LKP's command line
 * stress-ng --timeout 60 --times --verify --metrics-brief --splice 64.
 */
static const char yaml_v017[] =
"---\n"
"system-info:\n"
"      stress-ng-version: 0.17.00\n"
"      run-by: root\n"
"      date-yyyy-mm-dd: 2023:11:20\n"
"      time-hh-mm-ss: 10:01:02\n"
"      epoch-secs: 1700474462\n"
"      hostname: lkp-icl-2sp8\n"
"      sysname: Linux\n"
"      nodename: lkp-icl-2sp8\n"
"      release: 6.7.0-rc1\n"
"      version: '#1 SMP PREEMPT_DYNAMIC Mon Nov 20 09:00:00 CST 2023'\n"
"      machine: x86_64\n"
"      compiler: 'gcc 12.2.0'\n"
"      uptime: 312\n"
"      totalram: 270282891264\n"
"      freeram: 262028689408\n"
"      sharedram: 2002944\n"
"      bufferram: 8192\n"
"      totalswap: 0\n"
"      freeswap: 0\n"
"      pagesize: 4096\n"
"      cpus: 64\n"
"      cpus-online: 64\n"
"      ticks-per-second: 100\n"
"\n"
"metrics:\n"
"    - stressor: splice\n"
"      bogo-ops: 16358432\n"
"      bogo-ops-per-second-usr-sys-time: 4313.287211\n"
"      bogo-ops-per-second-real-time: 272640.533333\n"
"      wall-clock-time: 60.000000\n"
"      user-time: 210.310000\n"
"      system-time: 3582.210000\n"
"      cpu-usage-per-instance: 98.764531\n"
"      max-rss: 2812\n"
"      mb-per-sec-splice-rate: 0.260034\n"
"\n"
"times:\n"
"      run-time: 60.004155\n"
"      available-cpu-time: 3840.265920\n"
"      user-time: 210.310000\n"
"      system-time: 3582.210000\n"
"      total-time: 3792.520000\n"
"      user-time-percent: 5.476448\n"
"      system-time-percent: 93.280466\n"
"      total-time-percent: 98.756914\n"
"      load-average-1-minute: 33.020000\n"
"      load-average-5-minute: 9.540000\n"
"      load-average-15-minute: 3.330000\n"
"...\n";

/*
 * V0.21.04 on (and master): each entry also lists its instances, whose
 * bogo-ops are one instance's; written from master's stress-ng.c.
 */
static const char yaml_instances[] =
"---\n"
"metrics:\n"
"    - stressor: splice\n"
"      bogo-ops: 300\n"
"      bogo-ops-per-second-usr-sys-time: 150.000000\n"
"      bogo-ops-per-second-real-time: 149.900000\n"
"      wall-clock-time: 2.001334\n"
"      user-time: 1.000000\n"
"      system-time: 1.000000\n"
"      cpu-usage-per-instance: 49.966678\n"
"      max-rss: 2600\n"
"      mb-per-sec-splice-rate: 1.000000\n"
"      instances:\n"
"          - instance: 0\n"
"            bogo-ops: 100\n"
"            bogo-ops-per-second-usr-sys-time: 100.000000\n"
"            bogo-ops-per-second-real-time: 50.000000\n"
"          - instance: 1\n"
"            bogo-ops: 200\n"
"            bogo-ops-per-second-usr-sys-time: 200.000000\n"
"            bogo-ops-per-second-real-time: 99.900000\n"
"\n"
"C-states:\n"
"    - stressor: splice\n"
"      C1: 2.000000\n"
"\n"
"...\n";

static struct zsb_sng_metrics m;
static char err[256];

static int parse(const char *doc, size_t len, const char *stressor)
{
	m.ops = m.rate = -7;
	err[0] = 0;
	return zsb_stressng_yaml(doc, len, stressor, &m, err, sizeof(err));
}

/* doc read as stress-ng's: refused with want, no figure written */
static void refused(const char *doc, size_t len, const char *stressor, const char *want,
		    const char *name)
{
	int rc = parse(doc, len, stressor);

	tap_ok(rc == -1 && m.ops == -7 && m.rate == -7 && !strcmp(err, want), name);
	if (rc != -1 || strcmp(err, want))
		printf("#   rc %d, figures %g %g\n#   got  '%s'\n#   want '%s'\n", rc, m.ops,
		       m.rate, err, want);
}

static void refused_s(const char *doc, const char *want, const char *name)
{
	refused(doc, strlen(doc), "splice", want, name);
}

static char *fixture;
static size_t fixture_len;

/* the fixture with its first from replaced by to, then refused with want */
static void mutated(const char *from, const char *to, const char *want, const char *name)
{
	char *hit = strstr(fixture, from), *doc;
	size_t a, len;

	if (!hit) {
		tap_ok(0, name);
		printf("#   '%s' is not in the fixture\n", from);
		return;
	}
	a = (size_t)(hit - fixture);
	len = fixture_len - strlen(from) + strlen(to);
	doc = malloc(len + 1);
	memcpy(doc, fixture, a);
	memcpy(doc + a, to, strlen(to));
	strcpy(doc + a + strlen(to), hit + strlen(from));
	refused(doc, len, "splice", want, name);
	free(doc);
}

int main(int argc, char **argv)
{
	char path[PATH_MAX + 48], missing[PATH_MAX + 16], dir[PATH_MAX];
	FILE *f;
	int every = 1;

	/* the fixture is beside the test binary */
	(void)argc;
	snprintf(dir, sizeof(dir), "%s", argv[0]);
	snprintf(path, sizeof(path), "%s/" FIXTURE, dirname(dir));
	snprintf(missing, sizeof(missing), "%s/no-such.yaml", dir);

	/* what stress-ng wrote */
	tap_ok(zsb_stressng_yaml_file(path, "splice", &m, err, sizeof(err)) == 0 &&
	       m.ops == FIXTURE_OPS && m.rate == FIXTURE_RATE,
	       "0.15.06's file: bogo-ops 93869, real-time ops/s 46989.521593");
	if (err[0])
		printf("#   %s\n", err);
	tap_ok(parse(yaml_lkp, strlen(yaml_lkp), "splice") == 0 && m.ops == 555388 &&
	       m.rate == 277682.695545, "0.15.06, LKP's command line, --times: its figures");
	tap_ok(parse(yaml_two, strlen(yaml_two), "splice") == 0 && m.ops == 117990 &&
	       m.rate == 117986.511858, "two stressors: the splice entry's");
	tap_ok(parse(yaml_two, strlen(yaml_two), "pipe") == 0 && m.ops == 325559 &&
	       m.rate == 325361.423585, "two stressors: the pipe entry's, after splice's");
	tap_ok(parse(yaml_sn, strlen(yaml_sn), "splice") == 0 && m.ops == 40217 &&
	       m.rate == 40229.47, "--sn: the rate in %e");
	tap_ok(parse(yaml_v017, strlen(yaml_v017), "splice") == 0 && m.ops == 16358432 &&
	       m.rate == 272640.533333, "V0.17's shape: its figures");
	tap_ok(parse(yaml_instances, strlen(yaml_instances), "splice") == 0 && m.ops == 300 &&
	       m.rate == 149.9, "V0.21's instances: the entry's figures, not an instance's");

	/* what it must refuse */
	f = fopen(path, "re");
	fixture = calloc(1, 65536);
	fixture_len = f ? fread(fixture, 1, 65535, f) : 0;
	if (f)
		fclose(f);
	tap_ok(fixture_len > 0 && fixture[fixture_len - 1] == '\n', "the fixture, read whole");
	refused_s("", "empty: stress-ng wrote no YAML", "an empty file");
	tap_ok(zsb_stressng_yaml_file(missing, "splice", &m, err, sizeof(err)) == -1 &&
	       strstr(err, "no-such.yaml: No such file or directory"), "no file: its name and why");
	for (size_t len = 0; len < fixture_len; len++) {
		if (parse(fixture, len, "splice") != -1 || m.ops != -7 || !err[0]) {
			printf("#   the first %zu bytes gave a figure or no reason\n", len);
			every = 0;
		}
	}
	tap_ok(every, "every truncation of the fixture: refused with a reason, no figure");
	{
		/* stress-ng killed before it wrote "..." */
		size_t cut = (size_t)(strstr(fixture, "      wall-clock-time") - fixture);

		refused(fixture, cut, "splice", "truncated: no '...' end line",
			"cut after the figures: truncated, still no figure");
		refused(fixture, fixture_len - 1, "splice",
			"truncated: its last line has no newline", "the '...' without its newline");
	}
	refused(fixture, fixture_len, "vm", "no entry for stressor 'vm' in 'metrics:' "
		"(entries: splice)", "no entry for the stressor: which there are");
	refused_s("---\nmetrics:\n\n...\n", "no entry for stressor 'splice' in 'metrics:' (none)",
		  "a metrics section without entries");
	refused_s("---\nsystem-info:\n      stress-ng-version: 0.15.06\n\n...\n",
		  "no 'metrics:' section", "no metrics section");
	refused_s("---\nmetrics:\n    - stressor: splice\n\n...\n",
		  "the 'splice' entry has no bogo-ops", "an entry without figures");
	mutated("      bogo-ops-per-second-real-time: 46989.521593\n", "",
		"the 'splice' entry has no bogo-ops-per-second-real-time", "no real-time rate");
	mutated("bogo-ops: 93869", "bogo-ops: 93869x", "line 29: bogo-ops: '93869x' is not a count",
		"bogo-ops not a count");
	mutated("bogo-ops: 93869", "bogo-ops: -1", "line 29: bogo-ops: '-1' is not a count",
		"bogo-ops negative");
	mutated("bogo-ops: 93869", "bogo-ops: 99999999999999999999",
		"line 29: bogo-ops: '99999999999999999999' is not a count",
		"bogo-ops over 64 bits");
	mutated("bogo-ops: 93869", "bogo-ops:", "the 'splice' entry has no bogo-ops",
		"bogo-ops without a value");
	mutated("real-time: 46989.521593", "real-time: nan",
		"line 31: bogo-ops-per-second-real-time: 'nan' is not a rate", "the rate nan");
	mutated("real-time: 46989.521593", "real-time: 1e999",
		"line 31: bogo-ops-per-second-real-time: '1e999' is not a rate",
		"the rate infinite");
	mutated("real-time: 46989.521593", "real-time: -4.5",
		"line 31: bogo-ops-per-second-real-time: '-4.5' is not a rate",
		"the rate negative");
	mutated("real-time: 46989.521593", "real-time: 46989.52 ops/s",
		"line 31: bogo-ops-per-second-real-time: '46989.52 ops/s' is not a rate",
		"the rate with a unit after it");
	mutated("real-time: 46989.521593", "real-time:  46989.521593",
		"line 31: 'bogo-ops-per-second-real-time:  46989.52' is not 'key: value'",
		"two spaces after the colon");
	mutated("      wall-clock-time", "       wall-clock-time",
		"line 32: indented 7 spaces in a metrics entry (its keys are at 6)",
		"a key indented 7 spaces");
	mutated("    - stressor: splice\n", "    - stressor: splice\n      bogo-ops: 1\n",
		"line 30: a second bogo-ops", "bogo-ops twice in the entry");
	mutated("\n...\n", "\n    - stressor: splice\n      bogo-ops: 1\n\n...\n",
		"line 39: a second entry for stressor 'splice'", "two entries for splice");
	mutated("metrics:\n", "metrics:\n      bogo-ops: 1\n",
		"line 28: a line in 'metrics:' outside any '- stressor:' entry",
		"a key before the first entry");
	mutated("    - stressor: splice", "    - bogo-ops: 1",
		"line 28: an entry that does not begin with 'stressor: NAME'",
		"an entry without its stressor");
	mutated("    - stressor: splice", "    - stressor: splice x",
		"line 28: stressor 'splice x' is not a stressor's name",
		"a stressor's name with a space");
	mutated("...\n", "...\nmetrics:\n", "line 40: text after the '...' end line",
		"text after the end");
	mutated("\n...\n", "\nmetrics:\n\n...\n", "line 39: a second 'metrics:'",
		"two metrics sections");
	mutated("\n...\n", "\n---\n...\n", "line 39: a second '---': two documents",
		"two documents");
	mutated("\nmetrics:\n", "\nmetrics: 1\n",
		"line 27: 'metrics: 1' is not a section ('name:')", "a section with a value");
	mutated("---\n", "", "line 1: not '---': not a document of stress-ng --yaml",
		"no '---' first");
	mutated("bogo-ops: 93869\n", "bogo-ops: 93869\r\n",
		"line 29: bogo-ops: '93869\r' is not a count", "a CR before the newline");
	{
		char *nul = malloc(fixture_len);

		memcpy(nul, fixture, fixture_len);
		nul[100] = 0;
		refused(nul, fixture_len, "splice", "a NUL byte at offset 100: not a text document",
			"a NUL byte");
		free(nul);
	}
	refused_s("stress-ng: info:  [4277] setting to a 2 second run per stressor\n",
		  "line 1: not '---': not a document of stress-ng --yaml",
		  "stress-ng's text output instead");
	refused_s("---\n      cpus: 2\n...\n", "line 2: an indented line before any section",
		  "an indented line before any section");
	{
		char small[16];

		m.ops = -7;
		tap_ok(zsb_stressng_yaml("", 0, "splice", &m, small, sizeof(small)) == -1 &&
		       strlen(small) == sizeof(small) - 1 && m.ops == -7,
		       "a short error buffer: cut, not overrun");
	}
	free(fixture);
	return tap_done();
}
