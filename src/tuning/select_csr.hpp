// SPDX-License-Identifier: BSD-3-Clause
// tuning::select for the CSR kernels: basic, classical, load_balance and
// merge_path. The merge_path selector also decides whether GPU tiles
// finish their split rows in one launch or take the fixup launch.
#pragma once

#include "launch_shapes.hpp"
#include "strategy.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace kobalt::tuning {

/// CSR basic: one thread per row (003 "basic").
inline SpmvPolicy select(const MatrixStats&, const DeviceProfile& profile, csr::basic) {
  return detail::policy(profile, "csr", csr::basic::name, {row_launch(profile, 1, "rows")},
                        "one thread per row (003 basic)");
}

/// CSR classical's subwarp: the largest power of two <= the longest row, at
/// most the warp (003 §3.2, Alg. 2).
inline int classical_subwarp(const MatrixStats& stats, const DeviceProfile& profile) {
  return floor_pow2_capped(stats.max_row_nnz, std::max(profile.warp_width, 1));
}

/// CSR classical: a subwarp per row (classical_subwarp).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, csr::classical) {
  const int lanes = classical_subwarp(stats, profile);
  return detail::policy(profile, "csr", csr::classical::name, {row_launch(profile, lanes, "rows")},
                        "subwarp = largest power of two <= longest row " +
                            std::to_string(stats.max_row_nnz) + ", at most the warp " +
                            std::to_string(profile.warp_width) + " (003 Alg. 2)");
}

/// CSR load_balance: equal chunks of nonzeros per warp (000 §3.3 CSR-I,
/// sized as 000 §3.2.2's COO).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         csr::load_balance) {
  return detail::policy(profile, "csr", csr::load_balance::name,
                        {warp_chunk_launch(stats, profile, "chunks")},
                        detail::chunk_rule(stats, profile));
}

/// Host merge_path: tiles per thread, handed out dynamically
/// (kernels/csr_merge_path.hpp). Equal rows + nonzeros are not equal time (the
/// x gathers hit different cache levels), so a static split loses where the
/// matrix streams from memory; where it fits the caches, one tile per thread
/// keeps each core's hold on its own part between calls. So: 16 tiles per
/// thread when 8 bytes per nonzero (fp32/int32, the least a CSR entry
/// takes) exceed the last-level cache, else one (docs/sources.md: "host_tiles_per_thread").
inline constexpr int host_tiles_per_thread = 16;
/// The smallest host tile while there are more tiles than threads: long
/// enough that OpenMP's hand-out of a tile (an estimate, not measured) is
/// noise beside its walk (docs/sources.md: "host_min_tile_items").
inline constexpr std::int64_t host_min_tile_items = 16384;

/// GPU merge_path: warps that walk one tile together where the matrix stays
/// in the L2 (merge_path_team_tiles): longer tiles pay each tile's fixed
/// work less often, at fewer registers a thread (docs/sources.md:
/// "merge_path_team_warps"). From memory warp tiles stayed faster.
inline constexpr int merge_path_team_warps = 4;

// GPU team tiles fitted to waves (profile merge_path_team_resident > 0)
// (docs/sources.md: "merge_path_team_resident").
/// The fewest items per lane a team tile fitted to waves takes: fewer ran
/// no faster below one wave and slower on one matrix.
inline constexpr int merge_path_team_items_min = 8;
/// The most items per lane a team tile fitted to waves takes: with more,
/// the tiles' scratch lets fewer of them share a compute unit than the
/// profile's count.
inline constexpr int merge_path_team_items_max = 11;
/// A team tile's fixed work (its search, scans, split rows and stores) in
/// items per lane: what a wave of tiles costs beyond its items.
inline constexpr int merge_path_team_fixed_items = 5;
/// Items per lane of GPU warp tiles for a matrix of fewer items than one
/// team tile per compute unit: more, shorter tiles where too few warps, not
/// items, set the time (docs/sources.md: "merge_path_small_items").
inline constexpr int merge_path_small_items = 2;
/// GPU team tiles load the values past L1 (ValueLoads::l2_only) where 8
/// bytes per nonzero take at least this share of the L2: faster there,
/// slower below (docs/sources.md: "merge_path_l2_only_values").
inline constexpr double merge_path_l2_only_values = 0.375;

