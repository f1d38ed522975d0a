// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: /dev/zsplice (a /dev/zero) and /dev/fullsplice (a /dev/full)
 * whose splice_read implementation is chosen at runtime, to compare the
 * splice paths of drivers/char/mem.c on one running kernel.
 *
 * This file: module parameters, the two misc devices and every
 * file_operation except the splice ones (splice.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include "internal.h"
#include "compat.h"

#ifndef ZSPLICE_VERSION
#define ZSPLICE_VERSION "0.1"
#endif

const char * const zs_impl_names[ZSPLICE_IMPL_COUNT] = ZSPLICE_IMPL_NAMES;

static int zs_splice_impl = ZSPLICE_IMPL_FOLIO;

static int zs_param_impl_set(const char *val, const struct kernel_param *kp)
{
	int impl = sysfs_match_string(zs_impl_names, val);

	if (impl < 0)
		return -EINVAL;
	WRITE_ONCE(*(int *)kp->arg, impl);
	return 0;
}

static int zs_param_impl_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", zs_impl_names[READ_ONCE(*(int *)kp->arg)]);
}

static const struct kernel_param_ops zs_param_impl_ops = {
	.set = zs_param_impl_set,
	.get = zs_param_impl_get,
};

module_param_cb(splice_impl, &zs_param_impl_ops, &zs_splice_impl, 0644);
MODULE_PARM_DESC(splice_impl,
		 "splice_read implementation: none, copy, zeropage or folio (default: folio)");

static unsigned int zs_folio_order = ZS_FOLIO_ORDER_MAX;

static int zs_param_order_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, ZS_FOLIO_ORDER_MIN,
				     ZS_FOLIO_ORDER_MAX);
}

static const struct kernel_param_ops zs_param_order_ops = {
	.set = zs_param_order_set,
	.get = param_get_uint,
};

module_param_cb(folio_order, &zs_param_order_ops, &zs_folio_order, 0444);
MODULE_PARM_DESC(folio_order,
		 "order of the zero folios of splice_impl=folio, 1..9 (default: 9, 2 MiB); one folio per CPU that splices, on its node, freed when the CPU goes offline");

/* The implementation @zf uses now: its own override or the parameter. */
int zs_file_impl(const struct zs_file *zf)
{
	int impl = READ_ONCE(zf->impl);

	return impl == ZS_IMPL_FOLLOW ? READ_ONCE(zs_splice_impl) : impl;
}

static struct zs_dev *zs_file_dev(struct file *file)
{
	return ((struct zs_file *)file->private_data)->dev;
}

static int zs_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct zs_file *zf;

	zf = kmalloc(sizeof(*zf), GFP_KERNEL);
	if (!zf)
		return -ENOMEM;
	zf->dev = container_of(misc, struct zs_dev, misc);
	zf->impl = ZS_IMPL_FOLLOW;
	file->private_data = zf;
	/* As mem.c: /dev/zero's reads never block, /dev/full's say nothing. */
	file->f_mode |= zf->dev->fmode;
	return 0;
}

static int zs_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/*
 * Zero the iterator a page at a time.  Like /dev/zero: a signal ends the
 * read with the partial count, and between pages the task reschedules, or
 * under IOCB_NOWAIT returns what it has rather than sleep.
 */
static ssize_t zs_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct zs_dev *zdev = zs_file_dev(iocb->ki_filp);
	ssize_t done = 0, err = 0;

	this_cpu_inc(zdev->stats->read_calls);
	while (iov_iter_count(to)) {
		size_t n = iov_iter_zero(min_t(size_t, iov_iter_count(to),
					       PAGE_SIZE), to);

		if (!n) {
			err = -EFAULT;
			break;
		}
		done += n;
		if (signal_pending(current)) {
			err = -ERESTARTSYS;
			break;
		}
		if (need_resched()) {
			if (iocb->ki_flags & IOCB_NOWAIT) {
				err = -EAGAIN;
				break;
			}
			cond_resched();
		}
	}
	if (!done)
		return err;
	this_cpu_add(zdev->stats->read_bytes, done);
	return done;
}

/* /dev/zsplice: as write_iter_zero(), everything is consumed. */
static ssize_t zs_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct zs_dev *zdev = zs_file_dev(iocb->ki_filp);
	size_t count = iov_iter_count(from);

	this_cpu_inc(zdev->stats->write_calls);
	iov_iter_advance(from, count);
	this_cpu_add(zdev->stats->write_bytes, count);
	return count;
}

