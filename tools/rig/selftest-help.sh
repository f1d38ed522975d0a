#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tools/rig/selftest-help.sh [--tree DIR]
#   --tree DIR   test the scripts of DIR (a checkout or a copy of the tree)
#                instead of those of this tree
#   -h, --help   this text
#
# Host test of `make check`: every script a developer runs (the rig, the
# kernel builder, lint, soak, bench, lkp, mainline/submit.sh and
# contention.sh, tools/results.py) answers --help and -h with its usage
# and does nothing else.  Each runs, with a 20 s timeout, in a scratch
# copy of the tree, with HOME, TMPDIR and every cache and log directory the
# scripts take from the environment (ZS_KBUILD_CACHE, ZSVM_BUILD, CHECK_OUT,
# ...) pointed at empty scratch directories, and with stubs of apt-get,
# qemu-system-x86_64, make, gcc, mount and the like first in PATH, which
# record being called and fail.  A run passes when it exits 0, its output
# begins with "Usage:", no stub was called, and no file of the scratch
# copy, the home, the temporary or the cache directories appeared, changed
# or vanished.  Libraries that are only sourced (kver.sh, splats.sh) are
# left out.  Prints TAP: one result per script and option, and a last one
# proving that the check can fail (a planted script whose --help writes
# into the kernel builder's cache and calls make must fail it).
set -uo pipefail

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

tree=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
while [ $# -gt 0 ]; do
	case $1 in
	--tree) [ $# -ge 2 ] || usage; tree=$(cd "$2" && pwd) || exit 2; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "selftest-help: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done

# The scripts, as globs relative to the tree; the sourced libraries left out.
patterns="tools/*.sh tools/results.py tools/rig/*.sh tools/rig/*.py tools/kbuild/*.sh
	tools/lint/*.sh tools/soak/*.sh mainline/submit.sh mainline/contention.sh
	mainline/check.sh mainline/mem-check.sh
	userspace/bench.sh userspace/lkp/*.sh"
libraries=" tools/rig/kver.sh tools/rig/splats.sh "

s=$(mktemp -d "${TMPDIR:-/tmp}/zs-help.XXXXXX") || exit 2
trap 'rm -rf "$s"' EXIT
w=$s/watched			# what no --help may change
mkdir -p "$w/tree" "$w/home" "$w/tmp" "$w/cache" "$s/stubs" "$s/log"

# The scratch copy: the files git knows of (tracked and untracked, not
# ignored: no build output), else everything but .git.
if git -C "$tree" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$tree" ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -e "$tree/$f" ] && printf '%s\0' "$f"
		done | tar -C "$tree" --null -T - -cf - | tar -C "$w/tree" -xf -
else
	(cd "$tree" && tar --exclude=./.git -cf - .) | tar -C "$w/tree" -xf -
fi

# Stubs of what builds, installs, boots or mounts: each records its call.
for c in apt apt-get apt-cache dpkg dpkg-query debootstrap qemu-system-x86_64 \
	 qemu-img make gcc cc ccache dkms mount umount chroot unshare sudo \
	 insmod rmmod modprobe poweroff reboot; do
	printf '#!/bin/sh\nprintf "%%s\\n" "%s $*" | tr -d "\\n" >>"%s"; echo >>"%s"\nexit 1\n' \
		"$c" "$s/log/calls" "$s/log/calls" >"$s/stubs/$c"
	chmod +x "$s/stubs/$c"
done

c=$w/cache
run_env=(env -i "PATH=$s/stubs:$PATH" "HOME=$w/home" "TMPDIR=$w/tmp"
	"TERM=${TERM:-dumb}" "LANG=C.UTF-8" "XDG_CACHE_HOME=$w/home/.cache"
	"ZS_KBUILD_CACHE=$c/kbuild" "ZS_CCACHE_DIR=$c/ccache" "CCACHE_DIR=$c/ccache"
	"ZSVM_BUILD=$c/zsvm" "ZSVM_LOCK=$c/zsvm.lock" "ZS_KCACHE=$c/kernels"
	"ZS_APT=$c/apt-trixie" "ZS_APT_TRIXIE=$c/apt-trixie/apt.conf"
	"ZS_CHROOT=$c/chroot-trixie" "ZS_CACHE=$c/zsplice" "ZS_SRC_CACHE=$c/src"
	"KSFT_DIR=$c/ksft" "CHECK_OUT=$c/check" "MATRIX_OUT=$c/matrix"
	"DEBUG_OUT=$c/debug" "MEM_CHECK_OUT=$c/mem-check")

snapshot() {
	find "$w" -mindepth 1 -printf '%P %y %s %m %T@\n' | LC_ALL=C sort
}

# interpreter FILE: what runs FILE (its #! line; none: bash).
interpreter() {
	case $(head -n 1 "$1") in
	*python3*) echo python3 ;;
	'#!/bin/sh'*) echo sh ;;
	*) echo bash ;;
	esac
}

# check_one FILE OPTION: run FILE OPTION in the scratch environment; print
# why it fails, one reason a line, nothing when it passes.
check_one() {
	local f=$1 opt=$2 rc first
	snapshot >"$s/log/before"
	: >"$s/log/calls"
	(cd "$w/tree" && timeout 20 "${run_env[@]}" "$(interpreter "$f")" "$f" "$opt" \
		</dev/null >"$s/log/out" 2>"$s/log/err")
	rc=$?
	snapshot >"$s/log/after"
	[ "$rc" = 0 ] || echo "exit status $rc"
	first=$(head -n 1 "$s/log/out")
	case $first in
	Usage:*) ;;
	"") echo "no output on stdout (stderr: $(head -n 1 "$s/log/err"))" ;;
	*) echo "output begins '$first', not 'Usage:'" ;;
	esac
	# the first call of each command, and how often it was called
	awk '{ n[$1]++ } n[$1] == 1 { first[$1] = $0; order[++k] = $1 }
	     END { for (i = 1; i <= k; i++) {
		c = order[i]; more = ""
		if (n[c] > 1) more = " (and " (n[c] - 1) " more)"
		print "called: " first[c] more
	     } }' "$s/log/calls"
	diff "$s/log/before" "$s/log/after" | sed -n 's/^[<>] \([^ ]*\) .*/changed: \1/p' | sort -u
}

