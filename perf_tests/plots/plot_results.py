#!/usr/bin/env python3
"""Plots kobalt-bench JSON results.

usage: plot_results.py RESULTS.json [MORE.json ...] [--out DIR] [--min-nnz N]
                       [--peer FORMAT] [--t-max T] [--cache-mib N]

Each input file is one kobalt-bench run. Runs are told apart by the label
"<kobalt_bench.execution_space> <kobalt_bench.device>"; files with the same
label are concatenated by matrix (a later file's result for the same matrix
and format replaces the earlier one). For every label four PNGs are written
to --out:

  profile_<label>.png        performance profiles (Dolan-More, seed 000 eq. 8)
                             over the matrices with nnz >= --min-nnz:
                             f_A(t) = |{phi : t*p(A,phi) >= max_B p(B,phi)}| / |Phi|,
                             p = GFLOP/s; a format without a result on phi
                             never counts for phi; every format and peer
  gflops_vs_nnz_<label>.png  GFLOP/s against nnz, one panel per row class
                             (stats.class: regular / irregular), the best
                             Kobalt format per matrix against each peer
  speedup_<label>.png        t_peer / t_best-Kobalt per matrix over the
                             variance of the row lengths and over
                             max_row_nnz / rows
  bandwidth_<label>.png      GB/s as a fraction of the triad bandwidth
                             against the footprint of one apply,
                             storage_bytes + (rows + cols) * sizeof(value) * rhs
                             (log-log): best Kobalt format and each peer, the
                             last-level cache size as a vertical line

Styles: every format name has a fixed colour and marker (tables KOBALT_STYLES
and PEER_STYLES; other names get the first free style of their family).
Kobalt formats are drawn with filled markers and solid lines, peers with
hollow markers and dashed lines, the best Kobalt format per matrix as a large
star. Every plot checks that no two of its series look alike (same colour and
marker, or same colour, line style and fill) and stops with StyleClash if so.

The last-level cache size comes from kobalt_bench.last_level_cache_bytes,
else from the device string ("..., 60 MiB L2"), else from --cache-mib (CPU
device strings carry no size); with none of them the bandwidth plot marks no
cache, says so in its legend and warns.

JSON read: kobalt_bench.{execution_space, device, value_type, rhs, triad.gb_per_s,
last_level_cache_bytes}; per matrix name, rows, cols, nnz, stats.{class,
variance_row_nnz, max_row_nnz}; per result format, kind, error,
time_ms_median, gflops, bandwidth_fraction (or gb_per_s), storage_bytes.

<label> is the run label with every run of characters outside [A-Za-z0-9._-]
replaced by "_". A result with a non-null "error" or without a positive
median time is left out of every plot. Needs Python 3, numpy and matplotlib
(Debian: python3-numpy python3-matplotlib); draws with the Agg backend.
Bad input exits with status 2 and one "plot_results.py: error: ..." line.
"""

import argparse
import json
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter  # noqa: E402

PROG = "plot_results.py"


class InputError(Exception):
    """A result file that cannot be read or does not have the expected layout."""


def warn(message):
    print(f"{PROG}: warning: {message}", file=sys.stderr)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def positive(v):
    return is_number(v) and v > 0


# --------------------------------------------------------------------------- loading


class Run:
    """All matrices of one execution space + device label."""

    def __init__(self, label, meta):
        self.label = label
        self.meta = meta
        self.triad_gbps = None
        self.matrices = {}  # name -> matrix dict; "valid" maps format -> result

    def kobalt_formats(self):
        return sorted({f for m in self.matrices.values() for f, r in m["valid"].items() if r["kind"] == "kobalt"})

    def peer_formats(self):
        return sorted({f for m in self.matrices.values() for f, r in m["valid"].items() if r["kind"] != "kobalt"})


def _require(cond, where, what):
    if not cond:
        raise InputError(f"{where}: {what}")


