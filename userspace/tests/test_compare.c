// SPDX-License-Identifier: GPL-2.0
/*
 * zsbench compare: the robot's 2023 table between two result files, as
 * written by --json and read back.
 */
#include <stdlib.h>
#include <unistd.h>

#include "zsbench.h"
#include "tap.h"

static void add(struct zsb_results *rs, const char *impl, const char *metric,
		const double *v, int n)
{
	struct zsb_result *r = zsb_results_add(rs);

	snprintf(r->source, sizeof(r->source), "stress-ng");
	snprintf(r->impl, sizeof(r->impl), "%s", impl);
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	r->unit = ZSB_UNIT_OPS_PER_SEC;
	for (int i = 0; i < n; i++)
		r->vals[r->runs++] = v[i];
	zsb_result_finish(r);
}

static void roundtrip(struct zsb_results *in, struct zsb_results *out, const char *path)
{
	char err[256];

	zsb_json_write_file(path, in);
	memset(out, 0, sizeof(*out));
	if (zsb_json_read_file(path, out, err, sizeof(err)))
		printf("# %s: %s\n", path, err);
}

int main(void)
{
	/* the robot's parent (v6.6) and child (1b057bd800) runs, seeds/002 */
	static const double parent[] = { 12444442.19, 12599010.87, 12416009.38, 12494132.89,
					 12286766.76, 12359235.82 };
	static const double child[] = { 24055.57, 23235.46, 22142.13, 23782.13, 21732.13,
					22415.46 };
	static const double x[] = { 5 };
	struct zsb_results b = { 0 }, c = { 0 }, rb, rc;
	char *out = NULL, bj[] = "/tmp/zsb-cmp-b.XXXXXX", cj[] = "/tmp/zsb-cmp-c.XXXXXX";
	size_t len = 0;
	FILE *f;
	int ret;

	close(mkstemp(bj));
	close(mkstemp(cj));
	snprintf(b.kernel, sizeof(b.kernel), "6.6.0");
	snprintf(c.kernel, sizeof(c.kernel), "6.7.0-rc1");
	add(&b, "devzero", "stress-ng.splice.ops_per_sec", parent, 6);
	add(&c, "devzero", "stress-ng.splice.ops_per_sec", child, 6);
	add(&b, "copy", "only.in.base", x, 1);
	add(&c, "copy", "only.in.cand", x, 1);
	b.r[0].instances_seen = c.r[0].instances_seen = 64;
	c.r[0].stalled = 64;
	roundtrip(&b, &rb, bj);
	roundtrip(&c, &rc, cj);
	tap_ok(rb.n == 2 && rc.n == 2 && rc.r[0].stalled == 64, "JSON round trip");

	f = open_memstream(&out, &len);
	ret = zsb_compare(f, &rb, &rc, "v6.6", "1b057bd800");
	fclose(f);
	tap_ok(ret == 0, "a common record: success");
	/* the report's own line, with the implementation after the metric */
	tap_ok(strstr(out, "  12433266           -99.8%      22893 \xc2\xb1  3%  "
		       "stress-ng.splice.ops_per_sec [devzero]\n") != NULL,
	       "the robot's row, as ncompare printed it: 12433266 -99.8% 22893 \xc2\xb1 3%");
	/* ncompare's %change from a mean of 0 divides by 1e-100 */
	tap_ok(strstr(out, "      0.00       +6.4e+103%      64.00        "
		       "stress-ng.splice.stalled_instances [devzero]\n") != NULL,
	       "stalled instances row");
	tap_ok(strstr(out, "kernel 6.6.0") && strstr(out, "kernel 6.7.0-rc1"), "kernels named");
	tap_ok(strstr(out, "(1 records only in v6.6, 1 only in 1b057bd800)") != NULL,
	       "records in one file only are counted");
	tap_ok(!strstr(out, "only.in"), "and not compared");
	if (tap_fail)
		printf("# output:\n%s", out);
	free(out);

	f = open_memstream(&out, &len);
	ret = zsb_compare(f, &rb, &rb, "a", "b");
	fclose(f);
	tap_ok(ret == 0 && strstr(out, "+0.0%"), "a file against itself: +0.0%");
	free(out);

	rc.n = 1;
	snprintf(rc.r[0].impl, sizeof(rc.r[0].impl), "folio");
	f = open_memstream(&out, &len);
	ret = zsb_compare(f, &rb, &rc, "a", "b");
	fclose(f);
	tap_ok(ret == -1 && strstr(out, "no record is in both"), "nothing in common: -1");
	free(out);
	/* floor-relative figures: 40000 of a 100000 floor, 20x copy's 2000 */
	{
		struct zsb_results fr = { 0 };
		static const double cp[] = { 2000 }, fo[] = { 40000 }, fl[] = { 100000 };

		add(&fr, "copy", "zsbench.splice-64K.1t.ops_per_sec", cp, 1);
		add(&fr, "folio", "zsbench.splice-64K.1t.ops_per_sec", fo, 1);
		add(&fr, ZSB_FLOOR_IMPL, "zsbench.floor.1t.ops_per_sec", fl, 1);
		for (int i = 0; i < fr.n; i++) {
			snprintf(fr.r[i].source, sizeof(fr.r[i].source), "zsbench");
			fr.r[i].threads = 1;
		}
		f = open_memstream(&out, &len);
		zsb_report_floor(f, &fr, "copy");
		fclose(f);
		tap_ok(strstr(out, "       40000    20.0x     0.40  folio          "
			       "zsbench.splice-64K.1t.ops_per_sec\n") &&
		       strstr(out, "floor, 1 thread(s): 100000 ops/s"),
		       "floor-relative: 0.40 of the floor beside 20.0x copy");
		if (!strstr(out, "0.40"))
			printf("# output:\n%s", out);
		free(out);
		f = open_memstream(&out, &len);
		zsb_report(f, &fr, "copy");
		fclose(f);
		tap_ok(!strstr(out, "candidate: floor"), "the floor is no candidate in the table");
		free(out);
		free(fr.r);
	}
	/* a fill cut short by --fill-max is marked ">=" and its note printed */
	{
		struct zsb_results fr = { 0 };
		static const double one[] = { 1 };

		add(&fr, "copy", "zsbench.fill.64K.fill_count", one, 1);
		add(&fr, "folio", "zsbench.fill.64K.fill_count", one, 1);
		for (int i = 0; i < fr.n; i++)
			fr.r[i].unit = ZSB_UNIT_FILL_COUNT;
		fr.r[0].fill_count = 16;
		fr.r[1].fill_count = 1048576;
		fr.r[1].fill_capped = 1;
		snprintf(fr.r[1].note, sizeof(fr.r[1].note),
			 "fill stopped at --fill-max 1048576: the pipe holds more");
		f = open_memstream(&out, &len);
		zsb_report(f, &fr, "copy");
		fclose(f);
		tap_ok(strstr(out, ">= 1048576") && !strstr(out, ">=       16"),
		       "a capped fill count is marked >=, an exact one is not");
		tap_ok(strstr(out, "notes:\n  zsbench.fill.64K.fill_count [folio]: "
			       "fill stopped at --fill-max 1048576") != NULL,
		       "the note of a capped fill is printed");
		if (tap_fail)
			printf("# output:\n%s", out);
		free(out);
		free(fr.r);
	}
	unlink(bj);
	unlink(cj);
	free(b.r);
	free(c.r);
	free(rb.r);
	free(rc.r);
	return tap_done();
}
