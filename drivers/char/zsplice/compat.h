/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zsplice: what differs between the kernels zsplice builds for.  Every
 * version test of the driver lives here, so that the other files read as
 * if written for the newest kernel.
 *
 * Supported: the 6.1 and 6.12 LTS lines and 7.x (tested on Debian's
 * 6.1.0-*, 6.12.*+deb12 and 7.3.4+deb13; dkms.conf builds for no other).
 * Kbuild probes the kernel's headers and Module.symvers for the ZS_HAVE_*
 * macros:
 *
 *   ZS_HAVE_COPY_SPLICE_READ   copy_splice_read() (v6.5+; 6.1 has not)
 *   ZS_HAVE_PIPE_HEAD_BUF      pipe_buf() and pipe_head_buf() (v6.5+)
 *   ZS_HAVE_SHMEM_KERNEL_FILE_SETUP  exported (6.12, 7.x); 6.1 exports
 *                              shmem_zero_setup() instead
 *   ZS_HAVE_SHMEM_VMA_FLAGS    shmem_kernel_file_setup() takes vma_flags_t
 *                              (7.x) rather than vm_flags_t
 *   ZS_HAVE_VFS_MMAP           vfs_mmap() (7.x), where shmem has only
 *                              ->mmap_prepare; before it, call_mmap()
 *   ZS_HAVE_MM_GET_UNMAPPED_AREA  mm_get_unmapped_area() exported (6.12,
 *                              7.x); 6.1 calls mm->get_unmapped_area
 *   ZS_HAVE_MM_GET_UNMAPPED_AREA_MM  ... and takes the mm first (6.12)
 */
#ifndef _ZSPLICE_COMPAT_H
#define _ZSPLICE_COMPAT_H

#include <linux/bvec.h>
#include <linux/fs.h>
#include <linux/huge_mm.h>
#include <linux/mman.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/sched.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/uio.h>

#ifndef ZS_HAVE_PIPE_HEAD_BUF
static inline struct pipe_buffer *pipe_buf(const struct pipe_inode_info *pipe,
					   unsigned int slot)
{
	return &pipe->bufs[slot & (pipe->ring_size - 1)];
}

static inline struct pipe_buffer *pipe_head_buf(const struct pipe_inode_info *pipe)
{
	return pipe_buf(pipe, pipe->head);
}
#endif

#ifdef ZS_HAVE_COPY_SPLICE_READ

/* mainline's /dev/zero splice_read (v6.7+). */
#define zs_copy_splice_read	copy_splice_read

#else

/*
 * The algorithm of mainline's copy_splice_read() for kernels without it:
 * fresh pages for the free slots (up to @len), filled by the file's
 * ->read_iter through a bvec iterator, then one pipe buffer per page that
 * received data; the rest are freed.  -EFAULT becomes -EAGAIN, as the
 * splice core expects for "nothing could be added".
 *
 * Mainline's buffers use default_pipe_buf_ops, which is not exported;
 * nosteal_pipe_buf_ops is, and lives in the core kernel, so a buffer left
 * in a pipe after rmmod stays safe (ops in this module would not).  It
 * differs only in refusing ->try_steal, an optimisation nothing observable
 * through /dev/zero depends on.
 */
static inline ssize_t zs_copy_splice_read(struct file *in, loff_t *ppos,
					  struct pipe_inode_info *pipe,
					  size_t len, unsigned int flags)
{
	unsigned int used = pipe_occupancy(pipe->head, pipe->tail);
	unsigned int nr, filled, i;
	struct bio_vec *bvec;
	struct iov_iter iter;
	struct kiocb kiocb;
	size_t left;
	ssize_t ret;

	if (used >= pipe->max_usage)
		return 0;
	len = min_t(size_t, len, (size_t)(pipe->max_usage - used) << PAGE_SHIFT);
	nr = DIV_ROUND_UP(len, PAGE_SIZE);
	if (!nr)
		return 0;
	bvec = kcalloc(nr, sizeof(*bvec), GFP_KERNEL);
	if (!bvec)
		return -ENOMEM;

	for (i = 0, left = len; i < nr; i++) {
		struct page *page = alloc_page(GFP_USER);

		if (!page)
			break;
		bvec[i].bv_page = page;
		bvec[i].bv_offset = 0;
		bvec[i].bv_len = min_t(size_t, left, PAGE_SIZE);
		left -= bvec[i].bv_len;
	}
	if (!i) {
		kfree(bvec);
		return -ENOMEM;
	}
	nr = i;
	len = min_t(size_t, len, (size_t)nr << PAGE_SHIFT);

	iov_iter_bvec(&iter, ITER_DEST, bvec, nr, len);
	init_sync_kiocb(&kiocb, in);
	kiocb.ki_pos = *ppos;
	ret = in->f_op->read_iter(&kiocb, &iter);
	filled = 0;
	if (ret > 0) {
		filled = DIV_ROUND_UP(ret, PAGE_SIZE);
		*ppos = kiocb.ki_pos;
	} else if (ret == -EFAULT) {
		ret = -EAGAIN;
	}

	for (i = 0, left = ret > 0 ? ret : 0; i < nr; i++) {
		struct pipe_buffer *buf;

		if (i >= filled) {
			put_page(bvec[i].bv_page);
			continue;
		}
		buf = pipe_head_buf(pipe);
		*buf = (struct pipe_buffer) {
			.page	= bvec[i].bv_page,
			.offset	= 0,
			.len	= min_t(size_t, left, PAGE_SIZE),
			.ops	= &nosteal_pipe_buf_ops,
		};
		left -= buf->len;
		pipe->head++;
	}
	kfree(bvec);
	return ret;
}

