/* SPDX-License-Identifier: GPL-2.0 */
/* zsbench: compare splice implementations of /dev/zsplice against each other. */
#ifndef ZSBENCH_H
#define ZSBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ZSB_MAX_THREADS_LIST	16
#define ZSB_MAX_RUNS		100
#define ZSB_MAX_SEL		64

/* ---- implementations (impl.c) ---- */
enum zsb_dev { ZSB_DEV_DEVZERO, ZSB_DEV_ZSPLICE, ZSB_DEV_FULLSPLICE };

struct zsb_impl {
	const char *name;	/* "copy", "full-copy", "devzero" ... */
	enum zsb_dev dev;
	int kimpl;		/* enum zsplice_impl, -1 for devzero */
	int default_on;		/* part of the default selection */
};

extern const struct zsb_impl zsb_impls[];
extern const size_t zsb_nimpls;
const struct zsb_impl *zsb_impl_find(const char *name);
const char *zsb_impl_path(const struct zsb_impl *im);
/* the splice_impl parameter value (ZSPLICE_IMPL_NAMES), NULL for devzero */
const char *zsb_impl_param(const struct zsb_impl *im);
/* open the device for im with flags and select the implementation on the
 * file with the ioctl; returns fd or -errno */
int zsb_impl_open(const struct zsb_impl *im, int flags);
/* the module parameter splice_impl, without its newline; 0 or -errno */
int zsb_get_module_impl(char *buf, size_t len);
/*
 * The module-wide implementation for a tool that opens the device itself
 * (stress-ng, fio, zsbench exec): zsb_impl_switch() sets splice_impl to
 * im's (nothing for devzero), remembering the value it found the first
 * time; zsb_impl_restore() writes that back, and runs at exit.  Switch
 * prints its error; both are 0 or -errno.  Restore is async-signal-safe.
 */
int zsb_impl_switch(const struct zsb_impl *im);
void zsb_impl_restore(void);
/* the parameter's path (tests) */
void zsb_impl_param_path(const char *path);
/* the module's default folio_order after the driver rework (2 MiB folios) */
#define ZSB_FOLIO_ORDER_DEFAULT	9
/* --folio-order, else the loaded module's, else the default */
struct zsb_opts;
int zsb_folio_order(const struct zsb_opts *o);
/*
 * This process into a private mount namespace where /dev/zsplice is
 * /dev/zero (and with full /dev/fullsplice /dev/full); 0, or -1 after
 * printing why (EPERM: needs root).
 */
int zsb_private_devs(int full);

/*
 * ---- engines (engines/) and workloads (workloads.c) ----
 *
 * An engine is open / op / close: open sets up its files in c->priv (an
 * engine's own state, priv_size bytes, zeroed), op does one operation and
 * returns the bytes it moved (>= 0) or -errno, close releases.  The core
 * (runner.c) owns the loops: timed loops over threads, and fixed-count
 * loops (--icount), so both measure the very same op.
 */
struct zsb_wctx;

struct zsb_engine {
	const char *name;
	size_t priv_size;
	int (*open)(struct zsb_wctx *c);	/* 0 or -errno */
	long (*op)(struct zsb_wctx *c);		/* bytes moved, or -errno */
	void (*close)(struct zsb_wctx *c);
};

#define WL_FULL_OK	1	/* meaningful on /dev/fullsplice */
#define WL_SINGLE	2	/* only with one thread */
#define WL_FILL		4	/* figure is a count, not a rate */
#define WL_FLOOR	8	/* the floor: run once per thread count, on folio */

struct zsb_workload {
	const char *name;	/* "splice" */
	const char *variant;	/* "splice-64K" */
	size_t size;
	const struct zsb_engine *eng;
	int flags;
	int default_on;
	const char *desc;	/* one line, for zsbench list and the manual */
};

extern const struct zsb_workload zsb_workloads[];
extern const size_t zsb_nworkloads;
extern const struct zsb_engine zsb_eng_splice, zsb_eng_floor, zsb_eng_pipe_class,
	zsb_eng_fill, zsb_eng_sendfile_null, zsb_eng_sendfile_tmpfs, zsb_eng_sendfile_tcp,
	zsb_eng_read, zsb_eng_uring, zsb_eng_splice_write;
const struct zsb_workload *zsb_workload_find(const char *variant);

