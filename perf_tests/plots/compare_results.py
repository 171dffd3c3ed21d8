#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares two kobalt-bench JSON files run with the same command (e.g. the
previous commit and this one in one device call): per format, the ratio of
median times new/old on every matrix both ran without error, its geometric
mean and its worst case. Peers (kk, cusparse) are listed too: their ratios
show the run-to-run noise of the machine.

    python3 perf_tests/plots/compare_results.py old.json new.json [--limit 1.03] [--markdown]

Exits 1 when a Kobalt format is slower than --limit on some matrix.
"""
import argparse
import json
import math
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    times = {}
    kinds = {}
    for m in data["matrices"]:
        for r in m["results"]:
            kinds[r["format"]] = r["kind"]
            if r.get("error") is None and r.get("time_ms_median"):
                times[(m["name"], r["format"])] = r["time_ms_median"]
    return times, kinds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--limit", type=float, default=1.03, help="worst accepted new/old time ratio")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    a = ap.parse_args()
    old, kinds = load(a.old)
    new, _ = load(a.new)
    ratios = {}
    for key, t in old.items():
        if key in new:
            ratios.setdefault(key[1], []).append((new[key] / t, key[0]))
    sep = " | " if a.markdown else "  "
    if a.markdown:
        print("| format | kind | matrices | geomean new/old | worst new/old (matrix) |")
        print("|---|---|---|---|---|")
    failed = False
    for fmt in sorted(ratios, key=lambda f: (kinds[f] != "kobalt", f)):
        rs = ratios[fmt]
        geo = math.exp(sum(math.log(r) for r, _ in rs) / len(rs))
        worst, where = max(rs)
        bad = kinds[fmt] == "kobalt" and worst > a.limit
        failed = failed or bad
        cells = [fmt, kinds[fmt], str(len(rs)), f"{geo:.3f}", f"{worst:.3f} ({where})" + (" > limit" if bad else "")]
        print(("| " if a.markdown else "") + sep.join(cells) + (" |" if a.markdown else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
