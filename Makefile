# SPDX-License-Identifier: GPL-2.0
#
# zsplice top-level Makefile.
#
#   make                  build the module (KDIR), zsbench and the selftests
#   make check            the test suite, in a QEMU guest (ends "N passed, N failed")
#   make bench            the comparison benchmark (README's main command)
#   make install          install module, zsbench, header (root)
#   make KVER=... / KDIR=...  build against another kernel

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

# The kernel to build against: the running one when its build tree exists,
# otherwise the newest installed Debian 6.12 kernel (the one the test guest
# boots).  KVER= and KDIR= override.
ifeq ($(origin KVER),undefined)
KVER := $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then uname -r; \
	else . $(TOP)/selftests/vm/kver.sh && zs_installed_kver || uname -r; fi)
endif
KDIR ?= /lib/modules/$(KVER)/build
ZSPLICE_VERSION ?= $(shell git -C $(TOP) describe --tags --always --dirty 2>/dev/null || \
	cat $(TOP)/VERSION 2>/dev/null || echo 0.1)
export ZSPLICE_VERSION

.PHONY: all module modules userspace selftests clean deps
all: module userspace selftests

module modules:
	$(MAKE) -C $(KDIR) M=$(TOP) ZSPLICE_VERSION=$(ZSPLICE_VERSION) modules

userspace:
	$(MAKE) -C $(TOP)/userspace

selftests:
	$(MAKE) -C $(TOP)/selftests

deps:
	bash $(TOP)/selftests/vm/deps.sh

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) clean 2>/dev/null || true
	$(MAKE) -C $(TOP)/userspace clean
	$(MAKE) -C $(TOP)/selftests clean

# Kernel style gates: checkpatch --strict, sparse (C=1) and W=1.
CHECKPATCH ?= $(shell . $(TOP)/selftests/vm/kver.sh && echo $$(zs_src_tree))/scripts/checkpatch.pl
.PHONY: lint
lint:
	perl $(CHECKPATCH) --strict --no-tree --terse --show-types -f \
		$$(find drivers include -name '*.[ch]' | sort)
	$(MAKE) -C $(KDIR) M=$(TOP) ZSPLICE_VERSION=$(ZSPLICE_VERSION) C=2 W=1 modules 2>&1 | \
		tee /dev/stderr | { ! grep -E 'warning|error'; }