struct zsb_wctx {
	const struct zsb_impl *impl;
	const struct zsb_workload *wl;
	int thread;
	int nthreads;
	volatile int *stop;
	size_t fill_pipe;
	uint64_t fill_max;	/* stop a fill after this many splices */
	void *priv;		/* the engine's state */
	/* results */
	uint64_t ops;
	uint64_t bytes;
	uint64_t enospc;
	uint64_t fill_count;
	int fill_capped;	/* the fill stopped at fill_max, not at EAGAIN */
	int iowq_workers;
	int err;		/* errno that made the workload unsupported, 0 if fine */
	char note[96];
};

/* engine helpers (runner.c) */
/* open the device of c->impl; on failure a note in c, returns -errno */
int zsb_dev_open(struct zsb_wctx *c, int flags);
void zsb_pipe_size(int fd, size_t want);
void zsb_close_fds(int *fds, int n);

/* ---- statistics (stats.c): as lkp-tests' ncompare computes and prints them ---- */
double zsb_mean(const double *v, int n);
double zsb_stddev(const double *v, int n);	/* population stddev (divides by n) */
double zsb_pct_change(double base, double cand);	/* 100 * (cand - base) / base */
double zsb_sigma_pct(double mean, double sd);	/* 100 * sd / mean */
/* a mean as ncompare prints it */
void zsb_fmt_num(char *buf, size_t len, double v);
/* "±  3%" above 2%, else blanks */
void zsb_fmt_sigma(char *buf, size_t len, double mean, double sd);
void zsb_fmt_change(char *buf, size_t len, double base, double cand);

/* ---- results ---- */
/* the unit of a result's figures (JSON "unit") */
enum zsb_unit {
	ZSB_UNIT_OPS_PER_SEC,	/* operations per second */
	ZSB_UNIT_FILL_COUNT,	/* calls until a pipe is full: a count */
	ZSB_UNIT_READ_IOPS,	/* fio read I/O per second */
	ZSB_UNIT_READ_BW_MBPS,	/* fio read bandwidth, MB/s */
	ZSB_UNIT_NS_PER_OP,	/* ns per operation (--icount: instructions) */
	ZSB_UNIT_GIB_PER_SEC,	/* a program's GiB per second */
	ZSB_UNIT_NS_PER_GIB,	/* a program's ns per GiB (--icount: instructions) */
	ZSB_NUNITS
};

struct zsb_unit_info {
	const char *name;	/* as in the JSON and metric names */
	const char *desc;
	int rate;		/* a rate over time (plotted), not a count */
};
extern const struct zsb_unit_info zsb_units[ZSB_NUNITS];
const char *zsb_unit_name(enum zsb_unit u);
/* -1 if unknown */
int zsb_unit_parse(const char *name);

struct zsb_result {
	char source[16];	/* zsbench, stress-ng, fio */
	char workload[32];
	char variant[48];
	char impl[24];
	char metric[96];
	enum zsb_unit unit;
	size_t size;
	int threads;
	int runs;
	double vals[ZSB_MAX_RUNS];
	double mean, stddev;
	double bytes_per_sec_mean;
	double fill_count;	/* fill only, -1 otherwise */
	int fill_capped;	/* fill_count is --fill-max: the pipe holds more */
	double enospc_per_sec;
	int iowq_workers;	/* uring only, -1 otherwise */
	int unsupported;
	char error[32];
	char note[160];
	int stalled;		/* lkp-splice: instances asleep in pipe_wait_writable */
	int instances_seen;	/* lkp-splice: instances looked at, 0 otherwise */
	uint64_t count;		/* --icount: operations per repetition (not in the JSON) */
};

struct zsb_results {
	struct zsb_result *r;
	int n, cap;
	char stress_ng_version[128];
	char fio_version[64];
	char lkp_stress_ng[192];	/* lkp-splice: which stress-ng */
	char module_version[64];	/* /sys/module/zsplice/version, "" if none */
	char kernel_version[128];	/* uname -v */
	char kernel[128];		/* uname -r */
	double duration;
	char baseline[24];
	/* --icount (not in the JSON): the clock check and the repetitions */
	double clock_nspi;		/* guest ns per instruction, 0: not measured */
	int clock_tries;
	int fixed_runs;
};

struct zsb_result *zsb_results_add(struct zsb_results *rs);
void zsb_result_finish(struct zsb_result *r);

