// SPDX-License-Identifier: GPL-2.0
/*
 * JSON writer (one record per line, so that busybox awk can check it) and a
 * small reader for the same documents (--replot).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zsbench.h"

void zsb_json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void kv_s(FILE *f, const char *k, const char *v, int comma)
{
	fprintf(f, "%s\"%s\":", comma ? "," : "", k);
	zsb_json_escape(f, v);
}

static void num(FILE *f, double v)
{
	if (v != v || v > 1e300 || v < -1e300)
		fputs("null", f);
	else
		fprintf(f, "%.3f", v);
}

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

static void record(FILE *f, const struct zsb_result *r)
{
	fputc('{', f);
	kv_s(f, "source", r->source, 0);
	kv_s(f, "workload", r->workload, 1);
	kv_s(f, "variant", r->variant, 1);
	fprintf(f, ",\"size\":%zu,\"threads\":%d", r->size, r->threads);
	kv_s(f, "impl", r->impl, 1);
	kv_s(f, "metric", r->metric, 1);
	kv_s(f, "unit", zsb_unit_name(r->unit), 1);
	fputs(",\"value\":", f);
	num(f, zsb_result_value(r));
	kv_s(f, "values_unit", zsb_unit_name(zsb_values_unit(r)), 1);
	fputs(",\"mean\":", f);
	num(f, r->mean);
	fputs(",\"stddev\":", f);
	num(f, r->stddev);
	fprintf(f, ",\"runs\":%d,\"values\":[", r->runs);
	for (int i = 0; i < r->runs; i++) {
		if (i)
			fputc(',', f);
		num(f, r->vals[i]);
	}
	fputs("],\"bytes_per_sec_mean\":", f);
	num(f, r->bytes_per_sec_mean);
	fprintf(f, ",\"unsupported\":%s", r->unsupported ? "true" : "false");
	kv_s(f, "error", r->error, 1);
	if (r->fill_count >= 0)
		fprintf(f, ",\"fill_count\":%.0f,\"fill_capped\":%s", r->fill_count,
			r->fill_capped ? "true" : "false");
	if (r->iowq_workers >= 0)
		fprintf(f, ",\"iowq_workers\":%d", r->iowq_workers);
	fputs(",\"enospc_per_sec\":", f);
	num(f, r->enospc_per_sec);
	kv_s(f, "note", r->note, 1);
	if (r->instances_seen)
		fprintf(f, ",\"stalled\":%d,\"instances_seen\":%d", r->stalled,
			r->instances_seen);
	fputc('}', f);
}

int zsb_json_write(FILE *f, const struct zsb_results *rs)
{
	fprintf(f, "{\n\"schema\":%d,\n", ZSB_JSON_SCHEMA);
	kv_s(f, "tool", "zsbench", 0);
	fputs(",\n", f);
	kv_s(f, "zsbench_version", ZSB_VERSION, 0);
	fputs(",\n", f);
	kv_s(f, "module_version", rs->module_version, 0);
	fputs(",\n", f);
	kv_s(f, "kernel", rs->kernel, 0);
	fputs(",\n", f);
	kv_s(f, "kernel_version", rs->kernel_version, 0);
	fputs(",\n\"duration\":", f);
	num(f, rs->duration);
	fputs(",\n", f);
	kv_s(f, "baseline", rs->baseline, 0);
	fputs(",\n", f);
	kv_s(f, "stress_ng_version", rs->stress_ng_version, 0);
	fputs(",\n", f);
	kv_s(f, "fio_version", rs->fio_version, 0);
	if (rs->lkp_stress_ng[0]) {
		fputs(",\n", f);
		kv_s(f, "lkp_stress_ng", rs->lkp_stress_ng, 0);
	}
	fputs(",\n\"units\":{", f);
	for (int u = 0; u < ZSB_NUNITS; u++)
		kv_s(f, zsb_units[u].name, zsb_units[u].desc, u > 0);
	fputs("}", f);
	fputs(",\n\"records\":[\n", f);
	for (int i = 0; i < rs->n; i++) {
		record(f, &rs->r[i]);
		fputs(i + 1 < rs->n ? ",\n" : "\n", f);
	}
	fputs("]\n}\n", f);
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

/* ---- reader ---- */
struct jp {
	const char *s;
	int err;
};

