// SPDX-License-Identifier: BSD-3-Clause
// Csr: compressed sparse rows (seed 000 §3.3). How its spmv runs (the
// kernel strategy, tuning/strategy.hpp) is the handle's business, not the
// matrix's.
#pragma once

#include "entry_on_host.hpp"
#include "format_traits.hpp"
#include "../compat.hpp"
#include "../errors.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

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

/// The checks of Csr's validating constructor that need the arrays, on
/// `exec`: row_ptr(0) == 0, row_ptr never decreases, row_ptr(rows) <=
/// capacity (the length of col and val), and every column of the first
/// row_ptr(rows) entries in [0, cols). Returns nnz = row_ptr(rows); throws
/// invalid_matrix naming the first kind of fault found.
template <class ExecutionSpace, class IndexView>
std::int64_t checked_csr_nnz(const ExecutionSpace& exec, std::int64_t rows, std::int64_t cols,
                             const IndexView& row_ptr, const IndexView& col,
                             std::int64_t capacity) {
  exec.fence();  // the caller may have filled the arrays on exec
  const std::int64_t first = entry_on_host(row_ptr, 0), nnz = entry_on_host(row_ptr, rows);
  if (first != 0)
    throw invalid_matrix("kobalt::Csr: row_ptr(0) = " + std::to_string(first) + ", expected 0");
  if (nnz > capacity || nnz < 0)
    throw invalid_matrix("kobalt::Csr: row_ptr(rows) = " + std::to_string(nnz) +
                         " entries, but col and val hold " + std::to_string(capacity));
  std::int64_t decreasing = 0, out_of_range = 0;
  Kokkos::parallel_reduce(
      "kobalt::csr::check_row_ptr", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, rows),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& bad) {
        if (row_ptr(i + 1) < row_ptr(i)) ++bad;
      },
      decreasing);
  if (decreasing > 0)
    throw invalid_matrix("kobalt::Csr: row_ptr decreases in " + std::to_string(decreasing) +
                         " rows");
  Kokkos::parallel_reduce(
      "kobalt::csr::check_columns", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, nnz),
      KOKKOS_LAMBDA(const std::int64_t k, std::int64_t& bad) {
        if (col(k) < 0 || static_cast<std::int64_t>(col(k)) >= cols) ++bad;
      },
      out_of_range);
  if (out_of_range > 0)
    throw invalid_matrix("kobalt::Csr: " + std::to_string(out_of_range) +
                         " column indices outside [0, " + std::to_string(cols) + ")");
  return nnz;
}
}  // namespace detail

/// Tag of Csr's constructor that skips the checks: for callers that built the
/// arrays themselves (Kobalt's conversions) and know them valid.
struct assume_valid_t {
  explicit assume_valid_t() = default;
};
inline constexpr assume_valid_t assume_valid{};

template <class Value, class Index, class Device = default_device>
class Csr : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using typename types::execution_space;
  using typename types::index_view;
  using typename types::value_view;

  Csr() = default;
  /// A matrix over the given Views, shared, not copied (Views are reference
  /// counted; the caller may keep and even modify them): row_ptr holds rows
  /// + 1 offsets, col and val at least row_ptr(rows) entries (more is spare
  /// capacity: nnz() = row_ptr(rows), and the matrix sees only that prefix),
  /// columns sorted within each row. Checked on `exec` (the default instance
  /// of the matrix's space without it): the extents, row_ptr(0) = 0, row_ptr
  /// never decreasing, row_ptr(rows) within the capacity, every column in
  /// [0, cols); a fault is an invalid_matrix. Column order is not checked.
  template <class ExecutionSpace,
            class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
  Csr(const ExecutionSpace& exec, Index rows, Index cols, index_view row_ptr, index_view col,
      value_view val)
      : Csr(exec, rows, cols, row_ptr, checked(exec, rows, cols, row_ptr, col, val)) {}
  Csr(Index rows, Index cols, index_view row_ptr, index_view col, value_view val)
      : Csr(execution_space(), rows, cols, row_ptr, col, val) {}
  /// The same without the checks (assume_valid): the arrays must be exactly
  /// rows + 1 offsets and nnz = col.extent(0) = val.extent(0) entries.
  template <class ExecutionSpace>
  Csr(assume_valid_t, const ExecutionSpace& exec, Index rows, Index cols, index_view row_ptr,
      index_view col, value_view val)
      : rows_(rows), cols_(cols), row_ptr_(row_ptr), col_(col), val_(val),
        max_row_nnz_(detail::max_row_length(exec, row_ptr, rows)) {}

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
  /// col and val cut to the checked nnz.
  struct Arrays {
    index_view col;
    value_view val;
  };
  /// Checks the arrays (detail::checked_csr_nnz), the extents first, so a
  /// short row_ptr is an error, not an out-of-range read; returns col and
  /// val cut to nnz = row_ptr(rows).
  template <class ExecutionSpace>
  static Arrays checked(const ExecutionSpace& exec, Index rows, Index cols,
                        const index_view& row_ptr, const index_view& col, const value_view& val) {
    if (rows < 0 || cols < 0)
      throw invalid_matrix("kobalt::Csr: negative shape " + std::to_string(rows) + " x " +
                           std::to_string(cols));
    if (static_cast<std::int64_t>(row_ptr.extent(0)) != static_cast<std::int64_t>(rows) + 1)
      throw invalid_matrix("kobalt::Csr: row_ptr has " + std::to_string(row_ptr.extent(0)) +
                           " offsets, expected rows + 1 = " +
                           std::to_string(static_cast<std::int64_t>(rows) + 1));
    if (col.extent(0) != val.extent(0))
      throw invalid_matrix("kobalt::Csr: col has " + std::to_string(col.extent(0)) +
                           " entries but val has " + std::to_string(val.extent(0)));
    const std::int64_t nnz = detail::checked_csr_nnz(exec, rows, cols, row_ptr, col,
                                                     static_cast<std::int64_t>(col.extent(0)));
    if (static_cast<std::int64_t>(col.extent(0)) == nnz) return {col, val};
    const auto range = std::make_pair<std::int64_t, std::int64_t>(0, std::int64_t{nnz});
    return {index_view(Kokkos::subview(col, range)), value_view(Kokkos::subview(val, range))};
  }
  template <class ExecutionSpace>
  Csr(const ExecutionSpace& exec, Index rows, Index cols, index_view row_ptr, Arrays a)
      : Csr(assume_valid, exec, rows, cols, row_ptr, a.col, a.val) {}

  Index rows_ = 0, cols_ = 0;
  index_view row_ptr_, col_;
  value_view val_;
  Index max_row_nnz_ = 0;
};

}  // namespace kobalt
