# SPDX-License-Identifier: GPL-2.0
#
# Count TAP/KTAP results in the logs of the rig (make check, the soak,
# check-debug, mem-check).
#   awk [-v lists="LIST..."] -f tapcount.awk LOG...
# Each LOG is one or more TAP documents.  Counted:
#   - leaf results "ok"/"not ok" at any indentation; a result that closes a
#     block of deeper-indented subtests is a summary and is not counted,
#     except a "not ok" summary whose subtests all passed (one failure);
#   - "# SKIP" results as skipped, "# XFAIL" as passed, "not ok ... # TODO"
#     as skipped, a "1..0 # SKIP" plan (a whole program skipped) as one
#     skipped;
#   - KTAP's version lines, "# Subtest:" and "# Totals:" are comments;
#   - kselftest's runner (run_kselftest.sh; from a "# selftests: " line on):
#     its "# "-prefixed program output is one nesting level a prefix, so
#     each program's results are leaves under its "ok N selftests: ..."
#     line, which counts only as a failure of its own when none of its
#     results failed (a crash, a timeout, a missing program);
#   - fewer top-level results in a LOG than its plans announced: the
#     missing ones fail;
#   - lists: kselftest-list.txt files of the jobs (tools/rig/ksft-install.sh);
#     every COLLECTION:PROGRAM listed that no "selftests: COLLECTION:
#     PROGRAM" line announced fails (the guest died or timed out first).
# Prints failures as "FAIL: log: text" and the last line
# "N passed, N failed[, N skipped]".

function fail(text) {
	failed++
	nfail++; why[nfail] = f ": " text
}

function file_end() {
	if (plan > 0 && top < plan)
		fail(sprintf("%d of %d planned results missing", plan - top, plan))
}

BEGIN {
	passed = failed = skipped = 0
	nwant = split(lists, lf, " ")
	nexp = 0
	for (i = 1; i <= nwant; i++)
		while ((getline l < lf[i]) > 0)
			if (l != "") { nexp++; expect[nexp] = l }
}

FNR == 1 {
	if (NR > 1) file_end()
	f = FILENAME; sub(/.*\//, "", f)
	ksft = 0; plan = 0; top = 0; topind = -1; last = -1
	delete deep
}

{ sub(/\r$/, "") }

/^# selftests: [^ ]+: / {
	ksft = 1
	c = $3; sub(/:$/, "", c)
	ran[c ":" $4]++
}

# kselftest's runner: "# # ok 1 x" is "    ok 1 x" (TAP lines only).
ksft && /^# / {
	s = $0; pad = ""
	while (substr(s, 1, 2) == "# ") { s = substr(s, 3); pad = pad "  " }
	if (s ~ /^[ \t]*((not )?ok([ \t]|$)|1\.\.[0-9]+|K?TAP version)/) $0 = pad s
}

# Plans: "1..N" (KTAP "  1..N" for subtests is ignored: leaves are counted).
# "1..0 # SKIP reason" (kselftest's ksft_exit_skip, ktap_skip_all) is one
# skipped result.
/^[ \t]*1\.\.[0-9]+/ {
	match($0, /^[ \t]*/); ind = RLENGTH
	if (topind < 0) topind = ind
	if ($0 ~ /^[ \t]*1\.\.0([ \t]|$)/ && $0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/) {
		skipped++
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
		skipped++
	} else if (notok) {
		fail(line); deep[ind]++
	} else {
		passed++
	}
	next
}

END {
	if (NR > 0) file_end()
	f = "lists"
	for (i = 1; i <= nexp; i++) {
		if (ran[expect[i]] > 0) ran[expect[i]]--
		else fail(expect[i] " never ran (the guest died or timed out first)")
	}
	for (i = 1; i <= nfail; i++) print "FAIL: " why[i]
	printf "%d passed, %d failed", passed, failed
	if (skipped) printf ", %d skipped", skipped
	printf "\n"
}
