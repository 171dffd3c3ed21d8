// SPDX-License-Identifier: BSD-3-Clause
// Load-balancing COO, seed 000 §3.2.1 Alg. 1: the row-sorted entries are cut
// into contiguous chunks of equal size, one per warp; the lanes stride
// through their chunk (entry first + i*W + lane), so every load is
// coalesced. Each lane accumulates while no lane of the warp changes row;
// when one does, or on the final iteration (docs/sources.md erratum: Alg. 1 line 6
// flushes on the last iteration too, or a chunk's last rows are lost), the
// warp runs a segmented scan keyed by row (arch::segmented_scan) and the
// last lane of each row's run adds it to y with one atomic.
//
// Mapping: league entry -> team_size warps; team thread -> one chunk of
// entries_per_thread * W entries; vector lane -> a lane of the warp (W =
// the warp width). Hosts (W = 1) run CooWalkFunctor: a thread per chunk.
// y must already hold beta*y (the caller scales it, or an ELL part wrote it).
#pragma once

#include "common.hpp"
#include "strategy_kernel.hpp"
#include "../arch/arch.hpp"
#include "../errors.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

template <class ExecutionSpace, int W, class IndexView, class ValueView, class XB, class YB>
struct CooSegmentedFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int N = XB::count_max;

  IndexView row, col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha;
  std::int64_t nnz, chunk;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t warp =
        static_cast<std::int64_t>(team.league_rank()) * team.team_size() + team.team_rank();
    const std::int64_t first = warp * chunk;
    if (first >= nnz) return;
    const std::int64_t last = first + chunk < nnz ? first + chunk : nnz;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      constexpr index_type none = index_type(-1);  // the key of lanes past the chunk's end
      std::int64_t k = first + lane;
      index_type next = k < last ? row(k) : none;
      Sums<scalar, N> c;
      // The trip count is the same on every lane, so the votes stay converged.
      for (std::int64_t base = first; base < last; base += W, k += W) {
        const index_type current = next;
        if (k < last) x.fma(c, val(k), col(k));
        next = k + W < last ? row(k + W) : none;
        const bool final_iteration = base + W >= last;
        if (final_iteration || arch::lanes<ExecutionSpace>::template any<W>(next != current)) {
          arch::segmented_scan<ExecutionSpace, W>(lane, current, c.v);
          if (arch::segment_end<ExecutionSpace, W>(lane, current) && current != none)
            y.atomic_add(current, alpha, c);
          c = Sums<scalar, N>();
        }
      }
    });
  }
};

/// Hosts (lane width 1): a thread walks its chunk (one per thread by
/// default, tuning::host_part) and adds each finished row to y. Only the
/// chunk's first and last rows can be shared with the neighbouring chunks,
/// so only they are added atomically; every other row belongs to this
/// thread alone (atomics at chunk boundaries only).
template <class IndexView, class ValueView, class XB, class YB>
struct CooWalkFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  static constexpr int N = XB::count_max;

  IndexView row, col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha;
  std::int64_t nnz, chunk;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    const std::int64_t first = c * chunk;
    const std::int64_t last = first + chunk < nnz ? first + chunk : nnz;
    const index_type first_row = row(first), last_row = row(last - 1);
    const auto flush = [&](index_type r, const Sums<scalar, N>& sum) {
      if (r == first_row || r == last_row) y.atomic_add(r, alpha, sum);
      else y.add(r, alpha, sum);
    };
    index_type current = first_row;
    Sums<scalar, N> sum;
    for (std::int64_t k = first; k < last; ++k) {
      if ((k & 7) == 0) {  // the three streams run ahead (arch::prefetch_ahead)
        arch::prefetch_ahead(row.data() + k);
        arch::prefetch_ahead(col.data() + k);
        arch::prefetch_ahead(val.data() + k);
      }
      const index_type r = row(k);
      if (r != current) {
        flush(current, sum);
        current = r;
        sum = Sums<scalar, N>();
      }
      x.fma(sum, val(k), col(k));
    }
    flush(current, sum);
  }
};

/// y += alpha*A*x for a row-sorted entry list (y already scaled), launch
/// shape s: vector_length = the warp width, team_size warps per team,
/// entries_per_thread entries per lane (a chunk of entries_per_thread *
/// vector_length entries per warp).
template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView>
void coo_segmented(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                   const std::string& label, typename YView::non_const_value_type alpha,
                   const IndexView& row, const IndexView& col, const ValueView& val,
                   const XView& x, const YView& y) {
  const std::int64_t nnz = static_cast<std::int64_t>(val.extent(0));
  if (nnz == 0) return;
  arch::with_lane_width(exec, [&](auto width) {
    constexpr int W = decltype(width)::value;
    // Nested lambdas name the width through the type: nvcc's host pass
    // rejects a captured constexpr W inside their if constexpr branches.
    using Lanes = decltype(width);
    if (s.vector_length != W)
      throw invalid_parameter("kobalt: " + label + " needs vector_length = the warp width " +
                                  std::to_string(W) + ", got " + std::to_string(s.vector_length));
    const std::int64_t chunk = s.entries_per_thread * W;
    const std::int64_t warps = (nnz + chunk - 1) / chunk;
    for_each_column_block(x, y, [&](auto xb, auto yb) {
      if constexpr (Lanes::value == 1)  // hosts: chunk c to thread c under the static schedule
        Kokkos::parallel_for(
            label,
            Kokkos::RangePolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>(exec, 0, warps),
            CooWalkFunctor<IndexView, ValueView, decltype(xb), decltype(yb)>{
                row, col, val, xb, yb, alpha, nnz, chunk});
      else
        team_parallel_for_fitted(
            exec, label, s.team_size, Lanes::value,
            [warps](int team) { return (warps + team - 1) / team; },
            CooSegmentedFunctor<ExecutionSpace, Lanes::value, IndexView, ValueView, decltype(xb),
                                decltype(yb)>{row, col, val, xb, yb, alpha, nnz, chunk});
    });
  });
}

/// coo::segmented: 000 §3.1: y is scaled first (the kernel only adds),
/// unless beta == 1.
template <>
struct strategy_kernel<coo::segmented> : without_workspace {
  /// The scaling, then one launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W&,
                  typename Y::non_const_value_type alpha, const Coo<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    scale(exec, beta, y);
    static const std::string segmented_label = kernel_label("coo", "segmented");
    coo_segmented(exec, p.launches.at(0), segmented_label, alpha, a.row_indices(),
                  a.col_indices(), a.values(), x, y);
  }
};

}  // namespace kobalt::detail