#endif /* ZS_HAVE_COPY_SPLICE_READ */

/*
 * MAP_SHARED of /dev/zero: what shmem_zero_setup() does (an unlinked shmem
 * file of the mapping's size, mapped as shared anonymous memory).  Where
 * shmem_zero_setup() is not exported, the same through exported calls and
 * the VFS helper that maps a file, never a direct ->mmap call.
 */
#ifndef ZS_HAVE_SHMEM_KERNEL_FILE_SETUP

static inline int zs_mmap_shared(struct vm_area_struct *vma)
{
	return shmem_zero_setup(vma);
}

#else

#ifdef ZS_HAVE_SHMEM_VMA_FLAGS
#define zs_vma_shmem_flags(vma)	((vma)->flags)
#else
#define zs_vma_shmem_flags(vma)	((vma)->vm_flags)
#endif

#ifdef ZS_HAVE_VFS_MMAP
#define zs_vfs_mmap		vfs_mmap
#else
#define zs_vfs_mmap		call_mmap
#endif

static inline int zs_mmap_shared(struct vm_area_struct *vma)
{
	loff_t size = vma->vm_end - vma->vm_start;
	struct file *shm;
	int ret;

	shm = shmem_kernel_file_setup("dev/zsplice", size,
				      zs_vma_shmem_flags(vma));
	if (IS_ERR(shm))
		return PTR_ERR(shm);
	vma_set_file(vma, shm);
	ret = zs_vfs_mmap(shm, vma);
	fput(shm);
	return ret;
}

#endif

/*
 * Where get_unmapped_area_zero() in mem.c places a mapping of /dev/zero.
 * MAP_SHARED: shmem_get_unmapped_area(), not exported; with shmem's huge
 * pages off for anonymous shared memory (the default) it returns what the
 * mm's own allocator does, which is what we use.  MAP_PRIVATE: the mm's
 * allocator up to 6.12; 7.x aligns to the PMD size where it can.
 */
#if defined(ZS_HAVE_MM_GET_UNMAPPED_AREA_MM)
#define zs_mm_unmapped_area(file, addr, len, pgoff, flags) \
	mm_get_unmapped_area(current->mm, file, addr, len, pgoff, flags)
#elif defined(ZS_HAVE_MM_GET_UNMAPPED_AREA)
#define zs_mm_unmapped_area	mm_get_unmapped_area
#else
#define zs_mm_unmapped_area(file, addr, len, pgoff, flags) \
	current->mm->get_unmapped_area(file, addr, len, pgoff, flags)
#endif

#if defined(ZS_HAVE_VFS_MMAP) && defined(CONFIG_TRANSPARENT_HUGEPAGE)
#define zs_private_unmapped_area	thp_get_unmapped_area
#else
#define zs_private_unmapped_area	zs_mm_unmapped_area
#endif

static inline unsigned long zs_zero_unmapped_area(struct file *file,
						  unsigned long addr,
						  unsigned long len,
						  unsigned long pgoff,
						  unsigned long flags)
{
	if (flags & MAP_SHARED)
		return zs_mm_unmapped_area(NULL, addr, len, pgoff, flags);
	return zs_private_unmapped_area(file, addr, len, pgoff, flags);
}

#endif /* _ZSPLICE_COMPAT_H */