namespace detail {
/// Whether the matrix has fewer merge-path items than one team tile (of the
/// profile's items per lane) per compute unit.
inline bool merge_path_below_a_team_tile_per_cu(const MatrixStats& stats,
                                                const DeviceProfile& profile) {
  const std::int64_t team_tile = std::int64_t{std::max(profile.merge_path_items, 1)} *
                                 std::max(profile.warp_width, 1) * merge_path_team_warps;
  return stats.rows + stats.nnz < team_tile * std::max(profile.compute_units, 1);
}

/// Whether GPU merge_path cuts a tile per team of merge_path_team_warps
/// warps: 8 bytes per nonzero (the least a CSR entry takes) within half the
/// L2, which leaves the rest for wider values, the row pointer, x and y,
/// and at least one team tile per compute unit (fewer, and warp tiles kept
/// more of the GPU busy). An unknown L2 (0) never does.
inline bool merge_path_team_tiles(const MatrixStats& stats, const DeviceProfile& profile) {
  return profile.gpu && profile.l2_bytes > 0 &&
         static_cast<std::uint64_t>(stats.nnz) * 8 <= profile.l2_bytes / 2 &&
         !merge_path_below_a_team_tile_per_cu(stats, profile);
}

/// Whether GPU team tiles load the values past L1: 8 bytes per nonzero
/// take at least merge_path_l2_only_values of a known L2.
inline bool merge_path_values_past_l1(const MatrixStats& stats, const DeviceProfile& profile) {
  return profile.gpu && profile.l2_bytes > 0 &&
         static_cast<double>(stats.nnz) * 8 >=
             merge_path_l2_only_values * static_cast<double>(profile.l2_bytes);
}

/// Items per lane of GPU team tiles: where the profile knows how many team
/// tiles a compute unit holds, the count that ends the matrix in the fewest
/// whole waves of resident tiles, each wave weighed by its tile's work (a
/// last wave that fills part of the GPU costs a full tile's time); larger
/// tiles at equal cost. Else the profile's merge_path_items.
inline int merge_path_team_items(const MatrixStats& stats, const DeviceProfile& profile) {
  if (profile.merge_path_team_resident <= 0) return std::max(profile.merge_path_items, 1);
  const std::int64_t items = std::max<std::int64_t>(stats.rows + stats.nnz, 1);
  const std::int64_t threads = std::int64_t{std::max(profile.warp_width, 1)} * merge_path_team_warps;
  const std::int64_t resident =
      std::int64_t{profile.merge_path_team_resident} * std::max(profile.compute_units, 1);
  int best = merge_path_team_items_min;
  std::int64_t best_cost = -1;
  for (int n = merge_path_team_items_min; n <= merge_path_team_items_max; ++n) {
    const std::int64_t tiles = (items + threads * n - 1) / (threads * n);
    const std::int64_t waves = (tiles + resident - 1) / resident;
    const std::int64_t cost = waves * (n + merge_path_team_fixed_items);
    if (best_cost < 0 || cost <= best_cost) {
      best = n;
      best_cost = cost;
    }
  }
  return best;
}

/// Whether GPU merge_path with launch `s` finishes every split row in the
/// tile kernel: a row of L nonzeros is L + 1 merge-path items, so at most
/// ceil((L + 1) / tile) tiles end inside it. Unknown row lengths (none
/// recorded for a matrix with entries) take the fixup launch.
inline bool merge_path_fits_one_launch(const MatrixStats& stats, const LaunchShape& s) {
  const std::int64_t width = s.vector_length, tile = s.entries_per_thread * width * s.row_threads;
  if (width <= 1 || tile < 1 || (stats.max_row_nnz == 0 && stats.nnz > 0)) return false;
  return (stats.max_row_nnz + tile) / tile <= merge_path_one_launch_runs * width;
}

/// Items per lane of GPU warp tiles: merge_path_small_items (at most the
/// profile's) for a matrix of fewer items than one team tile per compute
/// unit, raised while the longest row would leave the one launch it had at
/// the profile's count; else the profile's merge_path_items.
inline int merge_path_warp_items(const MatrixStats& stats, const DeviceProfile& profile) {
  const int most = std::max(profile.merge_path_items, 1);
  const int width = std::max(profile.warp_width, 1);
  if (!merge_path_below_a_team_tile_per_cu(stats, profile)) return most;
  const auto one_launch = [&](int items) {
    LaunchShape s;
    s.vector_length = width;
    s.entries_per_thread = items;
    return merge_path_fits_one_launch(stats, s);
  };
  int n = std::min(most, merge_path_small_items);
  while (n < most && one_launch(most) && !one_launch(n)) ++n;
  return n;
}
}  // namespace detail

