// SPDX-License-Identifier: BSD-3-Clause
// AlignedCoo kernels (004 §IV-D, Fig. 4): y = beta*y (detail::scale, every
// row, also rows the format does not hold), then the seg kernel, then the
// flat part through coo_accumulate (atomics). The three launches run in order
// on one execution space instance, so they never overlap.
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
#include "coo_chunks.hpp"
#include "../formats/aligned_coo.hpp"
#include "../tuning/select.hpp"

#include <cstdint>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView>
struct AlignedCooSegFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YView::non_const_value_type;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView row, col;
  ValueView val;
  XView x;
  YView y;
  scalar alpha;
  index_type seg_size, num_seg, lanes_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const index_type first = static_cast<index_type>(team.league_rank()) * lanes_per_team;
    const index_type last = first + lanes_per_team < seg_size ? first + lanes_per_team : seg_size;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const index_type lane) {
      constexpr index_type none = padding_index<index_type>;
      index_type current = none;
      scalar sum = 0;
      for (index_type s = 0; s < num_seg; ++s) {
        const std::int64_t slot = static_cast<std::int64_t>(s) * seg_size + lane;
        const index_type c = col(slot);
        if (c == none) break;  // padding: the rest of the lane is padding too
        const index_type r = row(slot);
        if (r != current) {
          if (current != none) y(current) += alpha * sum;
          current = r;
          sum = 0;
        }
        sum += scalar(val(slot)) * scalar(x(c));
      }
      if (current != none) y(current) += alpha * sum;
    });
  }
};

/// y += alpha * (seg part) * x; y already scaled by the caller.
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void aligned_coo_seg(const ExecutionSpace& exec, typename YView::non_const_value_type alpha,
                     const AlignedCoo<Value, Index, Device>& a, const XView& x, const YView& y) {
  if (a.seg_size() == 0 || a.num_segments() == 0) return;
  // A lane is walked like a row of CSR basic: one thread, no vector lanes.
  const SpmvPolicy p = tuning::select_row_policy<ExecutionSpace>(1);
  const Index lanes_per_team = static_cast<Index>(p.rows_per_team);
  const Index league = (a.seg_size() + lanes_per_team - 1) / lanes_per_team;
  using matrix = AlignedCoo<Value, Index, Device>;
  using functor = AlignedCooSegFunctor<ExecutionSpace, typename matrix::index_view,
                                       typename matrix::value_view, XView, YView>;
  Kokkos::parallel_for(
      kernel_label("aligned_coo", "seg"),
      Kokkos::TeamPolicy<ExecutionSpace>(exec, league, p.team_size, p.vector_length),
      functor{a.seg_row_indices(), a.seg_col_indices(), a.seg_values(), x, y, alpha,
              a.seg_size(), a.num_segments(), lanes_per_team});
}

template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void apply(const ExecutionSpace& exec, typename YView::non_const_value_type alpha,
           const AlignedCoo<Value, Index, Device>& a, const XView& x,
           typename YView::non_const_value_type beta, const YView& y) {
  scale(exec, beta, y);
  aligned_coo_seg(exec, alpha, a, x, y);
  coo_accumulate(exec, kernel_label("aligned_coo", "flat"), alpha, a.flat().row_indices(),
                 a.flat().col_indices(), a.flat().values(), x, y);
}

}  // namespace kobalt::detail
