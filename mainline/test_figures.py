#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of mainline/figures.py.

Run: python3 -m unittest discover -s mainline -p 'test_figures.py'
(or, in mainline/, python3 -m unittest test_figures).  The planted-figure
cases copy the tree's zero page cover and results into a scratch tree, change
one figure into a near number no run saw and expect `check` to fail naming
file, line and number.
"""
import io
import os
import re
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figures as F  # noqa: E402

RESULTS = """\
# make mem-check MEM_KERNELS="stock v3" MEM_PHASES="guest icount"
# linux-source-7.3.tar.xz; summary written at commit abc1234, 2026-12-07T02:14:34Z; each section names the commit of its boot
# verdict: PASS
# stress-ng: stress-ng, version 0.15.06 (gcc 12.2.0)
== guest-stock (7.3.4-zsa9adb1af; commit abc1234, 2026-12-07T02:02:13Z, guest: mitigations=off init_on_alloc=1)
  fill: zsplice copy pipe 64 KiB: 16 splices of 1 byte(s) (expected 16) in 0.00 s
  splice_int_max: # Totals: pass:0 fail:5 xfail:0 xpass:0 skip:0 error:0
  intmax: fionread -2147483648
  intmax: splice -2147483648
  intmax: tee 2147483648
  intmax: uring_splice -2147483648
  intmax: uring_tee -2147483648
