// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench-distributed's report: a table row per rank count (stdout) and
// the JSON report (perf_tests/kobalt-bench-distributed.schema.json).
#pragma once

#include "../options.hpp"
#include "../report.hpp"
#include "phases.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kobalt::bench::distributed {

/// A format run by rank 0 alone on the single-device matrix.
struct SingleDeviceRow {
  std::string format, strategy;
  Timing time;
  double gb_per_s = 0;
  std::optional<std::string> error, error_kind;
};

/// One rank's part of a distributed run.
struct RankPart {
  std::int64_t rows = 0, nnz = 0, diagonal_nnz = 0, off_diagonal_nnz = 0;
  std::int64_t sent_bytes = 0, received_bytes = 0, neighbours = 0;
  std::string diagonal_format, off_diagonal_format;
};

/// One rank count's run.
struct RanksRow {
  int ranks = 0;
  std::string scaling;  ///< "strong" or "weak"
  std::string matrix;   ///< the input, or for weak scaling the grown grid
  std::int64_t rows = 0, cols = 0, nnz = 0;
  std::string partition, transport;
  Split split;
  double gb_per_s = 0;  ///< every rank's matrix, x and y bytes over the apply time
  std::optional<double> efficiency;  ///< against rank 0's Kobalt time alone
  std::vector<RankPart> parts;
  std::optional<std::string> error, error_kind;

  /// Split::hidden, unset without a halo (one rank, or blocks that need none).
  std::optional<double> hidden() const {
    if (error || halo_bytes() == 0) return std::nullopt;
    return split.hidden();
  }
  std::int64_t halo_bytes() const {
    std::int64_t sum = 0;
    for (const auto& p : parts) sum += p.received_bytes;
    return sum;
  }
};

struct InputReport {
  std::string name, source;
  std::int64_t rows = 0, cols = 0, nnz = 0;  ///< of the single-device matrix
  std::vector<SingleDeviceRow> single_device;
  std::vector<RanksRow> runs;
  std::optional<std::string> error;
};

struct RunInfo {
  Provenance provenance;
  std::string execution_space, device, value_type, index_type, scaling, transport;
  int world_ranks = 1;
  bool reproducible = false;
  TimingOptions timing;
};

namespace detail {

inline void write_timing(std::ostream& os, const char* name, const Timing& t) {
  using json::number;
  os << "\"" << name << "\": {\"median_us\": " << number(t.median * 1e6)
     << ", \"min_us\": " << number(t.min * 1e6) << ", \"max_us\": " << number(t.max * 1e6)
     << ", \"reps\": " << t.reps << "}";
}

}  // namespace detail

