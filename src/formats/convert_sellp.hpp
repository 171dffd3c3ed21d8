// SPDX-License-Identifier: BSD-3-Clause
// Csr <-> Sellp on the device.
#pragma once

#include "../range.hpp"
#include "convert_coo.hpp"
#include "convert_ell.hpp"
#include "count_rows.hpp"
#include "csr.hpp"
#include "sellp.hpp"
#include "storage_limit.hpp"
#include "window_sort.hpp"
#include "csr_arrays.hpp"
#include "../compat.hpp"

#include <cstdint>
#include <limits>
#include <string>

namespace kobalt {

namespace detail {
/// Width of the league entry's slice: its longest stored row (a team
/// reduction) rounded up to a multiple of t.
template <class ExecutionSpace, class RowPtr, class IndexView>
struct SellpSliceWidthFunctor {
  using Index = typename IndexView::non_const_value_type;
  using policy = Kokkos::TeamPolicy<ExecutionSpace>;
  RowPtr row_ptr;
  IndexView order;
  bool ordered;
  std::int64_t rows, b, t;
  IndexView lengths;

  KOKKOS_INLINE_FUNCTION void operator()(const typename policy::member_type& team) const {
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * b;
    const std::int64_t count = rows - first < b ? rows - first : b;
    std::int64_t longest = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, count),
        [&](const std::int64_t r, std::int64_t& m) {
          const std::int64_t i =
              ordered ? static_cast<std::int64_t>(order(first + r)) : first + r;
          const std::int64_t len = row_ptr(i + 1) - row_ptr(i);
          if (len > m) m = len;
        },
        Kokkos::Max<std::int64_t>(longest));
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const std::int64_t width = longest == 0 ? 0 : ((longest - 1) / t + 1) * t;
      lengths(team.league_rank()) = static_cast<Index>(width);
    });
  }
};

/// Width of each slice: its longest row (a team reduction over the slice's
/// rows) rounded up to a multiple of t. League entry -> slice.
/// Stored row k holds matrix row order(k) (order empty: the identity).
template <class ExecutionSpace, class RowPtr, class IndexView>
void sellp_slice_lengths(const ExecutionSpace& exec, const RowPtr& row_ptr,
                         const IndexView& order, std::int64_t rows, std::int64_t b,
                         std::int64_t t, const IndexView& lengths) {
  using policy = Kokkos::TeamPolicy<ExecutionSpace>;
  const std::int64_t slices = static_cast<std::int64_t>(lengths.extent(0));
  const bool ordered = order.extent(0) != 0;
  const int league = detail::league_size(slices, b, "rows", "kobalt::convert<sellp>::slice_lengths");
  Kokkos::parallel_for(
      "kobalt::convert<sellp>::slice_lengths", policy(exec, league, Kokkos::AUTO),
      SellpSliceWidthFunctor<ExecutionSpace, RowPtr, IndexView>{row_ptr, order, ordered, rows, b,
                                                                t, lengths});
}

/// Adds slice s's width to acc.
template <class IndexView>
struct SellpWidthSumFunctor {
  using value_type = std::int64_t;
  IndexView lengths;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s, std::int64_t& acc) const {
    acc += lengths(s);
  }
};

/// Sum of the slice widths, in int64 (the element count is b times it).
template <class ExecutionSpace, class IndexView>
std::int64_t sum_slice_lengths(const ExecutionSpace& exec, const IndexView& lengths) {
  std::int64_t total = 0;
  Kokkos::parallel_reduce(
      "kobalt::convert<sellp>::total",
      range_policy<ExecutionSpace>(exec, 0, static_cast<std::int64_t>(lengths.extent(0))),
      SellpWidthSumFunctor<IndexView>{lengths},
      Kokkos::Sum<std::int64_t>(total));
  return total;
}

/// Exclusive scan step: sets(s) = b * (widths of the slices before s).
template <class IndexView>
struct SellpSliceSetFunctor {
  using Index = typename IndexView::non_const_value_type;
  using value_type = Index;
  IndexView lengths;
  std::int64_t slices, b;
  IndexView sets;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s, Index& partial,
                                         const bool final) const {
    if (final) sets(s) = partial;
    if (s < slices) partial += static_cast<Index>(b * lengths(s));
  }
};

