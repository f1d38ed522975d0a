// SPDX-License-Identifier: GPL-2.0
/* The command line: subcommands, the typed option table and its errors. */
#include <ctype.h>
#include <stdlib.h>
#include <linux/zsplice.h>

#include "zsbench.h"
#include "tap.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof(a[0])) - 1)

static struct zsb_opts o;
static char err[256];

static int parse(int argc, char **argv)
{
	return zsb_parse_opts(argc, argv, &o, err, sizeof(err));
}

#define OK(name, ...) do {						\
	char *a_[] = { "zsbench", __VA_ARGS__, NULL };			\
	int rc_ = parse(ARGC(a_), a_);					\
	if (rc_)							\
		printf("#   '%s' failed: %s\n", name, err);		\
	tap_ok(!rc_, name);						\
} while (0)

/* the parse fails with a one-line message holding want */
#define BAD(want, name, ...) do {					\
	char *a_[] = { "zsbench", __VA_ARGS__, NULL };			\
	int rc_ = parse(ARGC(a_), a_);					\
	tap_ok(rc_ == -1 && strstr(err, want) && !strchr(err, '\n'), name); \
	if (rc_ != -1 || !strstr(err, want))				\
		printf("#   rc %d err '%s', want '%s'\n", rc_, err, want); \
} while (0)

/* every table entry: a known type, a range for numbers, one line of help per 57 columns */
static void table(void)
{
	int bad = 0, help = 0;

	for (size_t i = 0; i < zsb_noptions; i++) {
		const struct zsb_option *d = &zsb_options[i];
		const char *h = d->help;

		bad |= !d->cmds || (d->type == ZSB_OPT_CUSTOM) != (d->parse != NULL);
		bad |= (d->type == ZSB_OPT_FLAG) != (d->arg == NULL);
		bad |= d->type >= ZSB_OPT_INT && d->type <= ZSB_OPT_DOUBLE && !(d->min < d->max);
		while (*h) {
			size_t len = strcspn(h, "\n");

			help |= len > 58;
			h += len + !!h[len];
		}
	}
	tap_ok(!bad && zsb_noptions <= 64, "option table: types, ranges, parsers, at most 64");
	tap_ok(!help, "option table: help lines fit 80 columns");
}

static void help_of(int cmd, const char *must, const char *mustnt, const char *name)
{
	char *u = NULL;
	size_t ulen = 0;
	FILE *f = open_memstream(&u, &ulen);

	zsb_usage(f, cmd);
	fclose(f);
	tap_ok(strstr(u, must) && (!mustnt || !strstr(u, mustnt)), name);
	free(u);
}

static void manual(void)
{
	static const char *const knames[] = ZSPLICE_IMPL_NAMES;
	FILE *man = fopen("../Documentation/zsbench.rst", "r");
	char *text = NULL, miss[512] = "";
	size_t len = 0;
	int bad = 0, descs = 1;

	for (size_t i = 0; i < zsb_nimpls; i++) {
		const struct zsb_impl *im = &zsb_impls[i];

		if (im->kimpl >= 0 && strcmp(zsb_impl_param(im), knames[im->kimpl]))
			bad = 1;
		if (im->dev == ZSB_DEV_ZSPLICE && strcmp(im->name, knames[im->kimpl]))
			bad = 1;
	}
	tap_ok(!bad, "implementation names and parameters are ZSPLICE_IMPL_NAMES");
	for (size_t i = 0; i < zsb_nworkloads; i++)
		descs &= zsb_workloads[i].desc && zsb_workloads[i].desc[0] &&
			 strlen(zsb_workloads[i].desc) < 72;
	tap_ok(descs, "every workload has a one-line description");
	if (!man) {
		printf("ok %d - zsbench(1) documents every command and option # SKIP no "
		       "../Documentation/zsbench.rst\n", ++tap_n);
		return;
	}
	getdelim(&text, &len, 0, man);
	fclose(man);
	for (size_t i = 0; i < zsb_noptions + ZSB_NCMDS; i++) {
		const char *name = i < zsb_noptions ? zsb_options[i].name :
				   zsb_cmds[i - zsb_noptions].name;
		char pat[96];

		/* an option anywhere, a command as the title of its section */
		if (i < zsb_noptions)
			snprintf(pat, sizeof(pat), "--%s", name);
		else
			snprintf(pat, sizeof(pat), "\nzsbench %s\n", name);
		if (!strstr(text, pat) && strlen(miss) + strlen(name) + 2 < sizeof(miss)) {
			strcat(miss, " ");
			strcat(miss, name);
		}
	}
	tap_ok(!miss[0], "zsbench(1) documents every command and option");
	if (miss[0])
		printf("#   missing:%s\n", miss);
	free(text);
}

