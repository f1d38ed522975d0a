// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON document (run --json) and its reader (plot, compare), through
 * json-c.  Laid out one top-level member and one record per line, so that
 * busybox awk (the guest smoke test) can check it line by line.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "zsbench.h"

/* the figure a record stands for, in its unit: the count for fill */
double zsb_result_value(const struct zsb_result *r)
{
	return r->unit == ZSB_UNIT_FILL_COUNT ? r->fill_count : r->mean;
}

/* the unit of a record's per-run values: fill runs are fills per second */
enum zsb_unit zsb_values_unit(const struct zsb_result *r)
{
	return r->unit == ZSB_UNIT_FILL_COUNT ? ZSB_UNIT_OPS_PER_SEC : r->unit;
}

/* ---- writer ---- */

/*
 * A number with three decimals, or four significant digits where three
 * decimals would lose more than 0.01 % of it (a program's GiB/s under
 * TCG: 0.009134); null when it is not finite.
 */
static struct json_object *jnum(double v)
{
	char s[64];

	if (!isfinite(v))
		return NULL;
	snprintf(s, sizeof(s), "%.3f", v);
	if (fabs(strtod(s, NULL) - v) > 1e-4 * fabs(v))
		snprintf(s, sizeof(s), "%.4g", v);
	return json_object_new_double_s(v, s);
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static void add_s(struct json_object *o, const char *k, const char *v)
{
	add(o, k, json_object_new_string(v));
}

static struct json_object *record(const struct zsb_result *r)
{
	struct json_object *o = json_object_new_object(), *vals = json_object_new_array();

	add_s(o, "source", r->source);
	add_s(o, "workload", r->workload);
	add_s(o, "variant", r->variant);
	add(o, "size", json_object_new_uint64(r->size));
	add(o, "threads", json_object_new_int(r->threads));
	add_s(o, "impl", r->impl);
	add_s(o, "metric", r->metric);
	add_s(o, "unit", zsb_unit_name(r->unit));
	add(o, "value", jnum(zsb_result_value(r)));
	add_s(o, "values_unit", zsb_unit_name(zsb_values_unit(r)));
	add(o, "mean", jnum(r->mean));
	add(o, "stddev", jnum(r->stddev));
	add(o, "runs", json_object_new_int(r->runs));
	for (int i = 0; i < r->runs && i < ZSB_MAX_RUNS; i++)
		json_object_array_add(vals, jnum(r->vals[i]));
	add(o, "values", vals);
	add(o, "bytes_per_sec_mean", jnum(r->bytes_per_sec_mean));
	add(o, "unsupported", json_object_new_boolean(r->unsupported));
	add_s(o, "error", r->error);
	if (r->fill_count >= 0) {
		add(o, "fill_count", json_object_new_int64((int64_t)r->fill_count));
		add(o, "fill_capped", json_object_new_boolean(r->fill_capped));
	}
	if (r->iowq_workers >= 0)
		add(o, "iowq_workers", json_object_new_int(r->iowq_workers));
	add(o, "enospc_per_sec", jnum(r->enospc_per_sec));
	add_s(o, "note", r->note);
	if (r->instances_seen) {
		add(o, "stalled", json_object_new_int(r->stalled));
		add(o, "instances_seen", json_object_new_int(r->instances_seen));
	}
	return o;
}

static struct json_object *document(const struct zsb_results *rs)
{
	struct json_object *d = json_object_new_object(), *units = json_object_new_object();
	struct json_object *recs = json_object_new_array();

