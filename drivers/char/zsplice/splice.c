// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: the splice_read implementations and splice_write.
 *
 *   none      -EINVAL, as /dev/zero up to v6.6
 *   copy      copy_splice_read(), as mainline /dev/zero since v6.7: a fresh
 *             page per slot, even for one byte
 *   zeropage  buffers referencing a shared zero page; a splice first
 *             extends the pipe's tail buffer when it is one of ours
 *   folio     the same with a zero folio of 2^folio_order pages per slot
 *
 * All of them run with the pipe locked by the splice core, which has
 * already waited for a free slot and clamped @len to the free slots.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/splice.h>
#include <zsplice/zsplice.h>

static ssize_t zs_splice_copy(struct zs_dev *zdev, struct file *file,
			      loff_t *ppos, struct pipe_inode_info *pipe,
			      size_t len, unsigned int flags)
{
	ssize_t ret = copy_splice_read(file, ppos, pipe, len, flags);

	if (ret > 0)
		this_cpu_add(zdev->stats->splice[ZSPLICE_IMPL_COPY].slots,
			     DIV_ROUND_UP(ret, PAGE_SIZE));
	return ret;
}

/* Append up to @len bytes to the pipe's tail buffer if it is ours. */
static size_t zs_splice_coalesce(struct pipe_inode_info *pipe, size_t len)
{
	struct pipe_buffer *buf;
	size_t n;

	if (pipe_empty(pipe->head, pipe->tail))
		return 0;
	buf = pipe_buf(pipe, pipe->head - 1);
	n = min(len, zs_pages_buf_room(buf));
	buf->len += n;
	return n;
}

/*
 * Fill free slots with buffers referencing @set's page for this CPU.  All
 * the page references are taken with one atomic add before any buffer is
 * published.
 */
static size_t zs_splice_fill(struct pipe_inode_info *pipe, enum zs_set set,
			     size_t len, unsigned int *slots)
{
	size_t size = zs_pages_size(set);
	unsigned int free, nr, i, cpu;
	struct page *page;
	size_t done = 0;

	*slots = 0;
	if (!len || pipe_full(pipe->head, pipe->tail, pipe->max_usage))
		return 0;
	free = pipe->max_usage - pipe_occupancy(pipe->head, pipe->tail);
	nr = min_t(size_t, free, DIV_ROUND_UP(len, size));
	*slots = nr;

	page = zs_pages_get(set, &cpu);
	page_ref_add(page, nr);
	for (i = 0; i < nr; i++) {
		size_t n = min(len - done, size);

		*pipe_head_buf(pipe) = (struct pipe_buffer) {
			.page		= page,
			.offset		= 0,
			.len		= n,
			.ops		= &nosteal_pipe_buf_ops,
			.flags		= 0,
			.private	= cpu,
		};
		pipe->head++;
		done += n;
	}
	return done;
}

static ssize_t zs_splice_zero(struct zs_dev *zdev, int impl,
			      struct pipe_inode_info *pipe, size_t len)
{
	enum zs_set set = impl == ZSPLICE_IMPL_FOLIO ? ZS_SET_FOLIO : ZS_SET_PAGE;
	unsigned int slots;
	size_t merged, added;

	merged = zs_splice_coalesce(pipe, len);
	added = zs_splice_fill(pipe, set, len - merged, &slots);
	this_cpu_add(zdev->stats->splice[impl].coalesced, merged);
	this_cpu_add(zdev->stats->splice[impl].slots, slots);
	if (!merged && !added)
		return -EAGAIN;
	return merged + added;
}

/*
 * ->splice_read of both devices.  The implementation is read once per
 * call, so switching it while traffic flows is safe.  A pending signal
 * ends the call first: sendfile() loops over splice_read one pipe-full at
 * a time and has no other way to stop early for a huge count.
 */
ssize_t zs_splice_read(struct file *file, loff_t *ppos,
		       struct pipe_inode_info *pipe, size_t len,
		       unsigned int flags)
{
	struct zs_file *zf = file->private_data;
	struct zs_dev *zdev = zf->dev;
	int impl = zs_file_impl(zf);
	ssize_t ret;

	this_cpu_add(zdev->stats->splice[impl].calls, 1);
	if (impl == ZSPLICE_IMPL_NONE)
		return -EINVAL;
	if (signal_pending(current))
		return -ERESTARTSYS;

	if (impl == ZSPLICE_IMPL_COPY)
		ret = zs_splice_copy(zdev, file, ppos, pipe, len, flags);
	else
		ret = zs_splice_zero(zdev, impl, pipe, len);
	if (ret > 0)
		this_cpu_add(zdev->stats->splice[impl].bytes, ret);
	return ret;
}

static int zs_pipe_to_null(struct pipe_inode_info *pipe,
			   struct pipe_buffer *buf, struct splice_desc *sd)
{
	return sd->len;
}

/*
 * ->splice_write of both devices: /dev/zsplice consumes and discards what
 * the pipe holds, /dev/fullsplice fails with -ENOSPC.  Under "none" both
 * fail with -EINVAL, as /dev/zero and /dev/full did without splice.
 */
ssize_t zs_splice_write(struct pipe_inode_info *pipe, struct file *out,
			loff_t *ppos, size_t len, unsigned int flags)
{
	struct zs_file *zf = out->private_data;
	struct zs_dev *zdev = zf->dev;
	struct splice_desc sd = {
		.total_len	= len,
		.flags		= flags,
		.pos		= *ppos,
		.u.file		= out,
	};
	ssize_t ret;

	this_cpu_add(zdev->stats->splice_write_calls, 1);
	if (zs_file_impl(zf) == ZSPLICE_IMPL_NONE)
		return -EINVAL;
	if (zdev->kind == ZS_FULL)
		return -ENOSPC;

	pipe_lock(pipe);
	ret = __splice_from_pipe(pipe, &sd, zs_pipe_to_null);
	pipe_unlock(pipe);
	if (ret > 0)
		this_cpu_add(zdev->stats->splice_write_bytes, ret);
	return ret;
}
