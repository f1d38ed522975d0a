// SPDX-License-Identifier: GPL-2.0
/* Command line options of zsbench. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "zsbench.h"

enum {
	O_IMPL = 256, O_WORKLOAD, O_THREADS, O_RUNS, O_DURATION, O_BASELINE,
	O_JSON, O_PLOT, O_REPLOT, O_MODULE, O_NOLOAD, O_STRESSNG, O_FIO,
	O_ALL, O_TOOLS_ONLY, O_TOOL_DURATION, O_FOLIO_ORDER, O_FILL_PIPE,
	O_QUICK, O_QUIET, O_LIST, O_FIO_DIR, O_HELP,
	O_LKP, O_LKP_STRESSNG, O_LKP_TIME, O_LKP_BYTES, O_LKP_INSTANCES,
	O_MODEL, O_MODEL_INSTANCES, O_MODEL_RATE, O_MODEL_EXTRA, O_COMPARE,
	O_FORMAT, O_VERSION, O_FILL_MAX, O_NO_FLOOR,
	O_LKP_NO_VERIFY, O_ICOUNT, O_STRESSNG_BIN,
};

/*
 * The options, once: getopt_long's table and the usage text are made from
 * this.  A section starts a heading; help lines after the first are
 * continuation lines.  tests/test_opts.c checks that zsbench.1 documents
 * every option listed here.
 */
