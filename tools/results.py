#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write results/README.md from the JSON that `make bench` writes.

For each results/NAME.json (zsbench.json from `make bench`,
zsbench-icount.json from `make bench ICOUNT=1`) one section: the command,
commit and date from NAME.run (written by userspace/bench.sh next to the
JSON), the kernel, module and tool versions from the JSON, then every
record: metric, implementation, mean, population sigma as a percentage
of the mean, runs and unit.  The LKP-style tables of the same run are in
NAME.txt.  Nothing here is typed by hand: rerun the command to refresh.

Usage: tools/results.py [RESULTS_DIR]   (default: results/ of the tree)
  -h, --help   this text
"""
import json
import os
import sys


def read_run(path):
    meta = {}
    try:
        with open(path) as f:
            for line in f:
                key, sep, val = line.rstrip("\n").partition("=")
                if sep:
                    meta[key] = val
    except OSError:
        pass
    return meta


def num(v):
    if v is None:
        return ""
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:,.2f}"


def section(name, doc, meta):
    out = [f"## {name}.json", ""]
    out.append(f"- command: `{meta.get('command', 'unknown (no ' + name + '.run)')}`")
    out.append(f"- commit: {meta.get('commit', 'unknown')}")
    out.append(f"- date: {meta.get('date', 'unknown')}")
    out.append(f"- where: {meta.get('where', 'unknown')}")
    out.append(f"- kernel: {doc.get('kernel', '?')} ({doc.get('kernel_version', '')})")
    out.append(f"- zsbench {doc.get('zsbench_version', '?')}, "
               f"module {doc.get('module_version') or '?'}, "
               f"stress-ng {doc.get('stress_ng_version') or '-'}, "
               f"fio {doc.get('fio_version') or '-'}")
    out.append(f"- tables as zsbench printed them: `{name}.txt`")
    out.append("")
    out.append("| metric | impl | mean | σ | runs | unit |")
    out.append("|---|---|---:|---:|---:|---|")
    for r in doc.get("records", []):
        if r.get("unsupported") or r.get("error"):
            mean, sd = r.get("error") or "unsupported", ""
        else:
            m, s = r.get("mean"), r.get("stddev")
            mean = num(r.get("value", m))
            sd = f"{100 * s / m:.1f} %" if m and s is not None else ""
        out.append(f"| {r.get('metric', '?')} | {r.get('impl', '?')} | {mean} | "
                   f"{sd} | {r.get('runs', '')} | {r.get('unit', '')} |")
    out.append("")
    return out


def usage():
    """The docstring's Usage paragraph first, then the rest of it."""
    paras = __doc__.strip("\n").split("\n\n")
    use = [p for p in paras if p.startswith("Usage:")]
    return "\n\n".join(use + [p for p in paras if p not in use])


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(usage())
        return 0
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(usage(), file=sys.stderr)
        return 2
    res = args[0] if args else os.path.join(top, "results")
    out = ["# Measurements", "",
           "Written by `tools/results.py` from the JSON in this directory;",
           "`make bench` and `make bench ICOUNT=1` rewrite it.  Do not edit.",
           ""]
    found = 0
    for name in ("zsbench", "zsbench-icount"):
        path = os.path.join(res, name + ".json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            doc = json.load(f)
        out += section(name, doc, read_run(os.path.join(res, name + ".run")))
        found += 1
    if not found:
        print(f"results: no zsbench.json or zsbench-icount.json in {res}", file=sys.stderr)
        return 1
    with open(os.path.join(res, "README.md"), "w") as f:
        f.write("\n".join(out))
    print(f"results: {os.path.join(res, 'README.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
