// SPDX-License-Identifier: BSD-3-Clause
// row_lengths(exec, A): the stored entries of every row of a format
// (explicit zeros count, padding never does), on the device, in the row
// numbering the format stores (a permuted CsrK gives its permuted rows).
// tuning::analyze reads these for formats without a row pointer.
#pragma once

#include "../range.hpp"
#include "aligned_coo.hpp"
#include "count_rows.hpp"
#include "coo.hpp"
#include "csr.hpp"
#include "csrk.hpp"
#include "ell.hpp"
#include "hybrid.hpp"
#include "sellp.hpp"
#include "../compat.hpp"

#include <cstdint>
#include <string>

namespace kobalt {

namespace detail {
template <class Device>
using length_view = Kokkos::View<std::int64_t*, Device>;

template <class Device, class ExecutionSpace>
length_view<Device> zeroed_lengths(const ExecutionSpace& exec, std::int64_t rows) {
  return length_view<Device>(Kokkos::view_alloc(exec, std::string("kobalt::row_lengths")), rows);
}

/// len(i) = row i's length from the row pointer ptr.
template <class LengthView, class RowPtr>
struct CsrRowLengthFunctor {
  LengthView len;
  RowPtr ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    len(i) = ptr(i + 1) - ptr(i);
  }
};
}  // namespace detail

/// Stored entries of each row of a Csr (padding excluded), as a device View
/// of rows() lengths computed on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Csr<Value, Index, Device, Offset>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  const auto ptr = a.row_ptr();
  Kokkos::parallel_for(
      "kobalt::row_lengths<csr>", range_policy<ExecutionSpace>(exec, 0, a.rows()),
      detail::CsrRowLengthFunctor<detail::length_view<Device>,
                                  typename Csr<Value, Index, Device, Offset>::row_ptr_view>{
          len, ptr});
  return len;
}

/// Stored entries of each row of a Coo (padding excluded), as a device View
/// of rows() lengths computed on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Coo<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::count_entries_per_row(exec, a.row_indices(), len, 0, "kobalt::row_lengths<coo>");
  return len;
}

/// Stored entries of each row of a Ell (padding excluded), as a device View
/// of rows() lengths computed on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Ell<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::count_ell_rows(exec, a.col_indices(), a.rows(), a.stored_per_row(), a.stride(), len, 0,
                         "kobalt::row_lengths<ell>");
  return len;
}

/// Stored entries of each row of a Sellp (padding excluded), as a device View
/// of rows() lengths computed on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Sellp<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::count_sellp_rows(exec, a.slice_sets(), a.slice_lengths(), a.col_indices(),
                           a.row_order(), a.rows(), a.slice_size(), len, 0,
                           "kobalt::row_lengths<sellp>");
  return len;
}

/// Stored entries of each row of a Hybrid (padding excluded), as a device View
/// of rows() lengths computed on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Hybrid<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  const auto& ell = a.ell();
  detail::count_ell_rows(exec, ell.col_indices(), a.rows(), ell.stored_per_row(), ell.stride(), len,
                         0, "kobalt::row_lengths<hybrid>::ell");
  detail::count_entries_per_row(exec, a.coo().row_indices(), len, 0,
                                "kobalt::row_lengths<hybrid>::coo");
  return len;
}

/// Stored entries of each row of a CsrK (padding excluded), as a device View
/// of rows() lengths computed on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const CsrK<Value, Index, Device>& a) {
  return row_lengths(exec, a.matrix());
}

/// Stored entries of each row of a AlignedCoo (padding excluded), as a device View
/// of rows() lengths computed on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const AlignedCoo<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::count_entries_per_row(exec, a.flat().row_indices(), len, 0,
                                "kobalt::row_lengths<aligned_coo>::flat");
  detail::add_seg_runs(exec, a.seg_row_indices(), a.seg_col_indices(), a.seg_size(),
                       a.num_segments(), len, "kobalt::row_lengths<aligned_coo>::seg");
  return len;
}

}  // namespace kobalt
