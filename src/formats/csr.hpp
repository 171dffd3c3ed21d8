// SPDX-License-Identifier: BSD-3-Clause
// Csr: compressed sparse rows (seed 000 §3.3). How its spmv runs (the
// kernel strategy, tuning/strategy.hpp) is the handle's business, not the
// matrix's.
#pragma once

#include "../range.hpp"
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
/// v < 0, without the always-false comparison (and its warning) for unsigned T.
template <class T>
constexpr bool is_negative(T v) {
  if constexpr (std::is_signed_v<T>) return v < 0;
  else return (void)v, false;
}

/// The longest row so far, raised to row i's length.
template <class OffsetView>
struct MaxRowLengthFunctor {
  using value_type = std::int64_t;
  OffsetView row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& m) const {
    const auto len = static_cast<std::int64_t>(row_ptr(i + 1) - row_ptr(i));
    if (len > m) m = len;
  }
};

/// Longest row of a CSR row pointer. Row lengths are differences of the
/// (never decreasing) offsets, so an unsigned offset type is fine.
template <class ExecutionSpace, class OffsetView>
std::int64_t max_row_length(const ExecutionSpace& exec, const OffsetView& row_ptr,
                            std::int64_t rows) {
  std::int64_t result = 0;
  if (rows <= 0) return result;
  Kokkos::parallel_reduce(
      "kobalt::csr::max_row_nnz", range_policy<ExecutionSpace>(exec, 0, rows),
      MaxRowLengthFunctor<OffsetView>{row_ptr},
      Kokkos::Max<std::int64_t>(result));
  return result;
}

/// Counts row i when the row pointer decreases across it.
template <class OffsetView>
struct DecreasingRowPtrFunctor {
  using value_type = std::int64_t;
  OffsetView row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& bad) const {
    if (row_ptr(i + 1) < row_ptr(i)) ++bad;
  }
};

/// Counts entry k when its column lies outside [0, cols).
template <class IndexView>
struct ColumnOutOfRangeFunctor {
  using value_type = std::int64_t;
  IndexView col;
  std::int64_t cols;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, std::int64_t& bad) const {
    if (col(k) < 0 || static_cast<std::int64_t>(col(k)) >= cols) ++bad;
  }
};

