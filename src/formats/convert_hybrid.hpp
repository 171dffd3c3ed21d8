// SPDX-License-Identifier: BSD-3-Clause
// Csr <-> Hybrid on the device, for a given ELL width t (tuning::select
// resolves a hybrid::partition to t).
#pragma once

#include "../range.hpp"
#include "convert_coo.hpp"
#include "convert_ell.hpp"
#include "count_rows.hpp"
#include "csr.hpp"
#include "hybrid.hpp"
#include "storage_limit.hpp"
#include "csr_arrays.hpp"
#include "../compat.hpp"

#include <algorithm>
#include <cstdint>

namespace kobalt {

namespace detail {
/// Adds row i's entries beyond its first t to acc.
template <class IndexView>
struct HybridOverflowFunctor {
  using value_type = std::int64_t;
  IndexView row_ptr;
  std::int64_t t;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& acc) const {
    const std::int64_t len = row_ptr(i + 1) - row_ptr(i);
    if (len > t) acc += len - t;
  }
};

/// Entries of all rows beyond their first t (the COO part's size).
template <class ExecutionSpace, class IndexView>
std::int64_t hybrid_overflow(const ExecutionSpace& exec, const IndexView& row_ptr, std::int64_t rows, std::int64_t t) {
  std::int64_t total = 0;
  Kokkos::parallel_reduce(
      "kobalt::convert<hybrid>::coo_size", range_policy<ExecutionSpace>(exec, 0, rows),
      HybridOverflowFunctor<IndexView>{row_ptr, t},
      Kokkos::Sum<std::int64_t>(total));
  return total;
}

/// offset(i + 1) = row i's entries beyond its first t (counts, scanned later).
template <class RowPtr, class IndexView>
struct HybridCooCountFunctor {
  using Index = typename IndexView::non_const_value_type;
  RowPtr row_ptr;
  IndexView offset;
  std::int64_t t;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t len = row_ptr(i + 1) - row_ptr(i);
    offset(i + 1) = static_cast<Index>(len > t ? len - t : 0);
  }
};

/// COO entry dst of the hybrid: its row by bisection over the overflow
/// offsets, then the matching entry past that row's first t.
template <class RowPtr, class CsrCol, class CsrVal, class IndexView, class ValueView>
struct HybridCooFillFunctor {
  using Index = typename IndexView::non_const_value_type;
  RowPtr row_ptr;
  CsrCol csr_col;
  CsrVal csr_val;
  IndexView offset;
  std::int64_t rows, t;
  IndexView coo_row, coo_col;
  ValueView coo_val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t dst) const {
    const std::int64_t i = detail::row_of_entry(offset, rows, dst);
    const std::int64_t k = row_ptr(i) + t + (dst - offset(i));
    coo_row(dst) = static_cast<Index>(i);
    coo_col(dst) = csr_col(k);
    coo_val(dst) = csr_val(k);
  }
};

/// row_ptr(i + 1) += coo_ptr(i + 1): row i's COO count added to its ELL count.
template <class IndexView>
struct HybridAddCountsFunctor {
  IndexView row_ptr, coo_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    row_ptr(i + 1) += coo_ptr(i + 1);
  }
};

/// Places COO entry k of the hybrid at the end of its Csr row, after the
/// row's ELL entries.
template <class IndexView, class ValueView>
struct HybridCooCopyFunctor {
  IndexView coo_row, coo_col;
  ValueView coo_val;
  IndexView row_ptr, coo_ptr, col;
  ValueView val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const std::int64_t r = coo_row(k);
    // The row's COO entries end where the row ends: place them last.
    const std::int64_t dst = row_ptr(r + 1) - (coo_ptr(r + 1) - coo_ptr(r)) + (k - coo_ptr(r));
    col(dst) = coo_col(k);
    val(dst) = coo_val(k);
  }
};
}  // namespace detail

