#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest smoke test of zsbench: run as root where zsplice is loaded and
# zsbench is on PATH (busybox is enough).  Runs every default workload
# briefly for every implementation with --json and checks the records with
# awk.  KTAP, through the kernel's kselftest/ktap_helpers.sh: from
# ../kselftest/ as a kselftest install has it (the rig runs this as
# program zsbench:smoke.sh of one), or from KSFT_DIR (tools/testing/
# selftests of a kernel tree).
#   ZSBENCH=path  zsbench binary (default: zsbench from PATH)
#   SMOKE_DIR=dir where the JSON goes (default: mktemp -d)
ZSBENCH=${ZSBENCH:-zsbench}
DIR=${SMOKE_DIR:-$(mktemp -d /tmp/zsb-smoke.XXXXXX)}
IMPLS=devzero,none,copy,zeropage,folio,full-zeropage
. "${KSFT_DIR:-$(dirname "$0")/..}/kselftest/ktap_helpers.sh"

tap() {	# status name
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else ktap_test_fail "$2"; fi
}

ktap_print_header
if [ ! -e /dev/zsplice ]; then
	ktap_set_plan 1
	ktap_test_fail "/dev/zsplice present (load zsplice first)"
	ktap_finished
fi
# 8 zsbench runs and table checks, 8 JSON checks (the awk below), 1 for
# the 2-thread records, 6 of zsbench exec, 3 of SIGINT and SIGTERM.
ktap_set_plan 26

# folio size from the module statistics, else from folio_order
FOLIO=$(awk '$1 == "folio_size" { print $2; exit }' /sys/kernel/debug/zsplice/zsplice/stats 2>/dev/null)
if [ -z "$FOLIO" ]; then
	ORDER=$(cat /sys/module/zsplice/parameters/folio_order 2>/dev/null || echo 4)
	FOLIO=$((4096 << ORDER))
fi
SLOTS=16	# zsbench's default --fill-pipe 64K
# The guest kernel's /dev/zero splices from v6.7 (copy_splice_read); before
# that (6.1) every splice, sendfile and fill of "devzero" fails with EINVAL.
DEVZERO_SPLICE=$(uname -r | awk -F'[.-]' '{ print ($1 > 6 || ($1 == 6 && $2 >= 7)) ? 1 : 0 }')
FILLMAX=1048576	# zsbench's default --fill-max

"$ZSBENCH" --help >/dev/null 2>&1
tap $? "zsbench --help exits 0"
st=0
for c in run exec compare plot model list; do
	"$ZSBENCH" $c --help | grep -q "^usage: zsbench $c" || st=1
done
tap $st "zsbench COMMAND --help: every command's usage"
"$ZSBENCH" run --no-such-option >/dev/null 2>"$DIR/err"
st=$?
[ $st = 2 ] && [ "$(wc -l < "$DIR/err")" -eq 1 ]
tap $? "bad option: exit 2 and one line (got $st)"

"$ZSBENCH" run --no-load --quiet --impl $IMPLS --threads 1 --runs 2 --duration 0.05 \
	--json "$DIR/smoke.json" > "$DIR/table.txt" 2> "$DIR/stderr.txt"
st=$?
tap $st "zsbench run of all workloads x $IMPLS (exit $st)"
[ $st = 0 ] || sed 's/^/# /' "$DIR/stderr.txt"

"$ZSBENCH" run --no-load --quiet --impl copy,zeropage,folio --threads 2 --runs 1 \
	--duration 0.05 --workload splice-64K,pipe-class,sendfile-tcp-64K \
	--json "$DIR/smoke2.json" > /dev/null 2> "$DIR/stderr2.txt"
tap $? "zsbench with 2 threads"

grep -q "%change" "$DIR/table.txt"
tap $? "table has the LKP header"
grep -q "zsbench.splice-64K.1t.ops_per_sec" "$DIR/table.txt"
tap $? "table has the splice-64K metric"

"$ZSBENCH" plot "$DIR/smoke.json" > /dev/null 2>&1
tap $? "zsbench plot reads the JSON back"

