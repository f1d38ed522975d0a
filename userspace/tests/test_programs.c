// SPDX-License-Identifier: GPL-2.0
/* The program workloads: the table, argv, finding a binary, runs of fake programs. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zsbench.h"
#include "tap.h"

static char dir[] = "/tmp/zsb-programs-XXXXXX";

/* an executable script called name in dir; its path in path */
static void script(char *path, size_t len, const char *name, const char *body)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

static void table(void)
{
	const struct zsb_program *p = zsb_program_find("program-pv");
	int bad = 0;

	tap_ok(p && !strcmp(p->name, "pv") && !strcmp(p->bin, "pv"), "program-pv is pv");
	tap_ok(!zsb_program_find("pv") && !zsb_program_find("program-"),
	       "lookup by the variant only");
	for (size_t i = 0; i < zsb_nprograms; i++) {
		const struct zsb_program *q = &zsb_programs[i];
		char want[48];

		snprintf(want, sizeof(want), "program-%s", q->name);
		bad |= strcmp(q->variant, want) || zsb_program_find(q->variant) != q;
		bad |= !q->desc || strlen(q->desc) >= 72 || !q->size || !q->env;
	}
	tap_ok(!bad, "every program: program-NAME, found, described, a size and a variable");
}

static void argv_of(void)
{
	struct zsb_prog_argv a;
	int n = zsb_program_argv(zsb_program_find("program-dd"), "/bin/dd", "/dev/zsplice", &a);
	char longdev[1100];

	tap_ok(n == 4 && !strcmp(a.argv[0], "/bin/dd") && !strcmp(a.argv[1], "if=/dev/zsplice") &&
	       !strcmp(a.argv[2], "bs=64K") && !strcmp(a.argv[3], "status=none") && !a.argv[4],
	       "dd: {dev} inside an argument");
	n = zsb_program_argv(zsb_program_find("program-uutils-cat"), "/u/coreutils", "/dev/zero",
			     &a);
	tap_ok(n == 3 && !strcmp(a.argv[1], "cat") && !strcmp(a.argv[2], "/dev/zero") &&
	       !a.argv[3], "uutils cat: the multi-call binary, cat, the device");
	n = zsb_program_argv(zsb_program_find("program-pv-nosplice"), "pv", "/dev/zero", &a);
	tap_ok(n == 4 && !strcmp(a.argv[2], "--no-splice") && !strcmp(a.argv[3], "/dev/zero"),
	       "pv --no-splice");
	memset(longdev, 'x', sizeof(longdev) - 1);
	longdev[sizeof(longdev) - 1] = 0;
	tap_ok(zsb_program_argv(zsb_program_find("program-pv"), "pv", longdev, &a) == -1,
	       "arguments too long: -1");
}

static void find_bin(void)
{
	const struct zsb_program *uu = zsb_program_find("program-uutils-cat"),
				 *cat = zsb_program_find("program-gnu-cat");
	struct zsb_opts o = { 0 };
	char path[4096], why[256] = "", fake[4096], *oldpath = getenv("PATH");

	oldpath = oldpath ? strdup(oldpath) : NULL;
	setenv("ZSB_UUTILS", "/nonexistent/coreutils", 1);
	tap_ok(zsb_program_bin(uu, &o, path, sizeof(path), why, sizeof(why)) == -1 &&
	       strstr(why, "ZSB_UUTILS=/nonexistent/coreutils") && !strchr(why, '\n'),
	       "a missing $ZSB_UUTILS: skipped, saying which");
	script(fake, sizeof(fake), "coreutils", "exit 0");
	o.uutils = fake;
	tap_ok(!zsb_program_bin(uu, &o, path, sizeof(path), why, sizeof(why)) &&
	       !strcmp(path, fake), "--uutils before $ZSB_UUTILS");
	o.uutils = NULL;
	unsetenv("ZSB_UUTILS");
	setenv("PATH", "/nonexistent", 1);
	tap_ok(zsb_program_bin(uu, &o, path, sizeof(path), why, sizeof(why)) == -1 &&
	       strstr(why, "coreutils not found in PATH"), "not in PATH: skipped, saying so");
	setenv("PATH", dir, 1);
	tap_ok(!zsb_program_bin(uu, &o, path, sizeof(path), why, sizeof(why)) &&
	       !strcmp(path, fake), "found in PATH");
	script(fake, sizeof(fake), "cat", "echo 'cat (uutils coreutils) 0.0.30'");
	tap_ok(zsb_program_bin(cat, &o, path, sizeof(path), why, sizeof(why)) == -1 &&
	       strstr(why, "not GNU's") && strstr(why, "uutils coreutils"),
	       "a cat that is uutils' is not program-gnu-cat");
	script(fake, sizeof(fake), "cat", "echo 'cat (GNU coreutils) 9.1'");
	tap_ok(!zsb_program_bin(cat, &o, path, sizeof(path), why, sizeof(why)),
	       "GNU's cat is");
	if (oldpath)
		setenv("PATH", oldpath, 1);
	free(oldpath);
}