inline void write_json(std::ostream& os, const RunInfo& run, const std::vector<InputReport>& inputs) {
  using json::number;
  using json::quote;
  using json::text;
  os << "{\n  \"kobalt_bench_distributed\": {\"version\": 1, \"execution_space\": "
     << quote(run.execution_space) << ", \"device\": " << quote(run.device)
     << ", \"value_type\": " << quote(run.value_type) << ", \"index_type\": " << quote(run.index_type)
     << ", \"world_ranks\": " << run.world_ranks << ", \"scaling\": " << quote(run.scaling)
     << ", \"transport\": " << quote(run.transport)
     << ", \"reproducible\": " << (run.reproducible ? "true" : "false") << ",\n    ";
  write_provenance(os, run.provenance);
  os << ",\n    \"timing\": {\"warmup\": " << run.timing.warmup
     << ", \"min_reps\": " << run.timing.min_reps << ", \"max_reps\": " << run.timing.max_reps
     << ", \"batch\": " << run.timing.batch
     << ", \"budget_seconds\": " << number(run.timing.budget_seconds)
     << ", \"clock\": \"host clock after a barrier and a fence, slowest rank\"}},\n  \"inputs\": [";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const InputReport& in = inputs[i];
    os << (i ? "," : "") << "\n    {\"name\": " << quote(in.name) << ", \"source\": " << quote(in.source)
       << ", \"rows\": " << in.rows << ", \"cols\": " << in.cols << ", \"nnz\": " << in.nnz
       << ", \"error\": " << text(in.error) << ",\n     \"single_device\": [";
    for (std::size_t j = 0; j < in.single_device.size(); ++j) {
      const SingleDeviceRow& r = in.single_device[j];
      os << (j ? "," : "") << "\n      {\"format\": " << quote(r.format)
         << ", \"strategy\": " << quote(r.strategy) << ", ";
      detail::write_timing(os, "time", r.time);
      os << ", \"gb_per_s\": " << number(r.gb_per_s) << ", \"error\": " << text(r.error)
         << ", \"error_kind\": " << text(r.error_kind) << "}";
    }
    os << "],\n     \"runs\": [";
    for (std::size_t j = 0; j < in.runs.size(); ++j) {
      const RanksRow& r = in.runs[j];
      const Split& s = r.split;
      os << (j ? "," : "") << "\n      {\"ranks\": " << r.ranks << ", \"scaling\": " << quote(r.scaling)
         << ", \"matrix\": " << quote(r.matrix)
         << ", \"rows\": " << r.rows << ", \"cols\": " << r.cols << ", \"nnz\": " << r.nnz
         << ", \"partition\": " << quote(r.partition) << ", \"transport\": " << quote(r.transport)
         << ",\n       ";
      detail::write_timing(os, "apply", s.apply);
      os << ",\n       ";
      detail::write_timing(os, "pack", s.pack);
      os << ", ";
      detail::write_timing(os, "exchange", s.exchange);
      os << ",\n       ";
      detail::write_timing(os, "diagonal", s.diagonal);
      os << ", ";
      detail::write_timing(os, "off_diagonal", s.off_diagonal);
      os << ", ";
      detail::write_timing(os, "local", s.local);
      os << ",\n       \"hidden\": " << number(r.hidden())
         << ", \"gb_per_s\": " << number(r.gb_per_s) << ", \"efficiency\": " << number(r.efficiency)
         << ", \"halo_bytes\": " << r.halo_bytes() << ", \"error\": " << text(r.error)
         << ", \"error_kind\": " << text(r.error_kind) << ",\n       \"per_rank\": [";
      for (std::size_t k = 0; k < r.parts.size(); ++k) {
        const RankPart& p = r.parts[k];
        os << (k ? ", " : "") << "{\"rows\": " << p.rows << ", \"nnz\": " << p.nnz
           << ", \"diagonal_nnz\": " << p.diagonal_nnz << ", \"off_diagonal_nnz\": " << p.off_diagonal_nnz
           << ", \"sent_bytes\": " << p.sent_bytes << ", \"received_bytes\": " << p.received_bytes
           << ", \"neighbours\": " << p.neighbours
           << ", \"diagonal_format\": " << quote(p.diagonal_format)
           << ", \"off_diagonal_format\": " << quote(p.off_diagonal_format) << "}";
      }
      os << "]}";
    }
    os << "]}";
  }
  os << "\n  ]\n}\n";
}

/// The table on stdout: a line per single-device format, then a row per
/// rank count (times in microseconds per apply, the slowest rank's).
inline void print_single_device(std::FILE* out, const InputReport& in, const SingleDeviceRow& r) {
  if (r.error)
    std::fprintf(out, "# %s, one device, %s: %s\n", in.name.c_str(), r.format.c_str(), r.error->c_str());
  else
    std::fprintf(out, "# %s, one device, %s: %.1f us (%.0f GB/s) %s\n", in.name.c_str(),
                 r.format.c_str(), r.time.median * 1e6, r.gb_per_s, r.strategy.c_str());
}

inline void print_header(std::FILE* out) {
  std::fprintf(out, "%-26s %5s %11s %8s %9s %9s %6s %8s %8s %8s %8s %8s %6s  %s\n", "matrix", "ranks",
               "nnz", "halo_KiB", "apply_us", "GB/s", "eff", "pack_us", "exch_us", "diag_us",
               "offd_us", "local_us", "hidden", "transport; formats");
}

inline void print_row(std::FILE* out, const RanksRow& r) {
  if (r.error) {
    std::fprintf(out, "%-26s %5d  %s: %s\n", r.matrix.c_str(), r.ranks, r.error_kind->c_str(),
                 r.error->c_str());
    return;
  }
  const Split& s = r.split;
  std::string formats = r.transport + ";";
  for (std::size_t k = 0; k < r.parts.size() && k < 4; ++k)
    formats += " " + r.parts[k].diagonal_format + "+" + r.parts[k].off_diagonal_format;
  if (r.parts.size() > 4) formats += " ...";
  std::fprintf(out, "%-26s %5d %11lld %8.0f %9.1f %9.0f %6.2f %8.1f %8.1f %8.1f %8.1f %8.1f %6.2f  %s\n",
               r.matrix.c_str(), r.ranks, static_cast<long long>(r.nnz), r.halo_bytes() / 1024.0,
               s.apply.median * 1e6, r.gb_per_s, r.efficiency.value_or(std::nan("")),
               s.pack.median * 1e6, s.exchange.median * 1e6, s.diagonal.median * 1e6,
               s.off_diagonal.median * 1e6, s.local.median * 1e6, r.hidden().value_or(std::nan("")),
               formats.c_str());
}

}  // namespace kobalt::bench::distributed
