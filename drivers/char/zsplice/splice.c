// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: the splice_read implementations and splice_write.
 *
 *   none      -EINVAL, as /dev/zero up to v6.6
 *   copy      copy_splice_read(), as mainline /dev/zero since v6.7: a fresh
 *             page per slot, even for one byte
 *   zeropage  buffers referencing a shared 4 KiB zero page; a splice first
 *             extends the pipe's tail buffer when it is one of ours
 *   folio     the same with a zero folio of 2^folio_order pages per slot
 *
 * All of them run with the pipe locked by the splice core, which has
 * clamped @len to the free slots times PAGE_SIZE (so the pipe is full only
 * when @len is 0).  splice() has also waited for a free slot first;
 * sendfile()'s internal pipe is drained before every call.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/splice.h>
#include "internal.h"
#include "compat.h"
#include "trace.h"

/*
 * The bytes one pipe may hold, ours and others', before we stop adding to
 * it.  Pipe byte counts are ints in places (FIONREAD, splice_pipe_to_pipe);
 * a pipe of 4 KiB buffers can never reach this, one of 2 MiB folios could.
 */
#define ZS_PIPE_MAX_BYTES	SZ_1G
/* The largest buffer a pipe may hold: one of our biggest folios. */
#define ZS_BUF_MAX_BYTES	(PAGE_SIZE << ZS_FOLIO_ORDER_MAX)

/*
 * How many more bytes @pipe may take.  Summing the buffers is only needed
 * when the pipe has more slots than the cap allows buffers of the largest
 * size; the common pipe sizes never get there.
 */
static size_t zs_pipe_room(const struct pipe_inode_info *pipe)
{
	unsigned int i, used;
	size_t bytes = 0;

	if ((size_t)pipe->max_usage * ZS_BUF_MAX_BYTES <= ZS_PIPE_MAX_BYTES)
		return ZS_PIPE_MAX_BYTES;
	/* by count: head and tail are pipe_index_t, 16 bits on 32-bit */
	used = pipe_occupancy(pipe->head, pipe->tail);
	for (i = 0; i < used; i++)
		bytes += pipe_buf(pipe, pipe->tail + i)->len;
	return bytes < ZS_PIPE_MAX_BYTES ? ZS_PIPE_MAX_BYTES - bytes : 0;
}

/* Append up to @len bytes to the pipe's tail buffer if it is ours. */
static size_t zs_splice_coalesce(struct pipe_inode_info *pipe, size_t len)
{
	struct pipe_buffer *buf;
	size_t n;

	if (!len || pipe_empty(pipe->head, pipe->tail))
		return 0;
	buf = pipe_buf(pipe, pipe->head - 1);
	n = min(len, zs_pages_buf_room(buf));
	buf->len += n;
	return n;
}

/*
 * Fill free slots with buffers referencing the calling CPU's folio of
 * @set.  All the references are taken with one atomic add before any
 * buffer is published.
 */
static ssize_t zs_splice_fill(struct pipe_inode_info *pipe, enum zs_set set,
			      size_t len, unsigned int *slots)
{
	unsigned int free, nr, i;
	struct folio *folio;
	size_t size, done = 0;

	*slots = 0;
	if (!len || pipe_full(pipe->head, pipe->tail, pipe->max_usage))
		return 0;
	free = pipe->max_usage - pipe_occupancy(pipe->head, pipe->tail);
	folio = zs_pages_get(&set, len, free, &nr);
	if (IS_ERR(folio))
		return PTR_ERR(folio);
	size = folio_size(folio);
	for (i = 0; i < nr; i++) {
		size_t n = min(len - done, size);

		*pipe_head_buf(pipe) = (struct pipe_buffer) {
			.page		= folio_page(folio, 0),
			.offset		= 0,
			.len		= n,
			.ops		= &nosteal_pipe_buf_ops,
		};
		pipe->head++;
		done += n;
	}
	*slots = nr;
	return done;
}

/*
 * zeropage and folio: coalesce into the tail buffer, then fill free slots.
 * Nothing added although @len asked for something means the pipe is at
 * its byte cap: -EAGAIN, as for a pipe without room.
 */
static ssize_t zs_splice_zero(struct zs_dev *zdev, int impl,
			      struct pipe_inode_info *pipe, size_t len)
{
	enum zs_set set = impl == ZSPLICE_IMPL_FOLIO ? ZS_SET_FOLIO : ZS_SET_PAGE;
	size_t room = min(len, zs_pipe_room(pipe));
	unsigned int slots = 0;
	ssize_t merged, added, ret;

	merged = zs_splice_coalesce(pipe, room);
	added = zs_splice_fill(pipe, set, room - merged, &slots);
	if (added < 0)
		ret = merged ?: added;
	else if (merged + added)
		ret = merged + added;
	else
		ret = len ? -EAGAIN : 0;
	this_cpu_add(zdev->stats->splice[impl].coalesced, merged);
	this_cpu_add(zdev->stats->splice[impl].slots, slots);
	trace_splice_read(zdev, impl, len, merged, slots, ret);
	return ret;
}

static ssize_t zs_splice_copy(struct zs_dev *zdev, struct file *file,
			      loff_t *ppos, struct pipe_inode_info *pipe,
			      size_t len, unsigned int flags)
{
	ssize_t ret = zs_copy_splice_read(file, ppos, pipe, len, flags);
	unsigned int slots = ret > 0 ? DIV_ROUND_UP(ret, PAGE_SIZE) : 0;

	this_cpu_add(zdev->stats->splice[ZSPLICE_IMPL_COPY].slots, slots);
	trace_splice_read(zdev, ZSPLICE_IMPL_COPY, len, 0, slots, ret);
	return ret;
}

/*
 * ->splice_read of both devices.  The implementation is read once per
 * call, so switching it while traffic flows is safe.  Like mainline, no
 * signal check: the work per call is bounded by the pipe's free slots, and
 * sendfile() stops on a signal in splice_from_pipe_next().
 */
ssize_t zs_splice_read(struct file *file, loff_t *ppos,
		       struct pipe_inode_info *pipe, size_t len,
		       unsigned int flags)
{
	struct zs_file *zf = file->private_data;
	struct zs_dev *zdev = zf->dev;
	int impl = zs_file_impl(zf);
	ssize_t ret;

	this_cpu_inc(zdev->stats->splice[impl].calls);
	switch (impl) {
	case ZSPLICE_IMPL_NONE:
		trace_splice_read(zdev, impl, len, 0, 0, -EINVAL);
		return -EINVAL;
	case ZSPLICE_IMPL_COPY:
		ret = zs_splice_copy(zdev, file, ppos, pipe, len, flags);
		break;
	default:
		ret = zs_splice_zero(zdev, impl, pipe, len);
		break;
	}
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
 * ->splice_write of /dev/zsplice: consume and discard what the pipe holds,
 * as mainline's splice_write_zero().  Under "none" it fails with -EINVAL,
 * as /dev/zero did before v6.7.  /dev/fullsplice has no splice_write, as
 * /dev/full: splicing into it fails with -EINVAL in the splice core.
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

	this_cpu_inc(zdev->stats->splice_write_calls);
	if (zs_file_impl(zf) == ZSPLICE_IMPL_NONE)
		return -EINVAL;

	pipe_lock(pipe);
	ret = __splice_from_pipe(pipe, &sd, zs_pipe_to_null);
	pipe_unlock(pipe);
	if (ret > 0)
		this_cpu_add(zdev->stats->splice_write_bytes, ret);
	return ret;
}
