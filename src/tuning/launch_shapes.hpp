// SPDX-License-Identifier: BSD-3-Clause
// The launch shapes the selectors of every format share: row launches,
// warp-chunk launches sized by oversubscription, the ELL launch (ELL and
// Hybrid's ELL part) and the policy wrapper that fits launches to the backend.
#pragma once

#include "launch_limits.hpp"
#include "policy.hpp"
#include "profile.hpp"
#include "stats.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kobalt::tuning {

/// Largest power of two <= n, capped at cap (seed 003 §3.2: subwarp size).
inline int floor_pow2_capped(std::int64_t n, int cap) {
  int p = 1;
  while (2 * static_cast<std::int64_t>(p) <= n && 2 * p <= cap) p *= 2;
  return p;
}

/// Smallest power of two >= n, capped at cap (000 Alg. 4 line 6: 2^ceil(log2 n)).
inline int ceil_pow2_capped(std::int64_t n, int cap) {
  int p = 1;
  while (static_cast<std::int64_t>(p) < n && 2 * p <= cap) p *= 2;
  return p;
}

/// Width/rows ratio above which an ELL row gets several lanes: 000 Alg. 4
/// line 5 (and 003 Alg. 5), "ell_ncols / nrows > 1e-2".
inline constexpr double ell_lanes_ratio = 1e-2;

/// Row kernels (CSR, ELL, SELL-P rows, ALIGNED_COO lanes): `lanes_per_row`
/// vector lanes share a row (at most the warp), the rest of the team takes
/// other rows; on hosts one thread walks profile.rows_per_team rows.
inline LaunchShape row_launch(const DeviceProfile& profile, int lanes_per_row, const char* part) {
  LaunchShape s;
  s.part = part;
  s.vector_length = std::min(std::max(lanes_per_row, 1), std::max(profile.warp_width, 1));
  s.team_size = std::max(1, profile.team_threads / s.vector_length);
  s.rows_per_team = profile.gpu ? s.team_size : profile.rows_per_team;
  return s;
}

/// Oversubscription ω of the warp-chunk kernels by nonzeros: warps per
/// FP32-core quad of a compute unit (docs/sources.md: ω counts threads per core).
/// - NVIDIA: 000 §3.2.2, 8 below 2e5, 32 below 2e6, 128 above; [ext] Ginkgo's
///   later 512 from 2e7 and 2048 from 2e8.
/// - AMD: 003 §3.1, [ext] from Ginkgo's HIP source: 2 below 1e5, 8 below 1e7, 32 above.
/// A profile's `oversubscription` (> 0) replaces the rule (sweeps, kobalt-tune).
/// Kept as the papers give it: a re-check found no better ω except where one
/// dense row's atomics contend, which hot_row_atomics handles (docs/sources.md).
inline int oversubscription(const DeviceProfile& profile, std::int64_t nnz) {
  if (profile.oversubscription > 0) return profile.oversubscription;  // the profile's own
  if (profile.kind == arch::Backend::hip) return nnz < 100000 ? 2 : nnz < 10000000 ? 8 : 32;
  if (nnz < 200000) return 8;
  if (nnz < 2000000) return 32;
  if (nnz < 20000000) return 128;
  if (nnz < 200000000) return 512;
  return 2048;
}

/// Items per part of a host kernel's static partition: `fixed` when the
/// profile sets it (> 0), else an equal share of `items` per host thread
/// (profile.compute_units), so a static schedule hands part t to thread t.
inline std::int64_t host_part(std::int64_t fixed, std::int64_t items,
                              const DeviceProfile& profile) {
  if (fixed > 0) return fixed;
  const std::int64_t threads = std::max(profile.compute_units, 1);
  return std::max<std::int64_t>(1, (std::max<std::int64_t>(items, 1) + threads - 1) / threads);
}

