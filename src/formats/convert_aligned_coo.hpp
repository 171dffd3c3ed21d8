// SPDX-License-Identifier: BSD-3-Clause
// Csr <-> AlignedCoo on the device: the layout is planned from the row
// pointer (aligned_coo_plan.hpp, next-fit packing by pointer doubling in
// next_fit.hpp), then every column index and value moves.
#pragma once

#include "../range.hpp"
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
#include <type_traits>
#include <vector>

namespace kobalt {

namespace detail {
/// Where each lane starts in the seg prefix (lane_start(lanes) = seg_nnz).
template <class Index, class Prefix, class LaneOf, class IndexView>
struct AlignedCooLaneStartFunctor {
  Prefix prefix;
  LaneOf lane_of;
  IndexView lane_start;
  std::int64_t lanes;
  Index seg_nnz;
  KOKKOS_INLINE_FUNCTION void operator()(const Index i) const {
    if (prefix(i + 1) == prefix(i)) return;
    const Index lane = lane_of(i);
    if (i == 0 || lane_of(i - 1) != lane) lane_start(lane) = prefix(i);  // starts its lane
    if (lane == lanes - 1 && prefix(i + 1) == seg_nnz) lane_start(lanes) = seg_nnz;
  }
};

/// The row of each lane's last entry (the row its padding repeats).
template <class Index, class Prefix, class LaneOf, class IndexView>
struct AlignedCooLaneRowFunctor {
  Prefix prefix;
  LaneOf lane_of;
  IndexView lane_start, lane_row;
  KOKKOS_INLINE_FUNCTION void operator()(const Index i) const {
    if (prefix(i + 1) != prefix(i) && prefix(i + 1) == lane_start(lane_of(i) + 1))
      lane_row(lane_of(i)) = i;  // ends its lane
  }
};

/// Fills every seg slot with padding: column -1, value 0, the lane's row.
template <class Index, class IndexView, class ValueView>
struct AlignedCooPadFunctor {
  IndexView seg_row, seg_col;
  ValueView seg_val;
  IndexView lane_row;
  Index seg_size;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    using value = typename ValueView::non_const_value_type;
    seg_row(k) = lane_row(k % seg_size);
    seg_col(k) = padding_index<Index>;
    seg_val(k) = value(0);
  }
};

/// Moves CSR entry e into its seg slot or its place in the flat Coo.
template <class Index, class RowPtr, class Prefix, class LaneOf, class IndexView, class ColView,
          class ValView, class ValueView>
struct AlignedCooMoveFunctor {
  RowPtr row_ptr;
  Prefix prefix;
  LaneOf lane_of;
  IndexView lane_start;
  ColView col;
  ValView val;
  IndexView seg_row, seg_col;
  ValueView seg_val;
  IndexView flat_row, flat_col;
  ValueView flat_val;
  Index rows, seg_size;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const Index i = static_cast<Index>(detail::row_of_entry(row_ptr, rows, e));
    const std::int64_t flat_in_row = (row_ptr(i + 1) - row_ptr(i)) - (prefix(i + 1) - prefix(i));
    const std::int64_t k = e - row_ptr(i);  // position in the row
    if (k >= flat_in_row) {
      const std::int64_t lane = lane_of(i);
      const std::int64_t slot =
          (prefix(i) - lane_start(lane) + (k - flat_in_row)) * seg_size + lane;
      seg_row(slot) = i;
      seg_col(slot) = col(e);
      seg_val(slot) = val(e);
    } else {
      const std::int64_t dst = row_ptr(i) - prefix(i) + k;
      flat_row(dst) = i;
      flat_col(dst) = col(e);
      flat_val(dst) = val(e);
    }
  }
};

/// row_ptr(i + 1) = the entries (flat and seg) of rows 0..i.
template <class Index, class IndexView>
struct AlignedCooCsrRowPtrFunctor {
  using value_type = Index;
  IndexView flat_ptr, seg_count, row_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const Index i, Index& partial, const bool final) const {
    partial += (flat_ptr(i + 1) - flat_ptr(i)) + seg_count(i);
    if (final) row_ptr(i + 1) = partial;
  }
};

