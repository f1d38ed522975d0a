// SPDX-License-Identifier: GPL-2.0
/*
 * zsbench's command line: subcommands and one typed option table.
 *
 * Every option is one entry: its name, the subcommands that take it, its
 * type, where it lands in struct zsb_opts (offset), its range and its
 * help.  getopt_long's table, the parser, the range and type errors and
 * each subcommand's --help are made from it; tests/test_cli.c checks that
 * zsbench(1), Documentation/zsbench.rst, documents every entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zsbench.h"

#define OFF(f)	offsetof(struct zsb_opts, f)

/* the stress-ng lkp-splice uses when no other is named */
#define LKP_STRESS_NG	"/var/cache/zsplice/stress-ng/V0.17.00/stress-ng"

const struct zsb_cmd zsb_cmds[ZSB_NCMDS] = {
	[ZSB_CMD_RUN] = { "run", "[options]", "measure, print the tables (and JSON, plot)",
		"Measure the selected implementations and workloads and print the\n"
		"comparison table against the baseline, in the layout of the kernel\n"
		"test robot's reports." },
	[ZSB_CMD_EXEC] = { "exec", "[options] [--] CMD [ARGS...]",
		"run a program with /dev/zsplice as its /dev/zero",
		"Run CMD in a private mount namespace where /dev/zsplice is bind-mounted\n"
		"over /dev/zero (and /dev/fullsplice over /dev/full with --full), with\n"
		"splice_impl set for its lifetime; then print what the module's\n"
		"statistics counted.  Root; the module loaded." },
	[ZSB_CMD_COMPARE] = { "compare", "[options] BASE.json CAND.json",
		"the table between two runs' JSON",
		"Print the table between two runs (e.g. a stock and a patched kernel),\n"
		"BASE as the baseline: one row per (metric, implementation) in both." },
	[ZSB_CMD_PLOT] = { "plot", "[options] RUN.json", "a run's tables again, and its plot",
		"Print the tables of a run's JSON and, with --output, plot them with\n"
		"gnuplot." },
	[ZSB_CMD_MODEL] = { "model", "[options]", "the capacity model of stress-ng's splice stressor",
		"Print the capacity model of stress-ng's splice stressor: loops until\n"
		"the stall and predicted ops/s per implementation (default: LKP's 2023\n"
		"machine).  No module needed." },
	[ZSB_CMD_LIST] = { "list", "", "the implementations and workloads",
		"List the implementations and the workloads." },
};

static int p_impls(struct zsb_opts *o, const char *arg, char *err, size_t el);
static int p_workloads(struct zsb_opts *o, const char *arg, char *err, size_t el);
static int p_threads(struct zsb_opts *o, const char *arg, char *err, size_t el);
static int p_baseline(struct zsb_opts *o, const char *arg, char *err, size_t el);
static int p_format(struct zsb_opts *o, const char *arg, char *err, size_t el);
static int p_exec_impl(struct zsb_opts *o, const char *arg, char *err, size_t el);

#define RUN	(1u << ZSB_CMD_RUN)
#define EXEC	(1u << ZSB_CMD_EXEC)
#define CMP	(1u << ZSB_CMD_COMPARE)
#define PLOT	(1u << ZSB_CMD_PLOT)
#define MODEL	(1u << ZSB_CMD_MODEL)
#define LIST	(1u << ZSB_CMD_LIST)
#define ALL	(RUN | EXEC | CMP | PLOT | MODEL | LIST)

