// SPDX-License-Identifier: GPL-2.0
/* The JSON writer (json-c): exact text for a known record, escaping, and read-back. */
#include <stdlib.h>
#include <unistd.h>

#include "zsbench.h"
#include "tap.h"

/* schema 1, as zsbench wrote it long ago: refused, only the current schema is read */
static const char schema1[] =
"{\n\"tool\":\"zsbench\",\n\"kernel\":\"6.12.0\",\n\"duration\":0.200,\n"
"\"baseline\":\"copy\",\n\"stress_ng_version\":\"stress-ng, \\\"v\\\" 0.15\",\n"
"\"fio_version\":\"\",\n\"records\":[\n"
"{\"source\":\"zsbench\",\"workload\":\"fill\",\"variant\":\"fill\",\"size\":1,"
"\"threads\":1,\"impl\":\"copy\",\"metric\":\"zsbench.fill.64K.fill_count\","
"\"unit\":\"fill_count\",\"ops_per_sec_mean\":150.000,\"ops_per_sec_stddev\":70.711,"
"\"runs\":2,\"ops_per_sec\":[100.000,200.000],\"bytes_per_sec_mean\":2400.000,"
"\"unsupported\":false,\"error\":\"\",\"fill_count\":16,\"enospc_per_sec\":0.000,"
"\"note\":\"a\\\\b\\nc\"}\n"
"]\n}\n";

static const char expected[] =
"{\n\"schema\":3,\n\"tool\":\"zsbench\",\n\"zsbench_version\":\"" ZSB_VERSION "\",\n"
"\"module_version\":\"0.1\",\n\"kernel\":\"6.12.0\",\n\"kernel_version\":\"#1 SMP\",\n"
"\"duration\":0.200,\n"
"\"baseline\":\"copy\",\n\"stress_ng_version\":\"stress-ng, \\\"v\\\" 0.15\",\n"
"\"fio_version\":\"\",\n"
"\"units\":{\"ops_per_sec\":\"operations per second\","
"\"fill_count\":\"calls until the pipe is full\","
"\"read_iops\":\"read I/O operations per second\","
"\"read_bw_MBps\":\"read bandwidth, MB per second\","
"\"ns_per_op\":\"ns per operation (source icount: instructions)\","
"\"gib_per_sec\":\"GiB per second\","
"\"ns_per_gib\":\"ns per GiB (source icount: instructions)\"},\n"
"\"records\":[\n"
"{\"source\":\"zsbench\",\"workload\":\"fill\",\"variant\":\"fill\",\"size\":1,"
"\"threads\":1,\"impl\":\"copy\",\"metric\":\"zsbench.fill.64K.fill_count\","
"\"unit\":\"fill_count\",\"value\":16.000,\"values_unit\":\"ops_per_sec\","
"\"mean\":150.000,\"stddev\":50.000,"
"\"runs\":2,\"values\":[100.000,200.000],\"bytes_per_sec_mean\":2400.000,"
"\"unsupported\":false,\"error\":\"\",\"fill_count\":16,\"fill_capped\":true,"
"\"enospc_per_sec\":0.000,\"note\":\"a\\\\b\\nc\"},\n"
"{\"source\":\"zsbench\",\"workload\":\"splice\",\"variant\":\"splice-64K\","
"\"size\":65536,\"threads\":2,\"impl\":\"none\",\"metric\":\"m\",\"unit\":\"ops_per_sec\","
"\"value\":0.000,\"values_unit\":\"ops_per_sec\","
"\"mean\":0.000,\"stddev\":0.000,\"runs\":1,\"values\":[0.000],"
"\"bytes_per_sec_mean\":0.000,\"unsupported\":true,\"error\":\"EINVAL\","
"\"iowq_workers\":0,\"enospc_per_sec\":0.000,\"note\":\"\"}\n"
"]\n}\n";