/// slice_sets(s) = b * (lengths(0) + ... + lengths(s-1)) for s in [0, slices].
template <class ExecutionSpace, class IndexView>
void sellp_slice_sets(const ExecutionSpace& exec, const IndexView& lengths, std::int64_t b, const IndexView& sets) {
  const std::int64_t slices = static_cast<std::int64_t>(lengths.extent(0));
  Kokkos::parallel_scan(
      "kobalt::convert<sellp>::slice_sets", range_policy<ExecutionSpace>(exec, 0, slices + 1),
      SellpSliceSetFunctor<IndexView>{lengths, slices, b, sets});
}

/// Stored slot g of a Sellp: its slice by bisection over the slice offsets,
/// then the matching entry of the stored row's matrix row, or padding.
template <class RowPtr, class CsrCol, class CsrVal, class IndexView, class ValueView>
struct SellpFillFunctor {
  using Index = typename IndexView::non_const_value_type;
  using Value = typename ValueView::non_const_value_type;
  RowPtr row_ptr;
  CsrCol csr_col;
  CsrVal csr_val;
  IndexView sets, order;
  bool ordered;
  std::int64_t slices, rows, b;
  IndexView col;
  ValueView val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t g) const {
    const std::int64_t sl = detail::row_of_entry(sets, slices, g);
    const std::int64_t q = g - static_cast<std::int64_t>(sets(sl));
    const std::int64_t k = q / b, i = sl * b + q % b;
    std::int64_t first = 0, len = 0;  // the stored row's matrix row
    if (i < rows) {
      const std::int64_t row = ordered ? static_cast<std::int64_t>(order(i)) : i;
      first = row_ptr(row);
      len = row_ptr(row + 1) - first;
    }
    if (k < len) {
      col(g) = csr_col(first + k);
      val(g) = csr_val(first + k);
    } else {
      col(g) = padding_index<Index>;
      val(g) = Value(0);
    }
  }
};

/// Copies stored row i of a Sellp, up to its first padding slot, to its
/// matrix row of the Csr from offset row_ptr(row) on.
template <class IndexView, class ValueView>
struct SellpCopyRowFunctor {
  IndexView sets, lengths, sellp_col;
  ValueView sellp_val;
  IndexView order;
  bool ordered;
  std::int64_t b;
  IndexView row_ptr, col;
  ValueView val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t s = i / b, base = sets(s) + i % b, width = lengths(s);
    const std::int64_t first = row_ptr(ordered ? static_cast<std::int64_t>(order(i)) : i);
    for (std::int64_t k = 0; k < width; ++k) {
      const auto c = sellp_col(base + k * b);
      if (c < 0) break;
      col(first + k) = c;
      val(first + k) = sellp_val(base + k * b);
    }
  }
};
}  // namespace detail