static void ws(struct jp *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static int expect(struct jp *p, char ch)
{
	ws(p);
	if (*p->s != ch) {
		p->err = 1;
		return -1;
	}
	p->s++;
	return 0;
}

/* parse a string into out (truncated to len) */
static int pstring(struct jp *p, char *out, size_t len)
{
	size_t n = 0;

	if (expect(p, '"'))
		return -1;
	while (*p->s && *p->s != '"') {
		char ch = *p->s++;

		if (ch == '\\') {
			ch = *p->s++;
			switch (ch) {
			case 'n': ch = '\n'; break;
			case 't': ch = '\t'; break;
			case 'r': ch = '\r'; break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'u': {
				char hex[5] = { 0 };

				for (int i = 0; i < 4 && *p->s; i++)
					hex[i] = *p->s++;
				ch = (char)strtol(hex, NULL, 16);
				break;
			}
			case 0:
				p->err = 1;
				return -1;
			default:
				break;
			}
		}
		if (n + 1 < len)
			out[n++] = ch;
	}
	if (len)
		out[n] = 0;
	if (*p->s != '"') {
		p->err = 1;
		return -1;
	}
	p->s++;
	return 0;
}

static double pnum(struct jp *p)
{
	char *end;
	double v;

	ws(p);
	if (!strncmp(p->s, "null", 4)) {
		p->s += 4;
		return 0;
	}
	v = strtod(p->s, &end);
	if (end == p->s)
		p->err = 1;
	p->s = end;
	return v;
}

static void skip_value(struct jp *p);

static void skip_container(struct jp *p, char open, char close)
{
	char dummy[2];

	expect(p, open);
	ws(p);
	if (*p->s == close) {
		p->s++;
		return;
	}
	while (!p->err) {
		if (open == '{') {
			pstring(p, dummy, sizeof(dummy));
			expect(p, ':');
		}
		skip_value(p);
		ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		expect(p, close);
		return;
	}
}

static void skip_value(struct jp *p)
{
	char dummy[2];

	ws(p);
	if (*p->s == '{')
		skip_container(p, '{', '}');
	else if (*p->s == '[')
		skip_container(p, '[', ']');
	else if (*p->s == '"')
		pstring(p, dummy, sizeof(dummy));
	else if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "null", 4))
		p->s += 4;
	else if (!strncmp(p->s, "false", 5))
		p->s += 5;
	else
		pnum(p);
}

static int pbool(struct jp *p)
{
	ws(p);
	if (!strncmp(p->s, "true", 4)) {
		p->s += 4;
		return 1;
	}
	if (!strncmp(p->s, "false", 5)) {
		p->s += 5;
		return 0;
	}
	p->err = 1;
	return 0;
}