def load_file(path):
    try:
        with open(path, "r", encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text ({e.reason})") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None

    _require(isinstance(doc, dict), path, "the top level must be a JSON object with 'kobalt_bench' and 'matrices'")
    meta = doc.get("kobalt_bench")
    _require(isinstance(meta, dict), path, "'kobalt_bench' missing or not an object (is this a kobalt-bench JSON file?)")
    for key in ("execution_space", "device"):
        _require(isinstance(meta.get(key), str), path, f"'kobalt_bench.{key}' missing or not a string")
    matrices = doc.get("matrices")
    _require(isinstance(matrices, list), path, "'matrices' missing or not a list")

    rhs = meta.get("rhs", 1)
    rhs = rhs if positive(rhs) else 1
    for i, m in enumerate(matrices):
        where = f"{path}: matrices[{i}]"
        _require(isinstance(m, dict), where, "not an object")
        _require(isinstance(m.get("name"), str), where, "'name' missing or not a string")
        where = f"{path}: matrix '{m['name']}'"
        for key in ("rows", "nnz"):
            _require(is_number(m.get(key)) and m[key] >= 0, where, f"'{key}' missing or not a non-negative number")
        _require(m.get("stats") is None or isinstance(m.get("stats"), dict), where, "'stats' is not an object")
        _require(isinstance(m.get("results"), list), where, "'results' missing or not a list")
        valid = {}
        for j, r in enumerate(m["results"]):
            rwhere = f"{where}: results[{j}]"
            _require(isinstance(r, dict), rwhere, "not an object")
            _require(isinstance(r.get("format"), str), rwhere, "'format' missing or not a string")
            _require(isinstance(r.get("kind"), str), rwhere, "'kind' missing or not a string")
            if r.get("error") is not None or not positive(r.get("time_ms_median")):
                continue
            r = dict(r)
            if not positive(r.get("gflops")):
                # GFLOP/s = 2*nnz*rhs / t (padding not counted), as kobalt-bench reports it.
                r["gflops"] = 2.0 * m["nnz"] * rhs / (r["time_ms_median"] * 1e-3) / 1e9
            if r["format"] in valid:
                warn(f"{rwhere}: format '{r['format']}' appears twice; the later result is used")
            valid[r["format"]] = r
        m = dict(m)
        m["valid"] = valid
        matrices[i] = m
    return meta, matrices


def load_runs(paths):
    runs = {}
    for path in paths:
        meta, matrices = load_file(path)
        label = f"{meta['execution_space']} {meta['device']}".strip()
        run = runs.get(label)
        if run is None:
            run = runs[label] = Run(label, meta)
        triad = meta.get("triad")
        triad = triad.get("gb_per_s") if isinstance(triad, dict) else None
        if positive(triad):
            if run.triad_gbps is None:
                run.triad_gbps = float(triad)
            elif abs(run.triad_gbps - triad) > 0.05 * run.triad_gbps:
                warn(f"{path}: triad {triad:g} GB/s differs from {run.triad_gbps:g} GB/s of an earlier "
                     f"'{label}' file; bandwidth fractions are taken as stored per result")
        for m in matrices:
            old = run.matrices.get(m["name"])
            if old is None:
                run.matrices[m["name"]] = m
                continue
            replaced = sorted(set(old["valid"]) & set(m["valid"]))
            if replaced:
                warn(f"{path}: matrix '{m['name']}' of '{label}' was already read; "
                     f"its results for {', '.join(replaced)} replace the earlier ones")
            merged = dict(old)
            merged["valid"] = {**old["valid"], **m["valid"]}
            run.matrices[m["name"]] = merged
    return runs


def safe_label(label):
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("_.")
    return s or "run"


# --------------------------------------------------------------------------- styling


class StyleClash(Exception):
    """Two series of one plot would be drawn alike (a bug in the style table, never bad input)."""


# Every series has a colour, a marker, a line style and a fill: Kobalt formats filled with solid lines,
# peers hollow with dashed lines. The names below always get the same colour and marker, in every plot
# and every run (no two of the formats measured together so far share a colour or a marker). A name
# not in the tables takes the first style of its family's sequence (colours cycled, markers cycled at
# a different rate, a new dash pattern each time the colours wrap around) that looks like none of the
# run's other series, names in sorted order: the same set of names always gets the same styles.
KOBALT_STYLES = {
    "csr": ("#1f77b4", "o"), "csr:basic": ("#17becf", "s"), "csr:classical": ("#000080", "^"),
    "csr:load_balance": ("#9467bd", "v"), "csr:merge_path": ("#e377c2", "D"), "csrk:k=2": ("#2ca02c", "p"),
    "csrk:k=3": ("#bcbd22", "h"), "coo": ("#ff7f0e", "<"), "coo:load_balance": ("#ffbb78", "8"),
    "aligned_coo": ("#d62728", "d"), "ell": ("#8c564b", "H"), "ell:column_groups": ("#6b6ecf", "X"),
    "sellp": ("#e6ab02", "*"), "sellp:b=32,t=1": ("#ff9896", "P"), "sellp:b=8,t=8": ("#c5b0d5", "8"),
    "sellp:b=8": ("#800000", "X"), "sellp:b=8,sigma=256": ("#7f7f7f", "P"), "hybrid": ("#008080", ">"),
}
PEER_STYLES = {
    "cusparse": ("black", "o"), "cusparse:coo": ("#777777", "s"), "cusparse:csr_alg2": ("#7b3294", "^"),
    "cusparse:sell": ("#8c510a", "D"), "kk": ("#1b7837", "v"), "kk:merge": ("#e66101", "P"),
    "mkl": ("#c51b7d", "h"),
}
MARKERS = ["o", "s", "^", "v", "D", "p", "h", "<", ">", "d", "H", "8", "*", "P", "X"]
# The best Kobalt format per matrix, as one series beside the peers (GFLOP/s and bandwidth plots).
BEST = "best Kobalt"
BEST_STYLE = dict(color="#e6194b", marker="*", linestyle="-", filled=True, size_scale=2.2,
                  label="best Kobalt format")


def make_style(color, marker, peer, wrap=0):
    if peer:
        linestyle = "--" if wrap == 0 else (0, (1.5 + 1.5 * wrap, 2.0))
    else:
        linestyle = "-" if wrap == 0 else (0, (3.0 + 2.0 * wrap, 2.0, 1.0, 2.0))
    # a star covers less area than a circle of the same size
    return dict(color=color, marker=marker, linestyle=linestyle, filled=not peer,
                size_scale=1.8 if marker == "*" else 1.0)


def family_styles(names, table, peer):
    out = {n: make_style(*table[n], peer) for n in names if n in table}
    colors = list(dict.fromkeys(c for c, _ in table.values()))
    for n in sorted(set(names) - set(out)):
        k = 0
        while True:
            wrap = k // len(colors)
            cand = make_style(colors[k % len(colors)], MARKERS[(k + wrap) % len(MARKERS)], peer, wrap)
            try:
                check_distinct({**out, n: cand}, list(out) + [n], "")
                break
            except StyleClash:
                k += 1
        out[n] = cand
    for n, s in out.items():
        s["label"] = f"{n} (peer)" if peer else n
    return out


def styles(run):
    """One style per format of the run: Kobalt formats filled and solid, peers hollow and dashed."""
    out = family_styles(run.kobalt_formats(), KOBALT_STYLES, peer=False)
    out.update(family_styles(run.peer_formats(), PEER_STYLES, peer=True))
    out[BEST] = dict(BEST_STYLE)
    return out


def check_distinct(sty, names, where):
    """Raises StyleClash when two of the series `names` of one plot would look alike: the same colour
    with the same marker (scatter points), or the same colour with the same line style and fill (lines)."""
    seen_points, seen_lines = {}, {}
    for n in names:
        s = sty[n]
        color = to_hex(s["color"])
        for seen, key in ((seen_points, (color, s["marker"])),
                          (seen_lines, (color, str(s["linestyle"]), s["filled"]))):
            if key in seen:
                raise StyleClash(f"{where}: '{seen[key]}' and '{n}' would be drawn alike ({key})")
            seen[key] = n


def legend_proxy(s, size=7):
    """A legend entry (marker only) for style s."""
    return Line2D([], [], linestyle="none", marker=s["marker"], markersize=size * math.sqrt(s["size_scale"]),
                  color=s["color"], markerfacecolor=s["color"] if s["filled"] else "none",
                  markeredgewidth=1.3, label=s["label"])


def marker_kw(s, size):
    """Scatter keywords for style s: filled markers for Kobalt, hollow ones (coloured edge) for peers."""
    if s["filled"]:
        return dict(marker=s["marker"], s=size * s["size_scale"], color=s["color"], edgecolors=s["color"],
                    linewidths=0.6)
    return dict(marker=s["marker"], s=size * s["size_scale"], facecolors="none", edgecolors=s["color"],
                linewidths=1.3)


def plain_log_ticks(axis, lo=None, hi=None):
    """Log axis ticks at 1, 2, 5 x 10^k (denser over less than two decades from lo to hi), written as
    plain numbers (0.5, 1, 20) instead of 5x10^-1."""
    narrow = lo is not None and hi is not None and lo > 0 and hi / lo < 100
    subs = (1.0, 1.5, 2.0, 3.0, 5.0, 7.0) if narrow else (1.0, 2.0, 5.0)
    axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def no_data(ax, text):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=11, wrap=True)