/* ---- the command line (cli.c) ---- */
enum zsb_cmd_id { ZSB_CMD_RUN, ZSB_CMD_EXEC, ZSB_CMD_COMPARE, ZSB_CMD_PLOT, ZSB_CMD_MODEL,
		  ZSB_CMD_LIST, ZSB_NCMDS };

struct zsb_cmd {
	const char *name;
	const char *args;	/* after the command in its usage line */
	const char *summary;	/* one line, for zsbench --help */
	const char *desc;
};
extern const struct zsb_cmd zsb_cmds[ZSB_NCMDS];

struct zsb_opts {
	int cmd;		/* enum zsb_cmd_id, -1 for none */
	uint64_t given;		/* bit i: zsb_options[i] was on the command line */
	const char *files[2];	/* compare BASE CAND, plot RUN */
	int nfiles;
	int help;
	int version;
	/* run: the selection */
	const struct zsb_impl *impls[ZSB_MAX_SEL];
	int nimpls;
	const struct zsb_workload *wls[ZSB_MAX_SEL];
	int nwls;
	int no_workloads;	/* --workload named only tools */
	int stress_ng;		/* --workload stress-ng */
	int fio;		/* --workload fio */
	int lkp_splice;		/* --workload lkp-splice */
	const struct zsb_program *progs[ZSB_MAX_SEL];	/* --workload program-* */
	int nprogs;
	int threads[ZSB_MAX_THREADS_LIST];
	int nthreads;
	int runs;
	double duration;
	const char *baseline;
	int no_floor;
	int icount;		/* --icount: fixed-count loops */
	int quick;
	/* run: tools */
	double tool_duration;
	const char *fio_dir;
	const char *stress_ng_bin;
	const char *lkp_stress_ng;
	double lkp_time;
	unsigned int lkp_bytes;
	int lkp_instances;
	int lkp_no_verify;	/* LKP's command without --verify */
	size_t program_bytes;	/* bytes per program run */
	const char *uutils;	/* uutils' coreutils binary */
	/* run: module */
	const char *module;
	int no_load;
	int folio_order;
	size_t fill_pipe;
	unsigned long long fill_max;
	/* output */
	const char *json;
	const char *plot;	/* run --plot, plot --output */
	int format_lkp;		/* --format lkp */
	int quiet;
	/* exec */
	const struct zsb_impl *exec_impl;	/* NULL: splice_impl as it is */
	int exec_full;		/* /dev/fullsplice over /dev/full too */
	int exec_stats;		/* every statistic that changed */
	char **exec_argv;	/* the command, NULL-terminated */
	/* model */
	double model_instances;
	double model_rate;
	unsigned int model_extra;
};

enum zsb_opt_type {
	ZSB_OPT_FLAG,		/* int, set to 1 */
	ZSB_OPT_INT,		/* int, base 10, in range */
	ZSB_OPT_UINT,		/* unsigned int, base 10, in range */
	ZSB_OPT_U64,		/* unsigned long long, base 10, in range */
	ZSB_OPT_SIZE,		/* size_t, N, NK or NM, in range */
	ZSB_OPT_DOUBLE,		/* double, in range */
	ZSB_OPT_STR,		/* const char * */
	ZSB_OPT_CUSTOM,		/* parse() does it */
};

/* one option: the getopt table, the parser and --help are made from these */
struct zsb_option {
	const char *name;	/* long option, without -- */
	unsigned int cmds;	/* bit per enum zsb_cmd_id that takes it */
	enum zsb_opt_type type;
	size_t off;		/* offsetof(struct zsb_opts, its field) */
	double min, max;	/* the range of numbers */
	const char *arg;	/* metavariable, NULL: no value */
	int (*parse)(struct zsb_opts *o, const char *arg, char *err, size_t errlen);
	const char *section;	/* a heading before it in --help */
	const char *help;	/* lines separated by \n */
};
extern const struct zsb_option zsb_options[];
extern const size_t zsb_noptions;

/* argv[1] is the command; returns 0, or -1 with a one-line message in err */
int zsb_parse_opts(int argc, char **argv, struct zsb_opts *o, char *err, size_t errlen);
/* the usage of a command (enum zsb_cmd_id), or of zsbench with cmd -1 */
void zsb_usage(FILE *f, int cmd);
/* the option was given on the command line */
int zsb_given(const struct zsb_opts *o, const char *name);

