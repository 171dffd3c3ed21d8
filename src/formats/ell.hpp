// SPDX-License-Identifier: BSD-3-Clause
// Ell: ELLPACK (seed 000 §2, §3.4; 003 §3.3). Every row holds
// stored_per_row slots; slot k of row i lives at k * stride + i (column
// major, so consecutive rows are consecutive in memory and a warp's loads
// coalesce). A row's entries come first, in column order; the slots after
// them are padding: column padding_index (-1), value 0. Rows stride..rows-1
// of the padded block (stride >= rows) are all padding.
#pragma once

#include "../range.hpp"
#include "format_traits.hpp"
#include "../compat.hpp"
#include "../errors.hpp"

#include <cstdint>
#include <string>

namespace kobalt {

namespace detail {
/// Passed by conversions that built the arrays themselves and know the entry
/// count: skips the validating pass of the public constructors.
struct trusted_layout_t {
  explicit trusted_layout_t() = default;
};
inline constexpr trusted_layout_t trusted_layout{};

struct layout_check {
  std::int64_t nnz = 0;
  std::int64_t bad_row = -1;  ///< first row that breaks the layout, -1 if none
};

/// Counts row i's entries and lowers first_bad to i when the row has an
/// entry after a padding slot or a column outside [0, cols).
template <class IndexView>
struct EllLayoutCheckFunctor {
  using Index = typename IndexView::non_const_value_type;
  IndexView col;
  std::int64_t cols, width, stride;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& count,
                                         std::int64_t& first_bad) const {
    bool padded = false, ok = true;
    for (std::int64_t k = 0; k < width; ++k) {
      const Index c = col(k * stride + i);
      if (c < 0) {
        padded = true;
      } else if (padded || c >= cols) {
        ok = false;
      } else {
        ++count;
      }
    }
    if (!ok && i < first_bad) first_bad = i;
  }
};

/// Counts the entries of an ELL block and finds the first row with an entry
/// after a padding slot or a column outside [0, cols).
template <class ExecutionSpace, class IndexView>
layout_check check_ell_layout(const ExecutionSpace& exec, const IndexView& col, std::int64_t rows, std::int64_t cols,
                              std::int64_t width, std::int64_t stride) {
  layout_check r;
  if (rows == 0) return r;
  std::int64_t bad = rows;
  Kokkos::parallel_reduce(
      "kobalt::ell::check_layout", range_policy<ExecutionSpace>(exec, 0, rows),
      EllLayoutCheckFunctor<IndexView>{col, cols, width, stride},
      Kokkos::Sum<std::int64_t>(r.nnz), Kokkos::Min<std::int64_t>(bad));
  r.bad_row = bad < rows ? bad : -1;
  return r;
}
}  // namespace detail

/// Conversion parameters of Ell (Ginkgo's Ell settings, 000 Table 5).
struct ell_params {
  /// Slots per row. 0 = the longest row (000 §3.4, the plain ELL width); a
  /// value below the longest row throws invalid_parameter (nothing is dropped).
  std::int64_t stored_per_row = 0;
  /// Distance between slot k and slot k+1 of a row, in elements. 0 = rows
  /// (dense packing); larger values pad every slot column, e.g. for alignment.
  std::int64_t stride = 0;
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
};

/// ELLPACK: every row padded to stored_per_row() slots, stored column-major
/// (slot k of row i at k * stride() + i), padding marked by column -1
/// (000 §3.4). Built by to_ell; runs ell::rows (000 Alg. 3-4) or
/// ell::column_groups (003 Alg. 5). See docs/formats.md.
template <class Value, class Index, class Device = default_device>
class Ell : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using typename types::execution_space;  ///< Where the kernels run.
  using typename types::index_view;  ///< An array of indices.
  using typename types::value_view;  ///< An array of values.

  Ell() = default;

  /// Takes ownership of col and val, each of extent stride * stored_per_row,
  /// laid out as described at the top of this file. Checks the layout on the
  /// device and counts the entries: throws invalid_parameter for
  /// stored_per_row < 0, stride < rows or wrong extents, invalid_matrix for a
  /// row with an entry after a padding slot or a column outside [0, cols).
  Ell(Index rows, Index cols, std::int64_t stored_per_row, std::int64_t stride, index_view col,
      value_view val)
      : Ell(execution_space(), rows, cols, stored_per_row, stride, col, val) {}
  /// The same, checked on the execution space instance `exec`.
  template <class ExecutionSpace>
  Ell(const ExecutionSpace& exec, Index rows, Index cols, std::int64_t stored_per_row, std::int64_t stride, index_view col,
      value_view val)
      : rows_(rows), cols_(cols), width_(stored_per_row), stride_(stride), col_(col),
        val_(val) {
    if (rows < 0 || cols < 0) throw invalid_parameter("kobalt::Ell: negative dimension");
    if (stored_per_row < 0)
      throw invalid_parameter("kobalt::Ell: stored_per_row = " + std::to_string(stored_per_row) +
                              " is negative");
    if (stride < rows)
      throw invalid_parameter("kobalt::Ell: stride = " + std::to_string(stride) +
                              " is below the row count " + std::to_string(rows));
    const auto expected = static_cast<std::uint64_t>(stride) * static_cast<std::uint64_t>(width_);
    if (col.extent(0) != expected || val.extent(0) != expected)
      throw invalid_parameter("kobalt::Ell: col and val must hold stride * stored_per_row = " +
                              std::to_string(expected) + " slots");
    const auto check =
        detail::check_ell_layout(exec, col, rows, cols, width_, stride_);
    if (check.bad_row >= 0)
      throw invalid_matrix("kobalt::Ell: row " + std::to_string(check.bad_row) +
                           " has an entry after a padding slot or a column outside [0, " +
                           std::to_string(cols) + ")");
    nnz_ = check.nnz;
  }

  /// For conversions: the caller guarantees the layout and passes the entry count.
  Ell(detail::trusted_layout_t, Index rows, Index cols, std::int64_t stored_per_row,
      std::int64_t stride, index_view col, value_view val, std::int64_t nnz)
      : rows_(rows), cols_(cols), width_(stored_per_row), stride_(stride), col_(col),
        val_(val), nnz_(nnz) {}

  Index rows() const { return rows_; }  ///< Number of rows.
  Index cols() const { return cols_; }  ///< Number of columns.
  /// Entries of the matrix (padding excluded).
  std::int64_t nnz() const { return nnz_; }
  /// Slots held in memory, padding included: stride * stored_per_row.
  std::int64_t stored() const { return stride_ * width_; }
  /// Bytes of the arrays, padding included.
  std::uint64_t bytes() const {
    return static_cast<std::uint64_t>(stored()) * (sizeof(Index) + sizeof(Value));
  }
  /// Slots per row (the ELL width).
  std::int64_t stored_per_row() const { return width_; }
  /// Elements between slot k and slot k+1 of a row (>= rows).
  std::int64_t stride() const { return stride_; }

  /// Column of slot k of row i is col_indices()(k * stride() + i).
  const index_view& col_indices() const { return col_; }
  /// Value of each slot (0 in padding), laid out as col_indices().
  const value_view& values() const { return val_; }

 private:
  Index rows_ = 0, cols_ = 0;
  std::int64_t width_ = 0, stride_ = 0;
  index_view col_;
  value_view val_;
  std::int64_t nnz_ = 0;
};

}  // namespace kobalt