/* A zsbench record of RS with these names and unit. */
static struct zsb_result *add_record(struct zsb_results *rs, const char *workload,
				     const char *variant, const char *impl,
				     const char *metric, enum zsb_unit unit)
{
	struct zsb_result *r = zsb_results_add(rs);

	snprintf(r->source, sizeof(r->source), "zsbench");
	snprintf(r->workload, sizeof(r->workload), "%s", workload);
	snprintf(r->variant, sizeof(r->variant), "%s", variant);
	snprintf(r->impl, sizeof(r->impl), "%s", impl);
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	r->unit = unit;
	return r;
}

static char jerr[256];

/* a document the reader refuses with a message holding want (NULL: no file) */
static void bad_doc(const char *path, const char *text, const char *want, const char *name)
{
	struct zsb_results rs = { 0 };
	FILE *f;
	int rc;

	if (text) {
		f = fopen(path, "w");
		fputs(text, f);
		fclose(f);
	}
	rc = zsb_json_read_file(path, &rs, jerr, sizeof(jerr));
	tap_ok(rc == -1 && strstr(jerr, want) && !strchr(jerr, '\n'), name);
	if (rc != -1 || !strstr(jerr, want))
		printf("#   rc %d, '%s', want '%s'\n", rc, jerr, want);
	free(rs.r);
}

