/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zsplice: private declarations shared by the driver's source files.
 */
#ifndef _ZSPLICE_INTERNAL_H
#define _ZSPLICE_INTERNAL_H

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/pipe_fs_i.h>
#include <linux/types.h>
#include <uapi/linux/zsplice.h>

/* The two devices: /dev/zsplice behaves like /dev/zero, /dev/fullsplice
 * like /dev/full.
 */
enum zs_kind {
	ZS_ZERO,
	ZS_FULL,
	ZS_NR_KINDS
};

/* Counters for one splice_read implementation. */
struct zs_impl_stats {
	u64 calls;
	u64 bytes;
	u64 slots;
	u64 coalesced;
};

/* Per-CPU counters of one device; summed when read. */
struct zs_stats {
	u64 read_calls;
	u64 read_bytes;
	u64 write_calls;
	u64 write_bytes;
	u64 splice_write_calls;
	u64 splice_write_bytes;
	struct zs_impl_stats splice[ZSPLICE_IMPL_COUNT];
};

struct zs_dev {
	enum zs_kind kind;
	fmode_t fmode;		/* f_mode bits every open file gets */
	struct miscdevice misc;
	struct zs_stats __percpu *stats;
};

/* State of one open file. */
struct zs_file {
	struct zs_dev *dev;
	int impl;		/* enum zsplice_impl, or ZS_IMPL_FOLLOW */
};

/* zs_file.impl when the file follows the module parameter. */
#define ZS_IMPL_FOLLOW	(-1)

/* The folio orders splice_impl=folio accepts: 8 KiB .. 2 MiB. */
#define ZS_FOLIO_ORDER_MIN	1
#define ZS_FOLIO_ORDER_MAX	9

/* main.c */
extern const char * const zs_impl_names[ZSPLICE_IMPL_COUNT];
int zs_file_impl(const struct zs_file *zf);

/* pages.c: the shared zero pages and folios handed to pipes */
enum zs_set {
	ZS_SET_PAGE,
	ZS_SET_FOLIO,
	ZS_NR_SETS
};

struct seq_file;

int zs_pages_init(unsigned int folio_order);
void zs_pages_exit(void);
struct folio *zs_pages_get(enum zs_set *set, size_t len, unsigned int slots,
			   unsigned int *nr);
size_t zs_pages_size(enum zs_set set);
size_t zs_pages_buf_room(const struct pipe_buffer *buf);
unsigned int zs_pages_count(enum zs_set set);
unsigned long zs_pages_fallbacks(void);
unsigned long zs_pages_pipe_refs(enum zs_set set);
int zs_pages_selfcheck(struct seq_file *m);

/* splice.c */
ssize_t zs_splice_read(struct file *file, loff_t *ppos,
		       struct pipe_inode_info *pipe, size_t len,
		       unsigned int flags);
ssize_t zs_splice_write(struct pipe_inode_info *pipe, struct file *out,
			loff_t *ppos, size_t len, unsigned int flags);

/* stats.c: counters and debugfs */
int zs_stats_alloc(struct zs_dev *zdev);
void zs_stats_free(struct zs_dev *zdev);
void zs_debugfs_init(struct zs_dev *devs, int nr);
void zs_debugfs_exit(void);

#endif /* _ZSPLICE_INTERNAL_H */
