// SPDX-License-Identifier: GPL-2.0
/*
 * stress-ng's --yaml document: a strict reader of the one shape its
 * writers (stress-ng.c and core-helper.c, the same from 0.15.06 through
 * V0.17.x) produce:
 *
 *   ---
 *   system-info:
 *         stress-ng-version: 0.15.06
 *         ...
 *
 *   metrics:
 *       - stressor: splice
 *         bogo-ops: 93869
 *         bogo-ops-per-second-usr-sys-time: 46263.494279
 *         bogo-ops-per-second-real-time: 46989.521593
 *         ...
 *         mb-per-sec-splice-rate: 7723.491396
 *
 *   times:                 (with --times)
 *         run-time: 2.001936
 *         ...
 *   ...
 *
 * A top-level "name:" opens a section, whose lines are indented.  In
 * "metrics:" an entry begins with "    - stressor: NAME" and its keys are
 * "key: value" lines 6 spaces in; a key without a value opens a block of
 * deeper lines (V0.21's per-instance "instances:" list, whose bogo-ops
 * are one instance's), which are not the entry's figures.  Figures are
 * written with %f, or %e under --sn; bogo-ops as an integer.  Other
 * sections are checked only for their shape.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stressng-yaml.h"

#define KEY_OPS		"bogo-ops"
#define KEY_RATE	"bogo-ops-per-second-real-time"

/* at most 40 bytes of the n at s, for a message: "%.*s" */
#define SHOW(s, n)	(int)((n) > 40 ? 40 : (n)), (s)

/* a file larger than this is not a --yaml document of a few stressors */
#define YAML_MAX	(16 << 20)

