// SPDX-License-Identifier: BSD-3-Clause
// AlignedCoo's seg kernel (004 §IV-D, Fig. 4). An apply (plan/dispatch.hpp)
// runs y = beta*y (every row, also rows the format does not hold), this
// kernel, then the flat part through coo_chunks (atomics); the three launches
// run in order on one execution space instance, so they never overlap.
//
// Seg kernel: a portable form of 004 Alg. 2. Alg. 2 accumulates min_rl
// segments in a register and then adds element-wise into y while other lanes
// may touch the same row with padding (racy without lockstep, NOTES.md).
// Here one thread walks one lane in segment order (slot s*seg_size + lane:
// neighbouring threads read neighbouring slots, coalesced), sums while the
// row stays the same and adds alpha*sum into y[row] when the row changes or
// the lane ends. It stops at the lane's first padding slot (padding is a
// suffix of the lane), so padding never reads x nor writes y.
// Plain (non-atomic) adds are race-free: each row lives in exactly one lane
// as one run of slots (the packing never splits a row), so within this kernel
// y[row] is read and written by one thread, once.
//
// Mapping: league entry -> lanes_per_team consecutive lanes; team thread ->
// one lane; no vector lanes.
#pragma once

#include "common.hpp"
#include "segment_flush.hpp"
#include "../formats/aligned_coo.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XB, class YB>
struct AlignedCooSegFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView row, col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha;
  index_type seg_size, num_seg, lanes_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const index_type first = static_cast<index_type>(team.league_rank()) * lanes_per_team;
    const index_type last = first + lanes_per_team < seg_size ? first + lanes_per_team : seg_size;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const index_type lane) {
      // A lane is slots lane, lane + seg_size, ... (segment-major, coalesced
      // across neighbouring threads); it stops at its first padding slot.
      Sums<scalar, block_width<decltype(y.y)>> sum;
      segment_flush_padded(row, col, val, x, lane, seg_size, num_seg, sum,
                           [&](const auto r, const auto& s) { y.add(r, alpha, s); });
    });
  }
};

/// y += alpha * (seg part) * x with launch shape s; y already scaled by the caller.
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void aligned_coo_seg(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                     const std::string& label, typename YView::non_const_value_type alpha,
                     const AlignedCoo<Value, Index, Device>& a, const XView& x, const YView& y) {
  if (a.seg_size() == 0 || a.num_segments() == 0) return;
  const Index lanes_per_team = static_cast<Index>(s.rows_per_team);
  const Index league = (a.seg_size() + lanes_per_team - 1) / lanes_per_team;
  using matrix = AlignedCoo<Value, Index, Device>;
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    using functor = AlignedCooSegFunctor<ExecutionSpace, typename matrix::index_view,
                                         typename matrix::value_view, decltype(xb), decltype(yb)>;
    Kokkos::parallel_for(
        label, Kokkos::TeamPolicy<ExecutionSpace>(exec, league, s.team_size, s.vector_length),
        functor{a.seg_row_indices(), a.seg_col_indices(), a.seg_values(), xb, yb, alpha,
                a.seg_size(), a.num_segments(), lanes_per_team});
  });
}

}  // namespace kobalt::detail