/*
 * /dev/fullsplice: as write_full(), a ->write and no ->write_iter, so that
 * aio and pwritev2() flags fail as they do on /dev/full.
 */
static ssize_t zs_write_full(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	this_cpu_inc(zs_file_dev(file)->stats->write_calls);
	return -ENOSPC;
}

/* As /dev/zero: every seek succeeds and the position stays 0. */
static loff_t zs_llseek(struct file *file, loff_t offset, int whence)
{
	file->f_pos = 0;
	return 0;
}

/*
 * As mmap_zero(): MAP_PRIVATE gives anonymous zero-fill memory, MAP_SHARED
 * shared anonymous memory backed by an unlinked shmem file.
 */
static int zs_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_flags & VM_SHARED)
		return zs_mmap_shared(vma);
	vma_set_anonymous(vma);
	return 0;
}

static long zs_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct zs_file *zf = file->private_data;
	u32 __user *uarg = (u32 __user *)arg;
	u32 impl;

	switch (cmd) {
	case ZSPLICE_SET_IMPL:
		if (get_user(impl, uarg))
			return -EFAULT;
		if (impl >= ZSPLICE_IMPL_COUNT)
			return -EINVAL;
		WRITE_ONCE(zf->impl, impl);
		return 0;
	case ZSPLICE_GET_IMPL:
		return put_user(zs_file_impl(zf), uarg);
	case ZSPLICE_CLEAR_IMPL:
		WRITE_ONCE(zf->impl, ZS_IMPL_FOLLOW);
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations zs_zero_fops = {
	.owner		= THIS_MODULE,
	.open		= zs_open,
	.release	= zs_release,
	.llseek		= zs_llseek,
	.read_iter	= zs_read_iter,
	.write_iter	= zs_write_iter,
	.splice_read	= zs_splice_read,
	.splice_write	= zs_splice_write,
	.mmap		= zs_mmap,
	.get_unmapped_area = zs_zero_unmapped_area,
	.unlocked_ioctl	= zs_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/* As /dev/full: ->write only, no mmap, no splice_write. */
static const struct file_operations zs_full_fops = {
	.owner		= THIS_MODULE,
	.open		= zs_open,
	.release	= zs_release,
	.llseek		= zs_llseek,
	.read_iter	= zs_read_iter,
	.write		= zs_write_full,
	.splice_read	= zs_splice_read,
	.unlocked_ioctl	= zs_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static struct zs_dev zs_devs[ZS_NR_KINDS] = {
	[ZS_ZERO] = {
		.kind = ZS_ZERO,
		.fmode = FMODE_NOWAIT,
		.misc = {
			.minor	= MISC_DYNAMIC_MINOR,
			.name	= "zsplice",
			.fops	= &zs_zero_fops,
			.mode	= 0666,
		},
	},
	[ZS_FULL] = {
		.kind = ZS_FULL,
		.misc = {
			.minor	= MISC_DYNAMIC_MINOR,
			.name	= "fullsplice",
			.fops	= &zs_full_fops,
			.mode	= 0666,
		},
	},
};

static void zs_devs_exit(int nr)
{
	while (nr--) {
		misc_deregister(&zs_devs[nr].misc);
		zs_stats_free(&zs_devs[nr]);
	}
}

static int __init zs_init(void)
{
	int ret, i;

	ret = zs_pages_init(zs_folio_order);
	if (ret)
		return ret;

	for (i = 0; i < ZS_NR_KINDS; i++) {
		ret = zs_stats_alloc(&zs_devs[i]);
		if (ret)
			goto err;
		ret = misc_register(&zs_devs[i].misc);
		if (ret) {
			pr_err("cannot register /dev/%s: %d\n",
			       zs_devs[i].misc.name, ret);
			zs_stats_free(&zs_devs[i]);
			goto err;
		}
	}
	zs_debugfs_init(zs_devs, ZS_NR_KINDS);
	pr_info("loaded, splice_impl=%s folio_order=%u\n",
		zs_impl_names[READ_ONCE(zs_splice_impl)], zs_folio_order);
	return 0;

err:
	zs_devs_exit(i);
	zs_pages_exit();
	return ret;
}

static void __exit zs_exit(void)
{
	zs_debugfs_exit();
	zs_devs_exit(ZS_NR_KINDS);
	zs_pages_exit();
}

module_init(zs_init);
module_exit(zs_exit);

MODULE_DESCRIPTION("/dev/zero and /dev/full with switchable splice_read implementations");
MODULE_AUTHOR("The zsplice developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(ZSPLICE_VERSION);
