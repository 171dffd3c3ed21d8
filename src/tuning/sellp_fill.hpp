// SPDX-License-Identifier: BSD-3-Clause
// How much a Csr would pad as SELL-P (slots over nonzeros), without
// converting it: what kobalt::automatic reads before it chooses SELL-P
// (tuning/choose.hpp), since the padding is read and multiplied like a
// stored entry on every apply.
#pragma once

#include "stats.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::tuning {

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
  if (slice_size < 1)
    throw invalid_parameter("kobalt::tuning::sellp_fill: slice_size = " +
                            std::to_string(slice_size) + " must be >= 1");
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

/// Slots of `a` as SELL-P with slices of `slice_size` rows, each as wide as
/// its longest row (t = 1, rows in their order), over its nonzeros: 1 = no
/// padding; 0 for a matrix without entries. The same count to_sellp stores
/// (the last slice padded to slice_size rows; the auto-handle test checks it
/// against to_sellp), without to_sellp's width kernels (they write a view of
/// widths and sum it in a second launch).
template <class ExecutionSpace, class Matrix>
double sellp_fill(const ExecutionSpace& exec, const Matrix& a, std::int64_t slice_size) {
  return analyze_moments_and_sellp_fill(exec, a, slice_size).sellp_fill;
}

}  // namespace kobalt::tuning
