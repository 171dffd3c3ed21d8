// SPDX-License-Identifier: BSD-3-Clause
// tuning::select: the one place heuristics live. Each overload takes the
// matrix statistics, the device profile and a strategy (a kernel strategy
// of tuning/strategy.hpp, or a conversion parameter with automatic fields)
// and returns something concrete: an SpmvPolicy for a kernel strategy, a
// format layout for a conversion. Every constant names its source.
#pragma once

#include "aligned_coo_split.hpp"
#include "csrk_sizes.hpp"
#include "hybrid_partition.hpp"
#include "launch_limits.hpp"
#include "policy.hpp"
#include "profile.hpp"
#include "stats.hpp"
#include "strategy.hpp"
#include "../errors.hpp"
#include "../formats/storage_limit.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
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

/// Most atomic adds one launch of 000 Alg. 1 aims at a single y entry: a row
/// of L entries cut into chunks of C entries is added by ceil(L / C) warps,
/// and the L2 serialises atomics on one address. The bound sits where the
/// skewed matrices peaked in an ω sweep and binds on no other matrix
/// (docs/sources.md: "hot_row_atomics").
inline constexpr std::int64_t hot_row_atomics = 4096;

/// Kernels that add split rows with atomics (COO segmented, Hybrid's COO
/// part, ALIGNED_COO's flat part): chunks of at least longest row /
/// hot_row_atomics entries on GPUs, unless the profile fixes omega.
inline LaunchShape limit_hot_row_atomics(LaunchShape s, const MatrixStats& stats,
                                         const DeviceProfile& profile) {
  if (!profile.gpu || profile.oversubscription > 0) return s;
  const std::int64_t per_warp = hot_row_atomics * std::max(s.vector_length, 1);
  s.entries_per_thread =
      std::max(s.entries_per_thread, (stats.max_row_nnz + per_warp - 1) / per_warp);
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

/// The chunks of a kernel that adds split rows with atomics: 000 Alg. 1's
/// warp chunks for `stats`, lengthened by limit_hot_row_atomics, and their
/// rule (saying so when the cap lengthened them).
inline std::pair<LaunchShape, std::string> atomic_chunks(const MatrixStats& stats,
                                                         const DeviceProfile& profile,
                                                         const char* part) {
  const LaunchShape rule = warp_chunk_launch(stats, profile, part);
  const LaunchShape s = limit_hot_row_atomics(rule, stats, profile);
  std::string why = chunk_rule(stats, profile);
  if (s.entries_per_thread > rule.entries_per_thread)
    why += "; chunks lengthened: the longest row's atomics at most " +
           std::to_string(hot_row_atomics);
  return {s, why};
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

// ---- kernel strategies -> SpmvPolicy ----------------------------------------

/// CSR basic: one thread per row (003 "basic").
inline SpmvPolicy select(const MatrixStats&, const DeviceProfile& profile, csr::basic) {
  return detail::policy(profile, "csr", "basic", {row_launch(profile, 1, "rows")},
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
  return detail::policy(profile, "csr", "classical", {row_launch(profile, lanes, "rows")},
                        "subwarp = largest power of two <= longest row " +
                            std::to_string(stats.max_row_nnz) + ", at most the warp " +
                            std::to_string(profile.warp_width) + " (003 Alg. 2)");
}

/// CSR load_balance: equal chunks of nonzeros per warp (000 §3.3 CSR-I,
/// sized as 000 §3.2.2's COO).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         csr::load_balance) {
  return detail::policy(profile, "csr", "load_balance",
                        {warp_chunk_launch(stats, profile, "chunks")},
                        detail::chunk_rule(stats, profile));
}

/// COO: 000 Alg. 1's warp chunks.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, coo::segmented) {
  auto [s, rule] = detail::atomic_chunks(stats, profile, "chunks");
  return detail::policy(profile, "coo", "segmented", {s}, std::move(rule));
}

/// COO load_balance: the same warp chunks, combined without atomics. Each
/// chunk pays a fixed cost (its split rows' parts, fences and counters), so
/// it wants fewer, longer chunks than Alg. 1; 8 was best or close in an ω
/// sweep (docs/sources.md: "combined_chunks_omega_cap"), and the rule itself
/// gives 8 below 2e5 nonzeros.
inline constexpr int combined_chunks_omega_cap = 8;
/// COO load_balance: 000 Alg. 1's chunks with ω capped at
/// combined_chunks_omega_cap.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         coo::load_balance) {
  return detail::policy(profile, "coo", "load_balance",
                        {warp_chunk_launch(stats, profile, "chunks", combined_chunks_omega_cap)},
                        detail::chunk_rule(stats, profile, combined_chunks_omega_cap));
}

