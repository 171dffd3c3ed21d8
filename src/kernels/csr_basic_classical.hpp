// SPDX-License-Identifier: BSD-3-Clause
// CSR row kernel: "basic" (one thread per row, 003) and "classical" (a
// subwarp per row, 003 Alg. 2) are this one body; the launch shape sets the
// lanes per row.
//
// Mapping: league entry -> rows_per_team consecutive rows; team thread -> one
// row; vector lane -> a strided share of that row's nonzeros, reduced
// (row_reduce.hpp). Rank-2 x/y: each entry feeds a block of columns.
// Below one wave (rows x lanes threads), where the longest row gives a lane
// more than one batch of slots, one right-hand side of real values loads a
// batch per lane before using them: the same sum, fewer round trips.
#pragma once

#include "common.hpp"
#include "strategy_kernel.hpp"
#include "row_reduce.hpp"
#include "../formats/csr.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt::detail {

template <class ExecutionSpace, class OffsetView, class IndexView, class ValueView, class XB,
          class YB, bool HasBeta, int Batch = 1>
struct CsrRowFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  OffsetView row_ptr;
  IndexView col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  index_type rows, rows_per_team;
  int lanes;  // the launch's vector length (Batch > 1 walks it itself)

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const index_type first = static_cast<index_type>(team.league_rank()) * rows_per_team;
    // rows - first, not first + rows_per_team: no overflow near the index's top.
    const index_type last = rows - first > rows_per_team ? first + rows_per_team : rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const index_type i) {
      Sums<scalar, block_width<decltype(y.y)>> sum;
      if constexpr (Batch > 1)
        row_reduce_contiguous_batched<Batch>(team, lanes, col, val, x, row_ptr(i), row_ptr(i + 1),
                                             sum);
      else
        row_reduce_contiguous(team, col, val, x, row_ptr(i), row_ptr(i + 1), sum);
      Kokkos::single(Kokkos::PerThread(team),
                     [&]() { y.template store<HasBeta>(i, alpha, sum, beta); });
    });
  }
};

/// y = alpha*A*x + beta*y for a Csr with launch shape s (y fully written,
/// beta == 0 overwrites).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset, class XView,
          class YView>
void csr_basic_classical(const ExecutionSpace& exec, const tuning::LaunchShape& s, const std::string& label,
              typename YView::non_const_value_type alpha,
              const Csr<Value, Index, Device, Offset>& a,
              const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  using matrix = Csr<Value, Index, Device, Offset>;
  const Index rows = a.rows();
  if (rows == 0) return;
  const Index per_team = static_cast<Index>(s.rows_per_team);
  const std::int64_t league = (static_cast<std::int64_t>(rows) + per_team - 1) / per_team;
  // Shorter rows end within their first batch, which then only adds
  // instructions (docs/sources.md: "slot_batch").
  const std::int64_t lanes = s.vector_length;
  const bool short_wave = below_one_wave(exec, static_cast<std::int64_t>(rows) * lanes) &&
                          a.max_row_nnz() > std::int64_t{short_wave_slot_batch} * lanes;
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    dispatch_beta(beta, [&](auto has_beta) {
      const auto run = [&](auto batch) {
        using functor =
            CsrRowFunctor<ExecutionSpace, typename matrix::row_ptr_view,
                          typename matrix::col_view, typename matrix::val_view, decltype(xb),
                          decltype(yb), decltype(has_beta)::value, decltype(batch)::value>;
        team_parallel_for_fitted(exec, label, s.team_size, s.vector_length,
                                 [league](int) { return league; },
                                 functor{a.row_ptr(), a.col_indices(), a.values(), xb, yb, alpha,
                                         beta, rows, per_team, s.vector_length});
      };
      // Real values only, as in ell_sellp_thread_per_row.hpp: complex ones
      // would double the registers.
      if constexpr (decltype(yb)::count_max == 1 && std::is_floating_point_v<Value>) {
        if (short_wave) {
          run(std::integral_constant<int, short_wave_slot_batch>{});
          return;
        }
      }
      run(std::integral_constant<int, 1>{});
    });
  });
}

/// The records of csr::basic (one thread per row) and csr::classical (a
/// subwarp per row): one launch of the row kernel, labelled by the tag's name.
template <class Strategy>
struct csr_rows_kernel : without_workspace {
  /// One launch.
  template <class E, class V, class I, class D, class O, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W&,
                  typename Y::non_const_value_type alpha, const Csr<V, I, D, O>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string strategy_label = kernel_label("csr", Strategy::name);
    csr_basic_classical(exec, p.launches.at(0), strategy_label, alpha, a, x,
                        beta, y);
  }
};
/// csr::basic: one thread per row.
template <>
struct strategy_kernel<csr::basic> : csr_rows_kernel<csr::basic> {};
/// csr::classical: a subwarp per row.
template <>
struct strategy_kernel<csr::classical> : csr_rows_kernel<csr::classical> {};

}  // namespace kobalt::detail
