// SPDX-License-Identifier: BSD-3-Clause
// What kobalt-bench reports: one MatrixReport per input with one ResultRow
// per format or peer, printed as a table and written as JSON in the spirit
// of Ginkgo's benchmark output. The JSON layout is pinned by a golden-file
// test (unit_tests/bench/golden_json.cmake) and described by
// perf_tests/kobalt-bench.schema.json.
#pragma once

#include "output_file.hpp"
#include "provenance.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace kobalt::bench {

struct ResultRow {
  std::string format;    ///< the spec as given, e.g. "sellp:b=32,t=1"
  std::string kind;      ///< "kobalt" or "peer"
  std::string strategy;  ///< what actually ran
  std::string rule;      ///< why it was chosen (Kobalt's selector rule)
  double setup_ms = 0;   ///< conversion / preprocessing, once
  std::optional<double> setup_csr_spmvs;  ///< setup in units of one CSR SpMV (000 §5.3)
  /// auto only: the analysis and the choice, a part of setup_ms, and the
  /// same in CSR SpMVs (the automatic choice must stay cheap)
  std::optional<double> analysis_ms, analysis_csr_spmvs;
  /// Kobalt rows: the handle's update_values (the median of repeated
  /// refreshes), and the same in CSR SpMVs; unset for peers
  std::optional<double> update_values_ms, update_values_csr_spmvs;
  std::uint64_t storage_bytes = 0;
  std::int64_t stored_entries = 0;
  /// the spread of the timed repetitions (per call with --batch)
  std::optional<double> time_ms_median, time_ms_min, time_ms_max;
  int reps = 0;
  std::optional<double> gflops, gb_per_s, bandwidth_fraction;
  std::optional<double> max_relative_error;
  /// Kobalt rows: the handle adds in a fixed order (SpmvHandle::reproducible),
  /// and the bench found the same bits after the timed applies; unset for peers
  std::optional<bool> reproducible;
  std::optional<std::string> error;  ///< set: the row has no time
  /// with error: "refused" (by design: format_too_large, index_overflow or
  /// peer_lacks), "failed" (any other error), "wrong_result" (outside the
  /// tolerance, or changed bits)
  std::optional<std::string> error_kind;
  /// warm runs where x, y and the matrix fit the last-level cache: the time
  /// is the cache's, not memory's; unset where the cache size is unknown
  std::optional<bool> cache_resident;
};

struct MatrixReport {
  std::string name, source, ordering = "file";
  std::int64_t rows = 0, cols = 0, nnz = 0;
  std::int64_t min_row_nnz = 0, max_row_nnz = 0, empty_rows = 0;
  double mean_row_nnz = 0, variance_row_nnz = 0;
  std::string row_class;  ///< "regular" / "irregular" (002 §5.3: variance <= 10)
  std::vector<ResultRow> results;
  std::optional<std::string> error;  ///< set: the input did not load (no results)
};

struct RunInfo {
  Provenance provenance;
  std::uint64_t last_level_cache_bytes = 0;  ///< 0 = unknown
  int kokkos_version = 0;
  std::string execution_space, device, value_type, index_type, clock, cache, traffic_model;
  int rhs = 1, warmup = 0, min_reps = 0, max_reps = 0, batch = 1;
  std::string mode = "N";  ///< --mode: y = op(A)*x with op "N", "T", "C" or "H"
  double budget_seconds = 0;
  std::int64_t triad_bytes = 0;  ///< 0: the probe did not run (no result needed it)
  double triad_seconds = 0, triad_gb_per_s = 0;
};

namespace json {
inline std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}
inline std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
inline std::string number(const std::optional<double>& v) { return v ? number(*v) : "null"; }
inline std::string text(const std::optional<std::string>& v) { return v ? quote(*v) : "null"; }
inline std::string boolean(const std::optional<bool>& v) {
  return v ? (*v ? "true" : "false") : "null";
}
}  // namespace json

/// "provenance": {...}: where a report came from.
inline void write_provenance(std::ostream& os, const Provenance& p) {
  using json::quote;
  os << "\"provenance\": {\"kobalt_version\": " << quote(p.kobalt_version)
     << ", \"commit\": " << quote(p.commit) << ", \"compiler\": " << quote(p.compiler)
     << ", \"flags\": " << quote(p.flags) << ", \"build_type\": " << quote(p.build_type)
     << ", \"host\": " << quote(p.host) << ", \"date\": " << quote(p.date_utc)
     << ", \"command_line\": " << quote(p.command_line) << ", \"pages\": " << quote(p.pages)
     << ",\n      \"kokkos_configuration\": " << quote(p.kokkos_configuration) << "}";
}