/// ELL of `width` slots per row: 000 Alg. 4's lanes and warps per row.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, ell::rows,
                         std::int64_t width) {
  return detail::policy(profile, "ell", "rows",
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
  return detail::policy(profile, "ell", "column_groups", {s},
                        "groups per row by width/rows > 1e-2 (003 Alg. 5), width " +
                            std::to_string(width));
}

/// SELL-P with slices of `slice_size` rows padded to multiples of
/// `stride_factor`: 001's kernel with t = stride_factor threads per row
/// (t = 1: 000 Alg. 5's thread per row).
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
  if (!profile.gpu && host_simd_slice(slice_size)) {
    s.vector_length = static_cast<int>(slice_size);
    s.rows_per_team = slice_size;
    return detail::policy(profile, "sellp", "slices", {s},
                          "a thread per slice, its " + std::to_string(slice_size) +
                              " rows as SIMD lanes (SELL-C-sigma, C = b)");
  }
  if (profile.gpu) {
    s.vector_length = floor_pow2_capped(slice_size, std::max(profile.warp_width, 1));
    s.row_threads = static_cast<int>(
        std::min<std::int64_t>(std::max<std::int64_t>(stride_factor, 1), 1024 / s.vector_length));
    s.team_size =
        std::max(1, profile.team_threads / (s.row_threads * s.vector_length)) * s.row_threads;
  }
  s.rows_per_team = static_cast<std::int64_t>(s.team_size / s.row_threads) * slice_size;
  return detail::policy(profile, "sellp", "slices", {s},
                        "whole slices per team, " + std::to_string(s.row_threads) +
                            " threads per row (001; 1 = 000 Alg. 5)");
}

/// A block shape of 002 §4.1, in the paper's own terms.
struct CsrkBlockShape {
  int lanes_per_row;           ///< threads over a row's nonzeros (GPUSpMV-3.5 x; 1 = GPUSpMV-3)
  int rows_in_parallel;        ///< threads over the rows of a super-row
  int super_rows_in_parallel;  ///< threads over the super-rows of a super-super-row
};

/// 002 §4.1, block dimensions per rdensity case (measured on the paper's
/// Volta and Ampere GPUs; used unchanged on every GPU):
inline constexpr CsrkBlockShape csrk_block_shapes[4] = {
    {1, 8, 12},   // case 1, r <= 8:       8 x 12     (GPUSpMV-3; a warp = 8 x 4)
    {4, 8, 12},   // case 2, 8 < r <= 16:  4 x 8 x 12 (GPUSpMV-3.5)
    {8, 8, 8},    // case 3, 16 < r <= 32: 8 x 8 x 8
    {16, 8, 4}};  // case 4, r > 32:       16 x 8 x 4 (a warp = 2 rows)

/// CSR-k with k levels (2 or 3), rdensity = nnz / rows from the statistics.
/// The shape is the paper's, independent of SSRS and SRS, which 002 leaves
/// unrelated to it (docs/sources.md: case 1 has 12 super-row threads for SSRS ≈
/// 6-8): surplus super-row slots idle, row slots loop.
/// - GPUs: the block shape of r's case (csrk_block_shapes), lanes capped at
///   the warp. k = 3 keeps the 2-D mapping (rows x super-rows); k = 2 has one
///   super-row per team, so all rows_in_parallel x super_rows_in_parallel
///   threads take its rows (same team size; our choice, 002 gives no GPU
///   shape for CSR-2).
/// - Hosts: one thread, one lane: Listing 1's nested loops, one league entry
///   per (super-)super-row under a static schedule (002 §5.2).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, csrk::groups,
                         int k) {
  LaunchShape s;
  s.part = k == 3 ? "k3" : "k2";
  std::string rule = "one thread per (super-)super-row, nested loops (002 Listing 1)";
  if (profile.gpu) {
    const int c = csrk_rdensity_case(stats.mean_row_nnz);
    const CsrkBlockShape& shape = csrk_block_shapes[c - 1];
    s.vector_length = std::min(shape.lanes_per_row, std::max(profile.warp_width, 1));
    s.team_size = shape.rows_in_parallel * shape.super_rows_in_parallel;
    s.row_threads = k == 3 ? shape.rows_in_parallel : s.team_size;
    rule = "block shape of rdensity case " + std::to_string(c) + " (002 §4.1)";
  }
  return detail::policy(profile, "csrk", "groups", {s}, rule);
}

