// SPDX-License-Identifier: BSD-3-Clause
// Csr <-> AlignedCoo on the device. The layout is planned on the host from
// the row lengths (aligned_coo_plan.hpp: 004 Alg. 1 and next-fit packing are
// sequential); every column index and value moves on the device.
#pragma once

#include "aligned_coo.hpp"
#include "aligned_coo_plan.hpp"
#include "convert_coo.hpp"
#include "count_rows.hpp"
#include "csr.hpp"
#include "storage_limit.hpp"
#include "csr_arrays.hpp"
#include "../compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kobalt {

namespace detail {
/// Copies a host vector into a new device View of element type T.
template <class T, class Device, class ExecutionSpace>
Kokkos::View<T*, Device> upload_plan(const ExecutionSpace& exec, const std::vector<std::int64_t>& h,
                                     const char* label) {
  Kokkos::View<T*, Device> d(compat::uninitialized(label), h.size());
  auto m = Kokkos::create_mirror_view(d);
  for (std::size_t k = 0; k < h.size(); ++k) m(k) = static_cast<T>(h[k]);
  Kokkos::deep_copy(exec, d, m);
  exec.fence();  // m is a local host buffer
  return d;
}
}  // namespace detail

/// Csr -> AlignedCoo (004) with a concrete layout (see aligned_coo.hpp), on
/// `space`. Throws invalid_parameter for bad parameters, index_overflow when
/// the lanes do not fit Index, format_too_large (before allocating) when the
/// result would exceed p.max_bytes. Values are copied bit for bit.
template <class ExecutionSpace, class Value, class Index, class Device>
AlignedCoo<Value, Index, Device> to_aligned_coo(const ExecutionSpace& space,
                                                const Csr<Value, Index, Device>& a,
                                                const aligned_coo::layout& p) {
  using exec = ExecutionSpace;
  using result_t = AlignedCoo<Value, Index, Device>;
  using index_view = typename result_t::index_view;
  using value_view = typename result_t::value_view;
  aligned_coo::validate(p);
  compat::ScopedRegion region("kobalt::convert<aligned_coo>");
  space.fence();  // a's row pointer is read on the host below
  const Index rows = a.rows();

  // The row lengths are the O(rows) metadata the sequential planning needs.
  std::vector<std::int64_t> row_len(rows);
  {
    auto row_ptr_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
    for (Index i = 0; i < rows; ++i) row_len[i] = row_ptr_h(i + 1) - row_ptr_h(i);
  }
  auto plan = detail::plan_layout(row_len, p);
  const Index seg_size = checked_index<Index>(plan.shape.seg_size, "aligned_coo seg_size");
  const Index num_seg = checked_index<Index>(plan.shape.num_seg, "aligned_coo num_seg");
  check_storage<typename Device::memory_space>(
      "kobalt::to_aligned_coo",
      detail::planned_bytes(plan, 2 * sizeof(Index) + sizeof(Value)), p.max_bytes);
  detail::pack_rows(plan, row_len, p.flat_unit);

  const std::int64_t slots = static_cast<std::int64_t>(seg_size) * num_seg;
  index_view seg_row(compat::uninitialized("kobalt::aligned_coo::seg_row"), slots);
  index_view seg_col(compat::uninitialized("kobalt::aligned_coo::seg_col"), slots);
  value_view seg_val(compat::uninitialized("kobalt::aligned_coo::seg_val"), slots);
  index_view flat_row(compat::uninitialized("kobalt::aligned_coo::flat_row"), plan.flat_nnz);
  index_view flat_col(compat::uninitialized("kobalt::aligned_coo::flat_col"), plan.flat_nnz);
  value_view flat_val(compat::uninitialized("kobalt::aligned_coo::flat_val"), plan.flat_nnz);
  const auto row_slot =
      detail::upload_plan<std::int64_t, Device>(space, plan.row_slot, "kobalt::aligned_coo::row_slot");
  const auto lane_row =
      detail::upload_plan<Index, Device>(space, plan.lane_row, "kobalt::aligned_coo::lane_row");

  const auto row_ptr = a.row_ptr();
  const auto col = a.col_indices();
  const auto val = a.values();
  const aligned_coo::split split = plan.split;
  const std::int64_t unit = p.flat_unit;

  // 1. Padding everywhere: col -1, value 0, the lane's own row (lane-local).
  Kokkos::parallel_for(
      "kobalt::convert<aligned_coo>::pad", Kokkos::RangePolicy<exec>(space, 0, slots),
      KOKKOS_LAMBDA(const std::int64_t k) {
        seg_row(k) = lane_row(k % seg_size);
        seg_col(k) = padding_index<Index>;
        seg_val(k) = Value(0);
      });
  // 2. Each row's last aligned_coo_seg_length entries into its lane, one segment apart.
  Kokkos::parallel_for(
      "kobalt::convert<aligned_coo>::seg", Kokkos::RangePolicy<exec>(space, 0, rows),
      KOKKOS_LAMBDA(const Index i) {
        const std::int64_t rl = row_ptr(i + 1) - row_ptr(i);
        const std::int64_t n = detail::aligned_coo_seg_length(rl, split, unit);
        const std::int64_t src = row_ptr(i) + (rl - n);
        for (std::int64_t k = 0; k < n; ++k) {
          const std::int64_t slot = row_slot(i) + k * seg_size;
          seg_row(slot) = i;
          seg_col(slot) = col(src + k);
          seg_val(slot) = val(src + k);
        }
      });
  // 3. Each row's first rl - aligned_coo_seg_length entries into the flat Coo, at the
  //    offsets of an exclusive scan of those counts.
  if (plan.flat_nnz > 0) {
    index_view flat_ptr(Kokkos::view_alloc(space, std::string("kobalt::aligned_coo::flat_ptr")),
                        static_cast<std::size_t>(rows) + 1);
    Kokkos::parallel_scan(
        "kobalt::convert<aligned_coo>::flat_scan", Kokkos::RangePolicy<exec>(space, 0, rows),
        KOKKOS_LAMBDA(const Index i, Index& partial, const bool final) {
          const std::int64_t rl = row_ptr(i + 1) - row_ptr(i);
          partial += static_cast<Index>(rl - detail::aligned_coo_seg_length(rl, split, unit));
          if (final) flat_ptr(i + 1) = partial;
        });
    Kokkos::parallel_for(
        "kobalt::convert<aligned_coo>::flat", Kokkos::RangePolicy<exec>(space, 0, rows),
        KOKKOS_LAMBDA(const Index i) {
          for (Index k = 0; k < flat_ptr(i + 1) - flat_ptr(i); ++k) {
            flat_row(flat_ptr(i) + k) = i;
            flat_col(flat_ptr(i) + k) = col(row_ptr(i) + k);
            flat_val(flat_ptr(i) + k) = val(row_ptr(i) + k);
          }
        });
  }
  return result_t(space, rows, a.cols(), seg_size, num_seg, seg_row, seg_col, seg_val,
                  Coo<Value, Index, Device>(rows, a.cols(), flat_row, flat_col, flat_val),
                  split, p.flat_unit);
}

