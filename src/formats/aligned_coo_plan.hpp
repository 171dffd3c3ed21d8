// SPDX-License-Identifier: BSD-3-Clause
// The concrete layout of an AlignedCoo and its plan: which entries of each
// row go to the seg part, the seg part's shape for the given lanes, and
// where each row sits in it (next-fit packing, 004 Fig. 1-2, next_fit.hpp).
// The plan reads only the row pointer and runs on the device, like the
// moves of the entries in convert_aligned_coo.hpp. Choosing the split and the lanes
// (004 Alg. 1 and 3) is tuning's (tuning/aligned_coo_split.hpp).
#pragma once

#include "../range.hpp"
#include "aligned_coo.hpp"
#include "entry_on_host.hpp"
#include "next_fit.hpp"
#include "storage_limit.hpp"
#include "../errors.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace kobalt {

namespace aligned_coo {
/// The layout to_aligned_coo() builds, concrete (tuning::select resolves
/// aligned_coo::params, with its automatic split and Alg. 1 lane count, into
/// this).
struct layout {
  /// hybrid, all_seg or all_flat (automatic throws invalid_parameter).
  split choice = split::all_seg;
  /// Lanes of the seg part, >= 1 when it holds entries; the segments grow
  /// until the rows fit. Ignored when the seg part is empty.
  std::int64_t seg_size = 1;
  /// Unit of the hybrid split (004 Alg. 3's WARP_SIZE), >= 1.
  int flat_unit = 32;
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
};

/// Throws invalid_parameter unless every field is in range.
inline void validate(const layout& l) {
  auto fail = [](const std::string& what) {
    throw invalid_parameter("kobalt::to_aligned_coo: " + what);
  };
  if (l.seg_size < 1) fail("seg_size must be >= 1, got " + std::to_string(l.seg_size));
  if (l.flat_unit < 1) fail("flat_unit must be >= 1, got " + std::to_string(l.flat_unit));
  switch (l.choice) {
    case split::hybrid:
    case split::all_seg:
    case split::all_flat: break;
    case split::automatic:
      fail("choice = automatic must be resolved first (tuning::select, or the to_aligned_coo "
           "overload that takes aligned_coo::params)");
      break;
    default: fail("choice is not a value of aligned_coo::split");
  }
}
}  // namespace aligned_coo

namespace detail {

/// Entries of a row of length rl that go to the seg part (the row's LAST
/// ones in column order); the first rl - that go to the flat part.
/// Device-callable: the conversion recomputes it per row on the device.
KOKKOS_INLINE_FUNCTION std::int64_t aligned_coo_seg_length(std::int64_t rl,
                                                           aligned_coo::split s,
                                                           std::int64_t flat_unit) {
  if (s == aligned_coo::split::all_seg) return rl;
  if (s == aligned_coo::split::all_flat) return 0;
  return rl % flat_unit;  // hybrid: trail = rl mod WARP_SIZE (004 Alg. 3)
}

/// Shape of a seg part: seg_size lanes (slots per segment) x num_seg segments.
struct seg_shape {
  std::int64_t seg_size = 0;  ///< lanes; 004's Seg_size
  std::int64_t num_seg = 0;   ///< segments; 004's Num_of_seg (= lane capacity)
};

/// Scans the seg part's row lengths under split s into prefix(1..rows).
template <class RowPtr>
struct AlignedCooSegPrefixFunctor {
  using value_type = typename RowPtr::non_const_value_type;
  RowPtr row_ptr;
  typename RowPtr::non_const_type prefix;
  aligned_coo::split s;
  std::int64_t flat_unit;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, value_type& partial,
                                         const bool final) const {
    partial += static_cast<value_type>(
        aligned_coo_seg_length(row_ptr(i + 1) - row_ptr(i), s, flat_unit));
    if (final) prefix(i + 1) = partial;
  }
};

/// Where the seg part's entries of each row start: prefix(i) = seg entries
/// of the rows before i (rows + 1 entries), on `exec`. all_seg is the row
/// pointer itself; all_flat is all zeros. (RowPtr may be a View of const
/// offsets, a Csr's: the prefix is written as its non-const form.)
template <class ExecutionSpace, class RowPtr>
RowPtr seg_prefix(const ExecutionSpace& exec, const RowPtr& row_ptr, aligned_coo::split s,
                  std::int64_t flat_unit) {
  if (s == aligned_coo::split::all_seg) return row_ptr;
  const std::int64_t rows = static_cast<std::int64_t>(row_ptr.extent(0)) - 1;
  typename RowPtr::non_const_type prefix(
      Kokkos::view_alloc(exec, std::string("kobalt::aligned_coo::seg_prefix")), row_ptr.extent(0));
  if (s == aligned_coo::split::all_flat || rows < 1) return prefix;
  Kokkos::parallel_scan(
      "kobalt::aligned_coo::seg_prefix", range_policy<ExecutionSpace>(exec, 0, rows),
      AlignedCooSegPrefixFunctor<RowPtr>{row_ptr, prefix, s, flat_unit});
  return prefix;
}

/// The longest row of a prefix, by a Max reduction.
template <class PrefixView>
struct AlignedCooLongestRowFunctor {
  PrefixView prefix;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& m) const {
    const std::int64_t len = static_cast<std::int64_t>(prefix(i + 1) - prefix(i));
    if (len > m) m = len;
  }
};

