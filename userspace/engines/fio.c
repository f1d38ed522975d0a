// SPDX-License-Identifier: GPL-2.0
/*
 * fio against the devices: runs every *.fio job file of the fio directory
 * with --output-format=json, the device, runtime and numjobs passed in the
 * environment (ZSB_FILENAME, ZSB_RUNTIME, ZSB_NUMJOBS), and reads back the
 * read IOPS and bandwidth.  The implementation is set with the module
 * parameter, as fio opens the device itself.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json.h>

#include "tool.h"
#include "zsbench.h"

/* a number member of an object, -1 when it is not there */
static int num(struct json_object *o, const char *key, double *v)
{
	struct json_object *m;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !(json_object_is_type(m, json_type_double) || json_object_is_type(m, json_type_int)))
		return -1;
	*v = json_object_get_double(m);
	return 0;
}

/*
 * fio --output-format=json: jobs[0].read.iops and .bw (KiB/s; with
 * group_reporting the one job is the group).  fio may print warnings
 * before the document, so it starts at the first line that opens one.
 */
int zsb_fio_parse(const char *out, double *iops, double *bw_kib)
{
	const char *p = out;
	struct json_object *d, *jobs, *read;
	int rc = -1;

	while (p && *p != '{') {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return -1;
	d = json_tokener_parse(p);
	if (!d)
		return -1;
	if (json_object_object_get_ex(d, "jobs", &jobs) &&
	    json_object_is_type(jobs, json_type_array) && json_object_array_length(jobs) > 0 &&
	    json_object_object_get_ex(json_object_array_get_idx(jobs, 0), "read", &read) &&
	    !num(read, "iops", iops) && !num(read, "bw", bw_kib))
		rc = 0;
	json_object_put(d);
	return rc;
}

static int find_dir(const struct zsb_opts *o, char *dir, size_t len)
{
	char exe[PATH_MAX], *d;
	ssize_t n;
	const char *cands[4];
	int nc = 0;

	if (o->fio_dir) {
		snprintf(dir, len, "%s", o->fio_dir);
		return access(dir, R_OK) ? -1 : 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		d = dirname(exe);
		cands[nc++] = d;
	}
	cands[nc++] = "/usr/local/share/zsbench";
	cands[nc++] = "/usr/share/zsbench";
	cands[nc++] = ".";
	for (int i = 0; i < nc; i++) {
		snprintf(dir, len, "%s/fio", cands[i]);
		if (access(dir, R_OK) == 0)
			return 0;
		if (i == 0) {
			snprintf(dir, len, "%s/../share/zsbench/fio", cands[i]);
			if (access(dir, R_OK) == 0)
				return 0;
		}
	}
	return -1;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct zsb_result *new_rec(struct zsb_results *rs, const char *job,
				  const struct zsb_impl *im, int threads, enum zsb_unit unit)
{
	struct zsb_result *r = zsb_results_add(rs);

	snprintf(r->source, sizeof(r->source), "fio");
	snprintf(r->workload, sizeof(r->workload), "fio");
	snprintf(r->variant, sizeof(r->variant), "fio-%s", job);
	snprintf(r->impl, sizeof(r->impl), "%s", im->name);
	r->unit = unit;
	snprintf(r->metric, sizeof(r->metric), "fio.%s.%dt.%s", job, threads,
		 zsb_unit_name(unit));
	r->threads = threads;
	return r;
}

int zsb_fio_run(const struct zsb_opts *o, struct zsb_results *rs)
{
	char dir[PATH_MAX], *jobs[32];
	int njobs = 0, rc = 0, runs = o->runs < 3 ? o->runs : 3;
	DIR *d;
	struct dirent *e;

	if (!zsb_in_path("fio")) {
		fprintf(stderr, "zsbench: fio not found in PATH, skipping fio\n");
		return -1;
	}
	if (find_dir(o, dir, sizeof(dir))) {
		fprintf(stderr, "zsbench: no fio job directory found (use --fio-dir DIR)\n");
		return -1;
	}
	d = opendir(dir);
	while (d && (e = readdir(d)) && njobs < 32) {
		size_t l = strlen(e->d_name);

		if (l > 4 && !strcmp(e->d_name + l - 4, ".fio"))
			jobs[njobs++] = strdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (!njobs) {
		fprintf(stderr, "zsbench: no *.fio job files in %s\n", dir);
		return -1;
	}
	qsort(jobs, (size_t)njobs, sizeof(jobs[0]), cmpstr);
	{
		char *argv[] = { "fio", "--version", NULL }, *out = NULL;

		if (zsb_tool_run(argv, NULL, NULL, 10, &out) == 0 && out) {
			out[strcspn(out, "\n")] = 0;
			snprintf(rs->fio_version, sizeof(rs->fio_version), "%s", out);
		}
		free(out);
	}
	for (int jb = 0; jb < njobs; jb++) {
		char path[PATH_MAX + 64], job[64], rt[32], nj[16];

		snprintf(path, sizeof(path), "%s/%s", dir, jobs[jb]);
		snprintf(job, sizeof(job), "%.*s", (int)strlen(jobs[jb]) - 4, jobs[jb]);
		snprintf(rt, sizeof(rt), "%.0f", o->tool_duration < 1 ? 1 : o->tool_duration);
		for (int ti = 0; ti < o->nthreads && !zsb_stop_signal(); ti++) {
			for (int k = 0; k < o->nimpls && !zsb_stop_signal(); k++) {
				const struct zsb_impl *im = o->impls[k];
				char *argv[] = { "fio", "--output-format=json", path, NULL };
				struct zsb_result *ri, *rb;

				if (zsb_impl_switch(im)) {
					rc = -1;
					continue;
				}
				snprintf(nj, sizeof(nj), "%d", o->threads[ti]);
				setenv("ZSB_FILENAME", zsb_impl_path(im), 1);
				setenv("ZSB_RUNTIME", rt, 1);
				setenv("ZSB_NUMJOBS", nj, 1);
				ri = new_rec(rs, job, im, o->threads[ti], ZSB_UNIT_READ_IOPS);
				rb = new_rec(rs, job, im, o->threads[ti], ZSB_UNIT_READ_BW_MBPS);
				for (int run = 0; run < runs && !zsb_stop_signal(); run++) {
					char *out = NULL;
					double iops = 0, bw = 0;
					int st;

					zsb_progress("fio %-12s numjobs=%s %-13s run %d/%d", job, nj,
						     im->name, run + 1, runs);
					st = zsb_tool_run(argv, NULL, NULL, o->tool_duration + 20, &out);
					if (st || !out || zsb_fio_parse(out, &iops, &bw)) {
						snprintf(ri->error, sizeof(ri->error), "exit %d", st);
						snprintf(rb->error, sizeof(rb->error), "exit %d", st);
						fprintf(stderr, "\nzsbench: fio %s on %s failed (exit %d)\n",
							job, im->name, st);
						free(out);
						rc = -1;
						break;
					}
					ri->vals[ri->runs++] = iops;
					rb->vals[rb->runs++] = bw / 1024.0;
					ri->bytes_per_sec_mean += bw * 1024.0 / runs;
					rb->bytes_per_sec_mean += bw * 1024.0 / runs;
					free(out);
				}
				if (!ri->runs) {
					ri->unsupported = rb->unsupported = 1;
					ri->runs = rb->runs = 1;
				}
				zsb_result_finish(ri);
				zsb_result_finish(rb);
			}
		}
		free(jobs[jb]);
	}
	zsb_impl_restore();
	return rc;
}