def save(fig, path):
    fig.savefig(path, dpi=130, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    print(path)


def best_kobalt(m):
    """(format, result) of the fastest Kobalt format on matrix m, or None."""
    cands = [(r["time_ms_median"], f) for f, r in m["valid"].items() if r["kind"] == "kobalt"]
    if not cands:
        return None
    _, f = min(cands)
    return f, m["valid"][f]


# --------------------------------------------------------------------------- (a) profiles


def profile_data(run, min_nnz):
    """Matrices Phi, formats, and per format the sorted ratios max_B p / p(A) (inf = no result)."""
    phi = [m for m in run.matrices.values() if m["nnz"] >= min_nnz and m["valid"]]
    formats = sorted({f for m in phi for f in m["valid"]})
    ratios = {}
    for f in formats:
        r = []
        for m in phi:
            best = max(x["gflops"] for x in m["valid"].values())
            r.append(best / m["valid"][f]["gflops"] if f in m["valid"] else math.inf)
        ratios[f] = np.sort(np.array(r, dtype=float))
    return phi, formats, ratios


def profile_curve(ratios, t_max):
    """Exact step function f(t) on [1, t_max] as (x, y) for drawstyle steps-post."""
    n = len(ratios)
    inside = ratios[(ratios > 1.0) & (ratios <= t_max)]
    x = np.concatenate(([1.0], inside, [t_max]))
    y = np.array([np.count_nonzero(ratios <= t) / n for t in x])
    return x, y


def format_order(run, min_nnz, t_max):
    """Formats best first: by area under the profile over Phi, then f(1), then the rest by median GFLOP/s."""
    phi, formats, ratios = profile_data(run, min_nnz)
    key = {}
    for f in formats:
        x, y = profile_curve(ratios[f], t_max)
        area = float(np.sum(np.diff(x) * y[:-1])) / (t_max - 1.0) if t_max > 1 else y[0]
        key[f] = (-area, -y[0], f)
    ranked = sorted(formats, key=lambda f: key[f])
    rest = sorted(set(run.kobalt_formats() + run.peer_formats()) - set(ranked),
                  key=lambda f: (-np.median([m["valid"][f]["gflops"] for m in run.matrices.values()
                                             if f in m["valid"]]), f))
    return ranked + rest


def plot_profile(run, sty, order, args, path):
    phi, formats, ratios = profile_data(run, args.min_nnz)
    fig, ax = plt.subplots(figsize=(9.5, 6.5))
    ax.set_title(f"Performance profile, {run.label}\n"
                 f"{len(phi)} matrices with nnz \u2265 {args.min_nnz:g}, p = GFLOP/s (higher is better)")
    ax.set_xlabel("slowdown factor t (GFLOP/s of the fastest format \u00f7 GFLOP/s of this format)")
    ax.set_ylabel("fraction of matrices within factor t of the fastest, f(t)")
    ax.set_xlim(1.0, args.t_max)
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, alpha=0.3)
    if not phi:
        warn(f"'{run.label}': no matrix with nnz >= {args.min_nnz:g} has a result; the profile is empty")
        no_data(ax, f"no matrix with nnz \u2265 {args.min_nnz:g} has a result\n(see --min-nnz)")
    else:
        n = len(phi)
        drawn = [f for f in order if f in formats]
        check_distinct(sty, drawn, f"profile of '{run.label}'")
        for f in drawn:
            x, y = profile_curve(ratios[f], args.t_max)
            s = sty[f]
            wins = int(round(y[0] * n))
            ax.plot(x, y, drawstyle="steps-post", color=s["color"], linestyle=s["linestyle"], linewidth=1.6,
                    marker=s["marker"], markevery=slice(0, len(x) - 1), markersize=5,
                    markerfacecolor=s["color"] if s["filled"] else "white", markeredgewidth=1.1,
                    label=f"{s['label']}: fastest on {wins}/{n}")
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9,
                  title="format (best first)", title_fontsize=9)
    save(fig, path)


