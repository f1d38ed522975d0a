#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fallback for `zsbench --compare BASE.json CAND.json` (used by
mainline/mem-check.sh only while zsbench lacks --compare): one line per
metric present in both, LKP style: base mean, %change, candidate mean,
and the ratio."""
import json
import sys


def load(path):
    with open(path) as f:
        doc = json.load(f)
    recs = {}
    for r in doc.get("records", []):
        if r.get("unsupported") or r.get("error"):
            continue
        key = (r["metric"], r["impl"])
        if r.get("unit") == "fill_count" and "fill_count" in r:
            recs[key] = (float(r["fill_count"]), 0.0)
        else:
            # JSON schema 1: ops_per_sec_mean; schema 2: value/mean
            mean = r.get("ops_per_sec_mean", r.get("value", r.get("mean")))
            std = r.get("ops_per_sec_stddev", r.get("stddev", 0.0))
            recs[key] = (mean, std)
    return doc.get("kernel", "?"), recs


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: zsbench-compare.py BASE.json CAND.json")
    kb, base = load(sys.argv[1])
    kc, cand = load(sys.argv[2])
    print(f"base: {kb}  candidate: {kc}")
    print(f"{'base':>14} {'%change':>9} {'candidate':>14} {'ratio':>8}  metric")
    for key in sorted(set(base) & set(cand)):
        b, c = base[key][0], cand[key][0]
        pct = (c - b) / b * 100 if b else float("inf")
        ratio = c / b if b else float("inf")
        print(f"{b:14.0f} {pct:+8.1f}% {c:14.0f} {ratio:7.2f}x  {key[0]} ({key[1]})")


if __name__ == "__main__":
    main()
