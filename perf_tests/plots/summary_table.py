#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prints the markdown tables of a results README from kobalt-bench JSON:
per matrix, Kobalt's best format next to cuSPARSE's and Kokkos Kernels'
best variant (GFLOP/s, ratios, % of the minimal-traffic limit), then the
geometric means per class (the JSON's stats.class, 002 §5.3) and size.

    python3 perf_tests/plots/summary_table.py run.json [more.json ...] [--min-nnz N]

limit = 2 nnz / ((12 nnz + 12 rows + 8 cols) / triad): minimal CSR traffic
with fp64 values and int32 indices, the triad of the file's run. Results
with an error or a wrong answer count as missing.
"""
import argparse
import json
import math
import sys


def load(paths):
    matrices = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        triad = data["kobalt_bench"]["triad"]["gb_per_s"]
        for m in data["matrices"]:
            m["triad"] = triad
            matrices.append(m)
    return matrices


def best(m, kind_test):
    """(gflops, format) of the fastest result whose kind passes kind_test."""
    top = (0.0, "-")
    for r in m["results"]:
        if r.get("error") is None and r.get("gflops") and kind_test(r):
            top = max(top, (r["gflops"], r["format"]))
    return top


def kobalt(r):
    return r["kind"] == "kobalt"


def cusparse(r):
    return r["format"].startswith("cusparse")


def kokkos_kernels(r):
    return r["format"] == "kk" or r["format"].startswith("kk:")


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("json", nargs="+")
    p.add_argument("--min-nnz", type=float, default=1e5, help="rows of the per-matrix table")
    args = p.parse_args(argv)
    matrices = load(args.json)
    print("| matrix | class | nnz | Kobalt best | cuSPARSE best | KK best | vs cuSPARSE | vs KK | % of limit |")
    print("|---|---|---|---|---|---|---|---|---|")
    groups = {}
    for m in sorted(matrices, key=lambda m: (m["stats"]["class"], -m["nnz"])):
        if m.get("error") or m["nnz"] == 0:  # an input that did not load, or nothing to time
            continue
        k, c, kk = best(m, kobalt), best(m, cusparse), best(m, kokkos_kernels)
        limit = 2 * m["nnz"] / ((12 * m["nnz"] + 12 * m["rows"] + 8 * m["cols"]) / (m["triad"] * 1e9)) / 1e9
        size = ">= 5e6" if m["nnz"] >= 5e6 else "1e5-5e6" if m["nnz"] >= 1e5 else "< 1e5"
        groups.setdefault((m["stats"]["class"], size), []).append((k[0], c[0], kk[0], k[0] / limit))
        if m["nnz"] < args.min_nnz:
            continue
        ratio = lambda a, b: f"{a / b:.2f}" if a > 0 and b > 0 else "-"
        print(f"| {m['name']} | {m['stats']['class']} | {m['nnz']:.3g} | {k[0]:.1f} ({k[1]}) | "
              f"{c[0]:.1f} ({c[1]}) | {kk[0]:.1f} ({kk[1]}) | {ratio(k[0], c[0])} | "
              f"{ratio(k[0], kk[0])} | {100 * k[0] / limit:.0f}% |")
    print()
    print("| class, nnz | n | Kobalt GFLOP/s | cuSPARSE | ratio | Kokkos Kernels | ratio |")
    print("|---|---|---|---|---|---|---|")
    for (cls, size), rows in sorted(groups.items()):
        gk, gc, gkk = (geomean([r[i] for r in rows]) for i in range(3))
        rc = geomean([r[0] / r[1] for r in rows if r[1] > 0])
        rkk = geomean([r[0] / r[2] for r in rows if r[2] > 0])
        print(f"| {cls}, {size} | {len(rows)} | {gk:.1f} | {gc:.1f} | {rc:.2f} | {gkk:.1f} | {rkk:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
