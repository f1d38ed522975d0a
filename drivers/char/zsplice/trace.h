/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zsplice: tracepoints.
 *
 * zsplice:splice_read fires once per ->splice_read call of either device:
 * which device and implementation, the length asked for, the bytes
 * appended to the pipe's tail buffer, the new slots filled and the result.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM zsplice

#if !defined(_ZSPLICE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ZSPLICE_TRACE_H

#include <linux/tracepoint.h>
#include "internal.h"

/*
 * The enum values __print_symbolic() names, exported to the event's format
 * file so that tools parsing it (libtraceevent: perf, trace-cmd) see
 * numbers they can map, not identifiers they cannot resolve.
 */
TRACE_DEFINE_ENUM(ZS_ZERO);
TRACE_DEFINE_ENUM(ZS_FULL);
TRACE_DEFINE_ENUM(ZSPLICE_IMPL_NONE);
TRACE_DEFINE_ENUM(ZSPLICE_IMPL_COPY);
TRACE_DEFINE_ENUM(ZSPLICE_IMPL_ZEROPAGE);
TRACE_DEFINE_ENUM(ZSPLICE_IMPL_FOLIO);

TRACE_EVENT(splice_read,
	    TP_PROTO(const struct zs_dev *zdev, int impl, size_t len,
		     size_t coalesced, unsigned int slots, ssize_t ret),
	    TP_ARGS(zdev, impl, len, coalesced, slots, ret),
	    TP_STRUCT__entry(__field(int, dev)
			     __field(int, impl)
			     __field(size_t, len)
			     __field(size_t, coalesced)
			     __field(unsigned int, slots)
			     __field(ssize_t, ret)),
	    TP_fast_assign(__entry->dev = zdev->kind;
			   __entry->impl = impl;
			   __entry->len = len;
			   __entry->coalesced = coalesced;
			   __entry->slots = slots;
			   __entry->ret = ret;),
	    TP_printk("dev=%s impl=%s len=%zu coalesced=%zu slots=%u ret=%zd",
		      __print_symbolic(__entry->dev,
				       { ZS_ZERO, "zsplice" },
				       { ZS_FULL, "fullsplice" }),
		      __print_symbolic(__entry->impl,
				       { ZSPLICE_IMPL_NONE, "none" },
				       { ZSPLICE_IMPL_COPY, "copy" },
				       { ZSPLICE_IMPL_ZEROPAGE, "zeropage" },
				       { ZSPLICE_IMPL_FOLIO, "folio" }),
		      __entry->len, __entry->coalesced, __entry->slots,
		      __entry->ret)
);

#endif /* _ZSPLICE_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
