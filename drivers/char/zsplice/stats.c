// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: statistics and the zero-page self-check, in debugfs.
 *
 *   /sys/kernel/debug/zsplice/<dev>/stats        "name value" per line
 *   /sys/kernel/debug/zsplice/<dev>/stats_reset  write 1: zero <dev>'s counters
 *   /sys/kernel/debug/zsplice/selfcheck          "ok <n>" or "corrupt ..." lines
 *
 * <dev> is zsplice or fullsplice.  A stats file holds the device's read,
 * write and splice_write counters, four counters per splice_read
 * implementation, and the module-wide zero page counters (the pages are
 * shared by both devices, so those lines are the same in both files).
 * Counters are per-CPU and summed when read, without stopping traffic:
 * the reads race with the increments by design and are marked so; a reset
 * racing with traffic may keep a few in-flight increments.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include "internal.h"

/*
 * struct zs_stats is made of u64s only, without padding: sum and reset
 * treat it as an array.  A member of another type, or one added without
 * updating the count here, fails the build.
 */
#define ZS_STATS_WORDS	(sizeof(struct zs_stats) / sizeof(u64))
static_assert(sizeof(struct zs_impl_stats) == 4 * sizeof(u64));
static_assert(ZS_STATS_WORDS == 6 + 4 * ZSPLICE_IMPL_COUNT);
static_assert(sizeof(struct zs_stats) % sizeof(u64) == 0);
static_assert(__alignof__(struct zs_stats) == __alignof__(u64));

static struct dentry *zs_debugfs_root;

int zs_stats_alloc(struct zs_dev *zdev)
{
	zdev->stats = alloc_percpu(struct zs_stats);
	return zdev->stats ? 0 : -ENOMEM;
}

void zs_stats_free(struct zs_dev *zdev)
{
	free_percpu(zdev->stats);
	zdev->stats = NULL;
}

static void zs_stats_sum(struct zs_dev *zdev, struct zs_stats *sum)
{
	u64 *acc = (u64 *)sum;
	unsigned int cpu;
	size_t i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const u64 *c = (const u64 *)per_cpu_ptr(zdev->stats, cpu);

		for (i = 0; i < ZS_STATS_WORDS; i++)
			acc[i] += READ_ONCE(c[i]);
	}
}

static int zs_stats_show(struct seq_file *m, void *unused)
{
	struct zs_dev *zdev = m->private;
	struct zs_stats s;
	int i;

	zs_stats_sum(zdev, &s);
	seq_printf(m, "read_calls %llu\nread_bytes %llu\n"
		   "write_calls %llu\nwrite_bytes %llu\n"
		   "splice_write_calls %llu\nsplice_write_bytes %llu\n",
		   s.read_calls, s.read_bytes, s.write_calls, s.write_bytes,
		   s.splice_write_calls, s.splice_write_bytes);
	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++) {
		const char *name = zs_impl_names[i];

		seq_printf(m, "splice_%s_calls %llu\nsplice_%s_bytes %llu\n"
			   "splice_%s_slots %llu\nsplice_%s_coalesced_bytes %llu\n",
			   name, s.splice[i].calls, name, s.splice[i].bytes,
			   name, s.splice[i].slots, name, s.splice[i].coalesced);
	}
	seq_printf(m, "zeropage_pages %u\nzeropage_pipe_refs %lu\nzeropage_bytes %zu\n"
		   "folio_folios %u\nfolio_pipe_refs %lu\nfolio_bytes %zu\n"
		   "folio_size %zu\nfolio_fallbacks %lu\n",
		   zs_pages_count(ZS_SET_PAGE), zs_pages_pipe_refs(ZS_SET_PAGE),
		   zs_pages_count(ZS_SET_PAGE) * zs_pages_size(ZS_SET_PAGE),
		   zs_pages_count(ZS_SET_FOLIO), zs_pages_pipe_refs(ZS_SET_FOLIO),
		   zs_pages_count(ZS_SET_FOLIO) * zs_pages_size(ZS_SET_FOLIO),
		   zs_pages_size(ZS_SET_FOLIO), zs_pages_fallbacks());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zs_stats);

static ssize_t zs_stats_reset_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct zs_dev *zdev = file->private_data;
	unsigned int cpu, val;
	size_t i;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;
	for_each_possible_cpu(cpu) {
		u64 *c = (u64 *)per_cpu_ptr(zdev->stats, cpu);

		for (i = 0; i < ZS_STATS_WORDS; i++)
			WRITE_ONCE(c[i], 0);
	}
	return count;
}

static const struct file_operations zs_stats_reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= zs_stats_reset_write,
	.llseek	= noop_llseek,
};

static int zs_selfcheck_show(struct seq_file *m, void *unused)
{
	zs_pages_selfcheck(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zs_selfcheck);

/*
 * debugfs is optional: failures here are not errors (the debugfs API
 * returns error pointers that later calls accept), as everywhere else.
 */
void __init zs_debugfs_init(struct zs_dev *devs, int nr)
{
	int i;

	zs_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("selfcheck", 0444, zs_debugfs_root, NULL,
			    &zs_selfcheck_fops);
	for (i = 0; i < nr; i++) {
		struct dentry *dir;

		dir = debugfs_create_dir(devs[i].misc.name, zs_debugfs_root);
		debugfs_create_file("stats", 0444, dir, &devs[i],
				    &zs_stats_fops);
		debugfs_create_file("stats_reset", 0200, dir, &devs[i],
				    &zs_stats_reset_fops);
	}
}

void zs_debugfs_exit(void)
{
	debugfs_remove_recursive(zs_debugfs_root);
	zs_debugfs_root = NULL;
}