const struct zsb_option zsb_options[] = {
	{ "impl", RUN, ZSB_OPT_CUSTOM, 0, 0, 0, "LIST", p_impls,
	  "Selection (comma-separated lists):",
	  "implementations (default: devzero,none,copy,zeropage,\n"
	  "folio,full-zeropage; --icount: devzero,copy,zeropage,\n"
	  "folio); full-* are /dev/fullsplice's, for the workloads\n"
	  "that apply; see zsbench list" },
	{ "workload", RUN, ZSB_OPT_CUSTOM, 0, 0, 0, "LIST", p_workloads, NULL,
	  "variants (splice-64K), workload names (splice: its\n"
	  "default sizes), default (zsbench's own default ones),\n"
	  "the tools stress-ng, fio and lkp-splice, the programs\n"
	  "(program-pv, program: all of them), or all (default,\n"
	  "stress-ng, fio and the programs); default: default\n"
	  "(--icount: splice-1, -4K, -64K, -1M, splice-write-64K,\n"
	  "sendfile-null-64K and the programs)" },
	{ "threads", RUN, ZSB_OPT_CUSTOM, 0, 0, 0, "LIST", p_threads, NULL,
	  "thread counts, 1..1024 or nproc (default: 1,nproc)" },
	{ "runs", RUN, ZSB_OPT_INT, OFF(runs), 1, ZSB_MAX_RUNS, "N", NULL, NULL,
	  "repetitions per combination (default 5)" },
	{ "duration", RUN, ZSB_OPT_DOUBLE, OFF(duration), 0.001, 3600, "SEC", NULL, NULL,
	  "seconds per run (default 0.2: the default selection takes\n"
	  "under 6 min on a 2-CPU TCG guest; --icount: guest seconds\n"
	  "per repetition, default 0.02)" },
	{ "baseline", RUN | PLOT, ZSB_OPT_CUSTOM, 0, 0, 0, "IMPL", p_baseline, NULL,
	  "implementation the others are compared to (default copy)" },
	{ "no-floor", RUN, ZSB_OPT_FLAG, OFF(no_floor), 0, 1, NULL, NULL, NULL,
	  "do not measure the floor (the 1-byte splice pair that\n"
	  "coalesces into our tail buffer; measured when zeropage or\n"
	  "folio is selected)" },
	{ "icount", RUN, ZSB_OPT_FLAG, OFF(icount), 0, 1, NULL, NULL, NULL,
	  "fixed-count loops of the same ops, for a guest under QEMU\n"
	  "-icount shift=0,sleep=off (make bench ICOUNT=1): guest ns\n"
	  "per op = instructions; one thread; --runs repetitions of\n"
	  "--duration guest seconds after a warm-up" },
	{ "quick", RUN, ZSB_OPT_FLAG, OFF(quick), 0, 1, NULL, NULL, NULL,
	  "smoke-test settings for what is not given: --runs 2\n"
	  "--duration 0.05 (--icount: 0.002) --threads 1\n"
	  "--tool-duration 1 --program-bytes 16M" },
	{ "tool-duration", RUN, ZSB_OPT_DOUBLE, OFF(tool_duration), 1, 3600, "SEC", NULL,
	  "External tools (root, the module, the tools installed):",
	  "seconds per stress-ng or fio run (default 1; 3 runs at\n"
	  "most)" },
	{ "program-bytes", RUN, ZSB_OPT_SIZE, OFF(program_bytes), 4096, 1ULL << 40, "SIZE",
	  NULL, NULL,
	  "bytes per program run (default 256M; --quick: 16M)" },
	{ "uutils", RUN, ZSB_OPT_STR, OFF(uutils), 0, 0, "PATH", NULL, NULL,
	  "uutils' coreutils binary for program-uutils-cat (default:\n"
	  "$ZSB_UUTILS, else coreutils in PATH)" },
	{ "fio-dir", RUN, ZSB_OPT_STR, OFF(fio_dir), 0, 0, "DIR", NULL, NULL,
	  "directory of the fio job files (default: next to zsbench)" },
	{ "stress-ng-bin", RUN, ZSB_OPT_STR, OFF(stress_ng_bin), 0, 0, "PATH", NULL, NULL,
	  "the stress-ng to run (default: $ZSB_STRESS_NG, e.g.\n"
	  "lkp-tests' build; else stress-ng in PATH)" },
	{ "lkp-stress-ng", RUN, ZSB_OPT_STR, OFF(lkp_stress_ng), 0, 0, "PATH", NULL, NULL,
	  "lkp-splice's stress-ng when neither --stress-ng-bin nor\n"
	  "$ZSB_STRESS_NG names one and PATH exists (default:\n"
	  LKP_STRESS_NG ";\n"
	  "else stress-ng in PATH, labelled as not LKP's)" },
	{ "lkp-time", RUN, ZSB_OPT_DOUBLE, OFF(lkp_time), 1, 3600, "SEC", NULL, NULL,
	  "lkp-splice: seconds per implementation (default 60, LKP's)" },
	{ "lkp-bytes", RUN, ZSB_OPT_UINT, OFF(lkp_bytes), 1024, 64 << 20, "N", NULL, NULL,
	  "lkp-splice: bytes per splice of each instance (default\n"
	  "1024: LKP's 64 KiB over 64 instances)" },
	{ "lkp-instances", RUN, ZSB_OPT_INT, OFF(lkp_instances), 1, 256, "N", NULL, NULL,
	  "lkp-splice: stress-ng instances (default nproc)" },
	{ "lkp-no-verify", RUN, ZSB_OPT_FLAG, OFF(lkp_no_verify), 0, 1, NULL, NULL, NULL,
	  "lkp-splice: leave --verify out of LKP's command line" },
	{ "module", RUN, ZSB_OPT_STR, OFF(module), 0, 0, "PATH", NULL, "Module:",
	  "load zsplice.ko from PATH (default: by name, modules.dep)" },
	{ "no-load", RUN, ZSB_OPT_FLAG, OFF(no_load), 0, 1, NULL, NULL, NULL,
	  "do not load or unload; use the loaded module" },
	{ "folio-order", RUN, ZSB_OPT_INT, OFF(folio_order), 1, 9, "N", NULL, NULL,
	  "folio_order when loading the module (default: the module's\n"
	  "own; lkp-splice's model then assumes 9)" },
	{ "fill-pipe", RUN, ZSB_OPT_SIZE, OFF(fill_pipe), 4096, 64 << 20, "SIZE", NULL, NULL,
	  "pipe size of the fill workload, 4K..64M (default 64K)" },
	{ "fill-max", RUN, ZSB_OPT_U64, OFF(fill_max), 1, 1e12, "N", NULL, NULL,
	  "stop a fill after N splices (default 1048576: 2 MiB folios\n"
	  "take 31 M for 16 slots, minutes under TCG)" },
	{ "json", RUN, ZSB_OPT_STR, OFF(json), 0, 0, "FILE", NULL, "Output:",
	  "write one JSON record per (workload, size, threads, impl)" },
	{ "plot", RUN, ZSB_OPT_STR, OFF(plot), 0, 0, "FILE.png", NULL, NULL,
	  "plot ops/s with gnuplot (also FILE-threads.png)" },
	{ "output", PLOT, ZSB_OPT_STR, OFF(plot), 0, 0, "FILE.png", NULL, NULL,
	  "plot ops/s with gnuplot (also FILE-threads.png)" },
	{ "format", RUN | PLOT, ZSB_OPT_CUSTOM, 0, 0, 0, "FMT", p_format, NULL,
	  "table (default: the robot's comparison table) or lkp\n"
	  "(LKP's 'key: value' lines, one per record)" },
	{ "quiet", RUN, ZSB_OPT_FLAG, OFF(quiet), 0, 1, NULL, NULL, NULL,
	  "no progress line on stderr" },
	{ "impl", EXEC, ZSB_OPT_CUSTOM, 0, 0, 0, "IMPL", p_exec_impl, NULL,
	  "splice_impl while CMD runs: none, copy, zeropage or\n"
	  "folio (default: as it is)" },
	{ "full", EXEC, ZSB_OPT_FLAG, OFF(exec_full), 0, 1, NULL, NULL, NULL,
	  "/dev/fullsplice over /dev/full too" },
	{ "stats", EXEC, ZSB_OPT_FLAG, OFF(exec_stats), 0, 1, NULL, NULL, NULL,
	  "every statistic that changed, not only the summary line\n"
	  "(stderr; needs debugfs)" },
	{ "instances", MODEL, ZSB_OPT_DOUBLE, OFF(model_instances), 1, 1e6, "N", NULL, NULL,
	  "stress-ng instances (default 64)" },
	{ "rate", MODEL, ZSB_OPT_DOUBLE, OFF(model_rate), 0, 1e12, "R", NULL, NULL,
	  "loops/s of one instance (default 194270: 12,433,266 / 64)" },
	{ "time", MODEL, ZSB_OPT_DOUBLE, OFF(lkp_time), 1, 3600, "SEC", NULL, NULL,
	  "seconds (default 60)" },
	{ "bytes", MODEL, ZSB_OPT_UINT, OFF(lkp_bytes), 1024, 64 << 20, "N", NULL, NULL,
	  "bytes per splice of each instance (default 1024)" },
	{ "extra", MODEL, ZSB_OPT_UINT, OFF(model_extra), 0, 1, "0|1", NULL, NULL,
	  "undrained bytes per loop (default 1: up to V0.17.00)" },
	{ "folio-order", MODEL, ZSB_OPT_INT, OFF(folio_order), 1, 9, "N", NULL, NULL,
	  "the folio order modelled besides 4 (default 9)" },
	{ "help", ALL, ZSB_OPT_FLAG, OFF(help), 0, 1, NULL, NULL, NULL,
	  "this text" },
};
const size_t zsb_noptions = sizeof(zsb_options) / sizeof(zsb_options[0]);

