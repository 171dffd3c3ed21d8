// SPDX-License-Identifier: BSD-3-Clause
// CSR-k kernel: GPUSpMV-3 and GPUSpMV-3.5 (seed 002 §3, Listings 3-4) in
// portable Kokkos; with one thread and one lane per team it is the CPU
// kernel of Listing 1 (nested loops over the groups, super-rows and rows).
//
// Mapping (one functor for k = 2 and k = 3):
//   league entry -> one super-super-row (k = 3) or one super-row (k = 2);
//   team thread t -> super-row slot t / R and row slot t % R, where
//     R = policy.row_threads. The S = team_size / R super-row slots walk the
//     group's super-rows s, s + S, ... (the paper's blockDim.y in
//     GPUSpMV-3, z in 3.5); the R row slots walk each super-row's rows
//     r, r + R, ... (blockDim.x in 3, y in 3.5). k = 2: S = 1;
//   vector lane -> a strided share of one row's nonzeros, reduced
//     (GPUSpMV-3.5's x dimension, Listing 4's temp[] reduction done by
//     Kokkos); vector_length 1 = each row serial (GPUSpMV-3).
// Permutation hidden from the user: a permuted CsrK stores A' = P A P^T.
// x is gathered into x' = P x first (kernel "permute_x"); the kernel then
// writes row i's result straight to y(perm(i)): the scatter y = P^T y' is
// fused into the epilogue, so no y' is materialised, beta * y reads the
// entry it updates, and beta == 0 overwrites every entry of y exactly once
// (perm is a bijection): NaN in y does not survive. Two launches per apply
// instead of three or four (gather x, [gather y], compute, scatter y); each
// launch costs 4-6 µs on the H200 (KOKKOS_ON_H200.md).
#pragma once

#include "common.hpp"
#include "../errors.hpp"
#include "../formats/csrk.hpp"
#include "../tuning/csrk_policy.hpp"

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XView, class YView,
          bool HasBeta, bool Permuted, bool ThreeLevels>
struct CsrkFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YView::non_const_value_type;
  using member =
      typename Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>::member_type;

  IndexView row_ptr, col;
  ValueView val;
  IndexView sr_ptr, ssr_ptr, perm;
  XView x;
  YView y;
  scalar alpha, beta;
  int row_threads, super_row_threads;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const index_type group = static_cast<index_type>(team.league_rank());
    index_type sr_first = group, sr_last = group + 1;
    if constexpr (ThreeLevels) {
      sr_first = ssr_ptr(group);
      sr_last = ssr_ptr(group + 1);
    }
    const int t = team.team_rank();
    const index_type sr_slot = static_cast<index_type>(t / row_threads);
    const index_type row_slot = static_cast<index_type>(t % row_threads);
    for (index_type s = sr_first + sr_slot; s < sr_last; s += super_row_threads) {
      const index_type row_last = sr_ptr(s + 1);
      for (index_type i = sr_ptr(s) + row_slot; i < row_last; i += row_threads) {
        scalar sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, row_ptr(i), row_ptr(i + 1)),
            [&](const index_type k, scalar& partial) {
              partial += scalar(val(k)) * scalar(x(col(k)));
            },
            sum);
        Kokkos::single(Kokkos::PerThread(team), [&]() {
          if constexpr (Permuted) {
            store_row<HasBeta>(y(perm(i)), alpha, sum, beta);
          } else {
            store_row<HasBeta>(y(i), alpha, sum, beta);
          }
        });
      }
    }
  }
};

/// x_permuted(i) = x(perm(i)): x' = P x, in the permuted numbering.
template <class ExecutionSpace, class PermView, class XView, class WorkView>
void permute_x(const ExecutionSpace& exec, const PermView& perm, const XView& x,
               const WorkView& x_permuted) {
  using index_type = typename PermView::non_const_value_type;
  Kokkos::parallel_for(
      kernel_label("csrk", "permute_x"),
      Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<std::int64_t>(perm.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t i) { x_permuted(i) = x(perm(static_cast<index_type>(i))); });
}

