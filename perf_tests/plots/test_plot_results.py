#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of plot_results.py: the style tables and their uniqueness check, the cache-size
fallbacks, and the four PNGs of the sample JSON.

    python3 -m unittest discover -s perf_tests/plots -p 'test_*.py'
"""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_results as pr  # noqa: E402

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample_results.json")


def quiet(fn, *args):
    """fn(*args) with stdout and stderr swallowed; returns (result, stderr text)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        return fn(*args), err.getvalue()


class FakeRun:
    def __init__(self, kobalt, peers, meta=None):
        self._k, self._p, self.meta = kobalt, peers, meta or {}

    def kobalt_formats(self):
        return sorted(self._k)

    def peer_formats(self):
        return sorted(self._p)


class Styles(unittest.TestCase):
    def test_known_names_all_distinct(self):
        run = FakeRun(pr.KOBALT_STYLES, pr.PEER_STYLES)
        sty = pr.styles(run)
        pr.check_distinct(sty, list(sty), "every known name")

    def test_table_colours_unique_per_family_and_disjoint(self):
        kc = [c for c, _ in pr.KOBALT_STYLES.values()]
        pc = [c for c, _ in pr.PEER_STYLES.values()]
        self.assertEqual(len(pc), len(set(pc)), "two peers share a colour")
        self.assertFalse(set(kc) & set(pc), "a Kobalt format and a peer share a colour")
        self.assertEqual(len(kc), len(set(kc)), "two Kobalt formats share a colour")

    def test_cusparse_and_kk_merge_differ(self):
        sty = pr.styles(FakeRun([], ["cusparse", "kk", "kk:merge", "mkl"]))
        self.assertNotEqual(sty["cusparse"]["color"], sty["kk:merge"]["color"])

    def test_families_drawn_apart(self):
        sty = pr.styles(FakeRun(["csr"], ["kk"]))
        self.assertTrue(sty["csr"]["filled"])
        self.assertEqual(sty["csr"]["linestyle"], "-")
        self.assertFalse(sty["kk"]["filled"])
        self.assertEqual(sty["kk"]["linestyle"], "--")
        self.assertEqual(sty["kk"]["label"], "kk (peer)")

    def test_stable_across_runs(self):
        a = pr.styles(FakeRun(["csr", "ell"], ["kk"]))
        b = pr.styles(FakeRun(["hybrid", "ell", "coo", "csr"], ["kk", "cusparse"]))
        for n in ("csr", "ell", "kk"):
            self.assertEqual(a[n], b[n])

    def test_many_unknown_names_stay_distinct(self):
        kobalt = [f"csrk:k=3,ssrs={a},srs={b}" for a in range(1, 13) for b in range(1, 9)] + ["csr", "hybrid"]
        peers = [f"other:{i}" for i in range(20)] + ["cusparse"]
        sty = pr.styles(FakeRun(kobalt, peers))
        pr.check_distinct(sty, kobalt + peers + [pr.BEST], "96 csrk variants and 21 peers")
        self.assertEqual(sty, pr.styles(FakeRun(list(reversed(kobalt)), peers)))

    def test_check_raises_on_same_colour_and_marker(self):
        sty = {"a": pr.make_style("#123456", "o", False), "b": pr.make_style("#123456", "o", False)}
        with self.assertRaises(pr.StyleClash):
            pr.check_distinct(sty, ["a", "b"], "test")

    def test_check_raises_on_same_line(self):
        sty = {"a": pr.make_style("red", "o", True), "b": pr.make_style("#ff0000", "s", True)}
        with self.assertRaises(pr.StyleClash):
            pr.check_distinct(sty, ["a", "b"], "test")

    def test_check_accepts_same_colour_other_marker_and_fill(self):
        sty = {"a": pr.make_style("red", "o", False), "b": pr.make_style("red", "s", True)}
        pr.check_distinct(sty, ["a", "b"], "test")


class CacheSize(unittest.TestCase):
    def test_parse_device_string(self):
        self.assertEqual(pr.parse_cache_bytes("NVIDIA H200, 132 SMs, 60 MiB L2"), 60 * 2 ** 20)
        self.assertEqual(pr.parse_cache_bytes("AMD MI250X, 8 MB L2"), 8e6)
        self.assertIsNone(pr.parse_cache_bytes("Intel(R) Xeon(R) Processor, 16 threads"))
        self.assertIsNone(pr.parse_cache_bytes(None))

    def test_precedence(self):
        both = FakeRun([], [], {"last_level_cache_bytes": 1048576, "device": "X, 60 MiB L2"})
        self.assertEqual(pr.cache_size(both, 300)[0], 1048576)
        device = FakeRun([], [], {"device": "X, 60 MiB L2"})
        self.assertEqual(pr.cache_size(device, 300)[0], 60 * 2 ** 20)
        cpu = FakeRun([], [], {"device": "Xeon, 16 threads", "last_level_cache_bytes": None})
        self.assertEqual(pr.cache_size(cpu, 300)[0], 300 * 2 ** 20)
        self.assertIsNone(pr.cache_size(cpu, None)[0])


class EndToEnd(unittest.TestCase):
    def test_sample_gives_four_pngs(self):
        with tempfile.TemporaryDirectory() as d:
            rc, _ = quiet(pr.main, [SAMPLE, "--out", d])
            self.assertEqual(rc, 0)
            self.assertEqual(sorted(f.split("_")[0] for f in os.listdir(d)),
                             ["bandwidth", "gflops", "profile", "speedup"])

    def test_bad_input_exits_2(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.json")
            with open(bad, "w") as fh:
                fh.write("{\"matrices\": []}")
            rc, err = quiet(pr.main, [bad, "--out", d])
            self.assertEqual(rc, 2)
            self.assertIn("plot_results.py: error:", err)
            self.assertIn("kobalt_bench", err)

    def test_cpu_run_without_cache_warns(self):
        import json
        with open(SAMPLE) as fh:
            doc = json.load(fh)
        del doc["kobalt_bench"]["last_level_cache_bytes"]
        doc["kobalt_bench"].update(execution_space="OpenMP", device="Xeon, 16 threads")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "cpu.json")
            with open(path, "w") as fh:
                json.dump(doc, fh)
            rc, err = quiet(pr.main, [path, "--out", d])
            self.assertEqual(rc, 0)
            self.assertIn("marks no cache size", err)
            rc, err = quiet(pr.main, [path, "--out", d, "--cache-mib", "300"])
            self.assertEqual(rc, 0)
            self.assertNotIn("marks no cache size", err)


if __name__ == "__main__":
    unittest.main()