# --------------------------------------------------------------------------- (b) GFLOP/s vs nnz


def matrix_class(m):
    c = (m.get("stats") or {}).get("class")
    return c if isinstance(c, str) and c else "unclassified"


def class_order(classes):
    known = ["regular", "irregular"]
    return [c for c in known if c in classes] + sorted(set(classes) - set(known))


def plot_gflops(run, sty, order, args, path):
    """GFLOP/s against nnz, one panel per row class (stats.class: "regular" / "irregular"; matrices
    without one in "unclassified"), the best Kobalt format per matrix as one series beside each peer.

    Drawing every Kobalt format (15 series on the H200) buried the comparison that matters; the
    per-format detail is in the performance profile, and the ratio to one peer in the speedup plot.
    Panels share the y axis so the classes compare at a glance."""
    mats = [m for m in run.matrices.values() if m["valid"]]
    classes = class_order({matrix_class(m) for m in mats}) or ["unclassified"]
    peers = [f for f in order if f in run.peer_formats()]
    series = [BEST] + peers
    check_distinct(sty, series, f"GFLOP/s plot of '{run.label}'")
    fig, axes = plt.subplots(1, len(classes), figsize=(6.2 * len(classes) + 2.4, 5.5), sharex=True, sharey=True,
                             squeeze=False)
    axes = axes[0]
    fig.suptitle(f"SpMV performance against matrix size, {run.label}\n"
                 "best Kobalt format per matrix against each peer")
    drawn = False
    for ax, c in zip(axes, classes):
        sub = [m for m in mats if matrix_class(m) == c]
        ax.set_title(f"{c} matrices ({len(sub)})", fontsize=10)
        ax.set_xlabel("nonzeros (nnz, log scale)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.3)
        for f in series:
            if f == BEST:
                pts = [(m["nnz"], best_kobalt(m)[1]["gflops"]) for m in sub if best_kobalt(m)]
            else:
                pts = [(m["nnz"], m["valid"][f]["gflops"]) for m in sub if f in m["valid"]]
            if not pts:
                continue
            x, y = zip(*pts)
            s = sty[f]
            ax.scatter(x, y, label=s["label"], alpha=0.9, zorder=4 if f == BEST else 3, **marker_kw(s, 34))
            drawn = True
        if not sub:
            no_data(ax, "no valid results")
    axes[0].set_ylabel("GFLOP/s (2\u00b7nnz / median time, log scale)")
    if drawn:
        plain_log_ticks(axes[0].yaxis)
        present = [f for f in series if any(f == BEST or f in m["valid"] for m in mats)]
        axes[-1].legend(handles=[legend_proxy(sty[f]) for f in present], loc="center left",
                        bbox_to_anchor=(1.02, 0.5), fontsize=9, title="series", title_fontsize=9)
    fig.tight_layout()
    save(fig, path)


# --------------------------------------------------------------------------- (c) speedup


def choose_peer(run, requested):
    peers = run.peer_formats()
    if requested is not None:
        return requested if requested in peers else None
    for p in ("cusparse", "kk"):
        if p in peers:
            return p
    return None


def log_positions(values):
    """Values for a log axis: non-positive ones are drawn at a floor a decade below the smallest positive one."""
    v = np.array(values, dtype=float)
    pos = v[v > 0]
    floor = 10 ** math.floor(math.log10(pos.min()) - 1) if pos.size else 1e-3
    return np.where(v > 0, v, floor), floor, int(np.count_nonzero(v <= 0))


def plot_speedup(run, sty, order, args, path):
    peer = choose_peer(run, args.peer)
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), sharey=True)
    pts = []  # (name, variance, max/rows, speedup, best format)
    if peer is None:
        what = f"'{args.peer}'" if args.peer else "'cusparse' or 'kk'"
        warn(f"'{run.label}': no results of peer {what}; the speedup plot is empty "
             f"(peers in this run: {', '.join(run.peer_formats()) or 'none'})")
        fig.suptitle(f"Speedup of Kobalt's best format, {run.label}")
    else:
        for m in run.matrices.values():
            b = best_kobalt(m)
            if b is None or peer not in m["valid"]:
                continue
            st = m.get("stats") or {}
            var = st.get("variance_row_nnz")
            mx = st.get("max_row_nnz")
            rel = mx / m["rows"] if is_number(mx) and m["rows"] > 0 else None
            sp = m["valid"][peer]["time_ms_median"] / b[1]["time_ms_median"]
            pts.append((m["name"], var if is_number(var) else None, rel, sp, b[0]))
        if pts:
            sps = np.array([p[3] for p in pts])
            faster = int(np.count_nonzero(sps > 1))
            gmean = float(np.exp(np.mean(np.log(sps))))
            fig.suptitle(f"Speedup of Kobalt's best format per matrix over {peer}, {run.label}\n"
                         f"Kobalt faster on {faster}/{len(pts)} matrices, geometric mean speedup {gmean:.2f}x")
        else:
            fig.suptitle(f"Speedup of Kobalt's best format over {peer}, {run.label}")
    check_distinct(sty, sorted({p[4] for p in pts}), f"speedup plot of '{run.label}'")
    panels = [(1, "variance of nonzeros per row (log scale)", "variance"),
              (2, "longest row / rows = max_row_nnz / rows (log scale)", "value")]
    for ax, (col, xlabel, zero_word) in zip(axes, panels):
        ax.set_xlabel(xlabel)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.3)
        ax.axhline(1.0, color="black", linewidth=1.2, zorder=1)
        sub = [p for p in pts if p[col] is not None]
        if not sub:
            no_data(ax, f"no matrix has results of both Kobalt and {peer}" if peer
                    else f"no results of peer {args.peer or 'cusparse or kk'}")
            continue
        xs, floor, zeros = log_positions([p[col] for p in sub])
        for f in order:
            idx = [i for i, p in enumerate(sub) if p[4] == f]
            if idx:
                ax.scatter(xs[idx], [sub[i][3] for i in idx], zorder=3, label=sty[f]["label"], **marker_kw(sty[f], 50))
        if len(sub) <= 20:
            for i, p in enumerate(sub):
                ax.annotate(p[0], (xs[i], p[3]), textcoords="offset points", xytext=(5, 4), fontsize=7.5)
        if zeros:
            ax.text(0.02, 0.02, f"{zeros} {'matrix' if zeros == 1 else 'matrices'} with {zero_word} 0 "
                    f"drawn at x = {floor:g}",
                    transform=ax.transAxes, fontsize=8, va="bottom")
        lo, hi = ax.get_ylim()
        lo, hi = min(lo, 0.5), max(hi, 2.0)
        ax.set_ylim(lo, hi)
        plain_log_ticks(ax.yaxis, lo, hi)
        ax.margins(x=0.15)
    axes[0].set_ylabel(f"speedup = t({peer or args.peer or 'peer'}) / t(best Kobalt format) (log scale)")
    if pts:
        axes[1].legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9,
                       title="best Kobalt format", title_fontsize=9)
    fig.tight_layout()
    save(fig, path)


