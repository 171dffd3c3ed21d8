// SPDX-License-Identifier: BSD-3-Clause
// AlignedCoo's seg kernel (004 §IV-D, Fig. 4) and the records of both
// ALIGNED_COO strategies, which run it with the flat part (atomics, or
// coo::load_balance) in either order; the launches run in order on one
// execution space instance, so they never overlap.
//
// Beta in the same launch (two launches instead of three):
// a row of the seg part lives in one lane as one run, so its thread stores
// y = alpha*sum + beta*y once; the rows outside the seg part (flat rows and
// empty rows, listed once in the handle) are scaled by the teams, an equal
// share each, before the flat kernel adds to them.
//
// Seg kernel: a portable form of 004 Alg. 2. Alg. 2 accumulates min_rl
// segments in a register and then adds element-wise into y while other lanes
// may touch the same row with padding (racy without lockstep, docs/sources.md).
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

#include "../range.hpp"
#include "common.hpp"
#include "coo_load_balance.hpp"
#include "coo_segmented.hpp"
#include "strategy_kernel.hpp"
#include "../formats/aligned_coo.hpp"
#include "../tuning/policy.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace kobalt::detail {

/// The run-and-flush walk of one lane: slots first, first + step, ...
/// (`count` of them, row-sorted, with a padding suffix) summed while the
/// row stays the same, each finished run handed to flush(row, sums). Stops
/// at the first padding slot; a walk that meets only padding flushes nothing.
template <class RowView, class ColView, class ValView, class XB, class Scalar, int N, class Flush>
KOKKOS_INLINE_FUNCTION void segment_flush_padded(const RowView& row, const ColView& col,
                                                 const ValView& val, const XB& x,
                                                 std::int64_t first, std::int64_t step,
                                                 std::int64_t count, Sums<Scalar, N>& sum,
                                                 const Flush& flush) {
  using index_type = typename RowView::non_const_value_type;
  constexpr index_type none = index_type(-1);
  index_type current = none;
  for (std::int64_t s = 0; s < count; ++s) {
    const std::int64_t slot = first + s * step;
    const auto c = col(slot);
    if (c < 0) break;  // padding: the rest of the walk is padding too
    const index_type r = row(slot);
    if (r != current) {
      if (current != none) flush(current, sum);
      current = r;
      sum = Sums<Scalar, N>();
    }
    x.fma(sum, val(slot), c);
  }
  if (current != none) flush(current, sum);
}

template <class ExecutionSpace, class IndexView, class ValueView, class XB, class YB, bool HasBeta>
struct AlignedCooSegFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView row, col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  index_type seg_size, num_seg, lanes_per_team;
  const index_type* others;  // rows outside the seg part, scaled by beta here
  std::int64_t other_count, league;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    // 64-bit: the league may outnumber the lanes (teams that only scale).
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * lanes_per_team;
    const std::int64_t end = first + lanes_per_team < seg_size ? first + lanes_per_team : seg_size;
    const std::int64_t last = end > first ? end : first;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t lane) {
      // A lane is slots lane, lane + seg_size, ... (segment-major, coalesced
      // across neighbouring threads); it stops at its first padding slot.
      Sums<scalar, block_width<decltype(y.y)>> sum;
      segment_flush_padded(row, col, val, x, lane, seg_size, num_seg, sum,
                           [&](const auto r, const auto& s) {
                             y.template store<HasBeta>(r, alpha, s, beta);
                           });
    });
    const std::int64_t t = team.league_rank();
    Kokkos::parallel_for(
        Kokkos::TeamThreadRange(team, t * other_count / league, (t + 1) * other_count / league),
        [&](const std::int64_t k) {
          y.template store<HasBeta>(others[k], alpha, Sums<scalar, block_width<decltype(y.y)>>(),
                                    beta);
        });
  }
};

/// in_seg(row(k)) = 1 where slot k of the seg part holds an entry.
template <class IndexView, class MarkView>
struct MarkSegRowsFunctor {
  IndexView row, col;
  MarkView in_seg;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    if (col(k) >= 0) in_seg(row(k)) = 1;  // same value from every slot of the row
  }
};

/// The rows of `a` without an entry in its seg part, increasing: the rows
/// aligned_coo_seg scales by beta (a mark per row and a compaction, on exec).
template <class ExecutionSpace, class Value, class Index, class Device>
Kokkos::View<Index*, typename Device::memory_space> rows_outside_seg(
    const ExecutionSpace& exec, const AlignedCoo<Value, Index, Device>& a) {
  using memory_space = typename Device::memory_space;
  using index_view = typename AlignedCoo<Value, Index, Device>::index_view;
  const std::int64_t rows = a.rows();
  Kokkos::View<int*, memory_space> in_seg(Kokkos::view_alloc(exec, std::string("kobalt::in_seg")),
                                          rows);
  const auto row = a.seg_row_indices();
  const auto col = a.seg_col_indices();
  const std::int64_t slots =
      static_cast<std::int64_t>(a.seg_size()) * static_cast<std::int64_t>(a.num_segments());
  Kokkos::parallel_for(
      "kobalt::mark_seg_rows", range_policy<ExecutionSpace>(exec, 0, slots),
      MarkSegRowsFunctor<index_view, decltype(in_seg)>{row, col, in_seg});
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      "kobalt::count_rows_outside_seg", range_policy<ExecutionSpace>(exec, 0, rows),
      CountUnmarkedRowsFunctor<decltype(in_seg)>{in_seg}, count);
  Kokkos::View<Index*, memory_space> list(
      compat::uninitialized(exec, "kobalt::rows_outside_seg"), static_cast<std::size_t>(count));
  Kokkos::parallel_scan(
      "kobalt::list_rows_outside_seg", range_policy<ExecutionSpace>(exec, 0, rows),
      ListUnmarkedRowsFunctor<Index, decltype(in_seg), decltype(list)>{in_seg, list});
  return list;
}