/* the flags of other programs that the documents quote */
static const char *const foreign[] = {
	/* stress-ng */
	"splice", "splice-bytes", "timeout", "times", "verify", "metrics", "metrics-brief",
	"yaml",
	/* fio */
	"output-format", "name", "filename", "rw", "bs", "size", "ioengine",
	/* pv */
	"no-splice",
	/* checkpatch, tools/rig/perf-gate.sh, dkms remove */
	"strict", "kver", "update", "all",
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &len, 0, f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* the option table entry called name that cmd (-1: any) takes */
static int takes(int cmd, const char *name)
{
	for (size_t i = 0; i < zsb_noptions; i++)
		if (!strcmp(zsb_options[i].name, name) &&
		    (cmd < 0 || (zsb_options[i].cmds & (1u << cmd))))
			return 1;
	return cmd < 0 && !strcmp(name, "version");
}

static int is_foreign(const char *name)
{
	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++)
		if (!strcmp(foreign[i], name))
			return 1;
	return 0;
}

/* the command of a "zsbench CMD" that starts at p, -1 if none */
static int cmd_at(const char *p)
{
	for (int c = 0; c < ZSB_NCMDS; c++) {
		size_t n = strlen(zsb_cmds[c].name);

		if (!strncmp(p, zsb_cmds[c].name, n) && (p[n] == ' ' || p[n] == '\n'))
			return c;
	}
	return -1;
}

/*
 * Every --flag of a document is zsbench's or a quoted tool's; after
 * "zsbench CMD" on a line, up to a lone "--" or a |, ; or `, CMD's own.
 */
static void doc_flags(const char *path, char *bad, size_t blen)
{
	char *text = slurp(path);
	int cmd = -1;

	if (!text) {
		snprintf(bad + strlen(bad), blen - strlen(bad), " (%s unreadable)", path);
		return;
	}
	for (const char *p = text; *p; p++) {
		char name[64];
		size_t n;

		if (*p == '\n' || *p == '|' || *p == ';' || *p == '`')
			cmd = -1;
		if (!strncmp(p, "zsbench ", 8) && cmd_at(p + 8) >= 0)
			cmd = cmd_at(p + 8);
		if (p[0] != '-' || p[1] != '-' || (p > text && (isalnum((unsigned char)p[-1]) ||
							       p[-1] == '-')))
			continue;
		n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
		if (!n || !islower((unsigned char)p[2])) {
			if (!n && p[2] != '-')
				cmd = -1;	/* a lone --: the command's own from here */
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(n < 63 ? n : 63), p + 2);
		if ((cmd >= 0 ? !takes(cmd, name) : !takes(-1, name) && !is_foreign(name)) &&
		    strlen(bad) + n + 48 < blen)
			snprintf(bad + strlen(bad), blen - strlen(bad), " --%s (%s%s%s)", name,
				 strrchr(path, '/') + 1, cmd >= 0 ? ", zsbench " : "",
				 cmd >= 0 ? zsb_cmds[cmd].name : "");
		p += n + 1;
	}
	free(text);
}

static void docs(void)
{
	char bad[1024] = "";

	doc_flags("../Documentation/zsbench.rst", bad, sizeof(bad));
	doc_flags("../Documentation/zsplice.rst", bad, sizeof(bad));
	doc_flags("../Documentation/benchmarking.rst", bad, sizeof(bad));
	doc_flags("../README.md", bad, sizeof(bad));
	doc_flags("../userspace/README.md", bad, sizeof(bad));
	tap_ok(!bad[0], "every flag the documents give zsbench is in its option table");
	if (bad[0])
		printf("#   not zsbench's:%s\n", bad);
}