/* ---- runner (runner.c) ---- */
/* zsbench's own workloads over the selection, timed or (--icount) fixed-count */
void zsb_run(const struct zsb_opts *o, struct zsb_results *rs);
/*
 * --icount: pin to one CPU and check the clock, once a run (the figures in
 * rs); the source of the records, ZSB_ICOUNT_SOURCE or ZSB_FIXED_SOURCE
 */
const char *zsb_icount_source(struct zsb_results *rs);
/* CLOCK_MONOTONIC in ns */
uint64_t zsb_ns(void);
void zsb_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void zsb_progress_done(void);
extern int zsb_quiet;

/* ---- report (report.c) ---- */
/* the columns of a table: @s added to @list (n entries, room for max) unless there */
int zsb_add_unique(const char **list, int n, int max, const char *s);
void zsb_report(FILE *f, const struct zsb_results *rs, const char *baseline);
/* the implementation name of the floor records */
#define ZSB_FLOOR_IMPL	"floor"
/* fast-path rates as fractions of the floor, beside their ratio to the baseline */
void zsb_report_floor(FILE *f, const struct zsb_results *rs, const char *baseline);
/* the programs' figures, per implementation and as multiples of devzero's */
void zsb_report_programs(FILE *f, const struct zsb_results *rs);
/* the table between two runs; -1 when no record is in both */
int zsb_compare(FILE *f, const struct zsb_results *base, const struct zsb_results *cand,
		const char *bname, const char *cname);

/* ---- json (json.c, through json-c) ---- */
/*
 * Version of the JSON document: schema, the zsbench, module and kernel
 * versions, a units table, and per record value (in unit), mean, stddev
 * (the population sigma, as lkp-tests' ncompare) and values (in
 * values_unit).  The reader takes this schema only.
 */
#define ZSB_JSON_SCHEMA	3
#ifndef ZSB_VERSION
#define ZSB_VERSION	"unknown"
#endif
double zsb_result_value(const struct zsb_result *r);
enum zsb_unit zsb_values_unit(const struct zsb_result *r);
/* LKP's "key: value" lines, one per supported record */
void zsb_format_lkp(FILE *f, const struct zsb_results *rs);
int zsb_json_write(FILE *f, const struct zsb_results *rs);
int zsb_json_write_file(const char *path, const struct zsb_results *rs);
/* 0, or -1 with why in err (one line, without the path) */
int zsb_json_read_file(const char *path, struct zsb_results *rs, char *err, size_t errlen);

/* ---- --icount (runner.c, report.c) ---- */
/* the source of records measured under QEMU -icount shift=0, and elsewhere */
#define ZSB_ICOUNT_SOURCE	"icount"
#define ZSB_FIXED_SOURCE	"fixed"
/* the clock check: a loop of two instructions, this many times */
#define ZSB_CAL_LOOPS		10000000ULL
/* check and complete the options of --icount; -1 with a message in err */
int zsb_icount_opts(struct zsb_opts *o, char *err, size_t errlen);
/* the median of a record's repetitions */
double zsb_icount_median(const struct zsb_result *r);
/* the cost table of the icount records in rs, if any */
void zsb_icount_report(FILE *f, const struct zsb_results *rs);

/* ---- kmod (kmod.c) ---- */
/* make /dev/zsplice available; returns 0, or -1 after printing a message */
int zsb_module_setup(const struct zsb_opts *o);
void zsb_module_teardown(void);
/* MODULE_VERSION of the loaded module, "" if none */
void zsb_module_version(char *buf, size_t len);

/* ---- external tools (engines/stress-ng.c, engines/fio.c) and the plot ---- */
/* stress-ng, plain (--workload stress-ng) and LKP's profile (--workload lkp-splice) */
int zsb_stressng_run(const struct zsb_opts *o, struct zsb_results *rs);
int zsb_fio_run(const struct zsb_opts *o, struct zsb_results *rs);
int zsb_plot(const struct zsb_results *rs, const char *png);
/* stress-ng child setup: /dev/zsplice over /dev/zero in a private mount ns */
int zsb_bind_zsplice(void *arg);
/*
 * ---- programs (engines/program.c) ----
 *
 * A program people run against /dev/zero: its binary (bin in PATH, or
 * $env), the arguments after argv[0] with "{dev}" for the device, and
 * the size it asks for a call.  One runner for all of them: each writes
 * into a pipe that zsbench drains to /dev/null until --program-bytes.
 */
