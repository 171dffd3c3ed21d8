// SPDX-License-Identifier: BSD-3-Clause
// Csr <-> Coo on the device.
#pragma once

#include "../range.hpp"
#include "coo.hpp"
#include "count_rows.hpp"
#include "csr.hpp"
#include "csr_arrays.hpp"
#include "storage_limit.hpp"
#include "../compat.hpp"

#include <cstdint>
#include <type_traits>

namespace kobalt {

/// Options shared by conversions that add no format parameters.
struct convert_options {
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
};

namespace detail {
/// row(e) = the row of entry e, by bisection over the row pointer.
template <class IndexView, class RowPtr>
struct CooRowOfEntryFunctor {
  using Index = typename IndexView::non_const_value_type;
  IndexView row;
  RowPtr row_ptr;
  Index rows;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    row(e) = static_cast<Index>(detail::row_of_entry(row_ptr, rows, e));
  }
};
}  // namespace detail

/// Csr -> Coo: expands the row pointer into one row index per entry.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
Coo<Value, Index, Device> to_coo(const ExecutionSpace& space,
                                 const Csr<Value, Index, Device, Offset>& a,
                                 const convert_options& options = {}) {
  using exec = ExecutionSpace;
  using result_t = Coo<Value, Index, Device>;
  const std::int64_t nnz = a.nnz();
  check_storage<typename Device::memory_space>(
      "kobalt::to_coo",
      detail::saturating_mul(static_cast<std::uint64_t>(nnz), 2 * sizeof(Index) + sizeof(Value)),
      options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<coo>");
  typename result_t::index_view row(compat::uninitialized("kobalt::coo::row"), nnz);
  typename result_t::index_view col(compat::uninitialized("kobalt::coo::col"), nnz);
  typename result_t::value_view val(compat::uninitialized("kobalt::coo::val"), nnz);
  const auto row_ptr = a.row_ptr();
  const Index rows = a.rows();
  Kokkos::parallel_for(
      "kobalt::convert<coo>::rows", range_policy<exec>(space, 0, nnz),
      detail::CooRowOfEntryFunctor<typename result_t::index_view,
                                   typename Csr<Value, Index, Device, Offset>::row_ptr_view>{
          row, row_ptr, rows});
  Kokkos::deep_copy(space, col, a.col_indices());
  Kokkos::deep_copy(space, val, a.values());
  space.fence();
  return result_t(a.rows(), a.cols(), row, col, val);
}

/// Coo -> Csr: counts entries per row and scans the counts.
template <class ExecutionSpace, class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const ExecutionSpace& space, const Coo<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  const std::int64_t nnz = a.nnz();
  const auto out = detail::CsrArrays<Value, Index, Device>::allocate(space, a.rows(), nnz, options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<csr>");
  const auto row = a.row_indices();
  const auto row_ptr = out.row_ptr;
  detail::count_entries_per_row(space, row, row_ptr, 1, "kobalt::convert<csr>::count");
  detail::scan_row_ptr(space, row_ptr, a.rows(), "kobalt::convert<csr>::scan");
  Kokkos::deep_copy(space, out.col, a.col_indices());
  Kokkos::deep_copy(space, out.val, a.values());
  space.fence();
  return out.finish(space, a.rows(), a.cols());
}

/// Csr -> Csr is a copy, so generic code can convert any format to Csr. The
/// copy has Index offsets, as every conversion's Csr: a matrix with other
/// offsets (a wrapped KokkosSparse matrix's size_t) has them converted,
/// index_overflow if nnz does not fit Index.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
Csr<Value, Index, Device> to_csr(const ExecutionSpace& space,
                                 const Csr<Value, Index, Device, Offset>& a,
                                 const convert_options& options = {}) {
  const auto out = detail::CsrArrays<Value, Index, Device>::allocate(space, a.rows(), a.nnz(),
                                                                     options.max_bytes);
  if constexpr (std::is_same_v<Offset, Index>)
    Kokkos::deep_copy(space, out.row_ptr, a.row_ptr());
  else
    detail::copy_offsets(space, a.row_ptr(), out.row_ptr, "kobalt::convert<csr>::offsets");
  Kokkos::deep_copy(space, out.col, a.col_indices());
  Kokkos::deep_copy(space, out.val, a.values());
  space.fence();
  return out.finish(space, a.rows(), a.cols());
}

/// to_coo(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
Coo<Value, Index, Device> to_coo(const Csr<Value, Index, Device, Offset>& a,
    const convert_options& options = {}) {
  return to_coo(typename Device::execution_space(), a, options);
}
/// to_csr(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const Coo<Value, Index, Device>& a,
    const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}
/// to_csr(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
Csr<Value, Index, Device> to_csr(const Csr<Value, Index, Device, Offset>& a,
    const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}

}  // namespace kobalt