mapfile -t scripts < <(cd "$w/tree" && for p in $patterns; do
	for f in $p; do
		[ -f "$f" ] && [[ $libraries != *" $f "* ]] && echo "$f"
	done
done | LC_ALL=C sort -u)

n=0
failed=0
echo "TAP version 13"
echo "1..$((2 * ${#scripts[@]} + 1))"
for f in "${scripts[@]}"; do
	for opt in --help -h; do
		n=$((n + 1))
		why=$(check_one "$f" "$opt")
		if [ -z "$why" ]; then
			echo "ok $n - $f $opt: usage, status 0, nothing written or called"
		else
			echo "not ok $n - $f $opt: $(echo "$why" | head -n 1)"
			echo "$why" | sed '1d; s/^/# /' | head -n 20
			failed=$((failed + 1))
		fi
	done
done

# The check can fail: a --help that prints its usage, but creates a
# directory in the kernel builder's cache and calls make, must be caught
# with both reasons.
n=$((n + 1))
cat >"$s/planted.sh" <<'EOF'
#!/bin/bash
mkdir -p "$ZS_KBUILD_CACHE/planted"
make --version >/dev/null 2>&1
echo "Usage: planted.sh"
EOF
why=$(check_one "$s/planted.sh" --help)
if grep -qx 'called: make --version' <<<"$why" &&
   grep -qx 'changed: cache/kbuild' <<<"$why"; then
	echo "ok $n - a planted --help that writes into the cache and calls make fails the check"
else
	echo "not ok $n - a planted --help that writes into the cache and calls make fails the check"
	while IFS= read -r l; do echo "# $l"; done <<<"${why:-(no reason given)}"
	failed=$((failed + 1))
fi
echo "# selftest-help: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
