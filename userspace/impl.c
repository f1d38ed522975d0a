// SPDX-License-Identifier: GPL-2.0
/* Implementation table and opening a device with an implementation selected. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/zsplice.h>

#include "zsbench.h"

#define SPLICE_IMPL_PARAM "/sys/module/zsplice/parameters/splice_impl"

const struct zsb_impl zsb_impls[] = {
	{ "devzero",       ZSB_DEV_DEVZERO,    -1, 1 },
	{ "none",          ZSB_DEV_ZSPLICE,    ZSPLICE_IMPL_NONE, 1 },
	{ "copy",          ZSB_DEV_ZSPLICE,    ZSPLICE_IMPL_COPY, 1 },
	{ "zeropage",      ZSB_DEV_ZSPLICE,    ZSPLICE_IMPL_ZEROPAGE, 1 },
	{ "folio",         ZSB_DEV_ZSPLICE,    ZSPLICE_IMPL_FOLIO, 1 },
	{ "full-none",     ZSB_DEV_FULLSPLICE, ZSPLICE_IMPL_NONE, 0 },
	{ "full-copy",     ZSB_DEV_FULLSPLICE, ZSPLICE_IMPL_COPY, 0 },
	{ "full-zeropage", ZSB_DEV_FULLSPLICE, ZSPLICE_IMPL_ZEROPAGE, 1 },
	{ "full-folio",    ZSB_DEV_FULLSPLICE, ZSPLICE_IMPL_FOLIO, 0 },
};
const size_t zsb_nimpls = sizeof(zsb_impls) / sizeof(zsb_impls[0]);

/* the module's names for its implementations, from the uapi header */
static const char *const zsb_kimpl_names[] = ZSPLICE_IMPL_NAMES;

const char *zsb_impl_param(const struct zsb_impl *im)
{
	if (im->kimpl < 0 ||
	    (size_t)im->kimpl >= sizeof(zsb_kimpl_names) / sizeof(zsb_kimpl_names[0]))
		return NULL;
	return zsb_kimpl_names[im->kimpl];
}

const struct zsb_impl *zsb_impl_find(const char *name)
{
	for (size_t i = 0; i < zsb_nimpls; i++)
		if (!strcmp(zsb_impls[i].name, name))
			return &zsb_impls[i];
	return NULL;
}

const char *zsb_impl_path(const struct zsb_impl *im)
{
	switch (im->dev) {
	case ZSB_DEV_ZSPLICE:
		return ZSPLICE_ZERO_PATH;
	case ZSB_DEV_FULLSPLICE:
		return ZSPLICE_FULL_PATH;
	default:
		return "/dev/zero";
	}
}

int zsb_impl_open(const struct zsb_impl *im, int flags)
{
	int fd = open(zsb_impl_path(im), flags | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (im->kimpl >= 0) {
		__u32 v = (__u32)im->kimpl, got = ~0U;

		if (ioctl(fd, ZSPLICE_SET_IMPL, &v) < 0 ||
		    ioctl(fd, ZSPLICE_GET_IMPL, &got) < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (got != v) {
			close(fd);
			return -EPROTO;
		}
	}
	return fd;
}

int zsb_set_module_impl(const char *value)
{
	int fd = open(SPLICE_IMPL_PARAM, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

int zsb_folio_order(const struct zsb_opts *o)
{
	char buf[16];
	int fd, v;
	ssize_t n;

	if (o->folio_order)
		return o->folio_order;
	fd = open("/sys/module/zsplice/parameters/folio_order", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ZSB_FOLIO_ORDER_DEFAULT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return ZSB_FOLIO_ORDER_DEFAULT;
	buf[n] = 0;
	v = atoi(buf);
	return v >= 1 && v <= 20 ? v : ZSB_FOLIO_ORDER_DEFAULT;
}

int zsb_get_module_impl(char *buf, size_t len)
{
	int fd = open(SPLICE_IMPL_PARAM, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}
