// SPDX-License-Identifier: BSD-3-Clause
// csr::automatic (003 Alg. 3 with the departures measured here): the
// limits per kind of device, the kernel they pick and its policy.
#pragma once

#include "select_csr.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <variant>

namespace kobalt::tuning {

// CSR automatic, 003 Alg. 3: load_balance above nnz_limit nonzeros or with
// a row longer than row_len_limit, classical otherwise. Hosts do not use
// these limits (resolve_csr: always merge_path). On NVIDIA each departure
// from 003 below was measured; docs/sources.md's CSR table has a row for each.
// - 003's row limit 1024; its nnz limit (1e6) is dropped: short rows ran
//   faster as classical at any size, rows > 1024 serialise classical's subwarps.
// - Long rows with at least merge_path_nnz (2e5) nonzeros take merge_path
//   instead of load_balance; below it merge_path's fixup launch lost.
// - Rows of at most basic_row_len (7) entries take basic (a thread per row):
//   classical's subwarp of 4 lanes then idles half its lanes.
// - Rows whose mean fills less than 3/4 of classical's subwarp (largest
//   power of two <= the longest row) take 003's balanced cases instead of
//   classical: the subwarp's other lanes idle.
// - Of those, no row longer than 20 in fewer than 1e6 nonzeros: basic, one
//   launch; above either limit the warp waits for its longest of 32 rows.
// - Of those, below merge_path_nnz with no row longer than 256: classical,
//   one launch against load_balance's chunking (timed back to back).
// - Below merge_path_nnz the balanced cases take merge_path too where it
//   runs in one launch (merge_path_in_one_launch: no row spans more than
//   merge_path_one_launch_runs x W tiles), load_balance otherwise; the 2e5
//   limit dates from when merge_path always took two launches.
// - Rows longer than classical_row_len (16 steps of a 32-lane subwarp)
//   take the balanced cases even where the mean fills the subwarp: the
//   warp with the longest row decides classical's time.
// - AMD: 003's 1e8 and 768 ([ext] Ginkgo), not measured here; load_balance.
/// The limits of csr::automatic's rule (003 Alg. 3) on one kind of device.
struct CsrAutomaticLimits {
  std::int64_t nnz_limit = 0;  ///< 0 = no limit on the nonzeros
  std::int64_t row_len_limit = 0;  ///< load_balance when a row is longer
  std::int64_t merge_path_nnz = 0;  ///< load_balance's cases take merge_path from here; 0 = never
  std::int64_t basic_row_len = 0;  ///< basic when no row is longer; 0 = never
  double classical_min_fill = 0;  ///< balanced when mean row < this x classical's subwarp; 0 = never
  std::int64_t fill_basic_row_len = 0;  ///< underfilled subwarps: basic when no row is longer ...
  std::int64_t fill_basic_nnz = 0;      ///< ... and the matrix has fewer nonzeros; 0 = never
  std::int64_t fill_classical_row_len = 0;  ///< underfilled, few nonzeros: classical up to this row
  std::int64_t classical_row_len = 0;  ///< the balanced cases when a row is longer; 0 = never
};

/// The limits on HIP devices: 003 Alg. 3's own two, nothing measured here.
inline CsrAutomaticLimits csr_automatic_limits_hip() {
  CsrAutomaticLimits l;
  l.nnz_limit = 100000000;
  l.row_len_limit = 768;
  return l;
}

/// The limits on every other device: 003's row limit and the measured
/// departures listed above.
inline CsrAutomaticLimits csr_automatic_limits_default() {
  CsrAutomaticLimits l;
  l.row_len_limit = 1024;
  l.merge_path_nnz = 200000;
  l.basic_row_len = 7;
  l.classical_min_fill = 0.75;
  l.fill_basic_row_len = 20;
  l.fill_basic_nnz = 1000000;
  l.fill_classical_row_len = 256;
  l.classical_row_len = 512;
  return l;
}

/// The limits for the profile's device: HIP or any other.
inline CsrAutomaticLimits csr_automatic_limits(const DeviceProfile& profile) {
  if (profile.kind == arch::Backend::hip) return csr_automatic_limits_hip();
  return csr_automatic_limits_default();
}

/// The kernel csr::automatic runs (003 Alg. 3), with the reason. Statistics
/// without a row-length maximum (max_row_nnz 0 with entries) take
/// load_balance, which is correct and balanced for any row lengths.
inline std::pair<csr::strategy, std::string> resolve_csr(const MatrixStats& stats,
                                                         const DeviceProfile& profile) {
  // Hosts: merge_path's tiles of equal rows + nonzeros for every matrix, so
  // no thread gets a long row's worth of extra work (host_tiles_per_thread).
  if (!profile.gpu)
    return {csr::merge_path{},
            "automatic: hosts take merge-path tiles of equal rows + nonzeros"};
  const auto limits = csr_automatic_limits(profile);
  // 003's load_balance cases: merge_path from limits.merge_path_nnz
  // nonzeros, and below it where merge_path runs in one launch.
  const auto balanced = [&](std::string why) -> std::pair<csr::strategy, std::string> {
    if (limits.merge_path_nnz > 0 && stats.nnz >= limits.merge_path_nnz)
      return {csr::merge_path{}, why + "; nnz " + std::to_string(stats.nnz) +
                                     " >= " + std::to_string(limits.merge_path_nnz) +
                                     ": merge_path (measured, docs/sources.md)"};
    if (limits.merge_path_nnz > 0 && merge_path_in_one_launch(stats, profile))
      return {csr::merge_path{}, why + "; nnz " + std::to_string(stats.nnz) + " < " +
                                     std::to_string(limits.merge_path_nnz) + ", longest row " +
                                     std::to_string(stats.max_row_nnz) +
                                     " within merge_path's one launch"
                                     " (measured, docs/sources.md)"};
    return {csr::load_balance{}, why};
  };
  if (limits.nnz_limit > 0 && stats.nnz > limits.nnz_limit)
    return balanced("automatic: nnz " + std::to_string(stats.nnz) + " > " +
                    std::to_string(limits.nnz_limit) + " (003 Alg. 3)");
  if (stats.max_row_nnz > limits.row_len_limit)
    return balanced("automatic: longest row " + std::to_string(stats.max_row_nnz) + " > " +
                    std::to_string(limits.row_len_limit) + " (003 Alg. 3)");
  if (stats.max_row_nnz == 0 && stats.nnz > 0)
    return {csr::load_balance{}, "automatic: longest row unknown"};
  if (stats.max_row_nnz <= limits.basic_row_len)
    return {csr::basic{}, "automatic: longest row " + std::to_string(stats.max_row_nnz) +
                              " <= " + std::to_string(limits.basic_row_len) +
                              ": basic, a thread per row (measured, docs/sources.md; 003 Alg. 3's "
                              "classical above)"};
  const int subwarp = classical_subwarp(stats, profile);
  if (stats.mean_row_nnz < limits.classical_min_fill * subwarp) {
    std::ostringstream why;
    why << "automatic: mean row " << stats.mean_row_nnz << " < " << limits.classical_min_fill
        << " x classical's subwarp " << subwarp << " (measured, docs/sources.md; 003 Alg. 3's "
        << "classical otherwise)";
    if (stats.max_row_nnz <= limits.fill_basic_row_len && stats.nnz < limits.fill_basic_nnz)
      return {csr::basic{}, why.str() + "; longest row " + std::to_string(stats.max_row_nnz) +
                                " <= " + std::to_string(limits.fill_basic_row_len) + ", nnz " +
                                std::to_string(stats.nnz) + " < " +
                                std::to_string(limits.fill_basic_nnz) +
                                ": basic, one launch (measured, docs/sources.md)"};
    if (stats.nnz < limits.merge_path_nnz && stats.max_row_nnz <= limits.fill_classical_row_len)
      return {csr::classical{}, why.str() + "; nnz " + std::to_string(stats.nnz) + " < " +
                                    std::to_string(limits.merge_path_nnz) + ", longest row " +
                                    std::to_string(stats.max_row_nnz) + " <= " +
                                    std::to_string(limits.fill_classical_row_len) +
                                    ": classical, one launch (measured, docs/sources.md)"};
    return balanced(why.str());
  }
  if (limits.classical_row_len > 0 && stats.max_row_nnz > limits.classical_row_len)
    return balanced("automatic: longest row " + std::to_string(stats.max_row_nnz) + " > " +
                    std::to_string(limits.classical_row_len) +
                    ": classical's longest subwarp walk (measured, docs/sources.md; "
                    "003 Alg. 3's classical up to 1024)");
  return {csr::classical{},
          "automatic: " +
              (limits.nnz_limit > 0 ? "nnz " + std::to_string(stats.nnz) + " <= " +
                                          std::to_string(limits.nnz_limit) + " and "
                                    : std::string()) +
              "longest row " + std::to_string(stats.max_row_nnz) + " <= " +
              std::to_string(limits.row_len_limit) + " (003 Alg. 3)"};
}

/// csr::automatic resolved to the kernel 003 Alg. 3 picks; others as they are.
inline csr::strategy resolve(const MatrixStats& stats, const DeviceProfile& profile,
                             const csr::strategy& s) {
  if (std::holds_alternative<csr::automatic>(s)) return resolve_csr(stats, profile).first;
  return s;
}

/// CSR automatic: the policy of the kernel 003 Alg. 3 picks, its rule saying why.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         csr::automatic) {
  const auto [strategy, why] = resolve_csr(stats, profile);
  SpmvPolicy p = std::visit([&](auto v) { return select(stats, profile, v); }, strategy);
  p.rule = why + "; " + p.rule;
  return p;
}

}  // namespace kobalt::tuning
