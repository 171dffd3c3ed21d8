// SPDX-License-Identifier: BSD-3-Clause
// tuning::select for the warp-chunk formats: COO, Hybrid (ELL part, then a
// COO part) and ALIGNED_COO (seg part, then a flat COO part), whose chunks
// share the hot-row bound and the cap on combined chunks; with the layouts
// of their conversions (Hybrid's ELL width, ALIGNED_COO's split).
#pragma once

#include "aligned_coo_split.hpp"
#include "hybrid_partition.hpp"
#include "launch_shapes.hpp"
#include "strategy.hpp"
#include "../formats/storage_limit.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace kobalt::tuning {

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
}  // namespace detail

/// COO: 000 Alg. 1's warp chunks.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, coo::segmented) {
  auto [s, rule] = detail::atomic_chunks(stats, profile, "chunks");
  return detail::policy(profile, "coo", coo::segmented::name, {s}, std::move(rule));
}

/// COO load_balance on hosts: the same chunks, combined without atomics.
/// Each chunk pays a fixed cost (its split rows' parts and counters), so it
/// wants fewer, longer chunks than Alg. 1; 8 was best or close in an ω
/// sweep (docs/sources.md: "combined_chunks_omega_cap"), and the rule itself
/// gives 8 below 2e5 nonzeros.
inline constexpr int combined_chunks_omega_cap = 8;
/// Threads of a GPU team tile of the kernels that combine split rows in
/// chunk order: with runs of team_tile_run entries, tiles of 2048 entries
/// (docs/sources.md: "coo_team_tile_threads").
inline constexpr int coo_team_tile_threads = 256;

namespace detail {
/// The launch of a kernel that combines split rows in chunk order: team
/// tiles on GPUs, 000 Alg. 1's chunks with ω capped at
/// combined_chunks_omega_cap on hosts.
inline LaunchShape combined_chunks_launch(const MatrixStats& stats, const DeviceProfile& profile,
                                          const char* part) {
  if (!profile.gpu) return warp_chunk_launch(stats, profile, part, combined_chunks_omega_cap);
  LaunchShape s;
  s.part = part;
  s.team_size = coo_team_tile_threads;
  s.entries_per_thread = team_tile_run;
  s.form = LaunchForm::team_tiles;
  return s;
}
/// Its rule, for describe().
inline std::string combined_chunks_rule(const MatrixStats& stats, const DeviceProfile& profile) {
  if (!profile.gpu) return chunk_rule(stats, profile, combined_chunks_omega_cap);
  return "team tiles of " + std::to_string(coo_team_tile_threads) + " threads, a run of " +
         std::to_string(team_tile_run) + " entries each";
}
}  // namespace detail

/// COO load_balance: team tiles on GPUs, capped chunks on hosts.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         coo::load_balance) {
  return detail::policy(profile, "coo", coo::load_balance::name,
                        {detail::combined_chunks_launch(stats, profile, "chunks")},
                        detail::combined_chunks_rule(stats, profile));
}

/// Hybrid with an ELL part of `ell_width` and `coo_nnz` entries in its COO
/// part: the ELL launch (000 Alg. 4), then the COO part's warp chunks, sized
/// for the COO part's nonzeros.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         hybrid::ell_then_coo, std::int64_t ell_width, std::int64_t coo_nnz) {
  MatrixStats coo = stats;
  coo.nnz = coo_nnz;
  const auto [c, coo_rule] = detail::atomic_chunks(coo, profile, "coo");
  return detail::policy(profile, "hybrid", hybrid::ell_then_coo::name,
                        {detail::ell_launch(profile, stats.rows, ell_width, "ell"), c},
                        "ELL part by 000 Alg. 4 (width " + std::to_string(ell_width) +
                            "), COO part: " + coo_rule);
}

/// Hybrid, deterministic: the same ELL launch, then the COO part's chunks as
/// coo::load_balance sizes them.
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         hybrid::ell_then_load_balance, std::int64_t ell_width,
                         std::int64_t coo_nnz) {
  MatrixStats coo = stats;
  coo.nnz = coo_nnz;
  return detail::policy(
      profile, "hybrid", hybrid::ell_then_load_balance::name,
      {detail::ell_launch(profile, stats.rows, ell_width, "ell"),
       detail::combined_chunks_launch(coo, profile, "coo")},
      "ELL part by 000 Alg. 4 (width " + std::to_string(ell_width) +
          "), COO part combined in chunk order: " + detail::combined_chunks_rule(coo, profile));
}

/// ALIGNED_COO with `flat_nnz` entries in its flat part: the seg kernel
/// walks each lane like a CSR basic row (one thread, no vector lanes), the
/// flat part runs as COO (000 Alg. 1's warp chunks).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                         aligned_coo::seg_then_flat, std::int64_t flat_nnz) {
  MatrixStats flat = stats;
  flat.nnz = flat_nnz;
  const auto [f, flat_rule] = detail::atomic_chunks(flat, profile, "flat");
  return detail::policy(profile, "aligned_coo", aligned_coo::seg_then_flat::name, {row_launch(profile, 1, "seg"), f},
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
      profile, "aligned_coo", aligned_coo::flat_then_seg::name,
      {detail::combined_chunks_launch(flat, profile, "flat"), row_launch(profile, 1, "seg")},
      "flat part combined in chunk order: " + detail::combined_chunks_rule(flat, profile) +
          "; a thread per lane (004 Alg. 2, race-free form)");
}

/// The ELL width t that partition `s` gives (after validate(s)); Q_R is read
/// off the statistics' row-length distribution (000 eq. 6-7).
template <class Value, class Index>
hybrid::layout select(const MatrixStats& stats, const DeviceProfile&, const hybrid::partition& s,
                      std::uint64_t max_bytes = 0) {
  hybrid::validate(s);
  const std::int64_t t = std::visit(
      [&](auto v) -> std::int64_t {
        using T = decltype(v);
        if constexpr (std::is_same_v<T, hybrid::column_limit>) {
          return v.columns;
        } else if constexpr (std::is_same_v<T, hybrid::imbalance_limit>) {
          return quantile(stats, v.quantile);
        } else if constexpr (std::is_same_v<T, hybrid::imbalance_bounded_limit>) {
          return hybrid::width(stats, v);
        } else if constexpr (std::is_same_v<T, hybrid::minimal_storage>) {
          return quantile(stats, hybrid::minimal_storage_quantile<Value, Index>());
        } else {
          return hybrid::width(stats, hybrid::as_bounded(v));
        }
      },
      s);
  return hybrid::layout{t, max_bytes};
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