static void precord(struct jp *p, struct zsb_result *r)
{
	char key[64];

	if (expect(p, '{'))
		return;
	ws(p);
	if (*p->s == '}') {
		p->s++;
		return;
	}
	while (!p->err) {
		pstring(p, key, sizeof(key));
		expect(p, ':');
		if (!strcmp(key, "source"))
			pstring(p, r->source, sizeof(r->source));
		else if (!strcmp(key, "workload"))
			pstring(p, r->workload, sizeof(r->workload));
		else if (!strcmp(key, "variant"))
			pstring(p, r->variant, sizeof(r->variant));
		else if (!strcmp(key, "impl"))
			pstring(p, r->impl, sizeof(r->impl));
		else if (!strcmp(key, "metric"))
			pstring(p, r->metric, sizeof(r->metric));
		else if (!strcmp(key, "unit")) {
			char u[32];
			int v;

			pstring(p, u, sizeof(u));
			v = zsb_unit_parse(u);
			r->unit = v < 0 ? ZSB_UNIT_OPS_PER_SEC : (enum zsb_unit)v;
		}
		else if (!strcmp(key, "error"))
			pstring(p, r->error, sizeof(r->error));
		else if (!strcmp(key, "note"))
			pstring(p, r->note, sizeof(r->note));
		else if (!strcmp(key, "size"))
			r->size = (size_t)pnum(p);
		else if (!strcmp(key, "threads"))
			r->threads = (int)pnum(p);
		else if (!strcmp(key, "runs"))
			r->runs = (int)pnum(p);
		else if (!strcmp(key, "ops_per_sec_mean") || !strcmp(key, "mean"))
			r->mean = pnum(p);
		else if (!strcmp(key, "ops_per_sec_stddev") || !strcmp(key, "stddev"))
			r->stddev = pnum(p);
		else if (!strcmp(key, "bytes_per_sec_mean"))
			r->bytes_per_sec_mean = pnum(p);
		else if (!strcmp(key, "enospc_per_sec"))
			r->enospc_per_sec = pnum(p);
		else if (!strcmp(key, "fill_count"))
			r->fill_count = pnum(p);
		else if (!strcmp(key, "fill_capped"))
			r->fill_capped = pbool(p);
		else if (!strcmp(key, "iowq_workers"))
			r->iowq_workers = (int)pnum(p);
		else if (!strcmp(key, "stalled"))
			r->stalled = (int)pnum(p);
		else if (!strcmp(key, "instances_seen"))
			r->instances_seen = (int)pnum(p);
		else if (!strcmp(key, "unsupported"))
			r->unsupported = pbool(p);
		else if (!strcmp(key, "ops_per_sec") || !strcmp(key, "values")) {
			int n = 0;

			expect(p, '[');
			ws(p);
			if (*p->s == ']') {
				p->s++;
			} else {
				while (!p->err) {
					double v = pnum(p);

					if (n < ZSB_MAX_RUNS)
						r->vals[n++] = v;
					ws(p);
					if (*p->s == ',') {
						p->s++;
						continue;
					}
					expect(p, ']');
					break;
				}
			}
		} else {
			skip_value(p);
		}
		ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		expect(p, '}');
		return;
	}
}

static int parse_doc(const char *text, struct zsb_results *rs)
{
	struct jp p = { text, 0 };
	char key[64];

	if (expect(&p, '{'))
		return -1;
	ws(&p);
	if (*p.s == '}')
		return 0;
	while (!p.err) {
		pstring(&p, key, sizeof(key));
		expect(&p, ':');
		if (!strcmp(key, "kernel"))
			pstring(&p, rs->kernel, sizeof(rs->kernel));
		else if (!strcmp(key, "stress_ng_version"))
			pstring(&p, rs->stress_ng_version, sizeof(rs->stress_ng_version));
		else if (!strcmp(key, "fio_version"))
			pstring(&p, rs->fio_version, sizeof(rs->fio_version));
		else if (!strcmp(key, "module_version"))
			pstring(&p, rs->module_version, sizeof(rs->module_version));
		else if (!strcmp(key, "kernel_version"))
			pstring(&p, rs->kernel_version, sizeof(rs->kernel_version));
		else if (!strcmp(key, "lkp_stress_ng"))
			pstring(&p, rs->lkp_stress_ng, sizeof(rs->lkp_stress_ng));
		else if (!strcmp(key, "baseline"))
			pstring(&p, rs->baseline, sizeof(rs->baseline));
		else if (!strcmp(key, "duration"))
			rs->duration = pnum(&p);
		else if (!strcmp(key, "records")) {
			expect(&p, '[');
			ws(&p);
			if (*p.s == ']') {
				p.s++;
			} else {
				while (!p.err) {
					precord(&p, zsb_results_add(rs));
					ws(&p);
					if (*p.s == ',') {
						p.s++;
						continue;
					}
					expect(&p, ']');
					break;
				}
			}
		} else {
			skip_value(&p);
		}
		ws(&p);
		if (*p.s == ',') {
			p.s++;
			continue;
		}
		expect(&p, '}');
		break;
	}
	return p.err ? -1 : 0;
}

int zsb_json_read_file(const char *path, struct zsb_results *rs)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	if (!f)
		return -1;
	do {
		if (len + 65536 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = 0;
	rc = parse_doc(buf, rs);
	free(buf);
	if (rc)
		errno = EINVAL;
	return rc;
}