#define HELP_COL 22

static void help_lines(FILE *f, int n, const char *h)
{
	for (;;) {
		size_t len = strcspn(h, "\n");

		if (n >= HELP_COL) {
			/* a long option name: its own line, or one space if that fits */
			if (n == HELP_COL || n + 1 + (int)len > 80) {
				fputc('\n', f);
				n = 0;
			} else {
				fputc(' ', f);
				n = HELP_COL;
			}
		}
		fprintf(f, "%*s%.*s\n", HELP_COL - n, "", (int)len, h);
		n = 0;
		if (!h[len])
			break;
		h += len + 1;
	}
}

void zsb_usage(FILE *f, int cmd)
{
	if (cmd < 0) {
		fputs("usage: zsbench [--version] [--help] COMMAND [options]\n"
		      "Compare the splice implementations of /dev/zsplice (zsplice.ko) with\n"
		      "each other and with the kernel's /dev/zero.\n\ncommands:\n", f);
		for (int c = 0; c < ZSB_NCMDS; c++)
			help_lines(f, fprintf(f, "  %s", zsb_cmds[c].name), zsb_cmds[c].summary);
		fputs("'zsbench COMMAND --help' prints a command's options.\n"
		      "Exit status: 0 ok, 1 runtime failure, 2 bad usage.\n", f);
		return;
	}
	fprintf(f, "usage: zsbench %s %s\n%s\n", zsb_cmds[cmd].name, zsb_cmds[cmd].args,
		zsb_cmds[cmd].desc);
	fputc('\n', f);
	for (size_t i = 0; i < zsb_noptions; i++) {
		const struct zsb_option *d = &zsb_options[i];
		int n;

		if (!(d->cmds & (1u << cmd)))
			continue;
		if (d->section)
			fprintf(f, "%s\n", d->section);
		n = fprintf(f, "  --%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
		help_lines(f, n, d->help);
	}
	if (cmd == ZSB_CMD_EXEC)
		fputs("Exit status: CMD's (128+N when signal N ended it), 1 a failure before\n"
		      "CMD ran, 2 bad usage.\n", f);
	else
		fputs("Exit status: 0 ok, 1 runtime failure, 2 bad usage.\n", f);
}

/* ---- the custom types ---- */

static int add_impl(struct zsb_opts *o, const char *name, char *err, size_t el)
{
	const struct zsb_impl *im = zsb_impl_find(name);

	if (!im) {
		snprintf(err, el, "--impl: unknown implementation '%s' (see zsbench list)", name);
		return -1;
	}
	for (int i = 0; i < o->nimpls; i++)
		if (o->impls[i] == im)
			return 0;
	if (o->nimpls < ZSB_MAX_SEL)
		o->impls[o->nimpls++] = im;
	return 0;
}

static void add_wl(struct zsb_opts *o, const struct zsb_workload *w)
{
	for (int i = 0; i < o->nwls; i++)
		if (o->wls[i] == w)
			return;
	if (o->nwls < ZSB_MAX_SEL)
		o->wls[o->nwls++] = w;
}

static void add_prog(struct zsb_opts *o, const struct zsb_program *p)
{
	for (int i = 0; i < o->nprogs; i++)
		if (o->progs[i] == p)
			return;
	if (o->nprogs < ZSB_MAX_SEL)
		o->progs[o->nprogs++] = p;
}

static int add_wls(struct zsb_opts *o, const char *name, char *err, size_t el)
{
	int all = !strcmp(name, "all"), def = all || !strcmp(name, "default"), found = 0;

	o->stress_ng |= all || !strcmp(name, "stress-ng");
	o->fio |= all || !strcmp(name, "fio");
	o->lkp_splice |= !strcmp(name, "lkp-splice");
	if (all || !strcmp(name, "stress-ng") || !strcmp(name, "fio") ||
	    !strcmp(name, "lkp-splice"))
		found = 1;
	for (size_t i = 0; i < zsb_nprograms; i++) {
		const struct zsb_program *p = &zsb_programs[i];

		if (all || !strcmp(name, "program") || !strcmp(name, p->variant)) {
			add_prog(o, p);
			found = 1;
		}
	}
	for (size_t i = 0; i < zsb_nworkloads; i++) {
		const struct zsb_workload *w = &zsb_workloads[i];

		if (!strcmp(w->variant, name) || (w->default_on && (def || !strcmp(w->name, name)))) {
			add_wl(o, w);
			found = 1;
		}
	}
	if (!found) {
		snprintf(err, el, "--workload: unknown workload '%s' (see zsbench list)", name);
		return -1;
	}
	return 0;
}

static int add_threads(struct zsb_opts *o, const char *t, char *err, size_t el)
{
	long v;
	char *end;

	if (!strcmp(t, "nproc")) {
		v = zsb_nproc();
	} else {
		errno = 0;
		v = strtol(t, &end, 10);
		if (errno || *end || end == t || v < 1 || v > 1024) {
			snprintf(err, el, "--threads: bad thread count '%s' (1..1024 or nproc)", t);
			return -1;
		}
	}
	for (int i = 0; i < o->nthreads; i++)
		if (o->threads[i] == v)
			return 0;
	if (o->nthreads >= ZSB_MAX_THREADS_LIST) {
		snprintf(err, el, "--threads: too many thread counts (max %d)",
			 ZSB_MAX_THREADS_LIST);
		return -1;
	}
	o->threads[o->nthreads++] = (int)v;
	return 0;
}

/* a comma-separated list: every element named, none empty */
static int parse_list(const char *opt, const char *arg, struct zsb_opts *o, char *err,
		      size_t el, int (*fn)(struct zsb_opts *, const char *, char *, size_t))
{
	char *s, *rest, *tok;
	int rc = 0;

	if (!arg[strspn(arg, ",")]) {
		snprintf(err, el, "--%s: empty list '%s'", opt, arg);
		return -1;
	}
	s = strdup(arg);
	if (!s)
		return -1;
	rest = s;
	while (!rc && (tok = strsep(&rest, ","))) {
		if (!*tok) {
			snprintf(err, el, "--%s: an empty element in '%s'", opt, arg);
			rc = -1;
		} else {
			rc = fn(o, tok, err, el);
		}
	}
	free(s);
	return rc;
}

static int p_impls(struct zsb_opts *o, const char *arg, char *err, size_t el)
{
	o->nimpls = 0;
	return parse_list("impl", arg, o, err, el, add_impl);
}

static int p_workloads(struct zsb_opts *o, const char *arg, char *err, size_t el)
{
	o->nwls = 0;
	o->stress_ng = o->fio = o->lkp_splice = o->nprogs = 0;
	if (parse_list("workload", arg, o, err, el, add_wls))
		return -1;
	/* only tools named: none of zsbench's own workloads */
	o->no_workloads = !o->nwls;
	return 0;
}

static int p_threads(struct zsb_opts *o, const char *arg, char *err, size_t el)
{
	o->nthreads = 0;
	return parse_list("threads", arg, o, err, el, add_threads);
}

static int p_baseline(struct zsb_opts *o, const char *arg, char *err, size_t el)
{
	if (!zsb_impl_find(arg)) {
		snprintf(err, el, "--baseline: unknown implementation '%s' (see zsbench list)",
			 arg);
		return -1;
	}
	o->baseline = arg;
	return 0;
}

static int p_format(struct zsb_opts *o, const char *arg, char *err, size_t el)
{
	if (strcmp(arg, "table") && strcmp(arg, "lkp")) {
		snprintf(err, el, "--format: unknown format '%s' (table or lkp)", arg);
		return -1;
	}
	o->format_lkp = !strcmp(arg, "lkp");
	return 0;
}

static int p_exec_impl(struct zsb_opts *o, const char *arg, char *err, size_t el)
{
	const struct zsb_impl *im = zsb_impl_find(arg);

	if (!im || im->dev != ZSB_DEV_ZSPLICE) {
		snprintf(err, el, "--impl: unknown implementation '%s' (none, copy, zeropage or "
			 "folio)", arg);
		return -1;
	}
	o->exec_impl = im;
	return 0;
}

/* ---- the typed ones ---- */

static int range_err(const struct zsb_option *d, const char *s, char *err, size_t el)
{
	snprintf(err, el, "--%s %s: out of range (%.15g..%.15g)", d->name, s, d->min, d->max);
	return -1;
}

/* an integer in d's range, base 10; sizes take a K or M suffix */
static int parse_integer(const struct zsb_option *d, const char *s, unsigned long long *v,
			 char *err, size_t el)
{
	char *end;

	errno = 0;
	if (s[0] == '-' && d->min >= 0) {
		/* strtoull would wrap it round */
		if (strtoll(s, &end, 10) < 0 && !*end && end != s)
			return range_err(d, s, err, el);
		end = (char *)s;
	} else {
		*v = strtoull(s, &end, 10);
	}
	if (!errno && end != s && d->type == ZSB_OPT_SIZE) {
		if (*end == 'K' || *end == 'k')
			*v <<= 10, end++;
		else if (*end == 'M' || *end == 'm')
			*v <<= 20, end++;
	}
	if (end == s || *end) {
		snprintf(err, el, "--%s %s: not %s", d->name, s,
			 d->type == ZSB_OPT_SIZE ? "a size (N, NK or NM)" : "an integer");
		return -1;
	}
	if (errno || (double)*v < d->min || (double)*v > d->max)
		return range_err(d, s, err, el);
	return 0;
}

static int set_option(const struct zsb_option *d, const char *arg, struct zsb_opts *o,
		      char *err, size_t el)
{
	char *p = (char *)o + d->off, *end;
	unsigned long long u = 0;
	double v;

	switch (d->type) {
	case ZSB_OPT_FLAG:
		*(int *)p = 1;
		return 0;
	case ZSB_OPT_STR:
		*(const char **)p = arg;
		return 0;
	case ZSB_OPT_CUSTOM:
		return d->parse(o, arg, err, el);
	case ZSB_OPT_DOUBLE:
		errno = 0;
		v = strtod(arg, &end);
		if (end == arg || *end) {
			snprintf(err, el, "--%s %s: not a number", d->name, arg);
			return -1;
		}
		if (errno || !(v >= d->min && v <= d->max))
			return range_err(d, arg, err, el);
		*(double *)p = v;
		return 0;
	case ZSB_OPT_INT:
	case ZSB_OPT_UINT:
	case ZSB_OPT_U64:
	case ZSB_OPT_SIZE:
		if (parse_integer(d, arg, &u, err, el))
			return -1;
		if (d->type == ZSB_OPT_INT)
			*(int *)p = (int)u;
		else if (d->type == ZSB_OPT_UINT)
			*(unsigned int *)p = (unsigned int)u;
		else if (d->type == ZSB_OPT_U64)
			*(unsigned long long *)p = u;
		else
			*(size_t *)p = (size_t)u;
		return 0;
	}
	return -1;
}

int zsb_given(const struct zsb_opts *o, const char *name)
{
	for (size_t i = 0; i < zsb_noptions; i++)
		if (!strcmp(zsb_options[i].name, name))
			return !!(o->given & (1ULL << i));
	return 0;
}

static void defaults(struct zsb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cmd = -1;
	o->runs = 5;
	o->duration = 0.2;
	o->tool_duration = 1;
	o->baseline = "copy";
	o->fill_pipe = 64 * 1024;
	o->fill_max = 1048576;
	o->lkp_time = 60;
	o->lkp_bytes = 1024;
	o->lkp_stress_ng = LKP_STRESS_NG;
	o->program_bytes = 256ULL << 20;
	o->model_instances = 64;
	o->model_rate = 12433266.318333 / 64;
	o->model_extra = 1;
}

/*
 * A file zsbench will write at the end: opened for writing now (not
 * truncated), or created and removed again, so that a run does not end
 * in an error it could have given at once.  Root passes access(2)'s test
 * of a directory it still cannot create in (/proc).
 */
static int writable(const char *opt, const char *path, char *err, size_t el)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0) {
		snprintf(err, el, "--%s %s: %s", opt, path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* the selection of zsbench run once its options are read */
static int finish_run(struct zsb_opts *o, char *err, size_t el)
{
	if (o->json && writable("json", o->json, err, el))
		return -1;
	if (o->plot && writable("plot", o->plot, err, el))
		return -1;
	if (o->module && o->no_load) {
		snprintf(err, el, "--module and --no-load exclude each other");
		return -1;
	}
	if (!o->lkp_instances)
		o->lkp_instances = zsb_nproc();
	if (o->quick) {
		if (!zsb_given(o, "runs"))
			o->runs = 2;
		if (!zsb_given(o, "duration"))
			o->duration = o->icount ? 0.002 : 0.05;
		if (!zsb_given(o, "tool-duration"))
			o->tool_duration = 1;
		if (!zsb_given(o, "program-bytes"))
			o->program_bytes = 16ULL << 20;
		if (!o->nthreads)
			o->threads[o->nthreads++] = 1;
	}
	if (o->icount) {
		if (!zsb_given(o, "duration") && !o->quick)
			o->duration = 0;
		if (zsb_icount_opts(o, err, el))
			return -1;
	}
	if (!o->nimpls)
		for (size_t i = 0; i < zsb_nimpls; i++)
			if (zsb_impls[i].default_on)
				o->impls[o->nimpls++] = &zsb_impls[i];
	if (!o->nwls && !o->no_workloads)
		for (size_t i = 0; i < zsb_nworkloads; i++)
			if (zsb_workloads[i].default_on)
				o->wls[o->nwls++] = &zsb_workloads[i];
	if (!o->nthreads) {
		o->threads[o->nthreads++] = 1;
		if (zsb_nproc() > 1)
			o->threads[o->nthreads++] = zsb_nproc();
	}
	return 0;
}

/*
 * getopt_long takes any unambiguous prefix of a long option: --fio for
 * --fio-dir.  The option it just read is argv[optind - 1], or
 * argv[optind - 2] when its value was the next argument; its name there
 * must be the whole name.
 */
static int abbreviated(char **argv, const char *name, char *err, size_t el)
{
	const char *given = argv[optind - 1];
	size_t n;

	if (optarg == given && optind >= 2)
		given = argv[optind - 2];
	if (strncmp(given, "--", 2))
		return 0;
	given += 2;
	n = strcspn(given, "=");
	if (n == strlen(name) && !strncmp(given, name, n))
		return 0;
	snprintf(err, el, "unknown option '--%.*s' (--%s? abbreviations are not taken)",
		 (int)n, given, name);
	return -1;
}

static int is_long_option(const struct option *lo, const char *arg)
{
	for (; lo->name; lo++)
		if (!strncmp(arg, "--", 2) && !strcmp(arg + 2, lo->name))
			return 1;
	return 0;
}

/* exec: what follows the options is the command */
static int finish_exec(struct zsb_opts *o, int argc, char **argv, int first, char *err,
		       size_t el)
{
	if (first >= argc) {
		snprintf(err, el, "no command: zsbench exec [--impl IMPL] [--full] [--stats] "
			 "[--] CMD [ARGS...]");
		return -1;
	}
	o->exec_argv = argv + first;
	return 0;
}

int zsb_parse_opts(int argc, char **argv, struct zsb_opts *o, char *err, size_t el)
{
	static struct option longopts[sizeof(zsb_options) / sizeof(zsb_options[0]) + 1];
	const char *cmd = argc > 1 ? argv[1] : NULL, *optstr;
	int c, nlong = 0, want;

	defaults(o);
	err[0] = 0;
	if (!cmd) {
		snprintf(err, el, "no command (zsbench --help lists them)");
		return -1;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		o->help = 1;
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		o->version = 1;
		return 0;
	}
	for (int i = 0; i < ZSB_NCMDS; i++)
		if (!strcmp(cmd, zsb_cmds[i].name))
			o->cmd = i;
	if (o->cmd < 0) {
		snprintf(err, el, "unknown command '%s' (zsbench --help lists them)", cmd);
		return -1;
	}
	for (size_t i = 0; i < zsb_noptions; i++)
		if (zsb_options[i].cmds & (1u << o->cmd))
			longopts[nlong++] = (struct option){
				zsb_options[i].name,
				zsb_options[i].type == ZSB_OPT_FLAG ? no_argument :
								      required_argument,
				NULL, (int)i + 256 };
	longopts[nlong] = (struct option){ 0 };
	optind = 0;
	opterr = 0;
	/* the command is getopt's argv[0]; the files end up after optind */
	/* exec: options up to CMD, which keeps its own */
	optstr = o->cmd == ZSB_CMD_EXEC ? "+:h" : ":h";
	while ((c = getopt_long(argc - 1, argv + 1, optstr, longopts, NULL)) != -1) {
		const struct zsb_option *d;

		if (c == 'h') {
			o->help = 1;
			continue;
		}
		if (c == ':') {
			/* getopt names no option here: look for the whole name */
			if (is_long_option(longopts, argv[optind]))
				snprintf(err, el, "%s needs a value", argv[optind]);
			else
				snprintf(err, el, "unknown option '%s' (zsbench %s --help)",
					 argv[optind], zsb_cmds[o->cmd].name);
			return -1;
		}
		if (c < 256) {
			snprintf(err, el, "unknown option '%s' (zsbench %s --help)", argv[optind],
				 zsb_cmds[o->cmd].name);
			return -1;
		}
		d = &zsb_options[c - 256];
		if (abbreviated(argv + 1, d->name, err, el))
			return -1;
		if (set_option(d, optarg, o, err, el))
			return -1;
		o->given |= 1ULL << (c - 256);
	}
	if (o->help)
		return 0;
	if (o->cmd == ZSB_CMD_EXEC)
		return finish_exec(o, argc, argv, optind + 1, err, el);
	want = o->cmd == ZSB_CMD_COMPARE ? 2 : o->cmd == ZSB_CMD_PLOT ? 1 : 0;
	for (int i = optind + 1; i < argc; i++) {
		if (o->nfiles >= want) {
			snprintf(err, el, "unexpected argument '%s' (zsbench %s --help)", argv[i],
				 zsb_cmds[o->cmd].name);
			return -1;
		}
		o->files[o->nfiles++] = argv[i];
	}
	if (o->nfiles < want) {
		snprintf(err, el, "needs %s",
			 zsb_cmds[o->cmd].args + strlen("[options] "));
		return -1;
	}
	if (o->cmd == ZSB_CMD_RUN)
		return finish_run(o, err, el);
	return 0;
}