/// The checks of Csr's validating constructor that need the arrays, on
/// `exec`: row_ptr(0) == 0, row_ptr never decreases, row_ptr(rows) <=
/// capacity (the length of col and val), and every column of the first
/// row_ptr(rows) entries in [0, cols). Returns nnz = row_ptr(rows); throws
/// invalid_matrix naming the first kind of fault found. The offsets may be
/// unsigned (KokkosSparse uses size_t): they are compared with each other
/// and, widened, with the capacity; the columns are signed (format_types).
template <class ExecutionSpace, class OffsetView, class IndexView>
std::int64_t checked_csr_nnz(const ExecutionSpace& exec, std::int64_t rows, std::int64_t cols,
                             const OffsetView& row_ptr, const IndexView& col,
                             std::int64_t capacity) {
  exec.fence();  // the caller may have filled the arrays on exec
  const auto first = entry_on_host(row_ptr, 0), last = entry_on_host(row_ptr, rows);
  if (first != 0)
    throw invalid_matrix("kobalt::Csr: row_ptr(0) = " + std::to_string(first) + ", expected 0");
  // A last offset beyond int64 (unsigned) is beyond any capacity too.
  if (is_negative(last) || static_cast<std::uint64_t>(last) > static_cast<std::uint64_t>(capacity))
    throw invalid_matrix("kobalt::Csr: row_ptr(rows) = " + std::to_string(last) +
                         " entries, but col and val hold " + std::to_string(capacity));
  const auto nnz = static_cast<std::int64_t>(last);
  std::int64_t decreasing = 0, out_of_range = 0;
  Kokkos::parallel_reduce(
      "kobalt::csr::check_row_ptr", range_policy<ExecutionSpace>(exec, 0, rows),
      DecreasingRowPtrFunctor<OffsetView>{row_ptr},
      decreasing);
  if (decreasing > 0)
    throw invalid_matrix("kobalt::Csr: row_ptr decreases in " + std::to_string(decreasing) +
                         " rows");
  Kokkos::parallel_reduce(
      "kobalt::csr::check_columns", range_policy<ExecutionSpace>(exec, 0, nnz),
      ColumnOutOfRangeFunctor<IndexView>{col, cols},
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
/// The tag value: Csr(assume_valid, exec, rows, cols, row_ptr, col, val).
inline constexpr assume_valid_t assume_valid{};

/// Csr<Value, Index, Device, Offset>: Offset is the type of the row pointer,
/// by default Index (the form every other format and conversion produces).
/// It is a trailing parameter, not Csr<Value, Ordinal, Offset, Device> as in
/// KokkosSparse, so that the Csr<V, I, D> spelled across the library and by
/// users keeps its meaning. Any integer works, unsigned too: a wrapped
/// KokkosSparse matrix has size_t offsets (src/interop/kokkos_sparse.hpp),
/// and more than 2^31 nonzeros need 64-bit offsets but not 64-bit columns.
///
/// The matrix holds its arrays as Views of const elements: SpMV only reads
/// them, and a KokkosSparse row map is View<const Offset*>. The constructors
/// take const or non-const Views (a View converts to its const form).
template <class Value, class Index, class Device = default_device, class Offset = Index>
class Csr : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;
  static_assert(std::is_integral_v<Offset> && !std::is_same_v<Offset, bool>,
                "kobalt::Csr: the offset type is an integer (int32_t, int64_t, size_t, ...)");

 public:
  using typename types::execution_space;
  using typename types::index_view;
  using typename types::value_view;
  using offset_type = Offset;  ///< the row pointer's element type
  /// Writable arrays of the matrix's types: what a builder allocates and
  /// fills before it makes the Csr (index_view and value_view for col, val).
  using offset_view = Kokkos::View<Offset*, Device>;
  /// The arrays as the matrix holds them: the row pointer,
  using row_ptr_view = Kokkos::View<const Offset*, Device>;
  using col_view = Kokkos::View<const Index*, Device>;  ///< the column indices,
  using val_view = Kokkos::View<const Value*, Device>;  ///< the values.

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
  Csr(const ExecutionSpace& exec, Index rows, Index cols, row_ptr_view row_ptr, col_view col,
      val_view val)
      : Csr(exec, rows, cols, row_ptr, checked(exec, rows, cols, row_ptr, col, val)) {}
  /// The same, checked on the default instance of the matrix's space.
  Csr(Index rows, Index cols, row_ptr_view row_ptr, col_view col, val_view val)
      : Csr(execution_space(), rows, cols, row_ptr, col, val) {}
  /// The same without the checks (assume_valid): the arrays must be exactly
  /// rows + 1 offsets and nnz = col.extent(0) = val.extent(0) entries.
  template <class ExecutionSpace>
  Csr(assume_valid_t, const ExecutionSpace& exec, Index rows, Index cols, row_ptr_view row_ptr,
      col_view col, val_view val)
      : rows_(rows), cols_(cols), row_ptr_(row_ptr), col_(col), val_(val),
        max_row_nnz_(static_cast<Index>(detail::max_row_length(exec, row_ptr, rows))) {}

  Index rows() const { return rows_; }  ///< number of rows
  Index cols() const { return cols_; }  ///< number of columns
  /// Number of nonzeros, row_ptr(rows).
  std::int64_t nnz() const { return static_cast<std::int64_t>(val_.extent(0)); }
  /// Stored entries: nnz (CSR stores no padding).
  std::int64_t stored() const { return nnz(); }
  /// Device bytes of the three arrays (the traffic model's matrix part).
  std::uint64_t bytes() const {
    return static_cast<std::uint64_t>(stored()) * (sizeof(Index) + sizeof(Value)) +
           static_cast<std::uint64_t>(row_ptr_.extent(0)) * sizeof(Offset);
  }
  /// Longest row, computed once at construction (the classical strategy's
  /// subwarp size depends on it).
  Index max_row_nnz() const { return max_row_nnz_; }

  /// rows + 1 offsets: row i holds entries row_ptr(i) .. row_ptr(i + 1) - 1.
  const row_ptr_view& row_ptr() const { return row_ptr_; }
  /// nnz column indices, sorted within each row.
  const col_view& col_indices() const { return col_; }
  /// nnz values, in the order of col_indices().
  const val_view& values() const { return val_; }

 private:
  /// col and val cut to the checked nnz.
  struct Arrays {
    col_view col;
    val_view val;
  };
  /// Checks the arrays (detail::checked_csr_nnz), the extents first, so a
  /// short row_ptr is an error, not an out-of-range read; returns col and
  /// val cut to nnz = row_ptr(rows).
  template <class ExecutionSpace>
  static Arrays checked(const ExecutionSpace& exec, Index rows, Index cols,
                        const row_ptr_view& row_ptr, const col_view& col, const val_view& val) {
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
    return {col_view(Kokkos::subview(col, range)), val_view(Kokkos::subview(val, range))};
  }
  template <class ExecutionSpace>
  Csr(const ExecutionSpace& exec, Index rows, Index cols, row_ptr_view row_ptr, Arrays a)
      : Csr(assume_valid, exec, rows, cols, row_ptr, a.col, a.val) {}

  Index rows_ = 0, cols_ = 0;
  row_ptr_view row_ptr_;
  col_view col_;
  val_view val_;
  Index max_row_nnz_ = 0;
};

}  // namespace kobalt
