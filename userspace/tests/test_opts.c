// SPDX-License-Identifier: GPL-2.0
/* Option parsing and its errors. */
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

static void bad(char **argv, int argc, const char *want, const char *name)
{
	int rc = parse(argc, argv);

	tap_ok(rc == -1 && strstr(err, want) && !strchr(err, '\n'), name);
	if (rc != -1 || !strstr(err, want))
		printf("#   rc %d err '%s', want '%s'\n", rc, err, want);
}

int main(void)
{
	char *a0[] = { "zsbench", NULL };
	char *a1[] = { "zsbench", "--impl", "copy,zeropage", "--workload", "splice-64K,fill",
		       "--threads", "1,4", "--runs", "3", "--duration", "0.5",
		       "--baseline", "zeropage", "--json", "x.json", "--plot", "x.png", NULL };
	char *a2[] = { "zsbench", "--workload", "splice", NULL };
	char *a3[] = { "zsbench", "--quick", NULL };
	char *a4[] = { "zsbench", "--all", "--tools-only", "--no-load", NULL };
	char *b1[] = { "zsbench", "--nope", NULL };
	char *b2[] = { "zsbench", "--impl", "bogus", NULL };
	char *b3[] = { "zsbench", "--runs", "0", NULL };
	char *b4[] = { "zsbench", "--runs", "2.5", NULL };
	char *b5[] = { "zsbench", "--duration", "-1", NULL };
	char *b6[] = { "zsbench", "--threads", "x", NULL };
	char *b7[] = { "zsbench", "--workload", "dance", NULL };
	char *b8[] = { "zsbench", "--runs", NULL };
	char *b9[] = { "zsbench", "stray", NULL };
	char *b10[] = { "zsbench", "--module", "a.ko", "--no-load", NULL };
	char *b11[] = { "zsbench", "--tools-only", NULL };
	char *b12[] = { "zsbench", "--baseline", "zero", NULL };
	char *b13[] = { "zsbench", "--fill-pipe", "100", NULL };
	char *b14[] = { "zsbench", "--impl", ",", NULL };
	char *b15[] = { "zsbench", "--lkp-bytes", "512", NULL };
	char *a5[] = { "zsbench", "--workload", "lkp-splice", "--lkp-time", "10",
		       "--lkp-instances", "2", NULL };
	char *a6[] = { "zsbench", "--model", NULL };
	int nimpl_default = 0, nwl_default = 0;

	for (size_t i = 0; i < zsb_nimpls; i++)
		nimpl_default += zsb_impls[i].default_on;
	for (size_t i = 0; i < zsb_nworkloads; i++)
		nwl_default += zsb_workloads[i].default_on;

	tap_ok(parse(ARGC(a5), a5) == 0 && o.lkp_splice && o.no_workloads &&
	       o.lkp_time == 10 && o.lkp_instances == 2 && o.lkp_bytes == 1024,
	       "--workload lkp-splice alone: only lkp-splice, 1 KiB default");
	tap_ok(parse(ARGC(a6), a6) == 0 && o.model && o.model_instances == 64 &&
	       o.model_extra == 1 && o.model_rate > 194269 && o.model_rate < 194270,
	       "--model defaults: LKP's machine");
	bad(b15, ARGC(b15), "lkp-bytes", "--lkp-bytes under 1 KiB");
	/* one source of truth: the option table, the uapi names, the manual */
	{
		static const char *const knames[] = ZSPLICE_IMPL_NAMES;
		FILE *man = fopen("../Documentation/zsbench.1", "r");
		char *text = NULL, *u = NULL, pat[96], miss[512] = "";
		size_t len = 0, ulen = 0;
		int bad = 0, descs = 1;
		FILE *uf;

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
		uf = open_memstream(&u, &ulen);
		zsb_usage(uf);
		fclose(uf);
		bad = 0;
		for (size_t i = 0; i < zsb_noptdefs; i++) {
			snprintf(pat, sizeof(pat), "  --%s", zsb_optdefs[i].name);
			bad |= !strstr(u, pat);
		}
		tap_ok(!bad, "the usage text lists every option of the table");
		free(u);
		if (man) {
			getdelim(&text, &len, 0, man);
			fclose(man);
			for (size_t i = 0; i < zsb_noptdefs; i++) {
				char esc[64];
				size_t k = 0;

				for (const char *c = zsb_optdefs[i].name; *c && k < sizeof(esc) - 3; c++) {
					if (*c == '-')
						esc[k++] = '\\';
					esc[k++] = *c;
				}
				esc[k] = 0;
				snprintf(pat, sizeof(pat), "\\-\\-%s", esc);
				if (!strstr(text, pat) && strlen(miss) + strlen(pat) + 2 < sizeof(miss)) {
					strcat(miss, " ");
					strcat(miss, zsb_optdefs[i].name);
				}
			}
			tap_ok(!miss[0], "zsbench.1 documents every option");
			if (miss[0])
				printf("#   missing:%s\n", miss);
			free(text);
		} else {
			printf("ok %d - zsbench.1 documents every option # SKIP no ../Documentation/zsbench.1\n",
			       ++tap_n);
		}
	}
	tap_ok(parse(ARGC(a0), a0) == 0, "no options parse");
	tap_ok(o.runs == 5 && o.duration == 0.2 && !strcmp(o.baseline, "copy"),
	       "defaults: 5 runs, 0.2 s, baseline copy");
	tap_ok(o.nimpls == nimpl_default && o.nwls == nwl_default, "default selections");
	tap_ok(o.threads[0] == 1 && (zsb_nproc() == 1 ? o.nthreads == 1 :
	       o.nthreads == 2 && o.threads[1] == zsb_nproc()), "default threads 1,nproc");
	tap_ok(o.fill_pipe == 65536 && o.folio_order == 0,
	       "default fill pipe; folio order: the module's own");

	tap_ok(parse(ARGC(a1), a1) == 0, "full option set parses");
	tap_ok(o.nimpls == 2 && !strcmp(o.impls[0]->name, "copy") &&
	       !strcmp(o.impls[1]->name, "zeropage"), "--impl list");
	tap_ok(o.nwls == 2 && !strcmp(o.wls[0]->variant, "splice-64K") &&
	       !strcmp(o.wls[1]->variant, "fill"), "--workload variants");
	tap_ok(o.nthreads == 2 && o.threads[0] == 1 && o.threads[1] == 4, "--threads list");
	tap_ok(o.runs == 3 && o.duration == 0.5, "--runs and --duration");
	tap_ok(!strcmp(o.baseline, "zeropage") && !strcmp(o.json, "x.json") &&
	       !strcmp(o.plot, "x.png"), "--baseline --json --plot");
	tap_ok(parse(ARGC(a2), a2) == 0 && o.nwls == 4, "--workload splice selects 4 sizes");
	tap_ok(parse(ARGC(a3), a3) == 0 && o.runs == 2 && o.duration == 0.05 &&
	       o.nthreads == 1 && o.threads[0] == 1, "--quick");
	tap_ok(parse(ARGC(a4), a4) == 0 && o.stress_ng && o.fio && o.no_workloads &&
	       o.no_load, "--all --tools-only --no-load");

	bad(b1, ARGC(b1), "unknown option '--nope'", "unknown option");
	bad(b2, ARGC(b2), "unknown implementation 'bogus'", "unknown implementation");
	bad(b3, ARGC(b3), "--runs", "runs 0 rejected");
	bad(b4, ARGC(b4), "--runs", "runs 2.5 rejected");
	bad(b5, ARGC(b5), "--duration", "negative duration rejected");
	bad(b6, ARGC(b6), "bad thread count 'x'", "bad thread count");
	bad(b7, ARGC(b7), "unknown workload 'dance'", "unknown workload");
	bad(b8, ARGC(b8), "needs a value", "missing value");
	bad(b9, ARGC(b9), "unexpected argument 'stray'", "stray argument");
	bad(b10, ARGC(b10), "exclude each other", "--module with --no-load");
	bad(b11, ARGC(b11), "--tools-only needs", "--tools-only alone");
	bad(b12, ARGC(b12), "unknown baseline", "unknown baseline");
	bad(b13, ARGC(b13), "--fill-pipe", "fill pipe too small");
	bad(b14, ARGC(b14), "empty list", "empty list");
	/* --icount: one thread, 0.02 guest s per repetition, its own defaults */
	{
		char *i1[] = { "zsbench", "--icount", NULL };
		char *i2[] = { "zsbench", "--icount", "--threads", "2", NULL };
		char *i3[] = { "zsbench", "--icount", "--workload", "fill", NULL };
		char *i4[] = { "zsbench", "--icount", "--stress-ng", NULL };
		char *i5[] = { "zsbench", "--icount", "--duration", "0.5", "--workload",
			       "splice-64K", NULL };

		tap_ok(parse(ARGC(i1), i1) == 0 && o.icount && o.nthreads == 1 &&
		       o.threads[0] == 1 && o.duration == 0.02 && o.nwls == 6 &&
		       !strcmp(o.wls[2]->variant, "splice-64K") && o.nimpls == 4 &&
		       !strcmp(o.impls[0]->name, "devzero") && !strcmp(o.impls[3]->name, "folio"),
		       "--icount defaults: 1 thread, 0.02 s, 6 workloads, 4 implementations");
		tap_ok(parse(ARGC(i5), i5) == 0 && o.duration == 0.5 && o.nwls == 1,
		       "--icount keeps --duration and --workload");
		bad(i2, ARGC(i2), "one thread", "--icount refuses a second thread");
		tap_ok(parse(ARGC(i3), i3) == 0 && o.nwls == 1 && o.wls[0]->eng == &zsb_eng_fill,
		       "--icount runs any workload: the core owns its loop");
		bad(i4, ARGC(i4), "own loops only", "--icount refuses the external tools");
	}
	return tap_done();
}
