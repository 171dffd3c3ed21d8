// SPDX-License-Identifier: BSD-3-Clause
// How far a Csr's rows reach across its columns: what kobalt::automatic
// reads before it chooses ALIGNED_COO for a regular matrix whose x exceeds
// the L2 (tuning/choose.hpp). A banded matrix's rows gather x near their own
// row, so rows in order walk x once; rows whose columns spread over all of x
// do not, and ALIGNED_COO's segments ran faster there.
#pragma once

#include "../range.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::tuning {

namespace detail {
/// sum += last column - first column + 1 of each row with entries.
template <class RowPtr, class Cols>
struct RowSpanSumFunctor {
  using value_type = double;
  RowPtr row_ptr;
  Cols col;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, double& sum) const {
    const auto first = row_ptr(i), end = row_ptr(i + 1);
    if (end > first)
      sum += static_cast<double>(col(end - 1)) - static_cast<double>(col(first)) + 1.0;
  }
};
}  // namespace detail

/// The mean over a Csr's rows of the columns each row spans (its last column
/// - its first + 1; an empty row spans none), over its columns: near 0 for a
/// banded matrix, (k - 1) / (k + 1) for rows of k columns drawn uniformly.
/// Reads two columns per row, relying on the Csr's columns being sorted
/// within each row (an unsorted row only moves this estimate); 0 for a
/// matrix without rows, columns or entries. One reduction on `exec`.
template <class ExecutionSpace, class Matrix>
double row_spread(const ExecutionSpace& exec, const Matrix& a) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::tuning::row_spread: the first argument must be an execution space "
                "instance");
  const std::int64_t rows = a.rows(), cols = a.cols();
  if (rows == 0 || cols == 0 || a.nnz() == 0) return 0.0;
  using functor = detail::RowSpanSumFunctor<std::decay_t<decltype(a.row_ptr())>,
                                            std::decay_t<decltype(a.col_indices())>>;
  double sum = 0;
  Kokkos::parallel_reduce("kobalt::tuning::row_spread", range_policy<ExecutionSpace>(exec, 0, rows),
                          functor{a.row_ptr(), a.col_indices()}, sum);
  return sum / (static_cast<double>(rows) * static_cast<double>(cols));
}

}  // namespace kobalt::tuning