# --------------------------------------------------------------------------- (d) bandwidth


def bw_fraction(run, r):
    if is_number(r.get("bandwidth_fraction")):
        return float(r["bandwidth_fraction"])
    if is_number(r.get("gb_per_s")) and run.triad_gbps:
        return float(r["gb_per_s"]) / run.triad_gbps
    return None


VALUE_BYTES = {"double": 8, "float": 4, "half": 2, "bfloat16": 2, "complex<double>": 16, "complex<float>": 8}


def value_bytes(meta, label):
    """sizeof(value) from kobalt_bench.value_type ("double", "float", "Kokkos::complex<double>", ...)."""
    vt = meta.get("value_type")
    name = re.sub(r"^(Kokkos::|std::)", "", vt.replace(" ", "")) if isinstance(vt, str) else None
    if name in VALUE_BYTES:
        return VALUE_BYTES[name]
    warn(f"'{label}': value_type {vt!r} is not one of {', '.join(VALUE_BYTES)}; footprints assume 8 bytes")
    return 8


def parse_cache_bytes(device):
    """The last-level cache size in a device string such as "NVIDIA H200, 132 SMs, 60 MiB L2", or None."""
    if not isinstance(device, str):
        return None
    hits = re.findall(r"(\d+(?:\.\d+)?)\s*([KMG])(i?)B\s+(?:L2|L3|LLC)\b", device)
    if not hits:
        return None
    num, unit, binary = hits[-1]
    scale = (1024 if binary else 1000) ** "KMG".index(unit) * (1024 if binary else 1000)
    return float(num) * scale


