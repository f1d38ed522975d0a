// SPDX-License-Identifier: GPL-2.0
/* zsbench: run, exec, compare, plot, model, list. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "zsbench.h"

static int cmd_list(void)
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
	printf("programs (into a pipe zsbench drains; not on fullsplice):\n");
	for (size_t i = 0; i < zsb_nprograms; i++)
		printf("  %-20s %s\n", zsb_programs[i].variant, zsb_programs[i].desc);
	printf("tools:\n"
	       "  stress-ng            stress-ng --splice N --metrics-brief per implementation\n"
	       "  lkp-splice           LKP's stress-ng V0.17.00 splice run, with the model\n"
	       "  fio                  the fio job files (io_uring, sequential read)\n"
	       "groups:\n"
	       "  default              the workloads marked default\n"
	       "  program              every program\n"
	       "  all                  default, stress-ng, fio and the programs\n");
	return 0;
}

/* the tables of a run, its JSON and its plot */
static int output(const struct zsb_opts *o, struct zsb_results *rs)
{
	int rc = 0;

	zsb_progress_done();
	if (o->format_lkp) {
		zsb_format_lkp(stdout, rs);
	} else {
		zsb_report(stdout, rs, o->baseline);
		zsb_report_floor(stdout, rs, o->baseline);
		zsb_icount_report(stdout, rs);
		zsb_report_programs(stdout, rs);
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

static int read_json(const char *path, struct zsb_results *rs)
{
	char err[256];

	if (!zsb_json_read_file(path, rs, err, sizeof(err)))
		return 0;
	fprintf(stderr, "zsbench: %s: %s\n", path, err);
	return -1;
}

static int cmd_compare(const struct zsb_opts *o)
{
	struct zsb_results base = { 0 }, cand = { 0 };
	int rc = 1;

	if (!read_json(o->files[0], &base) && !read_json(o->files[1], &cand))
		rc = zsb_compare(stdout, &base, &cand, o->files[0], o->files[1]) ? 1 : 0;
	free(base.r);
	free(cand.r);
	return rc;
}

static int cmd_plot(const struct zsb_opts *o)
{
	struct zsb_results rs = { 0 };
	int rc = 1;

	if (!read_json(o->files[0], &rs))
		rc = output(o, &rs);
	free(rs.r);
	return rc;
}

static int cmd_run(const struct zsb_opts *o)
{
	struct zsb_results rs = { 0 };
	struct utsname u;
	int need_module = 0, rc = 0;

	zsb_quiet = o->quiet;
	zsb_signals_install();
	uname(&u);
	snprintf(rs.kernel, sizeof(rs.kernel), "%s", u.release);
	snprintf(rs.kernel_version, sizeof(rs.kernel_version), "%s", u.version);
	snprintf(rs.baseline, sizeof(rs.baseline), "%s", o->baseline);
	rs.duration = o->duration;
	for (int k = 0; k < o->nimpls; k++)
		need_module |= o->impls[k]->dev != ZSB_DEV_DEVZERO;
	if (need_module && zsb_module_setup(o))
		return 1;
	zsb_module_version(rs.module_version, sizeof(rs.module_version));
	if (!o->no_workloads)
		zsb_run(o, &rs);
	if ((o->stress_ng || o->lkp_splice) && !zsb_stop_signal() && zsb_stressng_run(o, &rs))
		rc = 1;
	if (o->fio && !zsb_stop_signal() && zsb_fio_run(o, &rs))
		rc = 1;
	if (o->nprogs && !zsb_stop_signal() && zsb_program_run(o, &rs))
		rc = 1;
	zsb_impl_restore();
	if (need_module)
		zsb_module_teardown();
	if (zsb_stop_signal()) {
		zsb_progress_done();
		fprintf(stderr, "zsbench: stopped by %s\n", strsignal(zsb_stop_signal()));
		free(rs.r);
		return 128 + zsb_stop_signal();
	}
	if (output(o, &rs))
		rc = 1;
	free(rs.r);
	return rc;
}

int main(int argc, char **argv)
{
	struct zsb_opts o;
	char err[256];

	if (zsb_parse_opts(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "zsbench%s%s: %s\n", o.cmd >= 0 ? " " : "",
			o.cmd >= 0 ? zsb_cmds[o.cmd].name : "", err);
		return 2;
	}
	if (o.help) {
		zsb_usage(stdout, o.cmd);
		return 0;
	}
	if (o.version) {
		printf("zsbench %s (JSON schema %d)\n", ZSB_VERSION, ZSB_JSON_SCHEMA);
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	switch (o.cmd) {
	case ZSB_CMD_RUN:
		return cmd_run(&o);
	case ZSB_CMD_EXEC:
		return zsb_cmd_exec(&o);
	case ZSB_CMD_COMPARE:
		return cmd_compare(&o);
	case ZSB_CMD_PLOT:
		return cmd_plot(&o);
	case ZSB_CMD_MODEL:
		zsb_model_print(stdout, &o);
		return 0;
	default:
		return cmd_list();
	}
}