const struct zsb_optdef zsb_optdefs[] = {
	{ "impl", O_IMPL, "LIST", "Selection (comma-separated lists):",
	  "implementations (default: devzero,none,copy,zeropage,folio,\n"
	  "full-zeropage); all: devzero none copy zeropage folio\n"
	  "full-none full-copy full-zeropage full-folio\n"
	  "(full-* = /dev/fullsplice, only for workloads that apply)" },
	{ "workload", O_WORKLOAD, "LIST", NULL,
	  "workload names or variants (default: all defaults), e.g.\n"
	  "splice,pipe-class,fill,sendfile,read,uring,splice-write\n"
	  "or splice-64K, or lkp-splice; see --list" },
	{ "threads", O_THREADS, "LIST", NULL,
	  "thread counts, numbers or 'nproc' (default: 1,nproc)" },
	{ "runs", O_RUNS, "N", NULL, "repetitions per combination (default 5)" },
	{ "duration", O_DURATION, "SEC", NULL,
	  "seconds per run (default 0.2; the default selection is\n"
	  "~134 combinations x 5 runs x 0.2 s, about 2.5 min plus\n"
	  "the fill counts, under 6 min on a 2-CPU TCG guest)" },
	{ "baseline", O_BASELINE, "IMPL", NULL,
	  "implementation the others are compared to (default copy)" },
	{ "no-floor", O_NO_FLOOR, NULL, NULL,
	  "do not measure the floor (the 1-byte splice pair that\n"
	  "coalesces into our tail buffer; measured once per thread\n"
	  "count when zeropage or folio is selected)" },
	{ "icount", O_ICOUNT, NULL, NULL,
	  "fixed-count loops for a guest under QEMU -icount\n"
	  "shift=0,sleep=off (make bench ICOUNT=1): guest ns per\n"
	  "op = instructions, deterministic; one thread; --runs\n"
	  "repetitions after a warm-up, --duration guest seconds\n"
	  "each (default 0.02); default workloads splice-1, -4K,\n"
	  "-64K, -1M, splice-write-64K, sendfile-null-64K" },
	{ "quick", O_QUICK, NULL, NULL,
	  "smoke-test settings: --runs 2 --duration 0.05 --threads 1\n"
	  "--tool-duration 1" },
	{ "stress-ng", O_STRESSNG, NULL,
	  "External tools (need root, the module, and the tools installed):",
	  "also run stress-ng --splice with /dev/zsplice bind-mounted\n"
	  "over /dev/zero in a private mount namespace, per impl" },
	{ "fio", O_FIO, NULL, NULL, "also run the fio job files (io_uring, sequential read)" },
	{ "all", O_ALL, NULL, NULL, "--stress-ng and --fio" },
	{ "tools-only", O_TOOLS_ONLY, NULL, NULL,
	  "run only the external tools, not zsbench's own workloads" },
	{ "tool-duration", O_TOOL_DURATION, "SEC", NULL,
	  "seconds per stress-ng/fio run (default 1)" },
	{ "fio-dir", O_FIO_DIR, "DIR", NULL,
	  "directory of the fio job files (default: next to zsbench)" },
	{ "lkp-splice", O_LKP, NULL, NULL,
	  "the kernel test robot's run: stress-ng V0.17.00 --splice N\n"
	  "per implementation, ops/s, instances stalled in\n"
	  "pipe_wait_writable, the capacity model beside it\n"
	  "(also --workload lkp-splice)" },
	{ "stress-ng-bin", O_STRESSNG_BIN, "PATH", NULL,
	  "the stress-ng to run (default: $ZSB_STRESS_NG, e.g.\n"
	  "lkp-tests' build; else stress-ng in PATH)" },
	{ "lkp-stress-ng", O_LKP_STRESSNG, "PATH", NULL,
	  "lkp-splice's stress-ng when --stress-ng-bin and\n"
	  "$ZSB_STRESS_NG are not given and PATH is there (default:\n"
	  "/var/cache/zsplice/stress-ng/V0.17.00/stress-ng; else\n"
	  "stress-ng in PATH, labelled as not LKP's)" },
	{ "lkp-time", O_LKP_TIME, "SEC", NULL,
	  "seconds per implementation (default 60, LKP's)" },
	{ "lkp-bytes", O_LKP_BYTES, "N", NULL,
	  "bytes per splice of each instance (default 1024: LKP's\n"
	  "64 KiB over 64 instances; at least 1024)" },
	{ "lkp-instances", O_LKP_INSTANCES, "N", NULL, "stress-ng instances (default nproc)" },
	{ "lkp-no-verify", O_LKP_NO_VERIFY, NULL, NULL,
	  "leave --verify out of LKP's command line (to measure\n"
	  "what it costs)" },
	{ "model", O_MODEL, NULL, "Capacity model (no module needed):",
	  "print loops until the stall and predicted ops/s per\n"
	  "implementation, for --model-instances, --lkp-time,\n"
	  "--lkp-bytes, --model-rate (default: LKP's 2023 machine)" },
	{ "model-instances", O_MODEL_INSTANCES, "N", NULL, "instances (default 64)" },
	{ "model-rate", O_MODEL_RATE, "R", NULL,
	  "loops/s of one instance (default 194270: 12,433,266 / 64)" },
	{ "model-extra", O_MODEL_EXTRA, "0|1", NULL,
	  "undrained bytes per loop (default 1: up to V0.17.00)" },
	{ "module", O_MODULE, "PATH", "Module:",
	  "load zsplice.ko from PATH (default: by name via modules.dep)" },
	{ "no-load", O_NOLOAD, NULL, NULL, "do not load or unload; use the loaded module" },
	{ "folio-order", O_FOLIO_ORDER, "N", NULL,
	  "folio_order parameter when loading (default: the\n"
	  "module's own; the model then assumes 9)" },
	{ "fill-pipe", O_FILL_PIPE, "SIZE", NULL, "pipe size for the fill workload (default 64K)" },
	{ "fill-max", O_FILL_MAX, "N", NULL,
	  "stop a fill after N splices (default 1048576: 2 MiB\n"
	  "folios take 31 M for 16 slots, minutes under TCG)" },
	{ "json", O_JSON, "FILE", "Output:",
	  "write one JSON record per (workload, size, threads, impl)" },
	{ "plot", O_PLOT, "FILE.png", NULL, "plot ops/sec with gnuplot (also FILE-threads.png)" },
	{ "replot", O_REPLOT, "JSON", NULL,
	  "do not run; read JSON, print the table, plot with --plot" },
	{ "compare", O_COMPARE, "BASE.json CAND.json", NULL,
	  "do not run; print the table between two runs (e.g. a\n"
	  "stock and a patched kernel), BASE as the baseline" },
	{ "format", O_FORMAT, "FMT", NULL,
	  "table (default: the robot's comparison table) or lkp\n"
	  "(LKP's 'key: value' lines, one per record)" },
	{ "quiet", O_QUIET, NULL, NULL, "no progress line on stderr" },
	{ "list", O_LIST, NULL, NULL, "list implementations and workloads" },
	{ "help", O_HELP, NULL, NULL, "this text" },
	{ "version", O_VERSION, NULL, NULL, "print zsbench's version" },
};
const size_t zsb_noptdefs = sizeof(zsb_optdefs) / sizeof(zsb_optdefs[0]);