static int fail(char *err, size_t len, int lineno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t len, int lineno, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err || !len)
		return -1;
	if (lineno > 0)
		n = snprintf(err, len, "line %d: ", lineno);
	if (n < 0 || (size_t)n >= len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int is(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && !memcmp(s, word, n);
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/*
 * "key: value" or "key:" (then *val is NULL) in the n bytes at s, the key
 * of name characters; 0, or -1 when the line is neither.
 */
static int key_value(const char *s, size_t n, size_t *klen, const char **val, size_t *vlen)
{
	size_t k = 0;

	while (k < n && name_char(s[k]))
		k++;
	if (!k || k == n || s[k] != ':')
		return -1;
	*klen = k;
	if (k + 1 == n) {
		*val = NULL;
		*vlen = 0;
		return 0;
	}
	if (s[k + 1] != ' ' || k + 2 == n || s[k + 2] == ' ')
		return -1;
	*val = s + k + 2;
	*vlen = n - k - 2;
	return 0;
}

/* bogo-ops: decimal digits, a uint64_t */
static int parse_count(const char *s, size_t n, double *out)
{
	char buf[24], *end;
	unsigned long long v;

	if (!n || n >= sizeof(buf) || strspn(s, "0123456789") < n)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -1;
	*out = (double)v;
	return 0;
}

/* a rate: %f or %e of a finite number >= 0 */
static int parse_rate(const char *s, size_t n, double *out)
{
	char buf[64], *end;
	double v;

	if (!n || n >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	v = strtod(buf, &end);
	if (errno || *end || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

int zsb_stressng_yaml(const char *doc, size_t len, const char *stressor,
		      struct zsb_sng_metrics *m, char *err, size_t errlen)
{
	enum { NONE, METRICS, OTHER } sec = NONE;
	int lineno = 0, ended = 0, metrics = 0, entries = 0;
	int in_entry = 0, block = 0, mine = 0, found = 0, have_ops = 0, have_rate = 0;
	double ops = 0, rate = 0;
	const char *p = doc, *end = doc + len;
	char names[128] = "";
	size_t nl_len = 0;

	if (err && errlen)
		err[0] = 0;
	if (!doc || !len)
		return fail(err, errlen, 0, "empty: stress-ng wrote no YAML");
	if (memchr(doc, 0, len))
		return fail(err, errlen, 0, "a NUL byte at offset %zu: not a text document",
			    (size_t)((const char *)memchr(doc, 0, len) - doc));
	if (doc[len - 1] != '\n')
		return fail(err, errlen, 0, "truncated: its last line has no newline");

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *s = p, *val;
		size_t n = (size_t)(nl - p), in, klen, vlen;

		p = nl + 1;
		lineno++;
		if (lineno == 1) {
			if (!is(s, n, "---"))
				return fail(err, errlen, 1, "not '---': not a document of "
					    "stress-ng --yaml");
			continue;
		}
		if (ended)
			return fail(err, errlen, lineno, "text after the '...' end line");
		if (is(s, n, "...")) {
			ended = 1;
			continue;
		}
		if (is(s, n, "---"))
			return fail(err, errlen, lineno, "a second '---': two documents");
		in = strspn(s, " ");
		if (in >= n)
			continue;	/* a blank line */
		if (in == 0) {
			if (key_value(s, n, &klen, &val, &vlen) || val)
				return fail(err, errlen, lineno,
					    "'%.*s' is not a section ('name:')", SHOW(s, n));
			if (is(s, klen, "metrics")) {
				if (metrics++)
					return fail(err, errlen, lineno, "a second 'metrics:'");
				sec = METRICS;
			} else {
				sec = OTHER;
			}
			in_entry = block = mine = 0;
			continue;
		}
		if (sec == NONE)
			return fail(err, errlen, lineno, "an indented line before any section");
		if (sec == OTHER)
			continue;
		/* "metrics:": its entries */
		if (in == 4 && n > 6 && s[4] == '-' && s[5] == ' ') {
			if (key_value(s + 6, n - 6, &klen, &val, &vlen) ||
			    !is(s + 6, klen, "stressor") || !val)
				return fail(err, errlen, lineno, "an entry that does not begin "
					    "with 'stressor: NAME'");
			for (size_t i = 0; i < vlen; i++)
				if (!name_char(val[i]))
					return fail(err, errlen, lineno, "stressor '%.*s' is not "
						    "a stressor's name", SHOW(val, vlen));
			if (nl_len + vlen + 3 < sizeof(names))
				nl_len += (size_t)snprintf(names + nl_len, sizeof(names) - nl_len,
							   "%s%.*s", entries ? ", " : "", (int)vlen,
							   val);
			entries++;
			in_entry = 1;
			block = 0;
			mine = is(val, vlen, stressor);
			if (mine && found++)
				return fail(err, errlen, lineno, "a second entry for stressor '%s'",
					    stressor);
			continue;
		}
		if (!in_entry)
			return fail(err, errlen, lineno, "a line in 'metrics:' outside any "
				    "'- stressor:' entry");
		if (in != 6) {
			if (in > 6 && block)
				continue;	/* under a key of the entry without a value */
			return fail(err, errlen, lineno, "indented %zu spaces in a metrics entry "
				    "(its keys are at 6)", in);
		}
		if (key_value(s + 6, n - 6, &klen, &val, &vlen))
			return fail(err, errlen, lineno, "'%.*s' is not 'key: value'",
				    SHOW(s + 6, n - 6));
		block = !val;
		if (!mine || !val)
			continue;
		if (is(s + 6, klen, KEY_OPS)) {
			if (have_ops++)
				return fail(err, errlen, lineno, "a second " KEY_OPS);
			if (parse_count(val, vlen, &ops))
				return fail(err, errlen, lineno, KEY_OPS ": '%.*s' is not a count",
					    SHOW(val, vlen));
		} else if (is(s + 6, klen, KEY_RATE)) {
			if (have_rate++)
				return fail(err, errlen, lineno, "a second " KEY_RATE);
			if (parse_rate(val, vlen, &rate))
				return fail(err, errlen, lineno, KEY_RATE ": '%.*s' is not a rate",
					    SHOW(val, vlen));
		}
	}
	if (!ended)
		return fail(err, errlen, 0, "truncated: no '...' end line");
	if (!metrics)
		return fail(err, errlen, 0, "no 'metrics:' section");
	if (!found)
		return fail(err, errlen, 0, "no entry for stressor '%s' in 'metrics:' (%s%s)",
			    stressor, entries ? "entries: " : "none", entries ? names : "");
	if (!have_ops || !have_rate)
		return fail(err, errlen, 0, "the '%s' entry has no %s", stressor,
			    !have_ops ? KEY_OPS : KEY_RATE);
	m->ops = ops;
	m->rate = rate;
	return 0;
}

int zsb_stressng_yaml_file(const char *path, const char *stressor,
			   struct zsb_sng_metrics *m, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *doc = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (!f)
		return fail(err, errlen, 0, "%s: %s", path, strerror(errno));
	for (;;) {
		size_t got;

		if (len == cap) {
			char *nd;

			if (cap >= YAML_MAX) {
				fclose(f);
				free(doc);
				return fail(err, errlen, 0, "%s: larger than %d MiB", path,
					    YAML_MAX >> 20);
			}
			cap = cap ? cap * 2 : 16384;
			nd = realloc(doc, cap);
			if (!nd) {
				fclose(f);
				free(doc);
				return fail(err, errlen, 0, "%s: %s", path, strerror(ENOMEM));
			}
			doc = nd;
		}
		got = fread(doc + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		rc = fail(err, errlen, 0, "%s: read error", path);
	else
		rc = zsb_stressng_yaml(doc, len, stressor, m, err, errlen);
	fclose(f);
	free(doc);
	return rc;
}
