// SPDX-License-Identifier: GPL-2.0
/* zsbench: main program. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <linux/zsplice.h>

#include "zsbench.h"

static void list(void)
{
	char b[16];

	printf("implementations (device, splice implementation):\n");
	for (size_t i = 0; i < zsb_nimpls; i++)
		printf("  %-14s %-16s %s%s\n", zsb_impls[i].name, zsb_impl_path(&zsb_impls[i]),
		       zsb_impl_param(&zsb_impls[i]) ? zsb_impl_param(&zsb_impls[i]) : "(kernel's own)",
		       zsb_impls[i].default_on ? "  [default]" : "");
	printf("workloads (variant, workload, size):\n");
	for (size_t i = 0; i < zsb_nworkloads; i++) {
		const struct zsb_workload *w = &zsb_workloads[i];

		printf("  %-20s %-13s %-5s%s%s%s\n      %s\n", w->variant, w->name,
		       zsb_size_str(w->size, b, sizeof(b)),
		       w->flags & WL_FULL_OK ? "  [fullsplice too]" : "",
		       w->flags & WL_SINGLE ? "  [1 thread]" : "",
		       w->default_on ? "  [default]" : "", w->desc);
	}
}

static int finish(const struct zsb_opts *o, struct zsb_results *rs)
{
	int rc = 0;

	zsb_progress_done();
	if (o->format_lkp) {
		zsb_format_lkp(stdout, rs);
	} else {
		zsb_report(stdout, rs, o->baseline);
		zsb_report_floor(stdout, rs, o->baseline);
		zsb_icount_report(stdout, rs);
	}
	if (o->json) {
		if (zsb_json_write_file(o->json, rs)) {
			perror(o->json);
			rc = 1;
		} else {
			fprintf(stderr, "zsbench: wrote %s (%d records)\n", o->json, rs->n);
		}
	}
	if (o->plot && zsb_plot(rs, o->plot))
		rc = 1;
	return rc;
}

int main(int argc, char **argv)
{
	struct zsb_opts o;
	struct zsb_results rs = { 0 };
	struct utsname u;
	char err[256];
	int need_module = 0, rc = 0;

	if (zsb_parse_opts(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "zsbench: %s\n", err);
		return 2;
	}
	if (o.help) {
		zsb_usage(stdout);
		return 0;
	}
	if (o.version) {
		printf("zsbench %s (JSON schema %d)\n", ZSB_VERSION, ZSB_JSON_SCHEMA);
		return 0;
	}
	if (o.list) {
		list();
		return 0;
	}
	if (o.compare[0]) {
		struct zsb_results base = { 0 };

		for (int i = 0; i < 2; i++)
			if (zsb_json_read_file(o.compare[i], i ? &rs : &base)) {
				fprintf(stderr, "zsbench: cannot read %s: %m\n", o.compare[i]);
				return 1;
			}
		rc = zsb_compare(stdout, &base, &rs, o.compare[0], o.compare[1]) ? 1 : 0;
		free(base.r);
		free(rs.r);
		return rc;
	}
	if (o.model) {
		zsb_model_print(stdout, &o);
		return 0;
	}
	zsb_quiet = o.quiet;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (o.replot) {
		if (zsb_json_read_file(o.replot, &rs)) {
			fprintf(stderr, "zsbench: cannot read %s: %m\n", o.replot);
			return 1;
		}
		return finish(&o, &rs);
	}
	uname(&u);
	snprintf(rs.kernel, sizeof(rs.kernel), "%s", u.release);
	snprintf(rs.kernel_version, sizeof(rs.kernel_version), "%s", u.version);
	snprintf(rs.baseline, sizeof(rs.baseline), "%s", o.baseline);
	rs.duration = o.duration;
	for (int k = 0; k < o.nimpls; k++)
		need_module |= o.impls[k]->dev != ZSB_DEV_DEVZERO;
	if (need_module && zsb_module_setup(&o))
		return 1;
	zsb_module_version(rs.module_version, sizeof(rs.module_version));
	if (!o.no_workloads)
		zsb_run(&o, &rs);
	if ((o.stress_ng || o.lkp_splice) && zsb_stressng_run(&o, &rs))
		rc = 1;
	if (o.fio && zsb_fio_run(&o, &rs))
		rc = 1;
	if (need_module)
		zsb_module_teardown();
	if (finish(&o, &rs))
		rc = 1;
	free(rs.r);
	return rc;
}
