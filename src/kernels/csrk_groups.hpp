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
// x is gathered into x' = P x first (kernel "permute_x", into the handle's
// workspace for rank-1 x, a per-apply buffer for a rank-2 block); the kernel then
// writes row i's result straight to y(perm(i)): the scatter y = P^T y' is
// fused into the epilogue, so no y' is materialised, beta * y reads the
// entry it updates, and beta == 0 overwrites every entry of y exactly once
// (perm is a bijection): NaN in y does not survive. Two launches per apply
// instead of three or four (gather x, [gather y], compute, scatter y): each
// launch costs as much as a small SpMV (docs/sources.md: "Launch cost").
#pragma once

#include "../range.hpp"
#include "common.hpp"
#include "row_reduce.hpp"
#include "strategy_kernel.hpp"
#include "../errors.hpp"
#include "../formats/csrk.hpp"
#include "../tuning/policy.hpp"

#include <climits>
#include <sstream>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XB, class YB,
          bool HasBeta, bool Permuted, bool ThreeLevels>
struct CsrkFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member =
      typename Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>::member_type;

  IndexView row_ptr, col;
  ValueView val;
  IndexView sr_ptr, ssr_ptr, perm;
  XB x;
  YB y;
  scalar alpha, beta;
  int row_threads, super_row_threads, lanes;

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
        Sums<scalar, block_width<decltype(y.y)>> sum;
        // GPUSpMV-3: the row serial, its loads batched (slot_batch; measured
        // in docs/sources.md).
        if (lanes == 1)
          sum_strided_slots(col, val, x, row_ptr(i), index_type(1), index_type(0), index_type(1),
                            row_ptr(i + 1) - row_ptr(i), sum);
        else
          row_reduce_contiguous(team, col, val, x, row_ptr(i), row_ptr(i + 1), sum);
        Kokkos::single(Kokkos::PerThread(team), [&]() {
          if constexpr (Permuted) {
            y.template store<HasBeta>(perm(i), alpha, sum, beta);
          } else {
            y.template store<HasBeta>(i, alpha, sum, beta);
          }
        });
      }
    }
  }
};

/// x_permuted(i) = x(perm(i)), or for a block x_permuted(i, j) =
/// x(perm(i), first + j) for j < count: row i of x' = P x.
template <class PermView, class XView, class WorkView>
struct PermuteXFunctor {
  using index_type = typename PermView::non_const_value_type;
  PermView perm;
  XView xv;
  WorkView x_permuted;
  int first, count;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const index_type p = perm(static_cast<index_type>(i));
    if constexpr (compat::rank_v<WorkView> == 1) {
      x_permuted(i) = xv(p);
    } else {
      for (int j = 0; j < count; ++j) x_permuted(i, j) = xv(p, first + j);
    }
  }
};

/// x_permuted(i, j) = x(perm(i), first + j) for the block's columns:
/// x' = P x, in the permuted numbering.
template <class ExecutionSpace, class PermView, class XB, class WorkView>
void permute_x(const ExecutionSpace& exec, const PermView& perm, const XB& x,
               const WorkView& x_permuted) {
  const std::int64_t n = static_cast<std::int64_t>(perm.extent(0));
  static const std::string permute_x_label = kernel_label("csrk", "permute_x");
  Kokkos::parallel_for(
      permute_x_label, range_policy<ExecutionSpace>(exec, 0, n),
      PermuteXFunctor<PermView, decltype(x.x), WorkView>{perm, x.x, x_permuted, x.first,
                                                         x.count});
}

