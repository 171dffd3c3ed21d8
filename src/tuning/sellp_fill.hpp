// SPDX-License-Identifier: BSD-3-Clause
// How much a Csr would pad as SELL-P (slots over nonzeros), without
// converting it: what kobalt::automatic reads before it chooses SELL-P
// (tuning/choose.hpp), since the padding is read and multiplied like a
// stored entry on every apply.
#pragma once

#include "../arch/arch.hpp"
#include "../compat.hpp"
#include "../errors.hpp"
#include "stats.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt::tuning {

namespace detail {
/// Throws invalid_parameter for slices of fewer than one row.
inline void check_slice_size(std::int64_t slice_size) {
  if (slice_size < 1)
    throw invalid_parameter("kobalt::tuning::sellp_fill: slice_size = " +
                            std::to_string(slice_size) + " must be >= 1");
}
}  // namespace detail

/// A Csr's row moments (analyze_moments) and its SELL-P fill (sellp_fill).
struct MomentsAndSellpFill {
  MatrixStats stats;        ///< analyze_moments' statistics (no distribution)
  double sellp_fill = 0.0;  ///< SELL-P slots per nonzero; 0 without entries
};

/// analyze_moments and sellp_fill of a Csr in one reduction over its slices
/// of `slice_size` >= 1 rows, reading row_ptr only: what the automatic handle
/// reads when its profile may choose SELL-P. One launch and one wait instead
/// of two: each pass costs about a launch floor, and two made the analysis
/// too dear (docs/sources.md: "One reduction for the moments").
template <class ExecutionSpace, class Matrix>
MomentsAndSellpFill analyze_moments_and_sellp_fill(const ExecutionSpace& exec, const Matrix& a,
                                                   std::int64_t slice_size) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::tuning::analyze_moments_and_sellp_fill: the first argument must be an "
                "execution space instance");
  detail::check_slice_size(slice_size);
  using view = std::decay_t<decltype(a.row_ptr())>;
  const auto m = detail::row_moments_by_slice(exec, a.rows(), a.cols(), a.nnz(),
                                              detail::pointer_row_length<view>{a.row_ptr()},
                                              slice_size);
  MomentsAndSellpFill r{m.stats, 0.0};
  if (a.nnz() > 0)
    r.sellp_fill = static_cast<double>(m.slice_widths) * static_cast<double>(slice_size) /
                   static_cast<double>(a.nnz());
  return r;
}

namespace detail {
/// The sum over slices of `slice` consecutive rows of each slice's longest
/// row: a team thread per slice, its rows over the vector lanes, so that
/// consecutive lanes read consecutive row ends (on GPUs a warp-wide max).
template <class ExecutionSpace, class RowLength>
struct SliceWidthsFunctor {
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  RowLength length;
  std::int64_t rows, slice;
  int slices_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team, std::int64_t& widths) const {
    std::int64_t team_widths = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, slices_per_team),
        [&](const int t, std::int64_t& sum) {
          const std::int64_t first =
              (static_cast<std::int64_t>(team.league_rank()) * slices_per_team + t) * slice;
          if (first >= rows) return;
          const std::int64_t n = rows - first < slice ? rows - first : slice;
          std::int64_t longest = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, n),
              [&](const std::int64_t l, std::int64_t& most) {
                const std::int64_t len = static_cast<std::int64_t>(length(first + l));
                most = len > most ? len : most;
              },
              Kokkos::Max<std::int64_t>(longest));
          sum += longest;
        },
        team_widths);
    Kokkos::single(Kokkos::PerTeam(team), [&] { widths += team_widths; });
  }
};
}  // namespace detail

/// Slots of `a` as SELL-P with slices of `slice_size` rows, each as wide as
/// its longest row (t = 1, rows in their order), over its nonzeros: 1 = no
/// padding; 0 for a matrix without entries. The same count to_sellp stores
/// (the last slice padded to slice_size rows; the auto-handle test checks it
/// against to_sellp). Its own reduction, reading row ends coalesced: rule 2
/// of the automatic handle reads it after the moments, only for the regular
/// matrices whose choice it may change (tuning/choose.hpp).
template <class ExecutionSpace, class Matrix>
double sellp_fill(const ExecutionSpace& exec, const Matrix& a, std::int64_t slice_size) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::tuning::sellp_fill: the first argument must be an execution space "
                "instance");
  detail::check_slice_size(slice_size);
  if (a.nnz() == 0) return 0.0;
  using view = std::decay_t<decltype(a.row_ptr())>;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  const int warp = arch::warp_width(exec);
  // A slice's rows over the lanes (a power of two up to the warp), and
  // enough slices per team for 256 threads on GPUs; one thread on hosts.
  int lanes = 1;
  while (lanes * 2 <= warp && lanes * 2 <= slice_size) lanes *= 2;
  const int per_team = warp > 1 ? 256 / lanes : 1;
  const std::int64_t slices = kobalt::detail::ceil_div(a.rows(), slice_size);
  const std::int64_t league = kobalt::detail::ceil_div(slices, std::int64_t{per_team});
  std::int64_t widths = 0;
  compat::ScopedRegion region("kobalt::tuning::sellp_fill");
  Kokkos::parallel_reduce(
      "kobalt::tuning::sellp_fill", policy_type(exec, static_cast<int>(league), per_team, lanes),
      detail::SliceWidthsFunctor<ExecutionSpace, detail::pointer_row_length<view>>{
          detail::pointer_row_length<view>{a.row_ptr()}, a.rows(), slice_size, per_team},
      widths);
  return static_cast<double>(widths) * static_cast<double>(slice_size) /
         static_cast<double>(a.nnz());
}

}  // namespace kobalt::tuning