def cache_size(run, cache_mib):
    """(bytes, where it came from) of the last-level cache: kobalt_bench.last_level_cache_bytes, else the
    device string, else --cache-mib; (None, reason) when none gives it."""
    v = run.meta.get("last_level_cache_bytes")
    if positive(v):
        return float(v), "from the JSON"
    v = parse_cache_bytes(run.meta.get("device"))
    if v:
        return v, "from the device string"
    if cache_mib is not None:
        return cache_mib * 2.0 ** 20, "from --cache-mib"
    return None, "no cache size in the JSON or the device string, and no --cache-mib"


def bytes_text(b):
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if b >= scale:
            return f"{b / scale:.3g} {unit}"
    return f"{b:.0f} B"


def binary_log_ticks(axis, lo, hi):
    """Major ticks at powers of two from lo to hi, 4^k or wider apart so that at most 9 show, written in
    KiB / MiB / GiB."""
    first, last = math.ceil(math.log2(lo)), math.floor(math.log2(hi))
    step = 2
    while (last - first) // step + 1 > 9:
        step += 1
    axis.set_major_locator(FixedLocator([2.0 ** e for e in range(first, last + 1) if e % step == 0]))
    axis.set_major_formatter(FuncFormatter(lambda v, _: bytes_text(v)))
    axis.set_minor_formatter(NullFormatter())


