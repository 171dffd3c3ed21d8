// SPDX-License-Identifier: BSD-3-Clause
// CSR row kernels: "basic" (one thread per row, 003) and "classical" (a
// subwarp per row, 003 Alg. 2). One body; the policy sets the lanes per row.
//
// Mapping: league entry -> rows_per_team consecutive rows; team thread -> one
// row; vector lane -> a strided share of that row's nonzeros, reduced.
#pragma once

#include "common.hpp"
#include "../formats/csr.hpp"
#include "../tuning/select.hpp"

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView,
          bool HasBeta>
struct CsrRowFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YView::non_const_value_type;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView row_ptr, col;
  ValueView val;
  XView x;
  YView y;
  scalar alpha, beta;
  index_type rows, rows_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const index_type first = static_cast<index_type>(team.league_rank()) * rows_per_team;
    const index_type last = first + rows_per_team < rows ? first + rows_per_team : rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const index_type i) {
      scalar sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, row_ptr(i), row_ptr(i + 1)),
          [&](const index_type k, scalar& s) { s += scalar(val(k)) * scalar(x(col(k))); }, sum);
      Kokkos::single(Kokkos::PerThread(team),
                     [&]() { store_row<HasBeta>(y(i), alpha, sum, beta); });
    });
  }
};

template <class ExecutionSpace, class Matrix, class XView, class YView>
void csr_rows(const ExecutionSpace& exec, const char* label, const SpmvPolicy& p,
              typename YView::non_const_value_type alpha, const Matrix& a, const XView& x,
              typename YView::non_const_value_type beta, const YView& y) {
  using index_type = typename Matrix::index_type;
  const index_type rows = a.rows();
  const index_type league = (rows + p.rows_per_team - 1) / p.rows_per_team;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, league, p.team_size, p.vector_length);
  auto launch = [&](auto has_beta) {
    using functor = CsrRowFunctor<ExecutionSpace, typename Matrix::index_view, typename Matrix::value_view,
                                  XView, YView, decltype(has_beta)::value>;
    Kokkos::parallel_for(detail::kernel_label("csr", label), policy,
                         functor{a.row_ptr(), a.col_indices(), a.values(), x, y, alpha, beta,
                                 rows, static_cast<index_type>(p.rows_per_team)});
  };
  dispatch_beta(beta, launch);
}

template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void apply(const ExecutionSpace& exec, typename YView::non_const_value_type alpha,
           const Csr<Value, Index, Device>& a, const XView& x,
           typename YView::non_const_value_type beta, const YView& y) {
  std::visit(
      [&](auto s) {
        using strategy = decltype(s);
        if constexpr (std::is_same_v<strategy, csr::basic>) {
          csr_rows(exec, "basic", tuning::select_csr_basic_policy<ExecutionSpace>(), alpha, a,
                   x, beta, y);
        } else {
          csr_rows(exec, "classical",
                   tuning::select_csr_classical_policy<ExecutionSpace>(a.max_row_nnz()), alpha,
                   a, x, beta, y);
        }
      },
      a.strategy());
}

}  // namespace kobalt::detail
