#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare a series of mainline/ for sending: commit its patches onto the
# kernel source they target (after the series it depends on), signed off by
# you, and write `git format-patch` files with a cover letter, recipients
# from the tree's get_maintainer.pl, then run checkpatch --strict on them.
# The series in the tree carry no author and no sign-off: whoever sends a
# series signs it.
#
# Usage: mainline/submit.sh [options] SERIES_DIR
#   -o DIR        where the mails go (default ./outgoing/<series>)
#   --tree DIR    an unpacked kernel source of the series' line (default:
#                 the builder's pristine copy, else the tarball unpacked)
#   -n, --dry-run sign with a placeholder identity (Your Name
#                 <you@example.invalid>) into a temporary directory: what
#                 mainline/check.sh runs
#   -h, --help    this text
#
# Your identity is `git config user.name` and `user.email` (or
# GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL); a missing one, or an address at a
# reserved domain (example, invalid, localhost, test), is refused.  Send the
# result with `git send-email DIR/*.patch`, after reading it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=mainline/sources.sh
. "$here/sources.sh"

die() { echo "submit: $*" >&2; exit 2; }
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

out=
tree=
dry=0
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--tree) tree=$2; shift 2 ;;
	-n|--dry-run) dry=1; shift ;;
	-h|--help) usage 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# = 1 ] || usage
series=$(cd "$1" 2>/dev/null && pwd) || die "$1: no such series directory"
[ -r "$series/cover" ] || die "$series: no cover file"
name=$(basename "$series")
ver=$(basename "$(dirname "$series")")

# ------------------------------------------------------------ identity
if [ "$dry" = 1 ]; then
	who_name="Your Name" who_mail="you@example.invalid"
else
	who_name=${GIT_AUTHOR_NAME:-$(git config user.name || true)}
	who_mail=${GIT_AUTHOR_EMAIL:-$(git config user.email || true)}
	if [ -z "$who_name" ] || [ -z "$who_mail" ]; then
		die "no identity: set git config user.name and user.email (yours: you sign the series)"
	fi
	case ${who_mail##*@} in
	example|example.*|*.example|invalid|*.invalid|localhost|*.localhost|test|*.test)
		die "$who_mail: a reserved domain, not a person's address" ;;
	esac
fi
export GIT_AUTHOR_NAME=$who_name GIT_AUTHOR_EMAIL=$who_mail
export GIT_COMMITTER_NAME=$who_name GIT_COMMITTER_EMAIL=$who_mail

# ------------------------------------------------------------ the source
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$tree" ]; then
	src=$(zs_source "$ver") || die "no kernel source for $ver"
	tree=$(zs_pristine_tree "$src" 2>/dev/null || true)
	if [ -z "$tree" ]; then
		echo "submit: unpacking $(basename "$src")" >&2
		mkdir "$work/src"
		tar -C "$work/src" -xf "$src"
		tree=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d)
	fi
fi
if [ ! -f "$tree/MAINTAINERS" ] || [ ! -f "$tree/scripts/checkpatch.pl" ]; then
	die "$tree: not a kernel source tree"
fi

mapfile -t all < <(zs_series_patches "$series")
mine=()
deps=()
for p in "${all[@]}"; do
	if [ "$(dirname "$p")" = "$(cd "$series" && pwd -P)" ]; then
		mine+=("$p")
	else
		deps+=("$p")
	fi
done
[ ${#mine[@]} -gt 0 ] || die "$series: no patches"

# A repository of just the files the patches touch, as the source has them.
repo=$work/repo
mkdir -p "$repo"
git -C "$repo" init -q
sed -n 's|^--- a/||p; s|^+++ b/||p' "${all[@]}" | sort -u | while read -r f; do
	[ -f "$tree/$f" ] || continue
	mkdir -p "$repo/$(dirname "$f")"
	cp "$tree/$f" "$repo/$f"
done
git -C "$repo" add -A -f
git -C "$repo" commit -q --allow-empty -m "$(head -n 5 "$tree/Makefile" | tr '\n' ' ')"

# commit PATCH [--signoff]: commit one patch file of mainline/.
commit() {
	local p=$1
	shift
	git -C "$repo" mailinfo -b "$work/msg" "$work/diff" <"$p" >"$work/info"
	git -C "$repo" apply --index "$work/diff" || die "$(basename "$p") does not apply"
	{ sed -n 's/^Subject: //p' "$work/info"; echo; cat "$work/msg"; } >"$work/message"
	git -C "$repo" commit -q "$@" -F "$work/message"
}
for p in "${deps[@]+"${deps[@]}"}"; do
	commit "$p"
done
base=$(git -C "$repo" rev-parse HEAD)
for p in "${mine[@]}"; do
	commit "$p" --signoff
done

# ------------------------------------------------------------ the mails
if [ -z "$out" ]; then
	if [ "$dry" = 1 ]; then out=$work/out; else out=outgoing/$name; fi
fi
rm -rf "$out"
mkdir -p "$out"
prefix=$(zs_cover_field "$series" Prefix)
# maintainers REVIEWERS... ARGS: get_maintainer.pl of the tree on the patches.
maintainers() {
	(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats --separator , "$@" "${mine[@]}" 2>/dev/null) || true
}
to=$(maintainers --no-l)
cc=$(maintainers --no-m --no-r)
args=(--subject-prefix="${prefix:-PATCH}" --cover-letter --no-signature -o "$out")
[ -z "$to" ] || args+=("--to=$to")
[ -z "$cc" ] || args+=("--cc=$cc")
while read -r a; do
	[ -z "$a" ] || args+=("--cc=$a")
done < <(zs_cover_field "$series" Cc)
git -C "$repo" format-patch -q "${args[@]}" "$base..HEAD" >/dev/null
case $out in /*) ;; *) out=$PWD/$out ;; esac
letter=$(ls "$out"/0000-cover-letter.patch)
{
	sed -n '/^$/,$p' "$series/cover" | sed '1d'
	echo
	echo "Based on $(zs_cover_field "$series" Base)."
	for d in $(zs_cover_field "$series" Depends); do
		echo "Applies on top of: $(zs_cover_field "$series/../$d" Subject)."
	done
} >"$work/blurb"
subject=$(zs_cover_field "$series" Subject)
awk -v subj="$subject" -v blurb="$work/blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
	/\*\*\* BLURB HERE \*\*\*/ { while ((getline l < blurb) > 0) print l; next }
	{ print }' "$letter" >"$work/letter" && cat "$work/letter" >"$letter"

# ------------------------------------------------------------ checks
bad=0
for p in "$out"/*.patch; do
	case $p in *cover-letter.patch) continue ;; esac
	# The source carries no git history: commit ids cannot be resolved.
	if ! (cd "$tree" && perl scripts/checkpatch.pl --strict --quiet \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$p"); then
		bad=1
	fi
	lines=$(sed -n '/^Subject:/,/^---$/p' "$p" | wc -l)
	if [ "$lines" -gt 50 ]; then
		echo "submit: $(basename "$p"): commit message of $lines lines (more than 50)" >&2
		bad=1
	fi
done
ls "$out"/*.patch
[ "$bad" = 0 ] || die "checks failed: fix the series in $series"
if [ "$dry" = 1 ]; then
	echo "submit: dry run: signed as $who_name <$who_mail>, nothing kept" >&2
else
	echo "submit: signed off by $who_name <$who_mail>; read $out, then git send-email $out/*.patch" >&2
fi