/// Warp-chunk kernels (COO 000 Alg. 1, CSR load_balance): equal contiguous
/// chunks of nonzeros, one per warp of profile.warp_width lanes.
/// - GPUs: min(ω · compute units · warps_per_cu, ceil(nnz / W)) warps (000
///   §3.2.2 as docs/sources.md derives it), profile.team_threads / W warps per team;
///   each lane walks entries_per_thread = ceil(nnz / (warps · W)) entries.
/// - Hosts: one lane, one chunk per thread (host_part), or chunks of the
///   profile's entries_per_thread.
/// `omega_cap` (> 0) bounds the rule's ω (never a profile's own ω).
inline LaunchShape warp_chunk_launch(const MatrixStats& stats, const DeviceProfile& profile,
                                     const char* part, int omega_cap = 0) {
  LaunchShape s;
  s.part = part;
  if (!profile.gpu) {
    s.entries_per_thread = host_part(profile.entries_per_thread, stats.nnz, profile);
    return s;
  }
  const int w = std::max(profile.warp_width, 1);
  s.vector_length = w;
  s.team_size = std::max(1, profile.team_threads / w);
  const std::int64_t nnz = std::max<std::int64_t>(stats.nnz, 1);
  int omega = oversubscription(profile, nnz);
  if (omega_cap > 0 && profile.oversubscription == 0) omega = std::min(omega, omega_cap);
  const std::int64_t most = static_cast<std::int64_t>(omega) *
                            std::max(profile.compute_units, 1) * std::max(profile.warps_per_cu, 1);
  const std::int64_t warps = std::max<std::int64_t>(1, std::min(most, (nnz + w - 1) / w));
  s.entries_per_thread = (nnz + warps * w - 1) / (warps * w);
  return s;
}

namespace detail {
/// The rule of a warp-chunk launch, for describe().
inline std::string chunk_rule(const MatrixStats& stats, const DeviceProfile& profile,
                              int omega_cap = 0) {
  if (!profile.gpu)
    return profile.entries_per_thread > 0
               ? "chunks of " + std::to_string(profile.entries_per_thread) +
                     " nonzeros (device profile)"
               : "one chunk of equal nonzeros per thread, " +
                     std::to_string(profile.compute_units) + " threads (static partition)";
  const int omega = oversubscription(profile, stats.nnz);
  const bool capped = omega_cap > 0 && profile.oversubscription == 0 && omega > omega_cap;
  return "chunks of equal nonzeros per warp, omega = " +
         std::to_string(capped ? omega_cap : omega) + " for " + std::to_string(stats.nnz) +
         " nonzeros (000 §3.2.2" + (capped ? ", capped for combined chunks)" : ")");
}

/// The policy of `kernel` with launches `l`, each within the backend of
/// `profile` (fit_to_backend: clamped with a note where it asked for more).
inline SpmvPolicy policy(const DeviceProfile& profile, const char* format, std::string kernel,
                         std::vector<LaunchShape> l, std::string rule) {
  SpmvPolicy p;
  p.format = format;
  p.kernel = std::move(kernel);
  p.launches = std::move(l);
  p.rule = std::move(rule);
  return fit_to_backend(std::move(p), profile);
}

/// Warps the whole GPU runs at once in 000 Alg. 4 / 003 Alg. 5's
/// "nwarps": compute units x warps_per_cu ([ext] Ginkgo's get_num_warps()).
inline std::int64_t device_warps(const DeviceProfile& profile) {
  return static_cast<std::int64_t>(std::max(profile.compute_units, 1)) *
         std::max(profile.warps_per_cu, 1);
}

/// The ELL launch of 000 Alg. 4: one lane per row unless width / rows >
/// 1e-2, then min(warp, 2^ceil(log2 width)) lanes; with a full warp per row,
/// max(min(width / warp, nwarps / rows), 1) warps per row (row_parts, whose
/// atomics need y scaled first). Hosts: one lane, one part.
inline LaunchShape ell_launch(const DeviceProfile& profile, std::int64_t rows, std::int64_t width,
                              const char* part) {
  int lanes = 1;
  if (rows > 0 && static_cast<double>(width) / static_cast<double>(rows) > ell_lanes_ratio)
    lanes = ceil_pow2_capped(width, profile.warp_width);
  LaunchShape s = row_launch(profile, lanes, part);
  if (profile.gpu && lanes == profile.warp_width && lanes > 1 && rows > 0)
    s.row_parts = static_cast<int>(std::max<std::int64_t>(
        std::min(width / lanes, device_warps(profile) / rows), 1));
  return s;
}
}  // namespace detail

}  // namespace kobalt::tuning