/// The longest row whose lengths are prefix(i + 1) - prefix(i).
template <class ExecutionSpace, class PrefixView>
std::int64_t longest_row(const ExecutionSpace& exec, const PrefixView& prefix) {
  const std::int64_t rows = static_cast<std::int64_t>(prefix.extent(0)) - 1;
  std::int64_t longest = 0;
  if (rows > 0)
    Kokkos::parallel_reduce(
        "kobalt::aligned_coo::longest_row", range_policy<ExecutionSpace>(exec, 0, rows),
        AlignedCooLongestRowFunctor<PrefixView>{prefix}, Kokkos::Max<std::int64_t>(longest));
  exec.fence();
  return longest;
}

/// Entries of a prefix: its last entry, on the host.
template <class ExecutionSpace, class PrefixView>
std::int64_t prefix_total(const ExecutionSpace& exec, const PrefixView& prefix) {
  exec.fence();
  return static_cast<std::int64_t>(entry_on_host(prefix, prefix.extent(0) - 1));
}

/// A seg part's shape with the next-fit packing of its rows at that shape.
template <class IndexView>
struct packed_shape {
  seg_shape shape;
  NextFitLanes<IndexView> lanes;  ///< packing into shape.num_seg slots per lane
};

/// Shape of the seg part whose row lengths are prefix(i + 1) - prefix(i) in
/// `lanes` lanes: the smallest capacity that packs into them, by bisection.
/// No capacity below lo = max(longest row, ceil(nnz / lanes)) can hold the
/// rows; hi = ceil(nnz / lanes) + longest - 1 always does, since next-fit
/// closes a lane only when the next row does not fit, so every lane but the
/// last holds more than hi - longest >= nnz / lanes entries. The result
/// always fits, whether or not next-fit is monotone in the capacity. An
/// empty seg part has shape {0, 0}.
template <class ExecutionSpace, class PrefixView>
packed_shape<lane_view_t<PrefixView>> seg_shape_for_lanes(const ExecutionSpace& exec,
                                                          const PrefixView& prefix,
                                                          std::int64_t lanes) {
  packed_shape<lane_view_t<PrefixView>> result;
  const std::int64_t nnz = prefix_total(exec, prefix);
  if (nnz == 0) return result;
  const std::int64_t longest = longest_row(exec, prefix);
  const std::int64_t even = detail::ceil_div(nnz, lanes);
  std::int64_t lo = std::max(longest, even), hi = std::min(nnz, even + longest - 1);
  result.lanes = next_fit(exec, prefix, lo);
  if (result.lanes.lanes <= lanes) {
    result.shape = {lanes, lo};
    return result;
  }
  result.lanes = {};
  while (hi - lo > 1) {  // lo does not fit, hi does
    const std::int64_t mid = lo + (hi - lo) / 2;
    auto probe = next_fit(exec, prefix, mid);
    if (probe.lanes <= lanes) {
      hi = mid;
      result.lanes = probe;
    } else {
      lo = mid;
    }
  }
  if (result.lanes.lane_of.extent(0) == 0 && result.lanes.lanes == 0)
    result.lanes = next_fit(exec, prefix, hi);  // hi was never probed
  result.shape = {lanes, hi};
  return result;
}

/// Where everything goes; computed on the device from the row pointer.
template <class IndexView>
struct aligned_coo_plan {
  aligned_coo::split split = aligned_coo::split::all_seg;  ///< resolved, never automatic
  seg_shape shape;                                          ///< seg part shape
  std::int64_t seg_nnz = 0, flat_nnz = 0;
  /// prefix(i): the seg entries of the rows before i (seg_prefix).
  IndexView prefix;
  /// The rows' lanes in the seg part: next-fit into shape.num_seg slots.
  NextFitLanes<lane_view_t<IndexView>> lanes;
};

/// Bytes an AlignedCoo with this plan stores (seg slots incl. padding + flat),
/// saturating so an absurd layout reaches check_storage instead of wrapping.
template <class IndexView>
std::uint64_t planned_bytes(const aligned_coo_plan<IndexView>& plan, std::uint64_t entry_bytes) {
  const std::uint64_t slots = saturating_mul(static_cast<std::uint64_t>(plan.shape.seg_size),
                                             static_cast<std::uint64_t>(plan.shape.num_seg));
  return saturating_mul(saturating_add(slots, static_cast<std::uint64_t>(plan.flat_nnz)),
                        entry_bytes);
}

/// The plan of a concrete layout for the rows of `row_ptr`, on `exec`: the
/// seg part's shape for the layout's lanes, the sizes of both parts and
/// where each row's seg entries go.
template <class ExecutionSpace, class RowPtr>
aligned_coo_plan<RowPtr> plan_layout(const ExecutionSpace& exec, const RowPtr& row_ptr,
                                     const aligned_coo::layout& l) {
  aligned_coo_plan<RowPtr> plan;
  plan.split = l.choice;
  plan.prefix = seg_prefix(exec, row_ptr, l.choice, l.flat_unit);
  auto packed = seg_shape_for_lanes(exec, plan.prefix, l.seg_size);
  plan.shape = packed.shape;
  plan.lanes = packed.lanes;
  plan.seg_nnz = prefix_total(exec, plan.prefix);
  plan.flat_nnz = prefix_total(exec, row_ptr) - plan.seg_nnz;
  return plan;
}

}  // namespace detail
}  // namespace kobalt
