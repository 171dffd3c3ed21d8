// SPDX-License-Identifier: BSD-3-Clause
// Next-fit packing of rows into lanes, on the device: the rows, in order,
// fill a lane until the next row does not fit in `capacity` slots, and that
// row starts a new lane. A row never spans two lanes; an empty row takes no
// slot and starts nothing. This is how ALIGNED_COO packs short rows
// consecutively into one lane (004 Fig. 1-2; the paper names no algorithm).
//
// Next-fit looks sequential (where a lane starts depends on every lane
// before it), but its lane starts form a chain c0, next(c0), next(next(c0)),
// ..., where next(i), the row that overflows a lane started at row i, is one
// search in the prefix of the row lengths. The chain is marked by pointer
// doubling: with J = next^(2^r), mark J(c) for every marked c, then J = J∘J.
// After round r every c_k with k < 2^(r+1) is marked, so ceil(log2(lanes))
// rounds of three short kernels mark all lanes: O(rows log lanes) work and
// O(rows) memory, where the host loop it replaces dominated the setup of
// large matrices (docs/sources.md: "Conversion kernels").
#pragma once

#include "../range.hpp"
#include "entry_on_host.hpp"
#include "../compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>

namespace kobalt::detail {

/// First m in [from, n] with prefix(m) > target, or n + 1 when there is none
/// (prefix non-decreasing): galloping from `from`, then bisection, so a row
/// whose lane ends d rows later costs O(log d) reads.
template <class PrefixView>
KOKKOS_INLINE_FUNCTION std::int64_t first_above(const PrefixView& prefix, std::int64_t from,
                                                std::int64_t n, std::int64_t target) {
  std::int64_t lo = from, hi = from, step = 1;  // every m < lo has prefix(m) <= target
  while (hi <= n && static_cast<std::int64_t>(prefix(hi)) <= target) {
    lo = hi + 1;
    hi = lo + step;
    step *= 2;
  }
  if (hi > n) hi = n + 1;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(prefix(mid)) <= target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// The lanes of a next-fit packing.
template <class IndexView>
struct NextFitLanes {
  /// Per row: its lane (0-based), -1 before the first non-empty row. An
  /// empty row carries the lane of the rows before it.
  IndexView lane_of;
  std::int64_t lanes = 0;  ///< lanes used
};

/// The lane View next_fit returns for a prefix View.
template <class PrefixView>
using lane_view_t =
    Kokkos::View<typename PrefixView::non_const_value_type*, typename PrefixView::device_type>;

/// The first non-empty row, by a Min reduction.
template <class PrefixView>
struct NextFitFirstRowFunctor {
  PrefixView prefix;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& m) const {
    if (prefix(i + 1) > prefix(i) && i < m) m = i;
  }
};

/// jump(i) = the row that does not fit in a lane started at row i (n = none).
template <class PrefixView, class IndexView>
struct NextFitJumpFunctor {
  using index = typename IndexView::non_const_value_type;
  PrefixView prefix;
  IndexView jump;
  std::int64_t n, capacity;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    if (i == n || prefix(i + 1) == prefix(i)) {
      jump(i) = static_cast<index>(n);
    } else {
      const std::int64_t m =
          first_above(prefix, i + 1, n, static_cast<std::int64_t>(prefix(i)) + capacity);
      jump(i) = static_cast<index>(m > n ? n : m - 1);
    }
  }
};

/// Marks row `first`, the start of lane 0.
template <class MarkView>
struct NextFitMarkFirstFunctor {
  MarkView marks;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { marks(i) = 1; }
};

/// Carries each marked row's mark to the row its jump reaches.
template <class MarkView, class IndexView>
struct NextFitMarkFunctor {
  MarkView marks, marked_next;
  IndexView jump;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    if (marks(i) && jump(i) < n) marked_next(jump(i)) = 1;
  }
};

/// jump_twice = jump composed with itself (pointer doubling).
template <class IndexView>
struct NextFitDoubleFunctor {
  IndexView jump, jump_twice;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    jump_twice(i) = jump(jump(i));
  }
};

