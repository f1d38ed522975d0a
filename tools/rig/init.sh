#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the zsplice test guest (busybox sh, PID 1).  Installed by run.sh
# into the base initramfs.  The per-run archive adds:
#   /zs/cmd          the guest command (a shell script, run as root)
#   /zs/collect      guest paths to send back, one a line (optional)
#   /zs/interactive  present for `make vm-shell`
#
# The command's stdout+stderr go to ttyS1 (the host's output.log), followed
# by "ZSVM-EXIT <rc>", each collected file base64-encoded between
# ZSVM-FILE-BEGIN/ZSVM-FILE-END lines, and "ZSVM-DONE".  The kernel console
# is ttyS0 (console.log).
#
# Usage: none on the host.  run.sh installs this file as the guest's /init,
# which the kernel starts as PID 1; anywhere else it refuses to run (it
# would mount over /tmp and power the machine off).  -h, --help: this text.

# usage [STATUS]: the Usage paragraph of the header above, then the rest of
# the header; on stdout for STATUS 0 (--help), else on stderr.
usage() {
	awk 'NR > 2 && !/^#/ { exit }
	NR > 2 { sub(/^# ?/, ""); h[++n] = $0 }
	END {
		for (u = 1; u <= n && h[u] !~ /^Usage:/; u++) ;
		for (i = u; i <= n && h[i] != ""; i++) o[++m] = h[i]
		e = i
		for (i = 1; i < u; i++) o[++m] = h[i]
		for (i = e; i <= n; i++) o[++m] = h[i]
		while (m > 0 && o[m] == "") m--
		for (i = 1; i <= m; i++) if (o[i] != "" || o[i - 1] != "") print o[i]
	}' "$0" >&"$([ "${1:-2}" = 0 ] && echo 1 || echo 2)"
	exit "${1:-2}"
}
case ${1:-} in -h|--help) usage 0 ;; esac
if [ "$$" != 1 ]; then
	echo "init.sh: the guest's /init, run only as PID 1 (see --help)" >&2
	exit 2
fi

export PATH=/zs/bin:/zs:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=${TERM:-linux}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
ip link set lo up
hostname zsvm
if [ -w /proc/sys/kernel/hung_task_timeout_secs ]; then
	echo 30 >/proc/sys/kernel/hung_task_timeout_secs
fi
echo "zsvm: guest up: $(uname -r), $(nproc) cpus, $(sed -n 's/MemTotal: *//p' /proc/meminfo)" >/dev/console

if [ -e /zs/interactive ]; then
	echo "zsvm: interactive shell; files in /zs; 'poweroff -f' or exit to quit" >/dev/console
	cd /zs && setsid cttyhack sh -l
	poweroff -f
fi

out=/dev/ttyS1
stty -F $out raw -echo 2>/dev/null
cd /zs || cd /
sh /zs/cmd >$out 2>&1 </dev/null
rc=$?
# Leftover background processes must not write into the markers below.
kill -9 -1 2>/dev/null
sleep 0.2
echo "ZSVM-EXIT $rc" >$out
echo "zsvm: command exited with status $rc" >/dev/console

if [ -f /zs/collect ]; then
	while read -r f; do
		[ -n "$f" ] || continue
		if [ -f "$f" ]; then
			{
				echo "ZSVM-FILE-BEGIN $f"
				base64 "$f"
				echo "ZSVM-FILE-END $f"
			} >$out
		else
			echo "ZSVM-FILE-MISSING $f" >$out
		fi
	done </zs/collect
fi
echo "ZSVM-DONE" >$out
sync
poweroff -f
