// SPDX-License-Identifier: BSD-3-Clause
// The record of sellp::slices (kernels/strategy_kernel.hpp), beside its
// kernel file: the launcher there chooses its body from the launch shape,
// and the record only names that launcher.
#pragma once

#include "common.hpp"
#include "sellp_slices.hpp"
#include "strategy_kernel.hpp"
#include "../formats/sellp.hpp"
#include "../tuning/policy.hpp"
#include "../tuning/strategy.hpp"

namespace kobalt::detail {

/// sellp::slices: whole slices per team, nothing kept between applies.
template <>
struct strategy_kernel<sellp::slices> : without_workspace {
  /// One launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W&,
                  typename Y::non_const_value_type alpha, const Sellp<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    sellp_slices(exec, p.launches.at(0), kernel_label("sellp", "slices"), alpha, a, x, beta, y);
  }
};

}  // namespace kobalt::detail
