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
#include "policy.hpp"
#include "profile.hpp"
#include "stats.hpp"
#include "strategy.hpp"
#include "../errors.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
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

// Width/rows ratio above which an ELL row gets several lanes: 000 Alg. 4
// line 5 (and 003 Alg. 5), "ell_ncols / nrows > 1e-2".
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

/// Entry-chunk kernels (portable COO): each thread walks a contiguous chunk.
inline LaunchShape chunk_launch(const DeviceProfile& profile, const char* part) {
  LaunchShape s;
  s.part = part;
  s.team_size = std::max(1, profile.team_threads);
  s.entries_per_thread = profile.entries_per_thread;
  return s;
}

namespace detail {
inline SpmvPolicy policy(const char* format, std::string kernel, std::vector<LaunchShape> l,
                         std::string rule) {
  return SpmvPolicy{format, std::move(kernel), std::move(l), std::move(rule)};
}

/// The ELL launch of 000 Alg. 4: one lane per row unless width / rows >
/// 1e-2, then min(warp, 2^ceil(log2 width)) lanes. Alg. 4's several warps per
/// row (with atomics) belong to the tuned GPU kernel, not this one.
inline LaunchShape ell_launch(const DeviceProfile& profile, std::int64_t rows, std::int64_t width,
                              const char* part) {
  int lanes = 1;
  if (rows > 0 && static_cast<double>(width) / static_cast<double>(rows) > ell_lanes_ratio)
    lanes = ceil_pow2_capped(width, profile.warp_width);
  return row_launch(profile, lanes, part);
}
}  // namespace detail

// ---- kernel strategies -> SpmvPolicy ----------------------------------------

/// CSR basic: one thread per row (003 "basic").
inline SpmvPolicy select(const MatrixStats&, const DeviceProfile& profile, csr::basic) {
  return detail::policy("csr", "basic", {row_launch(profile, 1, "rows")},
                        "one thread per row (003 basic)");
}

/// CSR classical: subwarp = largest power of two <= longest row, at most the
/// warp (003 §3.2, Alg. 2).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, csr::classical) {
  const int lanes = floor_pow2_capped(stats.max_row_nnz, std::max(profile.warp_width, 1));
  return detail::policy("csr", "classical", {row_launch(profile, lanes, "rows")},
                        "subwarp = largest power of two <= longest row " +
                            std::to_string(stats.max_row_nnz) + ", at most the warp " +
                            std::to_string(profile.warp_width) + " (003 Alg. 2)");
}

/// COO: contiguous chunks of entries per thread.
inline SpmvPolicy select(const MatrixStats&, const DeviceProfile& profile, coo::chunks) {
  return detail::policy("coo", "chunks", {chunk_launch(profile, "entries")},
                        "contiguous chunks of entries_per_thread entries per thread (device profile)");
}

/// ELL of `width` slots per row: 000 Alg. 4's lanes per row.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, ell::rows,
                         std::int64_t width) {
  return detail::policy("ell", "rows", {detail::ell_launch(profile, stats.rows, width, "rows")},
                        "lanes per row by width/rows > 1e-2 (000 Alg. 4), width " +
                            std::to_string(width));
}

/// SELL-P with slices of `slice_size` rows: one league entry per slice, one
/// thread per row and no vector lanes (000 §3.5, Alg. 5: 001's t threads per
/// row are not used by this kernel). GPU teams cover the slice's rows, at
/// most profile.team_threads.
inline SpmvPolicy select(const MatrixStats&, const DeviceProfile& profile, sellp::slices,
                         std::int64_t slice_size) {
  LaunchShape s;
  s.part = "slices";
  s.vector_length = 1;
  s.team_size = profile.gpu ? static_cast<int>(std::min<std::int64_t>(
                                  slice_size, std::max(profile.team_threads, 1)))
                            : 1;
  s.rows_per_team = slice_size;
  return detail::policy("sellp", "slices", {s}, "a team per slice, a thread per row (000 Alg. 5)");
}

/// A block shape of 002 §4.1, in the paper's own terms.
struct CsrkBlockShape {
  int lanes_per_row;           ///< threads over a row's nonzeros (GPUSpMV-3.5 x; 1 = GPUSpMV-3)
  int rows_in_parallel;        ///< threads over the rows of a super-row
  int super_rows_in_parallel;  ///< threads over the super-rows of a super-super-row
};

// 002 §4.1, block dimensions per rdensity case (measured on V100 and A100;
// used unchanged on every GPU until kobalt-tune measures per device):
inline constexpr CsrkBlockShape csrk_block_shapes[4] = {
    {1, 8, 12},   // case 1, r <= 8:       8 x 12     (GPUSpMV-3; a warp = 8 x 4)
    {4, 8, 12},   // case 2, 8 < r <= 16:  4 x 8 x 12 (GPUSpMV-3.5)
    {8, 8, 8},    // case 3, 16 < r <= 32: 8 x 8 x 8
    {16, 8, 4}};  // case 4, r > 32:       16 x 8 x 4 (a warp = 2 rows)

/// CSR-k with k levels (2 or 3), rdensity = nnz / rows from the statistics.
/// The shape is the paper's, independent of SSRS and SRS, which 002 leaves
/// unrelated to it (NOTES.md: case 1 has 12 super-row threads for SSRS ≈
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
  return detail::policy("csrk", "groups", {s}, rule);
}

/// Hybrid with an ELL part of `ell_width`: the ELL launch (000 Alg. 4), then
/// the COO chunks.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         hybrid::ell_then_coo, std::int64_t ell_width) {
  return detail::policy("hybrid", "ell_then_coo",
                        {detail::ell_launch(profile, stats.rows, ell_width, "ell"),
                         chunk_launch(profile, "coo")},
                        "ELL part by 000 Alg. 4 (width " + std::to_string(ell_width) +
                            "), COO part in chunks");
}

/// ALIGNED_COO: the seg kernel walks each lane like a CSR basic row (one
/// thread, no vector lanes), the flat part runs as COO chunks.
inline SpmvPolicy select(const MatrixStats&, const DeviceProfile& profile,
                         aligned_coo::seg_then_flat) {
  return detail::policy("aligned_coo", "seg_then_flat",
                        {row_launch(profile, 1, "seg"), chunk_launch(profile, "flat")},
                        "a thread per lane (004 Alg. 2, race-free form), flat part in chunks");
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

/// ALIGNED_COO from the row lengths in row order (004 Alg. 1 needs them
/// indexed, not only their distribution): the split of 004 Alg. 3 and the
/// lanes of Alg. 1 where p leaves them automatic.
inline aligned_coo::layout select(const std::vector<std::int64_t>& row_lengths,
                                  const DeviceProfile&, const aligned_coo::params& p) {
  aligned_coo::validate(p);
  const aligned_coo_choice c = choose_aligned_coo(row_lengths, p);
  aligned_coo::layout l;
  l.choice = c.split;
  l.seg_size = std::max<std::int64_t>(c.shape.seg_size, 1);
  l.flat_unit = p.flat_unit;
  l.max_bytes = p.max_bytes;
  return l;
}

}  // namespace kobalt::tuning
