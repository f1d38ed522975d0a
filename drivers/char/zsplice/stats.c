// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: statistics, in sysfs beside each device.
 *
 * /sys/class/misc/<dev>/stats (0444) prints one "name value" pair per
 * line: the device's read, write and splice_write counters, four counters
 * per splice_read implementation, and the module-wide page counters (the
 * zero pages are shared by both devices, so those lines are the same in
 * both files).  Writing 1 to /sys/class/misc/<dev>/stats_reset (0200)
 * zeroes that device's counters.  Counters are per-CPU and summed when
 * read; a reset racing with traffic may keep a few in-flight increments.
 */
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/kstrtox.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <zsplice/zsplice.h>

int zs_stats_init(struct zs_dev *zdev)
{
	zdev->stats = alloc_percpu(struct zs_stats);
	return zdev->stats ? 0 : -ENOMEM;
}

void zs_stats_exit(struct zs_dev *zdev)
{
	free_percpu(zdev->stats);
	zdev->stats = NULL;
}

static struct zs_dev *zs_stats_dev(struct device *dev)
{
	struct miscdevice *misc = dev_get_drvdata(dev);

	return container_of(misc, struct zs_dev, misc);
}

/* Sum the per-CPU counters.  struct zs_stats is made of u64s only. */
static void zs_stats_sum(struct zs_dev *zdev, struct zs_stats *sum)
{
	const size_t n = sizeof(*sum) / sizeof(u64);
	u64 *acc = (u64 *)sum;
	unsigned int cpu;
	size_t i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const u64 *c = (const u64 *)per_cpu_ptr(zdev->stats, cpu);

		for (i = 0; i < n; i++)
			acc[i] += c[i];
	}
}

static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct zs_stats s;
	int len = 0, i;

	zs_stats_sum(zs_stats_dev(dev), &s);
	len += sysfs_emit_at(buf, len,
			     "read_calls %llu\nread_bytes %llu\n"
			     "write_calls %llu\nwrite_bytes %llu\n"
			     "splice_write_calls %llu\nsplice_write_bytes %llu\n",
			     s.read_calls, s.read_bytes,
			     s.write_calls, s.write_bytes,
			     s.splice_write_calls, s.splice_write_bytes);
	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++) {
		const char *name = zs_impl_names[i];

		len += sysfs_emit_at(buf, len,
				     "splice_%s_calls %llu\nsplice_%s_bytes %llu\n"
				     "splice_%s_slots %llu\nsplice_%s_coalesced_bytes %llu\n",
				     name, s.splice[i].calls, name, s.splice[i].bytes,
				     name, s.splice[i].slots,
				     name, s.splice[i].coalesced);
	}
	len += sysfs_emit_at(buf, len,
			     "zeropage_pages %u\nzeropage_pipe_refs %lu\n"
			     "folio_folios %u\nfolio_pipe_refs %lu\nfolio_size %zu\n",
			     zs_pages_count(), zs_pages_pipe_refs(ZS_SET_PAGE),
			     zs_pages_count(), zs_pages_pipe_refs(ZS_SET_FOLIO),
			     zs_pages_size(ZS_SET_FOLIO));
	return len;
}
static DEVICE_ATTR_RO(stats);

static ssize_t stats_reset_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct zs_dev *zdev = zs_stats_dev(dev);
	unsigned int cpu, val;
	int ret;

	ret = kstrtouint(buf, 10, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(zdev->stats, cpu), 0, sizeof(struct zs_stats));
	return count;
}
static DEVICE_ATTR_WO(stats_reset);

static struct attribute *zs_stats_attrs[] = {
	&dev_attr_stats.attr,
	&dev_attr_stats_reset.attr,
	NULL
};

static const struct attribute_group zs_stats_group = {
	.attrs = zs_stats_attrs,
};

const struct attribute_group *zs_stats_groups[] = {
	&zs_stats_group,
	NULL
};