/// The whole run as JSON: {"kobalt_bench": {...run info...}, "matrices": [...]}.
inline void write_json(std::ostream& os, const RunInfo& run, const std::vector<MatrixReport>& ms) {
  using json::number;
  using json::quote;
  os << "{\n  \"kobalt_bench\": {\"version\": 2, \"kokkos_version\": " << run.kokkos_version
     << ", \"execution_space\": " << quote(run.execution_space)
     << ", \"device\": " << quote(run.device) << ", \"value_type\": " << quote(run.value_type)
     << ", \"index_type\": " << quote(run.index_type) << ", \"rhs\": " << run.rhs << ", \"mode\": " << quote(run.mode)
     << ", \"last_level_cache_bytes\": "
     << (run.last_level_cache_bytes ? std::to_string(run.last_level_cache_bytes) : "null")
     << ",\n    ";
  write_provenance(os, run.provenance);
  os << ",\n    \"timing\": {\"warmup\": " << run.warmup << ", \"min_reps\": " << run.min_reps
     << ", \"max_reps\": " << run.max_reps << ", \"batch\": " << run.batch
     << ", \"budget_seconds\": " << number(run.budget_seconds)
     << ", \"cache\": " << quote(run.cache) << ", \"clock\": " << quote(run.clock) << "}"
     << ",\n    \"triad\": ";
  if (run.triad_bytes > 0)
    os << "{\"bytes\": " << run.triad_bytes << ", \"seconds\": " << number(run.triad_seconds)
       << ", \"gb_per_s\": " << number(run.triad_gb_per_s) << "}";
  else
    os << "null";
  os
     << ",\n    \"traffic_model\": " << quote(run.traffic_model) << "},\n  \"matrices\": [";
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const MatrixReport& m = ms[i];
    os << (i ? "," : "") << "\n    {\"name\": " << quote(m.name) << ", \"source\": " << quote(m.source)
       << ", \"rows\": " << m.rows << ", \"cols\": " << m.cols << ", \"nnz\": " << m.nnz
       << ",\n     \"stats\": {\"min_row_nnz\": " << m.min_row_nnz
       << ", \"max_row_nnz\": " << m.max_row_nnz
       << ", \"mean_row_nnz\": " << number(m.mean_row_nnz)
       << ", \"variance_row_nnz\": " << number(m.variance_row_nnz)
       << ", \"empty_rows\": " << m.empty_rows << ", \"class\": " << quote(m.row_class) << "}"
       << ",\n     \"ordering\": " << quote(m.ordering) << ", \"error\": " << json::text(m.error)
       << ",\n     \"results\": [";
    for (std::size_t j = 0; j < m.results.size(); ++j) {
      const ResultRow& r = m.results[j];
      os << (j ? "," : "") << "\n      {\"format\": " << quote(r.format)
         << ", \"kind\": " << quote(r.kind) << ", \"strategy\": " << quote(r.strategy) << ", \"rule\": " << quote(r.rule)
         << ", \"setup_ms\": " << number(r.setup_ms)
         << ", \"setup_csr_spmvs\": " << number(r.setup_csr_spmvs)
         << ", \"analysis_ms\": " << number(r.analysis_ms)
         << ", \"analysis_csr_spmvs\": " << number(r.analysis_csr_spmvs)
         << ", \"update_values_ms\": " << number(r.update_values_ms)
         << ", \"update_values_csr_spmvs\": " << number(r.update_values_csr_spmvs)
         << ", \"storage_bytes\": " << r.storage_bytes
         << ", \"stored_entries\": " << r.stored_entries
         << ", \"time_ms_median\": " << number(r.time_ms_median)
         << ", \"time_ms_min\": " << number(r.time_ms_min)
         << ", \"time_ms_max\": " << number(r.time_ms_max) << ", \"reps\": " << r.reps
         << ", \"gflops\": " << number(r.gflops) << ", \"gb_per_s\": " << number(r.gb_per_s)
         << ", \"bandwidth_fraction\": " << number(r.bandwidth_fraction)
         << ", \"max_relative_error\": " << number(r.max_relative_error)
         << ", \"reproducible\": " << json::boolean(r.reproducible)
         << ", \"cache_resident\": " << json::boolean(r.cache_resident)
         << ", \"error\": " << json::text(r.error)
         << ", \"error_kind\": " << json::text(r.error_kind) << "}";
    }
    os << "]}";
  }
  os << "\n  ]\n}\n";
}

/// The report written atomically through replace_file (output_file.hpp):
/// into a new private folder beside `path`, then renamed over it, so a
/// failed or interrupted write (a full disk) never leaves a truncated report
/// in place of the previous one, and no other file is touched. False with
/// `error` set on any failure.
inline bool write_json_file(const OutputKind& kind, const std::string& path,
                            const std::vector<std::string>& inputs, const RunInfo& run,
                            const std::vector<MatrixReport>& ms, std::string& error) {
  return replace_file(
      kind, path, inputs,
      [&](const std::string& file) {
        std::ofstream out(file, std::ios::trunc);
        if (!out) return false;
        write_json(out, run, ms);
        out.close();  // flushes; a full disk shows here
        return !out.fail();
      },
      error);
}

/// The table on stdout: fixed-width columns first, the strategy (the
/// handle's policy, of any length) last.
inline void print_table_header(std::FILE* out) {
  std::fprintf(out, "%-28s %10s %11s  %-24s %9s %10s %10s %10s %9s %8s %6s %9s  %s\n", "matrix",
               "rows", "nnz", "format", "setup_ms", "min_us", "median_us", "max_us", "GFLOP/s",
               "GB/s", "of_bw", "max_err", "strategy");
}

inline void print_table_row(std::FILE* out, const MatrixReport& m, const ResultRow& r) {
  std::fprintf(out, "%-28s %10lld %11lld  %-24s ", m.name.c_str(), (long long)m.rows,
               (long long)m.nnz, r.format.c_str());
  if (r.error && !r.time_ms_median) {
    std::fprintf(out, "%9.3f %s\n", r.setup_ms, r.error->c_str());
    return;
  }
  std::fprintf(out, "%9.3f %10.2f %10.2f %10.2f %9.2f %8.1f %4.0f%%%c %9.2e  %s\n", r.setup_ms,
               r.time_ms_min.value_or(0) * 1e3, *r.time_ms_median * 1e3,
               r.time_ms_max.value_or(0) * 1e3, r.gflops.value_or(0), r.gb_per_s.value_or(0),
               100 * r.bandwidth_fraction.value_or(0), r.cache_resident.value_or(false) ? '*' : ' ',
               r.max_relative_error.value_or(0), r.strategy.c_str());
}

}  // namespace kobalt::bench