/// AlignedCoo -> Csr: per row, its flat entries followed by its seg entries
/// (the flat part holds a row's first entries in column order, the seg part
/// its last), so the result is sorted and equals the Csr it was made from.
template <class ExecutionSpace, class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const ExecutionSpace& space,
                                 const AlignedCoo<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  using exec = ExecutionSpace;
  using result_t = Csr<Value, Index, Device>;
  using index_view = typename result_t::index_view;
  const Index rows = a.rows();
  const std::int64_t nnz = a.nnz();
  const auto out =
      detail::CsrArrays<Value, Index, Device>::allocate(space, rows, nnz, options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<csr>");
  const auto &row_ptr = out.row_ptr, &col = out.col;
  const auto& val = out.val;
  index_view flat_ptr(Kokkos::view_alloc(space, std::string("kobalt::csr::flat_ptr")),
                      static_cast<std::size_t>(rows) + 1);
  index_view seg_count(Kokkos::view_alloc(space, std::string("kobalt::csr::seg_count")), rows);
  const auto flat_row = a.flat().row_indices();
  const auto flat_col = a.flat().col_indices();
  const auto flat_val = a.flat().values();
  const auto seg_row = a.seg_row_indices();
  const auto seg_col = a.seg_col_indices();
  const auto seg_val = a.seg_values();
  const Index seg_size = a.seg_size(), num_seg = a.num_segments();

  // Flat entries per row (then scanned to their start offsets), and seg
  // entries per row.
  detail::count_entries_per_row(space, flat_row, flat_ptr, 1, "kobalt::convert<csr>::flat_count");
  detail::scan_row_ptr(space, flat_ptr, rows, "kobalt::convert<csr>::flat_scan");
  detail::add_seg_runs(space, seg_row, seg_col, seg_size, num_seg, seg_count,
                       "kobalt::convert<csr>::seg_count");
  Kokkos::parallel_scan(
      "kobalt::convert<csr>::scan", Kokkos::RangePolicy<exec>(space, 0, rows),
      KOKKOS_LAMBDA(const Index i, Index& partial, const bool final) {
        partial += (flat_ptr(i + 1) - flat_ptr(i)) + seg_count(i);
        if (final) row_ptr(i + 1) = partial;
      });
  // Flat entries first within their row ...
  Kokkos::parallel_for(
      "kobalt::convert<csr>::flat", Kokkos::RangePolicy<exec>(space, 0, a.flat().nnz()),
      KOKKOS_LAMBDA(const std::int64_t k) {
        const Index r = flat_row(k);
        const std::int64_t dst = row_ptr(r) + (k - flat_ptr(r));
        col(dst) = flat_col(k);
        val(dst) = flat_val(k);
      });
  // ... then the seg entries, walked lane by lane.
  Kokkos::parallel_for(
      "kobalt::convert<csr>::seg", Kokkos::RangePolicy<exec>(space, 0, seg_size),
      KOKKOS_LAMBDA(const Index lane) {
        Index current = padding_index<Index>;
        std::int64_t dst = 0;
        for (Index s = 0; s < num_seg; ++s) {
          const std::int64_t slot = static_cast<std::int64_t>(s) * seg_size + lane;
          if (seg_col(slot) == padding_index<Index>) break;
          if (seg_row(slot) != current) {
            current = seg_row(slot);
            dst = row_ptr(current) + (flat_ptr(current + 1) - flat_ptr(current));
          }
          col(dst) = seg_col(slot);
          val(dst) = seg_val(slot);
          ++dst;
        }
      });
  return out.finish(space, rows, a.cols());
}

// The same conversions on the default instance of the matrix's execution space.
template <class Value, class Index, class Device>
AlignedCoo<Value, Index, Device> to_aligned_coo(const Csr<Value, Index, Device>& a,
                                                const aligned_coo::layout& p) {
  return to_aligned_coo(typename Device::execution_space(), a, p);
}
template <class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const AlignedCoo<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}

}  // namespace kobalt
