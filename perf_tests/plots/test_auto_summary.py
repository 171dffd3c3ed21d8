#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of auto_summary.py on a hand-made kobalt-bench JSON whose figures
are worked out below.

    python3 -m unittest discover -s perf_tests/plots -p 'test_*.py'
"""

import contextlib
import io
import json
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import auto_summary as su  # noqa: E402


def result(fmt, ms, kind="kobalt", **extra):
    r = {"format": fmt, "kind": kind, "time_ms_median": ms, "error": None, "strategy": fmt + " rows"}
    r.update(extra)
    return r


def failed(fmt, kind="kobalt"):
    return {"format": fmt, "kind": kind, "time_ms_median": None, "error": "wrong result",
            "error_kind": "wrong_result"}


# big: auto 1.0 against ELL's 0.95 (1.053x: within both bounds); cuSPARSE's
#   best variant 1.1 (1.1x), Kokkos Kernels 2.0; analysis 3.0 CSR SpMVs.
# mid: auto 1.2 against CSR's 1.0 (a 1.10x miss, within 1.5x); cuSPARSE 0.9
#   (0.75x); Kokkos Kernels gave a wrong answer: missing.
# tiny: auto 2.0 against CSR's 1.0 (misses both); below --min-nnz, so no
#   peer counts; ELL's wrong answer is missing.
# none: auto failed: not compared.
DOC = {"kobalt_bench": {}, "matrices": [
    {"name": "big", "nnz": 2000000, "results": [
        result("auto", 1.0, analysis_csr_spmvs=3.0), result("csr", 1.0), result("ell", 0.95),
        result("cusparse", 1.2, "peer"), result("cusparse:sell", 1.1, "peer"),
        result("kk", 2.0, "peer")]},
    {"name": "mid", "nnz": 200000, "results": [
        result("auto", 1.2, analysis_csr_spmvs=9.0), result("csr", 1.0),
        result("cusparse", 0.9, "peer"), failed("kk", "peer")]},
    {"name": "tiny", "nnz": 1000, "results": [
        result("auto", 2.0), result("csr", 1.0), failed("ell"), result("kk", 0.1, "peer")]},
    {"name": "none", "nnz": 5000000, "results": [failed("auto"), result("csr", 1.0)]},
]}


def run_on(doc, *options):
    """auto_summary.main on `doc` written to a file: (exit status, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "run.json")
        with open(path, "w") as fh:
            json.dump(doc, fh)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = su.main([path, *options])
    return rc, out.getvalue(), err.getvalue()


class Summarize(unittest.TestCase):
    def test_figures(self):
        s = su.summarize(DOC, 1e5)
        self.assertEqual(s["compared"], 3)
        self.assertEqual(s["within"], [1, 2])
        self.assertEqual([(name, fmt) for name, _, _, fmt in s["misses"]],
                         [("mid", "csr"), ("tiny", "csr")])
        self.assertAlmostEqual(s["misses"][0][1], 1.2)
        cusparse, n = s["peers"]["cusparse"]
        self.assertAlmostEqual(cusparse, math.sqrt(1.1 * 0.75))
        self.assertEqual(n, 2)
        self.assertEqual(s["peers"]["kk"], (2.0, 1))
        # mid's 9.0 is below 1e6 nonzeros: not the analysis's figure
        self.assertEqual(s["analysis_max"], (3.0, "big"))

    def test_min_nnz_moves_the_peer_set(self):
        s = su.summarize(DOC, 0)
        self.assertEqual(s["peers"]["kk"][1], 2)  # tiny's kk counts now
        self.assertAlmostEqual(s["peers"]["kk"][0], math.sqrt(2.0 * 0.05))


class Main(unittest.TestCase):
    def test_text_and_markdown(self):
        rc, out, _ = run_on(DOC)
        self.assertEqual(rc, 0)
        self.assertIn("within 1.10x 1 of 3, within 1.5x 2 of 3", out)
        self.assertIn("mid 1.20x (auto vs csr)", out)
        rc, out, _ = run_on(DOC, "--markdown")
        self.assertEqual(rc, 0)
        self.assertEqual(len(out.splitlines()), 3)
        self.assertIn("| 1 of 3 | 2 of 3 |", out)

    def test_file_without_auto_exits_2(self):
        doc = {"kobalt_bench": {}, "matrices": [{"name": "a", "nnz": 9, "results": [
            result("csr", 1.0)]}]}
        rc, _, err = run_on(doc)
        self.assertEqual(rc, 2)
        self.assertIn("no matrix with an `auto` result", err)


if __name__ == "__main__":
    unittest.main()
