// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the module's statistics: "name value" lines in
 * /sys/kernel/debug/zsplice/<dev>/stats.
 */
#include <stdio.h>
#include <string.h>

#include "zsbench.h"

#define STATS_PATH	"/sys/kernel/debug/zsplice/%s/stats"

/* value of @name in @text ("name value" lines); 0, or -1 if absent */
int zsb_stat_parse(const char *text, const char *name, unsigned long long *val)
{
	size_t n = strlen(name);
	const char *l = text;

	while (l && *l) {
		if (!strncmp(l, name, n) && (l[n] == ' ' || l[n] == '\t'))
			return sscanf(l + n, "%llu", val) == 1 ? 0 : -1;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return -1;
}

int zsb_stats_read(const char *dev, char *buf, size_t len)
{
	char path[128];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), STATS_PATH, dev);
	f = fopen(path, "re");
	if (!f) {
		buf[0] = 0;
		return -1;
	}
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return 0;
}

int zsb_stat(const char *dev, const char *name, unsigned long long *val)
{
	char buf[8192];

	if (zsb_stats_read(dev, buf, sizeof(buf)))
		return -1;
	return zsb_stat_parse(buf, name, val);
}
