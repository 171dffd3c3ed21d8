// SPDX-License-Identifier: BSD-3-Clause
// Portable ELL kernel with early stopping (seed 000 §3.4, Alg. 3): the lanes
// of a row stride over its slots and stop at the first padding slot, since a
// row's entries precede its padding. Each row is owned by one team thread,
// so y is written once (no atomics; 000's several-warps-per-row variant with
// atomic_add is the tuned GPU kernel, not this one).
//
// Mapping: league entry -> rows_per_team consecutive rows; team thread -> one
// row; vector lane -> slots lane, lane + L, lane + 2L, ... of that row
// (L = vector length from 000 Alg. 4), reduced over the lanes (row_reduce.hpp).
#pragma once

#include "common.hpp"
#include "row_reduce.hpp"
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
  std::int64_t rows, width, stride, rows_per_team;
  int lanes;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
    const std::int64_t last = first + rows_per_team < rows ? first + rows_per_team : rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t i) {
      Sums<scalar, block_width<decltype(y.y)>> sum;
      row_reduce_strided(team, lanes, col, val, x, i, stride, width, sum);
      Kokkos::single(Kokkos::PerThread(team),
                     [&]() { y.template store<HasBeta>(i, alpha, sum, beta); });
    });
  }
};

/// y = alpha*A*x + beta*y for an Ell with launch shape s (y fully written,
/// beta == 0 overwrites).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void ell_rows(const ExecutionSpace& exec, const tuning::LaunchShape& s, const std::string& label,
              typename YView::non_const_value_type alpha, const Ell<Value, Index, Device>& a,
              const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  using matrix = Ell<Value, Index, Device>;
  const std::int64_t rows = a.rows();
  if (rows == 0) return;
  const std::int64_t league = (rows + s.rows_per_team - 1) / s.rows_per_team;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, static_cast<int>(league), s.team_size,
                                            s.vector_length);
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    dispatch_beta(beta, [&](auto has_beta) {
      using functor = EllRowFunctor<ExecutionSpace, typename matrix::index_view,
                                    typename matrix::value_view, decltype(xb), decltype(yb),
                                    decltype(has_beta)::value>;
      Kokkos::parallel_for(label, policy,
                           functor{a.col_indices(), a.values(), xb, yb, alpha, beta, rows,
                                   a.stored_per_row(), a.stride(), s.rows_per_team,
                                   s.vector_length});
    });
  });
}

}  // namespace kobalt::detail
