// SPDX-License-Identifier: BSD-3-Clause
// Portable COO kernel: each thread walks a contiguous chunk of the (row,
// col)-sorted entries and flushes its partial sums with one atomic add per
// row segment it sees (segment_flush.hpp). y must already hold beta*y (the
// caller scales it). Correct on every backend; seed 000's warp-cooperative
// variant (segmented scan) is the GPU kernel of the load-balancing issue.
//
// Mapping: league entry -> team_size * entries_per_thread consecutive
// entries; team thread -> entries_per_thread of them; no vector lanes.
#pragma once

#include "common.hpp"
#include "segment_flush.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XB, class YB>
struct CooChunkFunctor {
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView row, col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha;
  std::int64_t nnz, per_thread;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t team_first =
        static_cast<std::int64_t>(team.league_rank()) * team.team_size() * per_thread;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, team.team_size()), [&](const int t) {
      const std::int64_t first = team_first + t * per_thread;
      const std::int64_t last = first + per_thread < nnz ? first + per_thread : nnz;
      Sums<scalar, block_width<decltype(y.y)>> sum;
      segment_flush(row, col, val, x, first, last, sum,
                    [&](const auto r, const auto& s) { y.atomic_add(r, alpha, s); });
    });
  }
};

/// y += alpha*A*x for a row-sorted entry list (y already scaled by the
/// caller), with launch shape s.
template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView>
void coo_chunks(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                const std::string& label, typename YView::non_const_value_type alpha,
                const IndexView& row, const IndexView& col, const ValueView& val, const XView& x,
                const YView& y) {
  const std::int64_t nnz = static_cast<std::int64_t>(val.extent(0));
  if (nnz == 0) return;
  const std::int64_t per_team = static_cast<std::int64_t>(s.team_size) * s.entries_per_thread;
  const std::int64_t league = (nnz + per_team - 1) / per_team;
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    Kokkos::parallel_for(
        label, Kokkos::TeamPolicy<ExecutionSpace>(exec, static_cast<int>(league), s.team_size),
        CooChunkFunctor<ExecutionSpace, IndexView, ValueView, decltype(xb), decltype(yb)>{
            row, col, val, xb, yb, alpha, nnz, s.entries_per_thread});
  });
}

}  // namespace kobalt::detail
