#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes data/grid_hubs.mtx.gz, the small matrix that ships with Kobalt.

A 2-D 5-point Laplacian on a 30 x 30 grid (900 rows) with weights in (0.5, 1.5]
plus 3 hub rows, each coupled to 100 other rows: symmetric, stored as its
lower triangle, rows from 3 to 101 entries long (an irregular matrix that a
plain clone can run kobalt-bench and the gzip tests on). Deterministic: the
same text on every run (random.Random(2026).random() only, which Python
keeps stable), gzip without name and time stamp.

  python3 data/make_grid_hubs.py data/grid_hubs.mtx.gz           # write it
  python3 data/make_grid_hubs.py --check data/grid_hubs.mtx.gz   # compare its text
"""
import gzip
import random
import sys

GRID = 30
HUBS = 3
HUB_DEGREE = 100
SEED = 2026


def matrix_text():
    rng = random.Random(SEED)
    n = GRID * GRID + HUBS
    lower = {}  # (row, col) with row >= col, 0-based -> value

    def couple(i, j):
        w = round(0.5 + rng.random(), 2)
        lower[(max(i, j), min(i, j))] = -w
        lower[(i, i)] = lower.get((i, i), 0.0) + w
        lower[(j, j)] = lower.get((j, j), 0.0) + w

    for y in range(GRID):
        for x in range(GRID):
            i = y * GRID + x
            if x + 1 < GRID:
                couple(i, i + 1)
            if y + 1 < GRID:
                couple(i, i + GRID)
    for h in range(HUBS):
        hub = GRID * GRID + h
        targets = set()
        while len(targets) < HUB_DEGREE:
            targets.add(int(rng.random() * GRID * GRID))
        for t in sorted(targets):
            couple(hub, t)
    lines = ["%%MatrixMarket matrix coordinate real symmetric",
             "% Kobalt's grid_hubs: 30 x 30 5-point Laplacian + 3 hub rows of 100 couplings",
             "% made by data/make_grid_hubs.py (see data/README.md)",
             f"{n} {n} {len(lower)}"]
    for (i, j) in sorted(lower, key=lambda p: (p[1], p[0])):  # column-major, as Matrix Market files usually are
        lines.append(f"{i + 1} {j + 1} {lower[(i, j)]:.6g}")
    return "\n".join(lines) + "\n"


def main(argv):
    check = len(argv) == 3 and argv[1] == "--check"
    if len(argv) != 2 and not check:
        sys.exit(__doc__)
    path = argv[-1]
    text = matrix_text()
    if check:
        with gzip.open(path, "rt") as f:
            if f.read() != text:
                sys.exit(f"{path} differs from what make_grid_hubs.py writes")
        print(f"{path} is what make_grid_hubs.py writes")
        return
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
        f.write(text.encode())


if __name__ == "__main__":
    main(sys.argv)
