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
// l, l + L, ... of the row, so consecutive rows' threads read the same slot
// column, and a lane stops at its first padding slot (column < 0): a row's
// padding follows its entries (000 Alg. 3 lines 6-7).
// Measured on the H200 (2026-11-22): writing the contiguous case through
// the strided form (step 1) cost CSR classical 5-18% and CSR-k 8-30%, hence
// two entry points.
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

template <class Offset, class Member, class ColView, class ValView, class XB, class Scalar, int N>
KOKKOS_INLINE_FUNCTION void row_reduce_strided(const Member& team, int lanes, const ColView& col,
                                               const ValView& val, const XB& x, Offset first,
                                               Offset step, Offset count,
                                               Sums<Scalar, N>& result) {
  if constexpr (N == 1) {
    Scalar sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, lanes),
        [&](const int lane, Scalar& partial) {
          for (Offset k = lane; k < count; k += lanes) {
            const Offset slot = first + k * step;
            const auto c = col(slot);
            if (c < 0) break;
            partial += Scalar(val(slot)) * Scalar(x.x(c));
          }
        },
        sum);
    result.v[0] = sum;
  } else {
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, lanes),
        [&](const int lane, Sums<Scalar, N>& partial) {
          for (Offset k = lane; k < count; k += lanes) {
            const Offset slot = first + k * step;
            const auto c = col(slot);
            if (c < 0) break;
            x.fma(partial, val(slot), c);
          }
        },
        Kokkos::Sum<Sums<Scalar, N>>(result));
  }
}

}  // namespace kobalt::detail