int main(void)
{
	struct zsb_results rs = { 0 }, back = { 0 };
	struct zsb_result *r;
	char *text = NULL, path[] = "/tmp/zsb-json-XXXXXX", *lkp = NULL;
	size_t lkplen = 0;
	size_t len = 0;
	FILE *f;
	int fd;

	snprintf(rs.kernel, sizeof(rs.kernel), "6.12.0");
	snprintf(rs.kernel_version, sizeof(rs.kernel_version), "#1 SMP");
	snprintf(rs.module_version, sizeof(rs.module_version), "0.1");
	snprintf(rs.baseline, sizeof(rs.baseline), "copy");
	snprintf(rs.stress_ng_version, sizeof(rs.stress_ng_version), "stress-ng, \"v\" 0.15");
	rs.duration = 0.2;
	r = add_record(&rs, "fill", "fill", "copy", "zsbench.fill.64K.fill_count",
		       ZSB_UNIT_FILL_COUNT);
	snprintf(r->note, sizeof(r->note), "a\\b\nc");
	r->size = 1;
	r->threads = 1;
	r->runs = 2;
	r->vals[0] = 100;
	r->vals[1] = 200;
	r->bytes_per_sec_mean = 2400;
	r->fill_count = 16;
	r->fill_capped = 1;
	zsb_result_finish(r);
	r = add_record(&rs, "splice", "splice-64K", "none", "m", ZSB_UNIT_OPS_PER_SEC);
	snprintf(r->error, sizeof(r->error), "EINVAL");
	r->size = 65536;
	r->threads = 2;
	r->runs = 1;
	r->unsupported = 1;
	r->iowq_workers = 0;
	zsb_result_finish(r);

	f = open_memstream(&text, &len);
	tap_ok(zsb_json_write(f, &rs) == 0, "writer succeeds");
	fclose(f);
	tap_str(text, expected, "document text as expected");

	fd = mkstemp(path);
	tap_ok(fd >= 0 && write(fd, text, len) == (ssize_t)len, "temp file written");
	close(fd);
	tap_ok(zsb_json_read_file(path, &back, jerr, sizeof(jerr)) == 0, "reader parses the document");
	tap_ok(back.n == 2, "two records read back");
	if (back.n == 2) {
		tap_str(back.r[0].note, "a\\b\nc", "escaped note round-trips");
		tap_ok(back.r[0].fill_capped && !back.r[1].fill_capped,
		       "fill_capped round-trips");
		tap_ok(back.r[0].fill_count == 16 && back.r[0].runs == 2 &&
		       back.r[0].vals[1] == 200 && back.r[0].size == 1, "numbers round-trip");
		tap_near(back.r[0].stddev, 50, 1e-9, "stddev read back");
		tap_ok(back.r[1].unsupported && !strcmp(back.r[1].error, "EINVAL") &&
		       back.r[1].iowq_workers == 0 && back.r[1].fill_count == -1,
		       "unsupported record read back");
		tap_str(back.stress_ng_version, "stress-ng, \"v\" 0.15", "meta string read back");
		tap_str(back.module_version, "0.1", "module version read back");
		tap_ok(back.r[0].unit == ZSB_UNIT_FILL_COUNT && back.r[1].unit == ZSB_UNIT_OPS_PER_SEC,
		       "units read back as types");
	}
	{
		struct zsb_results old = { 0 };

		f = fopen(path, "w");
		fputs(schema1, f);
		fclose(f);
		tap_ok(zsb_json_read_file(path, &old, jerr, sizeof(jerr)) == -1 && old.n == 0,
		       "a schema 1 document is refused");
		free(old.r);
	}
	{
		/* what json-c escapes: quotes, backslash, controls; not "/" */
		struct zsb_results odd = { 0 };
		char *t = NULL;
		size_t tl = 0;

		r = zsb_results_add(&odd);
		snprintf(r->note, sizeof(r->note), "a/b \"q\"\t\x01");
		r->mean = 1.0 / 0.0;
		f = open_memstream(&t, &tl);
		zsb_json_write(f, &odd);
		fclose(f);
		tap_ok(strstr(t, "\"note\":\"a/b \\\"q\\\"\\t\\u0001\"") != NULL,
		       "string escapes");
		tap_ok(strstr(t, "\"mean\":null") != NULL, "a mean that is not finite is null");
		if (tap_fail)
			printf("# %s", t);
		free(t);
		free(odd.r);
	}
	{
		/* runs without mean and stddev (check-lkp's documents): computed */
		struct zsb_results bare = { 0 };

		f = fopen(path, "w");
		fputs("{\"schema\":3,\"records\":[{\"metric\":\"m\",\"runs\":2,"
		      "\"values\":[100,105.8]}]}", f);
		fclose(f);
		tap_ok(zsb_json_read_file(path, &bare, jerr, sizeof(jerr)) == 0 && bare.n == 1, "bare runs read");
		if (bare.n == 1) {
			tap_near(bare.r[0].mean, 102.9, 1e-9, "mean computed from the runs");
			tap_near(bare.r[0].stddev, 2.9, 1e-9, "stddev computed from the runs");
		}
		free(bare.r);
	}
	f = open_memstream(&lkp, &lkplen);
	zsb_format_lkp(f, &rs);
	fclose(f);
	tap_str(lkp, "zsbench.fill.64K.copy.fill_count: 16.00\n",
		"--format=lkp: key with the implementation, unsupported records left out");
	free(lkp);
	f = fopen(path, "w");
	fputs("{\"records\":[{\"impl\":\"copy\"", f);
	fclose(f);
	{
		struct zsb_results bad = { 0 };

		tap_ok(zsb_json_read_file(path, &bad, jerr, sizeof(jerr)) == -1 &&
		       strstr(jerr, "ends early"), "truncated document rejected: it ends early");
		free(bad.r);
	}
	bad_doc(path, "{\"schema\": 3,\n \"records\": [ {\"a\": 1,, } ]\n}\n",
		"not JSON: line 2: quoted object property name expected (json-c)",
		"malformed: the line and json-c's error");
	bad_doc(path, "", "not JSON: the document ends early", "an empty file");
	bad_doc(path, "{\"schema\": 3}\n}\n", "not JSON: line 2: text after the document",
		"text after the document");
	bad_doc(path, "[1, 2]", "not a zsbench JSON document of schema 3", "JSON, not ours");
	bad_doc("/nonexistent/zsb.json", NULL, "No such file or directory", "no such file");
	unlink(path);
	free(text);
	free(rs.r);
	free(back.r);
	return tap_done();
}