/// y = alpha * (seg part) * x + beta * y on the seg part's rows and
/// y = beta * y on `others` (the rest, rows_outside_seg; empty when beta is
/// 1), with launch shape s. beta == 0 overwrites: NaN in y does not survive.
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void aligned_coo_seg(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                     const std::string& label, typename YView::non_const_value_type alpha,
                     const AlignedCoo<Value, Index, Device>& a, const XView& x,
                     typename YView::non_const_value_type beta, const YView& y,
                     const Kokkos::View<Index*, typename Device::memory_space>& others) {
  using scalar = typename YView::non_const_value_type;
  const bool lanes = a.seg_size() > 0 && a.num_segments() > 0;
  const std::int64_t other_count = beta == scalar(1) ? 0 : static_cast<std::int64_t>(others.extent(0));
  if (!lanes && other_count == 0) return;
  const Index lanes_per_team = static_cast<Index>(s.rows_per_team);
  // Enough teams for the lanes, and at least one per rows_per_team rows to scale.
  const std::int64_t league = std::max<std::int64_t>(
      lanes ? (static_cast<std::int64_t>(a.seg_size()) + lanes_per_team - 1) / lanes_per_team : 0,
      (other_count + lanes_per_team - 1) / lanes_per_team);
  using matrix = AlignedCoo<Value, Index, Device>;
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    dispatch_beta(beta, [&](auto has_beta) {
      using functor = AlignedCooSegFunctor<ExecutionSpace, typename matrix::index_view,
                                           typename matrix::value_view, decltype(xb),
                                           decltype(yb), decltype(has_beta)::value>;
      team_parallel_for_fitted(
          exec, label, s.team_size, s.vector_length, [league](int) { return league; },
          functor{a.seg_row_indices(), a.seg_col_indices(), a.seg_values(), xb, yb, alpha, beta,
                  lanes ? a.seg_size() : Index(0), a.num_segments(), lanes_per_team,
                  others.data(), other_count, league});
    });
  });
}

/// aligned_coo::seg_then_flat, 004 §IV-D: the seg kernel, which applies
/// beta to every row (its own rows as it stores them, the others from the
/// handle's list), then the flat part with 000 Alg. 1's atomics: two launches.
template <>
struct strategy_kernel<aligned_coo::seg_then_flat> {
  /// The rows outside the seg part, which its seg launch scales by beta;
  /// only read by applies, so theirs may overlap.
  template <class Matrix>
  using workspace = Kokkos::View<typename Matrix::index_type*, typename Matrix::memory_space>;
  /// The list, made on `exec`.
  template <class E, class Matrix>
  static workspace<Matrix> make_workspace(const E& exec, const Matrix& a,
                                          const tuning::SpmvPolicy&) {
    return rows_outside_seg(exec, a);
  }
  /// The seg launch, then the flat launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
                  typename Y::non_const_value_type alpha, const AlignedCoo<V, I, D>& a,
                  const X& x, typename Y::non_const_value_type beta, const Y& y) {
    static const std::string seg_label = kernel_label("aligned_coo", "seg");
    static const std::string flat_label = kernel_label("aligned_coo", "flat");
    aligned_coo_seg(exec, p.launches.at(0), seg_label, alpha, a, x, beta, y, workspace);
    coo_segmented(exec, p.launches.at(1), flat_label, alpha, a.flat().row_indices(),
                  a.flat().col_indices(), a.flat().values(), x, y);
  }
};

/// aligned_coo::flat_then_seg: the flat part as coo::load_balance writes
/// every row (beta applied; with no flat entries y is only scaled), then the
/// seg kernel adds its rows with plain adds (one thread per row).
template <>
struct strategy_kernel<aligned_coo::flat_then_seg> {
  /// The flat part's partial sums (coo::load_balance's), none without flat entries.
  template <class Matrix>
  using workspace = strategy_kernel<coo::load_balance>::workspace<Matrix>;
  /// Chunks of the flat launch's length.
  template <class E, class Matrix>
  static workspace<Matrix> make_workspace(const E& exec, const Matrix& a,
                                          const tuning::SpmvPolicy& policy) {
    return strategy_kernel<coo::load_balance>::for_part(exec, a.flat(), policy.launches.at(0));
  }
  /// The flat launch (or the scaling), then the seg launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
                  typename Y::non_const_value_type alpha, const AlignedCoo<V, I, D>& a,
                  const X& x, typename Y::non_const_value_type beta, const Y& y) {
    using scalar = typename Y::non_const_value_type;
    static const std::string flat_label = kernel_label("aligned_coo", "flat");
    static const std::string seg_label = kernel_label("aligned_coo", "seg");
    if (a.flat().nnz() > 0)
      coo_load_balance(exec, p.launches.at(0), flat_label, alpha, a.flat(), x, beta, y, workspace);
    else
      scale(exec, beta, y);
    // Adds: no rows to scale.
    aligned_coo_seg(exec, p.launches.at(1), seg_label, alpha, a, x, scalar(1), y,
                    Kokkos::View<I*, typename D::memory_space>());
  }
};

}  // namespace kobalt::detail
