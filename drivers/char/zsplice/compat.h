/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zsplice: what differs between the kernels zsplice builds for.  Every
 * version test of the driver lives here, so that the other files read as
 * if written for the newest kernel.
 */
#ifndef _ZSPLICE_COMPAT_H
#define _ZSPLICE_COMPAT_H

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/shmem_fs.h>
#include <linux/splice.h>

/* mainline's /dev/zero splice_read (v6.7+). */
#define zs_copy_splice_read	copy_splice_read

/*
 * MAP_SHARED of /dev/zero: what shmem_zero_setup() does, through exported
 * calls: an unlinked shmem file of the mapping's size, mapped through the
 * VFS helper rather than a direct ->mmap call.
 */
static inline int zs_mmap_shared(struct vm_area_struct *vma)
{
	loff_t size = vma->vm_end - vma->vm_start;
	struct file *shm;
	int ret;

	shm = shmem_kernel_file_setup("dev/zsplice", size, vma->vm_flags);
	if (IS_ERR(shm))
		return PTR_ERR(shm);
	vma_set_file(vma, shm);
	ret = call_mmap(shm, vma);
	fput(shm);
	return ret;
}

#endif /* _ZSPLICE_COMPAT_H */
