// SPDX-License-Identifier: GPL-2.0
/*
 * stress-ng --splice against /dev/zsplice: in a child, unshare the mount
 * namespace, make it private, bind-mount /dev/zsplice over /dev/zero and
 * exec stress-ng.  Nothing outside the child's namespace sees the mount.
 * The implementation is chosen with the module parameter (stress-ng opens
 * /dev/zero itself, so the per-file ioctl cannot be used).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include <linux/zsplice.h>

#include "tool.h"
#include "zsbench.h"

int zsb_bind_zsplice(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWNS)) {
		fprintf(stderr, "zsbench: unshare(CLONE_NEWNS): %s\n", strerror(errno));
		return -1;
	}
	if (mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL)) {
		fprintf(stderr, "zsbench: mount --make-rprivate /: %s\n", strerror(errno));
		return -1;
	}
	if (mount(ZSPLICE_ZERO_PATH, "/dev/zero", NULL, MS_BIND, NULL)) {
		fprintf(stderr, "zsbench: bind %s over /dev/zero: %s\n",
			ZSPLICE_ZERO_PATH, strerror(errno));
		return -1;
	}
	return 0;
}

/* "stress-ng: metrc: [pid] splice  ops  real  usr  sys  ops/s(real) ..." */
double zsb_stressng_parse(const char *out, double *ops)
{
	const char *l = out;

	while (l && *l) {
		const char *nl = strchr(l, '\n');
		const char *b = strstr(l, "] splice ");

		if (b && (!nl || b < nl)) {
			double v[5];

			if (sscanf(b + 9, "%lf %lf %lf %lf %lf", &v[0], &v[1], &v[2],
				   &v[3], &v[4]) == 5) {
				if (ops)
					*ops = v[0];
				return v[4];
			}
		}
		l = nl ? nl + 1 : NULL;
	}
	return -1;
}

static void version(struct zsb_results *rs)
{
	char *argv[] = { "stress-ng", "--version", NULL }, *out = NULL;

	if (zsb_tool_run(argv, NULL, NULL, 10, &out) == 0 && out) {
		out[strcspn(out, "\n")] = 0;
		snprintf(rs->stress_ng_version, sizeof(rs->stress_ng_version), "%s", out);
	}
	free(out);
}

int zsb_stressng_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	char saved[32] = "", tbuf[32], nbuf[16];
	int runs = o->runs < 3 ? o->runs : 3, rc = 0;

	if (!zsb_in_path("stress-ng")) {
		fprintf(stderr, "zsbench: stress-ng not found in PATH, skipping --stress-ng\n");
		return -1;
	}
	version(rs);
	zsb_get_module_impl(saved, sizeof(saved));
	snprintf(tbuf, sizeof(tbuf), "%.0fs", o->tool_duration < 1 ? 1 : o->tool_duration);
	for (int ti = 0; ti < o->nthreads; ti++) {
		for (int k = 0; k < o->nimpls; k++) {
			const struct zsb_impl *im = o->impls[k];
			struct zsb_result *r;
			char *argv[] = { "stress-ng", "--splice", nbuf, "--timeout", tbuf,
					 "--metrics-brief", NULL };

			if (im->dev == ZSB_DEV_FULLSPLICE)
				continue;
			if (zsb_impl_param(im)) {
				int e = zsb_set_module_impl(zsb_impl_param(im));

				if (e) {
					fprintf(stderr, "\nzsbench: setting splice_impl=%s: %s\n",
						zsb_impl_param(im), strerror(-e));
					rc = -1;
					continue;
				}
			}
			snprintf(nbuf, sizeof(nbuf), "%d", o->threads[ti]);
			r = zsb_results_add(rs);
			snprintf(r->source, sizeof(r->source), "stress-ng");
			snprintf(r->workload, sizeof(r->workload), "stress-ng-splice");
			snprintf(r->variant, sizeof(r->variant), "stress-ng-splice");
			snprintf(r->impl, sizeof(r->impl), "%s", im->name);
			r->unit = ZSB_UNIT_OPS_PER_SEC;
			snprintf(r->metric, sizeof(r->metric),
				 "stress-ng.splice.%dt.ops_per_sec", o->threads[ti]);
			r->size = 64 * 1024;
			r->threads = o->threads[ti];
			for (int run = 0; run < runs; run++) {
				char *out = NULL;
				int st;
				double v;

				zsb_progress("stress-ng --splice %s  %-9s run %d/%d", nbuf,
					     im->name, run + 1, runs);
				st = zsb_tool_run(argv, zsb_impl_param(im) ? zsb_bind_zsplice : NULL, NULL,
						  o->tool_duration + 20, &out);
				v = out ? zsb_stressng_parse(out, NULL) : -1;
				if (st || v < 0) {
					snprintf(r->error, sizeof(r->error), "exit %d", st);
					if (out) {
						char *nl = strrchr(out, '\n');

						while (nl && nl > out && !nl[1]) {
							*nl = 0;
							nl = strrchr(out, '\n');
						}
						snprintf(r->note, sizeof(r->note), "%s",
							 nl ? nl + 1 : out);
					}
					fprintf(stderr, "\nzsbench: stress-ng (%s) failed: %s\n",
						im->name, r->note);
					free(out);
					rc = -1;
					break;
				}
				r->vals[r->runs++] = v;
				free(out);
			}
			if (!r->runs) {
				r->unsupported = 1;
				r->runs = 1;
			}
			zsb_result_finish(r);
		}
	}
	if (saved[0])
		zsb_set_module_impl(saved);
	return rc;
}
