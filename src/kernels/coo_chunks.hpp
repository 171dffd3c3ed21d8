// SPDX-License-Identifier: BSD-3-Clause
// Portable COO kernel: y is scaled by beta, then each thread walks a
// contiguous chunk of the (row, col)-sorted entries and flushes its partial
// sum with one atomic add per row segment it sees. Correct on every backend;
// seed 000's warp-cooperative variant (segmented scan) is the GPU kernel of
// the load-balancing issue.
//
// Mapping: league entry -> team_size * entries_per_thread consecutive
// entries; team thread -> entries_per_thread of them; no vector lanes.
#pragma once

#include "arch/arch.hpp"
#include "common.hpp"
#include "../formats/coo.hpp"
#include "../tuning/select.hpp"

#include <cstdint>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView>
struct CooChunkFunctor {
  using scalar = typename YView::non_const_value_type;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView row, col;
  ValueView val;
  XView x;
  YView y;
  scalar alpha;
  std::int64_t nnz, per_thread;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t team_first =
        static_cast<std::int64_t>(team.league_rank()) * team.team_size() * per_thread;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, team.team_size()), [&](const int t) {
      const std::int64_t first = team_first + t * per_thread;
      const std::int64_t last = first + per_thread < nnz ? first + per_thread : nnz;
      if (first >= last) return;
      auto current = row(first);
      scalar sum = 0;
      for (std::int64_t k = first; k < last; ++k) {
        if (row(k) != current) {
          arch::atomic_add(&y(current), alpha * sum);
          current = row(k);
          sum = 0;
        }
        sum += scalar(val(k)) * scalar(x(col(k)));
      }
      arch::atomic_add(&y(current), alpha * sum);
    });
  }
};

/// y += alpha*A*x for a sorted entry list (y already scaled by the caller).
template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView>
void coo_accumulate(const ExecutionSpace& exec, const std::string& label,
                    typename YView::non_const_value_type alpha, const IndexView& row,
                    const IndexView& col, const ValueView& val, const XView& x,
                    const YView& y) {
  const std::int64_t nnz = static_cast<std::int64_t>(val.extent(0));
  if (nnz == 0) return;
  const SpmvPolicy p = tuning::select_chunk_policy<ExecutionSpace>();
  const std::int64_t per_team = static_cast<std::int64_t>(p.team_size) * p.entries_per_thread;
  const std::int64_t league = (nnz + per_team - 1) / per_team;
  Kokkos::parallel_for(
      label, Kokkos::TeamPolicy<ExecutionSpace>(exec, league, p.team_size),
      CooChunkFunctor<ExecutionSpace, IndexView, ValueView, XView, YView>{
          row, col, val, x, y, alpha, nnz, p.entries_per_thread});
}

template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void apply(const ExecutionSpace& exec, typename YView::non_const_value_type alpha,
           const Coo<Value, Index, Device>& a, const XView& x,
           typename YView::non_const_value_type beta, const YView& y) {
  scale(exec, beta, y);
  coo_accumulate(exec, kernel_label("coo", "chunks"), alpha, a.row_indices(), a.col_indices(),
                 a.values(), x, y);
}

}  // namespace kobalt::detail
