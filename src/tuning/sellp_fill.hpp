// SPDX-License-Identifier: BSD-3-Clause
// How much a Csr would pad as SELL-P (slots over nonzeros), without
// converting it: what kobalt::automatic reads before it chooses SELL-P
// (tuning/choose.hpp), since the padding is read and multiplied like a
// stored entry on every apply.
#pragma once

#include "../compat.hpp"
#include "../formats/convert_sellp.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::tuning {

/// Slots of `a` as SELL-P with slices of `slice_size` rows, each as wide as
/// its longest row (t = 1, rows in their order), over its nonzeros: 1 = no
/// padding; 0 for a matrix without entries. to_sellp's own slice widths
/// (detail::sellp_slice_lengths, one int per slice), so it is the count
/// to_sellp stores (the last slice padded to slice_size rows); reads
/// row_ptr only.
template <class ExecutionSpace, class Matrix>
double sellp_fill(const ExecutionSpace& exec, const Matrix& a, std::int64_t slice_size) {
  const std::int64_t rows = a.rows(), b = slice_size;
  if (a.nnz() == 0 || rows == 0) return 0;
  using index_view = Kokkos::View<typename Matrix::index_type*, typename Matrix::device_type>;
  const index_view lengths(compat::uninitialized("kobalt::tuning::sellp_fill::slice_lengths"),
                           (rows - 1) / b + 1);
  kobalt::detail::sellp_slice_lengths(exec, a.row_ptr(), index_view(), rows, b, 1, lengths);
  return static_cast<double>(kobalt::detail::sum_slice_lengths(exec, lengths)) * static_cast<double>(b) /
         static_cast<double>(a.nnz());
}

}  // namespace kobalt::tuning
