// SPDX-License-Identifier: BSD-3-Clause
// Portable SELL-P kernel (seed 000 §3.5, Alg. 5): one team per slice, one
// thread per row, each row summed over its slice's width and written to y
// directly (no atomics, no reduction across threads). A row stops at its
// first padding slot, as in 000 Alg. 3 (Alg. 5 walks the full slice width;
// stopping early reads less and gives the same sum). 001's b x t threads per
// slice with a fan-in reduction in team scratch is the tuned GPU kernel.
//
// Mapping: league entry -> one slice (b consecutive rows); team thread -> one
// row of the slice; vector lane -> slots lane, lane + L, ... of that row
// (row_reduce.hpp; L = 1 from tuning::select, one thread per row as in 000 §3.5).
#pragma once

#include "common.hpp"
#include "row_reduce.hpp"
#include "../formats/sellp.hpp"
#include "../tuning/policy.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace kobalt::detail {

template <class ExecutionSpace, class IndexView, class ValueView, class XB, class YB,
          bool HasBeta>
struct SellpSliceFunctor {
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  IndexView slice_sets, slice_lengths, col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  std::int64_t rows, slice_size, slices;
  int lanes;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    // More slices than an int league can count are taken in a grid stride.
    for (std::int64_t s = team.league_rank(); s < slices; s += team.league_size()) {
      const std::int64_t first = s * slice_size;
      const std::int64_t count = rows - first < slice_size ? rows - first : slice_size;
      const std::int64_t base = slice_sets(s), width = slice_lengths(s);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](const std::int64_t r) {
        Sums<scalar, block_width<decltype(y.y)>> sum;
        row_reduce_strided(team, lanes, col, val, x, base + r, slice_size, width, sum);
        Kokkos::single(Kokkos::PerThread(team),
                       [&]() { y.template store<HasBeta>(first + r, alpha, sum, beta); });
      });
    }
  }
};

/// y = alpha*A*x + beta*y for a Sellp with launch shape s (y fully written,
/// beta == 0 overwrites).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void sellp_slices(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                  const std::string& label, typename YView::non_const_value_type alpha,
                  const Sellp<Value, Index, Device>& a, const XView& x,
                  typename YView::non_const_value_type beta, const YView& y) {
  using matrix = Sellp<Value, Index, Device>;
  if (a.slices() == 0) return;
  const int league = static_cast<int>(
      std::min<std::int64_t>(a.slices(), std::numeric_limits<int>::max()));
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, league, s.team_size, s.vector_length);
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    dispatch_beta(beta, [&](auto has_beta) {
      using functor = SellpSliceFunctor<ExecutionSpace, typename matrix::index_view,
                                        typename matrix::value_view, decltype(xb), decltype(yb),
                                        decltype(has_beta)::value>;
      Kokkos::parallel_for(label, policy,
                           functor{a.slice_sets(), a.slice_lengths(), a.col_indices(), a.values(),
                                   xb, yb, alpha, beta, static_cast<std::int64_t>(a.rows()),
                                   a.slice_size(), a.slices(), s.vector_length});
    });
  });
}

}  // namespace kobalt::detail
