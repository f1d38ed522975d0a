# SPDX-License-Identifier: GPL-2.0
#
# zsplice top-level Makefile.
#
#   make                  build what a user needs: the module (KDIR) and zsbench;
#                         only kernel headers, libkmod, liburing and json-c are needed
#   make selftests        the kselftests (need tools/testing/selftests of a kernel
#                         source tree: linux-source-6.12, or KSFT_DIR=)
#   make check            the test suite, in a QEMU guest (ends "N passed, N failed")
#   make mem-check        the mem.c patch series (mainline/), or KERNEL_TREE=, booted and measured
#   make check-debug      the suite on a sanitizer/fault-injection debug kernel
#   make vm-shell         boot the test guest with a shell (module in /zs)
#   make check-lkp        the lkp-tests program against lkp-tests (LKP_SRC=)
#   make bench            the comparison benchmark (README's main command)
#   make install          install module, zsbench, header, man pages (root)
#   make man              the man pages from their rst sources (rst2man)
#   make KVER=... / KDIR=...  build against another kernel

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

# The kernel to build against: the running one when its build tree exists,
# otherwise the newest kernel whose build tree is installed (a container,
# a chroot, a machine that builds for its guests).  KVER= and KDIR=
# override; the test rig (tools/rig/) passes both, and ZS_KEXEC (a wrapper
# that runs the build in its trixie chroot) for a kernel it unpacked.
ifeq ($(origin KVER),undefined)
KVER := $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then uname -r; \
	else ls -d /lib/modules/*/build 2>/dev/null | cut -d/ -f4 | sort -V | \
	tail -n 1 | grep . || uname -r; fi)
endif
KDIR ?= /lib/modules/$(KVER)/build
ZS_KEXEC ?=

# One version everywhere: VERSION is MODULE_VERSION, dkms.conf's
# PACKAGE_VERSION, the Debian packages' upstream version and zsplice.pc's.
ZSPLICE_VERSION := $(shell cat $(TOP)/VERSION)
export ZSPLICE_VERSION

.PHONY: all module modules userspace selftests clean deps bench
all: module userspace

module modules:
	@test -f $(KDIR)/Makefile || { \
		echo "zsplice: no kernel build tree at KDIR=$(KDIR)" >&2; \
		echo "zsplice: install the headers (Debian: apt-get install linux-headers-$(KVER))," >&2; \
		echo "zsplice: or give KVER= or KDIR=" >&2; exit 1; }
	@# Built for another kernel before: newer kbuild refuses a tree with a
	@# modules.order (the objects themselves rebuild on the changed flags).
	@if [ "$$(cat $(TOP)/.zs-kver 2>/dev/null)" != "$(KVER)" ]; then \
		rm -f $(TOP)/modules.order $(TOP)/Module.symvers; fi
	$(ZS_KEXEC) $(MAKE) -C $(KDIR) M=$(TOP) ZSPLICE_VERSION=$(ZSPLICE_VERSION) modules
	@echo $(KVER) >$(TOP)/.zs-kver

userspace:
	@missing=""; \
	command -v pkg-config >/dev/null || missing="pkg-config"; \
	for p in libkmod liburing json-c; do \
		pkg-config --exists $$p 2>/dev/null || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "zsbench needs:$$missing (Debian: apt-get install pkg-config libkmod-dev liburing-dev libjson-c-dev)" >&2; \
		exit 1; \
	fi
	$(MAKE) -C $(TOP)/userspace

# The kselftests (selftests/Makefile follows kselftest's lib.mk; it says
# what is missing).  Not part of the default target: they need a kernel
# source tree's tools/testing/selftests.
selftests:
	$(MAKE) -C $(TOP)/selftests

deps:
	bash $(TOP)/tools/rig/deps.sh

# The comparison benchmark: on the host when it can load the module,
# otherwise in the QEMU guest; results in results/.
bench:
	bash $(TOP)/tools/rig/deps.sh --check >/dev/null 2>&1 || bash $(TOP)/tools/rig/deps.sh
	bash $(TOP)/userspace/bench.sh

# results/README.md from the JSON of the last make bench / make bench
# ICOUNT=1 (bench.sh runs it too).
.PHONY: results
results:
	python3 $(TOP)/tools/results.py $(TOP)/results

clean:
	$(ZS_KEXEC) $(MAKE) -C $(KDIR) M=$(TOP) clean 2>/dev/null || true
	rm -f $(MANPAGES)
	$(MAKE) -C $(TOP)/userspace clean
	-$(MAKE) -C $(TOP)/selftests clean
	$(MAKE) -C $(TOP)/tools/soak clean

# Kernel style gates: checkpatch --strict, sparse (C=2) and W=1; part of
# `make check` too.
.PHONY: lint
lint:
	bash $(TOP)/tools/lint/lint.sh $(KVER) $(TOP)/.lint

# The man pages, rendered by docutils' rst2man from the rst reference of
# each interface: zsplice(4) from Documentation/zsplice.rst, zsbench(1)
# from Documentation/zsbench.rst.  Any message of rst2man fails the build
# (--strict); @VERSION@ becomes VERSION.
RST2MAN ?= rst2man
MANPAGES := Documentation/zsplice.4 Documentation/zsbench.1
.PHONY: man
man: $(MANPAGES)

Documentation/zsplice.4: Documentation/zsplice.rst VERSION
Documentation/zsbench.1: Documentation/zsbench.rst VERSION
$(MANPAGES):
	@command -v $(RST2MAN) >/dev/null || { \
		echo "zsplice: the man pages need rst2man (Debian: apt-get install python3-docutils)" >&2; \
		exit 1; }
	$(RST2MAN) --strict $< $@.tmp
	sed -i 's|@VERSION@|$(ZSPLICE_VERSION)|g' $@.tmp
	mv $@.tmp $@

# ---------------------------------------------------------------------------
# Installation.  The module goes to /lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
# under $(INSTALL_MOD_PATH), uncompressed, followed by depmod; the rest
# under $(DESTDIR)$(PREFIX).
INSTALL_MOD_DIR ?= updates
PREFIX ?= /usr/local
MODPROBE_CONF := $(DESTDIR)/etc/modprobe.d/zsplice.conf
MOD_DEST := $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)

# depmod, unless INSTALL_MOD_PATH stages into a tree that is no module tree
# of its own (no modules.order): there it would only index our module.
define zs_depmod
	@if [ -z "$(INSTALL_MOD_PATH)" ] || \
	    [ -e $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/modules.order ]; then \
		echo "depmod $(KVER)"; \
		depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER); \
	else \
		echo "staged install: run depmod $(KVER) on the target"; \
	fi
endef

.PHONY: install uninstall install-module
# ZS_KEXEC's chroot sees only the paths it binds: a staging path among them.
install-module: module
	$(if $(and $(ZS_KEXEC),$(INSTALL_MOD_PATH)),mkdir -p $(INSTALL_MOD_PATH) && \
		ZS_BINDS=$(abspath $(INSTALL_MOD_PATH))) $(ZS_KEXEC) $(MAKE) -C $(KDIR) M=$(TOP) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) \
		INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) CONFIG_MODULE_COMPRESS_ALL= \
		CONFIG_MODULE_SIG_ALL= DEPMOD=true modules_install
	$(call zs_depmod)

# install = install-module + install-user (zsbench, its man page, fio jobs,
# bash completion) + install-dev (the uapi header as include/zsplice/,
# zsplice.pc, zsplice(4)) + install-conf (modprobe.d example).  The Debian
# packaging uses the last three with PREFIX=/usr.
ZS_DATADIR := $(DESTDIR)$(PREFIX)/share
ZS_SUBST := sed -e 's|@VERSION@|$(ZSPLICE_VERSION)|g' -e 's|@PREFIX@|$(PREFIX)|g'

.PHONY: install-user install-dev install-conf
install: install-module install-user install-dev install-conf

install-user: userspace Documentation/zsbench.1
	install -D -m 0755 userspace/zsbench $(DESTDIR)$(PREFIX)/bin/zsbench
	install -D -m 0644 Documentation/zsbench.1 $(ZS_DATADIR)/man/man1/zsbench.1
	install -d $(ZS_DATADIR)/zsbench/fio
	install -m 0644 userspace/fio/*.fio $(ZS_DATADIR)/zsbench/fio/
	install -D -m 0644 tools/bash-completion/zsbench \
		$(ZS_DATADIR)/bash-completion/completions/zsbench

# The header goes to include/zsplice/, not include/linux/ (linux-libc-dev's).
install-dev: Documentation/zsplice.4
	install -D -m 0644 include/uapi/linux/zsplice.h \
		$(DESTDIR)$(PREFIX)/include/zsplice/zsplice.h
	install -d $(ZS_DATADIR)/pkgconfig $(ZS_DATADIR)/man/man4
	$(ZS_SUBST) tools/zsplice.pc.in >$(ZS_DATADIR)/pkgconfig/zsplice.pc
	install -m 0644 Documentation/zsplice.4 $(ZS_DATADIR)/man/man4/zsplice.4

install-conf:
	@if [ -e $(MODPROBE_CONF) ]; then \
		echo "keeping existing $(MODPROBE_CONF)"; \
	else \
		install -D -m 0644 drivers/char/zsplice/zsplice.conf $(MODPROBE_CONF); \
	fi

uninstall:
	rm -f $(MOD_DEST)/zsplice.ko $(MOD_DEST)/zsplice.ko.xz
	$(call zs_depmod)
	rm -f $(DESTDIR)$(PREFIX)/bin/zsbench \
	      $(ZS_DATADIR)/man/man1/zsbench.1 \
	      $(ZS_DATADIR)/man/man4/zsplice.4 \
	      $(ZS_DATADIR)/pkgconfig/zsplice.pc \
	      $(ZS_DATADIR)/bash-completion/completions/zsbench \
	      $(DESTDIR)$(PREFIX)/include/zsplice/zsplice.h
	-rmdir $(DESTDIR)$(PREFIX)/include/zsplice 2>/dev/null
	rm -rf $(ZS_DATADIR)/zsbench
	@if [ -e $(MODPROBE_CONF) ] && cmp -s $(MODPROBE_CONF) drivers/char/zsplice/zsplice.conf; then \
		rm -f $(MODPROBE_CONF); \
	elif [ -e $(MODPROBE_CONF) ]; then \
		echo "keeping $(MODPROBE_CONF): it was edited"; \
	fi

# Test rig (tools/rig/): `make check` is the project's test command; it
# boots the guest kernel (KVER= selects one) in QEMU.  `make vm-shell` boots
# the same guest with a shell on the console and the module in /zs.
VM_KVER_ARG = $(if $(filter command line environment environment override,$(origin KVER)),KVER=$(KVER))
# Robustness soak in the QEMU guest (trinity, switch and unload under
# load, page accounting, bad input); SOAK_MINUTES=10 for the long form.
# The short form is part of `make check`.
SOAK_MINUTES ?= 3
.PHONY: soak
soak:
	SOAK_MINUTES=$(SOAK_MINUTES) bash $(TOP)/tools/soak/soak.sh

# Kernels of our own (tools/kbuild/build.sh, cached under
# /var/cache/zsplice/kbuild, never rebuilt when nothing changed):
#   make mem-check    the mainline/ series built into Debian's newest 7.x
#                     kernel source, booted, and judged by the kselftests,
#                     the fix series' selftest, zsbench and LKP's stress-ng
#                     on the kernel's own /dev/zero; MEM_KERNELS=,
#                     MEM_PHASES=; KERNEL_TREE=DIR [KERNEL_BASE=REF]: a
#                     git tree of yours against its merge-base instead
#                     (Documentation/porting-to-mem.rst)
#   make check-debug  the guest suite and short soak on a KASAN/lockdep/
#                     kmemleak/DEBUG_VM kernel, plus a fault-injection sweep
#                     of the module load (Documentation/rig.rst)
#   make check-kcsan  the guest suite and short soak on a KCSAN kernel
.PHONY: mem-check check-debug check-kcsan
mem-check:
	bash $(TOP)/mainline/mem-check.sh

check-debug:
	bash $(TOP)/tools/kbuild/check-debug.sh

check-kcsan:
	bash $(TOP)/tools/kbuild/check-debug.sh --kcsan

# Mutation check of the guest tests (tools/rig/mutants.sh): planted
# bugs, one guest per mutant; ends "mutants: N caught of M".
.PHONY: mutants
mutants:
	$(VM_KVER_ARG) bash $(TOP)/tools/rig/mutants.sh

# lkp-tests' harness (Documentation/benchmarking.rst): the program in
# lkp-tests/ run through lkp-tests' own split-job, job2sh, dump-stat and
# ncompare code from LKP_SRC=<checkout> (skips, saying why, without one).
.PHONY: check-lkp
check-lkp:
	LKP_SRC="$(LKP_SRC)" $(VM_KVER_ARG) bash $(TOP)/userspace/lkp/check-lkp.sh

.PHONY: check vm-shell check-matrix
check:
	$(VM_KVER_ARG) bash $(TOP)/tools/rig/check.sh

# `make check` on the newest Debian 6.1, 6.12 and 7.x kernels (fetched
# and cached by tools/rig/kernels.sh): a count per kernel, then the
# total "N passed, N failed".
check-matrix:
	bash $(TOP)/tools/rig/check-matrix.sh

vm-shell:
	$(VM_KVER_ARG) bash -c '. $(TOP)/tools/rig/kver.sh && \
		zs_make "$${KVER:-$$(zs_installed_kver)}" module' >/dev/null || true
	$(VM_KVER_ARG) bash $(TOP)/tools/rig/run.sh --interactive \
		$$(for f in $(TOP)/zsplice.ko; do [ -f $$f ] && echo --file $$f; done) \
		$$(for f in $(TOP)/selftests/zsplice_*_test $(TOP)/userspace/zsbench; do \
			[ -x $$f ] && echo --file $$f:/zs/bin/; done)
