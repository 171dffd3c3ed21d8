// SPDX-License-Identifier: BSD-3-Clause
// Coo: coordinate format, entries sorted by (row, col) (seed 000 §3.2).
#pragma once

#include "format_traits.hpp"

#include <cstdint>

namespace kobalt {

/// Coordinate format: row, column and value of every entry, sorted by
/// (row, col) (000 §3.2). Built by make_coo or to_coo; runs coo::segmented
/// (000 Alg. 1) or coo::load_balance. See docs/formats.md.
template <class Value, class Index, class Device = default_device>
class Coo : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using typename types::index_view;  ///< An array of indices.
  using typename types::value_view;  ///< An array of values.

  Coo() = default;
  /// Takes ownership of views holding nnz entries sorted by (row, col).
  Coo(Index rows, Index cols, index_view row, index_view col, value_view val)
      : rows_(rows), cols_(cols), row_(row), col_(col), val_(val) {}

  Index rows() const { return rows_; }  ///< Number of rows.
  Index cols() const { return cols_; }  ///< Number of columns.
  std::int64_t nnz() const { return static_cast<std::int64_t>(val_.extent(0)); }  ///< Entries.
  /// Entries held in memory, padding included (COO has none).
  std::int64_t stored() const { return nnz(); }
  /// Bytes of the arrays.
  std::uint64_t bytes() const {
    return static_cast<std::uint64_t>(stored()) * (2 * sizeof(Index) + sizeof(Value));
  }

  const index_view& row_indices() const { return row_; }  ///< Row of each entry.
  const index_view& col_indices() const { return col_; }  ///< Column of each entry.
  const value_view& values() const { return val_; }  ///< Value of each entry.

 private:
  Index rows_ = 0, cols_ = 0;
  index_view row_, col_;
  value_view val_;
};

}  // namespace kobalt
