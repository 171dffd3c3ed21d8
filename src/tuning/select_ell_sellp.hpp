// SPDX-License-Identifier: BSD-3-Clause
// tuning::select for ELL (rows, column groups, automatic) and SELL-P
// slices. The SELL-P selector names the kernel body that runs
// (LaunchShape::form); the kernel follows it.
#pragma once

#include "launch_shapes.hpp"
#include "strategy.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace kobalt::tuning {

/// ELL of `width` slots per row: 000 Alg. 4's lanes and warps per row.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, ell::rows,
                         std::int64_t width) {
  return detail::policy(profile, "ell", ell::rows::name,
                        {detail::ell_launch(profile, stats.rows, width, "rows")},
                        "lanes and warps per row by width/rows > 1e-2 (000 Alg. 4), width " +
                            std::to_string(width));
}

/// 003 §3.3: a team of 512 threads, groups of a warp, at most 16 groups
/// (512 / 32) per row.
inline constexpr int ell_group_team_threads = 512;
inline constexpr int ell_max_groups = 16;  ///< Most column groups per row (512 / 32).

/// ELL column groups (003 Alg. 5): one group per row unless width / rows >
/// 1e-2, then min(16, 2^ceil(log2 width)) groups; with 16 groups,
/// max(min(width / 16, nwarps / rows), 1) teams per row (row_parts). A
/// group is a warp over consecutive rows (blocks of W rows); a team holds
/// 512 / (W * groups) blocks. Hosts: one thread per team, one group.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         ell::column_groups, std::int64_t width) {
  LaunchShape s;
  s.part = "groups";
  const std::int64_t rows = stats.rows;
  if (profile.gpu) {
    const int w = std::max(profile.warp_width, 1);
    int groups = 1;
    if (rows > 0 && static_cast<double>(width) / static_cast<double>(rows) > ell_lanes_ratio)
      groups = ceil_pow2_capped(width, ell_max_groups);
    s.vector_length = w;
    s.row_threads = groups;
    s.team_size = std::max(1, ell_group_team_threads / (w * groups)) * groups;
    if (groups == ell_max_groups && rows > 0)
      s.row_parts = static_cast<int>(std::max<std::int64_t>(
          std::min(width / ell_max_groups, detail::device_warps(profile) / rows), 1));
  }
  s.rows_per_team = static_cast<std::int64_t>(s.team_size / s.row_threads) * s.vector_length;
  return detail::policy(profile, "ell", ell::column_groups::name, {s},
                        "groups per row by width/rows > 1e-2 (003 Alg. 5), width " +
                            std::to_string(width));
}

namespace detail {
/// The SELL-P body that runs launch `s` (as fitted to the backend) on
/// slices of `slice_size` rows: host SIMD slices where the lanes are the
/// slice's rows, a thread per row at t = 1, column groups otherwise.
inline LaunchForm sellp_form(const DeviceProfile& profile, const LaunchShape& s,
                             std::int64_t slice_size) {
  if (!profile.gpu && s.row_threads <= 1 && s.vector_length == slice_size &&
      host_simd_slice(slice_size))
    return LaunchForm::host_simd;
  return s.row_threads <= 1 ? LaunchForm::thread_per_row : LaunchForm::column_groups;
}
}  // namespace detail

/// SELL-P with slices of `slice_size` rows padded to multiples of
/// `stride_factor`: 001's kernel with t = stride_factor threads per row
/// (t = 1: 000 Alg. 5's thread per row); the launch names its body
/// (detail::sellp_form).
/// - GPUs: min(b, warp) lanes over a slice's rows (a power of two; lanes
///   loop over larger slices), t threads per row (capped so the team stays
///   within 1024 threads), team_threads / (t * lanes) slices per team.
/// - Hosts: one thread per slice (t = 1); slices of 4, 8 or 16 rows (SELL-C
///   with C = the SIMD width in doubles or floats: 4 / 8 doubles for AVX2 /
///   AVX-512) run their rows as SIMD lanes (vector_length = b).
inline SpmvPolicy select(const MatrixStats&, const DeviceProfile& profile, sellp::slices,
                         std::int64_t slice_size, std::int64_t stride_factor) {
  LaunchShape s;
  s.part = "slices";
  SpmvPolicy p;
  if (!profile.gpu && host_simd_slice(slice_size)) {
    s.vector_length = static_cast<int>(slice_size);
    s.rows_per_team = slice_size;
    p = detail::policy(profile, "sellp", sellp::slices::name, {s},
                       "a thread per slice, its " + std::to_string(slice_size) +
                           " rows as SIMD lanes (SELL-C-sigma, C = b)");
  } else {
    if (profile.gpu) {
      s.vector_length = floor_pow2_capped(slice_size, std::max(profile.warp_width, 1));
      s.row_threads = static_cast<int>(std::min<std::int64_t>(
          std::max<std::int64_t>(stride_factor, 1), 1024 / s.vector_length));
      s.team_size =
          std::max(1, profile.team_threads / (s.row_threads * s.vector_length)) * s.row_threads;
    }
    s.rows_per_team = static_cast<std::int64_t>(s.team_size / s.row_threads) * slice_size;
    p = detail::policy(profile, "sellp", sellp::slices::name, {s},
                       "whole slices per team, " + std::to_string(s.row_threads) +
                           " threads per row (001; 1 = 000 Alg. 5)");
  }
  for (auto& l : p.launches) l.form = detail::sellp_form(profile, l, slice_size);
  return p;
}

/// ELL automatic: 000's rows kernel on NVIDIA and hosts, 003's column groups
/// on AMD (003 §3.3: no noteworthy gain on its NVIDIA GPU, a significant one
/// on its AMD GPU, where 000's subwarps read slots `stride` apart; not measured
/// here). Outside AMD rows won or tied on most matrices (docs/sources.md).
inline std::pair<ell::strategy, std::string> resolve_ell(const DeviceProfile& profile) {
  if (profile.kind == arch::Backend::hip)
    return {ell::column_groups{}, "automatic: column_groups on AMD (003 §3.3)"};
  return {ell::rows{}, "automatic: rows (000 Alg. 3-4) outside AMD (003 §3.3)"};
}

/// ell::automatic resolved for the device (resolve_ell); others as they are.
inline ell::strategy resolve(const MatrixStats&, const DeviceProfile& profile,
                             const ell::strategy& s) {
  if (std::holds_alternative<ell::automatic>(s)) return resolve_ell(profile).first;
  return s;
}

/// ELL automatic: the policy of the kernel resolve_ell picks, its rule saying why.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, ell::automatic,
                         std::int64_t width) {
  const auto [strategy, why] = resolve_ell(profile);
  SpmvPolicy p = std::visit([&](auto v) { return select(stats, profile, v, width); }, strategy);
  p.rule = why + "; " + p.rule;
  return p;
}

}  // namespace kobalt::tuning
