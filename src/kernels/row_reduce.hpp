// SPDX-License-Identifier: BSD-3-Clause
// The shared row body of the row kernels (CSR, ELL, SELL-P, CSR-k): the
// vector lanes of one team thread split a row's slots and their partial
// sums are reduced over the lanes.
//
// row_reduce_contiguous: a row is the slots [first, last) (CSR, CSR-k); the
// vector range runs over the slots themselves (lane l takes first + l,
// first + l + L, ...).
// row_reduce_strided: a row is `count` slots at first, first + step, ...
// (ELL: step = stride; SELL-P: step = slice size). Lane l of L takes slots
// l, l + L, ... of the row (of part p of P: p*L + l, step P*L), so
// consecutive rows' threads read the same slot column, and a lane stops at
// its first padding slot (column < 0): a row's padding follows its entries
// (000 Alg. 3 lines 6-7).
// Two entry points: writing the contiguous case through the strided form
// (step 1) slowed CSR classical and CSR-k (docs/sources.md: "slot_batch").
#pragma once

#include "common.hpp"

#include <Kokkos_Core.hpp>

namespace kobalt::detail {

template <class Offset, class Member, class ColView, class ValView, class XB, class Scalar,
          int N>
KOKKOS_INLINE_FUNCTION void row_reduce_contiguous(const Member& team, const ColView& col,
                                                  const ValView& val, const XB& x, Offset first,
                                                  Offset last, Sums<Scalar, N>& result) {
  if constexpr (N == 1) {
    Scalar sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, first, last),
        [&](const Offset k, Scalar& partial) { partial += Scalar(val(k)) * Scalar(x.x(col(k))); },
        sum);
    result.v[0] = sum;
  } else {
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, first, last),
        [&](const Offset k, Sums<Scalar, N>& partial) { x.fma(partial, val(k), col(k)); },
        Kokkos::Sum<Sums<Scalar, N>>(result));
  }
}

/// row_reduce_contiguous for one right-hand side, each of the `lanes` lanes
/// loading Batch of its slots before it uses any (CSR rows below one wave,
/// latency-bound). Lane l still takes first + l, first + l + lanes, ... and
/// adds them in that order, so where lanes are threads (GPUs) the sum is the
/// one row_reduce_contiguous gives (host backends walk a vector range whole).
template <int Batch, class Offset, class Member, class ColView, class ValView, class XB,
          class Scalar>
KOKKOS_INLINE_FUNCTION void row_reduce_contiguous_batched(const Member& team, int lanes,
                                                          const ColView& col, const ValView& val,
                                                          const XB& x, Offset first, Offset last,
                                                          Sums<Scalar, 1>& result) {
  using Index = typename ColView::non_const_value_type;
  using Value = typename ValView::non_const_value_type;
  Scalar sum = 0;
  Kokkos::parallel_reduce(
      Kokkos::ThreadVectorRange(team, lanes),
      [&](const int lane, Scalar& partial) {
        const Offset step = static_cast<Offset>(lanes);
        for (Offset k = first + lane; k < last; k += Batch * step) {
          Index c[Batch];
          for (int u = 0; u < Batch; ++u) {
            const Offset slot = k + u * step;
            c[u] = slot < last ? col(slot) : Index(0);
          }
          Value v[Batch];
          Scalar xv[Batch];
          for (int u = 0; u < Batch; ++u) {
            const Offset slot = k + u * step;
            v[u] = slot < last ? val(slot) : Value(0);
            xv[u] = slot < last ? Scalar(x.x(c[u])) : Scalar(0);
          }
          for (int u = 0; u < Batch; ++u)
            if (k + u * step < last) partial += Scalar(v[u]) * xv[u];
        }
      },
      sum);
  result.v[0] = sum;
}

