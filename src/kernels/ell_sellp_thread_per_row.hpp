// SPDX-License-Identifier: BSD-3-Clause
// A thread per row over column-major slots (ELL, SELL-P slices): 000 Alg. 3
// with one thread per row (Alg. 4's case width / rows <= 1e-2, every large
// regular matrix) and 000 Alg. 5 (SELL-P, t = 1). Consecutive threads take
// consecutive rows, so every slot column is one coalesced stream.
//
// Each choice below beat its alternative in throwaway kernels beside the
// library's (docs/sources.md: "ell_sellp_thread_per_row"): a RangePolicy over rows (no team
// prologue, no nested range), Offset = int whenever the slots fit, batched
// loads (row_reduce.hpp's slot_batch) and streaming (evict-first) loads of
// columns and values.
#pragma once

#include "common.hpp"
#include "row_reduce.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace kobalt::detail {

/// ELL: row i's slots start at slot i, `width` of them, `stride` apart.
template <class Offset>
struct EllRowSlots {
  Offset stride, width;
  KOKKOS_INLINE_FUNCTION void locate(Offset i, Offset& first, Offset& count, Offset& step) const {
    first = i;
    count = width;
    step = stride;
  }
  /// The row of y that slot row i sums into.
  KOKKOS_INLINE_FUNCTION Offset row(Offset i) const { return i; }
};

/// SELL-P: stored row i is local row i mod b of slice i / b and sums into
/// y row order[i] (SELL-C-sigma; order null: row i).
template <class Offset, class Index>
struct SliceRowSlots {
  const Index* sets;
  const Index* lengths;
  const Index* order;
  Offset b;
  KOKKOS_INLINE_FUNCTION void locate(Offset i, Offset& first, Offset& count, Offset& step) const {
    const Offset s = i / b;
    first = static_cast<Offset>(sets[s]) + (i - s * b);
    count = static_cast<Offset>(lengths[s]);
    step = b;
  }
  KOKKOS_INLINE_FUNCTION Offset row(Offset i) const {
    return order ? static_cast<Offset>(order[i]) : i;
  }
};

template <class ExecutionSpace, class Offset, class Slots, class Index, class Value, class XB,
          class YB, bool HasBeta, int Batch = slot_batch<Value, YB::count_max>>
struct ThreadPerRowFunctor {
  using scalar = typename YB::scalar;
  static constexpr int N = YB::count_max;
  using load = arch::loads<ExecutionSpace>;

  const Index* col;
  const Value* val;
  XB x;
  YB y;
  Slots slots;
  scalar alpha, beta;

  static constexpr int strided_batch = Batch;  // slots whose loads issue together

  KOKKOS_INLINE_FUNCTION void operator()(const Offset i) const {
    Offset first, count, step;
    slots.locate(i, first, count, step);
    Sums<scalar, N> sum;
    for (Offset k = 0; k < count; k += strided_batch) {
      Index c[strided_batch];
      for (int u = 0; u < strided_batch; ++u)
        c[u] = k + u < count ? load::streaming(col + first + (k + u) * step) : Index(-1);
      Value v[strided_batch];
      for (int u = 0; u < strided_batch; ++u)
        v[u] = c[u] >= 0 ? load::streaming(val + first + (k + u) * step) : Value(0);
      if constexpr (N == 1) {
        scalar xv[strided_batch];
        for (int u = 0; u < strided_batch; ++u)
          xv[u] = c[u] >= 0 ? scalar(x.x(c[u])) : scalar(0);
        for (int u = 0; u < strided_batch; ++u) sum.v[0] += scalar(v[u]) * xv[u];
      } else {
        for (int u = 0; u < strided_batch; ++u)
          if (c[u] >= 0) x.fma(sum, v[u], c[u]);
      }
      if (c[strided_batch - 1] < 0) break;  // a row's padding follows its entries
    }
    y.template store<HasBeta>(slots.row(i), alpha, sum, beta);
  }
};

/// y = alpha*A*x + beta*y with a thread per row over `nnz` entries in
/// `stored` slots; make_slots(offset_tag) returns the row locator for Offset
/// (int when `stored` slots fit, else std::int64_t).
template <class ExecutionSpace, class Index, class Value, class MakeSlots, class XView,
          class YView>
void ell_sellp_thread_per_row(const ExecutionSpace& exec, const std::string& label,
               typename YView::non_const_value_type alpha, std::int64_t rows,
               std::int64_t nnz, std::int64_t stored, const Index* col, const Value* val,
               MakeSlots&& make_slots,
               const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  if (rows == 0) return;
  // Blocks of right-hand sides on wide rows: 4 slots per batch (row_reduce.hpp).
  const bool wide_rows = stored >= wide_block_slots * rows;
  // Below one wave, of more entries than one batch on average (shorter rows
  // stop after their first batch anyway).
  const bool short_wave =
      below_one_wave(exec, rows) && nnz > std::int64_t{slot_batch<Value, 1>} * rows;
  const auto launch = [&](auto offset_tag) {
    using Offset = decltype(offset_tag);
    const auto slots = make_slots(offset_tag);
    for_each_column_block(x, y, [&](auto xb, auto yb) {
      dispatch_beta(beta, [&](auto has_beta) {
        const auto run = [&](auto batch) {
          using functor =
              ThreadPerRowFunctor<ExecutionSpace, Offset, decltype(slots), Index, Value, decltype(xb),
                             decltype(yb), decltype(has_beta)::value, decltype(batch)::value>;
          Kokkos::parallel_for(
              label,
              Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<Offset>>(exec, 0,
                                                                             Offset(rows)),
              functor{col, val, xb, yb, slots, alpha, beta});
        };
        constexpr int batch = slot_batch<Value, decltype(yb)::count_max>;
        if constexpr (decltype(yb)::count_max > 1) {
          if (wide_rows) {
            run(std::integral_constant<int, 4>{});
            return;
          }
        } else if constexpr (batch < short_wave_slot_batch && std::is_floating_point_v<Value>) {
          // Real values only: measured in fp64; complex ones would double the registers.
          if (short_wave) {
            run(std::integral_constant<int, short_wave_slot_batch>{});
            return;
          }
        }
        run(std::integral_constant<int, batch>{});
      });
    });
  };
  if (stored < std::numeric_limits<int>::max() && rows < std::numeric_limits<int>::max())
    launch(int{});
  else
    launch(std::int64_t{});
}

}  // namespace kobalt::detail
