// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench-distributed's command line: every option, its default, and
// --help. Parsed alike on every rank; a bad one is a usage_error everywhere.
#pragma once

#include "../options.hpp"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace kobalt::bench::distributed {

inline const char* usage_text = R"(usage: mpiexec -n P kobalt-bench-distributed [options] INPUT...

The distributed mode of kobalt-bench: y = A*x over MPI ranks with
kobalt::distributed (one GPU per rank on GPU builds), on communicators of
1, 2, 4, ... of the P ranks (--ranks), checked against the sequential
reference. Rank 0 first times the whole matrix (strong scaling) or one
rank's share (weak scaling) alone on its device: Kobalt's automatic handle
and, where built, cuSPARSE; efficiencies are against Kobalt's time. For
every rank count it prints one table row (stdout) and, with --json, the
report (perf_tests/kobalt-bench-distributed.schema.json).

INPUT
  FILE.mtx | FILE.mtx.gz   read on rank 0, scattered (rows balanced by
                           nonzeros); strong scaling only
  GENERATOR                a kobalt-bench generator (kobalt-bench --help):
                           lap2d, lap3d, stencil27, fem and arrow are built
                           by rows, each rank its own; the others (uniform,
                           zipf, rmat, circuit, tall, wide) whole on every
                           rank from the same seed, each keeping its rows

OPTIONS
  --scaling S     strong (default): INPUT is the whole matrix, split over
                  each rank count; efficiency = t(1 device) / (ranks x t).
                  weak: INPUT is one rank's share and the matrix grows with
                  the ranks: lap3d:N and stencil27:N become N x N x (N*R)
                  grids, lap2d:N an N x (N*R) grid, fem:N,B,W N*R block
                  rows (rank r owns the r-th share); efficiency =
                  t(1 device) / t. both: strong, then weak on 2 ranks and
                  more where the input grows
  --ranks LIST    rank counts to run, comma separated, each at most P
                  (default: 1, 2, 4, ... up to P, and P)
  --value T       float | double (default double)
  --index T       int32 | int64 (default int32)
  --transport T   automatic (default) | mpi | mpi-staged | mpi-gpu-aware |
                  nccl: the halo's transport (kobalt::distributed::transport;
                  mpi hands MPI device buffers where it reports itself
                  GPU-aware, mpi-staged never, mpi-gpu-aware always)
  --reproducible  fixed-order block handles (kobalt::reproducible)
  --warmup N      untimed applies before timing (default 3)
  --reps N        at most N timed repetitions (default 200); at least 5, and
                  they stop once about --budget seconds were timed
  --budget S      timed seconds per phase (default 1.0)
  --batch N       applies per timed repetition, time per apply reported
                  (default 20: a solver loop's cost per apply)
  --json FILE     write the JSON report to FILE (rank 0; rewritten
                  atomically after every input)
  --help          this text

Timing: every repetition starts after an MPI_Barrier, runs --batch applies,
fences the device and takes the host clock; the slowest rank's time is the
repetition's (MPI_Allreduce MAX). Median, minimum and maximum over the
repetitions. The phases, each timed the same way alone: pack (the gather of
the x entries to send), exchange (pack, send, receive and unpack, no
product), diagonal and off-diagonal (each block's product), local (both
products, no exchange). hidden = (local + exchange - apply) / exchange,
clamped to [0, 1]: the part of the exchange the diagonal product covered.
Halo bytes are the x entries received per apply, times the value's size.

Exit status: 0 when every run was correct; 1 when a run failed; 2 for a bad
command line; 3 when the JSON report could not be written; 4 when a result
was wrong.
)";

struct Options {
  std::vector<std::string> inputs;
  std::vector<int> ranks;  ///< empty: 1, 2, 4, ... and the world's size
  std::string value = "double", index = "int32", scaling = "strong", transport = "automatic";
  std::string json;
  bool reproducible = false;
  TimingOptions timing;
};

/// The options on every rank alike; throws usage_error for a bad one and
/// returns nullopt for --help (rank 0 has printed it).
inline std::optional<Options> parse_options(int argc, char** argv, int rank) {
  Options o;
  o.timing.batch = 20;
  auto next = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw usage_error(std::string("missing value after ") + argv[i]);
    return argv[++i];
  };
  auto integer = [&](const std::string& s, const std::string& what, long long min, long long max) {
    const auto v = parse_whole(s, min, max);
    if (!v)
      throw usage_error(what + " needs an integer in [" + std::to_string(min) + ", " +
                        std::to_string(max) + "], got '" + s + "'");
    return *v;
  };
  auto one_of = [&](const std::string& v, const std::string& what,
                    const std::vector<std::string>& allowed) {
    for (const auto& a : allowed)
      if (v == a) return v;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : " | ") + a;
    throw usage_error(what + " must be " + list + ", got '" + v + "'");
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      if (rank == 0) std::cout << usage_text;
      return std::nullopt;
    } else if (a == "--scaling") {
      o.scaling = one_of(next(i), "--scaling", {"strong", "weak", "both"});
    } else if (a == "--ranks") {
      std::stringstream list(next(i));
      std::string item;
      while (std::getline(list, item, ','))
        o.ranks.push_back(static_cast<int>(integer(item, "--ranks", 1, 1 << 20)));
      if (o.ranks.empty()) throw usage_error("--ranks needs a list of rank counts");
    } else if (a == "--value") {
      o.value = one_of(next(i), "--value", {"float", "double"});
    } else if (a == "--index") {
      o.index = one_of(next(i), "--index", {"int32", "int64"});
    } else if (a == "--transport") {
      o.transport = one_of(next(i), "--transport",
                           {"automatic", "mpi", "mpi-staged", "mpi-gpu-aware", "nccl"});
    } else if (a == "--reproducible") {
      o.reproducible = true;
    } else if (a == "--warmup" || a == "--reps" || a == "--budget" || a == "--batch") {
      parse_timing_option(a, next(i), o.timing);
    } else if (a == "--json") {
      o.json = next(i);
      if (o.json.empty()) throw usage_error("--json needs a file name, got an empty one");
    } else if (!a.empty() && a[0] == '-') {
      throw usage_error("unknown option " + a);
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.inputs.empty()) throw usage_error("no input matrix given");
  return o;
}

/// The rank counts to run on a world of `world` ranks: the given ones
/// (each at most `world`), or 1, 2, 4, ... and `world`.
inline std::vector<int> rank_counts(const Options& o, int world) {
  std::vector<int> counts = o.ranks;
  if (counts.empty()) {
    for (int r = 1; r < world; r *= 2) counts.push_back(r);
    counts.push_back(world);
  }
  for (const int r : counts)
    if (r > world)
      throw usage_error("--ranks asks for " + std::to_string(r) + " ranks, mpiexec started " +
                        std::to_string(world));
  return counts;
}

}  // namespace kobalt::bench::distributed