#define ZSB_PROG_MAXARGS	8
struct zsb_program {
	const char *name;	/* "pv" */
	const char *variant;	/* "program-pv": the workload's name */
	const char *bin;
	const char *env;	/* names another binary: "ZSB_PV" */
	const char *version_has;	/* GNU's: in its --version (not uutils'), or NULL */
	const char *args[ZSB_PROG_MAXARGS];
	size_t size;
	const char *desc;	/* one line, for zsbench list */
};
extern const struct zsb_program zsb_programs[];
extern const size_t zsb_nprograms;
const struct zsb_program *zsb_program_find(const char *variant);
struct zsb_prog_argv {
	char *argv[ZSB_PROG_MAXARGS + 2];
	char buf[1024];
};
/* argv of p with bin as argv[0] and dev for {dev}: argc, or -1 (too long) */
int zsb_program_argv(const struct zsb_program *p, const char *bin, const char *dev,
		     struct zsb_prog_argv *a);
/* p's binary in path; -1 with why in why (one line) when absent or not p's */
int zsb_program_bin(const struct zsb_program *p, const struct zsb_opts *o, char *path,
		    size_t len, char *why, size_t wl);
/* the start-up of a run, left out of its figure when it is at least twice this */
#define ZSB_PROG_START		(1ULL << 20)
struct zsb_prog_run {
	uint64_t bytes;		/* what arrived */
	uint64_t ns;		/* from the fork to the last byte */
	uint64_t start_bytes;	/* what had come when ZSB_PROG_START had, or 0 */
	uint64_t start_ns;	/* when, from the fork */
	int status;		/* as zsb_tool_run's */
	char err[96];		/* the last line of its stderr when it ended early */
};
/* one run of argv into the pipe until want bytes: 0, -EPIPE (it ended
 * first), -EINTR (SIGINT, SIGTERM), -ETIMEDOUT (stalled) or -errno */
int zsb_program_once(char *const argv[], uint64_t want, struct zsb_prog_run *r);
/* the selected programs on every implementation; -1 when one failed */
int zsb_program_run(const struct zsb_opts *o, struct zsb_results *rs);

/* ---- zsbench exec (cmd-exec.c) ---- */
int zsb_cmd_exec(const struct zsb_opts *o);

struct zsb_stressng_bin {
	char path[4096];
	char version_line[128];	/* the first line of --version */
	char version[32];
	char label[64];
	int maj, min, pat;
	int one_byte;		/* has the undrained 1-byte splice */
};
int zsb_stressng_version(const char *out, int *maj, int *min, int *pat);
int zsb_lkp_argv(char **argv, const char *path, const char *timeout, const char *n,
		 int no_verify);
int zsb_lkp_one_byte(int maj, int min, int pat);
/* fio's JSON output: the first job's read IOPS and bandwidth (KiB/s) */
int zsb_fio_parse(const char *out, double *iops, double *bw_kib);
void zsb_model_print(FILE *f, const struct zsb_opts *o);

/* ---- module statistics (kstats.c) ---- */
int zsb_stat_parse(const char *text, const char *name, unsigned long long *val);
int zsb_stats_read(const char *dev, char *buf, size_t len);
int zsb_stat(const char *dev, const char *name, unsigned long long *val);

/* ---- SIGINT and SIGTERM (sig.c) ---- */
/* record them; blocked in the calling thread outside zsb_wait() */
void zsb_signals_install(void);
/* up to timeout seconds for fd (-1: none) to be readable, the place the
 * signals arrive: 1 readable, 0 timeout, -1 with errno (EINTR: a signal) */
int zsb_wait(int fd, double timeout);
/* the signal that asks zsbench to stop, 0 if none */
int zsb_stop_signal(void);
/* it came from the terminal, which sent it to the foreground children too */
int zsb_stop_from_tty(void);
/* block them in a thread other than the main one (1), or unblock (0) */
void zsb_signals_block(int block);
/* a child before exec: the default dispositions of SIGINT, SIGTERM, SIGPIPE */
void zsb_signals_default(void);

/* helpers */
double zsb_now(void);
int zsb_nproc(void);
const char *zsb_size_str(size_t sz, char *buf, size_t len);

#endif