/// CSR merge_path: tiles of merge_path_items items per lane, one tile per
/// team of merge_path_team_warps warps where detail::merge_path_team_tiles
/// (items per lane fitted to waves where the profile knows the resident
/// tiles: detail::merge_path_team_items), else one per warp of the
/// profile's warp width (team_threads / W warps per team), with
/// detail::merge_path_warp_items items per lane; the rows split
/// between tiles finish in the tile kernel while the longest row allows it
/// (LaunchForm::one_launch), else in a fixup launch (with_fixup); team
/// tiles load the values past L1 where detail::merge_path_values_past_l1.
/// Hosts: one thread walks a tile; for a matrix beyond the last-level
/// cache host_tiles_per_thread tiles per thread of at least
/// host_min_tile_items (never fewer tiles than threads), else one tile per
/// thread; a profile's merge_path_items fixes the tile instead. The calling
/// thread finishes the split rows (no second launch).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         csr::merge_path) {
  LaunchShape s;
  s.part = "tiles";
  std::string rule;
  if (profile.gpu) {
    s.vector_length = std::max(profile.warp_width, 1);
    s.team_size = std::max(1, profile.team_threads / s.vector_length);
    if (detail::merge_path_team_tiles(stats, profile)) {
      s.team_size = s.row_threads = merge_path_team_warps;
      s.entries_per_thread = detail::merge_path_team_items(stats, profile);
      rule = "tiles of " + std::to_string(s.entries_per_thread * s.vector_length * s.row_threads) +
             " rows + nonzeros per team of " + std::to_string(s.row_threads) +
             " warps (8 bytes per nonzero within half the L2, a tile or more per compute unit" +
             (profile.merge_path_team_resident > 0
                  ? "; " + std::to_string(s.entries_per_thread) +
                        " items per lane end it in the fewest waves of " +
                        std::to_string(profile.merge_path_team_resident) +
                        " tiles per compute unit)"
                  : ")");
      if (detail::merge_path_values_past_l1(stats, profile)) {
        s.value_loads = ValueLoads::l2_only;
        rule += "; values loaded past L1 (8 bytes per nonzero fill " +
                std::to_string(static_cast<int>(100 * merge_path_l2_only_values)) +
                "% of the L2 or more: x keeps L1)";
      }
    } else {
      s.entries_per_thread = detail::merge_path_warp_items(stats, profile);
      rule = "tiles of " + std::to_string(s.entries_per_thread * s.vector_length) +
             " rows + nonzeros per warp (" +
             (s.entries_per_thread < std::max(profile.merge_path_items, 1)
                  ? std::to_string(s.entries_per_thread) +
                        " items per lane: fewer items than a team tile per compute unit" +
                        (s.entries_per_thread > merge_path_small_items
                             ? ", the fewest that keep the longest row in one launch)"
                             : ")")
                  : std::string("device profile)"));
    }
  } else {
    const std::int64_t items = std::max<std::int64_t>(stats.rows + stats.nnz, 1);
    const std::int64_t threads = std::max(profile.compute_units, 1);
    const auto share = [&](std::int64_t parts) { return (items + parts - 1) / parts; };
    const bool streams = profile.l2_bytes > 0 &&
                         static_cast<std::uint64_t>(stats.nnz) * 8 > profile.l2_bytes;
    s.entries_per_thread = profile.merge_path_items > 0 ? profile.merge_path_items
                           : streams ? std::max(share(threads * host_tiles_per_thread),
                                                std::min(host_min_tile_items, share(threads)))
                                     : share(threads);
    const std::int64_t tiles = share(s.entries_per_thread);
    rule = profile.merge_path_items > 0
               ? "tiles of " + std::to_string(s.entries_per_thread) +
                     " rows + nonzeros per thread (device profile)"
           : tiles > threads
               ? std::to_string(tiles) + " tiles of rows + nonzeros for " +
                     std::to_string(threads) +
                     " threads, handed out dynamically (matrix beyond the last-level cache)"
               : "one tile of equal rows + nonzeros per thread, " + std::to_string(threads) +
                     " threads (static partition; " +
                     (streams ? "too few items for more tiles)"
                              : "the matrix fits the last-level cache)");
  }
  SpmvPolicy p = detail::policy(profile, "csr", csr::merge_path::name, {s},
                                "merge path (Merrill & Garland): " + rule);
  if (profile.gpu) {
    // Decided on the launch as fitted to the backend: its tile is the one that runs.
    LaunchShape& l = p.launches.at(0);
    const std::int64_t tile = l.entries_per_thread * l.vector_length * l.row_threads;
    const std::int64_t most = merge_path_one_launch_runs * l.vector_length;
    if (detail::merge_path_fits_one_launch(stats, l)) {
      l.form = LaunchForm::one_launch;
      p.rule += "; split rows finished in the tile kernel: the longest row " +
                std::to_string(stats.max_row_nnz) + " spans at most " +
                std::to_string((stats.max_row_nnz + tile) / tile) + " tiles <= " +
                std::to_string(most);
    } else {
      l.form = LaunchForm::with_fixup;
      p.rule += "; split rows finished by a fixup launch: the longest row " +
                std::to_string(stats.max_row_nnz) + " may span more than " +
                std::to_string(most) + " tiles";
    }
  }
  return p;
}

/// Whether GPU merge_path runs in one launch for every matrix with these
/// statistics, with the tiles its selector above gives.
inline bool merge_path_in_one_launch(const MatrixStats& stats, const DeviceProfile& profile) {
  return select(stats, profile, csr::merge_path{}).launches.at(0).form == LaunchForm::one_launch;
}

}  // namespace kobalt::tuning
