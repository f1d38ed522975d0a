// SPDX-License-Identifier: GPL-2.0
/* The workloads: a variant is an engine (engines/) with a size and flags. */
#include <string.h>

#include "zsbench.h"

#define KB 1024UL
#define MB (1024UL * 1024UL)

const struct zsb_workload zsb_workloads[] = {
	{ "splice", "splice-1", 1, &zsb_eng_splice, 0, 1,
	  "splice 1 byte device -> pipe, pipe -> /dev/null" },
	{ "splice", "splice-4K", 4 * KB, &zsb_eng_splice, 0, 1,
	  "splice 4 KiB device -> pipe, pipe -> /dev/null" },
	{ "splice", "splice-64K", 64 * KB, &zsb_eng_splice, WL_FULL_OK, 1,
	  "splice 64 KiB device -> pipe, pipe -> /dev/null" },
	{ "splice", "splice-1M", MB, &zsb_eng_splice, 0, 1,
	  "splice 1 MiB device -> 1 MiB pipe, pipe -> /dev/null" },
	{ "pipe-class", "pipe-class", 64 * KB, &zsb_eng_pipe_class, 0, 1,
	  "stress-ng 0.15.06's splice stressor loop, 1-byte splice included" },
	{ "fill", "fill", 1, &zsb_eng_fill, WL_FILL | WL_SINGLE | WL_FULL_OK, 1,
	  "1-byte splices into an empty pipe until EAGAIN: the count" },
	{ "sendfile", "sendfile-null-64K", 64 * KB, &zsb_eng_sendfile_null, 0, 1,
	  "sendfile 64 KiB device -> /dev/null" },
	{ "sendfile", "sendfile-tmpfs-64K", 64 * KB, &zsb_eng_sendfile_tmpfs, 0, 1,
	  "sendfile 64 KiB device -> a tmpfs file" },
	{ "sendfile", "sendfile-tcp-64K", 64 * KB, &zsb_eng_sendfile_tcp, 0, 1,
	  "sendfile 64 KiB device -> a loopback TCP socket" },
	{ "read", "read-4K", 4 * KB, &zsb_eng_read, WL_FULL_OK, 1,
	  "read() 4 KiB from the device" },
	{ "read", "read-1M", MB, &zsb_eng_read, 0, 1,
	  "read() 1 MiB from the device" },
	{ "uring", "uring-4K", 4 * KB, &zsb_eng_uring, WL_FULL_OK, 1,
	  "io_uring reads of 4 KiB, counting io-wq workers" },
	{ "uring", "uring-2M", 2 * MB, &zsb_eng_uring, 0, 0,
	  "io_uring reads of 2 MiB, counting io-wq workers" },
	{ "splice-write", "splice-write-64K", 64 * KB, &zsb_eng_splice_write, WL_FULL_OK, 1,
	  "splice 64 KiB pipe -> device (discard; EINVAL on fullsplice)" },
	{ "floor", "floor", 1, &zsb_eng_floor, WL_FLOOR, 0,
	  "1-byte splice pair coalescing into our tail: no slot, no page ref" },
};
const size_t zsb_nworkloads = sizeof(zsb_workloads) / sizeof(zsb_workloads[0]);

const struct zsb_workload *zsb_workload_find(const char *variant)
{
	for (size_t i = 0; i < zsb_nworkloads; i++)
		if (!strcmp(zsb_workloads[i].variant, variant))
			return &zsb_workloads[i];
	return NULL;
}
