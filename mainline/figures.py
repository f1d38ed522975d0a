#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Figures of the mainline/ covers, changelogs and docs, from results files.

No figure in a cover, a changelog or Documentation/porting-to-mem.rst is
typed by hand: it comes from a results file of `make mem-check`
(results/mem-check-<version>.txt, which names its command and commit), and
`figures.py check` fails when text and results disagree.

Usage:
  figures.py list RESULTS            every figure of RESULTS, "key = value"
  figures.py render [RESULTS] FILE.in...
                                     write FILE from FILE.in (RESULTS, when
                                     given, must be the file FILE.in names)
  figures.py update                  render every template of the tree
  figures.py check                   the checks below, for the whole tree

Results file (the summary section of mainline/mem-check.sh writes it).
Keys are dotted; K is a kernel name as the sections give it (stock, v3,
v3+huge-zero-folio, rfc, ...), W a zsbench workload (splice-1M, ...):
  run.command, run.source, run.commit, run.date, run.verdict
                      the header ("# make mem-check ...", "# <source>;
                      summary written at commit C, DATE; ...", "# verdict:")
  run.stressng        "# stress-ng: <stress-ng --version>" (LKP's command);
  run.stressng.version  its version alone (0.15.06)
  boot.K.release, boot.K.commit, boot.K.date, boot.K.guest
                      "== guest-K (RELEASE; commit C, DATE, guest: OPTIONS)"
  fill.K.64K (.1M), .bytes, .expected, .seconds, .impl
                      "  fill: zsplice IMPL pipe 64 KiB: N splices of B
                      byte(s) (expected E) in S s"
  ksft.K.TEST.pass (.fail .xfail .xpass .skip .error)
                      "  TEST: # Totals: pass:N fail:N ..."
  lkp.K.NAME, .ops, .asleep, .instances
                      "NAME: X ops/s (N ops), A of B instances asleep in ..."
  tcp.K.IMPL.tN, odirect.K.IMPL.tN (MB/s), .seconds
                      "  IMPL DEV tcp|odirect:DEV threads N bytes B
                      seconds S MBps X"
  intmax.K.TEST       "  intmax: TEST VALUE": what a failing splice_int_max
                      test got (fionread, splice, tee, uring_splice,
                      uring_tee)
  zsbench.K.W.T.METRIC, its .change (against the base) and .stddev (%);
  zsbench.K.W.T       the same for ops_per_sec
                      "== zsbench compare BASE K" tables
  icount.K.W.1t.METRIC, .change, .stddev; icount.K.W = ns_per_op at 1t,
  which under -icount is guest instructions per operation;
  icount.K.release, icount.K.commit, icount.K.date, icount.K.guest
                      "== zsbench compare BASE K, guest instructions per op
                      (-icount; RELEASE; commit C, DATE, guest: OPTIONS)"
  program.K.NAME (GiB/s), program.K.NAME.ns_per_gib
                      "  program NAME median ns T GiBps G ns-per-GiB P"
                      of a guest section (mainline/guest/programs.sh)
  insn.K.NAME         P of the same line in an "== icount-K" section:
                      guest instructions per GiB moved
  icount.boot.K.release, .commit, .date, .guest  that section's boot
  tcp_mmap.K.mb, tcp_mmap.K.mmap_pct
                      "  tcp_mmap: received M MB (P % mmap'ed) ..."
  ksplice.K.TEST      "  kselftest splice: TEST ok|not ok": the kernel's
                      own splice selftests
  time.K              "  time: N s in the guest" (the boot's wall-clock
                      seconds; icount.time.K for the -icount boot)
  run.elapsed, run.builds
                      "# elapsed: N s, of which kernel builds N s"
  setup.K.knob, setup.K.thp_zero_page_alloc.before, .after
                      "  setup: persistent_huge_zero_folio N,
                      thp_zero_page_alloc A -> B" (@persistent);
  setup.K.write0      "  setup: writing 0 after pinning refused" (or
                      "was accepted")
  zeroout.K (ok), zeroout.K.mib
                      "  zeroout: DEV N MiB zeroed, ok" (BLKZEROOUT
                      checked, mainline/guest/zeroout.sh);
  zeroout.K.write_zeroes_max_bytes (.after), .thp_zero_page_alloc.before, .after
                      "  zeroout: write_zeroes_max_bytes N [-> M],
                      thp_zero_page_alloc A -> B"
  ltp.K.TEST.pass (.fail .brok .conf .warn), ltp.K.TEST.exit
                      "  ltp: TEST pass P fail F brok B conf C warn W
                      exit S": the counts of LTP's Summary of a splice or
                      tee test and its exit status
                      (mainline/guest/ltp-splice.sh)
Sections "== quick-K" (MEM_PHASES=quick) give the same keys under
"quick.": quick.fill.K.64K, quick.boot.K.release, ...

Templates.  FILE.in renders to FILE: cover.in, *.patch.in (only the
message, up to the first "---" line, is a template; the diff is copied as
it is) and *.rst.in.  A template names its results file in a line
"Figures: results/mem-check-7.3.txt" (a cover's or patch's header line;
".. Figures: ..." in rst), relative to the top of the tree.  {{key}} is
the figure, numbers with thousands commas (22,107; 120,624.85); filters:
  {{key|raw}}          as the results file has it
  {{key|int}}          rounded to an integer (786, 120,625)
  {{key|round:N}}      rounded to N decimals
  {{key|pct:key2}}     percent change from key2 to key, one decimal, signed
                       (+459.1)
  {{key|times:key2}}   key / key2, one decimal (2.1); times:key2:N, N decimals
  {{key|...|>N}}       any of these right-aligned in N columns (<N: left)
  {{!text}}            "{{text}}" itself (to write about placeholders)
An unknown key or filter fails, naming the template, its line and the key.

`figures.py check`, for the tree:
 (a) every template's FILE exists and equals a fresh render (stale text
     fails, naming FILE and its first differing line);
 (b) every measurement-like number (below) of FILE appears in the results
     file that FILE names, or is a figure that the fresh render derived
     (pct:, times:); a number not there fails, naming file, line and
     number;
 (c) files that carry figures but have no template -- mainline/*/*/cover,
     mainline/*/*/*.patch (the message only), Documentation/
     porting-to-mem.rst -- pass (b) against the results file they name;
     one with a measurement-like number and no "Figures:" line fails.

A number (rule (b)) is a run of digits with optional thousands commas and
decimals (1,337,149; 785.89), not touching a letter, digit or "_" on
either side (so v3, 4K, x86_64, s390, 0x1f, 1b057bd800c3, 7049fd7 are not
numbers).  A number is measurement-like when it has a comma or a decimal
point, or is an integer of at least 100, unless it is
  - a version: two or more dots (7.3.4, 6.12.118, 0.15.06);
  - part of a name, path, date or time: preceded by "-", "/" or ":" that
    follows a letter or digit (pre-6.7, CVE-2022-0847, mem-check-7.3.txt,
    02:14:34), by "/" at all (mainline/7.3/), or followed by "-", "/" or
    ":" and a letter or digit (7.3/, 16-slot, 2026-12-07);
  - a size or count of a unit: followed by KiB, MiB, GiB, TiB, bytes,
    byte, slots, slot, pages, page or bits (65,536 slots, 512 MiB);
  - a constant: a power of two (1,024, 4096, 2147483648), INT_MAX
    2147483647 or MAX_RW_COUNT 2147479552, with or without sign;
  - a year: four digits from 1990 to 2099, no comma;
  - a commit id: seven or more digits after "commit " or before ' ("'.
It appears in the results file when, commas and signs stripped, it equals
a number there or that number rounded to the decimals it shows (786 for
785.89); the major.minor of a version there (7.3 of 7.3.4) counts too.
"""
import difflib
import os
import re
import subprocess
import sys
from decimal import Decimal, InvalidOperation, ROUND_HALF_UP

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Files that carry figures without a template (rule (c)), as globs under
# the top of the tree, and templates: names ending in these plus ".in".
CARRIER_RE = re.compile(r"^(mainline/[^/]+/[^/]+/(cover|[^/]+\.patch)"
                        r"|Documentation/porting-to-mem\.rst)$")
TEMPLATE_RE = re.compile(r"(^|/)(cover|[^/]+\.patch|[^/]+\.rst)\.in$")
FIGURES_RE = re.compile(r"^(?:\.\.\s+)?Figures:\s*(\S+)\s*$", re.M)


class FiguresError(Exception):
    pass


# ------------------------------------------------------------ parsing

def _size_key(num, unit):
    kib = int(num) * {"KiB": 1, "MiB": 1024, "GiB": 1024 * 1024}[unit]
    if kib % (1024 * 1024) == 0:
        return "%dG" % (kib // (1024 * 1024))
    if kib % 1024 == 0:
        return "%dM" % (kib // 1024)
    return "%dK" % kib


class _Figs(dict):
    """A dict that refuses one key with two different values."""

    def __init__(self, path):
        super().__init__()
        self.path = path
        self.where = {}

    def put(self, key, value, lineno):
        value = str(value)
        if key in self and self[key] != value:
            raise FiguresError("%s:%d: %s = %s, but line %d said %s"
                               % (self.path, lineno, key, value,
                                  self.where[key], self[key]))
        self[key] = value
        self.where.setdefault(key, lineno)


SECTION_RE = re.compile(r"^== (guest|quick|icount)-(\S+) \((.*)\)\s*$")
COMPARE_RE = re.compile(r"^== zsbench compare (\S+) (\S+?)"
                        r"(?:, guest instructions per op \((.*)\))?\s*$")
BOOT_RE = re.compile(r"^(?:-icount; )?([^;]*); commit (\S+), (\S+), guest: (.*)$")
FILL_RE = re.compile(r"^\s+fill: zsplice (\S+) pipe (\d+) (KiB|MiB|GiB): (\d+) "
                     r"splices of (\d+) byte\(s\) \(expected (\d+)\) in ([\d.]+) s\s*$")
KSFT_RE = re.compile(r"^\s+(\S+): # Totals: (.*)$")
LKP_RE = re.compile(r"^\s*([\w.-]+): ([\d.]+) ops/s \((\d+) ops\), "
                    r"(\d+) of (\d+) instances asleep")
CONT_RE = re.compile(r"^\s+(\S+) (\S+) (tcp|odirect)(?::\S+)? threads (\d+) "
                     r"bytes (\d+) seconds ([\d.]+) MBps ([\d.]+)\s*$")
INTMAX_RE = re.compile(r"^\s+intmax: (\w+) (-?\d+)\b")
PROGRAM_RE = re.compile(r"^\s+program (\S+) median ns (\d+) GiBps ([\d.]+) ns-per-GiB (\d+)\s*$")
TCPMMAP_RE = re.compile(r"^\s+tcp_mmap: received ([\d.e+]+) MB \(([\d.e+]+) % mmap'ed\)")
KSPLICE_RE = re.compile(r"^\s+kselftest splice: (\S+) (ok|not ok)\s*$")
TIME_RE = re.compile(r"^\s+time: (\d+) s in the guest\s*$")
SETUP_RE = re.compile(r"^\s+setup: persistent_huge_zero_folio (\d+), "
                      r"thp_zero_page_alloc (\d+) -> (\d+)\s*$")
SETUP0_RE = re.compile(r"^\s+setup: writing 0 after pinning (refused|was accepted)\s*$")
ZEROOUT_RE = re.compile(r"^\s+zeroout: \S+ (\d+) MiB zeroed, (ok)\s*$")
ZEROOUT_ENV_RE = re.compile(r"^\s+zeroout: write_zeroes_max_bytes (\d+)(?: -> (\d+))?, "
                            r"thp_zero_page_alloc (\d+) -> (\d+)\s*$")
LTP_RE = re.compile(r"^\s+ltp: (\S+) pass (\d+) fail (\d+) brok (\d+) conf (\d+) "
                    r"warn (\d+) exit (\d+)\s*$")
ROW_RE = re.compile(r"^\s*([\d.e+-]+)\s+(?:±\s*(\d+)%\s+)?([+-][\d.e+]+)%\s+"
                    r"([\d.e+-]+)\s+(?:±\s*(\d+)%\s+)?"
                    r"(\w+)\.(\S+)\.(\d+t)\.(\w+) \[(\S+)\]\s*$")


# Lines whose groups are figures of their own, in group order: key
# PRE AREA.K.NAME (AREA.K where NAME is ""); a group that did not match
# (None) gives no key.
SIMPLE = (
    (SETUP_RE, "setup", ("knob", "thp_zero_page_alloc.before", "thp_zero_page_alloc.after")),
    (SETUP0_RE, "setup", ("write0",)),
    (ZEROOUT_RE, "zeroout", ("mib", "")),
    (ZEROOUT_ENV_RE, "zeroout", ("write_zeroes_max_bytes", "write_zeroes_max_bytes.after",
                                 "thp_zero_page_alloc.before", "thp_zero_page_alloc.after")),
)


def _simple(figs, line, n, pre, k):
    """Put the figures of LINE if it is one of SIMPLE's; True if it was."""
    for rx, area, names in SIMPLE:
        m = rx.match(line)
        if m:
            for name, val in zip(names, m.groups()):
                if val is not None:
                    figs.put("%s%s.%s%s" % (pre, area, k, "." + name if name else ""), val, n)
            return True
    return False


def parse(path, text=None):
    """The figures of results file PATH: {key: value string}."""
    if text is None:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise FiguresError("%s: %s" % (path, e.strerror))
    figs = _Figs(path)
    kernel = None       # figures of a guest/quick section go to this kernel
    pre = ""            # "quick." in a quick section
    compare = None      # (base, cand) in a comparison table
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("# "):
            h = line[2:]
            if n == 1 and h.startswith("make "):
                figs.put("run.command", h, n)
            elif h.startswith("elapsed: "):
                m = re.match(r"^elapsed: (\d+) s, of which kernel builds (\d+) s$", h)
                if m:
                    figs.put("run.elapsed", m.group(1), n)
                    figs.put("run.builds", m.group(2), n)
            elif h.startswith("verdict: "):
                figs.put("run.verdict", h[len("verdict: "):], n)
            elif h.startswith("stress-ng: "):
                v = h[len("stress-ng: "):]
                figs.put("run.stressng", v, n)
                m = re.search(r"version (V?[\d.]*\d)", v)
                figs.put("run.stressng.version", m.group(1) if m else v, n)
            else:
                m = re.match(r"^(\S+); summary written at commit (\S+), (\S+);", h)
                if m:
                    figs.put("run.source", m.group(1), n)
                    figs.put("run.commit", m.group(2), n)
                    figs.put("run.date", m.group(3), n)
            continue
        m = SECTION_RE.match(line)
        if m:
            kernel, compare = m.group(2), None
            pre = {"guest": "", "quick": "quick.", "icount": "icount."}[m.group(1)]
            b = BOOT_RE.match(m.group(3))
            if b:
                for k, v in zip(("release", "commit", "date", "guest"), b.groups()):
                    figs.put("%sboot.%s.%s" % (pre, kernel, k), v, n)
            continue
        m = COMPARE_RE.match(line)
        if m:
            kernel, compare = None, (m.group(1), m.group(2))
            if m.group(3):
                b = BOOT_RE.match(m.group(3))
                if b:
                    for k, v in zip(("release", "commit", "date", "guest"), b.groups()):
                        figs.put("icount.%s.%s" % (m.group(2), k), v, n)
            continue
        if line.startswith("== "):
            kernel = compare = None
            continue
        if compare:
            m = ROW_RE.match(line)
            if m:
                bval, bsd, change, cval, csd, group, w, t, metric, _ = m.groups()
                for k, val, sd in ((compare[0], bval, bsd), (compare[1], cval, csd)):
                    key = "%s.%s.%s.%s.%s" % (group, k, w, t, metric)
                    figs.put(key, val, n)
                    if sd:
                        figs.put(key + ".stddev", sd, n)
                    primary = "ns_per_op" if group == "icount" else "ops_per_sec"
                    if metric == primary:
                        figs.put("%s.%s.%s.%s" % (group, k, w, t), val, n)
                        if group == "icount" and t == "1t":
                            figs.put("%s.%s.%s" % (group, k, w), val, n)
                figs.put("%s.%s.%s.%s.%s.change" % (group, compare[1], w, t, metric),
                         change, n)
            continue
        if kernel is None:
            continue
        k = kernel
        m = TIME_RE.match(line)
        if m:
            figs.put("%stime.%s" % (pre, k), m.group(1), n)
            continue
        m = FILL_RE.match(line)
        if m:
            impl, num, unit, splices, nbytes, expected, secs = m.groups()
            key = "%sfill.%s.%s" % (pre, k, _size_key(num, unit))
            figs.put(key, splices, n)
            figs.put(key + ".bytes", nbytes, n)
            figs.put(key + ".expected", expected, n)
            figs.put(key + ".seconds", secs, n)
            figs.put(key + ".impl", impl, n)
            continue
        m = KSFT_RE.match(line)
        if m:
            for f in m.group(2).split():
                name, _, val = f.partition(":")
                if val:
                    figs.put("%sksft.%s.%s.%s" % (pre, k, m.group(1), name), val, n)
            continue
        m = LKP_RE.match(line)
        if m:
            name, rate, ops, asleep, inst = m.groups()
            key = "%slkp.%s.%s" % (pre, k, name)
            figs.put(key, rate, n)
            figs.put(key + ".ops", ops, n)
            figs.put(key + ".asleep", asleep, n)
            figs.put(key + ".instances", inst, n)
            continue
        m = CONT_RE.match(line)
        if m:
            impl, _dev, mode, threads, _b, secs, mbps = m.groups()
            key = "%s%s.%s.%s.t%s" % (pre, mode, k, impl, threads)
            figs.put(key, mbps, n)
            figs.put(key + ".seconds", secs, n)
            continue
        m = INTMAX_RE.match(line)
        if m:
            figs.put("%sintmax.%s.%s" % (pre, k, m.group(1)), m.group(2), n)
            continue
        m = PROGRAM_RE.match(line)
        if m:
            name, ns, gibps, per_gib = m.groups()
            if pre == "icount.":
                # a guest ns is an instruction under -icount
                figs.put("insn.%s.%s" % (k, name), per_gib, n)
            else:
                figs.put("%sprogram.%s.%s" % (pre, k, name), gibps, n)
                figs.put("%sprogram.%s.%s.ns_per_gib" % (pre, k, name), per_gib, n)
            continue
        m = TCPMMAP_RE.match(line)
        if m:
            figs.put("%stcp_mmap.%s.mb" % (pre, k), m.group(1), n)
            figs.put("%stcp_mmap.%s.mmap_pct" % (pre, k), m.group(2), n)
            continue
        m = KSPLICE_RE.match(line)
        if m:
            figs.put("%sksplice.%s.%s" % (pre, k, m.group(1)), m.group(2), n)
            continue
        if _simple(figs, line, n, pre, k):
            continue
        m = LTP_RE.match(line)
        if m:
            key = "%sltp.%s.%s." % (pre, k, m.group(1))
            for i, name in enumerate(("pass", "fail", "brok", "conf", "warn", "exit")):
                figs.put(key + name, m.group(i + 2), n)
            continue
    return dict(figs)


# ------------------------------------------------------------ numbers

def _dec(s, key="value"):
    try:
        return Decimal(s.replace(",", ""))
    except InvalidOperation:
        raise FiguresError("%s = %r is not a number" % (key, s))


def fmt(d, places=None):
    """Decimal D with thousands commas; PLACES decimals (None: as D has)."""
    if places is not None:
        d = d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    sign = "-" if d < 0 else ""
    s = format(abs(d), "f")
    whole, dot, frac = s.partition(".")
    return sign + format(int(whole), ",") + dot + frac


PLACEHOLDER_RE = re.compile(r"\{\{(.*?)\}\}")


def _value(figs, key, where):
    if key not in figs:
        near = difflib.get_close_matches(key, figs.keys(), n=3)
        raise FiguresError("%s: unknown key %r%s" % (
            where, key, " (near: %s)" % ", ".join(near) if near else ""))
    return figs[key]


ALIGN_RE = re.compile(r"^(.*)\|([<>])(\d+)$")


def substitute(expr, figs, where, derived=None):
    """The text of placeholder EXPR ("key" or "key|filter:args"), padded
    to a column when it ends "|>N" (right-aligned) or "|<N" (left)."""
    if expr.startswith("!"):
        return "{{" + expr[1:] + "}}"
    m = ALIGN_RE.match(expr)
    if m:
        text = substitute(m.group(1), figs, where, derived)
        width = int(m.group(3))
        return text.rjust(width) if m.group(2) == ">" else text.ljust(width)
    key, _, filt = (p.strip() for p in expr.partition("|"))
    raw = _value(figs, key, where)
    if filt == "raw":
        return raw
    if not filt:
        try:
            return fmt(Decimal(raw))
        except InvalidOperation:
            return raw
    name, _, args = filt.partition(":")
    args = args.split(":") if args else []
    val = _dec(raw, key)
    if name == "int" and not args:
        return fmt(val, 0)
    if name == "round" and len(args) == 1 and args[0].isdigit():
        return fmt(val, int(args[0]))
    if name in ("pct", "times") and 1 <= len(args) <= 2:
        other = _dec(_value(figs, args[0], where), args[0])
        places = 1
        if len(args) == 2:
            if not args[1].isdigit():
                raise FiguresError("%s: %s: decimals %r" % (where, expr, args[1]))
            places = int(args[1])
        if other == 0:
            raise FiguresError("%s: %s: %s is 0" % (where, expr, args[0]))
        if name == "pct":
            out = fmt((val - other) / other * 100, places)
            out = out if out.startswith("-") else "+" + out
        else:
            out = fmt(val / other, places)
        if derived is not None:
            derived.add(out.lstrip("+-").replace(",", ""))
        return out
    raise FiguresError("%s: unknown filter %r in {{%s}}" % (where, filt, expr))


def render_text(text, figs, name="template", derived=None, patch=False):
    """TEXT with its placeholders replaced; only the message if PATCH."""
    lines = text.splitlines(keepends=True)
    out = []
    templating = True
    for n, line in enumerate(lines, 1):
        if patch and line.rstrip("\n") == "---":
            templating = False
        if templating:
            line = PLACEHOLDER_RE.sub(
                lambda m: substitute(m.group(1), figs, "%s:%d" % (name, n), derived),
                line)
        out.append(line)
    return "".join(out)


def named_results(text):
    """The results file a text names ("Figures: PATH"), or None."""
    m = FIGURES_RE.search(text)
    return m.group(1) if m else None


# ------------------------------------------------------------ rule (b)

NUM_RE = re.compile(r"(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)*(?!\w)")
UNIT_RE = re.compile(r"\s?(KiB|MiB|GiB|TiB|bytes|byte|slots|slot|pages|page|bits)\b")
CONSTANTS = {2147483647, 2147479552}


def measurements(text):
    """(line, number) of every measurement-like number of TEXT."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in NUM_RE.finditer(line):
            tok, i, j = m.group(0), m.start(), m.end()
            if tok.count(".") >= 2:
                continue                                # version
            before = line[i - 1] if i else ""
            before2 = line[i - 2] if i > 1 else ""
            after = line[j] if j < len(line) else ""
            after2 = line[j + 1] if j + 1 < len(line) else ""
            if before == "/" or (before in "-:" and before and before2.isalnum()):
                continue                                # name, path, time
            if after and after in "-/:" and after2.isalnum():
                continue
            if UNIT_RE.match(line, j):
                continue                                # a size
            plain = tok.replace(",", "")
            if "." not in plain:
                v = int(plain)
                if v in CONSTANTS or (v > 0 and v & (v - 1) == 0):
                    continue                            # constant
                if "," not in tok and len(plain) == 4 and 1990 <= v <= 2099:
                    continue                            # year
                if len(plain) >= 7 and "," not in tok and (
                        line[:i].endswith("commit ") or line[j:].startswith(' ("')):
                    continue                            # commit id
                if "," not in tok and v < 100:
                    continue
            out.append((n, tok))
    return out


def results_numbers(text):
    """Every number of a results file, commas stripped, as Decimals."""
    nums = set()
    for m in re.finditer(r"\d[\d,]*(?:\.\d+)*", text):
        tok = m.group(0).rstrip(",")
        parts = tok.replace(",", "").split(".")
        if len(parts) > 2:
            parts = parts[:2]                           # 7.3 of 7.3.4
        try:
            nums.add(Decimal(".".join(parts)))
        except InvalidOperation:
            pass
    return nums


def in_results(tok, nums, derived=()):
    plain = tok.replace(",", "")
    if plain in derived:
        return True
    t = Decimal(plain)
    places = -t.as_tuple().exponent
    for r in nums:
        if r == t:
            return True
        if -r.as_tuple().exponent > places and \
                r.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) == t:
            return True
    return False


# ------------------------------------------------------------ the tree

def tree_files(top):
    """Paths (relative to TOP) of the files of the tree."""
    if os.path.isdir(os.path.join(top, ".git")) or os.path.isfile(os.path.join(top, ".git")):
        try:
            out = subprocess.run(
                ["git", "-C", top, "ls-files", "--cached", "--others",
                 "--exclude-standard", "-z"],
                check=True, capture_output=True).stdout.decode()
            return sorted(p for p in out.split("\0")
                          if p and os.path.isfile(os.path.join(top, p)))
        except (OSError, subprocess.CalledProcessError):
            pass
    files = []
    for d, dirs, names in os.walk(top):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for x in names:
            files.append(os.path.relpath(os.path.join(d, x), top))
    return sorted(files)


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _message(text):
    """A patch's message: the text up to its first "---" line."""
    out = []
    for line in text.splitlines(keepends=True):
        if line.rstrip("\n") == "---":
            break
        out.append(line)
    return "".join(out)


def render_file(template, top=TOP, results=None, derived=None):
    """The text TEMPLATE (a path) renders to, and the results file it names."""
    text = _read(template)
    rel = os.path.relpath(template, top)
    named = named_results(text)
    if not named:
        raise FiguresError("%s: names no results file (a line "
                           "\"Figures: results/...\")" % rel)
    rpath = os.path.join(top, named)
    if results is not None and os.path.realpath(results) != os.path.realpath(rpath):
        raise FiguresError("%s: names %s, not %s" % (rel, named, results))
    figs = parse(named if os.path.isabs(named) else rpath)
    return render_text(text, figs, rel, derived,
                       patch=template.endswith(".patch.in")), named


def _first_difference(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else "(end of file)"
        y = bl[i] if i < len(bl) else "(end of file)"
        if x != y:
            return i + 1, x, y
    return len(al), "", ""


def _rule_b(rel, text, results_rel, top, derived, errors):
    if rel.endswith(".patch"):
        text = _message(text)
    found = measurements(text)
    if not found:
        return
    if not results_rel:
        n, tok = found[0]
        errors.append("%s:%d: %s looks like a measurement, and the file names no "
                      "results file (a line \"Figures: results/...\")" % (rel, n, tok))
        return
    try:
        nums = results_numbers(_read(os.path.join(top, results_rel)))
    except OSError as e:
        errors.append("%s: names %s: %s" % (rel, results_rel, e.strerror))
        return
    for n, tok in found:
        if not in_results(tok, nums, derived):
            errors.append("%s:%d: %s is not in %s" % (rel, n, tok, results_rel))


def check(top=TOP):
    """Errors of the tree (a list of messages) and a one-line account."""
    errors = []
    files = tree_files(top)
    templates = [p for p in files if TEMPLATE_RE.search(p)]
    generated = {p[:-3] for p in templates}
    for t in templates:
        out = t[:-3]
        derived = set()
        try:
            fresh, named = render_file(os.path.join(top, t), top, derived=derived)
        except FiguresError as e:
            errors.append(str(e))
            continue
        try:
            have = _read(os.path.join(top, out))
        except OSError:
            errors.append("%s: missing (figures.py render %s %s)" % (out, named, t))
            continue
        if have != fresh:
            n, x, y = _first_difference(have, fresh)
            errors.append("%s:%d: stale, differs from a render of %s:\n"
                          "  committed: %s\n  rendered:  %s" % (out, n, t, x, y))
        _rule_b(out, have, named, top, derived, errors)
    carriers = [p for p in files if CARRIER_RE.match(p) and p not in generated]
    for c in carriers:
        text = _read(os.path.join(top, c))
        _rule_b(c, text, named_results(text), top, set(), errors)
    return errors, "%d templates rendered, %d files without a template checked" % (
        len(templates), len(carriers))


# ------------------------------------------------------------ commands

def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1] if argv else __doc__)
        return 0 if argv else 2
    cmd, args = argv[0], argv[1:]
    try:
        if cmd == "list" and len(args) == 1:
            for k, v in parse(args[0]).items():
                print("%s = %s" % (k, v))
            return 0
        if cmd == "render" and args:
            results = None
            if not args[0].endswith(".in"):
                results, args = args[0], args[1:]
            if not args:
                raise FiguresError("render: no FILE.in")
            for t in args:
                if not t.endswith(".in"):
                    raise FiguresError("%s: a template's name ends in .in" % t)
                text, _ = render_file(os.path.abspath(t), TOP, results)
                with open(t[:-3], "w", encoding="utf-8") as f:
                    f.write(text)
                print("figures: wrote %s" % t[:-3])
            return 0
        if cmd == "update" and not args:
            for t in tree_files(TOP):
                if TEMPLATE_RE.search(t):
                    text, _ = render_file(os.path.join(TOP, t), TOP)
                    with open(os.path.join(TOP, t[:-3]), "w", encoding="utf-8") as f:
                        f.write(text)
                    print("figures: wrote %s" % t[:-3])
            return 0
        if cmd == "check" and not args:
            errors, account = check(TOP)
            for e in errors:
                print("figures: " + e)
            print("figures: %s: %s" % (account, "%d errors" % len(errors)
                                       if errors else "text and results agree"))
            return 1 if errors else 0
    except FiguresError as e:
        print("figures: %s" % e, file=sys.stderr)
        return 1
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