/// Flat entry k to the front of its CSR row.
template <class Index, class FlatIndex, class FlatVal, class IndexView, class ColView,
          class ValView>
struct AlignedCooFlatToCsrFunctor {
  FlatIndex flat_row, flat_col;
  FlatVal flat_val;
  IndexView row_ptr, flat_ptr;
  ColView col;
  ValView val;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const Index r = flat_row(k);
    const std::int64_t dst = row_ptr(r) + (k - flat_ptr(r));
    col(dst) = flat_col(k);
    val(dst) = flat_val(k);
  }
};

/// One lane's seg entries after their rows' flat entries, slot by slot.
template <class Index, class SegIndex, class SegVal, class IndexView, class ColView, class ValView>
struct AlignedCooSegToCsrFunctor {
  SegIndex seg_row, seg_col;
  SegVal seg_val;
  IndexView row_ptr, flat_ptr;
  ColView col;
  ValView val;
  Index seg_size, num_seg;
  KOKKOS_INLINE_FUNCTION void operator()(const Index lane) const {
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
  }
};
}  // namespace detail

/// Csr -> AlignedCoo (004) with a concrete layout (see aligned_coo.hpp), on
/// `space`. Throws invalid_parameter for bad parameters, index_overflow when
/// the lanes do not fit Index, format_too_large (before allocating) when the
/// result would exceed p.max_bytes. Values are copied bit for bit.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
AlignedCoo<Value, Index, Device> to_aligned_coo(const ExecutionSpace& space,
                                                const Csr<Value, Index, Device, Offset>& a,
                                                const aligned_coo::layout& p) {
  using exec = ExecutionSpace;
  using result_t = AlignedCoo<Value, Index, Device>;
  using index_view = typename result_t::index_view;
  using value_view = typename result_t::value_view;
  aligned_coo::validate(p);
  compat::ScopedRegion region("kobalt::convert<aligned_coo>");
  const Index rows = a.rows();
  // The plan counts entries (and marks lanes with -1) in the offsets' type.
  const auto row_ptr = detail::index_row_ptr(space, a, "kobalt::to_aligned_coo: nnz");
  const auto plan = detail::plan_layout(space, row_ptr, p);
  const Index seg_size = checked_index<Index>(plan.shape.seg_size, "aligned_coo seg_size");
  const Index num_seg = checked_index<Index>(plan.shape.num_seg, "aligned_coo num_seg");
  check_storage<typename Device::memory_space>(
      "kobalt::to_aligned_coo",
      detail::planned_bytes(plan, 2 * sizeof(Index) + sizeof(Value)), p.max_bytes);

  const std::int64_t slots = static_cast<std::int64_t>(seg_size) * num_seg;
  const std::int64_t lanes = plan.lanes.lanes;  // lanes holding rows, <= seg_size
  index_view seg_row(compat::uninitialized("kobalt::aligned_coo::seg_row"), slots);
  index_view seg_col(compat::uninitialized("kobalt::aligned_coo::seg_col"), slots);
  value_view seg_val(compat::uninitialized("kobalt::aligned_coo::seg_val"), slots);
  index_view flat_row(compat::uninitialized("kobalt::aligned_coo::flat_row"), plan.flat_nnz);
  index_view flat_col(compat::uninitialized("kobalt::aligned_coo::flat_col"), plan.flat_nnz);
  value_view flat_val(compat::uninitialized("kobalt::aligned_coo::flat_val"), plan.flat_nnz);
  // Per lane: the seg offset (prefix) of its first entry, and the row of its
  // last entry (the row its padding repeats; -1 for a lane without rows).
  index_view lane_start(compat::uninitialized(space, "kobalt::aligned_coo::lane_start"), lanes + 1);
  index_view lane_row(compat::uninitialized(space, "kobalt::aligned_coo::lane_row"), seg_size);

  const auto col = a.col_indices();
  const auto val = a.values();
  const auto prefix = plan.prefix;
  const auto lane_of = plan.lanes.lane_of;
  const Index seg_nnz = static_cast<Index>(plan.seg_nnz);
  using exec_range = range_policy<exec>;
  Kokkos::deep_copy(space, lane_row, Index(-1));
  Kokkos::parallel_for(
      "kobalt::convert<aligned_coo>::lanes", exec_range(space, 0, rows),
      detail::AlignedCooLaneStartFunctor<Index, decltype(prefix), decltype(lane_of), index_view>{
          prefix, lane_of, lane_start, lanes, seg_nnz});
  Kokkos::parallel_for(
      "kobalt::convert<aligned_coo>::lane_rows", exec_range(space, 0, rows),
      detail::AlignedCooLaneRowFunctor<Index, decltype(prefix), decltype(lane_of), index_view>{
          prefix, lane_of, lane_start, lane_row});

  // 1. Padding everywhere: col -1, value 0, the lane's own row (lane-local).
  Kokkos::parallel_for(
      "kobalt::convert<aligned_coo>::pad", exec_range(space, 0, slots),
      detail::AlignedCooPadFunctor<Index, index_view, value_view>{seg_row, seg_col, seg_val,
                                                                 lane_row, seg_size});
  // 2. Every entry to its place, one thread per entry: a row's last
  //    prefix(i + 1) - prefix(i) entries into its lane, one segment apart
  //    from its offset in the lane on; its first ones into the flat Coo,
  //    where the rows before it hold row_ptr(i) - prefix(i) entries.
  Kokkos::parallel_for(
      "kobalt::convert<aligned_coo>::move", exec_range(space, 0, a.nnz()),
      detail::AlignedCooMoveFunctor<Index, decltype(row_ptr), decltype(prefix), decltype(lane_of),
                                    index_view, decltype(col), decltype(val), value_view>{
          row_ptr, prefix, lane_of, lane_start, col, val, seg_row,
          seg_col, seg_val, flat_row, flat_col, flat_val, rows, seg_size});
  return result_t(space, rows, a.cols(), seg_size, num_seg, seg_row, seg_col, seg_val,
                  Coo<Value, Index, Device>(rows, a.cols(), flat_row, flat_col, flat_val),
                  plan.split, p.flat_unit);
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
      "kobalt::convert<csr>::scan", range_policy<exec>(space, 0, rows),
      detail::AlignedCooCsrRowPtrFunctor<Index, index_view>{flat_ptr, seg_count, row_ptr});
  // Flat entries first within their row ...
  Kokkos::parallel_for(
      "kobalt::convert<csr>::flat", range_policy<exec>(space, 0, a.flat().nnz()),
      detail::AlignedCooFlatToCsrFunctor<Index, decltype(flat_row), decltype(flat_val),
                                         index_view, std::decay_t<decltype(col)>,
                                         std::decay_t<decltype(val)>>{
          flat_row, flat_col, flat_val, row_ptr, flat_ptr, col, val});
  // ... then the seg entries, walked lane by lane.
  Kokkos::parallel_for(
      "kobalt::convert<csr>::seg", range_policy<exec>(space, 0, seg_size),
      detail::AlignedCooSegToCsrFunctor<Index, decltype(seg_row), decltype(seg_val), index_view,
                                        std::decay_t<decltype(col)>, std::decay_t<decltype(val)>>{
          seg_row, seg_col, seg_val, row_ptr, flat_ptr, col, val, seg_size, num_seg});
  return out.finish(space, rows, a.cols());
}

/// to_aligned_coo(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
AlignedCoo<Value, Index, Device> to_aligned_coo(const Csr<Value, Index, Device, Offset>& a,
                                                const aligned_coo::layout& p) {
  return to_aligned_coo(typename Device::execution_space(), a, p);
}
/// to_csr(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const AlignedCoo<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}

}  // namespace kobalt