/// Csr -> Sellp with slices of params.slice_size rows, each as wide as its
/// longest row rounded up to a multiple of params.stride_factor; with
/// params.sort_window > 1 the rows of each window are sorted by decreasing
/// length first (SELL-C-sigma, Sellp::row_order). Throws invalid_parameter
/// for b < 1, t < 1 or a bad sort_window, index_overflow when an offset does
/// not fit Index, and format_too_large when the slots and slice metadata
/// exceed params.max_bytes (0: the device's memory). The storage check runs
/// before col and val are allocated; only the O(rows / b) slice widths it
/// needs are computed first.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
Sellp<Value, Index, Device> to_sellp(const ExecutionSpace& space,
                                     const Csr<Value, Index, Device, Offset>& a,
                                     const sellp_params& params = {}) {
  using exec = ExecutionSpace;
  using result_t = Sellp<Value, Index, Device>;
  using csr_t = Csr<Value, Index, Device, Offset>;
  const std::int64_t b = params.slice_size, t = params.stride_factor;
  detail::check_sellp_shape(b, t, "kobalt::to_sellp");
  detail::check_sort_window(params.sort_window, b, "kobalt::to_sellp");
  const std::int64_t rows = a.rows();
  const std::int64_t slices = rows == 0 ? 0 : (rows - 1) / b + 1;
  // The widest slice is at most the longest row rounded up to t: check that
  // it fits Index before the device computes any width.
  const std::int64_t longest = a.max_row_nnz();
  if (longest > 0) {
    const std::int64_t groups = (longest - 1) / t + 1;
    if (groups > std::numeric_limits<std::int64_t>::max() / t)
      throw index_overflow("kobalt::to_sellp: the longest row rounded up to stride_factor = " +
                           std::to_string(t) + " exceeds 64 bits");
    checked_index<Index>(static_cast<std::uint64_t>(groups * t), "kobalt::to_sellp: slice width");
  }
  compat::ScopedRegion region("kobalt::convert<sellp>");
  const typename result_t::index_view order =
      params.sort_window > 1
          ? detail::rows_sorted_in_windows<typename result_t::index_view>(
                space, a.row_ptr(), rows, params.sort_window)
          : typename result_t::index_view();
  const bool ordered = order.extent(0) != 0;
  typename result_t::index_view lengths(compat::uninitialized("kobalt::sellp::slice_lengths"),
                                        slices);
  detail::sellp_slice_lengths(space, a.row_ptr(), order, rows, b, t, lengths);
  const std::uint64_t stored_u = detail::saturating_mul(
      static_cast<std::uint64_t>(detail::sum_slice_lengths(space, lengths)),
      static_cast<std::uint64_t>(b));
  check_storage<typename Device::memory_space>(
      "kobalt::to_sellp",
      detail::saturating_add(detail::saturating_mul(stored_u, sizeof(Index) + sizeof(Value)),
                             (2 * static_cast<std::uint64_t>(slices) + 1 +
                              static_cast<std::uint64_t>(order.extent(0))) *
                                 sizeof(Index)),
      params.max_bytes);
  const std::int64_t stored = checked_index<Index>(stored_u, "kobalt::to_sellp: stored slots");
  typename result_t::index_view sets(compat::uninitialized("kobalt::sellp::slice_sets"),
                                     slices + 1);
  detail::sellp_slice_sets(space, lengths, b, sets);
  typename result_t::index_view col(compat::uninitialized("kobalt::sellp::col"), stored);
  typename result_t::value_view val(compat::uninitialized("kobalt::sellp::val"), stored);
  const auto row_ptr = a.row_ptr();
  const auto csr_col = a.col_indices();
  const auto csr_val = a.values();
  // A thread per stored slot, consecutive threads on consecutive slots
  // (local rows of one slice): an entry of the stored row's matrix row, or
  // padding (also for rows past the matrix in the last slice). The slot's
  // slice is found by bisection over the slice offsets, so the work does not
  // depend on how wide any one slice is: a thread per row or a team per
  // slice waits for the widest (docs/sources.md: "Conversion kernels").
  Kokkos::parallel_for(
      "kobalt::convert<sellp>::fill", range_policy<exec>(space, 0, stored),
      detail::SellpFillFunctor<typename csr_t::row_ptr_view, typename csr_t::col_view,
                               typename csr_t::val_view, typename result_t::index_view,
                               typename result_t::value_view>{
          row_ptr, csr_col, csr_val, sets, order, ordered, slices, rows, b, col, val});
  space.fence();
  return result_t(detail::trusted_layout, a.rows(), a.cols(), b, t, sets, lengths, col, val,
                  stored, a.nnz(), order);
}

/// Sellp -> Csr in the matrix's row order: counts each stored row's entries
/// (up to its first padding slot) into its matrix row (row_order), scans the
/// counts into the row pointer and copies the entries.
template <class ExecutionSpace, class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const ExecutionSpace& space, const Sellp<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  using exec = ExecutionSpace;
  const std::int64_t rows = a.rows(), nnz = a.nnz(), b = a.slice_size();
  const auto out = detail::CsrArrays<Value, Index, Device>::allocate(space, rows, nnz, options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<csr>");
  const auto &row_ptr = out.row_ptr, &col = out.col;
  const auto& val = out.val;
  const auto sets = a.slice_sets();
  const auto lengths = a.slice_lengths();
  const auto sellp_col = a.col_indices();
  const auto sellp_val = a.values();
  const auto order = a.row_order();
  const bool ordered = order.extent(0) != 0;
  detail::count_sellp_rows(space, sets, lengths, sellp_col, order, rows, b, row_ptr, 1,
                           "kobalt::convert<csr>::sellp_count");
  detail::scan_row_ptr(space, row_ptr, rows, "kobalt::convert<csr>::sellp_scan");
  Kokkos::parallel_for(
      "kobalt::convert<csr>::sellp_copy", range_policy<exec>(space, 0, rows),
      detail::SellpCopyRowFunctor<typename Sellp<Value, Index, Device>::index_view,
                                  typename Sellp<Value, Index, Device>::value_view>{
          sets, lengths, sellp_col, sellp_val, order, ordered, b, row_ptr, col, val});
  space.fence();
  return out.finish(space, a.rows(), a.cols());
}

/// to_sellp(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
Sellp<Value, Index, Device> to_sellp(const Csr<Value, Index, Device, Offset>& a,
    const sellp_params& params = {}) {
  return to_sellp(typename Device::execution_space(), a, params);
}
/// to_csr(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const Sellp<Value, Index, Device>& a,
    const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}

}  // namespace kobalt