	add(d, "schema", json_object_new_int(ZSB_JSON_SCHEMA));
	add_s(d, "tool", "zsbench");
	add_s(d, "zsbench_version", ZSB_VERSION);
	add_s(d, "module_version", rs->module_version);
	add_s(d, "kernel", rs->kernel);
	add_s(d, "kernel_version", rs->kernel_version);
	add(d, "duration", jnum(rs->duration));
	add_s(d, "baseline", rs->baseline);
	add_s(d, "stress_ng_version", rs->stress_ng_version);
	add_s(d, "fio_version", rs->fio_version);
	if (rs->lkp_stress_ng[0])
		add_s(d, "lkp_stress_ng", rs->lkp_stress_ng);
	for (int u = 0; u < ZSB_NUNITS; u++)
		add_s(units, zsb_units[u].name, zsb_units[u].desc);
	add(d, "units", units);
	for (int i = 0; i < rs->n; i++)
		json_object_array_add(recs, record(&rs->r[i]));
	add(d, "records", recs);
	return d;
}

static const char *text(struct json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* json-c's text of every member, a member (and a record) per line */
static void layout(FILE *f, struct json_object *d)
{
	const char *sep = "";

	fputs("{\n", f);
	json_object_object_foreach(d, key, val) {
		struct json_object *k = json_object_new_string(key);

		fprintf(f, "%s%s:", sep, text(k));
		json_object_put(k);
		sep = ",\n";
		if (!json_object_is_type(val, json_type_array) ||
		    json_object_array_length(val) == 0) {
			fputs(text(val), f);
			continue;
		}
		fputs("[\n", f);
		for (size_t i = 0, n = json_object_array_length(val); i < n; i++)
			fprintf(f, "%s%s", text(json_object_array_get_idx(val, i)),
				i + 1 < n ? ",\n" : "\n");
		fputs("]", f);
	}
	fputs("\n}\n", f);
}

int zsb_json_write(FILE *f, const struct zsb_results *rs)
{
	struct json_object *d = document(rs);

	layout(f, d);
	json_object_put(d);
	return ferror(f) ? -1 : 0;
}

int zsb_json_write_file(const char *path, const struct zsb_results *rs)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = zsb_json_write(f, rs);
	if (fclose(f))
		rc = -1;
	return rc;
}

/* ---- reader: the current schema only ---- */

static void get_s(struct json_object *o, const char *k, char *out, size_t len)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string))
		snprintf(out, len, "%s", json_object_get_string(v));
}

/* a number (null reads as 0); leaves *out alone when the key is absent */
static void get_d(struct json_object *o, const char *k, double *out)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, k, &v))
		*out = json_object_get_double(v);
}

static void get_i(struct json_object *o, const char *k, int *out)
{
	double d = 0;

	if (json_object_object_get_ex(o, k, NULL)) {
		get_d(o, k, &d);
		*out = (int)d;
	}
}

/* the runs' values; how many there are (0 without the array) */
static size_t get_values(struct json_object *o, const char *k, struct zsb_result *r)
{
	struct json_object *a;
	size_t n;

	if (!json_object_object_get_ex(o, k, &a) || !json_object_is_type(a, json_type_array))
		return 0;
	n = json_object_array_length(a);
	for (size_t i = 0; i < n && i < ZSB_MAX_RUNS; i++)
		r->vals[i] = json_object_get_double(json_object_array_get_idx(a, i));
	return n;
}

/* A record's numeric fields, read by their member names. */
#define DOUBLE_FIELDS(X) X(mean) X(stddev) X(bytes_per_sec_mean) X(enospc_per_sec) X(fill_count)
#define INT_FIELDS(X) X(threads) X(runs) X(fill_capped) X(iowq_workers) X(stalled) \
	X(instances_seen) X(unsupported)
#define GET_D(m) get_d(o, #m, &r->m);
#define GET_I(m) get_i(o, #m, &r->m);

static void read_record(struct json_object *o, struct zsb_result *r)
{
	char unit[32] = "";
	size_t n;
	int u;

	get_s(o, "source", r->source, sizeof(r->source));
	get_s(o, "workload", r->workload, sizeof(r->workload));
	get_s(o, "variant", r->variant, sizeof(r->variant));
	get_s(o, "impl", r->impl, sizeof(r->impl));
	get_s(o, "metric", r->metric, sizeof(r->metric));
	get_s(o, "unit", unit, sizeof(unit));
	u = zsb_unit_parse(unit);
	r->unit = u < 0 ? ZSB_UNIT_OPS_PER_SEC : (enum zsb_unit)u;
	get_s(o, "error", r->error, sizeof(r->error));
	get_s(o, "note", r->note, sizeof(r->note));
	if (json_object_object_get_ex(o, "size", NULL)) {
		double d = 0;

		get_d(o, "size", &d);
		r->size = (size_t)d;
	}
	DOUBLE_FIELDS(GET_D)
	INT_FIELDS(GET_I)
	n = get_values(o, "values", r);
	/*
	 * Every run known: mean and sigma from the runs, as this zsbench and
	 * LKP's ncompare compute them, whatever "mean" and "stddev" say (a
	 * document written by another tool may have neither).
	 */
	if (n > 0 && n <= ZSB_MAX_RUNS && (size_t)r->runs == n)
		zsb_result_finish(r);
}