awk -v folio="$FOLIO" -v slots="$SLOTS" -v fillmax="$FILLMAX" -v devzero_splice="$DEVZERO_SPLICE" -v want_variants="$("$ZSBENCH" list | awk '/^workloads/ { w = 1; next } w && /\[default\]/ { print $1 }' | tr '\n' ' ')" '
function f(key,   m, v) {
	if (!match($0, "\"" key "\":(\"[^\"]*\"|[^,}]*)"))
		return "MISSING"
	v = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
	gsub(/"/, "", v)
	return v
}
function check(cond, name) {
	print (cond ? 0 : 1) " " name
}
/^\{"source"/ {
	v = f("variant"); im = f("impl"); key = v "/" im
	seen[key] = 1
	nrec++
	complete = 1
	split("workload size threads impl unit value mean stddev values runs unsupported", req, " ")
	for (i in req)
		if (f(req[i]) == "MISSING") { complete = 0; miss = req[i] }
	if (!complete) bad_complete = bad_complete " " key "(" miss ")"
	unsup = f("unsupported") == "true"
	mean = f("mean") + 0
	splicey = (v ~ /^(splice|sendfile|fill)/)
	if ((im == "none" || (im == "devzero" && !devzero_splice)) && splicey) {
		if (!unsup || f("error") != "EINVAL") bad_none = bad_none " " v
		next
	}
	# /dev/fullsplice is /dev/full: no splice_write, so splicing into it is EINVAL
	if (v ~ /^splice-write/ && im ~ /^full-/) {
		if (!unsup || f("error") != "EINVAL") bad_fullw = bad_fullw " " key
		next
	}
	if (unsup || mean <= 0) bad_zero = bad_zero " " key
	if (f("runs") + 0 < 1) bad_zero = bad_zero " " key "(runs)"
	if (v == "fill") {
		fc = f("fill_count") + 0
		want = -1
		if (im == "copy" || im == "devzero") want = slots
		if (im == "zeropage" || im == "full-zeropage") want = (slots - 1) * 4096 + 1
		if (im == "folio") want = (slots - 1) * folio + 1
		if (want > fillmax) want = fillmax
		fills = fills " " im "=" fc
		if (want >= 0 && fc != want) bad_fill = bad_fill " " im ":" fc "!=" want
	}
	# /dev/fullsplice has no FMODE_NOWAIT (as /dev/full): io-wq may serve it
	if (v ~ /^uring/ && f("iowq_workers") != "0" && im != "devzero" && im !~ /^full-/)
		bad_iowq = bad_iowq " " key "=" f("iowq_workers")
	if (v == "pipe-class" && im == "none" && f("note") !~ /write/)
		bad_none = bad_none " pipe-class(no write fallback note)"
}
END {
	check(nrec > 0, "JSON has records (" nrec ")")
	nv = split(want_variants, wv, " ")
	split("devzero none copy zeropage folio", wi, " ")
	missing = ""
	for (a = 1; a <= nv; a++)
		for (b = 1; b <= 5; b++)
			if (!((wv[a] "/" wi[b]) in seen)) missing = missing " " wv[a] "/" wi[b]
	check(nv > 0 && missing == "", "a record for every workload x implementation" missing)
	check(bad_complete == "", "records complete" bad_complete)
	check(bad_zero == "", "non-zero ops/sec where splice is supported" bad_zero)
	check(bad_none == "", "none" (devzero_splice ? "" : " and devzero (kernel before 6.7)") ": splice/sendfile/fill/splice-write unsupported (EINVAL)" bad_none)
	check(fills != "" && bad_fill == "", "fill counts match the slot formulas (folio " folio "):" fills bad_fill)
	check(bad_iowq == "", "io_uring reads on zsplice need no io-wq workers" bad_iowq)
	check(("splice-write-64K/full-zeropage" in seen) && bad_fullw == "", "splice into fullsplice fails with EINVAL, as into /dev/full" bad_fullw)
}' "$DIR/smoke.json" > "$DIR/checks.txt"
while read -r st name; do
	tap "$st" "$name"
done < "$DIR/checks.txt"

awk '/^\{"source"/ { n++; if ($0 !~ /"threads":2/ || $0 ~ /"unsupported":true/) bad++ }
     /"impl":"floor"/ { fl++ }
     END { exit !(n == 10 && fl == 1 && !bad) }' "$DIR/smoke2.json"
tap $? "2-thread records present and supported, the floor among them"

PARAM=/sys/module/zsplice/parameters/splice_impl
STATS=/sys/kernel/debug/zsplice/zsplice/stats
ORIG=$(cat $PARAM)
stat_of() {	# name: its value in the module's statistics of /dev/zsplice
	awk -v n="$1" '$1 == n { print $2 }' $STATS 2>/dev/null
}

# zsbench exec: a program that splices from /dev/zero, with folio while it
# runs; splice_impl copy before and after.
if command -v stress-ng >/dev/null; then
	SPLICER="stress-ng --splice 1 --timeout 3"
else
	SPLICER="$ZSBENCH run --quiet --impl devzero --workload splice-64K --threads 1 --runs 1"
fi
echo copy > $PARAM
calls=$(stat_of splice_folio_calls)
# shellcheck disable=SC2086 # the command's words
"$ZSBENCH" exec --impl folio --stats -- $SPLICER > "$DIR/exec.out" 2> "$DIR/exec.err"
st=$?
grep -q "^zsbench exec: /dev/zsplice: [1-9][0-9]* splice_read calls" "$DIR/exec.err"
tap $((st + $?)) "zsbench exec --impl folio -- $SPLICER: exit 0, splices counted (exit $st)"
if [ $st = 0 ]; then grep -v "^stress-ng: " "$DIR/exec.err"; else cat "$DIR/exec.err"; fi | sed 's/^/# /'
now=$(stat_of splice_folio_calls)
[ -n "$now" ] && [ "$now" -gt "${calls:-0}" ]
tap $? "exec: the module's splice_folio_calls grew ($calls -> $now)"
[ "$(cat $PARAM)" = copy ]
tap $? "exec: splice_impl restored (copy, is $(cat $PARAM))"
inside=$("$ZSBENCH" exec --impl zeropage -- sh -c "cat $PARAM; stat -L -c %t:%T /dev/zero" 2>/dev/null | tr '\n' ' ')
want="zeropage $(stat -L -c %t:%T /dev/zsplice) "
[ "$inside" = "$want" ] && [ "$(stat -L -c %t:%T /dev/zero)" = 1:5 ]
tap $? "exec: CMD sees zeropage and /dev/zsplice as /dev/zero; outside /dev/zero stays 1:5 (got '$inside', want '$want')"
"$ZSBENCH" exec -- sh -c 'exit 7' 2>/dev/null
st=$?
[ $st = 7 ]
tap $? "exec: CMD's exit status (7, got $st)"
"$ZSBENCH" exec --impl zero -- true 2> "$DIR/exec-bad.err"
st=$?
[ $st = 2 ] && grep -q "none, copy, zeropage or folio" "$DIR/exec-bad.err"
tap $? "exec --impl zero: exit 2 naming the implementations (got $st)"

# SIGINT and SIGTERM: run switches splice_impl for a (stand-in) stress-ng
# that sleeps, exec for its command; both must put copy back and exit
# 128+signo.  A background job of a shell without job control ignores
# SIGINT unless it catches it: SIGTERM shows a run that does not.
cat > "$DIR/stress-ng" <<'EOF2'
#!/bin/sh
[ "$1" = --version ] && echo "stress-ng, version 0.15.06 (zsbench smoke stand-in)" && exit 0
exec sleep 30
EOF2
chmod +x "$DIR/stress-ng"
signal() {	# SIG name command...: start it, SIG once splice_impl is none
	sig=$1
	name=$2
	shift 2
	echo copy > $PARAM
	"$@" > /dev/null 2> "$DIR/signal.err" &
	pid=$!
	n=0
	while [ "$(cat $PARAM)" != none ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	mid=$(cat $PARAM)
	kill -"$sig" $pid
	wait $pid
	st=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$mid" = none ] && [ $st = $want ] && [ "$(cat $PARAM)" = copy ]
	tap $? "SIG$sig during $name: splice_impl none -> copy again, exit $want (saw $mid, exit $st, now $(cat $PARAM))"
}
RUN_STOPPED="run --no-load --quiet --workload stress-ng --impl none --threads 1 --runs 1 \
	--tool-duration 20 --stress-ng-bin $DIR/stress-ng"
# shellcheck disable=SC2086 # the options' words
signal INT "zsbench run --workload stress-ng" "$ZSBENCH" $RUN_STOPPED
# shellcheck disable=SC2086
signal TERM "zsbench run --workload stress-ng" "$ZSBENCH" $RUN_STOPPED
signal INT "zsbench exec" "$ZSBENCH" exec --impl none -- sleep 30
echo "$ORIG" > $PARAM

ktap_finished
