// SPDX-License-Identifier: BSD-3-Clause
// Symmetric permutation of a Csr on the device: B(i, col_map(j)) =
// A(row_source(i), j). With row_source = perm and col_map = perm^-1 this is
// P A P^T; with the two swapped it undoes it. Values are copied, never
// changed; each row's columns are re-sorted.
#pragma once

#include "../range.hpp"
#include "csr.hpp"
#include "../compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kobalt::detail {

// Rows up to this length are sorted by insertion sort (fewest operations
// for short rows); longer rows by heapsort, O(L log L) in place. An
// algorithmic cut-off, not a launch heuristic; not measured.
inline constexpr std::int64_t insertion_sort_max_row = 16;

/// Sorts the entries [begin, end) of (col, val) by column, in place, in one
/// thread. Columns within a Csr row are distinct, so stability is moot.
template <class ColView, class ValView>
KOKKOS_INLINE_FUNCTION void sort_row_by_column(const ColView& col, const ValView& val,
                                               std::int64_t begin, std::int64_t end) {
  using index_type = typename ColView::non_const_value_type;
  using value_type = typename ValView::non_const_value_type;
  const std::int64_t n = end - begin;
  if (n <= insertion_sort_max_row) {
    for (std::int64_t p = begin + 1; p < end; ++p) {
      const index_type c = col(p);
      const value_type v = val(p);
      std::int64_t q = p;
      for (; q > begin && col(q - 1) > c; --q) {
        col(q) = col(q - 1);
        val(q) = val(q - 1);
      }
      col(q) = c;
      val(q) = v;
    }
    return;
  }
  auto swap_entries = [&](std::int64_t p, std::int64_t q) {
    const index_type c = col(begin + p);
    col(begin + p) = col(begin + q);
    col(begin + q) = c;
    const value_type v = val(begin + p);
    val(begin + p) = val(begin + q);
    val(begin + q) = v;
  };
  // Max-heap on the column over positions [0, size).
  auto sift_down = [&](std::int64_t root, std::int64_t size) {
    for (;;) {
      std::int64_t child = 2 * root + 1;
      if (child >= size) return;
      if (child + 1 < size && col(begin + child) < col(begin + child + 1)) ++child;
      if (!(col(begin + root) < col(begin + child))) return;
      swap_entries(root, child);
      root = child;
    }
  };
  for (std::int64_t start = n / 2 - 1; start >= 0; --start) sift_down(start, n);
  for (std::int64_t last = n - 1; last > 0; --last) {
    swap_entries(0, last);
    sift_down(0, last);
  }
}

/// new_row_ptr(i + 1) = the length of old row row_source(i).
template <class MapView, class IndexView, class RowPtr>
struct PermutedRowLengthFunctor {
  using Index = typename IndexView::non_const_value_type;
  MapView row_source;
  IndexView new_row_ptr;
  RowPtr row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const Index i) const {
    const Index old = row_source(i);
    new_row_ptr(i + 1) = row_ptr(old + 1) - row_ptr(old);
  }
};

/// Row lengths summed into the row pointer, in place.
template <class IndexView>
struct PermutedRowPtrScanFunctor {
  using Index = typename IndexView::non_const_value_type;
  using value_type = Index;
  IndexView new_row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const Index i, Index& partial, const bool final) const {
    partial += new_row_ptr(i);
    if (final) new_row_ptr(i) = partial;
  }
};

/// New row i: old row row_source(i)'s entries with their columns renumbered
/// by col_map, then sorted by column.
template <class MapView, class IndexView, class ValueView, class RowPtr, class ColView,
          class ValView>
struct PermutedRowFunctor {
  using Index = typename IndexView::non_const_value_type;
  MapView row_source;
  IndexView new_row_ptr;
  RowPtr row_ptr;
  IndexView new_col;
  MapView col_map;
  ColView col;
  ValueView new_val;
  ValView val;

  KOKKOS_INLINE_FUNCTION void operator()(const Index i) const {
    const Index old = row_source(i);
    const Index out = new_row_ptr(i);
    const Index first = row_ptr(old);
    const Index len = row_ptr(old + 1) - first;
    for (Index q = 0; q < len; ++q) {
      new_col(out + q) = col_map(col(first + q));
      new_val(out + q) = val(first + q);
    }
    sort_row_by_column(new_col, new_val, static_cast<std::int64_t>(out),
                       static_cast<std::int64_t>(out + len));
  }
};

/// B with B's row i = A's row row_source(i), its columns renumbered by
/// col_map (old column -> new column) and sorted. row_source has a.rows()
/// entries, col_map a.cols(); both must be permutations (not checked here).
/// B keeps A's strategy. The caller checks storage (B takes a.bytes()).
template <class ExecutionSpace, class Value, class Index, class Device, class MapView>
Csr<Value, Index, Device> permute_csr(const ExecutionSpace& space,
                                      const Csr<Value, Index, Device>& a,
                                      const MapView& row_source, const MapView& col_map,
                                      const std::string& label) {
  using exec = ExecutionSpace;
  using result_t = Csr<Value, Index, Device>;
  using index_view = typename result_t::index_view;
  using row_ptr_view = typename result_t::row_ptr_view;
  const Index rows = a.rows();
  const std::int64_t nnz = a.nnz();
  const auto row_ptr = a.row_ptr();
  const auto col = a.col_indices();
  const auto val = a.values();
  typename result_t::index_view new_row_ptr(Kokkos::view_alloc(space, std::string(label + "::row_ptr")), rows + 1);
  typename result_t::index_view new_col(compat::uninitialized(label + "::col"), nnz);
  typename result_t::value_view new_val(compat::uninitialized(label + "::val"), nnz);
  Kokkos::parallel_for(
      label + "::count", range_policy<exec>(space, 0, rows),
      PermutedRowLengthFunctor<MapView, index_view, row_ptr_view>{row_source, new_row_ptr,
                                                                  row_ptr});
  Kokkos::parallel_scan(
      label + "::scan", range_policy<exec>(space, 0, rows + 1),
      PermutedRowPtrScanFunctor<index_view>{new_row_ptr});
  Kokkos::parallel_for(
      label + "::rows", range_policy<exec>(space, 0, rows),
      PermutedRowFunctor<MapView, index_view, typename result_t::value_view, row_ptr_view,
                         typename result_t::col_view, typename result_t::val_view>{
          row_source, new_row_ptr, row_ptr, new_col, col_map, col, new_val, val});
  return result_t(assume_valid, space, a.rows(), a.cols(), new_row_ptr, new_col, new_val);
}

}  // namespace kobalt::detail