#define HELP_COL 22

void zsb_usage(FILE *f)
{
	fputs("usage: zsbench [options]\n"
	      "Compare ops/sec of the splice implementations of /dev/zsplice (zsplice.ko)\n"
	      "against a baseline, in the layout of the kernel test robot's reports.\n"
	      "\n", f);
	for (size_t i = 0; i < zsb_noptdefs; i++) {
		const struct zsb_optdef *d = &zsb_optdefs[i];
		const char *h = d->help;
		int n;

		if (d->section)
			fprintf(f, "%s\n", d->section);
		n = fprintf(f, "  --%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
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
	fputs("Exit status: 0 ok, 1 runtime failure, 2 bad usage.\n", f);
}

static int add_impl(struct zsb_opts *o, const char *name, char *err, size_t el)
{
	const struct zsb_impl *im = zsb_impl_find(name);

	if (!im) {
		snprintf(err, el, "unknown implementation '%s' (see --list)", name);
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

static int add_wls(struct zsb_opts *o, const char *name, char *err, size_t el)
{
	int found = 0;

	if (!strcmp(name, "lkp-splice")) {
		o->lkp_splice = 1;
		return 0;
	}
	for (size_t i = 0; i < zsb_nworkloads; i++) {
		const struct zsb_workload *w = &zsb_workloads[i];

		if (!strcmp(w->variant, name) ||
		    (!strcmp(w->name, name) && w->default_on) ||
		    (!strcmp(name, "all") && w->default_on)) {
			add_wl(o, w);
			found = 1;
		}
	}
	if (!found) {
		snprintf(err, el, "unknown workload '%s' (see --list)", name);
		return -1;
	}
	return 0;
}

static int parse_list(const char *arg, struct zsb_opts *o, char *err, size_t el,
		      int (*fn)(struct zsb_opts *, const char *, char *, size_t))
{
	char *s = strdup(arg), *save = NULL, *tok;
	int rc = 0, n = 0;

	if (!s)
		return -1;
	for (tok = strtok_r(s, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		rc = fn(o, tok, err, el);
		n++;
	}
	free(s);
	if (!rc && !n) {
		snprintf(err, el, "empty list '%s'", arg);
		rc = -1;
	}
	return rc;
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
			snprintf(err, el, "bad thread count '%s' (1..1024 or nproc)", t);
			return -1;
		}
	}
	for (int i = 0; i < o->nthreads; i++)
		if (o->threads[i] == v)
			return 0;
	if (o->nthreads >= ZSB_MAX_THREADS_LIST) {
		snprintf(err, el, "too many thread counts (max %d)", ZSB_MAX_THREADS_LIST);
		return -1;
	}
	o->threads[o->nthreads++] = (int)v;
	return 0;
}

static int parse_double(const char *opt, const char *s, double lo, double hi,
			double *out, char *err, size_t el)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		snprintf(err, el, "bad value '%s' for --%s (%g..%g)", s, opt, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_size(const char *s, size_t *out, char *err, size_t el)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!errno && end != s) {
		if (*end == 'K' || *end == 'k')
			v *= 1024, end++;
		else if (*end == 'M' || *end == 'm')
			v *= 1024 * 1024, end++;
	}
	if (errno || end == s || *end || v < 4096 || v > 64UL * 1024 * 1024) {
		snprintf(err, el, "bad value '%s' for --fill-pipe (4K..64M)", s);
		return -1;
	}
	*out = v;
	return 0;
}

int zsb_parse_opts(int argc, char **argv, struct zsb_opts *o, char *err, size_t el)
{
	int c, quick = 0, duration_set = 0;
	double d;

	static struct option longopts[sizeof(zsb_optdefs) / sizeof(zsb_optdefs[0]) + 1];

	for (size_t i = 0; i < zsb_noptdefs; i++)
		longopts[i] = (struct option){ zsb_optdefs[i].name,
					       zsb_optdefs[i].arg ? required_argument : no_argument,
					       NULL, zsb_optdefs[i].id };
	memset(o, 0, sizeof(*o));
	o->runs = 5;
	o->duration = 0.2;
	o->tool_duration = 1;
	o->baseline = "copy";
	o->folio_order = 0;
	o->fill_pipe = 64 * 1024;
	o->fill_max = 1048576;
	o->lkp_time = 60;
	o->lkp_stress_ng = "/var/cache/zsplice/stress-ng/V0.17.00/stress-ng";
	o->lkp_bytes = 1024;
	o->model_instances = 64;
	o->model_rate = 12433266.318333 / 64;
	o->model_extra = 1;
	err[0] = 0;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case O_IMPL:
			o->nimpls = 0;
			if (parse_list(optarg, o, err, el, add_impl))
				return -1;
			break;
		case O_WORKLOAD:
			o->nwls = 0;
			if (parse_list(optarg, o, err, el, add_wls))
				return -1;
			/* --workload lkp-splice alone: only that */
			if (!o->nwls && o->lkp_splice)
				o->no_workloads = 1;
			break;
		case O_THREADS:
			o->nthreads = 0;
			if (parse_list(optarg, o, err, el, add_threads))
				return -1;
			break;
		case O_RUNS:
			if (parse_double("runs", optarg, 1, ZSB_MAX_RUNS, &d, err, el))
				return -1;
			if (d != (int)d) {
				snprintf(err, el, "bad value '%s' for --runs (an integer)", optarg);
				return -1;
			}
			o->runs = (int)d;
			break;
		case O_DURATION:
			if (parse_double("duration", optarg, 0.001, 3600, &o->duration, err, el))
				return -1;
			duration_set = 1;
			break;
		case O_TOOL_DURATION:
			if (parse_double("tool-duration", optarg, 1, 3600, &o->tool_duration, err, el))
				return -1;
			break;
		case O_FOLIO_ORDER:
			if (parse_double("folio-order", optarg, 1, 9, &d, err, el))
				return -1;
			o->folio_order = (int)d;
			break;
		case O_FILL_PIPE:
			if (parse_size(optarg, &o->fill_pipe, err, el))
				return -1;
			break;
		case O_BASELINE:
			if (!zsb_impl_find(optarg)) {
				snprintf(err, el, "unknown baseline implementation '%s'", optarg);
				return -1;
			}
			o->baseline = optarg;
			break;
		case O_JSON: o->json = optarg; break;
		case O_PLOT: o->plot = optarg; break;
		case O_REPLOT: o->replot = optarg; break;
		case O_COMPARE: o->compare[0] = optarg; break;
		case O_VERSION: o->version = 1; break;
		case O_NO_FLOOR: o->no_floor = 1; break;
		case O_ICOUNT: o->icount = 1; break;
		case O_FILL_MAX:
			if (parse_double("fill-max", optarg, 1, 1e12, &d, err, el))
				return -1;
			o->fill_max = (unsigned long long)d;
			break;
		case O_FORMAT:
			if (!strcmp(optarg, "lkp")) {
				o->format_lkp = 1;
			} else if (!strcmp(optarg, "table")) {
				o->format_lkp = 0;
			} else {
				snprintf(err, el, "unknown --format '%s' (table or lkp)", optarg);
				return -1;
			}
			break;
		case O_MODULE: o->module = optarg; break;
		case O_FIO_DIR: o->fio_dir = optarg; break;
		case O_NOLOAD: o->no_load = 1; break;
		case O_STRESSNG: o->stress_ng = 1; break;
		case O_FIO: o->fio = 1; break;
		case O_ALL: o->stress_ng = o->fio = 1; break;
		case O_TOOLS_ONLY: o->no_workloads = 1; break;
		case O_QUICK: quick = 1; break;
		case O_QUIET: o->quiet = 1; break;
		case O_LIST: o->list = 1; break;
		case 'h':
		case O_HELP: o->help = 1; break;
		case O_LKP: o->lkp_splice = 1; break;
		case O_LKP_STRESSNG: o->lkp_stress_ng = optarg; break;
		case O_STRESSNG_BIN: o->stress_ng_bin = optarg; break;
		case O_LKP_NO_VERIFY: o->lkp_no_verify = 1; break;
		case O_MODEL: o->model = 1; break;
		case O_LKP_TIME:
			if (parse_double("lkp-time", optarg, 1, 3600, &o->lkp_time, err, el))
				return -1;
			break;
		case O_LKP_BYTES:
			if (parse_double("lkp-bytes", optarg, 1024, 64 * 1024 * 1024, &d, err, el))
				return -1;
			o->lkp_bytes = (unsigned int)d;
			break;
		case O_LKP_INSTANCES:
			if (parse_double("lkp-instances", optarg, 1, 256, &d, err, el))
				return -1;
			o->lkp_instances = (int)d;
			break;
		case O_MODEL_INSTANCES:
			if (parse_double("model-instances", optarg, 1, 1e6, &o->model_instances,
					 err, el))
				return -1;
			break;
		case O_MODEL_RATE:
			if (parse_double("model-rate", optarg, 0, 1e12, &o->model_rate, err, el))
				return -1;
			break;
		case O_MODEL_EXTRA:
			if (parse_double("model-extra", optarg, 0, 1, &d, err, el))
				return -1;
			o->model_extra = (unsigned int)d;
			break;
		case ':':
			snprintf(err, el, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			snprintf(err, el, "unknown option '%s' (try --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (o->compare[0]) {
		if (optind != argc - 1) {
			snprintf(err, el, "--compare needs two files: --compare BASE.json CAND.json");
			return -1;
		}
		o->compare[1] = argv[optind++];
	}
	if (optind < argc) {
		snprintf(err, el, "unexpected argument '%s' (try --help)", argv[optind]);
		return -1;
	}
	if (o->module && o->no_load) {
		snprintf(err, el, "--module and --no-load exclude each other");
		return -1;
	}
	if (o->no_workloads && !o->stress_ng && !o->fio && !o->lkp_splice) {
		snprintf(err, el, "--tools-only needs --stress-ng, --fio, --lkp-splice or --all");
		return -1;
	}
	if (!o->lkp_instances)
		o->lkp_instances = zsb_nproc();
	if (quick) {
		o->runs = 2;
		o->duration = 0.05;
		o->tool_duration = 1;
		if (!o->nthreads)
			o->threads[o->nthreads++] = 1;
	}
	if (o->icount) {
		if (!duration_set)
			o->duration = quick ? 0.002 : 0;
		if (zsb_icount_opts(o, err, el))
			return -1;
	}
	if (!o->nimpls)
		for (size_t i = 0; i < zsb_nimpls; i++)
			if (zsb_impls[i].default_on)
				o->impls[o->nimpls++] = &zsb_impls[i];
	if (!o->nwls)
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
