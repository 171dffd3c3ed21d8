// SPDX-License-Identifier: BSD-3-Clause
// row_lengths(exec, A): the stored entries of every row of a format
// (explicit zeros count, padding never does), on the device, in the row
// numbering the format stores (a permuted CsrK gives its permuted rows).
// tuning::analyze reads these for formats without a row pointer.
#pragma once

#include "aligned_coo.hpp"
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

/// len(i) += entries of row i in a (row, col) entry list.
template <class ExecutionSpace, class IndexView, class Device>
void add_coo_lengths(const ExecutionSpace& exec, const IndexView& row,
                     const length_view<Device>& len) {
  Kokkos::parallel_for(
      "kobalt::row_lengths<coo>",
      Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<std::int64_t>(row.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t k) {
        Kokkos::atomic_add(&len(static_cast<std::int64_t>(row(k))), std::int64_t(1));
      });
}

/// len(i) = slots of ELL row i before its first padding slot.
template <class ExecutionSpace, class Matrix, class Device>
void set_ell_lengths(const ExecutionSpace& exec, const Matrix& a, const length_view<Device>& len) {
  const auto col = a.col_indices();
  const std::int64_t width = a.stored_per_row(), stride = a.stride();
  Kokkos::parallel_for(
      "kobalt::row_lengths<ell>", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, a.rows()),
      KOKKOS_LAMBDA(const std::int64_t i) {
        std::int64_t k = 0;
        while (k < width && col(k * stride + i) >= 0) ++k;
        len(i) = k;
      });
}

template <class Device, class ExecutionSpace>
length_view<Device> zeroed_lengths(const ExecutionSpace& exec, std::int64_t rows) {
  return length_view<Device>(Kokkos::view_alloc(exec, std::string("kobalt::row_lengths")), rows);
}
}  // namespace detail

template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Csr<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  const auto ptr = a.row_ptr();
  Kokkos::parallel_for(
      "kobalt::row_lengths<csr>", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, a.rows()),
      KOKKOS_LAMBDA(const std::int64_t i) { len(i) = ptr(i + 1) - ptr(i); });
  return len;
}

template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Coo<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::add_coo_lengths(exec, a.row_indices(), len);
  return len;
}

template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Ell<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::set_ell_lengths(exec, a, len);
  return len;
}

template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Sellp<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  const auto sets = a.slice_sets();
  const auto widths = a.slice_lengths();
  const auto col = a.col_indices();
  const std::int64_t b = a.slice_size();
  Kokkos::parallel_for(
      "kobalt::row_lengths<sellp>", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, a.rows()),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t s = i / b, r = i % b, base = sets(s), width = widths(s);
        std::int64_t k = 0;
        while (k < width && col(base + k * b + r) >= 0) ++k;
        len(i) = k;
      });
  return len;
}

template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const Hybrid<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::set_ell_lengths(exec, a.ell(), len);
  detail::add_coo_lengths(exec, a.coo().row_indices(), len);
  return len;
}

template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const CsrK<Value, Index, Device>& a) {
  return row_lengths(exec, a.matrix());
}

template <class ExecutionSpace, class Value, class Index, class Device>
detail::length_view<Device> row_lengths(const ExecutionSpace& exec,
                                        const AlignedCoo<Value, Index, Device>& a) {
  auto len = detail::zeroed_lengths<Device>(exec, a.rows());
  detail::add_coo_lengths(exec, a.flat().row_indices(), len);
  const auto seg_row = a.seg_row_indices();
  const auto seg_col = a.seg_col_indices();
  const Index seg_size = a.seg_size(), num_seg = a.num_segments();
  // Each row is one run in one lane: walk the lanes, add each run once.
  Kokkos::parallel_for(
      "kobalt::row_lengths<aligned_coo>", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, seg_size),
      KOKKOS_LAMBDA(const std::int64_t lane) {
        for (std::int64_t s = 0; s < num_seg; ++s) {
          const std::int64_t slot = s * seg_size + lane;
          if (seg_col(slot) == padding_index<Index>) break;
          Kokkos::atomic_add(&len(static_cast<std::int64_t>(seg_row(slot))), std::int64_t(1));
        }
      });
  return len;
}

}  // namespace kobalt
