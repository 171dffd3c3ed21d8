// SPDX-License-Identifier: BSD-3-Clause
// ELL kernel of seed 000 §3.4 (Alg. 3-4): the lanes of a subwarp stride over
// a row's slots and stop at the first padding slot, since a row's entries
// precede its padding; each lane loads its slots in batches (row_reduce.hpp).
// With one part per row a row belongs to one subwarp and y is stored once
// (no atomics). With `row_parts` > 1 (Alg. 4's nwarps_per_row, rows much
// wider than the GPU has rows to spread over) part p of a row takes slots
// p*L + lane, p*L + lane + P*L, ... and adds into y atomically (Alg. 3's
// atomic_add), y having been scaled by beta first.
//
// One lane and one part per row run as a thread per row
// (ell_sellp_thread_per_row.hpp); otherwise: league entry -> rows_per_team
// consecutive (row, part) units; team thread -> one unit; vector lane ->
// that unit's slots (L = vector length from 000 Alg. 4), reduced over the
// lanes (row_reduce.hpp).
#pragma once

#include "common.hpp"
#include "strategy_kernel.hpp"
#include "row_reduce.hpp"
#include "ell_sellp_thread_per_row.hpp"
#include "../formats/ell.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XB, class YB,
          bool HasBeta>
struct EllRowFunctor {
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  std::int64_t units, width, stride, rows_per_team;
  int lanes, parts;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
    const std::int64_t last = first + rows_per_team < units ? first + rows_per_team : units;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t u) {
      const std::int64_t i = u / parts;
      Sums<scalar, block_width<decltype(y.y)>> sum;
      row_reduce_strided(team, lanes, col, val, x, i, stride, width, sum, u % parts,
                         std::int64_t(parts));
      Kokkos::single(Kokkos::PerThread(team), [&]() {
        if (parts > 1)
          y.atomic_add(i, alpha, sum);
        else
          y.template store<HasBeta>(i, alpha, sum, beta);
      });
    });
  }
};

/// y = alpha*A*x + beta*y for an Ell with launch shape s (s.row_parts
/// subwarps per row; y fully written, beta == 0 overwrites).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void ell_rows(const ExecutionSpace& exec, const tuning::LaunchShape& s, const std::string& label,
              typename YView::non_const_value_type alpha, const Ell<Value, Index, Device>& a,
              const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  using matrix = Ell<Value, Index, Device>;
  using scalar = typename YView::non_const_value_type;
  const std::int64_t rows = a.rows();
  if (rows == 0) return;
  const int parts = s.row_parts > 1 ? s.row_parts : 1;
  if (s.vector_length <= 1 && parts == 1) {  // a thread per row (ell_sellp_thread_per_row.hpp)
    ell_sellp_thread_per_row(exec, label, alpha, rows, a.nnz(), a.stored(),
              a.col_indices().data(), a.values().data(),
              [&](auto offset) {
                using Offset = decltype(offset);
                return EllRowSlots<Offset>{Offset(a.stride()), Offset(a.stored_per_row())};
              },
              x, beta, y);
    return;
  }
  const std::int64_t units = rows * parts;
  const std::int64_t league = (units + s.rows_per_team - 1) / s.rows_per_team;
  if (parts > 1) scale(exec, beta, y);
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    dispatch_beta(parts > 1 ? scalar(0) : beta, [&](auto has_beta) {
      using functor = EllRowFunctor<ExecutionSpace, typename matrix::index_view,
                                    typename matrix::value_view, decltype(xb), decltype(yb),
                                    decltype(has_beta)::value>;
      team_parallel_for_fitted(exec, label, s.team_size, s.vector_length,
                               [league](int) { return league; },
                               functor{a.col_indices(), a.values(), xb, yb, alpha, beta, units,
                                       a.stored_per_row(), a.stride(), s.rows_per_team,
                                       s.vector_length, parts});
    });
  });
}

/// ell::rows: a subwarp (or several) per row.
template <>
struct strategy_kernel<ell::rows> : without_workspace {
  /// One launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W&,
                  typename Y::non_const_value_type alpha, const Ell<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string rows_label = kernel_label("ell", "rows");
    ell_rows(exec, p.launches.at(0), rows_label, alpha, a, x, beta, y);
  }
};

}  // namespace kobalt::detail
