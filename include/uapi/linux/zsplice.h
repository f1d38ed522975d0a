/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * zsplice: /dev/zero and /dev/full with switchable splice_read
 * implementations.
 *
 * Userspace interface: the implementation identifiers and the per-file
 * ioctls.  Needs no kernel header besides the standard uapi ones.
 */
#ifndef _UAPI_LINUX_ZSPLICE_H
#define _UAPI_LINUX_ZSPLICE_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Device nodes created by the module. */
#define ZSPLICE_ZERO_PATH	"/dev/zsplice"
#define ZSPLICE_FULL_PATH	"/dev/fullsplice"

/**
 * enum zsplice_impl - splice_read implementations
 * @ZSPLICE_IMPL_NONE: no splice support, -EINVAL (as /dev/zero up to v6.6)
 * @ZSPLICE_IMPL_COPY: copy_splice_read (as mainline /dev/zero since v6.7)
 * @ZSPLICE_IMPL_ZEROPAGE: pipe buffers referencing shared zero pages,
 *	small splices coalesced into the pipe's tail buffer
 * @ZSPLICE_IMPL_FOLIO: the same with large zero folios
 * @ZSPLICE_IMPL_COUNT: number of implementations
 *
 * The module parameter splice_impl takes the names "none", "copy",
 * "zeropage" and "folio", in this order.
 */
enum zsplice_impl {
	ZSPLICE_IMPL_NONE = 0,
	ZSPLICE_IMPL_COPY = 1,
	ZSPLICE_IMPL_ZEROPAGE = 2,
	ZSPLICE_IMPL_FOLIO = 3,
	ZSPLICE_IMPL_COUNT
};

/* The names of enum zsplice_impl, in its order: an array initializer. */
#define ZSPLICE_IMPL_NAMES { "none", "copy", "zeropage", "folio" }

/*
 * The ioctl type byte: 0xBC, unassigned in
 * Documentation/userspace-api/ioctl/ioctl-number.rst (0xB7, used before,
 * belongs to nsfs and remoteproc: ZSPLICE_CLEAR_IMPL was NS_GET_NSTYPE).
 * tools/lint/ioctl-number.sh checks the table of every kernel source
 * tree we build against.
 */
#define ZSPLICE_IOC_MAGIC	0xBC

/*
 * ZSPLICE_SET_IMPL: use this implementation for splice_read on this open
 * file only, overriding the module parameter.  The argument points to a
 * __u32 holding an enum zsplice_impl value; any other value fails with
 * EINVAL and leaves the file unchanged.
 */
#define ZSPLICE_SET_IMPL	_IOW(ZSPLICE_IOC_MAGIC, 1, __u32)

/*
 * ZSPLICE_GET_IMPL: store the implementation this open file uses now (its
 * own override, or else the module parameter) in the __u32 pointed to.
 */
#define ZSPLICE_GET_IMPL	_IOR(ZSPLICE_IOC_MAGIC, 2, __u32)

/*
 * ZSPLICE_CLEAR_IMPL: drop this file's override; it follows the module
 * parameter again.  No argument.
 */
#define ZSPLICE_CLEAR_IMPL	_IO(ZSPLICE_IOC_MAGIC, 3)

#endif /* _UAPI_LINUX_ZSPLICE_H */