/// Hybrid with an ELL part of `ell_width` and `coo_nnz` entries in its COO
/// part: the ELL launch (000 Alg. 4), then the COO part's warp chunks, sized
/// for the COO part's nonzeros.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         hybrid::ell_then_coo, std::int64_t ell_width, std::int64_t coo_nnz) {
  MatrixStats coo = stats;
  coo.nnz = coo_nnz;
  const auto [c, coo_rule] = detail::atomic_chunks(coo, profile, "coo");
  return detail::policy(profile, "hybrid", "ell_then_coo",
                        {detail::ell_launch(profile, stats.rows, ell_width, "ell"), c},
                        "ELL part by 000 Alg. 4 (width " + std::to_string(ell_width) +
                            "), COO part: " + coo_rule);
}

/// Hybrid, deterministic: the same ELL launch, then the COO part's chunks as
/// coo::load_balance sizes them (omega capped at combined_chunks_omega_cap).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         hybrid::ell_then_load_balance, std::int64_t ell_width,
                         std::int64_t coo_nnz) {
  MatrixStats coo = stats;
  coo.nnz = coo_nnz;
  return detail::policy(
      profile, "hybrid", "ell_then_load_balance",
      {detail::ell_launch(profile, stats.rows, ell_width, "ell"),
       warp_chunk_launch(coo, profile, "coo", combined_chunks_omega_cap)},
      "ELL part by 000 Alg. 4 (width " + std::to_string(ell_width) +
          "), COO part combined in chunk order: " +
          detail::chunk_rule(coo, profile, combined_chunks_omega_cap));
}

/// ALIGNED_COO with `flat_nnz` entries in its flat part: the seg kernel
/// walks each lane like a CSR basic row (one thread, no vector lanes), the
/// flat part runs as COO (000 Alg. 1's warp chunks).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         aligned_coo::seg_then_flat, std::int64_t flat_nnz) {
  MatrixStats flat = stats;
  flat.nnz = flat_nnz;
  const auto [f, flat_rule] = detail::atomic_chunks(flat, profile, "flat");
  return detail::policy(profile, "aligned_coo", "seg_then_flat", {row_launch(profile, 1, "seg"), f},
                        "a thread per lane (004 Alg. 2, race-free form), flat part as COO: " +
                            flat_rule);
}

/// ALIGNED_COO, deterministic: the flat part's chunks as coo::load_balance
/// sizes them, then the seg kernel's thread per lane.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         aligned_coo::flat_then_seg, std::int64_t flat_nnz) {
  MatrixStats flat = stats;
  flat.nnz = flat_nnz;
  return detail::policy(
      profile, "aligned_coo", "flat_then_seg",
      {warp_chunk_launch(flat, profile, "flat", combined_chunks_omega_cap),
       row_launch(profile, 1, "seg")},
      "flat part combined in chunk order: " +
          detail::chunk_rule(flat, profile, combined_chunks_omega_cap) +
          "; a thread per lane (004 Alg. 2, race-free form)");
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

/// CSR merge_path: tiles of merge_path_items items per lane, one tile per
/// warp of the profile's warp width, team_threads / W warps per team.
/// Hosts: one thread walks a tile; for a matrix beyond the last-level
/// cache host_tiles_per_thread tiles per thread of at least
/// host_min_tile_items (never fewer tiles than threads), else one tile per
/// thread; a profile's merge_path_items fixes the tile instead.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         csr::merge_path) {
  LaunchShape s;
  s.part = "tiles";
  std::string rule;
  if (profile.gpu) {
    s.vector_length = std::max(profile.warp_width, 1);
    s.team_size = std::max(1, profile.team_threads / s.vector_length);
    s.entries_per_thread = std::max(profile.merge_path_items, 1);
    rule = "tiles of " + std::to_string(s.entries_per_thread * s.vector_length) +
           " rows + nonzeros per warp (device profile)";
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
  return detail::policy(profile, "csr", "merge_path", {s},
                        "merge path (Merrill & Garland): " + rule);
}