/* line of offset off in text, from 1 */
static int line_of(const char *text, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off && text[i]; i++)
		line += text[i] == '\n';
	return line;
}

/* the document in text, or NULL with json-c's reason in err */
static struct json_object *parse_doc(const char *text, size_t len, char *err, size_t el)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *d;
	enum json_tokener_error je;
	size_t off;

	if (!tok) {
		snprintf(err, el, "out of memory");
		return NULL;
	}
	d = json_tokener_parse_ex(tok, text, (int)len);
	je = json_tokener_get_error(tok);
	off = json_tokener_get_parse_end(tok);
	if (!d && je == json_tokener_continue)
		snprintf(err, el, "not JSON: the document ends early (json-c: %s)",
			 json_tokener_error_desc(json_tokener_error_parse_eof));
	else if (!d)
		snprintf(err, el, "not JSON: line %d: %s (json-c)", line_of(text, off),
			 json_tokener_error_desc(je));
	else if (text[off + strspn(text + off, " \t\r\n")])
		snprintf(err, el, "not JSON: line %d: text after the document",
			 line_of(text, off));
	if (err[0] && d) {
		json_object_put(d);
		d = NULL;
	}
	json_tokener_free(tok);
	return d;
}

static struct json_object *read_doc(const char *path, char *err, size_t el)
{
	FILE *f = fopen(path, "re");
	struct json_object *d;
	char *text = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f) {
		snprintf(err, el, "%s", strerror(errno));
		return NULL;
	}
	len = getdelim(&text, &cap, 0, f);
	if (len < 0 && ferror(f)) {
		snprintf(err, el, "%s", strerror(errno));
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	d = parse_doc(text ? text : "", len > 0 ? (size_t)len : 0, err, el);
	free(text);
	return d;
}

int zsb_json_read_file(const char *path, struct zsb_results *rs, char *err, size_t el)
{
	struct json_object *d, *recs, *v;
	int schema;

	err[0] = 0;
	d = read_doc(path, err, el);
	if (!d)
		return -1;
	schema = json_object_is_type(d, json_type_object) &&
		 json_object_object_get_ex(d, "schema", &v) ? json_object_get_int(v) : 0;
	if (schema != ZSB_JSON_SCHEMA) {
		snprintf(err, el, "not a zsbench JSON document of schema %d%s", ZSB_JSON_SCHEMA,
			 schema ? " (an older zsbench wrote it)" : "");
		json_object_put(d);
		return -1;
	}
	get_s(d, "kernel", rs->kernel, sizeof(rs->kernel));
	get_s(d, "kernel_version", rs->kernel_version, sizeof(rs->kernel_version));
	get_s(d, "module_version", rs->module_version, sizeof(rs->module_version));
	get_s(d, "stress_ng_version", rs->stress_ng_version, sizeof(rs->stress_ng_version));
	get_s(d, "fio_version", rs->fio_version, sizeof(rs->fio_version));
	get_s(d, "lkp_stress_ng", rs->lkp_stress_ng, sizeof(rs->lkp_stress_ng));
	get_s(d, "baseline", rs->baseline, sizeof(rs->baseline));
	get_d(d, "duration", &rs->duration);
	if (json_object_object_get_ex(d, "records", &recs) &&
	    json_object_is_type(recs, json_type_array))
		for (size_t i = 0; i < json_object_array_length(recs); i++)
			read_record(json_object_array_get_idx(recs, i), zsb_results_add(rs));
	json_object_put(d);
	return 0;
}