def plot_bandwidth(run, sty, order, args, path):
    """Fraction of the triad bandwidth against the footprint of one apply: storage_bytes of the result
    plus x and y, (rows + cols) * sizeof(value) * rhs. The best Kobalt format per matrix and each peer;
    the vertical line is the last-level cache: left of it a warm run can beat the triad."""
    peers = [f for f in order if f in run.peer_formats()]
    series = [BEST] + peers
    check_distinct(sty, series, f"bandwidth plot of '{run.label}'")
    rhs = run.meta.get("rhs", 1)
    rhs = rhs if positive(rhs) else 1
    vbytes = value_bytes(run.meta, run.label)
    pts = {f: [] for f in series}
    no_storage = 0
    for m in run.matrices.values():
        b = best_kobalt(m)
        cols = m.get("cols") if is_number(m.get("cols")) and m["cols"] >= 0 else m["rows"]
        vectors = (m["rows"] + cols) * vbytes * rhs
        for f, r in [(BEST, b[1] if b else None)] + [(p, m["valid"].get(p)) for p in peers]:
            if r is None:
                continue
            frac = bw_fraction(run, r)
            if frac is None:
                continue
            if not positive(r.get("storage_bytes")):
                no_storage += 1
                continue
            pts[f].append((r["storage_bytes"] + vectors, frac))
    if no_storage:
        warn(f"'{run.label}': {no_storage} result(s) without a positive storage_bytes are left out of the "
             "bandwidth plot")
    fig, ax = plt.subplots(figsize=(10, 5.5))
    triad = f"{run.triad_gbps:g} GB/s" if run.triad_gbps else "triad"
    ax.set_title(f"Fraction of the triad bandwidth ({triad}) against footprint, {run.label}\n"
                 "GB/s counts the format's stored bytes (padding included), x read once, y written once",
                 fontsize=10.5)
    ax.set_ylabel("achieved GB/s \u00f7 triad GB/s (log scale)")
    ax.set_xlabel(f"footprint = storage bytes + (rows + cols) \u00b7 {vbytes} B \u00b7 {rhs:g} rhs (log scale)")
    ax.set_xscale("log")
    ax.grid(True, which="major", alpha=0.3)
    if not any(pts.values()):
        no_data(ax, "no results with a bandwidth")
        save(fig, path)
        return
    handles = []
    for f in series:
        if not pts[f]:
            continue
        x, y = zip(*pts[f])
        s = sty[f]
        ax.scatter(x, y, alpha=0.9, zorder=4 if f == BEST else 3, **marker_kw(s, 34))
        handles.append(legend_proxy(s))
    handles.append(ax.axhline(1.0, color="red", linestyle=":", linewidth=1.2, zorder=2, label="triad bandwidth"))
    cache, where = cache_size(run, args.cache_mib)
    if cache:
        handles.append(ax.axvline(cache, color="tab:gray", linestyle="-.", linewidth=1.4, zorder=2,
                                  label=f"last-level cache, {bytes_text(cache)} ({where})"))
    else:
        warn(f"'{run.label}': {where}; the bandwidth plot marks no cache size")
        handles.append(Line2D([], [], linestyle="none", label=f"cache size not marked:\n{where}"))
    ys = [v for p in pts.values() for _, v in p if v > 0]
    lo_y, hi_y = min(ys + [0.5]) / 1.3, max(ys + [1.0]) * 1.3
    ax.set_yscale("log")
    ax.set_ylim(lo_y, hi_y)
    plain_log_ticks(ax.yaxis, lo_y, hi_y)
    lo = min(x for p in pts.values() for x, _ in p)
    hi = max(x for p in pts.values() for x, _ in p)
    if cache:
        lo, hi = min(lo, cache), max(hi, cache)
    lo, hi = lo / 1.6, hi * 1.6
    ax.set_xlim(lo, hi)
    binary_log_ticks(ax.xaxis, lo, hi)
    ax.legend(handles=handles, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9, title="series",
              title_fontsize=9)
    save(fig, path)