static void runs(void)
{
	char fake[4096], *argv[2] = { fake, NULL };
	struct zsb_prog_run r;
	int e;

	script(fake, sizeof(fake), "writes-1000000",
	       "head -c 1000000 /dev/zero; echo 'fake: wrote it all' >&2");
	e = zsb_program_once(argv, 1000000, &r);
	tap_ok(!e && r.bytes == 1000000 && r.ns > 0 && !r.start_bytes && !r.start_ns,
	       "a program writing N bytes: N arrive; under 2 MiB, no start-up left out");
	e = zsb_program_once(argv, 2000000, &r);
	tap_ok(e == -EPIPE && r.bytes == 1000000 && r.status == 0 &&
	       !strcmp(r.err, "fake: wrote it all"),
	       "one that ends first: -EPIPE, what came, its stderr's last line");
	if (e != -EPIPE || strcmp(r.err, "fake: wrote it all"))
		printf("#   e %d bytes %llu status %d err '%s'\n", e,
		       (unsigned long long)r.bytes, r.status, r.err);
	script(fake, sizeof(fake), "endless", "exec cat /dev/zero");
	e = zsb_program_once(argv, (5 << 20) + 1000, &r);
	tap_ok(!e && r.bytes == (5 << 20) + 1000 &&
	       (r.status == 128 + SIGKILL || r.status == 128 + SIGPIPE),
	       "an endless one: exactly the bytes asked, then stopped");
	tap_ok(r.start_bytes >= ZSB_PROG_START && r.start_bytes < r.bytes && r.start_ns &&
	       r.start_ns < r.ns, "the start-up: the first MiB, and when it had come");
	fake[0] = 0;
	strcat(fake, "/nonexistent");
	e = zsb_program_once(argv, 4096, &r);
	tap_ok(e == -EPIPE && r.bytes == 0 && r.status == 127 && strstr(r.err, "/nonexistent"),
	       "exec fails: 127 and why");
}

static void runner(void)
{
	struct zsb_opts o = { 0 };
	struct zsb_results rs = { 0 };
	char fake[4096];
	int rc;

	/* the last argument is the device */
	script(fake, sizeof(fake), "pv", "for a; do dev=$a; done; exec cat \"$dev\"");
	setenv("ZSB_PV", fake, 1);
	setenv("ZSB_UUTILS", "/nonexistent/coreutils", 1);
	o.impls[o.nimpls++] = zsb_impl_find("devzero");
	o.impls[o.nimpls++] = zsb_impl_find("full-zeropage");
	o.progs[o.nprogs++] = zsb_program_find("program-pv");
	o.progs[o.nprogs++] = zsb_program_find("program-uutils-cat");
	o.runs = 3;
	o.program_bytes = 1 << 20;
	zsb_quiet = 1;
	rc = zsb_program_run(&o, &rs);
	tap_ok(rc == 0 && rs.n == 1, "one record: no fullsplice, uutils skipped");
	if (rs.n == 1) {
		const struct zsb_result *r = &rs.r[0];

		tap_ok(!r->unsupported && r->runs == 3 && r->unit == ZSB_UNIT_GIB_PER_SEC &&
		       r->mean > 0 && !strcmp(r->impl, "devzero") &&
		       !strcmp(r->metric, "zsbench.program-pv.1t.gib_per_sec") &&
		       !strcmp(r->workload, "program") && !strcmp(r->variant, "program-pv"),
		       "the record: GiB/s of 3 runs on devzero");
		tap_near(r->bytes_per_sec_mean / (1 << 30), r->mean, r->mean * 1e-6,
			 "bytes_per_sec_mean is the GiB/s in bytes");
	}
	free(rs.r);
	unsetenv("ZSB_PV");
	unsetenv("ZSB_UUTILS");
}

static void add(struct zsb_results *rs, const char *impl, enum zsb_unit u, double v1,
		double v2)
{
	struct zsb_result *r = zsb_results_add(rs);

	snprintf(r->workload, sizeof(r->workload), "program");
	snprintf(r->variant, sizeof(r->variant), "program-pv");
	snprintf(r->impl, sizeof(r->impl), "%s", impl);
	r->unit = u;
	r->vals[0] = v1;
	r->vals[1] = v2;
	r->runs = 2;
	zsb_result_finish(r);
}

/* devzero's figures v, 3v and folio's 3v, 5v: the row of each, then folio is 2.00 */
static void table_of(enum zsb_unit u, double v, const char *dz, const char *folio,
		     const char *name)
{
	struct zsb_results rs = { 0 };
	char *out = NULL, fig[96], rel[96];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	add(&rs, "devzero", u, v, 3 * v);
	add(&rs, "folio", u, 3 * v, 5 * v);
	zsb_report_programs(f, &rs);
	fclose(f);
	snprintf(fig, sizeof(fig), "\n%-20s %14s %14s\n", "program-pv", dz, folio);
	snprintf(rel, sizeof(rel), "\n%-20s %14s %14s\n", "program-pv", "1.00", "2.00");
	tap_ok(out && strstr(out, fig) && strstr(out, rel) && strstr(out, fig) < strstr(out, rel),
	       name);
	if (!out || !strstr(out, fig) || !strstr(out, rel))
		printf("#   want '%s' and '%s' in:\n%s", fig, rel, out ? out : "");
	free(out);
	free(rs.r);
}

/* GiB/s under TCG: 0.009134 keeps its digits, 0.2 its three decimals */
static void json_digits(void)
{
	struct zsb_results rs = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	add(&rs, "copy", ZSB_UNIT_GIB_PER_SEC, 0.009134, 0.009134);
	rs.duration = 0.2;
	zsb_json_write(f, &rs);
	fclose(f);
	tap_ok(out && strstr(out, "\"mean\":0.009134,") && strstr(out, "\"duration\":0.200,"),
	       "JSON: four significant digits where three decimals lose them");
	free(out);
	free(rs.r);
}

static void report(void)
{
	json_digits();
	table_of(ZSB_UNIT_GIB_PER_SEC, 0.001, "0.002", "0.004",
		 "the programs' table: GiB/s, then multiples of devzero's");
	table_of(ZSB_UNIT_NS_PER_GIB, 1e9, "2,000,000,000", "4,000,000,000",
		 "under --icount: ns per GiB");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	table();
	argv_of();
	find_bin();
	runs();
	runner();
	report();
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	return tap_done();
}
