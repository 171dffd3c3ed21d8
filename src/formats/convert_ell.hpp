// SPDX-License-Identifier: BSD-3-Clause
// Csr <-> Ell on the device.
#pragma once

#include "../range.hpp"
#include "convert_coo.hpp"
#include "count_rows.hpp"
#include "csr.hpp"
#include "csr_arrays.hpp"
#include "ell.hpp"
#include "storage_limit.hpp"
#include "../compat.hpp"

#include <cstdint>
#include <string>

namespace kobalt {

namespace detail {
/// Lowers m to row i when row i has more than `width` entries.
template <class IndexView>
struct EllLongRowFunctor {
  using value_type = std::int64_t;
  IndexView row_ptr;
  std::int64_t width;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& m) const {
    if (static_cast<std::int64_t>(row_ptr(i + 1) - row_ptr(i)) > width && i < m) m = i;
  }
};

/// First row longer than `width` (rows if none), on the device.
template <class ExecutionSpace, class IndexView>
std::int64_t first_row_longer_than(const ExecutionSpace& exec, const IndexView& row_ptr, std::int64_t rows,
                                   std::int64_t width) {
  std::int64_t first = rows;
  Kokkos::parallel_reduce(
      "kobalt::convert<ell>::find_long_row", range_policy<ExecutionSpace>(exec, 0, rows),
      EllLongRowFunctor<IndexView>{row_ptr, width},
      Kokkos::Min<std::int64_t>(first));
  return first;
}

/// Row i of a CSR row pointer has how many entries (two scalars copied back).
template <class IndexView>
std::int64_t host_row_length(const IndexView& row_ptr, std::int64_t i) {
  auto pair = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(row_ptr, Kokkos::make_pair(i, i + 2)));
  return static_cast<std::int64_t>(pair(1) - pair(0));
}

/// ELL row i: CSR row i's first min(len, width) entries in slots
/// k * stride + i, padding in the rest (all padding for i >= rows).
template <class RowPtr, class CsrCol, class CsrVal, class IndexView, class ValueView>
struct EllFillFunctor {
  using Index = typename IndexView::non_const_value_type;
  using Value = typename ValueView::non_const_value_type;
  RowPtr row_ptr;
  CsrCol csr_col;
  CsrVal csr_val;
  std::int64_t rows, width, stride;
  IndexView col;
  ValueView val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    std::int64_t k = 0;
    if (i < rows) {
      const std::int64_t first = row_ptr(i);
      const std::int64_t len = row_ptr(i + 1) - first;
      for (; k < len && k < width; ++k) {
        col(k * stride + i) = csr_col(first + k);
        val(k * stride + i) = csr_val(first + k);
      }
    }
    for (; k < width; ++k) {
      col(k * stride + i) = padding_index<Index>;
      val(k * stride + i) = Value(0);
    }
  }
};

/// Writes the first min(len, width) entries of every CSR row into ELL slots
/// k * stride + i and pads the rest (rows >= rows are all padding). One
/// thread per padded row: consecutive threads write consecutive addresses.
template <class ExecutionSpace, class RowPtr, class CsrCol, class CsrVal, class IndexView,
          class ValueView>
void fill_ell(const ExecutionSpace& exec, const RowPtr& row_ptr, const CsrCol& csr_col,
              const CsrVal& csr_val, std::int64_t rows, std::int64_t width, std::int64_t stride,
              const IndexView& col, const ValueView& val, const char* label) {
  Kokkos::parallel_for(
      label, range_policy<ExecutionSpace>(exec, 0, stride),
      EllFillFunctor<RowPtr, CsrCol, CsrVal, IndexView, ValueView>{
          row_ptr, csr_col, csr_val, rows, width, stride, col, val});
}

/// Copies ELL row i's entries, up to its first padding slot, to the CSR
/// arrays from offset row_ptr(i) on.
template <class IndexView, class ValueView>
struct EllCopyRowFunctor {
  IndexView col;
  ValueView val;
  std::int64_t width, stride;
  IndexView row_ptr, csr_col;
  ValueView csr_val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t first = row_ptr(i);
    for (std::int64_t k = 0; k < width; ++k) {
      const auto c = col(k * stride + i);
      if (c < 0) break;
      csr_col(first + k) = c;
      csr_val(first + k) = val(k * stride + i);
    }
  }
};

