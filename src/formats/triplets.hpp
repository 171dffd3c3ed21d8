// SPDX-License-Identifier: BSD-3-Clause
// Triplets: a sparse matrix as host-side (row, col, value) lists. It is what
// the Matrix Market reader and the generators produce and what device formats
// are built from; assemble() gives it the invariant every Kobalt format
// assumes: sorted by (row, col), no duplicates (they are summed).
#pragma once

#include "../errors.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace kobalt {

/// A sparse matrix on the host as three parallel lists (row, column, value):
/// what read_matrix_market returns and make_coo / make_csr take. Entries may
/// be in any order and repeat until assemble() sorts them by (row, col) and
/// sums duplicates. Index is a signed integer type.
template <class Value, class Index>
struct Triplets {
  static_assert(std::is_signed_v<Index> && std::is_integral_v<Index>,
                "Kobalt index types are signed integers (int32_t, int64_t)");
  using value_type = Value;  ///< Type of the values.
  using index_type = Index;  ///< Type of the indices and dimensions.

  Index rows = 0;  ///< Number of rows.
  Index cols = 0;  ///< Number of columns.
  std::vector<Index> row;  ///< Row of each entry, in [0, rows).
  std::vector<Index> col;  ///< Column of each entry, in [0, cols).
  std::vector<Value> val;  ///< Value of each entry (stored zeros are kept).

  std::int64_t nnz() const { return static_cast<std::int64_t>(val.size()); }  ///< Entries held.

  /// Appends the entry (r, c) = v; no check until validate().
  void push_back(Index r, Index c, Value v) {
    row.push_back(r);
    col.push_back(c);
    val.push_back(v);
  }

  /// Throws invalid_matrix if the arrays differ in length or an index lies
  /// outside [0, rows) x [0, cols).
  void validate() const {
    if (row.size() != col.size() || row.size() != val.size())
      throw invalid_matrix("triplets: row, col and val differ in length");
    if (rows < 0 || cols < 0) throw invalid_matrix("triplets: negative dimension");
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (row[k] < 0 || row[k] >= rows || col[k] < 0 || col[k] >= cols)
        throw invalid_matrix("triplets: entry " + std::to_string(k) + " at (" +
                             std::to_string(row[k]) + ", " + std::to_string(col[k]) +
                             ") lies outside the " + std::to_string(rows) + " x " +
                             std::to_string(cols) + " matrix");
    }
  }

  /// Whether the entries are sorted by (row, col) with no duplicates.
  bool is_assembled() const {
    for (std::size_t k = 1; k < row.size(); ++k) {
      if (row[k - 1] > row[k] || (row[k - 1] == row[k] && col[k - 1] >= col[k])) return false;
    }
    return true;
  }

  /// Sorts by (row, col) and sums duplicates. Explicit zeros are kept: a
  /// stored zero is part of the pattern.
  void assemble() {
    validate();
    if (is_assembled()) return;
    std::vector<std::size_t> order(row.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return row[a] < row[b] || (row[a] == row[b] && col[a] < col[b]);
    });
    std::vector<Index> r, c;
    std::vector<Value> v;
    r.reserve(order.size());
    c.reserve(order.size());
    v.reserve(order.size());
    for (std::size_t k : order) {
      if (!r.empty() && r.back() == row[k] && c.back() == col[k]) {
        v.back() += val[k];
      } else {
        r.push_back(row[k]);
        c.push_back(col[k]);
        v.push_back(val[k]);
      }
    }
    row.swap(r);
    col.swap(c);
    val.swap(v);
  }
};

}  // namespace kobalt