# --------------------------------------------------------------------------- main


def main(argv=None):
    ap = argparse.ArgumentParser(prog=PROG, description="Plots kobalt-bench JSON results (one set of PNGs per "
                                 "execution space + device).",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", metavar="RESULTS.json", help="kobalt-bench JSON files")
    ap.add_argument("--out", default=".", metavar="DIR", help="output folder (created if missing; default: .)")
    ap.add_argument("--min-nnz", type=float, default=1e5, metavar="N",
                    help="performance profiles use the matrices with nnz >= N (default 1e5)")
    ap.add_argument("--peer", default=None, metavar="FORMAT",
                    help="peer format for the speedup plot (default: cusparse, else kk)")
    ap.add_argument("--t-max", type=float, default=4.0, metavar="T",
                    help="right end of the performance-profile x axis (default 4)")
    ap.add_argument("--cache-mib", type=float, default=None, metavar="N",
                    help="last-level cache size in MiB for the bandwidth plot, for runs whose JSON has neither "
                    "kobalt_bench.last_level_cache_bytes nor a size in the device string (CPU runs)")
    args = ap.parse_args(argv)
    if not args.t_max > 1.0:
        ap.error("--t-max must be greater than 1")
    if args.cache_mib is not None and not (math.isfinite(args.cache_mib) and args.cache_mib > 0):
        ap.error("--cache-mib must be a positive number")
    try:
        runs = load_runs(args.results)
    except InputError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        print(f"{PROG}: error: cannot create output folder {args.out}: {e.strerror}", file=sys.stderr)
        return 2

    used = set()
    for label in sorted(runs):
        run = runs[label]
        name = safe_label(label)
        k = 2
        while name in used:  # two labels that differ only in unsafe characters
            name = f"{safe_label(label)}-{k}"
            k += 1
        used.add(name)
        if not any(m["valid"] for m in run.matrices.values()):
            warn(f"'{label}': no valid results; the plots are empty")
        sty = styles(run)
        order = format_order(run, args.min_nnz, args.t_max)
        plot_profile(run, sty, order, args, os.path.join(args.out, f"profile_{name}.png"))
        plot_gflops(run, sty, order, args, os.path.join(args.out, f"gflops_vs_nnz_{name}.png"))
        plot_speedup(run, sty, order, args, os.path.join(args.out, f"speedup_{name}.png"))
        plot_bandwidth(run, sty, order, args, os.path.join(args.out, f"bandwidth_{name}.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
