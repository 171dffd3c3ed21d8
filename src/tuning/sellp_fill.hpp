// SPDX-License-Identifier: BSD-3-Clause
// How much a Csr would pad as SELL-P (slots over nonzeros), without
// converting it: what kobalt::automatic reads before it chooses SELL-P
// (tuning/choose.hpp), since the padding is read and multiplied like a
// stored entry on every apply.
#pragma once

#include "../range.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::tuning {

/// Slots of `a` as SELL-P with slices of `slice_size` rows, each as wide as
/// its longest row (t = 1, rows in their order), over its nonzeros: 1 = no
/// padding; 0 for a matrix without entries. One reduction over the slices,
/// reading row_ptr only; the same count to_sellp stores (the last slice
/// padded to slice_size rows; the auto-handle test checks it against
/// to_sellp). Not to_sellp's own width kernels: those write a view of
/// widths and sum it in a second launch, and this runs in the automatic
/// handle's analysis, on the small matrices where a launch and an
/// allocation are a large part of one SpMV.
template <class ExecutionSpace, class Matrix>
double sellp_fill(const ExecutionSpace& exec, const Matrix& a, std::int64_t slice_size) {
  const std::int64_t rows = a.rows(), b = slice_size;
  if (a.nnz() == 0 || rows == 0) return 0;
  const std::int64_t slices = (rows - 1) / b + 1;
  const auto row_ptr = a.row_ptr();
  std::int64_t widths = 0;
  Kokkos::parallel_reduce(
      "kobalt::tuning::sellp_fill", range_policy<ExecutionSpace>(exec, 0, slices),
      KOKKOS_LAMBDA(const std::int64_t s, std::int64_t& sum) {
        const std::int64_t last = (s + 1) * b < rows ? (s + 1) * b : rows;
        std::int64_t longest = 0;
        for (std::int64_t i = s * b; i < last; ++i) {
          const std::int64_t len = static_cast<std::int64_t>(row_ptr(i + 1) - row_ptr(i));
          longest = len > longest ? len : longest;
        }
        sum += longest;
      },
      Kokkos::Sum<std::int64_t>(widths));
  return static_cast<double>(widths) * static_cast<double>(b) / static_cast<double>(a.nnz());
}

}  // namespace kobalt::tuning
