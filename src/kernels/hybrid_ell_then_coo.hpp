// SPDX-License-Identifier: BSD-3-Clause
// The records of both Hybrid strategies (000 §4): the ELL part by ell_rows,
// which writes every row of y (beta applied; beta == 0 overwrites), then the
// COO part adds, with atomics (coo_segmented) or split rows combined in
// chunk order (coo_load_balance). No kernel of their own: they compose.
#pragma once

#include "common.hpp"
#include "coo_load_balance.hpp"
#include "coo_segmented.hpp"
#include "ell_rows.hpp"
#include "strategy_kernel.hpp"
#include "../formats/hybrid.hpp"
#include "../tuning/policy.hpp"
#include "../tuning/strategy.hpp"

namespace kobalt::detail {

/// hybrid::ell_then_coo: y needs no separate scaling, except that an ELL
/// part of width 0 only scales y; then the COO kernel accumulates.
template <>
struct strategy_kernel<hybrid::ell_then_coo> : without_workspace {
  /// The ELL launch (or the scaling), then the COO launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W&,
                  typename Y::non_const_value_type alpha, const Hybrid<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string ell_label = kernel_label("hybrid", "ell");
    static const std::string coo_label = kernel_label("hybrid", "coo");
    if (a.ell_width() == 0)
      scale(exec, beta, y);
    else
      ell_rows(exec, p.launches.at(0), ell_label, alpha, a.ell(), x, beta, y);
    const auto& coo = a.coo();
    coo_segmented(exec, p.launches.at(1), coo_label, alpha, coo.row_indices(),
                  coo.col_indices(), coo.values(), x, y);
  }
};

/// hybrid::ell_then_load_balance: the same ELL launch, then the COO part as
/// coo::load_balance with beta = 1 (rows it does not hold keep the ELL
/// result; kernels/coo_load_balance.hpp skips them). An ELL part of width 0:
/// the COO part applies beta itself, one launch.
template <>
struct strategy_kernel<hybrid::ell_then_load_balance> {
  /// The COO part's partial sums (coo::load_balance's), none without COO entries.
  template <class Matrix>
  using workspace = strategy_kernel<coo::load_balance>::workspace<Matrix>;
  /// Chunks of the COO launch's length.
  template <class E, class Matrix>
  static workspace<Matrix> make_workspace(const E& exec, const Matrix& a,
                                          const tuning::SpmvPolicy& policy) {
    return strategy_kernel<coo::load_balance>::for_part(exec, a.coo(), policy.launches.at(1));
  }
  /// The ELL launch, then the COO launch (either may be left out).
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
                  typename Y::non_const_value_type alpha, const Hybrid<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    using scalar = typename Y::non_const_value_type;
    static const std::string ell_label = kernel_label("hybrid", "ell");
    static const std::string coo_label = kernel_label("hybrid", "coo");
    if (a.ell_width() > 0) {
      ell_rows(exec, p.launches.at(0), ell_label, alpha, a.ell(), x, beta, y);
      beta = scalar(1);
    }
    if (a.coo().nnz() > 0)
      coo_load_balance(exec, p.launches.at(1), coo_label, alpha, a.coo(), x,
                       beta, y, workspace);
    else if (a.ell_width() == 0)
      scale(exec, beta, y);
  }
};

}  // namespace kobalt::detail