devzero: 785.89 ops/s (47154 ops), 2 of 2 instances asleep in pipe_wait_writable
none: 56780.36 ops/s (3406857 ops), 0 of 2 instances asleep in pipe_wait_writable
  devzero /dev/zero tcp threads 2 bytes 65536 seconds 5.01 MBps 215.8
  copy /dev/zsplice odirect:/dev/loop0 threads 1 bytes 65536 seconds 5.01 MBps 171.9
  program pv median ns 109490748 GiBps 4.567 ns-per-GiB 218981496
  tcp_mmap: received 256 MB (96.6492 % mmap'ed) in 0.201975 s, 10.6324 Gbit
  kselftest splice: short_splice_read.sh ok
  zeroout: /dev/loop1 64 MiB zeroed, ok
  setup: persistent_huge_zero_folio 1, thp_zero_page_alloc 0 -> 1
  setup: writing 0 after pinning refused
  zeroout: write_zeroes_max_bytes 0, thp_zero_page_alloc 1 -> 1
  ltp: splice07 pass 613 fail 0 brok 0 conf 2 warn 0 exit 0
  ltp: tee02 pass 2 fail 1 brok 3 conf 4 warn 5 exit 7
== icount-stock (7.3.4-zsa9adb1af; commit abc1234, 2026-12-07T02:20:13Z, guest: mitigations=off init_on_alloc=1)
  program uutils-cat median ns 60000000 GiBps 8.944 ns-per-GiB 120000000
== guest-v3+huge-zero-folio (7.3.4-zs28f74fc3; commit abc1234, 2026-12-07T02:09:49Z, guest: mitigations=off init_on_alloc=1)
  fill: zsplice folio pipe 1024 KiB: 1044481 splices of 512 byte(s) (expected 1044481) in 1.26 s
devzero: 120624.85 ops/s (7237340 ops), 0 of 2 instances asleep in pipe_wait_writable
== quick-perf (7.3.4-zs11111111; commit abc1234, 2026-12-07T03:00:00Z, guest: mitigations=off init_on_alloc=1)
  fill: zsplice zeropage pipe 64 KiB: 61441 splices of 1 byte(s) (expected 61441) in 0.06 s
  ltp: splice01 pass 1 fail 0 brok 0 conf 0 warn 0 exit 0
== zsbench compare stock v3
base: zsbench-stock.json  kernel 7.3.4-zsa9adb1af
cand: zsbench-v3.json  kernel 7.3.4-zsbb3d3623

zsbench-stock.js             zsbench-v3.json
---------------- ---------------------------
         %stddev     %change         %stddev
             \\          |                \\
     56299 ±  4%    +459.1%     314760        zsbench.splice-1.1t.ops_per_sec [devzero]
    274.39        +13804.8%      38153        zsbench.splice-1M.1t.ops_per_sec [devzero]
== zsbench compare stock v3, guest instructions per op (-icount; 7.3.4-zsbb3d3623; commit abc1234, 2026-12-07T02:14:13Z, guest: mitigations=off init_on_alloc=1)
base: icount-stock.json  kernel 7.3.4-zsa9adb1af
cand: icount-v3.json  kernel 7.3.4-zsbb3d3623

     85065           -97.2%       2418        icount.splice-64K.1t.ns_per_op [devzero]
   1337149           -98.3%      22107        icount.splice-1M.1t.ns_per_op [devzero]
    747.86        +1.1e+05%      45232        icount.splice-1M.1t.ops_per_sec [devzero]
     84779           -98.9%     890.70        icount.sendfile-null-64K.1t.ns_per_op [devzero]
"""


def figs():
    return F.parse("results.txt", RESULTS)


class Parse(unittest.TestCase):
    def test_header(self):
        f = figs()
        self.assertEqual(f["run.commit"], "abc1234")
        self.assertEqual(f["run.command"],
                         'make mem-check MEM_KERNELS="stock v3" MEM_PHASES="guest icount"')
        self.assertEqual(f["run.stressng.version"], "0.15.06")
        self.assertEqual(f["run.verdict"], "PASS")
        self.assertEqual(f["boot.stock.release"], "7.3.4-zsa9adb1af")

    def test_sections(self):
        f = figs()
        self.assertEqual(f["fill.stock.64K"], "16")
        self.assertEqual(f["fill.v3+huge-zero-folio.1M.bytes"], "512")
        self.assertEqual(f["quick.fill.perf.64K"], "61441")
        self.assertEqual(f["ksft.stock.splice_int_max.fail"], "5")
        self.assertEqual(f["lkp.stock.devzero"], "785.89")
        self.assertEqual(f["lkp.stock.devzero.asleep"], "2")
        self.assertEqual(f["lkp.stock.none"], "56780.36")
        self.assertEqual(f["tcp.stock.devzero.t2"], "215.8")
        self.assertEqual(f["odirect.stock.copy.t1"], "171.9")
        for t, v in (("fionread", "-2147483648"), ("splice", "-2147483648"),
                     ("tee", "2147483648"), ("uring_splice", "-2147483648"),
                     ("uring_tee", "-2147483648")):
            self.assertEqual(f["intmax.stock." + t], v)

    def test_programs(self):
        f = figs()
        self.assertEqual(f["program.stock.pv"], "4.567")
        self.assertEqual(f["program.stock.pv.ns_per_gib"], "218981496")
        self.assertEqual(f["insn.stock.uutils-cat"], "120000000")
        self.assertNotIn("program.stock.uutils-cat", f)
        self.assertEqual(f["icount.boot.stock.commit"], "abc1234")
        self.assertEqual(f["tcp_mmap.stock.mmap_pct"], "96.6492")
        self.assertEqual(f["ksplice.stock.short_splice_read.sh"], "ok")
        self.assertEqual(f["zeroout.stock"], "ok")
        self.assertEqual(f["setup.stock.thp_zero_page_alloc.after"], "1")
        self.assertEqual(f["setup.stock.write0"], "refused")
        self.assertEqual(f["zeroout.stock.mib"], "64")
        self.assertEqual(f["zeroout.stock.write_zeroes_max_bytes"], "0")
        self.assertEqual(f["zeroout.stock.thp_zero_page_alloc.after"], "1")

    def test_ltp(self):
        f = figs()
        self.assertEqual(f["ltp.stock.splice07.pass"], "613")
        self.assertEqual(f["ltp.stock.splice07.conf"], "2")
        for name, v in (("pass", "2"), ("fail", "1"), ("brok", "3"), ("conf", "4"),
                        ("warn", "5"), ("exit", "7")):
            self.assertEqual(f["ltp.stock.tee02." + name], v)
        self.assertEqual(f["quick.ltp.perf.splice01.pass"], "1")
        self.assertNotIn("ltp.perf.splice01.pass", f)
        # a line that is not one of ltp-splice.sh's gives no key
        self.assertEqual(F.parse("r", "== guest-x (r; commit c, d, guest: g)\n"
                                      "  ltp: tee01 pass 1 fail 0\n"), F.parse(
            "r", "== guest-x (r; commit c, d, guest: g)\n"))

    def test_compare(self):
        f = figs()
        self.assertEqual(f["zsbench.stock.splice-1.1t"], "56299")
        self.assertEqual(f["zsbench.stock.splice-1.1t.ops_per_sec.stddev"], "4")
        self.assertEqual(f["zsbench.v3.splice-1M.1t"], "38153")
        self.assertEqual(f["zsbench.v3.splice-1.1t.ops_per_sec.change"], "+459.1")
        self.assertEqual(f["icount.v3.splice-1M"], "22107")
        self.assertEqual(f["icount.stock.splice-1M"], "1337149")
        self.assertEqual(f["icount.v3.sendfile-null-64K"], "890.70")
        self.assertEqual(f["icount.v3.splice-1M.1t.ops_per_sec.change"], "+1.1e+05")
        self.assertEqual(f["icount.v3.commit"], "abc1234")
        self.assertNotIn("icount.v3.splice-1M.1t.ops_per_sec.stddev", f)

    def test_conflict(self):
        bad = RESULTS + ("== zsbench compare stock rfc\n"
                         "     56300 ±  4%    +459.1%     314760        "
                         "zsbench.splice-1.1t.ops_per_sec [devzero]\n")
        first = RESULTS.splitlines().index(
            next(x for x in RESULTS.splitlines() if "56299" in x)) + 1
        last = len(bad.splitlines())
        with self.assertRaisesRegex(F.FiguresError,
                                    r"results\.txt:%d: zsbench\.stock\.splice-1\.1t"
                                    r"\.ops_per_sec = 56300, but line %d said 56299"
                                    % (last, first)):
            F.parse("results.txt", bad)

    def test_zeroout_after(self):
        f = F.parse("results.txt", (
            "== quick-rfc (7.3.4-zs7c834cc9; commit abc1234, 2026-12-07T02:02:13Z, guest: x)\n"
            "  zeroout: write_zeroes_max_bytes 4294966784 -> 0, thp_zero_page_alloc 1 -> 1\n"))
        self.assertEqual(f["quick.zeroout.rfc.write_zeroes_max_bytes"], "4294966784")
        self.assertEqual(f["quick.zeroout.rfc.write_zeroes_max_bytes.after"], "0")
        self.assertEqual(f["quick.zeroout.rfc.thp_zero_page_alloc.before"], "1")
        self.assertEqual(f["quick.zeroout.rfc.thp_zero_page_alloc.after"], "1")

    def test_times(self):
        f = F.parse("results.txt", (
            "# make mem-check MEM_KERNELS=\"stock\" MEM_PHASES=\"guest icount\"\n"
            "# verdict: PASS\n"
            "# elapsed: 1234 s, of which kernel builds 567 s\n"
            "== guest-stock (7.3.4-zsa9adb1af; commit abc1234, 2026-12-07T02:02:13Z, guest: x)\n"
            "  time: 190 s in the guest\n"
            "== icount-stock (7.3.4-zsa9adb1af; commit abc1234, 2026-12-07T02:20:13Z, guest: x)\n"
            "  time: 101 s in the guest\n"))
        self.assertEqual(f["run.elapsed"], "1234")
        self.assertEqual(f["run.builds"], "567")
        self.assertEqual(f["time.stock"], "190")
        self.assertEqual(f["icount.time.stock"], "101")

    def test_real_results(self):
        path = os.path.join(F.TOP, "results", "mem-check-7.3.txt")
        if not os.path.exists(path):
            self.skipTest("no results/mem-check-7.3.txt")
        f = F.parse(path)
        for k in ("run.commit", "run.command", "run.stressng.version",
                  "icount.stock.splice-1M", "icount.zero.sendfile-tcp-64K",
                  "lkp.stock.devzero", "lkp.stock.devzero.asleep", "lkp.zero.none",
                  "tcp.stock.devzero.t2", "odirect.zero.copy.t1", "fill.zero.64K",
                  "ksft.stock.splice_int_max.fail", "intmax.stock.fionread",
                  "icount.rfc@persistent.splice-1M", "lkp.rfc@persistent.devzero",
                  "program.stock.pv", "program.zero.uutils-cat", "insn.zero.pv",
                  "ksplice.stock.short_splice_read.sh"):
            self.assertIn(k, f)


class Render(unittest.TestCase):
    def r(self, text):
        return F.render_text(text, figs(), "t.in", set())

    def test_formats(self):
        self.assertEqual(self.r("{{icount.stock.splice-1M}}"), "1,337,149")
        self.assertEqual(self.r("{{icount.stock.splice-1M|raw}}"), "1337149")
        self.assertEqual(self.r("{{lkp.v3+huge-zero-folio.devzero}}"), "120,624.85")
        self.assertEqual(self.r("{{lkp.v3+huge-zero-folio.devzero|int}}"), "120,625")
        self.assertEqual(self.r("{{lkp.stock.devzero|round:1}}"), "785.9")
        self.assertEqual(self.r("{{icount.v3.sendfile-null-64K|int}}"), "891")
        self.assertEqual(self.r("{{intmax.stock.fionread}}"), "-2,147,483,648")
        self.assertEqual(self.r("{{intmax.stock.fionread|raw}}"), "-2147483648")
        self.assertEqual(self.r("{{run.commit}} {{boot.stock.guest}}"),
                         "abc1234 mitigations=off init_on_alloc=1")
        self.assertEqual(self.r("{{!key}}"), "{{key}}")
        self.assertEqual(self.r("[{{icount.stock.splice-1M|>11}}]"), "[  1,337,149]")
        self.assertEqual(self.r("[{{lkp.stock.devzero|round:1|<7}}]"), "[785.9  ]")

    def test_derived(self):
        d = set()
        out = F.render_text("{{icount.stock.splice-64K|times:icount.v3.splice-64K:0}} "
                            "{{zsbench.v3.splice-1.1t|pct:zsbench.stock.splice-1.1t}} "
                            "{{lkp.v3+huge-zero-folio.devzero|times:lkp.stock.none}}",
                            figs(), "t.in", d)
        self.assertEqual(out, "35 +459.1 2.1")
        self.assertEqual(d, {"35", "459.1", "2.1"})

    def test_unknown_key(self):
        with self.assertRaisesRegex(F.FiguresError,
                                    r"t\.in:2: unknown key 'icount\.v3\.splice-2M'.*near"):
            self.r("ok\n{{icount.v3.splice-2M}}\n")

    def test_unknown_filter(self):
        with self.assertRaisesRegex(F.FiguresError, "unknown filter 'pcnt:x'"):
            self.r("{{fill.stock.64K|pcnt:x}}")

    def test_patch_diff_untouched(self):
        text = "Subject: x\n\n{{fill.stock.64K}}\n---\n+\tstruct s = {{0}};\n"
        self.assertEqual(F.render_text(text, figs(), "p.in", patch=True),
                         "Subject: x\n\n16\n---\n+\tstruct s = {{0}};\n")


class Numbers(unittest.TestCase):
    def toks(self, text):
        return [t for _, t in F.measurements(text)]

    def test_measurement_like(self):
        self.assertEqual(self.toks("6,427 and 1.9 times, 453 MB/s, +459.1 %, 99 and 5"),
                         ["6,427", "1.9", "453", "459.1"])

    def test_not_measurements(self):
        text = ("7.3.4 6.12.118 0.15.06 V0.17.00 v3 4K x86_64 s390 1b057bd800c3 "
                "7049fd7 pre-6.7 CVE-2022-0847 mainline/7.3/v3 mem-check-7.3.txt "
                "2026-12-07T02:14:34Z 16-slot 65,536 slots 512 MiB 128 GiB "
                "1,024 times 4,096 loops 2147483648 -2147483648 2147483647 "
                "2147479552 the 2023 report; commit 1234567890ab; "
                "Fixes: 123456789012 (\"x\")")
        self.assertEqual(self.toks(text), [])

    def test_in_results(self):
        nums = F.results_numbers(RESULTS)
        for t in ("786", "785.89", "785.9", "120,625", "22,107", "891", "7.3", "459.1"):
            self.assertTrue(F.in_results(t, nums), t)
        for t in ("22,112", "649", "785.8", "0.4"):
            self.assertFalse(F.in_results(t, nums), t)


class Check(unittest.TestCase):
    """check() on a scratch tree: the tree's zero page cover, its template
    and results, then planted wrong figures."""

    COVER = "mainline/7.3/zero/cover"
    KEY = "icount.zero.splice-1M"

    def setUp(self):
        self.top = tempfile.mkdtemp(prefix="figures-test.")
        self.addCleanup(shutil.rmtree, self.top)
        results = "results/mem-check-7.3.txt"
        for rel in (results, self.COVER + ".in", self.COVER):
            src = os.path.join(F.TOP, rel)
            if not os.path.exists(src):
                self.skipTest("no %s in the tree" % rel)
            os.makedirs(os.path.dirname(os.path.join(self.top, rel)), exist_ok=True)
            shutil.copy(src, os.path.join(self.top, rel))
        path = os.path.join(self.top, results)
        figs = F.parse(path)
        with open(path) as f:
            nums = F.results_numbers(f.read())
        # the figure as the cover has it, and a near one the run never saw
        self.good = F.render_text("{{%s|int}}" % self.KEY, figs)
        base = int(float(figs[self.KEY]))
        self.bad = next(b for b in (F.fmt(Decimal(base + d)) for d in range(5, 500))
                        if not F.in_results(b, nums))

    def path(self, rel):
        return os.path.join(self.top, rel)

    def edit(self, rel, old, new):
        with open(self.path(rel)) as f:
            text = f.read()
        self.assertIn(old, text)
        with open(self.path(rel), "w") as f:
            f.write(text.replace(old, new, 1))

    def check(self):
        errors, _ = F.check(self.top)
        return errors

    def placeholder(self):
        """The first placeholder of KEY in the cover's template."""
        with open(self.path(self.COVER + ".in")) as f:
            m = re.search(r"\{\{%s(\|[^}]*)?\}\}" % re.escape(self.KEY), f.read())
        self.assertIsNotNone(m, self.KEY)
        return m.group(0)

    def test_tree_agrees(self):
        self.assertEqual(self.check(), [])

    def test_planted_in_generated_cover(self):
        self.edit(self.COVER, self.good, self.bad)
        errors = self.check()
        print("\nplanted %s for %s in the generated cover:\n  " % (self.bad, self.good)
              + "\n  ".join(errors))
        self.assertTrue(any(e.startswith(self.COVER + ":") and "stale" in e
                            and self.bad in e for e in errors), errors)
        self.assertTrue(any(e.startswith(self.COVER + ":") and
                            e.endswith(": %s is not in results/mem-check-7.3.txt" % self.bad)
                            for e in errors), errors)

    def test_planted_in_template(self):
        # the template typed by hand, rendered again: (a) holds, (b) fails
        self.edit(self.COVER + ".in", self.placeholder(), " %s " % self.bad)
        text, _ = F.render_file(self.path(self.COVER + ".in"), self.top)
        with open(self.path(self.COVER), "w") as f:
            f.write(text)
        errors = self.check()
        print("\nplanted %s in the template, rendered:\n  " % self.bad + "\n  ".join(errors))
        self.assertEqual(len(errors), 1, errors)
        self.assertRegex(errors[0], r"^%s:\d+: %s is not in results/mem-check-7\.3\.txt$"
                         % (re.escape(self.COVER), re.escape(self.bad)))

    def test_template_changed_not_rendered(self):
        self.edit(self.COVER + ".in", self.placeholder(), " %s " % self.bad)
        errors = self.check()
        self.assertTrue(any("stale" in e for e in errors), errors)

    def test_unknown_key_in_template(self):
        self.edit(self.COVER + ".in", self.placeholder(), "{{icount.v4.splice-1M}}")
        errors = self.check()
        self.assertTrue(any("cover.in:" in e and "unknown key 'icount.v4.splice-1M'" in e
                            for e in errors), errors)

    def test_carrier_without_template(self):
        os.makedirs(self.path("mainline/7.3/fix"))
        with open(self.path("mainline/7.3/fix/cover"), "w") as f:
            f.write("Subject: x\n\nFIONREAD -2147483648 on 6.12.118, 65536 slots.\n")
        self.assertEqual(self.check(), [])
        with open(self.path("mainline/7.3/fix/cover"), "w") as f:
            f.write("Subject: x\n\nit took 0.4 s\n")
        errors = self.check()
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("mainline/7.3/fix/cover:3: 0.4 looks like a measurement, and the "
                      "file names no results file", errors[0])
        with open(self.path("mainline/7.3/fix/cover"), "w") as f:
            f.write("Subject: x\nFigures: results/mem-check-7.3.txt\n\n"
                    "it took %s ns, stock %s\n" % (self.bad, self.good))
        self.assertEqual(self.check(),
                         ["mainline/7.3/fix/cover:4: %s is not in results/mem-check-7.3.txt"
                          % self.bad])

    def test_patch_diff_not_checked(self):
        os.makedirs(self.path("mainline/7.3/fix"))
        with open(self.path("mainline/7.3/fix/0001-x.patch"), "w") as f:
            f.write("Subject: x\n\nno figures\n---\n+\tif (n > 123456)\n")
        self.assertEqual(self.check(), [])

    def test_main_check_output(self):
        self.edit(self.COVER, self.good, self.bad)
        old = F.TOP
        F.TOP = self.top
        try:
            out = io.StringIO()
            with redirect_stdout(out):
                rc = F.main(["check"])
        finally:
            F.TOP = old
        self.assertEqual(rc, 1)
        self.assertIn("figures: %s:" % self.COVER, out.getvalue())


if __name__ == "__main__":
    unittest.main()