// Slots one lane loads before it uses any of them in the strided walks:
// the columns of a batch of slots, then their values and x entries, so the
// loads of a batch are in flight together instead of one column -> value ->
// x chain per slot (the early stop at padding otherwise keeps the compiler
// from issuing the next slot's loads first). 001 unrolls by two; the sizes
// below were the fastest per value type, a larger one only adding registers
// (docs/sources.md: "slot_batch"). Blocks of right-hand sides batch 2, and
// the thread-per-row kernel (ell_sellp_thread_per_row.hpp) 4 where rows are wide
// (wide_block_slots); team kernels keep 2.
template <class Value, int N>
inline constexpr int slot_batch = N > 1 ? 2 : sizeof(Value) <= 4 ? 8 : 4;

/// Rows below one wave (below_one_wave: latency-bound) batch this many slots
/// of one right-hand side, a thread per row (ELL, SELL-P) or a lane's share
/// of a CSR row (docs/sources.md: "slot_batch").
inline constexpr int short_wave_slot_batch = 8;

/// Blocks of 8 right-hand sides batch 4 slots instead of 2 from this many
/// stored slots per row: between the measured widths where 2 and where 4 won;
/// the crossover itself was not measured (docs/sources.md: "slot_batch").
inline constexpr std::int64_t wide_block_slots = 16;

/// partial += the products of the slots first + k * step for k = k0, k0 +
/// k_step, ... < count, stopping at the first padding slot (column < 0): a
/// row's padding follows its entries (000 Alg. 3 lines 6-7).
template <class Offset, class ColView, class ValView, class XB, class Scalar, int N>
KOKKOS_INLINE_FUNCTION void sum_strided_slots(const ColView& col, const ValView& val,
                                              const XB& x, Offset first, Offset step, Offset k0,
                                              Offset k_step, Offset count,
                                              Sums<Scalar, N>& partial) {
  using Index = typename ColView::non_const_value_type;
  using Value = typename ValView::non_const_value_type;
  // Team kernels keep at most 4: 8 (fp32) was measured for a thread per row
  // only, and its registers shrink the largest team Kokkos launches.
  constexpr int strided_batch = slot_batch<Value, N> < 4 ? slot_batch<Value, N> : 4;
  for (Offset k = k0; k < count; k += strided_batch * k_step) {
    Index c[strided_batch];
    for (int u = 0; u < strided_batch; ++u) {
      const Offset slot = k + u * k_step;
      c[u] = slot < count ? col(first + slot * step) : Index(-1);
    }
    Value v[strided_batch];
    for (int u = 0; u < strided_batch; ++u)
      v[u] = c[u] >= 0 ? val(first + (k + u * k_step) * step) : Value(0);
    if constexpr (N == 1) {
      Scalar xv[strided_batch];
      for (int u = 0; u < strided_batch; ++u) xv[u] = c[u] >= 0 ? Scalar(x.x(c[u])) : Scalar(0);
      for (int u = 0; u < strided_batch; ++u) partial.v[0] += Scalar(v[u]) * xv[u];
    } else {
      for (int u = 0; u < strided_batch; ++u)
        if (c[u] >= 0) x.fma(partial, v[u], c[u]);
    }
    if (c[strided_batch - 1] < 0) return;
  }
}

template <class Offset, class Member, class ColView, class ValView, class XB, class Scalar, int N>
KOKKOS_INLINE_FUNCTION void row_reduce_strided(const Member& team, int lanes, const ColView& col,
                                               const ValView& val, const XB& x, Offset first,
                                               Offset step, Offset count,
                                               Sums<Scalar, N>& result, Offset part = 0,
                                               Offset parts = 1) {
  if constexpr (N == 1) {
    Scalar sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, lanes),
        [&](const int lane, Scalar& partial) {
          Sums<Scalar, 1> mine;
          sum_strided_slots(col, val, x, first, step, part * lanes + lane, parts * lanes, count,
                            mine);
          partial += mine.v[0];
        },
        sum);
    result.v[0] = sum;
  } else {
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, lanes),
        [&](const int lane, Sums<Scalar, N>& partial) {
          sum_strided_slots(col, val, x, first, step, part * lanes + lane, parts * lanes, count,
                            partial);
        },
        Kokkos::Sum<Sums<Scalar, N>>(result));
  }
}

}  // namespace kobalt::detail