/// lane_of(i) = the marks at or before row i, minus one.
template <class MarkView, class IndexView>
struct NextFitLaneOfFunctor {
  using value_type = typename IndexView::non_const_value_type;
  MarkView marks;
  IndexView lane_of;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, value_type& partial,
                                         const bool final) const {
    partial += static_cast<value_type>(marks(i));
    if (final) lane_of(i) = partial - 1;
  }
};

/// Next-fit packing of the rows whose lengths are prefix(i + 1) - prefix(i)
/// (prefix: rows + 1 non-decreasing entries from 0) into lanes of
/// `capacity` slots, on `exec`. capacity must be >= the longest row.
template <class ExecutionSpace, class PrefixView>
NextFitLanes<lane_view_t<PrefixView>> next_fit(const ExecutionSpace& exec, const PrefixView& prefix, std::int64_t capacity) {
  using index = typename PrefixView::non_const_value_type;
  using index_view = lane_view_t<PrefixView>;
  using mark_view = Kokkos::View<std::uint8_t*, typename PrefixView::device_type>;
  using range = range_policy<ExecutionSpace>;
  const std::int64_t n = static_cast<std::int64_t>(prefix.extent(0)) - 1;
  NextFitLanes<index_view> result;
  result.lane_of = index_view(compat::uninitialized(exec, "kobalt::next_fit::lane_of"),
                              static_cast<std::size_t>(n > 0 ? n : 0));
  std::int64_t first = n > 0 ? n : 0;  // the first non-empty row starts lane 0
  if (n > 0)
    Kokkos::parallel_reduce(
        "kobalt::next_fit::first_row", range(exec, 0, n),
        NextFitFirstRowFunctor<PrefixView>{prefix}, Kokkos::Min<std::int64_t>(first));
  if (first >= n) {
    if (n > 0) Kokkos::deep_copy(exec, result.lane_of, index(-1));
    return result;
  }

  // jump(i) = next(i): the row that does not fit in a lane started at row i
  // (n = none); jump(n) = n. Empty rows never start a lane: jump = n.
  index_view jump(compat::uninitialized(exec, "kobalt::next_fit::jump"), n + 1);
  index_view jump_twice(compat::uninitialized(exec, "kobalt::next_fit::jump_twice"), n + 1);
  Kokkos::parallel_for(
      "kobalt::next_fit::next", range(exec, 0, n + 1),
      NextFitJumpFunctor<PrefixView, index_view>{prefix, jump, n, capacity});
  // Marks are double-buffered: a round reads one and writes the other, and
  // each chain node is written by one thread (its 2^r-th predecessor).
  mark_view marks(Kokkos::view_alloc(exec, std::string("kobalt::next_fit::marks")), n);
  mark_view marked_next(compat::uninitialized(exec, "kobalt::next_fit::marked_next"), n);
  Kokkos::parallel_for(
      "kobalt::next_fit::mark_first", range(exec, first, first + 1),
      NextFitMarkFirstFunctor<mark_view>{marks});
  for (;;) {
    Kokkos::deep_copy(exec, marked_next, marks);
    Kokkos::parallel_for(
        "kobalt::next_fit::mark", range(exec, 0, n),
        NextFitMarkFunctor<mark_view, index_view>{marks, marked_next, jump, n});
    Kokkos::parallel_for(
        "kobalt::next_fit::double", range(exec, 0, n + 1),
        NextFitDoubleFunctor<index_view>{jump, jump_twice});
    std::swap(marks, marked_next);
    std::swap(jump, jump_twice);
    exec.fence();
    if (static_cast<std::int64_t>(entry_on_host(jump, first)) == n) break;  // chain covered
  }

  // Lane of each row: lane starts at or before it, minus one.
  const index_view lane_of = result.lane_of;
  index lanes = 0;
  Kokkos::parallel_scan(
      "kobalt::next_fit::lane_of", range(exec, 0, n),
      NextFitLaneOfFunctor<mark_view, index_view>{marks, lane_of}, lanes);
  exec.fence();
  result.lanes = static_cast<std::int64_t>(lanes);
  return result;
}

}  // namespace kobalt::detail
