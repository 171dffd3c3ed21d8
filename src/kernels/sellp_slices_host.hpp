// SPDX-License-Identifier: BSD-3-Clause
// SELL-P "slices" on hosts (sellp_slices.hpp calls it for slices of 4, 8 or
// 16 rows), SELL-C-sigma style: a thread per slice, the slice's C rows
// as the lanes of one SIMD vector (C = the slice size = 4, 8 or 16, known at
// compile time). A slice stores slot k of its C rows contiguously (column
// major, formats/sellp.hpp), so one step of the walk loads C columns and C
// values as vectors, gathers C entries of x and adds into C row sums: the
// layout SELL-C-sigma was designed for (Kreutzer et al., SIAM J. Sci.
// Comput. 2014; 001 §4 names it). Padding slots (column -1, value 0) are
// masked out of the gather; a slice walks its full width (its longest row),
// which sigma-sorting keeps close to every row's length.
//
// Mapping: RangePolicy over slices, static schedule; no team, no atomics.
#pragma once

#include "common.hpp"
#include "../arch/arch.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>

namespace kobalt::detail {

template <int C, class Index, class Value, class XB, class YB, bool HasBeta>
struct SellpSimdFunctor {
  using scalar = typename YB::scalar;
  static constexpr int N = YB::count_max;

  const Index* sets;
  const Index* lengths;
  const Index* order;  // SELL-C-sigma's stored-to-matrix row map; null: identity
  const Index* col;
  const Value* val;
  XB x;
  YB y;
  scalar alpha, beta;
  std::int64_t rows;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s) const {
    const std::int64_t first = static_cast<std::int64_t>(sets[s]);
    const std::int64_t width = static_cast<std::int64_t>(lengths[s]);
    Sums<scalar, N> sum[C];
    for (std::int64_t k = 0; k < width; ++k) {
      const Index* c = col + first + k * C;
      const Value* v = val + first + k * C;
      arch::prefetch_ahead(c);  // the streams run ahead (arch::prefetch_ahead)
      arch::prefetch_ahead(v);
      if constexpr (N == 1) {
        for (int r = 0; r < C; ++r)  // the SIMD lanes
          sum[r].v[0] += scalar(v[r]) * (c[r] >= 0 ? scalar(x.x(c[r])) : scalar(0));
      } else {
        for (int r = 0; r < C; ++r)
          if (c[r] >= 0) x.fma(sum[r], v[r], c[r]);
      }
    }
    for (int r = 0; r < C; ++r) {
      const std::int64_t i = s * C + r;
      if (i < rows) y.template store<HasBeta>(order ? static_cast<std::int64_t>(order[i]) : i,
                                              alpha, sum[r], beta);
    }
  }
};

/// y = alpha*A*x + beta*y for a Sellp whose slice size is
/// tuning::host_simd_slice.
template <class ExecutionSpace, class Matrix, class XView, class YView>
void sellp_slices_host(const ExecutionSpace& exec, const std::string& label,
                typename YView::non_const_value_type alpha, const Matrix& a, const XView& x,
                typename YView::non_const_value_type beta, const YView& y) {
  using index_type = typename Matrix::index_type;
  using value_type = typename Matrix::value_type;
  const std::int64_t slices = static_cast<std::int64_t>(a.slices());
  if (slices == 0) return;
  const index_type* order = a.row_order().extent(0) ? a.row_order().data() : nullptr;
  const auto launch = [&](auto c) {
    constexpr int C = decltype(c)::value;
    for_each_column_block(x, y, [&](auto xb, auto yb) {
      dispatch_beta(beta, [&](auto has_beta) {
        using functor = SellpSimdFunctor<C, index_type, value_type, decltype(xb), decltype(yb),
                                         decltype(has_beta)::value>;
        Kokkos::parallel_for(
            label, Kokkos::RangePolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>(exec, 0,
                                                                                   slices),
            functor{a.slice_sets().data(), a.slice_lengths().data(), order,
                    a.col_indices().data(), a.values().data(), xb, yb, alpha, beta,
                    static_cast<std::int64_t>(a.rows())});
      });
    });
  };
  switch (a.slice_size()) {
    case 4: launch(std::integral_constant<int, 4>{}); break;
    case 8: launch(std::integral_constant<int, 8>{}); break;
    case 16: launch(std::integral_constant<int, 16>{}); break;
    default:
      throw invalid_parameter("kobalt: " + label + ": the SIMD slice kernel takes slices of 4, 8 "
                              "or 16 rows, not " + std::to_string(a.slice_size()));
  }
}

}  // namespace kobalt::detail