/// Copies the entries of each ELL row to the CSR arrays from offset
/// row_ptr(i) on. Rows hold their entries first, so the copy stops at the
/// first padding slot.
template <class ExecutionSpace, class IndexView, class ValueView>
void copy_ell_rows(const ExecutionSpace& exec, const IndexView& col, const ValueView& val, std::int64_t rows,
                   std::int64_t width, std::int64_t stride, const IndexView& row_ptr,
                   const IndexView& csr_col, const ValueView& csr_val, const char* label) {
  Kokkos::parallel_for(
      label, range_policy<ExecutionSpace>(exec, 0, rows),
      EllCopyRowFunctor<IndexView, ValueView>{col, val, width, stride, row_ptr, csr_col, csr_val});
}

}  // namespace detail

/// Csr -> Ell with params.stored_per_row slots per row (0 = the longest row)
/// and params.stride (0 = rows). Throws invalid_parameter when the width is
/// below the longest row (naming that row) or stride < rows, and
/// format_too_large (before allocating) when stride * width * (sizeof(Index)
/// + sizeof(Value)) bytes exceed params.max_bytes (0: the device's memory).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
Ell<Value, Index, Device> to_ell(const ExecutionSpace& space,
                                 const Csr<Value, Index, Device, Offset>& a,
                                 const ell_params& params = {}) {
  using result_t = Ell<Value, Index, Device>;
  const std::int64_t rows = a.rows();
  if (params.stored_per_row < 0)
    throw invalid_parameter("kobalt::to_ell: stored_per_row = " +
                            std::to_string(params.stored_per_row) + " is negative");
  if (params.stride < 0)
    throw invalid_parameter("kobalt::to_ell: stride = " + std::to_string(params.stride) +
                            " is negative");
  const std::int64_t longest = a.max_row_nnz();
  const std::int64_t width = params.stored_per_row == 0 ? longest : params.stored_per_row;
  if (width < longest) {
    const std::int64_t row = detail::first_row_longer_than(space, a.row_ptr(), rows, width);
    throw invalid_parameter("kobalt::to_ell: stored_per_row = " + std::to_string(width) +
                            " is below the length of row " + std::to_string(row) + " (" +
                            std::to_string(detail::host_row_length(a.row_ptr(), row)) +
                            " entries; the longest row has " + std::to_string(longest) + ")");
  }
  const std::int64_t stride = params.stride == 0 ? rows : params.stride;
  if (stride < rows)
    throw invalid_parameter("kobalt::to_ell: stride = " + std::to_string(stride) +
                            " is below the row count " + std::to_string(rows));
  check_storage<typename Device::memory_space>(
      "kobalt::to_ell",
      detail::saturating_mul(detail::saturating_mul(static_cast<std::uint64_t>(stride),
                                                    static_cast<std::uint64_t>(width)),
                             sizeof(Index) + sizeof(Value)),
      params.max_bytes);
  compat::ScopedRegion region("kobalt::convert<ell>");
  typename result_t::index_view col(compat::uninitialized("kobalt::ell::col"), stride * width);
  typename result_t::value_view val(compat::uninitialized("kobalt::ell::val"), stride * width);
  detail::fill_ell(space, a.row_ptr(), a.col_indices(), a.values(), rows, width, stride, col, val,
                         "kobalt::convert<ell>::fill");
  space.fence();
  return result_t(detail::trusted_layout, a.rows(), a.cols(), width, stride, col, val, a.nnz());
}

/// Ell -> Csr: counts each row's entries (up to its first padding slot),
/// scans the counts into the row pointer and copies the entries.
template <class ExecutionSpace, class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const ExecutionSpace& space, const Ell<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  const std::int64_t rows = a.rows(), nnz = a.nnz();
  const auto out = detail::CsrArrays<Value, Index, Device>::allocate(space, rows, nnz, options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<csr>");
  const auto &row_ptr = out.row_ptr, &col = out.col;
  const auto& val = out.val;
  detail::count_ell_rows(space, a.col_indices(), rows, a.stored_per_row(), a.stride(), row_ptr, 1,
                         "kobalt::convert<csr>::ell_count");
  detail::scan_row_ptr(space, row_ptr, rows, "kobalt::convert<csr>::ell_scan");
  detail::copy_ell_rows(space, a.col_indices(), a.values(), rows, a.stored_per_row(), a.stride(),
                              row_ptr, col, val, "kobalt::convert<csr>::ell_copy");
  space.fence();
  return out.finish(space, a.rows(), a.cols());
}

/// to_ell(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
Ell<Value, Index, Device> to_ell(const Csr<Value, Index, Device, Offset>& a,
    const ell_params& params = {}) {
  return to_ell(typename Device::execution_space(), a, params);
}
/// to_csr(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const Ell<Value, Index, Device>& a,
    const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}

}  // namespace kobalt
