/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP output for the host unit tests. */
#ifndef ZSB_TAP_H
#define ZSB_TAP_H
#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_fail;

static inline void tap_ok(int cond, const char *name)
{
	tap_n++;
	if (!cond)
		tap_fail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, name);
}

static inline void tap_near(double got, double want, double eps, const char *name)
{
	tap_ok(fabs(got - want) <= eps, name);
	if (fabs(got - want) > eps)
		printf("#   got %.9g, want %.9g\n", got, want);
}

static inline void tap_str(const char *got, const char *want, const char *name)
{
	tap_ok(!strcmp(got, want), name);
	if (strcmp(got, want))
		printf("#   got  '%s'\n#   want '%s'\n", got, want);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}
#endif
