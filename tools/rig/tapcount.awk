# SPDX-License-Identifier: GPL-2.0
#
# Count TAP/KTAP results in the logs of `make check`.
#   awk -f tapcount.awk LOG...
# Logs are split into sections by "# ZSVM-BEGIN name" / "# ZSVM-END name
# rc=N" lines (a log without them is one section).  Counted:
#   - leaf results "ok"/"not ok" at any indentation; a result that closes a
#     block of deeper-indented subtests is a summary and is not counted,
#     except a "not ok" summary whose subtests all passed (one failure);
#   - "# SKIP" results as skipped, "# XFAIL" as passed, "not ok ... # TODO"
#     as skipped, a "1..0 # SKIP" plan (a whole program skipped) as one
#     skipped;
#   - KTAP's version lines, "# Subtest:" and "# Totals:" are comments;
#   - in a section named "kselftests" (kselftest's run_kselftest.sh), the
#     runner's "# "-prefixed program output is one nesting level a prefix:
#     each program's results are leaves under its "ok N selftests: ..."
#     line, which counts only as a failure of its own when none of its
#     results failed (a crash, a timeout, a missing program);
#   - fewer top-level results than the plan(s) announced: the missing ones
#     fail;
#   - a section that ended with a nonzero status and no failing result
#     fails once, one killed by a signal or timeout (status >= 124) always
#     fails once more, one without an END line fails (program or guest died).
# Prints failures as "FAIL: section: text" and the last line
# "N passed, N failed[, N skipped]".

function sec_begin(name) {
	sec = name
	ksft = (name == "kselftests")
	sec_fail = 0; sec_skip = 0; plan = 0; top = 0; topind = -1; last = -1
	delete deep
}

function fail(text) {
	failed++; sec_fail++
	nfail++; why[nfail] = sec ": " text
}

function sec_end(rc) {
	if (plan > 0 && top < plan)
		fail(sprintf("%d of %d planned results missing", plan - top, plan))
	if (rc >= 124)
		fail(sprintf("exited with status %d (killed, crashed or timed out)", rc))
	else if (rc != 0 && sec_fail == 0 && !(rc == 4 && sec_skip > 0))
		fail(sprintf("exited with status %d", rc))
}

# End of a section without its END line: an explicit one died.
function close_section() {
	if (explicit) fail("no end marker (program or guest died)")
	sec_end(0)
	explicit = 0
}

BEGIN { passed = failed = skipped = 0; explicit = 0 }

FNR == 1 {
	if (NR > 1) close_section()
	f = FILENAME; sub(/.*\//, "", f); sec_begin(f)
}

{ sub(/\r$/, "") }

# kselftest's runner: "# # ok 1 x" is "    ok 1 x" (TAP lines only).
ksft && /^# / {
	s = $0; pad = ""
	while (substr(s, 1, 2) == "# ") { s = substr(s, 3); pad = pad "  " }
	if (s ~ /^((not )?ok([ \t]|$)|1\.\.[0-9]+|TAP version)/) $0 = pad s
}

/^# ZSVM-BEGIN / { close_section(); sec_begin($3); explicit = 1; next }

/^# ZSVM-END / {
	rc = $4; sub(/^rc=/, "", rc)
	sec_end(rc + 0); sec_begin(f); explicit = 0; next
}

# Plans: "1..N" (KTAP "  1..N" for subtests is ignored: leaves are counted).
# "1..0 # SKIP reason" (kselftest's ksft_exit_skip, ktap_skip_all) is one
# skipped result.
/^[ \t]*1\.\.[0-9]+/ {
	match($0, /^[ \t]*/); ind = RLENGTH
	if (topind < 0) topind = ind
	if ($0 ~ /^[ \t]*1\.\.0([ \t]|$)/ && $0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/) {
		skipped++; sec_skip++
		# a nested one: its parent's "ok ... # SKIP" is a summary
		if (ind > topind) last = ind
		next
	}
	if (ind == topind) { n = $0; sub(/^[ \t]*1\.\./, "", n); plan += n + 0 }
	next
}

/^[ \t]*(not )?ok([ \t]|$)/ {
	match($0, /^[ \t]*/); ind = RLENGTH
	line = substr($0, ind + 1)
	notok = (line ~ /^not ok/)
	if (topind < 0) topind = ind
	if (ind == topind) top++
	isparent = (last > ind)
	last = ind
	if (isparent) {
		cf = 0
		for (d in deep) if (d + 0 > ind) { cf += deep[d]; delete deep[d] }
		if (notok && cf == 0) fail(line)
		next
	}
	for (d in deep) if (d + 0 > ind) delete deep[d]
	if (line ~ /#[ \t]*[Ss][Kk][Ii][Pp]/ || (notok && line ~ /#[ \t]*TODO/)) {
		skipped++; sec_skip++
	} else if (notok) {
		fail(line); deep[ind]++
	} else {
		passed++
	}
	next
}

END {
	if (NR > 0) close_section()
	for (i = 1; i <= nfail; i++) print "FAIL: " why[i]
	printf "%d passed, %d failed", passed, failed
	if (skipped) printf ", %d skipped", skipped
	printf "\n"
}