/// Whether GPU merge_path runs in one launch for every matrix with these
/// statistics, with the tiles its selector above gives: a row of L
/// nonzeros is L + 1 merge-path items, so at most ceil((L + 1) / tile)
/// tiles end inside it.
inline bool merge_path_in_one_launch(const MatrixStats& stats, const DeviceProfile& profile) {
  if (!profile.gpu) return false;
  const LaunchShape s = select(stats, profile, csr::merge_path{}).launches.at(0);
  const std::int64_t width = s.vector_length, tile = s.entries_per_thread * width;
  return width > 1 && (stats.max_row_nnz + tile) / tile <= merge_path_one_launch_runs * width;
}

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
  std::int64_t nnz_limit;  ///< 0 = no limit on the nonzeros
  std::int64_t row_len_limit;  ///< load_balance when a row is longer
  std::int64_t merge_path_nnz;  ///< load_balance's cases take merge_path from here; 0 = never
  std::int64_t basic_row_len;  ///< basic when no row is longer; 0 = never
  double classical_min_fill;  ///< balanced when mean row < this x classical's subwarp; 0 = never
  std::int64_t fill_basic_row_len;  ///< underfilled subwarps: basic when no row is longer ...
  std::int64_t fill_basic_nnz;      ///< ... and the matrix has fewer nonzeros; 0 = never
  std::int64_t fill_classical_row_len;  ///< underfilled, few nonzeros: classical up to this row
  std::int64_t classical_row_len;  ///< the balanced cases when a row is longer; 0 = never
};
/// The limits for the profile's device: AMD (HIP) or any other.
inline CsrAutomaticLimits csr_automatic_limits(const DeviceProfile& profile) {
  if (profile.kind == arch::Backend::hip) return {100000000, 768, 0, 0, 0.0, 0, 0, 0, 0};
  return {0, 1024, 200000, 7, 0.75, 20, 1000000, 256, 512};
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

/// ELL automatic: 000's rows kernel on NVIDIA and hosts, 003's column groups
/// on AMD (003 §3.3: no noteworthy gain on its NVIDIA GPU, a significant one
/// on its AMD GPU, where 000's subwarps read slots `stride` apart; not measured
/// here). Outside AMD rows won or tied on most matrices (docs/sources.md).
inline std::pair<ell::strategy, std::string> resolve_ell(const DeviceProfile& profile) {
  if (profile.kind == arch::Backend::hip)
    return {ell::column_groups{}, "automatic: column_groups on AMD (003 §3.3)"};
  return {ell::rows{}, "automatic: rows (000 Alg. 3-4) outside AMD (003 §3.3)"};
}

/// The strategy that runs: csr::automatic resolved by 003 Alg. 3, any other
/// strategy as it is.
template <class Strategy>
Strategy resolve(const MatrixStats&, const DeviceProfile&, const Strategy& s) {
  return s;
}
/// csr::automatic resolved to the kernel 003 Alg. 3 picks; others as they are.
inline csr::strategy resolve(const MatrixStats& stats, const DeviceProfile& profile,
                             const csr::strategy& s) {
  if (std::holds_alternative<csr::automatic>(s)) return resolve_csr(stats, profile).first;
  return s;
}
/// ell::automatic resolved for the device (resolve_ell); others as they are.
inline ell::strategy resolve(const MatrixStats&, const DeviceProfile& profile,
                             const ell::strategy& s) {
  if (std::holds_alternative<ell::automatic>(s)) return resolve_ell(profile).first;
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

/// ELL automatic: the policy of the kernel resolve_ell picks, its rule saying why.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, ell::automatic,
                         std::int64_t width) {
  const auto [strategy, why] = resolve_ell(profile);
  SpmvPolicy p = std::visit([&](auto v) { return select(stats, profile, v, width); }, strategy);
  p.rule = why + "; " + p.rule;
  return p;
}

/// A strategy variant: the alternative it holds, with the format's extra
/// argument (ELL width, slice size, k) where its overload takes one.
template <class... Strategies, class... Extra>
SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                  const std::variant<Strategies...>& s, const Extra&... extra) {
  return std::visit([&](auto v) { return select(stats, profile, v, extra...); }, s);
}

// ---- conversion parameters -> format layouts --------------------------------

