// SPDX-License-Identifier: GPL-2.0
/* Implementation table and opening a device with an implementation selected. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
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

static const char *impl_param = SPLICE_IMPL_PARAM;

void zsb_impl_param_path(const char *path)
{
	impl_param = path;
}

/* open, write, close: async-signal-safe, for zsb_impl_restore() */
static int write_param(const char *value)
{
	int fd = open(impl_param, O_WRONLY | O_TRUNC | O_CLOEXEC), e = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		e = -errno;
	close(fd);
	return e;
}

/* splice_impl as zsbench found it before its first switch, "" before that */
static char impl_saved[32];

static void restore_at_exit(void)
{
	zsb_impl_restore();
}

int zsb_impl_switch(const struct zsb_impl *im)
{
	const char *v = zsb_impl_param(im);
	int e;

	if (!v)
		return 0;
	if (!impl_saved[0]) {
		e = zsb_get_module_impl(impl_saved, sizeof(impl_saved));
		if (e) {
			impl_saved[0] = 0;
			fprintf(stderr, "zsbench: reading splice_impl: %s\n", strerror(-e));
			return e;
		}
		atexit(restore_at_exit);
	}
	e = write_param(v);
	if (e)
		fprintf(stderr, "zsbench: setting splice_impl=%s: %s\n", v, strerror(-e));
	return e;
}

void zsb_impl_restore(void)
{
	if (impl_saved[0])
		write_param(impl_saved);
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
	int fd = open(impl_param, O_RDONLY | O_CLOEXEC);
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

static int ns_err(const char *what)
{
	int e = errno;

	fprintf(stderr, "zsbench: %s: %s%s\n", what, strerror(e),
		e == EPERM ? " (needs root: CAP_SYS_ADMIN)" : "");
	return -1;
}

static int bind_dev(const char *dev, const char *over)
{
	char what[96];

	if (!mount(dev, over, NULL, MS_BIND, NULL))
		return 0;
	snprintf(what, sizeof(what), "bind %s over %s", dev, over);
	return ns_err(what);
}

int zsb_private_devs(int full)
{
	if (unshare(CLONE_NEWNS))
		return ns_err("unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL))
		return ns_err("mount --make-rprivate /");
	if (bind_dev(ZSPLICE_ZERO_PATH, "/dev/zero"))
		return -1;
	return full ? bind_dev(ZSPLICE_FULL_PATH, "/dev/full") : 0;
}
