#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: perf-gate.py KVER BASELINE UPDATE REV JSON...

The perf gate's verdict (tools/rig/perf-gate.sh runs it):
compares the instruction counts of the -icount run (zsbench JSON files)
with the baseline file of the kernel's line, or with UPDATE=1 rewrites
the baseline; REV names the driver commit measured."""
import json, os, statistics, sys, time

if sys.argv[1:2] in (["-h"], ["--help"]):
    sys.exit(print(__doc__))

kver, bfile, update, rev = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
recs = {}
sources = set()
for path in sys.argv[5:]:
    with open(path) as f:
        doc = json.load(f)
    for r in doc["records"]:
        if r.get("unit") != "ns_per_op":
            continue
        sources.add(r["source"])
        recs[(r["variant"], r["impl"])] = r

def cost(variant, impl):
    r = recs.get((variant, impl))
    if r is None or r.get("unsupported"):
        return None
    return statistics.median(r["values"])

results = []

def check(ok, text, skip=None):
    results.append((ok, text, skip))

def n(v):
    return f"{v:,.0f}"

check(sources == {"icount"},
      "perf: the records are icount measurements (source %s)" % ",".join(sorted(sources)))

for variant, tol in (("splice-4K", 1.5), ("splice-64K", 1.0)):
    c, z = cost(variant, "copy"), cost(variant, "devzero")
    if c is None:
        check(False, f"perf: copy {variant} not measured")
    elif z is None:
        check(True, f"perf: copy {variant} within {tol} % of /dev/zero",
              f"/dev/zero of {kver} cannot splice")
    else:
        d = 100 * (c / z - 1)
        check(abs(d) <= tol, f"perf: copy {variant} within {tol} % of /dev/zero: "
              f"{n(c)} vs {n(z)} instructions ({d:+.2f} %)")

floor = cost("floor", "floor")
FLOOR_LIMIT = 1.05
for variant, impl in (("splice-64K", "folio"), ("splice-1M", "folio")):
    c = cost(variant, impl)
    if c is None or floor is None:
        check(False, f"perf: {impl} {variant} or the floor not measured")
    else:
        check(c <= FLOOR_LIMIT * floor, f"perf: {impl} {variant} within {FLOOR_LIMIT} x the "
              f"floor: {n(c)} vs {n(floor)} instructions ({c / floor:.3f} x)")

# The fast paths; and copy where /dev/zero cannot splice (6.1), which
# leaves the baseline as copy's only reference.
gated = {"zeropage", "folio", "floor"}
if cost("splice-64K", "devzero") is None:
    gated.add("copy")
fast = sorted(k for k in recs if k[1] in gated)
if update:
    with open(bfile, "w") as f:
        f.write(f"# perf gate baseline (tools/rig/perf-gate.sh): guest instructions per\n"
                f"# operation, the median of 5 repetitions under QEMU -icount shift=0.\n"
                f"# Kernel {kver}, driver as of {rev} (the last commit to drivers/ or\n"
                f"# include/), {time.strftime('%Y-%m-%d', time.gmtime())}.\n"
                f"# Refresh: tools/rig/perf-gate.sh --kver {kver} --update\n"
                f"# variant impl ns_per_op\n")
        for k in fast:
            if cost(*k) is not None:
                f.write(f"{k[0]} {k[1]} {cost(*k):.0f}\n")
    print(f"# perf-gate: wrote {bfile}")

base = {}
if os.path.exists(bfile):
    for line in open(bfile):
        w = line.split()
        if len(w) == 3 and not line.startswith("#"):
            base[(w[0], w[1])] = float(w[2])
if not base:
    check(False, f"perf: no baseline {bfile} for {kver} (perf-gate.sh --update)")
for k, b in sorted(base.items()):
    c = cost(*k)
    if c is None:
        check(False, f"perf: {k[1]} {k[0]} in the baseline but not measured")
        continue
    d = 100 * (c / b - 1)
    check(abs(d) <= 3, f"perf: {k[1]} {k[0]} within 3 % of the baseline: "
          f"{n(c)} vs {n(b)} instructions ({d:+.2f} %)")

print(f"1..{len(results)}")
for i, (ok, text, skip) in enumerate(results, 1):
    print(("ok" if ok else "not ok") + f" {i} - {text}" + (f" # SKIP {skip}" if skip else ""))
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