/// Csr -> Hybrid with ELL width t = p.ell_width, on `space`: each row's
/// first t entries go to the ELL part (stride rows), the rest, in order, to
/// the COO part. Throws invalid_parameter for t < 0 and format_too_large
/// (before allocating) when rows * t * (sizeof(Index) + sizeof(Value)) plus
/// the COO part exceed p.max_bytes (0: the device's memory).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
Hybrid<Value, Index, Device> to_hybrid(const ExecutionSpace& space,
                                       const Csr<Value, Index, Device, Offset>& a,
                                       const hybrid::layout& p) {
  using exec = ExecutionSpace;
  using result_t = Hybrid<Value, Index, Device>;
  using ell_t = typename result_t::ell_type;
  using coo_t = typename result_t::coo_type;
  using csr_t = Csr<Value, Index, Device, Offset>;
  using row_ptr_view = typename csr_t::row_ptr_view;
  compat::ScopedRegion region("kobalt::convert<hybrid>");
  if (p.ell_width < 0)
    throw invalid_parameter("kobalt::to_hybrid: ell_width = " + std::to_string(p.ell_width) +
                            " is negative");
  const std::int64_t t = p.ell_width;
  const std::int64_t rows = a.rows();
  const auto row_ptr = a.row_ptr();
  const std::int64_t coo_nnz = detail::hybrid_overflow(space, row_ptr, rows, t);
  const std::uint64_t ell_bytes = detail::saturating_mul(
      detail::saturating_mul(static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(t)),
      sizeof(Index) + sizeof(Value));
  check_storage<typename Device::memory_space>(
      "kobalt::to_hybrid",
      detail::saturating_add(ell_bytes,
                             detail::saturating_mul(static_cast<std::uint64_t>(coo_nnz),
                                                    2 * sizeof(Index) + sizeof(Value))),
      p.max_bytes);
  typename ell_t::index_view ell_col(compat::uninitialized("kobalt::hybrid::ell_col"), rows * t);
  typename ell_t::value_view ell_val(compat::uninitialized("kobalt::hybrid::ell_val"), rows * t);
  detail::fill_ell(space, row_ptr, a.col_indices(), a.values(), rows, t, rows, ell_col, ell_val,
                         "kobalt::convert<hybrid>::ell_fill");
  // COO part: row i's overflow starts at offset(i) = sum_{j<i} max(len_j - t, 0).
  typename coo_t::index_view offset(Kokkos::view_alloc(space, std::string("kobalt::hybrid::coo_offset")), rows + 1);
  Kokkos::parallel_for(
      "kobalt::convert<hybrid>::coo_count", range_policy<exec>(space, 0, rows),
      detail::HybridCooCountFunctor<row_ptr_view, typename coo_t::index_view>{row_ptr, offset, t});
  detail::scan_row_ptr(space, offset, rows, "kobalt::convert<hybrid>::coo_scan");
  typename coo_t::index_view coo_row(compat::uninitialized("kobalt::hybrid::coo_row"), coo_nnz);
  typename coo_t::index_view coo_col(compat::uninitialized("kobalt::hybrid::coo_col"), coo_nnz);
  typename coo_t::value_view coo_val(compat::uninitialized("kobalt::hybrid::coo_val"), coo_nnz);
  const auto csr_col = a.col_indices();
  const auto csr_val = a.values();
  // One thread per COO entry (a row of millions of entries is not one
  // thread's loop): its row by bisection over the overflow offsets.
  Kokkos::parallel_for(
      "kobalt::convert<hybrid>::coo_fill", range_policy<exec>(space, 0, coo_nnz),
      detail::HybridCooFillFunctor<row_ptr_view, typename csr_t::col_view,
                                   typename csr_t::val_view, typename coo_t::index_view,
                                   typename coo_t::value_view>{
          row_ptr, csr_col, csr_val, offset, rows, t, coo_row, coo_col, coo_val});
  space.fence();
  return result_t(ell_t(detail::trusted_layout, a.rows(), a.cols(), t, rows, ell_col, ell_val,
                        a.nnz() - coo_nnz),
                  coo_t(a.rows(), a.cols(), coo_row, coo_col, coo_val));
}

/// Hybrid -> Csr: row i is its ELL entries followed by its COO entries (the
/// ELL part holds each row's first entries), so the merge per row is a
/// concatenation: counts of both parts -> scan -> two copies.
template <class ExecutionSpace, class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const ExecutionSpace& space, const Hybrid<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  using exec = ExecutionSpace;
  using result_t = Csr<Value, Index, Device>;
  const std::int64_t rows = a.rows(), nnz = a.nnz();
  const auto out = detail::CsrArrays<Value, Index, Device>::allocate(space, rows, nnz, options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<csr>");
  const auto &row_ptr = out.row_ptr, &col = out.col;
  const auto& val = out.val;
  const auto& ell = a.ell();
  const auto& coo = a.coo();
  typename result_t::index_view coo_ptr(Kokkos::view_alloc(space, std::string("kobalt::hybrid::coo_ptr")), rows + 1);
  detail::count_ell_rows(space, ell.col_indices(), rows, ell.stored_per_row(), ell.stride(),
                         row_ptr, 1, "kobalt::convert<csr>::hybrid_ell_count");
  const auto coo_row = coo.row_indices();
  detail::count_entries_per_row(space, coo_row, coo_ptr, 1,
                                "kobalt::convert<csr>::hybrid_coo_count");
  Kokkos::parallel_for(
      "kobalt::convert<csr>::hybrid_add_counts", range_policy<exec>(space, 0, rows),
      detail::HybridAddCountsFunctor<typename result_t::index_view>{row_ptr, coo_ptr});
  detail::scan_row_ptr(space, row_ptr, rows, "kobalt::convert<csr>::hybrid_scan");
  detail::scan_row_ptr(space, coo_ptr, rows, "kobalt::convert<csr>::hybrid_coo_scan");
  detail::copy_ell_rows(space, ell.col_indices(), ell.values(), rows, ell.stored_per_row(),
                              ell.stride(), row_ptr, col, val,
                              "kobalt::convert<csr>::hybrid_ell_copy");
  const auto coo_col = coo.col_indices();
  const auto coo_val = coo.values();
  Kokkos::parallel_for(
      "kobalt::convert<csr>::hybrid_coo_copy", range_policy<exec>(space, 0, coo.nnz()),
      detail::HybridCooCopyFunctor<typename result_t::index_view, typename result_t::value_view>{
          coo_row, coo_col, coo_val, row_ptr, coo_ptr, col, val});
  space.fence();
  return out.finish(space, a.rows(), a.cols());
}

/// to_hybrid(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
Hybrid<Value, Index, Device> to_hybrid(const Csr<Value, Index, Device, Offset>& a,
    const hybrid::layout& p) {
  return to_hybrid(typename Device::execution_space(), a, p);
}
/// to_csr(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const Hybrid<Value, Index, Device>& a,
    const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}

}  // namespace kobalt
