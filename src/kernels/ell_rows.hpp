// SPDX-License-Identifier: BSD-3-Clause
// Portable ELL kernel with early stopping (seed 000 §3.4, Alg. 3): the lanes
// of a row stride over its slots and stop at the first padding slot, since a
// row's entries precede its padding. Each row is owned by one team thread,
// so y is written once with store_row (no atomics; 000's several-warps-per-
// row variant with atomic_add is the tuned GPU kernel, not this one).
//
// Mapping: league entry -> rows_per_team consecutive rows; team thread -> one
// row; vector lane -> slots lane, lane + L, lane + 2L, ... of that row
// (L = vector length from 000 Alg. 4), reduced over the lanes.
#pragma once

#include "common.hpp"
#include "../formats/ell.hpp"
#include "../tuning/select.hpp"

#include <cstdint>
#include <type_traits>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView,
          bool HasBeta>
struct EllRowFunctor {
  using scalar = typename YView::non_const_value_type;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView col;
  ValueView val;
  XView x;
  YView y;
  scalar alpha, beta;
  std::int64_t rows, width, stride, rows_per_team;
  int lanes;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
    const std::int64_t last = first + rows_per_team < rows ? first + rows_per_team : rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t i) {
      scalar sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, lanes),
          [&](const int lane, scalar& s) {
            for (std::int64_t k = lane; k < width; k += lanes) {
              const std::int64_t slot = k * stride + i;
              const auto c = col(slot);
              if (c < 0) break;  // 000 Alg. 3 line 6-7: padding only follows entries
              s += scalar(val(slot)) * scalar(x(c));
            }
          },
          sum);
      Kokkos::single(Kokkos::PerThread(team),
                     [&]() { store_row<HasBeta>(y(i), alpha, sum, beta); });
    });
  }
};

/// y = alpha*A*x + beta*y for an Ell with launch shape p (y fully written,
/// beta == 0 overwrites).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void ell_rows(const ExecutionSpace& exec, const std::string& label, const SpmvPolicy& p,
              typename YView::non_const_value_type alpha, const Ell<Value, Index, Device>& a,
              const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  using matrix = Ell<Value, Index, Device>;
  const std::int64_t rows = a.rows();
  if (rows == 0) return;
  const std::int64_t league = (rows + p.rows_per_team - 1) / p.rows_per_team;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, league, p.team_size, p.vector_length);
  auto launch = [&](auto has_beta) {
    using functor = EllRowFunctor<ExecutionSpace, typename matrix::index_view,
                                  typename matrix::value_view, XView, YView,
                                  decltype(has_beta)::value>;
    Kokkos::parallel_for(label, policy,
                         functor{a.col_indices(), a.values(), x, y, alpha, beta, rows,
                                 a.stored_per_row(), a.stride(),
                                 static_cast<std::int64_t>(p.rows_per_team), p.vector_length});
  };
  dispatch_beta(beta, launch);
}

template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void apply(const ExecutionSpace& exec, typename YView::non_const_value_type alpha,
           const Ell<Value, Index, Device>& a, const XView& x,
           typename YView::non_const_value_type beta, const YView& y) {
  ell_rows(exec, kernel_label("ell", "rows"),
           tuning::select_ell_policy<ExecutionSpace>(a.rows(), a.stored_per_row()), alpha, a, x,
           beta, y);
}

}  // namespace kobalt::detail