int main(void)
{
	int nimpl_default = 0, nwl_default = 0;

	for (size_t i = 0; i < zsb_nimpls; i++)
		nimpl_default += zsb_impls[i].default_on;
	for (size_t i = 0; i < zsb_nworkloads; i++)
		nwl_default += zsb_workloads[i].default_on;
	table();
	manual();
	docs();

	/* commands */
	BAD("unknown command '--runs'", "an option is no command", "--runs", "2");
	{
		char *a[] = { "zsbench", NULL };

		tap_ok(parse(1, a) == -1 && strstr(err, "no command"), "zsbench alone: no command");
	}
	BAD("unknown command 'frob'", "unknown command", "frob");
	BAD("unknown command '--list'", "--list is no more", "--list");
	OK("zsbench --help", "--help");
	tap_ok(o.help && o.cmd == -1, "zsbench --help: the commands");
	OK("zsbench --version", "--version");
	tap_ok(o.version, "zsbench --version");
	for (int c = 0; c < ZSB_NCMDS; c++) {
		char *a[] = { "zsbench", (char *)zsb_cmds[c].name, "--help", NULL };
		char name[64];

		snprintf(name, sizeof(name), "zsbench %s --help", zsb_cmds[c].name);
		tap_ok(parse(3, a) == 0 && o.help && o.cmd == c, name);
	}
	help_of(ZSB_CMD_RUN, "  --workload LIST", "  --instances", "run --help: run's options only");
	help_of(ZSB_CMD_MODEL, "  --instances N", "  --workload", "model --help: model's options only");
	help_of(ZSB_CMD_COMPARE, "usage: zsbench compare [options] BASE.json CAND.json", "--impl",
		"compare --help: its usage, no run option");
	help_of(ZSB_CMD_PLOT, "  --output FILE.png", "--icount", "plot --help: --output");
	help_of(-1, "  compare ", NULL, "zsbench --help lists the commands");

	/* run: defaults */
	OK("run: no options", "run");
	tap_ok(o.runs == 5 && o.duration == 0.2 && !strcmp(o.baseline, "copy"),
	       "defaults: 5 runs, 0.2 s, baseline copy");
	tap_ok(o.nimpls == nimpl_default && o.nwls == nwl_default && !o.stress_ng && !o.fio &&
	       !o.lkp_splice, "default selections: own workloads, no tool");
	tap_ok(o.threads[0] == 1 && (zsb_nproc() == 1 ? o.nthreads == 1 :
	       o.nthreads == 2 && o.threads[1] == zsb_nproc()), "default threads 1,nproc");
	tap_ok(o.fill_pipe == 65536 && o.folio_order == 0 && o.fill_max == 1048576,
	       "default fill pipe and max; folio order: the module's own");
	tap_ok(!strcmp(o.lkp_stress_ng, "/var/cache/zsplice/stress-ng/V0.17.00/stress-ng") &&
	       !o.stress_ng_bin, "lkp-splice's stress-ng: an option's default");

	/* run: values */
	OK("run: a full option set", "run", "--impl", "copy,zeropage", "--workload",
	   "splice-64K,fill", "--threads", "1,4", "--runs", "3", "--duration", "0.5",
	   "--baseline", "zeropage", "--json", "x.json", "--plot", "x.png", "--fill-pipe", "1M",
	   "--fill-max", "5000000000", "--lkp-bytes", "2048", "--format=lkp");
	tap_ok(o.nimpls == 2 && !strcmp(o.impls[0]->name, "copy") &&
	       !strcmp(o.impls[1]->name, "zeropage"), "--impl list");
	tap_ok(o.nwls == 2 && !strcmp(o.wls[0]->variant, "splice-64K") &&
	       !strcmp(o.wls[1]->variant, "fill"), "--workload variants");
	tap_ok(o.nthreads == 2 && o.threads[0] == 1 && o.threads[1] == 4, "--threads list");
	tap_ok(o.runs == 3 && o.duration == 0.5, "--runs and --duration");
	tap_ok(!strcmp(o.baseline, "zeropage") && !strcmp(o.json, "x.json") &&
	       !strcmp(o.plot, "x.png") && o.format_lkp, "--baseline --json --plot --format");
	tap_ok(o.fill_pipe == 1 << 20 && o.fill_max == 5000000000ULL && o.lkp_bytes == 2048,
	       "integers as integers: a size, 64 bits, unsigned");
	tap_ok(o.given & 1, "given: --impl was");
	tap_ok(zsb_given(&o, "runs") && !zsb_given(&o, "quick"), "zsb_given");
	OK("run --workload splice", "run", "--workload", "splice");
	tap_ok(o.nwls == 4 && !o.no_workloads, "--workload splice selects 4 sizes");
	OK("run --workload all", "run", "--workload", "all");
	tap_ok(o.nwls == nwl_default && o.stress_ng && o.fio && !o.lkp_splice,
	       "--workload all: the defaults, stress-ng and fio");
	tap_ok(o.nprogs == (int)zsb_nprograms, "--workload all: every program too");
	OK("run --workload program-pv,program-dd", "run", "--workload", "program-pv,program-dd");
	tap_ok(o.nprogs == 2 && !strcmp(o.progs[0]->name, "pv") &&
	       !strcmp(o.progs[1]->name, "dd") && o.no_workloads && !o.nwls &&
	       o.program_bytes == 256 << 20, "--workload program-pv,program-dd: those alone");
	OK("run --workload program,splice-1", "run", "--workload", "program,splice-1",
	   "--program-bytes", "1M", "--uutils", "/u/coreutils");
	tap_ok(o.nprogs == (int)zsb_nprograms && o.nwls == 1 && !o.no_workloads &&
	       o.program_bytes == 1 << 20 && !strcmp(o.uutils, "/u/coreutils"),
	       "--workload program: every program; --program-bytes, --uutils");
	BAD("unknown workload 'program-ls'", "an unknown program", "run", "--workload",
	    "program-ls");
	OK("run --workload stress-ng,fio", "run", "--workload", "stress-ng,fio", "--no-load");
	tap_ok(o.stress_ng && o.fio && o.no_workloads && !o.nwls && o.no_load,
	       "--workload stress-ng,fio: the tools alone");
	OK("run --workload default,lkp-splice", "run", "--workload", "default,lkp-splice");
	tap_ok(o.nwls == nwl_default && o.lkp_splice && !o.stress_ng,
	       "--workload default,lkp-splice");
	OK("run --workload lkp-splice", "run", "--workload", "lkp-splice", "--lkp-time", "10",
	   "--lkp-instances", "2");
	tap_ok(o.lkp_splice && o.no_workloads && o.lkp_time == 10 && o.lkp_instances == 2 &&
	       o.lkp_bytes == 1024, "--workload lkp-splice alone: only lkp-splice, 1 KiB");

	/* --quick fills in only what is not given */
	OK("run --quick", "run", "--quick");
	tap_ok(o.runs == 2 && o.duration == 0.05 && o.nthreads == 1 && o.threads[0] == 1,
	       "--quick: 2 runs, 0.05 s, 1 thread");
	tap_ok(o.program_bytes == 16 << 20, "--quick: 16 MiB a program run");
	OK("run --quick --runs 7", "run", "--runs", "7", "--quick", "--duration", "0.3");
	tap_ok(o.runs == 7 && o.duration == 0.3, "--quick keeps an explicit --runs and --duration");

	/* --icount */
	OK("run --icount", "run", "--icount");
	tap_ok(o.icount && o.nthreads == 1 && o.threads[0] == 1 && o.duration == 0.02 &&
	       o.nwls == 6 && !strcmp(o.wls[2]->variant, "splice-64K") &&
	       !strcmp(o.wls[4]->variant, "splice-write-64K") && o.nimpls == 4 &&
	       !strcmp(o.impls[0]->name, "devzero") && !strcmp(o.impls[3]->name, "folio"),
	       "--icount defaults: 1 thread, 0.02 s, 6 workloads, 4 implementations");
	tap_ok(o.nprogs == (int)zsb_nprograms, "--icount defaults: every program");
	OK("run --icount --duration --workload", "run", "--icount", "--duration", "0.5",
	   "--workload", "splice-64K");
	tap_ok(o.duration == 0.5 && o.nwls == 1, "--icount keeps --duration and --workload");
	OK("run --icount --quick", "run", "--icount", "--quick");
	tap_ok(o.duration == 0.002 && o.runs == 2, "--icount --quick: 0.002 s");
	OK("run --icount --workload fill", "run", "--icount", "--workload", "fill");
	tap_ok(o.nwls == 1 && o.wls[0]->eng == &zsb_eng_fill,
	       "--icount runs any workload: the core owns its loop");
	BAD("one thread", "--icount refuses a second thread", "run", "--icount", "--threads", "2");
	OK("run --icount --workload program-pv", "run", "--icount", "--workload", "program-pv");
	tap_ok(o.nprogs == 1 && !o.nwls && o.no_workloads && o.nimpls == 4,
	       "--icount runs a program alone, on the icount implementations");
	BAD("own loops only", "--icount refuses the tools", "run", "--icount", "--workload",
	    "stress-ng");

	/* type errors */
	BAD("--runs 2.5: not an integer", "an integer option takes no fraction", "run", "--runs",
	    "2.5");
	BAD("--runs 1e1: not an integer", "an integer option takes no exponent", "run", "--runs",
	    "1e1");
	BAD("--lkp-instances 0x10: not an integer", "integers are decimal", "run",
	    "--lkp-instances", "0x10");
	BAD("--duration abc: not a number", "a number", "run", "--duration", "abc");
	BAD("--fill-pipe 64Q: not a size", "a size", "run", "--fill-pipe", "64Q");
	BAD("--threads: bad thread count 'x'", "bad thread count", "run", "--threads", "x");
	BAD("--format: unknown format 'xml'", "unknown format", "run", "--format", "xml");
	/* range errors */
	BAD("--runs 0: out of range (1..100)", "runs 0", "run", "--runs", "0");
	BAD("--runs 101: out of range (1..100)", "runs 101", "run", "--runs", "101");
	BAD("--runs -1: out of range", "runs -1", "run", "--runs", "-1");
	BAD("--duration -1: out of range", "negative duration", "run", "--duration", "-1");
	BAD("--fill-pipe 100: out of range (4096..", "fill pipe too small", "run", "--fill-pipe",
	    "100");
	BAD("--fill-max -3: out of range", "fill-max negative: no wrap", "run", "--fill-max", "-3");
	BAD("--lkp-bytes 512: out of range (1024..", "lkp-bytes under 1 KiB", "run",
	    "--lkp-bytes", "512");
	BAD("--folio-order 10: out of range (1..9)", "folio order 10", "run", "--folio-order",
	    "10");
	BAD("--extra 2: out of range (0..1)", "model --extra 2", "model", "--extra", "2");
	BAD("--lkp-instances 99999999999999999999: out of range", "an overflow", "run",
	    "--lkp-instances", "99999999999999999999");
	/* names and lists */
	BAD("unknown option '--nope'", "unknown option", "run", "--nope");
	BAD("unknown option '--fio' (--fio-dir?", "no abbreviation: --fio", "run", "--fio", "d");
	BAD("unknown option '--stress-ng' (", "no abbreviation: --stress-ng, no value", "run",
	    "--stress-ng");
	BAD("unknown option '--dur' (--duration?", "no abbreviation: --dur=1", "run", "--dur=1");
	BAD("unknown option '--no-fl' (--no-floor?", "no abbreviation of a flag", "run",
	    "--no-fl");
	BAD("unknown option '--stat' (--stats?", "no abbreviation in exec", "exec", "--stat",
	    "true");
	OK("run --duration=0.5 --runs 2", "run", "--duration=0.5", "--runs", "2");
	BAD("unknown option '--all'", "--all is no more", "run", "--all");
	BAD("unknown option '--instances'", "model's option is not run's", "run", "--instances",
	    "3");
	BAD("unknown option '--impl'", "run's option is not model's", "model", "--impl", "copy");
	BAD("unknown implementation 'bogus'", "unknown implementation", "run", "--impl", "bogus");
	BAD("unknown workload 'dance'", "unknown workload", "run", "--workload", "dance");
	BAD("unknown implementation 'zero'", "unknown baseline", "run", "--baseline", "zero");
	BAD("--impl: empty list", "empty list", "run", "--impl", ",");
	BAD("--threads: an empty element in '1,,2'", "--threads 1,,2", "run", "--threads", "1,,2");
	BAD("--threads: an empty element in '1,'", "--threads 1,", "run", "--threads", "1,");
	BAD("--impl: an empty element in ',copy'", "--impl ,copy", "run", "--impl", ",copy");
	BAD("--workload: an empty element", "--workload fill,,splice-1", "run", "--workload",
	    "fill,,splice-1");
	BAD("--json /nonexistent-zsb/x.json: No such file or directory",
	    "--json in a missing directory: before the run", "run", "--json",
	    "/nonexistent-zsb/x.json");
	BAD("--json /proc/zsb.json: ", "--json in a directory nobody can create in",
	    "run", "--json", "/proc/zsb.json");
	BAD("--plot /nonexistent-zsb/x.png: No such file", "--plot too", "run", "--plot",
	    "/nonexistent-zsb/x.png");
	OK("run --json in a writable directory", "run", "--json", "/tmp/zsb-test-cli.json");
	BAD("--runs needs a value", "missing value", "run", "--runs");
	BAD("unexpected argument 'stray'", "stray argument", "run", "stray");
	BAD("exclude each other", "--module with --no-load", "run", "--module", "a.ko",
	    "--no-load");

	/* exec: its options up to the command, which keeps its own */
	OK("exec --impl folio -- stress-ng", "exec", "--impl", "folio", "--", "stress-ng",
	   "--splice", "2", "--timeout", "10");
	tap_ok(o.exec_impl && !strcmp(o.exec_impl->name, "folio") && !o.exec_full &&
	       !strcmp(o.exec_argv[0], "stress-ng") && !strcmp(o.exec_argv[1], "--splice") &&
	       !strcmp(o.exec_argv[4], "10") && !o.exec_argv[5],
	       "exec: the implementation, and the command with its options");
	OK("exec pv", "exec", "--full", "--stats", "pv", "--help");
	tap_ok(!o.exec_impl && o.exec_full && o.exec_stats && !strcmp(o.exec_argv[0], "pv") &&
	       !strcmp(o.exec_argv[1], "--help") && !o.help,
	       "exec without --: options end at the command; no --impl: none set");
	BAD("no command: zsbench exec [--impl IMPL]", "exec without a command", "exec",
	    "--impl", "copy");
	BAD("no command", "exec -- alone", "exec", "--");
	BAD("unknown implementation 'bogus' (none, copy, zeropage or folio)",
	    "exec --impl: the valid names", "exec", "--impl", "bogus", "--", "true");
	BAD("unknown implementation 'devzero'", "exec --impl devzero: no zsplice one", "exec",
	    "--impl", "devzero", "true");
	BAD("unknown option '--workload'", "exec takes no run option", "exec", "--workload",
	    "fill", "true");
	help_of(ZSB_CMD_EXEC, "  --full ", "--workload", "exec --help: its options");

	/* compare, plot, model */
	OK("compare A B", "compare", "a.json", "b.json");
	tap_ok(o.nfiles == 2 && !strcmp(o.files[0], "a.json") && !strcmp(o.files[1], "b.json"),
	       "compare: two files");
	BAD("needs BASE.json CAND.json", "compare with one file", "compare", "a.json");
	BAD("unexpected argument 'c.json'", "compare with three files", "compare", "a.json",
	    "b.json", "c.json");
	OK("plot", "plot", "r.json", "--output", "r.png");
	tap_ok(o.nfiles == 1 && !strcmp(o.plot, "r.png"), "plot RUN --output PNG");
	BAD("needs RUN.json", "plot without a file", "plot");
	OK("model", "model");
	tap_ok(o.model_instances == 64 && o.model_extra == 1 && o.model_rate > 194269 &&
	       o.model_rate < 194270 && o.lkp_time == 60 && o.lkp_bytes == 1024,
	       "model defaults: LKP's machine");
	OK("model with values", "model", "--instances", "8", "--time", "10", "--bytes", "4096",
	   "--extra", "0", "--folio-order", "4");
	tap_ok(o.model_instances == 8 && o.lkp_time == 10 && o.lkp_bytes == 4096 &&
	       o.model_extra == 0 && o.folio_order == 4, "model options");
	return tap_done();
}