template <class ExecutionSpace, class Matrix, class XView, class YView>
void csrk_launch(const ExecutionSpace& exec, const CsrkPolicy& p,
                 typename YView::non_const_value_type alpha, const Matrix& a, const XView& x,
                 typename YView::non_const_value_type beta, const YView& y) {
  using csr_type = typename Matrix::csr_type;
  const std::int64_t groups = a.k() == 3 ? a.num_super_super_rows() : a.num_super_rows();
  if (groups > INT_MAX)
    throw index_overflow("kobalt::spmv<csrk>: " + std::to_string(groups) +
                         " league entries exceed a Kokkos league (INT_MAX); use larger "
                         "super-rows");
  if (groups == 0) return;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>;
  policy_type policy(exec, static_cast<int>(groups), p.team_size, p.vector_length);
  const csr_type& m = a.matrix();
  auto launch = [&](auto has_beta, auto permuted, auto three_levels) {
    using functor =
        CsrkFunctor<ExecutionSpace, typename csr_type::index_view, typename csr_type::value_view,
                    XView, YView, decltype(has_beta)::value, decltype(permuted)::value,
                    decltype(three_levels)::value>;
    Kokkos::parallel_for(kernel_label("csrk", decltype(three_levels)::value ? "k3" : "k2"),
                         policy,
                         functor{m.row_ptr(), m.col_indices(), m.values(), a.sr_ptr(),
                                 a.ssr_ptr(), a.permutation(), x, y, alpha, beta,
                                 p.row_threads, p.super_row_threads()});
  };
  auto with_levels = [&](auto has_beta, auto permuted) {
    if (a.k() == 3)
      launch(has_beta, permuted, std::true_type{});
    else
      launch(has_beta, permuted, std::false_type{});
  };
  auto with_permutation = [&](auto has_beta) {
    if (a.is_permuted())
      with_levels(has_beta, std::true_type{});
    else
      with_levels(has_beta, std::false_type{});
  };
  dispatch_beta(beta, with_permutation);
}

/// y = alpha*A*x + beta*y for a CsrK with an explicit launch shape (apply()
/// takes A's policy() or tuning::select_csrk_policy). x and y
/// are in the ORIGINAL numbering. Throws invalid_parameter for a shape whose
/// team_size is not a multiple of row_threads.
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void csrk_spmv(const ExecutionSpace& exec, const CsrkPolicy& p,
               typename YView::non_const_value_type alpha, const CsrK<Value, Index, Device>& a,
               const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  if (p.team_size < 1 || p.vector_length < 1 || p.row_threads < 1 ||
      p.team_size % p.row_threads != 0)
    throw invalid_parameter("kobalt::spmv<csrk>: launch shape " + p.str() +
                            " needs team_size a positive multiple of row_threads");
  if (!a.is_permuted()) {
    csrk_launch(exec, p, alpha, a, x, beta, y);
    return;
  }
  using x_scalar = typename XView::non_const_value_type;
  const auto x_permuted = a.template work_vector<x_scalar>(x.extent(0));
  permute_x(exec, a.permutation(), x, x_permuted);
  csrk_launch(exec, p, alpha, a, x_permuted, beta, y);
}

template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void apply(const ExecutionSpace& exec, typename YView::non_const_value_type alpha,
           const CsrK<Value, Index, Device>& a, const XView& x,
           typename YView::non_const_value_type beta, const YView& y) {
  if (a.policy()) {
    csrk_spmv(exec, *a.policy(), alpha, a, x, beta, y);
    return;
  }
  const double rdensity =
      a.rows() > 0 ? static_cast<double>(a.nnz()) / static_cast<double>(a.rows()) : 0.0;
  csrk_spmv(exec, tuning::select_csrk_policy<ExecutionSpace>(a.k(), rdensity), alpha, a, x,
            beta, y);
}

}  // namespace kobalt::detail