inline std::string shape_text(const tuning::LaunchShape& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

/// Throws invalid_parameter unless s is a CSR-k launch shape (team_size a
/// positive multiple of row_threads).
inline void check_csrk_shape(const tuning::LaunchShape& s) {
  if (s.team_size < 1 || s.vector_length < 1 || s.row_threads < 1 ||
      s.team_size % s.row_threads != 0)
    throw invalid_parameter("kobalt::spmv<csrk>: launch shape " + shape_text(s) +
                            " needs team_size a positive multiple of row_threads");
}

/// y = alpha*A*x + beta*y for a CsrK with launch shape s; x and y in the
/// ORIGINAL numbering. A permuted CsrK gathers P x into `workspace` (at
/// least cols() values of x's type) for rank-1 x, into a buffer of its own
/// for each block of a rank-2 x.
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView,
          class Workspace>
void csrk_groups(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                 typename YView::non_const_value_type alpha, const CsrK<Value, Index, Device>& a,
                 const XView& x, typename YView::non_const_value_type beta, const YView& y,
                 const Workspace& workspace) {
  using csr_type = typename CsrK<Value, Index, Device>::csr_type;
  using x_scalar = typename XView::non_const_value_type;
  check_csrk_shape(s);
  const std::int64_t groups = a.k() == 3 ? a.num_super_super_rows() : a.num_super_rows();
  if (groups > INT_MAX)
    throw index_overflow("kobalt::spmv<csrk>: " + std::to_string(groups) +
                         " league entries exceed a Kokkos league (INT_MAX); use larger "
                         "super-rows");
  if (groups == 0) return;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>;
  const auto policy = checked_team_policy<policy_type>(exec, "kobalt::spmv<csrk>", groups,
                                                       s.team_size, s.vector_length);
  const csr_type& m = a.matrix();
  auto launch = [&](auto xb, auto yb, auto has_beta, auto permuted, auto three_levels) {
    // The matrix's arrays are const Views; CsrK's pointers convert to them.
    using functor = CsrkFunctor<ExecutionSpace, typename csr_type::col_view,
                                typename csr_type::val_view, decltype(xb), decltype(yb),
                                decltype(has_beta)::value, decltype(permuted)::value,
                                decltype(three_levels)::value>;
    static const std::string levels_label =
        kernel_label("csrk", decltype(three_levels)::value ? "k3" : "k2");
    team_parallel_for(levels_label, policy,
                      functor{m.row_ptr(), m.col_indices(), m.values(), a.sr_ptr(), a.ssr_ptr(),
                              a.permutation(), xb, yb, alpha, beta, s.row_threads,
                              s.super_row_threads(), s.vector_length});
  };
  auto with_levels = [&](auto xb, auto yb, auto has_beta, auto permuted) {
    if (a.k() == 3)
      launch(xb, yb, has_beta, permuted, std::true_type{});
    else
      launch(xb, yb, has_beta, permuted, std::false_type{});
  };
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    dispatch_beta(beta, [&](auto has_beta) {
      if (!a.is_permuted()) {
        with_levels(xb, yb, has_beta, std::false_type{});
      } else if constexpr (compat::rank_v<XView> == 1) {
        using unmanaged = Kokkos::View<x_scalar*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
        const unmanaged xp(reinterpret_cast<x_scalar*>(workspace.data()), x.extent(0));
        permute_x(exec, a.permutation(), xb, xp);
        with_levels(XBlock<unmanaged>{xp, 0, 1}, yb, has_beta, std::true_type{});
      } else {
        using block = Kokkos::View<x_scalar**, Kokkos::LayoutLeft, Device>;
        const block xp(compat::uninitialized("kobalt::csrk::x_permuted"), x.extent(0),
                       static_cast<std::size_t>(decltype(xb)::count_max));
        permute_x(exec, a.permutation(), xb, xp);
        with_levels(XBlock<block>{xp, 0, xb.count}, yb, has_beta, std::true_type{});
      }
    });
  });
}

/// csrk::groups: a permuted CsrK keeps room for P x of a rank-1 apply.
template <>
struct strategy_kernel<csrk::groups> {
  /// a.cols() values for a permuted CsrK, empty otherwise.
  template <class Matrix>
  using workspace = workspace_view<Matrix>;
  /// Allocated (not filled) on `exec` where the matrix is permuted.
  template <class E, class Matrix>
  static workspace<Matrix> make_workspace(const E& exec, const Matrix& a,
                                          const tuning::SpmvPolicy&) {
    if (!a.is_permuted()) return {};
    return workspace<Matrix>(compat::uninitialized(exec, "kobalt::workspace"),
                             static_cast<std::size_t>(a.cols()));
  }
  /// One launch (after the gather of a permuted CsrK).
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
                  typename Y::non_const_value_type alpha, const CsrK<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    csrk_groups(exec, p.launches.at(0), alpha, a, x, beta, y, workspace);
  }
};

}  // namespace kobalt::detail
