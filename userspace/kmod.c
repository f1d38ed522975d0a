// SPDX-License-Identifier: GPL-2.0
/* Loading and unloading zsplice through libkmod. */
#include <errno.h>
#include <libkmod.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/zsplice.h>

#include "zsbench.h"

static struct kmod_ctx *ctx;
static struct kmod_module *loaded;	/* set only if we inserted it */

static int have_dev(void)
{
	return access(ZSPLICE_ZERO_PATH, F_OK) == 0;
}

int zsb_module_setup(const struct zsb_opts *o)
{
	struct kmod_module *mod = NULL;
	char opts[64];
	int err;

	if (o->no_load) {
		if (!have_dev()) {
			fprintf(stderr, "zsbench: --no-load but %s is missing: load zsplice first "
				"(or use --impl devzero)\n", ZSPLICE_ZERO_PATH);
			return -1;
		}
		return 0;
	}
	if (access("/sys/module/zsplice", F_OK) == 0) {
		if (!have_dev()) {
			fprintf(stderr, "zsbench: module zsplice is loaded but %s is missing\n",
				ZSPLICE_ZERO_PATH);
			return -1;
		}
		fprintf(stderr, "zsbench: using the zsplice module already loaded\n");
		return 0;
	}
	if (access("/proc/modules", F_OK) != 0) {
		fprintf(stderr, "zsbench: this kernel cannot load modules (CONFIG_MODULES off: "
			"/proc/modules absent) and %s is missing; run in the VM "
			"(make bench) or use --impl devzero\n", ZSPLICE_ZERO_PATH);
		return -1;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "zsbench: loading zsplice needs root (run as root, or load "
			"it yourself and use --no-load)\n");
		return -1;
	}
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		fprintf(stderr, "zsbench: libkmod: kmod_new failed\n");
		return -1;
	}
	if (o->module) {
		if (access(o->module, R_OK)) {
			fprintf(stderr, "zsbench: module file %s: %s\n", o->module,
				strerror(errno));
			return -1;
		}
		err = kmod_module_new_from_path(ctx, o->module, &mod);
	} else {
		struct kmod_list *l = NULL;

		err = kmod_module_new_from_lookup(ctx, "zsplice", &l);
		if (!err && l) {
			mod = kmod_module_get_module(l);
			kmod_module_unref_list(l);
		}
		if (!err && mod && !kmod_module_get_path(mod)) {
			kmod_module_unref(mod);
			mod = NULL;
		}
		if (!err && !mod) {
			struct utsname u;

			uname(&u);
			fprintf(stderr, "zsbench: module zsplice not found in /lib/modules/%s "
				"(install it, or pass --module PATH/zsplice.ko)\n", u.release);
			return -1;
		}
	}
	if (err || !mod) {
		fprintf(stderr, "zsbench: libkmod: cannot look up zsplice: %s\n", strerror(-err));
		return -1;
	}
	/* 0: the module's own default */
	if (o->folio_order)
		snprintf(opts, sizeof(opts), "folio_order=%d", o->folio_order);
	else
		opts[0] = 0;
	err = kmod_module_insert_module(mod, 0, opts);
	if (err == -EEXIST) {
		kmod_module_unref(mod);
		return 0;
	}
	if (err) {
		fprintf(stderr, "zsbench: loading %s failed: %s\n",
			kmod_module_get_path(mod) ? kmod_module_get_path(mod) : "zsplice",
			strerror(-err));
		kmod_module_unref(mod);
		return -1;
	}
	loaded = mod;
	for (int i = 0; i < 50 && !have_dev(); i++)
		usleep(20000);	/* devtmpfs node appears asynchronously */
	if (!have_dev()) {
		fprintf(stderr, "zsbench: zsplice loaded but %s did not appear "
			"(is devtmpfs mounted on /dev?)\n", ZSPLICE_ZERO_PATH);
		return -1;
	}
	fprintf(stderr, "zsbench: loaded zsplice (%s)\n", opts[0] ? opts : "default parameters");
	return 0;
}

void zsb_module_teardown(void)
{
	if (loaded) {
		int err = kmod_module_remove_module(loaded, 0);

		if (err)
			fprintf(stderr, "zsbench: unloading zsplice failed: %s\n",
				strerror(-err));
		else
			fprintf(stderr, "zsbench: unloaded zsplice\n");
		kmod_module_unref(loaded);
		loaded = NULL;
	}
	if (ctx)
		ctx = kmod_unref(ctx);
}

void zsb_module_version(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/zsplice/version", "re");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}
