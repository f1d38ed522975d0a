/* SPDX-License-Identifier: GPL-2.0 */
/* Reading the document stress-ng writes with --yaml FILE (stressng-yaml.c). */
#ifndef ZSB_STRESSNG_YAML_H
#define ZSB_STRESSNG_YAML_H
#include <stddef.h>

/* one stressor's figures, from its entry in the "metrics:" list */
struct zsb_sng_metrics {
	double ops;	/* bogo-ops: the instances' operations, summed */
	double rate;	/* bogo-ops-per-second-real-time */
};

/*
 * The figures of @stressor in the len bytes at doc, a whole --yaml
 * document.  0, or -1 with why (one line, no newline) in err: a document
 * that is empty, not stress-ng's shape, truncated (no "..." end line),
 * has no entry for the stressor or two, or a figure that is absent or not
 * a number.  Never a figure from a document it cannot read whole.
 */
int zsb_stressng_yaml(const char *doc, size_t len, const char *stressor,
		      struct zsb_sng_metrics *m, char *err, size_t errlen);

/* the same on the file at path; err says "PATH: ..." when it cannot be read */
int zsb_stressng_yaml_file(const char *path, const char *stressor,
			   struct zsb_sng_metrics *m, char *err, size_t errlen);
#endif