/// The ELL width t that partition `s` gives (after validate(s)); Q_R is read
/// off the statistics' row-length distribution (000 eq. 6-7).
template <class Value, class Index>
hybrid::layout select(const MatrixStats& stats, const DeviceProfile&, const hybrid::partition& s,
                      std::uint64_t max_bytes = 0) {
  hybrid::validate(s);
  const auto bounded = [&](const hybrid::imbalance_bounded_limit& v) {
    return std::min(quantile(stats, v.quantile), floor_product(v.row_ratio, stats.rows));
  };
  const std::int64_t t = std::visit(
      [&](auto v) -> std::int64_t {
        using T = decltype(v);
        if constexpr (std::is_same_v<T, hybrid::column_limit>) {
          return v.columns;
        } else if constexpr (std::is_same_v<T, hybrid::imbalance_limit>) {
          return quantile(stats, v.quantile);
        } else if constexpr (std::is_same_v<T, hybrid::imbalance_bounded_limit>) {
          return bounded(v);
        } else if constexpr (std::is_same_v<T, hybrid::minimal_storage>) {
          return quantile(stats, hybrid::minimal_storage_quantile<Value, Index>());
        } else {
          return bounded(hybrid::as_bounded(v));
        }
      },
      s);
  return hybrid::layout{t, max_bytes};
}

/// CSR-k: k = 0 -> the profile's k; sizes 0 -> csrk_default_sizes (002 §4.1
/// model on GPUs, 96 / 8 on hosts). Throws invalid_parameter for k not in
/// {0, 2, 3}, negative sizes and a super_super_row_size with k = 2.
inline csrk::layout select(const MatrixStats& stats, const DeviceProfile& profile,
                           const csrk::parameters& p) {
  if (p.k != 0 && p.k != 2 && p.k != 3)
    throw invalid_parameter("kobalt::to_csrk: k = " + std::to_string(p.k) +
                            ", must be 2 or 3 (or 0 for the device's default)");
  if (p.super_row_size < 0)
    throw invalid_parameter("kobalt::to_csrk: super_row_size = " +
                            std::to_string(p.super_row_size) + ", must be >= 1 (0 = default)");
  if (p.super_super_row_size < 0)
    throw invalid_parameter("kobalt::to_csrk: super_super_row_size = " +
                            std::to_string(p.super_super_row_size) +
                            ", must be >= 1 (0 = default)");
  const int k = p.k != 0 ? p.k : profile.csrk_k;
  if (k == 2 && p.super_super_row_size != 0)
    throw invalid_parameter("kobalt::to_csrk: super_super_row_size = " +
                            std::to_string(p.super_super_row_size) +
                            " given with k = 2; super-super-rows exist for k = 3 only");
  const CsrkSizes defaults = csrk_default_sizes(profile, k, stats.mean_row_nnz);
  csrk::layout l;
  l.k = k;
  l.super_row_size = p.super_row_size != 0 ? p.super_row_size : defaults.super_row_size;
  l.super_super_row_size =
      k == 2 ? 0
             : (p.super_super_row_size != 0 ? p.super_super_row_size
                                            : defaults.super_super_row_size);
  l.order = p.order;
  l.max_bytes = p.max_bytes;
  return l;
}

/// ALIGNED_COO for the rows of a CSR row pointer (004 Alg. 1 needs their
/// lengths indexed, not only their distribution), on `exec`: the split of
/// 004 Alg. 3 and the lanes of Alg. 1 where p leaves them automatic. With
/// entry_bytes (bytes per stored entry) > 0, the automatic split skips
/// layouts larger than p.max_bytes (0: the capacity of row_ptr's memory).
template <class ExecutionSpace, class RowPtr>
aligned_coo::layout select(const ExecutionSpace& exec, const RowPtr& row_ptr,
                           const DeviceProfile&, const aligned_coo::params& p,
                           std::uint64_t entry_bytes = 0) {
  aligned_coo::validate(p);
  const std::uint64_t limit =
      entry_bytes == 0 ? 0
      : p.max_bytes != 0
          ? p.max_bytes
          : available_bytes<typename RowPtr::memory_space>();
  const aligned_coo_choice c = choose_aligned_coo(exec, row_ptr, p, entry_bytes, limit);
  aligned_coo::layout l;
  l.choice = c.split;
  l.seg_size = std::max<std::int64_t>(c.shape.seg_size, 1);
  l.flat_unit = p.flat_unit;
  l.max_bytes = p.max_bytes;
  return l;
}

}  // namespace kobalt::tuning
