// SPDX-License-Identifier: BSD-3-Clause
// Csr: compressed sparse rows (seed 000 §3.3). How its spmv runs (the
// kernel strategy, tuning/strategy.hpp) is the handle's business, not the
// matrix's.
#pragma once

#include "format_traits.hpp"
#include "../compat.hpp"

#include <cstdint>
#include <string>

namespace kobalt {

namespace detail {
/// Longest row of a CSR row pointer (a free function: CUDA forbids extended
/// lambdas inside private member functions).
template <class ExecutionSpace, class IndexView>
typename IndexView::non_const_value_type max_row_length(const ExecutionSpace& exec,
                                                         const IndexView& row_ptr,
                                                         std::int64_t rows) {
  using Index = typename IndexView::non_const_value_type;
  Index result = 0;
  if (rows <= 0) return result;
  Kokkos::parallel_reduce(
      "kobalt::csr::max_row_nnz", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, rows),
      KOKKOS_LAMBDA(const std::int64_t i, Index& m) {
        const Index len = row_ptr(i + 1) - row_ptr(i);
        if (len > m) m = len;
      },
      Kokkos::Max<Index>(result));
  return result;
}
}  // namespace detail

template <class Value, class Index, class Device = default_device>
class Csr : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using typename types::execution_space;
  using typename types::index_view;
  using typename types::value_view;

  Csr() = default;
  /// Takes ownership of row_ptr (rows + 1 offsets), col and val (row_ptr[rows]
  /// entries, columns sorted within each row). The longest row is found on
  /// `exec` (the default instance of the matrix's space without it).
  template <class ExecutionSpace>
  Csr(const ExecutionSpace& exec, Index rows, Index cols, index_view row_ptr, index_view col,
      value_view val)
      : rows_(rows), cols_(cols), row_ptr_(row_ptr), col_(col), val_(val),
        max_row_nnz_(detail::max_row_length(exec, row_ptr, rows)) {}
  Csr(Index rows, Index cols, index_view row_ptr, index_view col, value_view val)
      : Csr(execution_space(), rows, cols, row_ptr, col, val) {}

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  std::int64_t nnz() const { return static_cast<std::int64_t>(val_.extent(0)); }
  std::int64_t stored() const { return nnz(); }
  std::uint64_t bytes() const {
    return static_cast<std::uint64_t>(stored()) * (sizeof(Index) + sizeof(Value)) +
           static_cast<std::uint64_t>(row_ptr_.extent(0)) * sizeof(Index);
  }
  /// Longest row, computed once at construction (the classical strategy's
  /// subwarp size depends on it).
  Index max_row_nnz() const { return max_row_nnz_; }

  const index_view& row_ptr() const { return row_ptr_; }
  const index_view& col_indices() const { return col_; }
  const value_view& values() const { return val_; }

 private:
  Index rows_ = 0, cols_ = 0;
  index_view row_ptr_, col_;
  value_view val_;
  Index max_row_nnz_ = 0;
};

}  // namespace kobalt
