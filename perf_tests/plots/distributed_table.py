#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prints the markdown tables of a distributed results README from
kobalt-bench-distributed JSON: per input, the single-device times (Kobalt's
automatic handle, the vendor's library), then per run the scaling, ranks,
apply time, efficiency, the phases and the halo.

    python3 perf_tests/plots/distributed_table.py run.json [more.json ...]

Times are microseconds per apply, the slowest rank's. A run with an error
shows it instead of times.
"""
import json
import sys


def us(timing):
    return "%.1f" % timing["median_us"] if timing and timing["median_us"] is not None else "-"


def number(v, fmt):
    return fmt % v if v is not None else "-"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    for path in argv[1:]:
        with open(path) as f:
            data = json.load(f)
        print("| input | one device: Kobalt | vendor | vendor / Kobalt |")
        print("|---|---:|---:|---:|")
        for m in data["inputs"]:
            single = {r["format"]: r for r in m["single_device"] if not r["error"]}
            kobalt = single.get("auto")
            vendor = next((r for f, r in single.items() if f != "auto"), None)
            ratio = (vendor["time"]["median_us"] / kobalt["time"]["median_us"]
                     if kobalt and vendor else None)
            print("| %s | %s | %s | %s |" % (m["name"], us(kobalt and kobalt["time"]),
                                             us(vendor and vendor["time"]), number(ratio, "%.2fx")))
        print()
        print("| matrix | scaling | ranks | apply | efficiency | pack | exchange | diagonal "
              "| off-diagonal | both | hidden | halo KiB | formats (rank 0) |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for m in data["inputs"]:
            for r in m["runs"]:
                if r["error"]:
                    print("| %s | %s | %d | %s | | | | | | | | | |" % (
                        r["matrix"], r["scaling"], r["ranks"], r["error_kind"]))
                    continue
                first = r["per_rank"][0]
                print("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s + %s |" % (
                    r["matrix"], r["scaling"], r["ranks"], us(r["apply"]),
                    number(r["efficiency"], "%.2f"), us(r["pack"]), us(r["exchange"]),
                    us(r["diagonal"]), us(r["off_diagonal"]), us(r["local"]),
                    number(r["hidden"], "%.2f"), r["halo_bytes"] / 1024.0,
                    first["diagonal_format"], first["off_diagonal_format"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
