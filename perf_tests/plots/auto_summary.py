#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Issue 16's figures for the automatic handle from kobalt-bench JSON run with
`--format auto` beside other formats: per file, on how many matrices `auto`
ran within 1.10x and 1.5x of the fastest other Kobalt format (median times),
each peer's best variant over `auto` in geometric mean on matrices with at
least --min-nnz nonzeros (cuSPARSE: cusparse, cusparse:*; Kokkos Kernels:
kk, kk:*), and the analysis's largest cost in CSR SpMVs on matrices with at
least 1e6 nonzeros (`analysis_csr_spmvs`). Each miss of 1.10x is listed with
auto's choice and the format that beat it.

    python3 perf_tests/plots/auto_summary.py run.json [more.json ...] [--min-nnz 1e5] [--markdown]

Results with an error (a wrong answer included) count as missing. Exits 2
when a file has no `auto` result to compare.
"""
import argparse
import json
import math
import sys

from summary_table import geomean  # this folder: the script's own path

WITHIN = (1.10, 1.5)  # issue 16's two bounds on auto / the best Kobalt format
ANALYSIS_MIN_NNZ = 1e6  # issue 16: the analysis's bound holds from 1e6 nonzeros


def peer_family(fmt):
    """'cusparse:sell' -> 'cusparse', 'kk' -> 'kk'."""
    return fmt.split(":", 1)[0]


def summarize(data, min_nnz):
    """The figures of one kobalt-bench JSON object (see the module's text)."""
    compared = 0
    within = [0] * len(WITHIN)
    misses = []
    peer_ratios = {}
    analysis = []
    for m in data["matrices"]:
        times = {r["format"]: r for r in m["results"]
                 if r.get("error") is None and r.get("time_ms_median")}
        auto = times.get("auto")
        others = [(r["time_ms_median"], f) for f, r in times.items()
                  if r["kind"] == "kobalt" and f != "auto"]
        if auto is None or not others:
            continue
        compared += 1
        best, best_format = min(others)
        ratio = auto["time_ms_median"] / best
        for i, bound in enumerate(WITHIN):
            within[i] += ratio <= bound
        if ratio > WITHIN[0]:
            misses.append((m["name"], ratio, auto.get("strategy", ""), best_format))
        if m["nnz"] >= min_nnz:
            peers = {}
            for f, r in times.items():
                if r["kind"] == "peer":
                    family = peer_family(f)
                    peers[family] = min(peers.get(family, math.inf), r["time_ms_median"])
            for family, t in peers.items():
                peer_ratios.setdefault(family, []).append(t / auto["time_ms_median"])
        if m["nnz"] >= ANALYSIS_MIN_NNZ and auto.get("analysis_csr_spmvs") is not None:
            analysis.append((auto["analysis_csr_spmvs"], m["name"]))
    return {
        "compared": compared,
        "within": within,
        "misses": misses,
        "peers": {f: (geomean(v), len(v)) for f, v in sorted(peer_ratios.items())},
        "analysis_max": max(analysis) if analysis else None,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("json", nargs="+")
    p.add_argument("--min-nnz", type=float, default=1e5,
                   help="the peers' geometric mean counts matrices with at least this many nonzeros")
    p.add_argument("--markdown", action="store_true", help="one Markdown table row per file")
    args = p.parse_args(argv)
    if args.markdown:
        print("| file | within 1.10x | within 1.5x | peer's best / auto (matrices) | "
              "analysis, most CSR SpMVs (>= 1e6) | misses of 1.10x |")
        print("|---|---|---|---|---|---|")
    status = 0
    for path in args.json:
        with open(path) as f:
            s = summarize(json.load(f), args.min_nnz)
        if s["compared"] == 0:
            print(f"{path}: no matrix with an `auto` result and another Kobalt format",
                  file=sys.stderr)
            status = 2
            continue
        n = s["compared"]
        peers = ", ".join(f"{f} {g:.3f} ({k})" for f, (g, k) in s["peers"].items()) or "-"
        top = s["analysis_max"]
        analysis = f"{top[0]:.2f} ({top[1]})" if top else "-"
        misses = ", ".join(f"{name} {r:.2f}x ({strategy.split(' ')[0]} vs {fmt})"
                           for name, r, strategy, fmt in s["misses"]) or "-"
        w110, w15 = s["within"]
        if args.markdown:
            print(f"| {path} | {w110} of {n} | {w15} of {n} | {peers} | {analysis} | {misses} |")
        else:
            print(f"{path}: within 1.10x {w110} of {n}, within 1.5x {w15} of {n}; "
                  f"best peer / auto (>= {args.min_nnz:g} nonzeros): {peers}; "
                  f"analysis at most {analysis} CSR SpMVs; misses: {misses}")
    return status


if __name__ == "__main__":
    sys.exit(main())
